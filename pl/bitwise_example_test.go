package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// Bitwise ops on integer tiles: And with a scalar is tile.ands, Xor of
// tiles takes the scratch tile the NPU's TXOR needs, Not complements.
func ExampleXor() {
	prog := pl.NewProgram("Bits")
	prog.Orchestration("main", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(1, 4), pl.INT32))
		b := f.In("b", pl.Tensor(pl.Dims(1, 4), pl.INT32))
		out := f.Out("out", pl.Tensor(pl.Dims(3, 4), pl.INT32))
		f.Returns(pl.Tensor(pl.Dims(3, 4), pl.INT32))
		f.InCoreScope("bits", func() {
			x := f.Let("x", pl.Load(a, pl.Dims(0, 0), pl.Dims(1, 4)))
			y := f.Let("y", pl.Load(b, pl.Dims(0, 0), pl.Dims(1, 4)))
			tmp := f.Let("tmp", pl.CreateTile(pl.Dims(1, 4), pl.INT32))
			f.Do(pl.Store(pl.And(x, 6), pl.Dims(0, 0), out))
			f.Do(pl.Store(pl.Xor(x, y, tmp), pl.Dims(1, 0), out))
			f.Do(pl.Store(pl.Not(x), pl.Dims(2, 0), out))
		})
		f.Return(out)
	})
	fmt.Println(prog)
	a := tensor.FromInt32([]int32{1, 2, 3, 12}, 1, 4)
	b := tensor.FromInt32([]int32{3, 3, 3, 3}, 1, 4)
	out := tensor.Zeros(ir.INT32, 3, 4)
	if _, err := pl.Run(prog, pl.Ranks(1), a, b, out); err != nil {
		fmt.Println(err)
	}
	for i := 0; i < 3; i++ {
		fmt.Println(out.At(i, 0), out.At(i, 1), out.At(i, 2), out.At(i, 3))
	}
	// Output:
	// # pypto.program: Bits
	// import pypto.language as pl
	//
	// @pl.program
	// class Bits:
	//     @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
	//     def main(self, a: pl.Tensor[[1, 4], pl.INT32], b: pl.Tensor[[1, 4], pl.INT32], out: pl.Out[pl.Tensor[[3, 4], pl.INT32]]) -> pl.Tensor[[3, 4], pl.INT32]:
	//         with pl.at(level=pl.Level.CORE_GROUP, name_hint="bits"):
	//             x: pl.Tile[[1, 4], pl.INT32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [1, 4], [1, 4], target_memory=pl.Mem.Vec)
	//             y: pl.Tile[[1, 4], pl.INT32, pl.Mem.Vec] = pl.tile.load(b, [0, 0], [1, 4], [1, 4], target_memory=pl.Mem.Vec)
	//             tmp: pl.Tile[[1, 4], pl.INT32, pl.Mem.Vec] = pl.tile.create([1, 4], dtype=pl.INT32, target_memory=pl.Mem.Vec)
	//             pl.tile.store(pl.tile.ands(x, 6), [0, 0], out)
	//             pl.tile.store(pl.tile.xor(x, y, tmp), [1, 0], out)
	//             pl.tile.store(pl.tile.not_(x), [2, 0], out)
	//         return out
	// 0 2 2 4
	// 2 1 0 15
	// -2 -3 -4 -13
}
