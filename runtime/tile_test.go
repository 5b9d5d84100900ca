package runtime_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// Tile-level programs: what ConvertTensorToTileOps, LowerCompositeOps and
// MaterializeDistTensorCtx produce (staging tiles, pld.tile.put/get, valid
// shapes, fillpad, explicit ctx parameters), built directly as IR.

func call(op string, args []ir.Expr, kw ir.Kwargs) ir.Expr {
	return ir.MustCall(op, args, kw, ir.Span{})
}

// tileRing moves x one step around the ring with pld.tile.put / get and
// tile.create staging tiles, optionally in the region form with ping/pong
// stages, taking its comm context as a parameter.
func tileRing(put, region bool) *pl.Program {
	const W = 64
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("TileRing")
	k := prog.InCore("step", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(2, W), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(2, W), pl.FP32))
		src := f.InOut("src", pld.DistributedTensor(pl.Dims(2, W), pl.FP32))
		dst := f.InOut("dst", pld.DistributedTensor(pl.Dims(2, W), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
		ctx := f.In("src_ctx", ir.CommCtxT)
		me := f.Let("me", pld.Rank(ctx))
		n := f.Let("n", pld.NRanks(ctx))
		next := f.Let("next", pl.Mod(pl.Add(me, 1), n))
		prev := f.Let("prev", pl.Mod(pl.Sub(pl.Add(me, n), 1), n))
		f.Set(src, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(2, W))), pl.Dims(0, 0), src))
		var stages []ir.Expr
		if region {
			stages = []ir.Expr{f.Let("tput_stage_ping", pl.CreateTile(pl.Dims(1, 32), pl.FP32)), f.Let("tput_stage_pong", pl.CreateTile(pl.Dims(1, 32), pl.FP32))}
		} else {
			stages = []ir.Expr{f.Let("tput_stage", pl.CreateTile(pl.Dims(2, W), pl.FP32))}
		}
		xfer := func(peer ir.Expr) {
			op := "pld.tile.get"
			var kw ir.Kwargs
			if put {
				op, kw = "pld.tile.put", ir.Kwargs{{Key: "atomic", Value: int64(0)}}
			}
			args := append([]ir.Expr{dst, peer, src}, stages...)
			if region {
				// Move only row 1, columns 16..47, into row 0 at the same columns.
				args = append(args, ir.Dims(0, 16), ir.Dims(1, 16), ir.Dims(1, 32))
			}
			f.Do(call(op, args, kw))
		}
		if put {
			xfer(next)
			f.Do(pld.Notify(sig, next, pl.Dims(0, 0), 1, pld.AtomicAdd))
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		} else {
			f.Do(pld.Notify(sig, prev, pl.Dims(0, 0), 1, pld.AtomicAdd))
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
			xfer(next)
		}
		f.Do(call("system.cacheinvalid", nil, nil))
		f.Set(y, pl.Store(f.Let("out", pl.Load(dst, pl.Dims(0, 0), pl.Dims(2, W))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 2, W), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 2, W), pl.FP32))
		sb := f.Let("src_buf", pld.AllocWindowBufferOf(pl.Dims(2, W), pl.FP32))
		db := f.Let("dst_buf", pld.AllocWindowBufferOf(pl.Dims(2, W), pl.FP32))
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(4))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			src := f.Let("src", pld.Window(sb, pl.Dims(2, W), pl.FP32))
			dst := f.Let("dst", pld.Window(db, pl.Dims(2, W), pl.FP32))
			sig := f.Let("signal", pld.Window(gb, pl.Dims(1, 1), pl.INT32))
			ctx := f.Let("src_ctx", pld.GetCommCtx(src))
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r), src, dst, sig, ctx))
		})
	})
	return prog
}

func TestTileLevelPutGet(t *testing.T) {
	for _, put := range []bool{true, false} {
		for _, region := range []bool{false, true} {
			for _, n := range []int{2, 3, 5} {
				t.Run(fmt.Sprintf("put=%v/region=%v/P=%d", put, region, n), func(t *testing.T) {
					x := tensor.Randn(9, n, 2, 64)
					y := tensor.Zeros(ir.FP32, n, 2, 64)
					mustRun(t, tileRing(put, region), n, x, y)
					for r := 0; r < n; r++ {
						from := (r + 1) % n
						if put {
							from = (r + n - 1) % n
						}
						for i := 0; i < 2; i++ {
							for j := 0; j < 64; j++ {
								want := x.At(from, i, j)
								if region {
									want = 0
									if i == 0 && j >= 16 && j < 48 {
										want = x.At(from, 1, j)
									}
								}
								require.Equal(t, want, y.At(r, i, j), "rank %d [%d,%d]", r, i, j)
							}
						}
					}
				})
			}
		}
	}
}

