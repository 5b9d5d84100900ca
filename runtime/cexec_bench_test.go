package runtime_test

import (
	"context"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// The executor on the lowered ring allreduce (8 ranks x 1 Mi FP32),
// without the protocol checker, with and without the timeline: its own
// cost (bench/ times the full c.Run a user makes).
func BenchmarkExecutorsLoweredRing8x1Mi(b *testing.B) {
	const n, size = 8, 1 << 20
	c, err := pl.TryCompile(allReduceMode(n, size, pl.FP32, pld.Sum, "ring"), pl.Ranks(n))
	if err != nil {
		b.Fatal(err)
	}
	exe, err := runtime.NewSimulator().Load(c.Final())
	if err != nil {
		b.Fatal(err)
	}
	args := []*tensor.Tensor{tensor.Randn(1, n, 1, size), tensor.Zeros(ir.FP32, n, 1, size)}
	for _, k := range []struct {
		name string
		o    runtime.RunOptions
	}{
		{"compiled", runtime.RunOptions{Ranks: n}},
		{"compiled-no-timeline", runtime.RunOptions{Ranks: n, MaxEvents: -1}},
	} {
		b.Run(k.name, func(b *testing.B) {
			b.SetBytes(n * size * 4)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := exe.Run(context.Background(), args, k.o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
