package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// A while loop in a kernel and a loop that breaks: CtrlFlowTransform turns
// the for loop with a break into a while over a counter, ConvertToSSA
// carries j and the counter, and both run as written and compiled.
func ExampleFunc_While() {
	prog := pl.NewProgram("Loops")
	prog.Orchestration("main", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(4, 8), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(4, 8), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(4, 8), pl.FP32))
		f.InCoreScope("loops", func() {
			// Rows 0 and 2 doubled: j steps by two while it is below 4.
			j := f.Let("j", pl.Const(0, pl.INDEX))
			f.While(pl.Lt(j, 4), func() {
				t := f.Let("t", pl.Load(a, pl.Dims(j, 0), pl.Dims(1, 8)))
				f.Do(pl.Store(pl.Mul(t, 2.0), pl.Dims(j, 0), out))
				f.Set(j, pl.Add(j, 2))
			})
			// Row 1 negated; the loop breaks at row 2.
			f.For("i", pl.Range(1, 4, 2), func(i pl.Expr) {
				f.If(pl.Ge(i, 2), func() { f.Break() })
				t := f.Let("u", pl.Load(a, pl.Dims(i, 0), pl.Dims(1, 8)))
				f.Do(pl.Store(pl.Neg(t), pl.Dims(i, 0), out))
			})
		})
		f.Return(out)
	})
	a := tensor.Full(ir.FP32, 3, 4, 8)
	out := tensor.Zeros(ir.FP32, 4, 8)
	if _, err := pl.Run(prog, pl.Ranks(1), a, out); err != nil {
		fmt.Println(err)
	}
	fmt.Println("as written:", out.At(0, 0), out.At(1, 0), out.At(2, 0), out.At(3, 0))
	c := pl.Compile(prog, pl.Ranks(1))
	st, _ := c.Stage("CtrlFlowTransform")
	fmt.Println(st.Changed)
	out = tensor.Zeros(ir.FP32, 4, 8)
	if _, err := c.Run(pl.Ranks(1), a, out); err != nil {
		fmt.Println(err)
	}
	fmt.Println("compiled:", out.At(0, 0), out.At(1, 0), out.At(2, 0), out.At(3, 0))
	// Output:
	// as written: 6 -3 6 0
	// true
	// compiled: 6 -3 6 0
}
