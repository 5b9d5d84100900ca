package pto

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Explicit cross-core events, as upstream emits them: `pto.set_ffts %ws :
// !pto.ptr<i64>`, and `pto.sync.set <PIPE_X>, id {ffts_mode = m : i32}` /
// `pto.sync.wait <PIPE_X>, id` with a constant or INDEX event id.
func init() {
	Register(ir.SystemSetFFTS, func(c *Ctx, call *ir.Call, _ *ir.Var) error {
		t, err := c.tensorOf(call.Args[0])
		if err != nil {
			return err
		}
		c.stmtOp("pto.set_ffts", []value{t.ptr}, nil, "pto.set_ffts "+t.ptr.ssa+" : "+t.ptr.typ)
		return nil
	})
	for op, action := range map[*ir.OpDef]string{ir.SystemSyncSet: "set", ir.SystemSyncWait: "wait"} {
		action := action
		Register(op, func(c *Ctx, call *ir.Call, _ *ir.Var) error {
			pipe, _ := call.Kwargs.Get("pipe")
			p, _ := pipe.(ir.PipeType)
			attrs := []attr{{"pipe", "#pto.pipe<PIPE_" + p.Name() + ">"}}
			var ops []value
			id := ""
			if v, ok := call.Kwargs.Get("event_id"); ok {
				id = fmt.Sprint(v)
				attrs = append(attrs, attr{"event_id", id + " : i32"})
			} else {
				e, err := c.index(call.Args[0])
				if err != nil {
					return err
				}
				ops, id = []value{e}, e.ssa
			}
			custom := fmt.Sprintf("pto.sync.%s <PIPE_%s>, %s", action, p.Name(), id)
			if m, ok := call.Kwargs.Get("ffts_mode"); ok {
				attrs = append(attrs, attr{"ffts_mode", fmt.Sprint(m) + " : i32"})
				custom += fmt.Sprintf(" {ffts_mode = %v : i32}", m)
			}
			c.stmtOp("pto.sync."+action, ops, attrs, custom)
			return nil
		})
	}
}
