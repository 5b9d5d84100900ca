package runtime

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/ptorepl/ptorepl/ir"
)

// Finite AIV cores (docs/memory-model.md, rule 8).
//
// Each simulated device has RunOptions.Cores AIV cores. A task the host
// dispatches to a rank starts on a free core of that rank and holds it
// until it ends; a blocking pld.system.wait inside it keeps the core the
// whole time it waits. A pld.system.defer_wait does not: when the task's
// body is done and only its deferred conditions are left, the core goes
// back to the rank (upstream #2369), and the task completes once the
// conditions hold. Deferred waits that end a called function rather than
// the task itself release the core too, and the task takes a free core
// again before it continues.
//
// When tasks on one rank may run at the same time: a queued task starts on
// a free core as soon as no earlier, unfinished task of its rank conflicts
// with it, earliest first. Two tasks conflict when they share bytes of a
// host tensor and either one takes it as Out or InOut (a task that writes
// what another reads or writes waits for it, as upstream's runtime orders
// tasks by their tensor arguments), or when either is a host collective
// (which synchronises the whole world and is kept in dispatch order).
// Window memory does not order tasks: it is communication memory, and
// tasks that exchange data through a window must say so with signals, as
// ranks do — which is what lets a publisher run beside the waiters it
// releases (upstream's manual scope).
//
// One core (the default) runs a rank's tasks one at a time in dispatch
// order, which is what the simulator always did, so every program behaves
// as before unless it asks for more cores.

// DefaultCores is the number of AIV cores a simulated device has when
// RunOptions.Cores is zero: one, which runs each rank's tasks one at a
// time in dispatch order. (An A2/A3 device has 48 AIV cores; upstream's
// simulator exposes 16.)
const DefaultCores = 1

// MaxCores is the largest core count a run accepts.
const MaxCores = 1024

// CheckCores validates a core count given by the user: 1 … MaxCores. op
// and arg name where it was given ("pl.Cores", "n").
func CheckCores(op, arg string, n int) error {
	if n < 1 || n > MaxCores {
		return &ir.TypeError{Op: op, Arg: arg, Expected: fmt.Sprintf("an AIV core count from 1 to %d", MaxCores), Given: fmt.Sprint(n)}
	}
	return nil
}

// worker is one rank's cores and the tasks dispatched to it. Every field
// is guarded by sim.wmu.
type worker struct {
	rank    int
	cores   int    // AIV cores of the rank
	busy    int    // cores held by started tasks
	q       []*job // dispatched, not started, in dispatch order
	active  []*job // started, not complete (running, in deferred waits, resuming)
	resume  []*job // started tasks waiting for a core to continue (after deferred waits)
	pending int    // queued or started, not complete
	ran     int
	seq     int
	cond    *sync.Cond // signalled when pending drops to zero (join)
	ctxs    []*rankCtx // idle execution contexts, reused by the next task
	nctx    int        // contexts made so far
}

// job is one dispatched task on its rank.
type job struct {
	task
	seq   int           // 1-based dispatch order on the rank
	core  bool          // holds a core
	grant chan struct{} // set while resuming: closed when a core is granted
	rc    *rankCtx
}

// dispatch queues t on rank r and starts it at once when a core is free
// and nothing earlier on the rank conflicts with it.
func (s *sim) dispatch(r int, t task) {
	if s.only >= 0 && r != s.only {
		return // another process runs rank r
	}
	if s.ctl != nil {
		s.ctlQueue(r, t)
		return
	}
	s.wmu.Lock()
	w := s.workers[r]
	if w == nil {
		w = &worker{rank: r, cores: s.cores(), cond: sync.NewCond(&s.wmu)}
		if w.cores > 1 {
			s.timeline.lane(r).shared = true // several cores record into the rank's lane
		}
		s.workers[r] = w
	}
	s.queueLocked(w, t)
	starts := s.startLocked(w)
	s.wmu.Unlock()
	s.launch(w, starts)
}

// queueLocked appends t to w's queue, in dispatch order.
func (s *sim) queueLocked(w *worker, t task) {
	w.seq++
	w.q = append(w.q, &job{task: t, seq: w.seq})
	w.pending++
	s.tasks++
}

