package checker

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/ptorepl/ptorepl/runtime"
)

// cellTrack is what the checker knows about one signal cell (one rank's
// copy); mu guards it while the run goes on.
type cellTrack struct {
	mu   sync.Mutex
	key  cellKey
	name string // signal_buf[1, 0]

	// What a wait acquires (sync.go): the clocks of the notifies every
	// later wait or test of the owner takes, and the epoch's flexible adds.
	forced    clock
	epoch     int     // Sets so far
	v0        int64   // the epoch's non-flexible value
	flexSum   []int64 // the epoch's flexible adds: the sum of the first i+1
	flexClock []clock // their notifiers' clocks, from flexAcq on
	flexAcq   int     // the first flexAcq were acquired
	giver     int     // the rank of the epoch's flexible adds; -1: none, -2: several
	model     int64   // the value notifies alone give
	plain     bool    // waits acquire everything (until the next Set, unless tainted)
	tainted   bool    // written by something other than a notify

	hist    []histEntry // notifies and returned waits, in order (capped)
	dropped int

	// Stale-reuse analysis: the notifies from seq base on (those before
	// base were needed or the owner's, giving baseVal), each marked when a
	// wait needed it.
	notes   []noteEntry
	base    int
	baseVal int32
	waits   int
	noStale bool // too many notifies without a wait: analysis off

	lastWait *waitRec
	// For checkOvertaken: the latest wait acquiring everything, and the
	// latest conditional wait that needed credits, per giver.
	lastPlain *waitRec
	lastNeed  map[int]*waitRec
	sets      []*access // the latest Set of each rank
	adds      []*access // the latest AtomicAdd of each rank
	setBy     map[runtime.NotifyKind]*access
	mixed     bool // a concurrent Set/AtomicAdd was reported
}

type noteEntry struct {
	rank   int
	kind   runtime.NotifyKind
	value  int32
	epoch  int  // the cell's epoch (Sets before it)
	flex   int  // index in the epoch's flexible adds; -1: not one
	needed bool // a wait needed it
}

type histEntry struct {
	wait            bool
	rank            int
	kind            runtime.NotifyKind
	value, old, new int32
	cond            runtime.Cond // for waits
	origin          runtime.Origin
}

type waitRec struct {
	rank   int
	epoch  uint32
	cond   runtime.Cond
	value  int32 // the value it saw
	least  int32 // the value it sees in the earliest equivalent schedule
	origin runtime.Origin
	seq    int      // the cell's waits before it
	sync   waitSync // what it acquired
	giver  int      // a conditional wait's giver; -1: it needed no credit
}

const maxHist = 64

// cellOf is the cell cl, as rank from looks it up.
func (c *Checker) cellOf(from int, cl runtime.Cell) *cellTrack {
	k := cellKey{cl.Rank, cl.Buffer, cl.Offset}
	per := c.rankOf(from)
	if ct := per.cells[k]; ct != nil {
		return ct
	}
	c.mu.Lock()
	ct := c.cell(cl)
	c.mu.Unlock()
	per.cells[k] = ct
	return ct
}

// cell finds or makes the cell's track; mu is held.
func (c *Checker) cell(cl runtime.Cell) *cellTrack {
	k := cellKey{cl.Rank, cl.Buffer, cl.Offset}
	ct := c.cells[k]
	if ct == nil {
		ct = &cellTrack{key: k, name: cl.String(), forced: make(clock, c.world), giver: -1}
		c.cells[k] = ct
		c.order = append(c.order, ct)
	}
	return ct
}

func namedKey(rank int, name string) string { return fmt.Sprintf("%d|%s", rank, name) }

func (ct *cellTrack) addHist(h histEntry) {
	if len(ct.hist) >= maxHist {
		ct.dropped++
		return
	}
	ct.hist = append(ct.hist, h)
}

// maxNotes bounds the notifies kept for the stale-reuse analysis of a cell
// nobody waits on; past it the cell is no longer analysed.
const maxNotes = 1 << 14

