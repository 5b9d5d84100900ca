//go:build cgo

package pyfront

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
)

// progCtx is a program being built: its functions by name (signatures are
// known before any body is read, so calls see their callees' types).
type progCtx struct {
	prog  *ir.Program
	funcs map[string]*ir.Function
	// jit is set for the authoring form: a bare call f(...) of a jit
	// function calls the program function f.
	jit bool
	// deferred builds a jit function with bare pl.Tensor parameters at its
	// first call, specialized on that call's argument types.
	deferred map[string]func(args []ir.Type)
}

// fnCtx is a function being built.
type fnCtx struct {
	r    *reader
	fn   *ir.Function
	pc   *progCtx
	env  *env
	free map[string]*ir.Var
	// memrefBases are the quoted MemRef bases of this function, by name.
	memrefBases map[string]*ir.Var
	// domains are the comm-domain comments of a host orchestrator.
	domains []domainLine
	// authoring selects the authoring form's rules (implicit types,
	// keyword arguments naming positional ones, rebinding by name).
	authoring bool
	// strict is upstream's strict_ssa=True (on the function or its
	// program): every assignment binds a new variable, never one an
	// earlier assignment of the name made.
	strict bool
	// spliced are the statements of inline helpers called in the statement
	// being read, emitted before it; inlining are the helpers being
	// spliced, against recursion (inline.go).
	spliced  []ir.Stmt
	inlining map[*inlineHelper]bool
	// splitModes are the modes of the pl.split_aiv regions being read,
	// innermost last; coreDepth counts the core scopes (pl.at CORE_GROUP,
	// the loop form of pl.spmd) around the statement being read.
	splitModes []ir.SplitMode
	coreDepth  int
	// loops counts the loops around the statement being read (a break or
	// continue needs one).
	loops int
	// dumpTagged are the tensors pl.dump_tag marked so far, in order: each
	// kernel call that passes one, and each pl.at scope after it, dumps
	// it (forward-sticky, as upstream's parser keeps them).
	dumpTagged []*ir.Var
	// manualDepth counts the manual runtime scopes around the statement
	// being read (the runtime nests no scope in one).
	manualDepth int
	// skip is a statement the block being read leaves out (a pl.while_
	// body's pl.cond line, read as the loop's condition).
	skip *node
}

type domainLine struct {
	all   bool
	devs  []int64
	slots []string
	node  *node
}

func (fc *fnCtx) freeVar(name string) *ir.Var {
	base, ok := strings.CutSuffix(name, "__FREE_VAR")
	if !ok {
		return nil
	}
	if v, ok := fc.free[base]; ok {
		return v
	}
	v := ir.NewVar(base, ir.Unknown, ir.Span{})
	fc.free[base] = v
	return v
}