// completeLocked counts one of w's tasks done and reports whether w is now
// idle (then the host's join is woken).
func (s *sim) completeLocked(w *worker) (idle bool) {
	w.pending--
	w.ran++
	s.done++
	if w.pending == 0 {
		w.cond.Broadcast()
		return true
	}
	return false
}

// cores is the run's core count per rank.
func (s *sim) cores() int {
	if s.opts.Cores > 0 {
		return s.opts.Cores
	}
	return DefaultCores
}

// startLocked hands free cores to resuming tasks first, then to the
// earliest queued tasks nothing earlier conflicts with. It returns them;
// the caller counts them live and launches them (launch) after unlocking,
// so the deadlock check never sees a started task it does not count.
// Once the run stopped every task starts (and skips its body) so the
// queues drain.
func (s *sim) startLocked(w *worker) []*job {
	stopped := s.sched.stopped.Load()
	var out []*job
	for len(w.resume) > 0 && (w.busy < w.cores || stopped) {
		j := w.resume[0]
		w.resume = w.resume[1:]
		w.busy++
		j.core = true
		out = append(out, j)
	}
	for i := 0; i < len(w.q) && (w.busy < w.cores || stopped); {
		j := w.q[i]
		if !stopped && w.blockedByEarlier(i) {
			i++
			continue
		}
		w.q = append(w.q[:i], w.q[i+1:]...)
		w.active = append(w.active, j)
		w.busy++
		j.core = true
		if n := len(w.ctxs); n > 0 {
			j.rc = w.ctxs[n-1]
			w.ctxs = w.ctxs[:n-1]
		} else {
			j.rc = s.newCoreCtx(w)
		}
		out = append(out, j)
	}
	return out
}

// blockedByEarlier says whether queued task i must wait for an earlier,
// unfinished task of the rank.
func (w *worker) blockedByEarlier(i int) bool {
	j := w.q[i]
	for _, a := range w.active {
		if conflicts(a, j) {
			return true
		}
	}
	for _, e := range w.q[:i] {
		if conflicts(e, j) {
			return true
		}
	}
	return false
}

// launch counts started tasks live, then runs them (or wakes them, for a
// resuming task). Called without wmu.
func (s *sim) launch(w *worker, starts []*job) {
	if len(starts) == 0 {
		return
	}
	s.sched.addLive(len(starts))
	for _, j := range starts {
		if j.grant != nil {
			g := j.grant
			j.grant = nil
			close(g)
			continue
		}
		s.wg.Add(1)
		go s.runJob(w, j)
	}
}

// newCoreCtx makes an execution context for one more core of w's rank.
func (s *sim) newCoreCtx(w *worker) *rankCtx {
	rc := &rankCtx{lane: s.timeline.lane(w.rank)}
	if s.opts.Seed != 0 {
		rc.rng = rand.New(rand.NewSource(s.opts.Seed*1000003 + int64(w.rank) + int64(w.nctx)*7919))
		rc.startDelay = time.Duration(rc.rng.Intn(200)) * time.Microsecond // a shuffled start order
	}
	w.nctx++
	return rc
}

// runJob runs one task on a core of its rank, then completes it.
func (s *sim) runJob(w *worker, j *job) {
	defer s.wg.Done()
	rc := j.rc
	if d := rc.startDelay; d > 0 {
		rc.startDelay = 0
		time.Sleep(d)
	}
	rc.job, rc.w = j, w
	rc.deferred = rc.deferred[:0]
	if !s.sched.stopped.Load() {
		if err := s.runTask(w.rank, rc, j.task); err != nil && err != errAborted {
			s.sched.fail(err)
		}
	}
	rc.job, rc.w = nil, nil
	s.wmu.Lock()
	if j.core {
		w.busy--
		j.core = false
	}
	for i, a := range w.active {
		if a == j {
			w.active = append(w.active[:i], w.active[i+1:]...)
			break
		}
	}
	w.ctxs = append(w.ctxs, rc)
	j.rc = nil
	idle := s.completeLocked(w)
	starts := s.startLocked(w)
	s.wmu.Unlock()
	s.launch(w, starts)
	s.sched.doneLive()
	if idle {
		s.reportProgress()
	}
}

