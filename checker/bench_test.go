package checker_test

import (
	"context"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
)

// BenchmarkCheckerOverhead is the checker's cost on the 8-rank allreduce
// (runtime's BenchmarkAllReduce: pld.tensor.allreduce of 256 FP32 per rank,
// and the hand-written quickstart): each iteration runs the program
// unchecked and then checked, and the ratio of the two times is reported
// as x-overhead = checked/unchecked (target <= 3).
func BenchmarkCheckerOverhead(b *testing.B) {
	const n = 8
	for _, c := range []struct {
		name string
		prog *pl.Program
	}{
		{"allreduce-builtin/P=8", allreduceBuiltin(256)},
		{"allreduce-quickstart/P=8", quickstart(256)},
	} {
		b.Run(c.name, func(b *testing.B) {
			exe, err := runtime.NewSimulator().Load(c.prog.IR())
			if err != nil {
				b.Fatal(err)
			}
			args := meshArgs(n, 256)()
			opts := runtime.RunOptions{Ranks: n, MaxEvents: -1}
			var plain, checked time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if _, err := exe.Run(context.Background(), args, opts); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				co := opts
				ck := checker.Attach(&co)
				if _, err := exe.Run(context.Background(), args, co); err != nil {
					b.Fatal(err)
				}
				if rep := ck.Report(); !rep.Clean() {
					b.Fatal(rep)
				}
				t2 := time.Now()
				plain += t1.Sub(t0)
				checked += t2.Sub(t1)
			}
			b.ReportMetric(float64(plain.Nanoseconds())/float64(b.N), "ns/unchecked-run")
			b.ReportMetric(float64(checked.Nanoseconds())/float64(b.N), "ns/checked-run")
			b.ReportMetric(float64(checked)/float64(plain), "x-overhead")
		})
	}
}
