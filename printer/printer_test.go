package printer_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got+"\n"), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden; run go test ./printer -update and review the diff")
	require.Equal(t, string(want), got+"\n")
}

func tensor(dt ir.DataType, dims ...int64) *ir.TensorType {
	return &ir.TensorType{Shape: ir.Dims(dims...).Elems, DType: dt}
}

// Strings upstream's tests require verbatim (printer.md, marked expected).
func TestUpstreamExpectedStrings(t *testing.T) {
	mem := ir.NewMemRef(ir.NewVar("mem_vec_0", ir.PtrT, ir.Span{}), ir.Int(0), 512, ir.Span{})
	memTile := &ir.TileType{Shape: ir.Dims(16, 16).Elems, DType: ir.FP16, MemRef: mem, Memory: ir.MemVec}
	acc := ir.NewTileType(ir.Dims(128, 128).Elems, ir.FP32, ir.MemAcc, nil)
	vec := ir.NewTileType(ir.Dims(16, 16).Elems, ir.FP16, ir.MemVec, nil)
	explicit := printer.Options{ExplicitLayout: true}
	require.Equal(t, "pl.Tensor[[64, 128], pl.FP32]", printer.Type(tensor(ir.FP32, 64, 128)))
	require.Equal(t, "pl.Tile[[16, 16], pl.FP16]", printer.Type(ir.NewTileType(ir.Dims(16, 16).Elems, ir.FP16, ir.MemNone, nil)))
	require.Contains(t, printer.Type(memTile), `pl.MemRef("mem_vec_0", 0, 512)`)
	require.Contains(t, printer.Type(memTile), ", pl.Mem.Vec")
	require.Equal(t, "pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc]", printer.Type(acc))
	require.Equal(t, "pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major, fractal=1024)]",
		printer.TypeWith(acc, explicit))
	require.Contains(t, printer.TypeWith(vec, explicit), "blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box, fractal=512")

	require.Equal(t, "pl.const(42, pl.INT32)", printer.Expr(ir.IntOf(42, ir.INT32)))
	require.Equal(t, "42", printer.Expr(ir.Int(42)))
	require.Equal(t, "pl.const(1.0, pl.FP16)", printer.Expr(&ir.ConstFloat{Value: 1, DType: ir.FP16}))
	require.Equal(t, "1.0", printer.Expr(&ir.ConstFloat{Value: 1, DType: ir.FP32}))
	require.Equal(t, "pl.const(2, pl.INDEX) + pl.const(3, pl.INDEX)", printer.Expr(&ir.BinaryExpr{Op: ir.OpAdd, Left: ir.Int(2), Right: ir.Int(3), DType: ir.INDEX}))

	// Distributed types print identically with and without a window buffer,
	// except in explicit-layout mode.
	wb := ir.NewWindowBuffer(ir.NewVar("wbuf", ir.PtrT, ir.Span{}), ir.IntOf(4096, ir.INT64), false, false, ir.Span{})
	with := &ir.DistributedTensorType{Shape: ir.Dims(128, 128).Elems, DType: ir.FP16, Window: wb}
	without := &ir.DistributedTensorType{Shape: ir.Dims(128, 128).Elems, DType: ir.FP16}
	require.Equal(t, printer.Type(with), printer.Type(without))
	require.NotContains(t, printer.Type(with), "window_buffer")
	require.Contains(t, printer.TypeWith(with, explicit), "window_buffer=wbuf")
	require.NotEqual(t, printer.TypeWith(with, explicit), printer.TypeWith(without, explicit))
	require.Equal(t, `pld.DistributedTensor[[128, 128], pl.FP16, "window_buffer=wbuf"]`, printer.TypeWith(with, explicit))
	require.Equal(t, "wbuf", printer.Expr(wb))
}

func loop(kind ir.LoopKind, start, stop, step ir.Expr) string {
	s := &ir.ForStmt{LoopVar: ir.NewVar("i", ir.Scalar(ir.INDEX), ir.Span{}), Start: start, Stop: stop, Step: step, Kind: kind, Body: ir.Seq()}
	return printer.Stmt(s)
}

