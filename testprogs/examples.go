package testprogs

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
)

// The upstream examples of the distributed model (docs/en/user/distributed:
// 01 hello rank, 02 programming model, 03 window buffer, 04 barrier by hand
// and built in, 05-07 ring put/get/remote store, the quickstart at any size,
// the tag handshake), built with the DSL.

func Forward(prog *pl.Program, name string, k *pl.Function, params func(f *pl.Func) []pl.Expr) *pl.Function {
	return prog.Orchestration(name, func(f *pl.Func) {
		args := params(f)
		anys := make([]any, len(args))
		for i, a := range args {
			anys[i] = a
		}
		f.Do(f.Call(k, anys...))
	})
}

func RankProgram(model bool) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("HelloRank")
	params := func(f *pl.Func) []pl.Expr {
		return []pl.Expr{f.In("x", pl.Tensor(pl.Dims(8, 8), pl.FP32)), f.Out("y", pl.Tensor(pl.Dims(8, 8), pl.FP32)), f.Scalar("rank", pl.INT32)}
	}
	k := prog.InCore("kernel", func(f *pl.Func) {
		p := params(f)
		x, y, r := p[0], p[1], p[2]
		t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(8, 8)))
		rf := f.Let("rf", pl.Cast(r, pl.FP32))
		var out pl.Expr
		if model {
			out = f.Let("out", pl.Add(f.Let("scaled", pl.Mul(t, rf)), t))
		} else {
			out = f.Let("out", pl.Add(t, rf))
		}
		f.Set(y, pl.Store(out, pl.Dims(0, 0), y))
	})
	orch := Forward(prog, "per_rank", k, params)
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 8, 8), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 8, 8), pl.FP32))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(orch, r, pl.Index(x, r), pl.Index(y, r), pl.Cast(r, pl.INT32)))
		})
	})
	return prog
}

func WindowProgram() *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("WindowBuffer")
	params := func(f *pl.Func) []pl.Expr {
		return []pl.Expr{f.In("x", pl.Tensor(pl.Dims(1, 256), pl.FP32)), f.Out("y", pl.Tensor(pl.Dims(1, 256), pl.FP32)),
			f.InOut("win", pld.DistributedTensor(pl.Dims(1, 256), pl.FP32))}
	}
	k := prog.InCore("kernel", func(f *pl.Func) {
		p := params(f)
		f.Set(p[2], pl.Store(f.Let("t", pl.Load(p[0], pl.Dims(0, 0), pl.Dims(1, 256))), pl.Dims(0, 0), p[2]))
		f.Set(p[1], pl.Store(f.Let("back", pl.Load(p[2], pl.Dims(0, 0), pl.Dims(1, 256))), pl.Dims(0, 0), p[1]))
	})
	orch := Forward(prog, "per_rank", k, params)
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, 256), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, 256), pl.FP32))
		buf := f.Let("buf", pld.AllocWindowBuffer(256*4))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(orch, r, pl.Index(x, r), pl.Index(y, r), f.Let("win", pld.Window(buf, pl.Dims(1, 256), pl.FP32))))
		})
	})
	return prog
}

func BarrierHandProgram() *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("BarrierHand")
	params := func(f *pl.Func) []pl.Expr {
		return []pl.Expr{f.Out("y", pl.Tensor(pl.Dims(NR, 1), pl.INT32)), f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))}
	}
	k := prog.InCore("barrier_handrolled", func(f *pl.Func) {
		p := params(f)
		y, sig := p[0], p[1]
		ctx := f.Let("ctx", pld.GetCommCtx(sig))
		me := f.Let("me", pld.Rank(ctx))
		n := f.Let("n", pld.NRanks(ctx))
		f.For("p", pl.Range(n), func(q pl.Expr) {
			f.If(pl.Ne(q, me), func() { f.Do(pld.Notify(sig, q, pl.Dims(me, 0), 1, pld.AtomicAdd)) })
		})
		f.For("s", pl.Range(n), func(s pl.Expr) {
			f.If(pl.Ne(s, me), func() { f.Do(pld.Wait(sig, pl.Dims(s, 0), 1, pld.Ge)) })
		})
		f.For("i", pl.Range(n), func(i pl.Expr) {
			v := f.Let("v", pl.Read(sig, pl.Dims(i, 0)))
			f.Set(y, pl.Write(y, pl.Dims(i, 0), v))
		})
	})
	orch := Forward(prog, "per_rank_hand", k, params)
	prog.Host("barrier_program_hand", func(f *pl.Func) {
		y := f.Out("y", pl.Tensor(pl.Dims(NR, NR, 1), pl.INT32))
		buf := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			sig := f.Let("signal", pld.Window(buf, pl.Dims(pld.WorldSize(), 1), pl.INT32))
			f.Do(f.Dispatch(orch, r, pl.Index(y, r), sig))
		})
	})
	return prog
}