// programClass reads an @pl.program class.
// authoring selects the authoring form's rules (a class a factory defines).
func (r *reader) programClass(n *node, e *env, authoring bool) *ir.Program {
	cls := n.ChildByFieldId(fldDefinition)
	name := r.text(cls.ChildByFieldId(fldName))
	pc := &progCtx{prog: ir.NewProgram(name), funcs: map[string]*ir.Function{}}
	body := cls.ChildByFieldId(fldBody)
	type pending struct {
		fn   *ir.Function
		node *node
		fenv *env
		home *reader // another file's kernel: read there (imports.go)
	}
	var fns []pending
	for _, c := range r.kids(body) {
		switch c.Kind() {
		case "decorated_definition":
			def := c.ChildByFieldId(fldDefinition)
			if def.Kind() != "function_definition" || r.decoratorName(c) != "pl.function" {
				r.fail(c, "expected a @pl.function method in program %s", name)
			}
			fn, fenv := r.signature(c, def, e, authoring)
			if pc.funcs[fn.Name] != nil {
				r.fail(def, "program %s already has a function named %s", name, fn.Name)
			}
			pc.funcs[fn.Name] = fn
			fns = append(fns, pending{fn, def, fenv, nil})
		case "pass_statement", "expression_statement":
			// pass, a docstring
		case "function_definition":
			r.fail(c, "method %s of program %s needs a @pl.function decorator", r.text(c.ChildByFieldId(fldName)), name)
		default:
			r.fail(c, "unsupported statement in program class %s: %s", name, kindText(c.Kind()))
		}
	}
	// Kernels a factory defined outside the class, called by name.
	var free []pending
	for _, pf := range r.freeFuncs(body, e) {
		leave := r.enter(pf.home)
		fn, fenv := r.signature(pf.dec, pf.def, pf.env, authoring)
		leave()
		if pc.funcs[fn.Name] != nil {
			r.fail(pf.def, "program %s already has a function named %s", name, fn.Name)
		}
		pc.funcs[fn.Name] = fn
		free = append(free, pending{fn, pf.def, fenv, pf.home})
	}
	fns = append(free, fns...)
	if authoring {
		// Callees first: an unannotated function's return type is its
		// return statement's, which its callers need.
		fns = calleesFirst(r, fns, func(p pending) (string, *node) { return p.fn.Name, p.node })
	}
	progStrict := r.strictKwarg(r.decorator(n), "@pl.program")
	for _, p := range fns {
		fc := &fnCtx{r: r, fn: p.fn, pc: pc, env: p.fenv, free: map[string]*ir.Var{}, memrefBases: map[string]*ir.Var{}, authoring: authoring,
			strict: progStrict || r.strictFns[p.fn]}
		leave := r.enter(p.home)
		fc.body(p.node)
		leave()
		if !authoring {
			// Authored names are the author's; only printed text was renamed.
			restoreHints(p.fn, fc.free)
		}
		if authoring && p.node.ChildByFieldId(fldReturnType) == nil {
			p.fn.ReturnTypes = inferReturns(p.fn)
		}
		if err := pc.prog.AddFunction(p.fn); err != nil {
			r.fail(p.node, "%v", err)
		}
	}
	r.commGroups(pc, fns2nodes(fns, func(p pending) (*ir.Function, *node) { return p.fn, p.node }))
	return pc.prog
}

// functionProgram reads a top-level @pl.function. Upstream's parser makes
// it a lone ir.Function; here it is a program of that one function,
// named after it, so it prints, compiles and runs like any other.
func (r *reader) functionProgram(n *node, e *env) *ir.Program {
	def := n.ChildByFieldId(fldDefinition)
	fn, fenv := r.signature(n, def, e, false)
	pc := &progCtx{prog: ir.NewProgram(fn.Name), funcs: map[string]*ir.Function{fn.Name: fn}}
	fc := &fnCtx{r: r, fn: fn, pc: pc, env: fenv, free: map[string]*ir.Var{}, memrefBases: map[string]*ir.Var{}, strict: r.strictFns[fn]}
	fc.body(def)
	restoreHints(fn, fc.free)
	if err := pc.prog.AddFunction(fn); err != nil {
		r.fail(def, "%v", err)
	}
	r.commGroups(pc, map[*ir.Function]*node{fn: def})
	return pc.prog
}

func fns2nodes[T any](xs []T, f func(T) (*ir.Function, *node)) map[*ir.Function]*node {
	out := map[*ir.Function]*node{}
	for _, x := range xs {
		fn, n := f(x)
		out[fn] = n
	}
	return out
}

