//go:build cgo

package pyfront_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/pyfront"
)

// TestBareFunction: a top-level @pl.function (upstream's pl.parse reads
// it as a lone function) is a program of that one function, named after
// it, equal to the same function written as the method of a class.
func TestBareFunction(t *testing.T) {
	const body = `    @pl.function(type=pl.FunctionType.InCore)
    def scale(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]]):
        t: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        u: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)
        y: pl.Tensor[[4, 16], pl.FP32] = pl.tile.store(u, [0, 0], y)
`
	const head = "import pypto.language as pl\n\n"
	bare := head + dedent(body)
	class := head + "@pl.program\nclass scale:\n" + strings.ReplaceAll(body, "def scale(x", "def scale(self, x")
	read := func(src string) *ir.Program {
		t.Helper()
		mod, err := pyfront.Parse("f.py", []byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		if got := mod.Names(); len(got) != 1 || got[0] != "scale" {
			t.Fatalf("names %v, want [scale]", got)
		}
		p, err := mod.Program("scale")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	got, want := read(bare), read(class)
	if err := ir.AssertStructuralEqual(want, got, true); err != nil {
		t.Fatalf("the bare function differs from the class form: %v", err)
	}
	if a, b := printer.Program(got), printer.Program(want); a != b {
		t.Fatalf("prints differ:\n%s\n---\n%s", a, b)
	}
}

// readProgram reads src and returns its program called name.
func readProgram(t *testing.T, src, name string) *ir.Program {
	t.Helper()
	mod, err := pyfront.Parse("p.py", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	p, err := mod.Program(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func dedent(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		b.WriteString(strings.TrimPrefix(l, "    "))
	}
	return b.String()
}

// TestDynamicOnce: pl.dynamic called twice with one name in a file is one
// dimension, declared once in the printed program.
func TestDynamicOnce(t *testing.T) {
	src := `import pypto.language as pl

N = pl.dynamic("N")
M = pl.dynamic("N")

@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[N, 4], pl.FP32], y: pl.Tensor[[M, 4], pl.FP32]):
    pass
`
	mod, err := pyfront.Parse("d.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := mod.Program("k")
	if err != nil {
		t.Fatal(err)
	}
	text := printer.Program(p)
	if n := strings.Count(text, `N = pl.dynamic("N")`); n != 1 {
		t.Fatalf("N declared %d times, want once:\n%s", n, text)
	}
}

// TestTupleReturnAnnotation: -> tuple[A, B] written over several lines (a
// generic type to the grammar, as upstream's model examples write it)
// gives the function both return types.
func TestTupleReturnAnnotation(t *testing.T) {
	src := `import pypto.language as pl

@pl.function(type=pl.FunctionType.InCore)
def k(
    x: pl.Tensor[[4, 16], pl.FP32],
    y: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
) -> tuple[
    pl.Tensor[[4, 16], pl.FP32],
    pl.Tensor[[4, 16], pl.FP32],
]:
    return x, y
`
	mod, err := pyfront.Parse("t.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := mod.Program("k")
	if err != nil {
		t.Fatal(err)
	}
	fn := p.Functions[0]
	if len(fn.ReturnTypes) != 2 {
		t.Fatalf("return types %v, want two tensors", fn.ReturnTypes)
	}
	for _, rt := range fn.ReturnTypes {
		if _, ok := rt.(*ir.TensorType); !ok {
			t.Fatalf("return types %v, want two tensors", fn.ReturnTypes)
		}
	}
}

// TestClassFormUnifiedSpellings: a hand-written @pl.program class may use
// the spellings of PyPTO's user guide (pl.load, pl.add, pld.rank, keyword
// peer=/value=/expected= with bare literals), as upstream's parser reads
// them in any function; they build the same IR as the printed spellings.
func TestClassFormUnifiedSpellings(t *testing.T) {
	const head = `import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]]) -> pl.Tensor[[1, 64], pl.FP32]:
`
	const guide = head + `        ctx = pld.get_comm_ctx(sig)
        me = pld.rank(ctx)
        pld.system.notify(sig, peer=1 - me, offsets=[me, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, offsets=[1 - me, 0], expected=1, cmp=pld.WaitCmp.Ge)
        t = pl.load(x, [0, 0], [1, 64])
        u = pl.add(t, t)
        v = pl.mul(u, 2.0)
        y = pl.store(v, [0, 0], y)
        return y
`
	const printed = head + `        ctx: pld.CommCtx = pld.system.get_comm_ctx(sig)
        me: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        pld.system.notify(sig, 1 - me, [me, 0], pl.const(1, pl.INT32), op=0)
        pld.system.wait(sig, [1 - me, 0], pl.const(1, pl.INT32), cmp=1)
        t: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)
        u: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)
        v: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(u, 2.0)
        y: pl.Tensor[[1, 64], pl.FP32] = pl.tile.store(v, [0, 0], y)
        return y
`
	read := func(src string) *ir.Program { return readProgram(t, src, "P") }
	got, want := read(guide), read(printed)
	if a, b := printer.Program(got), printer.Program(want); a != b {
		t.Fatalf("the guide's spellings print differently:\n%s\n---\n%s", a, b)
	}
	if err := ir.AssertStructuralEqual(want, got, true); err != nil {
		t.Fatalf("the guide's spellings build different IR: %v", err)
	}
}

// TestSuffixedNameIsRebinding pins the rule README states: in a class, x_1
// defined beside x is a rebinding of x (the printer's clash renaming read
// back), while the @pl.jit authoring form keeps the name as written.
func TestSuffixedNameIsRebinding(t *testing.T) {
	const body = `
        acc = pl.load(x, [0, 0], [1, 8])
        for i in pl.range(3):
            acc_1 = pl.add(acc, acc)
        return pl.store(acc_1, [0, 0], y)
`
	const sig = "(x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:"
	class := "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n    def k(self, " + sig[1:] + body
	jit := "import pypto.language as pl\n\n@pl.jit.incore\ndef k" + sig + strings.ReplaceAll(body, "\n        ", "\n    ") +
		"\n@pl.jit\ndef o" + sig + "\n    return k(x, y)\n\n@pl.jit.host\ndef P(x: pl.Tensor[[2, 1, 8], pl.FP32], y: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]]):\n    for r in pl.range(2):\n        o(x[r], y[r], device=r)\n"
	for _, c := range []struct {
		form, src, want string
	}{{"class", class, "acc"}, {"authoring", jit, "acc_1"}} {
		mod, err := pyfront.Parse("p.py", []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.form, err, c.src)
		}
		p, err := mod.Program("P")
		if err != nil {
			t.Fatalf("%s: %v", c.form, err)
		}
		var got string
		ir.WalkStmt(p.Function("k").Body, nil, func(s ir.Stmt) {
			if a, ok := s.(*ir.AssignStmt); ok {
				if call, ok := a.Value.(*ir.Call); ok && call.Op == ir.TileAdd {
					got = a.Var.Name
				}
			}
		})
		if got != c.want {
			t.Errorf("%s form: the loop's add binds %q, want %q", c.form, got, c.want)
		}
	}
}

// TestInlineHelperSplices: a call of an @pl.inline helper reads as its body
// written at the call site (the parameters bound to the arguments, the
// return value the call's), as upstream's parser splices it.
func TestInlineHelperSplices(t *testing.T) {
	const head = "import pypto.language as pl\n\n"
	const helper = `@pl.inline
def double_then_add(a, b):
    d = pl.add(a, a)
    return pl.add(d, b)

`
	const class = `@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 8])
`
	// Written out by hand: the body with a and b replaced by t.
	spliced := head + class + "        d = pl.add(t, t)\n        u = pl.add(d, t)\n        return pl.store(u, [0, 0], y)\n"
	called := head + helper + class + "        u = double_then_add(t, t)\n        return pl.store(u, [0, 0], y)\n"
	read := func(src string) *ir.Program { return readProgram(t, src, "P") }
	got, want := printer.Program(read(called)), printer.Program(read(spliced))
	if got != want {
		t.Fatalf("the helper's call reads as\n%s\nwant\n%s", got, want)
	}
}

// TestInlineHelperReachesKernels: a @pl.jit host entry's program holds the
// kernels its functions reach through an @pl.jit.inline helper.
func TestInlineHelperReachesKernels(t *testing.T) {
	const src = `import pypto.language as pl

@pl.jit.incore
def k(x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]):
    y = pl.store(pl.load(x, [0, 0], [1, 8]), [0, 0], y)
    return y

@pl.jit.inline
def run_k(a, b):
    return k(a, b)

@pl.jit
def o(x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]):
    return run_k(x, y)

@pl.jit.host
def h(x: pl.Tensor[[2, 1, 8], pl.FP32], y: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]]):
    for r in pl.range(2):
        o(x[r], y[r], device=r)
`
	p := readProgram(t, src, "h")
	for _, name := range []string{"k", "o", "h"} {
		if p.Function(name) == nil {
			t.Errorf("program h lacks %s:\n%s", name, printer.Program(p))
		}
	}
	if p.Function("run_k") != nil {
		t.Errorf("the inline helper became a function:\n%s", printer.Program(p))
	}
}

// x[i, r] on a host tensor is the slice at those leading indices with both
// dimensions dropped, as upstream's per-rank dispatch argument.
func TestMultiIndex(t *testing.T) {
	src := `import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def per_device(self, x: pl.Tensor[[1, 32], pl.FP32], y: pl.Out[pl.Tensor[[1, 32], pl.FP32]]):
        pass
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, xs: pl.Tensor[[2, 4, 1, 32], pl.FP32], ys: pl.Out[pl.Tensor[[4, 1, 32], pl.FP32]]):
        for r in pl.range(pld.world_size()):
            self.per_device(xs[1, r], ys[r], device=r)
`
	text := printer.Program(readProgram(t, src, "P"))
	for _, want := range []string{
		"pl.tensor.slice(xs, [1, 1, 1, 32], [1, r, 0, 0], [], [0, 1])",
		"pl.tensor.slice(ys, [1, 1, 32], [r, 0, 0], [], [0])",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("want %s in\n%s", want, text)
		}
	}
	// Slices mix with scalar indices: a slice keeps its dimension.
	mixed := strings.Replace(src, "xs[1, r]", "xs[1, r, :, 0:32]", 1)
	if text := printer.Program(readProgram(t, mixed, "P")); !strings.Contains(text, "pl.tensor.slice(xs, [1, 1, 1, 32], [1, r, 0, 0], [], [0, 1])") {
		t.Errorf("xs[1, r, :, 0:32] reads as another slice:\n%s", text)
	}
	// xs[0:1, r] keeps its leading dimension: [1, 1, 32], as many elements
	// as the [1, 32] parameter, which upstream's calls accept (they check
	// only the arity); xs[0:2, r] holds twice as many and does not fit.
	keep := strings.Replace(src, "xs[1, r]", "xs[0:1, r]", 1)
	if text := printer.Program(readProgram(t, keep, "P")); !strings.Contains(text, "pl.tensor.slice(xs, [1, 1, 1, 32], [0, r, 0, 0], [], [1])") {
		t.Errorf("xs[0:1, r] reads as another slice:\n%s", text)
	}
	mod, err := pyfront.Parse("p.py", []byte(strings.Replace(src, "xs[1, r]", "xs[0:2, r]", 1)))
	if err == nil {
		_, err = mod.Program("P") // a program that cannot be built fails alone
	}
	if err == nil || !strings.Contains(err.Error(), "per_device argument x: expected pl.Tensor[[1, 32], pl.FP32], given pl.Tensor[[2, 1, 32], pl.FP32]") {
		t.Fatalf("a slice of twice the elements: got %v", err)
	}
}

// pl.load(..., valid_shape=...) keeps the valid shape it is given (a
// padded load) instead of taking the tile's whole shape.
func TestLoadValidShapeKeyword(t *testing.T) {
	src := `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 2], pl.FP32], y: pl.Out[pl.Tensor[[1, 2], pl.FP32]]):
        t = pl.load(x, [0, 0], [1, 8], valid_shape=[1, 2])
        y = pl.store(t, [0, 0], y)
`
	text := printer.Program(readProgram(t, src, "P"))
	if want := "pl.tile.load(x, [0, 0], [1, 8], [1, 2], target_memory=pl.Mem.Vec)"; !strings.Contains(text, want) {
		t.Errorf("want %s in\n%s", want, text)
	}
}

// Two loops that name their iter-args and yield targets alike, each with a
// tile whose valid shape names a value the loop computes (upstream's
// allreduce-intrinsic staging loops): ConvertToSSA versions those names
// and the variables inside the tiles' types, so the program is in SSA form
// and compiles to PTO.
func TestSSAVersionsNamedLoopValuesAndTypes(t *testing.T) {
	loop := `        for col, (out_iter,) in pl.range(0, 100, 64, init_values=(%s,)):
            valid = pl.min(64, 100 - col)
            local = pl.load(inp, [0, col], [1, 64], valid_shape=[1, valid])
            out_iter = pl.store(local, [0, col], out_iter)
            done = pl.yield_(out_iter)
`
	src := `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, inp: pl.Tensor[[1, 100], pl.FP32], out: pl.Out[pl.Tensor[[1, 100], pl.FP32]]):
` + fmt.Sprintf(loop, "out") + fmt.Sprintf(loop, "done")
	p := readProgram(t, src, "P")
	ssa, err := passes.ConvertToSSA(p)
	if err != nil {
		t.Fatal(err)
	}
	if !passes.Holds(passes.SSAForm, ssa) {
		t.Fatalf("not in SSA form:\n%s", printer.Program(ssa))
	}
	text := printer.Program(ssa)
	for _, want := range []string{
		"for col_1, (out_iter__iter_v2,) in pl.range(0, 100, 64, init_values=(done__rv_v0,)):",
		"local__ssa_v1: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, valid__ssa_v1])]",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("want %s in\n%s", want, text)
		}
	}
	c, err := pl.CompileIR(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.PTOText(); err != nil {
		t.Fatal(err)
	}
}

// Kwargs a call leaves out take the DSL's defaults from the op's registry
// entry, so a read allreduce stores what the Go builder's does.
func TestOmittedKwargsTakeRegistryDefaults(t *testing.T) {
	src := `import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, data: pl.InOut[pld.DistributedTensor[[1, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]], src: pl.Tensor[[1, 64], pl.FP32]):
        data = pld.tensor.allreduce(data, sig)
        pld.tensor.put(data, 1, src)
`
	text := printer.Program(readProgram(t, src, "P"))
	for _, want := range []string{
		"pld.tensor.allreduce(data, sig, op=0, mode='mesh', core_num=1)",
		"data: pld.DistributedTensor[[1, 64], pl.FP32] = pld.tensor.allreduce(",
		"pld.tensor.put(data, pl.const(1, pl.INT32), src, atomic=pl.AtomicType.None_)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("want %s in\n%s", want, text)
		}
	}
}

// A tile view written out reads back canonical: one that says what the
// shape implies (a [16, 1] column is col_major) is no view at all and
// prints without one; one that says otherwise stays and prints as written.
func TestReadsTileViewsCanonical(t *testing.T) {
	for _, c := range []struct{ view, want string }{
		{"pl.TileView(blayout=pl.TileLayout.col_major)", "pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec]"},
		{"pl.TileView(valid_shape=[16, 1])", "pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec]"},
		{"pl.TileView()", "pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec]"},
		{"pl.TileView(blayout=pl.TileLayout.row_major)", "pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.row_major)]"},
		{"pl.TileView(valid_shape=[9, 1])", "pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[9, 1])]"},
	} {
		src := `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 1], pl.FP32], y: pl.Out[pl.Tensor[[16, 1], pl.FP32]]) -> pl.Tensor[[16, 1], pl.FP32]:
        t: pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec, ` + c.view + `] = pl.tile.load(x, [0, 0], [16, 1], [16, 1], target_memory=pl.Mem.Vec)
        y: pl.Tensor[[16, 1], pl.FP32] = pl.tile.store(t, [0, 0], y)
        return y
`
		p := readProgram(t, src, "P")
		text := printer.Program(p)
		if !strings.Contains(text, "t: "+c.want+" = ") {
			t.Errorf("%s reads back as\n%s\nwant t: %s", c.view, text, c.want)
		}
	}
}

// TestLoadDefaults: a load that leaves out its valid shape or memory reads
// as upstream's load function builds it (valid_shape = shapes, Vec), in
// every spelling and argument style; a window parameter of a program class
// is In, as written; a tensor.create without layout stores ND.
func TestLoadDefaults(t *testing.T) {
	const tmpl = `import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4, 16], pl.FP32], w: pld.DistributedTensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        t: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = LOAD
        y: pl.Tensor[[4, 16], pl.FP32] = pl.tile.store(t, [0, 0], y)
        return y
    @pl.function
    def main(self, x: pl.Tensor[[4, 16], pl.FP32], w: pld.DistributedTensor[[4, 16], pl.FP32]) -> pl.Tensor[[4, 16], pl.FP32]:
        y: pl.Tensor[[4, 16], pl.FP32] = CREATE
        y = self.k(x, w, y)
        return y
`
	full := strings.NewReplacer("LOAD", "pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)",
		"CREATE", "pl.tensor.create([4, 16], dtype=pl.FP32, layout=pl.TensorLayout.ND)").Replace(tmpl)
	want := readProgram(t, full, "P")
	require.Equal(t, ir.In, want.Function("k").Direction(1), "a window parameter is In as written")
	for _, c := range []struct{ load, create string }{
		{"pl.tile.load(x, [0, 0], [4, 16])", "pl.tensor.create([4, 16], dtype=pl.FP32)"},
		{"pl.load(x, [0, 0], [4, 16])", "pl.create_tensor([4, 16], dtype=pl.FP32)"},
		{"pl.load(x, offsets=[0, 0], shapes=[4, 16])", "pl.create_tensor([4, 16], pl.FP32)"},
		{"pl.tile.load(x, [0, 0], [4, 16], target_memory=pl.Mem.Vec)", "pl.tensor.create([4, 16], dtype=pl.FP32, manual_dep=False)"},
	} {
		src := strings.NewReplacer("LOAD", c.load, "CREATE", c.create).Replace(tmpl)
		got := readProgram(t, src, "P")
		require.NoError(t, ir.AssertStructuralEqual(got, want, true), "%s; %s", c.load, c.create)
		require.Equal(t, printer.Program(want), printer.Program(got))
	}
}
