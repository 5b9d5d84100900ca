package runtime

import (
	"fmt"
	"sort"
	"sync/atomic"
	"time"

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
	max     int
	events  []Event
	dropped int64
}

func newTimeline(ranks, max int) *Timeline {
	t := &Timeline{Ranks: ranks, origin: time.Now()}
	for i := 0; i <= ranks; i++ {
		t.lanes = append(t.lanes, &lane{max: max})
	}
	return t
}

// lane returns rank r's private lane (r = -1: the host); only that rank's
// goroutine appends to it, so recording takes no lock.
func (t *Timeline) lane(r int) *lane { return t.lanes[r+1] }

func (l *lane) keep() bool {
	if l.max < 0 {
		return false
	}
	if len(l.events) >= l.max {
		l.dropped++
		return false
	}
	return true
}

func (l *lane) add(ev *Event) { l.events = append(l.events, *ev) }

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
	t.Host = t.lanes[0].events
	t.Lanes = make([][]Event, t.Ranks)
	for r := 0; r < t.Ranks; r++ {
		t.Lanes[r] = t.lanes[r+1].events
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
