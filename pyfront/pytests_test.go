//go:build cgo

package pyfront_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/tensor"
)

// pytestIDs are the ids the real pytest collects from a test file (the
// part after "file.py::"), run the way a PyPTO checkout runs its tests.
// testdata/pytests/pypto stands in for PyPTO's DSL so that pytest can
// import the file where PyPTO is not installed.
func pytestIDs(t *testing.T, file string) []string {
	t.Helper()
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		t.Fatalf("pytest is not installed for %s (Debian: apt-get install python3-pytest; the README's test command installs it): %v", py, err)
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	require.NoError(t, err)
	cmd := exec.Command(py, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "--rootdir", dir, filepath.Base(file))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONPATH="+dir, "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pytest --collect-only: %v\n%s", err, out)
	}
	var ids []string
	prefix := filepath.Base(file) + "::"
	for _, line := range strings.Split(string(out), "\n") {
		if id, ok := strings.CutPrefix(strings.TrimSpace(line), prefix); ok {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		t.Fatalf("pytest collected nothing from %s:\n%s", file, out)
	}
	return ids
}

// The tests a module lists are the ones pytest collects, under the same
// ids and in the same order: stacked and class-level parametrize marks,
// several argument names, pytest.param ids, ids= lists, repeated values,
// floats, bools, None, strings, range(...) and objects (dtype0). The
// tests that build no program (test_no_program) or have no parameter sets
// (test_empty, which pytest collects to skip) are the ones left out.
func TestTestsMatchPytest(t *testing.T) {
	const file = "testdata/pytests/test_params.py"
	mod, err := pl.LoadPython(file)
	require.NoError(t, err)
	var ours []string
	for _, id := range mod.Tests() {
		// A test that builds two programs lists each, id/1 and id/2.
		if base, k, ok := strings.Cut(id, "]/"); ok {
			if k != "1" {
				continue
			}
			id = base + "]"
		}
		ours = append(ours, id)
	}
	var want []string
	for _, id := range pytestIDs(t, file) {
		if strings.HasPrefix(id, "test_empty[") || id == "test_no_program" {
			continue
		}
		want = append(want, id)
	}
	require.Equal(t, want, ours)
}

// Each test builds its program from its own parameters.
func TestTestPrograms(t *testing.T) {
	mod, err := pl.LoadPython("testdata/pytests/test_params.py")
	require.NoError(t, err)
	tensorOf := func(t *testing.T, p *pl.Program, fn string, param int) *ir.TensorType {
		t.Helper()
		for _, f := range p.IR().Functions {
			if f.Name == fn {
				tt, ok := f.Params[param].Type().(*ir.TensorType)
				require.True(t, ok, "%s parameter %d: %s", fn, param, f.Params[param].Type())
				return tt
			}
		}
		t.Fatalf("no function %s in\n%s", fn, printer.Program(p.IR()))
		return nil
	}
	dims := func(tt *ir.TensorType) []int64 {
		var out []int64
		for _, d := range tt.Shape {
			c, ok := d.(*ir.ConstInt)
			require.True(t, ok, "dimension %s", d)
			out = append(out, c.Value)
		}
		return out
	}
	cases := []struct {
		id    string
		fn    string
		shape []int64
		dtype ir.DataType
		text  string // in the printed program
	}{
		{"test_add_shapes[32-64-a2a3sim]", "add", []int64{32, 64}, ir.FP32, ""},
		{"test_add_shapes[16-16-a2a3]", "add", []int64{16, 16}, ir.FP32, ""},
		{"test_add_dtypes[dtype1-narrow]", "add", []int64{2, 16}, ir.FP16, ""},
		{"test_add_dtypes[dtype0-4-81]", "add", []int64{4, 8}, ir.FP32, ""},
		{"test_scale[48-0.5]", "scale", []int64{1, 48}, ir.FP32, "0.5"},
		{"test_scale[16-1e-05]", "scale", []int64{1, 16}, ir.FP32, "1e-05"},
		{"test_ids[None-w32]", "scale", []int64{1, 32}, ir.FP32, ""},
		{"test_duplicates[161]", "scale", []int64{1, 16}, ir.FP32, ""},
		{"test_plain", "add", []int64{2, 32}, ir.FP32, ""},
		{"TestPair::test_both[64-a2a3]/1", "add", []int64{1, 64}, ir.FP32, ""},
		{"TestPair::test_both[64-a2a3]/2", "scale", []int64{1, 64}, ir.FP32, "4.0"},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			p, err := mod.Program(c.id)
			require.NoError(t, err)
			tt := tensorOf(t, p, c.fn, 0)
			require.Equal(t, c.shape, dims(tt))
			require.Equal(t, c.dtype, tt.DType)
			if c.text != "" {
				require.Contains(t, p.String(), c.text)
			}
		})
	}
}

// A test's program runs: test_scale[32--2.5] scales by -2.5.
func TestTestProgramRuns(t *testing.T) {
	mod, err := pl.LoadPython("testdata/pytests/test_params.py")
	require.NoError(t, err)
	prog, err := mod.Program("test_scale[32--2.5]")
	require.NoError(t, err)
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	require.NoError(t, err)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(7, 1, 32), tensor.Zeros(ir.FP32, 1, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for j := 0; j < 32; j++ {
			if got, want := a[1].At(0, j), f32(a[0].At(0, j)*-2.5); got != want {
				t.Fatalf("compiled %v: c[0, %d] = %v, want %v", compiled, j, got, want)
			}
		}
	})
}

// A test's value the reader cannot compute is an error only where the
// program uses it, and it says what the value is.
func TestTestOpaqueValues(t *testing.T) {
	src := `import pypto.language as pl
import pytest

def build(cols, factor):
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, a: pl.Tensor[[1, cols], pl.FP32], c: pl.Out[pl.Tensor[[1, cols], pl.FP32]]) -> pl.Tensor[[1, cols], pl.FP32]:
            t = pl.load(a, [0, 0], [1, cols])
            c = pl.store(pl.mul(t, factor), [0, 0], c)
            return c
    return P

def test_fixture(test_runner, width):
    build(width, 2.0)

def test_local(test_runner):
    factor = compute_factor()
    build(16, factor)
`
	mod, err := pl.ParsePythonNamed("case.py", src)
	require.NoError(t, err)
	require.Equal(t, []string{"test_fixture", "test_local"}, mod.Tests())
	_, err = mod.Program("test_fixture")
	require.ErrorContains(t, err, "the pytest fixture width, which ptorepl does not run")
	_, err = mod.Program("test_local")
	require.ErrorContains(t, err, "factor (the test computes it with Python ptorepl does not run")
	_, err = mod.Program("test_nothing")
	require.ErrorContains(t, err, `no program named "test_nothing"`)
}
