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
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// TestOutlinedScopes: the programs of scopes.py after the two outlining
// passes, as printed, against testdata/authoring/scopes.outlined.golden:
// each scope a function (name_hint or <parent>_incore_<n>, a hierarchy
// scope <parent>_<level>_<role>_<n>), its parameters what the body reads
// from before it with directions from what it stores into, each scope a
// call whose stored tensors get fresh names that later statements use.
func TestOutlinedScopes(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "scopes.py"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, name := range mod.Names() {
		prog, err := mod.Program(name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := pl.TryCompile(prog, pl.Ranks(2))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		st, ok := c.Stage("OutlineIncoreScopes")
		if !ok || !st.Changed {
			t.Fatalf("%s: OutlineIncoreScopes changed nothing", name)
		}
		b.WriteString(st.Text)
		b.WriteString("\n")
	}
	path := filepath.Join("testdata", "authoring", "scopes.outlined.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./pyfront -run TestOutlinedScopes -update writes it)", err)
	}
	if b.String() != string(want) {
		t.Fatalf("the outlined programs differ from %s (go test ./pyfront -run TestOutlinedScopes -update, then review the diff):\n%s", path, b.String())
	}
}

// A CORE_GROUP scope belongs in an orchestrator: in a kernel it is an
// error that names the function, not a silent no-op.
func TestScopeInKernelIsAnError(t *testing.T) {
	src := `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [8, 16])
            pl.store(t, [0, 0], y)
`
	mod, err := pl.ParsePython(src)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program("P")
	if err != nil {
		t.Fatal(err)
	}
	_, err = pl.TryCompile(prog, pl.Ranks(2))
	if err == nil || !strings.Contains(err.Error(), "InCore function k holds a pl.at(level=pl.Level.CORE_GROUP) scope: only Opaque and Orchestration functions may") {
		t.Fatalf("got %v", err)
	}
}

// Scopes survive ptorepl's JSON form: every scopes.py program, as written,
// unmarshals to a structurally equal program.
func TestScopesSerialize(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "scopes.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range mod.Names() {
		prog, err := mod.Program(name)
		if err != nil {
			t.Fatal(err)
		}
		data, err := ir.MarshalProgram(prog.IR())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(string(data), `"Scope"`) {
			t.Fatalf("%s: no scope in %s", name, data)
		}
		back, err := ir.UnmarshalProgram(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := ir.AssertStructuralEqual(prog.IR(), back, true); err != nil {
			t.Fatalf("%s: the program read back differs: %v", name, err)
		}
	}
}

