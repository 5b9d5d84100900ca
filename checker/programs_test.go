package checker_test

import (
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/testprogs"
	"strings"
)

// Programs for the checker's tests, built with the pl/pld DSL: the correct
// upstream examples and collectives (as in runtime/examples_test.go and
// runtime/comm_test.go) and a corpus of broken protocols.

const S = 16 // collective row size

// meshBarrier is the quickstart's hand barrier: AtomicAdd 1 on my cell of
// every peer, then wait until each peer's cell of mine is >= g.
func meshBarrier(f *pl.Func, sig, me, n pl.Expr, g int) {
	f.For("peer", pl.Range(n), func(p pl.Expr) {
		f.If(pl.Ne(p, me), func() { f.Do(pld.Notify(sig, p, pl.Dims(me, 0), 1, pld.AtomicAdd)) })
	})
	f.For("src", pl.Range(n), func(s pl.Expr) {
		f.If(pl.Ne(s, me), func() { f.Do(pld.Wait(sig, pl.Dims(s, 0), g, pld.Ge)) })
	})
}

// meshHost dispatches k(x[r], y[r], data, signal) on every rank with a
// [1, size] FP32 data window and an [NR, 1] signal.
func meshHost(prog *pl.Program, k *pl.Function, size int) {
	NR := pl.Dynamic("NR")
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(size*4))
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r), f.Let("data", pld.Window(db, pl.Dims(1, size), pl.FP32)),
				f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
}

// meshKernel declares the (x, y, data, signal) kernel and hands the body
// ctx-derived me and n.
func meshKernel(prog *pl.Program, name string, size int, body func(f *pl.Func, x, y, data, sig, me, n pl.Expr)) *pl.Function {
	NR := pl.Dynamic("NR")
	return prog.InCore(name, func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, size), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, size), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, size), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		me := f.Let("my_rank", pld.Rank(ctx))
		n := f.Let("nranks", pld.NRanks(ctx))
		body(f, x, y, data, sig, me, n)
	})
}

// seed1746 is seed #1746's allreduce recipe by hand (passes.md §4.1): Set-1
// ready barrier, reduce by remote loads, the post-reduce AtomicAdd barrier
// (Ge 2) unless postBarrier is false, then the in-place store.
func seed1746(size int, postBarrier bool) *pl.Program {
	prog := pl.NewProgram("Seed1746")
	k := meshKernel(prog, "allreduce_1746", size, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		f.Set(data, pl.Store(f.Let("staged", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, size))), pl.Dims(0, 0), data))
		f.For("peer", pl.Range(n), func(p pl.Expr) {
			f.If(pl.Ne(p, me), func() { f.Do(pld.Notify(sig, p, pl.Dims(me, 0), 1, pld.Set)) })
		})
		f.For("src", pl.Range(n), func(s pl.Expr) {
			f.If(pl.Ne(s, me), func() { f.Do(pld.Wait(sig, pl.Dims(s, 0), 1, pld.Ge)) })
		})
		acc := f.Let("acc", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, size)))
		f.For("peer", pl.Range(n), func(p pl.Expr) {
			f.If(pl.Ne(p, me), func() {
				f.Set(acc, pl.Add(acc, f.Let("recv", pld.RemoteLoad(data, p, pl.Dims(0, 0), pl.Dims(1, size)))))
			})
		})
		if postBarrier {
			meshBarrier(f, sig, me, n, 2)
		}
		f.Set(data, pl.Store(acc, pl.Dims(0, 0), data))
		f.Set(y, pl.Store(f.Let("out", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, size))), pl.Dims(0, 0), y))
	})
	meshHost(prog, k, size)
	return prog
}

// quickstart is the documented allreduce (dsl.md): stage, hand barrier,
// local load plus every peer's remote load, stored into the local out.
func quickstart(size int) *pl.Program {
	prog := pl.NewProgram("Quickstart")
	k := meshKernel(prog, "reduce_step", size, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		f.Set(data, pl.Store(f.Let("local", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, size))), pl.Dims(0, 0), data))
		meshBarrier(f, sig, me, n, 1)
		acc := f.Let("acc", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, size)))
		f.For("peer", pl.Range(n), func(p pl.Expr) {
			f.If(pl.Ne(p, me), func() {
				f.Set(acc, pl.Add(acc, f.Let("peer_tile", pld.RemoteLoad(data, p, pl.Dims(0, 0), pl.Dims(1, size)))))
			})
		})
		f.Set(y, pl.Store(acc, pl.Dims(0, 0), y))
	})
	meshHost(prog, k, size)
	return prog
}

