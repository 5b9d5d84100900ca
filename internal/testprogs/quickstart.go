// Package testprogs holds programs the tests of several packages run: one
// definition each, so the printer, pass, simulator and front-end tests all
// exercise the same program.
package testprogs

import (
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
)

// Quickstart is PyPTO's two-rank allreduce quickstart as the DSL contract
// writes it (dsl.md).
func Quickstart() *pl.Program {
	const size = 256
	nr := pl.Dynamic("NR")
	prog := pl.NewProgram("Quickstart")
	reduceStep := prog.InCore("reduce_step", func(f *pl.Func) {
		inp := f.In("inp", pl.Tensor(pl.Dims(1, size), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(1, size), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, size), pl.FP32))
		signal := f.InOut("signal", pld.DistributedTensor(pl.Dims(nr, 1), pl.INT32))
		f.Returns(pl.Tensor(pl.Dims(1, size), pl.FP32))
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		me := f.Let("my_rank", pld.Rank(ctx))
		n := f.Let("nranks", pld.NRanks(ctx))
		local := f.Let("local", pl.Load(inp, pl.Dims(0, 0), pl.Dims(1, size)))
		f.Set(data, pl.Store(local, pl.Dims(0, 0), data))
		f.For("peer", pl.Range(n), func(peer pl.Expr) {
			f.If(pl.Ne(peer, me), func() { f.Do(pld.Notify(signal, peer, pl.Dims(me, 0), 1, pld.AtomicAdd)) })
		})
		f.For("src", pl.Range(n), func(src pl.Expr) {
			f.If(pl.Ne(src, me), func() { f.Do(pld.Wait(signal, pl.Dims(src, 0), 1, pld.Ge)) })
		})
		acc := f.Let("acc", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, size)))
		f.For("peer", pl.Range(n), func(peer pl.Expr) {
			f.If(pl.Ne(peer, me), func() {
				t := f.Let("peer_tile", pld.RemoteLoad(data, peer, pl.Dims(0, 0), pl.Dims(1, size)))
				f.Set(acc, pl.Add(acc, t))
			})
		})
		f.Return(pl.Store(acc, pl.Dims(0, 0), out))
	})
	chip := prog.Orchestration("chip_orch", func(f *pl.Func) {
		inp := f.In("inp", pl.Tensor(pl.Dims(1, size), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(1, size), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, size), pl.FP32))
		signal := f.InOut("signal", pld.DistributedTensor(pl.Dims(nr, 1), pl.INT32))
		f.Returns(pl.Tensor(pl.Dims(1, size), pl.FP32))
		f.Return(f.Call(reduceStep, inp, out, data, signal))
	})
	prog.Host("orchestrator", func(f *pl.Func) {
		inputs := f.In("inputs", pl.Tensor(pl.Dims(nr, 1, size), pl.FP32))
		outputs := f.Out("outputs", pl.Tensor(pl.Dims(nr, 1, size), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(nr, 1, size), pl.FP32))
		dataBuf := f.Let("data_buf", pld.AllocWindowBuffer(size*pl.FP32.Bytes()))
		sigBuf := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), pl.INT32.Bytes())))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			data := f.Let("data", pld.Window(dataBuf, pl.Dims(1, size), pl.FP32))
			signal := f.Let("signal", pld.Window(sigBuf, pl.Dims(pld.WorldSize(), 1), pl.INT32))
			f.Do(f.Dispatch(chip, r, pl.Index(inputs, r), pl.Index(outputs, r), data, signal))
		})
		f.Return(outputs)
	})
	return prog
}
