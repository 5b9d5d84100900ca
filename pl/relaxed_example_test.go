package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
)

// Relaxed runs on the device's weak memory model. The hand-written
// quickstart stores into its window and signals its peers with no fence
// in between: correct under sequential consistency, a finding in the
// relaxed mode, with the fix. Compiled, it is clean: InsertCommFence put
// the fences and cache invalidations in.
func ExampleRunOption_Relaxed() {
	prog := testprogs.Quickstart()
	x := tensor.Ones(ir.FP32, 2, 1, 256)
	y := tensor.Zeros(ir.FP32, 2, 1, 256)
	fmt.Println(pl.Ranks(2).Relaxed())
	res, _ := pl.Run(prog, pl.Ranks(2), x, y)
	fmt.Println("sequentially consistent:", len(res.Report().Of("signal-overtakes-data")))
	res, _ = pl.Run(prog, pl.Ranks(2).Relaxed(), x, y)
	f := res.Report().Of("signal-overtakes-data")[0]
	fmt.Println("relaxed:", f.Weak.Write.Op, "then", f.Weak.Signal.Op)
	c := pl.Compile(prog)
	res, _ = c.Run(pl.Ranks(2).Relaxed(), x, y)
	weak := 0
	for _, f := range res.Report().Findings {
		if f.Weak != nil {
			weak++
		}
	}
	fmt.Println("compiled, relaxed:", weak)
	// Output:
	// pl.Ranks(2).Relaxed()
	// sequentially consistent: 0
	// relaxed: tile.store then pld.system.notify
	// compiled, relaxed: 0
}
