// Package printer writes ptorepl IR in PyPTO's Python syntax, byte for byte as
// PyPTO's IRPythonPrinter prints it in raw (unformatted) mode: the program
// header (with the pld import whenever the body spells pld., so a printed
// program is self-contained Python), dynamic-dimension declarations, decorators with derived level and
// role, signatures with pl.Out/pl.InOut, every statement form, name-clash
// renaming, and the comm-domain comment of host orchestrators.
//
// Types and expressions print through ir.Formatter; this package adds
// statements, functions, programs and the per-function rename map.
package printer

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Options select the printing mode.
type Options struct {
	// Prefix is the alias of pypto.language ("pl" when empty).
	Prefix string
	// Concise drops the ": T" annotation on assignments and yield targets.
	Concise bool
	// ExplicitLayout prints implicit tile views in full and marks distributed
	// types with their window buffer.
	ExplicitLayout bool
	// SourceNames prints every variable under the name it was given, as the
	// program's source wrote it, instead of PyPTO's clash renaming (§8: a
	// rebinding of data prints as data_1). Before ConvertToSSA the result
	// reads like the Python source and means the same thing.
	SourceNames bool
}

func (o Options) prefix() string {
	if o.Prefix == "" {
		return "pl"
	}
	return o.Prefix
}

// Program prints a program in the default mode.
func Program(p *ir.Program) string { return ProgramWith(p, Options{}) }

// Function prints one function (outside a class, so at indent 0).
func Function(f *ir.Function) string { return FunctionWith(f, Options{}) }

// Type prints a type.
func Type(t ir.Type) string { return TypeWith(t, Options{}) }

// Expr prints an expression.
func Expr(e ir.Expr) string { return ExprWith(e, Options{}) }

// Stmt prints a statement at indent 0.
func Stmt(s ir.Stmt) string { return StmtWith(s, Options{}) }

// TypeWith prints a type in the given mode.
func TypeWith(t ir.Type, o Options) string {
	return (&ir.Formatter{Prefix: o.prefix(), Explicit: o.ExplicitLayout}).Type(t)
}

// ExprWith prints an expression in the given mode.
func ExprWith(e ir.Expr, o Options) string {
	return (&ir.Formatter{Prefix: o.prefix(), Explicit: o.ExplicitLayout}).Expr(e)
}

// StmtWith prints a statement in the given mode, naming variables by their hints.
func StmtWith(s ir.Stmt, o Options) string {
	p := newPrinter(o, nil)
	p.funcIndent = -1
	p.stmt(s, 0, nil)
	return strings.TrimSuffix(p.b.String(), "\n")
}

// FunctionWith prints one function in the given mode.
func FunctionWith(f *ir.Function, o Options) string {
	p := newPrinter(o, nil)
	p.function(f, 0, false)
	return strings.TrimSuffix(p.b.String(), "\n")
}

// ProgramWith prints a program in the given mode.
func ProgramWith(prog *ir.Program, o Options) string {
	p := newPrinter(o, prog)
	name := prog.Name
	if name == "" {
		name = "Program"
	}
	pre := o.prefix()
	dyn := p.dynList
	for _, v := range dyn {
		fmt.Fprintf(&p.b, "%s = %s.dynamic(%q)\n", v.Name, pre, v.Name)
	}
	if len(dyn) > 0 {
		p.b.WriteString("\n")
	}
	fmt.Fprintf(&p.b, "@%s.program\nclass %s:\n", pre, name)
	funcs := topoOrder(prog)
	if len(funcs) == 0 {
		p.b.WriteString("    pass\n")
	}
	for _, f := range funcs {
		p.function(f, 1, true)
	}
	// The header comes last because its imports depend on the body (#2487):
	// every distributed spelling is hard-coded as "pld." whatever the prefix,
	// so the body needs the pld import exactly when the text contains "pld.".
	// With it a printed program is self-contained Python.
	body := p.b.String()
	var h strings.Builder
	fmt.Fprintf(&h, "# pypto.program: %s\n", name)
	if pre == "pl" {
		h.WriteString("import pypto.language as pl\n")
	} else {
		fmt.Fprintf(&h, "from pypto import language as %s\n", pre)
	}
	if strings.Contains(body, "pld.") {
		h.WriteString("import pypto.language.distributed as pld\n")
	}
	h.WriteString("\n")
	h.WriteString(body)
	return strings.TrimSuffix(h.String(), "\n")
}

