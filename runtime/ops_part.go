package runtime

import (
	"fmt"
	"math"

	"github.com/ptorepl/ptorepl/ir"
)

// Partial-combine ops (ir/ops_part.go): fn where both operands are valid,
// the valid operand where only one is, zero where neither is; the result
// is valid over the union of their valid regions.

func init() {
	for _, op := range []struct {
		tile, tensor *ir.OpDef
		fn           func(a, b float64) float64
	}{
		{ir.TilePartAdd, ir.TensorPartAdd, func(a, b float64) float64 { return a + b }},
		{ir.TilePartMul, ir.TensorPartMul, func(a, b float64) float64 { return a * b }},
		{ir.TilePartMax, ir.TensorPartMax, math.Max},
		{ir.TilePartMin, ir.TensorPartMin, math.Min},
	} {
		Register(op.tile, partOp(op.fn))
		Register(op.tensor, partOp(op.fn))
	}
}

// validOf is the valid extent of a tile or tensor value (its shape when
// all of it is valid).
func validOf(v any, shape []int) []int {
	switch v := v.(type) {
	case *Tile:
		if v.Valid != nil {
			return v.Valid
		}
	case *view:
		if v.valid != nil {
			return v.valid
		}
	}
	return shape
}

func partOp(fn func(a, b float64) float64) OpFunc {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		l, shape, dt, _, err := x.valuesOf(a[0], c, "src0")
		if err != nil {
			return nil, err
		}
		r, rshape, _, _, err := x.valuesOf(a[1], c, "src1")
		if err != nil {
			return nil, err
		}
		if !equalInts(shape, rshape) {
			return nil, fmt.Errorf("operand shapes %v and %v differ", dimsText(shape), dimsText(rshape))
		}
		lv, rv := validOf(a[0], shape), validOf(a[1], shape)
		union := make([]int, len(shape))
		for d := range shape {
			union[d] = max(lv[d], rv[d])
		}
		out := make([]float64, len(l))
		idx := make([]int, len(shape))
		for i := range out {
			inL, inR := true, true
			for d, k := range idx {
				inL = inL && k < lv[d]
				inR = inR && k < rv[d]
			}
			switch {
			case inL && inR:
				out[i] = round(fn(l[i], r[i]), dt)
			case inL:
				out[i] = l[i]
			case inR:
				out[i] = r[i]
			}
			for d := len(idx) - 1; d >= 0; d-- { // the next row-major index
				if idx[d]++; idx[d] < shape[d] {
					break
				}
				idx[d] = 0
			}
		}
		res := x.result(c, dt, shape, out, nil)
		if t, ok := res.(*Tile); ok && !equalInts(union, shape) {
			t.Valid = union
		}
		return res, nil
	}
}
