package pto

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// TSELS, TPRELU and TTRI (ir/ops_select.go), as upstream's
// pto_ops_elementwise.cpp emits them.

func init() {
	// pto.tsels ins(mask, src, tmp, scalar) with the scalar in src's type.
	Register(ir.TileSels, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		mask, _, err := c.tile(call.Args[0])
		if err != nil {
			return err
		}
		src, st, err := c.tile(call.Args[1])
		if err != nil {
			return err
		}
		tmp, _, err := c.tile(call.Args[2])
		if err != nil {
			return err
		}
		s, err := c.as(call.Args[3], st.DType, "")
		if err != nil {
			return err
		}
		r, err := c.allocTile(res)
		if err != nil {
			return err
		}
		c.insOuts("pto.tsels", []value{mask, src, tmp, s}, []value{r}, nil)
		return nil
	})
	Register(ir.TilePrelu, emitPrelu)
	Register(ir.TileTri, emitTri)
}

// emitPrelu is pto.tprelu ins(src, slope, tmp). On A2/A3 the scratch is a
// UINT8 tile of at least valid rows + 1 rows and ceil(valid cols / 8)
// columns, as upstream's codegen requires.
func emitPrelu(c *Ctx, call *ir.Call, res *ir.Var) error {
	src, st, err := c.tile(call.Args[0])
	if err != nil {
		return err
	}
	slope, _, err := c.tile(call.Args[1])
	if err != nil {
		return err
	}
	tmp, tt, err := c.tile(call.Args[2])
	if err != nil {
		return err
	}
	valid := tileValidShape(st)
	rows, rok := ir.ConstValue(valid[0])
	cols, cok := ir.ConstValue(valid[1])
	trows, _ := ir.ConstValue(tt.Shape[0])
	tcols, _ := ir.ConstValue(tileValidShape(tt)[1])
	switch {
	case tt.DType != ir.UINT8:
		return fmt.Errorf("tile.prelu on A2/A3 needs a UINT8 tmp scratch, given %s", tt.DType)
	case rok && trows < rows+1:
		return fmt.Errorf("tile.prelu on A2/A3 needs tmp rows >= src valid rows + 1 = %d, given %d", rows+1, trows)
	case cok && tcols < (cols+7)/8:
		return fmt.Errorf("tile.prelu on A2/A3 needs tmp valid columns >= ceil(src valid columns / 8) = %d, given %d", (cols+7)/8, tcols)
	}
	r, err := c.allocTile(res)
	if err != nil {
		return err
	}
	c.insOuts("pto.tprelu", []value{src, slope, tmp}, []value{r}, nil)
	return nil
}

// emitTri is the generic-form "pto.ttri"(diagonal, dst) {upperOrLower}.
func emitTri(c *Ctx, call *ir.Call, res *ir.Var) error {
	d, err := c.as(call.Args[0], ir.INT32, "")
	if err != nil {
		return err
	}
	r, err := c.allocTile(res)
	if err != nil {
		return err
	}
	upper := 0
	if call.Kwargs.Bool("upper", false) {
		upper = 1
	}
	ops := []value{d, r}
	a := attr{name: "upperOrLower", val: fmt.Sprintf("%d : i32", upper)}
	c.stmtOp("pto.ttri", ops, []attr{a}, fmt.Sprintf(`"pto.ttri"(%s) {upperOrLower = %s} : (%s) -> ()`, ssaList(ops), a.val, typeList(ops)))
	return nil
}
