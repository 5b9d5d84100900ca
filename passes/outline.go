package passes

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// OutlineHierarchyScopes makes every `with pl.at(level=L, role=R):` scope
// (L not CORE_GROUP) of an Opaque function a function of its own, at that
// level and role, and the scope a call of it (upstream's pass 8).
func OutlineHierarchyScopes(p *ir.Program) (*ir.Program, error) {
	return outlineScopes(p, ir.ScopeHierarchy)
}

// OutlineIncoreScopes makes every `with pl.at(level=pl.Level.CORE_GROUP):`
// scope of an Opaque or Orchestration function an InCore function, and the
// scope a call of it; an Opaque function that had one becomes a CHIP
// Orchestration (upstream's pass 9).
//
// Both passes follow upstream's ScopeOutliner. The new function's
// parameters are the variables the body reads that are defined before it,
// in first-read order; In, or Out/InOut for a tensor it stores into
// (tile.store) or assembles into (tensor.assemble), InOut when it also
// reads it. Its results are the variables it defines that are used after
// the scope, then (for InCore scopes) the captured tensors it stores into,
// which it returns as the parameter itself. At the call site a stored
// tensor gets a fresh name (out__ssa_v0) that later statements use. The
// name is name_hint, else <function>_incore_<n> or <function>_<level>[_orch
// or _sub_worker]_<n>, made unique in the program.
func OutlineIncoreScopes(p *ir.Program) (*ir.Program, error) {
	return outlineScopes(p, ir.ScopeInCore)
}

func outlineScopes(p *ir.Program, kind ir.ScopeKind) (*ir.Program, error) {
	found := false
	for _, fn := range p.Functions {
		found = found || hasScope(fn.Body, kind)
	}
	if !found {
		return p, nil
	}
	reserved := map[string]bool{}
	for _, fn := range p.Functions {
		reserved[fn.Name] = true
	}
	q := p.Clone()
	var added []*ir.Function
	for i, fn := range p.Functions {
		if !hasScope(fn.Body, kind) {
			continue
		}
		eligible := fn.Kind == ir.Opaque || (kind == ir.ScopeInCore && (fn.Kind == ir.Orchestration || fn.Kind == ir.Graph))
		if !eligible {
			return nil, fmt.Errorf("%s function %s holds a %s: only %s functions may", fn.Kind, fn.Name, scopeWhat(kind), map[ir.ScopeKind]string{
				ir.ScopeInCore: "Opaque and Orchestration", ir.ScopeHierarchy: "Opaque"}[kind])
		}
		o := &outliner{kind: kind, reserved: reserved, local: map[string]bool{}, funcName: fn.Name, names: newNamer(fn), renames: map[*ir.Var]ir.Expr{}}
		body := o.block(fn.Body)
		if o.err != nil {
			return nil, fmt.Errorf("%s: %w", fn.Name, o.err)
		}
		g := fn.Clone()
		g.Body = body
		if kind == ir.ScopeInCore && fn.Kind == ir.Opaque {
			g.Kind, g.Level, g.Role = ir.Orchestration, ir.LevelChip, ir.Orchestrator
		}
		q.Functions[i] = g
		added = append(added, o.out...)
	}
	for _, f := range added {
		if err := q.AddFunction(f); err != nil {
			return nil, err
		}
	}
	return q, nil
}

func scopeWhat(kind ir.ScopeKind) string {
	if kind == ir.ScopeInCore {
		return "pl.at(level=pl.Level.CORE_GROUP) scope"
	}
	return "pl.at(level=..., role=...) hierarchy scope"
}

// hasScope reports whether s holds a scope of kind.
func hasScope(s ir.Stmt, kind ir.ScopeKind) bool {
	found := false
	ir.WalkStmt(s, nil, func(st ir.Stmt) {
		if sc, ok := st.(*ir.ScopeStmt); ok && sc.Kind == kind {
			found = true
		}
	})
	return found
}

