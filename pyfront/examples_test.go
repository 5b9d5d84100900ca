//go:build cgo

package pyfront_test

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// expectFn checks a run's host tensors (in parameter order) at p ranks.
type expectFn func(args []*tensor.Tensor, p int) error

// rowsFrom says output row r equals input row src(r, p) (plus add(r)).
func rowsFrom(src func(r, p int) int, add func(r int) float64, mul func(r int) float64) expectFn {
	return func(args []*tensor.Tensor, p int) error {
		x, y := args[0], args[1]
		shape := y.Shape()
		for r := 0; r < shape[0]; r++ {
			s := src(r, p)
			for i := 0; i < shape[1]; i++ {
				for j := 0; j < shape[2]; j++ {
					want := x.At(s, i, j)*mul(r) + add(r)
					if got := y.At(r, i, j); math.Abs(got-want) > 1e-4*(1+math.Abs(want)) {
						return fmt.Errorf("y[%d, %d, %d] = %v, want %v", r, i, j, got, want)
					}
				}
			}
		}
		return nil
	}
}

func same(r, _ int) int       { return r }
func next(r, p int) int       { return (r + 1) % p }
func prev(r, p int) int       { return (r - 1 + p) % p }
func zero(int) float64        { return 0 }
func one(int) float64         { return 1 }
func rankf(r int) float64     { return float64(r) }
func rankPlus1(r int) float64 { return float64(r + 1) }

// barrierRows: rank r's signal row is 1 everywhere but its own cell.
func barrierRows(args []*tensor.Tensor, p int) error {
	y := args[0]
	for r := 0; r < p; r++ {
		for i := 0; i < p; i++ {
			want := 1.0
			if i == r {
				want = 0
			}
			if got := y.At(r, i, 0); got != want {
				return fmt.Errorf("y[%d, %d, 0] = %v, want %v", r, i, got, want)
			}
		}
	}
	return nil
}

// sumOfRows: every output row is the sum of all the input rows.
func sumOfRows(args []*tensor.Tensor, p int) error {
	x, y := args[0], args[1]
	shape := y.Shape()
	for r := 0; r < p; r++ {
		for i := 0; i < shape[1]; i++ {
			for j := 0; j < shape[2]; j++ {
				want := 0.0
				for s := 0; s < p; s++ {
					want += x.At(s, i, j)
				}
				if got := y.At(r, i, j); math.Abs(got-want) > 1e-4*(1+math.Abs(want)) {
					return fmt.Errorf("y[%d, %d, %d] = %v, want the sum over ranks %v", r, i, j, got, want)
				}
			}
		}
	}
	return nil
}

type exampleCase struct {
	file   string
	entry  string
	ranks  []int
	expect expectFn
}

// upstreamCases are upstream's examples/distributed 01–07 with what each
// one's own expected_* (or inline check) says.
var upstreamCases = []exampleCase{
	{"01_hello_rank.py", "hello_rank", []int{2}, rowsFrom(same, rankf, one)},
	{"02_programming_model.py", "host_orch", []int{2}, rowsFrom(same, zero, rankPlus1)},
	{"03_window_buffer.py", "window_program", []int{2}, rowsFrom(same, zero, one)},
	{"04_barrier.py", "barrier_program_hand", []int{2}, barrierRows},
	{"04_barrier.py", "barrier_program_builtin", []int{2}, rowsFrom(next, zero, one)},
	{"05_remote_load_store.py", "ring_shift_load", []int{2}, rowsFrom(next, zero, one)},
	{"05_remote_load_store.py", "ring_shift_store", []int{2}, rowsFrom(prev, zero, one)},
	{"06_put_get.py", "ring_put", []int{2}, rowsFrom(prev, zero, one)},
	{"06_put_get.py", "ring_get", []int{2}, rowsFrom(next, zero, one)},
	{"07_dynamic_rank_count.py", "ring_put", []int{2, 3, 4, 8}, rowsFrom(prev, zero, one)},
	{"07_dynamic_rank_count.py", "ring_get", []int{2, 3, 4, 8}, rowsFrom(next, zero, one)},
}