// TestJitSamples: @pl.jit entries with bare pl.Tensor parameters take the
// shapes and dtypes of the torch tensors the __main__ block passes them; a
// kernel with bare parameters takes its first call's argument types. Each
// program runs, as written and compiled, to what the file asserts.
func TestJitSamples(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "jit_samples.py"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(mod.Names(), " "); got != "add_scaled twice activations row_softmax col_ops split_k parallel_k mixed_bias swap_halves swap_rows_by_hand plus_quarter plus_half" {
		t.Fatalf("names %q, want the two entries", got)
	}
	for _, c := range []struct {
		entry string
		want  func(args []*tensor.Tensor, i, j int) (got, want float64)
	}{
		{"add_scaled", func(a []*tensor.Tensor, i, j int) (float64, float64) {
			return a[2].At(i, j), float64(float32(float32(a[0].At(i, j)+a[1].At(i, j)) * 2))
		}},
		{"twice", func(a []*tensor.Tensor, i, j int) (float64, float64) {
			return a[1].At(i, j), float64(float32(a[0].At(i, j) * 2))
		}},
		{"plus_quarter", func(a []*tensor.Tensor, i, j int) (float64, float64) {
			return a[1].At(i, j), float64(float32(a[0].At(i, j) + 0.25))
		}},
		{"plus_half", func(a []*tensor.Tensor, i, j int) (float64, float64) {
			return a[1].At(i, j), float64(float32(a[0].At(i, j) + 0.5))
		}},
		{"swap_halves", func(a []*tensor.Tensor, i, j int) (float64, float64) {
			return a[1].At(i, j), a[0].At(i, (j+16)%32)
		}},
		{"swap_rows_by_hand", func(a []*tensor.Tensor, i, j int) (float64, float64) {
			return a[1].At(i, j), a[0].At(i, (j+16)%32)
		}},
		{"split_k", func(a []*tensor.Tensor, i, j int) (float64, float64) {
			if j >= 16 {
				return 0, 0 // c is [64, 16]
			}
			sum := 0.0
			for q := 0; q < 32; q++ {
				if q == 16 {
					sum = float64(float32(sum))
				}
				sum += a[0].At(i, q) * a[1].At(q, j)
			}
			return a[2].At(i, j), float64(float32(sum))
		}},
		{"mixed_bias", func(a []*tensor.Tensor, i, j int) (float64, float64) {
			if j >= 16 {
				return 0, 0 // out is [64, 16]
			}
			sum := 0.0
			for q := 0; q < 32; q++ {
				sum += a[0].At(i, q) * a[1].At(q, j)
			}
			return a[3].At(i, j), float64(float32(float64(float32(sum)) + a[2].At(i, j)))
		}},
		{"parallel_k", func(a []*tensor.Tensor, i, j int) (float64, float64) {
			if j >= 16 {
				return 0, 0 // c is [64, 16]
			}
			c := 0.0
			for k0 := 0; k0 < 32; k0 += 16 {
				partial := 0.0
				for q := k0; q < k0+16; q++ {
					partial += a[0].At(i, q) * a[1].At(q, j)
				}
				c = float64(float32(c + float64(float32(partial))))
			}
			return a[2].At(i, j), c
		}},
		{"col_ops", func(a []*tensor.Tensor, i, j int) (float64, float64) {
			f := func(v float64) float64 { return float64(float32(v)) }
			x, w := a[0].At(i, j), a[1].At(0, j)
			r := f(f(f(f(x+w)*w)-w) / w)
			return a[2].At(i, j), f(r + w)
		}},
		{"row_softmax", func(a []*tensor.Tensor, i, j int) (float64, float64) {
			f := func(v float64) float64 { return float64(float32(v)) }
			mx, mn, sum := math.Inf(-1), math.Inf(1), 0.0
			for k := 0; k < 32; k++ {
				mx, mn = math.Max(mx, a[0].At(i, k)), math.Min(mn, a[0].At(i, k))
			}
			for k := 0; k < 32; k++ {
				sum += f(math.Exp(f(a[0].At(i, k) - mx)))
			}
			s := f(sum)
			e := f(math.Exp(f(a[0].At(i, j) - mx)))
			return a[1].At(i, j), f(f(f(e/s)+mn) * s)
		}},
		{"activations", func(a []*tensor.Tensor, i, j int) (float64, float64) {
			f := func(v float64) float64 { return float64(float32(v)) }
			x := a[0].At(i, j)
			s := f(1 / f(f(math.Exp(-x))+1))
			r := math.Max(f(s-0.5), 0)
			l := f(math.Log(f(math.Sqrt(f(math.Abs(x) + 1)))))
			return a[1].At(i, j), f(r + l)
		}},
	} {
		prog, err := mod.Program(c.entry)
		if err != nil {
			t.Fatal(err)
		}
		if text := prog.String(); !strings.Contains(text, "pl.Tensor[[64, 32], pl.FP32]") {
			t.Fatalf("%s is not specialized to [64, 32] FP32:\n%s", c.entry, text)
		}
		comp, err := pl.TryCompile(prog, pl.Ranks(1))
		if err != nil {
			t.Fatalf("%s: %v", c.entry, err)
		}
		runBothWays(t, prog, comp, 5, func(args []*tensor.Tensor, compiled bool) {
			for i := 0; i < 64; i++ {
				for j := 0; j < 32; j++ {
					if got, want := c.want(args, i, j); got != want {
						t.Fatalf("%s (compiled %v): [%d, %d] = %v, want %v", c.entry, compiled, i, j, got, want)
					}
				}
			}
		})
	}
}

