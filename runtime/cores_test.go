package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

func runCores(t *testing.T, prog *pl.Program, ranks, cores int, args ...*tensor.Tensor) (*runtime.Result, error) {
	t.Helper()
	return runtime.NewSimulator().Run(context.Background(), prog.IR(), args,
		runtime.RunOptions{Ranks: ranks, Cores: cores, Watchdog: 20 * time.Second})
}

// TestResourceDeadlock: two cores, three blocking waits, one queued
// publisher per rank. Two waits take both cores, so the publisher never
// runs: a resource deadlock naming the holding waits and the queued tasks,
// not a hang and not an ordinary deadlock.
func TestResourceDeadlock(t *testing.T) {
	prog := testprogs.Saturating(3, false, false)
	y := tensor.Zeros(ir.INT32, 2, 3, 1, 1)
	res, err := runCores(t, prog, 2, 2, y)
	require.Error(t, err)
	require.NotNil(t, res)
	var rd *runtime.ResourceDeadlockError
	require.True(t, errors.As(err, &rd), "got %v", err)
	var dl *runtime.DeadlockError
	require.True(t, errors.As(err, &dl), "a resource deadlock is still a deadlock")
	require.Len(t, dl.Blocked, 4) // two waits holding cores on each rank
	require.Len(t, rd.Starved, 2)
	for r, st := range rd.Starved {
		require.Equal(t, r, st.Rank)
		require.Equal(t, 2, st.Cores)
		require.Len(t, st.Holding, 2)
		for _, h := range st.Holding {
			require.Equal(t, "pld.system.wait", h.Op)
			require.Equal(t, "signal_buf[0, 0]", h.Cell)
			require.Equal(t, "waiter", h.Func)
			require.True(t, h.Pos.Known(), "the holding wait has its source position")
		}
		require.Len(t, st.Running, 2)
		for i, q := range st.Running {
			require.Equal(t, "waiter", q.Func)
			require.Equal(t, i+1, q.Seq, "the first two waiters took the cores")
			require.True(t, q.Running)
		}
		require.Len(t, st.Queued, 2)
		require.Equal(t, "waiter", st.Queued[0].Func)
		require.Equal(t, 3, st.Queued[0].Seq)
		require.False(t, st.Queued[0].Publishes)
		require.Equal(t, "publisher", st.Queued[1].Func)
		require.Equal(t, 4, st.Queued[1].Seq)
		require.True(t, st.Queued[1].Publishes)
		require.True(t, st.Queued[1].Pos.Known(), "the queued task has its dispatch position")
	}
	msg := err.Error()
	require.True(t, strings.HasPrefix(msg, "resource deadlock: every AIV core of a rank is held by a blocking wait while a task that would publish is queued"), msg)
	require.Contains(t, msg, "rank 0 (2 cores):")
	require.Contains(t, msg, "core held by pld.system.wait at ")
	require.Contains(t, msg, " in waiter, waiting on signal_buf[0, 0] = 0, for >= 1")
	require.Contains(t, msg, "on a core: waiter (dispatch 1 at ")
	require.Contains(t, msg, "queued publisher (dispatch 4 at ")
	require.Contains(t, msg, "), would publish")
	// The timeline marks the four waits the run stopped in.
	blocked := 0
	res.Timeline.Expand()
	for _, lane := range res.Timeline.Lanes {
		for _, ev := range lane {
			if ev.Blocked {
				blocked++
			}
		}
	}
	require.Equal(t, 4, blocked)
}

// TestEnoughCoresOrDeferWaitComplete: the same program with a core for
// every task, or with deferred waits on two cores, finishes and every
// waiter (or its consumer) saw the peer's notify.
func TestEnoughCoresOrDeferWaitComplete(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cores    int
		deferred bool
		orch     bool
	}{
		{"four cores", 4, false, false},
		{"many cores", 48, false, false},
		{"defer_wait on two cores", 2, true, false},
		{"defer_wait on one core", 1, true, false},
		{"four cores, through orchestrations", 4, false, true},
		{"defer_wait in a called kernel, two cores", 2, true, true},
		{"defer_wait in a called kernel, one core", 1, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, ranks := range []int{2, 3} {
				y := tensor.Zeros(ir.INT32, ranks, 3, 1, 1)
				_, err := runCores(t, testprogs.Saturating(3, tc.deferred, tc.orch), ranks, tc.cores, y)
				require.NoError(t, err)
				for _, v := range y.Int32s() {
					require.Equal(t, int32(1), v)
				}
			}
		})
	}
}