// signature reads a @pl.function's decorator, parameters and return type.
func (r *reader) signature(dec, def *node, e *env, authoring bool) (*ir.Function, *env) {
	name := r.text(def.ChildByFieldId(fldName))
	fn := &ir.Function{Name: name, Level: ir.LevelNone, Role: ir.RoleNone, Pos: r.pos(def)}
	if dec != nil {
		if d := r.decorator(dec); d != nil && d.Kind() == "call" {
			for _, a := range r.kids(d.ChildByFieldId(fldArguments)) {
				if a.Kind() != "keyword_argument" {
					r.fail(a, "@pl.function takes keyword arguments (type=, level=, role=), given %s", r.text(a))
				}
				key := r.text(a.ChildByFieldId(fldName))
				if vn := a.ChildByFieldId(fldValue); key == "attrs" && vn.Kind() == "dictionary" {
					// attrs={"split": pl.SplitMode.UP_DOWN, ...}: the function's
					// attributes, as pl.func_attr({...}) in its body sets them.
					fn.Attrs = append(fn.Attrs, r.decoratorAttrs(vn, e)...)
					continue
				}
				v := r.eval(a.ChildByFieldId(fldValue), e)
				ok := true
				switch key {
				case "type":
					fn.Kind, ok = v.(ir.FunctionType)
				case "level":
					fn.Level, ok = v.(ir.Level)
				case "role":
					fn.Role, ok = v.(ir.Role)
				case "auto_scope":
					var b bool
					b, ok = v.(bool)
					fn.Attrs = append(fn.Attrs, ir.Kwarg{Key: "auto_scope", Value: b})
				case "external_source":
					var s string
					s, ok = v.(string)
					fn.Attrs = append(fn.Attrs, ir.Kwarg{Key: "external_source", Value: s})
				case "strict_ssa":
					var b bool
					if b, ok = v.(bool); ok && b {
						r.strictFns[fn] = true
					}
				default:
					r.fail(a, "@pl.function: unknown keyword %s (expected type, level, role, attrs, auto_scope, external_source or strict_ssa)", key)
				}
				if !ok {
					r.fail(a, "@pl.function: %s= has the wrong kind of value %s", key, describe(v))
				}
			}
		}
		l, ro, err := ir.DeriveLevelRole(fn.Kind, fn.Level, fn.Role)
		if err != nil {
			r.fail(dec, "function %s: %v", name, err)
		}
		fn.Level, fn.Role = l, ro
	}
	fenv := e.child()
	params := def.ChildByFieldId(fldParameters)
	idx := -1 // the parameter's position in a call (self not counted)
	for i, p := range r.kids(params) {
		var pname string
		var tnode *node
		switch p.Kind() {
		case "identifier":
			pname = r.text(p)
			if i == 0 && pname == "self" {
				continue
			}
		case "typed_parameter":
			pname = r.text(r.kids(p)[0])
			tnode = p.ChildByFieldId(fldType)
		default:
			r.fail(p, "unsupported parameter form %s (expected name: Type)", r.text(p))
		}
		if tnode == nil {
			r.fail(p, "parameter %s of %s needs a type annotation", pname, name)
		}
		idx++
		dir := ir.In
		var t any
		if d, head := r.bareHead(tnode); head != "" {
			st, ok := r.specialized(name, idx, head, pname, tnode)
			if !ok && head == "pld.DistributedTensor" {
				r.fail(tnode, "parameter %s of %s is a bare pld.DistributedTensor: @pl.jit takes its shape from the window a call passes, and no call of %s from another function passes one; annotate it, pld.DistributedTensor[[1, 256], pl.FP32]", pname, name, name)
			}
			if !ok {
				how := "or annotate it, pl.Tensor[[128, 128], pl.FP32]"
				if r.mod != nil && r.mod.entries[name] {
					how = fmt.Sprintf("annotate it, pl.Tensor[[128, 128], pl.FP32], or size the call from Go with mod.Specialize(%q, tensors...)", name)
				}
				r.fail(tnode, "parameter %s of %s is a bare pl.Tensor: @pl.jit takes its shape from the tensor a call passes, and no call of %s in the file (at module level, under __main__ or in a plain function) passes one ptorepl can size (a = torch.zeros((128, 128), dtype=torch.float32)); %s", pname, name, name, how)
			}
			t = st
			if d != ir.In {
				t = dirType{d, st}
			}
		} else {
			t = r.evalType(tnode, fenv, nil)
		}
		if dt, ok := t.(dirType); ok {
			dir = dt.dir
			t = dt.t
		}
		if dt, isDType := t.(ir.DataType); isDType {
			t = ir.Scalar(dt) // scale: pl.FP32, as @pl.jit signatures write a scalar
		}
		ty, ok := t.(ir.Type)
		if !ok {
			r.fail(tnode, "parameter %s: expected a type, given %s", pname, describe(t))
		}
		if authoring && dec == nil {
			// pld.DistributedTensor parameters are in-out in the authoring form.
			if _, isDist := ty.(*ir.DistributedTensorType); isDist && dir == ir.In {
				dir = ir.InOut
			}
		}
		for _, q := range fn.Params {
			if q.Name == pname {
				r.fail(p, "duplicate parameter %s", pname)
			}
		}
		v := ir.NewVar(pname, ty, r.pos(p))
		fn.Params = append(fn.Params, v)
		fn.Dirs = append(fn.Dirs, dir)
		fenv.vars[pname] = v
		if st, isScalar := ty.(*ir.ScalarType); isScalar && dec == nil && authoring {
			if c, ok := r.specializedScalar(name, idx, st); ok {
				fenv.vars[pname] = c
			}
		}
	}
	if rt := def.ChildByFieldId(fldReturnType); rt != nil {
		fn.ReturnTypes = r.returnTypes(rt, fenv)
	}
	return fn, fenv
}

