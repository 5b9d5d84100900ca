package checker

import (
	"math"

	"github.com/ptorepl/ptorepl/runtime"
)

// Conditional independence of a satisfied wait and a credit it did not need.
//
// Collectives lower to self-clearing credit barriers: peers AtomicAdd +1
// into a rank's cells and the rank waits with Ge g, g = 1, 2, … per barrier
// generation. Under a plain footprint a wait reads its cell and an add
// writes it, so the two are dependent and the explorer runs both orders of
// every wait and every credit of a later generation, although a wait
// changes nothing and a positive add cannot disable a Ge wait: both orders
// reach the same state. This file makes such a pair independent exactly
// when it commutes, as a function of the run so far (Godefroid and
// Pirottin's conditional dependency, CAV 1993; Katz and Peled's conditional
// independence, 1992).
//
// A flexible add, for a cell, is an AtomicAdd with an operand in
// (0, maxFlexAdd) by a rank other than the cell's owner (waits are always
// the owner's). A wait is monotone when its condition is Ge or Gt, signed,
// with a threshold below maxCondVal: a flexible add can only keep it true.
// Every other notify (a Set, a negative or zero add, the owner's own adds),
// a write of the cell by anything but a notify, a test and a wait of any
// other condition keep their plain dependencies.
//
// For a monotone wait W executed (or about to be executed) at some point of
// a run, consider its cell's epoch: the notifies since the last Set before
// W. Let v0 be the value the epoch's non-flexible notifies give (the Set's
// value, or 0, plus the other adds). Then W's mode is
//
//   - conditional, needing nothing, when v0 already satisfies W: every
//     flexible add of the epoch, before or after W, is independent of W;
//   - conditional, needing giver q's first t adds, when the epoch's
//     flexible adds before W all come from one rank q and t is the least
//     number of them (in q's program order) with which v0 satisfies W: q's
//     later adds, before or after W, are independent of W; every other
//     rank's flexible adds after W stay dependent;
//   - plain otherwise (flexible adds from several ranks were needed, the
//     cell was written by something other than a notify, the condition is
//     not monotone): W depends on every notify of its cell, as before.
//
// The mode is a function of the happens-before class, not of the
// interleaving: W's non-flexible notifies and the plain-dependent adds keep
// their order with W in every equivalent run, so v0 and the candidate ranks
// are the same, and q's adds reach W as a prefix of q's program order, of
// which W needs the same first t. Hence every linearisation of a run's
// happens-before is a run in which W is enabled (its dependencies give it
// at least v0 plus those t adds, and more positive adds keep a monotone
// condition true), reaching the same state with the same happens-before.
// The explorer uses the relation three ways: to build a run's
// happens-before (dep), to find the races of a rank's next event (a pending
// wait gets its mode in the state at hand; a disabled one is plain), and to
// carry sleep sets down (depAt, in the parent's state). The checker gives
// a satisfied wait the matching synchronisation (sync.go), so its findings
// are a function of the class too.
//
// Integer adds are taken as exact: the reduction assumes no cell's count
// wraps around int32 in any schedule (with operands below 2^16 that takes
// more than 2^15 credits without a reset); depAt refuses a pair whose add
// would wrap in the state at hand.

const (
	maxFlexAdd = 1 << 16
	maxCondVal = 1 << 30
)

type ckey struct{ rank, buf, lo int }

// sigCell is the cell a notify, wait or test acts on.
func sigCell(ev *runtime.SyncEvent) (ckey, bool) {
	if ev.Signal == nil || len(ev.Locs) != 1 {
		return ckey{}, false
	}
	l := ev.Locs[0]
	return ckey{l.Rank, l.Buf, l.Lo}, true
}

// flexible reports whether notify ev is a flexible add for a cell of owner.
func flexible(ev *runtime.SyncEvent, owner int) bool {
	return ev.Kind == runtime.EvNotify && ev.Signal != nil && ev.Signal.Kind == runtime.NotifyAtomicAdd &&
		ev.Signal.Value > 0 && ev.Signal.Value < maxFlexAdd && ev.Rank != owner
}

