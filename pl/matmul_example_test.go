package pl_test

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/pl"
)

// pl.Matmul of two tensors is tensor.matmul; in a kernel,
// ConvertTensorToTileOps makes it the cube path: loads to Mat, moves to
// Left and Right, and tile.matmul into an Acc tile.
func ExampleMatmul() {
	prog := pl.NewProgram("TensorMatmul")
	prog.InCore("mm", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(16, 32), pl.FP16))
		b := f.In("b", pl.Tensor(pl.Dims(32, 8), pl.FP16))
		c := f.Out("c", pl.Tensor(pl.Dims(16, 8), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(16, 8), pl.FP32))
		p := f.Let("p", pl.MatmulOut(a, b, pl.FP32))
		f.Return(pl.Assemble(c, p, pl.Dims(0, 0)))
	})
	comp := pl.Compile(prog)
	stage, _ := comp.Stage("ConvertTensorToTileOps")
	for _, line := range strings.Split(stage.Text, "\n") {
		if strings.Contains(line, "= pl.tile.") || strings.Contains(line, "return") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// a_mat: pl.Tile[[16, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 32], [16, 32], target_memory=pl.Mem.Mat)
	// a_left: pl.Tile[[16, 32], pl.FP16, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
	// b_mat: pl.Tile[[32, 8], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [32, 8], [32, 8], target_memory=pl.Mem.Mat)
	// b_right: pl.Tile[[32, 8], pl.FP16, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
	// p: pl.Tile[[16, 8], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, b_right, out_dtype=pl.FP32)
	// t__tmp_v0: pl.Tensor[[16, 8], pl.FP32] = pl.tile.store(p, [0, 0], c)
	// return t__tmp_v0
}
