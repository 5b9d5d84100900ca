package passes_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// kernelOnly builds a one-function program around an InCore body.
func kernelOnly(body func(f *pl.Func)) *ir.Program {
	prog := pl.NewProgram("K")
	prog.InCore("kernel", body)
	return prog.IR()
}

func run(t *testing.T, p *ir.Program, names ...string) *ir.Program {
	t.Helper()
	for _, n := range names {
		var err error
		p, err = passes.RunPass(n, p)
		require.NoError(t, err, n)
	}
	return p
}

// calls lists the calls of fn named op, in order.
func calls(fn *ir.Function, op string) []*ir.Call {
	var out []*ir.Call
	ir.WalkStmt(fn.Body, func(e ir.Expr) {
		if c, ok := e.(*ir.Call); ok && c.Name() == op {
			out = append(out, c)
		}
	}, nil)
	return out
}

// Seed #1548: put lowers to tile.create of a Vec stage named tput_stage with
// the flattened transfer shape, then pld.tile.put with the stage fourth.
func TestSeed1548PutStaging(t *testing.T) {
	cases := []struct {
		name   string
		shape  []int
		opts   []pld.Option
		stages map[string][]int64
	}{
		{"full 16x64", []int{16, 64}, nil, map[string][]int64{"tput_stage": {16, 64}}},
		{"3-D flattens", []int{4, 16, 64}, nil, map[string][]int64{"tput_stage": {64, 64}}},
		{"rank 1", []int{128}, nil, map[string][]int64{"tput_stage": {1, 128}}},
		{"chunked", []int{16, 64}, []pld.Option{pld.Chunk(4, 32)}, map[string][]int64{"tput_stage": {4, 32}}},
		{"ping pong", []int{16, 64}, []pld.Option{pld.Chunk(4, 32), pld.Pipeline()},
			map[string][]int64{"tput_stage_ping": {4, 32}, "tput_stage_pong": {4, 32}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dims := make([]any, len(c.shape))
			for i, d := range c.shape {
				dims[i] = d
			}
			p := kernelOnly(func(f *pl.Func) {
				src := f.In("src", pl.Tensor(pl.Dims(dims...), pl.FP16))
				dst := f.In("dst", pld.DistributedTensor(pl.Dims(dims...), pl.FP16))
				peer := f.Scalar("peer", pl.INT32)
				f.Do(pld.Put(dst, peer, src, c.opts...))
			})
			p = run(t, p, "ConvertToSSA", "ConvertTensorToTileOps")
			k := p.Function("kernel")
			require.Empty(t, calls(k, "pld.tensor.put"), "pld.tensor.put is gone")
			puts := calls(k, "pld.tile.put")
			require.Len(t, puts, 1)
			require.Equal(t, []ir.ParamDirection{ir.In, ir.Out, ir.In}, k.Dirs, "dst becomes Out")
			got := map[string][]int64{}
			for _, s := range ir.Flatten(k.Body) {
				a, ok := s.(*ir.AssignStmt)
				if !ok || a.Value.(*ir.Call).Name() != "tile.create" {
					continue
				}
				tt := a.Var.Type().(*ir.TileType)
				require.Equal(t, ir.FP16, tt.DType)
				require.Equal(t, ir.MemVec, tt.Memory)
				dims, ok := ir.StaticDims(tt.Shape)
				require.True(t, ok)
				got[a.Var.Name] = dims
			}
			require.Equal(t, c.stages, got)
			// The stage(s) follow src; chunk kwargs are dropped, atomic kept.
			v, ok := ir.VarOf(puts[0].Args[3])
			require.True(t, ok)
			require.True(t, strings.HasPrefix(v.Name, "tput_stage"))
			require.False(t, puts[0].Kwargs.Has("chunk_rows"))
			require.True(t, puts[0].Kwargs.Has("atomic"))

			// After the memory passes every stage has a 32-byte-aligned address.
			p = run(t, p, "LowerCompositeOps", "InferTileMemorySpace", "InitMemRef", "AllocateMemoryAddr")
			forStages(p.Function("kernel"), func(v *ir.Var) {
				m := v.Type().(*ir.TileType).MemRef
				require.NotNil(t, m, v.Name)
				addr, ok := ir.ConstValue(m.ByteOffset)
				require.True(t, ok)
				require.GreaterOrEqual(t, addr, int64(0), "%s has an address", v.Name)
				require.Zero(t, addr%32)
			})
		})
	}
}

func forStages(fn *ir.Function, f func(v *ir.Var)) {
	for _, s := range ir.Flatten(fn.Body) {
		if a, ok := s.(*ir.AssignStmt); ok && strings.Contains(a.Var.Name, "_stage") {
			f(a.Var)
		}
	}
}

