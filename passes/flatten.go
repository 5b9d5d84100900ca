package passes

import (
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// FlattenCallExpr puts the program in three-address form, as upstream's
// pass of the same name does (docs/en/dev/passes/06-flatten_call_expr.md):
// no call is an argument of a call, an operand of a binary or unary
// expression, an if condition, a for bound, or a returned or yielded value.
// Each such call is hoisted into a temporary t__tmp_v<N> (numbered per
// function) assigned right before the statement that held it; a for or
// if's own temporaries go before it, a body's stay in the body. Calls inside
// tuple literals and kwargs stay where they are, as upstream leaves them.
//
// Later passes and codegen see every tile an op produces bound to a
// variable, so memory planning gives it a buffer: a remote_load written as
// an add's operand gets one like any other tile.
func FlattenCallExpr(p *ir.Program) (*ir.Program, error) {
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		f := &flattener{n: firstFreeTemp(fn)}
		return withBody(fn, f.body(fn.Body)), nil
	})
}

// firstFreeTemp is the first temporary number no name of fn uses, so a
// function that already holds t__tmp_vN names (one read back from a
// printed stage, or a user's own) gets no second variable of one name.
func firstFreeTemp(fn *ir.Function) int {
	n := 0
	see := func(name string) {
		if k, err := strconv.Atoi(strings.TrimPrefix(name, tempPrefix)); err == nil && strings.HasPrefix(name, tempPrefix) && k >= n {
			n = k + 1
		}
	}
	for _, v := range fn.Params {
		see(v.Name)
	}
	ir.Preorder(fn.Body, []ir.Node{(*ir.AssignStmt)(nil)}, func(x ir.Node) { see(x.(*ir.AssignStmt).Var.Name) })
	return n
}

// tempPrefix starts every temporary's name, as upstream's auto_name does.
const tempPrefix = "t__tmp_v"

// callsFlat reports whether FlattenCallExpr would leave p as it is.
func callsFlat(p *ir.Program) bool {
	for _, fn := range p.Functions {
		if fn != nil && fn.Body != nil && (&flattener{}).body(fn.Body) != fn.Body {
			return false
		}
	}
	return true
}

type flattener struct {
	n       int       // the next temporary's number
	pending []ir.Stmt // temporaries of the statement being flattened
}

// body flattens a function, loop or branch body: a block's statements each
// get their temporaries right before them; a lone statement is wrapped with
// its own. The enclosing statement's pending temporaries are kept aside.
func (f *flattener) body(s ir.Stmt) ir.Stmt {
	if s == nil {
		return nil
	}
	outer := f.pending
	defer func() { f.pending = outer }()
	if seq, ok := s.(*ir.SeqStmts); ok {
		return f.seq(seq)
	}
	f.pending = nil
	ns := f.stmt(s)
	if len(f.pending) == 0 {
		return ns
	}
	return &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: s.Span()}, Stmts: append(f.pending, ns)}
}

func (f *flattener) seq(seq *ir.SeqStmts) ir.Stmt {
	var out []ir.Stmt
	changed := false
	for _, s := range seq.Stmts {
		f.pending = nil
		ns := f.stmt(s)
		if len(f.pending) > 0 || ns != s {
			changed = true
		}
		out = append(out, f.pending...)
		out = append(out, ns)
	}
	f.pending = nil
	if !changed {
		return seq
	}
	c := *seq
	c.Stmts = out
	return &c
}

func (f *flattener) stmt(s ir.Stmt) ir.Stmt {
	switch x := s.(type) {
	case *ir.SeqStmts:
		return f.body(x)
	case *ir.AssignStmt:
		if v := f.expr(x.Value); v != x.Value {
			c := *x
			c.Value = v
			return &c
		}
	case *ir.EvalStmt:
		if v := f.expr(x.Expr); v != x.Expr {
			c := *x
			c.Expr = v
			return &c
		}
	case *ir.ReturnStmt:
		if vs, ch := f.operands(x.Values); ch {
			c := *x
			c.Values = vs
			return &c
		}
	case *ir.YieldStmt:
		if vs, ch := f.operands(x.Values); ch {
			c := *x
			c.Values = vs
			return &c
		}
	case *ir.IfStmt:
		c := *x
		c.Cond = f.operand(x.Cond)
		c.Then = f.body(x.Then)
		c.Else = f.body(x.Else)
		if c.Cond != x.Cond || c.Then != x.Then || c.Else != x.Else {
			return &c
		}
	case *ir.ScopeStmt:
		b := f.body(x.Body)
		n := x.CoreNum
		if n != nil {
			n = f.operand(n)
		}
		if b != x.Body || n != x.CoreNum {
			c := *x
			c.Body, c.CoreNum = b, n
			return &c
		}
	case *ir.ForStmt:
		c := *x
		c.Start, c.Stop, c.Step = f.operand(x.Start), f.operand(x.Stop), f.operand(x.Step)
		c.Body = f.body(x.Body)
		if c.Start != x.Start || c.Stop != x.Stop || c.Step != x.Step || c.Body != x.Body {
			return &c
		}
	case *ir.WhileStmt:
		// The condition is read each iteration, so a call in it stays
		// there (NestedCallVerify reports one).
		c := *x
		c.Body = f.body(x.Body)
		if c.Body != x.Body {
			return &c
		}
	}
	return s
}

// operand is e flattened, itself hoisted when it is a call.
func (f *flattener) operand(e ir.Expr) ir.Expr {
	if e == nil {
		return nil
	}
	e = f.expr(e)
	c, ok := e.(*ir.Call)
	if !ok {
		return e
	}
	v := ir.NewVar(tempPrefix+strconv.Itoa(f.n), c.Type(), c.Pos)
	f.n++
	f.pending = append(f.pending, assign(v, c))
	return v
}

func (f *flattener) operands(es []ir.Expr) ([]ir.Expr, bool) { return eachExpr(es, f.operand) }

// expr flattens inside e: a call's arguments and an operator's operands
// are operands; a tuple's elements are flattened in place; e itself stays.
func (f *flattener) expr(e ir.Expr) ir.Expr {
	switch x := e.(type) {
	case *ir.Call:
		if args, ch := f.operands(x.Args); ch {
			c := *x
			c.Args = args
			return &c
		}
	case *ir.BinaryExpr:
		l, r := f.operand(x.Left), f.operand(x.Right)
		if l != x.Left || r != x.Right {
			c := *x
			c.Left, c.Right = l, r
			return &c
		}
	case *ir.UnaryExpr:
		if y := f.operand(x.X); y != x.X {
			c := *x
			c.X = y
			return &c
		}
	case *ir.MakeTuple:
		if els, ch := eachExpr(x.Elems, f.expr); ch {
			return &ir.MakeTuple{Elems: els, Pos: x.Pos}
		}
	case *ir.TupleGetItem:
		if y := f.expr(x.Tuple); y != x.Tuple {
			c := *x
			c.Tuple = y
			return &c
		}
	}
	return e
}
