package interp_test

import (
	"context"
	"testing"

	"github.com/ptorepl/ptorepl/interp"
)

// BenchmarkDSLCell: evaluating a cell that makes ~40 DSL calls in a loop
// (the kernel latency benchmark's DSL cell, roughly).
func BenchmarkDSLCell(b *testing.B) {
	s, err := interp.New(interp.Options{})
	if err != nil {
		b.Fatal(err)
	}
	setup := `latProg := pl.NewProgram("Latency")`
	if _, err := s.Eval(context.Background(), setup); err != nil {
		b.Fatal(err)
	}
	cell := `latProg = pl.NewProgram("Latency")
latProg.InCore("k", func(f *pl.Func) {
	sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(4, 1), pl.INT32))
	ctx := f.Let("ctx", pld.GetCommCtx(sig))
	for i := 0; i < 20; i++ {
		me := f.Let("me", pld.Rank(ctx))
		f.Do(pld.Notify(sig, me, pl.Dims(0, 0), 1, pld.AtomicAdd))
	}
})
42`
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Eval(context.Background(), cell); err != nil {
			b.Fatal(err)
		}
	}
}
