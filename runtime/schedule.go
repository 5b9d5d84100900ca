package runtime

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/ptorepl/ptorepl/ir"
)

// Controlled scheduling. With RunOptions.Schedule set, exactly one rank
// (or the host) runs at a time. At every synchronising event — a window
// access, notify, wait, test, task start and end, a dispatch, the host's
// join, and each internal step of a collective, since collectives touch
// memory only through Windows — the running rank parks with the event it
// is about to perform and the scheduler asks the Chooser which parked rank
// goes next. A wait whose condition does not hold is not enabled, so no
// rank ever blocks inside the window layer; when nothing is enabled the run
// is a deadlock. Everything a rank does between two events touches only
// its own state, so the sequence of choices fixes the run: replaying it
// gives the same run. The compiled executor is untouched: the events are
// taken at the window layer and the task loop, so exploration runs the
// program compiled once at Load.

// Chooser picks at each choice point of a controlled run. For a
// ChooseRank point it returns the index into p.Pending of an enabled
// entry; for a ChooseVisibility point a number in [0, p.N). A negative
// answer abandons the run (it ends with a *PrunedError).
type Chooser interface {
	Choose(p *ChoicePoint) int
}

// StuckObserver is a Chooser that also wants the final state of a run in
// which parked ranks remain but none is enabled (a deadlock).
type StuckObserver interface {
	Stuck(p *ChoicePoint)
}

// ChoiceKind says what a choice point decides.
type ChoiceKind uint8

// Choice kinds.
const (
	// ChooseRank: which parked rank performs its pending event next.
	ChooseRank ChoiceKind = iota
	// ChooseVisibility: a write-visibility decision of the running rank
	// (which pending write becomes visible next, in the relaxed memory
	// mode): N options, all of them legal.
	ChooseVisibility
)

// ChoicePoint is one decision of a controlled run.
type ChoicePoint struct {
	Kind ChoiceKind
	Step int // choices made before this one
	// Pending (ChooseRank) lists every parked rank in rank order (the host
	// first, as rank -1) with the event it waits to perform.
	Pending []Pending
	// Rank, N and What describe a ChooseVisibility point.
	Rank int
	N    int
	What string
}

// Pending is a parked rank and its next event.
type Pending struct {
	Rank    int
	Enabled bool
	Event   SyncEvent
}

// SyncKind is the kind of a synchronising event.
type SyncKind uint8

// Synchronising event kinds.
const (
	EvTaskStart SyncKind = iota
	EvTaskEnd
	EvDispatch
	EvJoin
	EvRead
	EvWrite
	EvAtomic
	EvCopy
	EvReduce
	EvNotify
	EvWait
	EvTest
	EvAlloc
	EvFence
)

var syncKindNames = [...]string{"task start", "task end", "dispatch", "join", "read", "write", "atomic add", "copy", "reduce", "notify", "wait", "test", "alloc", "fence"}

func (k SyncKind) String() string {
	if int(k) < len(syncKindNames) {
		return syncKindNames[k]
	}
	return fmt.Sprintf("event %d", k)
}

// Loc is a byte range [Lo, Hi) of one rank's copy of a window buffer (or of
// a pseudo location: a rank's task queue, the allocator) that an event
// reads or writes.
type Loc struct {
	Rank   int
	Buf    int // window buffer id; negative: a pseudo location
	Lo, Hi int
	Write  bool
	// Add marks an integer atomic add (a notify with AtomicAdd): two adds
	// commute, so they do not conflict with each other (float accumulates
	// do not commute bit for bit and are plain writes).
	Add bool
}

// Pseudo locations.
const (
	locQueue = -1 // a rank's task queue (dispatch, task start/end, join)
	locAlloc = -2 // the window allocator
)

// SyncEvent is one synchronising event: who performs it, what, where, and
// the memory it touches (its footprint, for the explorer's dependency
// relation).
type SyncEvent struct {
	Rank int // the acting rank (-1: the host)
	Kind SyncKind
	Op   string  // the op, or the task's function
	Pos  ir.Span // where the op was built
	What string  // the target, for reports ("sig[1] on rank 0")
	Locs []Loc
	// Signal is what a notify does to its cell, or what a wait or test
	// asks of it (nil for every other event): the explorer's conditional
	// independence of a satisfied wait and a credit it did not need reads
	// it.
	Signal *SignalOp
}

