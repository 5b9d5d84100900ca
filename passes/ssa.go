package passes

import (
	"fmt"
	"sort"

	"github.com/ptorepl/ptorepl/ir"
)

// ConvertToSSA versions every reassignment (passes.md §2). A source variable
// is identified by its name, as in PyPTO's DSL: the Go DSL's f.Set makes a
// new Var of the same name, and a use inside a loop body means "the current
// value of that name", which is the loop-carried value. So:
//   - a name reassigned inside a loop and live before it becomes an iter-arg
//     initialised from the pre-loop version; the body ends in pl.yield_ and the
//     loop's return var replaces later uses;
//   - a name assigned in an if (and live before it, or assigned in both
//     branches) becomes a return var of the if; each branch yields its
//     version, and a missing else is synthesised to yield the incoming value.
//
// Names assigned more than once get <base>__ssa_v<N>, <base>__iter_v<N>,
// <base>__rv_v<N> and <base>__phi_v<N>; names assigned once keep their Var.
// Running the pass on SSA input changes nothing.
func ConvertToSSA(p *ir.Program) (*ir.Program, error) {
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		s := &ssaConv{multi: map[string]bool{}, ver: map[string]int{}}
		for n, c := range bindCounts(fn) {
			if c > 1 {
				s.multi[n] = true
				s.ver[n] = 0
			}
		}
		if len(s.multi) == 0 && !needsPhi(fn.Body) {
			return fn, nil
		}
		env := map[string]ir.Expr{}
		for _, v := range fn.Params {
			env[v.Name] = v
		}
		body, err := s.block(ir.Flatten(fn.Body), env)
		if err != nil {
			return nil, err
		}
		g := fn.Clone()
		g.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: fn.Body.Span()}, Stmts: body}
		return g, nil
	})
}

// bindCounts counts how often each name is bound in fn (parameters,
// assignments, iter-args, return vars): a function is in SSA form when no
// count exceeds one.
func bindCounts(fn *ir.Function) map[string]int {
	count := map[string]int{}
	for _, v := range fn.Params {
		count[v.Name]++
	}
	ir.WalkStmt(fn.Body, nil, func(st ir.Stmt) {
		switch x := st.(type) {
		case *ir.AssignStmt:
			count[x.Var.Name]++
		case *ir.ForStmt, *ir.WhileStmt:
			ias, rvs := ir.LoopCarried(x)
			for _, ia := range ias {
				count[ia.Name]++
			}
			for _, v := range rvs {
				count[v.Name]++
			}
		case *ir.IfStmt:
			for _, v := range x.ReturnVars {
				count[v.Name]++
			}
		case *ir.ScopeStmt:
			if x.TaskID != nil {
				count[x.TaskID.Name]++
			}
		}
	})
	return count
}

// needsPhi reports whether some loop or if would need SSA plumbing even
// though no name is assigned twice (never true for DSL output; kept cheap).
func needsPhi(ir.Stmt) bool { return false }

type ssaConv struct {
	multi map[string]bool
	ver   map[string]int
}

func (s *ssaConv) fresh(name, kind string) string {
	base := name
	n := s.ver[base]
	s.ver[base] = n + 1
	return fmt.Sprintf("%s__%s_v%d", base, kind, n)
}

func copyEnv(env map[string]ir.Expr) map[string]ir.Expr {
	out := make(map[string]ir.Expr, len(env))
	for k, v := range env {
		out[k] = v
	}
	return out
}

// use substitutes the current version of every name in e, inside the
// types calls carry too (a tile's valid shape may name a variable).
func (s *ssaConv) use(e ir.Expr, env map[string]ir.Expr) ir.Expr {
	var sub func(x ir.Expr) (ir.Expr, bool)
	sub = func(x ir.Expr) (ir.Expr, bool) {
		if v, ok := ir.VarOf(x); ok {
			if cur, ok := env[v.Name]; ok {
				return cur, true
			}
			return x, true
		}
		if c, ok := x.(*ir.Call); ok && c.T != nil {
			if t := s.useType(c.T, env); t != c.T {
				cp := *c
				cp.T = t
				return mapExpr(&cp, func(y ir.Expr) (ir.Expr, bool) {
					if y == ir.Expr(&cp) {
						return nil, false
					}
					return sub(y)
				}), true
			}
		}
		return nil, false
	}
	return mapExpr(e, sub)
}

// useType is t with the current version of every name it mentions.
func (s *ssaConv) useType(t ir.Type, env map[string]ir.Expr) ir.Type {
	return mapTypeExprs(t, func(e ir.Expr) ir.Expr { return s.use(e, env) })
}

