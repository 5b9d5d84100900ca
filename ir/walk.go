package ir

// WalkStmt visits s and every statement and expression below it in program
// order: onStmt before a statement's children, onExpr for each expression
// (pre-order, including call arguments and expression-valued kwargs and
// attrs). Either callback may be nil. Every layer that needs a plain
// traversal uses this one, so a new node kind is added in one place.
func WalkStmt(s Stmt, onExpr func(Expr), onStmt func(Stmt)) {
	if s == nil {
		return
	}
	if onStmt != nil {
		onStmt(s)
	}
	ex := func(e Expr) { WalkExpr(e, onExpr) }
	switch s := s.(type) {
	case *SeqStmts:
		for _, c := range s.Stmts {
			WalkStmt(c, onExpr, onStmt)
		}
	case *AssignStmt:
		ex(s.Value)
	case *EvalStmt:
		ex(s.Expr)
	case *ReturnStmt:
		for _, v := range s.Values {
			ex(v)
		}
	case *YieldStmt:
		for _, v := range s.Values {
			ex(v)
		}
	case *IfStmt:
		ex(s.Cond)
		WalkStmt(s.Then, onExpr, onStmt)
		WalkStmt(s.Else, onExpr, onStmt)
	case *ScopeStmt:
		if s.CoreNum != nil {
			ex(s.CoreNum)
		}
		for _, d := range s.Deps {
			ex(d)
		}
		for _, d := range s.NoDepArgs {
			ex(d)
		}
		for _, d := range s.Dumps {
			ex(d)
		}
		if s.Predicate != nil {
			ex(s.Predicate)
		}
		WalkStmt(s.Body, onExpr, onStmt)
	case *ForStmt:
		ex(s.Start)
		ex(s.Stop)
		ex(s.Step)
		for _, ia := range s.IterArgs {
			ex(ia.Init)
		}
		WalkStmt(s.Body, onExpr, onStmt)
	case *WhileStmt:
		for _, ia := range s.IterArgs {
			ex(ia.Init)
		}
		ex(s.Cond)
		WalkStmt(s.Body, onExpr, onStmt)
	}
}

// WalkExpr visits e and its sub-expressions in pre-order.
func WalkExpr(e Expr, on func(Expr)) {
	if e == nil {
		return
	}
	if on != nil {
		on(e)
	}
	for _, c := range Children(e) {
		WalkExpr(c, on)
	}
}

// Children lists the direct sub-expressions of e: operands, tuple elements,
// call arguments, then expression-valued kwargs and attrs.
func Children(e Expr) []Expr {
	switch e := e.(type) {
	case *BinaryExpr:
		return []Expr{e.Left, e.Right}
	case *UnaryExpr:
		return []Expr{e.X}
	case *MakeTuple:
		return e.Elems
	case *TupleGetItem:
		return []Expr{e.Tuple}
	case *Call:
		out := append([]Expr(nil), e.Args...)
		for _, kvs := range []Kwargs{e.Kwargs, e.Attrs} {
			for _, kv := range kvs {
				if x, ok := kv.Value.(Expr); ok {
					out = append(out, x)
				}
			}
		}
		return out
	}
	return nil
}

// StmtCall is the call a statement evaluates — the value of an assignment or
// an expression statement — or nil.
func StmtCall(s Stmt) *Call {
	switch x := s.(type) {
	case *AssignStmt:
		c, _ := x.Value.(*Call)
		return c
	case *EvalStmt:
		c, _ := x.Expr.(*Call)
		return c
	}
	return nil
}