type printer struct {
	o     Options
	prog  *ir.Program
	b     strings.Builder
	fmt   *ir.Formatter
	names map[*ir.Var]string
	dyn   map[*ir.Var]bool
	// dynList is dyn in declaration order (computed once: it walks the
	// whole program).
	dynList []*ir.Var
	// funcIndent is the indent of the function body being printed: a yield
	// there prints as return.
	funcIndent int
}

func newPrinter(o Options, prog *ir.Program) *printer {
	p := &printer{o: o, prog: prog, dyn: map[*ir.Var]bool{}}
	if prog != nil {
		p.dynList = dynamicVars(prog)
		for _, v := range p.dynList {
			p.dyn[v] = true
		}
	}
	p.fmt = &ir.Formatter{Prefix: o.prefix(), Explicit: o.ExplicitLayout, VarName: p.name}
	return p
}

func (p *printer) name(v *ir.Var) string {
	if n, ok := p.names[v]; ok {
		return n
	}
	return v.Name
}

func (p *printer) line(indent int, s string) {
	p.b.WriteString(strings.Repeat("    ", indent))
	p.b.WriteString(s)
	p.b.WriteString("\n")
}

// topoOrder lists functions callees first, otherwise by name.
func topoOrder(prog *ir.Program) []*ir.Function {
	byName := map[string]*ir.Function{}
	names := make([]string, 0, len(prog.Functions))
	for _, f := range prog.Functions {
		byName[f.Name] = f
		names = append(names, f.Name)
	}
	sort.Strings(names)
	seen := map[string]bool{}
	var out []*ir.Function
	var visit func(name string)
	visit = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		f := byName[name]
		for _, c := range callees(f) {
			if byName[c] != nil {
				visit(c)
			}
		}
		out = append(out, f)
	}
	for _, n := range names {
		visit(n)
	}
	return out
}

