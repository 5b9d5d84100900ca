package pto

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Sorting: pto.tsort32 and the two forms of pto.tmrgsort, as upstream's
// codegen spells them (pto_ops_datamove.cpp).

func init() {
	Register(ir.TileSort32, emitTiles("pto.tsort32", nil))
	// format1: ins(%src, %block_len : T, i32) outs(%dst : T).
	Register(ir.TileMrgsortFormat1, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		src, _, err := c.tile(call.Args[0])
		if err != nil {
			return err
		}
		bl, err := c.as(call.Args[1], ir.INT32, "")
		if err != nil {
			return err
		}
		dst, err := c.allocTile(res)
		if err != nil {
			return err
		}
		c.insOuts("pto.tmrgsort", []value{src, bl}, []value{dst}, nil)
		return nil
	})
	// format2: ins(srcs..., %tmp {exhausted = b} : types..., T)
	// outs(%dst, %executed : T, vector<4xi16>), the executed status a
	// vector the codegen makes.
	Register(ir.TileMrgsortFormat2, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		ins, err := c.tiles(call.Args)
		if err != nil {
			return err
		}
		dst, err := c.allocTile(res)
		if err != nil {
			return err
		}
		exec := c.op("executed_vec", "vector<4xi16>", "arith.constant", nil, []attr{{"value", "dense<0> : vector<4xi16>"}}, "arith.constant dense<0> : vector<4xi16>")
		exhausted := call.Kwargs.Bool("exhausted", false)
		ssas := make([]string, len(ins))
		for i, v := range ins {
			ssas[i] = v.ssa
		}
		custom := fmt.Sprintf("pto.tmrgsort ins(%s {exhausted = %v} : %s) outs(%s, %s : %s, vector<4xi16>)",
			strings.Join(ssas, ", "), exhausted, typeList(ins), dst.ssa, exec.ssa, dst.typ)
		c.stmtOp("pto.tmrgsort", append(append([]value{}, ins...), dst, exec), []attr{{"exhausted", fmt.Sprint(exhausted)}}, custom)
		return nil
	})
}
