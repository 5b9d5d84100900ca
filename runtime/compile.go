package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// The compiled executor. Load resolves every device function once into a
// tree of closures: variables live in numbered slots of a frame instead of
// a map keyed by name, constants are boxed once, each call site holds its
// op's semantics (a kernel from the op's registry entry when it has one,
// else the op's generic facet) and, for calls between functions, the
// compiled callee. Running then does no name lookups and no type switches
// on statements. The host orchestrator, which runs a handful of ops per
// dispatch, stays on the tree-walking executor in exec.go; device code
// always runs compiled (testdata/executor_results.golden holds the results
// the tree walker gave for it).

// KernelFacetKey is the ir.OpDef facet holding an op's compiled kernel: a
// KernelBuilder called once per call site at load time.
const KernelFacetKey = "sim.kernel"

// KernelBuilder specialises an op for one call site (its kwargs and static
// argument types are known at load time). It returns nil when the site
// needs the generic semantics (the FacetKey facet).
type KernelBuilder func(c *ir.Call) OpFunc

// RegisterKernel attaches a compiled kernel builder to op.
func RegisterKernel(op *ir.OpDef, b KernelBuilder) { op.SetFacet(KernelFacetKey, b) }

// cprog is a program's compiled device functions.
type cprog struct {
	funcs   map[*ir.Function]*cfunc
	sites   siteTable // every op call site, for the timeline's records
	generic bool      // no kernels: every op runs its generic semantics
}

// cfunc is one compiled function.
type cfunc struct {
	fn       *ir.Function
	nslots   int
	names    []string    // slot names, for error messages
	params   []int       // the slot of each parameter
	dims     [][]dimBind // per parameter: the symbolic dims its shape binds
	ndims    []int       // per parameter: its shape's rank (-1: not shaped)
	shapes   [][]int     // per parameter: its static shape (nil: not static)
	nsites   int         // op call sites (frame.args)
	nituples int         // all-integer tuple arguments (frame.ituples)
	ubSize   int         // the on-chip buffer its address plan needs (0: no plan)
	body     cstmt
}

// dimBind binds dimension dim of a parameter's value to a slot (NR in
// pl.Tensor[[NR, 16], ...]).
type dimBind struct{ dim, slot int }

// frame is one activation of a compiled function.
type frame struct {
	x     *Exec
	slots []any
	yv    []any   // the values of the yield that ended the last body run
	args  [][]any // per op call site: its argument slice
	// ituples are the call sites' all-integer tuple arguments.
	ituples []*intTuple
}

type cstmt func(fr *frame) (vals []any, returned bool, err error)

type cexpr func(fr *frame) (any, error)

// unsetT marks a slot no statement has written yet.
type unsetT struct{ _ byte }

var unset any = &unsetT{}

// compileProgram compiles every non-host function of p.
func compileProgram(p *ir.Program) *cprog { return compileProgramWith(p, true) }

// compileProgramWith compiles p; without kernels every op call site runs
// its op's generic semantics (what the tests compare the kernels with).
func compileProgramWith(p *ir.Program, kernels bool) *cprog {
	cp := &cprog{funcs: map[*ir.Function]*cfunc{}, generic: !kernels}
	for _, f := range p.Functions {
		if !f.IsHostOrchestrator() {
			cp.funcs[f] = &cfunc{fn: f}
		}
	}
	for f, cf := range cp.funcs {
		fc := &fcomp{cp: cp, prog: p, fn: f, slots: map[string]int{}}
		cf.params = make([]int, len(f.Params))
		cf.dims = make([][]dimBind, len(f.Params))
		cf.ndims = make([]int, len(f.Params))
		cf.shapes = make([][]int, len(f.Params))
		for i, prm := range f.Params {
			cf.params[i] = fc.slot(prm.Name)
			cf.shapes[i] = staticShape(prm.Type())
			cf.ndims[i] = -1
			if dims, _, ok := ir.ShapeOf(prm.Type()); ok {
				cf.ndims[i] = len(dims)
				for k, d := range dims {
					if v, isVar := d.(*ir.Var); isVar {
						cf.dims[i] = append(cf.dims[i], dimBind{dim: k, slot: fc.slot(v.Name)})
					}
				}
			}
		}
		// Whether any tile has a planned address decides how every call
		// site compiles, so look before compiling.
		fc.hasPlan = ir.AddressesPlanned(f)
		ir.WalkStmt(f.Body, nil, func(s ir.Stmt) {
			if a, ok := s.(*ir.AssignStmt); ok && fc.placementOf(a) != nil {
				fc.planned = true
			}
		})
		if f.Kind == ir.Group && usesPipes(p, f.Body) {
			cf.body = fc.mixedGroupBody(f.Body)
		} else {
			cf.body = fc.stmt(f.Body)
		}
		if fc.planned {
			cf.ubSize = max(UBBytes, fc.ubSize)
		}
		cf.nslots, cf.names, cf.nsites, cf.nituples = len(fc.names), fc.names, fc.nsites, fc.nituples
	}
	return cp
}