// monotone reports whether a wait's condition stays true under positive adds.
func monotone(c runtime.Cond) bool {
	return !c.Unsigned && (c.Cmp == "ge" || c.Cmp == "gt") && c.Value > -maxCondVal && c.Value < maxCondVal
}

func holds64(c runtime.Cond, v int64) bool {
	if c.Cmp == "gt" {
		return v > c.Value
	}
	return v >= c.Value
}

type flexAdd struct {
	idx, rank int
	val       int64
}

// cellModel is what the explorer tracks of one signal cell along a run.
type cellModel struct {
	key     ckey
	writes  []int // events that write the cell (notifies, overlapping writes), in order
	setIdx  int   // the last Set (-1: none)
	v0      int64 // the epoch's non-flexible notifies' value
	flex    []flexAdd
	tainted bool // written by something other than a notify on exactly it
}

func (cm *cellModel) value() int64 {
	v := cm.v0
	for _, f := range cm.flex {
		v += f.val
	}
	return v
}

// waitMode is how a wait depends on its cell's notifies (see above).
type waitMode struct {
	condOf runtime.Cond
	cond   bool
	owner  int
	epoch  int // notifies at or before this index stay dependent
	giver  int // -1: no flexible add needed
	cut    int // the giver's last needed add
}

// indepBefore: is notify a, at index i before the wait, independent of it?
func (w *waitMode) indepBefore(i int, a *runtime.SyncEvent) bool {
	if w == nil || !w.cond || i <= w.epoch || !flexible(a, w.owner) {
		return false
	}
	return w.giver < 0 || (a.Rank == w.giver && i > w.cut)
}

// indepAfter: is notify a, after the wait, independent of it?
func (w *waitMode) indepAfter(a *runtime.SyncEvent) bool {
	if w == nil || !w.cond || !flexible(a, w.owner) {
		return false
	}
	return w.giver < 0 || a.Rank == w.giver
}

type wrange struct{ idx, lo, hi int }

// traceModel follows a run's events in order.
type traceModel struct {
	cells     map[ckey]*cellModel
	byBuf     map[[2]int][]*cellModel
	bufWrites map[[2]int][]wrange // writes other than notifies, for cells seen later
	waits     map[int]*waitMode   // executed waits, by event index
	n         int                 // events added
}

func newTraceModel() *traceModel {
	return &traceModel{cells: map[ckey]*cellModel{}, byBuf: map[[2]int][]*cellModel{}, bufWrites: map[[2]int][]wrange{}, waits: map[int]*waitMode{}}
}

func (m *traceModel) cell(k ckey) *cellModel {
	cm := m.cells[k]
	if cm != nil {
		return cm
	}
	cm = &cellModel{key: k, setIdx: -1}
	b := [2]int{k.rank, k.buf}
	for _, w := range m.bufWrites[b] {
		if w.lo < k.lo+4 && k.lo < w.hi {
			cm.tainted = true
			cm.writes = append(cm.writes, w.idx)
		}
	}
	m.cells[k] = cm
	m.byBuf[b] = append(m.byBuf[b], cm)
	return cm
}

// mode is the mode of wait ev were it to run now.
func (m *traceModel) mode(ev *runtime.SyncEvent) *waitMode {
	k, _ := sigCell(ev)
	cm := m.cell(k)
	c := ev.Signal.Cond
	wm := &waitMode{owner: k.rank, epoch: -1, giver: -1}
	if !monotone(c) || cm.tainted {
		return wm
	}
	wm.epoch = cm.setIdx
	if holds64(c, cm.v0) {
		wm.cond = true
		return wm
	}
	sum := cm.v0
	for _, f := range cm.flex {
		if f.rank != cm.flex[0].rank {
			return wm
		}
	}
	for _, f := range cm.flex {
		sum += f.val
		if holds64(c, sum) {
			wm.cond, wm.giver, wm.cut = true, f.rank, f.idx
			return wm
		}
	}
	return wm // not enabled
}

