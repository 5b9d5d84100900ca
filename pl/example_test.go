package pl_test

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
)

// A kernel that adds two tiles, printed in PyPTO's syntax.
func ExampleNewProgram() {
	prog := pl.NewProgram("AddOne")
	prog.InCore("add", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(1, 64), pl.FP32))
		t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 64)))
		u := f.Let("u", pl.Add(t, t))
		f.Return(pl.Store(u, pl.Dims(0, 0), y))
	})
	fmt.Println(prog)
	// Output:
	// # pypto.program: AddOne
	// import pypto.language as pl
	//
	// @pl.program
	// class AddOne:
	//     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
	//     def add(x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
	//         t: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)
	//         u: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)
	//         return pl.tile.store(u, [0, 0], y)
}

// Abs on a loaded tile prints as upstream's pl.tile.abs.
func ExampleAbs() {
	prog := pl.NewProgram("AbsDemo")
	prog.InCore("absolute", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(1, 64), pl.FP32))
		t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 64)))
		u := f.Let("u", pl.Abs(t))
		f.Return(pl.Store(u, pl.Dims(0, 0), y))
	})
	fmt.Println(prog)
	// Output:
	// # pypto.program: AbsDemo
	// import pypto.language as pl
	//
	// @pl.program
	// class AbsDemo:
	//     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
	//     def absolute(x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
	//         t: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)
	//         u: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.abs(t)
	//         return pl.tile.store(u, [0, 0], y)
}

// Signals: each rank notifies its right neighbour and waits for its left one.
func ExampleFunc_For() {
	prog := pl.NewProgram("Ring")
	prog.InCore("ring", func(f *pl.Func) {
		sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(sig))
		me := f.Let("me", pld.Rank(ctx))
		n := f.Let("n", pld.NRanks(ctx))
		right := f.Let("right", pl.Mod(pl.Add(me, 1), n))
		f.Do(pld.Notify(sig, right, pl.Dims(0, 0), 1, pld.AtomicAdd))
		f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
	})
	fmt.Println(prog)
	// Output:
	// # pypto.program: Ring
	// import pypto.language as pl
	// import pypto.language.distributed as pld
	//
	// @pl.program
	// class Ring:
	//     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
	//     def ring(sig: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]]):
	//         ctx: pld.CommCtx = pld.system.get_comm_ctx(sig)
	//         me: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
	//         n: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
	//         right: pl.Scalar[pl.INT32] = (me + 1) % n
	//         pld.system.notify(sig, right, [0, 0], pl.const(1, pl.INT32), op=0)
	//         pld.system.wait(sig, [0, 0], pl.const(1, pl.INT32), cmp=1)
}

// Compile lowers a program through every pass; each stage says whether the
// pass changed it, and the PTO-MLIR of the kernel comes out at the end.
func ExampleCompile() {
	prog := pl.NewProgram("Barrier")
	prog.InCore("kernel", func(f *pl.Func) {
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(4, 1), pl.INT32))
		f.Set(sig, pld.Barrier(sig))
	})
	c := pl.Compile(prog)
	for _, s := range c.Stages()[1:] {
		fmt.Println(s.Name, s.Changed)
	}
	fmt.Println(strings.Contains(c.PTO(), "pto.comm.tnotify"))
	// Output:
	// CtrlFlowTransform false
	// ConvertToSSA true
	// FlattenCallExpr false
	// OutlineHierarchyScopes false
	// OutlineIncoreScopes false
	// ConvertTensorToTileOps true
	// LowerCompositeOps true
	// FlattenTileNdTo2D false
	// InferTileMemorySpace false
	// InitMemRef true
	// AllocateMemoryAddr false
	// SynthesizeAllReduceSignals false
	// MaterializeCommDomainScopes false
	// LowerHostTensorCollectives false
	// MaterializeDistTensorCtx true
	// InsertCommFence true
	// true
}