func (ct *cellTrack) notify(n runtime.Notification, flexIdx int) {
	if !ct.noStale {
		ct.notes = append(ct.notes, noteEntry{rank: n.Rank, kind: n.Kind, value: n.Value, epoch: ct.epoch, flex: flexIdx})
		if len(ct.notes) > maxNotes {
			ct.notes, ct.noStale = nil, true
		}
	}
	ct.addHist(histEntry{rank: n.Rank, kind: n.Kind, value: n.Value, old: n.Old, new: n.New, origin: n.Origin})
}

func apply(v int32, n noteEntry) int32 {
	if n.kind == runtime.NotifySet {
		return n.value
	}
	return v + n.value
}

// checkStale flags a wait that the notifies earlier waits on the cell
// needed (with the waiter's own) already satisfy: it synchronises with
// nothing new, so a barrier built from it passes at once (a reused Ge 1
// cell). What a wait needs is a function of the schedule's class (see
// needed), so the finding is too. A wait for the clear state (one a zero
// cell satisfies) is not flagged.
func (c *Checker) checkStale(ct *cellTrack, w runtime.WaitResult, m waitSync) {
	if ct.noStale || w.Observed != ct.base+len(ct.notes) {
		return // notifies we did not see: no analysis
	}
	v := ct.baseVal
	for _, n := range ct.notes {
		if n.needed || n.rank == w.Rank {
			v = apply(v, n)
		}
	}
	// A wait that a never-notified cell (0) satisfies checks that the cell
	// is clear (== 0 after a barrier's self-clearing epilogue): it counts
	// no credits, so it cannot pass on stale ones.
	if ct.waits > 0 && ct.lastWait != nil && w.Cond.Holds(v) && !w.Cond.Holds(0) && !(isDeferred(w.Origin) && isDeferred(ct.lastWait.origin)) {
		prev := ct.lastWait
		key := fmt.Sprintf("stale|%p|%p", w.Origin.Call, prev.origin.Call)
		c.note(key, Finding{
			Kind:     KindStaleSignal,
			Severity: Error,
			Message: fmt.Sprintf("rank %d's wait for %s %s passes on credits an earlier wait on the same cell (%s) already consumed, so it waits for nobody: "+
				"wait for a higher count (the credit barrier waits for >= 1, then >= 2, ...), subtract the credits after each barrier, or use a fresh signal.",
				w.Rank, ct.name, w.Cond, opAt(prev.origin)),
			Details: []string{
				fmt.Sprintf("this wait:    rank %d %s, saw %d", w.Rank, opAt(w.Origin), w.Value),
				fmt.Sprintf("earlier wait: rank %d %s for %s, saw %d", prev.rank, opAt(prev.origin), prev.cond, prev.value),
				"cell history: " + ct.historyLine(),
			},
		})
	}
	ct.needed(w, m)
	// Trim what every later wait includes anyway.
	i := 0
	for i < len(ct.notes) && (ct.notes[i].needed || ct.notes[i].rank == w.Rank) {
		ct.baseVal = apply(ct.baseVal, ct.notes[i])
		i++
	}
	if i > 0 {
		ct.notes = ct.notes[:copy(ct.notes, ct.notes[i:])]
		ct.base += i
	}
}

// isDeferred reports whether a wait is a task's deferred completion
// condition (OpDef.Deferred), which consumes nothing, so several tasks may
// wait on one publication (upstream's deferred waiters all wait for one
// epoch): two of them passing on the same credits are not a stale reuse.
func isDeferred(o runtime.Origin) bool {
	return o.Call != nil && o.Call.Op.Deferred
}