func (r *reader) returnTypes(n *node, e *env) []ir.Type {
	if n.Kind() == "type" {
		n = r.kids(n)[0]
	}
	if n.Kind() == "subscript" && r.dotted(n.ChildByFieldId(fldValue)) == "tuple" {
		var out []ir.Type
		for _, s := range r.subscriptArgs(n) {
			out = append(out, r.typeOf(s, e, nil))
		}
		return out
	}
	// tuple[A, B] as a return annotation is a generic type to the grammar
	// (upstream's examples write it so, one type per line).
	if n.Kind() == "generic_type" && r.text(n.NamedChild(0)) == "tuple" {
		var out []ir.Type
		if tp := n.NamedChild(1); tp != nil {
			for _, s := range r.kids(tp) {
				if s.Kind() == "type" {
					s = r.kids(s)[0]
				}
				out = append(out, r.typeOf(s, e, nil))
			}
		}
		return out
	}
	if n.Kind() == "none" {
		return nil
	}
	return []ir.Type{r.typeOf(n, e, nil)}
}

func (r *reader) typeOf(n *node, e *env, fc *fnCtx) ir.Type {
	v := r.evalType(n, e, fc)
	t, ok := v.(ir.Type)
	if !ok {
		r.fail(n, "expected a type, given %s", describe(v))
	}
	return t
}

// evalType evaluates a type annotation (a "type" node or an expression).
func (r *reader) evalType(n *node, e *env, fc *fnCtx) value {
	if n.Kind() == "type" {
		n = r.kids(n)[0]
	}
	return r.evalIn(n, e, fc)
}

func (r *reader) subscriptArgs(n *node) []*node {
	return n.ChildrenByField(fldSubscript)
}

var domainRE = regexp.MustCompile(`^pld\.comm_domain: devices=(all|\[[0-9, ]*\]), slots=\[([A-Za-z0-9_, ]*)\]$`)

// body reads a function body.
func (fc *fnCtx) body(def *node) {
	r := fc.r
	blk := def.ChildByFieldId(fldBody)
	if fc.fn.Level == ir.LevelHost && fc.fn.Role == ir.SubWorker {
		fc.hostBody(def, blk)
		return
	}
	lead := r.commentsBefore(def, blk)
	fc.fn.Body = &ir.SeqStmts{Stmts: fc.block(blk, nil, lead, true)}
}

// hostBody reads the body of a HOST-level SubWorker as upstream does: not
// as PyPTO but as host Python, kept as its source (Function.HostPython),
// or, when it is only `...` (after a docstring and pl.func_attr lines), as
// an abstract callback the run binds (Function.RuntimeBound).
func (fc *fnCtx) hostBody(def, blk *node) {
	r := fc.r
	fc.fn.Body = &ir.SeqStmts{}
	var rest []*node
	for _, c := range r.kids(blk) {
		switch {
		case isFuncAttr(r, c):
			fc.funcAttr(r.kids(c)[0])
		case c.Kind() == "expression_statement" && len(r.kids(c)) == 1 && r.kids(c)[0].Kind() == "string" && len(rest) == 0:
			// a docstring
		default:
			rest = append(rest, c)
		}
	}
	if len(rest) == 1 && rest[0].Kind() == "expression_statement" && len(r.kids(rest[0])) == 1 && r.kids(rest[0])[0].Kind() == "ellipsis" {
		fc.fn.RuntimeBound = true
		return
	}
	// The source from the line of the body's first comment or statement.
	start := blk.StartByte()
	if lead := r.commentsBefore(def, blk); len(lead) > 0 {
		start = lead[0].node.StartByte()
	}
	if def.StartPosition().Row < pointRow(r.src, start) {
		for start > 0 && r.src[start-1] != '\n' {
			start--
		}
	}
	fc.fn.HostPython = dedent(string(r.src[start:blk.EndByte()]))
}

// pointRow is the 0-based line of byte offset off.
func pointRow(src []byte, off uint32) uint32 {
	return uint32(bytes.Count(src[:off], []byte("\n")))
}

// dedent removes the indentation every non-blank line shares, and
// trailing spaces.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if common < 0 || n < common {
			common = n
		}
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			lines[i] = ""
			continue
		}
		lines[i] = strings.TrimRight(l[max(common, 0):], " \t")
	}
	return strings.Join(lines, "\n")
}

