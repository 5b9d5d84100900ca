package checker_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

// TestResourceDeadlockFinding: two cores, three blocking waits and one
// queued publisher per rank. The report carries one resource-deadlock
// finding (not the ordinary deadlock explanation, which would blame the
// cell) naming each holding wait and each queued task; the same program
// with four cores, checked or not, finishes with every waiter released.
// (Three waits for >= 1 on one cell still draw the stale-signal finding:
// the checker reads a rank's waits as one sequence.)
func TestResourceDeadlockFinding(t *testing.T) {
	for _, disabled := range []bool{false, true} {
		y := tensor.Zeros(ir.INT32, 2, 3, 1, 1)
		_, rep, err := checker.Run(context.Background(), testprogs.Saturating(3, false, false).IR(), []*tensor.Tensor{y},
			checker.Options{Ranks: 2, Cores: 2, Watchdog: 10 * time.Second, Disabled: disabled})
		var rd *runtime.ResourceDeadlockError
		require.True(t, errors.As(err, &rd), "got %v", err)
		var cdl *checker.DeadlockError
		require.True(t, errors.As(err, &cdl))
		require.Equal(t, rd.Error(), err.Error(), "the runtime's text explains it, once")
		require.Empty(t, rep.Of(checker.KindDeadlock))
		f := rep.Of(checker.KindResourceDeadlock)
		require.Len(t, f, 1)
		require.Equal(t, checker.Error, f[0].Severity)
		golden(t, "resource_deadlock.golden", f[0].String())

		y = tensor.Zeros(ir.INT32, 2, 3, 1, 1)
		_, rep, err = checker.Run(context.Background(), testprogs.Saturating(3, false, false).IR(), []*tensor.Tensor{y},
			checker.Options{Ranks: 2, Cores: 4, Watchdog: 10 * time.Second, Disabled: disabled})
		require.NoError(t, err)
		require.Empty(t, rep.Of(checker.KindResourceDeadlock))
		require.Empty(t, rep.Of(checker.KindDeadlock))
		for _, v := range y.Int32s() {
			require.Equal(t, int32(1), v)
		}
	}
}
