package passes_test

import (
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/testprogs"
)

// The test programs: the quickstart, one program per collective, put/get and
// remote_store kernels. Each is a complete host → device program, so the
// simulator can run it before and after the pipeline.

const cols = testprogs.CollectiveCols

// collective wraps a kernel body over x [xRows, cols] → y [NR, cols] with a
// data window [NR, cols] and a [NR, 1] signal, for staticN ranks.
func collective(name string, xRows, staticN int, body func(f *pl.Func, x, data, sig pl.Expr)) *pl.Program {
	return testprogs.Collective(name, xRows, staticN, body)
}

// stageRows stores the rank's x rows into the top of the data window.
func stageRows(f *pl.Func, x, data pl.Expr, rows int) { testprogs.StageRows(f, x, data, rows) }

type testProgram struct {
	name    string
	xRows   int // rows of each rank's input; 0 means "NR"
	staticN int // the program only runs at this rank count (0: any)
	build   func(n int) *pl.Program
}

func allReduceProg(op ir.ReduceOp, opts ...pld.Option) func(int) *pl.Program {
	return func(n int) *pl.Program {
		return collective("AllReduce", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
			stageRows(f, x, data, 1)
			f.Set(data, pld.AllReduce(data, sig, append(opts, pld.Op(op))...))
		})
	}
}

func testPrograms() []testProgram {
	return []testProgram{
		{"quickstart", 0, 0, func(int) *pl.Program { return testprogs.Quickstart() }},
		{"allreduce_sum", 1, 0, allReduceProg(pld.Sum)},
		{"allreduce_max", 1, 0, allReduceProg(pld.Max)},
		{"allreduce_min", 1, 0, allReduceProg(pld.Min)},
		{"allreduce_prod", 1, 0, allReduceProg(pld.Prod)},
		{"allreduce_twice", 1, 0, func(n int) *pl.Program {
			return collective("AllReduceTwice", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
				stageRows(f, x, data, 1)
				f.Set(data, pld.AllReduce(data, sig))
				f.Set(data, pld.AllReduce(data, sig)) // same signal: the credits self-clear
			})
		}},
		{"barrier", 1, 0, func(n int) *pl.Program {
			return collective("Barrier", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
				stageRows(f, x, data, 1)
				f.Set(sig, pld.Barrier(sig))
			})
		}},
		{"broadcast", 1, 0, func(n int) *pl.Program {
			return collective("Broadcast", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
				stageRows(f, x, data, 1)
				f.Set(data, pld.Broadcast(data, sig, 1))
			})
		}},
		{"allgather", 1, 0, func(n int) *pl.Program {
			return collective("AllGather", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
				f.Set(data, pld.AllGather(x, data, sig))
			})
		}},
		{"all_to_all", 0, 4, func(n int) *pl.Program {
			return collective("AllToAll", n, n, func(f *pl.Func, x, data, sig pl.Expr) {
				f.Set(data, pld.AllToAll(x, data, sig))
			})
		}},
		{"reduce_scatter", 0, 4, func(n int) *pl.Program {
			return collective("ReduceScatter", n, n, func(f *pl.Func, x, data, sig pl.Expr) {
				stageRows(f, x, data, n)
				f.Set(data, pld.ReduceScatter(data, sig))
			})
		}},
		{"put_get", 1, 0, func(int) *pl.Program { return putGet() }},
		{"allreduce_chunked", 1, 3, func(n int) *pl.Program { return meshAllReduce(n, 10000, pl.FP32) }},
		{"allreduce_fp16_chunked", 1, 2, func(n int) *pl.Program { return meshAllReduce(n, 9000, pl.FP16) }},
		{"allreduce_ring", 1, 4, func(n int) *pl.Program { return ringAllReduce(n, 96) }},
		{"allreduce_ring_chunked", 1, 3, func(n int) *pl.Program { return ringAllReduce(n, 3*8192) }},
	}
}

// putGet: every rank puts its row into its right neighbour's window (FP32,
// tensor-level put lowered to a staging tile) and tells it so; it then gets
// the row back from the neighbour's window (only its own put wrote there),
// and finally takes back the credit its left neighbour gave it.
func putGet() *pl.Program {
	prog := pl.NewProgram("PutGet")
	k := prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(pl.Dynamic("NR"), cols), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, cols), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(pl.Dynamic("NR"), 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		me := f.Let("my_rank", pld.Rank(ctx))
		n := f.Let("nranks", pld.NRanks(ctx))
		right := f.Let("right", pl.Mod(pl.Add(me, 1), n))
		left := f.Let("left", pl.Mod(pl.Add(pl.Sub(me, 1), n), n))
		f.Do(pld.Put(data, right, x))
		f.Do(pld.Notify(sig, right, pl.Dims(me, 0), 1, pld.AtomicAdd))
		f.Do(pld.Wait(sig, pl.Dims(left, 0), 1, pld.Ge))
		f.Do(pld.Get(y, right, data, pld.Region(pl.Dims(0, 0), pl.Dims(0, 0), pl.Dims(1, cols))))
		f.Do(pld.Notify(sig, me, pl.Dims(left, 0), -1, pld.AtomicAdd))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(pl.Dynamic("NR"), 1, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(pl.Dynamic("NR"), pl.Dynamic("NR"), cols), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(cols*4))
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			data := f.Let("data", pld.Window(db, pl.Dims(1, cols), pl.FP32))
			sig := f.Let("signal", pld.Window(sb, pl.Dims(pld.WorldSize(), 1), pl.INT32))
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r), data, sig))
		})
	})
	return prog
}

// ringAllReduce: an allreduce in ring mode of a [1, size] FP32 target, with
// the ring's [2(NR-1), NR] signal.
func ringAllReduce(n, size int) *pl.Program {
	return ringAllReduceOf(n, size, pl.FP32, pld.Sum, "ring")
}

// ringAllReduceOf is ringAllReduce for any dtype, reduction and mode (a mesh
// allreduce gets the mesh's [NR, 1] signal).
func ringAllReduceOf(n, size int, dt pl.DataType, op ir.ReduceOp, mode string) *pl.Program {
	return testprogs.AllReduceWindowOf("RingAllReduce", n, size, dt, mode, op)
}

// meshAllReduce: a mesh allreduce of a [1, size] target in dtype dt, large
// enough to be cut into several chunks (the last one partial).
func meshAllReduce(n, size int, dt pl.DataType) *pl.Program {
	prog := pl.NewProgram("MeshAllReduce")
	k := prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, size), dt))
		y := f.Out("y", pl.Tensor(pl.Dims(1, size), dt))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, size), dt))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(n, 1), pl.INT32))
		t := f.Let("staged", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, size)))
		f.Set(data, pl.Store(t, pl.Dims(0, 0), data))
		f.Set(data, pld.AllReduce(data, sig))
		out := f.Let("out", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, size)))
		f.Set(y, pl.Store(out, pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(n, 1, size), dt))
		y := f.Out("y", pl.Tensor(pl.Dims(n, 1, size), dt))
		db := f.Let("data_buf", pld.AllocWindowBuffer(size*dt.Bytes()))
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(n*4))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r),
				f.Let("data", pld.Window(db, pl.Dims(1, size), dt)),
				f.Let("signal", pld.Window(sb, pl.Dims(n, 1), pl.INT32))))
		})
	})
	return prog
}