// SignalOp is a notify's kind and operand, or a wait's or test's condition.
type SignalOp struct {
	Kind  NotifyKind
	Value int32
	Cond  Cond
}

// String is one line for schedules and reports.
func (e SyncEvent) String() string {
	who := fmt.Sprintf("rank %d", e.Rank)
	if e.Rank < 0 {
		who = "host"
	}
	s := who + ": " + e.Kind.String()
	if e.Op != "" {
		s += " " + e.Op
	}
	if e.What != "" {
		s += " " + e.What
	}
	if e.Pos.Known() {
		s += " at " + e.Pos.String()
	}
	return s
}

// Dependent reports whether the order of a and b can matter: the same
// actor, or a location both touch with at least one write.
func (e SyncEvent) Dependent(o SyncEvent) bool {
	if e.Rank == o.Rank {
		return true
	}
	for _, a := range e.Locs {
		for _, b := range o.Locs {
			if (a.Write || b.Write) && !(a.Add && b.Add) && a.Rank == b.Rank && a.Buf == b.Buf && a.Lo < b.Hi && b.Lo < a.Hi {
				return true
			}
		}
	}
	return false
}

// Choice is one recorded decision: the rank chosen (ChooseRank) or the
// option taken (ChooseVisibility).
type Choice struct {
	Kind  ChoiceKind
	Value int
}

// Schedule is the decisions of one controlled run; replaying it (NewReplay)
// gives the same run.
type Schedule struct {
	Choices []Choice
	// Events, when recorded, is the event each ChooseRank choice let run
	// (for reports; replay needs only Choices).
	Events []SyncEvent
	// Stuck are the events parked ranks could not perform when the run
	// deadlocked (their waits' conditions never held).
	Stuck []SyncEvent
}

// Len is the number of decisions.
func (s *Schedule) Len() int {
	if s == nil {
		return 0
	}
	return len(s.Choices)
}

// String lists the decisions compactly: "0 1 h 1 v2 ..." (h: the host,
// vN: visibility option N).
func (s *Schedule) String() string {
	if s == nil {
		return "(no schedule)"
	}
	parts := make([]string, len(s.Choices))
	for i, c := range s.Choices {
		switch {
		case c.Kind == ChooseVisibility:
			parts[i] = fmt.Sprintf("v%d", c.Value)
		case c.Value < 0:
			parts[i] = "h"
		default:
			parts[i] = fmt.Sprint(c.Value)
		}
	}
	return fmt.Sprintf("schedule of %d decisions: %s", len(parts), strings.Join(parts, " "))
}

// Steps lists the recorded events, one line each (empty when none were
// recorded).
func (s *Schedule) Steps() []string {
	if s == nil {
		return nil
	}
	out := make([]string, 0, len(s.Events)+len(s.Stuck))
	for i, e := range s.Events {
		out = append(out, fmt.Sprintf("%3d  %s", i+1, e))
	}
	for _, e := range s.Stuck {
		out = append(out, "blocked  "+e.String())
	}
	return out
}

// NewReplay is a Chooser that makes sched's decisions in order and, past
// its end, picks the lowest enabled rank and option 0. A decision that does
// not fit the run (a rank not enabled there) stops the run with an error
// saying where the replay diverged.
func NewReplay(sched *Schedule) Chooser { return &replay{s: sched} }

// FirstEnabled is the Chooser that always runs the lowest enabled rank
// (the host first) and takes visibility option 0.
func FirstEnabled() Chooser { return &replay{} }

type replay struct {
	s *Schedule
	i int
}

