package pto

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Seed #1301 tile.comm_notify / comm_wait / comm_test: signals on a plain
// INT32 tensor holding one slot. The partition view covers the whole signal
// (offsets 0, sizes = shape); no barriers are added (ordering is PTOAS's).

func init() {
	Register(ir.TileCommNotify, emitCommSignal("pto.comm.tnotify", "op", "notifyOp", "notify_op", commNotifyOps))
	Register(ir.TileCommWait, emitCommSignal("pto.comm.twait", "cmp", "cmp", "wait_cmp", commCmps))
	Register(ir.TileCommTest, emitCommSignal("pto.comm.ttest", "cmp", "cmp", "wait_cmp", commCmps))
}

var (
	commNotifyOps = []string{"atomic_add", "set"}
	commCmps      = []string{"eq", "ne", "gt", "ge", "lt", "le"}
)

func emitCommSignal(inst, kwarg, attrName, enum string, allowed []string) Emitter {
	return func(c *Ctx, call *ir.Call, res *ir.Var) error {
		kind := call.Kwargs.String(kwarg, "")
		ok := false
		for _, a := range allowed {
			ok = ok || a == kind
		}
		if !ok {
			return fmt.Errorf("'%s' must be one of %v, got %q", kwarg, allowed, kind)
		}
		t, err := c.tensorOf(call.Args[0])
		if err != nil {
			return err
		}
		view, err := c.localView(t)
		if err != nil {
			return err
		}
		pv, err := c.partitionView(t, view, zeros(len(t.shape)), t.shape, t.name)
		if err != nil {
			return err
		}
		v, err := c.as(call.Args[1], ir.INT32, "")
		if err != nil {
			return err
		}
		a := attr{attrName, "#pto<" + enum + " " + kind + ">"}
		if inst != "pto.comm.ttest" {
			c.signalOp(inst, pv, v, a, "")
			return nil
		}
		hint := "ok"
		if res != nil {
			hint = res.Name
		}
		r := c.signalOp(inst, pv, v, a, hint)
		if res != nil {
			c.vals[res] = r
		}
		return nil
	}
}
