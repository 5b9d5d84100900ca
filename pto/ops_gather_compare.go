package pto

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

func init() {
	Register(ir.TileGatherCompare, emitGatherCompare)
}

// tile.gather_compare(src, kvalue, tmp) → the compare form of pto.tgather,
// `pto.tgather ins(%src, %kvalue, %tmp : ...) outs(%dst, %cdst : ...)
// {cmpMode = #pto<cmp ge>, offset = 0 : i32}`, as upstream emits it. The
// op's result is a pair; its two tiles are the variables the function
// binds to res[0] and res[1] (the unpacking `dst, cdst = ...` writes), so
// they are declared here at their planned addresses, and those
// assignments emit nothing (assignItem).
func emitGatherCompare(c *Ctx, call *ir.Call, res *ir.Var) error {
	if res == nil {
		return fmt.Errorf("%s: its (dst, cdst) result must be bound", call.Op.Name)
	}
	src, st, err := c.tile(call.Args[0])
	if err != nil {
		return err
	}
	kv, err := c.as(call.Args[1], st.DType, "")
	if err != nil {
		return err
	}
	tmp, _, err := c.tile(call.Args[2])
	if err != nil {
		return err
	}
	items := tupleItems(c.fn, res, 2)
	outs := make([]value, 2)
	for i, v := range items {
		if v == nil {
			return fmt.Errorf("%s: its result %d (%s) is never bound; upstream's codegen needs both dst and cdst", call.Op.Name, i, []string{"dst", "cdst"}[i])
		}
		if outs[i], err = c.allocTile(v); err != nil {
			return err
		}
		c.vals[v] = outs[i]
	}
	mode := call.Kwargs.Int("cmp_mode", 0)
	if mode < 0 || mode > 5 {
		return fmt.Errorf("%s: cmp_mode %d is not 0..5", call.Op.Name, mode)
	}
	attrs := []attr{
		{"cmpMode", "#pto<cmp " + [...]string{"eq", "ne", "lt", "le", "gt", "ge"}[mode] + ">"},
		{"offset", fmt.Sprintf("%d : i32", call.Kwargs.Int("offset", 0))},
	}
	c.insOuts("pto.tgather", []value{src, kv, tmp}, outs, attrs)
	return nil
}

// tupleItems are the variables fn binds to tup[0] .. tup[n-1] (nil where
// it binds none).
func tupleItems(fn *ir.Function, tup *ir.Var, n int) []*ir.Var {
	out := make([]*ir.Var, n)
	ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
		a, ok := s.(*ir.AssignStmt)
		if !ok {
			return
		}
		if g, ok := a.Value.(*ir.TupleGetItem); ok && g.Index >= 0 && g.Index < n {
			if v, ok := ir.VarOf(g.Tuple); ok && v == tup && out[g.Index] == nil {
				out[g.Index] = a.Var
			}
		}
	})
	return out
}
