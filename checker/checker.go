package checker

import (
	"errors"
	"sort"
	"sync"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
)

// Checker is a runtime.Observer that checks one run. Attach a fresh one per
// run (runtime.RunOptions.Observer) and read Report once the run returned.
//
// Attached to a run whose ranks each have one core and run sequentially
// consistent, it takes the ranks' calls at once (runtime.ConcurrentObserver):
// each rank's clock and record blocks are its own, each shadow and each
// signal cell has its own lock, and the runtime orders the calls about one
// buffer copy. Otherwise the runtime serialises the calls. Either way mu
// guards the tables and the run's end, fmu the findings, so Report may be
// called from another goroutine. Locks are taken in the order cell, then
// mu, then fmu; a shadow's lock is never held with another.
type Checker struct {
	mu         sync.Mutex
	fmu        sync.Mutex
	concurrent bool
	world      int
	vc         []clock // per rank
	// per is each rank's own: the records it makes and where it last
	// found its shadows and cells.
	per []*rankState
	// mem is the shadow of window memory: per (rank copy, buffer) an
	// interval map of the accesses that may still race.
	mem   map[memKey]*shadow
	cells map[cellKey]*cellTrack
	order []*cellTrack // cells in first-touch order

	races     map[raceKey]*raceAgg
	raceOrder []*raceAgg
	found     []Finding // non-race findings in discovery order
	seen      map[string]bool
	dropped   int // findings beyond maxFindings

	maxFindings int
	ended       bool
	endErr      error
	signals     []runtime.SignalCell
	overlaps    []runtime.TileOverlap
	taskRaces   []runtime.TaskRace
	report      *Report

	rx *rxState // the relaxed memory mode's bookkeeping (relaxed.go); nil otherwise
}

// rankState is what one rank's calls use without locking: its access
// records, handed out in blocks (a run records one per window access and
// notify), and the shadows and cells it already looked up.
type rankState struct {
	accs    accessSlab
	waits   waitSlab
	clocks  clockSlab
	shadows map[memKey]*shadow
	cells   map[cellKey]*cellTrack
	// recent are the shadows looked up last (a rank goes back and forth
	// between a few), tried before the map; next is the slot to replace.
	recent [8]recentShadow
	next   int
}

type recentShadow struct {
	k  memKey
	sh *shadow
}

// waitSlab hands out wait records from blocks.
type waitSlab struct{ buf []waitRec }

func (s *waitSlab) new() *waitRec {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]waitRec, 0, 256)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// clockSlab hands out copies of clocks from blocks (a notify keeps its
// clock until the wait that needs it acquired it).
type clockSlab struct{ buf clock }

func (s *clockSlab) clone(c clock) clock {
	if len(s.buf)+len(c) > cap(s.buf) {
		s.buf = make(clock, 0, max(4096, len(c)))
	}
	k := len(s.buf)
	s.buf = append(s.buf, c...)
	return s.buf[k:len(s.buf):len(s.buf)]
}

// accessSlab hands out access records from blocks.
type accessSlab struct{ buf []access }

func (s *accessSlab) new() *access {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]access, 0, 512)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// stateSlab hands out shadow interval states from blocks.
type stateSlab struct{ buf []segState }

func (s *stateSlab) new() *segState {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]segState, 0, 256)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// New returns a checker for a run on ranks ranks (grown on demand if the
// run turns out larger).
func New(ranks int) *Checker {
	c := &Checker{
		mem:         map[memKey]*shadow{},
		cells:       map[cellKey]*cellTrack{},
		races:       map[raceKey]*raceAgg{},
		seen:        map[string]bool{},
		maxFindings: 200,
	}
	c.grow(ranks - 1)
	return c
}

// Attach puts a new checker on o (replacing any observer) and returns it.
func Attach(o *runtime.RunOptions) *Checker {
	n := o.Ranks
	if n <= 0 {
		n = 2
	}
	c := New(n)
	// Several calls at once need each rank's events in one sequence (one
	// core) and no relaxed-memory bookkeeping (it is global); a controlled
	// run has one rank running at a time anyway.
	c.concurrent = o.Ranks > 0 && o.Cores <= 1 && !o.Relaxed && o.Schedule == nil
	o.Observer = c
	return c
}

