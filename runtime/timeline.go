package runtime

import (
	"fmt"
	"sort"
	"sync"
	"time"
	"unsafe"

	"github.com/ptorepl/ptorepl/ir"
)

// Event is one op executed on one rank (or the host), for swimlane views.
type Event struct {
	Rank int // -1: the host
	Op   string
	Kind string // "compute", "memory", "rma", "signal", "wait", "collective", "host"
	Func string
	Pos  ir.Span
	// Logical time: a run-wide counter ticked at every op start and end, so
	// StartTick < EndTick and ticks order events across ranks consistently.
	StartTick, EndTick int64
	// Wall time since the run started.
	Start, End time.Duration
	Peer       int    // the target rank of RMA and notify, -1 otherwise
	Cell       string // the signal cell of notify/wait ("signal_buf[0, 0]"), "" otherwise
	Value      int64  // notify value / wait or test expectation
	// Blocked marks a wait the run stopped in (a deadlock, the watchdog, a
	// cancel): it never completed, and Cell is the cell it waited on.
	Blocked bool
}

// Timeline is every op of a run: one lane per rank plus the host's.
//
// A run records each op compactly; Lanes and Host are built from those
// records, with the ticks, the first time Expand is called (every reader
// of a run's timeline calls it: pl.RunResult.Timeline does, and so do
// String, PerRank and All). A run nobody looks at never pays for them.
type Timeline struct {
	Ranks   int
	Lanes   [][]Event // Lanes[r] is rank r's events in program order (after Expand)
	Host    []Event   // the host's events (after Expand)
	Dropped int64     // events not kept (RunOptions.MaxEvents)

	origin time.Time
	lanes  []*lane // lanes[0] is the host, lanes[r+1] rank r
	// recorded: the lanes hold a run's records, which Expand still has to
	// turn into Lanes and Host with their ticks (once).
	recorded bool
	expand   sync.Once
	// static names the sites of the compiled program's call sites (shared
	// by its runs), sites every other op site, cells the signal cells the
	// records name.
	static *siteTable
	sites  siteTable
	cells  nameTable
}

// rec is one op as a lane records it while the run goes on: no pointers,
// so recording one is a short store into memory the collector never scans.
// Expand makes it an Event (its op, function and position come from its
// site, its rank from the lane).
type rec struct {
	start, end time.Duration
	value      int64
	site       int32 // >= 0: Timeline.static; < 0: Timeline.sites at -site-1
	peer       int32
	cell       int32 // Timeline.cells at cell-1 (0: none)
	blocked    bool
}

// site is what an op record stands for: the call and the function it ran in.
type site struct {
	call *ir.Call
	fn   *ir.Function // nil: none
}

// interner numbers distinct keys from 0 in the order it first sees them;
// ranks number concurrently.
type interner[K comparable] struct {
	mu    sync.Mutex
	list  []K
	index map[K]int32
}

// id is k's number, given at its first sight.
func (t *interner[K]) id(k K) int32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.index[k]; ok {
		return i
	}
	if t.index == nil {
		t.index = map[K]int32{}
	}
	i := int32(len(t.list))
	t.list = append(t.list, k)
	t.index[k] = i
	return i
}

func (t *interner[K]) at(i int32) K {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.list[i]
}

// siteTable numbers sites.
type siteTable = interner[site]

// nameTable numbers strings from 1, so that a record's 0 means none.
type nameTable struct{ names interner[string] }

func (t *nameTable) id(s string) int32 { return t.names.id(s) + 1 }

func (t *nameTable) at(i int32) string {
	if i <= 0 {
		return ""
	}
	return t.names.at(i - 1)
}

// dynSite numbers a site no compiled call site names (the host's ops, the
// tree walker's).
func (t *Timeline) dynSite(c *ir.Call, fn *ir.Function) int32 {
	return -t.sites.id(site{c, fn}) - 1
}

// event is r as an Event of rank.
func (t *Timeline) event(r *rec, rank int) Event {
	var s site
	if r.site >= 0 {
		s = t.static.at(r.site)
	} else {
		s = t.sites.at(-r.site - 1)
	}
	e := Event{Rank: rank, Op: s.call.Name(), Kind: kindOf(s.call.Op), Pos: s.call.Pos, Start: r.start, End: r.end,
		Peer: int(r.peer), Cell: t.cells.at(r.cell), Value: r.value, Blocked: r.blocked}
	if s.fn != nil {
		e.Func = s.fn.Name
	}
	return e
}

type lane struct {
	max int
	n   int
	// blocks hold the events in fixed-size blocks, so recording never
	// copies what it recorded before (a growing slice would, and a long
	// run records hundreds of thousands of events); finish joins them once.
	blocks  [][]rec
	dropped int64
	// shared marks the lane of a rank with several cores: their tasks
	// record into it at once, under mu.
	shared bool
	mu     sync.Mutex
}

// laneBlock is the number of events per block of a lane.
const laneBlock = 1024

