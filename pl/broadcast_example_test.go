package pl_test

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// Tensor ops broadcast their operands as NumPy does: a [2, 3] tensor minus
// a [2, 1] column subtracts the column from every row. Compiling lowers
// the pair to tile.row_expand_sub.
func ExampleSub_broadcast() {
	prog := pl.NewProgram("Centre")
	k := prog.InCore("centre", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(2, 3), pl.FP32))
		m := f.In("m", pl.Tensor(pl.Dims(2, 1), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(2, 3), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(2, 3), pl.FP32))
		d := f.Let("d", pl.Sub(x, m))
		f.Return(pl.Assemble(y, d, pl.Dims(0, 0)))
	})
	prog.Orchestration("main", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(2, 3), pl.FP32))
		m := f.In("m", pl.Tensor(pl.Dims(2, 1), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(2, 3), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(2, 3), pl.FP32))
		f.Return(f.Call(k, x, m, y))
	})
	fmt.Println(prog)
	x := tensor.FromFloat32([]float32{1, 2, 3, 10, 20, 30}, 2, 3)
	m := tensor.FromFloat32([]float32{2, 20}, 2, 1)
	y := tensor.Zeros(ir.FP32, 2, 3)
	if _, err := pl.Run(prog, pl.Ranks(1), x, m, y); err != nil {
		fmt.Println(err)
	}
	fmt.Println(y)
	c, err := pl.TryCompile(prog, pl.Ranks(1))
	if err != nil {
		fmt.Println(err)
	}
	st, _ := c.Stage("ConvertTensorToTileOps")
	for _, line := range strings.Split(st.Text, "\n") {
		if strings.Contains(line, "row_expand") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// # pypto.program: Centre
	// import pypto.language as pl
	//
	// @pl.program
	// class Centre:
	//     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
	//     def centre(x: pl.Tensor[[2, 3], pl.FP32], m: pl.Tensor[[2, 1], pl.FP32], y: pl.Out[pl.Tensor[[2, 3], pl.FP32]]) -> pl.Tensor[[2, 3], pl.FP32]:
	//         d: pl.Tensor[[2, 3], pl.FP32] = pl.tensor.sub(x, m)
	//         return pl.tensor.assemble(y, d, [0, 0])
	//     @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
	//     def main(self, x: pl.Tensor[[2, 3], pl.FP32], m: pl.Tensor[[2, 1], pl.FP32], y: pl.Out[pl.Tensor[[2, 3], pl.FP32]]) -> pl.Tensor[[2, 3], pl.FP32]:
	//         return self.centre(x, m, y)
	// tensor([[ -1.,   0.,   1.],
	//         [-10.,   0.,  10.]])
	// d__tile: pl.Tile[[2, 3], pl.FP32, pl.Mem.Vec] = pl.tile.row_expand_sub(x__tile, m__tile)
}
