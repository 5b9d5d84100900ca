package runtime

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Explicit cross-core pipes. A Group whose cube (AIC) and vector (AIV)
// functions hand tiles to each other through tpush/tpop cannot run them
// one after the other: the cube may pop before the vector pushed. So the
// group launches its members together, as the device does: the cube
// function and each vector lane (two under dual_aiv_dispatch or a split)
// run as coroutines with their own on-chip buffers, one at a time in
// launch order, handing over when a pop finds its pipe empty or a push
// finds every slot taken. The semantics follow upstream's debug runtime:
//
//   - vector → cube: each lane queues what it pushes; the cube's pop takes
//     one tile from every lane (split 0: lane 0's, split 1/2: the lanes'
//     halves joined);
//   - cube → vector: a push with split 0 gives every lane the tile, with
//     split 1/2 (3/4) each lane its half; a lane's pop takes its own.
//
// A popped tile holds its slot until the consumer frees it, and a push
// waits for a free slot, so a ring that never drains deadlocks; when no
// member can go on the launch ends with a deadlock error naming what each
// waits for. A Group's statements other than member calls run once the
// members launched before them have ended (the group's return reads their
// results): the AIC member's result, or vector lane 0's.
//
// SplitVectorKernel, which rewrites a split AIV function per lane, is
// applied as the lanes run (split_lanes.go): each lane pops its half, and
// its loads, stores and valid shapes are its own.

// pipeKey names one direction of one pipe.
type pipeKey struct {
	toCube bool
	id     int64
}

func (k pipeKey) String() string {
	dir := "cube → vector"
	if k.toCube {
		dir = "vector → cube"
	}
	return fmt.Sprintf("pipe %d (%s)", k.id, dir)
}

// pipe is one direction of a pipe: per lane, the queued tiles and the
// popped ones not yet freed (on the vector → cube side, the lane that
// pushed; on the cube → vector side, the lane that pops).
type pipe struct {
	slots, slotSize int
	queue           [2][]*Tile
	held            [2]int
	cubeInit        bool
	vecInit         bool
}

// groupTask is one member activation of a mixed group: the cube function
// (lane -1) or a vector lane.
type groupTask struct {
	name  string
	cf    *cfunc
	args  []any
	lane  int
	state blockState
	wake  chan bool
	// ready, while the task waits, says whether it may go on; why says
	// what it waits for.
	ready func() bool
	why   string
	out   []any
	// The rank context the task runs with while it holds the core.
	ub    ubState
	split *splitRegion
	curFn string
}

// mixedGroup runs the members of one group launch.
type mixedGroup struct {
	x     *Exec
	lanes int // vector lanes: 1, or 2 under dual_aiv_dispatch or a split
	tasks []*groupTask
	cur   int
	pipes map[pipeKey]*pipe
	// popped is the pipe each popped tile came through (its tfree frees
	// a slot there).
	popped map[*Tile]pipeKey
	final  chan error
}

// groupMember is a call of an AIC or AIV function in a Group body.
type groupMember struct {
	call   *ir.Call
	callee *cfunc
	args   []cexpr
	slot   int // the slot the result goes to (-1: none)
}

// usesPipes reports whether s, or a function it calls, pushes or pops
// through a cross-core pipe.
func usesPipes(p *ir.Program, s ir.Stmt) bool {
	return reaches(p, s, func(c *ir.Call) bool {
		return c.Op != nil && (c.Op.PipeRole == ir.PipePush || c.Op.PipeRole == ir.PipePop)
	}, map[string]bool{})
}

