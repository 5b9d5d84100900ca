package checker_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// The corpus of broken protocols: each one diagnosed with the finding a
// student needs.

// meshArgs are x [n, 1, size] random and y [n, 1, size] zero.
func meshArgs(n, size int) func() []*tensor.Tensor {
	return func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(int64(n*size), n, 1, size), tensor.Zeros(ir.FP32, n, 1, size)}
	}
}

func check(t *testing.T, p *pl.Program, n int, args []*tensor.Tensor, seed int64) (*runtime.Result, *checker.Report, error) {
	t.Helper()
	res, rep, err := checker.Run(context.Background(), p.IR(), args, checker.Options{Ranks: n, Seed: seed, Watchdog: 10 * time.Second})
	require.NotNil(t, rep)
	t.Logf("P=%d seed=%d:\n%s", n, seed, rep)
	return res, rep, err
}

// Seed #1746's allreduce without its post-reduce barrier (passes.md §4.1
// minus phase 3.5): a fast rank's in-place store races the slow ranks'
// remote loads of it. Happens-before finds it on every schedule, at P=2
// as at P=4, whatever the sums came out as.
func TestSeed1746WithoutPostReduceBarrierRaces(t *testing.T) {
	for _, n := range []int{2, 4} {
		for seed := int64(0); seed < 3; seed++ {
			_, rep, err := check(t, seed1746(64, false), n, meshArgs(n, 64)(), seed)
			require.NoError(t, err)
			races := rep.Of(checker.KindRace)
			require.Len(t, races, 1, "one pair of ops (remote_load, store), every rank pair folded in")
			f := races[0]
			require.Equal(t, checker.Error, f.Severity)
			require.Regexp(t, `^rank \d stores to its data\[0, 0:64\] while rank \d may still be reading it \(remote_load\): add a barrier between the reads and the store`, f.Message)
			require.Equal(t, n*(n-1), f.Count, "every (reader, writer) pair races")
			details := strings.Join(f.Details, "\n")
			require.Contains(t, details, "pld.tile.remote_load at programs_test.go:")
			require.Contains(t, details, "in allreduce_1746 — remote-loads rank")
			require.Contains(t, details, "tile.store at programs_test.go:")
			require.Contains(t, details, "(window data_buf, bytes [0, 256))")
		}
	}
	// With phase 3.5 the same recipe has no race; what remains is the
	// single-shot contract (cells end at 2, written by Set then AtomicAdd).
	for _, n := range []int{2, 4} {
		_, rep, err := check(t, seed1746(64, true), n, meshArgs(n, 64)(), 1)
		require.NoError(t, err)
		require.False(t, rep.HasErrors(), rep.String())
		require.Len(t, rep.Of(checker.KindMixedSetAdd), 1)
		require.Equal(t, checker.Warning, rep.Of(checker.KindMixedSetAdd)[0].Severity, "one writer per cell, in order")
		require.Contains(t, rep.Of(checker.KindSignalLeft)[0].Message, "(values [2])")
	}
}

// remote_load before the peer staged its data (pitfall 9).
func TestRemoteLoadBeforeStageRaces(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		_, rep, err := check(t, loadBeforeStage(64), n, meshArgs(n, 64)(), 0)
		require.NoError(t, err)
		races := rep.Of(checker.KindRace)
		require.Len(t, races, 1)
		require.Regexp(t, `^rank \d remote-loads rank \d's data\[0, 0:64\], which rank \d stored to with nothing ordering the two, so it may see old data: `+
			`rank \d must notify after the store and rank \d wait for that notify before reading \(stage → barrier → read\)\.`, races[0].Message)
		require.Equal(t, n, races[0].Count, "each rank and its next")
	}
}

// 05's store mode with its barrier placed before the remote_store instead of
// after it: the next rank loads its dst while the store into it may still
// be landing.
func TestRingStoreBarrierBeforeRemoteStoreRaces(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		_, rep, err := check(t, ringProgram("store", true), n, meshArgs(n, 64)(), 0)
		require.NoError(t, err)
		races := rep.Of(checker.KindRace)
		require.Len(t, races, 1)
		require.Regexp(t, `^rank \d loads its dst\[0, 0:64\], which rank \d remote-stored to with nothing ordering the two`, races[0].Message)
		require.Contains(t, races[0].Message, "must notify after the remote_store")
		require.Contains(t, strings.Join(races[0].Details, "\n"), "pld.tile.remote_store at programs_test.go:")
	}
}

