//go:build cgo

package pyfront_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/pyfront"
)

// passTestFiles are upstream's pass unit tests (tests/ut/ir/transforms) for
// the passes ptorepl has: the file and ptorepl's pass (passes joined by
// commas run in turn, as the file's tests chain them). A test whose body
// applies several of ptorepl's passes (`After = passes.convert_to_ssa()(After)`)
// runs that chain instead (testChain).
var passTestFiles = map[string]string{
	"test_ctrl_flow_transform.py":            "CtrlFlowTransform",
	"test_convert_to_ssa_pass.py":            "ConvertToSSA",
	"test_flatten_call_expr_pass.py":         "FlattenCallExpr",
	"test_outline_hierarchy_scopes.py":       "OutlineHierarchyScopes",
	"test_outline_incore_scopes.py":          "OutlineIncoreScopes",
	"test_convert_tensor_to_tile_ops.py":     "ConvertTensorToTileOps",
	"test_lower_composite_ops.py":            "LowerCompositeOps",
	"test_flatten_tile_nd_to_2d.py":          "FlattenTileNdTo2D",
	"test_infer_tile_memory_space.py":        "InferTileMemorySpace",
	"test_init_memref.py":                    "InitMemRef",
	"test_allocate_memory_addr_pass.py":      "InitMemRef,AllocateMemoryAddr",
	"test_materialize_comm_domain_scopes.py": "MaterializeCommDomainScopes",
	"test_lower_host_tensor_collectives.py":  "LowerHostTensorCollectives",
	"test_materialize_dist_tensor_ctx.py":    "MaterializeDistTensorCtx",
	"test_insert_comm_fence.py":              "InsertCommFence",
}

// testChain is the ptorepl passes test name's body applies to Before (and
// to Expected, which some tests normalise the same way), in order: each
// `passes.a()(passes.b()(X))` applies b then a to X, and `After =
// passes.c()(After)` goes on with After. A snake_case factory matches a
// pass by its letters; one ptorepl does not have (normalize_stmt_structure)
// is left out.
func testChain(src, name string, byName map[string]passes.Pass) (before, expected []string) {
	method := name[strings.LastIndex(name, ":")+1:]
	at := strings.Index(src, "def "+method+"(")
	if at < 0 {
		return nil, nil
	}
	indent := at - (strings.LastIndex(src[:at], "\n") + 1)
	lines := strings.Split(src[at:], "\n")
	body := lines[:1]
	for _, l := range lines[1:] {
		if t := strings.TrimLeft(l, " "); t != "" && len(l)-len(t) <= indent {
			break // the next definition at the def's depth
		}
		body = append(body, l)
	}
	key := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	known := map[string]string{}
	for n := range byName {
		known[key(n)] = n
	}
	for _, m := range passApply.FindAllStringSubmatch(strings.Join(body, "\n"), -1) {
		fs := passFactory.FindAllStringSubmatch(m[1], -1)
		var chain []string
		for i := len(fs) - 1; i >= 0; i-- {
			if n, ok := known[key(fs[i][1])]; ok {
				chain = append(chain, n)
			}
		}
		switch m[2] {
		case "Expected":
			expected = append(expected, chain...)
		case "Before", "After":
			before = append(before, chain...)
		}
	}
	return before, expected
}

// passApply is a nest of pass applications to one program variable.
var (
	passApply   = regexp.MustCompile(`((?:passes\.[a-z0-9_]+\(\)\(\s*)+)(\w+)\s*\)`)
	passFactory = regexp.MustCompile(`passes\.([a-z0-9_]+)\(\)`)
)

var showPassTest = flag.String("show-pass-test", "", "TestUpstreamPassTests: print ptorepl's result and upstream's Expected for the tests whose id contains this text")