// mixedGroupBody compiles a Group body whose members use pipes: member
// calls launch together, the other statements run after the members
// launched before them have ended.
func (fc *fcomp) mixedGroupBody(body ir.Stmt) cstmt {
	var stmts []ir.Stmt
	if seq, ok := body.(*ir.SeqStmts); ok {
		stmts = seq.Stmts
	} else {
		stmts = []ir.Stmt{body}
	}
	type step struct {
		members []groupMember // launched together before run
		run     cstmt
	}
	var steps []step
	var pending []groupMember
	// `return self.vector(...)` launches the member and returns its
	// result, as `result = self.vector(...); return result` does.
	var flat []ir.Stmt
	for _, s := range stmts {
		if r, ok := s.(*ir.ReturnStmt); ok && len(r.Values) == 1 {
			if c, ok := r.Values[0].(*ir.Call); ok && c.Fn != nil {
				v := ir.NewVar(fmt.Sprintf("%s result", c.Fn.Name), c.Type(), r.Pos)
				a := &ir.AssignStmt{StmtBase: r.StmtBase, Var: v, Value: c}
				if _, member := fc.groupMember(a); member {
					flat = append(flat, a, &ir.ReturnStmt{StmtBase: r.StmtBase, Values: []ir.Expr{v}})
					continue
				}
			}
		}
		flat = append(flat, s)
	}
	for _, s := range flat {
		if m, ok := fc.groupMember(s); ok {
			pending = append(pending, m)
			continue
		}
		steps = append(steps, step{members: pending, run: fc.stmt(s)})
		pending = nil
	}
	if len(pending) > 0 {
		steps = append(steps, step{members: pending})
	}
	lanes := fc.vectorLanes()
	return func(fr *frame) ([]any, bool, error) {
		for _, st := range steps {
			if len(st.members) > 0 {
				if err := fr.x.launchGroup(fr, st.members, lanes); err != nil {
					return nil, false, err
				}
			}
			if st.run != nil {
				if vals, ret, err := st.run(fr); err != nil || ret {
					return vals, ret, err
				}
			}
		}
		return nil, false, nil
	}
}

// groupMember recognises `[v =] self.f(...)` of an AIC or AIV function.
func (fc *fcomp) groupMember(s ir.Stmt) (groupMember, bool) {
	slot := -1
	var e ir.Expr
	switch s := s.(type) {
	case *ir.AssignStmt:
		e, slot = s.Value, fc.slot(s.Var.Name)
	case *ir.EvalStmt:
		e = s.Expr
	default:
		return groupMember{}, false
	}
	c, ok := e.(*ir.Call)
	if !ok || c.Fn == nil || c.Device() != nil {
		return groupMember{}, false
	}
	fn := fc.prog.Function(c.Fn.Name)
	if fn == nil || (fn.Kind != ir.AIC && fn.Kind != ir.AIV) || fc.cp.funcs[fn] == nil {
		return groupMember{}, false
	}
	return groupMember{call: c, callee: fc.cp.funcs[fn], args: fc.exprs(c.Args), slot: slot}, true
}

// vectorLanes is how many vector lanes the group's AIV members run on: two
// when the group or an AIV member splits, or asks for dual dispatch.
func (fc *fcomp) vectorLanes() int {
	fns := []*ir.Function{fc.fn}
	ir.WalkStmt(fc.fn.Body, func(e ir.Expr) {
		if c, ok := e.(*ir.Call); ok && c.Fn != nil {
			if f := fc.prog.Function(c.Fn.Name); f != nil && f.Kind == ir.AIV {
				fns = append(fns, f)
			}
		}
	}, nil)
	for _, f := range fns {
		if f.Attrs.Int("split", 0) != 0 || f.Attrs.Bool("dual_aiv_dispatch", false) {
			return 2
		}
	}
	return 1
}

// launchGroup runs the members together and stores their results.
func (x *Exec) launchGroup(fr *frame, members []groupMember, lanes int) error {
	rc := x.rc
	if rc.group != nil {
		return fmt.Errorf("a Group with pipes launched inside another one")
	}
	g := &mixedGroup{x: x, lanes: lanes, pipes: map[pipeKey]*pipe{}, popped: map[*Tile]pipeKey{}, final: make(chan error, 1)}
	for _, m := range members {
		args := make([]any, len(m.args))
		for i, a := range m.args {
			v, err := a(fr)
			if err != nil {
				return err
			}
			args[i] = v
		}
		if m.callee.fn.Kind == ir.AIC {
			g.tasks = append(g.tasks, &groupTask{name: m.callee.fn.Name, cf: m.callee, args: args, lane: -1})
			continue
		}
		for l := 0; l < lanes; l++ {
			name := m.callee.fn.Name
			if lanes > 1 {
				name = fmt.Sprintf("%s (vector lane %d)", name, l)
			}
			g.tasks = append(g.tasks, &groupTask{name: name, cf: m.callee, args: append([]any(nil), args...), lane: l,
				split: &splitRegion{lane: l, gathers: map[*ir.Call]*Tile{}}})
		}
	}
	saved := savedTaskCtx(rc)
	rc.group = g
	defer func() { restoreTaskCtx(rc, saved); rc.group = nil }()
	for k, t := range g.tasks {
		t.wake = make(chan bool, 1)
		go g.runTask(k)
	}
	g.run(0)
	if err := <-g.final; err != nil {
		return err
	}
	k := 0
	for _, m := range members {
		t := g.tasks[k] // the cube, or vector lane 0
		if m.callee.fn.Kind == ir.AIV {
			k += lanes
		} else {
			k++
		}
		if m.slot < 0 {
			continue
		}
		switch len(t.out) {
		case 0:
			fr.slots[m.slot] = nil
		case 1:
			fr.slots[m.slot] = t.out[0]
		default:
			fr.slots[m.slot] = t.out
		}
	}
	return nil
}