// The classic hangs come back as the run's error, explained: each blocked
// rank's cell with its history and why nothing will ever wake it.
func TestDeadlocksExplained(t *testing.T) {
	cases := []struct {
		kind    string
		blocked []int
		why     []string
	}{
		{"never-notified", []int{0, 1, 2}, []string{
			"history of signal_buf[0, 0] on rank 0: never notified",
			"nobody ever notified this cell and every rank is waiting"}},
		{"notify-zero", []int{0, 1, 2}, []string{
			"history of signal_buf[0, 0] on rank 0: 0 → 0 (rank 2 AtomicAdd 0 at programs_test.go:",
			"every notify of this cell carried 0 (AtomicAdd 0 by rank 2), so it stays 0 and the wait for >= 1 never passes: notify with a non-zero value (1)."}},
		{"barrier-rank0-only", []int{0}, []string{
			"rank 0 waits in pld.tensor.barrier at programs_test.go:",
			"nobody ever notified this cell and ranks 1, 2 already finished: a barrier or collective that only some ranks call never completes"}},
		{"wrong-cell", []int{0, 1, 2}, []string{
			"rank 1 waits in pld.system.wait at programs_test.go:",
			"rank 1's signal_buf[0, 0] holds 1 (from rank 0) and nobody waits on it: the wait probably names the wrong cell"}},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			start := time.Now()
			res, rep, err := check(t, deadlockProgram(c.kind), 3, meshArgs(3, S)(), 0)
			require.Less(t, time.Since(start), 2*time.Second)
			require.NotNil(t, res, "a deadlocked run keeps its result")
			require.Same(t, err.(*checker.DeadlockError).Deadlock, res.Err.(*runtime.DeadlockError))
			res.Timeline.Expand()
			require.NotEmpty(t, res.Timeline.Lanes)
			require.Error(t, err)
			require.True(t, strings.HasPrefix(err.Error(), "deadlock"), err.Error())
			var dl *runtime.DeadlockError
			require.ErrorAs(t, err, &dl, "the runtime's deadlock is still reachable")
			var cdl *checker.DeadlockError
			require.ErrorAs(t, err, &cdl)
			var got []int
			for _, b := range dl.Blocked {
				got = append(got, b.Rank)
			}
			require.Equal(t, c.blocked, got)
			f := rep.Of(checker.KindDeadlock)
			require.Len(t, f, 1)
			require.True(t, strings.HasPrefix(f[0].Message, "deadlock: "), f[0].Message)
			text := f[0].Message + "\n" + strings.Join(f[0].Details, "\n")
			for _, w := range c.why {
				require.Contains(t, text, w)
				require.Contains(t, err.Error(), w, "the error carries the explanation")
			}
		})
	}
}

// Pitfall 1: back-to-back barriers that wait for Eq 1, Eq 2 instead of Ge. A
// fast peer's second notify moves the cell 1 → 2 before the slow rank
// polls. Exploration finds the deadlock within 64 schedules and names the
// seed; replaying that seed fails again (a deadlock, or — when the replay's
// timing is lucky — the checker's wait-overtaken error, which does not
// depend on timing).
func TestEqBarrierOvertakenFoundByExploration(t *testing.T) {
	for _, n := range []int{2, 4} {
		e, err := checker.Explore(context.Background(), nil, eqBarriers(2).IR(), meshArgs(n, S), n, 64)
		require.NoError(t, err)
		t.Log(e)
		require.Equal(t, 64, e.Tried)
		s := e.FirstDeadlock()
		require.NotNil(t, s, "an Eq barrier overtaken within 64 schedules")
		require.GreaterOrEqual(t, s.Seed, int64(1))
		require.LessOrEqual(t, s.Seed, int64(64))
		require.NotEmpty(t, e.Failed())
		require.Contains(t, e.String(), fmt.Sprintf("reproduce with Seed: %d — deadlock", s.Seed))
		dl := e.Report.Of(checker.KindDeadlock)
		require.NotEmpty(t, dl)
		require.Equal(t, s.Seed, dl[0].Seed)
		require.Contains(t, dl[0].Message, "== 1 (it holds 2): the cell held 1 after rank")
		require.Contains(t, dl[0].Message, "a wait for == 1 misses a fast peer that already moved on. Wait with >= (pld.Ge)")
		require.Contains(t, strings.Join(dl[0].Details, "\n"), "0 → 1 (rank ")

		_, rep, err := check(t, eqBarriers(2), n, meshArgs(n, S)(), s.Seed)
		require.True(t, err != nil || len(rep.Of(checker.KindOvertaken)) > 0)
	}
}

