package passes

import (
	"fmt"
	"strconv"

	"github.com/ptorepl/ptorepl/ir"
)

// Rewriting helpers. Passes never mutate their input: every helper here
// copies the nodes it changes and shares the ones it does not.

// mapExpr rewrites e top-down: f may replace a node (ok=true); otherwise the
// node's children are rewritten and the node is copied only if one changed.
func mapExpr(e ir.Expr, f func(ir.Expr) (ir.Expr, bool)) ir.Expr {
	if e == nil {
		return nil
	}
	if r, ok := f(e); ok {
		return r
	}
	switch x := e.(type) {
	case *ir.BinaryExpr:
		l, r := mapExpr(x.Left, f), mapExpr(x.Right, f)
		if l != x.Left || r != x.Right {
			c := *x
			c.Left, c.Right = l, r
			return &c
		}
	case *ir.UnaryExpr:
		if y := mapExpr(x.X, f); y != x.X {
			c := *x
			c.X = y
			return &c
		}
	case *ir.MakeTuple:
		if el, ch := mapExprs(x.Elems, f); ch {
			return &ir.MakeTuple{Elems: el, Pos: x.Pos}
		}
	case *ir.TupleGetItem:
		if y := mapExpr(x.Tuple, f); y != x.Tuple {
			c := *x
			c.Tuple = y
			return &c
		}
	case *ir.Call:
		args, ch := mapExprs(x.Args, f)
		kw, ch2 := mapKwargs(x.Kwargs, f)
		at, ch3 := mapKwargs(x.Attrs, f)
		if ch || ch2 || ch3 {
			c := *x
			c.Args, c.Kwargs, c.Attrs = args, kw, at
			return &c
		}
	}
	return e
}

func mapExprs(es []ir.Expr, f func(ir.Expr) (ir.Expr, bool)) ([]ir.Expr, bool) {
	return eachExpr(es, func(e ir.Expr) ir.Expr { return mapExpr(e, f) })
}

// eachExpr applies f to every element of es, copying es only when an
// element changes (unchanged slices are shared, as passes share subtrees).
func eachExpr(es []ir.Expr, f func(ir.Expr) ir.Expr) ([]ir.Expr, bool) {
	var out []ir.Expr
	for i, e := range es {
		n := f(e)
		if n != e && out == nil {
			out = append([]ir.Expr(nil), es...)
		}
		if out != nil {
			out[i] = n
		}
	}
	if out == nil {
		return es, false
	}
	return out, true
}

func mapKwargs(kw ir.Kwargs, f func(ir.Expr) (ir.Expr, bool)) (ir.Kwargs, bool) {
	var out ir.Kwargs
	for i, kv := range kw {
		e, ok := kv.Value.(ir.Expr)
		if !ok {
			continue
		}
		if n := mapExpr(e, f); n != e {
			if out == nil {
				out = append(ir.Kwargs(nil), kw...)
			}
			out[i] = ir.Kwarg{Key: kv.Key, Value: n}
		}
	}
	if out == nil {
		return kw, false
	}
	return out, true
}

// mapTypeExprs rewrites the expressions inside a type (shapes, valid
// shapes, strides, a tile's start offset) with f, copying only what
// changes: a type that names a variable changes with it.
func mapTypeExprs(t ir.Type, f func(ir.Expr) ir.Expr) ir.Type {
	exprs := func(es []ir.Expr) ([]ir.Expr, bool) { return eachExpr(es, f) }
	tensorView := func(v *ir.TensorView) (*ir.TensorView, bool) {
		if v == nil {
			return nil, false
		}
		vs, ch1 := exprs(v.ValidShape)
		st, ch2 := exprs(v.Stride)
		if !ch1 && !ch2 {
			return v, false
		}
		c := *v
		c.ValidShape, c.Stride = vs, st
		return &c, true
	}
	shapeView := func(shape []ir.Expr, view *ir.TensorView) ([]ir.Expr, *ir.TensorView, bool) {
		sh, ch := exprs(shape)
		v, chv := tensorView(view)
		return sh, v, ch || chv
	}
	switch x := t.(type) {
	case *ir.TensorType:
		if sh, v, ch := shapeView(x.Shape, x.View); ch {
			c := *x
			c.Shape, c.View = sh, v
			return &c
		}
	case *ir.DistributedTensorType:
		if sh, v, ch := shapeView(x.Shape, x.View); ch {
			c := *x
			c.Shape, c.View = sh, v
			return &c
		}
	case *ir.TileType:
		sh, ch := exprs(x.Shape)
		var view *ir.TileView
		chv := false
		if x.View != nil {
			vs, ch1 := exprs(x.View.ValidShape)
			st, ch2 := exprs(x.View.Stride)
			off := x.View.StartOffset
			if off != nil {
				off = f(off)
			}
			if ch1 || ch2 || off != x.View.StartOffset {
				c := *x.View
				c.ValidShape, c.Stride, c.StartOffset = vs, st, off
				view, chv = &c, true
			}
		}
		if ch || chv {
			c := *x
			c.Shape = sh
			if chv {
				c.View = view
			}
			return &c
		}
	case *ir.TupleType:
		var out []ir.Type
		for i, el := range x.Types {
			n := mapTypeExprs(el, f)
			if n != el && out == nil {
				out = append([]ir.Type(nil), x.Types...)
			}
			if out != nil {
				out[i] = n
			}
		}
		if out != nil {
			return &ir.TupleType{Types: out}
		}
	}
	return t
}