// loadBeforeStage remote-loads the next rank's data with no barrier after
// the peer staged it (pitfall 9).
func loadBeforeStage(size int) *pl.Program {
	prog := pl.NewProgram("LoadBeforeStage")
	k := meshKernel(prog, "early_load", size, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		f.Set(data, pl.Store(f.Let("staged", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, size))), pl.Dims(0, 0), data))
		r := f.Let("r", pld.RemoteLoad(data, pl.Mod(pl.Add(me, 1), n), pl.Dims(0, 0), pl.Dims(1, size)))
		meshBarrier(f, sig, me, n, 1) // too late: the load already happened
		f.Set(y, pl.Store(r, pl.Dims(0, 0), y))
	})
	meshHost(prog, k, size)
	return prog
}

// staleBarrier runs two hand barriers that both wait for Ge 1 on the same
// cells: the second (meant to keep the store after the peers' reads)
// passes on the first one's credits.
func staleBarrier(size int) *pl.Program {
	prog := pl.NewProgram("StaleBarrier")
	k := meshKernel(prog, "reuse_ge1", size, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		f.Set(data, pl.Store(f.Let("staged", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, size))), pl.Dims(0, 0), data))
		meshBarrier(f, sig, me, n, 1)
		acc := f.Let("acc", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, size)))
		f.For("peer", pl.Range(n), func(p pl.Expr) {
			f.If(pl.Ne(p, me), func() {
				f.Set(acc, pl.Add(acc, f.Let("recv", pld.RemoteLoad(data, p, pl.Dims(0, 0), pl.Dims(1, size)))))
			})
		})
		meshBarrier(f, sig, me, n, 1) // should be 2
		f.Set(data, pl.Store(acc, pl.Dims(0, 0), data))
		f.Set(y, pl.Store(f.Let("out", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, size))), pl.Dims(0, 0), y))
	})
	meshHost(prog, k, size)
	return prog
}

// mixedSetAdd: every peer counts its arrival on rank 0's cell [0, 0] with
// AtomicAdd, while rank 0 "resets" the same cell with Set 0 without
// knowing whether they already arrived; rank 0 then waits for them all.
func mixedSetAdd() *pl.Program {
	prog := pl.NewProgram("MixedSetAdd")
	k := meshKernel(prog, "count_arrivals", S, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		f.IfElse(pl.Eq(me, 0), func() {
			f.Do(pld.Notify(sig, 0, pl.Dims(0, 0), 0, pld.Set))
			f.Do(pld.Wait(sig, pl.Dims(0, 0), pl.Sub(n, 1), pld.Ge))
		}, func() {
			f.Do(pld.Notify(sig, 0, pl.Dims(0, 0), 1, pld.AtomicAdd))
		})
	})
	meshHost(prog, k, S)
	return prog
}

// eqBarriers runs rounds hand barriers whose waits are Eq g (g = 1, 2, …)
// instead of Ge g: a fast peer's next-round notify moves the cell past g.
func eqBarriers(rounds int) *pl.Program {
	prog := pl.NewProgram("EqBarrier")
	k := meshKernel(prog, "eq_barrier", S, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		for g := 1; g <= rounds; g++ {
			f.For("peer", pl.Range(n), func(p pl.Expr) {
				f.If(pl.Ne(p, me), func() { f.Do(pld.Notify(sig, p, pl.Dims(me, 0), 1, pld.AtomicAdd)) })
			})
			f.For("src", pl.Range(n), func(s pl.Expr) {
				f.If(pl.Ne(s, me), func() { f.Do(pld.Wait(sig, pl.Dims(s, 0), g, pld.Eq)) })
			})
		}
	})
	meshHost(prog, k, S)
	return prog
}

// deadlockProgram is one of the classic hangs (model.md §8, pitfalls 5, 6).
func deadlockProgram(kind string) *pl.Program {
	ident := strings.ReplaceAll(kind, "-", "_") // program and function names are Python identifiers
	prog := pl.NewProgram("Deadlock_" + ident)
	k := meshKernel(prog, "hang_"+ident, S, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		next := f.Let("next", pl.Mod(pl.Add(me, 1), n))
		switch kind {
		case "never-notified":
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		case "notify-zero":
			f.Do(pld.Notify(sig, next, pl.Dims(0, 0), 0, pld.AtomicAdd))
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		case "barrier-rank0-only":
			f.If(pl.Eq(me, 0), func() { f.Set(sig, pld.Barrier(sig)) })
		case "wrong-cell":
			f.Do(pld.Notify(sig, next, pl.Dims(me, 0), 1, pld.AtomicAdd))
			f.Do(pld.Wait(sig, pl.Dims(me, 0), 1, pld.Ge)) // should wait on [prev, 0]
		}
	})
	meshHost(prog, k, S)
	return prog
}

