package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// An SPMD launch of four blocks: each block is the kernel the loop body
// makes, and doubles its own eight rows.
func ExampleFunc_SpmdFor() {
	prog := pl.NewProgram("Blocks")
	prog.Orchestration("double", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(32, 16), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(32, 16), pl.FP32))
		f.SpmdFor("blk", 4, "rows", func(blk pl.Expr) {
			t := f.Let("t", pl.Load(a, pl.Dims(pl.Mul(blk, 8), 0), pl.Dims(8, 16)))
			f.Do(pl.Store(pl.Add(t, t), pl.Dims(pl.Mul(blk, 8), 0), out))
		})
	})
	fmt.Println(prog)
	a := tensor.Randn(1, 32, 16)
	out := tensor.Zeros(pl.FP32, 32, 16)
	if _, err := pl.Compile(prog, pl.Ranks(1)).Run(pl.Ranks(1), a, out); err != nil {
		fmt.Println(err)
	}
	fmt.Println(out.At(31, 15) == 2*a.At(31, 15))
	// Output:
	// # pypto.program: Blocks
	// import pypto.language as pl
	//
	// @pl.program
	// class Blocks:
	//     @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
	//     def double(self, a: pl.Tensor[[32, 16], pl.FP32], out: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):
	//         for blk in pl.spmd(4, name_hint="rows"):
	//             t: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [blk * 8, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
	//             pl.tile.store(pl.tile.add(t, t), [blk * 8, 0], out)
	// true
}

// A cluster region groups co-scheduled launches (upstream outlines it into
// a Group function); its statements run where they stand.
func ExampleFunc_ClusterScope() {
	prog := pl.NewProgram("Clustered")
	prog.Orchestration("double", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(32, 16), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(32, 16), pl.FP32))
		f.ClusterScope("pair", func() {
			f.SpmdFor("blk", 2, "halves", func(blk pl.Expr) {
				t := f.Let("t", pl.Load(a, pl.Dims(pl.Mul(blk, 16), 0), pl.Dims(16, 16)))
				f.Do(pl.Store(pl.Add(t, t), pl.Dims(pl.Mul(blk, 16), 0), out))
			})
		})
	})
	fmt.Println(prog)
	a := tensor.Randn(1, 32, 16)
	out := tensor.Zeros(pl.FP32, 32, 16)
	if _, err := pl.Compile(prog, pl.Ranks(1)).Run(pl.Ranks(1), a, out); err != nil {
		fmt.Println(err)
	}
	fmt.Println(out.At(31, 15) == 2*a.At(31, 15))
	// Output:
	// # pypto.program: Clustered
	// import pypto.language as pl
	//
	// @pl.program
	// class Clustered:
	//     @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
	//     def double(self, a: pl.Tensor[[32, 16], pl.FP32], out: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):
	//         with pl.cluster(name_hint="pair"):
	//             for blk in pl.spmd(2, name_hint="halves"):
	//                 t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [blk * 16, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
	//                 pl.tile.store(pl.tile.add(t, t), [blk * 16, 0], out)
	// true
}