// lookup is fn's compiled form (nil for the host or a function of another
// program).
func (cp *cprog) lookup(fn *ir.Function) *cfunc {
	if cp == nil {
		return nil
	}
	return cp.funcs[fn]
}

// fcomp compiles one function.
type fcomp struct {
	cp     *cprog
	prog   *ir.Program
	fn     *ir.Function // the function being compiled
	slots  map[string]int
	names  []string
	nsites int // op call sites, each with its argument slice in the frame
	// nituples counts the all-integer tuple arguments, each with its own
	// tuple in the frame.
	nituples int
	// planned: some tile has an address from AllocateMemoryAddr; ubSize is
	// the extent of the plan; pending is the placement of the op call being
	// compiled.
	planned bool
	hasPlan bool // AllocateMemoryAddr placed the function's buffers
	ubSize  int
	pending *placement
}

// slot numbers a variable by name: pre-SSA IR reassigns by name, Python
// style, so one name is one slot.
func (fc *fcomp) slot(name string) int {
	if i, ok := fc.slots[name]; ok {
		return i
	}
	i := len(fc.names)
	fc.slots[name] = i
	fc.names = append(fc.names, name)
	return i
}

// ccall runs a compiled function on this rank with evaluated arguments, as
// call does for the tree walker.
func (x *Exec) ccall(cf *cfunc, args []any) ([]any, error) {
	fn := cf.fn
	if len(args) != len(fn.Params) {
		return nil, fmt.Errorf("%s takes %d arguments, given %d", fn.Name, len(fn.Params), len(args))
	}
	inner := &Exec{s: x.s, rank: x.rank, fn: fn, rc: x.rc}
	if u := &x.rc.ub; len(u.mem) < cf.ubSize {
		// The core's buffer, kept across tasks like the device's. A caller's
		// tiles may still live in the smaller one, so it is left to the GC
		// rather than recycled.
		u.mem = getBuf(cf.ubSize)
	}
	fr := &frame{x: inner, slots: make([]any, cf.nslots), args: make([][]any, cf.nsites), ituples: make([]*intTuple, cf.nituples)}
	for i := range fr.slots {
		fr.slots[i] = unset
	}
	for i := range fn.Params {
		// The argument as the parameter sees it; the caller's slice stays
		// as it is (the core scheduler reads a job's arguments meanwhile).
		arg := asParam(args[i], cf.shapes[i])
		fr.slots[cf.params[i]] = arg
		var shape []int
		switch v := arg.(type) {
		case *view:
			shape = v.shape
		case *Tile:
			shape = v.Shape
		default:
			continue
		}
		if cf.ndims[i] != len(shape) {
			continue
		}
		for _, d := range cf.dims[i] {
			if fr.slots[d.slot] == unset {
				fr.slots[d.slot] = int64(shape[d.dim])
			}
		}
	}
	saved := x.rc.curFn
	x.rc.curFn = fn.Name
	vals, err := inner.crun(cf, fr)
	x.rc.curFn = saved
	return vals, err
}

// crun executes the activation's body, then its deferred waits (see run).
func (x *Exec) crun(cf *cfunc, fr *frame) ([]any, error) {
	col := x.rc.takeCollector()
	nDeferred := len(x.rc.deferred)
	vals, _, err := cf.body(fr)
	if err != nil {
		return nil, err
	}
	if err := x.finishDeferred(nDeferred, col, false); err != nil {
		return nil, err
	}
	return vals, nil
}

// --- statements

