package runtime

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"runtime/debug"
	"strings"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// OpFunc is an op's simulated semantics, attached to its registry entry
// under FacetKey. args are the evaluated positional arguments (see the value
// kinds in values.go); the result is bound to the call's variable.
type OpFunc func(x *Exec, c *ir.Call, args []any) (any, error)

// FacetKey is the ir.OpDef facet the simulator's semantics hang under.
const FacetKey = "sim"

// Register attaches fn as op's simulated semantics.
func Register(op *ir.OpDef, fn OpFunc) { op.SetFacet(FacetKey, fn) }

// Exec is one function activation on one rank (Rank -1 is the host).
type Exec struct {
	s    *sim
	rank int
	fn   *ir.Function
	env  map[string]any // pre-SSA IR reassigns by name, Python style
	rc   *rankCtx
	// events are the activation's raised cross-core events (crosscore.go).
	events *coreEvents
}

// rankCtx is what all activations on one rank share.
type rankCtx struct {
	// manual is the running pl.manual_scope (nil: none, or an auto scope
	// inside one); task is the task of it running now (taskcheck.go).
	manual *manualScope
	task   *taskRec
	// auto records the running auto scope's tasks when the program marks
	// pl.no_dep slots (nil otherwise, or not yet); noDep are the
	// buffers the launch about to begin passes only through such slots.
	auto  *manualScope
	noDep map[*byte]bool
	cur   *ir.Call // the op executing, for panic reports
	curFn string
	rng   *rand.Rand // schedule perturbation (nil: none)
	lane  *lane
	ev    *rec // the op being recorded
	// block and blocks are the running Spmd launch's block index and
	// block count (blocks 0: no launch, a kernel is block 0 of 1).
	block, blocks int
	// split is the running pl.split_aiv region (nil: none): its lane and
	// the halves its aic_gathers have joined so far (split_aiv.go).
	split    *splitRegion
	sched    *blockSched // the running launch's block scheduler (syncall.go)
	group    *mixedGroup // the running Group launch whose members use pipes (pipes.go)
	deferred []deferredWait
	// collect is armed by a manual scope's launch for its function's
	// deferred waits (later.go).
	collect *deferCollector
	// tileMem is pooled memory lent to the running task's large tiles,
	// recycled when the task ends: tiles are on-chip values that never
	// outlive their task (its results are dropped, and ranks exchange
	// data only through windows), and reusing the memory spares every
	// load of a large tile a fresh allocation and its page faults.
	// tileBytes is its total, capped at maxTileMem: past that (a long loop
	// loading tile after tile) tiles get ordinary memory the GC can reclaim
	// before the task ends.
	tileMem   [][]byte
	tileBytes int
	small     slabs // small tiles (arena.go)
	// freeEvents are recorded events' scratch, reused by the next ops.
	freeEvents []*rec
	// ops counts the ops run since they were last added to sim.ops.
	ops int64
	// lastT is when the rank's last op ended or its task started (the next
	// op's start on the timeline).
	lastT time.Duration
	// sc is the running op's scratch, heads the task's tile headers
	// (scratch.go); cellNames caches the timeline's names of signal cells.
	sc        opScratch
	heads     taskHeads
	cellNames map[cellNameKey]int32
	// layouts are the view layouts handed to an observer (never reused).
	layouts []layoutBuf
	// ub is the rank's simulated on-chip buffer; place is the address the
	// running op's result tile takes on it, placed what it got (arena.go).
	ub     ubState
	place  *placement
	placed []float32
	// job is the task running on this context's core, w its rank's cores
	// (cores.go); startDelay shuffles the start order of a seeded run.
	job        *job
	w          *worker
	startDelay time.Duration
}

// newEvent is scratch for the event of an op about to run.
func (rc *rankCtx) newEvent() *rec {
	if n := len(rc.freeEvents); n > 0 {
		ev := rc.freeEvents[n-1]
		rc.freeEvents = rc.freeEvents[:n-1]
		return ev
	}
	return new(rec)
}

// maxTileMem bounds the pooled tile memory one task holds.
const maxTileMem = 64 << 20

// allocF32 returns n float32s for a tile of the running task, zeroed when
// zero is set (otherwise the caller overwrites all of them).
func (x *Exec) allocF32(n int, zero bool) []float32 {
	if x.rank < 0 || x.rc.tileBytes+4*n > maxTileMem || !nativeLE {
		return make([]float32, n)
	}
	if p := x.rc.place; p != nil {
		if f := x.rc.ub.arena(p, n); f != nil {
			// The op's result tile, at its planned address (see compile.go).
			x.rc.place, x.rc.placed = nil, f
			if zero {
				clear(f)
			}
			return f
		}
	}
	if 4*n < minPooled {
		f := x.rc.small.f32(n)
		x.rc.tileBytes += 4 * n
		if zero {
			clear(f)
		}
		return f
	}
	b := getBuf(4 * n)
	f, ok := asF32(b)
	if !ok {
		putBuf(b)
		return make([]float32, n)
	}
	if zero {
		clear(f)
	}
	x.rc.tileMem = append(x.rc.tileMem, b)
	x.rc.tileBytes += len(b)
	return f
}

// newTile is newTile with the running task's memory for FP32 elements.
func (x *Exec) newTile(dt ir.DataType, shape []int, zero bool) *Tile {
	if dt != ir.FP32 {
		return newTile(dt, shape)
	}
	return x.tileHead(dt, shape, x.allocF32(numel(shape), zero))
}

// releaseTiles recycles the memory of the task's tiles once it ended.
func (rc *rankCtx) releaseTiles() {
	for i, b := range rc.tileMem {
		putBuf(b)
		rc.tileMem[i] = nil
	}
	rc.tileMem, rc.tileBytes = rc.tileMem[:0], 0
	rc.small.release()
	rc.heads.release()
}

