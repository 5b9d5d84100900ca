package pto

import (
	"github.com/ptorepl/ptorepl/ir"
)

// Builders for the small kernels the tests emit.

func newVar(name string, t ir.Type) *ir.Var { return ir.NewVar(name, t, ir.Span{}) }

func distT(dt ir.DataType, dims ...int64) *ir.DistributedTensorType {
	return &ir.DistributedTensorType{Shape: ir.Dims(dims...).Elems, DType: dt}
}

func tensorT(dt ir.DataType, dims ...int64) *ir.TensorType {
	return &ir.TensorType{Shape: ir.Dims(dims...).Elems, DType: dt}
}

func scalarT(dt ir.DataType) *ir.ScalarType { return ir.Scalar(dt) }

// tileT is a Vec tile; addr >= 0 gives it a placed MemRef, -1 an unallocated
// one, and -2 none.
func tileT(dt ir.DataType, addr int64, dims ...int64) *ir.TileType {
	t := &ir.TileType{Shape: ir.Dims(dims...).Elems, DType: dt, Memory: ir.MemVec}
	if addr > -2 {
		n, _ := ir.NumElements(t.Shape)
		t.MemRef = ir.NewMemRef(newVar("mem_vec", ir.PtrT), ir.Int(addr), uint64(n)*uint64(dt.Bytes()), ir.Span{})
	}
	return t
}

// withValid gives a tile type a valid shape.
func withValid(t *ir.TileType, valid ...ir.Expr) *ir.TileType {
	v := t.EffectiveView()
	v.ValidShape = valid
	c := *t
	c.View = &v
	return &c
}

func i32(v int64) *ir.ConstInt { return ir.IntOf(v, ir.INT32) }

func call(name string, args []ir.Expr, kw ir.Kwargs) *ir.Call {
	return ir.MustCall(name, args, kw, ir.Span{})
}

func kw(pairs ...any) ir.Kwargs {
	var out ir.Kwargs
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, ir.Kwarg{Key: pairs[i].(string), Value: pairs[i+1]})
	}
	return out
}

func assign(v *ir.Var, e ir.Expr) ir.Stmt { return &ir.AssignStmt{Var: v, Value: e} }

func eval(e ir.Expr) ir.Stmt { return &ir.EvalStmt{Expr: e} }

func args(es ...ir.Expr) []ir.Expr { return es }

// kernel makes a one-InCore-function program.
func kernel(name string, params []*ir.Var, body ...ir.Stmt) (*ir.Program, *ir.Function) {
	fn, err := ir.NewFunction(name, ir.InCore, ir.LevelNone, ir.RoleNone, ir.Span{})
	if err != nil {
		panic(err)
	}
	fn.Params = params
	fn.Body = ir.Seq(body...)
	p := ir.NewProgram("P")
	if err := p.AddFunction(fn); err != nil {
		panic(err)
	}
	return p, fn
}

func forRange(lv *ir.Var, start, stop, step ir.Expr, body ...ir.Stmt) *ir.ForStmt {
	return &ir.ForStmt{LoopVar: lv, Start: start, Stop: stop, Step: step, Body: ir.Seq(body...)}
}

func bin(op ir.BinaryOp, l, r ir.Expr, dt ir.DataType) *ir.BinaryExpr {
	return &ir.BinaryExpr{Op: op, Left: l, Right: r, DType: dt}
}

func cast(x ir.Expr, dt ir.DataType) *ir.UnaryExpr {
	return &ir.UnaryExpr{Op: ir.OpCast, X: x, DType: dt}
}