// taskCtx is the part of the rank context that belongs to the task
// holding the core.
type taskCtx struct {
	ub    ubState
	split *splitRegion
	curFn string
}

func savedTaskCtx(rc *rankCtx) taskCtx { return taskCtx{rc.ub, rc.split, rc.curFn} }

func restoreTaskCtx(rc *rankCtx, t taskCtx) { rc.ub, rc.split, rc.curFn = t.ub, t.split, t.curFn }

// runTask is task k's goroutine.
func (g *mixedGroup) runTask(k int) {
	t := g.tasks[k]
	if !<-t.wake {
		return // stopped before it started
	}
	g.enter(k)
	defer func() {
		if p := recover(); p != nil {
			g.finish(k, fmt.Errorf("%s: %v", t.name, p))
		}
	}()
	out, err := g.x.ccall(t.cf, t.args)
	t.out = out
	if err != nil && t.lane >= 0 && g.lanes > 1 {
		err = fmt.Errorf("vector lane %d: %w", t.lane, err) // the function is in the op's error
	}
	g.finish(k, err)
}

func (g *mixedGroup) enter(k int) {
	t, rc := g.tasks[k], g.x.rc
	g.cur = k
	restoreTaskCtx(rc, taskCtx{t.ub, t.split, t.curFn})
}

func (g *mixedGroup) leave(k int) {
	t, rc := g.tasks[k], g.x.rc
	t.ub, t.split, t.curFn = rc.ub, rc.split, rc.curFn
}

func (g *mixedGroup) run(k int) {
	g.tasks[k].state = blockRunning
	g.tasks[k].wake <- true
}

// next is the first task after k that can run (-1: none).
func (g *mixedGroup) next(k int) int {
	n := len(g.tasks)
	for i := 1; i <= n; i++ {
		j := (k + i) % n
		t := g.tasks[j]
		if t.state == blockNew || (t.state == blockWaiting && t.ready()) {
			return j
		}
	}
	return -1
}

// await blocks the running task until ready holds, handing the core to
// the next task that can run.
func (g *mixedGroup) await(ready func() bool, why string) error {
	if ready() {
		return nil
	}
	k := g.cur
	t := g.tasks[k]
	t.state, t.ready, t.why = blockWaiting, ready, why
	next := g.next(k)
	if next < 0 {
		return g.deadlock()
	}
	g.leave(k)
	g.run(next)
	if !<-t.wake {
		// The launch failed in another task, which owns the rank now.
		runtime.Goexit()
	}
	g.enter(k)
	return nil
}

// finish is task k's end (err: how it failed).
func (g *mixedGroup) finish(k int, err error) {
	g.tasks[k].state = blockDone
	if err != nil {
		g.stop(err)
		return
	}
	live := false
	for _, t := range g.tasks {
		live = live || t.state != blockDone
	}
	if !live {
		g.final <- nil
		return
	}
	next := g.next(k)
	if next < 0 {
		g.stop(g.deadlock())
		return
	}
	g.leave(k)
	g.run(next)
}

// stop ends the launch with err.
func (g *mixedGroup) stop(err error) {
	for _, t := range g.tasks {
		if t.state == blockNew || t.state == blockWaiting {
			t.state = blockDone
			t.wake <- false
		}
	}
	g.final <- err
}

