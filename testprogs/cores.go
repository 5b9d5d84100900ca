package testprogs

import (
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
)

// Saturating is upstream #2369's shape, on every rank: `waiters` tasks
// that each block on the rank's signal cell, dispatched before the one task
// that publishes to the peer's cell. Each waiter copies the cell it saw
// into its own row of y. With deferred waiters (pld.DeferWait) the copy is
// a separate consumer task, ordered after its waiter by the row of y they
// share. With orch the host dispatches per-rank orchestrations that call
// the kernels, so a deferred wait ends a called function, not the task.
func Saturating(waiters int, deferred, orch bool) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("Saturating")
	waiter := prog.InCore("waiter", func(f *pl.Func) {
		y := f.Out("y", pl.Tensor(pl.Dims(1, 1), pl.INT32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
		if deferred {
			f.Do(pld.DeferWait(sig, pl.Dims(0, 0), 1, pld.Ge))
			return
		}
		f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		f.Set(y, pl.Write(y, pl.Dims(0, 0), f.Let("v", pl.Read(sig, pl.Dims(0, 0)))))
	})
	consumer := prog.InCore("consumer", func(f *pl.Func) {
		y := f.Out("y", pl.Tensor(pl.Dims(1, 1), pl.INT32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
		f.Set(y, pl.Write(y, pl.Dims(0, 0), f.Let("v", pl.Read(sig, pl.Dims(0, 0)))))
	})
	publisher := prog.InCore("publisher", func(f *pl.Func) {
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(sig))
		me := f.Let("me", pld.Rank(ctx))
		peer := f.Let("peer", pl.Mod(pl.Add(me, 1), f.Let("n", pld.NRanks(ctx))))
		f.Do(pld.Notify(sig, peer, pl.Dims(0, 0), 1, pld.AtomicAdd))
	})
	if orch {
		yOut := func(f *pl.Func) []pl.Expr {
			return []pl.Expr{f.Out("y", pl.Tensor(pl.Dims(1, 1), pl.INT32)), f.InOut("signal", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))}
		}
		waiter = Forward(prog, "per_rank_waiter", waiter, yOut)
		consumer = Forward(prog, "per_rank_consumer", consumer, yOut)
		publisher = Forward(prog, "per_rank_publisher", publisher, func(f *pl.Func) []pl.Expr {
			return []pl.Expr{f.InOut("signal", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))}
		})
	}
	prog.Host("host", func(f *pl.Func) {
		y := f.Out("y", pl.Tensor(pl.Dims(NR, waiters, 1, 1), pl.INT32))
		buf := f.Let("signal_buf", pld.AllocWindowBuffer(4))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			sig := f.Let("signal", pld.Window(buf, pl.Dims(1, 1), pl.INT32))
			row := f.Let("rows", pl.Index(y, r))
			for i := 0; i < waiters; i++ {
				f.Do(f.Dispatch(waiter, r, pl.Index(row, i), sig))
				if deferred {
					f.Do(f.Dispatch(consumer, r, pl.Index(row, i), sig))
				}
			}
			f.Do(f.Dispatch(publisher, r, sig))
		})
	})
	return prog
}
