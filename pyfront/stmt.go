//go:build cgo

package pyfront

import (
	"maps"
	"slices"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// yieldCtx collects the return variables a block's pl.yield_ binds: the
// enclosing if's or for's ReturnVars.
type yieldCtx struct {
	rv      []*ir.Var
	names   []string
	defined bool // an earlier branch defined rv
	typed   bool // rv's one type is written (`v: T = pl.yield_(e)`)
}

// block reads the statements of a block node; lead are comments that
// precede it; top marks a function body.
// branch reads the body of an if branch or a loop. Under strict_ssa a
// name the body binds again is the body's own, as upstream's scope
// manager pops it: after the body the name means what it meant before
// (brk = True in a branch leaves the loop's brk alone; the if's or loop's
// yields bind after it). A name new in the body stays visible after it,
// as upstream's parser carries a value both branches define. A
// with-scope's body is transparent and read by block.
func (fc *fnCtx) branch(blk *node, yc *yieldCtx, lead []comment) []ir.Stmt {
	if fc.strict {
		saved := maps.Clone(fc.env.vars)
		defer maps.Copy(fc.env.vars, saved)
	}
	return fc.block(blk, yc, lead, false)
}

func (fc *fnCtx) block(blk *node, yc *yieldCtx, lead []comment, top bool) []ir.Stmt {
	r := fc.r
	var out []ir.Stmt
	var pending []string
	note := func(c comment) {
		if top && len(out) == 0 && fc.domainComment(c) {
			return
		}
		pending = append(pending, c.text)
	}
	for _, c := range lead {
		note(c)
	}
	if blk == nil {
		return nil
	}
	// Inline helpers called in a statement splice theirs before it; a
	// header's (a for's range) belong to the enclosing block.
	outer := fc.spliced
	fc.spliced = nil
	defer func() { fc.spliced = outer }()
	for i := uint(0); i < blk.NamedChildCount(); i++ {
		c := blk.NamedChild(i)
		if c.Kind() == "comment" {
			note(comment{commentText(r.text(c)), c})
			continue
		}
		if top && len(out) == 0 && isFuncAttr(r, c) {
			fc.funcAttr(r.kids(c)[0])
			continue
		}
		if fc.skip != nil && c.index() == fc.skip.index() {
			continue
		}
		stmts := fc.stmt(c, yc)
		if len(fc.spliced) > 0 {
			stmts = append(fc.spliced, stmts...)
			fc.spliced = nil
		}
		if len(stmts) > 0 && len(pending) > 0 {
			setLeading(stmts[0], pending)
			pending = nil
		}
		out = append(out, stmts...)
	}
	return out
}

func isFuncAttr(r *reader, c *node) bool {
	if c.Kind() != "expression_statement" {
		return false
	}
	ks := r.kids(c)
	return len(ks) == 1 && ks[0].Kind() == "call" && r.dotted(ks[0].ChildByFieldId(fldFunction)) == "pl.func_attr"
}

func setLeading(s ir.Stmt, c []string) {
	c = append([]string(nil), c...)
	switch s := s.(type) {
	case *ir.AssignStmt:
		s.Leading = c
	case *ir.EvalStmt:
		s.Leading = c
	case *ir.ForStmt:
		s.Leading = c
	case *ir.WhileStmt:
		s.Leading = c
	case *ir.BreakStmt:
		s.Leading = c
	case *ir.ContinueStmt:
		s.Leading = c
	case *ir.IfStmt:
		s.Leading = c
	case *ir.YieldStmt:
		s.Leading = c
	case *ir.ReturnStmt:
		s.Leading = c
	case *ir.SeqStmts:
		s.Leading = c
	}
}

func (fc *fnCtx) stmt(n *node, yc *yieldCtx) []ir.Stmt {
	r := fc.r
	r.touch(n)
	base := ir.StmtBase{Pos: r.pos(n)}
	switch n.Kind() {
	case "pass_statement":
		return nil
	case "expression_statement":
		ks := r.kids(n)
		if len(ks) != 1 {
			r.fail(n, "unsupported statement %s", r.text(n))
		}
		x := ks[0]
		switch x.Kind() {
		case "assignment":
			return fc.assign(x, yc)
		case "augmented_assignment":
			r.fail(x, "augmented assignment (%s) is not supported; write x = x %s y", r.text(x.ChildByFieldId(fldOperator)), strings.TrimSuffix(r.text(x.ChildByFieldId(fldOperator)), "="))
		case "string", "concatenated_string":
			return nil // a docstring
		case "call":
			if f := x.ChildByFieldId(fldFunction); f != nil && f.Kind() == "attribute" && r.text(f.ChildByFieldId(fldAttribute)) == "bind_dynamic" {
				fc.bindDynamic(x, f)
				return nil
			}
			if r.dotted(x.ChildByFieldId(fldFunction)) == "pl.dump_tag" {
				fc.dumpTag(x)
				return nil
			}
			if r.dotted(x.ChildByFieldId(fldFunction)) == "pl.yield_" {
				vals := fc.yieldValues(x)
				if yc != nil && yc.defined && len(yc.rv) > 0 {
					r.fail(x, "this pl.yield_ binds nothing, but the other branch binds %s", strings.Join(yc.names, ", "))
				}
				return []ir.Stmt{&ir.YieldStmt{StmtBase: base, Values: vals}}
			}
		}
		v := r.evalIn(x, fc.env, fc)
		e, ok := v.(ir.Expr)
		if !ok {
			if _, isStr := v.(string); isStr {
				return nil
			}
			r.fail(x, "expression statement has no effect (%s)", describe(v))
		}
		if _, ok := e.(*ir.Call); !ok {
			r.fail(x, "expected a call as a statement, given %s", r.text(x))
		}
		return []ir.Stmt{&ir.EvalStmt{StmtBase: base, Expr: e}}
	case "return_statement":
		vals, _ := fc.returnValues(n)
		return []ir.Stmt{&ir.ReturnStmt{StmtBase: base, Values: vals}}
	case "if_statement":
		return fc.ifStmt(n, yc)
	case "for_statement":
		return []ir.Stmt{fc.forStmt(n)}
	case "with_statement":
		return fc.withStmt(n)
	case "while_statement":
		return []ir.Stmt{fc.whileStmt(n)}
	case "break_statement", "continue_statement":
		if fc.loops == 0 {
			r.fail(n, "%s outside a loop", strings.TrimSuffix(n.Kind(), "_statement"))
		}
		if n.Kind() == "break_statement" {
			return []ir.Stmt{&ir.BreakStmt{StmtBase: base}}
		}
		return []ir.Stmt{&ir.ContinueStmt{StmtBase: base}}
	case "function_definition", "decorated_definition", "class_definition":
		r.fail(n, "nested definitions are not supported inside a PyPTO function")
	}
	r.fail(n, "unsupported Python statement in a PyPTO function: %s", kindText(n.Kind()))
	return nil
}

// returnValues are the values of a return statement; list is set for
// `return a, b` (an expression list), whose values are the list's.
func (fc *fnCtx) returnValues(n *node) (vals []ir.Expr, list bool) {
	r := fc.r
	ks := r.kids(n)
	if len(ks) != 1 {
		return nil, false
	}
	v := r.evalIn(ks[0], fc.env, fc)
	if t, ok := v.(pyTuple); ok && ks[0].Kind() == "expression_list" {
		for _, x := range t {
			vals = append(vals, r.toExpr(ks[0], x))
		}
		return vals, true
	}
	return []ir.Expr{r.toExpr(ks[0], v)}, false
}

func (fc *fnCtx) yieldValues(call *node) []ir.Expr {
	r := fc.r
	var vals []ir.Expr
	for _, a := range r.kids(call.ChildByFieldId(fldArguments)) {
		if a.Kind() == "keyword_argument" {
			r.fail(a, "pl.yield_ takes positional values only")
		}
		vals = append(vals, r.toExpr(a, r.evalIn(a, fc.env, fc)))
	}
	return vals
}

// bind makes name refer to v from here on.
func (fc *fnCtx) bind(name string, v value) { fc.env.vars[name] = v }

func (fc *fnCtx) assign(n *node, yc *yieldCtx) []ir.Stmt {
	r := fc.r
	base := ir.StmtBase{Pos: r.pos(n)}
	left := n.ChildByFieldId(fldLeft)
	right := n.ChildByFieldId(fldRight)
	tnode := n.ChildByFieldId(fldType)
	if right == nil {
		r.fail(n, "a bare annotation declares nothing; write name: T = value")
	}
	if y := r.unparen(right); y.Kind() == "call" && r.dotted(y.ChildByFieldId(fldFunction)) == "pl.yield_" {
		// Black wraps a long `v: T = pl.yield_(x)` in parentheses.
		return []ir.Stmt{fc.yieldAssign(n, left, tnode, y, yc)}
	}
	if left.Kind() != "identifier" {
		if left.Kind() == "pattern_list" || left.Kind() == "tuple_pattern" {
			return fc.unpack(n, left, right)
		}
		if left.Kind() == "subscript" && tnode == nil {
			return fc.subscriptAssign(n, left, right)
		}
		r.fail(left, "unsupported assignment target %s (expected a name)", r.text(left))
	}
	name := r.text(left)
	r.binding = name
	v := r.evalIn(right, fc.env, fc)
	r.binding = ""
	if m, ok := v.(*ir.MemRef); ok && m.Pinned && tnode == nil {
		// scratch = pl.MemRef(): a declared allocation tiles name in their
		// types; it builds no statement.
		fc.bind(name, m)
		return nil
	}
	if v == nil && right.Kind() == "none" {
		// None is the id of no task (a task-id loop carry's seed), as
		// upstream's parser reads it.
		v = ir.SystemTaskInvalid.MustCall(nil, nil, r.pos(right))
	}
	e, isExpr := v.(ir.Expr)
	if !isExpr {
		if tnode == nil && fc.authoring {
			// A compile-time constant: no IR, the name denotes the value.
			fc.bind(name, v)
			return nil
		}
		e = r.toExpr(right, v)
	}
	var t ir.Type
	if tnode != nil {
		t = r.typeOf(tnode, fc.env, fc)
		// Passes refine a binding's type (memory space, memref) on the
		// variable and its call alike; the annotation is the refined one.
		if c, ok := e.(*ir.Call); ok && c.Op != nil && c.T != nil && c.T.TypeName() == t.TypeName() {
			// An annotation without a memory space keeps the one the op
			// deduced (a matmul's Acc), as upstream merges the two.
			if at, ok := t.(*ir.TileType); ok && at.Memory == ir.MemNone {
				if ct := c.T.(*ir.TileType); ct.Memory != ir.MemNone {
					m := *at
					m.Memory = ct.Memory
					t = &m
				}
			}
			// Nor a tile view: the deduced one (a valid_shape the call
			// narrowed) fills it, annotation fields taking priority.
			if at, ok := t.(*ir.TileType); ok && at.View == nil {
				if ct := c.T.(*ir.TileType); ct.View != nil && len(ct.Shape) == len(at.Shape) {
					m := *at
					m.View = ct.View
					t = ir.NewTileType(m.Shape, m.DType, m.Memory, m.View)
					if at.MemRef != nil {
						tt := t.(*ir.TileType)
						tt.MemRef = at.MemRef
					}
				}
			}
			cp := *c
			cp.T = t
			e = &cp
		}
		if c, ok := e.(*ir.Call); ok && c.Op != nil && c.Op.TypedByTarget {
			typed, err := c.WithType(t)
			if te, ok := err.(*ir.TypeError); ok {
				cp := *te
				cp.Op = c.Op.Callee(c) // as the source spells it
				err = &cp
			}
			if err != nil {
				r.failErr(tnode, err)
			}
			e, t = typed, typed.T
		}
	} else {
		t = e.Type()
		if c, ok := e.(*ir.Call); ok && c.Op != nil && c.Op.TypedByTarget {
			r.fail(right, "%s needs the type of the tile it takes: annotate the target (%s: pl.Tile[[M, N], pl.FP32] = ...)", c.Op.Callee(c), name)
		}
		if _, unk := t.(*ir.UnknownType); unk {
			r.fail(right, "%s has no value (it only has effects); call it as a statement", r.text(right))
		}
	}
	if c, ok := e.(*ir.Call); ok && c.Op == ir.PldTensorAllocWindowBuffer {
		if !fc.fn.IsHostOrchestrator() {
			r.fail(right, "pld.tensor.alloc_window_buffer is only valid in a host orchestrator, not in %s function %s", fc.fn.Kind, fc.fn.Name)
		}
		named, err := c.Op.NewCall(c.Args, c.Kwargs.With("name", name), c.Pos)
		if err != nil {
			r.failErr(right, err)
		}
		e = named
	}
	// A name rebound to a value of its type is assigned through its Var, as
	// upstream's parser does since #647 (the printed text keeps the name;
	// ConvertToSSA versions it). Another type binds a new Var (upstream
	// refuses that; ptorepl reads it).
	if old, ok := fc.env.vars[name].(*ir.Var); ok && !fc.strict && ir.StructuralEqual(old.Type(), t, true) {
		return []ir.Stmt{&ir.AssignStmt{StmtBase: base, Var: old, Value: e}}
	}
	nv := ir.NewVar(name, t, r.pos(left))
	fc.bind(name, nv)
	return []ir.Stmt{&ir.AssignStmt{StmtBase: base, Var: nv, Value: e}}
}

// dumpTag reads pl.dump_tag(t, ...): it marks tensors for the runtime's
// selective argument dump (a debug capture on the device that changes no
// value). Each kernel call after it that passes a marked tensor, and each
// pl.at scope after it, carries the tensor as a dump (fc.dumpTagged).
func (fc *fnCtx) dumpTag(n *node) {
	r := fc.r
	pos, nodes, kws := r.args(n, fc.env, fc)
	if len(kws) > 0 || len(pos) == 0 {
		r.fail(n, "pl.dump_tag takes the tensors to dump, positionally")
	}
	for i, v := range pos {
		e, ok := v.(ir.Expr)
		if _, tensor := ir.AsTensorLike(typeOf(e, ok)); !tensor {
			r.fail(nodes[i], "pl.dump_tag: expected a tensor, given %s", describe(v))
		}
		tv, isVar := e.(*ir.Var)
		if !isVar {
			r.fail(nodes[i], "pl.dump_tag: expected a tensor variable, given %s", r.text(nodes[i]))
		}
		if !slices.Contains(fc.dumpTagged, tv) {
			fc.dumpTagged = append(fc.dumpTagged, tv)
		}
	}
}

// stickyDumps are the dumps of a pl.at scope: the tensors its dumps=
// names, then those pl.dump_tag marked before it.
func (fc *fnCtx) stickyDumps(explicit []ir.Expr) []ir.Expr {
	out := explicit
	for _, v := range fc.dumpTagged {
		if !slices.ContainsFunc(out, func(e ir.Expr) bool { return e == v }) {
			out = append(out, v)
		}
	}
	return out
}

// unpack reads `a, b = f(...)` for a call that returns a tuple, as
// upstream's parser does: the tuple is bound to _tuple_tmp, then each name
// to its element (_tuple_tmp[i]).
func (fc *fnCtx) unpack(n, left, right *node) []ir.Stmt {
	r := fc.r
	v := r.evalIn(right, fc.env, fc)
	if seq, isSeq := pySeq(v); isSeq && dimsOnly(seq) {
		// M, N = a.shape: Python unpacks a tuple known while reading.
		names := r.kids(left)
		if len(names) != len(seq) {
			r.fail(left, "%d names unpack %d values", len(names), len(seq))
		}
		for i, nn := range names {
			if nn.Kind() != "identifier" {
				r.fail(nn, "tuple unpacking target must be a variable name, given %s", r.text(nn))
			}
			fc.bind(r.text(nn), seq[i])
		}
		return nil
	}
	e, ok := v.(ir.Expr)
	var tt *ir.TupleType
	if ok {
		tt, ok = e.Type().(*ir.TupleType)
	}
	if !ok {
		r.fail(right, "tuple unpacking takes pl.yield_(...) or a call that returns a tuple, given %s", r.text(right))
	}
	names := r.kids(left)
	if len(names) != len(tt.Types) {
		r.fail(left, "%d names unpack a tuple of %d values", len(names), len(tt.Types))
	}
	base := ir.StmtBase{Pos: r.pos(n)}
	tmp := ir.NewVar("_tuple_tmp", tt, r.pos(n))
	out := []ir.Stmt{&ir.AssignStmt{StmtBase: base, Var: tmp, Value: e}}
	for i, nn := range names {
		if nn.Kind() != "identifier" {
			r.fail(nn, "tuple unpacking target must be a variable name, given %s", r.text(nn))
		}
		v := ir.NewVar(r.text(nn), tt.Types[i], r.pos(nn))
		out = append(out, &ir.AssignStmt{StmtBase: base, Var: v, Value: &ir.TupleGetItem{Tuple: tmp, Index: i, Pos: r.pos(nn)}})
		fc.bind(v.Name, v)
	}
	fc.bind(tmp.Name, tmp)
	return out
}

// unparen is n without the parentheses around it.
func (r *reader) unparen(n *node) *node {
	for n.Kind() == "parenthesized_expression" && len(r.kids(n)) == 1 {
		n = r.kids(n)[0]
	}
	return n
}

// yieldAssign reads `v: T = pl.yield_(e)` / `a, b = pl.yield_(x, y)`.
func (fc *fnCtx) yieldAssign(n, left, tnode, call *node, yc *yieldCtx) ir.Stmt {
	r := fc.r
	if yc == nil {
		r.fail(n, "pl.yield_ with targets is only valid as the last statement of an if or for body")
	}
	vals := fc.yieldValues(call)
	var names []*node
	switch left.Kind() {
	case "identifier":
		names = []*node{left}
	case "pattern_list", "tuple_pattern":
		names = r.kids(left)
	default:
		r.fail(left, "unsupported pl.yield_ target %s", r.text(left))
	}
	if len(names) != len(vals) {
		r.fail(n, "pl.yield_ gives %d values to %d targets", len(vals), len(names))
	}
	if yc.defined {
		if len(yc.rv) != len(names) {
			r.fail(n, "this branch yields %d values, the other %d", len(names), len(yc.rv))
		}
		for i, nn := range names {
			if r.text(nn) != yc.names[i] {
				r.fail(nn, "this branch yields to %s, the other to %s", r.text(nn), yc.names[i])
			}
		}
	} else {
		yc.rv = nil
		yc.names = nil
		for i, nn := range names {
			var t ir.Type
			if tnode != nil && len(names) == 1 {
				t = r.typeOf(tnode, fc.env, fc)
				yc.typed = true
			} else {
				t = vals[i].Type()
			}
			yc.rv = append(yc.rv, ir.NewVar(r.text(nn), t, r.pos(nn)))
			yc.names = append(yc.names, r.text(nn))
		}
		yc.defined = true
	}
	return &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: r.pos(n)}, Values: vals}
}