func callees(f *ir.Function) []string {
	set := map[string]bool{}
	ir.Preorder(f.Body, []ir.Node{(*ir.Call)(nil)}, func(n ir.Node) {
		if c := n.(*ir.Call); c.Fn != nil {
			set[c.Fn.Name] = true
		}
	})
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (p *printer) function(f *ir.Function, indent int, inClass bool) {
	p.names = nil
	if !p.o.SourceNames {
		p.names = renameMap(f, p.dyn)
	}
	pre := p.o.prefix()
	p.line(indent, decorator(f, pre))
	var params []string
	if inClass && f.Role != ir.SubWorker {
		params = append(params, "self")
	}
	p.fmt.InSignature = true
	for i, v := range f.Params {
		t := p.fmt.Type(v.Type())
		switch f.Direction(i) {
		case ir.Out:
			t = pre + ".Out[" + t + "]"
		case ir.InOut:
			t = pre + ".InOut[" + t + "]"
		}
		params = append(params, p.name(v)+": "+t)
	}
	ret := ""
	switch len(f.ReturnTypes) {
	case 0:
	case 1:
		ret = " -> " + p.fmt.Type(f.ReturnTypes[0])
	default:
		parts := make([]string, len(f.ReturnTypes))
		for i, t := range f.ReturnTypes {
			parts[i] = p.fmt.Type(t)
		}
		ret = " -> tuple[" + strings.Join(parts, ", ") + "]"
	}
	p.line(indent, fmt.Sprintf("def %s(%s)%s:", f.Name, strings.Join(params, ", "), ret))
	p.fmt.InSignature = false
	defined := bodyDefined(f)
	p.fmt.BodyDefined = func(v *ir.Var) bool { return defined[v] }
	body := indent + 1
	p.funcIndent = body
	if len(f.Attrs) > 0 {
		var attrs []string
		for _, kv := range f.Attrs {
			if kv.Key == "auto_scope" || kv.Key == "external_source" {
				continue
			}
			value := p.fmt.KwargValue(-1, kv.Value)
			if n, ok := kv.Value.(int64); ok && kv.Key == "split" {
				// Stored as its number, printed by name; a stored 0 is "no
				// split", which upstream's printer leaves out.
				if n == int64(ir.SplitNone) {
					continue
				}
				value = pre + ".SplitMode." + ir.SplitMode(n).String()
			}
			attrs = append(attrs, fmt.Sprintf("%q: %s", kv.Key, value))
		}
		if len(attrs) > 0 {
			p.line(body, pre+".func_attr({"+strings.Join(attrs, ", ")+"})")
		}
	}
	p.commDomains(f, body)
	switch {
	case f.RuntimeBound:
		// A runtime-bound callback: upstream prints (and reads) its body as `...`.
		p.line(body, "...")
		return
	case f.HostPython != "":
		// Host Python, kept as written.
		for _, l := range strings.Split(f.HostPython, "\n") {
			if strings.TrimSpace(l) == "" {
				p.b.WriteString("\n")
				continue
			}
			p.line(body, l)
		}
		return
	}
	stmts := ir.Flatten(f.Body)
	if len(stmts) == 0 {
		p.line(body, "pass")
	}
	for _, s := range stmts {
		p.stmt(s, body, nil)
	}
}

func decorator(f *ir.Function, pre string) string {
	var parts []string
	if f.Kind != ir.Opaque {
		parts = append(parts, "type="+pre+".FunctionType."+f.Kind.String())
	}
	if f.Level != ir.LevelNone {
		parts = append(parts, "level="+pre+".Level."+f.Level.String())
	}
	if f.Role != ir.RoleNone {
		parts = append(parts, "role="+pre+".Role."+f.Role.String())
	}
	for _, kv := range f.Attrs {
		switch kv.Key {
		case "auto_scope":
			if b, ok := kv.Value.(bool); ok {
				parts = append(parts, "auto_scope="+map[bool]string{true: "True", false: "False"}[b])
			}
		case "external_source":
			if s, ok := kv.Value.(string); ok {
				parts = append(parts, fmt.Sprintf("external_source=%q", s))
			}
		}
	}
	if len(parts) == 0 {
		return "@" + pre + ".function"
	}
	return "@" + pre + ".function(" + strings.Join(parts, ", ") + ")"
}

// commDomains prints, at the top of a host orchestrator, one comment per comm
// group whose slots this function allocates.
func (p *printer) commDomains(f *ir.Function, indent int) {
	if p.prog == nil || !f.IsHostOrchestrator() || len(p.prog.CommGroups) == 0 {
		return
	}
	defined := bodyDefined(f)
	for _, g := range p.prog.CommGroups {
		var slots []string
		mine := false
		for _, wb := range g.Slots {
			slots = append(slots, p.name(wb.Base))
			if defined[wb.Base] {
				mine = true
			}
		}
		if !mine {
			continue
		}
		devices := "all"
		if len(g.Devices) > 0 {
			ds := make([]string, len(g.Devices))
			for i, d := range g.Devices {
				ds[i] = fmt.Sprint(d)
			}
			devices = "[" + strings.Join(ds, ", ") + "]"
		}
		p.line(indent, fmt.Sprintf("# pld.comm_domain: devices=%s, slots=[%s]", devices, strings.Join(slots, ", ")))
	}
}

// stmt prints s; rv are the return vars a yield in this block binds.
func (p *printer) stmt(s ir.Stmt, indent int, rv []*ir.Var) {
	for _, c := range s.Comments() {
		p.line(indent, "# "+c)
	}
	switch s := s.(type) {
	case *ir.SeqStmts:
		for _, c := range s.Stmts {
			p.stmt(c, indent, rv)
		}
	case *ir.AssignStmt:
		p.line(indent, p.target(s.Var)+" = "+p.fmt.Expr(s.Value))
	case *ir.EvalStmt:
		p.line(indent, p.fmt.Expr(s.Expr))
	case *ir.ReturnStmt:
		if len(s.Values) == 0 {
			p.line(indent, "return")
		} else {
			p.line(indent, "return "+p.exprs(s.Values))
		}
	case *ir.YieldStmt:
		p.yield(s, indent, rv)
	case *ir.IfStmt:
		p.line(indent, "if "+p.fmt.Expr(s.Cond)+":")
		p.block(s.Then, indent+1, s.ReturnVars)
		if s.Else != nil {
			p.line(indent, "else:")
			p.block(s.Else, indent+1, s.ReturnVars)
		}
	case *ir.ForStmt:
		p.forStmt(s, indent)
	case *ir.WhileStmt:
		p.whileStmt(s, indent)
	case *ir.BreakStmt:
		p.line(indent, "break")
	case *ir.ContinueStmt:
		p.line(indent, "continue")
	case *ir.ScopeStmt:
		if s.Kind == ir.ScopeSpmd {
			p.spmd(s, indent, rv)
			return
		}
		if s.Kind == ir.ScopeSplitAiv {
			p.splitAiv(s, indent, rv)
			return
		}
		h := p.scopeHeader(s)
		if s.TaskID != nil {
			h += " as " + p.name(s.TaskID)
		}
		p.line(indent, "with "+h+":")
		p.block(s.Body, indent+1, rv)
	default:
		p.line(indent, fmt.Sprintf("# <unprintable %T>", s))
	}
}

// spmd prints an Spmd launch as upstream does: the loop form
// `for i in pl.spmd(n):` when its body is an InCore scope that starts by
// binding i to tile.get_block_idx() (the body, less that binding, and the
// InCore scope's optimizations go with it), else `with pl.spmd(n):` over
// the body as it is.
func (p *printer) spmd(s *ir.ScopeStmt, indent int, rv []*ir.Var) {
	pre := p.o.prefix()
	args := []string{p.fmt.Expr(s.CoreNum)}
	if s.SyncStart {
		args = append(args, "sync_start=True")
	}
	if s.NameHint != "" {
		args = append(args, "name_hint="+strconv.Quote(s.NameHint))
	}
	task := p.taskArgs(s)
	if idx, inner, rest := ir.SpmdLoopForm(s); idx != nil && s.TaskID == nil {
		if opts := scopeOptimizations(inner, pre); opts != "" {
			args = append(args, opts)
		}
		args = append(args, task...)
		p.line(indent, "for "+idx.Name+" in "+pre+".spmd("+strings.Join(args, ", ")+"):")
		if len(rest) == 0 {
			p.line(indent+1, "pass")
			return
		}
		p.block(&ir.SeqStmts{StmtBase: ir.StmtBase{Pos: inner.Body.Span()}, Stmts: rest}, indent+1, rv)
		return
	}
	h := "with " + pre + ".spmd(" + strings.Join(append(args, task...), ", ") + ")"
	if s.TaskID != nil {
		h += " as " + p.name(s.TaskID)
	}
	p.line(indent, h+":")
	p.block(s.Body, indent+1, rv)
}

// splitAiv prints a vector-lane region in upstream's loop form, `for
// aiv_id in pl.split_aiv(2, mode=pl.SplitMode.X):`, the lane binding
// standing for the loop variable and the region's mode for its ops' split
// kwargs.
func (p *printer) splitAiv(s *ir.ScopeStmt, indent int, rv []*ir.Var) {
	pre := p.o.prefix()
	idx, rest := ir.SplitAivLoopForm(s)
	name := "aiv_id"
	if idx != nil {
		name = p.name(idx)
	}
	p.line(indent, "for "+name+" in "+pre+".split_aiv(2, mode="+pre+".SplitMode."+s.Split.String()+"):")
	if len(rest) == 0 {
		p.line(indent+1, "pass")
		return
	}
	outer := p.fmt.InRegion
	p.fmt.InRegion = true
	p.block(&ir.SeqStmts{StmtBase: s.StmtBase, Stmts: rest}, indent+1, rv)
	p.fmt.InRegion = outer
}

// scopeHeader is the call a scope prints as, upstream's spelling:
// pl.scope() / pl.scope(mode=pl.ScopeMode.MANUAL), pl.cluster(), or pl.at with its level
// (CORE_GROUP for an InCore scope), role, optimizations and name_hint when
// given, then deps=[...].
func (p *printer) scopeHeader(s *ir.ScopeStmt) string {
	pre := p.o.prefix()
	switch s.Kind {
	case ir.ScopeRuntime:
		if s.Manual {
			return pre + ".scope(mode=" + pre + ".ScopeMode.MANUAL)"
		}
		return pre + ".scope()"
	case ir.ScopeCluster:
		if s.NameHint != "" {
			return pre + ".cluster(name_hint=" + strconv.Quote(s.NameHint) + ")"
		}
		return pre + ".cluster()"
	}
	level := s.Level
	if s.Kind == ir.ScopeInCore {
		level = ir.LevelCoreGroup
	}
	h := pre + ".at(level=" + pre + ".Level." + level.String()
	if s.Kind == ir.ScopeHierarchy && s.Role != ir.RoleNone {
		h += ", role=" + pre + ".Role." + s.Role.String()
	}
	if opts := scopeOptimizations(s, pre); opts != "" {
		h += ", " + opts
	}
	if s.NameHint != "" {
		h += ", name_hint=" + strconv.Quote(s.NameHint)
	}
	for _, a := range p.taskArgs(s) {
		h += ", " + a
	}
	if s.Windowize {
		h += ", windowize=True"
	}
	return h + ")"
}

// taskArgs are a launching scope's place in the task graph, as its
// header's keyword arguments: deps=[...], no_dep_args=[...], dumps=[...],
// allow_early_resolve=True, predicate=(...).
func (p *printer) taskArgs(s *ir.ScopeStmt) []string {
	var out []string
	if len(s.Deps) > 0 {
		out = append(out, "deps="+p.fmt.Expr(&ir.MakeTuple{Elems: s.Deps}))
	}
	if len(s.NoDepArgs) > 0 {
		out = append(out, "no_dep_args="+p.fmt.Expr(&ir.MakeTuple{Elems: s.NoDepArgs}))
	}
	if len(s.Dumps) > 0 {
		out = append(out, "dumps="+p.fmt.Expr(&ir.MakeTuple{Elems: s.Dumps}))
	}
	if s.AllowEarlyResolve {
		out = append(out, "allow_early_resolve=True")
	}
	if s.Predicate != nil {
		out = append(out, "predicate=("+p.fmt.Expr(s.Predicate)+")")
	}
	return out
}

// scopeOptimizations is an InCore scope's optimizations=[...] argument
// ("" when it has none).
func scopeOptimizations(s *ir.ScopeStmt, pre string) string {
	var opts []string
	if s.Split != ir.SplitNone {
		opts = append(opts, pre+".split("+pre+".SplitMode."+s.Split.String()+")")
	}
	if s.SlotNum != 0 {
		opts = append(opts, fmt.Sprintf("%s.cross_core_slot(slot_num=%d)", pre, s.SlotNum))
	}
	if len(opts) == 0 {
		return ""
	}
	return "optimizations=[" + strings.Join(opts, ", ") + "]"
}

func (p *printer) block(s ir.Stmt, indent int, rv []*ir.Var) {
	stmts := ir.Flatten(s)
	if len(stmts) == 0 {
		p.line(indent, "pass")
		return
	}
	for _, c := range stmts {
		p.stmt(c, indent, rv)
	}
}

func (p *printer) target(v *ir.Var) string {
	if p.o.Concise {
		return p.name(v)
	}
	return p.name(v) + ": " + p.fmt.Type(v.Type())
}

func (p *printer) exprs(es []ir.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = p.fmt.Expr(e)
	}
	return strings.Join(parts, ", ")
}