// substVars replaces uses of variables (matched by their core *Var) through m.
func substVars(e ir.Expr, m map[*ir.Var]ir.Expr) ir.Expr {
	if len(m) == 0 {
		return e
	}
	return mapExpr(e, func(x ir.Expr) (ir.Expr, bool) {
		if v, ok := ir.VarOf(x); ok {
			if r, ok := m[v]; ok {
				return r, true
			}
		}
		return nil, false
	})
}

// mapBlock rewrites every statement of a body bottom-up: the children of
// compound statements first, then f, which returns the replacement
// statements (nil keeps none; return []ir.Stmt{s} to keep s).
func mapBlock(s ir.Stmt, f func(ir.Stmt) ([]ir.Stmt, error)) (ir.Stmt, error) {
	if s == nil {
		return nil, nil
	}
	stmts := ir.Flatten(s)
	out := make([]ir.Stmt, 0, len(stmts))
	changed := false
	for _, st := range stmts {
		ns, err := mapNested(st, f)
		if err != nil {
			return nil, err
		}
		rep, err := f(ns)
		if err != nil {
			return nil, err
		}
		if ns != st || len(rep) != 1 || rep[0] != st {
			changed = true
		}
		out = append(out, rep...)
	}
	if _, isSeq := s.(*ir.SeqStmts); !changed && isSeq {
		return s, nil
	}
	return &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: s.Span()}, Stmts: out}, nil
}

// mapNested rewrites the bodies of a compound statement with mapBlock.
func mapNested(s ir.Stmt, f func(ir.Stmt) ([]ir.Stmt, error)) (ir.Stmt, error) {
	switch x := s.(type) {
	case *ir.ForStmt:
		return mapBody(s, x.Body, f, func(b ir.Stmt) ir.Stmt { c := *x; c.Body = b; return &c })
	case *ir.WhileStmt:
		return mapBody(s, x.Body, f, func(b ir.Stmt) ir.Stmt { c := *x; c.Body = b; return &c })
	case *ir.IfStmt:
		t, err := mapBlock(x.Then, f)
		if err != nil {
			return nil, err
		}
		e, err := mapBlock(x.Else, f)
		if err != nil {
			return nil, err
		}
		if t != x.Then || e != x.Else {
			c := *x
			c.Then, c.Else = t, e
			return &c, nil
		}
	case *ir.ScopeStmt:
		return mapBody(s, x.Body, f, func(b ir.Stmt) ir.Stmt { c := *x; c.Body = b; return &c })
	case *ir.SeqStmts:
		return mapBlock(x, f)
	}
	return s, nil
}

// mapBody is s with its one body mapped by mapBlock (rebuilt by with when
// the body changed).
func mapBody(s, body ir.Stmt, f func(ir.Stmt) ([]ir.Stmt, error), with func(ir.Stmt) ir.Stmt) (ir.Stmt, error) {
	b, err := mapBlock(body, f)
	if err != nil {
		return nil, err
	}
	if b == body {
		return s, nil
	}
	return with(b), nil
}

