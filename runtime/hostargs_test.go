package runtime_test

import (
	"testing"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
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

// Named dynamic dimensions take the sizes given (ptorepl run --dims,
// :run -dims); the rest take the rank count, and a name no shape uses is
// an error.
func TestHostArgsSized(t *testing.T) {
	NR, M, N := pl.Dynamic("NR"), pl.Dynamic("M"), pl.Dynamic("N")
	prog := pl.NewProgram("Sized")
	prog.Host("host", func(f *pl.Func) {
		f.In("a", pl.Tensor(pl.Dims(pl.Mul(M, 2), N), pl.FP32))
		f.Out("y", pl.Tensor(pl.Dims(NR, N), pl.FP32))
	})
	cases := []struct {
		dims   string
		shapes [][]int
		err    string
	}{
		{"", [][]int{{6, 3}, {3, 3}}, ""},
		{"M=64,N=128", [][]int{{128, 128}, {3, 128}}, ""},
		{" N = 5 ", [][]int{{6, 5}, {3, 5}}, ""},
		{"K=4", nil, "dimension K: no host parameter's shape uses it (they use M, N, NR)"},
		{"M=0", nil, `dims "M=0": expected NAME=SIZE pairs`},
		{"M", nil, `dims "M": expected NAME=SIZE pairs`},
		{"M=2,M=3", nil, "dims: M is given twice"},
	}
	for _, c := range cases {
		t.Run(c.dims, func(t *testing.T) {
			dims, err := runtime.ParseDims(c.dims)
			var args []*tensor.Tensor
			if err == nil {
				args, _, err = runtime.HostArgsSized(prog.IR(), 3, 1, dims)
			}
			if c.err != "" {
				require.ErrorContains(t, err, c.err)
				return
			}
			require.NoError(t, err)
			for i, want := range c.shapes {
				require.Equal(t, want, args[i].Shape())
			}
		})
	}
}
