//go:build cgo

package pyfront_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// Harness test cases (harness_cases.py): a PTOTestCase subclass is a
// factory named after it; Call binds its __init__ parameters, runs the
// assignments the class body, its __init__ and the bases' __init__ (through
// super().__init__, keywords passed on with **kw) make to self, and builds
// what get_program returns.
func TestHarnessCases(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "harness_cases.py"))
	if err != nil {
		t.Fatal(err)
	}
	want := "Negate build_rows ScaleCase NarrowScaleCase NegateCase TableCase RowsCase PaddedRowsCase DeviceCase DoubledRowsCase TableBuilderCase"
	if got := strings.Join(mod.Names(), " "); got != want {
		t.Fatalf("names %q, want %q (a class without get_program is no case)", got, want)
	}
	for _, n := range []string{"ScaleCase", "NarrowScaleCase", "RowsCase"} {
		if !mod.IsFactory(n) {
			t.Fatalf("%s is not a factory", n)
		}
	}
	// Printed, a case whose parameters all have defaults shows what they
	// build; one with a required parameter is listed.
	printed := mod.String()
	for _, want := range []string{"# test case ScaleCase with its defaults (mod.Call(\"ScaleCase\", ...) for others)\n# pypto.program: ScaleProgram",
		"# factory RowsCase: call it with mod.Call(\"RowsCase\", ...)"} {
		if !strings.Contains(printed, want) {
			t.Fatalf("the module prints no %q:\n%s", want, printed)
		}
	}

	// factor_name binds positionally; the shapes come from the base's
	// defaults, the factor from the module's merged dict.
	for _, c := range []struct {
		args   []interface{}
		factor float64
	}{{nil, 2}, {[]interface{}{"triple"}, 3}} {
		prog, comp := calledCompiled(t, mod, 1, "ScaleCase", c.args...)
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Randn(1, 16, 32), tensor.Zeros(ir.FP32, 16, 32)}
		}, func(a []*tensor.Tensor, compiled bool) {
			for i := 0; i < 16; i++ {
				for j := 0; j < 32; j++ {
					if got, want := a[1].At(i, j), f32(c.factor*a[0].At(i, j)); got != want {
						t.Fatalf("factor %v, compiled %v: out[%d, %d] = %v, want %v", c.factor, compiled, i, j, got, want)
					}
				}
			}
		})
	}

	// Two levels of super().__init__: the valid shape, the 32-row output
	// and the factor all come from NarrowScaleCase's call.
	prog, err := mod.Call("NarrowScaleCase")
	if err != nil {
		t.Fatal(err)
	}
	if s := prog.String(); !strings.Contains(s, "pl.Tensor[[32, 32], pl.FP32]") || !strings.Contains(s, "valid_shape=[8, 16]") {
		t.Fatalf("NarrowScaleCase did not take its base's parameters:\n%s", s)
	}
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	if err != nil {
		t.Fatal(err)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(2, 16, 32), tensor.Zeros(ir.FP32, 32, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for _, at := range [][2]int{{0, 0}, {7, 15}} {
			if got, want := a[1].At(at[0], at[1]), f32(3*a[0].At(at[0], at[1])); got != want {
				t.Fatalf("compiled %v: out%v = %v, want %v", compiled, at, got, want)
			}
		}
		if got := a[1].At(31, 31); got != 0 {
			t.Fatalf("compiled %v: out[31, 31] = %v, want 0 (rows past the input are not stored)", compiled, got)
		}
	})

	// A case returning a module-level program, directly or through a class
	// attribute, returns that program.
	negate, err := mod.Program("Negate")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"NegateCase", "TableCase"} {
		p, err := mod.Call(n)
		if err != nil {
			t.Fatal(err)
		}
		if p.IR() != negate.IR() {
			t.Fatalf("%s built a program other than Negate", n)
		}
	}

	// A required parameter, and a call through a module factory.
	if _, err := mod.Call("RowsCase"); err == nil || !strings.Contains(err.Error(), "RowsCase.__init__: missing argument rows (no default)") {
		t.Fatalf("RowsCase without rows: %v", err)
	}
	rows, err := mod.Call("RowsCase", 8)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rows.String(), "pl.Tensor[[8, 32], pl.FP32]") {
		t.Fatalf("RowsCase(8):\n%s", rows)
	}
	// A helper method of the case's class (or a base) computes a value
	// get_program uses: self._padded(extra=8).
	padded, err := mod.Call("PaddedRowsCase", 8)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(padded.String(), "pl.Tensor[[16, 32], pl.FP32]") {
		t.Fatalf("PaddedRowsCase(8):\n%s", padded)
	}
	// A factory reached through a table (_BUILDERS[self.kind](rows)), a
	// default argument that calls harness Python (RunConfig(...)) carried
	// unread, and the tests that build it with torch dtypes for ids.
	table, err := mod.Call("TableBuilderCase", "rows", 12)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "pl.Tensor[[12, 32], pl.FP32]") {
		t.Fatalf("TableBuilderCase(rows, 12):\n%s", table)
	}
	tests := mod.Tests()
	if got := strings.Join(tests, " "); !strings.Contains(got, "test_table[4-dtype0] test_table[4-dtype1] test_table[12-dtype0] test_table[12-dtype1]") {
		t.Fatalf("tests: %s", got)
	}
	if p, err := mod.Program("test_table[12-dtype1]"); err != nil || !strings.Contains(p.String(), "pl.Tensor[[12, 32], pl.FP32]") {
		t.Fatalf("test_table[12-dtype1]: %v\n%v", err, p)
	}
	// A @property reads as the attribute it computes.
	for rows, want := range map[int]string{4: "[[8, 32]", 96: "[[96, 32]"} {
		doubled, err := mod.Call("DoubledRowsCase", rows)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(doubled.String(), "pl.Tensor"+want+", pl.FP32]") {
			t.Fatalf("DoubledRowsCase(%d):\n%s", rows, doubled)
		}
	}

	// What __init__ sets under a condition the reader cannot evaluate is
	// an error only where get_program reads it.
	_, err = mod.Call("DeviceCase")
	if err == nil || !strings.Contains(err.Error(), "harness_cases.py:154:17: DeviceCase._device could not be evaluated") || !strings.Contains(err.Error(), "torch.cuda.is_available") {
		t.Fatalf("DeviceCase: %v", err)
	}
}

