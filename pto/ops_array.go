package pto

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// On-core arrays (pl.array in a kernel): a stack-local array of integers
// or bools, `!pto.local_array<NxT>`. The IR's update is functional; the
// codegen writes in place, as upstream's does: an updated array, a loop's
// array iter-arg and an if's array result are all the one declared array.
// Arrays of task ids order launches in the orchestration and have no
// kernel form.

func init() {
	Register(ir.ArrayCreate, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		typ, err := arrayType(call.Type())
		if err != nil {
			return err
		}
		hint := ""
		if res != nil {
			hint = res.Name
		}
		v := c.op(hint, typ, "pto.declare_local_array", nil, nil, "pto.declare_local_array -> "+typ)
		if res != nil {
			c.vals[res] = v
		}
		return nil
	})
	Register(ir.ArrayGetElement, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		arr, at, i, err := c.arrayElement(call)
		if err != nil {
			return err
		}
		elem, err := scalarType(at.DType)
		if err != nil {
			return err
		}
		hint := ""
		if res != nil {
			hint = res.Name
		}
		typ, _ := arrayType(at)
		v := c.op(hint, elem, "pto.local_array_get", []value{arr, i}, nil,
			fmt.Sprintf("pto.local_array_get %s[%s] : %s -> %s", arr.ssa, i.ssa, typ, elem))
		if res != nil {
			c.vals[res] = v
		}
		return nil
	})
	Register(ir.ArrayUpdateElement, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		arr, at, i, err := c.arrayElement(call)
		if err != nil {
			return err
		}
		v, err := c.as(call.Args[2], at.DType, "")
		if err != nil {
			return err
		}
		typ, _ := arrayType(at)
		c.stmtOp("pto.local_array_set", []value{arr, i, v}, nil,
			fmt.Sprintf("pto.local_array_set %s[%s], %s : %s, %s", arr.ssa, i.ssa, v.ssa, typ, v.typ))
		if res != nil {
			c.vals[res] = arr // in place
		}
		return nil
	})
}

// arrayType is an on-core array's MLIR type.
func arrayType(t ir.Type) (string, error) {
	at, ok := t.(*ir.ArrayType)
	if !ok {
		return "", fmt.Errorf("%s is not an array", t)
	}
	if at.DType == ir.TASK_ID {
		return "", fmt.Errorf("an array of task ids orders launches in the orchestration; a kernel cannot hold one")
	}
	elem, err := scalarType(at.DType)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("!pto.local_array<%dx%s>", at.Extent, elem), nil
}

// arrayElement resolves an array element call's array and index.
func (c *Ctx) arrayElement(call *ir.Call) (value, *ir.ArrayType, value, error) {
	at, ok := call.Args[0].Type().(*ir.ArrayType)
	if !ok {
		return value{}, nil, value{}, fmt.Errorf("%s is not an array", ir.Describe(call.Args[0]))
	}
	if _, err := arrayType(at); err != nil {
		return value{}, nil, value{}, err
	}
	arr, err := c.value(call.Args[0])
	if err != nil {
		return value{}, nil, value{}, err
	}
	i, err := c.index(call.Args[1])
	return arr, at, i, err
}
