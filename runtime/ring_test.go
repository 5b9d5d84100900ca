package runtime_test

import (
	"fmt"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

const S = 64

// ring builds model.md's 05/06 examples: each rank stages x into a window,
// then moves data one step around the ring with the given exchange.
func ring(mode string) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("Ring_" + mode)
	k := prog.InCore("step", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, S), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, S), pl.FP32))
		src := f.InOut("src", pld.DistributedTensor(pl.Dims(1, S), pl.FP32))
		dst := f.InOut("dst", pld.DistributedTensor(pl.Dims(1, S), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(src))
		me := f.Let("me", pld.Rank(ctx))
		n := f.Let("n", pld.NRanks(ctx))
		next := f.Let("next", pl.Mod(pl.Add(me, 1), n))
		prev := f.Let("prev", pl.Mod(pl.Sub(pl.Add(me, n), 1), n))
		f.Set(src, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), src))
		switch mode {
		case "put":
			f.Do(pld.Put(dst, next, src))
			f.Do(pld.Notify(sig, next, pl.Dims(0, 0), 1, pld.AtomicAdd))
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		case "get":
			f.Do(pld.Notify(sig, prev, pl.Dims(0, 0), 1, pld.AtomicAdd))
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
			f.Do(pld.Get(dst, next, src))
		case "load":
			f.Do(pld.Barrier(sig))
			f.Set(dst, pl.Store(f.Let("r", pld.RemoteLoad(src, next, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), dst))
		case "store":
			f.Do(pld.RemoteStore(f.Let("s", pl.Load(src, pl.Dims(0, 0), pl.Dims(1, S))), dst, next, pl.Dims(0, 0)))
			f.Do(pld.Barrier(sig))
		}
		f.Return(pl.Store(f.Let("out", pl.Load(dst, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, S), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, S), pl.FP32))
		sb := f.Let("src_buf", pld.AllocWindowBufferOf(pl.Dims(1, S), pl.FP32))
		db := f.Let("dst_buf", pld.AllocWindowBufferOf(pl.Dims(1, S), pl.FP32))
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r),
				f.Let("src", pld.Window(sb, pl.Dims(1, S), pl.FP32)), f.Let("dst", pld.Window(db, pl.Dims(1, S), pl.FP32)),
				f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
		f.Return(y)
	})
	return prog
}

// model.md §5–7: put and remote_store shift data to the next rank
// (y[r] = x[r-1]); get and remote_load read the next rank (y[r] = x[r+1]).
func TestRingExamples(t *testing.T) {
	for _, mode := range []string{"put", "get", "load", "store"} {
		for _, n := range []int{2, 3, 4, 16} {
			t.Run(fmt.Sprintf("%s/P=%d", mode, n), func(t *testing.T) {
				x := tensor.Randn(int64(n), n, 1, S)
				y := tensor.Zeros(ir.FP32, n, 1, S)
				_, err := pl.Run(ring(mode), pl.Ranks(n), x, y)
				require.NoError(t, err)
				for r := 0; r < n; r++ {
					from := (r + 1) % n
					if mode == "put" || mode == "store" {
						from = (r + n - 1) % n
					}
					require.True(t, y.Slice(r).Equal(x.Slice(from)), "rank %d should hold x[%d]", r, from)
				}
			})
		}
	}
}

// allreduce builds one allreduce (or two on the same signal) over [1, S].
func allreduce(op ir.ReduceOp, dt ir.DataType, calls int) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("AllReduce")
	k := prog.InCore("k", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, S), dt))
		y := f.Out("y", pl.Tensor(pl.Dims(1, S), dt))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, S), dt))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		f.Set(data, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), data))
		for i := 0; i < calls; i++ {
			f.Set(data, pld.AllReduce(data, sig, pld.Op(op)))
		}
		f.Return(pl.Store(f.Let("out", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, S), dt))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, S), dt))
		db := f.Let("data_buf", pld.AllocWindowBufferOf(pl.Dims(1, S), dt))
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r),
				f.Let("data", pld.Window(db, pl.Dims(1, S), dt)), f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
		f.Return(y)
	})
	return prog
}

