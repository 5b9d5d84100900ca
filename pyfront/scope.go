package pyfront

import "github.com/ptorepl/ptorepl/ir"

// withStmt reads `with pl.at(level=..., role=..., name_hint=...):` as a
// ScopeStmt: level CORE_GROUP is an InCore scope, any other level a
// Hierarchy scope, as upstream's parser builds them. The body's names stay
// bound after it, as Python's do.
func (fc *fnCtx) withStmt(n *node) []ir.Stmt {
	r := fc.r
	var clause *node
	for _, c := range r.kids(n) {
		if c.Kind() == "with_clause" {
			clause = c
		}
	}
	if clause == nil {
		r.fail(n, "unsupported with statement")
	}
	items := r.kids(clause)
	if len(items) != 1 {
		r.fail(clause, "a with statement takes one pl.at(...) scope, given %d items", len(items))
	}
	item := r.kids(items[0])
	if len(item) != 1 {
		r.fail(items[0], "unsupported with item %s", r.text(items[0]))
	}
	call := item[0]
	// `with pl.at(...) as tid:` binds the id of the region's launch.
	var tidNode *node
	if call.Kind() == "as_pattern" {
		parts := r.kids(call)
		if len(parts) != 2 || parts[1].Kind() != "as_pattern_target" || len(r.kids(parts[1])) != 1 || r.kids(parts[1])[0].Kind() != "identifier" {
			r.fail(call, "with pl.at(...) as <name>: the target is one name (the launch's task id), given %s", r.text(call))
		}
		call, tidNode = parts[0], r.kids(parts[1])[0]
	}
	callee := ""
	if call.Kind() == "call" {
		callee = r.dotted(call.ChildByFieldId(fldFunction))
	}
	if tidNode != nil && callee != "pl.at" && callee != "pl.spmd" {
		r.fail(tidNode, "%s(...) as %s: only a pl.at(...) or pl.spmd(...) region launches a task with an id", callee, r.text(tidNode))
	}
	switch callee {
	case "pl.spmd":
		s := fc.spmdWith(n, call)
		if tidNode != nil {
			s.TaskID = ir.NewVar(r.text(tidNode), ir.TaskIDType, r.pos(tidNode))
			fc.bind(s.TaskID.Name, s.TaskID)
		}
		return []ir.Stmt{s}
	case "pl.scope", "pl.manual_scope":
		s := &ir.ScopeStmt{StmtBase: ir.StmtBase{Pos: r.pos(n)}, Kind: ir.ScopeRuntime, Level: ir.LevelNone, Role: ir.RoleNone,
			Manual: fc.runtimeScopeMode(call, callee)}
		if s.Manual {
			fc.manualDepth++
			defer func() { fc.manualDepth-- }()
		}
		body := n.ChildByFieldId(fldBody)
		s.Body = &ir.SeqStmts{Stmts: fc.block(body, nil, r.commentsBefore(n, body), false)}
		return []ir.Stmt{s}
	case "pl.auto_scope":
		r.fail(call, "pl.auto_scope() is not PyPTO: an AUTO runtime scope is with pl.scope(): (in a function with auto_scope=False)")
	case "pl.cluster":
		// Co-scheduled cube and vector kernels (upstream outlines the
		// region into a Group function); its statements run where they
		// stand.
		s := &ir.ScopeStmt{StmtBase: ir.StmtBase{Pos: r.pos(n)}, Kind: ir.ScopeCluster, Level: ir.LevelNone, Role: ir.RoleNone}
		pos, _, kws := r.args(call, fc.env, fc)
		if len(pos) > 0 {
			r.fail(call, "pl.cluster() takes no positional arguments (only name_hint=)")
		}
		for _, k := range kws {
			h, ok := k.val.(string)
			if k.name != "name_hint" || !ok || (h != "" && !isIdentifier(h)) {
				r.fail(k.node, "pl.cluster: expected name_hint= a valid identifier, given %s=%s", k.name, describe(k.val))
			}
			s.NameHint = h
		}
		body := n.ChildByFieldId(fldBody)
		s.Body = &ir.SeqStmts{Stmts: fc.block(body, nil, r.commentsBefore(n, body), false)}
		return []ir.Stmt{s}
	}
	if callee != "pl.at" {
		r.fail(call, "unsupported with scope %s: ptorepl reads pl.at(level=..., role=..., name_hint=...), pl.spmd(n), pl.cluster(), pl.scope(mode=...) and pl.manual_scope() scopes", r.text(call))
	}
	pos, nodes, kws := r.args(call, fc.env, fc)
	s := &ir.ScopeStmt{StmtBase: ir.StmtBase{Pos: r.pos(n)}, Level: ir.LevelNone, Role: ir.RoleNone}
	setLevel := func(at *node, v value) {
		l, ok := v.(ir.Level)
		if !ok {
			r.fail(at, "pl.at: level must be a pl.Level, given %s", describe(v))
		}
		s.Level = l
	}
	setRole := func(at *node, v value) {
		if v == nil {
			return // role=None
		}
		ro, ok := v.(ir.Role)
		if !ok {
			r.fail(at, "pl.at: role must be a pl.Role, given %s", describe(v))
		}
		s.Role = ro
	}
	if len(pos) > 2 {
		r.fail(nodes[2], "pl.at takes at most two positional arguments (level, role), given %d", len(pos))
	}
	if len(pos) > 0 {
		setLevel(nodes[0], pos[0])
	}
	if len(pos) > 1 {
		setRole(nodes[1], pos[1])
	}
	for _, k := range kws {
		switch k.name {
		case "level":
			setLevel(k.node, k.val)
		case "role":
			setRole(k.node, k.val)
		case "name_hint":
			h, ok := k.val.(string)
			if !ok || !isIdentifier(h) {
				r.fail(k.node, "pl.at: name_hint must be a valid identifier, given %s", describe(k.val))
			}
			s.NameHint = h
		case "optimizations":
			r.optimizations("pl.at", k, s)
		case "deps", "allow_early_resolve":
			fc.taskKwarg("pl.at", k, s)
		case "no_dep_args":
			s.NoDepArgs = fc.tensorNames("no_dep_args", k)
		case "windowize":
			s.Windowize = r.boolKwarg("pl.at", k)
		case "dumps":
			s.Dumps = fc.tensorNames("dumps", k)
		default:
			r.fail(k.node, "pl.at: unknown keyword %s (expected level, role, name_hint, optimizations, deps, no_dep_args, allow_early_resolve or windowize)", k.name)
		}
	}
	if s.Level == ir.LevelNone {
		r.fail(call, "pl.at needs a level: pl.at(level=pl.Level.CORE_GROUP)")
	}
	s.Dumps = fc.stickyDumps(s.Dumps)
	if s.Windowize && s.Level != ir.LevelCoreGroup {
		r.fail(call, "pl.at: windowize=True applies to an InCore scope (level=pl.Level.CORE_GROUP)")
	}
	if s.Level == ir.LevelCoreGroup {
		if s.Role != ir.RoleNone {
			r.fail(call, "pl.at(level=pl.Level.CORE_GROUP) takes no role: a CORE_GROUP scope is an InCore kernel")
		}
		s.Kind = ir.ScopeInCore
	} else {
		s.Kind = ir.ScopeHierarchy
		if s.Split != ir.SplitNone || s.SlotNum != 0 {
			r.fail(call, "pl.at: optimizations= applies to an InCore scope (level=pl.Level.CORE_GROUP)")
		}
	}
	body := n.ChildByFieldId(fldBody)
	if s.Kind == ir.ScopeInCore {
		fc.coreDepth++
	}
	s.Body = &ir.SeqStmts{Stmts: fc.block(body, nil, r.commentsBefore(n, body), false)}
	if s.Kind == ir.ScopeInCore {
		fc.coreDepth--
	}
	if tidNode != nil {
		s.TaskID = ir.NewVar(r.text(tidNode), ir.TaskIDType, r.pos(tidNode))
		fc.bind(s.TaskID.Name, s.TaskID)
	}
	return []ir.Stmt{s}
}

