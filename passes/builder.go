package passes

import (
	"github.com/ptorepl/ptorepl/ir"
)

// lowering is the LoweringBuilder of LowerCompositeOps: it appends
// statements, binds temporaries under fresh names and emits structured
// control flow through nested builders that share one namer, so names stay
// unique at any nesting depth.
type lowering struct {
	names *namer
	pos   ir.Span
	stmts []ir.Stmt
}

func (b *lowering) child() *lowering { return &lowering{names: b.names, pos: b.pos} }

func (b *lowering) body() ir.Stmt {
	return &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: b.pos}, Stmts: b.stmts}
}

// op builds a call through the registry (running its deducer). A rejection
// here is a lowering bug or an unsupported input; it panics and the pipeline
// reports it as an error of this pass.
func (b *lowering) op(op *ir.OpDef, args []ir.Expr, kw ir.Kwargs) *ir.Call {
	return op.MustCall(args, kw, b.pos)
}

// bind appends `name = e` under a fresh name and returns the variable.
func (b *lowering) bind(name string, e ir.Expr) *ir.Var {
	v := ir.NewVar(b.names.fresh(name), e.Type(), b.pos)
	b.stmts = append(b.stmts, &ir.AssignStmt{StmtBase: ir.StmtBase{Pos: b.pos}, Var: v, Value: e})
	return v
}

// do appends a side-effect call.
func (b *lowering) do(e ir.Expr) {
	b.stmts = append(b.stmts, &ir.EvalStmt{StmtBase: ir.StmtBase{Pos: b.pos}, Expr: e})
}

// forRange emits `for name in pl.range(start, stop, step)`.
func (b *lowering) forRange(name string, start, stop, step ir.Expr, body func(c *lowering, i *ir.Var)) {
	lv := ir.NewVar(b.names.fresh(name), ir.Scalar(ir.INDEX), b.pos)
	c := b.child()
	body(c, lv)
	b.stmts = append(b.stmts, &ir.ForStmt{StmtBase: ir.StmtBase{Pos: b.pos}, LoopVar: lv,
		Start: start, Stop: stop, Step: step, Body: c.body(), Kind: ir.Sequential})
}

// forReduce emits a loop carrying one accumulator (EmitForReduce): body gets
// the iter-arg and returns the value to yield; the loop's return var is returned.
func (b *lowering) forReduce(name string, start, stop ir.Expr, accName string, init ir.Expr,
	body func(c *lowering, i *ir.Var, acc ir.Expr) ir.Expr) *ir.Var {
	lv := ir.NewVar(b.names.fresh(name), ir.Scalar(ir.INDEX), b.pos)
	ia := ir.NewIterArg(b.names.fresh(accName+"_iter"), init.Type(), init, b.pos)
	c := b.child()
	next := body(c, lv, ia)
	c.stmts = append(c.stmts, &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: b.pos}, Values: []ir.Expr{next}})
	rv := ir.NewVar(b.names.fresh(accName+"_rv"), init.Type(), b.pos)
	b.stmts = append(b.stmts, &ir.ForStmt{StmtBase: ir.StmtBase{Pos: b.pos}, LoopVar: lv,
		Start: start, Stop: ir.Expr(stop), Step: ir.Int(1), IterArgs: []*ir.IterArg{ia}, Body: c.body(),
		ReturnVars: []*ir.Var{rv}, Kind: ir.Sequential})
	return rv
}

// ifThen emits `if cond:` with no else.
func (b *lowering) ifThen(cond ir.Expr, then func(c *lowering)) {
	c := b.child()
	then(c)
	b.stmts = append(b.stmts, &ir.IfStmt{StmtBase: ir.StmtBase{Pos: b.pos}, Cond: cond, Then: c.body()})
}

// ifExpr emits an if/else that yields one value into a fresh return var
// (EmitIfExpr). A nil t takes the then-branch value's type.
func (b *lowering) ifExpr(cond ir.Expr, name string, t ir.Type, then, els func(c *lowering) ir.Expr) *ir.Var {
	tb, eb := b.child(), b.child()
	tv, ev := then(tb), els(eb)
	if t == nil {
		t = tv.Type()
	}
	tb.stmts = append(tb.stmts, &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: b.pos}, Values: []ir.Expr{tv}})
	eb.stmts = append(eb.stmts, &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: b.pos}, Values: []ir.Expr{ev}})
	rv := ir.NewVar(b.names.fresh(name), t, b.pos)
	b.stmts = append(b.stmts, &ir.IfStmt{StmtBase: ir.StmtBase{Pos: b.pos}, Cond: cond, Then: tb.body(), Else: eb.body(),
		ReturnVars: []*ir.Var{rv}})
	return rv
}

// Scalar expression helpers.

func bin(op ir.BinaryOp, l, r ir.Expr) ir.Expr {
	dt := ir.INDEX
	if st, ok := l.Type().(*ir.ScalarType); ok {
		dt = st.DType
	}
	if op.IsCompare() {
		dt = ir.BOOL
	}
	return &ir.BinaryExpr{Op: op, Left: l, Right: r, DType: dt}
}

func notEq(a, b ir.Expr) ir.Expr { return bin(ir.OpNe, a, b) }

func cast(e ir.Expr, dt ir.DataType) ir.Expr {
	if st, ok := e.Type().(*ir.ScalarType); ok && st.DType == dt {
		return e
	}
	if c, ok := e.(*ir.ConstInt); ok {
		return ir.IntOf(c.Value, dt)
	}
	return &ir.UnaryExpr{Op: ir.OpCast, X: e, DType: dt}
}

func i32(v int64) ir.Expr { return ir.IntOf(v, ir.INT32) }

func tuple(es ...ir.Expr) *ir.MakeTuple { return &ir.MakeTuple{Elems: es} }

func zerosLike(shape []ir.Expr) *ir.MakeTuple {
	z := make([]ir.Expr, len(shape))
	for i := range z {
		z[i] = ir.Int(0)
	}
	return &ir.MakeTuple{Elems: z}
}