// add records event ev, the run's next (index m.n).
func (m *traceModel) add(ev *runtime.SyncEvent) {
	j := m.n
	m.n++
	k, isSig := sigCell(ev)
	if isSig && ev.Kind == runtime.EvWait {
		m.waits[j] = m.mode(ev)
	}
	if isSig && ev.Kind == runtime.EvNotify {
		cm := m.cell(k)
		cm.writes = append(cm.writes, j)
		switch {
		case ev.Signal.Kind == runtime.NotifySet:
			cm.setIdx, cm.v0, cm.flex = j, int64(ev.Signal.Value), nil
		case flexible(ev, k.rank):
			cm.flex = append(cm.flex, flexAdd{j, ev.Rank, int64(ev.Signal.Value)})
		default:
			cm.v0 += int64(ev.Signal.Value)
		}
	} else if isSig {
		m.cell(k) // a wait or test: the cell exists from now on
	}
	for _, l := range ev.Locs {
		if !l.Write || (isSig && ev.Kind == runtime.EvNotify && l.Rank == k.rank && l.Buf == k.buf && l.Lo == k.lo) {
			continue
		}
		b := [2]int{l.Rank, l.Buf}
		m.bufWrites[b] = append(m.bufWrites[b], wrange{j, l.Lo, l.Hi})
		for _, cm := range m.byBuf[b] {
			if l.Lo < cm.key.lo+4 && cm.key.lo < l.Hi {
				cm.tainted = true
				if n := len(cm.writes); n == 0 || cm.writes[n-1] != j {
					cm.writes = append(cm.writes, j)
				}
			}
		}
	}
}

// sigPair returns the wait and the notify of a wait/notify pair on one
// cell (nil, nil for any other pair).
func sigPair(a, b *runtime.SyncEvent) (w, n *runtime.SyncEvent, waitFirst bool) {
	if a.Kind == runtime.EvNotify && b.Kind == runtime.EvWait {
		a, b, waitFirst = b, a, false
	} else if a.Kind == runtime.EvWait && b.Kind == runtime.EvNotify {
		waitFirst = true
	} else {
		return nil, nil, false
	}
	ka, oka := sigCell(a)
	kb, okb := sigCell(b)
	if !oka || !okb || ka != kb {
		return nil, nil, false
	}
	return a, b, waitFirst
}

// dep is the run's dependency of executed events i < j (both added).
func (m *traceModel) dep(i, j int, ei, ej *runtime.SyncEvent) bool {
	if !ei.Dependent(*ej) {
		return false
	}
	if ei.Rank == ej.Rank {
		return true
	}
	w, n, waitFirst := sigPair(ei, ej)
	if w == nil {
		return true
	}
	if waitFirst {
		return !m.waits[i].indepAfter(n)
	}
	return !m.waits[j].indepBefore(i, n)
}

// depNext is the dependency of executed event i with a rank's next event f
// that is not a wait (pending waits are examined per state: see races).
func (m *traceModel) depNext(i int, ei, f *runtime.SyncEvent) bool {
	if !ei.Dependent(*f) {
		return false
	}
	if ei.Rank == f.Rank {
		return true
	}
	if w, n, waitFirst := sigPair(ei, f); w != nil && waitFirst {
		return !m.waits[i].indepAfter(n)
	}
	return true
}

// depAt is the dependency of two next events a and b in the current state
// (for sleep sets): a monotone wait and a flexible add commute here when
// one of the two orders would leave them unordered.
func (m *traceModel) depAt(a, b *runtime.SyncEvent) bool {
	if !a.Dependent(*b) {
		return false
	}
	if a.Rank == b.Rank {
		return true
	}
	w, n, _ := sigPair(a, b)
	if w == nil {
		return true
	}
	wm := m.mode(w)
	if !wm.indepAfter(n) {
		return true
	}
	k, _ := sigCell(w)
	if cm := m.cells[k]; cm != nil && cm.value()+int64(n.Signal.Value) > math.MaxInt32 {
		return true
	}
	return false
}