func runCase(t *testing.T, path string, c exampleCase) {
	t.Helper()
	mod, err := pl.LoadPython(path)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program(c.entry)
	if err != nil {
		t.Fatal(err)
	}
	// It lowers through every pass to PTO and a comm manifest.
	comp, err := pl.TryCompile(prog, pl.Ranks(c.ranks[0]))
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	if _, err := comp.PTOText(); err != nil {
		t.Fatalf("compile: %v", err)
	}
	if _, err := comp.ManifestText(); err != nil {
		t.Fatalf("compile: %v", err)
	}
	for _, p := range c.ranks {
		args, _, err := runtime.HostArgs(prog.IR(), p, 42)
		if err != nil {
			t.Fatalf("P=%d: %v", p, err)
		}
		if _, err := pl.Run(prog, pl.Ranks(p), args...); err != nil {
			t.Fatalf("P=%d: %v\n%s", p, err, prog)
		}
		if err := c.expect(args, p); err != nil {
			t.Fatalf("P=%d: %v\n%s", p, err, prog)
		}
		// The compiled program, every pass applied, computes the same.
		comp, err := pl.TryCompile(prog, pl.Ranks(p))
		if err != nil {
			t.Fatalf("P=%d: compile: %v", p, err)
		}
		args, _, err = runtime.HostArgs(prog.IR(), p, 43)
		if err != nil {
			t.Fatalf("P=%d: %v", p, err)
		}
		if _, err := comp.Run(pl.Ranks(p), args...); err != nil {
			t.Fatalf("P=%d: compiled: %v", p, err)
		}
		if err := c.expect(args, p); err != nil {
			t.Fatalf("P=%d: compiled: %v\n%s", p, err, comp)
		}
	}
}

// TestUpstreamExamples reads upstream's examples/distributed files
// unmodified from the directory PTOREPL_PYPTO_EXAMPLES names (a checkout's
// examples/distributed) and runs each entry against its expected result.
func TestUpstreamExamples(t *testing.T) {
	dir := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if dir == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to run upstream's examples 01-07 (the authoring-form cases in testdata/ run regardless)")
	}
	for _, c := range upstreamCases {
		t.Run(c.file+"/"+c.entry, func(t *testing.T) { runCase(t, filepath.Join(dir, c.file), c) })
	}
}

