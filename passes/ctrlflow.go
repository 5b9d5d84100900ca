package passes

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// CtrlFlowTransform lowers break and continue to structured control flow
// (upstream's pass 3, which runs before ConvertToSSA), since scf loops have
// no early exit. Upstream transforms InCore functions only; ptorepl
// transforms every function, so a break in a pl.at region of an
// orchestrator (outlined into a kernel later) is lowered too:
//   - the statements after an if whose branch continues move into the
//     branch that does not, so a continue simply ends its branch;
//   - a break sets a flag, break__tmp_vN, that the loop's condition tests;
//     a for loop with a break becomes a while loop over a counter,
//     <i>__idx_vN, advanced at the end of the body unless the flag is set.
//
// A loop that carries values in init_values (SSA form) may continue and
// break too: the branches yield the values the iteration ends with into
// the if's return variables (continueSSA), and a for loop that breaks
// becomes a while loop carrying the same values.
func CtrlFlowTransform(p *ir.Program) (*ir.Program, error) {
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		if !hasLoopEscape(fn.Body) {
			return fn, nil
		}
		t := &ctrlFlow{}
		body, err := t.block(ir.Flatten(fn.Body))
		if err != nil {
			return nil, err
		}
		g := fn.Clone()
		g.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: fn.Body.Span()}, Stmts: body}
		return g, nil
	})
}

type ctrlFlow struct {
	n int // the function's auto-name counter (upstream's name_counter_)
}

func (t *ctrlFlow) fresh(base, role string) string {
	name := fmt.Sprintf("%s__%s_v%d", base, role, t.n)
	t.n++
	return name
}

// hasLoopEscape reports whether s holds a break or continue anywhere.
func hasLoopEscape(s ir.Stmt) bool {
	found := false
	ir.WalkStmt(s, nil, func(x ir.Stmt) {
		switch x.(type) {
		case *ir.BreakStmt, *ir.ContinueStmt:
			found = true
		}
	})
	return found
}

// escapes reports the breaks and continues of s that leave the loop
// around it (not those of loops nested in s).
func escapes(s ir.Stmt) (brk, cont bool) {
	switch x := s.(type) {
	case *ir.BreakStmt:
		return true, false
	case *ir.ContinueStmt:
		return false, true
	case *ir.SeqStmts:
		for _, c := range x.Stmts {
			b, k := escapes(c)
			brk, cont = brk || b, cont || k
		}
	case *ir.IfStmt:
		b1, k1 := escapes(x.Then)
		b2, k2 := escapes(x.Else)
		return b1 || b2, k1 || k2
	case *ir.ScopeStmt:
		return escapes(x.Body)
	}
	return brk, cont
}

// block rewrites the loops in stmts, innermost first.
func (t *ctrlFlow) block(stmts []ir.Stmt) ([]ir.Stmt, error) {
	var out []ir.Stmt
	for _, s := range stmts {
		switch x := s.(type) {
		case *ir.ForStmt:
			body, err := t.block(ir.Flatten(x.Body))
			if err != nil {
				return nil, err
			}
			c := *x
			c.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: x.Body.Span()}, Stmts: body}
			lowered, err := t.forLoop(&c)
			if err != nil {
				return nil, err
			}
			out = append(out, lowered...)
		case *ir.WhileStmt:
			body, err := t.block(ir.Flatten(x.Body))
			if err != nil {
				return nil, err
			}
			c := *x
			c.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: x.Body.Span()}, Stmts: body}
			lowered, err := t.whileLoop(&c)
			if err != nil {
				return nil, err
			}
			out = append(out, lowered...)
		case *ir.IfStmt:
			c := *x
			th, err := t.block(ir.Flatten(x.Then))
			if err != nil {
				return nil, err
			}
			c.Then = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: x.Then.Span()}, Stmts: th}
			if x.Else != nil {
				el, err := t.block(ir.Flatten(x.Else))
				if err != nil {
					return nil, err
				}
				c.Else = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: x.Else.Span()}, Stmts: el}
			}
			out = append(out, &c)
		case *ir.ScopeStmt:
			b, err := t.block(ir.Flatten(x.Body))
			if err != nil {
				return nil, err
			}
			c := *x
			c.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: x.Body.Span()}, Stmts: b}
			out = append(out, &c)
		default:
			out = append(out, s)
		}
	}
	return out, nil
}

