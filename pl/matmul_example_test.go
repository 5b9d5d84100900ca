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
	// p__tile: pl.Tile[[16, 8], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, b_right, out_dtype=pl.FP32)
	// t__tmp_v0: pl.Tensor[[16, 8], pl.FP32] = pl.tile.store(p__tile, [0, 0], c)
	// return t__tmp_v0
}

// x @ x^T on the cube: the right operand is the same Mat tile seen
// transposed (pl.TransposeView moves no data).
func ExampleTransposeView() {
	prog := pl.NewProgram("Gram")
	prog.InCore("gram", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(16, 32), pl.FP16))
		g := f.Out("g", pl.Tensor(pl.Dims(16, 16), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(16, 16), pl.FP32))
		a := f.Let("a", pl.LoadTo(x, pl.Dims(0, 0), pl.Dims(16, 32), pl.Mat))
		bt := f.Let("bt", pl.TransposeView(a))
		acc := f.Let("acc", pl.Matmul(pl.Move(a, pl.Left), pl.Move(bt, pl.Right)))
		f.Return(pl.Store(acc, pl.Dims(0, 0), g))
	})
	for _, line := range strings.Split(prog.String(), "\n") {
		if strings.Contains(line, "bt:") || strings.Contains(line, "acc:") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// bt: pl.Tile[[32, 16], pl.FP16, pl.Mem.Mat, pl.TileView(blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.col_major)] = pl.tile.transpose_view(a)
	// acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(pl.tile.move(a, target_memory=pl.Mem.Left), pl.tile.move(bt, target_memory=pl.Mem.Right))
}

// Split-K in Go: the accumulator is a created tensor, the first K chunk a
// pl.MatmulOut and the others pl.MatmulAcc into it. ConvertTensorToTileOps
// keeps it on chip: the create becomes an Acc tile.create, and the loop
// carries the tile (its iter-arg and the if's phi are Acc tiles).
func ExampleMatmulAcc() {
	prog := pl.NewProgram("SplitK")
	prog.InCore("split_k", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(16, 256), pl.FP16))
		b := f.In("b", pl.Tensor(pl.Dims(256, 32), pl.FP16))
		c := f.Out("c", pl.Tensor(pl.Dims(16, 32), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(16, 32), pl.FP32))
		acc := f.Let("acc", pl.Create(pl.Dims(16, 32), pl.FP32))
		f.For("kb", pl.Range(4), func(kb pl.Expr) {
			k0 := f.Let("k0", pl.Mul(kb, 64))
			ak := f.Let("a_k", pl.Slice(a, pl.Dims(16, 64), pl.Dims(0, k0)))
			bk := f.Let("b_k", pl.Slice(b, pl.Dims(64, 32), pl.Dims(k0, 0)))
			f.IfElse(pl.Eq(k0, 0), func() {
				f.Set(acc, pl.MatmulOut(ak, bk, pl.FP32))
			}, func() {
				f.Set(acc, pl.MatmulAcc(acc, ak, bk))
			})
		})
		f.Return(pl.Assemble(c, acc, pl.Dims(0, 0)))
	})
	comp := pl.Compile(prog)
	stage, _ := comp.Stage("ConvertTensorToTileOps")
	for _, line := range strings.Split(stage.Text, "\n") {
		if strings.Contains(line, "tile.create") || strings.Contains(line, "for kb") || strings.Contains(line, "tile.matmul") || strings.Contains(line, "yield_") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// acc__tile: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.create([16, 32], dtype=pl.FP32, target_memory=pl.Mem.Acc)
	// for kb, (acc__iter_v1,) in pl.range(4, init_values=(acc__tile,)):
	// acc__tile_1: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_k_left, b_k_right, out_dtype=pl.FP32)
	// acc__phi_v4: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.yield_(acc__tile_1)
	// acc__tile_2: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc__iter_v1, a_k_left_1, b_k_right_1)
	// acc__phi_v4: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.yield_(acc__tile_2)
	// acc__rv_v5: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.yield_(acc__phi_v4)
}

// Split-K without a peeled step: pl.MatmulAccInit overwrites the
// accumulator where its condition holds, so the loop needs no if.
func ExampleMatmulAccInit() {
	prog := pl.NewProgram("SplitKInit")
	prog.InCore("split_k", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(16, 128), pl.FP16))
		b := f.In("b", pl.Tensor(pl.Dims(128, 32), pl.FP16))
		c := f.Out("c", pl.Tensor(pl.Dims(16, 32), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(16, 32), pl.FP32))
		acc := f.Let("acc", pl.Create(pl.Dims(16, 32), pl.FP32))
		f.For("kb", pl.Range(4), func(kb pl.Expr) {
			k0 := f.Let("k0", pl.Mul(kb, 32))
			ak := f.Let("a_k", pl.Slice(a, pl.Dims(16, 32), pl.Dims(0, k0)))
			bk := f.Let("b_k", pl.Slice(b, pl.Dims(32, 32), pl.Dims(k0, 0)))
			f.Set(acc, pl.MatmulAccInit(acc, ak, bk, pl.Eq(k0, 0)))
		})
		f.Return(pl.Assemble(c, acc, pl.Dims(0, 0)))
	})
	comp := pl.Compile(prog)
	stage, _ := comp.Stage("ConvertTensorToTileOps")
	for _, line := range strings.Split(stage.Text, "\n") {
		if strings.Contains(line, "tile.matmul_acc") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	fmt.Println(strings.Count(comp.PTO(), "scf.if"))
	// Output:
	// acc__tile_1: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc__iter_v1, a_k_left, b_k_right, k0 == 0)
	// 1
}
