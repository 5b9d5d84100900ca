package checker

import (
	"slices"
	"sort"

	"github.com/ptorepl/ptorepl/runtime"
)

// shadow is the access history of one rank's copy of one window buffer: a
// sorted list of disjoint byte intervals, each with the accesses that later
// accesses may still race with. Adjacent intervals that share a state are
// merged, so a buffer touched whole stays one interval.
type shadow struct {
	segs []seg
}

type seg struct {
	lo, hi int
	st     *segState
}

// segState is immutable once built (intervals split from one share it):
// the last plain write, and the last read and atomic add of each rank since.
type segState struct {
	write *access
	reads []*access
	atoms []*access
}

// apply checks access a of [lo, hi) against the history (calling conflict
// for every earlier access it races with, with the overlapping part) and
// records it. vc is a's rank's clock.
func (s *shadow) apply(a *access, lo, hi int, vc clock, conflict func(p *access, lo, hi int)) {
	i := sort.Search(len(s.segs), func(k int) bool { return s.segs[k].hi > lo })
	j := i
	for j < len(s.segs) && s.segs[j].lo < hi {
		j++
	}
	repl := make([]seg, 0, j-i+2)
	next := map[*segState]*segState{}
	update := func(old *segState, l, h int) {
		if old != nil {
			old.check(a, l, h, vc, conflict)
		}
		mk := old
		if a.kind == runtime.Write {
			mk = nil // a write's state does not depend on what it overwrote
		}
		ns, ok := next[mk]
		if !ok {
			ns = old.with(a)
			next[mk] = ns
		}
		if n := len(repl); n > 0 && repl[n-1].st == ns && repl[n-1].hi == l {
			repl[n-1].hi = h
			return
		}
		repl = append(repl, seg{l, h, ns})
	}
	if i < j && s.segs[i].lo < lo {
		repl = append(repl, seg{s.segs[i].lo, lo, s.segs[i].st})
	}
	pos := lo
	for k := i; k < j; k++ {
		sg := s.segs[k]
		if sg.lo > pos {
			update(nil, pos, sg.lo)
			pos = sg.lo
		}
		end := min(sg.hi, hi)
		update(sg.st, pos, end)
		pos = end
	}
	if pos < hi {
		update(nil, pos, hi)
	}
	if i < j && s.segs[j-1].hi > hi {
		repl = append(repl, seg{hi, s.segs[j-1].hi, s.segs[j-1].st})
	}
	// Splice repl in place of segs[i:j].
	if len(repl) == j-i {
		copy(s.segs[i:j], repl)
		return
	}
	// In place: a fresh slice per access made every notify on a signal
	// buffer of many cells allocate and copy the whole history.
	s.segs = slices.Replace(s.segs, i, j, repl...)
}

// check calls conflict for each access of st that races with a.
func (st *segState) check(a *access, lo, hi int, vc clock, conflict func(p *access, lo, hi int)) {
	racy := func(p *access) bool {
		return p != nil && p.rank != a.rank && conflicting(p.kind, a.kind) && !hb(p.rank, p.epoch, vc)
	}
	if racy(st.write) {
		conflict(st.write, lo, hi)
	}
	if a.kind != runtime.Read {
		for _, p := range st.reads {
			if racy(p) {
				conflict(p, lo, hi)
			}
		}
	}
	if a.kind != runtime.Atomic {
		for _, p := range st.atoms {
			if racy(p) {
				conflict(p, lo, hi)
			}
		}
	}
}

// with is the state after a (st may be nil: untouched memory). A plain
// write supersedes everything before it: what raced with it was reported,
// and what did not happens before it, hence before whatever it precedes.
func (st *segState) with(a *access) *segState {
	if a.kind == runtime.Write {
		return &segState{write: a}
	}
	ns := &segState{}
	if st != nil {
		ns.write = st.write
		ns.reads = st.reads
		ns.atoms = st.atoms
	}
	if a.kind == runtime.Read {
		ns.reads = replaceRank(ns.reads, a)
	} else {
		ns.atoms = replaceRank(ns.atoms, a)
	}
	return ns
}

// replaceRank returns l (copied) with a in place of a's rank's entry.
func replaceRank(l []*access, a *access) []*access {
	out := make([]*access, 0, len(l)+1)
	for _, p := range l {
		if p.rank != a.rank {
			out = append(out, p)
		}
	}
	return append(out, a)
}
