package checker_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
)

// BenchmarkRelaxedOverhead is the relaxed memory mode's cost on the
// compiled mesh and ring allreduce (4096 FP32 per rank, checker attached):
// each iteration runs the program sequentially consistent, then relaxed,
// and reports x-relaxed = relaxed/SC.
func BenchmarkRelaxedOverhead(b *testing.B) {
	const size = 4096
	for _, mode := range []string{"mesh", "ring"} {
		for _, n := range []int{2, 4, 8} {
			b.Run(fmt.Sprintf("%s/P=%d", mode, n), func(b *testing.B) {
				final, err := passes.Lower(allReduceOf(mode, pld.Sum, size)(n).IR())
				if err != nil {
					b.Fatal(err)
				}
				exe, err := runtime.NewSimulator().Load(final)
				if err != nil {
					b.Fatal(err)
				}
				args := allReduceArgs(size)(n)
				run := func(relaxed bool) time.Duration {
					o := runtime.RunOptions{Ranks: n, MaxEvents: -1, Relaxed: relaxed}
					c := checker.Attach(&o)
					t0 := time.Now()
					if _, err := exe.Run(context.Background(), args, o); err != nil {
						b.Fatal(err)
					}
					d := time.Since(t0)
					if !c.Report().Clean() {
						b.Fatalf("not clean:\n%s", c.Report())
					}
					return d
				}
				var sc, rx time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					sc += run(false)
					rx += run(true)
				}
				b.ReportMetric(float64(rx)/float64(sc), "x-relaxed")
			})
		}
	}
}