func (fc *fnCtx) cond(n *node) value {
	v := fc.r.evalIn(n, fc.env, fc)
	if b, ok := v.(bool); ok {
		return b
	}
	e := fc.r.toExpr(n, v)
	if st, ok := e.Type().(*ir.ScalarType); !ok || st.DType != ir.BOOL {
		fc.r.fail(n, "an if condition must be a BOOL scalar, given %s", ir.Describe(e))
	}
	return e
}

func (fc *fnCtx) ifStmt(n *node, outer *yieldCtx) []ir.Stmt {
	r := fc.r
	c := fc.cond(n.ChildByFieldId(fldCondition))
	body := n.ChildByFieldId(fldConsequence)
	alts := n.ChildrenByField(fldAlternative)
	// A compile-time condition (a factory parameter, a module constant)
	// picks its branch's statements here, as Python would.
	if b, ok := c.(bool); ok {
		if b {
			return fc.block(body, outer, r.commentsBefore(n, body), false)
		}
		return fc.elseChain(alts, outer)
	}
	yc := &yieldCtx{}
	then := fc.branch(body, yc, r.commentsBefore(n, body))
	thenDefined := yc.defined
	var els []ir.Stmt
	hasElse := len(alts) > 0
	if hasElse {
		els = fc.elseChain(alts, yc)
	}
	if thenDefined != yc.defined || (yc.defined && !hasElse) {
		r.fail(n, "an if whose branches yield values needs an else that yields the same names")
	}
	s := &ir.IfStmt{StmtBase: ir.StmtBase{Pos: r.pos(n)}, Cond: c.(ir.Expr), Then: &ir.SeqStmts{Stmts: then}, ReturnVars: yc.rv}
	if hasElse {
		s.Else = &ir.SeqStmts{Stmts: els}
	}
	for i, v := range yc.rv {
		fc.bind(yc.names[i], v)
	}
	return []ir.Stmt{s}
}