// Get is lifted the same way, named tget_stage, with no kwargs forwarded;
// a dynamic leading dimension needs chunk_rows.
func TestGetStagingAndDynamicTransfer(t *testing.T) {
	p := kernelOnly(func(f *pl.Func) {
		dst := f.In("dst", pl.Tensor(pl.Dims(16, 64), pl.FP32))
		src := f.In("src", pld.DistributedTensor(pl.Dims(16, 64), pl.FP32))
		f.Do(pld.Get(dst, 1, src))
	})
	p = run(t, p, "ConvertToSSA", "ConvertTensorToTileOps")
	gets := calls(p.Function("kernel"), "pld.tile.get")
	require.Len(t, gets, 1)
	require.Empty(t, gets[0].Kwargs)
	v, _ := ir.VarOf(gets[0].Args[3])
	require.Equal(t, "tget_stage", v.Name)

	// A dynamic transfer needs chunking: the deducer says so at the call,
	// and with chunks the stage is the static chunk shape.
	m := ir.NewVar("M", ir.Scalar(ir.INDEX), ir.Span{})
	dynSrc := ir.NewVar("src", &ir.TensorType{Shape: []ir.Expr{m, ir.Int(64)}, DType: ir.FP16}, ir.Span{})
	dynDst := ir.NewVar("dst", &ir.DistributedTensorType{Shape: []ir.Expr{m, ir.Int(64)}, DType: ir.FP16}, ir.Span{})
	_, err := ir.NewCall("pld.tensor.put", []ir.Expr{dynDst, ir.IntOf(1, ir.INT32), dynSrc}, ir.Kwargs{{Key: "atomic", Value: int64(0)}}, ir.Span{})
	require.ErrorContains(t, err, "chunk_rows > 0 for a dynamic leading dimension")
	dyn := kernelOnly(func(f *pl.Func) {
		m := pl.Dynamic("M")
		src := f.In("src", pl.Tensor(pl.Dims(m, 64), pl.FP16))
		dst := f.In("dst", pld.DistributedTensor(pl.Dims(m, 64), pl.FP16))
		f.Do(pld.Put(dst, 1, src, pld.Chunk(4, 32)))
	})
	q, err := passes.RunUntil(dyn, "ConvertTensorToTileOps")
	require.NoError(t, err)
	require.Contains(t, printProgram(q), "tput_stage: pl.Tile[[4, 32], pl.FP16, pl.Mem.Vec]")
}

// Seed #1746: the recipe's control-flow shape (five loops, five ifs), the
// pass's idempotency, and the numbers at P=2 and P=4.
func TestSeed1746AllReduceRecipe(t *testing.T) {
	p := allReduceProg(pld.Sum)(2).IR()
	seedTable := passes.Table()
	for i := range seedTable {
		if seedTable[i].Name == "LowerCompositeOps" {
			seedTable[i].Run = passes.LowerCompositeOpsSeed1746
		}
	}
	lowered, err := passes.LowerCompositeOpsSeed1746(run(t, p, "ConvertToSSA", "ConvertTensorToTileOps"))
	require.NoError(t, err)
	fors, ifs := 0, 0
	ir.WalkStmt(lowered.Function("kernel").Body, nil, func(s ir.Stmt) {
		switch s.(type) {
		case *ir.ForStmt:
			fors++
		case *ir.IfStmt:
			ifs++
		}
	})
	require.Equal(t, 5, fors)
	require.Equal(t, 5, ifs)
	again, err := passes.LowerCompositeOpsSeed1746(lowered)
	require.NoError(t, err)
	require.Equal(t, printProgram(lowered), printProgram(again))
	require.Len(t, calls(lowered.Function("kernel"), "pld.tensor.allreduce"), 0)

	for _, n := range []int{2, 4} {
		prog := allReduceProg(pld.Sum)(n).IR()
		st, err := passes.NewPipelineWith(prog, seedTable, verifyHookFor(seedTable)).Run()
		require.NoError(t, err)
		x := tensor.Randn(int64(n), n, 1, cols)
		y := tensor.Zeros(ir.FP32, n, n, cols)
		res, err := runtime.NewSimulator().Run(context.Background(), st.Program, []*tensor.Tensor{x, y}, runtime.RunOptions{Ranks: n})
		require.NoError(t, err)
		for r := 0; r < n; r++ {
			for j := 0; j < cols; j++ {
				var want float64
				for s := 0; s < n; s++ {
					want += x.At(s, 0, j)
				}
				require.InDelta(t, want, y.At(r, 0, j), 1e-4)
			}
		}
		// Single-shot: the cells end at 2, which is why the recipe needs a
		// fresh signal per call (and why main moved to self-clearing credits).
		for _, c := range res.Signals {
			if c.Offset[0] != c.Rank {
				require.EqualValues(t, 2, c.Value, "%+v", c)
			}
		}
	}
}