// TestUpstreamQuickstart reads the allreduce of upstream's distributed user
// guide (docs/en/user/distributed/00-model.md, beside the examples directory
// PTOREPL_PYPTO_EXAMPLES names) from its first Python block that has a host
// entry, as a reader would copy it, and checks the sums at several rank
// counts.
func TestUpstreamQuickstart(t *testing.T) {
	dir := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if dir == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to read the user guide's quickstart beside it (testdata/authoring/sum_all.py runs regardless)")
	}
	page := filepath.Join(dir, "..", "..", "docs", "en", "user", "distributed", "00-model.md")
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatalf("the quickstart page beside the examples: %v", err)
	}
	var src string
	for _, block := range strings.Split(string(text), "```python\n")[1:] {
		if code, _, ok := strings.Cut(block, "```"); ok && strings.Contains(code, "@pl.jit.host") {
			src = code
			break
		}
	}
	if src == "" {
		t.Fatalf("%s has no Python block with a @pl.jit.host entry", page)
	}
	mod, err := pl.ParsePython(src)
	if err != nil {
		t.Fatal(err)
	}
	names := mod.Names()
	if len(names) != 1 {
		t.Fatalf("the quickstart defines %v, want one host entry", names)
	}
	prog, err := mod.Program(names[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{2, 3, 4, 8} {
		args, _, err := runtime.HostArgs(prog.IR(), p, 42)
		if err != nil {
			t.Fatalf("P=%d: %v", p, err)
		}
		if _, err := pl.Run(prog, pl.Ranks(p), args...); err != nil {
			t.Fatalf("P=%d: %v", p, err)
		}
		if err := sumOfRows(args, p); err != nil {
			t.Fatalf("P=%d: %v\n%s", p, err, prog)
		}
	}
}

// ownCases are authoring-form kernels of our own (testdata/authoring), in
// the style of upstream's examples; they always run.
var ownCases = []exampleCase{
	{"rank_basics.py", "offset_by_rank", []int{2}, rowsFrom(same, rankf, one)},
	{"rank_basics.py", "grow_by_rank", []int{2}, rowsFrom(same, zero, rankPlus1)},
	{"rank_basics.py", "echo_window", []int{2}, rowsFrom(same, zero, one)},
	{"ring.py", "arrivals", []int{2, 3, 4, 8}, barrierRows},
	{"ring.py", "shift_pull", []int{2, 3, 4, 8}, rowsFrom(next, zero, one)},
	{"ring.py", "shift_push", []int{2, 3, 4, 8}, rowsFrom(prev, zero, one)},
	{"ring.py", "ring_put", []int{2, 3, 4, 8}, rowsFrom(prev, zero, one)},
	{"ring.py", "ring_get", []int{2, 3, 4, 8}, rowsFrom(next, zero, one)},
	{"sum_all.py", "sum_all", []int{2, 3, 4, 8}, sumOfRows},
	{"inline_helpers.py", "sum_with_helpers", []int{2, 3, 4, 8}, sumOfRows},
	{"class_style.py", "RowSum", []int{2, 3, 4, 8}, sumOfRows},
	{"class_style.py", "PutToNext", []int{2, 3, 4, 8}, rowsFrom(prev, zero, one)},
	{"class_style.py", "TwiceAndZero", []int{2, 3}, twiceAndZero},
	{"class_style.py", "RootOnly", []int{2, 3}, rootRowOnly},
	{"slices.py", "RowsPlusOne", []int{2, 3}, rowsFrom(same, one, one)},
	{"slices.py", "HalfSwap", []int{2, 3}, regionsFrom(func(r, i, p int) (int, int) { return r, (i + 4) % 8 })},
	{"slices.py", "NeighbourHalf", []int{2, 3, 4, 8}, regionsFrom(func(r, i, p int) (int, int) {
		if i < 4 {
			return r, i
		}
		return next(r, p), i
	})},
	{"slices.py", "OrchestratedHalves", []int{2, 3}, regionsFrom(func(r, i, p int) (int, int) { return r, i % 4 })},
	{"slices.py", "TensorLevel", []int{2, 3}, rowsFrom(same, one, func(int) float64 { return 2 })},
	{"scopes.py", "AddInScope", []int{2, 3}, rowsFrom(same, zero, func(int) float64 { return 2 })},
	{"scopes.py", "TwoStages", []int{2, 3}, rowsFrom(same, one, func(int) float64 { return 2 })},
	{"scopes.py", "ScopedRing", []int{2, 3, 4, 8}, rowsFrom(next, zero, one)},
	{"scopes.py", "ChipScope", []int{1, 2}, sumOfTwo},
	{"bare_window.py", "host_orch", []int{2, 3, 4, 8}, ownPlusNext},
}

// ownPlusNext: output row r is input row r plus row r+1 (mod p).
func ownPlusNext(args []*tensor.Tensor, p int) error {
	x, y := args[0], args[1]
	shape := y.Shape()
	for r := 0; r < p; r++ {
		for j := 0; j < shape[2]; j++ {
			if got, want := y.At(r, 0, j), float64(float32(x.At(r, 0, j)+x.At((r+1)%p, 0, j))); got != want {
				return fmt.Errorf("y[%d, 0, %d] = %v, want %v", r, j, got, want)
			}
		}
	}
	return nil
}

// sumOfTwo: the third host tensor is the sum of the first two.
func sumOfTwo(args []*tensor.Tensor, _ int) error {
	a, b, y := args[0], args[1], args[2]
	shape := y.Shape()
	for i := 0; i < shape[0]; i++ {
		for j := 0; j < shape[1]; j++ {
			if got, want := y.At(i, j), float64(float32(a.At(i, j)+b.At(i, j))); got != want {
				return fmt.Errorf("y[%d, %d] = %v, want %v", i, j, got, want)
			}
		}
	}
	return nil
}

// regionsFrom says output row i of rank r is input row src(r, i, p)
// (a rank and a row) of the [ranks, rows, cols] tensors.
func regionsFrom(src func(r, i, p int) (int, int)) expectFn {
	return func(args []*tensor.Tensor, p int) error {
		x, y := args[0], args[1]
		shape := y.Shape()
		for r := 0; r < shape[0]; r++ {
			for i := 0; i < shape[1]; i++ {
				sr, si := src(r, i, p)
				for j := 0; j < shape[2]; j++ {
					if got, want := y.At(r, i, j), x.At(sr, si, j); got != want {
						return fmt.Errorf("y[%d, %d, %d] = %v, want x[%d, %d, %d] = %v", r, i, j, got, sr, si, j, want)
					}
				}
			}
		}
		return nil
	}
}

// rootRowOnly: rank 0's output row is its input row; the others' stay 0.
func rootRowOnly(args []*tensor.Tensor, p int) error {
	return rowsFrom(same, zero, func(r int) float64 {
		if r == 0 {
			return 1
		}
		return 0
	})(args, p)
}

// twiceAndZero: the pair a kernel returns and its orchestrator unpacks,
// x + x and x - x, lands in the second and third host tensors.
func twiceAndZero(args []*tensor.Tensor, p int) error {
	if err := rowsFrom(same, zero, func(int) float64 { return 2 })(args, p); err != nil {
		return err
	}
	if z := args[2]; !z.Equal(tensor.Zeros(z.DType(), z.Shape()...)) {
		return fmt.Errorf("the second value of the pair is not all zeros: %v", z)
	}
	return nil
}

// TestFactoryKeywordOnly: a factory's parameters after a bare * bind in
// order like the others and take their defaults when left out; its
// Python if/elif/else and min(...) run as Python would.
func TestFactoryKeywordOnly(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "class_style.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []any
		factor float64
	}{{[]any{3}, 2}, {[]any{3, 3}, 3}, {[]any{3, 7}, 4}, {[]any{3, -1}, 0}} {
		prog, err := mod.Call("build_scaled", c.args...)
		if err != nil {
			t.Fatal(err)
		}
		args, _, err := runtime.HostArgs(prog.IR(), 3, 7)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pl.Run(prog, pl.Ranks(3), args...); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if err := rowsFrom(same, zero, func(int) float64 { return c.factor })(args, 3); err != nil {
			t.Fatalf("build_scaled%v: %v", c.args, err)
		}
	}
}

