package checker

import (
	"sort"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
)

// What a satisfied wait synchronises with.
//
// A wait used to acquire every notify its cell had seen. Under the
// explorer's conditional independence (verify_cond.go) a monotone wait (Ge
// or Gt, signed) and a flexible add (a positive AtomicAdd by a rank other
// than the cell's owner) it did not need commute, so "the add, then the
// wait" and "the wait, then the add" are one class of schedules, and the
// checker must say the same of both. A satisfied wait therefore acquires
//
//   - every notify of its cell before it, except the flexible adds of the
//     cell's epoch (since its last Set) that it did not need: when the
//     epoch's non-flexible notifies (the Set, negative adds, the owner's
//     own adds) already satisfy it, it needs none; when the epoch's
//     flexible adds all come from one rank, it needs that rank's first t,
//     the fewest that satisfy it with the rest; otherwise (several ranks
//     gave, the cell was written other than by notifies, the condition is
//     not monotone) it acquires all, as before.
//
// That is the weakest happens-before among the equivalent schedules: the
// wait could have returned right after the last notify it needs, and every
// race reported exists in such a schedule. It is the same for "A W" and "W
// A". A comm_test acquires everything before it (its order with every
// notify is kept). The value the wait sees in that earliest schedule is
// what checkOvertaken reasons about; what it needed is what checkStale
// does.

// waitSync is what a wait acquired.
type waitSync struct {
	cond  bool  // conditional: the epoch's flexible adds past t were not needed
	t     int   // the epoch's flexible adds it needed (a prefix)
	value int32 // the value it sees in the earliest equivalent schedule
}

// release records notify n by a rank whose clock is vc; it returns the
// notify's index among the epoch's flexible adds (-1: not one).
func (c *Checker) release(ct *cellTrack, n runtime.Notification, vc clock) int {
	want := ct.model + int64(n.Value)
	if n.Kind == runtime.NotifySet {
		want = int64(n.Value)
	}
	if int64(n.Old) != ct.model || int64(n.New) != want {
		ct.tainted = true // written by something else, or wrapped around
		ct.setPlain()
	}
	ct.model = int64(n.New)
	fi := -1
	switch {
	case n.Kind == runtime.NotifySet:
		ct.setPlain() // the epoch's credits are before the Set: every later wait needs them
		ct.plain = ct.tainted
		ct.epoch++
		ct.v0 = int64(n.Value)
		ct.forced.join(vc)
	case !ct.plain && n.Kind == runtime.NotifyAtomicAdd && n.Value > 0 && n.Value < maxFlexAdd && n.Rank != ct.key.rank:
		sum := int64(n.Value)
		if k := len(ct.flexSum); k > 0 {
			sum += ct.flexSum[k-1]
		}
		ct.flexSum = append(ct.flexSum, sum)
		ct.flexClock = append(ct.flexClock, c.rankOf(n.Rank).clocks.clone(vc))
		fi = len(ct.flexSum) - 1
		switch ct.giver {
		case -1:
			ct.giver = n.Rank
		case n.Rank, -2:
		default:
			ct.giver = -2
		}
		if len(ct.flexSum) > maxNotes {
			ct.setPlain() // a bound on what is kept: past it, waits acquire everything
		}
	default:
		ct.v0 += int64(n.Value)
		ct.forced.join(vc)
	}
	return fi
}

// setPlain folds the epoch's flexible adds into what every later wait
// acquires; the cell stays plain (waits acquire everything) until its next
// Set, or for good once written by something other than a notify.
func (ct *cellTrack) setPlain() {
	ct.plain = true
	for _, cl := range ct.flexClock {
		ct.forced.join(cl)
	}
	ct.flexSum, ct.flexClock, ct.flexAcq, ct.giver = nil, nil, 0, -1
}

// acquire joins into vc what satisfied wait (or test) w synchronises with.
func (c *Checker) acquire(ct *cellTrack, w runtime.WaitResult, vc clock) waitSync {
	if int64(w.Value) != ct.model {
		ct.tainted = true
		ct.setPlain()
	}
	vc.join(ct.forced)
	clear(ct.forced)
	m := waitSync{value: w.Value}
	if !ct.plain && monotone(w.Cond) && opOf(w.Origin) != ir.TileCommTest {
		switch {
		case holds64(w.Cond, ct.v0):
			m = waitSync{cond: true, t: 0, value: int32(ct.v0)}
		case ct.giver >= 0:
			i := sort.Search(len(ct.flexSum), func(i int) bool { return holds64(w.Cond, ct.v0+ct.flexSum[i]) })
			if i < len(ct.flexSum) {
				m = waitSync{cond: true, t: i + 1, value: int32(ct.v0 + ct.flexSum[i])}
			}
		}
	}
	upto := len(ct.flexSum)
	if m.cond {
		upto = m.t
	}
	if k := upto - ct.flexAcq; k > 0 {
		for _, cl := range ct.flexClock[:k] {
			vc.join(cl)
		}
		ct.flexClock = ct.flexClock[:copy(ct.flexClock, ct.flexClock[k:])]
		ct.flexAcq = upto
	}
	return m
}
