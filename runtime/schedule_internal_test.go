package runtime

import (
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/stretchr/testify/require"
)

// fakeVisibility answers visibility choices from a list and records what
// it was asked: the stand-in for the relaxed memory mode's decisions.
type fakeVisibility struct {
	answers []int
	asked   []ChoicePoint
}

func (f *fakeVisibility) Choose(p *ChoicePoint) int {
	f.asked = append(f.asked, *p)
	a := f.answers[0]
	f.answers = f.answers[1:]
	return a
}

// A visibility decision goes to the Chooser as its own kind of choice
// point, is recorded in the schedule and replays; a single option is no
// choice; outside a controlled run the answer is option 0.
func TestChooseVisibility(t *testing.T) {
	s := newSim(&ir.Program{Name: "P"}, RunOptions{Ranks: 2, Schedule: &fakeVisibility{}})
	f := &fakeVisibility{answers: []int{2, 1}}
	s.ctl.chooser = f
	require.Equal(t, 2, s.chooseVisibility(1, 3, "which write lands first"))
	require.Equal(t, 0, s.chooseVisibility(1, 1, "one pending write"))
	require.Equal(t, 1, s.chooseVisibility(0, 2, "drain order"))
	require.Len(t, f.asked, 2)
	require.Equal(t, ChooseVisibility, f.asked[0].Kind)
	require.Equal(t, 3, f.asked[0].N)
	require.Equal(t, 1, f.asked[0].Rank)
	sched := s.ctl.schedule()
	require.Equal(t, []Choice{{ChooseVisibility, 2}, {ChooseVisibility, 1}}, sched.Choices)
	require.Equal(t, "schedule of 2 decisions: v2 v1", sched.String())

	r := NewReplay(sched)
	require.Equal(t, 2, r.Choose(&ChoicePoint{Kind: ChooseVisibility, N: 3}))
	require.Equal(t, 1, r.Choose(&ChoicePoint{Kind: ChooseVisibility, N: 2}))
	require.Equal(t, 0, r.Choose(&ChoicePoint{Kind: ChooseVisibility, N: 4}), "past its end a replay takes option 0")

	// An out-of-range answer stops the run.
	s2 := newSim(&ir.Program{Name: "P"}, RunOptions{Ranks: 2, Schedule: &fakeVisibility{answers: []int{5}}})
	require.Equal(t, 0, s2.chooseVisibility(0, 2, "bad"))
	var pe *PrunedError
	require.ErrorAs(t, s2.sched.firstErr(), &pe)

	free := newSim(&ir.Program{Name: "P"}, RunOptions{Ranks: 2})
	require.Equal(t, 0, free.chooseVisibility(0, 3, "free run"))
}

// Dependency: conflicting byte ranges with a write, commuting integer
// adds, the same actor.
func TestSyncEventDependent(t *testing.T) {
	loc := func(rank, buf, lo, hi int, write, add bool) Loc {
		return Loc{Rank: rank, Buf: buf, Lo: lo, Hi: hi, Write: write, Add: add}
	}
	ev := func(rank int, l Loc) SyncEvent { return SyncEvent{Rank: rank, Locs: []Loc{l}} }
	for _, tc := range []struct {
		a, b SyncEvent
		dep  bool
	}{
		{ev(0, loc(1, 0, 0, 8, true, false)), ev(1, loc(1, 0, 4, 12, false, false)), true},
		{ev(0, loc(1, 0, 0, 8, true, false)), ev(1, loc(1, 0, 8, 12, true, false)), false},
		{ev(0, loc(1, 0, 0, 8, false, false)), ev(1, loc(1, 0, 0, 8, false, false)), false},
		{ev(0, loc(1, 0, 0, 4, true, true)), ev(1, loc(1, 0, 0, 4, true, true)), false},
		{ev(0, loc(1, 0, 0, 4, true, true)), ev(1, loc(1, 0, 0, 4, false, false)), true},
		{ev(0, loc(1, 0, 0, 4, true, true)), ev(1, loc(1, 0, 0, 4, true, false)), true},
		{ev(0, loc(1, 0, 0, 4, true, false)), ev(1, loc(0, 0, 0, 4, true, false)), false},
		{ev(0, loc(1, 0, 0, 4, true, false)), ev(1, loc(1, 1, 0, 4, true, false)), false},
		{ev(1, loc(1, 0, 0, 4, false, false)), ev(1, loc(2, 0, 0, 4, false, false)), true},
	} {
		require.Equal(t, tc.dep, tc.a.Dependent(tc.b), "%v / %v", tc.a.Locs, tc.b.Locs)
		require.Equal(t, tc.dep, tc.b.Dependent(tc.a))
	}
}

// syncPoint parks the rank with its footprint in a controlled run and does
// nothing in a free one.
func TestSyncPoint(t *testing.T) {
	free := newSim(&ir.Program{Name: "P"}, RunOptions{Ranks: 2})
	require.NoError(t, (&Exec{s: free, rank: 0}).syncPoint(EvFence, nil, "drain", nil))

	var seen []Pending
	s := newSim(&ir.Program{Name: "P"}, RunOptions{Ranks: 2, Schedule: chooseFunc(func(p *ChoicePoint) int {
		seen = append(seen, p.Pending...)
		return 0
	})})
	s.ctl.running = 0
	locs := []Loc{{Rank: 1, Buf: 0, Lo: 0, Hi: 64, Write: true}}
	require.NoError(t, (&Exec{s: s, rank: 0}).syncPoint(EvFence, nil, "drain", locs))
	require.Len(t, seen, 1)
	require.Equal(t, EvFence, seen[0].Event.Kind)
	require.Equal(t, locs, seen[0].Event.Locs)
	require.Equal(t, "rank 0: fence drain", seen[0].Event.String())
}

type chooseFunc func(p *ChoicePoint) int

func (f chooseFunc) Choose(p *ChoicePoint) int { return f(p) }
