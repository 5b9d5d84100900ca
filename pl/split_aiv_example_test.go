package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// A cube result split between a core's two vector lanes: each lane takes
// its half of the rows, doubles it and stores it at its own offset.
func ExampleFunc_SplitAiv() {
	prog := pl.NewProgram("Halves")
	prog.Orchestration("main", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(16, 32), pl.FP32))
		b := f.In("b", pl.Tensor(pl.Dims(32, 16), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(16, 16), pl.FP32))
		f.InCoreScope("qk", func() {
			qk := f.Let("qk", pl.Matmul(pl.LoadTo(a, pl.Dims(0, 0), pl.Dims(16, 32), pl.Mat), pl.LoadTo(b, pl.Dims(0, 0), pl.Dims(32, 16), pl.Mat)))
			f.SplitAiv("lane", pl.SplitUpDown, func(lane pl.Expr) {
				half := f.Let("half", f.AivShard(qk))
				f.Do(pl.Store(pl.Mul(half, 2.0), pl.Dims(pl.Mul(lane, 8), 0), out))
			})
		})
	})
	fmt.Println(prog)
	a, b := tensor.Randn(1, 16, 32), tensor.Randn(2, 32, 16)
	out := tensor.Zeros(pl.FP32, 16, 16)
	if _, err := pl.Compile(prog, pl.Ranks(1)).Run(pl.Ranks(1), a, b, out); err != nil {
		fmt.Println(err)
	}
	s := 0.0
	for k := 0; k < 32; k++ {
		s += a.At(15, k) * b.At(k, 3)
	}
	fmt.Println(out.At(15, 3) == float64(float32(float32(s)*2)))
	// Output:
	// # pypto.program: Halves
	// import pypto.language as pl
	//
	// @pl.program
	// class Halves:
	//     @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
	//     def main(self, a: pl.Tensor[[16, 32], pl.FP32], b: pl.Tensor[[32, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
	//         with pl.at(level=pl.Level.CORE_GROUP, name_hint="qk"):
	//             qk: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(pl.tile.load(a, [0, 0], [16, 32], [16, 32], target_memory=pl.Mem.Mat), pl.tile.load(b, [0, 0], [32, 16], [32, 16], target_memory=pl.Mem.Mat))
	//             for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
	//                 half: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.aiv_shard(qk)
	//                 pl.tile.store(pl.tile.muls(half, 2.0), [lane * 8, 0], out)
	// true
}

// Rows of a GM pool gathered into an on-chip buffer that a matmul reads:
// an identity times the buffer gives the rows back.
func ExampleGatherRow() {
	prog := pl.NewProgram("Gathered")
	prog.Orchestration("main", func(f *pl.Func) {
		pool := f.In("pool", pl.Tensor(pl.Dims(32, 16), pl.FP16))
		eye := f.In("eye", pl.Tensor(pl.Dims(4, 4), pl.FP16))
		out := f.Out("out", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(4, 16), pl.FP32))
		f.InCoreScope("gather", func() {
			kv := f.Let("kv", pl.CreateL1(pl.Dims(4, 16), pl.FP16))
			f.For("r", pl.Range(4), func(r pl.Expr) {
				f.Set(kv, pl.GatherRow(kv, pool, pl.Dims(r, 0), pl.Dims(pl.Mul(r, 7), 0), pl.Dims(1, 16)))
			})
			f.Set(out, pl.Assemble(out, pl.MatmulOut(eye, kv, pl.FP32), pl.Dims(0, 0)))
		})
		f.Return(out)
	})
	fmt.Println(prog)
	pool := tensor.Arange(pl.FP32, 32*16).To(pl.FP16)
	eye := tensor.Zeros(pl.FP16, 4, 4)
	for i := 0; i < 4; i++ {
		eye.Set(1, i, i)
	}
	out := tensor.Zeros(pl.FP32, 4, 16)
	if _, err := pl.Compile(prog, pl.Ranks(1)).Run(pl.Ranks(1), pool.Reshape(32, 16), eye, out); err != nil {
		fmt.Println(err)
	}
	fmt.Println(out.At(3, 5)) // pool row 21, column 5
	// Output:
	// # pypto.program: Gathered
	// import pypto.language as pl
	//
	// @pl.program
	// class Gathered:
	//     @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
	//     def main(self, pool: pl.Tensor[[32, 16], pl.FP16], eye: pl.Tensor[[4, 4], pl.FP16], out: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
	//         with pl.at(level=pl.Level.CORE_GROUP, name_hint="gather"):
	//             kv: pl.Tensor[[4, 16], pl.FP16] = pl.tensor.create_l1([4, 16], dtype=pl.FP16)
	//             for r in pl.range(4):
	//                 kv_1: pl.Tensor[[4, 16], pl.FP16] = pl.tensor.gather_row(kv, pool, [r, 0], [r * 7, 0], [1, 16])
	//             out_1: pl.Tensor[[4, 16], pl.FP32] = pl.tensor.assemble(out, pl.tensor.matmul(eye, kv_1, out_dtype=pl.FP32), [0, 0])
	//         return out_1
	// 341
}