// TestGetByte: pl.<DTYPE>.get_byte() is the element size in bytes, folded
// where it is read, as upstream's parser does (sub-byte types count one).
func TestGetByte(t *testing.T) {
	for _, c := range []struct {
		dtype string
		want  int
	}{{"FP32", 4}, {"INT32", 4}, {"FP16", 2}, {"BF16", 2}, {"INT8", 1}, {"INT64", 8}, {"INT4", 1}, {"BOOL", 1}} {
		src := "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n" +
			"@pl.jit.host\ndef h(x: pl.Tensor[[2, 4], pl.FP32]):\n" +
			"    buf = pld.alloc_window_buffer(3 * pl." + c.dtype + ".get_byte())\n"
		mod, err := pl.ParsePython(src)
		if err != nil {
			t.Fatalf("%s: %v", c.dtype, err)
		}
		prog, err := mod.Program("h")
		if err != nil {
			t.Fatalf("%s: %v", c.dtype, err)
		}
		if want := fmt.Sprintf("pld.tensor.alloc_window_buffer(%d)", 3*c.want); !strings.Contains(prog.String(), want) {
			t.Errorf("pl.%s.get_byte(): want %s in\n%s", c.dtype, want, prog)
		}
	}
}

func TestAuthoringForm(t *testing.T) {
	for _, c := range ownCases {
		t.Run(c.file+"/"+c.entry, func(t *testing.T) { runCase(t, filepath.Join("testdata", "authoring", c.file), c) })
	}
}

// TestFactory calls build_shift at several rank counts, with the built-in
// barrier and the hand-rolled one the Python-level if picks.
func TestFactory(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "factory.py"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(mod.Names()); got != "[build_shift]" {
		t.Fatalf("names %s", got)
	}
	for _, builtin := range []bool{true, false} {
		for _, p := range []int{2, 3, 4} {
			var prog *pl.Program
			if builtin {
				prog, err = mod.Call("build_shift", p) // the default use_builtin=True
			} else {
				prog, err = mod.Call("build_shift", p, false)
			}
			if err != nil {
				t.Fatal(err)
			}
			text := prog.String()
			if strings.Contains(text, "pld.tensor.barrier") != builtin || strings.Contains(text, "pld.system.notify") == builtin {
				t.Fatalf("use_builtin=%v picked the wrong statements:\n%s", builtin, text)
			}
			if !strings.Contains(text, fmt.Sprintf("pld.DistributedTensor[[%d, 1], pl.INT32]", p)) {
				t.Fatalf("nr=%d is not a constant in the shapes:\n%s", p, text)
			}
			args, _, err := runtime.HostArgs(prog.IR(), p, 7)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pl.Run(prog, pl.Ranks(p), args...); err != nil {
				t.Fatalf("P=%d builtin=%v: %v\n%s", p, builtin, err, text)
			}
			if err := rowsFrom(next, zero, one)(args, p); err != nil {
				t.Fatalf("P=%d builtin=%v: %v", p, builtin, err)
			}
		}
	}
}