// needed marks the notifies wait w needed. A conditional wait (sync.go)
// needs every notify before it but the epoch's flexible adds past the
// giver's first t; any other wait the shortest prefix that satisfies it
// (with the owner's notifies), in an order that does not depend on how
// commuting adds interleaved: the adds between two Sets by rank, then in
// each rank's order.
func (ct *cellTrack) needed(w runtime.WaitResult, m waitSync) {
	if m.cond {
		for i := range ct.notes {
			n := &ct.notes[i]
			if n.epoch != ct.epoch || n.flex < m.t {
				n.needed = true
			}
		}
		return
	}
	order := make([]int, 0, len(ct.notes))
	for lo := 0; lo < len(ct.notes); {
		hi := lo
		for hi < len(ct.notes) && ct.notes[hi].kind != runtime.NotifySet {
			hi++
		}
		seg := make([]int, 0, hi-lo)
		for i := lo; i < hi; i++ {
			seg = append(seg, i)
		}
		sort.SliceStable(seg, func(a, b int) bool { return ct.notes[seg[a]].rank < ct.notes[seg[b]].rank })
		order = append(order, seg...)
		if hi < len(ct.notes) {
			order = append(order, hi) // the Set
			hi++
		}
		lo = hi
	}
	in := make([]bool, len(ct.notes))
	for m := 0; m <= len(order); m++ {
		if m > 0 {
			in[order[m-1]] = true
		}
		v := ct.baseVal
		for i, n := range ct.notes {
			if in[i] || n.needed || n.rank == w.Rank {
				v = apply(v, n)
			}
		}
		if w.Cond.Holds(v) || m == len(order) {
			for i := range in {
				if in[i] {
					ct.notes[i].needed = true
				}
			}
			return
		}
	}
}

// checkOvertaken flags a notify that, had it landed before a satisfied
// wait polled, would have made the wait fail, when nothing orders the
// notify after that wait: with a faster notifier the waiter misses its
// moment (pitfall 1, the Eq wait overtaken by a fast peer). The wait is
// the latest one the notify does not commute with (overtakable), so the
// finding does not depend on how commuting events interleaved.
func (c *Checker) checkOvertaken(ct *cellTrack, n runtime.Notification) {
	lw := ct.overtakable(n)
	if lw == nil || n.Rank == lw.rank {
		return
	}
	// What the wait would have seen: from the value it sees in the earliest
	// schedule equivalent to this one (the same in all of them).
	early := apply(lw.least, noteEntry{rank: n.Rank, kind: n.Kind, value: n.Value})
	if lw.cond.Holds(early) || hb(lw.rank, lw.epoch, c.vc[n.Rank]) {
		return
	}
	advice := "use a Ge wait (pld.Ge): a credit counter only grows until it is reset, so >= cannot be overtaken."
	if lw.cond.Cmp != "eq" {
		advice = "change the cell only after the waiter is known to have passed (it notifies you), or give each phase its own cell."
	}
	key := fmt.Sprintf("overtaken|%p|%p", lw.origin.Call, n.Origin.Call)
	c.note(key, Finding{
		Kind:     KindOvertaken,
		Severity: Error,
		Message: fmt.Sprintf("rank %d's wait for %s %s can be overtaken: rank %d's next notify (%s %d) is not ordered after the wait, "+
			"so if rank %d is fast it lands first, rank %d reads %d instead of %d and the wait never returns; %s",
			lw.rank, ct.name, lw.cond, n.Rank, n.Kind, n.Value, n.Rank, lw.rank, early, lw.least, advice),
		Details: []string{
			fmt.Sprintf("the wait:   rank %d %s for %s, saw %d", lw.rank, opAt(lw.origin), lw.cond, lw.value),
			fmt.Sprintf("the notify: rank %d %s, %s %d (%d → %d in this run)", n.Rank, opAt(n.Origin), n.Kind, n.Value, n.Old, n.New),
		},
	})
}