func (fc *fnCtx) elseChain(alts []*node, yc *yieldCtx) []ir.Stmt {
	if len(alts) == 0 {
		return nil
	}
	r := fc.r
	a := alts[0]
	switch a.Kind() {
	case "else_clause":
		body := a.ChildByFieldId(fldBody)
		return fc.branch(body, yc, r.commentsBefore(a, body))
	case "elif_clause":
		c := fc.cond(a.ChildByFieldId(fldCondition))
		body := a.ChildByFieldId(fldConsequence)
		if b, ok := c.(bool); ok {
			if b {
				return fc.block(body, yc, r.commentsBefore(a, body), false)
			}
			return fc.elseChain(alts[1:], yc)
		}
		inner := &yieldCtx{}
		then := fc.branch(body, inner, r.commentsBefore(a, body))
		s := &ir.IfStmt{StmtBase: ir.StmtBase{Pos: r.pos(a)}, Cond: c.(ir.Expr), Then: &ir.SeqStmts{Stmts: then}}
		if len(alts) > 1 {
			s.Else = &ir.SeqStmts{Stmts: fc.elseChain(alts[1:], inner)}
		}
		if inner.defined {
			r.fail(a, "elif branches that yield values are not supported; nest an if in the else")
		}
		return []ir.Stmt{s}
	}
	r.fail(a, "unsupported if alternative %s", kindText(a.Kind()))
	return nil
}

