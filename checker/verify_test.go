package checker_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

var (
	update       = updateWeak // the package's one -update flag (relaxed_test.go)
	verifyBudget = flag.Int("verify.budget", 1000, "runs each P=4 verification may take (P=2, 3 get "+fmt.Sprint(checker.DefaultBudget)+")")
)

// Exhaustive runs: every correct example and collective of the corpus is
// proved at P = 2 and 3 (every schedule explored, each clean with the same
// outputs) and at P = 4 within -verify.budget runs; the schedule counts are
// in testdata/verify_counts.golden, so a change in the reduction or in the
// events a program makes shows in review. Three collectives in a row on one
// signal (each wait may or may not see a later collective's credits) stayed
// incomplete at P = 3 until waits and the credits they do not need
// commuted (verify_cond.go).
func TestVerifyProvesCorrectPrograms(t *testing.T) {
	var golden bytes.Buffer
	for _, n := range []int{2, 3, 4} {
		budget := checker.DefaultBudget
		if n == 4 {
			budget = *verifyBudget
		}
		cases := cleanCases(n)
		sort.Slice(cases, func(i, j int) bool { return cases[i].name < cases[j].name })
		for _, c := range cases {
			v, err := checker.Verify(context.Background(), c.prog.IR(), c.args, checker.VerifyOptions{Ranks: n, Budget: budget})
			require.NoError(t, err, "%s P=%d", c.name, n)
			require.Empty(t, v.Failure, "%s P=%d: %s", c.name, n, v)
			if n < 4 {
				require.True(t, v.Proved(), "%s P=%d: %s", c.name, n, v.Status())
			}
			verdict := "proved"
			if !v.Complete {
				verdict = fmt.Sprintf("incomplete after %d runs", budget)
			}
			fmt.Fprintf(&golden, "P=%d  %-55s %-26s %5d schedules %6d pruned\n", n, c.name, verdict, v.Schedules, v.Pruned)
		}
	}
	compareGolden(t, "verify_counts.golden", golden.Bytes())
}

func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./checker -run %s -update", t.Name())
	require.Equal(t, string(want), string(got))
}

// --- known-buggy programs of our own

// waitBeforeSend: every rank first waits for its predecessor's notify and
// only then notifies its successor, so at P > 1 nobody ever sends (the
// program order a code generator must not invert, as in upstream #2397).
func waitBeforeSend() *pl.Program {
	prog := pl.NewProgram("WaitBeforeSend")
	k := meshKernel(prog, "wait_first", S, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		prev := f.Let("prev", pl.Mod(pl.Add(me, pl.Sub(n, 1)), n))
		next := f.Let("next", pl.Mod(pl.Add(me, 1), n))
		f.Do(pld.Wait(sig, pl.Dims(prev, 0), 1, pld.Ge))
		f.Do(pld.Notify(sig, next, pl.Dims(me, 0), 1, pld.AtomicAdd))
	})
	meshHost(prog, k, S)
	return prog
}

// reusedCell: two hand-off rounds through the same cell, each waiting for
// Ge 1; the second wait passes on the first round's credit, so the
// reader can see the old data (upstream #2279's stale cell).
func reusedCell() *pl.Program {
	prog := pl.NewProgram("ReusedCell")
	k := meshKernel(prog, "reuse_cell", S, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		next := f.Let("next", pl.Mod(pl.Add(me, 1), n))
		prev := f.Let("prev", pl.Mod(pl.Add(me, pl.Sub(n, 1)), n))
		for round := 0; round < 2; round++ {
			f.Set(data, pl.Store(f.Let("staged", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), data))
			f.Do(pld.Notify(sig, next, pl.Dims(me, 0), 1, pld.AtomicAdd))
			f.Do(pld.Wait(sig, pl.Dims(prev, 0), 1, pld.Ge)) // the second round should wait for 2
			f.Set(y, pl.Store(f.Let("got", pld.RemoteLoad(data, prev, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), y))
		}
	})
	meshHost(prog, k, S)
	return prog
}

// noSync: each rank remote-loads its successor's data with no signal at
// all: what it reads depends on the schedule.
func noSync() *pl.Program {
	prog := pl.NewProgram("NoSync")
	k := meshKernel(prog, "no_sync", S, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		f.Set(data, pl.Store(f.Let("staged", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), data))
		r := f.Let("r", pld.RemoteLoad(data, pl.Mod(pl.Add(me, 1), n), pl.Dims(0, 0), pl.Dims(1, S)))
		f.Set(y, pl.Store(r, pl.Dims(0, 0), y))
	})
	meshHost(prog, k, S)
	return prog
}