func (s *ssaConv) uses(es []ir.Expr, env map[string]ir.Expr) []ir.Expr {
	out := make([]ir.Expr, len(es))
	for i, e := range es {
		out[i] = s.use(e, env)
	}
	return out
}

// assignedNames lists, in first-assignment order, the names a block assigns
// (including the return vars of nested loops and ifs).
// retypedNames are the names live before a loop that its body assigns a
// value of another type: the body's binding is a new variable, not the
// loop-carried value (no iter-arg could hold both). The reader's
// _tuple_tmp, rebound by each tuple unpacking, is the usual one.
func retypedNames(stmts []ir.Stmt, env map[string]ir.Expr) map[string]bool {
	out := map[string]bool{}
	for _, st := range stmts {
		ir.WalkStmt(st, nil, func(x ir.Stmt) {
			a, ok := x.(*ir.AssignStmt)
			if !ok {
				return
			}
			if before, live := env[a.Var.Name]; live && !sameCarrier(before.Type(), a.Var.Type()) {
				out[a.Var.Name] = true
			}
		})
	}
	return out
}

// sameCarrier reports whether one iter-arg can hold values of types a and
// b: the same kind of value (a tensor, a tile, a scalar), tuples element by
// element. Within a kind the loop carries as it always has (a refined
// view or another integer width is still the one variable), but a tensor
// or tile of another element type is another value.
func sameCarrier(a, b ir.Type) bool {
	if at, ok := a.(*ir.TupleType); ok {
		bt, ok := b.(*ir.TupleType)
		if !ok || len(at.Types) != len(bt.Types) {
			return false
		}
		for i := range at.Types {
			if !sameCarrier(at.Types[i], bt.Types[i]) {
				return false
			}
		}
		return true
	}
	if at, ok := ir.AsTensorLike(a); ok {
		if bt, ok := ir.AsTensorLike(b); ok && at.DType != bt.DType {
			return false
		}
	}
	if at, ok := a.(*ir.TileType); ok {
		if bt, ok := b.(*ir.TileType); ok && at.DType != bt.DType {
			return false
		}
	}
	return a.TypeName() == b.TypeName()
}

func assignedNames(stmts []ir.Stmt) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, st := range stmts {
		ir.WalkStmt(st, nil, func(x ir.Stmt) {
			switch y := x.(type) {
			case *ir.AssignStmt:
				add(y.Var.Name)
			case *ir.ForStmt, *ir.WhileStmt:
				_, rvs := ir.LoopCarried(y)
				for _, v := range rvs {
					add(v.Name)
				}
			case *ir.IfStmt:
				for _, v := range y.ReturnVars {
					add(v.Name)
				}
			case *ir.ScopeStmt:
				if y.TaskID != nil {
					add(y.TaskID.Name)
				}
			}
		})
	}
	return out
}

func (s *ssaConv) block(stmts []ir.Stmt, env map[string]ir.Expr) ([]ir.Stmt, error) {
	var out []ir.Stmt
	for _, st := range stmts {
		switch x := st.(type) {
		case *ir.AssignStmt:
			val := s.use(x.Value, env)
			v := x.Var
			if s.multi[v.Name] {
				v = ir.NewVar(s.fresh(v.Name, "ssa"), s.useType(x.Var.Type(), env), x.Var.Pos)
			} else if t := s.useType(v.Type(), env); t != v.Type() {
				v = ir.NewVar(v.Name, t, v.Pos)
			}
			env[x.Var.Name] = v
			if v == x.Var && val == x.Value {
				out = append(out, x)
			} else {
				out = append(out, &ir.AssignStmt{StmtBase: x.StmtBase, Var: v, Value: val})
			}
		case *ir.EvalStmt:
			out = append(out, &ir.EvalStmt{StmtBase: x.StmtBase, Expr: s.use(x.Expr, env)})
		case *ir.ReturnStmt:
			out = append(out, &ir.ReturnStmt{StmtBase: x.StmtBase, Values: s.uses(x.Values, env)})
		case *ir.YieldStmt:
			out = append(out, &ir.YieldStmt{StmtBase: x.StmtBase, Values: s.uses(x.Values, env)})
		case *ir.ForStmt:
			f, err := s.forStmt(x, env)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		case *ir.WhileStmt:
			w, err := s.whileStmt(x, env)
			if err != nil {
				return nil, err
			}
			out = append(out, w)
		case *ir.IfStmt:
			f, err := s.ifStmt(x, env)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		case *ir.ScopeStmt:
			// A scope is transparent: its definitions are visible after it.
			// An Spmd launch's block count is read before the body runs.
			// Its deps are read before it launches; its task id is bound
			// after.
			c := *x
			if x.CoreNum != nil {
				c.CoreNum = s.use(x.CoreNum, env)
			}
			if len(x.Deps) > 0 {
				c.Deps = s.uses(x.Deps, env)
			}
			if len(x.NoDepArgs) > 0 {
				c.NoDepArgs = s.uses(x.NoDepArgs, env)
			}
			if len(x.Dumps) > 0 {
				c.Dumps = s.uses(x.Dumps, env)
			}
			if x.Predicate != nil {
				c.Predicate = s.use(x.Predicate, env)
			}
			b, err := s.block(ir.Flatten(x.Body), env)
			if err != nil {
				return nil, err
			}
			c.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: x.Body.Span()}, Stmts: b}
			if x.TaskID != nil {
				if s.multi[x.TaskID.Name] {
					c.TaskID = ir.NewVar(s.fresh(x.TaskID.Name, "ssa"), x.TaskID.Type(), x.TaskID.Pos)
				}
				env[x.TaskID.Name] = c.TaskID
			}
			out = append(out, &c)
		case *ir.SeqStmts:
			b, err := s.block(ir.Flatten(x), env)
			if err != nil {
				return nil, err
			}
			out = append(out, b...)
		case *ir.BreakStmt, *ir.ContinueStmt:
			return nil, fmt.Errorf("ConvertToSSA: a break or continue remains (line %d): CtrlFlowTransform lowers them first", st.Span().Line)
		default:
			return nil, fmt.Errorf("ConvertToSSA: unsupported statement %T", st)
		}
	}
	return out, nil
}

