package pl_test

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// A two-stage pipeline in a manual scope: each row block's second stage
// waits for its own first stage only, through the task id the first
// launch gives.
func ExampleFunc_Submit() {
	prog := pl.NewProgram("Pipeline")
	double := prog.InCore("double", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(32, 16), pl.FP32))
		s := f.Out("s", pl.Tensor(pl.Dims(32, 16), pl.FP32))
		row := f.Scalar("row", pl.INDEX)
		f.Returns(pl.Tensor(pl.Dims(32, 16), pl.FP32))
		t := f.Let("t", pl.Load(x, pl.Dims(row, 0), pl.Dims(8, 16)))
		f.Return(pl.Store(pl.Add(t, t), pl.Dims(row, 0), s))
	})
	inc := prog.InCore("inc", func(f *pl.Func) {
		s := f.In("s", pl.Tensor(pl.Dims(32, 16), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(32, 16), pl.FP32))
		row := f.Scalar("row", pl.INDEX)
		f.Returns(pl.Tensor(pl.Dims(32, 16), pl.FP32))
		t := f.Let("t", pl.Load(s, pl.Dims(row, 0), pl.Dims(8, 16)))
		f.Return(pl.Store(pl.Add(t, 1.0), pl.Dims(row, 0), out))
	})
	prog.Orchestration("main", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(32, 16), pl.FP32))
		s := f.Out("s", pl.Tensor(pl.Dims(32, 16), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(32, 16), pl.FP32))
		f.ManualScope(func() {
			f.For("b", pl.Parallel(4), func(b pl.Expr) {
				first := f.Let("first", f.Submit(double, nil, x, s, pl.Mul(b, 8)))
				f.Set(s, pl.Item(first, 0))
				tid := f.Let("tid", pl.Item(first, 1))
				second := f.Let("second", f.Submit(inc, []pl.Expr{tid}, s, out, pl.Mul(b, 8)))
				f.Set(out, pl.Item(second, 0))
			})
		})
	})
	fmt.Println(prog)
	x := tensor.Randn(1, 32, 16)
	out := tensor.Zeros(pl.FP32, 32, 16)
	if _, err := pl.Run(prog, pl.Ranks(1), x, tensor.Zeros(pl.FP32, 32, 16), out); err != nil {
		fmt.Println(err)
	}
	fmt.Println(out.At(31, 15) == float64(float32(float32(2*x.At(31, 15))+1)))
	// Output:
	// # pypto.program: Pipeline
	// import pypto.language as pl
	//
	// @pl.program
	// class Pipeline:
	//     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
	//     def double(x: pl.Tensor[[32, 16], pl.FP32], s: pl.Out[pl.Tensor[[32, 16], pl.FP32]], row: pl.Scalar[pl.INDEX]) -> pl.Tensor[[32, 16], pl.FP32]:
	//         t: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
	//         return pl.tile.store(pl.tile.add(t, t), [row, 0], s)
	//     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
	//     def inc(s: pl.Tensor[[32, 16], pl.FP32], out: pl.Out[pl.Tensor[[32, 16], pl.FP32]], row: pl.Scalar[pl.INDEX]) -> pl.Tensor[[32, 16], pl.FP32]:
	//         t: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(s, [row, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
	//         return pl.tile.store(pl.tile.adds(t, 1.0), [row, 0], out)
	//     @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
	//     def main(self, x: pl.Tensor[[32, 16], pl.FP32], s: pl.Out[pl.Tensor[[32, 16], pl.FP32]], out: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):
	//         with pl.scope(mode=pl.ScopeMode.MANUAL):
	//             for b in pl.parallel(4):
	//                 first: pl.Tuple[pl.Tensor[[32, 16], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.submit(self.double, x, s, b * 8)
	//                 s_1: pl.Tensor[[32, 16], pl.FP32] = first[0]
	//                 tid: pl.Scalar[pl.TASK_ID] = first[1]
	//                 second: pl.Tuple[pl.Tensor[[32, 16], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.submit(self.inc, s_1, out, b * 8, deps=[tid])
	//                 out_1: pl.Tensor[[32, 16], pl.FP32] = second[0]
	// true
}