// The mesh allreduce as LowerCompositeOps writes it for a partial chunk:
// a [1, numel] view, valid-shaped loads padded with fillpad_inplace, peer
// reads with a valid shape, set_validshape before the store, two credit
// barriers and the epilogue.
func tileAllReduce(numel, chunk int) *pl.Program {
	NR := pl.Dynamic("NR")
	// ir's tile.load deducer wants the physical [1, chunk] tile inside the
	// tensor, so the window is padded to whole chunks; only numel are valid.
	phys := (numel + chunk - 1) / chunk * chunk
	prog := pl.NewProgram("TileAllReduce")
	k := prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, numel), pl.FP16))
		y := f.Out("y", pl.Tensor(pl.Dims(1, numel), pl.FP16))
		target := f.InOut("target", pld.DistributedTensor(pl.Dims(1, phys), pl.FP16))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(target))
		nranks := f.Let("nranks", pld.NRanks(ctx))
		me := f.Let("my_rank", pld.Rank(ctx))
		f.Set(target, pl.Store(f.Let("staged", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, numel))), pl.Dims(0, 0), target))
		t2d := f.Let("target_2d", pl.View(target, pl.Dims(1, phys)))
		barrier := func(g int) {
			f.For("peer", pl.Range(nranks), func(p pl.Expr) {
				f.If(pl.Ne(p, me), func() { f.Do(pld.Notify(sig, p, pl.Dims(me, 0), 1, pld.AtomicAdd)) })
			})
			f.For("src", pl.Range(nranks), func(s pl.Expr) {
				f.If(pl.Ne(s, me), func() { f.Do(pld.Wait(sig, pl.Dims(s, 0), g, pld.Ge)) })
			})
		}
		barrier(1)
		chunks := (numel + chunk - 1) / chunk
		for ci := 0; ci < chunks; ci++ {
			col := ci * chunk
			v := min(chunk, numel-col)
			acc := f.Let("acc", call("tile.fillpad_inplace", []ir.Expr{call("tile.load", []ir.Expr{t2d, ir.Dims(0, int64(col)), ir.Dims(1, int64(chunk)), ir.Dims(1, int64(v))}, ir.Kwargs{{Key: "target_memory", Value: ir.MemVec}})}, ir.Kwargs{{Key: "pad_value", Value: ir.PadZero}}))
			f.For("peer", pl.Range(nranks), func(p pl.Expr) {
				f.If(pl.Ne(p, me), func() {
					recv := f.Let("recv", call("pld.tile.remote_load", []ir.Expr{t2d, p, ir.Dims(0, int64(col)), ir.Dims(1, int64(chunk)), ir.Dims(1, int64(v))}, nil))
					f.Set(acc, pl.Add(acc, f.Let("recv_pad", call("tile.fillpad_inplace", []ir.Expr{recv}, ir.Kwargs{{Key: "pad_value", Value: ir.PadZero}}))))
				})
			})
			barrier(ci + 2)
			f.Set(t2d, pl.Store(f.Let("final", call("tile.set_validshape", []ir.Expr{acc, ir.Int(1), ir.Int(int64(v))}, nil)), pl.Dims(0, col), t2d))
		}
		f.For("src", pl.Range(nranks), func(s pl.Expr) {
			f.If(pl.Ne(s, me), func() { f.Do(pld.Notify(sig, me, pl.Dims(s, 0), -(1 + chunks), pld.AtomicAdd)) })
		})
		f.Set(y, pl.Store(f.Let("out", pl.Load(target, pl.Dims(0, 0), pl.Dims(1, numel))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, numel), pl.FP16))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, numel), pl.FP16))
		db := f.Let("data_buf", pld.AllocWindowBufferOf(pl.Dims(1, phys), pl.FP16))
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r), f.Let("target", pld.Window(db, pl.Dims(1, phys), pl.FP16)),
				f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	return prog
}