// splitYield separates a trailing yield from a body.
func splitYield(stmts []ir.Stmt) ([]ir.Stmt, *ir.YieldStmt) {
	if n := len(stmts); n > 0 {
		if y, ok := stmts[n-1].(*ir.YieldStmt); ok {
			return stmts[:n-1], y
		}
	}
	return stmts, nil
}

func (s *ssaConv) forStmt(x *ir.ForStmt, env map[string]ir.Expr) (ir.Stmt, error) {
	c := *x
	c.Start, c.Stop, c.Step = s.use(x.Start, env), s.use(x.Stop, env), s.use(x.Step, env)
	benv := copyEnv(env)
	benv[x.LoopVar.Name] = x.LoopVar
	var err error
	c.IterArgs, c.Body, c.ReturnVars, err = s.loop(x.IterArgs, x.Body, x.ReturnVars, x.LoopVar.Name, x.Pos, env, benv, nil)
	return &c, err
}

// whileStmt is a while loop in SSA form: what its body assigns and code
// after it reads is carried in iter-args, and the condition reads them.
func (s *ssaConv) whileStmt(x *ir.WhileStmt, env map[string]ir.Expr) (ir.Stmt, error) {
	c := *x
	var err error
	c.IterArgs, c.Body, c.ReturnVars, err = s.loop(x.IterArgs, x.Body, x.ReturnVars, "", x.Pos, env, copyEnv(env), func(benv map[string]ir.Expr) {
		c.Cond = s.use(x.Cond, benv)
	})
	return &c, err
}

// loop converts a loop's carried state: its own iter-args (inits read in
// env), one more for each name its body assigns that is live before it
// (skip, the loop variable, excepted), the body in benv, a yield of the
// carried values, and the return vars that bind them after the loop.
// head, when set, reads the loop header in the body's environment (a while
// condition) once the iter-args are bound.
func (s *ssaConv) loop(ias []*ir.IterArg, body ir.Stmt, rvs []*ir.Var, skip string, pos ir.Span, env, benv map[string]ir.Expr, head func(map[string]ir.Expr)) ([]*ir.IterArg, ir.Stmt, []*ir.Var, error) {
	bodyStmts, oldYield := splitYield(ir.Flatten(body))
	var out []*ir.IterArg
	existing := map[string]bool{}
	for _, ia := range ias {
		init := s.use(ia.Init, env)
		nia := ia
		if s.multi[ia.Name] {
			// An iter-arg the source names, bound elsewhere too.
			nia = ir.NewIterArg(s.fresh(ia.Name, "iter"), s.useType(ia.T, env), init, ia.Pos)
		} else if init != ia.Init {
			nia = ir.NewIterArg(ia.Name, ia.T, init, ia.Pos)
		}
		out = append(out, nia)
		benv[ia.Name] = nia
		existing[ia.Name] = true
	}
	var carried []string
	retyped := retypedNames(bodyStmts, env)
	for _, n := range assignedNames(bodyStmts) {
		if _, live := env[n]; live && !existing[n] && n != skip && !retyped[n] {
			carried = append(carried, n)
		}
	}
	sort.Strings(carried) // by name, as upstream orders the values a loop carries
	var newIAs []*ir.IterArg
	for _, n := range carried {
		init := env[n]
		ia := ir.NewIterArg(s.fresh(n, "iter"), init.Type(), init, pos)
		newIAs = append(newIAs, ia)
		benv[n] = ia
	}
	out = append(out, newIAs...)
	if head != nil {
		head(benv)
	}
	stmts, err := s.block(bodyStmts, benv)
	if err != nil {
		return nil, nil, nil, err
	}
	var yv []ir.Expr
	if oldYield != nil {
		yv = s.uses(oldYield.Values, benv)
	}
	for _, n := range carried {
		yv = append(yv, benv[n])
	}
	if len(yv) > 0 {
		stmts = append(stmts, &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: pos}, Values: yv})
	}
	outRVs := s.versioned(rvs, "rv", env)
	for i, n := range carried {
		rv := ir.NewVar(s.fresh(n, "rv"), newIAs[i].Type(), pos)
		outRVs = append(outRVs, rv)
		env[n] = rv
	}
	return out, &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: body.Span()}, Stmts: stmts}, outRVs, nil
}

