package pl_test

import (
	"fmt"
	"strings"

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
	//         y: pl.Tensor[[4, 8], pl.FP32] = pl.tile.store(pl.tile.load(x, [0, 0], [4, 8], [4, 8], target_memory=pl.Mem.Vec), [0, 0], y)
	//         return y
}

func ExampleModule_Tests() {
	mod, err := pl.ParsePython(`
import pypto.language as pl
import pytest

def build_copy(rows, cols=8):
    @pl.program
    class Copy:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(x: pl.Tensor[[rows, cols], pl.FP32], y: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]):
            y = pl.store(pl.load(x, [0, 0], [rows, cols]), [0, 0], y)
            return y

    return Copy

@pytest.mark.parametrize("cols", [8, 16])
@pytest.mark.parametrize("rows", [1, 4])
def test_copy(test_runner, rows, cols):
    test_runner.run(build_copy(rows, cols))
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(mod.Tests())
	prog, err := mod.Program("test_copy[4-16]")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(prog.IR().Functions[0].Params[0].Type())
	// Output:
	// [test_copy[1-8] test_copy[1-16] test_copy[4-8] test_copy[4-16]]
	// pl.Tensor[[4, 16], pl.FP32]
}

func ExampleHighPrecision() {
	prog := pl.NewProgram("Ratio")
	prog.InCore("ratio", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(16, 16), pl.FP32))
		b := f.In("b", pl.Tensor(pl.Dims(16, 16), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(16, 16), pl.FP32))
		ta := f.Let("ta", pl.Load(a, pl.Dims(0, 0), pl.Dims(16, 16)))
		tb := f.Let("tb", pl.Load(b, pl.Dims(0, 0), pl.Dims(16, 16)))
		q := f.Let("q", pl.HighPrecision(pl.Div(ta, tb)))
		f.Set(out, pl.Store(q, pl.Dims(0, 0), out))
	})
	c := pl.Compile(prog)
	text, err := c.PTOText()
	if err != nil {
		fmt.Println(err)
		return
	}
	printedCalls(prog, "pl.tile.div")
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "{precisionType"); i >= 0 && strings.Contains(line, "pto.tdiv") {
			fmt.Println("pto.tdiv ... " + line[i:])
		}
	}
	// Output:
	// q: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.div(ta, tb, high_precision=True)
	// pto.tdiv ... {precisionType = #pto<div_precision high_precision>}
}