var loopKinds = map[string]ir.LoopKind{"pl.range": ir.Sequential, "pl.parallel": ir.Parallel, "pl.unroll": ir.Unroll, "pl.pipeline": ir.Pipeline}

func (fc *fnCtx) forStmt(n *node) ir.Stmt {
	r := fc.r
	left := n.ChildByFieldId(fldLeft)
	right := n.ChildByFieldId(fldRight)
	if n.ChildByFieldId(fldAlternative) != nil {
		r.fail(n, "for ... else is not supported")
	}
	if right.Kind() != "call" {
		r.fail(right, "a loop iterates pl.range(...), pl.parallel(...), pl.unroll(...) or pl.pipeline(...), given %s", r.text(right))
	}
	callee := r.dotted(right.ChildByFieldId(fldFunction))
	if callee == "pl.spmd" {
		return fc.spmdLoop(n, left, right)
	}
	if callee == "pl.split_aiv" {
		return fc.splitAivLoop(n, left, right)
	}
	if callee == "pl.while_" {
		return fc.whileForm(n, left, right)
	}
	kind, ok := loopKinds[callee]
	if !ok {
		r.fail(right, "a loop iterates pl.range(...), pl.parallel(...), pl.unroll(...) or pl.pipeline(...), given %s(...)", r.text(right.ChildByFieldId(fldFunction)))
	}
	s := &ir.ForStmt{StmtBase: ir.StmtBase{Pos: r.pos(n)}, Kind: kind}
	var bounds []ir.Expr
	var inits []ir.Expr
	for _, a := range r.kids(right.ChildByFieldId(fldArguments)) {
		if a.Kind() == "keyword_argument" {
			key := r.text(a.ChildByFieldId(fldName))
			vn := a.ChildByFieldId(fldValue)
			switch key {
			case "init_values":
				v := r.evalIn(vn, fc.env, fc)
				var xs []value
				switch t := v.(type) {
				case pyTuple:
					xs = t
				case pyList:
					xs = t
				default:
					r.fail(vn, "init_values takes a tuple, given %s", describe(v))
				}
				for _, x := range xs {
					inits = append(inits, r.toExpr(vn, x))
				}
			case "stage":
				v, ok := r.evalIn(vn, fc.env, fc).(int64)
				if !ok || kind != ir.Pipeline {
					r.fail(a, "stage= takes an int, on pl.pipeline only")
				}
				s.PipelineArg = int(v)
			case "attrs":
				if vn.Kind() != "dictionary" {
					r.fail(vn, "attrs= takes a dict literal")
				}
				for _, p := range r.kids(vn) {
					k, ok := r.evalIn(p.ChildByFieldId(fldKey), fc.env, fc).(string)
					if !ok {
						r.fail(p, "attrs keys are strings")
					}
					s.Attrs = append(s.Attrs, ir.Kwarg{Key: k, Value: r.attrValue(p.ChildByFieldId(fldValue), fc)})
				}
			default:
				r.fail(a, "%s: unknown keyword %s (expected init_values, stage or attrs)", callee, key)
			}
			continue
		}
		e := r.toExpr(a, r.evalIn(a, fc.env, fc))
		if st, ok := e.Type().(*ir.ScalarType); !ok || !st.DType.IsInt() {
			r.fail(a, "%s: bounds must be integer scalars, given %s", callee, ir.Describe(e))
		}
		bounds = append(bounds, e)
	}
	switch len(bounds) {
	case 1:
		s.Start, s.Stop, s.Step = ir.Int(0), bounds[0], ir.Int(1)
	case 2:
		s.Start, s.Stop, s.Step = bounds[0], bounds[1], ir.Int(1)
	case 3:
		s.Start, s.Stop, s.Step = bounds[0], bounds[1], bounds[2]
	default:
		r.fail(right, "%s takes 1 to 3 bounds (stop | start, stop | start, stop, step), given %d", callee, len(bounds))
	}
	if c, ok := s.Step.(*ir.ConstInt); ok && c.Value == 0 {
		r.fail(right, "%s: step must not be 0", callee)
	}
	var loopName *node
	var iterNames []*node
	switch left.Kind() {
	case "identifier":
		loopName = left
	case "pattern_list":
		ks := r.kids(left)
		if len(ks) != 2 || (ks[1].Kind() != "tuple_pattern" && ks[1].Kind() != "parenthesized_expression") {
			r.fail(left, "expected `for i, (a, b) in ...(init_values=...)`")
		}
		loopName = ks[0]
		if ks[1].Kind() == "parenthesized_expression" {
			iterNames = r.kids(ks[1])
		} else {
			iterNames = r.kids(ks[1])
		}
	default:
		r.fail(left, "unsupported loop target %s", r.text(left))
	}
	if loopName.Kind() != "identifier" {
		r.fail(loopName, "the loop variable must be a name")
	}
	if len(iterNames) != len(inits) {
		r.fail(n, "%d loop-carried names but %d init_values", len(iterNames), len(inits))
	}
	s.LoopVar = ir.NewVar(r.text(loopName), ir.Scalar(ir.INDEX), r.pos(loopName))
	fc.bind(r.text(loopName), s.LoopVar)
	s.IterArgs = fc.iterArgs(iterNames, inits)
	s.Body, s.ReturnVars = fc.loopBody(n, nil, s.IterArgs)
	return s
}