// --- collectives (runtime/comm_test.go's collProgram)

// collProgram wraps one kernel body over x [xRows, S] → y [NR, S] with a
// data window [NR, S] and an [NR, 1] signal; staticN > 0 fixes NR.
func collProgram(name string, xRows, staticN int, body func(f *pl.Func, x, data, sig pl.Expr)) *pl.Program {
	return testprogs.Collective(name, xRows, staticN, body)
}

func stage(f *pl.Func, x, data pl.Expr, rows int) { testprogs.StageRows(f, x, data, rows) }

// collective is one named collective program for n ranks with its x rows.
type collective struct {
	name string
	rows int
	prog *pl.Program
}

func collectives(n int) []collective {
	var out []collective
	for name, op := range map[string]ir.ReduceOp{"sum": pld.Sum, "max": pld.Max, "min": pld.Min, "prod": pld.Prod} {
		op := op
		out = append(out, collective{"allreduce/" + name, 1, collProgram("AR", 1, 0, func(f *pl.Func, x, data, sig pl.Expr) {
			stage(f, x, data, 1)
			f.Set(data, pld.AllReduce(data, sig, pld.Op(op)))
		})})
	}
	out = append(out,
		collective{"barrier", 1, collProgram("B", 1, 0, func(f *pl.Func, x, data, sig pl.Expr) {
			stage(f, x, data, 1)
			f.Set(sig, pld.Barrier(sig))
		})},
		collective{"broadcast", 1, collProgram("BC", 1, 0, func(f *pl.Func, x, data, sig pl.Expr) {
			stage(f, x, data, 1)
			f.Set(data, pld.Broadcast(data, sig, 1))
		})},
		collective{"allgather", 1, collProgram("AG", 1, 0, func(f *pl.Func, x, data, sig pl.Expr) {
			f.Set(data, pld.AllGather(x, data, sig))
		})},
		collective{"all_to_all", n, collProgram("A2A", n, n, func(f *pl.Func, x, data, sig pl.Expr) {
			f.Set(data, pld.AllToAll(x, data, sig))
		})},
		collective{"reduce_scatter", n, collProgram("RS", n, n, func(f *pl.Func, x, data, sig pl.Expr) {
			stage(f, x, data, n)
			f.Set(data, pld.ReduceScatter(data, sig))
		})},
		// The two-phase allreduce: each rank reduces its row over the
		// ranks, then gathers every rank's reduced row in place (its input
		// is its own row of the window it gathers into).
		collective{"two-phase: reduce_scatter, allgather", n, collProgram("TwoPhase", n, n, func(f *pl.Func, x, data, sig pl.Expr) {
			stage(f, x, data, n)
			f.Set(data, pld.ReduceScatter(data, sig))
			me := f.Let("me", pld.Rank(pld.GetCommCtx(data)))
			row := f.Let("row", pl.Slice(data, pl.Dims(1, S), pl.Dims(me, 0)))
			f.Set(data, pld.AllGather(row, data, sig))
		})},
		collective{"reuse: allreduce, barrier, allreduce", 1, collProgram("Twice", 1, 0, func(f *pl.Func, x, data, sig pl.Expr) {
			stage(f, x, data, 1)
			f.Set(data, pld.AllReduce(data, sig))
			f.Set(sig, pld.Barrier(sig))
			f.Set(data, pld.AllReduce(data, sig))
		})},
	)
	return out
}

// --- the ring examples (05 remote load/store, 06/07 put/get) and 03/04

