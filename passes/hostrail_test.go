package passes_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/manifest"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

// A signal-less host allreduce in a 3-iteration pl.range loop compiles
// through the host rail: one synthesized signal for the data buffer's
// lineage, allocated once before the loop and shared by every iteration,
// then one builtin dispatch per device. Before and after lowering it runs
// to y = NR^2 * Σ x on every rank.
func TestHostAllReduceInLoop(t *testing.T) {
	pp := passes.NewPipeline(testprogs.HostAllReduceLoop(3).IR(), verifyHook())
	_, err := pp.Run()
	require.NoError(t, err)
	golden(t, "host_allreduce_loop.stages.py", stagesText(pp.Stages()))

	final := pp.Current().Text
	require.Equal(t, 1, strings.Count(final, "pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0"), "one signal for the lineage")
	require.NotContains(t, final, "__allreduce_signal_buf_1")
	require.Contains(t, final, "# pld.comm_domain: devices=all, slots=[__allreduce_signal_buf_0, data_buf]")
	// The signal is bound before the loop and used inside it.
	at := strings.Index(final, "__allreduce_signal_0: pld.DistributedTensor")
	loop := strings.Index(final, "in pl.range(3, init_values=")
	require.True(t, at >= 0 && loop > at, "the signal is hoisted above the loop")
	require.Contains(t, final, "builtin.tensor.allreduce(data__iter_v1, __allreduce_signal_0, op=0, dtype=pl.FP32, core_num=1, device=r_1)")
	for _, s := range pp.Stages() {
		require.NoError(t, ir.RoundTripCheck(s.Program), "round trip after %s", s.Name)
	}
	// The synthesized buffer's size folds once the rank count is known:
	// world_size * core_num * 4 bytes.
	m, err := manifest.FromProgram(pp.Current().Program, 4)
	require.NoError(t, err)
	require.Equal(t, "__allreduce_signal_buf_0", m.CommGroups[0].Slots[0].Name)
	require.EqualValues(t, 16, m.CommGroups[0].Slots[0].NBytes)

	// Each pass of the rail, run again, changes nothing.
	for _, prog := range []*ir.Program{testprogs.HostAllReduceLoop(3).IR(), testprogs.HostAllReduceSubsets().IR()} {
		p := prog
		for _, ps := range passes.Table() {
			q, err := ps.Run(p)
			require.NoError(t, err, ps.Name)
			again, err := ps.Run(q)
			require.NoError(t, err, ps.Name)
			require.Equal(t, printProgram(q), printProgram(again), "%s is not idempotent", ps.Name)
			p = q
		}
	}

	sim := runtime.NewSimulator()
	for _, c := range []struct {
		mode string
		n    int
	}{{"mesh", 2}, {"mesh", 3}, {"mesh", 4}, {"ring", 2}, {"ring", 3}, {"ring", 4}, {"ring", 8}} {
		n := c.n
		t.Run(fmt.Sprintf("%s/P=%d", c.mode, n), func(t *testing.T) {
			in := testprogs.HostAllReduceLoopMode(3, c.mode).IR()
			lowered, err := passes.Lower(in)
			require.NoError(t, err)
			// The ring mode dispatches the ring builtin.
			builtin := map[string]string{"mesh": "builtin.tensor.allreduce(", "ring": "builtin.tensor.allreduce_ring("}[c.mode]
			require.Contains(t, printProgram(lowered), builtin)
			for name, p := range map[string]*ir.Program{"input": in, "lowered": lowered} {
				x := tensor.Randn(int64(n), n, 1, testprogs.CollectiveCols)
				y := tensor.Zeros(ir.FP32, n, 1, testprogs.CollectiveCols)
				res, err := sim.Run(context.Background(), p, []*tensor.Tensor{x, y}, runtime.RunOptions{Ranks: n})
				require.NoError(t, err, name)
				for r := 0; r < n; r++ {
					for j := 0; j < testprogs.CollectiveCols; j++ {
						sum := 0.0
						for q := 0; q < n; q++ {
							sum += x.At(q, 0, j)
						}
						require.InDelta(t, float64(n*n)*sum, y.At(r, 0, j), 1e-3, "%s: rank %d col %d", name, r, j)
					}
				}
				if name == "lowered" {
					for k, v := range signalValues(res) {
						require.Zero(t, v, "signal cell %s after the run", k)
					}
				}
			}
		})
	}
}