// outliner outlines the scopes of one kind in one function body.
type outliner struct {
	kind     ir.ScopeKind
	reserved map[string]bool // function names taken in the program
	local    map[string]bool // names this function's scopes were outlined to
	funcName string          // the name outlined functions are named after
	counter  int
	names    *namer // variable names taken in the function
	// renames maps a stored tensor (and its post-store aliases) to the
	// call-site variable that holds it after the scope that stored it.
	renames map[*ir.Var]ir.Expr
	// required are variables an enclosing statement's successors use.
	required map[*ir.Var]bool
	out      []*ir.Function
	err      error
}

// block outlines the target scopes of a body, statement by statement.
func (o *outliner) block(s ir.Stmt) ir.Stmt {
	if s == nil {
		return nil
	}
	stmts := ir.Flatten(s)
	out := make([]ir.Stmt, 0, len(stmts))
	for i, st := range stmts {
		if o.err != nil {
			return s
		}
		st = remapStmt(st, o.renames)
		after := varRefs(stmts[i+1:])
		for v := range o.required {
			after[v] = true
		}
		if sc, ok := st.(*ir.ScopeStmt); ok && sc.Kind == o.kind {
			out = append(out, o.outline(sc, after)...)
			continue
		}
		saved := o.required
		o.required = after
		out = append(out, o.nested(st))
		o.required = saved
	}
	return &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: s.Span()}, Stmts: out}
}

// nested outlines inside the bodies of a compound statement.
func (o *outliner) nested(s ir.Stmt) ir.Stmt {
	switch x := s.(type) {
	case *ir.ForStmt:
		c := *x
		c.Body = o.block(x.Body)
		return &c
	case *ir.WhileStmt:
		c := *x
		c.Body = o.block(x.Body)
		return &c
	case *ir.IfStmt:
		c := *x
		c.Then = o.block(x.Then)
		if x.Else != nil {
			c.Else = o.block(x.Else)
		}
		return &c
	case *ir.ScopeStmt:
		c := *x
		c.Body = o.block(x.Body)
		return &c
	}
	return s
}

// varRefs is every variable the statements use or define.
func varRefs(stmts []ir.Stmt) map[*ir.Var]bool {
	refs := map[*ir.Var]bool{}
	for _, s := range stmts {
		ir.WalkStmt(s, func(e ir.Expr) {
			if v, ok := ir.VarOf(e); ok {
				refs[v] = true
			}
		}, func(st ir.Stmt) {
			for _, v := range stmtDefs(st) {
				refs[v] = true
			}
		})
	}
	return refs
}

// scopeFacts are what the outliner reads off a scope body before
// rewriting it.
type scopeFacts struct {
	defs    []*ir.Var           // definitions, in order
	defined map[*ir.Var]bool    // the same, as a set
	liveIn  []*ir.Var           // variables it reads that are defined before it, first-read order
	isIn    map[*ir.Var]bool    // the same, as a set
	inExpr  map[*ir.Var]ir.Expr // each live-in as read (an IterArg is passed as itself)
	stores  []*ir.Var           // tile.store targets, first-store order
	stored  map[*ir.Var]bool    // the same, as a set
	alias   map[*ir.Var]*ir.Var // v = tile.store(..., target): v -> target
	read    map[*ir.Var]bool    // read other than as a write destination
	asmDest map[*ir.Var]bool    // tensor.assemble destinations
}

