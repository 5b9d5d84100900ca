package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Comparisons (ir/ops_cmp.go): packed predicate masks, one bit per
// element (element j of a row in byte j/8 at bit j%8), and the selection
// they drive.

func init() {
	Register(ir.TileCmp, cmpOp(false))
	Register(ir.TileCmps, cmpOp(true))
	Register(ir.TileSel, selOp)
	Register(ir.TensorCmp, tensorCmpOp)
}

// compare is the comparison cmp_type names.
func compare(c *ir.Call) (func(a, b float64) bool, error) {
	switch k := c.Kwargs.Int("cmp_type", 0); k {
	case 0:
		return func(a, b float64) bool { return a == b }, nil
	case 1:
		return func(a, b float64) bool { return a != b }, nil
	case 2:
		return func(a, b float64) bool { return a < b }, nil
	case 3:
		return func(a, b float64) bool { return a <= b }, nil
	case 4:
		return func(a, b float64) bool { return a > b }, nil
	case 5:
		return func(a, b float64) bool { return a >= b }, nil
	default:
		return nil, fmt.Errorf("cmp_type %d is not a comparison 0..5", k)
	}
}

// operands reads lhs and rhs (a tile or tensor like it, or a scalar) as
// values, with lhs's shape and dtype.
func (x *Exec) cmpOperands(c *ir.Call, a []any, scalar bool) (l, r []float64, shape []int, dt ir.DataType, err error) {
	l, shape, dt, _, err = x.valuesOf(a[0], c, "lhs")
	if err != nil {
		return
	}
	if scalar {
		var s float64
		if s, err = toFloat(a[1]); err != nil {
			return
		}
		r = make([]float64, len(l))
		for i := range r {
			r[i] = round(s, dt) // compared in lhs's type
		}
		return
	}
	var rshape []int
	r, rshape, _, _, err = x.valuesOf(a[1], c, "rhs")
	if err == nil && !equalInts(rshape, shape) {
		err = fmt.Errorf("operand shapes %v and %v differ", dimsText(shape), dimsText(rshape))
	}
	return
}

func cmpOp(scalar bool) OpFunc {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		f, err := compare(c)
		if err != nil {
			return nil, err
		}
		l, r, shape, _, err := x.cmpOperands(c, a, scalar)
		if err != nil {
			return nil, err
		}
		mshape := staticShape(c.Type())
		if mshape == nil {
			return nil, fmt.Errorf("the mask's shape must be static")
		}
		cols, mcols := shape[len(shape)-1], mshape[len(mshape)-1]
		mask := make([]float64, numel(mshape))
		for i := range l {
			if f(l[i], r[i]) {
				row, j := i/cols, i%cols
				mask[row*mcols+j/8] += float64(int(1) << (j % 8))
			}
		}
		return x.result(c, ir.UINT8, mshape, mask, nil), nil
	}
}

func selOp(x *Exec, c *ir.Call, a []any) (any, error) {
	mask, mshape, _, _, err := x.valuesOf(a[0], c, "mask")
	if err != nil {
		return nil, err
	}
	l, shape, dt, lt, err := x.valuesOf(a[1], c, "lhs")
	if err != nil {
		return nil, err
	}
	r, _, _, _, err := x.valuesOf(a[2], c, "rhs")
	if err != nil {
		return nil, err
	}
	if len(r) != len(l) {
		return nil, fmt.Errorf("lhs and rhs differ in size")
	}
	cols, mcols := shape[len(shape)-1], mshape[len(mshape)-1]
	out := make([]float64, len(l))
	for i := range out {
		row, j := i/cols, i%cols
		k := row*mcols + j/8
		if k < len(mask) && int(mask[k])&(1<<(j%8)) != 0 {
			out[i] = l[i]
		} else {
			out[i] = r[i]
		}
	}
	return x.result(c, dt, shape, out, lt), nil
}

// tensorCmpOp is tensor.cmp: 1 where the comparison holds, 0 elsewhere.
func tensorCmpOp(x *Exec, c *ir.Call, a []any) (any, error) {
	f, err := compare(c)
	if err != nil {
		return nil, err
	}
	_, scalar := c.Args[1].Type().(*ir.ScalarType)
	l, r, shape, dt, err := x.cmpOperands(c, a, scalar)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(l))
	for i := range l {
		if f(l[i], r[i]) {
			out[i] = 1
		}
	}
	v := localView(dt, shape) // a rank-private tensor, as tensor ops give
	encode(dt, out, v.host)
	return v, nil
}