// waitDeferred waits for the deferred conditions the activation
// registered (from index from on): defer_wait's task completes once they
// hold. They do not hold the core: it is released while they wait, and a
// called function's caller, or the function itself when it goes on after
// the task (resume: an InCore region as written), takes a core again
// before it continues.
func (x *Exec) waitDeferred(from int, resume bool) error {
	ds := x.rc.deferred[from:]
	if len(ds) == 0 {
		return nil
	}
	j, w := x.rc.job, x.rc.w
	release := j != nil && j.core
	if release {
		x.s.releaseCore(w, j)
	}
	for _, d := range ds {
		if err := x.s.win.Wait(x.rank, d.buf, d.cell, d.cond, d.who); err != nil {
			return err
		}
	}
	x.rc.deferred = x.rc.deferred[:from]
	// The next op on the timeline starts now, not where the last one ended.
	defer func() { x.rc.lastT = time.Since(x.s.timeline.origin) }()
	if release && (resume || x.fn != j.fn) {
		return x.s.reacquireCore(w, j)
	}
	return nil
}

// releaseCore gives j's core back to its rank; the calling goroutine stays
// live (it is about to wait on j's deferred conditions).
func (s *sim) releaseCore(w *worker, j *job) {
	s.wmu.Lock()
	w.busy--
	j.core = false
	starts := s.startLocked(w)
	s.wmu.Unlock()
	s.launch(w, starts)
}

// reacquireCore takes a core for j again, queueing behind other resuming
// tasks when none is free. While it waits it is not live: only a task
// that ends can give it a core.
func (s *sim) reacquireCore(w *worker, j *job) error {
	s.wmu.Lock()
	if (w.busy < w.cores && len(w.resume) == 0) || s.sched.stopped.Load() {
		w.busy++
		j.core = true
		s.wmu.Unlock()
		return nil
	}
	g := make(chan struct{})
	j.grant = g
	w.resume = append(w.resume, j)
	s.wmu.Unlock()
	s.sched.doneLive()
	<-g // launch counted us live again
	if s.sched.stopped.Load() {
		return errAborted
	}
	return nil
}

// join waits until every dispatched task finished (or the run stopped).
// The joining host is not live: it cannot wake a waiting rank.
func (s *sim) join() {
	if s.ctl != nil {
		_ = s.ctlJoin() // on a stopped run the loop below waits for the drain
	}
	s.sched.doneLive()
	s.wmu.Lock()
	for {
		busy := false
		for _, w := range s.workers {
			if w != nil && w.pending > 0 {
				busy = true
				w.cond.Wait()
				break
			}
		}
		if !busy {
			break
		}
	}
	s.wmu.Unlock()
	s.sched.addLive(1)
	if s.onJoin != nil && !s.sched.stopped.Load() {
		if err := s.onJoin(); err != nil {
			s.sched.fail(err)
		}
	}
	if s.mem != nil {
		s.mem.observe(func(o Observer) {
			if j, ok := o.(JoinObserver); ok {
				j.Joined()
			}
		})
	}
}

// closeWorkers waits for every task to end (the host finished) and frees
// the cores' on-chip buffers.
func (s *sim) closeWorkers() {
	s.wg.Wait()
	s.wmu.Lock()
	defer s.wmu.Unlock()
	for _, w := range s.workers {
		if w == nil {
			continue
		}
		for _, rc := range w.ctxs {
			rc.ub.release()
		}
		w.ctxs = nil
	}
}

// --- which tasks conflict

// conflicts says whether b, dispatched after a on the same rank, must wait
// for a to complete (see the package comment of this file).
func conflicts(a, b *job) bool {
	if a.op != nil || b.op != nil || a.fn == nil || b.fn == nil {
		return true
	}
	for i, av := range a.args {
		ha, ok := av.(*view)
		if !ok || ha.win != nil || len(ha.host) == 0 {
			continue
		}
		for k, bv := range b.args {
			hb, ok := bv.(*view)
			if !ok || hb.win != nil || len(hb.host) == 0 {
				continue
			}
			if (writes(a.fn, i) || writes(b.fn, k)) && hostOverlap(ha, hb) {
				return true
			}
		}
	}
	return false
}

