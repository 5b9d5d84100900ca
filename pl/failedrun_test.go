package pl_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

// waitForever has every rank stage its rows, then wait on its own signal
// row for a value nobody sends: a deadlock after some work.
func waitForever() *pl.Program {
	return testprogs.Collective("WaitForever", 1, 0, func(f *pl.Func, x, data, sig pl.Expr) {
		testprogs.StageRows(f, x, data, 1)
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		me := f.Let("me", pld.Rank(ctx))
		f.Do(pld.Wait(sig, pl.Dims(me, 0), 1, pld.Ge))
	})
}

// A deadlocked run returns its result with the error: the timeline (each
// blocked wait marked with its cell), the checker's report and the partial
// outputs, and every form of it prints without a nil dereference.
func TestFailedRunReturnsResult(t *testing.T) {
	const n = 3
	x := tensor.Randn(1, n, 1, testprogs.CollectiveCols)
	y := tensor.Zeros(pl.FP32, n, n, testprogs.CollectiveCols)
	res, err := pl.Run(waitForever(), pl.Ranks(n), x, y)
	require.ErrorContains(t, err, "deadlock")
	require.NotNil(t, res, "a failed run keeps its result")
	require.Equal(t, err, res.Err())
	require.False(t, res.OK())
	require.Len(t, res.Outputs(), 1)

	blocked := res.Blocked()
	require.Len(t, blocked, n, "every rank stopped in its wait")
	for r, l := range blocked {
		require.Regexp(t, `^rank `+strconv.Itoa(r)+`: pld\.system\.wait at \S+:\d+ waits on signal_buf\[`+strconv.Itoa(r)+`, 0\] \(for 1\)$`, l)
	}
	marked := 0
	for _, lane := range res.Timeline().Lanes {
		for _, ev := range lane {
			if ev.Blocked {
				marked++
				require.NotEmpty(t, ev.Cell)
			}
		}
	}
	require.Equal(t, n, marked)
	require.Regexp(t, `^timeline of 3 ranks: \d+ events, 3 blocked waits$`, fmt.Sprint(res.Timeline()))

	rep := res.Report()
	require.NotNil(t, rep)
	require.True(t, rep.HasErrors())
	require.Contains(t, rep.String(), "deadlock")

	text := res.String()
	require.Contains(t, text, "run on 3 ranks: stopped after")
	require.Contains(t, text, "rank 2: pld.system.wait")
	require.Contains(t, text, "protocol check:")
	h := display.Bundle(res)["text/html"]
	require.Contains(t, h, "stopped: deadlock")
	require.Contains(t, h, "<svg")
}

// A finished run says so in words, not as a Go nil.
func TestFinishedRunReadsAsWords(t *testing.T) {
	x := tensor.Randn(1, 2, 1, SIZE)
	y := tensor.Zeros(pl.FP32, 2, 1, SIZE)
	res, err := pl.Run(quickstart(), pl.Ranks(2), x, y)
	require.NoError(t, err)
	require.True(t, res.OK())
	require.Equal(t, "finished", res.Status())
	require.Empty(t, res.Blocked())
	require.Regexp(t, `^run on 2 ranks: finished, \d+ ops in `, res.String())
	for _, s := range []string{res.String(), display.Bundle(res)["text/html"]} {
		require.NotContains(t, s, "<nil>")
	}
}

// Rank counts outside 1…MaxRanks raise at the call instead of running 2 ranks.
func TestRanksBounds(t *testing.T) {
	for _, n := range []int{0, -2, pl.MaxRanks + 1, 100000} {
		err := pl.Catch(func() { pl.Ranks(n) })
		require.Error(t, err, "pl.Ranks(%d)", n)
		require.Contains(t, err.Error(), "pl.Ranks: argument 'n': expected a rank count from 1 to 1024, given ")
		require.True(t, strings.HasSuffix(err.Error(), "given "+strconv.Itoa(n)), err.Error())
	}
	for _, n := range []int{1, 2, pl.MaxRanks} {
		require.NoError(t, pl.Catch(func() { pl.Ranks(n) }))
	}
}

// Run-time messages spell shapes as PyPTO does ([2, 1, 8]), not as Go.
func TestRunMessagesSpellShapesAsPyPTO(t *testing.T) {
	_, err := pl.Run(quickstart(), pl.Ranks(2), tensor.Zeros(pl.FP32, 2, 1, 8), tensor.Zeros(pl.FP32, 2, 1, SIZE))
	require.Error(t, err)
	require.Contains(t, err.Error(), "given [2, 1, 8]")
	require.NotContains(t, err.Error(), "[2 1 8]")
}