// Seed #1746 numerics at P=2 and P=4, all four ReduceOps, FP32 and FP16, and
// a second call on the same signal (self-clearing credits).
func TestAllReduce(t *testing.T) {
	type red struct {
		op ir.ReduceOp
		fn func(a, b float64) float64
	}
	ops := map[string]red{
		"sum": {pld.Sum, func(a, b float64) float64 { return a + b }},
		"max": {pld.Max, func(a, b float64) float64 { return max(a, b) }},
		"min": {pld.Min, func(a, b float64) float64 { return min(a, b) }},
	}
	for name, o := range ops {
		for _, dt := range []ir.DataType{ir.FP32, ir.FP16} {
			for _, n := range []int{2, 4} {
				t.Run(fmt.Sprintf("%s/%s/P=%d", name, dt.Name(), n), func(t *testing.T) {
					x := tensor.Randn(7, n, 1, S).To(dt)
					y := tensor.Zeros(dt, n, 1, S)
					res, err := pl.Run(allreduce(o.op, dt, 1), pl.Ranks(n), x, y)
					require.NoError(t, err)
					for r := 0; r < n; r++ {
						for j := 0; j < S; j++ {
							want := x.At(0, 0, j)
							for s := 1; s < n; s++ {
								want = o.fn(want, x.At(s, 0, j))
							}
							require.InDelta(t, want, y.At(r, 0, j), 1e-2)
						}
					}
					require.Empty(t, res.Report().Findings, "the signal must return to zero")
				})
			}
		}
	}
	// Two sums on one signal: x·P², which only works if the first call cleared its credits.
	x := tensor.Full(ir.FP32, 1, 4, 1, S)
	y := tensor.Zeros(ir.FP32, 4, 1, S)
	_, err := pl.Run(allreduce(pld.Sum, ir.FP32, 2), pl.Ranks(4), x, y)
	require.NoError(t, err)
	require.Equal(t, 16.0, y.At(3, 0, 5))
	// Prod at P=2.
	x = tensor.Full(ir.FP32, 3, 2, 1, S)
	y = tensor.Zeros(ir.FP32, 2, 1, S)
	_, err = pl.Run(allreduce(pld.Prod, ir.FP32, 1), pl.Ranks(2), x, y)
	require.NoError(t, err)
	require.Equal(t, 9.0, y.At(1, 0, 0))
}

// waiter builds a program where every rank waits on its own cell after
// notifying with value v, or not notifying at all (v < 0).
func waiter(v int) *pl.Program {
	prog := pl.NewProgram("Waiter")
	k := prog.InCore("k", func(f *pl.Func) {
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(sig))
		me := f.Let("me", pld.Rank(ctx))
		if v >= 0 {
			f.Do(pld.Notify(sig, pl.Mod(pl.Add(me, 1), pld.NRanks(ctx)), pl.Dims(0, 0), v, pld.AtomicAdd))
		}
		f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
	})
	prog.Host("host", func(f *pl.Func) {
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(4))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("signal", pld.Window(gb, pl.Dims(1, 1), pl.INT32))))
		})
	})
	return prog
}

// model.md §8 pitfall 5: a never-notified wait and a notify of 0 are
// reported as deadlocks naming every blocked rank, its op and the cell.
func TestDeadlockIsReported(t *testing.T) {
	for _, v := range []int{-1, 0} {
		_, err := pl.Run(waiter(v), pl.Ranks(3))
		require.Error(t, err)
		msg := err.Error()
		require.Contains(t, msg, "deadlock")
		for r := 0; r < 3; r++ {
			require.Contains(t, msg, fmt.Sprintf("rank %d: pld.system.wait at ring_test.go:", r))
		}
		require.Contains(t, msg, "signal_buf[0, 0] = 0, for >= 1")
	}
	_, err := pl.Run(waiter(1), pl.Ranks(3))
	require.NoError(t, err)
}

// Seed #1301's loopback tests on one rank: comm_notify/comm_wait on slots.
func TestCommLoopback(t *testing.T) {
	prog := pl.NewProgram("Loopback")
	k := prog.InCore("k", func(f *pl.Func) {
		y := f.Out("y", pl.Tensor(pl.Dims(1, 8), pl.INT32))
		sig := f.InOut("signal", pl.Tensor(pl.Dims(1, 8), pl.INT32))
		slot := func(i int) pl.Expr { return pl.Slice(sig, pl.Dims(1, 1), pl.Dims(0, i)) }
		f.Set(sig, pl.Write(sig, pl.Dims(0, 3), 3))
		f.Do(pl.CommNotify(slot(3), 5, "atomic_add"))
		f.Set(sig, pl.Write(sig, pl.Dims(0, 7), 7))
		f.Do(pl.CommWait(slot(7), 1, "ge"))
		f.Do(pl.CommNotify(slot(0), 1, "atomic_add"))
		f.Do(pl.CommWait(slot(0), 1, "ge"))
		f.Return(pl.Store(f.Let("t", pl.Load(sig, pl.Dims(0, 0), pl.Dims(1, 8))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		y := f.Out("y", pl.Tensor(pl.Dims(1, 1, 8), pl.INT32))
		sig := f.InOut("signal", pl.Tensor(pl.Dims(1, 1, 8), pl.INT32))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(y, r), pl.Index(sig, r)))
		})
	})
	y := tensor.Zeros(ir.INT32, 1, 1, 8)
	_, err := pl.Run(prog, pl.Ranks(1), y, tensor.Zeros(ir.INT32, 1, 1, 8))
	require.NoError(t, err)
	require.Equal(t, []int32{1, 0, 0, 8, 0, 0, 0, 7}, y.Int32s())
}

func BenchmarkRingPut(b *testing.B) {
	for _, n := range []int{2, 8, 64} {
		b.Run(fmt.Sprintf("P=%d", n), func(b *testing.B) {
			prog := ring("put")
			x := tensor.Randn(1, n, 1, S)
			y := tensor.Zeros(ir.FP32, n, 1, S)
			for i := 0; i < b.N; i++ {
				if _, err := pl.Run(prog, pl.Ranks(n), x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
