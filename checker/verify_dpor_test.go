package checker

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/runtime"
	"github.com/stretchr/testify/require"
)

// A toy concurrent system drives the explorer without the simulator, so
// the reduction can be compared with full enumeration on hundreds of small
// programs: shared variables, per-process registers, blocking waits and
// visibility choices (a nondeterministic write, standing in for the relaxed
// memory mode's choice of which pending write lands).

type toyOp struct {
	kind string // "w" write, "r" read, "add", "wait" (until var == val), "vis" (var = a choice in [0, val))
	v    int
	val  int
}

type toyProg [][]toyOp

func (op toyOp) event(rank int) runtime.SyncEvent {
	write := op.kind != "r" && op.kind != "wait"
	k := runtime.EvWrite
	if !write {
		k = runtime.EvRead
	}
	// Integer adds commute, as notifies with AtomicAdd do.
	return runtime.SyncEvent{Rank: rank, Kind: k, Op: op.kind, Locs: []runtime.Loc{{Rank: 0, Buf: op.v, Lo: 0, Hi: 1, Write: write, Add: op.kind == "add"}}}
}

// run executes the toy program under ch and returns its final state.
func (p toyProg) run(ch runtime.Chooser) (state string, pruned bool) {
	vars := make([]int, 3)
	pc := make([]int, len(p))
	regs := make([][]int, len(p))
	for step := 0; ; step++ {
		cp := &runtime.ChoicePoint{Kind: runtime.ChooseRank, Step: step}
		anyEnabled := false
		for r, ops := range p {
			if pc[r] >= len(ops) {
				continue
			}
			op := ops[pc[r]]
			en := op.kind != "wait" || vars[op.v] == op.val
			anyEnabled = anyEnabled || en
			cp.Pending = append(cp.Pending, runtime.Pending{Rank: r, Enabled: en, Event: op.event(r)})
		}
		if len(cp.Pending) == 0 {
			return fmt.Sprintf("vars=%v regs=%v", vars, regs), false
		}
		if !anyEnabled {
			if so, ok := ch.(runtime.StuckObserver); ok {
				so.Stuck(cp)
			}
			return fmt.Sprintf("deadlock pc=%v vars=%v regs=%v", pc, vars, regs), false
		}
		i := ch.Choose(cp)
		if i < 0 {
			return "", true
		}
		r := cp.Pending[i].Rank
		op := p[r][pc[r]]
		pc[r]++
		switch op.kind {
		case "w":
			vars[op.v] = op.val
		case "add":
			vars[op.v] += op.val
		case "r":
			regs[r] = append(regs[r], vars[op.v])
		case "vis":
			vars[op.v] = ch.Choose(&runtime.ChoicePoint{Kind: runtime.ChooseVisibility, Rank: r, N: op.val, What: "toy"})
		}
	}
}

// finals explores p and returns its set of final states and the stats.
func finals(t *testing.T, p toyProg, reduce bool) (map[string]bool, dporStats) {
	t.Helper()
	out := map[string]bool{}
	var last string
	var wasPruned bool
	st, err := explore(context.Background(), reduce, 100000, func(ch runtime.Chooser) {
		last, wasPruned = p.run(ch)
	}, func(*dchooser) bool {
		require.False(t, wasPruned)
		out[last] = true
		return false
	})
	require.NoError(t, err)
	require.True(t, st.Done)
	return out, st
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func randomToy(rng *rand.Rand) toyProg {
	procs := 2 + rng.Intn(2)
	p := make(toyProg, procs)
	kinds := []string{"w", "r", "add", "wait", "r", "w", "vis"}
	for r := range p {
		n := 1 + rng.Intn(3)
		for i := 0; i < n; i++ {
			op := toyOp{kind: kinds[rng.Intn(len(kinds))], v: rng.Intn(2), val: 1 + rng.Intn(2)}
			if op.kind == "wait" {
				op.val = rng.Intn(3)
			}
			p[r] = append(p[r], op)
		}
	}
	return p
}

// The reduction is sound: on 400 random small programs it reaches exactly
// the final states (deadlocks included) that full enumeration reaches.
func TestDPORFindsTheSameFinalStatesAsFullEnumeration(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	fewer := 0
	for i := 0; i < 400; i++ {
		p := randomToy(rng)
		full, fst := finals(t, p, false)
		red, rst := finals(t, p, true)
		require.Equal(t, keys(full), keys(red), "program %d: %v", i, p)
		require.LessOrEqual(t, rst.Complete, fst.Complete, "program %d", i)
		if rst.Complete < fst.Complete {
			fewer++
		}
	}
	require.Greater(t, fewer, 100, "the reduction should cut schedules on many programs")
}

func TestDPORExamples(t *testing.T) {
	w := func(v, val int) toyOp { return toyOp{kind: "w", v: v, val: val} }
	r := func(v int) toyOp { return toyOp{kind: "r", v: v} }
	wait := func(v, val int) toyOp { return toyOp{kind: "wait", v: v, val: val} }
	vis := func(v, n int) toyOp { return toyOp{kind: "vis", v: v, val: n} }
	for _, tc := range []struct {
		name          string
		p             toyProg
		full, reduced int // complete schedules
		states        int
	}{
		// Independent processes: one schedule stands for all 20.
		{"independent", toyProg{{w(0, 1), w(0, 2), w(0, 1)}, {w(1, 1), w(1, 2), w(1, 1)}}, 20, 1, 1},
		// Two writers of one variable and a reader: every order matters.
		{"racy", toyProg{{w(0, 1)}, {w(0, 2)}, {r(0)}}, 6, 6, 6},
		// A message: the wait orders the read after the write.
		{"handoff", toyProg{{w(1, 7), w(0, 1)}, {wait(0, 1), r(1)}}, 1, 1, 1},
		// A visibility choice is explored in full, like a rank choice.
		{"visibility", toyProg{{vis(0, 3)}, {r(1)}}, 6, 3, 3},
		// A wait before the matching write on the other side deadlocks in
		// some schedules only.
		{"overtaken eq wait", toyProg{{w(0, 1), w(0, 2)}, {wait(0, 1)}}, 2, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			full, fst := finals(t, tc.p, false)
			red, rst := finals(t, tc.p, true)
			require.Equal(t, keys(full), keys(red))
			require.Equal(t, tc.states, len(full), strings.Join(keys(full), "\n"))
			require.Equal(t, tc.full, fst.Complete)
			require.Equal(t, tc.reduced, rst.Complete)
		})
	}
}
