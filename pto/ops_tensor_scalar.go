package pto

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// One element of a GM tensor, by scalar load and store (pl.read / pl.write
// on a tensor; upstream's barrier example surfaces its signal row this way).

func init() {
	Register(ir.TensorRead, emitTensorRead)
	Register(ir.TensorWrite, emitTensorWrite)
}

// elementIndex is the row-major element offset of indices in t (its
// view's stride when it has one).
func (c *Ctx) elementIndex(t *tensor, idx []ir.Expr) (value, error) {
	if len(idx) != len(t.shape) {
		return value{}, fmt.Errorf("%d indices for a rank-%d tensor", len(idx), len(t.shape))
	}
	strides := make([]int64, len(t.shape))
	if t.view != nil && len(t.view.Stride) == len(t.shape) {
		for k, s := range t.view.Stride {
			v, ok := ir.ConstValue(s)
			if !ok {
				return value{}, fmt.Errorf("the stride of %s must be static", t.name)
			}
			strides[k] = v
		}
	} else {
		run := int64(1)
		for k := len(t.shape) - 1; k >= 0; k-- {
			strides[k] = run
			d, ok := ir.ConstValue(t.shape[k])
			if !ok && k > 0 {
				return value{}, fmt.Errorf("the shape of %s must be static past its first dimension to address an element", t.name)
			}
			run *= d
		}
	}
	return c.flatIndex(idx, strides)
}

// flatIndex is sum(idx[k] * strides[k]) as index arithmetic.
func (c *Ctx) flatIndex(idx []ir.Expr, strides []int64) (value, error) {
	var acc value
	for k, e := range idx {
		i, err := c.index(e)
		if err != nil {
			return value{}, err
		}
		if strides[k] != 1 {
			i = c.bin("", "arith.muli", i, c.cIndex(strides[k]))
		}
		if k == 0 {
			acc = i
			continue
		}
		acc = c.bin("", "arith.addi", acc, i)
	}
	return acc, nil
}

// element resolves the tensor and the flat element index of a
// tensor.read/tensor.write call (arguments: the tensor, then the indices).
func (c *Ctx) element(call *ir.Call) (*tensor, value, error) {
	t, err := c.tensorExpr(call.Args[0])
	if err != nil {
		return nil, value{}, err
	}
	idx, err := tuple(call, 1)
	if err != nil {
		return nil, value{}, err
	}
	i, err := c.elementIndex(t, idx)
	return t, i, err
}

// tensor.read(t, indices) → `pto.load_scalar %t[%i] : !pto.ptr<T> -> T`.
func emitTensorRead(c *Ctx, call *ir.Call, res *ir.Var) error {
	t, i, err := c.element(call)
	if err != nil {
		return err
	}
	typ, err := scalarType(t.dtype)
	if err != nil {
		return err
	}
	hint := ""
	if res != nil {
		hint = res.Name
	}
	v := c.loadScalar(hint, t.ptr, i, typ)
	if res != nil {
		c.vals[res] = v
	}
	return nil
}

// tensor.write(t, indices, v) → `pto.store_scalar %v, %t[%i] : !pto.ptr<T>, T`;
// the result is t again.
func emitTensorWrite(c *Ctx, call *ir.Call, res *ir.Var) error {
	t, i, err := c.element(call)
	if err != nil {
		return err
	}
	v, err := c.as(call.Args[2], t.dtype, "")
	if err != nil {
		return err
	}
	c.stmtOp("pto.store_scalar", []value{v, t.ptr, i}, nil,
		fmt.Sprintf("pto.store_scalar %s, %s[%s] : %s, %s", v.ssa, t.ptr.ssa, i.ssa, t.ptr.typ, v.typ))
	if res != nil {
		c.tensors[res] = t
	}
	return nil
}
