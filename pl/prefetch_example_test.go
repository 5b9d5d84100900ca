package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// A kernel warms L2 with the row it scales by, waits for the prefetch,
// then scales: the prefetch is a hint, so the result is the product.
func ExamplePrefetch() {
	prog := pl.NewProgram("Warm")
	k := prog.InCore("scale", func(f *pl.Func) {
		row := f.In("row", pl.Tensor(pl.Dims(1, 4), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 4), pl.FP32))
		ctx := f.Let("ctx", pl.PrefetchContext())
		evt := f.Let("evt", pl.Prefetch(row, ctx))
		f.Do(pl.PrefetchWait(evt, pl.PrefetchSession(ctx)))
		t := f.Let("t", pl.Load(row, pl.Dims(0, 0), pl.Dims(1, 4)))
		f.Set(y, pl.Store(pl.Mul(t, t), pl.Dims(0, 0), y))
	})
	prog.Orchestration("main", func(f *pl.Func) {
		row := f.In("row", pl.Tensor(pl.Dims(1, 4), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 4), pl.FP32))
		f.Do(f.Call(k, row, y))
	})
	fmt.Println(prog)
	row := tensor.FromFloat32([]float32{1, 2, 3, 4}, 1, 4)
	y := tensor.Zeros(ir.FP32, 1, 4)
	if _, err := pl.Run(prog, pl.Ranks(1), row, y); err != nil {
		fmt.Println(err)
	}
	fmt.Println(y.Float32s())
	// Output:
	// # pypto.program: Warm
	// import pypto.language as pl
	//
	// @pl.program
	// class Warm:
	//     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
	//     def scale(row: pl.Tensor[[1, 4], pl.FP32], y: pl.Out[pl.Tensor[[1, 4], pl.FP32]]):
	//         ctx: pl.PrefetchAsyncContext = pl.prefetch.make_context()
	//         evt: pl.AsyncEvent = pl.prefetch.async_prefetch(row, ctx)
	//         pl.prefetch.wait(evt, pl.prefetch.session(ctx))
	//         t: pl.Tile[[1, 4], pl.FP32, pl.Mem.Vec] = pl.tile.load(row, [0, 0], [1, 4], [1, 4], target_memory=pl.Mem.Vec)
	//         y_1: pl.Tensor[[1, 4], pl.FP32] = pl.tile.store(pl.tile.mul(t, t), [0, 0], y)
	//     @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
	//     def main(self, row: pl.Tensor[[1, 4], pl.FP32], y: pl.Out[pl.Tensor[[1, 4], pl.FP32]]):
	//         self.scale(row, y)
	// [1 4 9 16]
}