// remapFunction rewrites a whole function through a variable map: every
// definition (parameter, assignment target, loop variable, iter-arg, return
// variable) whose core *Var is a key is replaced by the mapped variable, and
// every use by the mapped expression. Calls whose arguments changed keep their
// stored type unless retype gives a new one.
func remapFunction(fn *ir.Function, m map[*ir.Var]ir.Expr) *ir.Function {
	if len(m) == 0 {
		return fn
	}
	g := fn.Clone()
	for i, p := range g.Params {
		if r, ok := m[p]; ok {
			if v, ok := r.(*ir.Var); ok {
				g.Params[i] = v
			}
		}
	}
	g.Body = remapStmt(fn.Body, m)
	return g
}

func defVar(v *ir.Var, m map[*ir.Var]ir.Expr) *ir.Var {
	if r, ok := m[v]; ok {
		if nv, ok := ir.VarOf(r); ok {
			return nv
		}
	}
	// A definition whose type names a remapped variable (a tile whose
	// valid shape is a scalar parameter of the outlined function) is
	// redefined with the type remapped; later uses follow it through m.
	if nt := substTypeVars(v.Type(), m); nt != v.Type() {
		nv := ir.NewVar(v.Name, nt, v.Pos)
		m[v] = nv
		return nv
	}
	return v
}

// substTypeVars replaces uses of variables inside a type through m.
func substTypeVars(t ir.Type, m map[*ir.Var]ir.Expr) ir.Type {
	if len(m) == 0 || t == nil {
		return t
	}
	return mapTypeExprs(t, func(e ir.Expr) ir.Expr { return substVars(e, m) })
}

func remapStmt(s ir.Stmt, m map[*ir.Var]ir.Expr) ir.Stmt {
	switch x := s.(type) {
	case nil:
		return nil
	case *ir.SeqStmts:
		out := make([]ir.Stmt, len(x.Stmts))
		ch := false
		for i, c := range x.Stmts {
			out[i] = remapStmt(c, m)
			ch = ch || out[i] != c
		}
		if !ch {
			return x
		}
		return &ir.SeqStmts{StmtBase: x.StmtBase, Stmts: out}
	case *ir.AssignStmt:
		val := substVars(x.Value, m)
		if c, ok := val.(*ir.Call); ok && c.T != nil {
			if nt := substTypeVars(c.T, m); nt != c.T {
				cc := *c
				cc.T = nt
				val = &cc
			}
		}
		v := defVar(x.Var, m)
		if v == x.Var && val == x.Value {
			return x
		}
		return &ir.AssignStmt{StmtBase: x.StmtBase, Var: v, Value: val}
	case *ir.EvalStmt:
		if e := substVars(x.Expr, m); e != x.Expr {
			return &ir.EvalStmt{StmtBase: x.StmtBase, Expr: e}
		}
		return x
	case *ir.ReturnStmt:
		if vs, ch := mapExprs(x.Values, subster(m)); ch {
			return &ir.ReturnStmt{StmtBase: x.StmtBase, Values: vs}
		}
		return x
	case *ir.YieldStmt:
		if vs, ch := mapExprs(x.Values, subster(m)); ch {
			return &ir.YieldStmt{StmtBase: x.StmtBase, Values: vs}
		}
		return x
	case *ir.ScopeStmt:
		b := remapStmt(x.Body, m)
		var n, pred ir.Expr
		if x.CoreNum != nil {
			n = substVars(x.CoreNum, m)
		}
		if x.Predicate != nil {
			pred = substVars(x.Predicate, m)
		}
		if b != x.Body || n != x.CoreNum || pred != x.Predicate {
			c := *x
			c.Body, c.CoreNum, c.Predicate = b, n, pred
			return &c
		}
		return x
	case *ir.IfStmt:
		c := *x
		c.Cond = substVars(x.Cond, m)
		c.Then = remapStmt(x.Then, m)
		c.Else = remapStmt(x.Else, m)
		c.ReturnVars = remapDefs(x.ReturnVars, m)
		return &c
	case *ir.ForStmt:
		c := *x
		c.LoopVar = defVar(x.LoopVar, m)
		c.Start, c.Stop, c.Step = substVars(x.Start, m), substVars(x.Stop, m), substVars(x.Step, m)
		c.IterArgs = remapIterArgs(x.IterArgs, m)
		c.Body = remapStmt(x.Body, m)
		c.ReturnVars = remapDefs(x.ReturnVars, m)
		return &c
	case *ir.WhileStmt:
		c := *x
		c.IterArgs = remapIterArgs(x.IterArgs, m)
		c.Cond = substVars(x.Cond, m)
		c.Body = remapStmt(x.Body, m)
		c.ReturnVars = remapDefs(x.ReturnVars, m)
		return &c
	}
	return s
}

