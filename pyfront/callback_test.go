//go:build cgo

package pyfront_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// HOST SubWorkers read as upstream keeps them: a body of `...` is a
// runtime-bound callback, host Python is kept as written; a run calls the
// Go functions bound to their names, as written and compiled, and says
// which one is unbound.
func TestHostCallbacks(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "callbacks.py"))
	require.NoError(t, err)
	prog, err := mod.Program("Inspect")
	require.NoError(t, err)
	p := prog.IR()
	require.True(t, p.Function("record").RuntimeBound)
	require.Contains(t, p.Function("check").HostPython, "if not torch.isfinite(f).all():\n\n    raise AssertionError")
	require.False(t, p.Function("add").IsHostCallback())

	args := func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 32), tensor.Randn(2, 16, 32), tensor.Zeros(ir.FP32, 16, 32), tensor.Zeros(ir.FP32, 1, 2)}
	}
	_, err = pl.Run(prog, pl.Ranks(1), args()...)
	require.ErrorContains(t, err, `callbacks.py:55:9: record is a runtime-bound callback (its body is ...): bind a Go function to it for the run, e.g. pl.Ranks(n).Callback("record", `)
	calls := 0
	record := func(a []*tensor.Tensor) error {
		calls++
		f, stats := a[0], a[1]
		sum, mx := 0.0, math.Inf(-1)
		for i := 0; i < 16; i++ {
			for j := 0; j < 32; j++ {
				sum += f.At(i, j)
				mx = math.Max(mx, f.At(i, j))
			}
		}
		stats.Set(sum, 0, 0)
		stats.Set(mx, 0, 1)
		return nil
	}
	_, err = pl.Run(prog, pl.Ranks(1).Callback("record", record), args()...)
	require.ErrorContains(t, err, "check is a HOST SubWorker whose body is host Python, which ptorepl does not run")
	check := func(a []*tensor.Tensor) error {
		for i := 0; i < 16; i++ {
			for j := 0; j < 32; j++ {
				if v := a[0].At(i, j); math.IsInf(v, 0) || math.IsNaN(v) {
					return fmt.Errorf("non-finite sum at [%d, %d]", i, j)
				}
			}
		}
		return nil
	}
	both := pl.Ranks(1).Callback("record", record).Callback("check", check)
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	require.NoError(t, err)
	calls = 0
	for _, compiled := range []bool{false, true} {
		in := args()
		if compiled {
			_, err = comp.Run(both, in...)
		} else {
			_, err = pl.Run(prog, both, in...)
		}
		require.NoError(t, err)
		sum, mx := 0.0, math.Inf(-1)
		for i := 0; i < 16; i++ {
			for j := 0; j < 32; j++ {
				want := float64(float32(in[0].At(i, j) + in[1].At(i, j)))
				require.Equal(t, want, in[2].At(i, j))
				sum += want
				mx = math.Max(mx, want)
			}
		}
		require.Equal(t, float64(float32(sum)), in[3].At(0, 0), "the callback's write reaches the host tensor")
		require.Equal(t, mx, in[3].At(0, 1))
	}
	require.Equal(t, 2, calls)
	d, err := comp.Differential(both, args()...)
	require.NoError(t, err)
	require.True(t, d.None(), "%v", d)

	// A callback's error stops the run, named.
	failing := pl.Ranks(1).Callback("record", record).Callback("check", func([]*tensor.Tensor) error { return fmt.Errorf("boom") })
	_, err = pl.Run(prog, failing, args()...)
	require.ErrorContains(t, err, "host callback check: boom")

	// A kernel cannot call a host callback.
	src, err := os.ReadFile(filepath.Join("testdata", "authoring", "callbacks.py"))
	require.NoError(t, err)
	bad := strings.Replace(string(src), "self.check(out_f)", "self.check(out_f, device=0)", 1)
	bmod, err := pl.ParsePython(bad)
	require.NoError(t, err)
	bprog, err := bmod.Program("Inspect")
	if err == nil {
		_, err = pl.Run(bprog, both, args()...)
	}
	require.ErrorContains(t, err, "check is a host callback (a HOST SubWorker): the host orchestrator calls it, without device=")
}

// TestUpstreamDistributedCallback reads upstream's
// examples/runtime/distributed_callback.py (beside the directory
// PTOREPL_PYPTO_EXAMPLES names) unmodified and does what its
// run_with_callback does: binds inspect_result, runs on a = 2, b = 3, and
// checks f = 5 and what the callback observed; unbound, the run says so.
func TestUpstreamDistributedCallback(t *testing.T) {
	dir := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if dir == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to read examples/runtime/distributed_callback.py beside it (testdata/authoring/callbacks.py runs regardless)")
	}
	mod, err := pl.LoadPython(filepath.Join(dir, "..", "runtime", "distributed_callback.py"))
	require.NoError(t, err)
	prog, err := mod.Program("InspectProgram")
	require.NoError(t, err)
	require.True(t, prog.IR().Function("inspect_result").RuntimeBound, "inspect_result.requires_runtime_binding")
	args := func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Full(ir.FP32, 2, 128, 128), tensor.Full(ir.FP32, 3, 128, 128), tensor.Zeros(ir.FP32, 128, 128)}
	}
	_, err = pl.Run(prog, pl.Ranks(1), args()...)
	require.ErrorContains(t, err, "inspect_result is a runtime-bound callback")
	observed := 0.0
	in := args()
	_, err = pl.Run(prog, pl.Ranks(1).Callback("inspect_result", func(a []*tensor.Tensor) error {
		observed = a[0].At(0, 0)
		return nil
	}), in...)
	require.NoError(t, err)
	require.True(t, in[2].AllClose(tensor.Full(ir.FP32, 5, 128, 128), 1e-5, 1e-5))
	require.Equal(t, 5.0, observed)
}