type comment struct {
	text string
	node *node
}

// commentsBefore lists comments that are children of parent and precede
// body (tree-sitter hangs a block's first comments on its parent).
func (r *reader) commentsBefore(parent, body *node) []comment {
	var out []comment
	if body == nil {
		return nil
	}
	for i := uint(0); i < parent.NamedChildCount(); i++ {
		c := parent.NamedChild(i)
		if c.Kind() == "comment" && c.StartByte() < body.StartByte() && c.StartPosition().Row > parent.StartPosition().Row {
			out = append(out, comment{commentText(r.text(c)), c})
		}
	}
	return out
}

func commentText(t string) string {
	t = strings.TrimPrefix(t, "#")
	return strings.TrimPrefix(t, " ")
}

// domainComment records a "# pld.comm_domain: ..." line of a host
// orchestrator; it reports whether c was one.
func (fc *fnCtx) domainComment(c comment) bool {
	if !fc.fn.IsHostOrchestrator() {
		return false
	}
	m := domainRE.FindStringSubmatch(c.text)
	if m == nil {
		return false
	}
	d := domainLine{all: m[1] == "all", node: c.node}
	if !d.all {
		for _, s := range strings.Split(strings.Trim(m[1], "[]"), ",") {
			if s = strings.TrimSpace(s); s != "" {
				v, _ := strconv.ParseInt(s, 10, 64)
				d.devs = append(d.devs, v)
			}
		}
	}
	for _, s := range strings.Split(m[2], ",") {
		if s = strings.TrimSpace(s); s != "" {
			d.slots = append(d.slots, s)
		}
	}
	fc.domains = append(fc.domains, d)
	fc.r.domainsOf[fc.fn] = fc
	return true
}

func (fc *fnCtx) funcAttr(c *node) {
	r := fc.r
	args := r.kids(c.ChildByFieldId(fldArguments))
	if len(args) != 1 || args[0].Kind() != "dictionary" {
		r.fail(c, "pl.func_attr takes one dict literal")
	}
	for _, p := range r.kids(args[0]) {
		if p.Kind() != "pair" {
			r.fail(p, "pl.func_attr: expected key: value")
		}
		k, ok := r.eval(p.ChildByFieldId(fldKey), fc.env).(string)
		if !ok {
			r.fail(p, "pl.func_attr: keys are strings")
		}
		if kw, keep := attrKwarg(k, r.attrValue(p.ChildByFieldId(fldValue), fc)); keep {
			fc.fn.Attrs = append(fc.fn.Attrs, kw)
		}
	}
}

// attrKwarg is the function attribute k: v, a split mode stored as its
// number (as outlining stores it); keep is false for a NONE split, which
// upstream's parser drops.
func attrKwarg(k string, v any) (kw ir.Kwarg, keep bool) {
	if m, ok := v.(ir.SplitMode); ok {
		v = int64(m)
	}
	if n, ok := v.(int64); ok && k == "split" && n == int64(ir.SplitNone) {
		return kw, false
	}
	return ir.Kwarg{Key: k, Value: v}, true
}

func (r *reader) attrValue(n *node, fc *fnCtx) any {
	v := r.evalIn(n, fc.env, fc)
	switch x := v.(type) {
	case pyList:
		var dirs []ir.ArgDirection
		for _, y := range x {
			d, ok := y.(ir.ArgDirection)
			if !ok {
				return r.toExpr(n, v)
			}
			dirs = append(dirs, d)
		}
		return dirs
	case ir.Expr, int64, bool, string, float64, ir.DataType, ir.MemorySpace, ir.TileLayout, ir.TensorLayout, ir.PadValue, ir.SplitMode:
		return x
	}
	r.fail(n, "unsupported attribute value %s", describe(v))
	return nil
}

