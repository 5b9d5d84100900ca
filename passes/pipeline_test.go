package passes_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/pto"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/verify"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// verifyHook fails the pipeline of passes.Table when the verifier finds
// anything after a pass.
func verifyHook() passes.Hook { return verifyHookFor(passes.Table()) }

// verifyHookFor is verifyHook for a pipeline of table; while the table says
// no call is nested (from FlattenCallExpr until a pass invalidates it), a
// nested call is a finding too.
func verifyHookFor(table []passes.Pass) passes.Hook {
	flatAfter, ssaAfter := map[string]bool{}, map[string]bool{}
	holds, ssa := false, false
	for _, p := range table {
		holds = (holds || slices.Contains(p.Establishes, passes.CallsFlattened)) && !slices.Contains(p.Invalidates, passes.CallsFlattened)
		flatAfter[p.Name] = holds
		// Before ConvertToSSA (after CtrlFlowTransform) the program reads
		// names as written: a loop uses what its body assigns later.
		ssa = ssa || slices.Contains(p.Establishes, passes.SSAForm)
		ssaAfter[p.Name] = ssa
	}
	inSSA := false // from ConvertToSSA on, whatever runs after it
	return passes.AfterEach("verify", func(s passes.Stage) error {
		inSSA = inSSA || ssaAfter[s.Name]
		if !inSSA {
			return nil
		}
		if ds := verify.Program(s.Program, verify.Options{SSA: true, Flat: flatAfter[s.Name]}); len(ds) > 0 {
			var msgs []string
			for _, d := range ds {
				msgs = append(msgs, d.String())
			}
			return fmt.Errorf("%s", strings.Join(msgs, "\n"))
		}
		return nil
	})
}

// stagesText renders every stage of a pipeline run for a golden file: the
// input, then each pass that changed the program (unchanged passes are
// listed, as a compiler explorer folds them).
func stagesText(stages []passes.Stage) string {
	var b strings.Builder
	for _, s := range stages {
		if !s.Changed {
			fmt.Fprintf(&b, "# ==== %s: unchanged\n\n", s.Name)
			continue
		}
		fmt.Fprintf(&b, "# ==== %s\n%s\n", s.Name, s.Text)
	}
	return b.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden %s: run go test ./passes -update", path)
	require.Equal(t, string(want), got, "golden %s differs (go test ./passes -update, then review the diff)", path)
}

// Every test program through the whole pipeline with the verifier after
// each pass, against a golden of every stage.
func TestPipelineStagesGolden(t *testing.T) {
	for _, tp := range testPrograms() {
		t.Run(tp.name, func(t *testing.T) {
			n := tp.staticN
			if n == 0 {
				n = 2
			}
			pp := passes.NewPipeline(tp.build(n).IR(), verifyHook())
			_, err := pp.Run()
			require.NoError(t, err)
			golden(t, tp.name+".stages.py", stagesText(pp.Stages()))
			// Every stage (MemRefs, window buffers, ctx parameters
			// included) survives serialization.
			for _, s := range pp.Stages() {
				require.NoError(t, ir.RoundTripCheck(s.Program), "round trip after %s", s.Name)
			}
		})
	}
}

// Running any pass a second time changes nothing.
func TestPassesIdempotent(t *testing.T) {
	for _, tp := range testPrograms() {
		n := tp.staticN
		if n == 0 {
			n = 2
		}
		p := tp.build(n).IR()
		for _, ps := range passes.Table() {
			q, err := ps.Run(p)
			require.NoError(t, err, "%s on %s", ps.Name, tp.name)
			again, err := ps.Run(q)
			require.NoError(t, err)
			require.Equal(t, printProgram(q), printProgram(again), "%s is not idempotent on %s", ps.Name, tp.name)
			p = q
		}
	}
}