// ObservesConcurrently tells the runtime whether it may call c from
// several ranks at once (Attach decides).
func (c *Checker) ObservesConcurrently() bool { return c.concurrent }

var (
	_ runtime.JoinObserver       = (*Checker)(nil)
	_ runtime.ConcurrentObserver = (*Checker)(nil)
)

// rankOf is rank r's own state.
func (c *Checker) rankOf(r int) *rankState { return c.per[r] }

// fit makes room for rank r: ranks beyond the run's world only come to a
// checker the runtime serialises (New without Attach), so growing under
// mu is safe.
func (c *Checker) fit(r int) {
	if r >= c.world {
		c.mu.Lock()
		c.grow(r)
		c.mu.Unlock()
	}
}

// clock is a vector clock: entry r is the latest epoch of rank r known.
type clock []uint32

func (c clock) join(o clock) {
	for i, v := range o {
		if i < len(c) && v > c[i] {
			c[i] = v
		}
	}
}

// grow makes room for rank r.
func (c *Checker) grow(r int) {
	if r < c.world {
		return
	}
	n := r + 1
	for i := range c.vc {
		nc := make(clock, n)
		copy(nc, c.vc[i])
		c.vc[i] = nc
	}
	for i := c.world; i < n; i++ {
		v := make(clock, n)
		v[i] = 1 // epoch 0 would look "already seen" by everyone
		c.vc = append(c.vc, v)
		c.per = append(c.per, &rankState{shadows: map[memKey]*shadow{}, cells: map[cellKey]*cellTrack{}})
	}
	for _, ct := range c.order {
		if len(ct.forced) < n {
			nc := make(clock, n)
			copy(nc, ct.forced)
			ct.forced = nc
		}
	}
	c.world = n
}

// hb reports whether an event of rank r at epoch e happens before the
// current point of the rank whose clock is vc.
func hb(r int, e uint32, vc clock) bool { return r < len(vc) && vc[r] >= e }

// --- window accesses

type memKey struct {
	rank   int
	buffer string
}

// access is one recorded access (a notify counts as an atomic write of its
// 4-byte cell).
type access struct {
	rank, target int
	kind         runtime.AccessKind
	origin       runtime.Origin
	buffer       string
	cell         string // the cell's name, for notifies
	epoch        uint32
}

// Access records a window access and reports the races it completes.
func (c *Checker) Access(a runtime.Access) {
	if a.Rank < 0 || a.Target < 0 {
		return
	}
	c.fit(max(a.Rank, a.Target))
	ac := c.rankOf(a.Rank).accs.new()
	*ac = access{rank: a.Rank, target: a.Target, kind: a.Kind, origin: a.Origin, buffer: a.Buffer, epoch: c.vc[a.Rank][a.Rank]}
	c.record(ac, a.Ranges)
	if c.rx != nil {
		c.rxCheck(ac, a.Ranges)
	}
}

// shadowOf is the shadow of rank target's copy of buffer, as rank from
// looks it up.
func (c *Checker) shadowOf(from, target int, buffer string) *shadow {
	k := memKey{target, buffer}
	per := c.rankOf(from)
	for i := range per.recent {
		if r := &per.recent[i]; r.sh != nil && r.k.rank == target && r.k.buffer == buffer {
			return r.sh
		}
	}
	if sh := per.shadows[k]; sh != nil {
		per.remember(k, sh)
		return sh
	}
	c.mu.Lock()
	sh := c.mem[k]
	if sh == nil {
		sh = &shadow{states: &stateSlab{}}
		c.mem[k] = sh
	}
	c.mu.Unlock()
	per.shadows[k] = sh
	per.remember(k, sh)
	return sh
}

func (per *rankState) remember(k memKey, sh *shadow) {
	per.recent[per.next] = recentShadow{k, sh}
	per.next = (per.next + 1) % len(per.recent)
}