func (fc *fcomp) stmt(s ir.Stmt) cstmt {
	switch s := s.(type) {
	case nil:
		return func(*frame) ([]any, bool, error) { return nil, false, nil }
	case *ir.SeqStmts:
		return fc.seq(s)
	case *ir.AssignStmt:
		slot := fc.slot(s.Var.Name)
		var val cexpr
		if c, ok := s.Value.(*ir.Call); ok && c.Op != nil {
			val = fc.opCall(c, fc.placementOf(s))
		} else {
			val = fc.expr(s.Value)
		}
		return func(fr *frame) ([]any, bool, error) {
			v, err := val(fr)
			if err != nil {
				return nil, false, err
			}
			fr.slots[slot] = v
			return nil, false, nil
		}
	case *ir.EvalStmt:
		e := fc.expr(s.Expr)
		return func(fr *frame) ([]any, bool, error) {
			_, err := e(fr)
			return nil, false, err
		}
	case *ir.ReturnStmt:
		vals := fc.exprs(s.Values)
		return func(fr *frame) ([]any, bool, error) {
			out := make([]any, len(vals))
			for i, e := range vals {
				v, err := e(fr)
				if err != nil {
					return nil, false, err
				}
				out[i] = v
			}
			return out, true, nil
		}
	case *ir.YieldStmt:
		vals := fc.exprs(s.Values)
		return func(fr *frame) ([]any, bool, error) {
			// The enclosing if or for consumes the values before the next
			// yield of this frame runs, so one buffer per frame serves all.
			out := fr.yv[:0]
			for _, e := range vals {
				v, err := e(fr)
				if err != nil {
					return nil, false, err
				}
				out = append(out, v)
			}
			fr.yv = out
			return out, false, nil
		}
	case *ir.IfStmt:
		return fc.ifStmt(s)
	case *ir.ForStmt:
		return fc.forStmt(s)
	case *ir.WhileStmt:
		return fc.whileStmt(s)
	case *ir.BreakStmt:
		return func(*frame) ([]any, bool, error) { return nil, false, errBreak }
	case *ir.ContinueStmt:
		return func(*frame) ([]any, bool, error) { return nil, false, errContinue }
	case *ir.ScopeStmt:
		// A scope runs its body where it stands (see Exec.stmt).
		body := fc.stmt(s.Body)
		if s.Kind == ir.ScopeSpmd {
			n := fc.expr(s.CoreNum)
			together := meetsAtBarrier(fc.prog, s.Body)
			launch := func(fr *frame) ([]any, bool, error) {
				cnt, err := n(fr)
				if err != nil {
					return nil, false, err
				}
				if c, err := toInt(cnt); together && err == nil && c > 1 && fr.x.rc != nil {
					return fr.x.spmdTogether(s, int(c), fr, body)
				}
				return fr.x.spmd(s, cnt, func() ([]any, bool, error) { return body(fr) })
			}
			if s.TaskID == nil && len(s.Deps) == 0 && s.Predicate == nil {
				return launch
			}
			name := "spmd"
			if s.NameHint != "" {
				name = s.NameHint
			}
			return fc.scopeTask(s, name, launch)
		}
		if s.Kind == ir.ScopeCluster {
			return body
		}
		if s.Kind == ir.ScopeSplitAiv {
			return func(fr *frame) ([]any, bool, error) {
				return fr.x.splitAiv(s, func() ([]any, bool, error) { return body(fr) })
			}
		}
		if s.Kind == ir.ScopeRuntime {
			return func(fr *frame) ([]any, bool, error) {
				saved := fr.x.rc.enterScope(s.Manual)
				vals, ret, err := body(fr)
				if err == nil && s.Manual {
					err = fr.x.completeLater(fr.x.rc.manual)
				}
				fr.x.rc.leaveScope(saved)
				return vals, ret, err
			}
		}
		return fc.scopeTask(s, scopeTaskName(fc.fn.Name, s), body)
	}
	err := fmt.Errorf("the simulator cannot run statement %T", s)
	return func(*frame) ([]any, bool, error) { return nil, false, err }
}

func (fc *fcomp) seq(s *ir.SeqStmts) cstmt {
	body := make([]cstmt, len(s.Stmts))
	yields := make([]bool, len(s.Stmts))
	for i, c := range s.Stmts {
		body[i] = fc.stmt(c)
		_, yields[i] = c.(*ir.YieldStmt)
	}
	return func(fr *frame) ([]any, bool, error) {
		for i, st := range body {
			v, ret, err := st(fr)
			if err != nil || ret {
				return v, ret, err
			}
			if yields[i] {
				return v, false, nil
			}
		}
		return nil, false, nil
	}
}

func (fc *fcomp) ifStmt(s *ir.IfStmt) cstmt {
	cond, then, els := fc.expr(s.Cond), fc.stmt(s.Then), fc.stmt(s.Else)
	rv := fc.slotsOf(s.ReturnVars)
	return func(fr *frame) ([]any, bool, error) {
		c, err := cond(fr)
		if err != nil {
			return nil, false, err
		}
		body := els
		if truthy(c) {
			body = then
		}
		vals, ret, err := body(fr)
		if err != nil || ret {
			return vals, ret, err
		}
		for i, slot := range rv {
			if i < len(vals) {
				fr.slots[slot] = vals[i]
			}
		}
		return nil, false, nil
	}
}

func (fc *fcomp) slotsOf(vs []*ir.Var) []int {
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = fc.slot(v.Name)
	}
	return out
}

func (fc *fcomp) forStmt(s *ir.ForStmt) cstmt {
	bounds := [3]cexpr{fc.expr(s.Start), fc.expr(s.Stop), nil}
	if s.Step != nil {
		bounds[2] = fc.expr(s.Step)
	}
	name := s.LoopVar.Name
	loopVar := fc.slot(name)
	c := fc.carried(s.IterArgs, s.ReturnVars, s.Body)
	return func(fr *frame) ([]any, bool, error) {
		b := [3]int64{0, 0, 1}
		for i, e := range bounds {
			if e == nil {
				continue
			}
			v, err := e(fr)
			if err != nil {
				return nil, false, err
			}
			n, err := toInt(v)
			if err != nil {
				return nil, false, fmt.Errorf("for %s: bound: %w", name, err)
			}
			b[i] = n
		}
		if b[2] == 0 {
			return nil, false, fmt.Errorf("for %s: step is zero", name)
		}
		if err := c.init(fr); err != nil {
			return nil, false, err
		}
		stopped := &fr.x.s.sched.stopped
		for i := b[0]; (b[2] > 0 && i < b[1]) || (b[2] < 0 && i > b[1]); i += b[2] {
			if stopped.Load() {
				return nil, false, errAborted
			}
			fr.slots[loopVar] = boxInt(i)
			if exit, vals, ret, err := c.step(fr); exit {
				if err != nil || ret {
					return vals, ret, err
				}
				break
			}
		}
		c.finish(fr)
		return nil, false, nil
	}
}