// TestFactoryKernels: a program factory that calls a kernel factory and
// defines functions outside its class (upstream's model examples) builds
// a program holding them, which runs as the ring shift it is.
func TestFactoryKernels(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "factory_kernels.py"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(mod.Names()); got != "[make_shift build_shift_program]" {
		t.Fatalf("names %s", got)
	}
	for _, p := range []int{2, 3, 4} {
		prog, err := mod.Call("build_shift_program", p)
		if err != nil {
			t.Fatal(err)
		}
		text := prog.String()
		for _, want := range []string{"def shift_kernel(", "def orch(", "def host(", fmt.Sprintf("pld.DistributedTensor[[%d, 1], pl.INT32]", p)} {
			if !strings.Contains(text, want) {
				t.Fatalf("P=%d: the program lacks %q:\n%s", p, want, text)
			}
		}
		args, _, err := runtime.HostArgs(prog.IR(), p, 7)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pl.Run(prog, pl.Ranks(p), args...); err != nil {
			t.Fatalf("P=%d: %v\n%s", p, err, text)
		}
		if err := rowsFrom(next, zero, one)(args, p); err != nil {
			t.Fatalf("P=%d: %v\n%s", p, err, text)
		}
	}
	// The kernel factory alone gives a program of its one function.
	prog, err := mod.Call("make_shift", 2, 8)
	if err != nil {
		t.Fatal(err)
	}
	if text := prog.String(); !strings.Contains(text, "class shift_kernel:") || !strings.Contains(text, "pl.Tensor[[1, 8], pl.FP32]") {
		t.Fatalf("make_shift(2, 8):\n%s", text)
	}
}

// TestUpstreamCorpusNoInternalError reads every Python file of upstream's
// examples and tests/st (beside the directory PTOREPL_PYPTO_EXAMPLES
// names), builds each program (factories callable with their defaults
// too), compiles it at two ranks and emits its PTO. What ptorepl does not
// take is a positioned error; what it must never be is an internal error
// (a reader or compiler bug caught on the way out), which fails the test.
func TestUpstreamCorpusNoInternalError(t *testing.T) {
	dir := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if dir == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to sweep examples/ and tests/st beside it")
	}
	var files []string
	for _, root := range []string{filepath.Join(dir, ".."), filepath.Join(dir, "..", "..", "tests", "st")} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	internal := func(err error) bool {
		return err != nil && (strings.Contains(err.Error(), "internal error") || strings.Contains(err.Error(), "panic"))
	}
	// compiles compiles a program at two ranks to PTO text; a failure
	// must be a positioned error, never an internal one.
	compiles := func(file, name string, prog *pl.Program) bool {
		c, err := pl.TryCompile(prog, pl.Ranks(2))
		if err == nil {
			_, err = c.PTOText()
		}
		if internal(err) {
			t.Errorf("%s %s: compile: %v", file, name, err)
		}
		return err == nil
	}
	// A test case that returns a module-level program builds that same
	// program again: each is counted once.
	seen := map[any]bool{}
	built, compiled := 0, 0
	collected, testsBuilt, testsCompiled := 0, 0, 0
	for _, f := range files {
		mod, err := pl.LoadPython(f)
		if internal(err) {
			t.Errorf("%s: %v", f, err)
		}
		if err != nil {
			continue
		}
		for _, n := range mod.Names() {
			var prog *pl.Program
			if mod.IsFactory(n) {
				prog, err = mod.Call(n)
			} else {
				prog, err = mod.Program(n)
			}
			if internal(err) {
				t.Errorf("%s %s: build: %v", f, n, err)
			}
			if err != nil || seen[prog.IR()] {
				continue
			}
			seen[prog.IR()] = true
			built++
			if compiles(f, n, prog) {
				compiled++
			}
		}
		// The programs upstream's pytest tests build, one per test and
		// combination of parametrize values.
		for _, id := range mod.Tests() {
			collected++
			prog, err := mod.Program(id)
			if internal(err) {
				t.Errorf("%s %s: build: %v", f, id, err)
			}
			if err != nil {
				if testing.Verbose() {
					t.Logf("%s %s: %v", f, id, err) // what does not build, and why
				}
				continue
			}
			testsBuilt++
			if compiles(f, id, prog) {
				testsCompiled++
			}
		}
	}
	t.Logf("%d files: %d programs build, %d compile to PTO; %d pytest tests build a program, %d of them build it, %d compile to PTO",
		len(files), built, compiled, collected, testsBuilt, testsCompiled)
}