// deadlock describes a launch in which no member can go on.
func (g *mixedGroup) deadlock() error {
	var parts []string
	for k, t := range g.tasks {
		switch {
		case k == g.cur || t.state == blockWaiting:
			parts = append(parts, t.name+" waits "+t.why)
		case t.state == blockDone:
			parts = append(parts, t.name+" has ended")
		}
	}
	return fmt.Errorf("deadlock: no member of the group can go on: %s", strings.Join(parts, "; "))
}

// --- the ops

func init() {
	Register(ir.SystemReserveBuffer, func(x *Exec, c *ir.Call, a []any) (any, error) {
		return c.Kwargs.Int("base", -1), nil
	})
	Register(ir.SystemImportPeerBuffer, func(x *Exec, c *ir.Call, a []any) (any, error) { return int64(-1), nil })
	initPipe := func(cube bool) OpFunc {
		return func(x *Exec, c *ir.Call, a []any) (any, error) {
			g, err := x.pipeGroup(c)
			if err != nil {
				return nil, err
			}
			mask := c.Kwargs.Int("dir_mask", 0)
			for _, toCube := range []bool{false, true} {
				bit := int64(ir.PipeToVector)
				if toCube {
					bit = ir.PipeToCube
				}
				if mask&bit == 0 {
					continue
				}
				k := pipeKey{toCube, c.Kwargs.Int("id", 0)}
				p := g.pipes[k]
				slots, size := ir.PipeSlots(c), int(c.Kwargs.Int("slot_size", 0))
				if p == nil {
					p = &pipe{slots: slots, slotSize: size}
					g.pipes[k] = p
				} else if p.slots != slots || p.slotSize != size {
					return nil, fmt.Errorf("%s has %d slots of %d bytes on one side and %d of %d on the other", k, p.slots, p.slotSize, slots, size)
				}
				if cube {
					p.cubeInit = true
				} else {
					p.vecInit = true
				}
			}
			return nil, nil
		}
	}
	Register(ir.SystemAicInitializePipe, initPipe(true))
	Register(ir.SystemAivInitializePipe, initPipe(false))
	Register(ir.TileTpushToAic, func(x *Exec, c *ir.Call, a []any) (any, error) { return nil, x.tpush(c, a, true) })
	Register(ir.TileTpushToAiv, func(x *Exec, c *ir.Call, a []any) (any, error) { return nil, x.tpush(c, a, false) })
	Register(ir.TileTpopFromAiv, func(x *Exec, c *ir.Call, a []any) (any, error) { return x.tpop(c, true) })
	Register(ir.TileTpopFromAic, func(x *Exec, c *ir.Call, a []any) (any, error) { return x.tpop(c, false) })
	Register(ir.SystemTfreeToAiv, func(x *Exec, c *ir.Call, a []any) (any, error) { return nil, x.tfree(c, a, true) })
	Register(ir.SystemTfreeToAic, func(x *Exec, c *ir.Call, a []any) (any, error) { return nil, x.tfree(c, a, false) })
}

// pipeGroup is the running mixed group, for an op of its members.
func (x *Exec) pipeGroup(c *ir.Call) (*mixedGroup, error) {
	if x.rc == nil || x.rc.group == nil {
		return nil, fmt.Errorf("runs only in the cube or vector function of a Group whose members talk through pipes (call them from a pl.FunctionType.Group function)")
	}
	return x.rc.group, nil
}

// pipeFor is the pipe an op of the running task uses, initialised on its
// side.
func (x *Exec) pipeFor(c *ir.Call, toCube bool) (*mixedGroup, *pipe, pipeKey, error) {
	g, err := x.pipeGroup(c)
	if err != nil {
		return nil, nil, pipeKey{}, err
	}
	k := pipeKey{toCube, c.Kwargs.Int("id", 0)}
	cube := g.tasks[g.cur].lane < 0
	p := g.pipes[k]
	if p == nil || (cube && !p.cubeInit) || (!cube && !p.vecInit) {
		side, mask := "aiv", ir.PipeToVector
		if cube {
			side = "aic"
		}
		if toCube {
			mask = ir.PipeToCube
		}
		return nil, nil, k, fmt.Errorf("%s is not set up on this side: call pl.%s_initialize_pipe(..., dir_mask=%d, slot_size=..., id=%d) first", k, side, mask, k.id)
	}
	return g, p, k, nil
}

// lanes is the lanes a pipe's queues use: the group's vector lanes.
func (g *mixedGroup) laneList() []int {
	if g.lanes == 2 {
		return []int{0, 1}
	}
	return []int{0}
}