// Two signal-less allreduces over buffers used by different device subsets
// get distinct signals, each in its data's comm domain, dispatched to that
// subset only; each pair sums on its own.
func TestHostAllReduceDeviceSubsets(t *testing.T) {
	p, err := passes.Lower(testprogs.HostAllReduceSubsets().IR())
	require.NoError(t, err)
	text := printProgram(p)
	golden(t, "host_allreduce_subsets.lowered.py", text)
	require.Contains(t, text, "# pld.comm_domain: devices=[0, 1], slots=[__allreduce_signal_buf_0, lo_buf]")
	require.Contains(t, text, "# pld.comm_domain: devices=[2, 3], slots=[__allreduce_signal_buf_1, hi_buf]")
	require.Contains(t, text, "builtin.tensor.allreduce(lo__ssa_v0, __allreduce_signal_0, op=0, dtype=pl.FP32, core_num=1, device=1)")
	require.Contains(t, text, "builtin.tensor.allreduce(hi__ssa_v0, __allreduce_signal_1, op=0, dtype=pl.FP32, core_num=1, device=2)")
	require.NotContains(t, text, "__allreduce_signal_0, op=0, dtype=pl.FP32, core_num=1, device=2")

	x := tensor.Randn(5, 4, 1, testprogs.CollectiveCols)
	y := tensor.Zeros(ir.FP32, 4, 1, testprogs.CollectiveCols)
	_, err = runtime.NewSimulator().Run(context.Background(), p, []*tensor.Tensor{x, y}, runtime.RunOptions{Ranks: 4})
	require.NoError(t, err)
	for r := 0; r < 4; r++ {
		lo := r / 2 * 2
		for j := 0; j < testprogs.CollectiveCols; j++ {
			require.InDelta(t, x.At(lo, 0, j)+x.At(lo+1, 0, j), y.At(r, 0, j), 1e-5, "rank %d col %d", r, j)
		}
	}
}

// hostProg builds a host-only program around body, with one InCore kernel
// taking a [1, 16] FP32 window for dispatches.
func hostProg(body func(f *pl.Func, k *pl.Function)) *ir.Program {
	prog := pl.NewProgram("HostRail")
	k := prog.InCore("kernel", func(f *pl.Func) {
		d := f.InOut("data", pld.DistributedTensor(pl.Dims(1, 16), pl.FP32))
		f.Do(pld.Notify(f.InOut("signal", pld.DistributedTensor(pl.Dims(4, 1), pl.INT32)), 0, pl.Dims(0, 0), 0, pld.AtomicAdd))
		_ = d
	})
	prog.Host("host", func(f *pl.Func) { body(f, k) })
	return prog.IR()
}