type deferredWait struct {
	buf  *WindowBuf
	cell Cell
	cond Cond
	who  Origin
}

// Rank is the executing rank (-1 on the host).
func (x *Exec) Rank() int { return x.rank }

// World is the world size.
func (x *Exec) World() int { return x.s.world }

func (x *Exec) who(c *ir.Call) Origin { return Origin{Call: c, Func: x.fnName()} }

func (x *Exec) fnName() string {
	if x.fn == nil {
		return ""
	}
	return x.fn.Name
}

// --- tasks: what the host dispatches to a rank (run on its cores, cores.go)

type task struct {
	fn   *ir.Function // a program function, or nil for an op run as a task
	op   OpFunc       // a host collective (builtin.tensor.*, or pld.tensor.* on the host)
	call *ir.Call     // the dispatching call
	args []any
}

// runTask runs one dispatched function on rank r; a panic comes back as an
// error naming the op and its position.
func (s *sim) runTask(r int, rc *rankCtx, t task) (err error) {
	x := &Exec{s: s, rank: r, fn: t.fn, rc: rc}
	rc.lastT = time.Since(s.timeline.origin)
	defer rc.flushOps(s)
	defer rc.releaseTiles()
	defer s.taskStart(r)() // relaxed memory: a kernel starts with an empty cache and ends with its writes landed
	defer func() {
		if p := recover(); p != nil {
			err = rc.panicErr(r, p)
		}
	}()
	if t.op != nil {
		// A host collective runs its device part on every rank.
		x.fn = &ir.Function{Name: "host " + t.call.Name()}
		rc.curFn = x.fn.Name
		_, err = x.runOp(t.call, t.op, t.args)
		return err
	}
	var vals []any
	if cf := s.compiled.lookup(t.fn); cf != nil {
		vals, err = x.ccall(cf, t.args)
	} else {
		vals, err = x.call(t.fn, t.args)
	}
	if t.call == s.entryCall && t.call != nil {
		s.entryRets = vals // the host the simulator wrote for a one-device program returns these
	}
	return err
}

func (rc *rankCtx) panicErr(rank int, p any) error {
	where := fmt.Sprintf("rank %d", rank)
	if rank < 0 {
		where = "host"
	}
	if rc.cur != nil {
		msg := fmt.Sprintf("simulator failure in %s (%s, %s): %v", rc.cur.Name(), where, rc.curFn, p)
		if debugPanics {
			msg += "\n" + string(debug.Stack())
		}
		return posErr(rc.cur.Pos, fmt.Errorf("%s", msg))
	}
	return fmt.Errorf("simulator failure (%s, %s): %v", where, rc.curFn, p)
}

// debugPanics adds Go stacks to recovered panics (for simulator developers).
var debugPanics = false

// builtinCollective maps a host-lowered collective callee to the device
// collective whose body it runs ("" for any other callee).
func builtinCollective(name string) string {
	if d, ok := ir.LookupOp(name); ok && d.Collective != nil {
		return d.Collective.Name
	}
	return ""
}

// --- the host

func (s *sim) runHost(f *ir.Function, args []*tensor.Tensor) (err error) {
	if len(args) != len(f.Params) {
		return fmt.Errorf("%s takes %d host tensors (%s), given %d", f.Name, len(f.Params), paramNames(f), len(args))
	}
	rc := &rankCtx{lane: s.timeline.lane(-1)}
	x := &Exec{s: s, rank: -1, fn: f, env: map[string]any{}, rc: rc}
	for i, p := range f.Params {
		if args[i] == nil {
			return fmt.Errorf("%s: host tensor %s is nil", f.Name, p.Name)
		}
		if st, ok := p.Type().(*ir.ScalarType); ok {
			c, err := hostScalar(args[i], p.Name, st.DType)
			if err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
			x.env[p.Name] = c
			continue
		}
		v, err := hostView(args[i], p)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		if len(v.host) > 0 {
			if s.hostNames == nil {
				s.hostNames = map[*byte]string{}
			}
			s.hostNames[&v.host[0]] = p.Name
		}
		x.env[p.Name] = v
		x.bindDims(p.Type(), v.shape)
	}
	s.sched.addLive(1) // the host is live while it runs: it may still dispatch wakers
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = rc.panicErr(-1, p)
			}
		}()
		s.hostRets, _, err = x.stmt(f.Body)
	}()
	rc.flushOps(s)
	if err != nil && err != errAborted {
		s.sched.fail(err)
	}
	s.sched.doneLive()
	if s.ctl != nil {
		s.ctl.finish() // the ranks run out their work under control
	}
	s.closeWorkers()
	if first := s.sched.firstErr(); first != nil {
		return first
	}
	return err
}

// returned is what the host function returned: its own return values, or
// for a one-device program (whose host the simulator writes) its chip
// orchestrator's. Read once the run is over.
func (s *sim) returned() []any {
	if s.entryCall != nil {
		return s.entryRets
	}
	return s.hostRets
}

// createdReturns are the tensors among a host function's return values
// that it created itself (a @pl.jit entry's `return c` after
// pl.create_tensor), copied out in row-major order. A returned parameter,
// or a view into one (it shares the parameter's memory, which hostNames
// knows), is already among the run's outputs.
func (s *sim) createdReturns(rets []any) []*tensor.Tensor {
	var out []*tensor.Tensor
	for _, r := range rets {
		v, ok := r.(*view)
		if !ok || v.win != nil || len(v.host) == 0 {
			continue
		}
		if _, param := s.hostNames[&v.host[0]]; param {
			continue
		}
		out = append(out, tensor.FromBytes(v.dt, v.bytesOf(v.host), v.shape...))
	}
	return out
}