func writes(fn *ir.Function, i int) bool {
	d := fn.Direction(i)
	return d == ir.Out || d == ir.InOut
}

// hostOverlap says whether two views of host tensors may share a byte:
// the same tensor and intersecting spans.
func hostOverlap(a, b *view) bool {
	if unsafe.SliceData(a.host) != unsafe.SliceData(b.host) {
		return false
	}
	a0, a1 := a.byteSpan()
	b0, b1 := b.byteSpan()
	return a0 < b1 && b0 < a1
}

// byteSpan is the bytes [lo, hi) the view's elements lie within.
func (v *view) byteSpan() (int, int) {
	last := v.off
	for i, n := range v.shape {
		if n <= 0 {
			return 0, 0
		}
		last += (n - 1) * v.strides[i]
	}
	sz := v.dt.Bytes()
	return v.off * sz, (last + 1) * sz
}

// --- resource deadlocks

// ResourceDeadlockError is a deadlock that more cores would have avoided:
// on some rank every AIV core is held by a blocking wait while a task that
// would publish (notify a signal or run a collective) is still queued, and
// nothing else can progress (docs/memory-model.md, rule 8; upstream #2369).
// errors.As also finds the *DeadlockError of every blocked wait in it.
type ResourceDeadlockError struct {
	Deadlock *DeadlockError
	Starved  []StarvedRank
}

// StarvedRank is one rank whose cores are all held by waits.
type StarvedRank struct {
	Rank  int
	Cores int
	// Holding are the blocking waits that hold the cores, and Running the
	// tasks they are in, in dispatch order.
	Holding []BlockedRank
	Running []QueuedTask
	// Queued are the rank's tasks that have not started (or wait for a core
	// to continue), in dispatch order.
	Queued []QueuedTask
}

// QueuedTask is a dispatched task as a resource deadlock names it: queued,
// waiting for a core to continue, or (Running) holding one.
type QueuedTask struct {
	Func string  // the dispatched function (or host collective)
	Pos  ir.Span // the dispatching call
	Seq  int     // 1-based dispatch order on the rank
	// Publishes says the task notifies a signal or runs a collective, so it
	// could have released a waiter.
	Publishes bool
	// Resuming marks a task that started, met its deferred waits, and waits
	// for a core to continue.
	Resuming bool
	// Blocked marks a task that would wait for an earlier conflicting task
	// even with a free core.
	Blocked bool
	// Running marks a task that holds a core (StarvedRank.Running).
	Running bool
}

func (e *ResourceDeadlockError) Error() string {
	var b strings.Builder
	b.WriteString("resource deadlock: every AIV core of a rank is held by a blocking wait while a task that would publish is queued")
	for _, r := range e.Starved {
		fmt.Fprintf(&b, "\n  rank %d (%d %s):", r.Rank, r.Cores, plural(r.Cores, "core", "cores"))
		for _, h := range r.Holding {
			fmt.Fprintf(&b, "\n    core held by %s", h.Op)
			if h.Pos.Known() {
				fmt.Fprintf(&b, " at %s", h.Pos)
			}
			fmt.Fprintf(&b, " in %s, waiting on %s = %d, for %s", h.Func, h.Cell, h.Value, h.Want)
		}
		for _, q := range r.Running {
			b.WriteString("\n    " + q.String())
		}
		for _, q := range r.Queued {
			b.WriteString("\n    " + q.String())
		}
	}
	if others := e.others(); len(others) > 0 {
		b.WriteString("\n  other blocked waits:")
		for _, o := range others {
			fmt.Fprintf(&b, "\n    rank %d: %s", o.Rank, o.Op)
			if o.Pos.Known() {
				fmt.Fprintf(&b, " at %s", o.Pos)
			}
			fmt.Fprintf(&b, " in %s waits on %s = %d, for %s", o.Func, o.Cell, o.Value, o.Want)
		}
	}
	b.WriteString("\n  more cores (pl.Ranks(n).Cores(k)), or pld.system.defer_wait in the waiting tasks, would let the publisher run")
	return b.String()
}

