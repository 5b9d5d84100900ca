package runtime

import (
	"strconv"
	"sync"
	"time"

	"github.com/ptorepl/ptorepl/ir"
)

// Event is one op executed on one rank.
type Event struct {
	Rank  int // -1: the host
	Op    string
	Func  string
	Pos   ir.Span
	Seq   int64 // logical time: the op's position in the global order
	Start time.Duration
	End   time.Duration
	Peer  int    // target rank of RMA and notify, -1 otherwise
	Cell  string // signal cell (buffer[offsets]) of notify/wait, "" otherwise
	Value int64  // notify value / wait expectation
	Comm  bool   // a communication op (RMA, signal, collective)
}

// Timeline is every op of a run, per rank, for swimlane views.
type Timeline struct {
	mu     sync.Mutex
	origin time.Time
	seq    int64
	Ranks  int
	Events []Event
}

func newTimeline(ranks int) *Timeline { return &Timeline{origin: time.Now(), Ranks: ranks} }

func (t *Timeline) record(rank int, c *ir.Call, fn string, start, end time.Time, args []any) {
	ev := Event{Rank: rank, Op: c.Op.Name, Func: fn, Pos: c.Pos, Start: start.Sub(t.origin), End: end.Sub(t.origin), Peer: -1}
	name := c.Op.Name
	ev.Comm = len(name) > 4 && name[:4] == "pld." || len(name) > 9 && name[:9] == "tile.comm"
	for i, a := range c.Op.Args {
		if i < len(args) && a.Name == "peer" {
			if p, err := toInt(args[i]); err == nil {
				ev.Peer = int(p)
			}
		}
	}
	switch name {
	case "pld.system.notify", "pld.system.wait":
		buf, off := "", []any(nil)
		if r, ok := args[0].(*region); ok && r.win != nil {
			buf = r.win.Name
		}
		oi := 2
		vi := 3
		if name == "pld.system.wait" {
			oi, vi = 1, 2
		}
		off, _ = args[oi].([]any)
		ev.Cell = cellName(buf, off)
		ev.Value, _ = toInt(args[vi])
	}
	t.mu.Lock()
	t.seq++
	ev.Seq = t.seq
	t.Events = append(t.Events, ev)
	t.mu.Unlock()
}

func cellName(buf string, off []any) string {
	s := buf + "["
	for i, o := range off {
		if i > 0 {
			s += ", "
		}
		n, _ := toInt(o)
		s += strconv.FormatInt(n, 10)
	}
	return s + "]"
}

// PerRank returns rank r's events in order.
func (t *Timeline) PerRank(r int) []Event {
	var out []Event
	for _, e := range t.Events {
		if e.Rank == r {
			out = append(out, e)
		}
	}
	return out
}