func TestTileLevelMeshAllReduceFP16(t *testing.T) {
	for _, n := range []int{2, 3, 4, 8} {
		x := tensor.Randn(int64(n), n, 1, 40).To(ir.FP16)
		y := tensor.Zeros(ir.FP16, n, 1, 40)
		res := mustRun(t, tileAllReduce(40, 16), n, x, y)
		for r := 0; r < n; r++ {
			for j := 0; j < 40; j++ {
				// The golden in FP16 arithmetic, in the rank's own order.
				acc := tensor.FromFloat64(ir.FP16, []float64{x.At(r, 0, j)}, 1)
				for s := 0; s < n; s++ {
					if s != r {
						acc = tensor.FromFloat64(ir.FP16, []float64{acc.At(0) + x.At(s, 0, j)}, 1)
					}
				}
				require.Equal(t, acc.At(0), y.At(r, 0, j), "P=%d rank %d elem %d", n, r, j)
			}
		}
		for _, c := range res.Signals {
			require.Zero(t, c.Value)
		}
	}
}

// --- timeline, progress, observer

type recorder struct {
	mu       sync.Mutex
	accesses []runtime.Access
	notifies []runtime.Notification
	waits    []runtime.WaitResult
	end      *runtime.RunEnd
	order    []string
}

func (r *recorder) Access(a runtime.Access) {
	r.accesses = append(r.accesses, a)
	r.order = append(r.order, fmt.Sprintf("access %d→%d %s %s", a.Rank, a.Target, a.Kind, a.Buffer))
}
func (r *recorder) Notify(n runtime.Notification) {
	r.notifies = append(r.notifies, n)
	r.order = append(r.order, fmt.Sprintf("notify %d→%s #%d", n.Rank, n.Cell, n.Seq))
}
func (r *recorder) Wait(w runtime.WaitResult) {
	r.waits = append(r.waits, w)
	r.order = append(r.order, fmt.Sprintf("wait %d %s saw %d", w.Rank, w.Cell, w.Observed))
}
func (r *recorder) End(e runtime.RunEnd) { r.end = &e }

func TestObserverTimelineProgress(t *testing.T) {
	const n = 3
	rec := &recorder{}
	var progress []runtime.ProgressInfo
	x := tensor.Randn(1, n, 1, 64)
	y := tensor.Zeros(ir.FP32, n, 1, 64)
	res, err := runtime.NewSimulator().Run(context.Background(), ringProgram("put").IR(), []*tensor.Tensor{x, y}, runtime.RunOptions{
		Ranks: n, Observer: rec, Progress: func(p runtime.ProgressInfo) { progress = append(progress, p) },
	})
	require.NoError(t, err)

	// Observer: per rank, a local write of src, a read of src, a remote write
	// of the next rank's dst, a notify, a wait that saw it, a read of dst.
	require.NotNil(t, rec.end)
	require.Len(t, rec.notifies, n)
	require.Len(t, rec.waits, n)
	for _, w := range rec.waits {
		require.Equal(t, 1, w.Observed)
		require.True(t, w.Satisfied)
		require.Equal(t, "pld.system.wait", w.Call.Op.Name)
		require.Equal(t, "put_step", w.Func)
		require.True(t, w.Call.Pos.Known())
	}
	remote := 0
	for _, a := range rec.accesses {
		if a.Target != a.Rank {
			remote++
			require.Equal(t, runtime.Write, a.Kind)
			require.Equal(t, "dst_buf", a.Buffer)
			require.Equal(t, (a.Rank+1)%n, a.Target)
			require.Equal(t, []runtime.ByteRange{{Lo: 0, Hi: 256}}, a.Ranges)
			require.Equal(t, "pld.tensor.put", a.Call.Op.Name)
		}
	}
	require.Equal(t, n, remote)
	// Order: a notify is reported before the wait that observed it.
	for _, w := range rec.waits {
		seenNotify := false
		for _, line := range rec.order {
			if strings.HasPrefix(line, "notify") && strings.Contains(line, fmt.Sprintf("→%s #0", w.Cell)) {
				seenNotify = true
			}
			if line == fmt.Sprintf("wait %d %s saw %d", w.Rank, w.Cell, w.Observed) {
				require.True(t, seenNotify, "wait on %s reported before its notify: %v", w.Cell, rec.order)
			}
		}
	}
	require.Len(t, rec.end.Signals, n)

	// Timeline: every rank's lane in program order with logical and wall times.
	tl := res.Timeline
	tl.Expand()
	require.Len(t, tl.Lanes, n)
	for r := 0; r < n; r++ {
		lane := tl.PerRank(r)
		var ops []string
		for i, ev := range lane {
			ops = append(ops, ev.Op)
			require.Less(t, ev.StartTick, ev.EndTick)
			require.LessOrEqual(t, ev.Start, ev.End)
			if i > 0 {
				require.Less(t, lane[i-1].EndTick, ev.StartTick)
			}
			switch ev.Op {
			case "pld.system.notify":
				require.Equal(t, (r+1)%n, ev.Peer)
				require.Equal(t, "signal_buf[0, 0]", ev.Cell)
				require.Equal(t, int64(1), ev.Value)
				require.Equal(t, "signal", ev.Kind)
			case "pld.tensor.put":
				require.Equal(t, (r+1)%n, ev.Peer)
				require.Equal(t, "rma", ev.Kind)
			case "pld.system.wait":
				require.Equal(t, "wait", ev.Kind)
			}
		}
		require.Contains(t, strings.Join(ops, " "), "pld.tensor.put pld.system.notify pld.system.wait tile.load tile.store")
	}
	require.NotEmpty(t, tl.Host)
	require.Greater(t, res.Ops, int64(n*5))

	// Progress: the final report has every rank done.
	require.NotEmpty(t, progress)
	last := progress[len(progress)-1]
	require.Equal(t, runtime.ProgressInfo{Ranks: n, RanksDone: n, Tasks: n, TasksDone: n, Ops: res.Ops, Elapsed: last.Elapsed}, last)
}

