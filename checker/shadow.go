package checker

import (
	"slices"
	"sort"
	"sync"

	"github.com/ptorepl/ptorepl/runtime"
)

// shadow is the access history of one rank's copy of one window buffer: a
// sorted list of disjoint byte intervals, each with the accesses that later
// accesses may still race with. Adjacent intervals that share a state are
// merged, so a buffer touched whole stays one interval.
type shadow struct {
	mu     sync.Mutex // held by the access being applied
	segs   []seg
	repl   []seg      // apply's scratch, reused
	states *stateSlab // where new states come from (nil: the heap)
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
	// inline backs reads and atoms while they are short, so a state is
	// usually one allocation.
	inline [4]*access
	// shared: more than one interval may hold the state (it came out of a
	// split or a merge), so it must not change in place.
	shared bool
}

// apply checks access a of [lo, hi) against the history (calling conflict
// for every earlier access it races with, with the overlapping part) and
// records it. vc is a's rank's clock.
func (s *shadow) apply(a *access, lo, hi int, vc clock, conflict func(p *access, lo, hi int)) {
	i := sort.Search(len(s.segs), func(k int) bool { return s.segs[k].hi > lo })
	if i < len(s.segs) && s.segs[i].lo == lo && s.segs[i].hi == hi {
		// The common case: the same bytes as an earlier access (a chunk
		// loaded again, a signal cell notified again).
		old := s.segs[i].st
		old.check(a, lo, hi, vc, conflict)
		if old != nil && !old.shared {
			old.add(a) // only this interval holds it
		} else {
			s.segs[i].st = old.with(a, s.states)
		}
		return
	}
	j := i
	for j < len(s.segs) && s.segs[j].lo < hi {
		j++
	}
	repl := s.repl[:0]
	// next maps an old state to its successor, so pieces of one old
	// interval stay one state (and merge again); a write's successor does
	// not depend on what it overwrote. Few old states meet one access.
	type step struct{ old, new *segState }
	var nextBuf [8]step
	next := nextBuf[:0]
	update := func(old *segState, l, h int) {
		if old != nil {
			old.check(a, l, h, vc, conflict)
		}
		mk := old
		if a.kind == runtime.Write {
			mk = nil
		}
		var ns *segState
		for _, st := range next {
			if st.old == mk {
				ns = st.new
				break
			}
		}
		if ns == nil {
			ns = old.with(a, s.states)
			next = append(next, step{mk, ns})
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
	// A state this access split or merged may be held by several
	// intervals now.
	for k := range repl {
		repl[k].st.shared = true
	}
	s.repl = repl[:0]
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
func (st *segState) with(a *access, slab *stateSlab) *segState {
	var ns *segState
	if slab != nil {
		ns = slab.new()
	} else {
		ns = &segState{}
	}
	if a.kind == runtime.Write {
		ns.write = a
		return ns
	}
	var reads, atoms []*access
	if st != nil {
		ns.write, reads, atoms = st.write, st.reads, st.atoms
	}
	// The list a joins is rebuilt (its rank's entry replaced); the other is
	// copied, into the inline slots when it fits beside.
	mine, other := reads, atoms
	if a.kind != runtime.Read {
		mine, other = atoms, reads
	}
	n := 1
	for _, p := range mine {
		if p.rank != a.rank {
			n++
		}
	}
	var out []*access
	if n <= len(ns.inline) {
		out = ns.inline[:0:n]
	} else {
		out = make([]*access, 0, n)
	}
	for _, p := range mine {
		if p.rank != a.rank {
			out = append(out, p)
		}
	}
	out = append(out, a)
	// Each state owns its lists (add changes them in place).
	if len(other) > 0 {
		if n+len(other) <= len(ns.inline) {
			other = append(ns.inline[n:n:len(ns.inline)], other...)
		} else {
			other = append([]*access(nil), other...)
		}
	}
	if a.kind == runtime.Read {
		ns.reads, ns.atoms = out, other
	} else {
		ns.atoms, ns.reads = out, other
	}
	return ns
}

// add changes st to the state after a, in place: with(a) for a state only
// one interval holds.
func (st *segState) add(a *access) {
	if a.kind == runtime.Write {
		st.write, st.reads, st.atoms = a, nil, nil
		return
	}
	l := &st.atoms
	if a.kind == runtime.Read {
		l = &st.reads
	}
	for i, p := range *l {
		if p.rank == a.rank {
			copy((*l)[i:], (*l)[i+1:])
			(*l)[len(*l)-1] = a
			return
		}
	}
	// A new rank: the list grows into fresh memory.
	n := len(*l)
	nl := make([]*access, n+1, n+2)
	copy(nl, *l)
	nl[n] = a
	*l = nl
}