// iterArgs binds a loop's carried names to iter-args of their inits.
func (fc *fnCtx) iterArgs(names []*node, inits []ir.Expr) []*ir.IterArg {
	r := fc.r
	var out []*ir.IterArg
	for i, nn := range names {
		if nn.Kind() != "identifier" {
			r.fail(nn, "a loop-carried value must be a name")
		}
		ia := ir.NewIterArg(r.text(nn), inits[i].Type(), inits[i], r.pos(nn))
		out = append(out, ia)
		fc.bind(r.text(nn), ia)
	}
	return out
}

// loopBody reads the body of loop n (leaving out skip, a pl.while_'s
// pl.cond line) and binds the return variables its yields name.
func (fc *fnCtx) loopBody(n, skip *node, ias []*ir.IterArg) (ir.Stmt, []*ir.Var) {
	r := fc.r
	yc := &yieldCtx{}
	body := n.ChildByFieldId(fldBody)
	fc.loops++
	fc.skip = skip
	stmts := fc.branch(body, yc, r.commentsBefore(n, body))
	fc.skip = nil
	fc.loops--
	if !yc.typed {
		carryMemRefs(yc.rv, ias)
	}
	for i, v := range yc.rv {
		fc.bind(yc.names[i], v)
	}
	return &ir.SeqStmts{Stmts: stmts}, yc.rv
}