// --- errors: unknown ops, simulator panics, bad arguments never escape as
// Go panics and always name the op and the line.

func init() {
	ir.RegisterOp(&ir.OpDef{Name: "test.nosim", Category: "Test", Deduce: func(c *ir.DeduceCtx) (ir.Type, error) { return ir.Unknown, nil }})
	panics := ir.RegisterOp(&ir.OpDef{Name: "test.panics", Category: "Test", Deduce: func(c *ir.DeduceCtx) (ir.Type, error) { return ir.Unknown, nil }})
	runtime.Register(panics, func(x *runtime.Exec, c *ir.Call, a []any) (any, error) {
		var m map[string]int
		m["boom"]++ // a nil-map write: a simulator bug
		return nil, nil
	})
}

func oneOpProgram(op string) *pl.Program {
	prog := pl.NewProgram("One")
	k := prog.InCore("kernel", func(f *pl.Func) {
		_ = f.In("x", pl.Tensor(pl.Dims(1, 4), pl.FP32))
		f.Do(ir.MustCall(op, nil, nil, ir.Span{File: "cell7", Line: 3}))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(2, 1, 4), pl.FP32))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) { f.Do(f.Dispatch(k, r, pl.Index(x, r))) })
	})
	return prog
}

func TestErrors(t *testing.T) {
	x := tensor.Zeros(ir.FP32, 2, 1, 4)
	_, err := run(t, oneOpProgram("test.nosim"), 2, x)
	require.EqualError(t, err, "cell7:3: test.nosim (in kernel): the simulator has no semantics for op test.nosim")

	_, err = run(t, oneOpProgram("test.panics"), 2, x)
	require.Error(t, err)
	require.Contains(t, err.Error(), "cell7:3: simulator failure in test.panics (rank ")
	require.Contains(t, err.Error(), "kernel): assignment to entry in nil map")

	// A wrong host tensor is named.
	_, err = run(t, oneOpProgram("system.fence"), 2, tensor.Zeros(ir.INT32, 2, 1, 4))
	require.EqualError(t, err, "host: host tensor x: expected dtype pl.FP32, given pl.INT32")

	// A negative peer (device-style truncating %) is explained.
	prog := pl.NewProgram("NegPeer")
	k := prog.InCore("kernel", func(f *pl.Func) {
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
		f.Do(pld.Notify(sig, pl.Sub(pld.Rank(f.Let("ctx", pld.GetCommCtx(sig))), 1), pl.Dims(0, 0), 1, pld.AtomicAdd))
	})
	prog.Host("host", func(f *pl.Func) {
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(4))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("signal", pld.Window(gb, pl.Dims(1, 1), pl.INT32))))
		})
	})
	_, err = run(t, prog, 2)
	require.Error(t, err)
	require.Contains(t, err.Error(), "tile_test.go:")
	require.Contains(t, err.Error(), "pld.system.notify (rank 0, kernel): peer -1 is outside the comm domain of 2 ranks")
	require.Contains(t, err.Error(), "(r + n - 1) % n")
}