func (t *ctrlFlow) forLoop(s *ir.ForStmt) ([]ir.Stmt, error) {
	brk, cont := escapes(s.Body)
	if !brk && !cont {
		return []ir.Stmt{s}, nil
	}
	if s.Kind != ir.Sequential {
		return nil, fmt.Errorf("CtrlFlowTransform: a break or continue in a %s loop (line %d): only a sequential loop may leave an iteration early", s.Kind.DSLName(), s.Pos.Line)
	}
	if len(s.IterArgs) > 0 && !brk {
		body, err := t.continueSSA(ir.Flatten(s.Body), s.IterArgs, nil)
		if err != nil {
			return nil, err
		}
		c := *s
		c.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: s.Body.Span()}, Stmts: body}
		return []ir.Stmt{&c}, nil
	}
	if !brk {
		body, err := escapeFree(ir.Flatten(s.Body), nil)
		if err != nil {
			return nil, err
		}
		c := *s
		c.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: s.Body.Span()}, Stmts: body}
		return []ir.Stmt{&c}, nil
	}
	pos := s.Pos
	flag := ir.NewVar(t.fresh("break", "tmp"), ir.Scalar(ir.BOOL), pos)
	idx := ir.NewVar(t.fresh(s.LoopVar.Name, "idx"), s.LoopVar.Type(), pos)
	body := remapStmt(s.Body, map[*ir.Var]ir.Expr{s.LoopVar: idx})
	var stmts []ir.Stmt
	var err error
	if len(s.IterArgs) > 0 {
		stmts, err = t.continueSSA(ir.Flatten(body), s.IterArgs, flag)
	} else {
		stmts, err = escapeFree(ir.Flatten(body), flag)
	}
	if err != nil {
		return nil, err
	}
	// The counter advances unless the iteration broke out (before the
	// loop's yield, in a loop that carries values).
	// Before SSA the counter is one variable assigned again; in SSA form
	// (a loop that carries values) the branch's assignment is its own.
	next := idx
	if len(s.IterArgs) > 0 {
		next = ir.NewVar(idx.Name, idx.Type(), pos)
	}
	advance := &ir.AssignStmt{StmtBase: ir.StmtBase{Pos: pos}, Var: next,
		Value: &ir.BinaryExpr{Op: ir.OpAdd, Left: idx, Right: s.Step, DType: scalarDType(idx), Pos: pos}}
	// An unconditional break sets the flag in the body itself: in SSA form
	// the test reads that binding, as the flag's name means it from there.
	tested := flag
	for _, st := range stmts {
		if a, ok := st.(*ir.AssignStmt); ok && a.Var != flag && a.Var.Name == flag.Name {
			tested = a.Var
		}
	}
	step := &ir.IfStmt{StmtBase: ir.StmtBase{Pos: pos}, Cond: not(tested, pos), Then: ir.Seq(advance)}
	if n := len(stmts); len(s.IterArgs) > 0 {
		stmts = append(stmts[:n-1:n-1], step, stmts[n-1])
	} else {
		stmts = append(stmts, step)
	}
	cmp := ir.OpLt
	if c, ok := s.Step.(*ir.ConstInt); ok && c.Value < 0 {
		cmp = ir.OpGt
	}
	bound := &ir.BinaryExpr{Op: cmp, Left: idx, Right: s.Stop, DType: ir.BOOL, Pos: pos}
	return []ir.Stmt{
		&ir.AssignStmt{StmtBase: s.StmtBase, Var: idx, Value: s.Start},
		&ir.AssignStmt{StmtBase: ir.StmtBase{Pos: pos}, Var: flag, Value: &ir.ConstBool{Value: false, Pos: pos}},
		&ir.WhileStmt{StmtBase: ir.StmtBase{Pos: pos}, Cond: and(bound, not(flag, pos), pos), IterArgs: s.IterArgs,
			Body: &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: s.Body.Span()}, Stmts: stmts}, ReturnVars: s.ReturnVars},
	}, nil
}

func (t *ctrlFlow) whileLoop(s *ir.WhileStmt) ([]ir.Stmt, error) {
	brk, cont := escapes(s.Body)
	if !brk && !cont {
		return []ir.Stmt{s}, nil
	}
	var flag *ir.Var
	var pre []ir.Stmt
	c := *s
	if brk {
		flag = ir.NewVar(t.fresh("break", "tmp"), ir.Scalar(ir.BOOL), s.Pos)
		pre = append(pre, &ir.AssignStmt{StmtBase: ir.StmtBase{Pos: s.Pos}, Var: flag, Value: &ir.ConstBool{Value: false, Pos: s.Pos}})
		c.Cond = and(s.Cond, not(flag, s.Pos), s.Pos)
	}
	if len(s.IterArgs) > 0 {
		body, err := t.continueSSA(ir.Flatten(s.Body), s.IterArgs, flag)
		if err != nil {
			return nil, err
		}
		c.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: s.Body.Span()}, Stmts: body}
		return append(pre, &c), nil
	}
	body, err := escapeFree(ir.Flatten(s.Body), flag)
	if err != nil {
		return nil, err
	}
	c.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: s.Body.Span()}, Stmts: body}
	return append(pre, &c), nil
}