func factsOf(body ir.Stmt) *scopeFacts {
	f := &scopeFacts{defined: map[*ir.Var]bool{}, isIn: map[*ir.Var]bool{}, inExpr: map[*ir.Var]ir.Expr{}, stored: map[*ir.Var]bool{},
		alias: map[*ir.Var]*ir.Var{}, read: map[*ir.Var]bool{}, asmDest: map[*ir.Var]bool{}}
	ir.WalkStmt(body, nil, func(st ir.Stmt) {
		for _, v := range stmtDefs(st) {
			if !f.defined[v] {
				f.defined[v] = true
				f.defs = append(f.defs, v)
			}
		}
	})
	ir.WalkStmt(body, func(e ir.Expr) {
		c, ok := e.(*ir.Call)
		if !ok {
			if v, ok := ir.VarOf(e); ok && !f.defined[v] && !f.isIn[v] {
				f.isIn[v] = true
				f.liveIn = append(f.liveIn, v)
				f.inExpr[v] = e
			}
			return
		}
		for i, a := range c.Args {
			v, isVar := ir.VarOf(a)
			if !isVar {
				continue
			}
			switch {
			case c.Op == ir.TileStore && i == 2:
				if !f.stored[v] {
					f.stored[v] = true
					f.stores = append(f.stores, v)
				}
			case c.Op == ir.TensorAssemble && i == 0:
				f.asmDest[v] = true
			default:
				f.read[v] = true
			}
		}
	}, func(st ir.Stmt) {
		switch x := st.(type) {
		case *ir.AssignStmt:
			if c, ok := x.Value.(*ir.Call); ok && c.Op == ir.TileStore && len(c.Args) >= 3 {
				if t, ok := c.Args[2].(*ir.Var); ok {
					f.alias[x.Var] = t
				}
			}
		}
	})
	// Reads of a variable also count when it is an operand outside a call
	// (a return, a yield, an operator).
	ir.WalkStmt(body, func(e ir.Expr) {
		switch x := e.(type) {
		case *ir.BinaryExpr, *ir.UnaryExpr, *ir.MakeTuple, *ir.TupleGetItem:
			for _, c := range ir.Children(x) {
				if v, ok := ir.VarOf(c); ok {
					f.read[v] = true
				}
			}
		}
	}, func(st ir.Stmt) {
		for _, e := range stmtExprs(st) {
			if v, ok := ir.VarOf(e); ok {
				f.read[v] = true
			}
		}
	})
	return f
}

// visibleDefs adds to seen the variables body defines that remain bound
// after it: its top-level assignments and the return variables of its
// loops and ifs, through nested scopes (which bind where they stand).
func visibleDefs(body ir.Stmt, seen map[*ir.Var]bool) map[*ir.Var]bool {
	for _, s := range ir.Flatten(body) {
		switch x := s.(type) {
		case *ir.AssignStmt:
			seen[x.Var] = true
		case *ir.ForStmt, *ir.WhileStmt:
			_, rvs := ir.LoopCarried(x)
			for _, v := range rvs {
				seen[v] = true
			}
		case *ir.IfStmt:
			for _, v := range x.ReturnVars {
				seen[v] = true
			}
		case *ir.ScopeStmt:
			visibleDefs(x.Body, seen)
		}
	}
	return seen
}

