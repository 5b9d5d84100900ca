package dsl

import (
	"fmt"
	"math"

	"github.com/ptorepl/ptorepl/ir"
)

// Expr converts a Go value used as a DSL argument to an IR expression: IR
// expressions pass through (variables resolved to their latest binding), Go
// integers become INDEX constants (a bare literal, as in PyPTO), floats FP32
// constants, bools BOOL constants, and shapes become tuples.
func Expr(v any, what string) ir.Expr {
	switch x := v.(type) {
	case nil:
		Failf("%s: got nil, want an expression", what)
	case *ir.Var:
		if b := Current(); b != nil {
			return b.Resolve(x)
		}
		return x
	case *ir.Call:
		// An alloc's result must be bound by a Let before use.
		if x.Op == ir.PldTensorAllocWindowBuffer {
			Failf("%s: pld.AllocWindowBuffer must appear as the right-hand side of a simple assignment: bind it with f.Let(\"name\", ...) first", what)
		}
		return x
	case ir.Expr:
		return x
	case Shape:
		return x.Tuple()
	case []int:
		return Dims(toAny(x)...).Tuple()
	case int:
		return ir.Int(int64(x))
	case int64:
		return ir.Int(x)
	case int32:
		return ir.Int(int64(x))
	case uint:
		return ir.Int(int64(x))
	case float64:
		return &ir.ConstFloat{Value: x, DType: ir.FP32}
	case float32:
		return &ir.ConstFloat{Value: float64(x), DType: ir.FP32}
	case bool:
		return &ir.ConstBool{Value: x}
	}
	Failf("%s: cannot use %v (%T) as an expression", what, v, v)
	return nil
}

func toAny(xs []int) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// Int32Expr converts like Expr but turns a Go integer (or an INDEX constant)
// into an INT32 constant, as PyPTO's IR builders do for peer, value and
// expected arguments.
func Int32Expr(v any, what string) ir.Expr {
	e := Expr(v, what)
	if c, ok := e.(*ir.ConstInt); ok && c.DType == ir.INDEX {
		if c.Value < math.MinInt32 || c.Value > math.MaxInt32 {
			Failf("%s: %d does not fit in INT32", what, c.Value)
		}
		return &ir.ConstInt{Value: c.Value, DType: ir.INT32, Pos: c.Pos}
	}
	return e
}

// Shape is a list of dimensions: constants or symbolic expressions.
type Shape struct {
	Dims []ir.Expr
}

// Dims builds a Shape from ints and expressions.
func Dims(dims ...any) Shape {
	out := make([]ir.Expr, len(dims))
	for i, d := range dims {
		out[i] = Expr(d, fmt.Sprintf("dimension %d", i))
	}
	return Shape{Dims: out}
}

// Tuple is the shape as a MakeTuple expression.
func (s Shape) Tuple() *ir.MakeTuple {
	return &ir.MakeTuple{Elems: append([]ir.Expr(nil), s.Dims...)}
}

// String prints the shape as PyPTO does ([1, 256]).
func (s Shape) String() string { return ir.DefaultFormat.Dims(s.Dims) }

// ShapeArg converts a shape-like argument (Shape, []int, or a tuple) to dims.
func ShapeArg(v any, what string) []ir.Expr {
	switch x := v.(type) {
	case Shape:
		return x.Dims
	case []int:
		return Dims(toAny(x)...).Dims
	case *ir.MakeTuple:
		return x.Elems
	}
	Failf("%s: want a shape such as pl.Dims(1, 256), got %v (%T)", what, v, v)
	return nil
}

// TupleArg converts a shape/offsets-like argument to a MakeTuple, resolving variables.
func TupleArg(v any, what string) *ir.MakeTuple {
	dims := ShapeArg(v, what)
	out := make([]ir.Expr, len(dims))
	for i, d := range dims {
		out[i] = Expr(d, what)
	}
	return &ir.MakeTuple{Elems: out}
}

// Call builds a registered op call at the caller's position, panicking with
// the deducer's positioned error on bad arguments.
func Call(op *ir.OpDef, args []ir.Expr, kwargs ir.Kwargs) *ir.Call {
	c, err := op.NewCall(args, kwargs, Caller())
	if err != nil {
		Raise(err)
	}
	return c
}