// remapIterArgs is a loop's iter-args with m applied to their inits, each
// a new node (recorded in m) when its init changed.
func remapIterArgs(ias []*ir.IterArg, m map[*ir.Var]ir.Expr) []*ir.IterArg {
	out := make([]*ir.IterArg, len(ias))
	for i, ia := range ias {
		init := substVars(ia.Init, m)
		if r, ok := m[&ia.Var]; ok {
			if nia, ok := r.(*ir.IterArg); ok {
				// The mapped iter-arg is a fresh node made for this
				// rewrite (retypeFunction), so giving it the rewritten
				// init does not touch the input program.
				nia.Init = init
				out[i] = nia
				continue
			}
		}
		if init != ia.Init {
			out[i] = ir.NewIterArg(ia.Name, ia.T, init, ia.Pos)
			m[&ia.Var] = out[i]
			continue
		}
		out[i] = ia
	}
	return out
}

func subster(m map[*ir.Var]ir.Expr) func(ir.Expr) (ir.Expr, bool) {
	return func(x ir.Expr) (ir.Expr, bool) {
		if v, ok := ir.VarOf(x); ok {
			if r, ok := m[v]; ok {
				return r, true
			}
		}
		return nil, false
	}
}

func remapDefs(vs []*ir.Var, m map[*ir.Var]ir.Expr) []*ir.Var {
	out := make([]*ir.Var, len(vs))
	for i, v := range vs {
		out[i] = defVar(v, m)
	}
	return out
}

// retypeFunction gives every variable whose type f rewrites a fresh variable
// of the new type (same name) and substitutes it everywhere; call result
// types are rewritten too. It is how passes change types without mutating.
func retypeFunction(fn *ir.Function, f func(v *ir.Var, t ir.Type) (ir.Type, bool)) *ir.Function {
	m := map[*ir.Var]ir.Expr{}
	consider := func(v *ir.Var) {
		if _, done := m[v]; done {
			return
		}
		if nt, ok := f(v, v.Type()); ok {
			m[v] = ir.NewVar(v.Name, nt, v.Pos)
		}
	}
	for _, p := range fn.Params {
		consider(p)
	}
	ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
		switch x := s.(type) {
		case *ir.AssignStmt:
			consider(x.Var)
		case *ir.IfStmt:
			for _, v := range x.ReturnVars {
				consider(v)
			}
		case *ir.ForStmt, *ir.WhileStmt:
			ias, rvs := ir.LoopCarried(x)
			for _, ia := range ias {
				if _, done := m[&ia.Var]; done {
					continue
				}
				if nt, ok := f(&ia.Var, ia.Type()); ok {
					m[&ia.Var] = ir.NewIterArg(ia.Name, nt, ia.Init, ia.Pos)
				}
			}
			for _, v := range rvs {
				consider(v)
			}
		}
	})
	if len(m) == 0 {
		return fn
	}
	g := remapFunction(fn, m)
	// Keep call result types in step with the variables they bind.
	body, _ := mapBlock(g.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
		if a, ok := s.(*ir.AssignStmt); ok {
			if c, ok := a.Value.(*ir.Call); ok && c.T != a.Var.T {
				cc := *c
				cc.T = a.Var.T
				return []ir.Stmt{&ir.AssignStmt{StmtBase: a.StmtBase, Var: a.Var, Value: &cc}}, nil
			}
		}
		return []ir.Stmt{s}, nil
	})
	g.Body = body
	return g
}

// namer hands out fresh names within one function.
type namer struct {
	used map[string]bool
	next map[string]int // the next suffix to try per base, so n names cost O(n)
}

func newNamer(fn *ir.Function) *namer {
	n := &namer{used: map[string]bool{}, next: map[string]int{}}
	for _, p := range fn.Params {
		n.used[p.Name] = true
	}
	ir.WalkStmt(fn.Body, func(e ir.Expr) {
		if v, ok := ir.VarOf(e); ok {
			n.used[v.Name] = true
		}
	}, func(s ir.Stmt) {
		for _, v := range stmtDefs(s) {
			n.used[v.Name] = true
		}
	})
	return n
}