// Deducer and lowering rejections: plain Tensor target, non-INT32 or
// multi-element signals, a bad ReduceOp, and Max under the seed recipe.
func TestCollectiveRejections(t *testing.T) {
	data := ir.NewVar("data", &ir.DistributedTensorType{Shape: ir.Dims(1, 64).Elems, DType: ir.FP32}, ir.Span{})
	plain := ir.NewVar("plain", &ir.TensorType{Shape: ir.Dims(1, 64).Elems, DType: ir.FP32}, ir.Span{})
	sig := ir.NewVar("signal", &ir.DistributedTensorType{Shape: ir.Dims(4, 1).Elems, DType: ir.INT32}, ir.Span{})
	fsig := ir.NewVar("fsignal", &ir.DistributedTensorType{Shape: ir.Dims(4, 1).Elems, DType: ir.FP32}, ir.Span{})
	kw := func(op int64) ir.Kwargs { return ir.Kwargs{{Key: "op", Value: op}, {Key: "core_num", Value: int64(1)}} }
	for _, c := range []struct {
		name string
		args []ir.Expr
		kw   ir.Kwargs
		want string
	}{
		{"plain tensor target", []ir.Expr{plain, sig}, kw(0), "pld.tensor.allreduce"},
		{"FP32 signal", []ir.Expr{data, fsig}, kw(0), "INT32"},
		{"bad reduce op", []ir.Expr{data, sig}, kw(7), "op"},
	} {
		_, err := ir.NewCall("pld.tensor.allreduce", c.args, c.kw, ir.Span{})
		require.Error(t, err, c.name)
		require.Contains(t, err.Error(), c.want, c.name)
	}
	// A [NR, 2] signal passes the deducer but not the mesh recipe.
	wide := func(f *pl.Func) {
		d := f.InOut("data", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32))
		s := f.InOut("signal", pld.DistributedTensor(pl.Dims(4, 2), pl.INT32))
		f.Set(d, pld.AllReduce(d, s))
	}
	_, err := passes.RunUntil(kernelOnly(wide), "LowerCompositeOps")
	require.ErrorContains(t, err, "signal shape[1] must be 1")
	maxSeed := func(f *pl.Func) {
		d := f.InOut("data", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32))
		s := f.InOut("signal", pld.DistributedTensor(pl.Dims(4, 1), pl.INT32))
		f.Set(d, pld.AllReduce(d, s, pld.Op(pld.Max)))
	}
	p := run(t, kernelOnly(maxSeed), "ConvertToSSA", "ConvertTensorToTileOps")
	_, err = passes.LowerCompositeOpsSeed1746(p)
	require.ErrorContains(t, err, "only pld.ReduceOp.Sum")
}

// ConvertTensorToTileOps upgrades In parameters from the registry's effects:
// allreduce's target and signal become InOut.
func TestParameterDirectionsAfterConversion(t *testing.T) {
	p := kernelOnly(func(f *pl.Func) {
		d := f.In("data", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32))
		s := f.In("signal", pld.DistributedTensor(pl.Dims(4, 1), pl.INT32))
		f.Set(d, pld.AllReduce(d, s))
	})
	p = run(t, p, "ConvertToSSA", "ConvertTensorToTileOps")
	require.Equal(t, []ir.ParamDirection{ir.InOut, ir.InOut}, p.Function("kernel").Dirs)
	require.Contains(t, printProgram(p), "signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]")
}

