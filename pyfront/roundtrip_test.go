//go:build cgo

package pyfront_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/pyfront"
	"github.com/ptorepl/ptorepl/testprogs"
)

// roundTrip reads the printed text of p back and checks that the result is
// structurally equal to p and prints to the same bytes.
func roundTrip(t *testing.T, where string, p *ir.Program) {
	t.Helper()
	text := printer.Program(p)
	q := readOne(t, where, text)
	if q == nil {
		return
	}
	// MemRefs too: every part of them must print and read back.
	if err := ir.AssertStructuralEqualMemRefs(p, q, true); err != nil {
		t.Fatalf("%s: read-back IR differs: %v\n%s", where, err, text)
	}
	if got := printer.Program(q); got != text {
		t.Fatalf("%s: read-back prints differently:\n%s", where, firstDiff(text, got))
	}
}

func readOne(t *testing.T, where, text string) *ir.Program {
	t.Helper()
	mod, err := pyfront.Parse(where, []byte(text))
	if err != nil {
		t.Fatalf("%s: %v\n%s", where, err, text)
		return nil
	}
	names := mod.Names()
	if len(names) != 1 {
		t.Fatalf("%s: want one program, got %v", where, names)
	}
	q, err := mod.Program(names[0])
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n want %s\n got  %s", i+1, x, y)
		}
	}
	return "(no line differs)"
}

// programs are the test programs the repository's other tests build.
func programs() map[string]*pl.Program {
	out := map[string]*pl.Program{
		"Quickstart":            testprogs.Quickstart(),
		"QuickstartSized64":     testprogs.QuickstartSized(64),
		"RankProgram":           testprogs.RankProgram(false),
		"RankProgramModel":      testprogs.RankProgram(true),
		"WindowProgram":         testprogs.WindowProgram(),
		"BarrierHandProgram":    testprogs.BarrierHandProgram(),
		"BarrierBuiltinProgram": testprogs.BarrierBuiltinProgram(),
		"TagProgramSet":         testprogs.TagProgram(true),
		"TagProgramAdd":         testprogs.TagProgram(false),
	}
	for _, mode := range []string{"load", "store", "put", "get"} {
		out["RingProgram_"+mode] = testprogs.RingProgram(mode)
	}
	out["CollectiveAllReduce"] = testprogs.Collective("AllReduce", 4, 4, func(f *pl.Func, x, data, sig pl.Expr) {
		testprogs.StageRows(f, x, data, 4)
		f.Set(data, pld.AllReduce(data, sig))
	})
	out["CollectiveBarrierStatic"] = testprogs.Collective("Barrier", 4, 4, func(f *pl.Func, x, data, sig pl.Expr) {
		testprogs.StageRows(f, x, data, 4)
		f.Set(sig, pld.Barrier(sig))
	})
	out["Loopback1301"] = testprogs.Loopback1301(func(f *pl.Func, _ pl.Expr, slot func(int) pl.Expr) {
		s := slot(0)
		f.Do(pl.CommNotify(s, 1, "atomic_add"))
		f.Do(pl.CommWait(s, 1, "ge"))
	})
	return out
}

// roundTripStages reads back p and every stage of its pipeline, failing
// on the first difference and naming the stage.
func roundTripStages(t *testing.T, name string, p *ir.Program) {
	t.Helper()
	roundTrip(t, name+"/Input", p)
	pipe := passes.NewPipeline(p)
	for !pipe.Done() {
		st, _, err := pipe.Step()
		if err != nil {
			t.Fatalf("the pipeline fails at %s: %v", st.Name, err)
		}
		roundTrip(t, name+"/"+st.Name, st.Program)
	}
}

// stageText is p printed after the pipeline's pass named pass.
func stageText(t *testing.T, p *ir.Program, pass string) string {
	t.Helper()
	pipe := passes.NewPipeline(p)
	for !pipe.Done() {
		st, _, err := pipe.Step()
		if err != nil {
			t.Fatalf("the pipeline fails at %s: %v", st.Name, err)
		}
		if st.Name == pass {
			return st.Text
		}
	}
	t.Fatalf("the pipeline has no pass %s", pass)
	return ""
}

