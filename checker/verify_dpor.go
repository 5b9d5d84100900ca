package checker

import (
	"context"
	"fmt"
	"sort"

	"github.com/ptorepl/ptorepl/runtime"
)

// Dynamic partial-order reduction over controlled runs.
//
// The explorer is stateless: every schedule is a fresh run of the program
// (compiled once), steered by a runtime.Chooser that replays a prefix of
// decisions and then extends it. Over the synchronising events a run
// reports (runtime.SyncEvent, with their footprints) it applies the
// algorithm of Flanagan and Godefroid, "Dynamic partial-order reduction
// for model checking software" (POPL 2005): after each run, for every
// state and every rank's next event, the last earlier event of another
// rank that is dependent with it, may be co-enabled with it and does not
// happen before it is a race, and the state before that event gets the
// rank (or, if it was not enabled there, every enabled rank) added to its
// backtrack set. Sleep sets (Godefroid's thesis, LNCS 1032, 1996) cut the
// runs that would only reorder independent events already explored; a run
// that reaches a state where every enabled rank sleeps is abandoned.
// Source sets and wakeup trees (Abdulla, Aronis, Jonsson, Sagonas, "Optimal
// dynamic partial order reduction", POPL 2014) would explore fewer
// redundant runs; Nidhugg and GenMC are the reference tools of this line.
//
// The dependency relation is the footprints' conflict (a write against any
// access of the same bytes, integer atomic adds commuting), refined for a
// satisfied Ge/Gt wait and the credits it does not need, which commute: the
// relation is then a function of the run so far (verify_cond.go). The
// run's happens-before takes it from the events before each pair, a rank's
// next wait is examined against its cell's writers in every state (its mode
// changes as credits arrive), and sleep sets use it in the parent's state.
//
// A visibility choice (which pending write becomes visible, in the relaxed
// memory mode) is a choice point inside the running rank's transition: all
// of its options are explored, and the sleep set below it is emptied (an
// event asleep above may not commute with the chosen visibility), which
// keeps the reduction sound at the cost of some redundancy.

// dporRun performs one run steered by ch; it reports nothing itself (the
// caller's closure keeps what it needs).
type dporRun func(ch runtime.Chooser)

// dporStats counts an exploration.
type dporStats struct {
	Runs     int // runs started (complete schedules plus pruned ones)
	Complete int // runs that reached their end
	Pruned   int // runs abandoned in a state where every enabled rank sleeps
	MaxDepth int // the most decisions in one run
	Done     bool
}

// rset is a small set of ranks (or visibility options).
type rset map[int]bool

