package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const ringPy = "../../pyfront/testdata/authoring/ring.py"

func TestRunPython(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"run", ringPy}, nil, &out, &errOut), errOut.String())
	for _, name := range []string{"arrivals", "shift_pull", "shift_push", "ring_put", "ring_get"} {
		require.Contains(t, out.String(), "class "+name+":")
	}
	out.Reset()
	require.Equal(t, 0, run([]string{"run", "--entry", "ring_put", "--ranks", "3", ringPy}, nil, &out, &errOut), errOut.String())
	require.True(t, strings.HasPrefix(out.String(), "y = tensor("), out.String())
	require.NotContains(t, out.String(), "x = tensor(")
	before := out.String()

	// Flags may follow the file, as the issue and Python tools write
	// them, or surround it; the run is the same.
	for _, args := range [][]string{
		{"run", ringPy, "--entry", "ring_put", "--ranks", "3"},
		{"run", "--ranks", "3", ringPy, "--entry", "ring_put"},
	} {
		out.Reset()
		require.Equal(t, 0, run(args, nil, &out, &errOut), "%v: %s", args, errOut.String())
		require.Equal(t, before, out.String(), "%v", args)
	}
	// Two files are still one too many.
	errOut.Reset()
	require.Equal(t, 2, run([]string{"run", ringPy, "--ranks", "3", ringPy}, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "usage: ptorepl run")
}