func (c *Checker) record(ac *access, ranges []runtime.ByteRange) {
	sh := c.shadowOf(ac.rank, ac.target, ac.buffer)
	vc := c.vc[ac.rank]
	var conflicts map[*access][]runtime.ByteRange
	var firsts []*access
	sh.mu.Lock()
	for _, r := range ranges {
		if r.Hi <= r.Lo {
			continue
		}
		sh.apply(ac, r.Lo, r.Hi, vc, func(p *access, lo, hi int) {
			if conflicts == nil {
				conflicts = map[*access][]runtime.ByteRange{}
			}
			if _, ok := conflicts[p]; !ok {
				firsts = append(firsts, p)
			}
			conflicts[p] = addRange(conflicts[p], lo, hi)
		})
	}
	sh.mu.Unlock()
	if len(firsts) == 0 {
		return
	}
	c.fmu.Lock()
	defer c.fmu.Unlock()
	for _, p := range firsts {
		c.race(p, ac, conflicts[p])
	}
}

// addRange appends [lo, hi), merging with the last range when adjacent.
func addRange(rs []runtime.ByteRange, lo, hi int) []runtime.ByteRange {
	if n := len(rs); n > 0 && rs[n-1].Hi == lo {
		rs[n-1].Hi = hi
		return rs
	}
	return append(rs, runtime.ByteRange{Lo: lo, Hi: hi})
}

// conflicting reports whether kinds a and b conflict (one writes, and they
// are not both atomic adds).
func conflicting(a, b runtime.AccessKind) bool {
	if a == runtime.Read && b == runtime.Read {
		return false
	}
	if a == runtime.Atomic && b == runtime.Atomic {
		return false
	}
	return true
}

// --- races, aggregated per pair of ops

type raceKey struct {
	first, second *ir.Call
	fk, sk        runtime.AccessKind
	buffer        string
	fcell, scell  string
}

type raceAgg struct {
	first, second *access
	ranges        []runtime.ByteRange // of the first pair
	pairs         map[[3]int]bool     // (first rank, second rank, target)
	pairOrder     [][3]int
}

func (c *Checker) race(p, cur *access, rs []runtime.ByteRange) {
	// Ranks run the same kernels, so source order says which side the
	// programmer meant to come first; it picks the advice, and both
	// observed orders of one pair of ops make one finding. Ops in different
	// functions put the write first (stage, then read).
	if sourceBefore(cur.origin, p.origin) || (!sourceBefore(p.origin, cur.origin) && p.kind == runtime.Read && cur.kind != runtime.Read) {
		p, cur = cur, p // without a source order, the producer comes first
	}
	k := raceKey{p.origin.Call, cur.origin.Call, p.kind, cur.kind, cur.buffer, p.cell, cur.cell}
	agg := c.races[k]
	if agg == nil {
		if len(c.raceOrder)+len(c.found) >= c.maxFindings {
			c.dropped++
			return
		}
		agg = &raceAgg{first: p, second: cur, ranges: rs, pairs: map[[3]int]bool{}}
		c.races[k] = agg
		c.raceOrder = append(c.raceOrder, agg)
	}
	pr := [3]int{p.rank, cur.rank, cur.target}
	if !agg.pairs[pr] {
		agg.pairs[pr] = true
		agg.pairOrder = append(agg.pairOrder, pr)
	}
}

// --- signals

type cellKey struct {
	rank   int
	buffer string
	off    int
}

// Notify records a notify: an atomic write of the cell, a release of the
// notifier's clock into it, and the hygiene checks.
func (c *Checker) Notify(n runtime.Notification) {
	if n.Rank < 0 || n.Cell.Rank < 0 {
		return
	}
	c.fit(max(n.Rank, n.Cell.Rank))
	ct := c.cellOf(n.Rank, n.Cell)
	vc := c.vc[n.Rank]
	ac := c.rankOf(n.Rank).accs.new()
	*ac = access{rank: n.Rank, target: n.Cell.Rank, kind: runtime.Atomic, origin: n.Origin, buffer: n.Cell.Buffer, cell: ct.name, epoch: vc[n.Rank]}
	c.record(ac, []runtime.ByteRange{{Lo: n.Cell.Offset, Hi: n.Cell.Offset + 4}})
	ct.mu.Lock()
	defer ct.mu.Unlock()
	if c.rx != nil {
		c.rxCheck(ac, []runtime.ByteRange{{Lo: n.Cell.Offset, Hi: n.Cell.Offset + 4}})
		c.rxNotified(n)
	}
	c.checkMixed(ct, ac, n.Kind)
	c.checkOvertaken(ct, n)
	ct.notify(n, c.release(ct, n, vc))
	vc[n.Rank]++
}