// runBothWays runs prog at one rank on seeded inputs as written, then
// compiled (comp), and hands check each run's host tensors.
func runBothWays(t *testing.T, prog *pl.Program, comp *pl.Compiled, seed int64, check func(args []*tensor.Tensor, compiled bool)) {
	t.Helper()
	for _, compiled := range []bool{false, true} {
		args, _, err := runtime.HostArgs(prog.IR(), 1, seed)
		if err != nil {
			t.Fatal(err)
		}
		if compiled {
			_, err = comp.Run(pl.Ranks(1), args...)
		} else {
			_, err = pl.Run(prog, pl.Ranks(1), args...)
		}
		if err != nil {
			t.Fatalf("%s (compiled %v): %v", prog.IR().Name, compiled, err)
		}
		check(args, compiled)
	}
}

// TestUpstreamBeginnerExamples reads upstream's examples/beginner 01-06,
// intermediate 01-06, advanced 01-03 and models/01_ffn.py (beside the PTOREPL_PYPTO_EXAMPLES
// directory) unmodified: @pl.jit functions with bare pl.Tensor
// parameters, kernels in with pl.at scopes, specialized on the __main__
// block's torch tensors. Each entry runs, as written and compiled, to what
// the file's own assert says (computed here in FP32, one operation at a
// time, as the kernel does).
func TestUpstreamBeginnerExamples(t *testing.T) {
	dir := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if dir == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to read examples/beginner beside it (testdata/authoring/jit_samples.py runs regardless)")
	}
	f := func(v float64) float64 { return float64(float32(v)) }
	sigmoid := func(v float64) float64 { return f(1 / f(f(math.Exp(f(v*-1)))+1)) }
	// elem lifts an elementwise reference to the inputs' (i, j) elements.
	elem := func(g func(in []float64) float64) func(ins []*tensor.Tensor, i, j int) float64 {
		return func(ins []*tensor.Tensor, i, j int) float64 {
			in := make([]float64, len(ins))
			for k, x := range ins {
				in[k] = x.At(i, j)
			}
			return g(in)
		}
	}
	add := elem(func(in []float64) float64 { return f(in[0] + in[1]) })
	mul := elem(func(in []float64) float64 { return f(in[0] * in[1]) })
	softmax := func(ins []*tensor.Tensor, i, j int) float64 {
		x, cols := ins[0], ins[0].Shape()[1]
		mx, sum := math.Inf(-1), 0.0
		for k := 0; k < cols; k++ {
			mx = math.Max(mx, x.At(i, k))
		}
		for k := 0; k < cols; k++ {
			sum += f(math.Exp(f(x.At(i, k) - mx)))
		}
		return f(f(math.Exp(f(x.At(i, j)-mx))) / f(sum))
	}
	// rowSum is the FP32 sum of a row of g's values, folded in float64.
	rowSum := func(i, cols int, g func(i, k int) float64) float64 {
		sum := 0.0
		for k := 0; k < cols; k++ {
			sum += g(i, k)
		}
		return f(sum)
	}
	rmsNorm := func(ins []*tensor.Tensor, i, j int) float64 {
		x, gamma := ins[0], ins[1]
		ms := f(rowSum(i, 64, func(i, k int) float64 { return f(x.At(i, k) * x.At(i, k)) }) * 0.015625)
		rms := f(math.Sqrt(f(ms + 1e-5)))
		return f(f(x.At(i, j)/rms) * gamma.At(0, j))
	}
	layerNorm := func(ins []*tensor.Tensor, i, j int) float64 {
		x, gamma, beta := ins[0], ins[1], ins[2]
		mean := f(rowSum(i, 64, func(i, k int) float64 { return x.At(i, k) }) * 0.015625)
		centered := func(i, k int) float64 { return f(x.At(i, k) - mean) }
		variance := f(rowSum(i, 64, func(i, k int) float64 { return f(centered(i, k) * centered(i, k)) }) * 0.015625)
		std := f(math.Sqrt(f(variance + 1e-5)))
		return f(f(f(centered(i, j)/std)*gamma.At(0, j)) + beta.At(0, j))
	}
	// matmul is a @ b summed in float64, rounded to FP32 after the first
	// split K (0: none) and at the end, as matmul then matmul_acc do.
	matmul := func(split int) func(ins []*tensor.Tensor, i, j int) float64 {
		return func(ins []*tensor.Tensor, i, j int) float64 {
			a, b := ins[0], ins[1]
			k := a.Shape()[1]
			sum := 0.0
			for q := 0; q < k; q++ {
				if q == split && split > 0 {
					sum = f(sum)
				}
				sum += a.At(i, q) * b.At(q, j)
			}
			return f(sum)
		}
	}
	matmulBias := func(ins []*tensor.Tensor, i, j int) float64 {
		a, b, bias := ins[0], ins[1], ins[2]
		sum := 0.0
		for q := 0; q < a.Shape()[1]; q++ {
			sum += a.At(i, q) * b.At(q, j)
		}
		return f(f(sum) + bias.At(i, j))
	}
	leftFromSrc := func(ins []*tensor.Tensor, i, j int) float64 {
		if j < 16 {
			return ins[1].At(i, j)
		}
		return ins[0].At(i, j)
	}
	for _, c := range []struct {
		file, entry string
		want        func(ins []*tensor.Tensor, i, j int) float64 // the output's (i, j) element
	}{
		{"beginner/01_hello_world.py", "tile_add", add},
		{"beginner/02_elementwise.py", "tile_add_128", add},
		{"beginner/02_elementwise.py", "tile_mul_128", mul},
		{"beginner/02_elementwise.py", "tile_add_64", add},
		{"beginner/02_elementwise.py", "tile_mul_64", mul},
		{"beginner/02_elementwise.py", "chunked_add", add},
		{"beginner/03_scalar_ops.py", "fused_add_scale", elem(func(in []float64) float64 { return f(f(in[0]+in[1]) * 2) })},
		{"beginner/04_activation.py", "fused_add_relu", elem(func(in []float64) float64 { return math.Max(f(in[0]+in[1]), 0) })},
		{"beginner/04_activation.py", "silu", elem(func(in []float64) float64 { return f(in[0] * sigmoid(in[0])) })},
		{"beginner/04_activation.py", "gelu", elem(func(in []float64) float64 { return f(in[0] * sigmoid(f(in[0]*f(1.702)))) })},
		{"beginner/04_activation.py", "swiglu", elem(func(in []float64) float64 { return f(f(in[0]*sigmoid(in[0])) * in[1]) })},
		{"beginner/04_activation.py", "geglu", elem(func(in []float64) float64 { return f(f(in[0]*sigmoid(f(in[0]*f(1.702)))) * in[1]) })},
		{"intermediate/02_softmax.py", "tile_softmax", softmax},
		{"intermediate/03_normalization.py", "rms_norm", rmsNorm},
		{"intermediate/03_normalization.py", "layer_norm", layerNorm},
		{"beginner/06_concat.py", "tile_concat_32x32", func(ins []*tensor.Tensor, i, j int) float64 {
			if j < 16 {
				return ins[0].At(i, j)
			}
			return ins[1].At(i, j-16)
		}},
		{"beginner/05_matmul.py", "matmul_64", matmul(0)},
		{"intermediate/04_matmul_acc.py", "matmul_acc_64", matmul(32)},
		// K in four slices of 128, one tensor-level pl.matmul each, added
		// into the zeroed c one after another.
		{"advanced/01_split_k.py", "matmul_split_k", func(ins []*tensor.Tensor, i, j int) float64 {
			a, b := ins[0], ins[1]
			c := 0.0
			for k0 := 0; k0 < 512; k0 += 128 {
				partial := 0.0
				for q := k0; q < k0+128; q++ {
					partial += a.At(i, q) * b.At(q, j)
				}
				c = f(c + f(partial))
			}
			return c
		}},
		// pl.tile.assemble: src into x's left columns, whole, row by row
		// (pl.slice of a tile) or in a double loop; a narrow src repeated
		// across x.
		{"intermediate/05_assemble.py", "tile_assemble_vec", leftFromSrc},
		{"intermediate/05_assemble.py", "tile_assemble_row_by_row", leftFromSrc},
		{"intermediate/05_assemble.py", "tile_assemble_double_loop", leftFromSrc},
		{"intermediate/05_assemble.py", "tile_assemble_loop_col_broadcast", func(ins []*tensor.Tensor, i, j int) float64 { return ins[1].At(i, j%8) }},
		{"intermediate/05_assemble.py", "tile_assemble_double_loop_broadcast", func(ins []*tensor.Tensor, i, j int) float64 { return ins[1].At(i%16, j%16) }},
		{"intermediate/05_assemble.py", "tile_assemble_acc_mat", nil},
		// a @ b + bias: in two scopes (the Acc result stored, then read by
		// the vector scope), and as one mixed scope split either way (the
		// Acc tile moved to Vec for the add).
		{"advanced/03_mixed_kernel.py", "staged_matmul_bias", matmulBias},
		{"advanced/03_mixed_kernel.py", "mixed_matmul_bias", matmulBias},
		{"advanced/03_mixed_kernel.py", "mixed_matmul_bias_lr", matmulBias},
		// Tensor-level pl.matmul into DDR (upstream tiles it for L0c; the
		// simulator computes the whole product).
		{"advanced/02_auto_tile_matmul.py", "ddr_split_k", matmul(0)},
		{"advanced/02_auto_tile_matmul.py", "ddr_full_k", matmul(0)},
		// No reference of ours: the compiled program must agree with the
		// program as written at every stage.
		{"advanced/02_auto_tile_matmul.py", "mat_split_k", nil},
		{"advanced/02_auto_tile_matmul.py", "mat_full_k", nil},
		{"advanced/02_auto_tile_matmul.py", "fits_l0c_full_k", nil},
		{"advanced/02_auto_tile_matmul.py", "fits_l0c_split_k", nil},
		{"intermediate/01_fused_linear.py", "fused_matmul_bias", nil},
		{"intermediate/01_fused_linear.py", "fused_linear_relu", nil},
		{"models/01_ffn.py", "ffn_gelu", nil},
		{"models/01_ffn.py", "ffn_swiglu", nil},
		{"models/01_ffn.py", "ffn_relu", nil},
	} {
		t.Run(c.file+"/"+c.entry, func(t *testing.T) {
			mod, err := pl.LoadPython(filepath.Join(dir, "..", c.file))
			if err != nil {
				t.Fatal(err)
			}
			prog, err := mod.Program(c.entry)
			if err != nil {
				t.Fatal(err)
			}
			comp, err := pl.TryCompile(prog, pl.Ranks(1))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := comp.PTOText(); err != nil {
				t.Fatal(err)
			}
			if c.want == nil {
				args, _, err := runtime.HostArgs(prog.IR(), 1, 9)
				if err != nil {
					t.Fatal(err)
				}
				d, err := comp.Differential(pl.Ranks(1), args...)
				if err != nil {
					t.Fatal(err)
				}
				if !d.None() {
					t.Fatalf("the stages compute differently from the program as written: %v", d)
				}
				return
			}
			runBothWays(t, prog, comp, 9, func(args []*tensor.Tensor, compiled bool) {
				ins, out := args[:len(args)-1], args[len(args)-1]
				shape := out.Shape()
				for i := 0; i < shape[0]; i++ {
					for j := 0; j < shape[1]; j++ {
						if got, want := out.At(i, j), c.want(ins, i, j); got != want {
							t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
						}
					}
				}
			})
		})
	}
}

