package verify

import "github.com/ptorepl/ptorepl/ir"

// noNestedCalls is upstream's NoNestedCall verifier: no call is an argument
// of a call, an operand of an operator, an if condition or a for bound.
// Calls inside tuple literals (shapes, offsets) and kwargs are allowed, and
// so are returned and yielded calls, which upstream's verifier does not
// check either (FlattenCallExpr hoists them all the same).
func (v *verifier) noNestedCalls(s ir.Stmt) {
	switch s := s.(type) {
	case *ir.SeqStmts:
		for _, c := range s.Stmts {
			v.noNestedCalls(c)
		}
	case *ir.AssignStmt:
		v.flatExpr(s.Value, s.Pos)
	case *ir.EvalStmt:
		v.flatExpr(s.Expr, s.Pos)
	case *ir.ReturnStmt:
		for _, e := range s.Values {
			v.flatExpr(e, s.Pos)
		}
	case *ir.YieldStmt:
		for _, e := range s.Values {
			v.flatExpr(e, s.Pos)
		}
	case *ir.IfStmt:
		v.flatOperand("If condition cannot be a call expression", s.Cond, s.Pos)
		v.noNestedCalls(s.Then)
		v.noNestedCalls(s.Else)
	case *ir.ForStmt:
		v.flatOperand("For loop start expression cannot be a call expression", s.Start, s.Pos)
		v.flatOperand("For loop stop expression cannot be a call expression", s.Stop, s.Pos)
		v.flatOperand("For loop step expression cannot be a call expression", s.Step, s.Pos)
		v.noNestedCalls(s.Body)
	case *ir.WhileStmt:
		v.flatOperand("While loop condition cannot be a call expression", s.Cond, s.Pos)
		v.noNestedCalls(s.Body)
	case *ir.ScopeStmt:
		v.noNestedCalls(s.Body)
	}
}

// flatExpr checks the operands inside e (e itself may be a call).
func (v *verifier) flatExpr(e ir.Expr, pos ir.Span) {
	switch x := e.(type) {
	case *ir.Call:
		for _, a := range x.Args {
			v.flatOperand("Call expression has nested call in arguments", a, pos)
		}
	case *ir.BinaryExpr:
		v.flatOperand("Binary expression left operand cannot be a call expression", x.Left, pos)
		v.flatOperand("Binary expression right operand cannot be a call expression", x.Right, pos)
	case *ir.UnaryExpr:
		v.flatOperand("Unary expression operand cannot be a call expression", x.X, pos)
	case *ir.MakeTuple:
		for _, el := range x.Elems {
			v.flatExpr(el, pos)
		}
	case *ir.TupleGetItem:
		v.flatExpr(x.Tuple, pos)
	}
}

// flatOperand reports e when it is a call (msg is upstream's message), then
// checks inside it.
func (v *verifier) flatOperand(msg string, e ir.Expr, pos ir.Span) {
	if e == nil {
		return
	}
	if c, ok := e.(*ir.Call); ok {
		if c.Pos.Known() {
			pos = c.Pos
		}
		v.report("NoNestedCall", NestedCall, pos, "%s (%s)", msg, c.Name())
	}
	v.flatExpr(e, pos)
}
