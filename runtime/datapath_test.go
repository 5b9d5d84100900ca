package runtime_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// The fast data path (typed FP32 kernels, chunked multi-rank reduce,
// window-to-window copies) at sizes past its chunk size: results must be
// bit-identical to folding in float64 and rounding once per step, in the
// order the simulator always used (my own copy, then the peers in rank order).

// bigAllReduce is x → window → allreduce(op) → y, then y + x through a
// tile add, so the FP32 elementwise path is covered too.
func bigAllReduce(size int, op ir.ReduceOp) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("BigAllReduce")
	k := prog.InCore("k", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, size), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, size), pl.FP32))
		z := f.Out("z", pl.Tensor(pl.Dims(1, size), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, size), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, size)))
		f.Set(data, pl.Store(t, pl.Dims(0, 0), data))
		f.Set(data, pld.AllReduce(data, sig, pld.Op(op)))
		out := f.Let("out", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, size)))
		f.Set(y, pl.Store(out, pl.Dims(0, 0), y))
		f.Set(z, pl.Store(f.Let("sum", pl.Add(out, t)), pl.Dims(0, 0), z))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		z := f.Out("z", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(size*4))
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r), pl.Index(z, r),
				f.Let("data", pld.Window(db, pl.Dims(1, size), pl.FP32)),
				f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	return prog
}

func TestLargeAllReduceBitExact(t *testing.T) {
	const n, size = 3, 100_003 // several 256 KiB chunks and a ragged tail
	fns := map[ir.ReduceOp]func(a, b float64) float64{
		pld.Sum: func(a, b float64) float64 { return a + b }, pld.Max: math.Max,
		pld.Min: math.Min, pld.Prod: func(a, b float64) float64 { return a * b },
	}
	for op, fn := range fns {
		t.Run(fmt.Sprint(op), func(t *testing.T) {
			x := tensor.Randn(int64(op)+7, n, 1, size)
			xs := x.Float32s()
			xs[5], xs[size+5] = float32(math.NaN()), float32(math.Inf(1)) // specials on two ranks
			xs[9], xs[2*size+9] = float32(math.Copysign(0, -1)), 0
			x = tensor.FromFloat32(xs, n, 1, size)
			y, z := tensor.Zeros(ir.FP32, n, 1, size), tensor.Zeros(ir.FP32, n, 1, size)
			mustRun(t, bigAllReduce(size, op), n, x, y, z)
			ys, zs := y.Float32s(), z.Float32s()
			for r := 0; r < n; r++ {
				for j := 0; j < size; j++ {
					acc := float64(xs[r*size+j])
					for s := 0; s < n; s++ {
						if s != r {
							acc = float64(float32(fn(acc, float64(xs[s*size+j]))))
						}
					}
					got := ys[r*size+j]
					require.Equal(t, math.Float32bits(float32(acc)), math.Float32bits(got), "rank %d element %d", r, j)
					sum := float32(float64(got) + float64(xs[r*size+j]))
					require.Equal(t, math.Float32bits(sum), math.Float32bits(zs[r*size+j]), "tile add, rank %d element %d", r, j)
				}
			}
		})
	}
}

// getRegion: every rank gets a [rows, cols] block of the next rank's
// window at an offset into its own window at another offset (strided on
// both sides), then stores its window into y.
func getRegion(rows, cols int) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("GetRegion")
	k := prog.InCore("k", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(rows, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(rows, cols), pl.FP32))
		src := f.InOut("src", pld.DistributedTensor(pl.Dims(rows, cols), pl.FP32))
		dst := f.InOut("dst", pld.DistributedTensor(pl.Dims(rows, cols), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(src))
		next := f.Let("next", pl.Mod(pl.Add(pld.Rank(ctx), 1), pld.NRanks(ctx)))
		f.Set(src, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(rows, cols))), pl.Dims(0, 0), src))
		f.Set(sig, pld.Barrier(sig))
		f.Do(pld.Get(dst, next, src, pld.Region(pl.Dims(1, 2), pl.Dims(0, 1), pl.Dims(rows-1, cols-3))))
		f.Set(sig, pld.Barrier(sig))
		f.Set(y, pl.Store(f.Let("out", pl.Load(dst, pl.Dims(0, 0), pl.Dims(rows, cols))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, rows, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, rows, cols), pl.FP32))
		sb := f.Let("src_buf", pld.AllocWindowBuffer(rows*cols*4))
		db := f.Let("dst_buf", pld.AllocWindowBuffer(rows*cols*4))
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r),
				f.Let("src", pld.Window(sb, pl.Dims(rows, cols), pl.FP32)),
				f.Let("dst", pld.Window(db, pl.Dims(rows, cols), pl.FP32)),
				f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	return prog
}

func TestStridedGetBetweenWindows(t *testing.T) {
	const n, rows, cols = 3, 5, 7
	x := tensor.Randn(11, n, rows, cols)
	y := tensor.Zeros(ir.FP32, n, rows, cols)
	mustRun(t, getRegion(rows, cols), n, x, y)
	for r := 0; r < n; r++ {
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				want := 0.0 // windows start zeroed
				if i >= 1 && j >= 2 && j < 2+cols-3 {
					want = x.At((r+1)%n, i-1, j-1)
				}
				require.Equal(t, want, y.At(r, i, j), "rank %d [%d, %d]", r, i, j)
			}
		}
	}
}