// TestRoundTripPipeline reads back every stage of every test program.
func TestRoundTripPipeline(t *testing.T) {
	for name, prog := range programs() {
		t.Run(name, func(t *testing.T) {
			roundTripStages(t, name, prog.IR())
		})
	}
}

// stages splits a passes golden into (stage name, program text) pairs.
func stages(text string) [][2]string {
	var out [][2]string
	parts := strings.Split(text, "# ==== ")
	for _, p := range parts[1:] {
		head, body, _ := strings.Cut(p, "\n")
		if strings.HasSuffix(head, ": unchanged") {
			continue
		}
		out = append(out, [2]string{head, strings.TrimRight(body, "\n")})
	}
	return out
}

// TestRoundTripPassGoldens reads every stage of the pass goldens, checks it
// prints back byte for byte, and runs the pipeline on the read Input: each
// stage must print as the golden says and read back structurally equal.
func TestRoundTripPassGoldens(t *testing.T) {
	files, _ := filepath.Glob("../passes/testdata/*.stages.py")
	if len(files) == 0 {
		t.Fatal("no pass goldens found")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]*ir.Program{}
			for _, st := range stages(string(raw)) {
				where := filepath.Base(file) + "/" + st[0]
				q := readOne(t, where, st[1])
				if got := printer.Program(q); got != st[1] {
					t.Fatalf("%s: read-back prints differently:\n%s", where, firstDiff(st[1], got))
				}
				want[st[0]] = q
			}
			// The pipeline on the read Input gives, stage by stage, what the
			// golden's stages read back as (names aside: a printed x_1 is
			// read as a variable named x_1, so passes derive other names).
			pipe := passes.NewPipeline(want["Input"])
			last := want["Input"]
			for !pipe.Done() {
				st, _, err := pipe.Step()
				if err != nil {
					t.Fatalf("pipeline on the read Input fails at %s: %v", st.Name, err)
				}
				w, ok := want[st.Name]
				if !ok {
					w = last
				}
				if err := ir.AssertStructuralEqual(w, st.Program, true); err != nil {
					t.Fatalf("%s: the read Input lowers differently: %v", st.Name, err)
				}
				last = w
				roundTrip(t, filepath.Base(file)+"/"+st.Name, st.Program)
			}
		})
	}
}

// TestReadsCommCtxSpellings reads the printed form of upstream #2487 too:
// pld.CommCtx for the context type and the pld import line.
func TestReadsCommCtxSpellings(t *testing.T) {
	p := testprogs.Quickstart().IR()
	lowered, err := passes.Lower(p)
	if err != nil {
		t.Fatal(err)
	}
	text := printer.Program(lowered)
	const imports = "import pypto.language as pl\nimport pypto.language.distributed as pld\n"
	if !strings.Contains(text, "pld.CommCtx") || !strings.Contains(text, imports) {
		t.Fatal("the lowered quickstart should use the comm context type and import pld")
	}
	// The spelling before #2487: CommCtxType and no pld import line.
	older := strings.ReplaceAll(text, "pld.CommCtx", "pld.CommCtxType")
	older = strings.Replace(older, imports, "import pypto.language as pl\n", 1)
	for _, src := range []string{text, older} {
		q := readOne(t, "quickstart", src)
		if err := ir.AssertStructuralEqual(lowered, q, true); err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
	}
}