// Wait records a wait that returned (or a comm_test): a satisfied one
// acquires the clocks of the notifies it synchronises with (sync.go).
func (c *Checker) Wait(w runtime.WaitResult) {
	if w.Rank < 0 {
		return
	}
	c.fit(w.Rank)
	if !w.Satisfied {
		return
	}
	ct := c.cellOf(w.Rank, w.Cell)
	ct.mu.Lock()
	defer ct.mu.Unlock()
	vc := c.vc[w.Rank]
	m := c.acquire(ct, w, vc)
	if c.rx != nil {
		c.rxWaited(w.Rank, w.Origin)
	}
	if opOf(w.Origin) == ir.TileCommTest {
		return // a test does not block: it can neither pass early nor be overtaken
	}
	c.checkStale(ct, w, m)
	giver := -1
	if m.cond && m.t > 0 {
		giver = ct.giver
	}
	wr := c.rankOf(w.Rank).waits.new()
	*wr = waitRec{rank: w.Rank, epoch: vc[w.Rank], cond: w.Cond, value: w.Value, least: m.value, origin: w.Origin, sync: m, giver: giver}
	ct.waited(wr)
	ct.addHist(histEntry{wait: true, rank: w.Rank, new: w.Value, cond: w.Cond, origin: w.Origin})
}

// Joined orders everything before the host's join before everything after.
func (c *Checker) Joined() {
	c.mu.Lock()
	defer c.mu.Unlock()
	all := make(clock, c.world)
	for _, v := range c.vc {
		all.join(v)
	}
	for r, v := range c.vc {
		copy(v, all)
		v[r]++
	}
	if c.rx != nil {
		c.rxJoined()
	}
}

// End closes the run: hygiene findings and the deadlock explanation.
func (c *Checker) End(e runtime.RunEnd) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
	c.endErr = e.Err
	c.signals = e.Signals
	c.overlaps = e.Overlaps
	c.taskRaces = e.TaskRaces
	c.report = nil
}

// Report returns the findings so far (all of them once the run ended).
func (c *Checker) Report() *Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fmu.Lock()
	defer c.fmu.Unlock()
	if c.report != nil {
		return c.report
	}
	r := &Report{Ranks: c.world}
	for _, agg := range c.raceOrder {
		r.Findings = append(r.Findings, raceFinding(agg))
	}
	r.Findings = append(r.Findings, c.found...)
	if c.ended {
		var dl *runtime.DeadlockError
		var rd *runtime.ResourceDeadlockError
		if errors.As(c.endErr, &rd) && errors.As(c.endErr, &dl) {
			r.Findings = append([]Finding{resourceFinding(rd, dl)}, r.Findings...)
		} else if errors.As(c.endErr, &dl) {
			r.Findings = append([]Finding{c.deadlockFinding(dl)}, r.Findings...)
		}
		r.Findings = append(r.Findings, c.hygiene()...)
		r.Findings = append(r.Findings, TileOverlaps(c.overlaps)...)
		r.Findings = append(r.Findings, TaskRaces(c.taskRaces)...)
	}
	r.Dropped = c.dropped
	sortFindings(r.Findings)
	if c.ended {
		c.report = r
	}
	return r
}

// sortFindings orders findings by severity, keeping discovery order within one.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Severity < fs[j].Severity })
}

// note adds a non-race finding once per key (later repeats are dropped).
func (c *Checker) note(key string, f Finding) {
	c.fmu.Lock()
	defer c.fmu.Unlock()
	if c.seen[key] {
		return
	}
	if len(c.raceOrder)+len(c.found) >= c.maxFindings {
		c.dropped++
		return
	}
	f.key = key
	c.found = append(c.found, f)
	c.seen[key] = true
}

// sourceBefore reports whether op a comes before op b in the source of one
// function (same file, earlier line or column).
func sourceBefore(a, b runtime.Origin) bool {
	if a.Call == nil || b.Call == nil || a.Call == b.Call || a.Func != b.Func {
		return false
	}
	pa, pb := a.Call.Pos, b.Call.Pos
	if !pa.Known() || !pb.Known() || pa.File != pb.File {
		return false
	}
	return pa.Line < pb.Line || (pa.Line == pb.Line && pa.Col < pb.Col)
}
