package passes_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// A cast that does not name its mode rounds half away from zero
// (mode="round"), as upstream's cast functions store it, written and
// compiled; the compiled tile.cast carries mode=2, printed mode='round' as
// upstream's printer prints it.
func TestCastRoundsByDefault(t *testing.T) {
	prog := pl.NewProgram("CastRound")
	k := prog.InCore("k", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 8), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 8), pl.INT32))
		f.Returns(pl.Tensor(pl.Dims(1, 8), pl.INT32))
		f.Return(pl.Assemble(y, pl.Cast(x, pl.INT32), pl.Dims(0, 0)))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 8), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 8), pl.INT32))
		f.Do(f.Dispatch(k, 0, x, y))
	})
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	require.NoError(t, err)
	st, ok := comp.Stage("ConvertTensorToTileOps")
	require.True(t, ok)
	require.Contains(t, st.Text, "pl.tile.cast(x__tile, target_type=pl.INT32, mode='round')")
	in := []float32{2.5, -2.5, 0.5, -0.5, 1.5, 3.49, -3.51, 7}
	want := []float64{3, -3, 1, -1, 2, 3, -4, 7}
	writtenAndCompiled(t, prog, comp, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.FromFloat32(in, 1, 8), tensor.Zeros(ir.INT32, 1, 8)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for j, w := range want {
			require.Equal(t, w, a[1].At(0, j), "compiled %v: cast(%v)", compiled, in[j])
		}
	})
}
