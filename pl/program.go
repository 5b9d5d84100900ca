package pl

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/printer"
)

// Program is a program under construction. PyPTO: @pl.program class Name.
type Program struct {
	st *dsl.ProgramState
}

// NewProgram starts an empty program.
func NewProgram(name string) *Program {
	if name == "" {
		name = "Program"
	}
	dsl.CheckName("pl.NewProgram", "name", name)
	p := &Program{st: &dsl.ProgramState{Prog: ir.NewProgram(name), Allocs: map[string]ir.Span{}}}
	dsl.NoteProgram(p.st.Prog)
	return p
}

// IR is the program's IR.
func (p *Program) IR() *ir.Program { return p.st.Prog }

// Source prints the program in PyPTO syntax with every variable under the
// name the cells gave it (no clash renaming), so it reads like the PyPTO
// source of the same program.
func (p *Program) Source() string {
	return printer.ProgramWith(p.st.Prog, printer.Options{SourceNames: true})
}

// String prints the program in PyPTO syntax.
func (p *Program) String() string { return printer.Program(p.st.Prog) }

// Function is a handle on a program function, for f.Call and f.Dispatch.
type Function struct {
	fn *ir.Function
}

// IR is the function's IR.
func (fn *Function) IR() *ir.Function { return fn.fn }

// Name is the function's name.
func (fn *Function) Name() string { return fn.fn.Name }

// String prints the function in PyPTO syntax.
func (fn *Function) String() string { return printer.Function(fn.fn) }

// InCore defines a kernel (PyPTO: @pl.function(type=pl.FunctionType.InCore)).
func (p *Program) InCore(name string, body func(f *Func)) *Function {
	return p.define(name, ir.InCore, ir.LevelNone, ir.RoleNone, body)
}

// Orchestration defines a per-device orchestration function.
func (p *Program) Orchestration(name string, body func(f *Func)) *Function {
	return p.define(name, ir.Orchestration, ir.LevelNone, ir.RoleNone, body)
}

// Host defines the host orchestrator (PyPTO: @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)).
func (p *Program) Host(name string, body func(f *Func)) *Function {
	return p.define(name, ir.Opaque, ir.LevelHost, ir.Orchestrator, body)
}

// Function defines a function of any type (PyPTO: @pl.function(type=...)).
func (p *Program) Function(name string, kind ir.FunctionType, body func(f *Func)) *Function {
	return p.define(name, kind, ir.LevelNone, ir.RoleNone, body)
}

func (p *Program) define(name string, kind ir.FunctionType, level ir.Level, role ir.Role, body func(f *Func)) *Function {
	pos := dsl.Caller()
	if name == "" {
		dsl.Failf("a function needs a name")
	}
	dsl.CheckName("prog."+kindMethod(kind, level), "name", name)
	if body == nil {
		dsl.Failf("function %s: the body callback is nil", name)
	}
	if p.st.Prog.Function(name) != nil {
		dsl.Failf("program %s already defines a function named %q", p.st.Prog.Name, name)
	}
	fn, err := ir.NewFunction(name, kind, level, role, pos)
	if err != nil {
		dsl.Failf("%v", err)
	}
	b := dsl.Begin(p.st, fn)
	func() {
		defer b.End()
		body(&Func{b: b})
	}()
	if err := p.st.Prog.AddFunction(fn); err != nil {
		dsl.Failf("%v", err)
	}
	dsl.NoteProgram(p.st.Prog)
	return &Function{fn: fn}
}

// SetAttr sets a function attribute (PyPTO: @pl.function(attrs={key:
// value})), such as "dual_aiv_dispatch" true for an AIV function whose
// body runs on both vector lanes.
func (f *Func) SetAttr(key string, value any) {
	dsl.CheckName("f.SetAttr", "key", key)
	if n, ok := value.(int); ok {
		value = int64(n)
	}
	f.b.Fn.Attrs = f.b.Fn.Attrs.With(key, value)
}

// Func builds one function's signature and body.
type Func struct {
	b *dsl.Builder
	// splits are the modes of the f.SplitAiv regions being built,
	// innermost last; cores counts the core scopes around the statement
	// being built (f.InCoreScope, f.SpmdFor).
	splits []ir.SplitMode
	cores  int
	// loops counts the f.For and f.While bodies being built (f.Break and
	// f.Continue need one).
	loops int
}

// Name is the function's name.
func (f *Func) Name() string { return f.b.Fn.Name }

