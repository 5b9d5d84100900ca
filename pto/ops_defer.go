package pto

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// pld.system.defer_wait does not block its core with pto.comm.twait: it
// registers the local signal cell and the expected count with the
// runtime, and the task completes once the cell reaches it. The kernel
// takes one hidden argument for this, the raw dispatch-args pointer
// through which the runtime adapter reaches the task's completion state,
// and calls the adapter that the kernel wrapper implements:
//
//	func.call @pypto_register_counter_completion(%raw, %signal, %elem, %expected)
//	    : (!pto.ptr<i64>, !pto.ptr<i32>, i64, i64) -> ()
//
// %elem is the cell's element offset from the signal's logical strides,
// or -1 when a coordinate is out of bounds (the adapter rejects it at run
// time). The adapter is declared once per module.

func init() { Register(ir.PldSystemDeferWait, emitDeferWait) }

// deferAdapter is the adapter's symbol, reserved: no kernel may take it.
const deferAdapter = "pypto_register_counter_completion"

// rawArgsSSA is the hidden argument a kernel with a deferred wait takes
// after its dynamic dims, before the SPMD identity.
const rawArgsSSA = "%__pypto_deferred_raw_args"

// deferAdapterTypes are the adapter's argument types.
var deferAdapterTypes = []string{ctxType, ptrType("i32"), "i64", "i64"}

// deferAdapterDecl is the adapter's module-level declaration.
func deferAdapterDecl() *operation {
	return &operation{name: "func.func", blank: true, declaration: true,
		custom: "func.func private @" + deferAdapter + "(" + strings.Join(deferAdapterTypes, ", ") + ")",
		attrs: []attr{{"function_type", signature(deferAdapterTypes, nil)},
			{"sym_name", strconv.Quote(deferAdapter)}, {"sym_visibility", `"private"`}},
		regions: []*region{{}}}
}

func emitDeferWait(c *Ctx, call *ir.Call, _ *ir.Var) error {
	for _, f := range c.prog.Functions {
		if f.Name == deferAdapter {
			return fmt.Errorf("function name '%s' is reserved for PyPTO's deferred-completion runtime adapter", deferAdapter)
		}
	}
	if call.Kwargs.Int("cmp", -1) != int64(ir.WaitGe) {
		return fmt.Errorf("only cmp=WaitCmp.Ge is supported (the runtime completes the task once the cell reaches expected)")
	}
	sig, ok := ir.VarOf(call.Args[0])
	t, err := c.tensorOf(call.Args[0])
	if err != nil {
		return err
	}
	if !ok || !t.dist || !isParam(c.fn, sig) {
		return fmt.Errorf("the signal must be a DistributedTensor parameter of the kernel, given %s: a slice or view does not carry its base offset to the deferred-completion adapter", ir.Describe(call.Args[0]))
	}
	if t.dtype != ir.INT32 {
		return fmt.Errorf("the signal must be INT32, given %s", t.dtype)
	}
	offs, err := tuple(call, 1)
	if err != nil {
		return err
	}
	rank := len(t.shape)
	if len(offs) != rank {
		return fmt.Errorf("%d offsets for a rank-%d signal", len(offs), rank)
	}
	strides, err := c.logicalStrides(t)
	if err != nil {
		return err
	}
	bounds := t.shape
	if t.view != nil && len(t.view.ValidShape) == rank {
		bounds = t.view.ValidShape
	}
	zero := c.cIndex(0)
	elem := zero
	var oob value
	for i, o := range offs {
		off, err := c.index(o)
		if err != nil {
			return fmt.Errorf("offset %d: %v", i, err)
		}
		bound, _, _, err := c.dimValue(bounds[i])
		if err != nil {
			return fmt.Errorf("bound %d: %v", i, err)
		}
		out := c.bin("", "arith.ori", c.cmp("", "arith.cmpi", "slt", 2, off, zero), c.cmp("", "arith.cmpi", "sge", 5, off, bound))
		if i == 0 {
			oob = out
		} else {
			oob = c.bin("", "arith.ori", oob, out)
		}
		elem = c.bin("", "arith.addi", elem, c.bin("", "arith.muli", off, strides[i].v))
	}
	checked := c.op("", "index", "arith.select", []value{oob, c.cIndex(-1), elem}, nil,
		fmt.Sprintf("arith.select %s, %s, %s : index", oob.ssa, c.cIndex(-1).ssa, elem.ssa))
	elem64, err := c.castValue(checked, ir.INDEX, ir.INT64, "")
	if err != nil {
		return err
	}
	expected, err := c.as(call.Args[2], ir.INT64, "")
	if err != nil {
		return fmt.Errorf("expected: %v", err)
	}
	c.mod.deferAdapter = true
	operands := []value{c.rawArgs, t.ptr, elem64, expected}
	custom := fmt.Sprintf("func.call @%s(%s) : %s", deferAdapter, ssaList(operands), signature(deferAdapterTypes, nil))
	c.stmtOp("func.call", operands, []attr{{"callee", "@" + deferAdapter}}, custom)
	return nil
}

// logicalStrides are t's element strides: its view's, or row-major ones
// for its shape. A fractal NZ view has none.
func (c *Ctx) logicalStrides(t *tensor) ([]dim, error) {
	rank := len(t.shape)
	if t.view != nil && t.view.Layout == ir.LayoutNZ {
		return nil, fmt.Errorf("an NZ signal has no logical strides")
	}
	out := make([]dim, rank)
	if t.view != nil && len(t.view.Stride) == rank {
		for i, s := range t.view.Stride {
			v, n, static, err := c.dimValue(s)
			if err != nil {
				return nil, fmt.Errorf("strides of %s: %v", t.name, err)
			}
			out[i] = dim{v, n, static}
		}
		return out, nil
	}
	for i, d := range t.shape {
		v, n, static, err := c.dimValue(d)
		if err != nil {
			return nil, fmt.Errorf("shape of %s: %v", t.name, err)
		}
		out[i] = dim{v, n, static}
	}
	return c.rowMajorStrides(out), nil
}

// isParam reports whether v is one of fn's parameters.
func isParam(fn *ir.Function, v *ir.Var) bool {
	for _, p := range fn.Params {
		if p == v {
			return true
		}
	}
	return false
}
