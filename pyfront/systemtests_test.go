//go:build cgo

package pyfront_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// Upstream's distributed system tests (tests/st/distributed in a PyPTO
// checkout) are PyPTO programs nobody here wrote: @pl.program classes and
// program factories inside pytest files. TestUpstreamSystemPrograms reads
// each file unmodified, builds every program in it (factories with the
// arguments below), and at two ranks compiles it to PTO, runs it on
// random inputs, and runs every pipeline stage against the program as
// written (pl.Compiled.Differential). What ptorepl does not take yet is
// listed in systemGaps with the message that says so; a gap that starts to
// work, or fails differently, fails the test so the list stays true.

// systemFactoryArgs are the arguments a factory is called with when it
// needs more than the rank count (the values its pytest passes), keyed by
// name or, where two files share the name, by file/name.
var systemFactoryArgs = map[string][]any{
	"_build_deferred_completion_program":                                       {16}, // the simulator platform's AIV count, as its pytest
	"_build_host_all_to_all_v_program":                                         {2, 4},
	"_build_all_to_all_v_program":                                              {2, 4},
	"_build_host_allreduce":                                                    {64, pl.FP32, 4},
	"_build_multicore_allreduce_program":                                       {2, 256, 2, 2},
	"_build_multicore_allreduce_signal_reuse":                                  {2, 256, 2, 2},
	"_build_allreduce_program":                                                 {2, 256},
	"test_l3_tensor_allreduce_ring_intrinsic.py/_build_ring_allreduce_program": {2, 256},
	"_build_reduce_scatter_program":                                            {2},
}

// systemDims size dynamic dimensions other than the rank count, as the
// pytest's tensors do.
var systemDims = map[string]map[string]int{
	"test_l3_composite_shape_dim.py/_build_program": {"M": 64, "N": 128},
}

// systemCallbacks are the Go callbacks bound in place of HOST SubWorkers'
// host Python (torch code ptorepl keeps but does not run), each doing what
// the Python does, and systemInputs fill the host tensors as the pytest
// does where a callback checks values.
var systemCallbacks = map[string]map[string]func(args []*tensor.Tensor) error{
	// verify(f): f must be 5.0 everywhere (a = 2, b = 3).
	"test_l3_distributed.py/L3DependencyProgram": {"verify": func(a []*tensor.Tensor) error {
		if !a[0].AllClose(tensor.Full(ir.FP32, 5, 128, 128), 1e-5, 1e-5) {
			return fmt.Errorf("SubWorker verify failed: expected 5.0")
		}
		return nil
	}},
	// reduce_sum(sum_ab, diff_ab, f): f[:] = sum_ab + diff_ab.
	"test_l3_parallel_reduce.py/L3ParallelReduceProgram": {"reduce_sum": func(a []*tensor.Tensor) error {
		for i := 0; i < 128; i++ {
			for j := 0; j < 128; j++ {
				a[2].Set(float64(float32(a[0].At(i, j)+a[1].At(i, j))), i, j)
			}
		}
		return nil
	}},
}

var systemInputs = map[string][]float64{
	"test_l3_distributed.py/L3DependencyProgram": {2, 3},
}

// systemFills shape inputs whose values the program depends on, as the
// pytest builds them. The expert-parallel dispatch's routing indices name
// distinct experts per token, spread so no expert's receive buffer
// overflows (indices[r, t, k] = (t*TOPK + k + r) mod experts), and each
// route carries its own number (idx_padded[r, route, 0] = route).
var systemFills = map[string]func(args []*tensor.Tensor){
	// The deferred waits wait for the epoch in lane 0 of each rank's input
	// (1), which the peer's publisher sets; the other lanes tag the rank.
	"test_l3_deferred_completion.py/_build_deferred_completion_program": func(args []*tensor.Tensor) {
		in := args[0] // inputs [N_RANKS, 1, PAYLOAD_WIDTH]
		sh := in.Shape()
		for r := 0; r < sh[0]; r++ {
			for j := 0; j < sh[2]; j++ {
				v := float64(r + 1)
				if j == 0 {
					v = 1
				}
				in.Set(v, r, 0, j)
			}
		}
	},
	"test_l3_ep_dispatch_combine.py/_build_ep_dispatch_combine_program": func(args []*tensor.Tensor) {
		idx := args[0] // indices [N_RANKS, T, TOPK]
		sh := idx.Shape()
		experts := sh[0] * 16 // N_RANKS * L
		for r := 0; r < sh[0]; r++ {
			for t := 0; t < sh[1]; t++ {
				for k := 0; k < sh[2]; k++ {
					idx.Set(float64((t*sh[2]+k+r)%experts), r, t, k)
				}
			}
		}
		routes := args[3] // idx_padded [N_RANKS, N_ROUTES, IDX_PAD]
		rs := routes.Shape()
		for r := 0; r < rs[0]; r++ {
			for route := 0; route < rs[1]; route++ {
				for j := 0; j < rs[2]; j++ {
					v := 0.0
					if j == 0 {
						v = float64(route)
					}
					routes.Set(v, r, route, j)
				}
			}
		}
	},
}