func BarrierBuiltinProgram() *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("BarrierBuiltin")
	params := func(f *pl.Func) []pl.Expr {
		return []pl.Expr{f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32)), f.Out("y", pl.Tensor(pl.Dims(1, 64), pl.FP32)),
			f.InOut("data", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32)), f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))}
	}
	k := prog.InCore("barrier_builtin", func(f *pl.Func) {
		p := params(f)
		x, y, data, sig := p[0], p[1], p[2], p[3]
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		me := f.Let("me", pld.Rank(ctx))
		n := f.Let("n", pld.NRanks(ctx))
		f.Set(data, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 64))), pl.Dims(0, 0), data))
		f.Set(sig, pld.Barrier(sig))
		r := f.Let("r", pld.RemoteLoad(data, pl.Mod(pl.Add(me, 1), n), pl.Dims(0, 0), pl.Dims(1, 64)))
		f.Set(y, pl.Store(r, pl.Dims(0, 0), y))
	})
	orch := Forward(prog, "per_rank_builtin", k, params)
	prog.Host("barrier_program_builtin", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, 64), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, 64), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(256))
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			data := f.Let("data", pld.Window(db, pl.Dims(1, 64), pl.FP32))
			sig := f.Let("signal", pld.Window(sb, pl.Dims(pld.WorldSize(), 1), pl.INT32))
			f.Do(f.Dispatch(orch, r, pl.Index(x, r), pl.Index(y, r), data, sig))
		})
	})
	return prog
}

func RingProgram(mode string) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("Ring_" + mode)
	sigShape := pl.Dims(1, 1) // 06/07: a point-to-point cell
	if mode == "load" || mode == "store" {
		sigShape = pl.Dims(NR, 1) // 05: a mesh signal for the barrier
	}
	params := func(f *pl.Func) []pl.Expr {
		return []pl.Expr{f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32)), f.Out("y", pl.Tensor(pl.Dims(1, 64), pl.FP32)),
			f.InOut("src", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32)), f.InOut("dst", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32)),
			f.InOut("signal", pld.DistributedTensor(sigShape, pl.INT32))}
	}
	k := prog.InCore(mode+"_step", func(f *pl.Func) {
		p := params(f)
		x, y, src, dst, sig := p[0], p[1], p[2], p[3], p[4]
		ctx := f.Let("ctx", pld.GetCommCtx(src))
		me := f.Let("me", pld.Rank(ctx))
		n := f.Let("nranks", pld.NRanks(ctx))
		f.Set(src, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 64))), pl.Dims(0, 0), src))
		next := f.Let("next", pl.Mod(pl.Add(me, 1), n))
		switch mode {
		case "put":
			f.Do(pld.Put(dst, next, src, pld.Atomic(ir.AtomicNone)))
			f.Do(pld.Notify(sig, next, pl.Dims(0, 0), 1, pld.AtomicAdd))
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		case "get":
			f.Do(pld.Notify(sig, pl.Mod(pl.Sub(pl.Add(me, n), 1), n), pl.Dims(0, 0), 1, pld.AtomicAdd))
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
			f.Do(pld.Get(dst, next, src))
		case "load":
			f.Set(sig, pld.Barrier(sig))
			f.Set(dst, pl.Store(f.Let("r", pld.RemoteLoad(src, next, pl.Dims(0, 0), pl.Dims(1, 64))), pl.Dims(0, 0), dst))
		case "store":
			f.Do(pld.RemoteStore(f.Let("s", pl.Load(src, pl.Dims(0, 0), pl.Dims(1, 64))), dst, next, pl.Dims(0, 0)))
			f.Set(sig, pld.Barrier(sig))
		}
		f.Set(y, pl.Store(f.Let("out", pl.Load(dst, pl.Dims(0, 0), pl.Dims(1, 64))), pl.Dims(0, 0), y))
	})
	orch := Forward(prog, "per_rank_"+mode, k, params)
	prog.Host("ring_"+mode, func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, 64), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, 64), pl.FP32))
		sb := f.Let("src_buf", pld.AllocWindowBufferOf(pl.Dims(1, 64), pl.FP32))
		db := f.Let("dst_buf", pld.AllocWindowBufferOf(pl.Dims(1, 64), pl.FP32))
		var gb pl.Expr
		if mode == "load" || mode == "store" {
			gb = f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		} else {
			gb = f.Let("signal_buf", pld.AllocWindowBufferOf(pl.Dims(1, 1), pl.INT32))
		}
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			shape := pl.Dims(1, 1)
			if mode == "load" || mode == "store" {
				shape = pl.Dims(pld.WorldSize(), 1)
			}
			f.Do(f.Dispatch(orch, r, pl.Index(x, r), pl.Index(y, r),
				f.Let("src", pld.Window(sb, pl.Dims(1, 64), pl.FP32)), f.Let("dst", pld.Window(db, pl.Dims(1, 64), pl.FP32)),
				f.Let("signal", pld.Window(gb, shape, pl.INT32))))
		})
	})
	return prog
}