// setReset: rank 0 clears its own cell with Set 0 and waits for rank 1's
// Set 1; when rank 1 is first, the clear erases its signal and rank 0
// waits forever. The schedule where rank 0 goes first is clean, so only
// exploring finds the hang.
func setReset() *pl.Program {
	prog := pl.NewProgram("SetReset")
	k := meshKernel(prog, "set_reset", S, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		f.IfElse(pl.Eq(me, 0), func() {
			f.Do(pld.Notify(sig, 0, pl.Dims(1, 0), 0, pld.Set))
			f.Do(pld.Wait(sig, pl.Dims(1, 0), 1, pld.Ge))
		}, func() {
			f.If(pl.Eq(me, 1), func() { f.Do(pld.Notify(sig, 0, pl.Dims(1, 0), 1, pld.Set)) })
		})
	})
	meshHost(prog, k, S)
	return prog
}

// failure is what Verify calls a failed schedule, for comparing a replay.
func failure(err error, rep *checker.Report) string {
	if err != nil {
		return strings.SplitN(err.Error(), "\n", 2)[0]
	}
	for _, f := range rep.Findings {
		if f.Severity == checker.Error {
			return "checker: " + f.Message
		}
	}
	return ""
}

// Each known-buggy program gives a counterexample, and replaying it gives
// the same failure (deadlock, race, stale signal, overtaken wait, output
// that depends on the schedule).
func TestVerifyFindsCounterexamples(t *testing.T) {
	for _, tc := range []struct {
		name  string
		prog  *pl.Program
		ranks []int
		want  string // in the failure
	}{
		{"wait before send", waitBeforeSend(), []int{2, 3}, "deadlock: every live rank is blocked"},
		{"reused cell", reusedCell(), []int{2, 3}, "so it may see old data"},
		{"no synchronisation", noSync(), []int{2, 3}, "with nothing ordering the two, so it may see old data"},
		{"Eq barrier overtaken", eqBarriers(2), []int{2, 3}, "deadlock: every live rank is blocked"},
		{"Set and AtomicAdd on one cell", mixedSetAdd(), []int{2, 3}, "Set"},
		{"Set reset loses the signal", setReset(), []int{2, 3}, "deadlock: every live rank is blocked"},
		{"seed 1746 without its post-reduce barrier", seed1746(S, false), []int{2, 3}, "while rank 1 may still be reading it"},
	} {
		for _, n := range tc.ranks {
			t.Run(fmt.Sprintf("%s/P=%d", tc.name, n), func(t *testing.T) {
				args := meshArgs(n, S)
				v, err := checker.Verify(context.Background(), tc.prog.IR(), args, checker.VerifyOptions{Ranks: n})
				require.NoError(t, err)
				require.False(t, v.Proved())
				require.NotNil(t, v.Counterexample, "%s", v)
				require.Contains(t, v.Failure, tc.want)
				t.Log(v.Status())

				res, rep, err := checker.Run(context.Background(), tc.prog.IR(), args(), checker.Options{Ranks: n, Watchdog: 10 * time.Second, Schedule: runtime.NewReplay(v.Counterexample)})
				require.NotNil(t, res)
				require.Equal(t, v.Failure, failure(err, rep), "the replay fails the same way")
				require.Equal(t, v.Counterexample.Choices, res.Schedule.Choices)
				res.Timeline.Expand()
				require.NotEmpty(t, res.Timeline.Lanes, "a replay records its timeline for the swimlane")
			})
		}
	}
}

// Only exploring finds setReset's hang: the first schedule is clean.
func TestVerifyFindsAHangTheFirstScheduleMisses(t *testing.T) {
	n := 2
	_, rep, err := checker.Run(context.Background(), setReset().IR(), meshArgs(n, S)(), checker.Options{Ranks: n, Schedule: runtime.FirstEnabled()})
	require.NoError(t, err)
	require.False(t, rep.HasErrors(), "%s", rep)
	v, err := checker.Verify(context.Background(), setReset().IR(), meshArgs(n, S), checker.VerifyOptions{Ranks: n})
	require.NoError(t, err)
	require.Greater(t, v.Schedules, 1)
	var dl *runtime.DeadlockError
	require.True(t, errors.As(v.FailErr, &dl), "%v", v.FailErr)
}