func (r *replay) Choose(p *ChoicePoint) int {
	if r.s != nil && r.i < len(r.s.Choices) {
		c := r.s.Choices[r.i]
		r.i++
		if c.Kind != p.Kind {
			return divergedChoice
		}
		if p.Kind == ChooseVisibility {
			if c.Value < 0 || c.Value >= p.N {
				return divergedChoice
			}
			return c.Value
		}
		for i, q := range p.Pending {
			if q.Rank == c.Value && q.Enabled {
				return i
			}
		}
		return divergedChoice
	}
	if p.Kind == ChooseVisibility {
		return 0
	}
	for i, q := range p.Pending {
		if q.Enabled {
			return i
		}
	}
	return -1
}

// divergedChoice is the answer of a replay that no longer fits the run.
const divergedChoice = -2

// PrunedError ends a controlled run its Chooser abandoned (an explorer
// cutting a schedule it knows to be redundant), or a replay that diverged.
type PrunedError struct {
	Step     int
	Diverged bool
}

func (e *PrunedError) Error() string {
	if e.Diverged {
		return fmt.Sprintf("the schedule does not fit this run at decision %d (a different program, rank count or inputs?)", e.Step+1)
	}
	return fmt.Sprintf("schedule abandoned at decision %d", e.Step+1)
}

// ctl is a controlled run's scheduler: it owns the baton that lets one
// goroutine (a rank's worker or the host) run at a time.
type ctl struct {
	s       *sim
	chooser Chooser

	mu      sync.Mutex
	parts   map[int]*part
	step    int
	stopped bool
	quiet   chan struct{} // closed when nothing is parked any more (or stopped)
	qclosed bool
	trace   Schedule
	running int // the rank holding the baton (-1: the host)
}

// part is one rank (or the host) under the scheduler.
type part struct {
	rank    int
	parked  bool
	ev      SyncEvent
	enabled func() bool // nil: always
	blocked *BlockedRank
	wake    chan struct{}
}

func newCtl(s *sim, ch Chooser) *ctl {
	c := &ctl{s: s, chooser: ch, parts: map[int]*part{}, quiet: make(chan struct{}), running: -1}
	return c
}

func (c *ctl) part(rank int) *part {
	p := c.parts[rank]
	if p == nil {
		p = &part{rank: rank, wake: make(chan struct{}, 1)}
		c.parts[rank] = p
	}
	return p
}

// yield parks the running rank before ev and hands the baton to whichever
// rank the Chooser picks; it returns once this rank is picked (nil) or the
// run stopped (errAborted).
func (c *ctl) yield(rank int, ev SyncEvent, enabled func() bool, blocked *BlockedRank) error {
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		return errAborted
	}
	p := c.part(rank)
	p.parked, p.ev, p.enabled, p.blocked = true, ev, enabled, blocked
	next := c.scheduleLocked()
	if next == p {
		c.mu.Unlock()
		return nil
	}
	if next == nil {
		c.mu.Unlock()
		return errAborted // stopped, possibly by this very wait (a deadlock)
	}
	grant(next)
	c.mu.Unlock()
	<-p.wake
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return errAborted
	}
	return nil
}

// park marks rank parked at ev without running it (a dispatch parks the
// target rank at its task start); the caller holds the baton.
func (c *ctl) park(rank int, ev SyncEvent) {
	c.mu.Lock()
	p := c.part(rank)
	p.parked, p.ev, p.enabled, p.blocked = true, ev, nil, nil
	c.mu.Unlock()
}

// leave gives up the baton without parking (the rank has nothing to do).
func (c *ctl) leave() {
	c.mu.Lock()
	if next := c.scheduleLocked(); next != nil {
		grant(next)
	}
	c.mu.Unlock()
}