// commGroups rebuilds the program's comm groups from the comm-domain
// comments and retypes each window view to carry its buffer, as
// CollectCommGroups does.
func (r *reader) commGroups(pc *progCtx, nodes map[*ir.Function]*node) {
	for fi, fn := range pc.prog.Functions {
		fc := r.domainsOf[fn]
		if fc == nil || len(fc.domains) == 0 {
			continue
		}
		allocs := map[string]*ir.AssignStmt{}
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			if a, ok := s.(*ir.AssignStmt); ok {
				if c, ok := a.Value.(*ir.Call); ok && c.Op == ir.PldTensorAllocWindowBuffer {
					allocs[a.Var.Name] = a
				}
			}
		})
		wbs := map[*ir.Var]*ir.WindowBuffer{}
		for _, d := range fc.domains {
			g := &ir.CommGroup{}
			if !d.all {
				g.Devices = d.devs
			}
			for _, s := range d.slots {
				a := allocs[s]
				if a == nil {
					r.fail(d.node, "comm domain slot %s is not a pld.tensor.alloc_window_buffer of %s", s, fn.Name)
				}
				wb := ir.NewWindowBuffer(a.Var, passes.WindowBufferSize(fn, a.Value.(*ir.Call).Args[0]), false, false, a.Pos)
				wbs[a.Var] = wb
				g.Slots = append(g.Slots, wb)
			}
			pc.prog.CommGroups = append(pc.prog.CommGroups, g)
		}
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			a, ok := s.(*ir.AssignStmt)
			if !ok {
				return
			}
			c, ok := a.Value.(*ir.Call)
			if !ok || c.Op != ir.PldTensorWindow {
				return
			}
			base, ok := ir.VarOf(c.Args[0])
			if !ok || wbs[base] == nil {
				return
			}
			dt, ok := a.Var.T.(*ir.DistributedTensorType)
			if !ok {
				return
			}
			cp := *dt
			cp.Window = wbs[base]
			a.Var.T = &cp
			c.T = &cp
		})
		// The rest of each lineage (rebinds, loop-carried values) carries
		// the buffer too, as after MaterializeCommDomainScopes.
		pc.prog.Functions[fi] = passes.WithWindowBuffers(fn, wbs)
	}
}

// calleesFirst orders a class's methods so each comes after the methods it
// calls through self.
func calleesFirst[T any](r *reader, xs []T, key func(T) (string, *node)) []T {
	byName := map[string]int{}
	for i, x := range xs {
		n, _ := key(x)
		byName[n] = i
	}
	state := make([]int, len(xs))
	var out []T
	var visit func(i int)
	visit = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		_, root := key(xs[i])
		var walk func(n *node)
		walk = func(n *node) {
			if n.Kind() == "call" {
				if name, ok := strings.CutPrefix(r.dotted(n.ChildByFieldId(fldFunction)), "self."); ok {
					if j, ok := byName[name]; ok {
						visit(j)
					}
				}
			}
			for k := uint(0); k < n.NamedChildCount(); k++ {
				walk(n.NamedChild(k))
			}
		}
		walk(root)
		out = append(out, xs[i])
	}
	for i := range xs {
		visit(i)
	}
	return out
}

// decoratorAttrs reads @pl.function(attrs={...}): string keys, values a
// function attribute holds (a split mode is stored as its number, as
// outlining stores it).
func (r *reader) decoratorAttrs(d *node, e *env) ir.Kwargs {
	var out ir.Kwargs
	for _, p := range r.kids(d) {
		if p.Kind() != "pair" {
			r.fail(p, "@pl.function attrs: expected key: value")
		}
		k, ok := r.eval(p.ChildByFieldId(fldKey), e).(string)
		if !ok {
			r.fail(p, "@pl.function attrs: keys are strings")
		}
		switch v := r.eval(p.ChildByFieldId(fldValue), e).(type) {
		case ir.SplitMode, int64, bool, string, float64, ir.DataType:
			if kw, keep := attrKwarg(k, v); keep {
				out = append(out, kw)
			}
		default:
			r.fail(p.ChildByFieldId(fldValue), "@pl.function attrs: unsupported attribute value %s", describe(v))
		}
	}
	return out
}

// strictKwarg reads strict_ssa= from a decorator call (dec may be a bare
// name: false).
func (r *reader) strictKwarg(dec *node, what string) bool {
	if dec == nil || dec.Kind() != "call" {
		return false
	}
	strict := false
	for _, a := range r.kids(dec.ChildByFieldId(fldArguments)) {
		if a.Kind() != "keyword_argument" || r.text(a.ChildByFieldId(fldName)) != "strict_ssa" {
			continue
		}
		b, ok := r.eval(a.ChildByFieldId(fldValue), r.globalEnv()).(bool)
		if !ok {
			r.fail(a, "%s: strict_ssa= takes True or False, given %s", what, r.text(a.ChildByFieldId(fldValue)))
		}
		strict = b
	}
	return strict
}