// The same bug on a schedule that got lucky: the run completes, but the
// checker still reports the Eq wait a fast peer could overtake.
func TestEqWaitOvertakenFlaggedOnLuckySchedule(t *testing.T) {
	const n = 2
	for seed := int64(1); seed <= 200; seed++ {
		_, rep, err := checker.Run(context.Background(), eqBarriers(2).IR(), meshArgs(n, S)(), checker.Options{Ranks: n, Seed: seed})
		if err != nil {
			continue
		}
		t.Logf("seed %d completed:\n%s", seed, rep)
		f := rep.Of(checker.KindOvertaken)
		require.NotEmpty(t, f)
		require.Regexp(t, `^rank \d's wait for signal_buf\[\d, 0\] == 1 can be overtaken: rank \d's next notify \(AtomicAdd 1\) is not ordered after the wait, so if rank \d is fast it lands first, rank \d reads 2 instead of 1 and the wait never returns`, f[0].Message)
		require.Contains(t, f[0].Message, "use a Ge wait (pld.Ge)")
		return
	}
	t.Skip("no schedule of 200 completed")
}

// A second hand-rolled barrier reusing the first one's Ge 1 cells passes at
// once; the checker says so whatever the timing (and the read-done race it
// leaves open shows up too).
func TestStaleGe1BarrierFlagged(t *testing.T) {
	for _, n := range []int{2, 4} {
		for seed := int64(0); seed < 3; seed++ {
			_, rep, err := check(t, staleBarrier(64), n, meshArgs(n, 64)(), seed)
			require.NoError(t, err)
			f := rep.Of(checker.KindStaleSignal)
			require.Len(t, f, 1)
			require.Equal(t, checker.Error, f[0].Severity)
			require.Regexp(t, `^rank \d's wait for signal_buf\[\d, 0\] >= 1 passes on credits an earlier wait on the same cell \(pld.system.wait at programs_test.go:\d+ in reuse_ge1\) already consumed`, f[0].Message)
			require.Contains(t, f[0].Message, "wait for a higher count")
		}
	}
}

// Set and AtomicAdd on one cell with nothing ordering them: an error, on
// every schedule (when the Set lands last it also loses the arrivals and
// the run deadlocks, and the explanation says why).
func TestSetAndAtomicAddFlagged(t *testing.T) {
	deadlocks := 0
	for seed := int64(0); seed < 8; seed++ {
		_, rep, err := check(t, mixedSetAdd(), 3, meshArgs(3, S)(), seed)
		f := rep.Of(checker.KindMixedSetAdd)
		require.NotEmpty(t, f)
		require.Equal(t, checker.Error, f[0].Severity)
		require.Regexp(t, `^signal_buf\[0, 0\] on rank 0 is written with Set by rank 0 and with AtomicAdd by rank \d, and nothing orders the two`, f[0].Message)
		if err != nil {
			deadlocks++
			var dl *runtime.DeadlockError
			require.True(t, errors.As(err, &dl))
			require.Contains(t, rep.Of(checker.KindDeadlock)[0].Message, "a Set overwrote credits")
		}
	}
	t.Logf("%d of 8 schedules lost an arrival and deadlocked", deadlocks)
}

