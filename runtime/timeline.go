package runtime

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
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
type Timeline struct {
	Ranks   int
	Lanes   [][]Event // Lanes[r] is rank r's events in program order
	Host    []Event
	Dropped int64 // events not kept (RunOptions.MaxEvents)

	origin time.Time
	tick   atomic.Int64
	lanes  []*lane // lanes[0] is the host, lanes[r+1] rank r
}

type lane struct {
	max int
	n   int
	// blocks hold the events in fixed-size blocks, so recording never
	// copies what it recorded before (a growing slice would, and a long
	// run records hundreds of thousands of events); finish joins them once.
	blocks  [][]Event
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
			l.blocks = [][]Event{make([]Event, 0, min(hints[i], max))}
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

func (l *lane) keep() bool {
	if l.shared {
		l.mu.Lock()
		defer l.mu.Unlock()
	}
	if l.max < 0 {
		return false
	}
	if l.n >= l.max {
		l.dropped++
		return false
	}
	return true
}

func (l *lane) add(ev *Event) {
	if l.shared {
		l.mu.Lock()
		defer l.mu.Unlock()
	}
	k := len(l.blocks) - 1
	if k < 0 || len(l.blocks[k]) == cap(l.blocks[k]) {
		l.blocks = append(l.blocks, make([]Event, 0, min(laneBlock, max(l.max-l.n, 1))))
		k++
	}
	l.blocks[k] = append(l.blocks[k], *ev)
	l.n++
}

// events is the lane's events in order, in one slice.
func (l *lane) events() []Event {
	if len(l.blocks) == 1 {
		return l.blocks[0]
	}
	var out []Event
	if l.n > 0 {
		out = make([]Event, 0, l.n)
	}
	for _, b := range l.blocks {
		out = append(out, b...)
	}
	return out
}

func (t *Timeline) begin(ev *Event) {
	ev.StartTick = t.tick.Add(1)
	ev.Start = time.Since(t.origin)
}

func (t *Timeline) end(ev *Event) {
	ev.EndTick = t.tick.Add(1)
	ev.End = time.Since(t.origin)
}

// finish publishes the lanes once every rank stopped.
func (t *Timeline) finish() {
	t.Host = t.lanes[0].events()
	t.Lanes = make([][]Event, t.Ranks)
	for r := 0; r < t.Ranks; r++ {
		t.Lanes[r] = t.lanes[r+1].events()
	}
	for _, l := range t.lanes {
		t.Dropped += l.dropped
	}
}

// PerRank returns rank r's events in order (r = -1: the host's).
func (t *Timeline) PerRank(r int) []Event {
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