// One SPMD launch per expert, each block scaling its row tile, predicated
// on the expert having rows: expert 1 has none, so its launch retires and
// its rows stay zero.
func ExampleFunc_SpmdSubmit() {
	prog := pl.NewProgram("Experts")
	expert := prog.InCore("expert", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(16, 8), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(16, 8), pl.FP32))
		e := f.Scalar("e", pl.INDEX)
		f.Returns(pl.Tensor(pl.Dims(16, 8), pl.FP32))
		row := f.Let("row", pl.Add(pl.Mul(e, 8), pl.Mul(pl.BlockIdx(), 4)))
		f.Return(pl.Store(pl.Mul(pl.Load(x, pl.Dims(row, 0), pl.Dims(4, 8)), 2.0), pl.Dims(row, 0), y))
	})
	prog.Orchestration("main", func(f *pl.Func) {
		counts := f.In("counts", pl.Tensor(pl.Dims(2, 1), pl.INT32))
		x := f.In("x", pl.Tensor(pl.Dims(16, 8), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(16, 8), pl.FP32))
		f.For("e", pl.Range(2), func(e pl.Expr) {
			has := pl.Gt(pl.Read(counts, pl.Dims(e, 0)), 0)
			r := f.Let("r", pl.Predicated(f.SpmdSubmit(expert, 2, nil, x, y, e), has))
			f.Set(y, pl.Item(r, 0))
		})
	})
	fmt.Println(prog)
	x, y := tensor.Randn(1, 16, 8), tensor.Zeros(pl.FP32, 16, 8)
	if _, err := pl.Run(prog, pl.Ranks(1), tensor.FromInt32([]int32{5, 0}, 2, 1), x, y); err != nil {
		fmt.Println(err)
	}
	fmt.Println(y.At(7, 3) == float64(float32(2*x.At(7, 3))), y.At(8, 3) == 0)
	// Output:
	// # pypto.program: Experts
	// import pypto.language as pl
	//
	// @pl.program
	// class Experts:
	//     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
	//     def expert(x: pl.Tensor[[16, 8], pl.FP32], y: pl.Out[pl.Tensor[[16, 8], pl.FP32]], e: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 8], pl.FP32]:
	//         row: pl.Scalar[pl.INDEX] = e * 8 + pl.tile.get_block_idx() * 4
	//         return pl.tile.store(pl.tile.muls(pl.tile.load(x, [row, 0], [4, 8], [4, 8], target_memory=pl.Mem.Vec), 2.0), [row, 0], y)
	//     @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
	//     def main(self, counts: pl.Tensor[[2, 1], pl.INT32], x: pl.Tensor[[16, 8], pl.FP32], y: pl.Out[pl.Tensor[[16, 8], pl.FP32]]):
	//         for e in pl.range(2):
	//             r: pl.Tuple[pl.Tensor[[16, 8], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.expert, x, y, e, core_num=2, predicate=(pl.tensor.read(counts, [e, 0]) > 0))
	//             y_1: pl.Tensor[[16, 8], pl.FP32] = r[0]
	// true true
}

// NoDep takes a kernel-call argument out of the runtime's dependency
// tracking: here the second launch writes the other half of out, so it
// need not wait for the first. The checker holds the program to the
// promise.
func ExampleNoDep() {
	prog := pl.NewProgram("Halves")
	scale := prog.InCore("scale", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(16, 16), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(16, 16), pl.FP32))
		row := f.Scalar("row", pl.INDEX)
		f.Returns(pl.Tensor(pl.Dims(16, 16), pl.FP32))
		t := f.Let("t", pl.Load(x, pl.Dims(row, 0), pl.Dims(8, 16)))
		f.Return(pl.Store(pl.Add(t, t), pl.Dims(row, 0), out))
	})
	prog.Orchestration("main", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(16, 16), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(16, 16), pl.FP32))
		f.Set(out, f.Call(scale, x, out, 0))
		f.Set(out, f.Call(scale, x, pl.NoDep(out), 8))
	})
	for _, line := range strings.Split(prog.String(), "\n") {
		if strings.Contains(line, "self.scale") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	res, err := pl.Run(prog, pl.Ranks(1), tensor.Randn(1, 16, 16), tensor.Zeros(pl.FP32, 16, 16))
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println(res.Report())
	// Output:
	// out_1: pl.Tensor[[16, 16], pl.FP32] = self.scale(x, out, 0)
	// out_2: pl.Tensor[[16, 16], pl.FP32] = self.scale(x, out_1, 8, attrs={"arg_direction_overrides": [1]})
	// protocol check: clean
}