// Python arithmetic on compile-time numbers folds as Python's does: an
// integer to a negative power is a float, and a float to a power too (as
// upstream's llama example computes head_dim ** -0.5 in its factory).
func TestPythonPowFolds(t *testing.T) {
	src := `import pypto.language as pl

def build(head_dim: int):
    scale = head_dim ** -0.5
    half = 2 ** -1
    big = 1.5 ** 2 >= 2.25

    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]):
            t = pl.load(x, [0, 0], [1, 8])
            if big:
                pl.store(pl.mul(pl.mul(t, scale), half), [0, 0], y)

    return P
`
	mod, err := pl.ParsePython(src)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Call("build", 64)
	if err != nil {
		t.Fatal(err)
	}
	text := prog.String()
	for _, want := range []string{"pl.tile.muls(t, 0.125)", ", 0.5)"} {
		if !strings.Contains(text, want) {
			t.Fatalf("want %s in\n%s", want, text)
		}
	}
}

// A [16] window passed as a [1, 16] parameter, as upstream's calls allow
// (they check the arity, not the shape): the kernel sees the same memory
// in the parameter's shape, as written and compiled.
func TestArgumentOfAnotherShape(t *testing.T) {
	src := `import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class Reshaped:
    @pl.function(type=pl.FunctionType.InCore)
    def roundtrip(self, x: pl.Tensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[1, 16], pl.FP32]], win: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]]) -> pl.Tensor[[1, 16], pl.FP32]:
        win = pl.store(pl.load(x, [0, 0], [1, 16]), [0, 0], win)
        return pl.store(pl.load(win, [0, 0], [1, 16]), [0, 0], y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, xs: pl.Tensor[[NR, 1, 16], pl.FP32], ys: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32]]):
        buf = pld.alloc_window_buffer(16 * 4)
        for r in pl.range(pld.world_size()):
            win = pld.window(buf, [16], dtype=pl.FP32)
            self.roundtrip(xs[r], ys[r], win, device=r)
`
	mod, err := pl.ParsePython(src)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program("Reshaped")
	if err != nil {
		t.Fatal(err)
	}
	comp, err := pl.TryCompile(prog, pl.Ranks(2))
	if err != nil {
		t.Fatal(err)
	}
	for _, compiled := range []bool{false, true} {
		args, _, err := runtime.HostArgs(prog.IR(), 2, 3)
		if err != nil {
			t.Fatal(err)
		}
		if compiled {
			_, err = comp.Run(pl.Ranks(2), args...)
		} else {
			_, err = pl.Run(prog, pl.Ranks(2), args...)
		}
		if err != nil {
			t.Fatalf("compiled %v: %v", compiled, err)
		}
		if !args[1].Equal(args[0]) {
			t.Fatalf("compiled %v: y differs from x:\n%v\n%v", compiled, args[1], args[0])
		}
	}
}