// carryMemRefs gives each tile result of a loop, whose type the printed
// `a, b = pl.yield_(x, y)` cannot write, its iter-arg's buffer: InitMemRef
// keeps a loop's accumulator in one place (init, iter-arg and result).
func carryMemRefs(rvs []*ir.Var, ias []*ir.IterArg) {
	for k, rv := range rvs {
		if k >= len(ias) {
			return
		}
		tt, ok := rv.Type().(*ir.TileType)
		it, iok := ias[k].Type().(*ir.TileType)
		if !ok || !iok || it.MemRef == nil || tt.MemRef == it.MemRef {
			continue
		}
		c := *tt
		c.MemRef = it.MemRef
		rv.T = &c
	}
}

// whileStmt reads `while cond:` (upstream's natural form; ConvertToSSA
// carries what the body assigns). A constant condition is allowed
// (`while True:` left by a break).
func (fc *fnCtx) whileStmt(n *node) ir.Stmt {
	r := fc.r
	if n.ChildByFieldId(fldAlternative) != nil {
		r.fail(n, "while ... else is not supported")
	}
	s := &ir.WhileStmt{StmtBase: ir.StmtBase{Pos: r.pos(n)}, Cond: fc.whileCond(n.ChildByFieldId(fldCondition))}
	s.Body, s.ReturnVars = fc.loopBody(n, nil, nil)
	return s
}