// Each error of passes.md §6–8, with its message.
func TestHostRailErrors(t *testing.T) {
	win := func(f *pl.Func, name string) pl.Expr {
		return f.Let(name, pld.Window(f.Let(name+"_buf", pld.AllocWindowBuffer(64)), pl.Dims(1, 16), pl.FP32))
	}
	sigWin := func(f *pl.Func, name string) pl.Expr {
		return f.Let(name, pld.Window(f.Let(name+"_buf", pld.AllocWindowBuffer(64)), pl.Dims(4, 1), pl.INT32))
	}
	dispatchAll := func(f *pl.Func, k *pl.Function, args ...any) {
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) { f.Do(f.Dispatch(k, r, args...)) })
	}
	type hostRailCase struct {
		name string
		prog func() *ir.Program
		want string
	}
	cases := []hostRailCase{
		{"allreduce arity", func() *ir.Program {
			return withHostStmt(hostProg(func(f *pl.Func, k *pl.Function) {
				d, s := win(f, "data"), sigWin(f, "signal")
				dispatchAll(f, k, d, s)
			}), func(d, s ir.Expr) ir.Stmt {
				c := ir.MustCall("pld.tensor.allreduce", []ir.Expr{d}, ir.Kwargs{{Key: "op", Value: int64(0)}, {Key: "core_num", Value: int64(1)}}, ir.Span{})
				c.Args = append(c.Args, s, s)
				return &ir.EvalStmt{Expr: c}
			})
		}, "SynthesizeAllReduceSignals: function host: pld.tensor.allreduce at  takes (target) or (target, signal), given 3 positional arguments"},
		{"device expression", func() *ir.Program {
			return hostProg(func(f *pl.Func, k *pl.Function) {
				d, s := win(f, "data"), sigWin(f, "signal")
				f.For("r", pl.Range(2), func(r pl.Expr) { f.Do(f.Dispatch(k, pl.Add(r, 1), d, s)) })
			})
		}, "MaterializeCommDomainScopes: device= expression must be ConstInt or the induction var of pl.range; got an unsupported expression at"},
		{"device not a loop var", func() *ir.Program {
			return hostProg(func(f *pl.Func, k *pl.Function) {
				d, s := win(f, "data"), sigWin(f, "signal")
				dev := f.Let("dev", pld.Rank(pld.GetCommCtx(d)))
				f.Do(f.Dispatch(k, dev, d, s))
			})
		}, "MaterializeCommDomainScopes: device= Var is not the induction variable of any enclosing pl.range loop"},
		{"device loop bound", func() *ir.Program {
			return hostProg(func(f *pl.Func, k *pl.Function) {
				d, s := win(f, "data"), sigWin(f, "signal")
				f.For("r", pl.Range(0, 4, 2), func(r pl.Expr) { f.Do(f.Dispatch(k, r, d, s)) })
			})
		}, "MaterializeCommDomainScopes: device=r loop bound must be ConstInt or pld.system.world_size()"},
		{"dead allocation", func() *ir.Program {
			return hostProg(func(f *pl.Func, k *pl.Function) {
				d, s := win(f, "data"), sigWin(f, "signal")
				dispatchAll(f, k, d, s)
				f.Let("unused_buf", pld.AllocWindowBuffer(64))
			})
		}, "MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer 'unused_buf' has no pld.tensor.window materialisation (dead allocation)"},
		{"not consumed", func() *ir.Program {
			return hostProg(func(f *pl.Func, k *pl.Function) {
				d, s := win(f, "data"), sigWin(f, "signal")
				dispatchAll(f, k, d, s)
				win(f, "idle")
			})
		}, "MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer 'idle_buf' is not consumed by any chip_orch dispatch"},
		{"collective without coverage", func() *ir.Program {
			return hostProg(func(f *pl.Func, k *pl.Function) {
				d, s := win(f, "data"), sigWin(f, "signal")
				dispatchAll(f, k, d, s)
				other := win(f, "other")
				f.Set(other, pld.AllReduce(other, nil))
			})
		}, "MaterializeCommDomainScopes: collective data/target buffer other_buf at"},
		{"barrier without coverage", func() *ir.Program {
			return hostProg(func(f *pl.Func, k *pl.Function) {
				d, s := win(f, "data"), sigWin(f, "signal")
				dispatchAll(f, k, d, s)
				b := sigWin(f, "bar")
				f.Set(b, pld.Barrier(b))
			})
		}, "MaterializeCommDomainScopes: pld.tensor.barrier signal buffer has no inferred comm-domain coverage"},
		{"aliased windows", func() *ir.Program {
			return hostProg(func(f *pl.Func, k *pl.Function) {
				buf := f.Let("data_buf", pld.AllocWindowBuffer(64))
				d := f.Let("data", pld.Window(buf, pl.Dims(1, 16), pl.FP32))
				s := f.Let("signal", pld.Window(buf, pl.Dims(4, 1), pl.INT32))
				dispatchAll(f, k, d, s)
				f.Set(d, pld.AllReduce(d, s))
			})
		}, "LowerHostTensorCollectives: pld.tensor.allreduce at"},
		{"different domains", func() *ir.Program {
			return hostProg(func(f *pl.Func, k *pl.Function) {
				d, s := win(f, "data"), sigWin(f, "signal")
				f.For("r", pl.Range(2), func(r pl.Expr) { f.Do(f.Dispatch(k, r, d, s)) })
				s2 := sigWin(f, "signal2")
				f.For("r", pl.Range(2, 4), func(r pl.Expr) { f.Do(f.Dispatch(k, r, win(f, "data2"), s2)) })
				f.Set(d, pld.AllReduce(d, s2))
			})
		}, "is in a different comm domain than the collective's other window arguments"},
		{"host ring is Sum only", func() *ir.Program {
			return hostProg(func(f *pl.Func, k *pl.Function) {
				d, s := win(f, "data"), sigWin(f, "signal")
				dispatchAll(f, k, d, s)
				f.Set(d, pld.AllReduce(d, nil, pld.Mode("ring"), pld.Op(pld.Max)))
			})
		}, "ring allreduce currently supports only ReduceOp.Sum with dtype=FP32, given Max over FP32"},
		{"host ring is single-core", func() *ir.Program {
			return hostProg(func(f *pl.Func, k *pl.Function) {
				d, s := win(f, "data"), sigWin(f, "signal")
				dispatchAll(f, k, d, s)
				f.Set(d, pld.AllReduce(d, nil, pld.Mode("ring"), pld.CoreNum(2)))
			})
		}, "multicore is mesh-only: mode=\"ring\" requires core_num == 1, given 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := passes.Lower(tc.prog())
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
	// A host allreduce nested inside another call: SynthesizeAllReduceSignals
	// alone rejects it; in the pipeline FlattenCallExpr has hoisted it into
	// a temporary first, so the program compiles.
	nested := withHostStmt(hostProg(func(f *pl.Func, k *pl.Function) {
		d, s := win(f, "data"), sigWin(f, "signal")
		dispatchAll(f, k, d, s)
	}), func(d, s ir.Expr) ir.Stmt {
		c := ir.MustCall("pld.tensor.allreduce", []ir.Expr{d}, ir.Kwargs{{Key: "op", Value: int64(0)}, {Key: "core_num", Value: int64(1)}}, ir.Span{})
		return &ir.EvalStmt{Expr: ir.MustCall("pld.system.get_comm_ctx", []ir.Expr{c}, nil, ir.Span{})}
	})
	_, err := passes.SynthesizeAllReduceSignals(nested)
	require.ErrorContains(t, err, "pld.tensor.allreduce at  must be a direct assignment, expression statement or return value, not nested inside another expression")
	_, err = passes.Lower(nested)
	require.NoError(t, err)
	// all_to_all_v's single-use signal cannot sit in a host loop.
	a2avProg := pl.NewProgram("AllToAllV")
	k2 := a2avProg.InCore("kernel", func(f *pl.Func) {
		f.InOut("data", pld.DistributedTensor(pl.Dims(1, 16), pl.FP32))
		f.Do(pld.Notify(f.InOut("signal", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32)), 0, pl.Dims(0, 0), 0, pld.AtomicAdd))
	})
	a2avProg.Host("host", func(f *pl.Func) {
		small := func(name string) pl.Expr {
			return f.Let(name, pld.Window(f.Let(name+"_buf", pld.AllocWindowBuffer(4)), pl.Dims(1, 1), pl.INT32))
		}
		in, tgt := win(f, "input"), win(f, "target")
		sig, sc, rc := small("signal"), small("send_counts"), small("recv_counts")
		for _, pair := range [][2]pl.Expr{{in, sig}, {tgt, sc}, {tgt, rc}} {
			f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) { f.Do(f.Dispatch(k2, r, pair[0], pair[1])) })
		}
		f.For("i", pl.Range(2), func(pl.Expr) {
			f.Do(ir.MustCall("pld.tensor.all_to_all_v", []ir.Expr{in.(ir.Expr), tgt.(ir.Expr), sig.(ir.Expr), sc.(ir.Expr), rc.(ir.Expr)}, nil, ir.Span{}))
		})
	})
	a2av := a2avProg.IR()
	_, err = passes.Lower(a2av)
	require.ErrorContains(t, err, "pld.tensor.all_to_all_v at  is not supported inside a for/while loop in a HOST orchestrator")
	// Its recv_counts, like its signal, must be a window allocated here.
	rcProg := pl.NewProgram("AllToAllVParamCounts")
	rcProg.Host("host", func(f *pl.Func) {
		rc := f.InOut("recv_counts", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
		in, tgt := win(f, "input"), win(f, "target")
		sig := f.Let("signal", pld.Window(f.Let("signal_buf", pld.AllocWindowBuffer(4)), pl.Dims(1, 1), pl.INT32))
		sc := f.Let("send_counts", pld.Window(f.Let("send_counts_buf", pld.AllocWindowBuffer(4)), pl.Dims(1, 1), pl.INT32))
		f.Do(ir.MustCall("pld.tensor.all_to_all_v", []ir.Expr{in.(ir.Expr), tgt.(ir.Expr), sig.(ir.Expr), sc.(ir.Expr), rc.(ir.Expr)}, nil, ir.Span{}))
	})
	_, err = passes.Lower(rcProg.IR())
	require.ErrorContains(t, err, "pld.tensor.all_to_all_v at : its recv_counts is not a view of a window buffer allocated in this function")
	// Two allocations of one name in one domain.
	dup := withHostStmt(hostProg(func(f *pl.Func, k *pl.Function) {
		d, s := win(f, "data"), sigWin(f, "signal")
		dispatchAll(f, k, d, s)
	}), func(d, s ir.Expr) ir.Stmt { return nil })
	dup = renameAlloc(dup, "signal_buf", "data_buf")
	_, err = passes.MaterializeCommDomainScopes(dup) // ConvertToSSA would version the name
	require.ErrorContains(t, err, "MaterializeCommDomainScopes: duplicate allocation name 'data_buf' within the same comm domain")
	// The aliasing message names both operands and the buffer.
	aliased := slices.IndexFunc(cases, func(c hostRailCase) bool { return c.name == "aliased windows" })
	_, err = passes.Lower(cases[aliased].prog())
	require.ErrorContains(t, err, "all window operands of a HOST collective must resolve to pairwise distinct WindowBuffer allocations, but 'target' and 'signal' are both views of data_buf")
	// Without MaterializeCommDomainScopes a host collective's windows are
	// not materialized.
	p := hostProg(func(f *pl.Func, k *pl.Function) {
		d, s := win(f, "data"), sigWin(f, "signal")
		dispatchAll(f, k, d, s)
		f.Set(d, pld.AllReduce(d, s))
	})
	_, err = passes.LowerHostTensorCollectives(p)
	require.ErrorContains(t, err, "argument 'target' must be a window view materialized by MaterializeCommDomainScopes")
}