// escapeFree rewrites a loop body so that no break or continue remains:
// a continue ends its branch, a break sets flag and ends its branch, and
// the statements after an if that may escape move into each of its
// branches that goes on.
func escapeFree(stmts []ir.Stmt, flag *ir.Var) ([]ir.Stmt, error) {
	var out []ir.Stmt
	for i, s := range stmts {
		switch x := s.(type) {
		case *ir.BreakStmt:
			// Before SSA the flag is one variable, assigned again here (as
			// reading the printed form gives: a name rebound to its type).
			return append(out, &ir.AssignStmt{StmtBase: x.StmtBase, Var: flag, Value: &ir.ConstBool{Value: true, Pos: x.Pos}}), nil
		case *ir.ContinueStmt:
			return out, nil
		case *ir.IfStmt:
			b, k := escapes(x)
			if !b && !k {
				out = append(out, s)
				continue
			}
			if len(x.ReturnVars) > 0 {
				return nil, fmt.Errorf("CtrlFlowTransform: a break or continue in an if that yields values (line %d)", x.Pos.Line)
			}
			rest := stmts[i+1:]
			th, err := escapeFree(append(append([]ir.Stmt(nil), ir.Flatten(x.Then)...), rest...), flag)
			if err != nil {
				return nil, err
			}
			el, err := escapeFree(append(append([]ir.Stmt(nil), ir.Flatten(x.Else)...), rest...), flag)
			if err != nil {
				return nil, err
			}
			if b {
				// An if a break leaves by ends each branch with an empty
				// pl.yield_(), as upstream's pass writes it.
				th = append(th, &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: x.Pos}})
				el = append(el, &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: x.Pos}})
			}
			c := *x
			c.Then = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: x.Then.Span()}, Stmts: th}
			c.Else = nil
			if len(el) > 0 {
				c.Else = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: x.Pos}, Stmts: el}
			}
			return append(out, &c), nil
		case *ir.ScopeStmt:
			if err := scopeEscape(x); err != nil {
				return nil, err
			}
			out = append(out, s)
		default:
			out = append(out, s)
		}
	}
	return out, nil
}

// continueSSA rewrites the body of a loop that carries values (SSA form,
// ending in its pl.yield_) and continues or breaks, as upstream's pass
// does: a continue or break ends its branch yielding, for each value the
// loop's own yield gives, that value if it is already bound where the
// iteration leaves and the iter-arg as it came in otherwise (a break never
// yields an expression computed for the next iteration); a break sets
// flag first; an if that may leave takes the statements after it into
// both branches and gets return variables (<iter>__phi_vN) the branches
// yield into, and the loop yields those.
func (t *ctrlFlow) continueSSA(stmts []ir.Stmt, iters []*ir.IterArg, flag *ir.Var) ([]ir.Stmt, error) {
	var final []ir.Expr
	if n := len(stmts); n > 0 {
		if y, ok := stmts[n-1].(*ir.YieldStmt); ok {
			final = y.Values
		}
	}
	return t.escapeSSA(stmts, 0, false, &loopExit{iters: iters, flag: flag, final: final}, map[*ir.Var]bool{})
}

// loopExit is what an iteration that leaves early yields from.
type loopExit struct {
	iters []*ir.IterArg
	flag  *ir.Var
	final []ir.Expr // the loop's own yield
}

// values are the yield at an escape, with avail the variables bound there.
func (l *loopExit) values(avail map[*ir.Var]bool, brk bool) []ir.Expr {
	vals := make([]ir.Expr, len(l.iters))
	for k, it := range l.iters {
		vals[k] = it
		if k >= len(l.final) {
			continue
		}
		switch v := l.final[k].(type) {
		case *ir.Var:
			if avail[v] {
				vals[k] = v
			}
		case *ir.IterArg:
			vals[k] = v
		default:
			if !brk {
				vals[k] = v
			}
		}
	}
	return vals
}

