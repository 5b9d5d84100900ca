package interp_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// IR built in a cell displays as PyPTO text, and DSL misuse names the cell line.
func TestDSLInCells(t *testing.T) {
	s := newSession(t)
	eval(t, s, `prog := pl.NewProgram("P")`)
	r := eval(t, s, `k := prog.InCore("k", func(f *pl.Func) {
	x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32))
	y := f.Out("y", pl.Tensor(pl.Dims(1, 64), pl.FP32))
	t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 64)))
	f.Return(pl.Store(t, pl.Dims(0, 0), y))
})
prog`)
	require.Contains(t, r.Text(), "class P:")
	require.Contains(t, r.Text(), "t: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)")

	ce := evalErr(t, s, `prog2 := pl.NewProgram("Q")
prog2.InCore("bad", func(f *pl.Func) {
	sig := f.InOut("sig", pl.Tensor(pl.Dims(1, 1), pl.INT32))
	f.Do(pld.Notify(sig, 1, pl.Dims(0, 0), 1, pld.AtomicAdd))
})`)
	require.Equal(t, 4, ce.Line, ce.Error())
	require.Contains(t, ce.Error(), "cell[3]:4: pld.system.notify: argument 'target': expected a pld.DistributedTensor (window-bound), given pl.Tensor[[1, 1], pl.INT32]")
	require.NotContains(t, ce.Error(), "goroutine")
	// The builder state was reset: a new program builds fine.
	eval(t, s, `prog3 := pl.NewProgram("R")`)
}