// TestUpstreamPassTests runs upstream's own Before/Expected pass tests
// against ptorepl's passes: each test of the files above (a function, or a
// method of a Test* class) that defines a Before and an Expected program
// gets ptorepl's pass run on Before, compared structurally with Expected
// (names free, as upstream's assert_structural_equal). The tests that give
// Expected are listed in testdata/upstream_pass_tests.golden: one that no
// longer does fails the test (-update rewrites the list, for a reviewed
// diff); the others are logged with their first difference.
func TestUpstreamPassTests(t *testing.T) {
	dir := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if dir == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to run upstream's pass tests beside it")
	}
	ut := filepath.Join(dir, "..", "..", "tests", "ut", "ir", "transforms")
	byName := map[string]passes.Pass{}
	for _, p := range passes.Table() {
		byName[p.Name] = p
	}
	files := make([]string, 0, len(passTestFiles))
	for f := range passTestFiles {
		files = append(files, f)
	}
	sort.Strings(files)
	var passing []string
	total, unread := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(ut, f))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		mod, err := pyfront.Load(filepath.Join(ut, f))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		fileSame, fileTotal := 0, 0
		for _, name := range mod.Definers() {
			id := f + "::" + name
			progs, _, err := mod.Defined(name)
			if err != nil {
				t.Logf("%s: %v", id, err)
				unread++
				continue
			}
			before, expected := progs["Before"], progs["Expected"]
			if before == nil || expected == nil {
				continue
			}
			total++
			fileTotal++
			pass := passTestFiles[f]
			chain, norm := testChain(string(src), name, byName)
			if len(chain) > 1 {
				pass = strings.Join(chain, ",")
			}
			got, err := before, error(nil)
			for _, name := range strings.Split(pass, ",") {
				if err == nil {
					got, err = byName[name].Run(got)
				}
			}
			for _, name := range norm {
				if err == nil {
					expected, err = byName[name].Run(expected)
				}
			}
			if err == nil {
				err = ir.AssertStructuralEqual(got, expected, false)
			}
			if *showPassTest != "" && strings.Contains(id, *showPassTest) {
				if got != nil {
					t.Logf("%s: ptorepl's %s gives\n%s", id, pass, printer.Program(got))
				}
				t.Logf("%s: upstream's Expected\n%s", id, printer.Program(expected))
			}
			if err != nil {
				t.Logf("%s: %s: %v", id, pass, err)
				continue
			}
			passing = append(passing, id)
			fileSame++
		}
		t.Logf("%s: %d of %d Before/Expected tests give Expected", f, fileSame, fileTotal)
	}
	t.Logf("%d Before/Expected tests: %d give upstream's Expected; %d tests defining programs could not be read", total, len(passing), unread)

	golden := filepath.Join("testdata", "upstream_pass_tests.golden")
	text := strings.Join(passing, "\n") + "\n"
	if *update {
		if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	now := map[string]bool{}
	for _, id := range passing {
		now[id] = true
	}
	for _, id := range strings.Fields(string(b)) {
		if !now[id] {
			t.Errorf("%s gave upstream's Expected and no longer does", id)
		}
	}
	if len(passing) > len(strings.Fields(string(b))) {
		t.Logf("more tests give Expected than %s lists: run with -update to record them", golden)
	}
}

