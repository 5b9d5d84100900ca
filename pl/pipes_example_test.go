package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// A vector function hands a + b to the cube through a pipe; the cube pops
// it and multiplies it by b. The group runs both together, the cube's pop
// waiting for the vector's push.
func ExampleTpushToAic() {
	const d, slot = 16, 16 * 16 * 4
	prog := pl.NewProgram("Piped")
	params := func(f *pl.Func) (a, b, out pl.Expr) {
		return f.In("a", pl.Tensor(pl.Dims(d, d), pl.FP32)), f.In("b", pl.Tensor(pl.Dims(d, d), pl.FP32)),
			f.Out("out", pl.Tensor(pl.Dims(d, d), pl.FP32))
	}
	vec := prog.Function("vector_side", pl.AIV, func(f *pl.Func) {
		a, b, _ := params(f)
		ring := f.Let("ring", pl.ImportPeerBuffer("ring", "cube_side"))
		f.Do(pl.AivInitializePipe(0, ring, 2, slot, 0, 0))
		f.Do(pl.TpushToAic(pl.Add(pl.Load(a, pl.Dims(0, 0), pl.Dims(d, d)), pl.Load(b, pl.Dims(0, 0), pl.Dims(d, d))), 0, 0))
	})
	cube := prog.Function("cube_side", pl.AIC, func(f *pl.Func) {
		_, b, out := params(f)
		f.Returns(pl.Tensor(pl.Dims(d, d), pl.FP32))
		ring := f.Let("ring", pl.ReserveBuffer("ring", 8*slot, -1))
		f.Do(pl.AicInitializePipe(0, ring, 2, slot, 0, 0))
		sum := f.Let("sum", pl.TpopFromAiv(pl.Tile(pl.Dims(d, d), pl.FP32), 0, 0))
		prod := f.Let("prod", pl.Matmul(sum, pl.LoadTo(b, pl.Dims(0, 0), pl.Dims(d, d), pl.Mat)))
		f.Do(pl.TfreeToAiv(sum))
		f.Return(pl.Store(prod, pl.Dims(0, 0), out))
	})
	group := prog.Function("group", pl.Group, func(f *pl.Func) {
		a, b, out := params(f)
		f.Returns(pl.Tensor(pl.Dims(d, d), pl.FP32))
		r := f.Let("result", f.Call(cube, a, b, out))
		f.Do(f.Call(vec, a, b, out))
		f.Return(r)
	})
	prog.Orchestration("main", func(f *pl.Func) {
		a, b, out := params(f)
		f.Returns(pl.Tensor(pl.Dims(d, d), pl.FP32))
		f.Return(f.Call(group, a, b, out))
	})
	a, b := tensor.Randn(1, d, d), tensor.Randn(2, d, d)
	out := tensor.Zeros(pl.FP32, d, d)
	if _, err := pl.Compile(prog, pl.Ranks(1)).Run(pl.Ranks(1), a, b, out); err != nil {
		fmt.Println(err)
	}
	s := 0.0
	for k := 0; k < d; k++ {
		s += float64(float32(a.At(3, k)+b.At(3, k))) * b.At(k, 5)
	}
	fmt.Println(out.At(3, 5) == float64(float32(s)))
	// Output:
	// true
}
