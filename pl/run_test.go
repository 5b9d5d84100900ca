package pl_test

import (
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// dsl.md's quickstart: two ranks with [[1, 2, 3, ...]] and [[10, 20, 30, ...]]
// both end with the elementwise sum.
func TestQuickstartRuns(t *testing.T) {
	for _, n := range []int{2, 3, 4, 8} {
		x := tensor.Randn(int64(n), n, 1, SIZE)
		y := tensor.Zeros(pl.FP32, n, 1, SIZE)
		res, err := pl.Run(quickstart(), pl.Ranks(n), x, y)
		require.NoError(t, err)
		for r := 0; r < n; r++ {
			for j := 0; j < SIZE; j++ {
				want := 0.0
				for s := 0; s < n; s++ {
					want += x.At(s, 0, j)
				}
				require.InDelta(t, want, y.At(r, 0, j), 1e-4, "P=%d rank %d elem %d", n, r, j)
			}
		}
		// The hand barrier leaves its credits: the checker says so.
		require.Contains(t, res.Report().String(), "signal-left-non-zero")
	}
}

func TestRunErrors(t *testing.T) {
	_, err := pl.Run(quickstart(), pl.Ranks(2), tensor.Zeros(pl.FP32, 2, 1, SIZE))
	require.ErrorContains(t, err, "takes 2 host tensors")
	_, err = pl.Run(quickstart(), pl.Ranks(2), tensor.Zeros(pl.INT32, 2, 1, SIZE), tensor.Zeros(pl.FP32, 2, 1, SIZE))
	require.ErrorContains(t, err, "expected dtype pl.FP32")
	require.False(t, strings.Contains(err.Error(), "goroutine"))
}
