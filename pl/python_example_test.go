package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/pl"
)

func ExampleParsePython() {
	mod, err := pl.ParsePython(`
import pypto.language as pl

def build_copy(rows, cols=8):
    @pl.program
    class Copy:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(x: pl.Tensor[[rows, cols], pl.FP32], y: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]):
            y = pl.store(pl.load(x, [0, 0], [rows, cols]), [0, 0], y)
            return y

    return Copy
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(mod.Names())
	prog, err := mod.Call("build_copy", 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(prog)
	// Output:
	// [build_copy]
	// # pypto.program: Copy
	// import pypto.language as pl
	//
	// @pl.program
	// class Copy:
	//     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
	//     def kernel(x: pl.Tensor[[4, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
	//         y_1: pl.Tensor[[4, 8], pl.FP32] = pl.tile.store(pl.tile.load(x, [0, 0], [4, 8], [4, 8], target_memory=pl.Mem.Vec), [0, 0], y)
	//         return y_1
}