// taskKwarg reads a launching scope's place in the task graph into s:
// deps=[...], allow_early_resolve= or predicate=(t[i] > 0).
func (fc *fnCtx) taskKwarg(what string, k kwArg, s *ir.ScopeStmt) {
	r := fc.r
	switch k.name {
	case "deps":
		s.Deps = fc.deps(what, k)
	case "allow_early_resolve":
		s.AllowEarlyResolve = r.boolKwarg(what, k)
	case "predicate":
		p := r.toExpr(k.node, k.val)
		if err := ir.CheckPredicate(p); err != nil {
			r.fail(k.node, "%s: %v", what, err)
		}
		s.Predicate = p
	}
}

// deps reads a deps=[t, ...] keyword: task ids and arrays of them.
func (fc *fnCtx) deps(what string, k kwArg) []ir.Expr {
	r := fc.r
	list, ok := k.val.(pyList)
	if !ok {
		r.fail(k.node, "%s: deps must be a list of task ids, given %s", what, describe(k.val))
	}
	out := make([]ir.Expr, len(list))
	for i, v := range list {
		if v == nil {
			v = ir.SystemTaskInvalid.MustCall(nil, nil, r.pos(k.node)) // deps=[None]: no edge
		}
		e, ok := v.(ir.Expr)
		if !ok {
			r.fail(k.node, "%s: deps[%d] must be a task id, given %s", what, i, describe(v))
		}
		out[i] = e
	}
	if err := ir.CheckDeps(out); err != nil {
		r.fail(k.node, "%s: %v", what, err)
	}
	return out
}