// Options.Disabled runs without the checker: no race findings, but the
// result's signal hygiene and a deadlock's explanation remain.
func TestDisabled(t *testing.T) {
	_, rep, err := checker.Run(context.Background(), seed1746(64, false).IR(), meshArgs(4, 64)(), checker.Options{Ranks: 4, Disabled: true})
	require.NoError(t, err)
	require.True(t, rep.Disabled)
	require.Empty(t, rep.Of(checker.KindRace))
	require.Len(t, rep.Of(checker.KindSignalLeft), 1)
	require.Contains(t, rep.String(), "checker off")

	_, rep, err = checker.Run(context.Background(), deadlockProgram("notify-zero").IR(), meshArgs(3, S)(), checker.Options{Ranks: 3, Disabled: true})
	require.Error(t, err)
	var cdl *checker.DeadlockError
	require.ErrorAs(t, err, &cdl)
	require.Contains(t, err.Error(), "every notify of this cell carried 0")
	require.Len(t, rep.Of(checker.KindDeadlock), 1)
}

// ExplainDeadlock works from the runtime's data alone (a device run without
// the checker).
func TestExplainDeadlockFromRuntime(t *testing.T) {
	var sigs []runtime.SignalCell
	obs := &endRecorder{end: func(e runtime.RunEnd) { sigs = e.Signals }}
	_, err := runtime.NewSimulator().Run(context.Background(), eqBarriers(2).IR(), meshArgs(2, S)(), runtime.RunOptions{Ranks: 2, Observer: obs})
	if err == nil {
		t.Skip("this schedule got lucky")
	}
	var dl *runtime.DeadlockError
	require.ErrorAs(t, err, &dl)
	text := checker.ExplainDeadlock(dl, sigs, 2)
	t.Log(text)
	require.Contains(t, text, "a wait for == 1 misses a fast peer")
	require.Contains(t, text, "0 → 1 (rank ")
	require.Contains(t, text, " AtomicAdd 1) → 2 (rank ")
}

type endRecorder struct{ end func(runtime.RunEnd) }

func (*endRecorder) Access(runtime.Access)       {}
func (*endRecorder) Notify(runtime.Notification) {}
func (*endRecorder) Wait(runtime.WaitResult)     {}
func (r *endRecorder) End(e runtime.RunEnd)      { r.end(e) }

// The report renders as text and as an HTML fragment.
func TestReportTextAndHTML(t *testing.T) {
	_, rep, err := checker.Run(context.Background(), seed1746(64, false).IR(), meshArgs(2, 64)(), checker.Options{Ranks: 2})
	require.NoError(t, err)
	s := rep.String()
	require.True(t, strings.HasPrefix(s, "protocol check: 1 error, 1 note\nerror [race] rank "), s)
	require.Contains(t, s, "\n    rank ")
	h := rep.HTML()
	require.True(t, strings.HasPrefix(h, `<div class="ptorepl-protocol-report"`))
	require.Contains(t, h, "<code>race</code>")
	require.Contains(t, h, "data[0, 0:64]")
	require.Contains(t, h, "&#39;s data[0, 0:64]")
	require.NotContains(t, h, "<script")
	require.False(t, rep.Clean())

	_, rep, err = checker.Run(context.Background(), ringProgram("load", false).IR(), meshArgs(2, 64)(), checker.Options{Ranks: 2})
	require.NoError(t, err)
	require.Equal(t, "protocol check: clean", rep.String())
	require.Contains(t, rep.HTML(), "protocol check: clean")
}

