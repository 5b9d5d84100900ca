package testprogs

import (
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
)

// AllReduceWindow is x → data window → allreduce(mode, op) → y for
// [1, elems] FP32 per rank, built for one world size: the ring lowering
// needs a static [2(P-1), P] signal, the mesh an [P, 1] one. The
// benchmarks, the exploration tests and the fence-mutation test share it.
func AllReduceWindow(name string, ranks, elems int, mode string, op ir.ReduceOp) *pl.Program {
	return AllReduceWindowOf(name, ranks, elems, pl.FP32, mode, op)
}

// AllReduceWindowOf is AllReduceWindow in any dtype (the lowering tests
// and the executor's differential tests take FP16 too).
func AllReduceWindowOf(name string, ranks, elems int, dt pl.DataType, mode string, op ir.ReduceOp) *pl.Program {
	sigDims := pl.Dims(2*(ranks-1), ranks)
	sigBytes := 2 * (ranks - 1) * ranks * 4
	if mode == "mesh" {
		sigDims, sigBytes = pl.Dims(ranks, 1), ranks*4
	}
	prog := pl.NewProgram(name)
	k := prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, elems), dt))
		y := f.Out("y", pl.Tensor(pl.Dims(1, elems), dt))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, elems), dt))
		sig := f.InOut("signal", pld.DistributedTensor(sigDims, pl.INT32))
		f.Set(data, pl.Store(f.Let("staged", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, elems))), pl.Dims(0, 0), data))
		f.Set(data, pld.AllReduce(data, sig, pld.Mode(mode), pld.Op(op)))
		f.Set(y, pl.Store(f.Let("out", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, elems))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(ranks, 1, elems), dt))
		y := f.Out("y", pl.Tensor(pl.Dims(ranks, 1, elems), dt))
		db := f.Let("data_buf", pld.AllocWindowBuffer(elems*dt.Bytes()))
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(sigBytes))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r),
				f.Let("data", pld.Window(db, pl.Dims(1, elems), dt)),
				f.Let("signal", pld.Window(sb, sigDims, pl.INT32))))
		})
	})
	return prog
}