// newTimeline makes the lanes of a run; hints, when it has a count per
// lane (the previous run of the same program), sizes each lane's first
// block to hold that many events, so a repeated run records into one
// block and needs no joining.
func newTimeline(ranks, max int, hints []int) *Timeline {
	t := &Timeline{Ranks: ranks, origin: time.Now()}
	for i := 0; i <= ranks; i++ {
		l := &lane{max: max}
		if len(hints) == ranks+1 && hints[i] > laneBlock && max > 0 {
			l.blocks = [][]rec{make([]rec, 0, min(hints[i], max))}
		}
		t.lanes = append(t.lanes, l)
	}
	return t
}

// counts is the number of events each lane recorded (for newTimeline's hints).
func (t *Timeline) counts() []int {
	out := make([]int, len(t.lanes))
	for i, l := range t.lanes {
		out[i] = l.n
	}
	return out
}

// lane returns rank r's lane (r = -1: the host). With one core only that
// rank's goroutine appends to it, so recording takes no lock; with more
// the lane is shared and locks.
func (t *Timeline) lane(r int) *lane { return t.lanes[r+1] }

// open returns the slot the next event is recorded in, or nil when the
// lane keeps no more events. The event is written in place (a lane of one
// core has one writer) and counts once commit is called; an op that never
// commits (a panic) leaves its slot to the next.
func (l *lane) open() *rec {
	if l.max < 0 {
		return nil
	}
	if l.n >= l.max {
		l.dropped++
		return nil
	}
	k := len(l.blocks) - 1
	if k < 0 || len(l.blocks[k]) == cap(l.blocks[k]) {
		l.blocks = append(l.blocks, make([]rec, 0, min(laneBlock, max(l.max-l.n, 1))))
		k++
	}
	b := l.blocks[k]
	b = b[:len(b)+1]
	l.blocks[k] = b[:len(b)-1]
	return &b[len(b)-1]
}

// commit counts the event open returned.
func (l *lane) commit() {
	k := len(l.blocks) - 1
	l.blocks[k] = l.blocks[k][:len(l.blocks[k])+1]
	l.n++
}

// add appends a copy of ev (a shared lane: several cores record at once,
// so each records into its own scratch and appends under the lock).
func (l *lane) add(ev *rec) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if slot := l.open(); slot != nil {
		*slot = *ev
		l.commit()
	}
}

// events is lane r's records in order as the events of rank r (-1: the
// host).
func (t *Timeline) events(r int) []Event {
	l := t.lane(r)
	if l.n == 0 {
		return nil
	}
	out := make([]Event, 0, l.n)
	for _, b := range l.blocks {
		for i := range b {
			out = append(out, t.event(&b[i], r))
		}
	}
	return out
}

func (t *Timeline) begin(ev *rec) { ev.start = time.Since(t.origin) }

func (t *Timeline) end(ev *rec) { ev.end = time.Since(t.origin) }

// finish closes the lanes once every rank stopped (Expand builds the
// events from them when someone reads the timeline).
func (t *Timeline) finish() {
	for _, l := range t.lanes {
		t.Dropped += l.dropped
	}
	t.recorded = true
}

// lane r's events (r = -1: the host's), built from its records: what a
// device returns for the one rank it ran, without expanding the others.
func (t *Timeline) laneEvents(r int) []Event {
	if !t.recorded {
		return t.PerRank(r)
	}
	return t.events(r)
}

// Expand builds Lanes and Host from a run's records and numbers every
// event's StartTick and EndTick run-wide, in the order of their wall times
// (a lane's own events keep their order; ties go to the host, then to lower
// ranks), once. The run itself records only wall times, so that ranks share
// no counter. On a timeline built by hand it does nothing.
func (t *Timeline) Expand() {
	t.expand.Do(func() {
		if !t.recorded {
			return
		}
		t.Host = t.events(-1)
		t.Lanes = make([][]Event, t.Ranks)
		for r := 0; r < t.Ranks; r++ {
			t.Lanes[r] = t.events(r)
		}
		numberTicks(t.Host, t.Lanes)
	})
}

// numberTicks numbers the events' StartTick and EndTick run-wide by wall
// time (see Expand).
func numberTicks(host []Event, ranks [][]Event) {
	lanes := make([][]Event, 0, len(ranks)+1)
	lanes = append(lanes, host)
	lanes = append(lanes, ranks...)
	if !monotonic(lanes) {
		sortTicks(lanes)
		return
	}
	{
		// A lane's stamps never decrease (Start ≤ End ≤ the next Start),
		// so the run-wide order is a merge of the lanes: a heap of each
		// lane's next stamp, ordered by time, then lane.
		type head struct {
			at      time.Duration
			lane, i int
			end     bool
		}
		less := func(a, b head) bool { return a.at < b.at || (a.at == b.at && a.lane < b.lane) }
		var h []head
		down := func(i int) {
			for {
				m, l, r := i, 2*i+1, 2*i+2
				if l < len(h) && less(h[l], h[m]) {
					m = l
				}
				if r < len(h) && less(h[r], h[m]) {
					m = r
				}
				if m == i {
					return
				}
				h[i], h[m] = h[m], h[i]
				i = m
			}
		}
		for l, evs := range lanes {
			if len(evs) > 0 {
				h = append(h, head{at: evs[0].Start, lane: l})
			}
		}
		for i := len(h)/2 - 1; i >= 0; i-- {
			down(i)
		}
		var tick int64
		for len(h) > 0 {
			top := &h[0]
			e := &lanes[top.lane][top.i]
			tick++
			switch {
			case !top.end:
				e.StartTick = tick
				top.end, top.at = true, e.End
			case top.i+1 < len(lanes[top.lane]):
				e.EndTick = tick
				top.i++
				top.end, top.at = false, lanes[top.lane][top.i].Start
			default:
				e.EndTick = tick
				h[0] = h[len(h)-1]
				h = h[:len(h)-1]
			}
			down(0)
		}
	}
}