func TestLoopForms(t *testing.T) {
	n := ir.NewVar("n", ir.Scalar(ir.INDEX), ir.Span{})
	require.Contains(t, loop(ir.Sequential, ir.Int(0), ir.Int(10), ir.Int(1)), "for i in pl.range(10)")
	require.Contains(t, loop(ir.Sequential, ir.Int(0), ir.Int(8), ir.Int(2)), "pl.range(0, 8, 2)")
	require.Contains(t, loop(ir.Sequential, ir.Int(2), ir.Int(8), ir.Int(1)), "pl.range(2, 8)")
	require.Contains(t, loop(ir.Sequential, n, ir.Int(8), ir.Int(1)), "pl.range(n, 8)")
	require.Contains(t, loop(ir.Parallel, ir.Int(2), ir.Int(16), ir.Int(1)), "pl.parallel(2, 16)")
	// Start and step are elided only when they are INDEX constants.
	require.Contains(t, loop(ir.Sequential, ir.IntOf(0, ir.INT64), ir.Int(8), ir.Int(1)), "pl.range(pl.const(0, pl.INT64), 8)")
}

// ssaFunction builds, by hand, a function in SSA form: a for loop carrying one
// value with an if inside that yields in both branches, and a loop carrying two.
func ssaFunction(t *testing.T) *ir.Function {
	f, err := ir.NewFunction("ssa", ir.Opaque, ir.LevelNone, ir.RoleNone, ir.Span{})
	require.NoError(t, err)
	tt := tensor(ir.FP32, 64, 128)
	x := ir.NewVar("x", tt, ir.Span{})
	f.Params, f.Dirs, f.ReturnTypes = []*ir.Var{x}, []ir.ParamDirection{ir.In}, []ir.Type{tt}
	i := ir.NewVar("i", ir.Scalar(ir.INDEX), ir.Span{})
	acc := ir.NewIterArg("acc", tt, x, ir.Span{})
	two := ir.MustCall("tensor.muls", []ir.Expr{acc, &ir.ConstFloat{Value: 2, DType: ir.FP32}}, nil, ir.Span{})
	one := ir.MustCall("tensor.adds", []ir.Expr{acc, &ir.ConstFloat{Value: 1, DType: ir.FP32}}, nil, ir.Span{})
	a1, a2 := ir.NewVar("val", tt, ir.Span{}), ir.NewVar("val", tt, ir.Span{})
	phi := ir.NewVar("val", tt, ir.Span{})
	ifs := &ir.IfStmt{
		Cond:       &ir.BinaryExpr{Op: ir.OpEq, Left: i, Right: ir.Int(0), DType: ir.BOOL},
		Then:       ir.Seq(&ir.AssignStmt{Var: a1, Value: two}, &ir.YieldStmt{Values: []ir.Expr{a1}}),
		Else:       ir.Seq(&ir.AssignStmt{Var: a2, Value: one}, &ir.YieldStmt{Values: []ir.Expr{a2}}),
		ReturnVars: []*ir.Var{phi},
	}
	rv := ir.NewVar("result", tt, ir.Span{})
	loop1 := &ir.ForStmt{LoopVar: i, Start: ir.Int(0), Stop: ir.Int(5), Step: ir.Int(1), IterArgs: []*ir.IterArg{acc},
		Body: ir.Seq(ifs, &ir.YieldStmt{Values: []ir.Expr{phi}}), ReturnVars: []*ir.Var{rv}}
	j := ir.NewVar("j", ir.Scalar(ir.INDEX), ir.Span{})
	p := ir.NewIterArg("p", tt, rv, ir.Span{})
	q := ir.NewIterArg("q", tt, x, ir.Span{})
	v1, v2 := ir.NewVar("val1", tt, ir.Span{}), ir.NewVar("val2", tt, ir.Span{})
	loop2 := &ir.ForStmt{LoopVar: j, Start: ir.Int(0), Stop: ir.Int(3), Step: ir.Int(1), IterArgs: []*ir.IterArg{p, q},
		Body: ir.Seq(&ir.YieldStmt{Values: []ir.Expr{q, p}}), ReturnVars: []*ir.Var{v1, v2}, Kind: ir.Unroll}
	f.Body = ir.Seq(loop1, loop2, &ir.ReturnStmt{Values: []ir.Expr{v1}})
	return f
}