// grant hands the baton to p (its goroutine waits on p.wake).
func grant(p *part) {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// await blocks a worker with no baton until it is picked; false means the
// run stopped or ended.
func (c *ctl) await(rank int) bool {
	c.mu.Lock()
	p := c.part(rank)
	if c.stopped || c.qclosed {
		c.mu.Unlock()
		return false
	}
	c.mu.Unlock()
	<-p.wake
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.stopped && !c.qclosed
}

// scheduleLocked picks the next rank (the caller wakes it unless it is
// itself); nil when nothing runs any more.
func (c *ctl) scheduleLocked() *part {
	if !c.stopped && c.s.sched.stopped.Load() {
		c.stopped = true // another failure ended the run
		c.wakeAllLocked()
		c.closeQuietLocked()
	}
	if c.stopped {
		return nil
	}
	var parked []*part
	for _, p := range c.parts {
		if p.parked {
			parked = append(parked, p)
		}
	}
	if len(parked) == 0 {
		c.closeQuietLocked()
		return nil
	}
	sort.Slice(parked, func(i, j int) bool { return parked[i].rank < parked[j].rank })
	cp := &ChoicePoint{Kind: ChooseRank, Step: c.step, Pending: make([]Pending, len(parked))}
	any := false
	for i, p := range parked {
		en := p.enabled == nil || p.enabled()
		any = any || en
		cp.Pending[i] = Pending{Rank: p.rank, Enabled: en, Event: p.ev}
	}
	if !any {
		if so, ok := c.chooser.(StuckObserver); ok {
			so.Stuck(cp)
		}
		d := &DeadlockError{}
		for _, p := range parked {
			c.trace.Stuck = append(c.trace.Stuck, p.ev)
			if p.blocked != nil {
				d.Blocked = append(d.Blocked, *p.blocked)
			}
		}
		c.stopLocked(d)
		return nil
	}
	i := c.chooser.Choose(cp)
	if i < 0 || i >= len(parked) || !cp.Pending[i].Enabled {
		c.stopLocked(&PrunedError{Step: c.step, Diverged: i != -1})
		return nil
	}
	p := parked[i]
	c.trace.Choices = append(c.trace.Choices, Choice{Kind: ChooseRank, Value: p.rank})
	c.trace.Events = append(c.trace.Events, p.ev)
	c.step++
	p.parked = false
	c.running = p.rank
	return p
}

// visibility asks the Chooser for one of n write-visibility options of the
// running rank (0 outside a controlled run or with a single option).
func (c *ctl) visibility(rank, n int, what string) int {
	if c == nil || n <= 1 {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return 0
	}
	i := c.chooser.Choose(&ChoicePoint{Kind: ChooseVisibility, Step: c.step, Rank: rank, N: n, What: what})
	if i < 0 || i >= n {
		c.stopLocked(&PrunedError{Step: c.step, Diverged: i != -1})
		return 0
	}
	c.trace.Choices = append(c.trace.Choices, Choice{Kind: ChooseVisibility, Value: i})
	c.trace.Events = append(c.trace.Events, SyncEvent{Rank: rank, Kind: EvFence, What: fmt.Sprintf("visibility option %d of %d (%s)", i, n, what)})
	c.step++
	return i
}

// chooseVisibility is the one place a write-visibility decision of rank is
// made: option i of n. Outside a controlled run it is option 0.
func (s *sim) chooseVisibility(rank, n int, what string) int {
	return s.ctl.visibility(rank, n, what)
}

// stopLocked ends the run with err and releases every parked goroutine.
func (c *ctl) stopLocked(err error) {
	if !c.stopped {
		c.stopped = true
		c.s.sched.fail(err)
	}
	c.wakeAllLocked()
	c.closeQuietLocked()
}

func (c *ctl) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped = true
	c.wakeAllLocked()
	c.closeQuietLocked()
}

