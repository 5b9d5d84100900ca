//go:build cgo

package pyfront_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
// floats, bools, None, strings, range(...), objects (dtype0) and a
// harness's enum members (DataType.FP32; by value for IntEnum and str
// enums). The tests that build no program (test_no_program) or have no
// parameter sets (test_empty, which pytest collects to skip) are the ones
// left out.
func TestTestsMatchPytest(t *testing.T) {
	for _, file := range []string{"testdata/pytests/test_params.py", "testdata/pytests/test_enums.py", "testdata/pytests/test_cases.py", "testdata/pytests/test_hooks.py"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
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
		})
	}
}

// A case sized from an enum member's property computed in the harness
// (32 // self.dtype.torch_dtype.itemsize lanes) and a test body reading
// members' .name and .value build the programs Python would.
func TestTestEnumPrograms(t *testing.T) {
	mod, err := pl.LoadPython("testdata/pytests/test_enums.py")
	require.NoError(t, err)
	for _, c := range []struct {
		id    string
		shape string
	}{
		{"test_rows[DataType.FP32]", "pl.Tensor[[4, 8], pl.FP32]"},
		{"test_rows[DataType.FP16]", "pl.Tensor[[4, 16], pl.FP16]"},
		{"test_rows[DataType.INT8]", "pl.Tensor[[4, 32], pl.INT8]"},
		{"test_named_by_value[1-fast]", "pl.Tensor[[2, 8], pl.FP32]"},
		{"test_named_by_value[2-fast]", "pl.Tensor[[2, 8], pl.FP32]"},
		{"test_named_by_value[1-exact]", "pl.Tensor[[1, 8], pl.FP32]"},
		{"test_named_by_value[2-exact]", "pl.Tensor[[8, 8], pl.FP32]"},
	} {
		t.Run(c.id, func(t *testing.T) {
			p, err := mod.Program(c.id)
			require.NoError(t, err)
			require.Contains(t, p.String(), "a: "+c.shape)
		})
	}
}

// Cases reached through a parameter naming the class, a mixin, a helper
// that returns one, and a lambda the case calls through self build the
// programs Python would.
func TestTestCasePrograms(t *testing.T) {
	mod, err := pl.LoadPython("testdata/pytests/test_cases.py")
	require.NoError(t, err)
	for _, c := range []struct {
		id    string
		shape string
	}{
		{"test_fstring_ids[r04]", "[4, 8]"},
		{"test_case_class_param[2-copy]", "[2, 8]"},
		{"test_case_class_param[4-wide_copy]", "[4, 16]"},
		{"test_mixin", "[4, 8]"},
		{"test_helper[4]", "[8, 8]"},
		{"test_lambda[4]", "[12, 8]"},
		{"test_lambda_args", "[2, 32]"},
		{"test_static_builder", "[6, 24]"},
	} {
		t.Run(c.id, func(t *testing.T) {
			p, err := mod.Program(c.id)
			require.NoError(t, err)
			require.Contains(t, p.String(), "a: pl.Tensor["+c.shape+", pl.FP32]")
		})
	}
}