// A schedule-dependent result with no checker finding is caught by the
// output comparison: rank 1 reads a cell's value rank 0 sets either before
// or after, with the read ordered by nothing but a test (no race: signal
// cells are not data).
func TestVerifyComparesOutputs(t *testing.T) {
	prog := pl.NewProgram("TestRace")
	k := meshKernel(prog, "test_race", S, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		f.IfElse(pl.Eq(me, 0), func() {
			f.Do(pld.Notify(sig, 1, pl.Dims(0, 0), 1, pld.AtomicAdd))
		}, func() {
			v := f.Let("seen", pl.Read(sig, pl.Dims(0, 0)))
			f.Set(y, pl.Write(y, pl.Dims(0, 0), pl.Cast(v, pl.FP32)))
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		})
	})
	meshHost(prog, k, S)
	n := 2
	v, err := checker.Verify(context.Background(), prog.IR(), meshArgs(n, S), checker.VerifyOptions{Ranks: n})
	require.NoError(t, err)
	t.Log(v)
	require.False(t, v.Proved())
	require.NotNil(t, v.Counterexample)
}

// The budget ends an exploration with a plain incomplete result, and a
// cancelled context stops it.
func TestVerifyBudgetAndCancel(t *testing.T) {
	n := 3
	c := cleanCases(n)[1] // the builtin allreduce: 19 runs at P=3
	v, err := checker.Verify(context.Background(), c.prog.IR(), c.args, checker.VerifyOptions{Ranks: n, Budget: 5})
	require.NoError(t, err)
	require.False(t, v.Complete)
	require.False(t, v.Proved())
	require.Contains(t, v.Status(), "incomplete after")
	require.LessOrEqual(t, v.Schedules+v.Pruned, 5)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = checker.Verify(ctx, c.prog.IR(), c.args, checker.VerifyOptions{Ranks: n})
	require.ErrorIs(t, err, context.Canceled)

	// Cancelled while it explores: it stops between runs or inside one.
	ctx, cancel = context.WithCancel(context.Background())
	runs := 0
	_, err = checker.ExploreOutcomes(ctx, c.prog.IR(), c.args, n, true, func(*runtime.Result, *checker.Report, error) {
		if runs++; runs == 3 {
			cancel()
		}
	})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 3, runs)
}

// The reduction is sound on real programs: small programs reach the same
// set of outcomes (outputs, final signals, deadlocks, and each schedule's
// findings: races, stale and overtaken signals, ...) with and without it.
// Credit barriers on reused cells and a wait that needs either of two
// credits exercise the conditional independence of waits and the credits
// they do not need (verify_cond.go).
func TestVerifyReductionMatchesFullEnumeration(t *testing.T) {
	for _, tc := range []struct {
		name string
		prog *pl.Program
		n    int
		args func() []*tensor.Tensor
	}{
		{"no synchronisation", noSync(), 2, meshArgs(2, S)},
		{"Set reset", setReset(), 2, meshArgs(2, S)},
		{"Eq barrier", eqBarriers(2), 2, meshArgs(2, S)},
		{"wait before send", waitBeforeSend(), 2, meshArgs(2, S)},
		{"Set and AtomicAdd", mixedSetAdd(), 2, meshArgs(2, S)},
		{"quickstart", quickstart(S), 2, meshArgs(2, S)},
		{"hand barrier", barrierHand(), 2, func() []*tensor.Tensor { return []*tensor.Tensor{tensor.Zeros(ir.INT32, 2, 2, 1)} }},
		{"credit rounds on one cell", creditRounds(2, false), 2, meshArgs(2, S)},
		{"credit rounds reusing Ge 1", creditRounds(2, true), 2, meshArgs(2, S)},
		{"either of two credits", eitherProducer(), 3, meshArgs(3, S)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outcomes := func(reduce bool) (map[string]bool, int) {
				ex := &outcomeExplorer{prog: tc.prog.IR(), n: tc.n, args: tc.args, seen: map[string]bool{}}
				return ex.seen, ex.explore(t, reduce)
			}
			full, fullRuns := outcomes(false)
			red, redRuns := outcomes(true)
			require.Equal(t, keysOf(full), keysOf(red))
			require.LessOrEqual(t, redRuns, fullRuns)
			t.Logf("%d outcomes; %d schedules without reduction, %d with", len(full), fullRuns, redRuns)
		})
	}
}

// creditRounds: rounds of "credit every peer on my cell of its signal,
// wait for the round's count (or for 1 again: stale) from each", then the
// owner takes its credits back; no data.
func creditRounds(rounds int, stale bool) *pl.Program {
	prog := pl.NewProgram("CreditRounds")
	k := meshKernel(prog, "credit_rounds", S, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		for g := 1; g <= rounds; g++ {
			f.For("peer", pl.Range(n), func(p pl.Expr) {
				f.If(pl.Ne(p, me), func() { f.Do(pld.Notify(sig, p, pl.Dims(me, 0), 1, pld.AtomicAdd)) })
			})
			want := g
			if stale {
				want = 1
			}
			f.For("src", pl.Range(n), func(s pl.Expr) {
				f.If(pl.Ne(s, me), func() { f.Do(pld.Wait(sig, pl.Dims(s, 0), want, pld.Ge)) })
			})
		}
		f.For("src", pl.Range(n), func(s pl.Expr) {
			f.If(pl.Ne(s, me), func() { f.Do(pld.Notify(sig, me, pl.Dims(s, 0), -rounds, pld.AtomicAdd)) })
		})
	})
	meshHost(prog, k, S)
	return prog
}