// tensorNames reads pl.at's no_dep_args=[t, ...] or dumps=[t, ...]: bare
// names of tensors in scope, each once, as upstream's parser takes them.
func (fc *fnCtx) tensorNames(kw string, k kwArg) []ir.Expr {
	r := fc.r
	list := k.node.ChildByFieldId(fldValue)
	if list.Kind() != "list" {
		r.fail(list, "pl.at: %s must be a list literal of tensor names: %s=[t1, t2]", kw, kw)
	}
	var out []ir.Expr
	seen := map[*ir.Var]bool{}
	for _, e := range r.kids(list) {
		if e.Kind() != "identifier" {
			r.fail(e, "pl.at: %s entries must be bare tensor names, given %s", kw, r.text(e))
		}
		v, ok := r.evalIn(e, fc.env, fc).(*ir.Var)
		if !ok {
			r.fail(e, "pl.at: %s names %s, which is not a variable", kw, r.text(e))
		}
		if _, ok := ir.AsTensorLike(v.Type()); !ok {
			r.fail(e, "pl.at: %s entry %s is not a tensor (it is %s)", kw, r.text(e), v.Type())
		}
		if seen[v] {
			r.fail(e, "pl.at: %s lists %s more than once", kw, r.text(e))
		}
		seen[v] = true
		out = append(out, v)
	}
	return out
}

// optimizations reads an optimizations=[pl.split(...), ...] keyword into
// scope s.
func (r *reader) optimizations(what string, k kwArg, s *ir.ScopeStmt) {
	list, ok := k.val.(pyList)
	if !ok {
		r.fail(k.node, "%s: optimizations must be a list of pl.split(...) and pl.cross_core_slot(...), given %s", what, describe(k.val))
	}
	for _, e := range list {
		o, ok := e.(scopeOpt)
		if !ok {
			r.fail(k.node, "%s: optimizations holds pl.split(...) and pl.cross_core_slot(...), given %s", what, describe(e))
		}
		if o.hasSplit {
			s.Split = o.split
		}
		if o.slot != 0 {
			s.SlotNum = o.slot
		}
	}
}