func (c *ctl) wakeAllLocked() {
	for _, p := range c.parts {
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
}

func (c *ctl) closeQuietLocked() {
	if !c.qclosed {
		c.qclosed = true
		close(c.quiet)
	}
}

// finish is the host's end: it hands the baton on and waits until every
// rank has run out of work (or the run stopped).
func (c *ctl) finish() {
	c.leave()
	<-c.quiet
	c.mu.Lock()
	c.wakeAllLocked() // idle workers see the run is over
	c.mu.Unlock()
}

// schedule is the decisions taken so far.
func (c *ctl) schedule() *Schedule {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &Schedule{Choices: append([]Choice(nil), c.trace.Choices...), Events: append([]SyncEvent(nil), c.trace.Events...),
		Stuck: append([]SyncEvent(nil), c.trace.Stuck...)}
}

// --- the task loop and the host under control

// ctlWorkerLoop is the rank's worker in a controlled run: one goroutine
// per rank runs its tasks in dispatch order on one core, and only when
// picked at its task start; it reports the task's end as an event before
// its bookkeeping (the host's join depends on it). Exploring several
// cores per rank is not supported (ctlDispatchLocked refuses it).
func (s *sim) ctlWorkerLoop(w *worker) {
	defer s.wg.Done()
	c := s.ctl
	s.wmu.Lock()
	rc := s.newCoreCtx(w)
	s.wmu.Unlock()
	defer rc.ub.release()
	for c.await(w.rank) {
		s.wmu.Lock()
		if len(w.q) == 0 {
			s.wmu.Unlock()
			c.leave()
			continue
		}
		j := w.q[0]
		w.q = w.q[1:]
		s.wmu.Unlock()
		rc.deferred = rc.deferred[:0]
		if !s.sched.stopped.Load() {
			if err := s.runTask(w.rank, rc, j.task); err != nil && err != errAborted {
				s.sched.fail(err)
			}
		}
		_ = c.yield(w.rank, taskEvent(EvTaskEnd, w.rank, j.task), nil, nil)
		s.wmu.Lock()
		idle := s.completeLocked(w)
		var next task
		if !idle {
			next = w.q[0].task
		}
		s.wmu.Unlock()
		if idle {
			s.sched.doneLive()
			s.reportProgress()
		} else {
			c.park(w.rank, taskEvent(EvTaskStart, w.rank, next))
		}
		c.leave()
	}
	// The run stopped: drop what is still queued so the host's join ends.
	s.wmu.Lock()
	dropped := len(w.q)
	w.q = nil
	w.pending -= dropped
	s.done += dropped
	idle := dropped > 0 && w.pending == 0
	if idle {
		w.cond.Broadcast()
	}
	s.wmu.Unlock()
	if idle {
		s.sched.doneLive()
	}
}

// ctlQueue queues t on rank r in a controlled run: the rank's one
// worker runs it when the scheduler picks the rank at its task start.
func (s *sim) ctlQueue(r int, t task) {
	s.wmu.Lock()
	w := s.workers[r]
	if w == nil {
		w = &worker{rank: r, cores: 1, cond: sync.NewCond(&s.wmu)}
		s.workers[r] = w
		s.wg.Add(1)
		go s.ctlWorkerLoop(w)
	}
	wasIdle := w.pending == 0
	if wasIdle {
		s.sched.addLive(1)
	}
	s.queueLocked(w, t)
	s.wmu.Unlock()
	if wasIdle {
		s.ctl.park(r, taskEvent(EvTaskStart, r, t))
	}
}

func taskEvent(k SyncKind, rank int, t task) SyncEvent {
	ev := SyncEvent{Rank: rank, Kind: k, Locs: []Loc{{Rank: rank, Buf: locQueue, Lo: 0, Hi: 1, Write: true}}}
	if t.fn != nil {
		ev.Op = t.fn.Name
	} else if t.call != nil {
		ev.Op = t.call.Name()
	}
	if t.call != nil {
		ev.Pos = t.call.Pos
	}
	return ev
}

// ctlDispatch is the host's dispatch event; after it, the target rank is
// parked at its task start if it was idle.
func (s *sim) ctlDispatch(r int, t task) error {
	ev := taskEvent(EvDispatch, -1, t)
	ev.Locs[0].Rank = r
	ev.What = fmt.Sprintf("to rank %d", r)
	return s.ctl.yield(-1, ev, nil, nil)
}

// ctlJoin is the host's join event: enabled once no rank has work.
func (s *sim) ctlJoin() error {
	ev := SyncEvent{Rank: -1, Kind: EvJoin}
	for r := 0; r < s.world; r++ {
		ev.Locs = append(ev.Locs, Loc{Rank: r, Buf: locQueue, Lo: 0, Hi: 1})
	}
	return s.ctl.yield(-1, ev, func() bool {
		s.wmu.Lock()
		defer s.wmu.Unlock()
		for _, w := range s.workers {
			if w != nil && w.pending > 0 {
				return false
			}
		}
		return true
	}, nil)
}

// --- the window layer under control

// ctlWindows is the simulator's windows with a scheduling point before
// every operation.
type ctlWindows struct {
	*simWindows
	c *ctl
}

func segLocs(rank int, buf *WindowBuf, segs []Segment, write bool, out []Loc) []Loc {
	for _, s := range segs {
		out = append(out, Loc{Rank: rank, Buf: buf.id, Lo: s.Off, Hi: s.Off + s.Len, Write: write})
	}
	return out
}

func winEvent(from int, k SyncKind, who Origin, what string, locs []Loc) SyncEvent {
	ev := SyncEvent{Rank: from, Kind: k, What: what, Locs: locs}
	if who.Call != nil {
		ev.Op, ev.Pos = who.Call.Name(), who.Call.Pos
	}
	return ev
}

func onRank(buf *WindowBuf, rank int) string { return fmt.Sprintf("%s on rank %d", buf.Name, rank) }

func (w *ctlWindows) Alloc(name string, size int, domain []int) (*WindowBuf, error) {
	// Buffer ids are handed out in allocation order: ordering allocations
	// keeps a schedule's ids, and so its replay, stable.
	rank := w.c.runningRank()
	ev := SyncEvent{Rank: rank, Kind: EvAlloc, What: name, Locs: []Loc{{Rank: 0, Buf: locAlloc, Lo: 0, Hi: 1, Write: true}}}
	if err := w.c.yield(rank, ev, nil, nil); err != nil {
		return nil, err
	}
	return w.simWindows.Alloc(name, size, domain)
}

func (w *ctlWindows) Read(from, rank int, buf *WindowBuf, segs []Segment, dst []byte, who Origin) error {
	if err := w.c.yield(from, winEvent(from, EvRead, who, onRank(buf, rank), segLocs(rank, buf, segs, false, nil)), nil, nil); err != nil {
		return err
	}
	return w.simWindows.Read(from, rank, buf, segs, dst, who)
}

func (w *ctlWindows) Write(from, rank int, buf *WindowBuf, segs []Segment, src []byte, who Origin) error {
	if err := w.c.yield(from, winEvent(from, EvWrite, who, onRank(buf, rank), segLocs(rank, buf, segs, true, nil)), nil, nil); err != nil {
		return err
	}
	return w.simWindows.Write(from, rank, buf, segs, src, who)
}

func (w *ctlWindows) WriteOwned(from, rank int, buf *WindowBuf, segs []Segment, src []byte, who Origin) error {
	if err := w.c.yield(from, winEvent(from, EvWrite, who, onRank(buf, rank), segLocs(rank, buf, segs, true, nil)), nil, nil); err != nil {
		putBuf(src)
		return err
	}
	return w.simWindows.WriteOwned(from, rank, buf, segs, src, who)
}

func (w *ctlWindows) Accumulate(from, rank int, buf *WindowBuf, segs []Segment, dt ir.DataType, vals []float64, who Origin) error {
	if err := w.c.yield(from, winEvent(from, EvAtomic, who, onRank(buf, rank), segLocs(rank, buf, segs, true, nil)), nil, nil); err != nil {
		return err
	}
	return w.simWindows.Accumulate(from, rank, buf, segs, dt, vals, who)
}

func (w *ctlWindows) Reduce(from int, ranks []int, buf *WindowBuf, segs []Segment, dt ir.DataType, op ir.ReduceOp, acc []byte, who Origin) error {
	var locs []Loc
	for _, r := range ranks {
		locs = segLocs(r, buf, segs, false, locs)
	}
	if err := w.c.yield(from, winEvent(from, EvReduce, who, buf.Name, locs), nil, nil); err != nil {
		return err
	}
	return w.simWindows.Reduce(from, ranks, buf, segs, dt, op, acc, who)
}

func (w *ctlWindows) Copy(from int, dst, src Region) error {
	locs := segLocs(src.Rank, src.Buf, src.Segs, false, nil)
	locs = segLocs(dst.Rank, dst.Buf, dst.Segs, true, locs)
	what := fmt.Sprintf("%s → %s", onRank(src.Buf, src.Rank), onRank(dst.Buf, dst.Rank))
	if err := w.c.yield(from, winEvent(from, EvCopy, dst.Who, what, locs), nil, nil); err != nil {
		return err
	}
	return w.simWindows.Copy(from, dst, src)
}

func cellLoc(rank int, buf *WindowBuf, c Cell, write bool) []Loc {
	return []Loc{{Rank: rank, Buf: buf.id, Lo: c.Offset, Hi: c.Offset + 4, Write: write}}
}

func cellWhat(rank int, buf *WindowBuf, c Cell) string {
	c.Buffer = buf.Name
	return fmt.Sprintf("%s on rank %d", c, rank)
}

func (w *ctlWindows) Notify(from, rank int, buf *WindowBuf, cell Cell, kind NotifyKind, v int32, who Origin) error {
	ev := winEvent(from, EvNotify, who, fmt.Sprintf("%s %s %d", cellWhat(rank, buf, cell), kind, v), cellLoc(rank, buf, cell, true))
	ev.Locs[0].Add = kind == NotifyAtomicAdd
	ev.Signal = &SignalOp{Kind: kind, Value: v}
	if err := w.c.yield(from, ev, nil, nil); err != nil {
		return err
	}
	return w.simWindows.Notify(from, rank, buf, cell, kind, v, who)
}

func (w *ctlWindows) Test(rank int, buf *WindowBuf, cell Cell, cond Cond, who Origin) (bool, error) {
	ev := winEvent(rank, EvTest, who, cellWhat(rank, buf, cell), cellLoc(rank, buf, cell, false))
	ev.Signal = &SignalOp{Cond: cond}
	if err := w.c.yield(rank, ev, nil, nil); err != nil {
		return false, err
	}
	return w.simWindows.Test(rank, buf, cell, cond, who)
}

// Wait parks until the condition holds: only then is the rank enabled, so
// the window layer's Wait returns at once.
func (w *ctlWindows) Wait(rank int, buf *WindowBuf, cell Cell, cond Cond, who Origin) error {
	if err := checkSegs(buf, []Segment{{cell.Offset, 4}}); err != nil {
		return err
	}
	m, err := w.memBuf(rank, buf)
	if err != nil {
		return err
	}
	c := cell
	c.Rank, c.Buffer = rank, buf.Name
	info := &BlockedRank{Rank: rank, Cell: c.String(), Want: cond.String(), Cond: cond, Func: who.Func}
	if who.Call != nil {
		info.Op, info.Pos, info.Deferred = who.Call.Name(), who.Call.Pos, who.Call.Op.Deferred
	}
	key := cellKey{buf.id, cell.Offset}
	enabled := func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		v := getI32(m.data, cell.Offset)
		info.Value = int64(v)
		if cs, ok := m.cells[key]; ok {
			info.Writes = append(info.Writes[:0], cs.history...)
		}
		return cond.Holds(v)
	}
	ev := winEvent(rank, EvWait, who, fmt.Sprintf("%s %s", cellWhat(rank, buf, cell), cond), cellLoc(rank, buf, cell, false))
	ev.Signal = &SignalOp{Cond: cond}
	if err := w.c.yield(rank, ev, enabled, info); err != nil {
		return err
	}
	return w.simWindows.Wait(rank, buf, cell, cond, who)
}

// runningRank is the rank holding the baton (for events whose caller does
// not name itself); only that goroutine calls it.
func (c *ctl) runningRank() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running
}

// syncPoint makes an op a scheduling point of a controlled run with the
// given footprint (a no-op in a free run). Ops whose effect reaches other
// ranks without going through Windows call it before acting: the relaxed
// memory mode's fence (EvFence), which drains the rank's pending writes,
// with those writes as its footprint.
func (x *Exec) syncPoint(kind SyncKind, c *ir.Call, what string, locs []Loc) error {
	if x.s.ctl == nil || x.rank < 0 {
		return nil
	}
	ev := SyncEvent{Rank: x.rank, Kind: kind, What: what, Locs: locs}
	if c != nil {
		ev.Op, ev.Pos = c.Name(), c.Pos
	}
	return x.s.ctl.yield(x.rank, ev, nil, nil)
}