// carriedLoop is what the compiled for and while loops share: the
// iter-arg inits and slots, the return variables' slots, the body.
type carriedLoop struct {
	inits []cexpr
	iter  []int
	rv    []int
	body  cstmt
}

func (fc *fcomp) carried(ias []*ir.IterArg, rvs []*ir.Var, body ir.Stmt) *carriedLoop {
	c := &carriedLoop{inits: make([]cexpr, len(ias)), iter: make([]int, len(ias))}
	for i, ia := range ias {
		c.inits[i] = fc.expr(ia.Init)
		c.iter[i] = fc.slot(ia.Name)
	}
	c.rv = fc.slotsOf(rvs)
	c.body = fc.stmt(body)
	return c
}

// init binds the iter-args to their inits.
func (c *carriedLoop) init(fr *frame) error {
	for i, e := range c.inits {
		v, err := e(fr)
		if err != nil {
			return err
		}
		fr.slots[c.iter[i]] = v
	}
	return nil
}

// step is Exec.loopStep compiled.
func (c *carriedLoop) step(fr *frame) (exit bool, vals []any, ret bool, err error) {
	vals, ret, err = c.body(fr)
	switch brk, next := loopControl(err); {
	case brk:
		return true, nil, false, nil
	case next:
		return false, nil, false, nil
	case err != nil || ret:
		return true, vals, ret, err
	}
	for k, slot := range c.iter {
		if k < len(vals) {
			fr.slots[slot] = vals[k]
		}
	}
	return false, nil, false, nil
}

// finish binds the return variables to the iter-args' last values.
func (c *carriedLoop) finish(fr *frame) {
	for k, slot := range c.rv {
		if k < len(c.iter) {
			fr.slots[slot] = fr.slots[c.iter[k]]
		}
	}
}

// whileStmt is Exec.whileStmt compiled.
func (fc *fcomp) whileStmt(s *ir.WhileStmt) cstmt {
	c := fc.carried(s.IterArgs, s.ReturnVars, s.Body)
	cond := fc.expr(s.Cond)
	return func(fr *frame) ([]any, bool, error) {
		if err := c.init(fr); err != nil {
			return nil, false, err
		}
		stopped := &fr.x.s.sched.stopped
		for {
			if stopped.Load() {
				return nil, false, errAborted
			}
			v, err := cond(fr)
			if err != nil {
				return nil, false, err
			}
			if !truthy(v) {
				break
			}
			if exit, vals, ret, err := c.step(fr); exit {
				if err != nil || ret {
					return vals, ret, err
				}
				break
			}
		}
		c.finish(fr)
		return nil, false, nil
	}
}

// smallInts are boxed loop counters and offsets, so the common ones cost no
// allocation.
var smallInts = func() []any {
	out := make([]any, 1<<12)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}()

func boxInt(i int64) any {
	if i >= 0 && i < int64(len(smallInts)) {
		return smallInts[i]
	}
	return i
}

// --- expressions

func (fc *fcomp) exprs(es []ir.Expr) []cexpr {
	out := make([]cexpr, len(es))
	for i, e := range es {
		out[i] = fc.expr(e)
	}
	return out
}

func (fc *fcomp) variable(name string) cexpr {
	slot := fc.slot(name)
	return func(fr *frame) (any, error) {
		v := fr.slots[slot]
		if v == unset {
			return nil, fr.x.unbound(name)
		}
		return v, nil
	}
}

// unbound is the error for a variable read before any write.
func (x *Exec) unbound(name string) error {
	where := fmt.Sprintf("rank %d", x.rank)
	if x.rank < 0 {
		where = "the host"
	}
	return fmt.Errorf("variable %s has no value on %s (in %s)", name, where, x.fnName())
}

func constant(v any) cexpr { return func(*frame) (any, error) { return v, nil } }

func (fc *fcomp) expr(e ir.Expr) cexpr {
	switch e := e.(type) {
	case *ir.Var:
		return fc.variable(e.Name)
	case *ir.IterArg:
		return fc.variable(e.Name)
	case *ir.WindowBuffer:
		return fc.variable(e.Base.Name)
	case *ir.MemRef:
		return fc.variable(e.Name)
	case *ir.ConstInt:
		return constant(e.Value)
	case *ir.ConstFloat:
		return constant(e.Value)
	case *ir.ConstBool:
		return constant(e.Value)
	case *ir.MakeTuple:
		return fc.tuple(e)
	case *ir.TupleGetItem:
		t, idx := fc.expr(e.Tuple), e.Index
		return func(fr *frame) (any, error) {
			v, err := t(fr)
			if err != nil {
				return nil, err
			}
			l, ok := v.([]any)
			if !ok || idx < 0 || idx >= len(l) {
				return nil, fmt.Errorf("tuple index %d out of range", idx)
			}
			return l[idx], nil
		}
	case *ir.BinaryExpr:
		if ie := fc.intBinary(e); ie != nil {
			return func(fr *frame) (any, error) {
				v, err := ie(fr)
				if err != nil {
					return nil, err
				}
				return boxInt(v), nil
			}
		}
		l, r := fc.expr(e.Left), fc.expr(e.Right)
		return func(fr *frame) (any, error) {
			a, err := l(fr)
			if err != nil {
				return nil, err
			}
			b, err := r(fr)
			if err != nil {
				return nil, err
			}
			return binaryVals(e, a, b)
		}
	case *ir.UnaryExpr:
		x := fc.expr(e.X)
		return func(fr *frame) (any, error) {
			v, err := x(fr)
			if err != nil {
				return nil, err
			}
			return unary(e, v)
		}
	case *ir.Call:
		return fc.call(e)
	}
	err := fmt.Errorf("the simulator cannot evaluate %T", e)
	return func(*frame) (any, error) { return nil, err }
}

