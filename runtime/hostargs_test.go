package runtime_test

import (
	"testing"

	"github.com/ptorepl/ptorepl/pl"
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

// A dimension computed from NR (upstream's allgather output [NR, 1, NR * 64])
// is sized at the rank count.
func TestHostArgsComputedDims(t *testing.T) {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("Gathered")
	prog.Host("host", func(f *pl.Func) {
		f.In("x", pl.Tensor(pl.Dims(NR, 1, 64), pl.FP32))
		f.Out("y", pl.Tensor(pl.Dims(NR, 1, pl.Mul(NR, 64)), pl.FP32))
	})
	args, _, err := runtime.HostArgs(prog.IR(), 4, 1)
	require.NoError(t, err)
	require.Equal(t, []int{4, 1, 64}, args[0].Shape())
	require.Equal(t, []int{4, 1, 256}, args[1].Shape())
}
