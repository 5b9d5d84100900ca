package pl_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/tensor"
)

// twoGroupSwap is upstream's overlapping two-group swap: windows of group
// A go to devices {0, 1}, of group B to {1, 2}, and each kernel swaps its
// row with its peer, named by its rank in the group (1 - r in A, 2 - r in
// B), so device 1 is rank 1 of A and rank 0 of B.
func twoGroupSwap(cols int) *pl.Program {
	prog := pl.NewProgram("TwoGroupSwap")
	rowT := pl.Tensor(pl.Dims(1, cols), pl.FP32)
	swap := prog.InCore("swap_step", func(f *pl.Func) {
		x := f.In("x", rowT)
		y := f.Out("y", rowT)
		scratch := f.InOut("scratch", pld.DistributedTensor(pl.Dims(1, cols), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
		peer := f.Scalar("peer", pl.INT32)
		f.Do(pl.Store(f.Let("local", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, cols))), pl.Dims(0, 0), scratch))
		f.Do(pld.Notify(sig, peer, pl.Dims(0, 0), 1, pld.AtomicAdd))
		f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		f.Set(y, pl.Store(f.Let("recv", pld.RemoteLoad(scratch, peer, pl.Dims(0, 0), pl.Dims(1, cols))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		xs := f.In("xs", pl.Tensor(pl.Dims(3, 1, cols), pl.FP32))
		ya := f.Out("ya", pl.Tensor(pl.Dims(3, 1, cols), pl.FP32))
		yb := f.Out("yb", pl.Tensor(pl.Dims(3, 1, cols), pl.FP32))
		group := func(tag string, first int, ys pl.Expr) {
			data := f.Let("scratch_"+tag+"_buf", pld.AllocWindowBuffer(cols*4))
			sigs := f.Let("signal_"+tag+"_buf", pld.AllocWindowBuffer(4))
			f.For("r_"+tag, pl.Range(first, first+2), func(r pl.Expr) {
				peer := pl.Sub(2*first+1, r) // the other member's rank in the group
				f.Do(f.Dispatch(swap, r, pl.Index(xs, r), pl.Index(ys, r),
					f.Let("scratch", pld.Window(data, pl.Dims(1, cols), pl.FP32)),
					f.Let("signal", pld.Window(sigs, pl.Dims(1, 1), pl.INT32)),
					pl.Cast(pl.Sub(peer, first), pl.INT32)))
			})
		}
		group("a", 0, ya)
		group("b", 1, yb)
	})
	return prog
}

// A window dispatched to some of the devices has them as its comm domain
// in every stage, the program as written included: a peer index is a rank
// of the group, and each device gets the row of its partner in each group.
func TestWindowDomainsAsWritten(t *testing.T) {
	const cols = 16
	prog := twoGroupSwap(cols)
	xs := tensor.Randn(3, 3, 1, cols)
	check := func(t *testing.T, res *pl.RunResult) {
		t.Helper()
		require.False(t, res.Report().HasErrors(), "%s", res.Report())
		ya, yb := res.Outputs()[0], res.Outputs()[1]
		for _, c := range []struct {
			y        *tensor.Tensor
			dev, src int
		}{{ya, 0, 1}, {ya, 1, 0}, {yb, 1, 2}, {yb, 2, 1}} {
			for j := 0; j < cols; j++ {
				require.Equal(t, xs.At(c.src, 0, j), c.y.At(c.dev, 0, j), "device %d's row from device %d, column %d", c.dev, c.src, j)
			}
		}
		require.Zero(t, ya.At(2, 0, 0), "device 2 is not in group A")
		require.Zero(t, yb.At(0, 0, 0), "device 0 is not in group B")
	}
	args := func() []*tensor.Tensor {
		return []*tensor.Tensor{xs, tensor.Zeros(ir.FP32, 3, 1, cols), tensor.Zeros(ir.FP32, 3, 1, cols)}
	}
	res, err := pl.Run(prog, pl.Ranks(3), args()...)
	require.NoError(t, err)
	check(t, res)
	c, err := pl.TryCompile(prog, pl.Ranks(3))
	require.NoError(t, err)
	res, err = c.Run(pl.Ranks(3), args()...)
	require.NoError(t, err)
	check(t, res)
	d, err := c.Differential(pl.Ranks(3), args()...)
	require.NoError(t, err)
	require.True(t, d.None(), "%v", d)
}