// Slice and Assemble move regions of tensors: the halves of x change
// places in y. ConvertTensorToTileOps makes each slice a tile.load of its
// region and each assemble a tile.store at its offset.
func ExampleAssemble() {
	prog := pl.NewProgram("Halves")
	prog.InCore("swap", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(8, 16), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(8, 16), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(8, 16), pl.FP32))
		lo := f.Let("lo", pl.Slice(x, pl.Dims(4, 16), pl.Dims(0, 0)))
		hi := f.Let("hi", pl.Slice(x, pl.Dims(4, 16), pl.Dims(4, 0)))
		f.Set(y, pl.Assemble(y, hi, pl.Dims(0, 0)))
		f.Set(y, pl.Assemble(y, lo, pl.Dims(4, 0)))
		f.Return(y)
	})
	fmt.Println(prog)
	c := pl.Compile(prog, pl.Ranks(2))
	st, _ := c.Stage("ConvertTensorToTileOps")
	fmt.Println(st.Text)
	// Output:
	// # pypto.program: Halves
	// import pypto.language as pl
	//
	// @pl.program
	// class Halves:
	//     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
	//     def swap(x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
	//         lo: pl.Tensor[[4, 16], pl.FP32] = pl.tensor.slice(x, [4, 16], [0, 0])
	//         hi: pl.Tensor[[4, 16], pl.FP32] = pl.tensor.slice(x, [4, 16], [4, 0])
	//         y_1: pl.Tensor[[8, 16], pl.FP32] = pl.tensor.assemble(y, hi, [0, 0])
	//         y_2: pl.Tensor[[8, 16], pl.FP32] = pl.tensor.assemble(y_1, lo, [4, 0])
	//         return y_2
	// # pypto.program: Halves
	// import pypto.language as pl
	//
	// @pl.program
	// class Halves:
	//     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
	//     def swap(x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
	//         lo: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
	//         hi: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [4, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
	//         y__ssa_v0: pl.Tensor[[8, 16], pl.FP32] = pl.tile.store(hi, [0, 0], y)
	//         y__ssa_v1: pl.Tensor[[8, 16], pl.FP32] = pl.tile.store(lo, [4, 0], y__ssa_v0)
	//         return y__ssa_v1
}

// InCoreScope writes a kernel inside its orchestrator, as PyPTO's
// getting-started guide does with `with pl.at(level=pl.Level.CORE_GROUP)`;
// OutlineIncoreScopes makes the scope an InCore function and the scope a
// call of it, which stores into out and returns it.
func ExampleFunc_InCoreScope() {
	prog := pl.NewProgram("Scoped")
	prog.Orchestration("add", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(8, 16), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(8, 16), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(8, 16), pl.FP32))
		f.InCoreScope("twice", func() {
			t := f.Let("t", pl.Load(a, pl.Dims(0, 0), pl.Dims(8, 16)))
			f.Do(pl.Store(pl.Add(t, t), pl.Dims(0, 0), out))
		})
		f.Return(out)
	})
	fmt.Println(prog)
	c := pl.Compile(prog, pl.Ranks(2))
	st, _ := c.Stage("OutlineIncoreScopes")
	fmt.Println(st.Text)
	// Output:
	// # pypto.program: Scoped
	// import pypto.language as pl
	//
	// @pl.program
	// class Scoped:
	//     @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
	//     def add(self, a: pl.Tensor[[8, 16], pl.FP32], out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
	//         with pl.at(level=pl.Level.CORE_GROUP, name_hint="twice"):
	//             t: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
	//             pl.tile.store(pl.tile.add(t, t), [0, 0], out)
	//         return out
	// # pypto.program: Scoped
	// import pypto.language as pl
	//
	// @pl.program
	// class Scoped:
	//     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
	//     def twice(a: pl.Tensor[[8, 16], pl.FP32], out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
	//         t: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
	//         t__tmp_v0: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)
	//         out__store: pl.Tensor[[8, 16], pl.FP32] = pl.tile.store(t__tmp_v0, [0, 0], out)
	//         return out
	//     @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
	//     def add(self, a: pl.Tensor[[8, 16], pl.FP32], out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
	//         out__ssa_v0: pl.Tensor[[8, 16], pl.FP32] = self.twice(a, out)
	//         return out__ssa_v0
}
