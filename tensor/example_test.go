package tensor_test

import (
	"errors"
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

func ExampleFromFloat32() {
	x := tensor.FromFloat32([]float32{1, 2, 3, 4.5, 5, 6}, 2, 3)
	fmt.Println(x)
	fmt.Println(x.Shape(), x.DType(), x.Numel())
	// Output:
	// tensor([[1.0000, 2.0000, 3.0000],
	//         [4.5000, 5.0000, 6.0000]])
	// [2 3] pl.FP32 6
}

func ExampleFromInt32() {
	fmt.Println(tensor.FromInt32([]int32{1, 2, 3}))
	fmt.Println(tensor.FromInt32([]int32{1, -20, 300, 4}, 2, 2))
	// Output:
	// tensor([1, 2, 3], dtype=torch.int32)
	// tensor([[  1, -20],
	//         [300,   4]], dtype=torch.int32)
}

func ExampleZeros() {
	fmt.Println(tensor.Zeros(ir.FP32, 1, 3))
	fmt.Println(tensor.Zeros(ir.BF16, 2))
	fmt.Println(tensor.Zeros(ir.INT64)) // no dims: 0-d
	// Output:
	// tensor([[0., 0., 0.]])
	// tensor([0., 0.], dtype=torch.bfloat16)
	// tensor(0)
}

func ExampleRandn() {
	x := tensor.Randn(1, 2, 3)
	fmt.Println(x.Equal(tensor.Randn(1, 2, 3)))
	fmt.Println(x.DType(), x.Shape())
	// Output:
	// true
	// pl.FP32 [2 3]
}

func ExampleFromFloat64() {
	h := tensor.FromFloat64(ir.FP16, []float64{1 + 1.0/2048, 2049, 0.1})
	fmt.Println(h.Float64s())
	fmt.Println(h)
	// Output:
	// [1 2048 0.0999755859375]
	// tensor([1.0000e+00, 2.0480e+03, 9.9976e-02], dtype=torch.float16)
}

func ExampleArange() {
	fmt.Println(tensor.Arange(ir.FP32, 5))
	fmt.Println(tensor.Arange(ir.INT64, 5))
	// Output:
	// tensor([0., 1., 2., 3., 4.])
	// tensor([0, 1, 2, 3, 4])
}

func ExampleTensor_Slice() {
	x := tensor.Arange(ir.FP32, 6).Reshape(2, 3)
	row := x.Slice(1) // a view, like x[1] in torch
	row.Set(-1, 0)
	fmt.Println(x)
	// Output:
	// tensor([[ 0.,  1.,  2.],
	//         [-1.,  4.,  5.]])
}

func ExampleTensor_AllClose() {
	a := tensor.FromFloat32([]float32{1, 2, 3})
	b := tensor.FromFloat32([]float32{1, 2, 3.001})
	fmt.Println(a.AllClose(b, 1e-5, 1e-8), a.AllClose(b, 1e-3, 0))
	// Output:
	// false true
}

func ExampleTensor_String() {
	fmt.Println(tensor.Arange(ir.FP32, 2000).Reshape(40, 50))
	// Output:
	// tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 4.7000e+01, 4.8000e+01,
	//          4.9000e+01],
	//         [5.0000e+01, 5.1000e+01, 5.2000e+01,  ..., 9.7000e+01, 9.8000e+01,
	//          9.9000e+01],
	//         [1.0000e+02, 1.0100e+02, 1.0200e+02,  ..., 1.4700e+02, 1.4800e+02,
	//          1.4900e+02],
	//         ...,
	//         [1.8500e+03, 1.8510e+03, 1.8520e+03,  ..., 1.8970e+03, 1.8980e+03,
	//          1.8990e+03],
	//         [1.9000e+03, 1.9010e+03, 1.9020e+03,  ..., 1.9470e+03, 1.9480e+03,
	//          1.9490e+03],
	//         [1.9500e+03, 1.9510e+03, 1.9520e+03,  ..., 1.9970e+03, 1.9980e+03,
	//          1.9990e+03]])
}

func ExampleTensor_HTML() {
	fmt.Println(tensor.FromInt32([]int32{1, 2, 3, 4}, 2, 2).HTML())
	// Output:
	// <div class="tensor">
	// <table style="font-family:monospace;text-align:right">
	// <caption>tensor pl.INT32 [2, 2]</caption>
	// <tr><td>1</td><td>2</td></tr>
	// <tr><td>3</td><td>4</td></tr>
	// </table>
	// </div>
}

func ExampleTensor_Bytes() {
	x := tensor.FromFloat64(ir.FP16, []float64{1, -2})
	fmt.Printf("% x\n", x.Bytes())
	y := tensor.FromBytes(ir.FP16, []byte{0x00, 0x3c, 0x00, 0x40})
	fmt.Println(y)
	// Output:
	// 00 3c 00 c0
	// tensor([1., 2.], dtype=torch.float16)
}

func ExampleError() {
	defer func() {
		var e *tensor.Error
		if err, ok := recover().(error); ok && errors.As(err, &e) {
			fmt.Println(e)
		}
	}()
	tensor.FromFloat32([]float32{1, 2, 3, 4, 5}, 2, 3)
	// Output:
	// tensor.FromFloat32: expected 6 values for shape [2, 3], given 5
}