// spmdLaunch reads pl.spmd(core_num, sync_start=, name_hint=,
// optimizations=) into an Spmd scope (without its body) and the InCore
// optimizations its kernel takes.
func (fc *fnCtx) spmdLaunch(call *node) (*ir.ScopeStmt, *ir.ScopeStmt) {
	r := fc.r
	pos, nodes, kws := r.args(call, fc.env, fc)
	opts := &ir.ScopeStmt{}
	// core_num may also be spelled as a keyword (pl.spmd(core_num=4)), as
	// upstream's signature allows.
	for i, k := range kws {
		if k.name == "core_num" && len(pos) == 0 {
			pos, nodes = []value{k.val}, []*node{k.node}
			kws = append(append([]kwArg(nil), kws[:i]...), kws[i+1:]...)
			break
		}
	}
	if len(pos) != 1 {
		r.fail(call, "pl.spmd takes one positional argument (core_num, the number of blocks), given %d", len(pos))
	}
	s, err := ir.NewSpmdLaunch(r.toExpr(nodes[0], pos[0]), r.pos(call))
	if err != nil {
		r.fail(nodes[0], "pl.spmd: %v", err)
	}
	for _, k := range kws {
		switch k.name {
		case "sync_start":
			s.SyncStart = r.boolKwarg("pl.spmd", k)
		case "name_hint":
			h, ok := k.val.(string)
			if !ok || (h != "" && !isIdentifier(h)) {
				r.fail(k.node, "pl.spmd: name_hint must be a valid identifier, given %s", describe(k.val))
			}
			s.NameHint = h
		case "optimizations":
			r.optimizations("pl.spmd", k, opts)
		case "deps", "allow_early_resolve", "predicate":
			fc.taskKwarg("pl.spmd", k, s)
		default:
			r.fail(k.node, "pl.spmd: unknown keyword %s (expected sync_start, name_hint, optimizations, deps, allow_early_resolve or predicate)", k.name)
		}
	}
	return s, opts
}

// spmdWith reads `with pl.spmd(n):`. A body that reads the block index
// (pl.tile.get_block_idx()) is inline: it becomes the launch's InCore
// kernel, unless it already is one `with pl.at(level=CORE_GROUP)`. Any
// other body dispatches a kernel, which reads the index itself.
func (fc *fnCtx) spmdWith(n, call *node) *ir.ScopeStmt {
	r := fc.r
	s, opts := fc.spmdLaunch(call)
	body := n.ChildByFieldId(fldBody)
	stmts := fc.block(body, nil, r.commentsBefore(n, body), false)
	seq := &ir.SeqStmts{StmtBase: s.StmtBase, Stmts: stmts}
	hasOpts := opts.Split != ir.SplitNone || opts.SlotNum != 0
	switch ir.ClassifySpmdBody(stmts) {
	case ir.SpmdCarrier:
		if hasOpts {
			r.fail(call, "pl.spmd: with a pl.at(level=pl.Level.CORE_GROUP) body, optimizations= goes on that pl.at(...)")
		}
		s.Body = seq
	case ir.SpmdInline:
		s.Body = &ir.SeqStmts{StmtBase: s.StmtBase, Stmts: []ir.Stmt{ir.SpmdKernel(s, opts.Split, opts.SlotNum, stmts)}}
	case ir.SpmdDispatch:
		if hasOpts {
			r.fail(call, "pl.spmd: optimizations= applies to an inline body; a dispatched kernel takes its own")
		}
		s.Body = seq
	default:
		r.fail(call, "pl.spmd: the body neither reads pl.tile.get_block_idx() nor calls a kernel, so every block would do the same work")
	}
	return s
}

// spmdLoop reads `for i in pl.spmd(n):`: the body is the launch's InCore
// kernel, which starts by binding i to its block index.
func (fc *fnCtx) spmdLoop(n, left, call *node) ir.Stmt {
	r := fc.r
	if left.Kind() != "identifier" {
		r.fail(left, "for ... in pl.spmd(...): the loop variable must be a name (the block index)")
	}
	if n.ChildByFieldId(fldAlternative) != nil {
		r.fail(n, "for ... else is not supported")
	}
	s, opts := fc.spmdLaunch(call)
	iv := ir.NewVar(r.text(left), ir.Scalar(ir.INDEX), r.pos(left))
	fc.bind(r.text(left), iv)
	body := n.ChildByFieldId(fldBody)
	fc.coreDepth++
	stmts := fc.block(body, nil, r.commentsBefore(n, body), false)
	fc.coreDepth--
	s.Body = &ir.SeqStmts{StmtBase: s.StmtBase, Stmts: []ir.Stmt{ir.SpmdLoopKernel(s, iv, opts.Split, opts.SlotNum, stmts)}}
	return s
}