// withHostStmt appends the statement mk builds (from the host's first
// window views, data then signal) to the host orchestrator's body: forms
// the DSL cannot write.
func withHostStmt(p *ir.Program, mk func(data, signal ir.Expr) ir.Stmt) *ir.Program {
	q := p.Clone()
	for i, fn := range q.Functions {
		if !fn.IsHostOrchestrator() {
			continue
		}
		var views []ir.Expr
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			if a, ok := s.(*ir.AssignStmt); ok {
				if c, ok := a.Value.(*ir.Call); ok && c.Name() == "pld.tensor.window" {
					views = append(views, a.Var)
				}
			}
		})
		g := *fn
		stmts := ir.Flatten(fn.Body)
		if st := mk(views[0], views[1]); st != nil {
			stmts = append(stmts, st)
		}
		g.Body = ir.Seq(stmts...)
		q.Functions[i] = &g
	}
	return q
}

// The seed's CollectCommGroups stays available: a table with it in place
// of the host rail lowers every collective test program to what the
// default table gives (none has a host collective).
func TestSeedCommGroupsTable(t *testing.T) {
	var names []string
	for _, ps := range passes.SeedCommGroupsTable() {
		names = append(names, ps.Name)
	}
	require.Equal(t, []string{"CtrlFlowTransform", "ConvertToSSA", "FlattenCallExpr", "OutlineHierarchyScopes", "OutlineIncoreScopes", "ConvertTensorToTileOps", "LowerCompositeOps", "FlattenTileNdTo2D", "InferTileMemorySpace",
		"InitMemRef", "AllocateMemoryAddr", "CollectCommGroups", "MaterializeDistTensorCtx", "InsertCommFence"}, names)
	for _, tp := range testPrograms() {
		n := max(tp.staticN, 2)
		seed := passes.NewPipelineWith(tp.build(n).IR(), passes.SeedCommGroupsTable(), verifyHookFor(passes.SeedCommGroupsTable()))
		a, err := seed.Run()
		require.NoError(t, err, tp.name)
		b, err := passes.NewPipeline(tp.build(n).IR(), verifyHook()).Run()
		require.NoError(t, err, tp.name)
		require.Equal(t, b.Text, a.Text, tp.name)
	}
	// The seed table leaves a signal-less host allreduce as written (the
	// simulator runs it natively).
	st, err := passes.NewPipelineWith(testprogs.HostAllReduceLoop(3).IR(), passes.SeedCommGroupsTable()).Run()
	require.NoError(t, err)
	require.Contains(t, st.Text, "pld.tensor.allreduce(data__iter_v1, op=0, mode='mesh', core_num=1)")
}