func (f *Func) param(name string, t Type, dir ir.ParamDirection) Expr {
	if name == "" {
		dsl.Failf("function %s: a parameter needs a name", f.b.Fn.Name)
	}
	dsl.CheckName("f."+dirMethod(dir), "name", name)
	if t == nil {
		dsl.Failf("function %s: parameter %s needs a type", f.b.Fn.Name, name)
	}
	for _, p := range f.b.Fn.Params {
		if p.Name == name {
			dsl.Failf("function %s: duplicate parameter %q", f.b.Fn.Name, name)
		}
	}
	v := ir.NewVar(name, t, dsl.Caller())
	f.b.Declare(v)
	f.b.Fn.Params = append(f.b.Fn.Params, v)
	f.b.Fn.Dirs = append(f.b.Fn.Dirs, dir)
	return v
}

// In declares an input parameter. PyPTO: name: T.
func (f *Func) In(name string, t Type) Expr { return f.param(name, t, ir.In) }

// Out declares an output parameter. PyPTO: name: pl.Out[T].
func (f *Func) Out(name string, t Type) Expr { return f.param(name, t, ir.Out) }

// InOut declares an in-out parameter. PyPTO: name: pl.InOut[T].
func (f *Func) InOut(name string, t Type) Expr { return f.param(name, t, ir.InOut) }

// Scalar declares a scalar input parameter. PyPTO: name: pl.Scalar[dt].
func (f *Func) Scalar(name string, dt DataType) Expr { return f.param(name, Scalar(dt), ir.In) }

// Returns declares the return types. PyPTO: -> T.
func (f *Func) Returns(types ...Type) {
	for i, t := range types {
		if t == nil {
			dsl.Failf("function %s: return type %d is nil", f.b.Fn.Name, i)
		}
	}
	f.b.Fn.ReturnTypes = append([]ir.Type(nil), types...)
	if f.b.Returned != nil {
		f.checkReturn(f.b.Returned)
	}
}

// checkReturn matches returned values against f.Returns: the count, and
// each value's type (kind, dtype, static shape).
func (f *Func) checkReturn(es []ir.Expr) {
	rt := f.b.Fn.ReturnTypes
	if len(rt) == 0 {
		return
	}
	if len(rt) != len(es) {
		dsl.Raise(&ir.TypeError{Op: "f.Return", Expected: fmt.Sprintf("%d values (f.Returns of %s)", len(rt), f.b.Fn.Name), Given: fmt.Sprint(len(es))})
	}
	for i, e := range es {
		if why := mismatch(rt[i], e.Type()); why != "" {
			dsl.Raise(&ir.TypeError{Op: "f.Return", Arg: fmt.Sprintf("value %d", i),
				Expected: rt[i].String() + " (f.Returns of " + f.b.Fn.Name + ")", Given: e.Type().String() + " (" + why + ")"})
		}
	}
}

// Let binds name to the value of e and returns the new variable.
// PyPTO: name: T = e.
func (f *Func) Let(name string, e any) Expr {
	dsl.CheckName("f.Let", "name", name)
	pos := dsl.Caller()
	val := f.bindable(e, name)
	v := ir.NewVar(name, val.Type(), pos)
	f.b.Emit(&ir.AssignStmt{StmtBase: ir.StmtBase{Pos: pos}, Var: v, Value: val})
	return v
}

// bindable converts e for an assignment, naming a window-buffer allocation
// after its binding as PyPTO's parser does.
func (f *Func) bindable(e any, name string) ir.Expr {
	if c, ok := e.(*ir.Call); ok && c.Op == ir.PldTensorAllocWindowBuffer {
		if !f.b.Fn.IsHostOrchestrator() {
			dsl.Failf("pld.AllocWindowBuffer is only valid in a HOST orchestrator (prog.Host), not in %s function %s", f.b.Fn.Kind, f.b.Fn.Name)
		}
		if prev, dup := f.b.Prog.Allocs[name]; dup {
			dsl.Failf("window buffer %q already declared (at %s); buffer names are unique across the program", name, prev)
		}
		f.b.Prog.Allocs[name] = c.Pos
		named, err := c.Op.NewCall(c.Args, c.Kwargs.With("name", name), c.Pos)
		if err != nil {
			dsl.Raise(err)
		}
		return named
	}
	val := dsl.Expr(e, "f.Let "+name)
	if _, unk := val.Type().(*ir.UnknownType); unk {
		dsl.Failf("f.Let %s: %s has no value (it only has effects); use f.Do", name, ir.DefaultFormat.Expr(val))
	}
	return val
}

