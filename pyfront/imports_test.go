//go:build cgo

package pyfront_test

import (
	"github.com/stretchr/testify/require"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// A model split over a package (constants in config.py, @pl.jit.inline
// kernels under kernels/, the entry in model.py, joined by relative
// imports) opens from its entry file. Its split-K matmul carries a
// pl.create_tensor accumulator through the K loop (pl.matmul on the
// first chunk, pl.matmul_acc on the others), and its row norm a pl.full
// running sum: compiled, both stay on chip (an Acc and a Vec tile carried
// by scf.for), and both forms give what the chunked sums give.
func TestSplitKPackage(t *testing.T) {
	prog, comp, text := authored(t, filepath.Join("splitk", "model.py"), "model", 1)
	wantPTO(t, text, "pto.tmatmul.acc", "iter_args(", "scf.if", "loc=acc", "pto.trowsum")
	const m, k, n, kChunk = 16, 256, 64, 64
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(5, m, k), tensor.Randn(6, k, n), tensor.Zeros(ir.FP32, m, n), tensor.Zeros(ir.FP32, 1, m)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < m; i++ {
			sq := 0.0
			for j := 0; j < n; j++ {
				// Each chunk's products are summed onto the accumulator
				// and rounded to FP32 once, as the cube's matmul_acc does.
				acc := 0.0
				for k0 := 0; k0 < k; k0 += kChunk {
					sum := acc
					for q := k0; q < k0+kChunk; q++ {
						sum += a[0].At(i, q) * a[1].At(q, j)
					}
					acc = f32(sum)
				}
				if got := a[2].At(i, j); got != acc {
					t.Fatalf("compiled %v: c[%d, %d] = %v, want %v", compiled, i, j, got, acc)
				}
				sq += acc * acc
			}
			if got := a[3].At(0, i); math.Abs(got-sq) > 1e-5*sq {
				t.Fatalf("compiled %v: s[%d] = %v, want %v", compiled, i, got, sq)
			}
		}
	})
}