// outline replaces scope sc by a call of a new function; usedAfter are
// the variables the statements after it use.
func (o *outliner) outline(sc *ir.ScopeStmt, usedAfter map[*ir.Var]bool) []ir.Stmt {
	name := sc.NameHint
	if name == "" {
		name = o.funcName + o.suffix(sc) + strconv.Itoa(o.counter)
	}
	o.counter++
	name = o.unique(name)
	o.reserved[name], o.local[name] = true, true

	f := factsOf(sc.Body)
	if len(usedAfter) == 0 {
		// Nothing after the scope: everything it defines or stores leaks
		// out, as far as it is visible after it (not a loop's variable or
		// what a loop body or branch binds: their return variables are).
		usedAfter = visibleDefs(sc.Body, map[*ir.Var]bool{})
	}
	type output struct {
		v     *ir.Var
		store bool
	}
	var outs []output
	var deferred [][2]*ir.Var // post-store alias, stored tensor
	for _, d := range f.defs {
		if !usedAfter[d] {
			continue
		}
		if t, ok := f.alias[d]; ok && f.isIn[t] {
			deferred = append(deferred, [2]*ir.Var{d, t})
			continue
		}
		outs = append(outs, output{v: d})
	}
	if o.kind != ir.ScopeHierarchy {
		for _, t := range f.stores {
			if f.isIn[t] {
				outs = append(outs, output{v: t, store: true})
			}
		}
	}

	// Nested scopes of the same kind become functions named after this one.
	saved := *o
	o.funcName, o.counter = name, 0
	o.renames = map[*ir.Var]ir.Expr{}
	o.required = map[*ir.Var]bool{}
	for _, x := range outs {
		o.required[x.v] = true
	}
	body := o.block(sc.Body)
	if o.err != nil {
		return nil
	}
	out, err := o.out, o.err
	*o = saved
	o.out, o.err = out, err

	// Parameters, with directions from how the body uses them.
	subst := map[*ir.Var]ir.Expr{}
	params := make([]*ir.Var, len(f.liveIn))
	dirs := make([]ir.ParamDirection, len(f.liveIn))
	storeOut := map[*ir.Var]bool{}
	for _, x := range outs {
		if x.store {
			storeOut[x.v] = true
		}
	}
	for i, v := range f.liveIn {
		params[i] = ir.NewVar(v.Name, v.Type(), sc.Pos)
		subst[v] = params[i]
		written := ir.Out
		if f.read[v] {
			written = ir.InOut
		}
		dirs[i] = ir.In
		if storeOut[v] || f.asmDest[v] {
			dirs[i] = written
		}
	}
	used := map[string]bool{}
	for _, v := range f.liveIn {
		used[v.Name] = true
	}
	for _, v := range f.defs {
		used[v.Name] = true
	}
	freshIn := func(base string) string {
		n := base
		for k := 0; used[n]; k++ {
			n = base + "_v" + strconv.Itoa(k)
		}
		used[n] = true
		return n
	}
	// Results: a defined variable gets a fresh one of its name in the new
	// function; a stored tensor is returned as its parameter.
	var rets []ir.Expr
	var types []ir.Type
	for _, x := range outs {
		if x.store {
			p := subst[x.v]
			rets = append(rets, p)
			types = append(types, p.Type())
			continue
		}
		nv := ir.NewVar(x.v.Name, x.v.Type(), x.v.Pos)
		subst[x.v] = nv
		rets = append(rets, nv)
		types = append(types, nv.Type())
	}
	// A store statement into a captured tensor binds <tensor>__store.
	body, _ = mapBlock(body, func(s ir.Stmt) ([]ir.Stmt, error) {
		ev, ok := s.(*ir.EvalStmt)
		if !ok {
			return []ir.Stmt{s}, nil
		}
		c, ok := ev.Expr.(*ir.Call)
		if !ok || c.Op != ir.TileStore || len(c.Args) < 3 {
			return []ir.Stmt{s}, nil
		}
		t, ok := c.Args[2].(*ir.Var)
		if !ok || !storeOut[t] {
			return []ir.Stmt{s}, nil
		}
		sv := ir.NewVar(freshIn(t.Name+"__store"), c.Type(), ev.Pos)
		return []ir.Stmt{&ir.AssignStmt{StmtBase: ev.StmtBase, Var: sv, Value: c}}, nil
	})
	body = remapStmt(body, subst)
	for i, r := range rets {
		if v, ok := r.(*ir.Var); ok {
			if _, isTensor := ir.AsTensorLike(v.Type()); isTensor {
				rets[i] = traceToParam(v, body, params)
			}
		}
	}
	stmts := ir.Flatten(body)
	if len(rets) > 0 {
		stmts = append(stmts, &ir.ReturnStmt{StmtBase: ir.StmtBase{Pos: sc.Pos}, Values: rets})
	}
	fkind := ir.InCore
	level, role := ir.LevelNone, ir.RoleNone
	if sc.Kind == ir.ScopeHierarchy {
		fkind, level, role = ir.Opaque, sc.Level, sc.Role
	}
	fn, err := ir.NewFunction(name, fkind, level, role, sc.Pos)
	if err != nil {
		o.err = err
		return nil
	}
	fn.Params, fn.Dirs, fn.ReturnTypes = params, dirs, types
	fn.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: sc.Pos}, Stmts: stmts}
	// A mixed kernel's split and cross-core slot count become the kernel's
	// attrs, as upstream's outliner stamps them.
	if sc.Split != ir.SplitNone {
		fn.Attrs = append(fn.Attrs, ir.Kwarg{Key: "split", Value: int64(sc.Split)})
	}
	if sc.SlotNum != 0 {
		fn.Attrs = append(fn.Attrs, ir.Kwarg{Key: "slot_num", Value: int64(sc.SlotNum)})
	}
	if sc.Windowize {
		fn.Attrs = append(fn.Attrs, ir.Kwarg{Key: "windowize", Value: true})
	}
	o.out = append(o.out, fn)

	// The call site.
	args := make([]ir.Expr, len(f.liveIn))
	for i, v := range f.liveIn {
		args[i] = f.inExpr[v]
		if r, ok := o.renames[v]; ok {
			args[i] = r
		}
	}
	var t ir.Type = ir.Unknown
	switch len(types) {
	case 0:
	case 1:
		t = types[0]
	default:
		t = &ir.TupleType{Types: types}
	}
	call := &ir.Call{Fn: &ir.GlobalVar{Name: name}, Args: args, T: t, Pos: sc.Pos}
	// no_dep_args=[...] name captured tensors; their slots on the call
	// become pl.adir.no_dep, as upstream's outliner maps them.
	if len(sc.NoDepArgs) > 0 {
		slot := map[*ir.Var]int{}
		for i, v := range f.liveIn {
			slot[v] = i
		}
		var slots []int
		for _, e := range sc.NoDepArgs {
			v, _ := ir.VarOf(substVars(e, o.renames))
			i, ok := slot[v]
			if !ok {
				o.err = fmt.Errorf("%s: pl.at(no_dep_args=[...]) names %s, which the region does not read or write: only tensors used inside `with pl.at(...):` can be no_dep", sc.Pos, ir.DefaultFormat.Expr(e))
				return nil
			}
			slots = append(slots, i)
		}
		var err error
		if call, err = ir.WithNoDep(call, slots); err != nil {
			o.err = err
			return nil
		}
	}
	// dumps=[...] become the call's dump_vars: those the region captures,
	// in argument order (a tag the region does not use is dropped, as
	// upstream's outliner drops it).
	if len(sc.Dumps) > 0 {
		var slots []int
		for _, e := range sc.Dumps {
			v, _ := ir.VarOf(substVars(e, o.renames))
			for i, in := range f.liveIn {
				if in == v {
					slots = append(slots, i)
				}
			}
		}
		if len(slots) > 0 {
			call = ir.WithDumps(call, slots)
		}
	}
	base := ir.StmtBase{Pos: sc.Pos, Leading: sc.Leading}
	if sc.TaskID != nil || len(sc.Deps) > 0 || sc.AllowEarlyResolve {
		// A region with a task id, declared edges or the early-resolve
		// hint launches as a pl.submit, as upstream's outliner makes it an
		// ir.Submit (which carries the hint).
		deps := make([]ir.Expr, len(sc.Deps))
		for i, d := range sc.Deps {
			deps[i] = substVars(d, o.renames)
		}
		s, err := ir.NewSubmit(call, deps)
		if err != nil {
			o.err = err
			return nil
		}
		if sc.AllowEarlyResolve {
			s = ir.WithEarlyResolve(s)
		}
		call = s
		t = s.T
	}
	target := func(x output) *ir.Var {
		if !x.store {
			return x.v
		}
		nv := ir.NewVar(o.names.freshSSA(x.v.Name), x.v.Type(), sc.Pos)
		o.renames[x.v] = nv
		return nv
	}
	var result []ir.Stmt
	switch {
	case call.IsSubmit():
		// The results, then the task id.
		ret := ir.NewVar(o.names.fresh("ret__tmp_v0"), t, sc.Pos)
		result = []ir.Stmt{&ir.AssignStmt{StmtBase: base, Var: ret, Value: call}}
		for i, x := range outs {
			result = append(result, &ir.AssignStmt{StmtBase: ir.StmtBase{Pos: sc.Pos}, Var: target(x), Value: &ir.TupleGetItem{Tuple: ret, Index: i, Pos: sc.Pos}})
		}
		if sc.TaskID != nil {
			result = append(result, &ir.AssignStmt{StmtBase: ir.StmtBase{Pos: sc.Pos}, Var: sc.TaskID, Value: &ir.TupleGetItem{Tuple: ret, Index: len(outs), Pos: sc.Pos}})
		}
	case len(outs) == 0:
		result = []ir.Stmt{&ir.EvalStmt{StmtBase: base, Expr: call}}
	case len(outs) == 1:
		result = []ir.Stmt{&ir.AssignStmt{StmtBase: base, Var: target(outs[0]), Value: call}}
	default:
		ret := ir.NewVar(o.names.fresh("ret__tmp_v0"), t, sc.Pos)
		result = []ir.Stmt{&ir.AssignStmt{StmtBase: base, Var: ret, Value: call}}
		for i, x := range outs {
			result = append(result, &ir.AssignStmt{StmtBase: ir.StmtBase{Pos: sc.Pos}, Var: target(x), Value: &ir.TupleGetItem{Tuple: ret, Index: i, Pos: sc.Pos}})
		}
	}
	for _, d := range deferred {
		if r, ok := o.renames[d[1]]; ok {
			o.renames[d[0]] = r
		}
	}
	return result
}