// deferredProgram is a chip orchestrator per rank that launches waiters
// tasks, each registering a deferred wait for the epoch (1) the previous
// rank publishes, and a consumer per waiter that copies the published
// data into its row of y; the publisher, which remote-stores x into the
// next rank's data and then Sets its signal, comes last. Launched as
// plain calls (manual false) the tasks complete in program order; in a
// pl.manual_scope each consumer depends on its waiter (deps=[tid]) and the
// publisher on nothing, as upstream's deferred-completion test launches
// them. regions writes the tasks as InCore regions instead of kernels.
func deferredProgram(waiters, cols int, manual, regions bool) *pl.Program {
	prog := pl.NewProgram("DeferredCompletion")
	sigT := pld.DistributedTensor(pl.Dims(1, 1), pl.INT32)
	dataT := pld.DistributedTensor(pl.Dims(1, cols), pl.FP32)
	rowT := pl.Tensor(pl.Dims(1, cols), pl.FP32)
	yT := pl.Tensor(pl.Dims(waiters, cols), pl.FP32)
	wait := func(f *pl.Func, sig pl.Expr) { f.Do(pld.DeferWait(sig, pl.Dims(0, 0), 1, pld.Ge)) }
	consume := func(f *pl.Func, data, y, slot pl.Expr) pl.Expr {
		return pl.Store(f.Let("got", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, cols))), pl.Dims(slot, 0), y)
	}
	publish := func(f *pl.Func, x, data, sig pl.Expr) {
		ctx := f.Let("ctx", pld.GetCommCtx(sig))
		next := f.Let("next", pl.Mod(pl.Add(f.Let("me", pld.Rank(ctx)), 1), f.Let("n", pld.NRanks(ctx))))
		f.Do(pld.RemoteStore(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, cols))), data, next, pl.Dims(0, 0)))
		f.Do(pld.Notify(sig, next, pl.Dims(0, 0), 1, pld.Set))
	}
	waiter := prog.InCore("waiter", func(f *pl.Func) { wait(f, f.InOut("signal", sigT)) })
	consumer := prog.InCore("consumer", func(f *pl.Func) {
		data := f.In("data", dataT)
		slot := f.Scalar("slot", pl.INDEX)
		y := f.InOut("y", yT)
		f.Returns(yT)
		f.Return(f.Let("y_out", consume(f, data, y, slot)))
	})
	publisher := prog.InCore("publisher", func(f *pl.Func) {
		publish(f, f.In("x", rowT), f.InOut("data", dataT), f.InOut("signal", sigT))
	})
	orch := prog.Orchestration("per_rank", func(f *pl.Func) {
		x := f.In("x", rowT)
		y := f.Out("y", yT)
		data := f.InOut("data", dataT)
		sig := f.InOut("signal", sigT)
		tasks := func() {
			f.For("slot", pl.Range(waiters), func(slot pl.Expr) {
				switch {
				case regions:
					tid := f.InCoreTask("wait_tid", "wait", nil, func() { wait(f, sig) })
					f.InCoreTask("", "consume", depsIf(manual, tid), func() { f.Set(y, consume(f, data, y, slot)) })
				case manual:
					tid := pl.Item(f.Let("w", f.Submit(waiter, nil, sig)), 0)
					f.Do(f.Submit(consumer, []pl.Expr{tid}, data, slot, y))
				default:
					f.Do(f.Call(waiter, sig))
					f.Do(f.Call(consumer, data, slot, y))
				}
			})
			if regions {
				f.InCoreScope("publish", func() { publish(f, x, data, sig) })
			} else {
				f.Do(f.Call(publisher, x, data, sig))
			}
		}
		if manual {
			f.ManualScope(tasks)
		} else {
			tasks()
		}
	})
	dataSignalHost(prog, orch, waiters, cols)
	return prog
}

// dataSignalHost adds the host of the deferred-wait programs: it gives
// each rank's orchestrator its x [1, cols] and y [rows, cols] rows, a
// data window [1, cols] FP32 and a [1, 1] signal.
func dataSignalHost(prog *pl.Program, orch *pl.Function, rows, cols int) {
	prog.Host("host", func(f *pl.Func) {
		xs := f.In("xs", pl.Tensor(pl.Dims(pld.WorldSize(), 1, cols), pl.FP32))
		ys := f.Out("ys", pl.Tensor(pl.Dims(pld.WorldSize(), rows, cols), pl.FP32))
		dbuf := f.Let("data_buf", pld.AllocWindowBuffer(cols*4))
		sbuf := f.Let("signal_buf", pld.AllocWindowBuffer(4))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(orch, r, pl.Index(xs, r), pl.Index(ys, r),
				f.Let("data", pld.Window(dbuf, pl.Dims(1, cols), pl.FP32)),
				f.Let("signal", pld.Window(sbuf, pl.Dims(1, 1), pl.INT32))))
		})
	})
}

func depsIf(ok bool, tid pl.Expr) []pl.Expr {
	if !ok {
		return nil
	}
	return []pl.Expr{tid}
}