func TestRunPythonError(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.py")
	require.NoError(t, os.WriteFile(bad, []byte("import pypto.language as pl\n\n@pl.jit.incore\ndef k(x: pl.Tensor[[4], pl.FP32]):\n    t = pl.lod(x, [0], [4])\n    return x\n\n@pl.jit.host\ndef h(x: pl.Tensor[[2, 4], pl.FP32]):\n    for r in pl.range(2):\n        k(x[r], device=r)\n"), 0o644))
	var out, errOut bytes.Buffer
	require.Equal(t, 1, run([]string{"run", bad}, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "bad.py:5:9: unknown op pl.lod")
	require.NotContains(t, errOut.String(), "goroutine")
}

// TestPythonWithoutPrograms: a file of kernels alone (no class, host entry,
// top-level @pl.function or factory) is said to define no program, naming
// its kernels, instead of printing nothing.
func TestPythonWithoutPrograms(t *testing.T) {
	dir := t.TempDir()
	kernels := filepath.Join(dir, "kernels.py")
	require.NoError(t, os.WriteFile(kernels, []byte("import pypto.language as pl\n\n@pl.jit.incore\ndef k(x: pl.Tensor[[4], pl.FP32]):\n    return x\n"), 0o644))
	for _, args := range [][]string{{"run", kernels}, {"compile", kernels}} {
		var out, errOut bytes.Buffer
		require.Equal(t, 1, run(args, nil, &out, &errOut), args)
		require.Contains(t, errOut.String(), "kernels.py defines no program", args)
		require.Contains(t, errOut.String(), "its @pl.jit functions (k) join a program when a @pl.jit.host entry calls them", args)
		require.Empty(t, out.String(), args)
	}
}

func TestCompilePython(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	require.Equal(t, 2, run([]string{"compile", ringPy}, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "pick one with --entry")
	require.Equal(t, 0, run([]string{"compile", "--entry", "ring_get", "--out", dir, ringPy}, nil, &out, &errOut), errOut.String())
	require.FileExists(t, filepath.Join(dir, "get_next.pto"))
	require.FileExists(t, filepath.Join(dir, "orchestration", "comm_manifest.json"))
}

func TestLoadCommand(t *testing.T) {
	in := strings.NewReader(":load ../../pyfront/testdata/authoring/factory.py f\np, err := f.Call(\"build_shift\", 3)\nerr\n:print p\n:load missing.py\nf.Names()\n")
	var out, errOut bytes.Buffer
	// The missing file fails its line (exit status 1); the session goes on.
	require.Equal(t, 1, run(nil, in, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "# factory build_shift")
	require.Contains(t, out.String(), "pld.DistributedTensor[[3, 1], pl.INT32]")
	require.Contains(t, out.String(), "[build_shift]")
	require.Contains(t, errOut.String(), "missing.py")
}

// TestLoadOneProgram: before any program, :step says how to get one; a
// file of one program, :load-ed, is the program :step then takes.
func TestLoadOneProgram(t *testing.T) {
	in := strings.NewReader(":step\n:load ../../pyfront/testdata/authoring/branch_names.py\n:step ConvertTensorToTileOps\n")
	var out, errOut bytes.Buffer
	require.Equal(t, 1, run(nil, in, &out, &errOut), errOut.String())
	require.Contains(t, errOut.String(), `no program yet: build one with pl.NewProgram, or take one from a :load-ed module with mod.Program("Name")`)
	require.Contains(t, out.String(), "Branches is the last program: :step, :run and :pto take it")
	require.Contains(t, out.String(), "[6] ConvertTensorToTileOps")
	require.Contains(t, out.String(), "+            y__tile: pl.Tile[[8, 32], pl.FP32, pl.Mem.Vec] = pl.tile.add(x__tile, x__tile)")
}

// TestRunPythonFactoryArgs: --args binds a factory entry's parameters in
// order (an int, a bool); the factory's program runs, and a non-factory
// entry given --args is refused.
func TestRunPythonFactoryArgs(t *testing.T) {
	const factoryPy = "../../pyfront/testdata/authoring/factory.py"
	var out, errOut bytes.Buffer
	require.Equal(t, 1, run([]string{"run", "--entry", "build_shift", "--ranks", "3", factoryPy}, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "missing argument nr")
	for _, args := range []string{"3,true", "3,false", "3"} {
		out.Reset()
		errOut.Reset()
		require.Equal(t, 0, run([]string{"run", "--entry", "build_shift", "--args", args, "--ranks", "3", factoryPy}, nil, &out, &errOut), errOut.String())
		require.True(t, strings.HasPrefix(out.String(), "y = tensor("), args+": "+out.String())
	}
	errOut.Reset()
	require.Equal(t, 1, run([]string{"run", "--entry", "ring_put", "--args", "3", ringPy}, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "--args: ../../pyfront/testdata/authoring/ring.py:183:1: ring_put takes 2 arguments (x, y), given 1")
	out.Reset()
	require.Equal(t, 0, run([]string{"compile", "--entry", "build_shift", "--args", "2,false", factoryPy}, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "func.func")
}

// TestRunPythonJitArgs: --args specializes a @pl.jit entry as a call
// would, a tensor written as its shape and dtype: the entry runs and
// compiles at that size, and a misspelt dtype is named.
func TestRunPythonJitArgs(t *testing.T) {
	const specPy = "../../pyfront/testdata/authoring/jit_specialize.py"
	var out, errOut bytes.Buffer
	require.Equal(t, 1, run([]string{"run", "--entry", "shifted", "--ranks", "1", specPy}, nil, &out, &errOut))
	require.Contains(t, errOut.String(), `mod.Specialize("shifted", tensors...)`)
	errOut.Reset()
	require.Equal(t, 0, run([]string{"run", "--entry", "shifted", "--args", "16x16:fp32,16x16:fp32,16x16:FP32", "--ranks", "1", specPy}, nil, &out, &errOut), errOut.String())
	require.True(t, strings.HasPrefix(out.String(), "y = tensor([["), "the output y alone is printed, not the inputs:\n%s", out.String())
	require.Contains(t, out.String(), "protocol check: clean")
	require.NotContains(t, out.String(), "return = ", "the returned y is the Out tensor printed above")
	out.Reset()
	// An entry that creates and returns its result prints it as returned.
	require.Equal(t, 0, run([]string{"run", "--entry", "fresh_sum", "--args", "2x4:fp32,2x4:fp32", "--ranks", "1", specPy}, nil, &out, &errOut), errOut.String())
	require.True(t, strings.HasPrefix(out.String(), "return = tensor([["), "only the returned tensor is printed:\n%s", out.String())
	out.Reset()
	require.Equal(t, 0, run([]string{"compile", "--entry", "scaled_sum", "--args", "4x16:fp32,4x16:fp32,2.5,4x16:fp32", specPy}, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "func.func @scale_add")
	errOut.Reset()
	require.Equal(t, 1, run([]string{"compile", "--entry", "shifted", "--args", "16x16:fq32,16x16:fp32,16x16:fp32", specPy}, nil, &out, &errOut))
	require.Contains(t, errOut.String(), `--args: "16x16:fq32": unknown dtype "fq32"`)
}

// --dims sizes dynamic dimensions other than the rank count; without it
// every symbol is the rank count and the kernel's [8, 16] load does not fit.
func TestRunPythonDims(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "dims.py")
	require.NoError(t, os.WriteFile(file, []byte(`import pypto.language as pl

M = pl.dynamic("M")
N = pl.dynamic("N")

@pl.program
class Twice:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[M * 2, N], pl.FP32], f: pl.Out[pl.Tensor[[M * 2, N], pl.FP32]]) -> pl.Tensor[[M * 2, N], pl.FP32]:
        t = pl.add(pl.load(a, [0, 0], [8, 16]), pl.load(a, [0, 0], [8, 16]))
        return pl.store(t, [0, 0], f)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, a: pl.Tensor[[M * 2, N], pl.FP32], f: pl.Out[pl.Tensor[[M * 2, N], pl.FP32]]):
        out = self.k(a, f, device=0)
        return out
`), 0o644))
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"run", "--entry", "Twice", "--dims", "M=4,N=16", file}, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "f = tensor(")
	require.Equal(t, 7, strings.Count(out.String(), "],\n"), "want 8 rows (M * 2 at M=4):\n%s", out.String())
	errOut.Reset()
	require.Equal(t, 1, run([]string{"run", "--entry", "Twice", file}, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "does not fit")
	errOut.Reset()
	require.Equal(t, 1, run([]string{"run", "--entry", "Twice", "--dims", "K=4", file}, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "dimension K: no host parameter's shape uses it (they use M, N)")
}

// TestCompilePythonStages: compile --stages of a Python file prints what
// each pass changed, then the PTO; the entry file's package (relative
// imports) is read beside it.
func TestCompilePythonStages(t *testing.T) {
	var out, errOut bytes.Buffer
	model := "../../pyfront/testdata/authoring/splitk/model.py"
	require.Equal(t, 0, run([]string{"compile", "--stages", "--entry", "model", model}, nil, &out, &errOut), errOut.String())
	text := out.String()
	conv := strings.Index(text, "# ==== ConvertTensorToTileOps\n")
	pto := strings.Index(text, "module attributes")
	require.True(t, conv >= 0 && pto > conv, text)
	require.Contains(t, text[conv:pto], "+                acc__tile_1: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_k_left, b_k_right")
	require.Contains(t, text[pto:], "pto.tmatmul.acc")
}

// TestLoadPackage: :load opens a file whose kernels and constants live in
// files beside it (relative imports), as the file itself is loaded, not
// its text.
func TestLoadPackage(t *testing.T) {
	in := strings.NewReader(":load ../../pyfront/testdata/authoring/splitk/model.py m\np, err := m.Program(\"model\")\nerr\nstrings.Contains(pl.Compile(p, pl.Ranks(1)).PTO(), \"pto.tmatmul.acc\")\n")
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(nil, in, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "class model:")
	require.Contains(t, out.String(), "\ntrue\n")
	require.NotContains(t, errOut.String(), "relative import")
}

func TestParseInterleaved(t *testing.T) {
	for _, c := range []struct {
		args  []string
		files []string
		entry string
	}{
		{[]string{"--entry", "k", "a.py"}, []string{"a.py"}, "k"},
		{[]string{"a.py", "--entry", "k"}, []string{"a.py"}, "k"},
		{[]string{"a.py", "b.py", "--entry=k"}, []string{"a.py", "b.py"}, "k"},
		{[]string{"a.py", "--", "--entry", "k"}, []string{"a.py", "--entry", "k"}, ""},
		{nil, nil, ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		entry := fs.String("entry", "", "")
		files, err := parseInterleaved(fs, c.args)
		require.NoError(t, err, "%v", c.args)
		require.Equal(t, c.files, files, "%v", c.args)
		require.Equal(t, c.entry, *entry, "%v", c.args)
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(&bytes.Buffer{})
	_, err := parseInterleaved(fs, []string{"a.py", "--nope"})
	require.Error(t, err, "an unknown flag after the file")
}
