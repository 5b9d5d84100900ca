package pl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

// loweredAllReduce is x → data → allreduce(mode) → y for [1, elems] FP32
// per rank, built for one world size (the ring's signal is static).
func loweredAllReduce(ranks, elems int, mode string) *pl.Program {
	return testprogs.AllReduceWindow("LoweredAllReduce", ranks, elems, mode, pld.Sum)
}

// The allreduce is proved at P = 2 and 3 in both modes, both as the
// simulator runs the op natively and as pl.Compile lowers it (every chunk's
// put, notify and wait a scheduling point). The ring's waits may or may not
// see a neighbour's next credit; they commute with the credits they do not
// need (checker/verify_cond.go), so the ring at P = 3, which did not finish
// within a test's budget before, is one schedule (and a few dozen runs the
// sleep sets cut).
func TestVerifyAllReduceModes(t *testing.T) {
	for _, mode := range []string{"mesh", "ring"} {
		for _, n := range []int{2, 3} {
			prog := loweredAllReduce(n, 8*n, mode)
			x := tensor.Randn(5, n, 1, 8*n)
			y := tensor.Zeros(ir.FP32, n, 1, 8*n)
			t.Run(fmt.Sprintf("%s/native/P=%d", mode, n), func(t *testing.T) {
				v := pl.Verify(prog, pl.Ranks(n), x, y)
				require.NoError(t, v.Err())
				require.Empty(t, v.Failure())
				require.True(t, v.Proved(), "%s", v)
				t.Log(v.Status())
				require.Equal(t, tensor.Zeros(ir.FP32, n, 1, 8*n).Bytes(), y.Bytes(), "args are left as they were")
			})
			t.Run(fmt.Sprintf("%s/lowered/P=%d", mode, n), func(t *testing.T) {
				c, err := pl.TryCompile(prog, pl.Ranks(n))
				require.NoError(t, err)
				v := c.Verify(pl.Ranks(n), x, y)
				require.NoError(t, v.Err())
				require.Empty(t, v.Failure())
				require.True(t, v.Proved(), "%s", v)
				t.Log(v.Status())
			})
		}
	}
}

// The lowered ring allreduce at P = 3 is proved with its exact counts: one
// complete schedule, the other runs cut as redundant.
func TestVerifyLoweredRingAtThreeRanks(t *testing.T) {
	const n = 3
	c, err := pl.TryCompile(loweredAllReduce(n, 8*n, "ring"), pl.Ranks(n))
	require.NoError(t, err)
	v := c.Verify(pl.Ranks(n).Budget(1000), tensor.Randn(5, n, 1, 8*n), tensor.Zeros(ir.FP32, n, 1, 8*n))
	require.NoError(t, v.Err())
	require.True(t, v.Proved(), "%s", v)
	require.Equal(t, 1, v.Schedules())
	require.Equal(t, 88, v.Pruned())
}

// waitFirst is a protocol whose every rank waits before it sends.
func waitFirst() *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("WaitFirst")
	k := prog.InCore("kernel", func(f *pl.Func) {
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(sig))
		me := f.Let("me", pld.Rank(ctx))
		n := f.Let("n", pld.NRanks(ctx))
		f.Do(pld.Wait(sig, pl.Dims(pl.Mod(pl.Add(me, pl.Sub(n, 1)), n), 0), 1, pld.Ge))
		f.Do(pld.Notify(sig, pl.Mod(pl.Add(me, 1), n), pl.Dims(me, 0), 1, pld.AtomicAdd))
	})
	prog.Host("host", func(f *pl.Func) {
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("signal", pld.Window(sb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	return prog
}

// A counterexample replays through pl.Run to the same failure and draws
// in the swimlane; the verification's HTML shows it.
func TestVerifyCounterexampleReplays(t *testing.T) {
	v := pl.Verify(waitFirst(), pl.Ranks(3))
	require.NoError(t, v.Err())
	require.False(t, v.Proved())
	cx := v.Counterexample()
	require.NotNil(t, cx)
	require.Contains(t, v.Failure(), "deadlock")
	res, err := pl.Run(waitFirst(), pl.Ranks(3).Replay(cx))
	require.Error(t, err)
	require.Equal(t, v.Failure(), strings.SplitN(err.Error(), "\n", 2)[0])
	require.Len(t, res.Blocked(), 3)
	h := v.HTML()
	require.Contains(t, h, "counterexample")
	require.Contains(t, h, "<svg", "the replay's swimlane")
	require.Contains(t, v.String(), "blocked  rank 0: wait pld.system.wait signal_buf[2, 0] on rank 0 >= 1")
	require.NotNil(t, v.CounterexampleRun())
}

func TestVerifyOptionsAndErrors(t *testing.T) {
	require.Equal(t, "pl.Ranks(3).Budget(7).NoReduction()", pl.Ranks(3).Budget(7).NoReduction().String())
	requirePanicsWith(t, "Budget: n must be a positive number of runs, given 0", func() { pl.Ranks(2).Budget(0) })
	requirePanicsWith(t, "the schedule is nil", func() { pl.Ranks(2).Replay(nil) })

	v := pl.Verify(nil, pl.Ranks(2))
	require.False(t, v.Proved())
	require.Contains(t, v.String(), "the program is nil")

	v = pl.Verify(waitFirst(), pl.Ranks(3).Budget(1))
	require.NoError(t, v.Err())
	require.False(t, v.Proved())

	_, err := pl.Run(waitFirst(), pl.Ranks(3).On(pl.MPI()).Replay(&pl.Schedule{}))
	require.Error(t, err)

	// Exploration and replay model one AIV core per rank: more is refused.
	v = pl.Verify(waitFirst(), pl.Ranks(2).Cores(2))
	require.ErrorContains(t, v.Err(), "one AIV core per rank; Cores(2) is not supported")
	_, err = pl.Run(waitFirst(), pl.Ranks(2).Cores(2).Replay(&pl.Schedule{}))
	require.ErrorContains(t, err, "one AIV core per rank; Cores(2) is not supported")
}

func requirePanicsWith(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		p := recover()
		require.NotNil(t, p, "expected a panic")
		require.Contains(t, fmt.Sprint(p), want)
	}()
	f()
}

// In the relaxed memory mode the compiled allreduce (InsertCommFence's
// fences and invalidations in place) is proved at P = 2 in both modes:
// every schedule and every write-visibility choice gives the same bits and
// no finding.
func TestVerifyRelaxedCompiledAllReduce(t *testing.T) {
	const n = 2
	for _, mode := range []string{"mesh", "ring"} {
		prog := loweredAllReduce(n, 8*n, mode)
		x := tensor.Randn(5, n, 1, 8*n)
		y := tensor.Zeros(ir.FP32, n, 1, 8*n)
		c, err := pl.TryCompile(prog, pl.Ranks(n))
		require.NoError(t, err)
		v := c.Verify(pl.Ranks(n).Relaxed().Budget(40000), x, y)
		require.NoError(t, v.Err())
		require.Empty(t, v.Failure())
		require.True(t, v.Proved(), "%s: %s", mode, v)
		t.Logf("%s lowered, relaxed: %s", mode, v.Status())
	}
}