// escapeSSA is continueSSA on one level (nested: a path through an
// escaping if's branch): avail holds the variables bound before it; the
// first skip statements (an escaping branch's own, before
// its break or continue) bind none that an escape yields, as upstream
// resolves escape values from the statements before the if.
func (t *ctrlFlow) escapeSSA(stmts []ir.Stmt, skip int, nested bool, l *loopExit, avail map[*ir.Var]bool) ([]ir.Stmt, error) {
	var out []ir.Stmt
	here := map[*ir.Var]bool{}
	for v := range avail {
		here[v] = true
	}
	for i, s := range stmts {
		switch x := s.(type) {
		case *ir.ContinueStmt:
			return append(out, &ir.YieldStmt{StmtBase: x.StmtBase, Values: l.values(here, false)}), nil
		case *ir.BreakStmt:
			// The flag the loop tests is set (in SSA form a Var of its own
			// under the flag's name, as strict_ssa reads the printed form).
			set := ir.NewVar(l.flag.Name, l.flag.Type(), x.Pos)
			return append(out, &ir.AssignStmt{StmtBase: x.StmtBase, Var: set, Value: &ir.ConstBool{Value: true, Pos: x.Pos}},
				&ir.YieldStmt{StmtBase: x.StmtBase, Values: l.values(here, true)}), nil
		case *ir.IfStmt:
			if b, k := escapes(x); !b && !k {
				out = append(out, s)
				continue
			}
			if len(x.ReturnVars) > 0 {
				return nil, fmt.Errorf("CtrlFlowTransform: a break or continue in an if that yields values (line %d)", x.Pos.Line)
			}
			rest := stmts[i+1:]
			branch := func(b ir.Stmt) ([]ir.Stmt, error) {
				own := ir.Flatten(b)
				n := 0
				if len(own) > 0 {
					switch own[len(own)-1].(type) {
					case *ir.BreakStmt, *ir.ContinueStmt:
						n = len(own)
					}
				}
				return t.escapeSSA(append(append([]ir.Stmt(nil), own...), rest...), n, true, l, here)
			}
			th, err := branch(x.Then)
			if err != nil {
				return nil, err
			}
			el, err := branch(x.Else)
			if err != nil {
				return nil, err
			}
			phis := make([]*ir.Var, len(l.iters))
			vals := make([]ir.Expr, len(l.iters))
			for k, it := range l.iters {
				phis[k] = ir.NewVar(t.fresh(baseName(it.Name), "phi"), it.Type(), x.Pos) // x__iter_v1 -> x__phi_vN
				vals[k] = phis[k]
			}
			c := *x
			c.Then = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: x.Then.Span()}, Stmts: th}
			c.Else = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: x.Pos}, Stmts: el}
			c.ReturnVars = phis
			return append(out, &c, &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: x.Pos}, Values: vals}), nil
		case *ir.ScopeStmt:
			if err := scopeEscape(x); err != nil {
				return nil, err
			}
			out = append(out, s)
		case *ir.YieldStmt:
			if nested && i == len(stmts)-1 {
				// The loop's yield on a path past an escape yields what is
				// bound on that path, as upstream resolves it there: a
				// value bound only inside an earlier if's branches is the
				// iter-arg.
				out = append(out, &ir.YieldStmt{StmtBase: x.StmtBase, Values: l.values(here, false)})
				continue
			}
			out = append(out, s)
		default:
			out = append(out, s)
		}
		if a, ok := s.(*ir.AssignStmt); ok && i >= skip {
			here[a.Var] = true
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("CtrlFlowTransform: a loop that carries init_values must end its body with pl.yield_")
	}
	if _, ok := out[len(out)-1].(*ir.YieldStmt); !ok {
		return nil, fmt.Errorf("CtrlFlowTransform: a loop that carries init_values must end its body with pl.yield_ (line %d)", out[len(out)-1].Span().Line)
	}
	return out, nil
}

// scopeEscape refuses a break or continue inside a with-scope: it cannot
// leave the loop around the scope.
func scopeEscape(x *ir.ScopeStmt) error {
	if b, k := escapes(x); b || k {
		return fmt.Errorf("CtrlFlowTransform: a break or continue inside a %s scope (line %d) cannot leave the loop around it", scopeWord(x), x.Pos.Line)
	}
	return nil
}

func not(x ir.Expr, pos ir.Span) ir.Expr {
	return &ir.UnaryExpr{Op: ir.OpNot, X: x, DType: ir.BOOL, Pos: pos}
}

func and(l, r ir.Expr, pos ir.Span) ir.Expr {
	return &ir.BinaryExpr{Op: ir.OpAnd, Left: l, Right: r, DType: ir.BOOL, Pos: pos}
}

// scalarDType is v's scalar element type (INDEX for a non-scalar).
func scalarDType(v *ir.Var) ir.DataType {
	if st, ok := v.Type().(*ir.ScalarType); ok {
		return st.DType
	}
	return ir.INDEX
}

// scopeWord names a scope for messages ("pl.at", "pl.spmd", ...).
func scopeWord(s *ir.ScopeStmt) string {
	switch s.Kind {
	case ir.ScopeSpmd:
		return "pl.spmd"
	case ir.ScopeSplitAiv:
		return "pl.split_aiv"
	case ir.ScopeRuntime:
		return "runtime"
	case ir.ScopeCluster:
		return "pl.cluster"
	}
	return "pl.at"
}