// TestCaseClassErrors: what a test case's __init__ or get_program does
// that the reader cannot follow is one positioned message from Call.
func TestCaseClassErrors(t *testing.T) {
	head := "import pypto.language as pl\nfrom harness.core.harness import DataType, PTOTestCase\n\n"
	for _, c := range []struct{ name, src, want string }{
		{"unset attribute", "class C(PTOTestCase):\n    def get_program(self):\n        return self.program\n",
			"<source>:6:16: C has no attribute program that ptorepl can read (it reads what the class body and __init__ assign)"},
		{"no program", "class C(PTOTestCase):\n    program = None\n\n    def get_program(self):\n        return self.program\n",
			"<source>:8:9: C.get_program must return a @pl.program class, given None"},
		{"dict miss", "T = {DataType.FP32: pl.FP32}\n\nclass C(PTOTestCase):\n    def __init__(self, dtype=DataType.BF16):\n        self.dtype = dtype\n\n    def get_program(self):\n        dt = T[self.dtype]\n",
			"<source>:11:16: key DataType.BF16 (from harness.core.harness, which ptorepl does not read) is not in the dict"},
		{"foreign value as dtype", "class C(PTOTestCase):\n    def get_program(self):\n        @pl.program\n        class P:\n            @pl.function(type=pl.FunctionType.InCore)\n            def k(self, x: pl.Tensor[[4], DataType.FP32]):\n                pass\n\n        return P\n",
			"DataType.FP32 (from harness.core.harness, which ptorepl does not read)"},
		{"too many arguments", "class C(PTOTestCase):\n    def __init__(self, n=1):\n        self.n = n\n\n    def get_program(self):\n        pass\n",
			"C.__init__ takes 1 arguments, given 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mod, err := pl.ParsePython(head + c.src)
			if err != nil {
				t.Fatal(err)
			}
			var args []interface{}
			if c.name == "too many arguments" {
				args = []interface{}{1, 2}
			}
			_, err = mod.Call("C", args...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

// Upstream's own harness test cases (tests/st in a PyPTO checkout), read
// unmodified and built through their get_program: each runs as written
// and compiled to what its compute_expected says, on the inputs its
// define_tensors declares.
func TestUpstreamHarnessCases(t *testing.T) {
	ctrl := upstreamSystemTest(t, "runtime/control_flow/test_ctrl_flow.py")
	full := func(v float64, dims ...int) *tensor.Tensor { return tensor.Full(ir.FP32, v, dims...) }
	for _, c := range []struct {
		name string
		args func() []*tensor.Tensor
		want float64 // every element of the last argument
	}{
		{"TestForLoopAdd", func() []*tensor.Tensor { return []*tensor.Tensor{full(2, 256, 64), full(3, 256, 64), full(0, 256, 64)} }, 5},
		{"TestForLoopMul", func() []*tensor.Tensor { return []*tensor.Tensor{full(2, 256, 64), full(3, 256, 64), full(0, 256, 64)} }, 6},
		{"TestForLoopYieldAdd", func() []*tensor.Tensor { return []*tensor.Tensor{full(2, 256, 64), full(3, 256, 64), full(0, 256, 64)} }, 5},
		{"TestForLoopYieldTileAccum", func() []*tensor.Tensor { return []*tensor.Tensor{full(2, 256, 64), full(0, 64, 64)} }, 8},
		{"TestIfYieldTensor", func() []*tensor.Tensor {
			return []*tensor.Tensor{full(2, 64, 64), tensor.Full(ir.INT32, 1, 1), full(0, 64, 64)}
		}, 4},
		{"TestForIfElseNested", func() []*tensor.Tensor {
			return []*tensor.Tensor{full(2, 256, 64), full(3, 256, 64), tensor.Full(ir.INT32, 1, 1), full(0, 256, 64)}
		}, 5},
		{"TestOrchRangeCarryRebind", func() []*tensor.Tensor { return []*tensor.Tensor{full(10, 16, 64), full(0, 16, 64)} }, 14},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog, comp := calledCompiled(t, ctrl, 1, c.name)
			writtenAndCompiled(t, prog, comp, 1, c.args, func(a []*tensor.Tensor, compiled bool) {
				out := a[len(a)-1]
				flat := out.Reshape(out.Numel())
				for i := 0; i < out.Numel(); i++ {
					if got := flat.At(i); got != c.want {
						t.Fatalf("compiled %v: out[%d] = %v, want %v", compiled, i, got, c.want)
					}
				}
			})
		})
	}

	// Cases whose __init__ passes keywords up to a base through
	// super().__init__(**kw): relu, and leaky relu at its default slope
	// and at one a Go argument binds.
	act := upstreamSystemTest(t, "runtime/ops/test_activation_ops.py")
	for _, c := range []struct {
		name  string
		args  []interface{}
		slope float64 // 0: relu
	}{{"TileReluTestCase", nil, 0}, {"TileLreluTestCase", nil, 0.1}, {"TileLreluTestCase", []interface{}{0.25}, 0.25}} {
		prog, comp := calledCompiled(t, act, 1, c.name, c.args...)
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Randn(5, 16, 16), tensor.Zeros(ir.FP32, 16, 16)}
		}, func(a []*tensor.Tensor, compiled bool) {
			in, out := a[0].Reshape(256), a[1].Reshape(256)
			for i := 0; i < 256; i++ {
				x := in.At(i)
				want := x
				if x <= 0 {
					want = f32(f32(c.slope) * x)
				}
				if got := out.At(i); got != want {
					t.Fatalf("%s%v, compiled %v: out[%d] = %v, want %v (a = %v)", c.name, c.args, compiled, i, got, want, x)
				}
			}
		})
	}
}