func (x *Exec) tpush(c *ir.Call, a []any, toCube bool) error {
	t, ok := a[0].(*Tile)
	if !ok {
		return fmt.Errorf("expected a tile, given %s", describe(a[0]))
	}
	g, p, k, err := x.pipeFor(c, toCube)
	if err != nil {
		return err
	}
	if n := t.size() * t.DType.Bytes(); n > p.slotSize {
		return fmt.Errorf("a tile of %d bytes does not fit a slot of %s (slot_size=%d)", n, k, p.slotSize)
	}
	split := c.Kwargs.Int("split", 0)
	room := func(l int) func() bool {
		return func() bool { return len(p.queue[l])+p.held[l] < p.slots }
	}
	full := fmt.Sprintf("in %s for a free slot of %s: all %d hold tiles the consumer has not freed", c.Name(), k, p.slots)
	if toCube {
		l := g.tasks[g.cur].lane
		if err := g.await(room(l), full); err != nil {
			return err
		}
		p.queue[l] = append(p.queue[l], t.clone())
		return nil
	}
	lanes := g.laneList()
	if err := g.await(func() bool {
		for _, l := range lanes {
			if !room(l)() {
				return false
			}
		}
		return true
	}, full); err != nil {
		return err
	}
	axis := splitCodeAxis(split)
	for _, l := range lanes {
		if axis < 0 || len(lanes) == 1 {
			p.queue[l] = append(p.queue[l], t.clone())
		} else {
			p.queue[l] = append(p.queue[l], laneHalf(t, axis, l))
		}
	}
	return nil
}

func (x *Exec) tpop(c *ir.Call, toCube bool) (any, error) {
	g, p, k, err := x.pipeFor(c, toCube)
	if err != nil {
		return nil, err
	}
	empty := fmt.Sprintf("in %s for a tile of %s, which is empty", c.Name(), k)
	if !toCube {
		l := g.tasks[g.cur].lane
		if err := g.await(func() bool { return len(p.queue[l]) > 0 }, empty); err != nil {
			return nil, err
		}
		t := p.queue[l][0]
		p.queue[l] = p.queue[l][1:]
		p.held[l]++
		g.popped[t] = k
		return t, nil
	}
	lanes := g.laneList()
	if err := g.await(func() bool {
		for _, l := range lanes {
			if len(p.queue[l]) == 0 {
				return false
			}
		}
		return true
	}, empty); err != nil {
		return nil, err
	}
	var got []*Tile
	for _, l := range lanes {
		got = append(got, p.queue[l][0])
		p.queue[l] = p.queue[l][1:]
		p.held[l]++
	}
	out := got[0]
	if axis := splitCodeAxis(c.Kwargs.Int("split", 0)); axis >= 0 && len(got) == 2 {
		full := append([]int(nil), got[0].Shape...)
		full[axis] *= 2
		out = newTile(got[0].DType, full)
		for l, h := range got {
			out = placeHalf(out, h, axis, l)
		}
	}
	g.popped[out] = k
	return out, nil
}

func (x *Exec) tfree(c *ir.Call, a []any, toCube bool) error {
	g, err := x.pipeGroup(c)
	if err != nil {
		return err
	}
	// The slot is the one the tile was popped from; an id the call gives
	// must agree with it.
	t, _ := a[0].(*Tile)
	k, popped := g.popped[t]
	if !popped {
		return fmt.Errorf("%s was not popped from a pipe (free the tile a tpop returned)", ir.Describe(c.Args[0]))
	}
	if id, given := c.Kwargs.Get("id"); given && id.(int64) != k.id {
		return fmt.Errorf("id=%d, but the tile came through %s", id, k)
	}
	if k.toCube != toCube {
		return fmt.Errorf("the tile came through %s, the other direction", k)
	}
	delete(g.popped, t)
	p := g.pipes[k]
	lanes := g.laneList()
	if !toCube {
		lanes = []int{g.tasks[g.cur].lane}
	}
	for _, l := range lanes {
		p.held[l]--
	}
	return nil
}

// splitCodeAxis is the axis a pipe's split code divides (-1: none).
func splitCodeAxis(split int64) int {
	switch split {
	case 1, 3:
		return 0
	case 2, 4:
		return 1
	}
	return -1
}