func TestForIfYieldGolden(t *testing.T) {
	f := ssaFunction(t)
	got := printer.Function(f)
	require.Contains(t, got, "val: pl.Tensor[[64, 128], pl.FP32] = pl.yield_(val_1)")
	require.Contains(t, got, "val1, val2 = pl.yield_")
	require.Contains(t, got, "for i, (acc,) in pl.range(5, init_values=(x,)):")
	golden(t, "ssa_loops.golden", got)
	golden(t, "ssa_loops_concise.golden", printer.FunctionWith(f, printer.Options{Concise: true}))
	prog := ir.NewProgram("SSA")
	require.NoError(t, prog.AddFunction(f))
	roundTrip(t, prog)
}

// Every type kind, default and explicit-layout modes.
func TestTypesGolden(t *testing.T) {
	n := ir.NewVar("N", ir.Scalar(ir.INDEX), ir.Span{})
	wb := ir.NewWindowBuffer(ir.NewVar("wbuf", ir.PtrT, ir.Span{}), ir.IntOf(4096, ir.INT64), false, false, ir.Span{})
	mem := ir.NewMemRef(ir.NewVar("mem_ddr_0", ir.PtrT, ir.Span{}), ir.Int(0), 16384, ir.Span{})
	types := []ir.Type{
		ir.Unknown, ir.Scalar(ir.INT32), ir.Scalar(ir.BOOL),
		tensor(ir.FP16, 16, 64),
		&ir.TensorType{Shape: []ir.Expr{n, ir.Int(64)}, DType: ir.FP32},
		&ir.TensorType{Shape: []ir.Expr{&ir.BinaryExpr{Op: ir.OpMul, Left: ir.Int(4), Right: n, DType: ir.INDEX}}, DType: ir.FP32},
		&ir.TensorType{Shape: ir.Dims(64, 64).Elems, DType: ir.FP32, MemRef: mem},
		&ir.TensorType{Shape: ir.Dims(64, 64).Elems, DType: ir.FP32, View: &ir.TensorView{Layout: ir.LayoutDN}},
		&ir.DistributedTensorType{Shape: ir.Dims(1, 256).Elems, DType: ir.FP32},
		&ir.DistributedTensorType{Shape: ir.Dims(1, 256).Elems, DType: ir.FP32, Window: wb},
		ir.NewTileType(ir.Dims(16, 64).Elems, ir.FP16, ir.MemNone, nil),
		ir.NewTileType(ir.Dims(16, 64).Elems, ir.FP16, ir.MemVec, nil),
		ir.NewTileType(ir.Dims(1, 64).Elems, ir.FP32, ir.MemVec, &ir.TileView{ValidShape: []ir.Expr{ir.Int(1), ir.Int(40)}, BLayout: ir.RowMajor, SLayout: ir.NoneBox, Fractal: 512}),
		&ir.TupleType{Types: []ir.Type{ir.Scalar(ir.INT32), tensor(ir.FP32, 4)}}, &ir.TupleType{},
		&ir.ArrayType{Extent: 16, DType: ir.INT32},
		ir.PtrT, ir.MemRefT, ir.WindowBufT, ir.CommCtxT,
	}
	var b strings.Builder
	for _, ty := range types {
		b.WriteString(ty.TypeName() + "\n    " + printer.Type(ty) + "\n    " + printer.TypeWith(ty, printer.Options{ExplicitLayout: true}) + "\n")
	}
	golden(t, "types.golden", strings.TrimSuffix(b.String(), "\n"))

	// Every type of the golden survives serialization, as a parameter type.
	prog := ir.NewProgram("Types")
	f, err := ir.NewFunction("types", ir.Opaque, ir.LevelNone, ir.RoleNone, ir.Span{})
	require.NoError(t, err)
	for i, ty := range types {
		f.Params = append(f.Params, ir.NewVar(fmt.Sprintf("p%d", i), ty, ir.Span{}))
		f.Dirs = append(f.Dirs, ir.In)
	}
	f.Body = ir.Seq()
	require.NoError(t, prog.AddFunction(f))
	roundTrip(t, prog)
}

