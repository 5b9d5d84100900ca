package printer_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/stretchr/testify/require"
)

// opCase is one printed use of an op: as `name: T = call`, or a bare call for
// side-effect ops.
type opCase struct {
	name string // IR op name
	bind string // variable name, "" for an expression statement
	args []ir.Expr
	kw   ir.Kwargs
}

// Every registered pld.* and tile.comm_* op, printed as a statement, in one
// golden; the test fails when an op is registered without a case here.
func TestDistributedOpsGolden(t *testing.T) {
	v := func(name string, ty ir.Type) *ir.Var { return ir.NewVar(name, ty, ir.Span{}) }
	dt := func(dtype ir.DataType, dims ...int64) ir.Type {
		return &ir.DistributedTensorType{Shape: ir.Dims(dims...).Elems, DType: dtype}
	}
	data := v("data", dt(ir.FP32, 1, 64))
	rows := v("rows", dt(ir.FP32, 4, 64))
	signal := v("signal", dt(ir.INT32, 4, 1))
	src := v("src", tensor(ir.FP32, 1, 64))
	local := v("local", tensor(ir.FP32, 4, 64))
	buf := v("data_buf", ir.PtrT)
	ctx := v("ctx", ir.CommCtxT)
	peer := v("peer", ir.Scalar(ir.INT32))
	me := v("my_rank", ir.Scalar(ir.INT32))
	tile := v("tile", ir.NewTileType(ir.Dims(1, 64).Elems, ir.FP32, ir.MemVec, nil))
	stage := v("tput_stage", ir.NewTileType(ir.Dims(1, 64).Elems, ir.FP32, ir.MemVec, nil))
	pong := v("tput_stage_pong", ir.NewTileType(ir.Dims(1, 64).Elems, ir.FP32, ir.MemVec, nil))
	sig1 := v("sig", tensor(ir.INT32, 1))
	one := ir.IntOf(1, ir.INT32)
	region := []ir.Expr{ir.Dims(0, 0), ir.Dims(0, 0), ir.Dims(1, 32)}
	cases := []opCase{
		{"pld.tensor.alloc_window_buffer", "data_buf", []ir.Expr{ir.Int(1024)}, ir.Kwargs{{Key: "name", Value: "data_buf"}}},
		{"pld.tensor.window", "data", []ir.Expr{buf, ir.Dims(1, 64)}, ir.Kwargs{{Key: "dtype", Value: ir.FP32}}},
		{"pld.system.world_size", "ws", nil, nil},
		{"pld.system.get_comm_ctx", "ctx", []ir.Expr{data}, nil},
		{"pld.system.rank", "my_rank", []ir.Expr{ctx}, nil},
		{"pld.system.nranks", "nranks", []ir.Expr{ctx}, nil},
		{"pld.system.notify", "", []ir.Expr{signal, peer, ir.Tuple(me, ir.Int(0)), one}, ir.Kwargs{{Key: "op", Value: int64(0)}}},
		{"pld.system.wait", "", []ir.Expr{signal, ir.Tuple(peer, ir.Int(0)), one}, ir.Kwargs{{Key: "cmp", Value: int64(1)}}},
		{"pld.system.defer_wait", "", []ir.Expr{signal, ir.Tuple(peer, ir.Int(0)), one}, ir.Kwargs{{Key: "cmp", Value: int64(1)}}},
		{"pld.tile.remote_load", "t", []ir.Expr{data, peer, ir.Dims(0, 0), ir.Dims(1, 64)}, nil},
		{"pld.tile.remote_load", "t", []ir.Expr{data, peer, ir.Dims(0, 0), ir.Dims(1, 64), ir.Dims(1, 40)}, ir.Kwargs{{Key: "allow_physical_tail_padding", Value: true}}},
		{"pld.tile.remote_store", "", []ir.Expr{tile, data, peer, ir.Dims(0, 0)}, nil},
		{"pld.tile.remote_store", "", []ir.Expr{tile, data, peer, ir.Dims(0, 0)}, ir.Kwargs{{Key: "atomic", Value: int64(1)}}},
		{"pld.tensor.remote_store", "", []ir.Expr{src, data, peer, ir.Dims(0, 0)}, nil},
		{"pld.tensor.put", "", []ir.Expr{data, peer, src}, ir.Kwargs{{Key: "atomic", Value: int64(0)}}},
		{"pld.tensor.put", "", []ir.Expr{rows, peer, local}, ir.Kwargs{{Key: "atomic", Value: int64(0)}, {Key: "chunk_rows", Value: int64(4)}, {Key: "chunk_cols", Value: int64(32)}, {Key: "pipeline", Value: true}}},
		{"pld.tensor.put", "", append([]ir.Expr{data, peer, src}, region...), ir.Kwargs{{Key: "atomic", Value: int64(1)}}},
		{"pld.tile.put", "", []ir.Expr{data, peer, src, stage}, ir.Kwargs{{Key: "atomic", Value: int64(0)}}},
		{"pld.tile.put", "", []ir.Expr{data, peer, src, stage, pong}, ir.Kwargs{{Key: "atomic", Value: int64(0)}}},
		{"pld.tensor.get", "", []ir.Expr{src, peer, data}, nil},
		{"pld.tile.get", "", []ir.Expr{src, peer, data, stage}, nil},
		{"pld.tensor.allreduce", "data", []ir.Expr{data, signal}, ir.Kwargs{{Key: "op", Value: int64(0)}, {Key: "mode", Value: "mesh"}, {Key: "core_num", Value: int64(1)}}},
		{"pld.tensor.barrier", "signal", []ir.Expr{signal}, nil},
		{"pld.tensor.broadcast", "data", []ir.Expr{data, signal}, ir.Kwargs{{Key: "root", Value: int64(0)}}},
		{"pld.tensor.reduce_scatter", "rows", []ir.Expr{rows, signal}, ir.Kwargs{{Key: "op", Value: int64(0)}}},
		{"pld.tensor.allgather", "rows", []ir.Expr{src, rows, signal}, nil},
		{"pld.tensor.all_to_all", "rows", []ir.Expr{local, rows, signal}, nil},
		{"pld.tensor.all_to_all_v", "rows", []ir.Expr{local, rows, signal, v("send_counts", tensor(ir.INT32, 4)), v("recv_counts", dt(ir.INT32, 4, 1))}, nil},
		{"tile.comm_notify", "", []ir.Expr{sig1, one}, ir.Kwargs{{Key: "op", Value: "atomic_add"}}},
		{"tile.comm_wait", "", []ir.Expr{sig1, one}, ir.Kwargs{{Key: "cmp", Value: "ge"}}},
		{"tile.comm_test", "ok", []ir.Expr{sig1, one}, ir.Kwargs{{Key: "cmp", Value: "eq"}}},
	}
	covered := map[string]bool{}
	var lines []string
	var stmts []ir.Stmt
	for _, c := range cases {
		covered[c.name] = true
		call, err := ir.NewCall(c.name, c.args, c.kw, ir.Span{})
		require.NoError(t, err, c.name)
		var s ir.Stmt = &ir.EvalStmt{Expr: call}
		if c.bind != "" {
			s = &ir.AssignStmt{Var: ir.NewVar(c.bind, call.Type(), ir.Span{}), Value: call}
		}
		lines = append(lines, printer.Stmt(s))
		stmts = append(stmts, s)
	}
	var missing []string
	for _, d := range ir.Ops() {
		if (strings.HasPrefix(d.Name, "pld.") || strings.HasPrefix(d.Name, "tile.comm_")) && !covered[d.Name] {
			missing = append(missing, d.Name)
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "registered distributed ops without a printer golden case")
	got := strings.Join(lines, "\n")
	// Spellings printer.md gives for these ops.
	for _, want := range []string{
		"data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(1024)",
		"data: pld.DistributedTensor[[1, 64], pl.FP32] = pld.tensor.window(data_buf, [1, 64], dtype=pl.FP32)",
		"ws: pl.Scalar[pl.INT64] = pld.system.world_size()",
		"ctx: pld.CommCtx = pld.system.get_comm_ctx(data)",
		"pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)",
		"pld.system.wait(signal, [peer, 0], pl.const(1, pl.INT32), cmp=1)",
		"pld.tile._remote_load_with_physical_tail_padding(data, peer, [0, 0], [1, 64], [1, 40])",
		"pld.tile.remote_store(tile, data, peer, [0, 0], atomic=pl.AtomicType.Add)",
		"pld.tensor.put(data, peer, src, atomic=pl.AtomicType.None_)",
		"chunk_rows=4, chunk_cols=32, pipeline=True",
		"pld.tile.put(data, peer, src, tput_stage, tput_stage_pong, atomic=pl.AtomicType.None_)",
		"data: pld.DistributedTensor[[1, 64], pl.FP32] = pld.tensor.allreduce(data, signal, op=0, mode='mesh', core_num=1)",
		"pld.tensor.broadcast(data, signal, root=0)",
		"pl.tile.comm_notify(sig, pl.const(1, pl.INT32), op='atomic_add')",
		"pl.tile.comm_wait(sig, pl.const(1, pl.INT32), cmp='ge')",
		"ok: pl.Scalar[pl.BOOL] = pl.tile.comm_test(sig, pl.const(1, pl.INT32), cmp='eq')",
	} {
		require.Contains(t, got, want)
	}
	require.NotContains(t, got, "name=", "the alloc's name kwarg is never printed")
	require.Contains(t, got, "pld.tile.remote_store(tile, data, peer, [0, 0])\n", "None_ is not stored on remote_store")
	golden(t, "distributed_ops.golden", got)
	// Every op of the golden survives serialization.
	prog := ir.NewProgram("Ops")
	f, err := ir.NewFunction("ops", ir.InCore, ir.LevelNone, ir.RoleNone, ir.Span{})
	require.NoError(t, err)
	f.Body = ir.Seq(stmts...)
	require.NoError(t, prog.AddFunction(f))
	roundTrip(t, prog)
}

// A host orchestrator of a program with comm groups starts with the
// comm-domain comment, body at the same indent.
func TestCommDomainComment(t *testing.T) {
	prog := ir.NewProgram("Domains")
	f, err := ir.NewFunction("orchestrator", ir.Opaque, ir.LevelHost, ir.Orchestrator, ir.Span{})
	require.NoError(t, err)
	var stmts []ir.Stmt
	var slots []*ir.WindowBuffer
	for _, name := range []string{"data_buf", "signal_buf"} {
		c := ir.MustCall("pld.tensor.alloc_window_buffer", []ir.Expr{ir.Int(256)}, ir.Kwargs{{Key: "name", Value: name}}, ir.Span{})
		v := ir.NewVar(name, c.Type(), ir.Span{})
		stmts = append(stmts, &ir.AssignStmt{Var: v, Value: c})
		slots = append(slots, ir.NewWindowBuffer(v, ir.IntOf(256, ir.INT64), false, false, ir.Span{}))
	}
	f.Body = ir.Seq(stmts...)
	require.NoError(t, prog.AddFunction(f))
	prog.CommGroups = []*ir.CommGroup{{Slots: slots[:1]}, {Devices: []int64{0, 1}, Slots: slots[1:]}}
	got := printer.Program(prog)
	require.Contains(t, got, "\n        # pld.comm_domain: devices=all, slots=[data_buf]\n        # pld.comm_domain: devices=[0, 1], slots=[signal_buf]\n        data_buf: pl.Ptr = ")
	golden(t, "comm_domain.golden", got)
	roundTrip(t, prog)
}