// ringProgram is one ring step. storeBarrierFirst puts the store mode's
// barrier before the remote_store instead of after it (a bug).
func ringProgram(mode string, storeBarrierFirst bool) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("Ring_" + mode)
	mesh := mode == "load" || mode == "store"
	sigShape := pl.Dims(1, 1)
	if mesh {
		sigShape = pl.Dims(NR, 1)
	}
	k := prog.InCore(mode+"_step", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		src := f.InOut("src", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32))
		dst := f.InOut("dst", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(sigShape, pl.INT32))
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
			if storeBarrierFirst {
				f.Set(sig, pld.Barrier(sig))
			}
			f.Do(pld.RemoteStore(f.Let("s", pl.Load(src, pl.Dims(0, 0), pl.Dims(1, 64))), dst, next, pl.Dims(0, 0)))
			if !storeBarrierFirst {
				f.Set(sig, pld.Barrier(sig))
			}
		}
		f.Set(y, pl.Store(f.Let("out", pl.Load(dst, pl.Dims(0, 0), pl.Dims(1, 64))), pl.Dims(0, 0), y))
	})
	prog.Host("ring_"+mode, func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, 64), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, 64), pl.FP32))
		sb := f.Let("src_buf", pld.AllocWindowBufferOf(pl.Dims(1, 64), pl.FP32))
		db := f.Let("dst_buf", pld.AllocWindowBufferOf(pl.Dims(1, 64), pl.FP32))
		var gb pl.Expr
		if mesh {
			gb = f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		} else {
			gb = f.Let("signal_buf", pld.AllocWindowBufferOf(pl.Dims(1, 1), pl.INT32))
		}
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			shape := pl.Dims(1, 1)
			if mesh {
				shape = pl.Dims(pld.WorldSize(), 1)
			}
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r),
				f.Let("src", pld.Window(sb, pl.Dims(1, 64), pl.FP32)), f.Let("dst", pld.Window(db, pl.Dims(1, 64), pl.FP32)),
				f.Let("signal", pld.Window(gb, shape, pl.INT32))))
		})
	})
	return prog
}

// barrierHand is 04_barrier's default mode: a hand barrier, then each rank
// scalar-reads its own signal cells into y (args: y [NR, NR, 1] INT32).
func barrierHand() *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("BarrierHand")
	k := prog.InCore("barrier_handrolled", func(f *pl.Func) {
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1), pl.INT32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(sig))
		me := f.Let("me", pld.Rank(ctx))
		n := f.Let("n", pld.NRanks(ctx))
		meshBarrier(f, sig, me, n, 1)
		f.For("i", pl.Range(n), func(i pl.Expr) {
			f.Set(y, pl.Write(y, pl.Dims(i, 0), f.Let("v", pl.Read(sig, pl.Dims(i, 0)))))
		})
	})
	prog.Host("barrier_program_hand", func(f *pl.Func) {
		y := f.Out("y", pl.Tensor(pl.Dims(NR, NR, 1), pl.INT32))
		buf := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(y, r), f.Let("signal", pld.Window(buf, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	return prog
}

// barrierBuiltin is 04_barrier --use-builtin: stage, pld.tensor.barrier,
// remote_load the next rank (x, y: [NR, 1, 64]).
func barrierBuiltin() *pl.Program {
	prog := pl.NewProgram("BarrierBuiltin")
	k := meshKernel(prog, "barrier_builtin", 64, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		f.Set(data, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 64))), pl.Dims(0, 0), data))
		f.Set(sig, pld.Barrier(sig))
		r := f.Let("r", pld.RemoteLoad(data, pl.Mod(pl.Add(me, 1), n), pl.Dims(0, 0), pl.Dims(1, 64)))
		f.Set(y, pl.Store(r, pl.Dims(0, 0), y))
	})
	meshHost(prog, k, 64)
	return prog
}

// windowBuffer is 03_window_buffer: store into my window, load it back
// (x, y: [NR, 1, 256]).
func windowBuffer() *pl.Program {
	prog := pl.NewProgram("WindowBuffer")
	k := meshKernel(prog, "kernel", 256, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		f.Set(data, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 256))), pl.Dims(0, 0), data))
		f.Set(y, pl.Store(f.Let("back", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, 256))), pl.Dims(0, 0), y))
	})
	meshHost(prog, k, 256)
	return prog
}

// allreduceBuiltin is one pld.tensor.allreduce of [1, size] FP32 per rank
// (runtime's benchmark program).
func allreduceBuiltin(size int) *pl.Program {
	prog := pl.NewProgram("AllReduce")
	k := meshKernel(prog, "k", size, func(f *pl.Func, x, y, data, sig, me, n pl.Expr) {
		f.Set(data, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, size))), pl.Dims(0, 0), data))
		f.Set(data, pld.AllReduce(data, sig))
		f.Set(y, pl.Store(f.Let("out", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, size))), pl.Dims(0, 0), y))
	})
	meshHost(prog, k, size)
	return prog
}