// A host-level signal-less allreduce between two dispatch loops: ranks run
// their tasks in order, the host collective runs its device part on every
// rank with a synthesised signal, and the second loop sees the result.
func TestHostCollectiveBetweenDispatchLoops(t *testing.T) {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("HostAllReduce")
	stageK := prog.InCore("stage", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, S), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, S), pl.FP32))
		f.Set(data, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), data))
	})
	outK := prog.InCore("copy_out", func(f *pl.Func) {
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, S), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, S), pl.FP32))
		f.Set(y, pl.Store(f.Let("t", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, S), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, S), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(S*4))
		data := f.Let("data", pld.Window(db, pl.Dims(1, S), pl.FP32))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) { f.Do(f.Dispatch(stageK, r, pl.Index(x, r), data)) })
		f.Set(data, ir.MustCall("pld.tensor.allreduce", []ir.Expr{data}, ir.Kwargs{{Key: "op", Value: int64(ir.ReduceMax)}, {Key: "core_num", Value: int64(1)}}, ir.Span{}))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) { f.Do(f.Dispatch(outK, r, data, pl.Index(y, r))) })
	})
	for _, n := range []int{2, 4, 8} {
		x := tensor.Randn(int64(n), n, 1, S)
		y := tensor.Zeros(ir.FP32, n, 1, S)
		res := mustRun(t, prog, n, x, y)
		for r := 0; r < n; r++ {
			for j := 0; j < S; j++ {
				want := x.At(0, 0, j)
				for s := 1; s < n; s++ {
					want = max(want, x.At(s, 0, j))
				}
				require.Equal(t, want, y.At(r, 0, j))
			}
		}
		require.Len(t, res.Timeline.PerRank(0), 2+1+2) // stage (load, store), allreduce, copy_out (load, store)
	}
}

// tile.abs: |x| per element on each rank, in FP32 and FP16 (exact at the
// ends of FP16's range: its largest value and smallest subnormal).
func TestTileAbs(t *testing.T) {
	for _, tc := range []struct {
		dt   ir.DataType
		in   []float64
		want []float64
	}{
		{ir.FP32, []float64{-1.5, 0, 2, -1048576.5}, []float64{1.5, 0, 2, 1048576.5}},
		{ir.FP16, []float64{-65504, -0.5, 3, -5.9604644775390625e-08}, []float64{65504, 0.5, 3, 5.9604644775390625e-08}},
	} {
		t.Run(tc.dt.String(), func(t *testing.T) {
			prog := pl.NewProgram("Abs")
			k := prog.InCore("kernel", func(f *pl.Func) {
				x := f.In("x", pl.Tensor(pl.Dims(1, 4), tc.dt))
				y := f.Out("y", pl.Tensor(pl.Dims(1, 4), tc.dt))
				u := f.Let("u", pl.Abs(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 4)))))
				f.Set(y, pl.Store(u, pl.Dims(0, 0), y))
			})
			prog.Host("host", func(f *pl.Func) {
				x := f.In("x", pl.Tensor(pl.Dims(2, 1, 4), tc.dt))
				y := f.Out("y", pl.Tensor(pl.Dims(2, 1, 4), tc.dt))
				f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
					f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r)))
				})
			})
			in := append(append([]float64{}, tc.in...), tc.want...) // rank 1 gets non-negative input
			x := tensor.FromFloat64(tc.dt, in, 2, 1, 4)
			y := tensor.Zeros(tc.dt, 2, 1, 4)
			mustRun(t, prog, 2, x, y)
			for r := 0; r < 2; r++ {
				for i, w := range tc.want {
					require.Equal(t, w, y.At(r, 0, i), "rank %d element %d", r, i)
				}
			}
		})
	}
	// A scalar operand is a clear DSL error, not a stack trace.
	err := pl.Catch(func() {
		pl.NewProgram("Bad").InCore("k", func(f *pl.Func) {
			f.Let("u", pl.Abs(f.Scalar("x", pl.FP32)))
		})
	})
	require.ErrorContains(t, err, "pl.Abs: argument 'input': expected a tile or tensor, given x of type pl.Scalar[pl.FP32]")
}
