package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
)

// A run that deadlocks still returns its result: which rank waits on
// which signal cell, and the checker's report.
func ExampleRunResult_Blocked() {
	prog := pl.NewProgram("Stuck")
	k := prog.InCore("k", func(f *pl.Func) {
		sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
		me := f.Let("me", pld.Rank(f.Let("ctx", pld.GetCommCtx(sig))))
		f.Do(pld.Wait(sig, pl.Dims(me, 0), 1, pld.Ge)) // nobody notifies
	})
	prog.Host("host", func(f *pl.Func) {
		buf := f.Let("sig_buf", pld.AllocWindowBuffer(8))
		f.For("r", pl.Range(2), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("sig", pld.Window(buf, pl.Dims(2, 1), pl.INT32))))
		})
	})
	res, err := pl.Run(prog, pl.Ranks(2))
	fmt.Println(err != nil, res.Status()[:8])
	for _, b := range res.Blocked() {
		fmt.Println(b)
	}
	fmt.Println(res.Report().HasErrors())
	// Output:
	// true deadlock
	// rank 0: pld.system.wait at example_failed_test.go:17 waits on sig_buf[0, 0] (for 1)
	// rank 1: pld.system.wait at example_failed_test.go:17 waits on sig_buf[1, 0] (for 1)
	// true
}

// Differential says in words when every pass agrees.
func ExampleDifference() {
	fmt.Println(pl.Difference{})
	fmt.Println(pl.Difference{Pass: "LowerCompositeOps", Why: "argument 1 differs from the input program's result"})
	// Output:
	// no pass differs
	// after LowerCompositeOps argument 1 differs from the input program's result
}
