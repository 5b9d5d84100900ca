package checker_test

import (
	"context"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

// Exploration in the relaxed memory mode: every weak-memory bug of the
// corpus, which sequential-consistency exploration passes, gives a
// counterexample whose replay (visibility choices included) fails the
// same way; and a fenced program is proved over its schedules and
// visibility choices.
func TestVerifyRelaxedFindsWeakMemoryBugs(t *testing.T) {
	for _, p := range testprogs.WeakMemoryBugs() {
		n := max(p.MinRanks, 2)
		t.Run(p.Name, func(t *testing.T) {
			args := func() []*tensor.Tensor { return weakArgs(n) }
			sc, err := checker.Verify(context.Background(), p.Build().IR(), args, checker.VerifyOptions{Ranks: n, Budget: 2000})
			require.NoError(t, err)
			require.Empty(t, sc.Failure, "%s: sequential consistency explores clean", p.Name)

			v, err := checker.Verify(context.Background(), p.Build().IR(), args, checker.VerifyOptions{Ranks: n, Relaxed: true, Budget: 2000})
			require.NoError(t, err)
			require.False(t, v.Proved())
			require.NotNil(t, v.Counterexample, "%s: %s", p.Name, v.Status())
			t.Log(v.Status())

			res, rep, err := checker.Run(context.Background(), p.Build().IR(), args(), checker.Options{Ranks: n, Relaxed: true,
				Watchdog: 10 * time.Second, Schedule: runtime.NewReplay(v.Counterexample)})
			require.NotNil(t, res)
			require.Equal(t, v.Failure, failure(err, rep), "the replay fails the same way")
			require.Equal(t, v.Counterexample.Choices, res.Schedule.Choices)
		})
	}
}