func (p *printer) yield(s *ir.YieldStmt, indent int, rv []*ir.Var) {
	call := p.o.prefix() + ".yield_(" + p.exprs(s.Values) + ")"
	switch {
	case rv == nil && indent == p.funcIndent:
		p.line(indent, "return "+p.exprs(s.Values))
	case len(rv) == 0:
		p.line(indent, call)
	case len(rv) == 1:
		p.line(indent, p.target(rv[0])+" = "+call)
	default:
		names := make([]string, len(rv))
		for i, v := range rv {
			names[i] = p.name(v)
		}
		p.line(indent, strings.Join(names, ", ")+" = "+call)
	}
}

func (p *printer) forStmt(s *ir.ForStmt, indent int) {
	pre := p.o.prefix()
	args := rangeArgs(s, p.fmt)
	if len(s.IterArgs) > 0 {
		inits := make([]string, len(s.IterArgs))
		for i, ia := range s.IterArgs {
			inits[i] = p.fmt.Expr(ia.Init)
		}
		args = append(args, "init_values="+tuple(inits))
	}
	if s.Kind == ir.Pipeline {
		args = append(args, fmt.Sprintf("stage=%d", s.PipelineArg))
	}
	if len(s.Attrs) > 0 {
		items := make([]string, len(s.Attrs))
		for i, kv := range s.Attrs {
			items[i] = fmt.Sprintf("%q: %s", kv.Key, p.fmt.KwargValue(-1, kv.Value))
		}
		args = append(args, "attrs={"+strings.Join(items, ", ")+"}")
	}
	head := p.name(s.LoopVar)
	if len(s.IterArgs) > 0 {
		names := make([]string, len(s.IterArgs))
		for i, ia := range s.IterArgs {
			names[i] = p.name(&ia.Var)
		}
		head += ", " + tuple(names)
	}
	p.line(indent, fmt.Sprintf("for %s in %s.%s(%s):", head, pre, s.Kind.DSLName(), strings.Join(args, ", ")))
	p.block(s.Body, indent+1, s.ReturnVars)
}