// splitAivLoop reads `for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.X):`,
// a region run on each of a core's two vector lanes. Outside a core
// context (a pl.at CORE_GROUP scope, an InCore function, pl.spmd's loop)
// it is wrapped in an InCore scope, as upstream's DSL does.
func (fc *fnCtx) splitAivLoop(n, left, call *node) ir.Stmt {
	r := fc.r
	if left.Kind() != "identifier" {
		r.fail(left, "for ... in pl.split_aiv(...): the loop variable must be a name (the vector lane)")
	}
	if n.ChildByFieldId(fldAlternative) != nil {
		r.fail(n, "for ... else is not supported")
	}
	pos, nodes, kws := r.args(call, fc.env, fc)
	if len(pos) != 1 || len(kws) != 1 || kws[0].name != "mode" {
		r.fail(call, "pl.split_aiv takes the lane count and a mode: pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN)")
	}
	if cnt, ok := pos[0].(int64); !ok || cnt != 2 {
		r.fail(nodes[0], "pl.split_aiv: a core has 2 vector lanes, given %s", describe(pos[0]))
	}
	mode, ok := kws[0].val.(ir.SplitMode)
	if !ok {
		r.fail(kws[0].node, "pl.split_aiv: mode must be a pl.SplitMode, given %s", describe(kws[0].val))
	}
	iv := ir.NewVar(r.text(left), ir.Scalar(ir.INDEX), r.pos(left))
	fc.bind(r.text(left), iv)
	body := n.ChildByFieldId(fldBody)
	fc.splitModes = append(fc.splitModes, mode)
	stmts := fc.block(body, nil, r.commentsBefore(n, body), false)
	fc.splitModes = fc.splitModes[:len(fc.splitModes)-1]
	return ir.SplitAivIn(fc.coreDepth > 0 || fc.fn.Kind == ir.InCore, iv, mode, stmts, r.pos(n))
}

// isIdentifier reports whether s is a Python identifier (ASCII).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// runtimeScopeMode reads `with pl.scope(mode=...)` or `with
// pl.manual_scope()` and reports whether the scope is manual, with
// upstream's placement rules: no manual scope in a manual one, no AUTO
// scope in a manual one, and a hand-placed AUTO scope only in a function
// with auto_scope=False (elsewhere the compiler places AUTO scopes).
func (fc *fnCtx) runtimeScopeMode(call *node, callee string) bool {
	r := fc.r
	pos, _, kws := r.args(call, fc.env, fc)
	manual := callee == "pl.manual_scope"
	if manual && len(pos)+len(kws) > 0 {
		r.fail(call, "pl.manual_scope() does not accept arguments (or write pl.scope(mode=pl.ScopeMode.MANUAL))")
	}
	if !manual {
		if len(pos) > 0 {
			r.fail(call, "pl.scope() takes only a 'mode=' keyword, not positional arguments")
		}
		for _, k := range kws {
			m, ok := k.val.(scopeMode)
			if k.name != "mode" || !ok {
				r.fail(k.node, "pl.scope(): the only keyword is mode=pl.ScopeMode.AUTO or pl.ScopeMode.MANUAL, given %s=%s", k.name, describe(k.val))
			}
			manual = m == scopeManual
		}
	}
	switch {
	case manual && fc.manualDepth > 0:
		r.fail(call, "a manual scope may not be nested inside another manual scope: flatten it into the enclosing one")
	case !manual && fc.manualDepth > 0:
		r.fail(call, "an AUTO scope may not be nested inside a manual scope (the runtime forbids it): move it outside")
	case !manual && fc.fn.Attrs.Bool("auto_scope", true):
		r.fail(call, "a hand-placed AUTO 'with pl.scope()' requires auto_scope=False on %s (@pl.function(auto_scope=False)): by default the compiler places AUTO scopes; or use pl.scope(mode=pl.ScopeMode.MANUAL)", fc.fn.Name)
	}
	return manual
}

// scopeMode is a pl.ScopeMode value.
type scopeMode int

const (
	scopeAuto scopeMode = iota
	scopeManual
)

func (m scopeMode) String() string {
	if m == scopeManual {
		return "pl.ScopeMode.MANUAL"
	}
	return "pl.ScopeMode.AUTO"
}