// Differential run: the program as written and the program after every
// pass that changed it compute the same outputs on the simulator, at several
// rank counts, and the signal cells end as the input program leaves them.
func TestLoweredProgramsRunLikeTheInput(t *testing.T) {
	sim := runtime.NewSimulator()
	for _, tp := range testPrograms() {
		// Programs with a static rank count are rebuilt for each count.
		for _, n := range []int{2, 3, 4, 8} {
			t.Run(fmt.Sprintf("%s/P=%d", tp.name, n), func(t *testing.T) {
				in := tp.build(n).IR()
				pp := passes.NewPipeline(in, verifyHook())
				_, err := pp.Run()
				require.NoError(t, err)
				args := func() []*tensor.Tensor {
					rows := tp.xRows
					if rows == 0 {
						rows = n
					}
					w := 16
					yRows := n
					switch tp.name {
					case "quickstart":
						rows, w, yRows = 1, 256, 1
					case "allreduce_ring":
						w, yRows = 96, 1
					case "allreduce_ring_chunked":
						w, yRows = 3*8192, 1
					case "allreduce_chunked":
						w, yRows = 10000, 1
					case "allreduce_fp16_chunked":
						w, yRows = 9000, 1
					}
					x := tensor.Randn(int64(7*n+len(tp.name)), n, rows, w)
					yShape := []int{n, yRows, w}
					if strings.Contains(tp.name, "fp16") {
						x = x.To(ir.FP16)
						return []*tensor.Tensor{x, tensor.Zeros(ir.FP16, yShape...)}
					}
					return []*tensor.Tensor{x, tensor.Zeros(ir.FP32, yShape...)}
				}
				a, b := args(), args()
				ra, err := sim.Run(context.Background(), in, a, runtime.RunOptions{Ranks: n})
				require.NoError(t, err, "input program")
				// Every stage a pass changed runs to the input's outputs.
				var rb *runtime.Result
				for _, st := range pp.Stages()[1:] {
					if !st.Changed {
						continue
					}
					b = args()
					rb, err = sim.Run(context.Background(), st.Program, b, runtime.RunOptions{Ranks: n})
					require.NoError(t, err, "the program after %s", st.Name)
					require.True(t, a[1].AllClose(b[1], 1e-5, 1e-5), "outputs differ after %s:\ninput:   %s\nlowered: %s", st.Name, a[1], b[1])
				}
				// The lowering adds no lasting signal traffic: every cell ends
				// where the program as written leaves it.
				require.Equal(t, signalValues(ra), signalValues(rb), "signal cells after the run (input vs lowered)")
			})
		}
	}
}

func printProgram(p *ir.Program) string { return printer.Program(p) }

func signalValues(r *runtime.Result) map[string]int64 {
	out := map[string]int64{}
	for _, c := range r.Signals {
		if c.Value != 0 {
			out[fmt.Sprintf("rank %d %s%v", c.Rank, c.Buffer, c.Offset)] = c.Value
		}
	}
	return out
}

// Every test program, fully lowered, generates PTO whose generic form MLIR's
// own parser and verifier accept (Debian's mlir-opt, unregistered dialects
// allowed): the pipeline's output is well-formed for codegen.
func TestLoweredProgramsEmitValidMLIR(t *testing.T) {
	opt := ""
	for _, name := range []string{"mlir-opt", "mlir-opt-16"} {
		if p, err := exec.LookPath(name); err == nil {
			opt = p
			break
		}
	}
	require.NotEmpty(t, opt, "mlir-opt is missing: the test command installs Debian's mlir-16-tools")
	for _, tp := range testPrograms() {
		n := tp.staticN
		if n == 0 {
			n = 2
		}
		st, err := passes.NewPipeline(tp.build(n).IR(), verifyHook()).Run()
		require.NoError(t, err, tp.name)
		mods, err := pto.Emit(st.Program, pto.Options{Generic: true})
		require.NoError(t, err, tp.name)
		require.NotEmpty(t, mods, tp.name)
		for _, m := range mods {
			cmd := exec.Command(opt, "--allow-unregistered-dialect", "-o", os.DevNull)
			cmd.Stdin = strings.NewReader(m.Text)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s/%s: mlir-opt rejected the module:\n%s", tp.name, m.Function, out)
		}
	}
}