func (e *ResourceDeadlockError) Unwrap() error { return e.Deadlock }

// others are the blocked waits that hold no core of a starved rank.
func (e *ResourceDeadlockError) others() []BlockedRank {
	held := map[int]bool{}
	for _, r := range e.Starved {
		held[r.Rank] = true
	}
	var out []BlockedRank
	for _, b := range e.Deadlock.Blocked {
		if !held[b.Rank] || b.Deferred {
			out = append(out, b)
		}
	}
	return out
}

func (q QueuedTask) String() string {
	state := "queued"
	switch {
	case q.Running:
		state = "on a core:"
	case q.Resuming:
		state = "waiting for a core to continue:"
	}
	s := fmt.Sprintf("%s %s (dispatch %d", state, q.Func, q.Seq)
	if q.Pos.Known() {
		s += " at " + q.Pos.String()
	}
	s += ")"
	switch {
	case q.Running:
	case q.Publishes && q.Blocked:
		s += ", would publish, after an earlier task it conflicts with"
	case q.Publishes:
		s += ", would publish"
	case q.Blocked:
		s += ", after an earlier task it conflicts with"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// classifyDeadlock runs under sched.mu when a deadlock is found: if some
// rank's cores are all held by blocking waits while a publishing task that
// a free core would start is queued there, the deadlock is a resource
// deadlock. It takes wmu (nothing holding wmu takes sched.mu).
func (s *sim) classifyDeadlock(d *DeadlockError) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	var starved []StarvedRank
	for _, w := range s.workers {
		if w == nil || w.busy < w.cores || len(w.q)+len(w.resume) == 0 {
			continue
		}
		r := StarvedRank{Rank: w.rank, Cores: w.cores}
		for _, b := range d.Blocked {
			if b.Rank == w.rank && !b.Deferred {
				r.Holding = append(r.Holding, b)
			}
		}
		if len(r.Holding) < w.cores {
			continue // a core is held by something other than a wait
		}
		for _, j := range w.active {
			if j.core {
				q := s.queuedTask(j)
				q.Running = true
				r.Running = append(r.Running, q)
			}
		}
		sort.Slice(r.Running, func(a, b int) bool { return r.Running[a].Seq < r.Running[b].Seq })
		ready := false
		for _, j := range w.resume {
			q := s.queuedTask(j)
			q.Resuming = true
			ready = ready || q.Publishes
			r.Queued = append(r.Queued, q)
		}
		for i, j := range w.q {
			q := s.queuedTask(j)
			q.Blocked = w.blockedByEarlier(i)
			ready = ready || (q.Publishes && !q.Blocked)
			r.Queued = append(r.Queued, q)
		}
		if ready {
			starved = append(starved, r)
		}
	}
	if len(starved) == 0 {
		return d
	}
	return &ResourceDeadlockError{Deadlock: d, Starved: starved}
}

func (s *sim) queuedTask(j *job) QueuedTask {
	q := QueuedTask{Seq: j.seq, Publishes: true}
	if j.call != nil {
		q.Pos = j.call.Pos
		q.Func = j.call.Name()
	}
	if j.fn != nil {
		q.Func = j.fn.Name
		q.Publishes = s.publishes(j.fn, map[*ir.Function]bool{})
	}
	return q
}

// publishes says whether fn, or a function it calls, notifies a signal or
// runs a collective.
func (s *sim) publishes(fn *ir.Function, seen map[*ir.Function]bool) bool {
	if seen[fn] {
		return false
	}
	seen[fn] = true
	found := false
	ir.WalkStmt(fn.Body, func(e ir.Expr) {
		c, ok := e.(*ir.Call)
		if !ok || found {
			return
		}
		if c.Op != nil {
			found = c.Op.Class == ir.ClassSignal || c.Op.Class == ir.ClassCollective
		} else if c.Fn != nil {
			if builtinCollective(c.Fn.Name) != "" {
				found = true
			} else if callee := s.prog.Function(c.Fn.Name); callee != nil {
				found = s.publishes(callee, seen)
			}
		}
	}, nil)
	return found
}
