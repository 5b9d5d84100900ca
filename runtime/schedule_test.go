package runtime_test

import (
	"context"
	"errors"
	"fmt"
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

// lastChooser runs the highest enabled rank at every point: the opposite
// of FirstEnabled, so the two runs interleave differently.
type lastChooser struct{ points, maxPending int }

func (c *lastChooser) Choose(p *runtime.ChoicePoint) int {
	c.points++
	c.maxPending = max(c.maxPending, len(p.Pending))
	for i := len(p.Pending) - 1; i >= 0; i-- {
		if p.Pending[i].Enabled {
			return i
		}
	}
	return -1
}

func ctlRun(t *testing.T, prog *pl.Program, n int, ch runtime.Chooser, args ...*tensor.Tensor) (*runtime.Result, error) {
	t.Helper()
	return runtime.NewSimulator().Run(context.Background(), prog.IR(), args, runtime.RunOptions{Ranks: n, Watchdog: 10 * time.Second, Schedule: ch})
}

// A controlled run computes what a free run computes, records its
// decisions, and replays them to the same decisions and bits.
func TestControlledRunMatchesAndReplays(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			prog := testprogs.BarrierBuiltinProgram()
			x := tensor.Randn(7, n, 1, 64)
			want := tensor.Zeros(ir.FP32, n, 1, 64)
			mustRun(t, prog, n, x, want)

			ch := &lastChooser{}
			y := tensor.Zeros(ir.FP32, n, 1, 64)
			res, err := ctlRun(t, prog, n, ch, x, y)
			require.NoError(t, err)
			require.Equal(t, want.Bytes(), y.Bytes())
			require.Equal(t, ch.points, res.Schedule.Len())
			require.Greater(t, ch.maxPending, 1, "ranks are parked together at some point")

			y2 := tensor.Zeros(ir.FP32, n, 1, 64)
			res2, err := ctlRun(t, prog, n, runtime.NewReplay(res.Schedule), x, y2)
			require.NoError(t, err)
			require.Equal(t, y.Bytes(), y2.Bytes())
			require.Equal(t, res.Schedule.Choices, res2.Schedule.Choices)
		})
	}
}

// A wait nothing can satisfy is a deadlock under control too, reported
// with the blocked rank, and the run ends (no hang).
func TestControlledDeadlock(t *testing.T) {
	prog := testprogs.Collective("WaitForever", 1, 0, func(f *pl.Func, x, data, sig pl.Expr) {
		f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
	})
	n := 2
	res, err := ctlRun(t, prog, n, runtime.FirstEnabled(), tensor.Zeros(ir.FP32, n, 1, 16), tensor.Zeros(ir.FP32, n, n, 16))
	var dl *runtime.DeadlockError
	require.True(t, errors.As(err, &dl), "got %v", err)
	require.Len(t, dl.Blocked, 2)
	require.NotNil(t, res.Schedule)
}

// A replay that does not fit the program stops with a clear error.
func TestReplayDiverges(t *testing.T) {
	prog := testprogs.BarrierBuiltinProgram()
	n := 2
	bad := &runtime.Schedule{Choices: []runtime.Choice{{Kind: runtime.ChooseRank, Value: 1}}}
	_, err := ctlRun(t, prog, n, runtime.NewReplay(bad), tensor.Randn(1, n, 1, 64), tensor.Zeros(ir.FP32, n, 1, 64))
	var pe *runtime.PrunedError
	require.True(t, errors.As(err, &pe), "got %v", err)
	require.True(t, pe.Diverged)
	require.Contains(t, err.Error(), "does not fit")
}