// monotonic reports whether every lane's stamps never decrease, as they
// do when one core records a lane (several cores interleave theirs).
func monotonic(lanes [][]Event) bool {
	for _, evs := range lanes {
		var last time.Duration
		for i := range evs {
			if evs[i].Start < last || evs[i].End < evs[i].Start {
				return false
			}
			last = evs[i].End
		}
	}
	return true
}

// sortTicks numbers the stamps of lanes whose events overlap by sorting
// them all: by time, a start before an end at the same time.
func sortTicks(lanes [][]Event) {
	type stamp struct {
		at    time.Duration
		tick  *int64
		order int
	}
	var all []stamp
	for _, evs := range lanes {
		for i := range evs {
			all = append(all, stamp{evs[i].Start, &evs[i].StartTick, 0}, stamp{evs[i].End, &evs[i].EndTick, 1})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].at != all[j].at {
			return all[i].at < all[j].at
		}
		return all[i].order < all[j].order
	})
	for i, s := range all {
		*s.tick = int64(i + 1)
	}
}

// PerRank returns rank r's events in order (r = -1: the host's).
func (t *Timeline) PerRank(r int) []Event {
	t.Expand()
	if r < 0 {
		return t.Host
	}
	if r >= len(t.Lanes) {
		return nil
	}
	return t.Lanes[r]
}

// All returns every event, host first, ordered by logical start time.
func (t *Timeline) All() []Event {
	t.Expand()
	out := append([]Event(nil), t.Host...)
	for _, l := range t.Lanes {
		out = append(out, l...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].StartTick < out[j].StartTick })
	return out
}

// kindOf classifies an op for swimlane colouring by its registry class; a
// call of a function (op nil) or an op that declares no class is compute.
func kindOf(op *ir.OpDef) string {
	if op == nil {
		return "compute"
	}
	return eventKinds[op.Class]
}

// eventKinds names each op class on the timeline.
var eventKinds = map[ir.OpClass]string{
	ir.ClassUnset: "compute", ir.ClassCompute: "compute", ir.ClassMemory: "memory", ir.ClassRMA: "rma",
	ir.ClassSignal: "signal", ir.ClassWait: "wait", ir.ClassCollective: "collective", ir.ClassSetup: "host",
}

// EventKind is the timeline kind a call of op records ("wait", "rma", ...).
func EventKind(op *ir.OpDef) string { return kindOf(op) }

// String summarises the timeline (a cell showing it prints this, not the
// struct): ranks, events, and the waits a failed run stopped in.
func (t *Timeline) String() string {
	t.Expand()
	n, blocked := len(t.Host), 0
	for _, l := range t.Lanes {
		n += len(l)
		for _, ev := range l {
			if ev.Blocked {
				blocked++
			}
		}
	}
	s := fmt.Sprintf("timeline of %d ranks: %d events", t.Ranks, n)
	if t.Dropped > 0 {
		s += fmt.Sprintf(" (%d more not kept)", t.Dropped)
	}
	if blocked > 0 {
		s += fmt.Sprintf(", %d blocked waits", blocked)
	}
	return s
}

// Lane size hints outlive one loaded executable: pl.Run and c.Run load
// the program afresh for every run, so the hints are also kept per program
// (by address, which keeps nothing alive: a stale entry only mis-sizes the
// first block of a lane).
var laneHintCache = struct {
	sync.Mutex
	m map[uintptr][]int
}{m: map[uintptr][]int{}}

// maxHintPrograms bounds the cache.
const maxHintPrograms = 64

// hints are the lane sizes of the last run of this program at this world
// size (nil when unknown).
func (l *loaded) hints(ranks int) []int {
	l.mu.Lock()
	h := l.laneHints
	l.mu.Unlock()
	if h == nil {
		laneHintCache.Lock()
		h = laneHintCache.m[uintptr(unsafe.Pointer(l.prog))]
		laneHintCache.Unlock()
	}
	if len(h) != ranks+1 {
		return nil
	}
	return h
}

func (l *loaded) setHints(h []int) {
	l.mu.Lock()
	l.laneHints = h
	l.mu.Unlock()
	laneHintCache.Lock()
	if len(laneHintCache.m) >= maxHintPrograms {
		clear(laneHintCache.m)
	}
	laneHintCache.m[uintptr(unsafe.Pointer(l.prog))] = h
	laneHintCache.Unlock()
}