// Set rebinds v to the value of e: later uses of v mean the new value.
// PyPTO: v = e (a reassignment).
func (f *Func) Set(v Expr, e any) {
	pos := dsl.Caller()
	old, ok := v.(*ir.Var)
	if !ok {
		dsl.Failf("f.Set: the target must be a variable (from f.In, f.Let or a loop), got %s", ir.DefaultFormat.Expr(v))
	}
	cur := f.b.Resolve(old)
	val := f.bindable(e, cur.Name)
	nv := ir.NewVar(cur.Name, val.Type(), pos)
	f.b.Emit(&ir.AssignStmt{StmtBase: ir.StmtBase{Pos: pos}, Var: nv, Value: val})
	f.b.Rebind(old, nv)
}

// Do evaluates a call for its effects. PyPTO: an expression statement.
func (f *Func) Do(e any) {
	pos := dsl.Caller()
	val := dsl.Expr(e, "f.Do")
	if _, ok := val.(*ir.Call); !ok {
		dsl.Failf("f.Do: want a call, got %s", ir.DefaultFormat.Expr(val))
	}
	f.b.Emit(&ir.EvalStmt{StmtBase: ir.StmtBase{Pos: pos}, Expr: val})
}

// Return returns values from the function. PyPTO: return a, b.
func (f *Func) Return(vals ...any) {
	pos := dsl.Caller()
	es := make([]ir.Expr, len(vals))
	for i, v := range vals {
		es[i] = dsl.Expr(v, fmt.Sprintf("f.Return value %d", i))
	}
	f.checkReturn(es)
	f.b.Returned = es
	f.b.Emit(&ir.ReturnStmt{StmtBase: ir.StmtBase{Pos: pos}, Values: es})
}

// LoopRange is the iteration space of a For loop (from pl.Range, pl.Parallel or pl.Unroll).
type LoopRange struct {
	start, stop, step ir.Expr
	kind              ir.LoopKind
}

func makeRange(kind ir.LoopKind, what string, args []any) *LoopRange {
	r := &LoopRange{kind: kind, start: ir.Int(0), step: ir.Int(1)}
	switch len(args) {
	case 1:
		r.stop = dsl.Expr(args[0], what+" stop")
	case 2:
		r.start, r.stop = dsl.Expr(args[0], what+" start"), dsl.Expr(args[1], what+" stop")
	case 3:
		r.start, r.stop, r.step = dsl.Expr(args[0], what+" start"), dsl.Expr(args[1], what+" stop"), dsl.Expr(args[2], what+" step")
	default:
		dsl.Failf("%s takes 1 to 3 arguments (stop | start, stop | start, stop, step), got %d", what, len(args))
	}
	for _, e := range []ir.Expr{r.start, r.stop, r.step} {
		if st, ok := e.Type().(*ir.ScalarType); !ok || !st.DType.IsInt() {
			dsl.Failf("%s: bounds must be integer scalars, got %s", what, ir.Describe(e))
		}
	}
	if c, ok := r.step.(*ir.ConstInt); ok && c.Value == 0 {
		dsl.Failf("%s: step must not be 0", what)
	}
	for i, e := range []ir.Expr{r.start, r.stop} {
		if v, ok := ir.ConstValue(e); ok && v < 0 {
			dsl.Raise(&ir.TypeError{Op: what, Arg: []string{"start", "stop"}[i], Expected: "a non-negative bound", Given: fmt.Sprint(v)})
		}
	}
	return r
}

// Range is a sequential loop range. PyPTO: pl.range(stop) / pl.range(start, stop[, step]).
func Range(args ...any) *LoopRange { return makeRange(ir.Sequential, "pl.Range", args) }

// Parallel is a parallel loop range. PyPTO: pl.parallel(...).
func Parallel(args ...any) *LoopRange { return makeRange(ir.Parallel, "pl.Parallel", args) }

// Unroll is an unrolled loop range. PyPTO: pl.unroll(...).
func Unroll(args ...any) *LoopRange { return makeRange(ir.Unroll, "pl.Unroll", args) }