// Upstream's bitwise NOT case (INT16 by default) and its maximums /
// minimums factories (tile forms, and tensor forms with a scalar rhs) at
// each scalar its tests pass, read unmodified: ~a, and max(a, s) /
// min(a, s), as their compute_expected say.
func TestUpstreamBitwiseAndScalarOps(t *testing.T) {
	bits := upstreamSystemTest(t, "runtime/ops/test_bitwise.py")
	prog, comp := calledCompiled(t, bits, 1, "BitwiseNotTestCase")
	in := make([]int16, 256)
	vals := make([]float64, 256)
	for i := range in {
		in[i] = int16(i*517 - 30000)
		vals[i] = float64(in[i])
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.FromFloat64(ir.INT16, vals, 16, 16), tensor.Zeros(ir.INT16, 16, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		out := a[1].Reshape(256)
		for i, x := range in {
			if got := int16(out.At(i)); got != ^x {
				t.Fatalf("compiled %v: out[%d] = %d, want ~%d = %d", compiled, i, got, x, ^x)
			}
		}
	})

	mm := upstreamSystemTest(t, "runtime/ops/test_max_min.py")
	for _, f := range []string{"_make_tile_maximums_program", "_make_tile_minimums_program", "_make_tensor_maximum_scalar_program", "_make_tensor_minimum_scalar_program"} {
		for _, s := range []float64{-2.5, 0, 2.5} {
			prog, comp := calledCompiled(t, mm, 1, f, s)
			writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
				x := make([]float32, 256)
				for i := range x {
					x[i] = float32(i%13) - 6.25 // either side of each scalar
				}
				return []*tensor.Tensor{tensor.FromFloat32(x, 16, 16), tensor.Zeros(ir.FP32, 16, 16)}
			}, func(a []*tensor.Tensor, compiled bool) {
				in, out := a[0].Reshape(256), a[1].Reshape(256)
				for i := 0; i < 256; i++ {
					want := max(in.At(i), s)
					if strings.Contains(f, "minimum") {
						want = min(in.At(i), s)
					}
					if got := out.At(i); got != want {
						t.Fatalf("%s(%v), compiled %v: out[%d] = %v, want %v", f, s, compiled, i, got, want)
					}
				}
			})
		}
	}
}