// fresh returns base, or base_1, base_2, ... when base is taken.
func (n *namer) fresh(base string) string {
	name := base
	i := max(n.next[base], 1)
	for ; n.used[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	n.next[base] = i
	n.used[name] = true
	return name
}

// stmtDefs lists the variables a statement defines.
func stmtDefs(s ir.Stmt) []*ir.Var {
	switch x := s.(type) {
	case *ir.AssignStmt:
		return []*ir.Var{x.Var}
	case *ir.ForStmt:
		out := []*ir.Var{x.LoopVar}
		for _, ia := range x.IterArgs {
			out = append(out, &ia.Var)
		}
		return append(out, x.ReturnVars...)
	case *ir.WhileStmt:
		var out []*ir.Var
		for _, ia := range x.IterArgs {
			out = append(out, &ia.Var)
		}
		return append(out, x.ReturnVars...)
	case *ir.IfStmt:
		return x.ReturnVars
	}
	return nil
}

// eachFunction applies f to every function, building a new program when any
// changed.
func eachFunction(p *ir.Program, f func(fn *ir.Function) (*ir.Function, error)) (*ir.Program, error) {
	q := p.Clone()
	for i, fn := range p.Functions {
		g, err := f(fn)
		if err != nil {
			return nil, fmt.Errorf("function %s: %w", fn.Name, err)
		}
		q.Functions[i] = g
	}
	return q, nil
}

func assign(v *ir.Var, e ir.Expr) *ir.AssignStmt {
	return &ir.AssignStmt{StmtBase: ir.StmtBase{Pos: v.Pos}, Var: v, Value: e}
}

func eval(e ir.Expr) *ir.EvalStmt { return &ir.EvalStmt{StmtBase: ir.StmtBase{Pos: e.Span()}, Expr: e} }

// replaceCall is statement s (an assignment, an evaluation or a return)
// with its call old replaced by nc, keeping its comments and position;
// nil for any other statement.
func replaceCall(s ir.Stmt, old, nc *ir.Call) ir.Stmt {
	switch x := s.(type) {
	case *ir.AssignStmt:
		return &ir.AssignStmt{StmtBase: x.StmtBase, Var: x.Var, Value: nc}
	case *ir.EvalStmt:
		return &ir.EvalStmt{StmtBase: x.StmtBase, Expr: nc}
	case *ir.ReturnStmt:
		vals := append([]ir.Expr(nil), x.Values...)
		for i, e := range vals {
			if e == ir.Expr(old) {
				vals[i] = nc
			}
		}
		return &ir.ReturnStmt{StmtBase: x.StmtBase, Values: vals}
	}
	return nil
}

// withBody is fn with body, or fn itself when the body did not change.
func withBody(fn *ir.Function, body ir.Stmt) *ir.Function {
	if body == fn.Body {
		return fn
	}
	g := fn.Clone()
	g.Body = body
	return g
}

// stmtUses reports whether the expressions of s itself (not of its nested
// statements) read v.
func stmtUses(s ir.Stmt, v *ir.Var) bool { return exprsUse(stmtExprs(s), v) }

// stmtExprs are the expressions of s itself, not of its nested
// statements: a loop's bounds and inits, an if's condition, a scope's
// core count, dependencies and dumps.
func stmtExprs(s ir.Stmt) []ir.Expr {
	var es []ir.Expr
	switch x := s.(type) {
	case *ir.AssignStmt:
		es = []ir.Expr{x.Value}
	case *ir.EvalStmt:
		es = []ir.Expr{x.Expr}
	case *ir.YieldStmt:
		es = x.Values
	case *ir.ReturnStmt:
		es = x.Values
	case *ir.IfStmt:
		es = []ir.Expr{x.Cond}
	case *ir.ForStmt:
		es = []ir.Expr{x.Start, x.Stop, x.Step}
		for _, ia := range x.IterArgs {
			es = append(es, ia.Init)
		}
	case *ir.WhileStmt:
		es = []ir.Expr{x.Cond}
		for _, ia := range x.IterArgs {
			es = append(es, ia.Init)
		}
	case *ir.ScopeStmt:
		if x.CoreNum != nil {
			es = append(es, x.CoreNum)
		}
		es = append(append(append(es, x.Deps...), x.NoDepArgs...), x.Dumps...)
	}
	return es
}

// exprsUse reports whether any of es reads v.
func exprsUse(es []ir.Expr, v *ir.Var) bool {
	found := false
	for _, e := range es {
		ir.WalkExpr(e, func(x ir.Expr) {
			if u, ok := ir.VarOf(x); ok && u == v {
				found = true
			}
		})
	}
	return found
}