// A pytest_generate_tests hook's parameters reach the programs as the
// decorators' do; a hook the reader cannot run gives its tests its error,
// naming the construct, and leaves the module's other tests alone.
func TestGenerateTestsHook(t *testing.T) {
	mod, err := pl.LoadPython("testdata/pytests/test_hooks.py")
	require.NoError(t, err)
	for id, shape := range map[string]string{
		"test_backend_only[a2a3]":                  "[2, 8]",
		"test_rows_and_cols[4-16]":                 "[4, 16]",
		"TestHooked::test_all[a2a3-2-32]":          "[2, 32]",
		"test_untouched":                           "[1, 8]",
		"TestOwnHook::test_cols_then_rows[wide-4]": "[4, 24]",
	} {
		p, err := mod.Program(id)
		require.NoError(t, err, id)
		require.Contains(t, p.String(), "a: pl.Tensor["+shape+", pl.FP32]", id)
	}

	const body = `import pypto.language as pl


def pytest_generate_tests(metafunc):
    if "rows" in metafunc.fixturenames:
        metafunc.parametrize("rows", %s)


def build():
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, a: pl.Tensor[[2, 8], pl.FP32], c: pl.Out[pl.Tensor[[2, 8], pl.FP32]]) -> pl.Tensor[[2, 8], pl.FP32]:
            return pl.store(pl.load(a, [0, 0], [2, 8]), [0, 0], c)

    return P


def test_rows(rows):
    build()


def test_plain():
    build()
`
	for _, c := range []struct{ values, msg string }{
		{"metafunc.function.rows", "metafunc.function: the reader's metafunc has fixturenames, config and parametrize"},
		{"[metafunc.config.rootpath]", "config.rootpath: the reader's config has getoption only"},
		{"[1, 2], indirect=True", "parametrize: indirect parameters go through fixtures"},
	} {
		mod, err := pl.ParsePythonNamed("hook.py", fmt.Sprintf(body, c.values))
		require.NoError(t, err, c.values)
		require.Equal(t, []string{"test_rows", "test_plain"}, mod.Tests(), c.values)
		_, err = mod.Program("test_rows")
		require.ErrorContains(t, err, c.msg, c.values)
		require.ErrorContains(t, err, "hook.py:6:", c.values) // the parametrize line
		require.Equal(t, 1, strings.Count(err.Error(), "hook.py:"), "one position: %v", err)
		_, err = mod.Program("test_plain")
		require.NoError(t, err, c.values)
	}
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
	require.ErrorContains(t, err, `no program named "test_nothing" (the module has build, and 2 pytest tests that build one, by id: Tests() lists them)`)
}

// Module-level Python the parametrize lists are built with (slices,
// comprehensions, * splices, range) evaluates as Python does: each
// expression's value, read through a program's shape, equals what
// python3 prints for it.
func TestModulePythonMatchesPython(t *testing.T) {
	exprs := []string{"X[1:4]", "X[::-1]", "X[-2:]", "X[::2]", "X[4:1:-1]", "X[-1:-5:-2]", "X[:100]", "[x * 2 for x in X if x % 2]",
		"[a + b for a, b in zip(X, X)]", "[*X[:2], *range(7, 10)]", "list(range(3, 20, 4))", "[p for p in (*X, 9) if p > 4]", "[len(X[3:])]"}
	for _, expr := range exprs {
		t.Run(expr, func(t *testing.T) {
			want, err := exec.Command("/usr/bin/python3", "-c", "X = [1, 2, 3, 4, 5, 6]\nprint(' '.join(str(v) for v in "+expr+"))").Output()
			require.NoError(t, err)
			src := "import pypto.language as pl\nX = [1, 2, 3, 4, 5, 6]\nV = " + expr + "\n\n@pl.program\nclass P:\n" +
				"    @pl.function(type=pl.FunctionType.InCore)\n    def k(self, x: pl.Tensor[[len(V) + 1, *V], pl.FP32]) -> pl.Tensor[[len(V) + 1, *V], pl.FP32]:\n        return x\n"
			mod, err := pl.ParsePythonNamed("slices.py", src)
			require.NoError(t, err)
			p, err := mod.Program("P")
			if strings.HasPrefix(expr, "[a + b") {
				// zip is not read: a clear error, not a wrong value.
				require.ErrorContains(t, err, "zip")
				return
			}
			require.NoError(t, err)
			tt := p.IR().Functions[0].Params[0].Type().(*ir.TensorType)
			var got []string
			for _, d := range tt.Shape[1:] {
				got = append(got, strconv.FormatInt(d.(*ir.ConstInt).Value, 10))
			}
			require.Equal(t, strings.Fields(string(want)), got, "%s", expr)
		})
	}
}