// renameAlloc gives the host's allocation bound to from the buffer name to
// (its variable keeps its name): two buffers of one name, which the DSL
// cannot write.
func renameAlloc(p *ir.Program, from, to string) *ir.Program {
	q := p.Clone()
	for _, fn := range q.Functions {
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			if a, ok := s.(*ir.AssignStmt); ok && a.Var.Name == from {
				a.Var.Name = to
			}
		})
	}
	return q
}

// A signal-less host allreduce in a loop, after SynthesizeAllReduceSignals:
// one signal for the data buffer, bound once at the top of the host.
func ExampleSynthesizeAllReduceSignals() {
	p, err := passes.RunUntil(testprogs.HostAllReduceLoop(3).IR(), "SynthesizeAllReduceSignals")
	if err != nil {
		panic(err)
	}
	for _, line := range strings.Split(printProgram(p), "\n") {
		if strings.Contains(line, "allreduce") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// __allreduce_signal_world_size_0: pl.Scalar[pl.INT64] = pld.system.world_size()
	// __allreduce_signal_buf_0: pl.Ptr = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0 * pl.const(1, pl.INT64) * pl.const(4, pl.INT64))
	// __allreduce_signal_0: pld.DistributedTensor[[__allreduce_signal_world_size_0, 1], pl.INT32] = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 1], dtype=pl.INT32)
	// data__ssa_v2: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_3", 0, 64)] = pld.tensor.allreduce(data__iter_v1, __allreduce_signal_0, op=0, mode='mesh', core_num=1)
}

// A dispatch loop over a variable bound to pld.system.world_size() (what
// FlattenCallExpr makes of pl.range(pld.system.world_size()), and what an
// author may write) covers every device, in both host rails.
func TestDispatchLoopOverWorldSizeVariable(t *testing.T) {
	p := hostProg(func(f *pl.Func, k *pl.Function) {
		ws := f.Let("ws", pld.WorldSize())
		dataBuf := f.Let("data_buf", pld.AllocWindowBuffer(64))
		sigBuf := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(ws, 4)))
		f.For("r", pl.Range(ws), func(r pl.Expr) {
			d := f.Let("data", pld.Window(dataBuf, pl.Dims(1, 16), pl.FP32))
			s := f.Let("signal", pld.Window(sigBuf, pl.Dims(4, 1), pl.INT32))
			f.Do(f.Dispatch(k, r, d, s))
		})
	})
	for _, table := range [][]passes.Pass{passes.Table(), passes.SeedCommGroupsTable()} {
		st, err := passes.NewPipelineWith(p, table).Run()
		require.NoError(t, err)
		require.Len(t, st.Program.CommGroups, 1)
		require.Empty(t, st.Program.CommGroups[0].Devices, "no device list: every device")
		require.Len(t, st.Program.CommGroups[0].Slots, 2)
	}
}
