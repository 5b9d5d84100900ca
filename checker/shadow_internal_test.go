package checker

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/ptorepl/ptorepl/runtime"
)

// byteHistory is the shadow's meaning spelled out byte by byte: the last
// plain write, and the latest read and atomic add of each rank since.
type byteHistory struct {
	write        *access
	reads, atoms map[int]*access
}

// naiveShadow checks and records an access byte by byte, reporting every
// (earlier access, byte) pair that races.
type naiveShadow []byteHistory

func (s naiveShadow) apply(a *access, lo, hi int, vc clock) map[string]bool {
	out := map[string]bool{}
	racy := func(p *access) bool {
		return p != nil && p.rank != a.rank && conflicting(p.kind, a.kind) && !hb(p.rank, p.epoch, vc)
	}
	for b := lo; b < hi; b++ {
		h := &s[b]
		if racy(h.write) {
			out[fmt.Sprintf("%p@%d", h.write, b)] = true
		}
		if a.kind != runtime.Read {
			for _, p := range h.reads {
				if racy(p) {
					out[fmt.Sprintf("%p@%d", p, b)] = true
				}
			}
		}
		if a.kind != runtime.Atomic {
			for _, p := range h.atoms {
				if racy(p) {
					out[fmt.Sprintf("%p@%d", p, b)] = true
				}
			}
		}
		switch a.kind {
		case runtime.Write:
			*h = byteHistory{write: a}
		case runtime.Read:
			if h.reads == nil {
				h.reads = map[int]*access{}
			}
			h.reads[a.rank] = a
		default:
			if h.atoms == nil {
				h.atoms = map[int]*access{}
			}
			h.atoms[a.rank] = a
		}
	}
	return out
}

// The interval shadow (with its in-place updates of states one interval
// holds, and its splits and merges) reports exactly the races the byte
// by byte history reports, over random accesses of random ranges by
// ranks whose clocks advance and synchronise at random.
func TestShadowMatchesByteHistory(t *testing.T) {
	const size, ranks = 96, 6
	kinds := []runtime.AccessKind{runtime.Read, runtime.Write, runtime.Atomic}
	for seed := int64(1); seed <= 300; seed++ {
		rng := rand.New(rand.NewSource(seed))
		var slab stateSlab
		sh := &shadow{states: &slab}
		if seed%2 == 0 {
			sh.states = nil // heap-allocated states
		}
		ref := make(naiveShadow, size)
		vcs := make([]clock, ranks)
		for r := range vcs {
			vcs[r] = make(clock, ranks)
			vcs[r][r] = 1
		}
		// Aligned ranges recur (the fast path), odd ones split intervals.
		bounds := []int{0, 16, 32, 48, 64, 80, 96}
		for step := 0; step < 300; step++ {
			r := rng.Intn(ranks)
			var lo, hi int
			if rng.Intn(3) > 0 {
				k := rng.Intn(len(bounds) - 1)
				lo, hi = bounds[k], bounds[k+1+rng.Intn(len(bounds)-1-k)]
			} else {
				lo = rng.Intn(size)
				hi = lo + 1 + rng.Intn(size-lo)
			}
			kind := kinds[rng.Intn(len(kinds))]
			if kind == runtime.Write && seed%3 == 0 && rng.Intn(6) > 0 {
				kind = runtime.Read // long read and add lists
			}
			a := &access{rank: r, kind: kind, epoch: vcs[r][r]}
			got := map[string]bool{}
			sh.apply(a, lo, hi, vcs[r], func(p *access, l, h int) {
				for b := l; b < h; b++ {
					got[fmt.Sprintf("%p@%d", p, b)] = true
				}
			})
			want := ref.apply(a, lo, hi, vcs[r])
			if !sameKeys(got, want) {
				t.Fatalf("seed %d step %d: rank %d %s [%d, %d): shadow reports %v, byte history %v", seed, step, r, a.kind, lo, hi, sortedKeys(got), sortedKeys(want))
			}
			vcs[r][r]++
			if rng.Intn(4) == 0 { // a synchronisation: r learns q's clock
				q := rng.Intn(ranks)
				vcs[r].join(vcs[q])
			}
		}
		// The intervals stay sorted, disjoint and within the buffer.
		for i, sg := range sh.segs {
			if sg.lo >= sg.hi || (i > 0 && sh.segs[i-1].hi > sg.lo) || sg.hi > size {
				t.Fatalf("seed %d: intervals out of order: %v", seed, sh.segs)
			}
		}
	}
}

func sameKeys(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