// tuple builds a MakeTuple; a tuple of constants is built once (no op
// modifies a tuple argument).
func (fc *fcomp) tuple(e *ir.MakeTuple) cexpr {
	elems := fc.exprs(e.Elems)
	consts := make([]any, len(e.Elems))
	allConst := true
	for i, el := range e.Elems {
		switch c := el.(type) {
		case *ir.ConstInt:
			consts[i] = c.Value
		case *ir.ConstFloat:
			consts[i] = c.Value
		case *ir.ConstBool:
			consts[i] = c.Value
		default:
			allConst = false
		}
	}
	if allConst {
		return constant(consts)
	}
	return func(fr *frame) (any, error) {
		out := make([]any, len(elems))
		for i, el := range elems {
			v, err := el(fr)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
}

// argTuple builds a tuple written as an op's argument (offsets, shapes,
// a signal cell) into the call site's own slice, reused on every
// execution in the frame like the argument slice: ops convert tuples and
// keep none.
func (fc *fcomp) argTuple(e *ir.MakeTuple) cexpr {
	build := fc.tuple(e)
	for _, el := range e.Elems {
		switch el.(type) {
		case *ir.ConstInt, *ir.ConstFloat, *ir.ConstBool:
		default:
			elems := fc.exprs(e.Elems)
			site := fc.nsites
			fc.nsites++
			return func(fr *frame) (any, error) {
				out := fr.args[site]
				if out == nil {
					out = make([]any, len(elems))
					fr.args[site] = out
				}
				for i, el := range elems {
					v, err := el(fr)
					if err != nil {
						return nil, err
					}
					out[i] = v
				}
				return out, nil
			}
		}
	}
	return build // all constants: built once
}

func (fc *fcomp) call(c *ir.Call) cexpr {
	// The placement belongs to this call, not to calls among its arguments.
	p := fc.pending
	fc.pending = nil
	if c.Op == ir.SystemTaskDummy {
		// Its deps are attributes, which ops do not evaluate.
		deps := fc.exprs(c.Deps())
		return func(fr *frame) (any, error) {
			dv, err := fr.x.compiledDeps(deps, fr)
			if err != nil {
				return nil, err
			}
			return fr.x.taskDummy(c, dv), nil
		}
	}
	args := make([]cexpr, len(c.Args))
	for i, a := range c.Args {
		if t, ok := a.(*ir.MakeTuple); ok && c.Op != nil {
			if it := fc.intArgTuple(t); it != nil {
				args[i] = it
			} else {
				args[i] = fc.argTuple(t)
			}
		} else {
			args[i] = fc.expr(a)
		}
	}
	// An op's argument slice is the call site's own, reused on every
	// execution in the frame: ops read their arguments and keep none.
	argSite := fc.nsites
	fc.nsites++
	siteArgs := func(fr *frame) ([]any, error) {
		out := fr.args[argSite]
		if out == nil {
			out = make([]any, len(args))
			fr.args[argSite] = out
		}
		for i, a := range args {
			v, err := a(fr)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	eval := func(fr *frame) ([]any, error) {
		out := make([]any, len(args))
		for i, a := range args {
			v, err := a(fr)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	if c.Fn != nil {
		return fc.callFunction(c, eval)
	}
	if c.Op == nil {
		err := fmt.Errorf("a call with neither op nor function")
		return func(*frame) (any, error) { return nil, err }
	}
	f, ok := c.Op.Facet(FacetKey)
	if !ok {
		return func(fr *frame) (any, error) {
			if _, err := eval(fr); err != nil {
				return nil, err
			}
			return nil, fr.x.errAt(c, fmt.Errorf("the simulator has no semantics for op %s", c.Op.Name))
		}
	}
	op := f.(OpFunc)
	if rule, ok := c.Op.Facet(laneFacetKey); ok && laneSplitAxis(fc.fn) >= 0 {
		// A split AIV function's lanes rewrite these calls' arguments
		// (split_lanes.go): the generic semantics read them, a kernel
		// may have compiled them in.
		op = laneAdjusted(op, rule.(laneRule), laneSplitAxis(fc.fn))
	} else if kb, ok := c.Op.Facet(KernelFacetKey); ok && !fc.cp.generic {
		if k := kb.(KernelBuilder)(c); k != nil {
			op = k
		}
	}
	id := fc.cp.sites.id(site{c, fc.fn})
	if !fc.planned {
		return func(fr *frame) (any, error) {
			a, err := siteArgs(fr)
			if err != nil {
				return nil, err
			}
			return fr.x.runSiteOp(c, id, op, a)
		}
	}
	// A function with an address plan: tile arguments are checked against
	// the buffer, and the result tile (when the site has a placement)
	// takes its planned address.
	return func(fr *frame) (any, error) {
		a, err := siteArgs(fr)
		if err != nil {
			return nil, err
		}
		x := fr.x
		for _, v := range a {
			if t, ok := v.(*Tile); ok && t.home != nil && t.home.clobber != nil {
				x.overlap(t.home)
			}
		}
		if p == nil {
			return x.runSiteOp(c, id, op, a)
		}
		x.rc.place, x.rc.placed = p, nil
		v, err := x.runSiteOp(c, id, op, a)
		x.rc.place = nil
		if f := x.rc.placed; f != nil {
			x.rc.placed = nil
			home := x.rc.ub.place(p)
			if t, ok := v.(*Tile); ok && len(t.f32) > 0 && &t.f32[0] == &f[0] {
				t.home = home
			}
		}
		return v, err
	}
}

// opCall compiles an op call whose result tile takes placement p (nil: no
// planned address).
func (fc *fcomp) opCall(c *ir.Call, p *placement) cexpr {
	fc.pending = p
	e := fc.call(c)
	fc.pending = nil
	return e
}

// placementOf is the planned address of the tile an assignment defines:
// an FP32 tile whose MemRef AllocateMemoryAddr placed in the vector
// buffer. It notes that the function has a plan.
func (fc *fcomp) placementOf(s *ir.AssignStmt) *placement {
	tt, ok := s.Var.Type().(*ir.TileType)
	if !ok || tt.MemRef == nil || tt.DType != ir.FP32 || tt.Memory != ir.MemVec {
		return nil
	}
	off, ok := ir.ConstValue(tt.MemRef.ByteOffset)
	if !ok || off < 0 || !fc.hasPlan {
		return nil // before AllocateMemoryAddr: tiles take memory from the allocator
	}
	if idx := tt.MemRef.SlotIndex; idx != nil {
		// A slot of a declared allocation: at a constant slot the tile has
		// its address; a runtime slot is the program's to rotate, and the
		// tile takes memory from the allocator.
		k, static := ir.ConstValue(idx)
		if !static {
			return nil
		}
		off += k * int64(tt.MemRef.Size)
	}
	base := tt.MemRef.Name
	if tt.MemRef.Base != nil {
		base = tt.MemRef.Base.Name
	}
	p := &placement{lo: int(off), size: int(tt.MemRef.Size), def: TileDef{Name: s.Var.Name, Pos: s.Pos}, base: base}
	if tt.MemRef.SlotIndex != nil {
		p.slot = tt.MemRef
	}
	if !s.Pos.Known() {
		p.def.Pos = s.Var.Pos
	}
	fc.planned = true
	fc.ubSize = max(fc.ubSize, p.lo+p.size)
	return p
}

// overlap reports a read of a tile another placement overwrote, once per
// pair of tiles on this rank.
func (x *Exec) overlap(t *ubTile) {
	u := &x.rc.ub
	k := [2]*placement{t.p, t.clobber}
	if u.seen[k] {
		return
	}
	if u.seen == nil {
		u.seen = map[[2]*placement]bool{}
	}
	u.seen[k] = true
	o := TileOverlap{Rank: x.rank, Func: x.fnName(), Live: t.p.def, Over: t.clobber.def, Lo: t.lo, Hi: t.hi}
	x.s.ovMu.Lock()
	x.s.overlaps = append(x.s.overlaps, o)
	x.s.ovMu.Unlock()
}

// callFunction compiles a call of a program function. A plain call of a
// compiled function goes straight to it; everything else (device=
// dispatch, which only the host may do, builtins, unknown functions) takes
// the tree walker's path, which reports the error.
func (fc *fcomp) callFunction(c *ir.Call, eval func(*frame) ([]any, error)) cexpr {
	var callee *cfunc
	if c.Device() == nil && builtinCollective(c.Fn.Name) == "" {
		if fn := fc.prog.Function(c.Fn.Name); fn != nil && !fn.IsHostCallback() {
			callee = fc.cp.funcs[fn]
		}
	}
	if callee == nil {
		return func(fr *frame) (any, error) {
			a, err := eval(fr)
			if err != nil {
				return nil, err
			}
			return fr.x.callFunction(c, a)
		}
	}
	if c.IsSubmit() {
		deps := fc.exprs(c.Deps())
		var cores, pred cexpr
		together := false
		if n := c.CoreNum(); n != nil {
			cores = fc.expr(n)
			together = meetsAtBarrier(fc.prog, callee.fn.Body)
		}
		if p := c.Predicate(); p != nil {
			pred = fc.expr(p)
		}
		return func(fr *frame) (any, error) {
			dv, err := fr.x.compiledDeps(deps, fr)
			if err != nil {
				return nil, err
			}
			a, err := eval(fr)
			if err != nil {
				return nil, err
			}
			if fr.x.deferrable() {
				a = append([]any(nil), a...) // the call site's slice is reused; the launch may run later
			}
			run := func() ([]any, error) { return fr.x.ccall(callee, a) }
			var placeholder func() ([]any, error)
			if cores == nil {
				placeholder = func() ([]any, error) { return skippedResults(c, callee.fn, a) }
			}
			if cores != nil || pred != nil {
				spec := launchSpec{fn: callee.fn, together: together}
				if cores != nil {
					spec.cores = func() (any, error) { return cores(fr) }
				}
				if pred != nil {
					spec.pred = func() (any, error) { return pred(fr) }
				}
				run = fr.x.launch(c, spec, a, run)
			}
			fr.x.markNoDep(c, a)
			return fr.x.submit(c, dv, run, placeholder)
		}
	}
	return func(fr *frame) (any, error) {
		a, err := eval(fr)
		if err != nil {
			return nil, err
		}
		end := noTask
		if fr.x.records() {
			fr.x.markNoDep(c, a)
			_, end = fr.x.beginTask(callee.fn.Name, c.Pos, nil) // a plain call is a task without deps
		}
		out, err := fr.x.ccall(callee, a)
		end()
		if err != nil {
			return nil, err
		}
		switch len(out) {
		case 0:
			return nil, nil
		case 1:
			return out[0], nil
		}
		return out, nil
	}
}

// scopeTask runs a launching scope (pl.at, pl.spmd) as one task named
// name that waits for its deps and binds its id (as tid): a false
// predicate retires it without running launch, and its body's outputs
// stay as they were.
func (fc *fcomp) scopeTask(s *ir.ScopeStmt, name string, launch cstmt) cstmt {
	deps := fc.exprs(s.Deps)
	noDep := fc.exprs(s.NoDepArgs)
	var pred cexpr
	skip := func(*frame) error { return nil }
	if s.Predicate != nil {
		pred = fc.expr(s.Predicate)
		skip = fc.skipBindings(s.Body)
	}
	tid := -1
	if s.TaskID != nil {
		tid = fc.slot(s.TaskID.Name)
	}
	// A region a manual scope launches after a pending task runs later
	// (later.go), on the frame as it was at its launch; meanwhile its
	// outputs stay as they were. A region that returns always runs now.
	skipAll := fc.skipBindings(s.Body)
	returns := false
	ir.WalkStmt(s.Body, nil, func(st ir.Stmt) {
		if _, ok := st.(*ir.ReturnStmt); ok {
			returns = true
		}
	})
	// region runs the region on frame f: its predicate, its body, then its
	// deferred waits, which hold before the task completes as an outlined
	// kernel's do (gathered instead when a manual scope launched it).
	region := func(f *frame) ([]any, bool, error) {
		col := f.x.rc.takeCollector()
		if pred != nil {
			v, err := pred(f)
			if err != nil {
				return nil, false, posErr(s.Pos, fmt.Errorf("predicate: %w", err))
			}
			if !truthy(v) {
				return nil, false, skip(f)
			}
		}
		n := len(f.x.rc.deferred)
		vals, ret, err := launch(f)
		if err == nil {
			err = f.x.finishDeferred(n, col, true)
		}
		return vals, ret, err
	}
	return func(fr *frame) ([]any, bool, error) {
		dv, err := fr.x.compiledDeps(deps, fr)
		if err != nil {
			return nil, false, err
		}
		if fr.x.deferrable() && !returns {
			on := fr
			now := func() ([]any, error) {
				_, _, err := region(on)
				return nil, err
			}
			placeholder := func() ([]any, error) {
				on = &frame{x: fr.x, slots: append([]any(nil), fr.slots...), yv: fr.yv, args: fr.args, ituples: fr.ituples}
				return nil, skipAll(fr)
			}
			_, id, err := fr.x.launchInScope(name, s.Pos, depIDs(dv), now, placeholder)
			if err != nil {
				return nil, false, err
			}
			if tid >= 0 {
				fr.slots[tid] = id
			}
			return nil, false, nil
		}
		if len(noDep) > 0 {
			nd := make([]any, len(noDep))
			for i, e := range noDep {
				if nd[i], err = e(fr); err != nil {
					return nil, false, err
				}
			}
			fr.x.markRegionNoDep(nd)
		}
		id, end := fr.x.beginTask(name, s.Pos, depIDs(dv))
		vals, ret, err := region(fr)
		end()
		if err != nil || ret {
			return vals, ret, err
		}
		if tid >= 0 {
			fr.slots[tid] = id
		}
		return nil, false, nil
	}
}

// skipBindings binds what a retired launch's body would have defined to
// what it leaves as it was: a kernel call's results to the arguments it
// returns, a store's result to its target tensor, a tuple element to the
// element. Other definitions (on-chip tiles) stay unbound: nothing after
// the launch can see them.
func (fc *fcomp) skipBindings(body ir.Stmt) func(fr *frame) error {
	var steps []func(fr *frame) error
	ir.WalkStmt(body, nil, func(st ir.Stmt) {
		a, ok := st.(*ir.AssignStmt)
		if !ok {
			return
		}
		slot := fc.slot(a.Var.Name)
		switch v := a.Value.(type) {
		case *ir.Call:
			if v.Fn != nil {
				fn := fc.prog.Function(v.Fn.Name)
				if fn == nil {
					return
				}
				args := fc.exprs(v.Args)
				steps = append(steps, func(fr *frame) error {
					vals := make([]any, len(args))
					for i, e := range args {
						x, err := e(fr)
						if err != nil {
							return err
						}
						vals[i] = x
					}
					out, err := skippedResults(v, fn, vals)
					if err != nil {
						return err
					}
					switch len(out) {
					case 0:
					case 1:
						fr.slots[slot] = out[0]
					default:
						fr.slots[slot] = out
					}
					return nil
				})
				return
			}
			if k := v.Op.AliasedArg(); k >= 0 && k < len(v.Args) {
				if _, tensor := ir.AsTensorLike(a.Var.Type()); tensor {
					e := fc.expr(v.Args[k])
					steps = append(steps, func(fr *frame) error {
						x, err := e(fr)
						fr.slots[slot] = x
						return err
					})
				}
			}
		case *ir.TupleGetItem:
			e := fc.expr(v)
			steps = append(steps, func(fr *frame) error {
				x, err := e(fr)
				fr.slots[slot] = x
				return err
			})
		}
	})
	return func(fr *frame) error {
		for _, st := range steps {
			if err := st(fr); err != nil {
				return err
			}
		}
		return nil
	}
}

// --- integer expressions, unboxed

// iexpr evaluates an integer expression without boxing it.
type iexpr func(fr *frame) (int64, error)

// isIntExpr reports whether e is statically an integer scalar (INDEX
// counts); bools are not.
func isIntExpr(e ir.Expr) bool {
	st, ok := e.Type().(*ir.ScalarType)
	return ok && st.DType.IsInt()
}

// intExpr compiles an integer expression to an unboxed evaluator. A value
// that is not an int64 at run time converts as an op's integer argument
// does (toInt), so the result is the one the boxed path gives.
func (fc *fcomp) intExpr(e ir.Expr) iexpr {
	switch e := e.(type) {
	case *ir.ConstInt:
		v := e.Value
		return func(*frame) (int64, error) { return v, nil }
	case *ir.Var:
		return fc.intVariable(e.Name)
	case *ir.IterArg:
		return fc.intVariable(e.Name)
	case *ir.BinaryExpr:
		if ie := fc.intBinary(e); ie != nil {
			return ie
		}
	}
	ce := fc.expr(e)
	return func(fr *frame) (int64, error) {
		v, err := ce(fr)
		if err != nil {
			return 0, err
		}
		return toInt(v)
	}
}

func (fc *fcomp) intVariable(name string) iexpr {
	slot := fc.slot(name)
	return func(fr *frame) (int64, error) {
		v := fr.slots[slot]
		if n, ok := v.(int64); ok {
			return n, nil
		}
		if v == unset {
			return 0, fr.x.unbound(name)
		}
		return toInt(v)
	}
}

// intBinary compiles integer arithmetic on two integer operands (nil for
// anything else): the arithmetic of binaryVals, without boxing.
func (fc *fcomp) intBinary(e *ir.BinaryExpr) iexpr {
	if !e.DType.IsInt() || !isIntExpr(e.Left) || !isIntExpr(e.Right) {
		return nil
	}
	if _, ok, _ := ir.IntArith(e.Op, 1, 1); !ok {
		return nil
	}
	l, r, op, dt := fc.intExpr(e.Left), fc.intExpr(e.Right), e.Op, e.DType
	return func(fr *frame) (int64, error) {
		a, err := l(fr)
		if err != nil {
			return 0, err
		}
		b, err := r(fr)
		if err != nil {
			return 0, err
		}
		v, _, err := ir.IntArith(op, a, b)
		if err != nil {
			return 0, err
		}
		return wrapInt(v, dt), nil
	}
}

// intTuple is an op's tuple argument whose elements are all integers,
// decoded once (x.ints takes it as it is). A call site owns one per frame.
type intTuple struct{ v []int }

// intArgTuple compiles an all-integer tuple argument of an op (nil when
// some element is not statically an integer).
func (fc *fcomp) intArgTuple(e *ir.MakeTuple) cexpr {
	elems := make([]iexpr, len(e.Elems))
	consts := make([]int, len(e.Elems))
	allConst := true
	for i, el := range e.Elems {
		if !isIntExpr(el) {
			return nil
		}
		if c, ok := el.(*ir.ConstInt); ok {
			consts[i] = int(c.Value)
		} else {
			allConst = false
		}
		elems[i] = fc.intExpr(el)
	}
	if allConst {
		t := &intTuple{v: consts}
		return constant(t)
	}
	site := fc.nituples
	fc.nituples++
	return func(fr *frame) (any, error) {
		t := fr.ituples[site]
		if t == nil {
			t = &intTuple{v: make([]int, len(elems))}
			fr.ituples[site] = t
		}
		for i, el := range elems {
			v, err := el(fr)
			if err != nil {
				return nil, err
			}
			t.v[i] = int(v)
		}
		return t, nil
	}
}
