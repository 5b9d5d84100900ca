package passes_test

import (
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// runningSum sums x's four [4, 16] column chunks into acc, a tensor created
// with a value (pl.Full) and carried through the loop by pl.Add.
func runningSum() *pl.Program {
	prog := pl.NewProgram("RunningSum")
	k := prog.InCore("sum", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(4, 64), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(4, 16), pl.FP32))
		acc := f.Let("acc", pl.Full(pl.Dims(4, 16), pl.FP32, 0.5))
		f.For("kb", pl.Range(4), func(kb pl.Expr) {
			f.Set(acc, pl.Add(acc, pl.Slice(x, pl.Dims(4, 16), pl.Dims(0, pl.Mul(kb, 16)))))
		})
		f.Return(pl.Assemble(y, acc, pl.Dims(0, 0)))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(4, 64), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		f.Do(f.Dispatch(k, 0, x, y))
	})
	return prog
}

// A created tensor with a value that a loop carries as a Vec tile is a
// tile.full, the iter-arg and the loop's result Vec tiles; the program
// gives the same sums compiled as written.
func TestCarriedVecTile(t *testing.T) {
	prog := runningSum()
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	require.NoError(t, err)
	st, ok := comp.Stage("ConvertTensorToTileOps")
	require.True(t, ok)
	require.Contains(t, st.Text, "acc__tile: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([4, 16], 0.5, dtype=pl.FP32)")
	require.Contains(t, st.Text, "acc__rv_v3: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(acc__tile_1)")
	writtenAndCompiled(t, prog, comp, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 4, 64), tensor.Zeros(ir.FP32, 4, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		x, y := a[0], a[1]
		for r := 0; r < 4; r++ {
			for c := 0; c < 16; c++ {
				want := 0.5
				for kb := 0; kb < 4; kb++ {
					want = float64(float32(want + x.At(r, kb*16+c)))
				}
				require.Equal(t, want, y.At(r, c), "compiled %v: y[%d, %d]", compiled, r, c)
			}
		}
	})
}

// writtenAndCompiled runs prog as written and comp on one rank, each on
// fresh tensors from args, and checks each run's tensors after it.
func writtenAndCompiled(t *testing.T, prog *pl.Program, comp *pl.Compiled, args func() []*tensor.Tensor, check func(a []*tensor.Tensor, compiled bool)) {
	t.Helper()
	for _, compiled := range []bool{false, true} {
		a := args()
		var err error
		if compiled {
			_, err = comp.Run(pl.Ranks(1), a...)
		} else {
			_, err = pl.Run(prog, pl.Ranks(1), a...)
		}
		require.NoError(t, err, "compiled %v", compiled)
		check(a, compiled)
	}
}

// The carried-tile errors: an accumulator in Acc cannot start from a
// value, and a path that yields a GM tensor where the others yield tiles
// is named with both types.
func TestCarriedTileErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		init func() pl.Expr
		els  bool
		want string
	}{
		{"acc with a value", func() pl.Expr { return pl.Full(pl.Dims(16, 32), pl.FP32, 0) }, false,
			"acc__ssa_v0 is created with init_value and carried through a loop in pl.Mem.Acc memory, where no op fills a tile"},
		{"a GM path", func() pl.Expr { return pl.Create(pl.Dims(16, 32), pl.FP32) }, true,
			"if carries pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] as an on-chip tile, but one of its paths yields"},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := pl.NewProgram("Carry")
			prog.InCore("k", func(f *pl.Func) {
				a := f.In("a", pl.Tensor(pl.Dims(16, 64), pl.FP16))
				b := f.In("b", pl.Tensor(pl.Dims(64, 32), pl.FP16))
				g := f.In("g", pl.Tensor(pl.Dims(16, 32), pl.FP32))
				out := f.Out("out", pl.Tensor(pl.Dims(16, 32), pl.FP32))
				f.Returns(pl.Tensor(pl.Dims(16, 32), pl.FP32))
				acc := f.Let("acc", c.init())
				f.For("kb", pl.Range(2), func(kb pl.Expr) {
					if c.els {
						f.IfElse(pl.Eq(kb, 0), func() { f.Set(acc, pl.MatmulOut(a, b, pl.FP32)) }, func() { f.Set(acc, g) })
						return
					}
					f.Set(acc, pl.MatmulAcc(acc, a, b))
				})
				f.Return(pl.Assemble(out, acc, pl.Dims(0, 0)))
			})
			_, err := pl.TryCompile(prog, pl.Ranks(1))
			require.Error(t, err)
			require.True(t, strings.Contains(err.Error(), c.want), err.Error())
		})
	}
}