// suffix is what an unnamed scope's function name adds to its parent's.
func (o *outliner) suffix(sc *ir.ScopeStmt) string {
	if sc.Kind == ir.ScopeInCore {
		return "_incore_"
	}
	s := "_" + strings.ToLower(strings.ReplaceAll(sc.Level.String(), "CLUSTER_", "cluster"))
	switch sc.Role {
	case ir.Orchestrator:
		s += "_orch"
	case ir.SubWorker:
		s += "_sub_worker"
	}
	return s + "_"
}

// unique is name, or name_<n> for the smallest n that no function has.
// unique resolves a name collision as upstream's outliner does: a name
// this function's scopes already took gets the smallest free _<n> suffix
// from 0 (my_kernel, my_kernel_0); one another function took is
// namespaced under this function first (main_my_kernel).
func (o *outliner) unique(name string) string {
	if !o.reserved[name] {
		return name
	}
	if !o.local[name] {
		name = o.funcName + "_" + name
		if !o.reserved[name] {
			return name
		}
	}
	for n := 0; ; n++ {
		if c := name + "_" + strconv.Itoa(n); !o.reserved[c] {
			return c
		}
	}
}

// traceToParam follows v back through the ops whose result is one of
// their arguments (a store's tensor) to a parameter: the function returns
// the parameter the caller passed, as upstream's return lineage does.
func traceToParam(v *ir.Var, body ir.Stmt, params []*ir.Var) ir.Expr {
	def := map[*ir.Var]*ir.Call{}
	ir.WalkStmt(body, nil, func(s ir.Stmt) {
		if a, ok := s.(*ir.AssignStmt); ok {
			if c, ok := a.Value.(*ir.Call); ok {
				def[a.Var] = c
			}
		}
	})
	isParam := map[*ir.Var]bool{}
	for _, p := range params {
		isParam[p] = true
	}
	cur := v
	for range len(def) + 1 {
		if isParam[cur] {
			return cur
		}
		c := def[cur]
		if c == nil || c.Op == nil {
			return v
		}
		i := c.Op.AliasedArg()
		if i < 0 || i >= len(c.Args) {
			return v
		}
		next, ok := c.Args[i].(*ir.Var)
		if !ok {
			return v
		}
		cur = next
	}
	return v
}

// freshSSA is upstream's GenerateFreshNameLike: base__<role>_v<N+1> for a
// versioned name base__<role>_v<N>, base__ssa_v0 for a plain one (the first
// such name the function does not use).
func (n *namer) freshSSA(name string) string {
	base, role, ver := name, "ssa", -1
	if i := strings.LastIndex(name, "__"); i > 0 {
		suffix := name[i+2:]
		if j := strings.LastIndex(suffix, "_v"); j > 0 {
			if k, err := strconv.Atoi(suffix[j+2:]); err == nil {
				base, role, ver = name[:i], suffix[:j], k
			}
		}
	}
	for v := ver + 1; ; v++ {
		if c := fmt.Sprintf("%s__%s_v%d", base, role, v); !n.used[c] {
			n.used[c] = true
			return c
		}
	}
}