// Kernels called through tables of cases (a loop over (kernel, size)
// pairs, a dict indexed by a run-time mode, a list of (name, kernel, args)
// spread into the call, a dict's items) are specialized on what each case
// passes, and run to twice (or the square of) their input.
func TestJitTablesOfCases(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "jit_cases.py"))
	if err != nil {
		t.Fatal(err)
	}
	lit, err := mod.Program("from_literal")
	if err != nil {
		t.Fatal(err)
	}
	if want := "x: pl.Tensor[[2, 3], pl.FP32]"; !strings.Contains(lit.String(), want) {
		t.Fatalf("from_literal: want %s in\n%s", want, lit)
	}
	ints, err := mod.Program("int_literal")
	if err != nil {
		t.Fatal(err)
	}
	if want := "x: pl.Tensor[[2, 2], pl.INT32]"; !strings.Contains(ints.String(), want) {
		t.Fatalf("int_literal: want %s in\n%s", want, ints)
	}
	for entry, cols := range map[string]int{"double_a": 32, "double_b": 48, "by_mode_add": 8, "by_mode_mul": 8, "listed": 24, "keyed": 40} {
		prog, err := mod.Program(entry)
		if err != nil {
			t.Fatalf("%s: %v", entry, err)
		}
		if want := fmt.Sprintf("x: pl.Tensor[[16, %d], pl.FP32]", cols); !strings.Contains(prog.String(), want) {
			t.Fatalf("%s: want %s in\n%s", entry, want, prog)
		}
		comp, err := pl.TryCompile(prog, pl.Ranks(1))
		if err != nil {
			t.Fatalf("%s: %v", entry, err)
		}
		runBothWays(t, prog, comp, 3, func(args []*tensor.Tensor, compiled bool) {
			for i := 0; i < 16; i++ {
				for j := 0; j < cols; j++ {
					x := args[0].At(i, j)
					want := float64(float32(x + x))
					if entry == "by_mode_mul" {
						want = float64(float32(x * x))
					}
					if got := args[1].At(i, j); got != want {
						t.Fatalf("%s (compiled %v): [%d, %d] = %v, want %v", entry, compiled, i, j, got, want)
					}
				}
			}
		})
	}
}