// passTestSource is a pass test in upstream's unit-test form, our own: a
// Test* class method defining Before and Expected, the pass call and the
// comparison after them (not run by the reader).
const passTestSource = `
import pypto.language as pl
import pypto.language.distributed as pld
from pypto import ir, passes

W = 16


class TestFence:
    ROWS = 1

    def test_store_then_notify(self):
        @pl.program
        class Before:
            @pl.function(type=pl.FunctionType.InCore, strict_ssa=True)
            def f(self, x: pl.Tensor[[1, W], pl.FP32], win: pld.DistributedTensor[[1, W], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
                t = pl.load(x, [0, 0], [1, W])
                pl.store(t, [0, 0], win)
                pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)

        @pl.program
        class Expected:
            @pl.function(type=pl.FunctionType.InCore, strict_ssa=True)
            def f(self, x: pl.Tensor[[1, W], pl.FP32], win: pld.DistributedTensor[[1, W], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
                t = pl.load(x, [0, 0], [1, W])
                pl.store(t, [0, 0], win)
                pl.system.cacheinvalid(win, [1, W], [0, 0])
                pl.system.fence()
                pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)

        ir.assert_structural_equal(passes.insert_comm_fence()(Before), Expected)

    def test_unpacked(self):
        rows = self.ROWS
        cols, n = W, 2

        @pl.program
        class Before:
            @pl.function(type=pl.FunctionType.InCore)
            def f(self, x: pl.Tensor[[rows, cols], pl.FP32], y: pl.Tensor[[n, 1], pl.FP32]):
                return


def test_continue_carries():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.InCore, strict_ssa=True)
        def f(self, a: pl.Tensor[[W], pl.FP32]) -> pl.Tensor[[W], pl.FP32]:
            for k, (acc, b) in pl.range(0, 6, 1, init_values=(a, a)):
                twice: pl.Tensor[[W], pl.FP32] = pl.add(acc, acc)
                if k == 3:
                    continue
                grown: pl.Tensor[[W], pl.FP32] = pl.add(b, a)
                acc, b = pl.yield_(twice, grown)
            return acc

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.InCore, strict_ssa=True)
        def f(self, a: pl.Tensor[[W], pl.FP32]) -> pl.Tensor[[W], pl.FP32]:
            for k, (acc, b) in pl.range(6, init_values=(a, a)):
                twice = pl.add(acc, acc)
                if k == 3:
                    m1, m2 = pl.yield_(twice, b)
                else:
                    grown = pl.add(b, a)
                    m1, m2 = pl.yield_(twice, grown)
                acc, b = pl.yield_(m1, m2)
            return acc


def test_break_carries():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.InCore, strict_ssa=True)
        def f(self, a: pl.Tensor[[W], pl.FP32]) -> pl.Tensor[[W], pl.FP32]:
            for k, (acc,) in pl.range(0, 8, 1, init_values=(a,)):
                if k > 4:
                    break
                grown: pl.Tensor[[W], pl.FP32] = pl.add(acc, a)
                acc = pl.yield_(grown)
            return acc

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.InCore, strict_ssa=True)
        def f(self, a: pl.Tensor[[W], pl.FP32]) -> pl.Tensor[[W], pl.FP32]:
            k: pl.Scalar[pl.INDEX] = 0
            stop: pl.Scalar[pl.BOOL] = False
            for (acc,) in pl.while_(init_values=(a,)):
                pl.cond(k < 8 and not stop)
                if k > 4:
                    stop: pl.Scalar[pl.BOOL] = True
                    merged = pl.yield_(acc)
                else:
                    grown = pl.add(acc, a)
                    merged = pl.yield_(grown)
                if not stop:
                    k = k + 1
                acc = pl.yield_(merged)
            return acc


def test_entry_load_and_set_notify():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, x: pl.Tensor[[W], pl.FP32], sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[W], pl.FP32]:
            pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.Set)
            if n == 0:
                a: pl.Tensor[[W], pl.FP32] = pl.add(x, x)
                z: pl.Tensor[[W], pl.FP32] = pl.yield_(a)
            else:
                b: pl.Tensor[[W], pl.FP32] = pl.mul(x, x)
                z: pl.Tensor[[W], pl.FP32] = pl.yield_(b)
            return z

        @pl.function
        def main(self, x: pl.Tensor[[W], pl.FP32], sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[W], pl.FP32]:
            r = self.k(x, sig, peer, n)
            return r

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, x: pl.Tensor[[W], pl.FP32], sig: pl.Out[pld.DistributedTensor[[2, 1], pl.INT32]], peer: pl.Scalar[pl.INT32], n: pl.Scalar[pl.INT64], out_0: pl.Out[pl.Tensor[[W], pl.FP32]]) -> pl.Tensor[[W], pl.FP32]:
            x_tile: pl.Tile[[W], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0], [W], [W], target_memory=pl.Mem.Vec)
            pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.Set)
            if n == 0:
                a: pl.Tile[[W], pl.FP32, pl.Mem.Vec] = pl.tile.add(x_tile, x_tile)
                z: pl.Tile[[W], pl.FP32, pl.Mem.Vec] = pl.yield_(a)
            else:
                b: pl.Tile[[W], pl.FP32, pl.Mem.Vec] = pl.tile.mul(x_tile, x_tile)
                z: pl.Tile[[W], pl.FP32, pl.Mem.Vec] = pl.yield_(b)
            stored: pl.Tensor[[W], pl.FP32] = pl.tile.store(z, [0], out_0)
            return stored

        @pl.function
        def main(self, x: pl.Tensor[[W], pl.FP32], sig: pl.Out[pld.DistributedTensor[[2, 1], pl.INT32]], peer: pl.Scalar[pl.INT32], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[W], pl.FP32]:
            out_0: pl.Tensor[[W], pl.FP32] = pl.create_tensor([W], dtype=pl.FP32)
            r = self.k(x, sig, peer, n, out_0)
            return r


def helper():
    return 1


def test_reassigned(tmp_path):
    @pl.program(strict_ssa=True)
    class Before:
        @pl.function(type=pl.FunctionType.InCore)
        def f(self, x: pl.Tensor[[1, W], pl.FP32], y: pl.Out[pl.Tensor[[1, W], pl.FP32]]):
            t = pl.load(x, [0, 0], [1, W])
            if pl.const(1, pl.INT32) > 0:
                t = pl.add(t, t)
            pl.store(t, [0, 0], y)
`