// For adds a loop whose variable is named name; body receives it.
// PyPTO: for name in pl.range(...):
func (f *Func) For(name string, r *LoopRange, body func(i Expr)) {
	pos := dsl.Caller()
	if r == nil {
		dsl.Failf("f.For %s: the range is nil (use pl.Range)", name)
	}
	if body == nil {
		dsl.Failf("f.For %s: the body callback is nil", name)
	}
	dsl.CheckName("f.For", "name", name)
	lv := ir.NewVar(name, ir.Scalar(ir.INDEX), pos)
	f.b.Declare(lv)
	blk := func() ir.Stmt {
		defer f.b.Undeclare(lv)
		f.loops++
		defer func() { f.loops-- }()
		return f.b.Block(func() { body(lv) })
	}()
	f.b.Emit(&ir.ForStmt{StmtBase: ir.StmtBase{Pos: pos}, LoopVar: lv, Start: r.start, Stop: r.stop, Step: r.step, Body: blk, Kind: r.kind})
}

// While adds `while cond:`. The condition reads the variables the body
// moves on with f.Set (ConvertToSSA carries them). PyPTO: while cond:
func (f *Func) While(cond any, body func()) {
	pos := dsl.Caller()
	if body == nil {
		dsl.Failf("f.While: the body callback is nil")
	}
	e := dsl.Expr(cond, "while condition")
	if st, ok := e.Type().(*ir.ScalarType); !ok || st.DType != ir.BOOL {
		dsl.Failf("a while condition must be a BOOL scalar (e.g. pl.Lt(i, n)), got %s", ir.Describe(e))
	}
	f.loops++
	blk := func() ir.Stmt {
		defer func() { f.loops-- }()
		return f.b.Block(body)
	}()
	f.b.Emit(&ir.WhileStmt{StmtBase: ir.StmtBase{Pos: pos}, Cond: e, Body: blk})
}

// Break leaves the innermost f.For or f.While. PyPTO: break
func (f *Func) Break() {
	if f.loops == 0 {
		dsl.Failf("f.Break outside a loop")
	}
	f.b.Emit(&ir.BreakStmt{StmtBase: ir.StmtBase{Pos: dsl.Caller()}})
}

// Continue starts the next iteration of the innermost f.For or f.While.
// PyPTO: continue
func (f *Func) Continue() {
	if f.loops == 0 {
		dsl.Failf("f.Continue outside a loop")
	}
	f.b.Emit(&ir.ContinueStmt{StmtBase: ir.StmtBase{Pos: dsl.Caller()}})
}

func (f *Func) cond(c any) ir.Expr {
	e := dsl.Expr(c, "if condition")
	if st, ok := e.Type().(*ir.ScalarType); !ok || st.DType != ir.BOOL {
		dsl.Failf("if condition must be a BOOL scalar (e.g. pl.Ne(peer, me)), got %s", ir.Describe(e))
	}
	return e
}

// If adds a conditional. PyPTO: if cond:
func (f *Func) If(cond any, then func()) {
	pos := dsl.Caller()
	c := f.cond(cond)
	blk := f.b.Block(then)
	f.b.Emit(&ir.IfStmt{StmtBase: ir.StmtBase{Pos: pos}, Cond: c, Then: blk})
}

// IfElse adds a two-way conditional. PyPTO: if cond: ... else: ...
func (f *Func) IfElse(cond any, then, els func()) {
	pos := dsl.Caller()
	c := f.cond(cond)
	t := f.b.Block(then)
	e := f.b.Block(els)
	f.b.Emit(&ir.IfStmt{StmtBase: ir.StmtBase{Pos: pos}, Cond: c, Then: t, Else: e})
}

// InCoreScope adds a region whose statements run as one kernel on a core;
// OutlineIncoreScopes makes it an InCore function (named nameHint, or
// <function>_incore_<n> when nameHint is "") and the region a call of it.
// Variables the body binds stay visible after it.
// PyPTO: with pl.at(level=pl.Level.CORE_GROUP, name_hint=nameHint): ...
func (f *Func) InCoreScope(nameHint string, body func()) {
	pos := dsl.Caller()
	if nameHint != "" {
		dsl.CheckName("f.InCoreScope", "nameHint", nameHint)
	}
	blk := f.coreBlock(body)
	f.b.Emit(&ir.ScopeStmt{StmtBase: ir.StmtBase{Pos: pos}, Kind: ir.ScopeInCore, Level: ir.LevelCoreGroup, Role: ir.RoleNone, NameHint: nameHint, Body: blk})
}

// coreBlock builds body as the statements of a core scope.
func (f *Func) coreBlock(body func()) ir.Stmt {
	f.cores++
	defer func() { f.cores-- }()
	return f.b.Block(body)
}