// Imports that cannot be read give one message at the import or at the
// use, naming the file each error is in.
func TestImportErrors(t *testing.T) {
	dir := filepath.Join("testdata", "imports")
	for _, c := range []struct{ file, want string }{
		{"cycle/a.py", filepath.Join(dir, "cycle", "b.py") + ":1:6: from .a import: import cycle " +
			strings.Join([]string{filepath.Join(dir, "cycle", "a.py"), filepath.Join(dir, "cycle", "b.py"), filepath.Join(dir, "cycle", "a.py")}, " -> ")},
		{"bad/missing.py", filepath.Join(dir, "bad", "missing.py") + ":3:6: from .nowhere import: no file nowhere.py beside " + filepath.Join(dir, "bad", "missing.py")},
		{"bad/uses_helper.py", filepath.Join(dir, "bad", "helpers.py") + ":11:38: unknown op pl.no_such_op"},
		{"bad/uses_bad_kernel.py", filepath.Join(dir, "bad", "helpers.py") + ":22:21: unknown op pl.no_such_tile_op"},
		{"bad/uses_kernel.py", filepath.Join(dir, "bad", "uses_kernel.py") + ":8:9: kernel is a @pl.jit function of " + filepath.Join(dir, "bad", "helpers.py") +
			"; ptorepl imports constants, @pl.inline / @pl.jit.inline helpers, @pl.function kernels, program factories and @pl.program classes from other files, and builds @pl.jit functions from the file it opens"},
		{"bad/torch_name.py", filepath.Join(dir, "bad", "torch_name.py") + ":7:32: float32 comes from torch, which ptorepl does not read (it reads PyPTO files, and the files beside them that they import)"},
	} {
		t.Run(c.file, func(t *testing.T) {
			mod, err := pl.LoadPython(filepath.Join(dir, filepath.FromSlash(c.file)))
			if err == nil {
				_, err = mod.Program("entry")
			}
			if err == nil || err.Error() != c.want {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

// A test module below its project's root imports the project's program
// factory, @pl.program class and @pl.function kernel (which its own
// program calls, reading the constants of the kernel's file, not the
// test's; and one a factory there made, bound at module level, beside one
// this file's factory made; and a numbered module, models/01_tiny.py, by
// its plain name models.tiny, as upstream's examples are imported) by
// module path (kernels.builders, found
// from the root that pyproject.toml marks, as pytest's rootdir on sys.path
// finds it); its test cases build them there, each in its own file's
// names, and the programs run to what they compute.
func TestImportedFactoriesAndPrograms(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "imports", "proj", "tests", "unit", "test_builders.py"))
	if err != nil {
		t.Fatal(err)
	}
	scale := func(f float64) func(float64) float64 { return func(x float64) float64 { return f32(x * f) } }
	for _, c := range []struct {
		name string
		args []interface{}
		cols int
		want func(float64) float64
	}{{"ScaleCase", nil, 32, scale(3)}, {"ScaleCase", []interface{}{64, -0.5}, 64, scale(-0.5)}, {"WideScaleCase", nil, 64, scale(3)}, {"DoublerCase", nil, 16, scale(2)},
		{"NegateCase", nil, 16, scale(-1)}, {"TinyCase", nil, 16, scale(4)},
		{"ShiftTwoCase", nil, 16, func(x float64) float64 { return f32(x + 2) }}, {"ShiftThenHalveCase", nil, 16, func(x float64) float64 { return f32(f32(x+1) * 0.5) }}} {
		prog, err := mod.Call(c.name, c.args...)
		if err != nil {
			t.Fatalf("%s%v: %v", c.name, c.args, err)
		}
		x, y := tensor.Randn(3, 8, c.cols), tensor.Zeros(ir.FP32, 8, c.cols)
		if _, err := pl.Run(prog, pl.Ranks(1), x, y); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 8; i++ {
			for j := 0; j < c.cols; j++ {
				if got, want := y.At(i, j), c.want(x.At(i, j)); got != want {
					t.Fatalf("%s%v: y[%d, %d] = %v, want %v", c.name, c.args, i, j, got, want)
				}
			}
		}
	}
	// Its pytest tests are parametrized over the harness's platforms, a
	// constant of that plain-Python file.
	require.Equal(t, []string{"test_scale[16]", "test_scale[64]", "test_scale_on[2.0-a2a3sim]", "test_scale_on[2.0-a2a3]", "test_scale_on[-0.5-a2a3sim]", "test_scale_on[-0.5-a2a3]"}, mod.Tests())
	half, err := mod.Program("test_scale_on[-0.5-a2a3]")
	require.NoError(t, err)
	require.Contains(t, half.String(), "-0.5")
	// A kernel the imported factory makes may be the program itself.
	three, err := mod.Call("ShiftThreeCase")
	if err != nil {
		t.Fatal(err)
	}
	if text := three.String(); !strings.Contains(text, "def shift(") || !strings.Contains(text, "3.0") {
		t.Fatalf("ShiftThreeCase:\n%s", text)
	}
	// The same layout without the marker is no project: only the test's
	// own directory is searched, as for a script Python runs, and the
	// name's use says where it comes from; with the marker it is found.
	root := t.TempDir()
	builders, err := os.ReadFile(filepath.Join("testdata", "imports", "proj", "kernels", "builders.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"kernels", "tests"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := "import pypto.language as pl\nfrom harness import PTOTestCase\nfrom kernels.builders import build_scale\n\n\nclass C(PTOTestCase):\n    def get_program(self):\n        return build_scale(16, 2.0)\n"
	test := filepath.Join(root, "tests", "t.py")
	for path, b := range map[string][]byte{filepath.Join(root, "kernels", "builders.py"): builders, test: []byte(src)} {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, marked := range []bool{false, true} {
		if marked {
			if err := os.WriteFile(filepath.Join(root, "setup.py"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		mod, err := pl.LoadPython(test)
		if err != nil {
			t.Fatal(err)
		}
		_, err = mod.Call("C")
		if marked && err != nil {
			t.Fatalf("with setup.py at the root: %v", err)
		}
		if !marked && (err == nil || !strings.Contains(err.Error(), "given build_scale(...), from kernels.builders, which ptorepl does not read")) {
			t.Fatalf("without a project marker: %v", err)
		}
	}
}

// Source text has no directory to import beside: a relative import says to
// open the file instead.
func TestRelativeImportInText(t *testing.T) {
	_, err := pl.ParsePython("import pypto.language as pl\nfrom .config import SIZE\n")
	want := "<source>:2:6: from .config import: a relative import needs the file's directory: open the file (pl.LoadPython, :load, ptorepl run FILE.py) rather than its text"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// TestUpstreamPagedAttentionTests reads upstream's paged-attention system
// test module unmodified: it imports its kernels and program builders from
// examples.models.paged_attention (the numbered 04_paged_attention.py, two
// directories up and across, found from the project's root). Its QK
// matmul case, whose program calls the imported kernel_qk_matmul, runs as
// written and compiled to qi @ kj^T; its other cases build and compile.
func TestUpstreamPagedAttentionTests(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/framework_and_models/test_paged_attention.py")
	for _, name := range []string{"SoftmaxPrepareTestCase", "PVMatmulTestCase", "OnlineUpdateTestCase", "PagedAttentionTestCase"} {
		prog, err := mod.Call(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := pl.TryCompile(prog, pl.Ranks(1)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	prog, err := mod.Call("QKMatmulTestCase")
	if err != nil {
		t.Fatal(err)
	}
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	if err != nil {
		t.Fatal(err)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 128).To(ir.BF16), tensor.Randn(2, 128, 128).To(ir.BF16), tensor.Zeros(ir.FP32, 16, 128)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			for j := 0; j < 128; j++ {
				if got, want := a[2].At(i, j), matmulAt(a[0].At, func(idx ...int) float64 { return a[1].At(idx[1], idx[0]) }, 128, i, j); got != want {
					t.Fatalf("compiled %v: sij[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}