// eitherProducer: every rank but 0 stages its data and credits rank 0's
// cell [0, 0]; rank 0 waits for one credit and reads rank 1's data. When
// rank 2's credit is the one it needed, the read races rank 1's staging.
func eitherProducer() *pl.Program {
	prog := pl.NewProgram("EitherProducer")
	k := meshKernel(prog, "either", S, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		f.IfElse(pl.Eq(me, 0), func() {
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
			f.Set(y, pl.Store(f.Let("got", pld.RemoteLoad(data, 1, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), y))
		}, func() {
			f.Set(data, pl.Store(f.Let("staged", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), data))
			f.Do(pld.Notify(sig, 0, pl.Dims(0, 0), 1, pld.AtomicAdd))
		})
	})
	meshHost(prog, k, S)
	return prog
}

func keysOf(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// outcomeExplorer collects every schedule's outcome through Verify's
// exploration hook.
type outcomeExplorer struct {
	prog *ir.Program
	n    int
	args func() []*tensor.Tensor
	seen map[string]bool
}

func (e *outcomeExplorer) explore(t *testing.T, reduce bool) int {
	t.Helper()
	st, err := checker.ExploreOutcomes(context.Background(), e.prog, e.args, e.n, !reduce, func(res *runtime.Result, rep *checker.Report, err error) {
		// The outcome is what does not depend on how independent events
		// were interleaved: outputs, final signals, where ranks block, and
		// the set of findings.
		var b strings.Builder
		var dl *runtime.DeadlockError
		if errors.As(err, &dl) {
			for _, bl := range dl.Blocked {
				fmt.Fprintf(&b, "blocked %d %s %s %d;", bl.Rank, bl.Op, bl.Cell, bl.Value)
			}
		} else if err != nil {
			b.WriteString(err.Error())
		}
		// Each finding by what identifies it across schedules (its kind,
		// ops and cells): the checker's verdicts are a function of the
		// schedule's class.
		kinds := map[string]bool{}
		for _, f := range rep.Findings {
			kinds[checker.FindingKey(f)] = true
		}
		b.WriteString(strings.Join(keysOf(kinds), "|"))
		for _, o := range res.Outputs {
			fmt.Fprintf(&b, " %x", o.Bytes())
		}
		for _, s := range res.Signals {
			fmt.Fprintf(&b, " %d:%s%v=%d", s.Rank, s.Buffer, s.Offset, s.Value)
		}
		e.seen[b.String()] = true
	})
	require.NoError(t, err)
	return st
}

// Host collectives (one dispatched task per rank, the host joining before
// its next op) explore like device code: proved at P = 2 and 3 with the
// free run's sums; at P = 4 two subsets' allreduces are explored within a
// budget.
func TestVerifyHostCollectives(t *testing.T) {
	for _, tc := range []struct {
		name string
		prog *pl.Program
		n    int
	}{
		{"host allreduce loop mesh", testprogs.HostAllReduceLoopMode(2, "mesh"), 2},
		{"host allreduce loop mesh", testprogs.HostAllReduceLoopMode(2, "mesh"), 3},
		{"host allreduce loop ring", testprogs.HostAllReduceLoopMode(1, "ring"), 2},
		{"host allreduce subsets", testprogs.HostAllReduceSubsets(), 4},
	} {
		t.Run(fmt.Sprintf("%s/P=%d", tc.name, tc.n), func(t *testing.T) {
			args := func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.Randn(3, tc.n, 1, S), tensor.Zeros(ir.FP32, tc.n, 1, S)}
			}
			free := args()
			_, _, err := checker.Run(context.Background(), tc.prog.IR(), free, checker.Options{Ranks: tc.n})
			require.NoError(t, err)
			v, err := checker.Verify(context.Background(), tc.prog.IR(), args, checker.VerifyOptions{Ranks: tc.n, Budget: *verifyBudget})
			require.NoError(t, err)
			require.Empty(t, v.Failure)
			require.True(t, v.Proved() || tc.n > 3, "%s", v)
			require.Equal(t, free[1].Bytes(), v.Outputs[0].Bytes())
			t.Log(v.Status())
		})
	}
}