// whileCond is a while loop's condition: a BOOL scalar, or a constant.
func (fc *fnCtx) whileCond(n *node) ir.Expr {
	r := fc.r
	v := r.evalIn(n, fc.env, fc)
	if b, ok := v.(bool); ok {
		return &ir.ConstBool{Value: b, Pos: r.pos(n)}
	}
	e := r.toExpr(n, v)
	if st, ok := e.Type().(*ir.ScalarType); !ok || st.DType != ir.BOOL {
		r.fail(n, "a while condition must be a BOOL scalar, given %s", ir.Describe(e))
	}
	return e
}

// whileForm reads the SSA form upstream prints, `for (x,) in
// pl.while_(init_values=(x0,)):` whose body starts with `pl.cond(c)`.
func (fc *fnCtx) whileForm(n, left, right *node) ir.Stmt {
	r := fc.r
	var inits []ir.Expr
	for _, a := range r.kids(right.ChildByFieldId(fldArguments)) {
		if a.Kind() != "keyword_argument" || r.text(a.ChildByFieldId(fldName)) != "init_values" {
			r.fail(a, "pl.while_ takes init_values=(...) only")
		}
		vn := a.ChildByFieldId(fldValue)
		xs, ok := pySeq(r.evalIn(vn, fc.env, fc))
		if !ok {
			r.fail(vn, "init_values takes a tuple")
		}
		for _, x := range xs {
			inits = append(inits, r.toExpr(vn, x))
		}
	}
	var names []*node
	switch left.Kind() {
	case "tuple_pattern", "parenthesized_expression", "pattern_list":
		names = r.kids(left)
	default:
		r.fail(left, "expected `for (a, b) in pl.while_(init_values=(...))`")
	}
	if len(names) != len(inits) {
		r.fail(n, "%d loop-carried names but %d init_values", len(names), len(inits))
	}
	s := &ir.WhileStmt{StmtBase: ir.StmtBase{Pos: r.pos(n)}}
	s.IterArgs = fc.iterArgs(names, inits)
	body := n.ChildByFieldId(fldBody)
	var first *node
	for _, st := range r.kids(body) {
		if st.Kind() != "comment" {
			first = st
			break
		}
	}
	if first == nil || first.Kind() != "expression_statement" || len(r.kids(first)) != 1 || r.kids(first)[0].Kind() != "call" ||
		r.dotted(r.kids(first)[0].ChildByFieldId(fldFunction)) != "pl.cond" {
		r.fail(body, "a pl.while_ loop's body starts with pl.cond(condition)")
	}
	condArgs := r.kids(r.kids(first)[0].ChildByFieldId(fldArguments))
	if len(condArgs) != 1 {
		r.fail(first, "pl.cond takes one condition")
	}
	s.Cond = fc.whileCond(condArgs[0])
	s.Body, s.ReturnVars = fc.loopBody(n, first, s.IterArgs)
	return s
}

