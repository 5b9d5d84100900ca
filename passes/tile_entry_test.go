package passes_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// branchy reads x in both branches of an if and z only through a slice;
// y takes the result.
func branchy() *pl.Program {
	prog := pl.NewProgram("Branchy")
	k := prog.InCore("k", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		z := f.In("z", pl.Tensor(pl.Dims(4, 32), pl.FP32))
		n := f.Scalar("n", pl.INT64)
		y := f.Out("y", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(4, 16), pl.FP32))
		acc := f.Let("acc", pl.Slice(z, pl.Dims(4, 16), pl.Dims(0, 16)))
		f.IfElse(pl.Gt(n, 0), func() {
			f.Set(acc, pl.Add(acc, x))
		}, func() {
			f.Set(acc, pl.Mul(acc, x))
		})
		f.Return(pl.Assemble(y, acc, pl.Dims(0, 0)))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		z := f.In("z", pl.Tensor(pl.Dims(4, 32), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		f.Do(f.Dispatch(k, 0, x, z, 1, y))
	})
	return prog
}

// A plain tensor parameter that converted ops read is loaded once, at the
// kernel's top (upstream's entry load, x__tile), and both branches read
// that tile; a parameter only sliced is loaded where it is sliced. The
// compiled program computes what the written one does.
func TestEntryLoads(t *testing.T) {
	prog := branchy()
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	require.NoError(t, err)
	st, ok := comp.Stage("ConvertTensorToTileOps")
	require.True(t, ok)
	kernel := st.Text[strings.Index(st.Text, "def k("):]
	body := strings.Split(kernel, "\n")[1]
	require.Contains(t, body, "x__tile: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)", "the kernel's first statement")
	require.Equal(t, 1, strings.Count(kernel, "pl.tile.load(x,"), "x is loaded once")
	require.Contains(t, kernel, "pl.tile.add(")
	require.Contains(t, kernel, "x__tile)")
	require.NotContains(t, kernel, "z__tile", "a sliced parameter takes no entry load")
	writtenAndCompiled(t, prog, comp, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 4, 16), tensor.Randn(2, 4, 32), tensor.Zeros(ir.FP32, 4, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		x, z, y := a[0], a[1], a[2]
		for r := 0; r < 4; r++ {
			for c := 0; c < 16; c++ {
				want := float64(float32(z.At(r, 16+c) + x.At(r, c)))
				require.Equal(t, want, y.At(r, c), "compiled %v: y[%d, %d]", compiled, r, c)
			}
		}
	})
}

// A kernel without a return statement gains an explicit one in
// ConvertTensorToTileOps, as upstream's conversion leaves it.
func TestVoidKernelGainsReturn(t *testing.T) {
	prog := pl.NewProgram("Void")
	k := prog.InCore("k", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 16), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 16), pl.FP32))
		f.Set(y, pl.Store(pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 16)), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 16), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 16), pl.FP32))
		f.Do(f.Dispatch(k, 0, x, y))
	})
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	require.NoError(t, err)
	before, ok := comp.Stage("OutlineIncoreScopes")
	require.True(t, ok)
	after, ok := comp.Stage("ConvertTensorToTileOps")
	require.True(t, ok)
	require.NotContains(t, before.Text, "        return\n")
	require.Contains(t, after.Text, "pl.tile.store(")
	require.Regexp(t, `pl\.tile\.store\([^\n]*\n        return\n`, after.Text)
}
