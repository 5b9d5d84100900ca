package pl_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/ir"
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

// A device function the host calls without device= runs on the host, where
// there is no rank: the error names the op where it failed and says how
// to dispatch the call.
func TestRankOnTheHostSaysDispatch(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "pyfront", "testdata", "authoring", "sum_all.py"))
	require.NoError(t, err)
	const call = "per_device(x[r], y[r], share, ready, device=r)"
	require.Contains(t, string(src), call)
	mod, err := pl.ParsePython(strings.Replace(string(src), call, "per_device(x[r], y[r], share, ready)", 1))
	require.NoError(t, err)
	prog, err := mod.Program("sum_all")
	require.NoError(t, err)
	_, err = pl.Run(prog, pl.Ranks(2), tensor.Randn(1, 2, 1, 128), tensor.Zeros(pl.FP32, 2, 1, 128))
	require.ErrorContains(t, err, "pld.system.rank")
	require.ErrorContains(t, err, "without device= runs on the host: dispatch it with device=r")
}

type recordingPublisher struct {
	texts   []string
	ids     []string
	updates []bool
}

func (p *recordingPublisher) Display(d display.Data, id string, update bool) {
	p.texts = append(p.texts, d["text/plain"])
	p.ids = append(p.ids, id)
	p.updates = append(p.updates, update)
}
func (p *recordingPublisher) Clear(bool) {}

// In a notebook, a run that lasts streams its progress into one updating
// display and ends it with a summary; on a terminal nothing is shown.
func TestRunStreamsProgress(t *testing.T) {
	rec := &recordingPublisher{}
	old := display.SetPublisher(rec)
	defer display.SetPublisher(old)
	in := tensor.Randn(1, 2, 1, SIZE)
	out := tensor.Zeros(ir.FP32, 2, 1, SIZE)
	_, err := pl.Run(quickstart(), pl.Ranks(2).ShowProgressAfter(time.Nanosecond), in, out)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(rec.texts), 2)
	require.Contains(t, rec.texts[0], "running on 2 ranks:")
	require.False(t, rec.updates[0], "the first progress line is a new display")
	last := len(rec.texts) - 1
	require.True(t, rec.updates[last], "later lines update it in place")
	require.Equal(t, rec.ids[0], rec.ids[last])
	require.Regexp(t, `^finished on 2 ranks: \d+ ops in `, rec.texts[last])

	// A quick run under the default threshold shows nothing.
	rec.texts = nil
	_, err = pl.Run(quickstart(), pl.Ranks(2), in, out)
	require.NoError(t, err)
	require.Empty(t, rec.texts)
}

// A single-device program (upstream's L2 shape: a chip orchestrator and
// its kernels, no host functions) runs its chip orchestrator on device 0;
// with two uncalled chip orchestrators, which runs is not said.
func TestSingleDeviceProgramRunsOnDeviceZero(t *testing.T) {
	build := func(entries int) *pl.Program {
		prog := pl.NewProgram("L2")
		k := prog.InCore("add", func(f *pl.Func) {
			a := f.In("a", pl.Tensor(pl.Dims(4, 16), pl.FP32))
			b := f.In("b", pl.Tensor(pl.Dims(4, 16), pl.FP32))
			out := f.Out("out", pl.Tensor(pl.Dims(4, 16), pl.FP32))
			f.Set(out, pl.Store(pl.Add(pl.Load(a, pl.Dims(0, 0), pl.Dims(4, 16)), pl.Load(b, pl.Dims(0, 0), pl.Dims(4, 16))), pl.Dims(0, 0), out))
		})
		for i := 0; i < entries; i++ {
			prog.Orchestration(fmt.Sprintf("chip_orch%d", i), func(f *pl.Func) {
				a := f.In("a", pl.Tensor(pl.Dims(4, 16), pl.FP32))
				b := f.In("b", pl.Tensor(pl.Dims(4, 16), pl.FP32))
				out := f.Out("out", pl.Tensor(pl.Dims(4, 16), pl.FP32))
				f.Do(f.Call(k, a, b, out))
			})
		}
		return prog
	}
	a, b, out := tensor.Randn(1, 4, 16), tensor.Randn(2, 4, 16), tensor.Zeros(pl.FP32, 4, 16)
	_, err := pl.Run(build(1), pl.Ranks(1), a, b, out)
	require.NoError(t, err)
	for i := 0; i < 4; i++ {
		for j := 0; j < 16; j++ {
			require.InDelta(t, a.At(i, j)+b.At(i, j), out.At(i, j), 1e-5)
		}
	}
	_, err = pl.Run(build(2), pl.Ranks(1), a, b, out)
	require.ErrorContains(t, err, "has no host orchestrator and 2 chip orchestrators no function calls (chip_orch0, chip_orch1): nothing says which runs where")
}