// checkMixed flags a Set and an AtomicAdd of one cell that happens-before
// does not order: the Set can overwrite credits the add already gave.
func (c *Checker) checkMixed(ct *cellTrack, ac *access, kind runtime.NotifyKind) {
	vc := c.vc[ac.rank]
	others := ct.adds
	if kind == runtime.NotifyAtomicAdd {
		others = ct.sets
	}
	for _, p := range others {
		if p.rank == ac.rank || hb(p.rank, p.epoch, vc) {
			continue
		}
		ct.mixed = true
		set, add := ac, p
		if kind == runtime.NotifyAtomicAdd {
			set, add = p, ac
		}
		key := fmt.Sprintf("mixed|%p|%p", set.origin.Call, add.origin.Call)
		c.note(key, Finding{
			Kind:     KindMixedSetAdd,
			Severity: Error,
			Message: fmt.Sprintf("%s on rank %d is written with Set by rank %d and with AtomicAdd by rank %d, and nothing orders the two: "+
				"the Set can overwrite credits the add already gave, losing an arrival (a later wait hangs). Use AtomicAdd only on a shared cell.",
				ct.name, ct.key.rank, set.rank, add.rank),
			Details: []string{
				fmt.Sprintf("Set:       rank %d %s", set.rank, opAt(set.origin)),
				fmt.Sprintf("AtomicAdd: rank %d %s", add.rank, opAt(add.origin)),
			},
		})
		break
	}
	if _, ok := ct.setBy[kind]; !ok {
		if ct.setBy == nil {
			ct.setBy = map[runtime.NotifyKind]*access{}
		}
		ct.setBy[kind] = ac
	}
	if kind == runtime.NotifySet {
		ct.sets = putRank(ct.sets, ac)
	} else {
		ct.adds = putRank(ct.adds, ac)
	}
}

// putRank puts a in place of its rank's entry of l (a cell's own list,
// changed in place), keeping the entries in the order of their latest
// access.
func putRank(l []*access, a *access) []*access {
	for i, p := range l {
		if p.rank == a.rank {
			copy(l[i:], l[i+1:])
			l[len(l)-1] = a
			return l
		}
	}
	return append(l, a)
}

// overtakable is the latest wait on the cell that notify n does not commute
// with: a conditional wait and a credit it did not need (sync.go) commute,
// and such a wait can never be overtaken by a credit anyway.
func (ct *cellTrack) overtakable(n runtime.Notification) *waitRec {
	if n.Kind != runtime.NotifyAtomicAdd || n.Value <= 0 || n.Value >= maxFlexAdd || n.Rank == ct.key.rank {
		return ct.lastWait
	}
	w := ct.lastPlain
	for g, cw := range ct.lastNeed {
		if g != n.Rank && (w == nil || cw.seq > w.seq) {
			w = cw
		}
	}
	return w
}

// waited records satisfied wait w (not a test) as the cell's latest.
func (ct *cellTrack) waited(w *waitRec) {
	w.seq = ct.waits
	ct.waits++
	ct.lastWait = w
	switch {
	case !w.sync.cond:
		ct.lastPlain = w
	case w.giver >= 0:
		if ct.lastNeed == nil {
			ct.lastNeed = map[int]*waitRec{}
		}
		ct.lastNeed[w.giver] = w
	}
}

// historyLine renders the cell's value sequence: 0 → 1 (rank 1 AtomicAdd 1
// at f.go:12) → 2 (...), with the waits that returned in between.
func (ct *cellTrack) historyLine() string {
	var b strings.Builder
	if len(ct.hist) == 0 {
		return "never notified"
	}
	start := int32(0)
	for _, h := range ct.hist {
		if !h.wait {
			start = h.old
			break
		}
	}
	fmt.Fprintf(&b, "%d", start)
	for _, h := range ct.hist {
		if h.wait {
			fmt.Fprintf(&b, " [rank %d's wait for %s returned]", h.rank, h.cond)
			continue
		}
		fmt.Fprintf(&b, " → %d (rank %d %s %d%s)", h.new, h.rank, h.kind, h.value, atPos(h.origin))
	}
	if ct.dropped > 0 {
		fmt.Fprintf(&b, " … %d more", ct.dropped)
	}
	return b.String()
}

