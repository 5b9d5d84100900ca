package runtime_test

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

var updateResults = flag.Bool("update", false, "rewrite testdata/executor_results.golden")

// The executor's results, recorded: every program of the corpus at every
// stage of the pass pipeline, at P = 2, 3, 4, 8, gives the outputs and
// final signal cells (a digest of them) that the tree-walking executor gave
// for device code before the compiled executor replaced it. Regenerate
// with -update (what the compiled executor gives now) and review the diff:
// a line that changes is a program whose results changed.
func TestExecutorMatchesRecordedResults(t *testing.T) {
	got := executorResults(t)
	path := filepath.Join("testdata", "executor_results.golden")
	if *updateResults {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to record the results)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < min(len(wl), len(gl)); i++ {
		if wl[i] != gl[i] {
			t.Fatalf("results differ from the recorded ones:\nrecorded %s\nnow      %s", wl[i], gl[i])
		}
	}
	t.Fatalf("results differ from the recorded ones: %d lines recorded, %d now", len(wl), len(gl))
}

// executorResults runs the corpus and lists one digest per program, rank
// count and changed stage.
func executorResults(t *testing.T) []byte {
	var b strings.Builder
	for _, c := range diffCorpus() {
		for _, n := range []int{2, 3, 4, 8} {
			if n < c.minRanks {
				continue
			}
			comp, args, o := c.compile(t, n)
			for _, s := range comp.Stages() {
				if s.Name != "Input" && !s.Changed {
					continue
				}
				r := runWith(s.Program(), args, o)
				if r.err != nil {
					t.Fatalf("%s P=%d %s: the corpus program fails: %v", c.name, n, s.Name, r.err)
				}
				h := sha256.New()
				for _, out := range r.out {
					h.Write(out.Bytes())
				}
				fmt.Fprint(h, r.sigs)
				fmt.Fprintf(&b, "%-24s P=%d  %-34s %x\n", c.name, n, s.Name, h.Sum(nil)[:12])
			}
		}
	}
	return []byte(b.String())
}

// One source of truth per op: the compiled kernels an op's registry entry
// carries (RegisterKernel) give the bits of its generic semantics, for
// every program of the corpus at every changed stage at P = 2, 3, 4, 8.
func TestKernelsMatchGenericOps(t *testing.T) {
	eachCorpusRun(t, func(t *testing.T, comp *pl.Compiled, args []*tensor.Tensor, o runtime.RunOptions) {
		for _, s := range comp.Stages() {
			if s.Name != "Input" && !s.Changed {
				continue
			}
			exe, err := runtime.LoadGeneric(s.Program())
			if err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			want := runExe(exe, args, o)
			got := runWith(s.Program(), args, o)
			if want.err != nil || got.err != nil {
				t.Fatalf("%s: generic ops error %v, kernels error %v", s.Name, want.err, got.err)
			}
			for i := range want.out {
				if !bytes.Equal(want.out[i].Bytes(), got.out[i].Bytes()) {
					t.Fatalf("%s: output %d differs:\ngeneric ops %s\nkernels     %s", s.Name, i, want.out[i], got.out[i])
				}
			}
			if fmt.Sprint(want.sigs) != fmt.Sprint(got.sigs) {
				t.Fatalf("%s: signal cells differ:\ngeneric ops %v\nkernels     %v", s.Name, want.sigs, got.sigs)
			}
		}
	})
}

// The comparison above can fail: with a deliberately wrong kernel for
// tile.add (one more on every sum), the kernels and the generic ops
// disagree on the lowered mesh allreduce.
func TestKernelComparisonCatchesAWrongKernel(t *testing.T) {
	generic, _ := ir.TileAdd.Facet(runtime.FacetKey)
	runtime.RegisterKernel(ir.TileAdd, func(*ir.Call) runtime.OpFunc {
		return func(x *runtime.Exec, c *ir.Call, a []any) (any, error) {
			v, err := generic.(runtime.OpFunc)(x, c, a)
			if err != nil {
				return v, err
			}
			out, err := generic.(runtime.OpFunc)(x, c, []any{v, 1.0})
			return out, err
		}
	})
	// Afterwards the op has no kernel again (a builder that returns nil
	// leaves every call site on the generic semantics).
	defer runtime.RegisterKernel(ir.TileAdd, func(*ir.Call) runtime.OpFunc { return nil })
	const n = 2
	prog := allReduceMode(n, 100, pl.FP32, pld.Sum, "mesh")
	comp, err := pl.TryCompile(prog, pl.Ranks(n))
	if err != nil {
		t.Fatal(err)
	}
	args := hostArgs(t, prog.IR(), n, 3)
	o := runtime.RunOptions{Ranks: n, Watchdog: 20 * time.Second, MaxEvents: -1}
	exe, err := runtime.LoadGeneric(comp.Final())
	if err != nil {
		t.Fatal(err)
	}
	want, got := runExe(exe, args, o), runWith(comp.Final(), args, o)
	if want.err != nil || got.err != nil {
		t.Fatal(want.err, got.err)
	}
	if bytes.Equal(want.out[1].Bytes(), got.out[1].Bytes()) {
		t.Fatal("a wrong tile.add kernel gave the generic op's bits")
	}
}