// whileStmt prints `while cond:`, or in SSA form, as upstream does,
// `for (x,) in pl.while_(init_values=(x0,)):` with `pl.cond(cond)` as the
// body's first line.
func (p *printer) whileStmt(s *ir.WhileStmt, indent int) {
	if len(s.IterArgs) == 0 {
		p.line(indent, "while "+p.fmt.Expr(s.Cond)+":")
		p.block(s.Body, indent+1, s.ReturnVars)
		return
	}
	pre := p.o.prefix()
	names := make([]string, len(s.IterArgs))
	inits := make([]string, len(s.IterArgs))
	for i, ia := range s.IterArgs {
		names[i] = p.name(&ia.Var)
		inits[i] = p.fmt.Expr(ia.Init)
	}
	p.line(indent, fmt.Sprintf("for %s in %s.while_(init_values=%s):", tuple(names), pre, tuple(inits)))
	p.line(indent+1, pre+".cond("+p.fmt.Expr(s.Cond)+")")
	p.block(s.Body, indent+1, s.ReturnVars)
}

// tuple prints a Python tuple; one element gets a trailing comma.
func tuple(items []string) string {
	if len(items) == 1 {
		return "(" + items[0] + ",)"
	}
	return "(" + strings.Join(items, ", ") + ")"
}

func isIndexConst(e ir.Expr, v int64) bool {
	c, ok := e.(*ir.ConstInt)
	return ok && c.DType == ir.INDEX && c.Value == v
}

func rangeArgs(s *ir.ForStmt, f *ir.Formatter) []string {
	switch {
	case isIndexConst(s.Start, 0) && isIndexConst(s.Step, 1):
		return []string{f.Expr(s.Stop)}
	case isIndexConst(s.Step, 1):
		return []string{f.Expr(s.Start), f.Expr(s.Stop)}
	}
	return []string{f.Expr(s.Start), f.Expr(s.Stop), f.Expr(s.Step)}
}