// hygiene lists end-of-run signal findings: cells Set and AtomicAdd wrote
// (in order, so only a warning), and cells left non-zero (a note).
func (c *Checker) hygiene() []Finding {
	var out []Finding
	type group struct {
		buffer string
		cells  []string
	}
	mixed := map[string]*group{}
	var mixedOrder []string
	for _, ct := range c.order {
		if ct.mixed || ct.setBy[runtime.NotifySet] == nil || ct.setBy[runtime.NotifyAtomicAdd] == nil {
			continue
		}
		g := mixed[ct.key.buffer]
		if g == nil {
			g = &group{buffer: ct.key.buffer}
			mixed[ct.key.buffer] = g
			mixedOrder = append(mixedOrder, ct.key.buffer)
		}
		g.cells = append(g.cells, fmt.Sprintf("%s on rank %d (Set %s, AtomicAdd %s)", ct.name, ct.key.rank,
			opAt(ct.setBy[runtime.NotifySet].origin), opAt(ct.setBy[runtime.NotifyAtomicAdd].origin)))
	}
	for _, b := range mixedOrder {
		g := mixed[b]
		out = append(out, Finding{
			key:      "mixed-ordered|" + b,
			Kind:     KindMixedSetAdd,
			Severity: Warning,
			Message: fmt.Sprintf("%s written by both Set and AtomicAdd in %s: safe here only because one rank writes each cell in order; "+
				"a Set that lands after a peer's add loses it. Prefer AtomicAdd throughout.", plural(len(g.cells), "signal cell", "signal cells"), b),
			Details: limit(g.cells, 8),
		})
	}
	out = append(out, nonZero(c.signals)...)
	return out
}

// nonZero groups cells left non-zero by buffer.
func nonZero(sigs []runtime.SignalCell) []Finding {
	var out []Finding
	byBuf := map[string][]string{}
	var order []string
	vals := map[string]map[int64]bool{}
	for _, s := range sigs {
		if s.Value == 0 {
			continue
		}
		if _, ok := byBuf[s.Buffer]; !ok {
			order = append(order, s.Buffer)
			vals[s.Buffer] = map[int64]bool{}
		}
		byBuf[s.Buffer] = append(byBuf[s.Buffer], fmt.Sprintf("%s = %d on rank %d", cellName(s.Buffer, s.Offset, s.ByteOffset), s.Value, s.Rank))
		vals[s.Buffer][s.Value] = true
	}
	for _, b := range order {
		var vs []int64
		for v := range vals[b] {
			vs = append(vs, v)
		}
		sort.Slice(vs, func(i, j int) bool { return vs[i] < vs[j] })
		hint := "subtract the credits when done (notify yourself with -n) or allocate a fresh signal per call"
		out = append(out, Finding{
			key:      "left|" + b,
			Kind:     KindSignalLeft,
			Severity: Note,
			Message: fmt.Sprintf("%s of %s left non-zero at the end of the run (values %v): fine for a single-shot signal, but a later call on it would pass its waits early; %s.",
				plural(len(byBuf[b]), "cell", "cells"), b, vs, hint),
			Details: limit(byBuf[b], 8),
		})
	}
	return out
}

// cellName prints a cell like runtime.Cell.String.
func cellName(buf string, idx []int, off int) string {
	if idx == nil {
		return fmt.Sprintf("%s[+%d]", buf, off)
	}
	parts := make([]string, len(idx))
	for i, x := range idx {
		parts[i] = fmt.Sprint(x)
	}
	return buf + "[" + strings.Join(parts, ", ") + "]"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func limit(l []string, n int) []string {
	if len(l) <= n {
		return l
	}
	return append(append([]string(nil), l[:n]...), fmt.Sprintf("… and %d more", len(l)-n))
}