// Deferred waiters launched before their publisher: in a manual scope
// the simulator completes them as the device does, a consumer when its
// waiter has (deps), so every consumer reads the previous rank's x, with
// no race, as written and compiled, as kernels or as regions. As plain
// calls the tasks complete in program order and the run deadlocks; the
// report says why and what to do.
func TestDeferredWaitersBeforeTheirPublisher(t *testing.T) {
	const n, waiters, cols = 2, 4, 16
	xs := tensor.Randn(9, n, 1, cols)
	for _, regions := range []bool{false, true} {
		prog := deferredProgram(waiters, cols, true, regions)
		c, err := pl.TryCompile(prog, pl.Ranks(n))
		require.NoError(t, err)
		for _, compiled := range []bool{false, true} {
			t.Run(fmt.Sprintf("regions=%v/compiled=%v", regions, compiled), func(t *testing.T) {
				p := prog.IR()
				if compiled {
					p = c.Final()
				}
				res, rep, err := checker.Run(context.Background(), p, []*tensor.Tensor{xs, tensor.Zeros(ir.FP32, n, waiters, cols)},
					checker.Options{Ranks: n, Watchdog: 10 * time.Second})
				require.NoError(t, err)
				require.False(t, rep.HasErrors(), "%s", rep)
				ys := res.Outputs[0]
				for r := 0; r < n; r++ {
					for w := 0; w < waiters; w++ {
						for j := 0; j < cols; j++ {
							require.Equal(t, xs.At((r+n-1)%n, 0, j), ys.At(r, w, j), "y[%d, %d, %d]", r, w, j)
						}
					}
				}
			})
		}
	}
	_, _, err := check(t, deferredProgram(waiters, cols, false, false), n, []*tensor.Tensor{xs, tensor.Zeros(ir.FP32, n, waiters, cols)}, 0)
	require.Error(t, err)
	require.Contains(t, err.Error(), "rank 0 waits in pld.system.defer_wait")
	require.Contains(t, err.Error(), "every rank is waiting in a deferred wait. Outside a pl.manual_scope the simulator completes each rank's tasks in program order")
}

// An InCore region of the program as written is a task: its deferred
// waits hold before the code after it runs, as the outlined kernel's task
// completes only then. Each rank remote-stores x into the next rank's
// data and notifies it, waits (deferred) for its own notify, and loads
// data into y: ordered, so no race, and y is the previous rank's x.
func TestDeferredWaitInRegionCompletesTheRegion(t *testing.T) {
	const n, cols = 3, 16
	prog := pl.NewProgram("DeferredRegion")
	rowT := pl.Tensor(pl.Dims(1, cols), pl.FP32)
	orch := prog.Orchestration("per_rank", func(f *pl.Func) {
		x := f.In("x", rowT)
		y := f.Out("y", rowT)
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, cols), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
		f.InCoreScope("publish", func() {
			ctx := f.Let("ctx", pld.GetCommCtx(sig))
			next := f.Let("next", pl.Mod(pl.Add(f.Let("me", pld.Rank(ctx)), 1), f.Let("n", pld.NRanks(ctx))))
			f.Do(pld.RemoteStore(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, cols))), data, next, pl.Dims(0, 0)))
			f.Do(pld.Notify(sig, next, pl.Dims(0, 0), 1, pld.AtomicAdd))
		})
		f.InCoreScope("wait", func() { f.Do(pld.DeferWait(sig, pl.Dims(0, 0), 1, pld.Ge)) })
		f.InCoreScope("consume", func() {
			f.Set(y, pl.Store(f.Let("got", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, cols))), pl.Dims(0, 0), y))
		})
	})
	dataSignalHost(prog, orch, 1, cols)
	xs := tensor.Randn(5, n, 1, cols)
	for seed := int64(0); seed < 8; seed++ {
		res, rep, err := check(t, prog, n, []*tensor.Tensor{xs, tensor.Zeros(ir.FP32, n, 1, cols)}, seed)
		require.NoError(t, err)
		require.Empty(t, rep.Of(checker.KindRace), "%s", rep)
		ys := res.Outputs[0]
		for r := 0; r < n; r++ {
			prev := (r + n - 1) % n
			for j := 0; j < cols; j++ {
				require.Equal(t, xs.At(prev, 0, j), ys.At(r, 0, j), "seed %d: y[%d, 0, %d]", seed, r, j)
			}
		}
	}
}