func roundTrip(t *testing.T, p *ir.Program) {
	t.Helper()
	require.NoError(t, ir.RoundTripCheck(p))
}

// ringShift is the example of printer.md §10, built with the DSL.
func ringShift() *pl.Program {
	prog := pl.NewProgram("RingShift")
	k := prog.InCore("shift_kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		data := f.In("data", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32))
		signal := f.In("signal", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
		peer := f.Scalar("peer", pl.INT32)
		f.Returns(pl.Tensor(pl.Dims(1, 64), pl.FP32))
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		me := f.Let("my_rank", pld.Rank(ctx))
		n := f.Let("nranks", pld.NRanks(ctx))
		local := f.Let("local", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 64)))
		f.Set(data, pl.Store(local, pl.Dims(0, 0), data))
		f.For("p", pl.Range(n), func(p pl.Expr) {
			f.If(pl.Ne(p, me), func() { f.Do(pld.Notify(signal, p, pl.Dims(me, 0), 1, pld.AtomicAdd)) })
		})
		f.For("s", pl.Range(n), func(s pl.Expr) {
			f.If(pl.Ne(s, me), func() { f.Do(pld.Wait(signal, pl.Dims(s, 0), 1, pld.Ge)) })
		})
		recv := f.Let("recv", pld.RemoteLoad(data, peer, pl.Dims(0, 0), pl.Dims(1, 64)))
		f.Set(y, pl.Store(recv, pl.Dims(0, 0), y))
		f.Return(y)
	})
	prog.Orchestration("chip_orch", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		data := f.In("data", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32))
		signal := f.In("signal", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
		peer := f.Scalar("peer", pl.INT32)
		f.Returns(pl.Tensor(pl.Dims(1, 64), pl.FP32))
		f.Set(y, f.Call(k, x, y, data, signal, peer))
		f.Return(y)
	})
	return prog
}

// The complete example of printer.md §10, byte for byte.
const ringShiftText = `# pypto.program: RingShift
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class RingShift:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def shift_kernel(x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]], data: pld.DistributedTensor[[1, 64], pl.FP32], signal: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]) -> pl.Tensor[[1, 64], pl.FP32]:
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        local: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)
        data_1: pld.DistributedTensor[[1, 64], pl.FP32] = pl.tile.store(local, [0, 0], data)
        for p in pl.range(nranks):
            if p != my_rank:
                pld.system.notify(signal, p, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for s in pl.range(nranks):
            if s != my_rank:
                pld.system.wait(signal, [s, 0], pl.const(1, pl.INT32), cmp=1)
        recv: pl.Tile[[1, 64], pl.FP32] = pld.tile.remote_load(data_1, peer, [0, 0], [1, 64])
        y_1: pl.Tensor[[1, 64], pl.FP32] = pl.tile.store(recv, [0, 0], y)
        return y_1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_orch(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]], data: pld.DistributedTensor[[1, 64], pl.FP32], signal: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]) -> pl.Tensor[[1, 64], pl.FP32]:
        y_1: pl.Tensor[[1, 64], pl.FP32] = self.shift_kernel(x, y, data, signal, peer)
        return y_1`

func TestRingShiftExample(t *testing.T) {
	p := ringShift()
	require.Equal(t, ringShiftText, p.String())
	golden(t, "ringshift.golden", p.String())
	roundTrip(t, p.IR())
}

// Other prefixes change the import line and every pl. spelling, but not pld.
// (nor its import).
func TestPrefix(t *testing.T) {
	got := printer.ProgramWith(ringShift().IR(), printer.Options{Prefix: "p"})
	require.True(t, strings.HasPrefix(got, "# pypto.program: RingShift\nfrom pypto import language as p\nimport pypto.language.distributed as pld\n\n@p.program\n"))
	require.Contains(t, got, "x: p.Tensor[[1, 64], p.FP32]")
	require.Contains(t, got, "pld.DistributedTensor[[1, 64], p.FP32]")
	require.NotContains(t, got, "pl.")
}