// TestRoundTripPrinterGoldens reads the printer's whole-program goldens
// back: each prints to the same bytes, and reading that print again gives
// a structurally equal program.
func TestRoundTripPrinterGoldens(t *testing.T) {
	for _, name := range []string{"ringshift.golden", "comm_domain.golden"} {
		raw, err := os.ReadFile(filepath.Join("..", "printer", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.TrimRight(string(raw), "\n")
		q := readOne(t, name, text)
		if got := printer.Program(q); got != text {
			t.Fatalf("%s: read-back prints differently:\n%s", name, firstDiff(text, got))
		}
		roundTrip(t, name, q)
		if name == "comm_domain.golden" && (len(q.CommGroups) != 2 || len(q.CommGroups[1].Devices) != 2) {
			t.Fatalf("comm groups not rebuilt from the comments: %+v", q.CommGroups)
		}
	}
}

// TestRoundTripAuthored: programs read from the authoring form print, and
// read back, at every stage, like the Go-built ones.
func TestRoundTripAuthored(t *testing.T) {
	progs := map[string]*ir.Program{}
	for _, file := range []string{"rank_basics.py", "ring.py", "sum_all.py", "inline_helpers.py", "class_style.py", "slices.py", "scopes.py", "jit_samples.py", "jit_cases.py", "callbacks.py", "nested_if.py", "module_kernels.py", "reductions.py", "extras.py",
		"vector_ops.py", "narrow_valid.py", "spmd.py", "mat_operands.py", "matmul_trans.py", "gather.py", "scatter.py", "argmax.py", "transpose.py", "valid_shapes.py", "tile_elements.py", "slice_windows.py", "task_graph.py", "part_ops.py", "mscatter.py", "task_races.py", "local_array.py", "jit_pytest.py", "sort.py", "compare.py", "scatter_update.py", "func_attrs.py", "dyn_spmd.py", "splitk/model.py", "random.py", "promote.py", "reinterpret.py", "convert_store.py", "unpack_loop.py", "init_cond.py", "vec_into_cube.py", "gather_row.py", "tile_subscript.py", "split_aiv.py", "syncall.py", "crosscore_sync.py", "pipes.py", "predicate.py", "memref_slots.py", "gather_compare.py", "harness_cases.py", "bitwise.py", "select_ops.py", "control_flow.py", "gemv.py", "extract.py", "broadcast.py", "batch_matmul.py", "trig.py", "mgather.py", "gatherb.py", "gather_nd.py", "precision.py", "matmul_valid.py", "mgather_mat.py", "sels_carrier.py", "row_expand_packed.py", "prefetch.py", "ragged_tail.py", "bare_window.py", "load_layouts.py", "no_dep.py", "dump_tags.py", "script_calls.py"} {
		mod, err := pyfront.Load(filepath.Join("testdata", "authoring", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range mod.Names() {
			if mod.IsFactory(n) {
				continue // called below
			}
			if file == "broadcast.py" && n == "OuterOps" {
				continue // does not compile by design (TestOuterBroadcast)
			}
			p, err := mod.Program(n)
			if err != nil {
				t.Fatal(err)
			}
			progs[file+"/"+n] = p
		}
	}
	fac, err := pyfront.Load(filepath.Join("testdata", "authoring", "factory.py"))
	if err != nil {
		t.Fatal(err)
	}
	style, err := pyfront.Load(filepath.Join("testdata", "authoring", "class_style.py"))
	if err != nil {
		t.Fatal(err)
	}
	scaled, err := style.Call("build_scaled", 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	progs["class_style.py/build_scaled(4, factor=3)"] = scaled
	helped, err := pyfront.Load(filepath.Join("testdata", "authoring", "py_helpers.py"))
	if err != nil {
		t.Fatal(err)
	}
	if progs["py_helpers.py/build_scale(stripes=3)"], err = helped.Call("build_scale", 3); err != nil {
		t.Fatal(err)
	}
	piped, err := pyfront.Load(filepath.Join("testdata", "authoring", "pipes.py"))
	if err != nil {
		t.Fatal(err)
	}
	if progs["pipes.py/build_ring(True)"], err = piped.Call("build_ring", true); err != nil {
		t.Fatal(err)
	}
	slotted, err := pyfront.Load(filepath.Join("testdata", "authoring", "memref_slots.py"))
	if err != nil {
		t.Fatal(err)
	}
	if progs["memref_slots.py/build_two_slots(0, 1)"], err = slotted.Call("build_two_slots", 0, 1); err != nil {
		t.Fatal(err)
	}
	cases, err := pyfront.Load(filepath.Join("testdata", "authoring", "harness_cases.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"ScaleCase", "NarrowScaleCase"} {
		if progs["harness_cases.py/"+c+"()"], err = cases.Call(c); err != nil {
			t.Fatal(err)
		}
	}
	imported, err := pyfront.Load(filepath.Join("testdata", "imports", "proj", "tests", "unit", "test_builders.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"ScaleCase", "DoublerCase", "NegateCase", "TinyCase", "ShiftThenHalveCase", "ShiftTwoCase"} {
		if progs["imports/proj/tests/unit/test_builders.py/"+c+"()"], err = imported.Call(c); err != nil {
			t.Fatal(err)
		}
	}
	spec, err := pyfront.Load(filepath.Join("testdata", "authoring", "jit_specialize.py"))
	if err != nil {
		t.Fatal(err)
	}
	f32 := func(dims ...int64) *ir.TensorType {
		shape := make([]ir.Expr, len(dims))
		for i, d := range dims {
			shape[i] = ir.Int(d)
		}
		return &ir.TensorType{Shape: shape, DType: ir.FP32}
	}
	if progs["jit_specialize.py/scaled_sum(8x32, 1.5)"], err = spec.Specialize("scaled_sum", f32(8, 32), f32(8, 32), 1.5, f32(8, 32)); err != nil {
		t.Fatal(err)
	}
	if progs["jit_specialize.py/shifted(16x16)"], err = spec.Specialize("shifted", f32(16, 16), f32(16, 16), f32(16, 16)); err != nil {
		t.Fatal(err)
	}
	if progs["jit_specialize.py/fresh_sum(8x32)"], err = spec.Specialize("fresh_sum", f32(8, 32), f32(8, 32)); err != nil {
		t.Fatal(err)
	}
	for _, builtin := range []bool{true, false} {
		p, err := fac.Call("build_shift", 4, builtin)
		if err != nil {
			t.Fatal(err)
		}
		progs[fmt.Sprintf("factory.py/build_shift(4, %v)", builtin)] = p
	}
	expand, err := pyfront.Load(filepath.Join("testdata", "authoring", "expand_clone.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dim := range []int{-1, 0, 1, 2} {
		if progs[fmt.Sprintf("expand_clone.py/build_expand(3, 4, 16, %d)", dim)], err = expand.Call("build_expand", 3, 4, 16, dim); err != nil {
			t.Fatal(err)
		}
	}
	for name, p := range progs {
		t.Run(name, func(t *testing.T) {
			roundTripStages(t, name, p)
		})
	}
}

// TestDynamicDimInViewOnly: a dynamic dimension that only a valid shape
// names is declared in the printed header too, so the text reads back.
func TestDynamicDimInViewOnly(t *testing.T) {
	src := `import pypto.language as pl

N = pl.dynamic("N")
V = pl.dynamic("V")

@pl.program
class ViewDim:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4, N], pl.FP32, pl.TensorView(valid_shape=[4, V])], y: pl.Out[pl.Tensor[[4, N], pl.FP32]]):
        y = pl.assemble(y, x, [0, 0])
        return y
`
	mod, err := pyfront.Parse("view_dim.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := mod.Program("ViewDim")
	if err != nil {
		t.Fatal(err)
	}
	if text := printer.Program(p); !strings.Contains(text, "V = pl.dynamic(\"V\")") {
		t.Fatalf("V is not declared:\n%s", text)
	}
	roundTrip(t, "ViewDim", p)
}

// Upstream's other spellings read as the printed ones: each source, read,
// prints as the canonical text (which reads back equal).
func TestUpstreamSpellings(t *testing.T) {
	const head = "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n@pl.program\nclass P:\n"
	for _, c := range []struct{ name, short, long string }{
		{"remote_load", "    @pl.function\n    def k(self, data: pld.DistributedTensor[[64, 32], pl.FP16], peer: pl.Scalar[pl.INT32]):\n        t = pld.remote_load(data, peer=peer, offsets=[0, 0], shape=[32, 16])\n",
			"t: pl.Tile[[32, 16], pl.FP16] = pld.tile.remote_load(data, peer, [0, 0], [32, 16])"},
		{"remote_store_tile", "    @pl.function\n    def k(self, data: pld.DistributedTensor[[64, 32], pl.FP16], peer: pl.Scalar[pl.INT32]):\n        t = pld.tile.remote_load(data, peer=peer, offsets=[0, 0], shape=[32, 16])\n        pld.remote_store(t, data, peer, [0, 0])\n",
			"pld.tile.remote_store(t, data, peer, [0, 0])"},
		{"remote_store_tensor", "    @pl.function\n    def k(self, x: pl.Tensor[[16, 8], pl.FP16], data: pld.DistributedTensor[[64, 32], pl.FP16], peer: pl.Scalar[pl.INT32]):\n        pld.remote_store(x, data, peer, [0, 0])\n",
			"pld.tensor.remote_store(x, data, peer, [0, 0])"},
		{"layout_slot", "    @pl.function\n    def k(self, x: pld.DistributedTensor[[64], pl.FP32, pl.NZ]) -> pl.Tensor[[64], pl.FP32]:\n        return x\n",
			"x: pld.DistributedTensor[[64], pl.FP32, pl.TensorView(stride=[], layout=pl.TensorLayout.NZ)]"},
		{"level_alias", "    @pl.function(level=pl.Level.POD, role=pl.Role.Orchestrator)\n    def k(self):\n        pass\n",
			"@pl.function(level=pl.Level.CLUSTER_0, role=pl.Role.Orchestrator)"},
		{"block_query", "    @pl.function(type=pl.FunctionType.InCore)\n    def k(self):\n        b = pl.get_block_idx()\n",
			"b: pl.Scalar[pl.INDEX] = pl.tensor.get_block_idx()"},
		// Runtime scopes print as upstream's pl.scope(...); pl.manual_scope()
		// is its alias.
		{"scope_manual_alias", "    @pl.function(type=pl.FunctionType.Orchestration)\n    def k(self):\n        with pl.manual_scope():\n            pass\n",
			"with pl.scope(mode=pl.ScopeMode.MANUAL):"},
		{"scope_auto", "    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)\n    def k(self):\n        with pl.scope(mode=pl.ScopeMode.AUTO):\n            pass\n",
			"with pl.scope():"},
		// The authoring form: @pl.jit(auto_scope=False) places its scopes.
		{"jit_auto_scope_off", "", "@pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator, auto_scope=False)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.short
			if c.short == "" {
				src = jitScopeSource
			}
			p := readOne(t, c.name, src)
			text := printer.Program(p)
			if !strings.Contains(text, c.long) {
				t.Fatalf("no %s in\n%s", c.long, text)
			}
			if err := ir.AssertStructuralEqual(p, readOne(t, c.name+" printed", text), true); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// jitScopeSource hand-places an AUTO scope in a @pl.jit orchestrator.
const jitScopeSource = `import pypto.language as pl


@pl.jit.incore
def k(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    t = pl.load(a, [0, 0], [16, 16])
    out = pl.store(pl.add(t, t), [0, 0], out)
    return out


@pl.jit(auto_scope=False)
def orch(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.scope():
        out = k(a, out)
    return out


@pl.jit.host
def main(a: pl.Tensor[[1, 16, 16], pl.FP32], out: pl.Out[pl.Tensor[[1, 16, 16], pl.FP32]]):
    orch(a[0], out[0], device=0)
    return out
`