// A gap names where a program stops ("read", "build", "compile", "run")
// and a piece of the message.
type systemGap struct{ step, msg string }

// systemGaps are keyed by file, or file/program for one program of it.
// systemRanks are the programs that need more than two devices: the
// overlapping two-group swap dispatches to devices 0, 1 and 2.
var systemRanks = map[string]int{
	"test_l3_multi_group.py/_build_two_group_swap_program": 3,
}

var systemGaps = map[string]systemGap{
	// The checker's finding in upstream's program: round 2 publishes into
	// the data window that round 1's consumer on the neighbouring rank
	// may still be reading; nothing orders the two.
	"test_l3_host_tensor_barrier.py/_build_host_barrier_signal_reuse_program": {"run", "'s data[0, 0:64], which rank"},
	// The same in the broadcast signal-reuse test: round 2's publish on the
	// root races with round 1's broadcast reading the root's window.
	"test_l3_host_tensor_broadcast.py/_build_host_broadcast_signal_reuse_program": {"run", "'s data[0, 0:64], which rank"},
	// Two chip orchestrators and no host: which runs where is not said
	// (upstream's test drives them by hand).
	"test_l2_multi_orch.py/TwoL2AddSubProgram": {"run", "nothing says which runs where"},
}

func TestUpstreamSystemPrograms(t *testing.T) {
	examples := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if examples == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to read the system tests beside it (tests/st/distributed)")
	}
	dir := filepath.Join(examples, "..", "..", "tests", "st", "distributed")
	files, err := filepath.Glob(filepath.Join(dir, "test_*.py"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "test_*.py")) // collectives/
	files = append(files, more...)
	if err != nil || len(files) == 0 {
		t.Fatalf("no system tests under %s (%v)", dir, err)
	}
	seen := map[string]bool{}
	var works []string
	// outcome records where key stopped (step "" when it ran through).
	outcome := func(t *testing.T, key, step string, err error) bool {
		t.Helper()
		seen[key] = true
		gap, known := systemGaps[key]
		switch {
		case err == nil && known && gap.step == step:
			t.Errorf("%s: %s now works; remove it from systemGaps", key, step)
		case err == nil:
			return true
		case !known:
			t.Errorf("%s: %s: %v", key, step, err)
		case gap.step != step || !strings.Contains(err.Error(), gap.msg):
			t.Errorf("%s: %s: %v\n(systemGaps expects %s to fail with %q)", key, step, err, gap.step, gap.msg)
		}
		return false
	}
	for _, file := range files {
		base := filepath.Base(file)
		mod, err := pl.LoadPython(file)
		if !outcome(t, base, "read", err) {
			continue
		}
		for _, name := range mod.Names() {
			key := base + "/" + name
			t.Run(key, func(t *testing.T) {
				var prog *pl.Program
				var err error
				if !mod.IsFactory(name) {
					prog, err = mod.Program(name)
				} else if args, ok := systemFactoryArgs[key]; ok {
					prog, err = mod.Call(name, args...)
				} else if args, ok := systemFactoryArgs[name]; ok {
					prog, err = mod.Call(name, args...)
				} else if prog, err = mod.Call(name); err != nil && strings.Contains(err.Error(), "no default") {
					prog, err = mod.Call(name, 2) // n_ranks
				}
				if !outcome(t, key, "build", err) {
					return
				}
				ranks := 2
				if n, ok := systemRanks[key]; ok {
					ranks = n
				}
				c, err := pl.TryCompile(prog, pl.Ranks(ranks))
				if err == nil {
					_, err = c.PTOText()
				}
				if !outcome(t, key, "compile", err) {
					return
				}
				args, _, err := runtime.HostArgsSized(prog.IR(), ranks, 1, systemDims[key])
				for i, v := range systemInputs[key] {
					args[i] = tensor.Full(args[i].DType(), v, args[i].Shape()...)
				}
				if fill := systemFills[key]; fill != nil {
					fill(args)
				}
				opts := pl.Ranks(ranks)
				for name, fn := range systemCallbacks[key] {
					opts = opts.Callback(name, fn)
				}
				var res *pl.RunResult
				if err == nil {
					res, err = pl.Run(prog, opts, args...)
				}
				if err == nil && res.Report().HasErrors() {
					// A protocol error (a race) makes results depend on the
					// schedule, so the stages are not compared.
					err = fmt.Errorf("protocol check: %s", res.Report().String())
				}
				if err == nil {
					var d pl.Difference
					if d, err = c.Differential(opts, args...); err == nil && !d.None() {
						err = fmt.Errorf("the stages compute differently from the program as written: %v", d)
					}
				}
				if outcome(t, key, "run", err) {
					works = append(works, key)
				}
			})
		}
	}
	var stale []string
	for key := range systemGaps {
		if !seen[key] {
			stale = append(stale, key)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("systemGaps names programs the system tests no longer have: %v", stale)
	}
	t.Logf("%d programs of %d files compile, run and agree at every stage; %d gaps listed", len(works), len(files), len(systemGaps))
}

var _ = pld.Sum // factories take reduce ops from Go as pld values