// pySeq is v's elements when it is a Python tuple or list.
func pySeq(v value) ([]value, bool) {
	switch x := v.(type) {
	case pyTuple:
		return []value(x), true
	case pyList:
		return []value(x), true
	}
	return nil, false
}

// dimsOnly reports whether a tuple holds only values known while reading
// and integer scalars (a shape's dimensions), which Python unpacks by name;
// tiles and tensors are not unpacked that way.
func dimsOnly(seq []value) bool {
	for _, v := range seq {
		if e, ok := v.(ir.Expr); ok {
			if st, ok := e.Type().(*ir.ScalarType); !ok || !st.DType.IsInt() {
				return false
			}
		}
	}
	return true
}

// bindDynamic reads x.bind_dynamic(dim, D), with which a @pl.jit function
// ties dimension dim of its parameter x to the dynamic dimension D. The
// annotation says the same (x: pl.Tensor[[D, ...], ...]), and upstream's
// specializer drops the statement; here it is checked against the type.
func (fc *fnCtx) bindDynamic(call, f *node) {
	r := fc.r
	obj, ok := r.evalIn(f.ChildByFieldId(fldObject), fc.env, fc).(ir.Expr)
	dims, _, isTensor := ir.ShapeOf(typeOf(obj, ok))
	if !isTensor {
		r.fail(call, "%s: bind_dynamic binds a tensor parameter's dimension", r.text(call))
	}
	pos, nodes, kws := r.args(call, fc.env, fc)
	if len(pos) != 2 || len(kws) > 0 {
		r.fail(call, "%s: expected (dim, pl.dynamic dimension)", r.text(call))
	}
	d, ok := pos[0].(int64)
	if !ok || d < 0 || int(d) >= len(dims) {
		r.fail(nodes[0], "bind_dynamic: expected a dimension index in [0, %d), given %s", len(dims), describe(pos[0]))
	}
	want, ok := pos[1].(ir.Expr)
	have, okV := ir.VarOf(dims[d])
	wv, okW := ir.VarOf(want)
	if !ok || !okV || !okW || have.Name != wv.Name {
		r.fail(call, "%s: dimension %d of %s is %s, not %s", r.text(call), d, r.text(f.ChildByFieldId(fldObject)), ir.DefaultFormat.Dim(dims[d]), r.text(nodes[1]))
	}
}

func typeOf(e ir.Expr, ok bool) ir.Type {
	if !ok {
		return ir.Unknown
	}
	return e.Type()
}