func QuickstartSized(size int) *pl.Program {
	SIZE := size
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("Quickstart")
	reduceStep := prog.InCore("reduce_step", func(f *pl.Func) {
		inp := f.In("inp", pl.Tensor(pl.Dims(1, SIZE), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(1, SIZE), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, SIZE), pl.FP32))
		signal := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		f.Returns(pl.Tensor(pl.Dims(1, SIZE), pl.FP32))
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		me := f.Let("my_rank", pld.Rank(ctx))
		n := f.Let("nranks", pld.NRanks(ctx))
		local := f.Let("local", pl.Load(inp, pl.Dims(0, 0), pl.Dims(1, SIZE)))
		f.Set(data, pl.Store(local, pl.Dims(0, 0), data))
		f.For("peer", pl.Range(n), func(peer pl.Expr) {
			f.If(pl.Ne(peer, me), func() { f.Do(pld.Notify(signal, peer, pl.Dims(me, 0), 1, pld.AtomicAdd)) })
		})
		f.For("src", pl.Range(n), func(src pl.Expr) {
			f.If(pl.Ne(src, me), func() { f.Do(pld.Wait(signal, pl.Dims(src, 0), 1, pld.Ge)) })
		})
		acc := f.Let("acc", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, SIZE)))
		f.For("peer", pl.Range(n), func(peer pl.Expr) {
			f.If(pl.Ne(peer, me), func() {
				t := f.Let("peer_tile", pld.RemoteLoad(data, peer, pl.Dims(0, 0), pl.Dims(1, SIZE)))
				f.Set(acc, pl.Add(acc, t))
			})
		})
		f.Return(pl.Store(acc, pl.Dims(0, 0), out))
	})
	chipOrch := prog.Orchestration("chip_orch", func(f *pl.Func) {
		inp := f.In("inp", pl.Tensor(pl.Dims(1, SIZE), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(1, SIZE), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, SIZE), pl.FP32))
		signal := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		f.Returns(pl.Tensor(pl.Dims(1, SIZE), pl.FP32))
		f.Return(f.Call(reduceStep, inp, out, data, signal))
	})
	prog.Host("orchestrator", func(f *pl.Func) {
		inputs := f.In("inputs", pl.Tensor(pl.Dims(NR, 1, SIZE), pl.FP32))
		outputs := f.Out("outputs", pl.Tensor(pl.Dims(NR, 1, SIZE), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(NR, 1, SIZE), pl.FP32))
		dataBuf := f.Let("data_buf", pld.AllocWindowBuffer(SIZE*pl.FP32.Bytes()))
		sigBuf := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), pl.INT32.Bytes())))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			data := f.Let("data", pld.Window(dataBuf, pl.Dims(1, SIZE), pl.FP32))
			signal := f.Let("signal", pld.Window(sigBuf, pl.Dims(pld.WorldSize(), 1), pl.INT32))
			f.Do(f.Dispatch(chipOrch, r, pl.Index(inputs, r), pl.Index(outputs, r), data, signal))
		})
		f.Return(outputs)
	})
	return prog
}

func TagProgram(set bool) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("Tags")
	params := func(f *pl.Func) []pl.Expr {
		return []pl.Expr{f.Out("y", pl.Tensor(pl.Dims(1, 1), pl.INT32)), f.InOut("signal", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))}
	}
	k := prog.InCore("kernel", func(f *pl.Func) {
		p := params(f)
		y, sig := p[0], p[1]
		ctx := f.Let("ctx", pld.GetCommCtx(sig))
		me := f.Let("me", pld.Rank(ctx))
		n := f.Let("n", pld.NRanks(ctx))
		peer := f.Let("peer", pl.Mod(pl.Add(me, 1), n))
		if set {
			// rank 0 sends 2, rank 1 sends 1
			f.Do(pld.Notify(sig, peer, pl.Dims(0, 0), pl.Sub(n, me), pld.Set))
		} else {
			f.Do(pld.Notify(sig, peer, pl.Dims(0, 0), pl.Add(me, 1), pld.AtomicAdd))
		}
		f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		f.Set(y, pl.Write(y, pl.Dims(0, 0), f.Let("v", pl.Read(sig, pl.Dims(0, 0)))))
	})
	orch := Forward(prog, "per_rank", k, params)
	prog.Host("host", func(f *pl.Func) {
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, 1), pl.INT32))
		buf := f.Let("signal_buf", pld.AllocWindowBuffer(4))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(orch, r, pl.Index(y, r), f.Let("signal", pld.Window(buf, pl.Dims(1, 1), pl.INT32))))
		})
	})
	return prog
}

// Loopback1301 is seed #1301's loopback kernel: tile.comm_* ops on slots of a
// plain [1, 8] INT32 signal tensor; body gets the signal and a slot maker.
func Loopback1301(body func(f *pl.Func, sig pl.Expr, slot func(i int) pl.Expr)) *pl.Program {
	prog := pl.NewProgram("Loopback")
	k := prog.InCore("kernel", func(f *pl.Func) {
		sig := f.InOut("signal", pl.Tensor(pl.Dims(1, 8), pl.INT32))
		body(f, sig, func(i int) pl.Expr {
			return f.Let(fmt.Sprintf("slot%d", i), pl.Slice(sig, pl.Dims(1, 1), pl.Dims(0, i)))
		})
	})
	prog.Host("host", func(f *pl.Func) {
		sig := f.InOut("signal", pl.Tensor(pl.Dims(1, 1, 8), pl.INT32))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(sig, r)))
		})
	})
	return prog
}