// Spmd launches its body as coreNum blocks. A body that calls a kernel
// launches that kernel once per block, and the kernel reads its block with
// pl.BlockIdx(); a body that reads pl.BlockIdx() itself is the kernel.
// The simulator runs the blocks one after another. PyPTO: with
// pl.spmd(coreNum): ...
func (f *Func) Spmd(coreNum any, body func()) {
	pos := dsl.Caller()
	s := f.spmdLaunch("f.Spmd", coreNum, pos)
	if body == nil {
		dsl.Failf("f.Spmd: the body callback is nil")
	}
	stmts := ir.Flatten(f.b.Block(body))
	switch ir.ClassifySpmdBody(stmts) {
	case ir.SpmdInline:
		stmts = []ir.Stmt{ir.SpmdKernel(s, ir.SplitNone, 0, stmts)}
	case ir.SpmdIdle:
		dsl.Failf("f.Spmd: the body neither reads pl.BlockIdx() nor calls a kernel, so every block would do the same work")
	}
	s.Body = &ir.SeqStmts{StmtBase: s.StmtBase, Stmts: stmts}
	f.b.Emit(s)
}

// SpmdFor launches body as a kernel of coreNum blocks, named nameHint (or
// <function>_incore_<n> when ""); body's argument is the block index.
// PyPTO: for name in pl.spmd(coreNum, name_hint=nameHint): ...
func (f *Func) SpmdFor(name string, coreNum any, nameHint string, body func(i Expr)) {
	pos := dsl.Caller()
	dsl.CheckName("f.SpmdFor", "name", name)
	if nameHint != "" {
		dsl.CheckName("f.SpmdFor", "nameHint", nameHint)
	}
	if body == nil {
		dsl.Failf("f.SpmdFor %s: the body callback is nil", name)
	}
	s := f.spmdLaunch("f.SpmdFor", coreNum, pos)
	s.NameHint = nameHint
	idx := ir.NewVar(name, ir.Scalar(ir.INDEX), pos)
	f.b.Declare(idx)
	blk := func() ir.Stmt {
		defer f.b.Undeclare(idx)
		return f.coreBlock(func() { body(idx) })
	}()
	s.Body = &ir.SeqStmts{StmtBase: s.StmtBase, Stmts: []ir.Stmt{ir.SpmdLoopKernel(s, idx, ir.SplitNone, 0, ir.Flatten(blk))}}
	f.b.Emit(s)
}

func (f *Func) spmdLaunch(what string, coreNum any, pos ir.Span) *ir.ScopeStmt {
	s, err := ir.NewSpmdLaunch(dsl.Expr(coreNum, "coreNum"), pos)
	if err != nil {
		dsl.Failf("%s: %v", what, err)
	}
	return s
}

// Call calls another function of the program. PyPTO: self.fn(args).
func (f *Func) Call(fn *Function, args ...any) Expr {
	return f.call(fn, nil, args)
}

// Dispatch calls fn on device. PyPTO: self.fn(args, device=r).
func (f *Func) Dispatch(fn *Function, device any, args ...any) Expr {
	return f.call(fn, dsl.Expr(device, "device"), args)
}

func (f *Func) call(fn *Function, device ir.Expr, args []any) Expr {
	pos := dsl.Caller()
	if fn == nil || fn.fn == nil {
		dsl.Failf("f.Call: the function is nil")
	}
	callee := fn.fn
	op := "self." + callee.Name
	if len(args) != len(callee.Params) {
		dsl.Raise(&ir.TypeError{Op: op, Expected: fmt.Sprintf("%d arguments", len(callee.Params)), Given: fmt.Sprintf("%d", len(args)), Pos: pos})
	}
	es := make([]ir.Expr, len(args))
	var noDep []int
	for i, a := range args {
		p := callee.Params[i]
		if m, ok := a.(NoDepArg); ok {
			a = m.t
			noDep = append(noDep, i)
		}
		es[i] = dsl.Expr(a, op+" argument "+p.Name)
		if why := mismatch(p.Type(), es[i].Type()); why != "" {
			dsl.Raise(&ir.TypeError{Op: op, Arg: p.Name, Expected: p.Type().String(), Given: es[i].Type().String() + " (" + why + ")", Pos: pos})
		}
		if d := callee.Direction(i); d == ir.Out || d == ir.InOut {
			if in := f.inputRoot(es[i]); in != "" {
				dsl.Raise(&ir.TypeError{Op: op, Arg: p.Name, Expected: "a tensor " + f.b.Fn.Name + " may write (the parameter is pl." + d.String() + ")",
					Given: in + ", an input (f.In) of " + f.b.Fn.Name, Pos: pos})
			}
		}
	}
	var t ir.Type = ir.Unknown
	switch len(callee.ReturnTypes) {
	case 0:
	case 1:
		t = callee.ReturnTypes[0]
	default:
		t = &ir.TupleType{Types: callee.ReturnTypes}
	}
	c := &ir.Call{Fn: &ir.GlobalVar{Name: callee.Name}, Args: es, T: t, Pos: pos}
	if device != nil {
		c.Attrs = ir.Kwargs{{Key: "device", Value: device}}
	}
	if len(noDep) > 0 {
		nc, err := ir.WithNoDep(c, noDep)
		if err != nil {
			dsl.Failf("%s: %v", op, err)
		}
		c = nc
	}
	return c
}