// bytesOf is what v sees of mem (its memory, or a snapshot of it), in
// row-major order.
// Bytes past mem's end (a returned slice that overhangs its tensor) read
// as zero.
func (v *view) bytesOf(mem []byte) []byte {
	b := make([]byte, 0, numel(v.shape)*v.dt.Bytes())
	for _, sg := range v.segments() {
		lo, hi := min(sg.Off, len(mem)), min(sg.Off+sg.Len, len(mem))
		b = append(b, mem[lo:hi]...)
		b = append(b, make([]byte, sg.Len-(hi-lo))...)
	}
	return b
}

func paramNames(f *ir.Function) string {
	names := make([]string, len(f.Params))
	for i, p := range f.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// hostScalar is the value of a scalar parameter of the entry: a run passes
// it as a one-element tensor (tensor.Full(ir.INDEX, 48, 1)), whose element
// becomes an int64, float64 or bool as the parameter's dtype says.
func hostScalar(t *tensor.Tensor, name string, dt ir.DataType) (any, error) {
	if t.Numel() != 1 {
		return nil, fmt.Errorf("scalar %s (pl.Scalar[%s]): expected a one-element tensor, given shape %v", name, dt, dimsText(t.Shape()))
	}
	v := t.At(make([]int, t.Dim())...)
	switch {
	case dt == ir.BOOL:
		return v != 0, nil
	case dt.IsFloat():
		return v, nil
	case dt.IsInt():
		if v != math.Trunc(v) {
			return nil, fmt.Errorf("scalar %s (pl.Scalar[%s]): expected an integer, given %v", name, dt, v)
		}
		return int64(v), nil
	}
	return nil, fmt.Errorf("scalar %s: the simulator does not take pl.Scalar[%s] arguments", name, dt)
}

// hostView wraps a host tensor (no copy: results land in place), checking
// its dtype and static dims against the parameter.
func hostView(t *tensor.Tensor, p *ir.Var) (*view, error) {
	if !supported(t.DType()) {
		return nil, fmt.Errorf("host tensor %s: the simulator does not support dtype %s", p.Name, t.DType().Name())
	}
	vdt := t.DType()
	if dims, dt, ok := ir.ShapeOf(p.Type()); ok {
		// An INDEX tensor arrives as INT64 (torch has no index type, and
		// upstream's runtime passes int64 tensors there): same bytes.
		if dt == ir.INDEX && vdt == ir.INT64 {
			vdt = ir.INDEX
		}
		if dt != vdt {
			return nil, fmt.Errorf("host tensor %s: expected dtype %s, given %s", p.Name, dt, t.DType())
		}
		if len(dims) != t.Dim() {
			return nil, fmt.Errorf("host tensor %s: expected rank %d (%s), given shape %v", p.Name, len(dims), ir.ShapeString(dims), dimsText(t.Shape()))
		}
		for i, d := range dims {
			if v, c := ir.ConstValue(d); c && int(v) != t.Shape()[i] {
				return nil, fmt.Errorf("host tensor %s: expected shape %s, given %v", p.Name, ir.ShapeString(dims), dimsText(t.Shape()))
			}
		}
	}
	sh := t.Shape()
	return &view{dt: vdt, shape: sh, strides: rowMajor(sh), host: t.Bytes()}, nil
}

// bindDims binds symbolic dims (NR = pl.dynamic) to the sizes of a value.
func (x *Exec) bindDims(t ir.Type, shape []int) {
	dims, _, ok := ir.ShapeOf(t)
	if !ok || len(dims) != len(shape) {
		return
	}
	for i, d := range dims {
		if v, isVar := d.(*ir.Var); isVar {
			if _, bound := x.env[v.Name]; !bound {
				x.env[v.Name] = int64(shape[i])
			}
		}
	}
}

// call runs fn on this rank with evaluated arguments.
func (x *Exec) call(fn *ir.Function, args []any) ([]any, error) {
	if len(args) != len(fn.Params) {
		return nil, fmt.Errorf("%s takes %d arguments, given %d", fn.Name, len(fn.Params), len(args))
	}
	inner := &Exec{s: x.s, rank: x.rank, fn: fn, env: make(map[string]any, 16), rc: x.rc}
	for i, p := range fn.Params {
		args[i] = asParam(args[i], staticShape(p.Type()))
		inner.env[p.Name] = args[i]
		switch v := args[i].(type) {
		case *view:
			inner.bindDims(p.Type(), v.shape)
		case *Tile:
			inner.bindDims(p.Type(), v.Shape)
		}
	}
	// Restored on return only: after a panic the recovering frame reports it.
	saved := x.rc.curFn
	x.rc.curFn = fn.Name
	vals, err := inner.run()
	x.rc.curFn = saved
	return vals, err
}

// run executes the activation's body.
func (x *Exec) run() ([]any, error) {
	col := x.rc.takeCollector()
	nDeferred := len(x.rc.deferred)
	vals, _, err := x.stmt(x.fn.Body)
	if err != nil {
		return nil, err
	}
	// defer_wait: the task completes once its deferred conditions hold.
	if err := x.finishDeferred(nDeferred, col, false); err != nil {
		return nil, err
	}
	return vals, nil
}

// stmt executes s. returned reports a return statement; a yield's values
// come back with returned false.
func (x *Exec) stmt(s ir.Stmt) (vals []any, returned bool, err error) {
	switch s := s.(type) {
	case nil:
		return nil, false, nil
	case *ir.SeqStmts:
		for _, c := range s.Stmts {
			v, ret, err := x.stmt(c)
			if err != nil || ret {
				return v, ret, err
			}
			if _, y := c.(*ir.YieldStmt); y {
				return v, false, nil
			}
		}
		return nil, false, nil
	case *ir.AssignStmt:
		v, err := x.expr(s.Value)
		if err != nil {
			return nil, false, err
		}
		x.env[s.Var.Name] = v
		return nil, false, nil
	case *ir.EvalStmt:
		_, err := x.expr(s.Expr)
		return nil, false, err
	case *ir.ReturnStmt:
		out, err := x.exprs(s.Values)
		return out, err == nil, err
	case *ir.YieldStmt:
		out, err := x.exprs(s.Values)
		return out, false, err
	case *ir.IfStmt:
		c, err := x.expr(s.Cond)
		if err != nil {
			return nil, false, err
		}
		body := s.Else
		if truthy(c) {
			body = s.Then
		}
		vals, ret, err := x.stmt(body)
		if err != nil || ret {
			return vals, ret, err
		}
		for i, rv := range s.ReturnVars {
			if i < len(vals) {
				x.env[rv.Name] = vals[i]
			}
		}
		return nil, false, nil
	case *ir.ForStmt:
		return x.forStmt(s)
	case *ir.WhileStmt:
		return x.whileStmt(s)
	case *ir.BreakStmt:
		return nil, false, errBreak
	case *ir.ContinueStmt:
		return nil, false, errContinue
	case *ir.ScopeStmt:
		if s.Kind == ir.ScopeSpmd {
			n, err := x.expr(s.CoreNum)
			if err != nil {
				return nil, false, err
			}
			return x.spmd(s, n, func() ([]any, bool, error) { return x.stmt(s.Body) })
		}
		// A scope runs its body where it stands: the program as written
		// computes what its outlined form does. A runtime scope sets how
		// its tasks are checked; an InCore region is a task.
		if s.Kind == ir.ScopeCluster {
			return x.stmt(s.Body)
		}
		if s.Kind == ir.ScopeSplitAiv {
			return x.splitAiv(s, func() ([]any, bool, error) { return x.stmt(s.Body) })
		}
		if s.Kind == ir.ScopeRuntime {
			saved := x.rc.enterScope(s.Manual)
			vals, ret, err := x.stmt(s.Body)
			if err == nil && s.Manual {
				err = x.completeLater(x.rc.manual)
			}
			x.rc.leaveScope(saved)
			return vals, ret, err
		}
		deps, err := x.depValues(s.Deps)
		if err != nil {
			return nil, false, err
		}
		if len(s.NoDepArgs) > 0 {
			nd := make([]any, len(s.NoDepArgs))
			for i, e := range s.NoDepArgs {
				if nd[i], err = x.expr(e); err != nil {
					return nil, false, err
				}
			}
			x.markRegionNoDep(nd)
		}
		id, end := x.beginTask(scopeTaskName(x.fnName(), s), s.Pos, depIDs(deps))
		nDeferred := len(x.rc.deferred)
		vals, ret, err := x.stmt(s.Body)
		if err == nil {
			err = x.waitDeferred(nDeferred, true) // the region's task completes once they hold
		}
		end()
		if err != nil || ret {
			return vals, ret, err
		}
		if s.TaskID != nil {
			x.env[s.TaskID.Name] = id
		}
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("the simulator cannot run statement %T", s)
}

func (x *Exec) exprs(es []ir.Expr) ([]any, error) {
	out := make([]any, len(es))
	for i, e := range es {
		v, err := x.expr(e)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (x *Exec) forStmt(s *ir.ForStmt) ([]any, bool, error) {
	var b [3]int64
	for i, e := range []ir.Expr{s.Start, s.Stop, s.Step} {
		if e == nil && i == 2 {
			b[i] = 1
			continue
		}
		v, err := x.expr(e)
		if err != nil {
			return nil, false, err
		}
		n, err := toInt(v)
		if err != nil {
			return nil, false, fmt.Errorf("for %s: bound: %w", s.LoopVar.Name, err)
		}
		b[i] = n
	}
	if b[2] == 0 {
		return nil, false, fmt.Errorf("for %s: step is zero", s.LoopVar.Name)
	}
	if err := x.initIterArgs(s.IterArgs); err != nil {
		return nil, false, err
	}
	for i := b[0]; (b[2] > 0 && i < b[1]) || (b[2] < 0 && i > b[1]); i += b[2] {
		if x.s.sched.stopped.Load() {
			return nil, false, errAborted
		}
		x.env[s.LoopVar.Name] = i
		if exit, vals, ret, err := x.loopStep(s.Body, s.IterArgs); exit {
			if err != nil || ret {
				return vals, ret, err
			}
			break
		}
	}
	x.bindReturnVars(s.IterArgs, s.ReturnVars)
	return nil, false, nil
}

// initIterArgs binds a loop's iter-args to their inits.
func (x *Exec) initIterArgs(ias []*ir.IterArg) error {
	for _, ia := range ias {
		v, err := x.expr(ia.Init)
		if err != nil {
			return err
		}
		x.env[ia.Name] = v
	}
	return nil
}

// loopStep runs one iteration of a loop body and binds the iter-args to
// what it yields. exit reports that the loop ends here: a break (vals,
// ret and err unset), a return or an error.
func (x *Exec) loopStep(body ir.Stmt, ias []*ir.IterArg) (exit bool, vals []any, ret bool, err error) {
	vals, ret, err = x.stmt(body)
	switch brk, next := loopControl(err); {
	case brk:
		return true, nil, false, nil
	case next:
		return false, nil, false, nil
	case err != nil || ret:
		return true, vals, ret, err
	}
	for k, ia := range ias {
		if k < len(vals) {
			x.env[ia.Name] = vals[k]
		}
	}
	return false, nil, false, nil
}

// bindReturnVars binds a finished loop's return variables to its
// iter-args' last values.
func (x *Exec) bindReturnVars(ias []*ir.IterArg, rvs []*ir.Var) {
	for k, rv := range rvs {
		if k < len(ias) {
			x.env[rv.Name] = x.env[ias[k].Name]
		}
	}
}

// whileStmt runs a while loop: the condition reads the iter-args (SSA
// form) or the names the body updates (as written).
func (x *Exec) whileStmt(s *ir.WhileStmt) ([]any, bool, error) {
	if err := x.initIterArgs(s.IterArgs); err != nil {
		return nil, false, err
	}
	for {
		if x.s.sched.stopped.Load() {
			return nil, false, errAborted
		}
		c, err := x.expr(s.Cond)
		if err != nil {
			return nil, false, err
		}
		if !truthy(c) {
			break
		}
		if exit, vals, ret, err := x.loopStep(s.Body, s.IterArgs); exit {
			if err != nil || ret {
				return vals, ret, err
			}
			break
		}
	}
	x.bindReturnVars(s.IterArgs, s.ReturnVars)
	return nil, false, nil
}

// A break or continue statement (in the program as written, before
// CtrlFlowTransform lowers them) unwinds to its loop as one of these.
var (
	errBreak    = errors.New("break outside a loop")
	errContinue = errors.New("continue outside a loop")
)

// loopControl reports whether err is a break or a continue reaching its
// loop.
func loopControl(err error) (brk, next bool) {
	return err == errBreak, err == errContinue
}

func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case int64:
		return v != 0
	case float64:
		return v != 0
	}
	return false
}

func toInt(v any) (int64, error) {
	switch v := v.(type) {
	case int64:
		return v, nil
	case float64:
		if v != math.Trunc(v) {
			return 0, fmt.Errorf("expected an integer, got %v", v)
		}
		return int64(v), nil
	case bool:
		return b2i(v), nil
	}
	return 0, fmt.Errorf("expected an integer, got %s", describe(v))
}

func toFloat(v any) (float64, error) {
	switch v := v.(type) {
	case int64:
		return float64(v), nil
	case float64:
		return v, nil
	case bool:
		return float64(b2i(v)), nil
	}
	return 0, fmt.Errorf("expected a number, got %s", describe(v))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// describe names a value's kind for error messages.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "no value"
	case *view:
		return "a tensor (" + v.String() + ")"
	case *Tile:
		return fmt.Sprintf("a tile %v %s", dimsText(v.Shape), v.DType.Name())
	case *WindowBuf:
		return "window buffer " + v.Name
	case []any, *intTuple:
		return "a tuple"
	case commCtx:
		return "a comm context"
	case *prefetchCtx:
		return "a prefetch context"
	case asyncEvent:
		return "a prefetch event"
	case asyncSession:
		return "a prefetch session"
	}
	return fmt.Sprintf("%T", v)
}

func (x *Exec) expr(e ir.Expr) (any, error) {
	switch e := e.(type) {
	case *ir.Var:
		return x.lookup(e.Name)
	case *ir.IterArg:
		return x.lookup(e.Name)
	case *ir.WindowBuffer:
		return x.lookup(e.Base.Name)
	case *ir.MemRef:
		return x.lookup(e.Name)
	case *ir.ConstInt:
		return e.Value, nil
	case *ir.ConstFloat:
		return e.Value, nil
	case *ir.ConstBool:
		return e.Value, nil
	case *ir.MakeTuple:
		return x.exprs(e.Elems)
	case *ir.TupleGetItem:
		t, err := x.expr(e.Tuple)
		if err != nil {
			return nil, err
		}
		l, ok := t.([]any)
		if !ok || e.Index < 0 || e.Index >= len(l) {
			return nil, fmt.Errorf("tuple index %d out of range", e.Index)
		}
		return l[e.Index], nil
	case *ir.BinaryExpr:
		return x.binary(e)
	case *ir.UnaryExpr:
		v, err := x.expr(e.X)
		if err != nil {
			return nil, err
		}
		return unary(e, v)
	case *ir.Call:
		return x.callExpr(e)
	}
	return nil, fmt.Errorf("the simulator cannot evaluate %T", e)
}

func (x *Exec) lookup(name string) (any, error) {
	v, ok := x.env[name]
	if !ok {
		where := fmt.Sprintf("rank %d", x.rank)
		if x.rank < 0 {
			where = "the host"
		}
		return nil, fmt.Errorf("variable %s has no value on %s (in %s)", name, where, x.fnName())
	}
	return v, nil
}

func (x *Exec) callExpr(c *ir.Call) (any, error) {
	args, err := x.exprs(c.Args)
	if err != nil {
		return nil, err
	}
	if c.Fn != nil {
		return x.callFunction(c, args)
	}
	if c.Op == nil {
		return nil, fmt.Errorf("a call with neither op nor function")
	}
	f, ok := c.Op.Facet(FacetKey)
	if !ok {
		return nil, x.errAt(c, fmt.Errorf("the simulator has no semantics for op %s", c.Op.Name))
	}
	if _, dispatch := c.Op.Facet(hostDispatchFacet); x.rank < 0 && !c.Op.HostSafe && !dispatch {
		// Only ops the registry marks HostSafe run on the host without
		// waiting for dispatched ranks; any other first joins them, since
		// it may touch what they write.
		x.s.join()
		if x.s.sched.stopped.Load() {
			return nil, errAborted
		}
	}
	return x.runOp(c, f.(OpFunc), args)
}

// runOp executes one op, recording it on the timeline.
func (x *Exec) runOp(c *ir.Call, f OpFunc, args []any) (any, error) {
	return x.runSiteOp(c, noSite, f, args)
}

// noSite asks runSiteOp to number the op's site itself.
const noSite = math.MinInt32

// runSiteOp is runOp for an op whose site the compiled program numbered
// (site >= 0, Timeline.static). The record is written straight into the
// rank's lane; a lane several cores share, and an op run inside another,
// record into scratch and append a copy under the lane's lock.
func (x *Exec) runSiteOp(c *ir.Call, site int32, f OpFunc, args []any) (any, error) {
	rc := x.rc
	if x.s.sched.stopped.Load() {
		return nil, errAborted
	}
	if rc.ops++; rc.ops >= opsBatch {
		x.s.ops.Add(rc.ops)
		rc.ops = 0
	}
	prev, prevEv := rc.cur, rc.ev
	if prev == nil {
		rc.sc.reset() // an op run inside another shares its scratch
	}
	rc.cur = c
	l := rc.lane
	direct := prevEv == nil && !l.shared
	var ev *rec
	if direct {
		ev = l.open()
	} else if l.max >= 0 {
		ev = rc.newEvent()
	}
	if ev != nil {
		if site == noSite {
			site = x.s.timeline.dynSite(c, x.fn)
		}
		*ev = rec{site: site, peer: -1}
		if direct && x.rank >= 0 {
			// A device op starts where the rank's previous one ended (or
			// its task started): one clock read per op instead of two.
			// What runs between two ops is the interpreter, not the device.
			ev.start = rc.lastT
		} else {
			x.s.timeline.begin(ev)
		}
	}
	rc.ev = ev
	v, err := f(x, c, args)
	rc.cur, rc.ev = prev, prevEv
	if ev != nil {
		x.s.timeline.end(ev)
		rc.lastT = ev.end
		ev.blocked = err != nil && c.Op != nil && c.Op.Class == ir.ClassWait
		if direct {
			l.commit()
		} else {
			l.add(ev)
			rc.freeEvents = append(rc.freeEvents, ev) // the lane holds a copy
		}
	}
	if err != nil {
		return nil, x.errAt(c, err)
	}
	return v, nil
}

// opsBatch is how many ops a rank counts before adding them to the run's
// total: the ranks then rarely touch the shared counter.
const opsBatch = 256

// flushOps adds the ops rc counted since its last batch to the run's total.
func (rc *rankCtx) flushOps(s *sim) {
	if rc.ops > 0 {
		s.ops.Add(rc.ops)
		rc.ops = 0
	}
}

// note annotates the op being recorded with its peer, cell and value.
func (x *Exec) note(peer int, cell string, value int64) {
	if ev := x.rc.ev; ev != nil {
		ev.peer, ev.value = int32(peer), value
		if cell != "" {
			ev.cell = x.s.timeline.cells.id(cell)
		}
	}
}

// cellNameKey is a signal cell as an op names it: buffer and index (up to
// three dims; a deeper index is formatted every time).
type cellNameKey struct {
	buf  *WindowBuf
	n    int
	i, j int
	k    int
}

// noteCell is note with the cell's name, formatted once per cell and rank.
func (x *Exec) noteCell(peer int, buf *WindowBuf, cell Cell, value int64) {
	ev := x.rc.ev
	if ev == nil {
		return
	}
	if buf == nil || len(cell.Index) > 3 || cell.Index == nil {
		ev.peer, ev.cell, ev.value = int32(peer), x.s.timeline.cells.id(cell.String()), value
		return
	}
	var ix [3]int
	copy(ix[:], cell.Index)
	k := cellNameKey{buf, len(cell.Index), ix[0], ix[1], ix[2]}
	name, ok := x.rc.cellNames[k]
	if !ok {
		if x.rc.cellNames == nil {
			x.rc.cellNames = map[cellNameKey]int32{}
		}
		name = x.s.timeline.cells.id(cell.String())
		x.rc.cellNames[k] = name
	}
	ev.peer, ev.cell, ev.value = int32(peer), name, value
}

func (x *Exec) callFunction(c *ir.Call, args []any) (any, error) {
	dev := c.Device()
	var fn *ir.Function
	var op OpFunc
	if name := builtinCollective(c.Fn.Name); name == "" {
		if fn = x.s.prog.Function(c.Fn.Name); fn == nil {
			return nil, posErr(c.Pos, fmt.Errorf("call of unknown function %s", c.Fn.Name))
		}
	} else if dev == nil {
		return nil, posErr(c.Pos, fmt.Errorf("%s needs device=", c.Fn.Name))
	} else {
		f, ok := ir.MustOp(name).Facet(FacetKey)
		if !ok {
			return nil, posErr(c.Pos, fmt.Errorf("the simulator has no semantics for %s", name))
		}
		op = f.(OpFunc)
	}
	if fn != nil && fn.IsHostCallback() {
		return x.hostCallback(c, fn, args)
	}
	if dev != nil {
		if x.rank >= 0 {
			return nil, posErr(c.Pos, fmt.Errorf("%s: device= dispatch is only valid in the host orchestrator", c.Fn.Name))
		}
		v, err := x.expr(dev)
		if err != nil {
			return nil, err
		}
		r, err := toInt(v)
		if err != nil {
			return nil, posErr(c.Pos, fmt.Errorf("%s: device=: %w", c.Fn.Name, err))
		}
		if r < 0 || int(r) >= x.s.world {
			return nil, posErr(c.Pos, fmt.Errorf("%s: device=%d is outside the world of %d ranks", c.Fn.Name, r, x.s.world))
		}
		if fn != nil && len(args) != len(fn.Params) {
			return nil, posErr(c.Pos, fmt.Errorf("%s takes %d arguments, given %d", fn.Name, len(fn.Params), len(args)))
		}
		x.s.ops.Add(1)
		t := task{fn: fn, op: op, call: c, args: args}
		if x.s.ctl != nil {
			if err := x.s.ctlDispatch(int(r), t); err != nil {
				return nil, err
			}
		}
		x.s.dispatch(int(r), t)
		return nil, nil
	}
	if c.IsSubmit() {
		deps, err := x.depValues(c.Deps())
		if err != nil {
			return nil, err
		}
		run := func() ([]any, error) { return x.call(fn, args) }
		var placeholder func() ([]any, error)
		if c.CoreNum() == nil {
			placeholder = func() ([]any, error) { return skippedResults(c, fn, args) }
		}
		if n, p := c.CoreNum(), c.Predicate(); n != nil || p != nil {
			spec := launchSpec{fn: fn}
			if n != nil {
				spec.cores = func() (any, error) { return x.expr(n) }
				spec.together = meetsAtBarrier(x.s.prog, fn.Body)
			}
			if p != nil {
				spec.pred = func() (any, error) { return x.expr(p) }
			}
			run = x.launch(c, spec, args, run)
		}
		x.markNoDep(c, args)
		return x.submit(c, deps, run, placeholder)
	}
	end := noTask
	if x.records() {
		x.markNoDep(c, args)
		_, end = x.beginTask(fn.Name, c.Pos, nil) // a plain call is a task without deps
	}
	out, err := x.call(fn, args)
	end()
	if err != nil {
		return nil, err
	}
	if len(out) == 1 {
		return out[0], nil
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// hostCallback runs a host callback (a HOST SubWorker whose body is `...`
// or host Python) through the Go function the run binds to its name: the
// tensor arguments go in as copies, and Out / InOut ones are written back.
//
// A callback's result, when the function declares one, is its Out or InOut
// argument of that type (as upstream's SubWorkers return the f they fill):
// Go callbacks pass data back only through their arguments.
func (x *Exec) hostCallback(c *ir.Call, fn *ir.Function, args []any) (any, error) {
	fail := func(format string, a ...any) (any, error) { return nil, posErr(c.Pos, fmt.Errorf(format, a...)) }
	if c.Device() != nil || x.rank >= 0 {
		return fail("%s is a host callback (a HOST SubWorker): the host orchestrator calls it, without device=", fn.Name)
	}
	// The callback reads host tensors the dispatched ranks may be writing:
	// as a host op that is not HostSafe, it runs once they are done.
	x.s.join()
	if x.s.sched.stopped.Load() {
		return nil, errAborted
	}
	cb := x.s.opts.Callbacks[fn.Name]
	if cb == nil {
		what := "a runtime-bound callback (its body is ...)"
		if fn.HostPython != "" {
			what = "a HOST SubWorker whose body is host Python, which ptorepl does not run"
		}
		return fail("%s is %s: bind a Go function to it for the run, e.g. pl.Ranks(n).Callback(%q, func(args []*tensor.Tensor) error { ... })", fn.Name, what, fn.Name)
	}
	if len(args) != len(fn.Params) {
		return fail("%s takes %d arguments, given %d", fn.Name, len(fn.Params), len(args))
	}
	ts := make([]*tensor.Tensor, len(args))
	views := make([]*view, len(args))
	for i, a := range args {
		v, ok := a.(*view)
		if !ok || v.win != nil {
			return fail("host callback %s: argument %d (%s) is %s; callbacks take host tensors", fn.Name, i, fn.Params[i].Name, describe(a))
		}
		b, err := x.readBytes(v, x.local(), c)
		if err != nil {
			return fail("host callback %s: argument %d: %v", fn.Name, i, err)
		}
		ts[i], views[i] = tensor.FromBytes(v.dt, b, v.shape...), v
	}
	if err := CallCallback(cb, ts); err != nil {
		return fail("host callback %s: %v", fn.Name, err)
	}
	for i, v := range views {
		if fn.Direction(i) == ir.In {
			continue
		}
		if err := x.writeBytes(v, x.local(), ts[i].Bytes(), c); err != nil {
			return fail("host callback %s: argument %d: %v", fn.Name, i, err)
		}
	}
	switch len(fn.ReturnTypes) {
	case 0:
		return nil, nil
	case 1:
		for i, p := range fn.Params {
			if fn.Direction(i) != ir.In && sameTensorShape(p.Type(), fn.ReturnTypes[0]) {
				return args[i], nil
			}
		}
	}
	return fail("host callback %s returns %d values; a Go callback returns data only through Out or InOut arguments, and none has the return type", fn.Name, len(fn.ReturnTypes))
}

// sameTensorShape reports whether a and b are tensors of one shape and
// element type, whatever MemRef either carries (InitMemRef gives the
// parameters one, not the return type).
func sameTensorShape(a, b ir.Type) bool {
	sa, da, oka := ir.ShapeOf(a)
	sb, db, okb := ir.ShapeOf(b)
	return oka && okb && da == db && ir.SameDims(sa, sb)
}

// CallCallback calls a user's host callback on args; a panic in it is its
// error ("panic: ..."), on every device alike.
func CallCallback(cb Callback, args []*tensor.Tensor) (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic: %v", x)
		}
	}()
	return cb(args)
}

// errAt positions an op's error at the cell line that built the op.
func (x *Exec) errAt(c *ir.Call, err error) error {
	if err == errAborted {
		return err
	}
	switch err.(type) {
	case *DeadlockError, *StopError, *OpError:
		return err
	}
	return &OpError{Op: c.Name(), Pos: c.Pos, Rank: x.rank, Func: x.fnName(), Err: err}
}

// OpError is an op that failed on a rank, positioned at the line that built it.
type OpError struct {
	Op   string
	Pos  ir.Span
	Rank int // -1: the host
	Func string
	Err  error
}

func (e *OpError) Error() string {
	where := fmt.Sprintf("rank %d", e.Rank)
	if e.Rank < 0 {
		where = "host"
	}
	s := fmt.Sprintf("%s (%s, %s): %v", e.Op, where, e.Func, e.Err)
	if e.Pos.Known() {
		return e.Pos.String() + ": " + s
	}
	return s
}

func (e *OpError) Unwrap() error { return e.Err }

func (x *Exec) binary(e *ir.BinaryExpr) (any, error) {
	l, err := x.expr(e.Left)
	if err != nil {
		return nil, err
	}
	r, err := x.expr(e.Right)
	if err != nil {
		return nil, err
	}
	return binaryVals(e, l, r)
}

// binaryVals applies e's operator to evaluated operands (shared by both
// executors).
func binaryVals(e *ir.BinaryExpr, l, r any) (any, error) {
	li, lInt := l.(int64)
	ri, rInt := r.(int64)
	if lb, ok := l.(bool); ok {
		li, lInt = b2i(lb), true
	}
	if rb, ok := r.(bool); ok {
		ri, rInt = b2i(rb), true
	}
	if lInt && rInt && !e.DType.IsFloat() {
		v, err := intBinary(e.Op, li, ri)
		if err != nil {
			return nil, err
		}
		if n, ok := v.(int64); ok && e.DType.IsInt() {
			if r := wrapInt(n, e.DType); r != n {
				return r, nil
			}
		}
		return v, nil
	}
	lf, err := toFloat(l)
	if err != nil {
		return nil, err
	}
	rf, err := toFloat(r)
	if err != nil {
		return nil, err
	}
	v, err := floatBinary(e.Op, lf, rf)
	if f, ok := v.(float64); ok && e.DType.IsFloat() {
		return round(f, e.DType), err
	}
	return v, err
}

// wrapInt is an integer result in dtype dt (a narrow type wraps as the
// device's arithmetic does).
func wrapInt(n int64, dt ir.DataType) int64 {
	if dt.IsInt() {
		return int64(round(float64(n), dt))
	}
	return n
}

func intBinary(op ir.BinaryOp, a, b int64) (any, error) {
	if v, ok, err := ir.IntArith(op, a, b); ok {
		if err != nil {
			return nil, err
		}
		return boxInt(v), nil
	}
	switch op {
	case ir.OpFloatDiv:
		if b == 0 {
			return nil, fmt.Errorf("division by zero")
		}
		return float64(a) / float64(b), nil
	case ir.OpPow:
		return int64(math.Pow(float64(a), float64(b))), nil
	case ir.OpEq:
		return a == b, nil
	case ir.OpNe:
		return a != b, nil
	case ir.OpLt:
		return a < b, nil
	case ir.OpLe:
		return a <= b, nil
	case ir.OpGt:
		return a > b, nil
	case ir.OpGe:
		return a >= b, nil
	case ir.OpAnd:
		return a != 0 && b != 0, nil
	case ir.OpOr:
		return a != 0 || b != 0, nil
	case ir.OpXor:
		return (a != 0) != (b != 0), nil
	case ir.OpBitAnd:
		return a & b, nil
	case ir.OpBitOr:
		return a | b, nil
	case ir.OpBitXor:
		return a ^ b, nil
	case ir.OpShl:
		return a << uint(b), nil
	case ir.OpShr:
		return a >> uint(b), nil
	}
	return nil, fmt.Errorf("unsupported integer operator %s", op)
}

func floatBinary(op ir.BinaryOp, a, b float64) (any, error) {
	switch op {
	case ir.OpAdd:
		return a + b, nil
	case ir.OpSub:
		return a - b, nil
	case ir.OpMul:
		return a * b, nil
	case ir.OpFloatDiv:
		return a / b, nil
	case ir.OpFloorDiv:
		return math.Floor(a / b), nil
	case ir.OpFloorMod:
		return a - math.Floor(a/b)*b, nil
	case ir.OpMin:
		return math.Min(a, b), nil
	case ir.OpMax:
		return math.Max(a, b), nil
	case ir.OpPow:
		return math.Pow(a, b), nil
	case ir.OpEq:
		return a == b, nil
	case ir.OpNe:
		return a != b, nil
	case ir.OpLt:
		return a < b, nil
	case ir.OpLe:
		return a <= b, nil
	case ir.OpGt:
		return a > b, nil
	case ir.OpGe:
		return a >= b, nil
	case ir.OpAnd:
		return a != 0 && b != 0, nil
	case ir.OpOr:
		return a != 0 || b != 0, nil
	}
	return nil, fmt.Errorf("unsupported float operator %s", op)
}

func unary(e *ir.UnaryExpr, v any) (any, error) {
	switch e.Op {
	case ir.OpCast:
		f, err := toFloat(v)
		if err != nil {
			return nil, err
		}
		switch {
		case e.DType.IsFloat():
			return round(f, e.DType), nil
		case e.DType == ir.BOOL:
			return f != 0, nil
		}
		return int64(round(f, e.DType)), nil
	case ir.OpBitNot:
		n, err := toInt(v)
		return ^n, err
	}
	switch x := v.(type) {
	case int64:
		switch e.Op {
		case ir.OpNeg:
			return -x, nil
		case ir.OpNot:
			return x == 0, nil
		case ir.OpAbs:
			if x < 0 {
				return -x, nil
			}
			return x, nil
		}
	case bool:
		if e.Op == ir.OpNot {
			return !x, nil
		}
	case float64:
		switch e.Op {
		case ir.OpNeg:
			return -x, nil
		case ir.OpAbs:
			return math.Abs(x), nil
		case ir.OpNot:
			return x == 0, nil
		}
	}
	return nil, fmt.Errorf("unsupported unary operator %s on %s", e.Op, describe(v))
}
