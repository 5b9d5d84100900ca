package pto

import "github.com/ptorepl/ptorepl/ir"

// The SPMD identity ops read the kernel's trailing block arguments.

func init() {
	for i, op := range []*ir.OpDef{ir.TileGetBlockIdx, ir.TileGetBlockNum} {
		i := i
		Register(op, func(c *Ctx, call *ir.Call, res *ir.Var) error {
			if res == nil {
				return nil
			}
			arg := c.spmd[i]
			c.vals[res] = c.op(res.Name, "index", "arith.index_cast", []value{arg}, nil, "arith.index_cast "+arg.ssa+" : i32 to index")
			return nil
		})
	}
}

// usesSpmdIdentity reports whether fn reads its block index or count.
func usesSpmdIdentity(fn *ir.Function) bool {
	return usesOp(fn, ir.TileGetBlockIdx) || usesOp(fn, ir.TileGetBlockNum)
}

// usesOp reports whether fn calls op anywhere.
func usesOp(fn *ir.Function, op *ir.OpDef) bool {
	found := false
	ir.WalkStmt(fn.Body, func(e ir.Expr) {
		if c, ok := e.(*ir.Call); ok && c.Op == op {
			found = true
		}
	}, nil)
	return found
}