// NoDepArg is an argument of a kernel call marked with NoDep.
type NoDepArg struct{ t Expr }

// NoDep marks a tensor argument of f.Call, f.Dispatch or f.Submit whose
// slot the runtime is not to track: the launch neither waits for earlier
// writers of it nor orders later tasks after its own write. It is a
// promise that nothing else touches those bytes meanwhile; the simulator
// runs launches in order and checks the promise (a broken one is a task
// race). PyPTO: self.k(pl.no_dep(t), ...)
func NoDep(t Expr) NoDepArg {
	if t == nil {
		dsl.Failf("pl.NoDep: the tensor is nil")
	}
	if _, ok := ir.AsTensorLike(t.Type()); !ok {
		dsl.Failf("pl.NoDep: expected a tensor, given %s", ir.Describe(t))
	}
	return NoDepArg{t}
}

// mismatch is the argument (and return) check of a function call: the
// same kind of type (a DistributedTensor parameter needs a
// DistributedTensor), the same dtype and rank, equal static dimensions;
// integer scalars of any width convert. It says what differs, or "".
func mismatch(param, arg ir.Type) string {
	if param.TypeName() != arg.TypeName() {
		return "a " + kindName(arg) + ", not a " + kindName(param)
	}
	ps, pd, ok1 := ir.ShapeOf(param)
	as, ad, ok2 := ir.ShapeOf(arg)
	if ok1 && ok2 {
		switch {
		case pd != ad:
			return "element type " + ad.String() + ", not " + pd.String()
		case len(ps) != len(as):
			return fmt.Sprintf("rank %d, not %d", len(as), len(ps))
		}
		for d := range ps {
			pv, okp := ir.ConstValue(ps[d])
			av, oka := ir.ConstValue(as[d])
			if okp && oka && pv != av {
				return fmt.Sprintf("dimension %d is %d, not %d", d, av, pv)
			}
		}
		return ""
	}
	if p, ok := param.(*ir.ScalarType); ok {
		a := arg.(*ir.ScalarType)
		if p.DType != a.DType && !(p.DType.IsInt() && a.DType.IsInt()) {
			return "element type " + a.DType.String() + ", not " + p.DType.String()
		}
	}
	return ""
}

// kindName is a type's kind in PyPTO spelling: pl.Tensor, pld.DistributedTensor.
func kindName(t ir.Type) string {
	s := t.String()
	if i := strings.IndexByte(s, '['); i > 0 {
		return s[:i]
	}
	return s
}

// inputRoot names the In parameter of f an argument views (through
// pl.Index, pl.Slice, pl.View), or "" when it is not an input.
func (f *Func) inputRoot(e ir.Expr) string {
	for {
		c, ok := e.(*ir.Call)
		if !ok || c.Op == nil || len(c.Args) == 0 || (c.Op != ir.TensorSlice && c.Op != ir.TensorViewOp) {
			break
		}
		e = c.Args[0]
	}
	v, ok := e.(*ir.Var)
	if !ok {
		return ""
	}
	for i, p := range f.b.Fn.Params {
		if p == v && f.b.Fn.Direction(i) == ir.In {
			if _, isScalar := p.Type().(*ir.ScalarType); !isScalar {
				return p.Name
			}
		}
	}
	return ""
}

// kindMethod is the prog method that defines a function of this kind, for messages.
func kindMethod(kind ir.FunctionType, level ir.Level) string {
	switch {
	case level == ir.LevelHost:
		return "Host"
	case kind == ir.InCore:
		return "InCore"
	case kind == ir.Orchestration:
		return "Orchestration"
	}
	return "Function"
}

// dirMethod is the f method that declares a parameter of this direction.
func dirMethod(d ir.ParamDirection) string {
	switch d {
	case ir.Out:
		return "Out"
	case ir.InOut:
		return "InOut"
	}
	return "In"
}