// TestOneCoreKeepsDispatchOrder: the default runs a rank's tasks one at a
// time in dispatch order, so the first waiter holds the only core.
func TestOneCoreKeepsDispatchOrder(t *testing.T) {
	_, err := runCores(t, testprogs.Saturating(1, false, false), 2, 0, tensor.Zeros(ir.INT32, 2, 1, 1, 1))
	var rd *runtime.ResourceDeadlockError
	require.True(t, errors.As(err, &rd), "got %v", err)
	require.Equal(t, 1, rd.Starved[0].Cores)
	_, err = runCores(t, testprogs.Saturating(1, false, false), 2, 2, tensor.Zeros(ir.INT32, 2, 1, 1, 1))
	require.NoError(t, err)
}

func TestCoresOutOfRange(t *testing.T) {
	_, err := runCores(t, testprogs.Saturating(1, false, false), 2, -1, tensor.Zeros(ir.INT32, 2, 1, 1, 1))
	require.EqualError(t, err, "run: argument 'cores': expected an AIV core count from 1 to 1024, given -1")
}

// manyCells: on every rank k tasks wait each on its own cell while one
// task notifies the peer's cells in reverse order, so a rank has several
// waiters at once on different cells and every notify must wake the right
// one.
func manyCells(k int) *pl.Program {
	prog := pl.NewProgram("ManyCells")
	waiter := prog.InCore("waiter", func(f *pl.Func) {
		sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(k, 1), pl.INT32))
		i := f.Scalar("i", pl.INT32)
		f.Do(pld.Wait(sig, pl.Dims(i, 0), 1, pld.Ge))
	})
	pub := prog.InCore("publisher", func(f *pl.Func) {
		sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(k, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(sig))
		peer := f.Let("peer", pl.Mod(pl.Add(pld.Rank(ctx), 1), pld.NRanks(ctx)))
		for i := k - 1; i >= 0; i-- {
			f.Do(pld.Notify(sig, peer, pl.Dims(i, 0), 1, pld.AtomicAdd))
		}
	})
	prog.Host("host", func(f *pl.Func) {
		buf := f.Let("sig_buf", pld.AllocWindowBuffer(4*k))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			sig := f.Let("sig", pld.Window(buf, pl.Dims(k, 1), pl.INT32))
			for i := 0; i < k; i++ {
				f.Do(f.Dispatch(waiter, r, sig, pl.Cast(i, pl.INT32)))
			}
			f.Do(f.Dispatch(pub, r, sig))
		})
	})
	return prog
}

// TestSeveralWaitersPerRank: with a core for every task the run finishes
// under every seed; with one core too few it is a resource deadlock.
func TestSeveralWaitersPerRank(t *testing.T) {
	const k = 4
	for seed := int64(0); seed < 8; seed++ {
		for _, ranks := range []int{2, 3} {
			_, err := runtime.NewSimulator().Run(context.Background(), manyCells(k).IR(), nil,
				runtime.RunOptions{Ranks: ranks, Cores: k + 1, Seed: seed, Watchdog: 20 * time.Second})
			require.NoError(t, err, "seed %d, %d ranks", seed, ranks)
			_, err = runtime.NewSimulator().Run(context.Background(), manyCells(k).IR(), nil,
				runtime.RunOptions{Ranks: ranks, Cores: k, Seed: seed, Watchdog: 20 * time.Second})
			var rd *runtime.ResourceDeadlockError
			require.True(t, errors.As(err, &rd), "seed %d, %d ranks: %v", seed, ranks, err)
			require.Len(t, rd.Starved, ranks)
		}
	}
}
