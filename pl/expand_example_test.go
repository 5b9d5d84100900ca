package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// A [2, 1, 3] tensor expanded into [2, 2, 3]: each row repeated along the
// middle dimension, written into y.
func ExampleExpandClone() {
	prog := pl.NewProgram("Repeat")
	k := prog.InCore("repeat", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(2, 1, 3), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(2, 2, 3), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(2, 2, 3), pl.FP32))
		f.Return(pl.ExpandClone(x, y))
	})
	prog.Orchestration("main", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(2, 1, 3), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(2, 2, 3), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(2, 2, 3), pl.FP32))
		f.Return(f.Call(k, x, y))
	})
	x := tensor.FromFloat32([]float32{1, 2, 3, 4, 5, 6}, 2, 1, 3)
	y := tensor.Zeros(ir.FP32, 2, 2, 3)
	if _, err := pl.Run(prog, pl.Ranks(1), x, y); err != nil {
		fmt.Println(err)
	}
	fmt.Println(y.Float32s())
	// Output:
	// [1 2 3 1 2 3 4 5 6 4 5 6]
}