// The reader lists the defs that define programs (functions and Test*
// methods, fixtures left unbound), builds their programs without running
// the rest of the body, and ptorepl's pass on Before gives Expected
// (InsertCommFence; CtrlFlowTransform on a loop that carries values and
// continues or breaks; ConvertTensorToTileOps's entry loads and
// directions). Under strict_ssa every assignment binds a new variable.
func TestDefinedPrograms(t *testing.T) {
	mod, err := pyfront.Parse("test_fence.py", []byte(passTestSource))
	require.NoError(t, err)
	require.Equal(t, []string{"TestFence::test_store_then_notify", "TestFence::test_unpacked", "test_continue_carries", "test_break_carries", "test_entry_load_and_set_notify", "test_reassigned"}, mod.Definers())
	progs, order, err := mod.Defined("TestFence::test_store_then_notify")
	require.NoError(t, err)
	require.Equal(t, []string{"Before", "Expected"}, order)
	got, err := passes.InsertCommFence(progs["Before"])
	require.NoError(t, err)
	require.NoError(t, ir.AssertStructuralEqual(got, progs["Expected"], false))
	require.Error(t, ir.AssertStructuralEqual(progs["Before"], progs["Expected"], false), "the pass must change Before")

	// A Test* method's self reads the class's constants; a tuple unpacks.
	progs, _, err = mod.Defined("TestFence::test_unpacked")
	require.NoError(t, err)
	require.Contains(t, printer.Program(progs["Before"]), "def f(x: pl.Tensor[[1, 16], pl.FP32], y: pl.Tensor[[2, 1], pl.FP32]):")

	progs, _, err = mod.Defined("test_reassigned")
	require.NoError(t, err)
	text := printer.Program(progs["Before"])
	require.Contains(t, text, "t_1", "strict_ssa: the reassignment in the if is a new variable\n%s", text)
	// A continue in a loop that carries values: its branch yields each of
	// the loop's own yield values that is bound before the continue
	// (twice) and the iter-arg for the rest (b), as upstream resolves them;
	// the other branch yields the loop's own values, into the if's phi.
	progs, _, err = mod.Defined("test_continue_carries")
	require.NoError(t, err)
	got, err = passes.CtrlFlowTransform(progs["Before"])
	require.NoError(t, err)
	require.NoError(t, ir.AssertStructuralEqual(got, progs["Expected"], false), printer.Program(got))
	require.Contains(t, printer.Program(got), "pl.yield_(twice, b)")

	// A break there: a while loop carrying the same values, its flag set
	// in the branch that breaks (a name that branch binds again is its
	// own under strict_ssa, so the loop's test reads the outer flag).
	progs, _, err = mod.Defined("test_break_carries")
	require.NoError(t, err)
	got, err = passes.CtrlFlowTransform(progs["Before"])
	require.NoError(t, err)
	require.NoError(t, ir.AssertStructuralEqual(got, progs["Expected"], false), printer.Program(got))

	// ConvertTensorToTileOps: a parameter both branches read is loaded
	// once at the top; a window only a Set notify writes becomes Out (a
	// window parameter of a program class is In until a pass says
	// otherwise, as upstream's parser reads it), and so does the caller's
	// parameter it is passed from; the caller passes the new output.
	progs, _, err = mod.Defined("test_entry_load_and_set_notify")
	require.NoError(t, err)
	require.Equal(t, ir.In, progs["Before"].Function("k").Direction(1))
	got, err = passes.ConvertTensorToTileOps(progs["Before"])
	require.NoError(t, err)
	require.NoError(t, ir.AssertStructuralEqual(got, progs["Expected"], false), printer.Program(got))

	_, _, err = mod.Defined("helper")
	require.ErrorContains(t, err, `no function "helper" that defines programs`)
}