// CollectCommGroups: device sets from constants, world-size loops and
// constant ranges; one group per distinct set; errors for a dead allocation,
// an unused window and an unrecognised device=.
func TestCollectCommGroups(t *testing.T) {
	build := func(host func(f *pl.Func, k *pl.Function)) *ir.Program {
		prog := pl.NewProgram("G")
		k := prog.InCore("kernel", func(f *pl.Func) {
			f.InOut("data", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32))
		})
		prog.Host("host", func(f *pl.Func) { host(f, k) })
		return prog.IR()
	}
	p := build(func(f *pl.Func, k *pl.Function) {
		a := f.Let("all_buf", pld.AllocWindowBuffer(256))
		s := f.Let("pair_buf", pld.AllocWindowBuffer(256))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("a", pld.Window(a, pl.Dims(1, 64), pl.FP32))))
		})
		f.For("r", pl.Range(2), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("b", pld.Window(s, pl.Dims(1, 64), pl.FP32))))
		})
		f.Do(f.Dispatch(k, 3, f.Let("c", pld.Window(s, pl.Dims(1, 64), pl.FP32))))
	})
	q, err := passes.CollectCommGroups(p)
	require.NoError(t, err)
	require.Len(t, q.CommGroups, 2)
	require.Empty(t, q.CommGroups[0].Devices, "all devices")
	require.Equal(t, "all_buf", q.CommGroups[0].Slots[0].Name)
	size, ok := ir.ConstValue(q.CommGroups[0].Slots[0].Size)
	require.True(t, ok, "the slot keeps the allocation's size")
	require.Equal(t, int64(256), size)
	require.Equal(t, []int64{0, 1, 3}, q.CommGroups[1].Devices)
	// Both views of pair_buf share one WindowBuffer.
	var wbs []*ir.WindowBuffer
	ir.WalkStmt(q.Function("host").Body, nil, func(s ir.Stmt) {
		if a, ok := s.(*ir.AssignStmt); ok && (a.Var.Name == "b" || a.Var.Name == "c") {
			wbs = append(wbs, a.Var.Type().(*ir.DistributedTensorType).Window)
		}
	})
	require.Len(t, wbs, 2)
	require.Same(t, wbs[0], wbs[1])
	require.Same(t, q.CommGroups[1].Slots[0], wbs[0])

	for _, c := range []struct {
		name string
		host func(f *pl.Func, k *pl.Function)
		want string
	}{
		{"dead allocation", func(f *pl.Func, k *pl.Function) {
			f.Let("unused", pld.AllocWindowBuffer(64))
		}, "dead allocation"},
		{"window never dispatched", func(f *pl.Func, k *pl.Function) {
			b := f.Let("buf", pld.AllocWindowBuffer(256))
			f.Let("v", pld.Window(b, pl.Dims(1, 64), pl.FP32))
		}, "no device= dispatch consumes"},
		{"unknown device", func(f *pl.Func, k *pl.Function) {
			b := f.Let("buf", pld.AllocWindowBuffer(256))
			n := f.Let("n", pld.WorldSize())
			f.Do(f.Dispatch(k, pl.Sub(n, 1), f.Let("v", pld.Window(b, pl.Dims(1, 64), pl.FP32))))
		}, "is not a constant"},
	} {
		_, err := passes.CollectCommGroups(build(c.host))
		require.ErrorContains(t, err, c.want, c.name)
	}
}

// MaterializeDistTensorCtx: one CommCtx parameter per DistributedTensor
// parameter, ctx bindings at the host dispatch in order, and a suffix when
// the name is taken.
func TestMaterializeDistTensorCtx(t *testing.T) {
	prog := pl.NewProgram("Ctx")
	k := prog.InCore("chip_orch", func(f *pl.Func) {
		f.InOut("data", pld.DistributedTensor(pl.Dims(256), pl.FP32))
		f.InOut("signal", pld.DistributedTensor(pl.Dims(4), pl.INT32))
		f.Scalar("data_ctx", pl.INT32) // takes the natural name
	})
	prog.Host("host", func(f *pl.Func) {
		db := f.Let("data_buf", pld.AllocWindowBuffer(1024))
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(16))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("data", pld.Window(db, pl.Dims(256), pl.FP32)),
				f.Let("signal", pld.Window(sb, pl.Dims(4), pl.INT32)), 0))
		})
	})
	p := run(t, prog.IR(), "CollectCommGroups", "MaterializeDistTensorCtx")
	fn := p.Function("chip_orch")
	require.Len(t, fn.Params, 5)
	require.Equal(t, "data_ctx_1", fn.Params[3].Name)
	require.Equal(t, "signal_ctx", fn.Params[4].Name)
	require.IsType(t, &ir.CommCtxType{}, fn.Params[4].Type())
	require.Equal(t, ir.In, fn.Direction(4))
	text := printProgram(p)
	require.Regexp(t, `data_ctx: pld.CommCtx = pld.system.get_comm_ctx\(data\)\n\s+signal_ctx: pld.CommCtx = pld.system.get_comm_ctx\(signal\)`, text)
	require.Contains(t, text, "data, signal, 0, data_ctx, signal_ctx, device=r)")
}