// A scope's optimizations print and read back with the scope, and
// OutlineIncoreScopes stamps them on the kernel as attrs.
func TestScopeOptimizations(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "jit_samples.py"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program("mixed_bias")
	if err != nil {
		t.Fatal(err)
	}
	if want := `optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)], name_hint="mixed"`; !strings.Contains(prog.String(), want) {
		t.Fatalf("want %s in\n%s", want, prog)
	}
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	if err != nil {
		t.Fatal(err)
	}
	k := comp.Final().Function("mixed")
	if k == nil || k.Attrs.Int("split", 0) != 1 || k.Attrs.Int("slot_num", 0) != 2 {
		t.Fatalf("the outlined kernel's attrs: %v", k)
	}
	bad, err := pl.ParsePython(`import pypto.language as pl

@pl.program
class P:
    @pl.function
    def f(self, x: pl.Tensor[[4], pl.FP32]):
        with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
            pass
`)
	if err == nil {
		_, err = bad.Program("P")
	}
	if err == nil || !strings.Contains(err.Error(), "optimizations= applies to an InCore scope") {
		t.Fatalf("optimizations= on a hierarchy scope: %v", err)
	}
}

// TestJitScriptCalls: a script that calls its @pl.jit kernels at module
// level (no __main__ block), with sliced samples, a loop over kernels and
// a helper handed the kernel and a row count, sizes each kernel from its
// first call; each runs, as written and compiled, to what it computes.
func TestJitScriptCalls(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "script_calls.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		entry string
		rows  int
		f     func(x float64) float64
	}{
		{"double", 64, func(x float64) float64 { return float64(float32(2 * x)) }},
		{"negate", 64, func(x float64) float64 { return -x }},
		{"whole_plus_one", 128, func(x float64) float64 { return float64(float32(x + 1)) }},
	} {
		prog, err := mod.Program(c.entry)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("a: pl.Tensor[[%d, 64], pl.FP32], c: pl.Out[pl.Tensor[[%d, 64], pl.FP32]]", c.rows, c.rows)
		if !strings.Contains(prog.String(), want) {
			t.Fatalf("%s is not sized by its first call (want %s):\n%s", c.entry, want, prog)
		}
		comp, err := pl.TryCompile(prog, pl.Ranks(1))
		if err != nil {
			t.Fatal(err)
		}
		for _, compiled := range []bool{false, true} {
			x, out := tensor.Randn(9, c.rows, 64), tensor.Zeros(ir.FP32, c.rows, 64)
			runEither(t, c.entry, prog, comp, compiled, x, out)
			for _, ij := range [][2]int{{0, 0}, {c.rows - 1, 63}, {5, 17}} {
				if got, want := out.At(ij[0], ij[1]), c.f(x.At(ij[0], ij[1])); got != want {
					t.Fatalf("%s compiled %v: c%v = %v, want %v", c.entry, compiled, ij, got, want)
				}
			}
		}
	}
}
