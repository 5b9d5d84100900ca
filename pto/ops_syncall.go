package pto

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// system.syncall → pto.syncall, as upstream emits it: the hard form with
// no operands, the soft form with a partition view of the whole GM
// workspace and the optional i32 participant count.
func init() {
	Register(ir.SystemSyncall, func(c *Ctx, call *ir.Call, _ *ir.Var) error {
		mode, ct := call.Kwargs.String("mode", "hard"), call.Kwargs.String("core_type", "mix")
		attrs := []attr{{"mode", "#pto.sync_all_mode<" + mode + ">"}, {"core_type", "#pto.sync_core_type<" + ct + ">"}}
		tail := fmt.Sprintf(" mode = %s, core_type = %s", attrs[0].val, attrs[1].val)
		if mode == "hard" {
			c.stmtOp("pto.syncall", nil, attrs, "pto.syncall()"+tail)
			return nil
		}
		tl, ok := ir.AsTensorLike(call.Args[0].Type())
		if !ok {
			return c.errorf("system.syncall: the soft form's gm_workspace must be a tensor")
		}
		_, pv, err := c.localPartition(call.Args[0], zeros(len(tl.Shape)), tl.Shape)
		if err != nil {
			return err
		}
		ops := []value{pv}
		if len(call.Args) == 2 {
			u, err := c.as(call.Args[1], ir.INT32, "used_cores")
			if err != nil {
				return err
			}
			ops = append(ops, u)
		}
		names, types := make([]string, len(ops)), make([]string, len(ops))
		for i, o := range ops {
			names[i], types[i] = o.ssa, o.typ
		}
		c.stmtOp("pto.syncall", ops, attrs, "pto.syncall("+strings.Join(names, ", ")+" : "+strings.Join(types, ", ")+")"+tail)
		return nil
	})
}