// InsertCommFence (upstream test_window_store_then_notify): between a store
// into a window and a notify, exactly cacheinvalid(win, [1, 8], [0, 0]) and a
// fence; a store into a plain tensor gets nothing; a wait gets a full
// cacheinvalid.
func TestInsertCommFence(t *testing.T) {
	p := kernelOnly(func(f *pl.Func) {
		inp := f.In("inp", pl.Tensor(pl.Dims(1, 8), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(1, 8), pl.FP32))
		win := f.InOut("win", pld.DistributedTensor(pl.Dims(1, 8), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
		peer := f.Scalar("peer", pl.INT32)
		t0 := f.Let("t", pl.Load(inp, pl.Dims(0, 0), pl.Dims(1, 8)))
		f.Set(win, pl.Store(t0, pl.Dims(0, 0), win))
		f.Do(pld.Notify(sig, peer, pl.Dims(0, 0), 1, pld.AtomicAdd))
		f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		f.Set(out, pl.Store(t0, pl.Dims(0, 0), out))
	})
	p = run(t, p, "InsertCommFence")
	var names []string
	for _, s := range ir.Flatten(p.Function("kernel").Body) {
		if c := ir.StmtCall(s); c != nil {
			names = append(names, printCall(c))
		}
	}
	require.Equal(t, []string{
		"tile.load", "tile.store",
		"system.cacheinvalid(win, [1, 8], [0, 0])", "system.fence()",
		"pld.system.notify", "pld.system.wait", "system.cacheinvalid()", "tile.store",
	}, names)
}

func printCall(c *ir.Call) string {
	if !strings.HasPrefix(c.Name(), "system.") {
		return c.Name()
	}
	var args []string
	for _, a := range c.Args {
		args = append(args, ir.DefaultFormat.Expr(a))
	}
	return c.Name() + "(" + strings.Join(args, ", ") + ")"
}

// Lower (no instrumentation) gives the program the instrumented pipeline's
// last stage holds.
func TestLowerMatchesPipeline(t *testing.T) {
	p := testProgramsByName(t, "allreduce_sum").build(2).IR()
	low, err := passes.Lower(p)
	require.NoError(t, err)
	st, err := passes.NewPipeline(p, verifyHook()).Run()
	require.NoError(t, err)
	require.Equal(t, printProgram(st.Program), printProgram(low))
}

func testProgramsByName(t *testing.T, name string) testProgram {
	for _, tp := range testPrograms() {
		if tp.name == name {
			return tp
		}
	}
	t.Fatalf("no test program %s", name)
	return testProgram{}
}

// The staged transfer's shape is the region's shape when one is given, else
// the DistributedTensor's (the peer's side: dst of a put, src of a get).
func TestPutGetStageShape(t *testing.T) {
	cases := []struct {
		name    string
		body    func(f *pl.Func)
		stage   string
		wantErr string
	}{
		{"get, whole window", func(f *pl.Func) {
			dst := f.In("dst", pl.Tensor(pl.Dims(8, 64), pl.FP32))
			src := f.In("src", pld.DistributedTensor(pl.Dims(8, 64), pl.FP32))
			f.Do(pld.Get(dst, 1, src))
		}, "tget_stage: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec]", ""},
		{"put, region", func(f *pl.Func) {
			src := f.In("src", pl.Tensor(pl.Dims(32, 64), pl.FP32))
			dst := f.In("dst", pld.DistributedTensor(pl.Dims(8, 64), pl.FP32))
			f.Do(pld.Put(dst, 1, src, pld.Region(pl.Dims(0, 0), pl.Dims(0, 0), pl.Dims(4, 64))))
		}, "tput_stage: pl.Tile[[4, 64], pl.FP32, pl.Mem.Vec]", ""},
		{"get into a computed value", func(f *pl.Func) {
			a := f.In("a", pl.Tensor(pl.Dims(8, 64), pl.FP32))
			src := f.In("src", pld.DistributedTensor(pl.Dims(8, 64), pl.FP32))
			f.Do(pld.Get(f.Let("x", pl.Add(a, a)), 1, src))
		}, "", "pld.tensor.get src must be a GM tensor, but x is computed on chip"},
		{"get, region", func(f *pl.Func) {
			dst := f.In("dst", pl.Tensor(pl.Dims(32, 64), pl.FP32))
			src := f.In("src", pld.DistributedTensor(pl.Dims(8, 64), pl.FP32))
			f.Do(pld.Get(dst, 1, src, pld.Region(pl.Dims(0, 0), pl.Dims(0, 0), pl.Dims(2, 64))))
		}, "tget_stage: pl.Tile[[2, 64], pl.FP32, pl.Mem.Vec]", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := passes.RunUntil(kernelOnly(c.body), "ConvertTensorToTileOps")
			if c.wantErr != "" {
				require.ErrorContains(t, err, c.wantErr)
				return
			}
			require.NoError(t, err)
			require.Contains(t, printProgram(q), c.stage)
		})
	}
}