// versioned is a loop's or if's own return vars (the names its source
// yields to), each given a fresh version when its name is bound more than
// once, and made current in env.
func (s *ssaConv) versioned(rvs []*ir.Var, kind string, env map[string]ir.Expr) []*ir.Var {
	out := make([]*ir.Var, len(rvs))
	for i, rv := range rvs {
		if s.multi[rv.Name] {
			rv = ir.NewVar(s.fresh(rv.Name, kind), s.useType(rv.Type(), env), rv.Pos)
		}
		out[i] = rv
		env[rvs[i].Name] = rv
	}
	return out
}

func (s *ssaConv) ifStmt(x *ir.IfStmt, env map[string]ir.Expr) (ir.Stmt, error) {
	c := *x
	c.Cond = s.use(x.Cond, env)
	thenStmts, thenYield := splitYield(ir.Flatten(x.Then))
	var elseStmts []ir.Stmt
	var elseYield *ir.YieldStmt
	if x.Else != nil {
		elseStmts, elseYield = splitYield(ir.Flatten(x.Else))
	}
	tn, en := assignedNames(thenStmts), assignedNames(elseStmts)
	inElse := map[string]bool{}
	for _, n := range en {
		inElse[n] = true
	}
	existing := map[string]bool{}
	for _, v := range x.ReturnVars {
		existing[v.Name] = true
	}
	var phis []string
	seen := map[string]bool{}
	for _, n := range append(append([]string(nil), tn...), en...) {
		if seen[n] || existing[n] {
			continue
		}
		seen[n] = true
		_, live := env[n]
		inThen := false
		for _, t := range tn {
			if t == n {
				inThen = true
			}
		}
		if live || (inThen && inElse[n]) {
			phis = append(phis, n)
		}
	}
	sort.Strings(phis) // by name, as upstream orders an if's phis
	tenv, eenv := copyEnv(env), copyEnv(env)
	tb, err := s.block(thenStmts, tenv)
	if err != nil {
		return nil, err
	}
	eb, err := s.block(elseStmts, eenv)
	if err != nil {
		return nil, err
	}
	// A name both branches assign only in some of their own paths (one arm
	// of a nested if each) is defined after neither: it gets no phi.
	kept := phis[:0]
	for _, n := range phis {
		if tenv[n] != nil && eenv[n] != nil {
			kept = append(kept, n)
		}
	}
	phis = kept
	yields := func(old *ir.YieldStmt, benv map[string]ir.Expr) *ir.YieldStmt {
		var vs []ir.Expr
		if old != nil {
			vs = s.uses(old.Values, benv)
		}
		for _, n := range phis {
			vs = append(vs, benv[n])
		}
		if len(vs) == 0 {
			return nil
		}
		return &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: x.Pos}, Values: vs}
	}
	if y := yields(thenYield, tenv); y != nil {
		tb = append(tb, y)
	}
	if y := yields(elseYield, eenv); y != nil {
		eb = append(eb, y)
	}
	c.Then = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: x.Then.Span()}, Stmts: tb}
	if x.Else != nil || len(phis) > 0 {
		c.Else = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: x.Pos}, Stmts: eb}
	}
	c.ReturnVars = s.versioned(x.ReturnVars, "phi", env)
	for _, n := range phis {
		rv := ir.NewVar(s.fresh(n, "phi"), tenv[n].Type(), x.Pos)
		c.ReturnVars = append(c.ReturnVars, rv)
		env[n] = rv
	}
	return &c, nil
}
