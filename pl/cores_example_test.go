package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
)

// Cores gives every device that many AIV cores. Three tasks per rank block
// on the rank's cell before the task that notifies the peer's: on two
// cores the waits hold both and the publisher never runs, a resource
// deadlock; on four every task has a core.
func ExampleRunOption_Cores() {
	prog := pl.NewProgram("Saturating")
	waiter := prog.InCore("waiter", func(f *pl.Func) {
		sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
		f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
	})
	pub := prog.InCore("publisher", func(f *pl.Func) {
		sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(sig))
		peer := f.Let("peer", pl.Mod(pl.Add(pld.Rank(ctx), 1), pld.NRanks(ctx)))
		f.Do(pld.Notify(sig, peer, pl.Dims(0, 0), 1, pld.AtomicAdd))
	})
	prog.Host("host", func(f *pl.Func) {
		buf := f.Let("sig_buf", pld.AllocWindowBuffer(4))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			sig := f.Let("sig", pld.Window(buf, pl.Dims(1, 1), pl.INT32))
			for i := 0; i < 3; i++ {
				f.Do(f.Dispatch(waiter, r, sig))
			}
			f.Do(f.Dispatch(pub, r, sig))
		})
	})
	for _, cores := range []int{2, 4} {
		o := pl.Ranks(2).Cores(cores)
		res, _ := pl.Run(prog, o)
		fmt.Println(o, "→", res.Status())
	}
	// Output:
	// pl.Ranks(2).Cores(2) → resource deadlock: every AIV core of a rank is held by a blocking wait while a task that would publish is queued
	// pl.Ranks(2).Cores(4) → finished
}