// SourceNames keeps every variable's own name: the rebinding of data prints
// as data, as the source wrote it.
func TestSourceNames(t *testing.T) {
	got := printer.ProgramWith(ringShift().IR(), printer.Options{SourceNames: true})
	require.Contains(t, got, "        data: pld.DistributedTensor[[1, 64], pl.FP32] = pl.tile.store(local, [0, 0], data)\n")
	require.Contains(t, got, "pld.tile.remote_load(data, peer, [0, 0], [1, 64])")
	require.NotContains(t, got, "data_1")
}

// The header imports pld exactly when the printed body spells "pld." (#2487),
// so every printed program loads as plain Python.
func TestDistributedImport(t *testing.T) {
	const pldImport = "import pypto.language.distributed as pld\n"
	local := pl.NewProgram("Local")
	local.InCore("add", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		f.Set(y, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 64))), pl.Dims(0, 0), y))
	})
	// A distributed type in the signature alone is enough.
	sigOnly := pl.NewProgram("SigOnly")
	sigOnly.InCore("k", func(f *pl.Func) {
		f.In("data", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32))
	})
	cases := []struct {
		name string
		prog *ir.Program
		o    printer.Options
		want string // the header up to and including the blank line
	}{
		{"no pld", local.IR(), printer.Options{}, "# pypto.program: Local\nimport pypto.language as pl\n\n"},
		{"pld in a signature", sigOnly.IR(), printer.Options{}, "# pypto.program: SigOnly\nimport pypto.language as pl\n" + pldImport + "\n"},
		{"pld in the body", ringShift().IR(), printer.Options{}, "# pypto.program: RingShift\nimport pypto.language as pl\n" + pldImport + "\n"},
		{"other prefix", ringShift().IR(), printer.Options{Prefix: "p"}, "# pypto.program: RingShift\nfrom pypto import language as p\n" + pldImport + "\n"},
		{"other prefix, no pld", local.IR(), printer.Options{Prefix: "p"}, "# pypto.program: Local\nfrom pypto import language as p\n\n"},
		{"empty program", ir.NewProgram(""), printer.Options{}, "# pypto.program: Program\nimport pypto.language as pl\n\n@pl.program\nclass Program:\n    pass"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := printer.ProgramWith(c.prog, c.o)
			require.True(t, strings.HasPrefix(got, c.want), "header:\n%s", got)
			require.Equal(t, strings.Contains(got, pldImport), strings.Contains(strings.TrimPrefix(got, c.want), "pld."))
		})
	}
}

// The comm context prints under its wrapper name pld.CommCtx (#2487), and
// the reader takes both the IR type name and the wrapper name.
func TestCommCtxSpellings(t *testing.T) {
	require.Equal(t, "pld.CommCtx", printer.Type(ir.CommCtxT))
	got := ringShift().String()
	require.Contains(t, got, "ctx: pld.CommCtx = pld.system.get_comm_ctx(data)")
	require.NotContains(t, got, "CommCtxType")

	prog := ir.NewProgram("Ctx")
	f, err := ir.NewFunction("k", ir.InCore, ir.LevelNone, ir.RoleNone, ir.Span{})
	require.NoError(t, err)
	f.Params, f.Dirs, f.Body = []*ir.Var{ir.NewVar("ctx", ir.CommCtxT, ir.Span{})}, []ir.ParamDirection{ir.In}, ir.Seq()
	require.NoError(t, prog.AddFunction(f))
	data, err := ir.MarshalProgram(prog)
	require.NoError(t, err)
	const oldKind, newKind = `"type_kind": "CommCtxType"`, `"type_kind": "CommCtx"`
	require.Contains(t, string(data), oldKind)
	for _, spelling := range []string{oldKind, newKind} {
		back, err := ir.UnmarshalProgram([]byte(strings.ReplaceAll(string(data), oldKind, spelling)))
		require.NoError(t, err, spelling)
		require.IsType(t, &ir.CommCtxType{}, back.Functions[0].Params[0].Type(), spelling)
	}
}
