package runtime_test

import (
	"testing"

	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

// HostArgs fills In parameters with seeded values and zeroes Out ones; NR
// dimensions take the rank count.
func TestHostArgs(t *testing.T) {
	p := testprogs.Quickstart().IR() // inputs [NR, 1, 256] In, outputs [NR, 1, 256] Out
	args, names, err := runtime.HostArgs(p, 3, 7)
	require.NoError(t, err)
	require.Equal(t, []string{"inputs", "outputs"}, names)
	require.Equal(t, []int{3, 1, 256}, args[0].Shape())
	require.NotZero(t, args[0].At(2, 0, 5))
	require.Zero(t, args[1].At(2, 0, 5))
	again, _, _ := runtime.HostArgs(p, 3, 7)
	require.True(t, args[0].Equal(again[0]), "seeded")

	_, _, err = runtime.HostArgs(testprogs.RankProgram(false).IR(), 2, 1)
	require.NoError(t, err)
}