func (s rset) sorted() []int {
	out := make([]int, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

type dnode struct {
	kind      runtime.ChoiceKind
	cp        *runtime.ChoicePoint // the latest run's, refreshed on replay
	n         int                  // visibility options
	chosen    int                  // a rank, or an option
	sleep     rset
	done      rset
	backtrack rset
}

type explorer struct {
	reduce bool
	stack  []*dnode
	err    error // nondeterminism: a replay that does not fit
}

// dchooser steers one run along the explorer's stack.
type dchooser struct {
	x      *explorer
	depth  int
	pruned bool
	stuck  *runtime.ChoicePoint // the final state of a deadlocked run
	model  *traceModel          // the run so far (for sleep sets), up to the last decision
}

func pendingIndex(cp *runtime.ChoicePoint, rank int) int {
	for i, p := range cp.Pending {
		if p.Rank == rank {
			return i
		}
	}
	return -1
}

func (c *dchooser) Stuck(cp *runtime.ChoicePoint) { c.stuck = cp }

func (c *dchooser) Choose(cp *runtime.ChoicePoint) int {
	x := c.x
	d := c.depth
	c.depth++
	// The rank event chosen at the previous decision has run: the model of
	// the run takes it once the sleep set below it is known.
	var prev *runtime.SyncEvent
	if x.reduce && d > 0 {
		if p := x.stack[d-1]; p.kind == runtime.ChooseRank {
			if ci := pendingIndex(p.cp, p.chosen); ci >= 0 {
				prev = &p.cp.Pending[ci].Event
			}
		}
	}
	if c.model == nil && x.reduce {
		c.model = newTraceModel()
	}
	if d < len(x.stack) {
		if prev != nil {
			c.model.add(prev)
		}
		n := x.stack[d]
		if n.kind != cp.Kind {
			x.err = fmt.Errorf("the program is not deterministic under a fixed schedule: decision %d was a %s choice and is now a %s choice", d+1, kindName(n.kind), kindName(cp.Kind))
			return -1
		}
		if cp.Kind == runtime.ChooseVisibility {
			n.cp = cp
			return n.chosen
		}
		i := pendingIndex(cp, n.chosen)
		if i < 0 || !cp.Pending[i].Enabled {
			x.err = fmt.Errorf("the program is not deterministic under a fixed schedule: at decision %d rank %d is no longer enabled", d+1, n.chosen)
			return -1
		}
		n.cp = cp
		return i
	}
	n := &dnode{kind: cp.Kind, cp: cp, sleep: c.sleepBelow(d), done: rset{}, backtrack: rset{}}
	if prev != nil {
		c.model.add(prev)
	}
	if cp.Kind == runtime.ChooseVisibility {
		n.n = cp.N
		for o := 0; o < cp.N; o++ {
			n.backtrack[o] = true
		}
		n.chosen = 0
		n.done[0] = true
		x.stack = append(x.stack, n)
		return 0
	}
	pick := -1
	for i, p := range cp.Pending {
		if !p.Enabled {
			continue
		}
		if !x.reduce {
			n.backtrack[p.Rank] = true
		}
		if pick < 0 && !n.sleep[p.Rank] {
			pick = i
		}
	}
	if pick < 0 {
		c.pruned = true
		c.stuck = cp // the state the analysis still examines
		return -1
	}
	r := cp.Pending[pick].Rank
	n.chosen = r
	n.done[r] = true
	n.backtrack[r] = true
	x.stack = append(x.stack, n)
	return pick
}

func kindName(k runtime.ChoiceKind) string {
	if k == runtime.ChooseVisibility {
		return "visibility"
	}
	return "rank"
}

// sleepBelow is the sleep set of a new node at depth d: the ranks asleep
// at (or already explored from) its parent whose next event is independent
// of the event the parent chose, in the parent's state (c.model has not
// taken the parent's event yet).
func (c *dchooser) sleepBelow(d int) rset {
	out := rset{}
	if !c.x.reduce || d == 0 {
		return out
	}
	p := c.x.stack[d-1]
	if p.kind != runtime.ChooseRank {
		return out
	}
	ci := pendingIndex(p.cp, p.chosen)
	if ci < 0 {
		return out
	}
	chosen := p.cp.Pending[ci].Event
	for _, set := range []rset{p.sleep, p.done} {
		for q := range set {
			if q == p.chosen {
				continue
			}
			if qi := pendingIndex(p.cp, q); qi >= 0 && !c.model.depAt(&p.cp.Pending[qi].Event, &chosen) {
				out[q] = true
			}
		}
	}
	return out
}

// coEnabled is false for pairs one of which enables the other, so they can
// never be reordered: a dispatch and the task start it queues, a task's end
// and the host's join.
func coEnabled(a, b runtime.SyncEvent) bool {
	pair := func(x, y runtime.SyncKind) bool {
		return (a.Kind == x && b.Kind == y) || (a.Kind == y && b.Kind == x)
	}
	return !pair(runtime.EvDispatch, runtime.EvTaskStart) && !pair(runtime.EvTaskEnd, runtime.EvJoin)
}

// analyse adds the backtrack points the run just made shows to be needed
// (the race detection of Flanagan and Godefroid).
func (c *dchooser) analyse() {
	x := c.x
	type exe struct {
		node int
		rank int
		ev   runtime.SyncEvent
	}
	var evs []exe
	var states []*runtime.ChoicePoint // the state before each event, then the final one
	for i, n := range x.stack[:min(len(x.stack), c.depth)] {
		if n.kind != runtime.ChooseRank {
			continue
		}
		ci := pendingIndex(n.cp, n.chosen)
		if ci < 0 {
			continue
		}
		evs = append(evs, exe{node: i, rank: n.chosen, ev: n.cp.Pending[ci].Event})
		states = append(states, n.cp)
	}
	if c.stuck != nil {
		states = append(states, c.stuck)
	}
	// Vector clocks over event indices: clock[j][r+1] is the last event of
	// rank r that happens before event j (-1: none).
	slot := func(r int) int { return r + 1 }
	width := 1
	for _, e := range evs {
		width = max(width, slot(e.rank)+1)
	}
	for _, st := range states {
		for _, p := range st.Pending {
			width = max(width, slot(p.Rank)+1)
		}
	}
	newClock := func() []int {
		cl := make([]int, width)
		for i := range cl {
			cl[i] = -1
		}
		return cl
	}
	clocks := make([][]int, len(evs))
	last := map[int][]int{} // each rank's clock after its latest event
	scanned := map[int]int{}
	m := newTraceModel()
	for k := 0; k <= len(evs); k++ {
		if k > 0 { // event k-1 has executed: its clock
			j := k - 1
			m.add(&evs[j].ev)
			cl := newClock()
			if prev, ok := last[evs[j].rank]; ok {
				copy(cl, prev)
			}
			for i := 0; i < j; i++ {
				if evs[i].rank != evs[j].rank && m.dep(i, j, &evs[i].ev, &evs[j].ev) {
					for t, v := range clocks[i] {
						cl[t] = max(cl[t], v)
					}
				}
			}
			cl[slot(evs[j].rank)] = j
			clocks[j] = cl
			last[evs[j].rank] = cl
			delete(scanned, evs[j].rank) // its next event starts a new period
		}
		if k >= len(states) {
			break
		}
		for pi := range states[k].Pending {
			p := &states[k].Pending[pi]
			q := p.Rank
			hb := last[q]
			race := func(i int) {
				c.addBacktrack(evs[i].node, q, func(r int) bool {
					// r has an event after i that happens before q's next.
					return hb != nil && slot(r) < len(hb) && hb[slot(r)] > i
				})
			}
			if p.Event.Kind == runtime.EvWait && p.Event.Signal != nil {
				// A wait's dependencies depend on the state (verify_cond.go):
				// examine its cell's writers again in every state.
				key, _ := sigCell(&p.Event)
				cm := m.cell(key)
				var wm *waitMode // nil: plain (a disabled wait)
				if p.Enabled {
					wm = m.mode(&p.Event)
				}
				for x := len(cm.writes) - 1; x >= 0; x-- {
					i := cm.writes[x]
					e := evs[i]
					if e.rank == q || wm.indepBefore(i, &e.ev) {
						continue
					}
					if hb != nil && hb[slot(e.rank)] >= i {
						continue // already ordered before q
					}
					race(i)
					break
				}
				continue
			}
			lo := 0
			if s, ok := scanned[q]; ok {
				lo = s // events before s were examined for this same event
			}
			for i := k - 1; i >= lo; i-- {
				e := evs[i]
				if e.rank == q || !m.depNext(i, &e.ev, &p.Event) || !coEnabled(e.ev, p.Event) {
					continue
				}
				if hb != nil && hb[slot(e.rank)] >= i {
					continue // already ordered before q
				}
				race(i)
				break
			}
			scanned[q] = k
		}
	}
}

// addBacktrack makes the state of node i try rank q, or else a rank
// enabled there that leads to q (it has a later event that happens before
// q's next), or else every enabled rank: the set E of Flanagan and
// Godefroid's algorithm. Of E, a rank awake at node i is preferred: a rank
// asleep there only repeats what an earlier sibling explored, while the
// reversal may need another member of E to run first.
func (c *dchooser) addBacktrack(i, q int, leadsTo func(r int) bool) {
	n := c.x.stack[i]
	var e []int
	for _, p := range n.cp.Pending {
		if p.Enabled && (p.Rank == q || leadsTo(p.Rank)) {
			e = append(e, p.Rank)
		}
	}
	if len(e) == 0 {
		for _, p := range n.cp.Pending {
			if p.Enabled {
				n.backtrack[p.Rank] = true
			}
		}
		return
	}
	for _, r := range e {
		if n.backtrack[r] && !n.sleep[r] {
			return // an awake member is already there
		}
	}
	pick := e[0]
	for _, r := range e {
		if r == q && !n.sleep[r] {
			pick = r
			break
		}
		if !n.sleep[r] && n.sleep[pick] {
			pick = r
		}
	}
	n.backtrack[pick] = true
}

// next pops finished nodes and sets up the next run; false when the
// exploration is complete.
func (x *explorer) next() bool {
	for len(x.stack) > 0 {
		n := x.stack[len(x.stack)-1]
		// As in Flanagan and Godefroid's algorithm with sleep sets, a
		// backtrack point is explored even when its rank sleeps there: the
		// race that added it may need that rank's later events first.
		for _, o := range n.backtrack.sorted() {
			if n.done[o] {
				continue
			}
			n.chosen = o
			n.done[o] = true
			return true
		}
		x.stack = x.stack[:len(x.stack)-1]
	}
	return false
}

// explore runs schedules until every one is covered, the budget of runs is
// spent, visit asks to stop or ctx ends.
func explore(ctx context.Context, reduce bool, budget int, run dporRun, visit func(ch *dchooser) (stop bool)) (dporStats, error) {
	x := &explorer{reduce: reduce}
	var st dporStats
	for {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if budget > 0 && st.Runs >= budget {
			return st, nil
		}
		ch := &dchooser{x: x}
		run(ch)
		st.Runs++
		if x.err != nil {
			return st, x.err
		}
		st.MaxDepth = max(st.MaxDepth, ch.depth)
		// A run that ended before the stack's end (it failed early) leaves
		// the deeper nodes of an earlier run behind: drop them.
		if ch.depth < len(x.stack) {
			x.stack = x.stack[:ch.depth]
		}
		if reduce {
			ch.analyse()
		}
		if ch.pruned {
			st.Pruned++
		} else {
			st.Complete++
			if visit(ch) {
				return st, nil
			}
		}
		if !x.next() {
			st.Done = true
			return st, nil
		}
	}
}
