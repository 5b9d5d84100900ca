package tensor

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
)

// mustPanic runs f and returns the *Error it panicked with.
func mustPanic(t *testing.T, f func()) (err *Error) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatalf("no panic")
		}
		e, ok := r.(error)
		if !ok || !errors.As(e, &err) {
			t.Fatalf("panic value %T %v, want *Error", r, r)
		}
	}()
	f()
	return nil
}

func TestFP16Rounding(t *testing.T) {
	cases := []struct {
		name string
		in   float64
		bits uint16
		want float64
	}{
		{"one", 1, 0x3C00, 1},
		{"tie 1+2^-11 to even", 1 + 0x1p-11, 0x3C00, 1},
		{"tie 1+3*2^-11 to even", 1 + 3*0x1p-11, 0x3C02, 1 + 0x1p-9},
		{"just above tie", 1 + 0x1p-11 + 0x1p-40, 0x3C01, 1 + 0x1p-10}, // float32 alone would double-round to 1
		{"2049 to 2048", 2049, 0x6800, 2048},
		{"2051 to 2052", 2051, 0x6802, 2052},
		{"0.1", 0.1, 0x2E66, 0.0999755859375},
		{"max", 65504, 0x7BFF, 65504},
		{"65519 to max", 65519, 0x7BFF, 65504},
		{"65520 to inf", 65520, 0x7C00, math.Inf(1)},
		{"min subnormal", 0x1p-24, 0x0001, 0x1p-24},
		{"half min subnormal to 0", 0x1p-25, 0x0000, 0},
		{"above half min subnormal", 0x1p-25 + 0x1p-60, 0x0001, 0x1p-24},
		{"negative", -2.5, 0xC100, -2.5},
		{"-inf", math.Inf(-1), 0xFC00, math.Inf(-1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := FromFloat64(ir.FP16, []float64{c.in})
			if got := x.ViewUint16()[0]; got != c.bits {
				t.Errorf("bits = %#04x, want %#04x", got, c.bits)
			}
			if got := x.At(0); got != c.want {
				t.Errorf("At = %v, want %v", got, c.want)
			}
		})
	}
	if v := FromFloat64(ir.FP16, []float64{math.NaN()}).At(0); !math.IsNaN(v) {
		t.Errorf("NaN became %v", v)
	}
}

func TestBF16Rounding(t *testing.T) {
	cases := []struct {
		name string
		in   float64
		bits uint16
	}{
		{"one", 1, 0x3F80},
		{"tie 1+2^-8 to even", 1 + 0x1p-8, 0x3F80},
		{"tie 1+3*2^-8 to even", 1 + 3*0x1p-8, 0x3F82},
		{"just above tie", 1 + 0x1p-8 + 0x1p-30, 0x3F81}, // float32 alone would double-round to 1
		{"0.1", 0.1, 0x3DCD},
		{"pi", 3.14159, 0x4049},
		{"-2", -2, 0xC000},
		{"max float32 to inf", math.MaxFloat32, 0x7F80},
		{"nan", math.NaN(), 0x7FC0},
		{"-inf", math.Inf(-1), 0xFF80},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := FromFloat64(ir.BF16, []float64{c.in}).ViewUint16()[0]; got != c.bits {
				t.Errorf("FromFloat64 bits = %#04x, want %#04x", got, c.bits)
			}
			if c.name == "just above tie" {
				return // not representable in float32
			}
			if got := FromFloat32([]float32{float32(c.in)}).To(ir.BF16).ViewUint16()[0]; got != c.bits {
				t.Errorf("To(BF16) bits = %#04x, want %#04x", got, c.bits)
			}
		})
	}
	if got := FromFloat64(ir.BF16, []float64{0.1}).At(0); got != 0.10009765625 {
		t.Errorf("BF16 0.1 reads back %v", got)
	}
}

func TestIntegerConversions(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		dt   ir.DataType
		in   []float64
		want []int64
	}{
		{ir.INT8, []float64{200, -129, 2.9, -2.9, nan}, []int64{-56, 127, 2, -2, 0}},
		{ir.UINT8, []float64{-1, 256.5, 255}, []int64{255, 0, 255}},
		{ir.INT16, []float64{40000, -3.5}, []int64{-25536, -3}},
		{ir.INT32, []float64{1 << 31, -1 << 31}, []int64{-1 << 31, -1 << 31}},
		{ir.INT64, []float64{1e30, -1e30, math.Inf(1)}, []int64{math.MaxInt64, math.MinInt64, math.MaxInt64}},
		{ir.INDEX, []float64{7}, []int64{7}},
		{ir.UINT16, []float64{-1, 65536.5, 65535}, []int64{65535, 0, 65535}},
		{ir.UINT32, []float64{-1, 1 << 32, 3e9}, []int64{1<<32 - 1, 0, 3e9}},
		{ir.UINT64, []float64{5, 1 << 40}, []int64{5, 1 << 40}},
		{ir.BOOL, []float64{0, math.Copysign(0, -1), 0.5, nan, -3}, []int64{0, 0, 1, 1, 1}},
	}
	for _, c := range cases {
		t.Run(c.dt.Name(), func(t *testing.T) {
			got := FromFloat64(c.dt, c.in).Int64s()
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("%v -> %d, want %d", c.in[i], got[i], c.want[i])
				}
			}
		})
	}
}

func TestTo(t *testing.T) {
	big := FromInt64([]int64{math.MaxInt64, -5, 1<<53 + 1})
	if got := big.To(ir.INT32).Int32s(); got[0] != -1 || got[1] != -5 || got[2] != 1 {
		t.Errorf("INT64->INT32 wraps: got %v", got)
	}
	if got := big.To(ir.FP32).Float32s(); got[0] != 0x1p63 || got[1] != -5 || got[2] != 0x1p53 {
		t.Errorf("INT64->FP32: got %v", got)
	}
	// 2^60 + 2^52 + 1 is just above a BF16 tie; rounding through float64 alone would tie to even.
	if got := FromInt64([]int64{1<<60 + 1<<52 + 1}).To(ir.BF16).At(0); got != 0x1p60+0x1p53 {
		t.Errorf("INT64->BF16: got %v", got)
	}
	f := FromFloat32([]float32{-1.5, 2.5, 1e10})
	if got := f.To(ir.INT64).Int64s(); got[0] != -1 || got[1] != 2 || got[2] != 1e10 {
		t.Errorf("FP32->INT64: got %v", got)
	}
	if got := f.To(ir.FP16).Float32s(); got[0] != -1.5 || got[1] != 2.5 || !math.IsInf(float64(got[2]), 1) {
		t.Errorf("FP32->FP16: got %v", got)
	}
	c := f.To(ir.FP32)
	c.Set(9, 0)
	if f.At(0) != -1.5 {
		t.Errorf("To(same dtype) must copy")
	}
}

func TestAccessorsConvert(t *testing.T) {
	x := FromFloat64(ir.FP16, []float64{1.5, -2.75, 3})
	if got := x.Float32s(); got[0] != 1.5 || got[1] != -2.75 || got[2] != 3 {
		t.Errorf("Float32s = %v", got)
	}
	if got := x.Int32s(); got[0] != 1 || got[1] != -2 || got[2] != 3 {
		t.Errorf("Int32s = %v", got)
	}
	if got := x.Float64s(); got[1] != -2.75 {
		t.Errorf("Float64s = %v", got)
	}
	y := Arange(ir.INT16, 4)
	if got := y.Float32s(); got[3] != 3 {
		t.Errorf("INT16 Float32s = %v", got)
	}
	if got := FromFloat64(ir.BF16, []float64{-0.5}).Float32s(); got[0] != -0.5 {
		t.Errorf("BF16 Float32s = %v", got)
	}
}

func TestConstructors(t *testing.T) {
	if z := Zeros(ir.FP32); z.Dim() != 0 || z.Numel() != 1 || z.At() != 0 {
		t.Errorf("0-d zeros: dim %d numel %d", z.Dim(), z.Numel())
	}
	o := Ones(ir.BF16, 2, 3)
	for _, v := range o.Float64s() {
		if v != 1 {
			t.Fatalf("Ones: %v", o.Float64s())
		}
	}
	f := Full(ir.FP16, 0.1, 5)
	for _, v := range f.Float64s() {
		if v != 0.0999755859375 {
			t.Fatalf("Full FP16 0.1: %v", f.Float64s())
		}
	}
	if got := Full(ir.INT32, -2.7, 2).Int32s(); got[0] != -2 || got[1] != -2 {
		t.Errorf("Full INT32 -2.7 = %v, want truncation", got)
	}
	a := Arange(ir.FP16, 2050)
	if a.At(2049) != 2048 || a.At(2048) != 2048 || a.At(2047) != 2047 {
		t.Errorf("Arange FP16 rounding: %v %v %v", a.At(2047), a.At(2048), a.At(2049))
	}
	if a := Arange(ir.INT32, 0); a.Numel() != 0 || a.Dim() != 1 {
		t.Errorf("Arange 0: %v", a.Shape())
	}
	x := FromInt32([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	if s := x.Shape(); len(s) != 2 || s[0] != 2 || s[1] != 3 || x.DType() != ir.INT32 || x.Numel() != 6 {
		t.Errorf("FromInt32 shape %v dtype %v", s, x.DType())
	}
	x.Shape()[0] = 99
	if x.Shape()[0] != 2 {
		t.Errorf("Shape must return a copy")
	}
	data := []float32{1, 2}
	y := FromFloat32(data)
	data[0] = 7
	if y.At(0) != 1 {
		t.Errorf("FromFloat32 must copy its data")
	}
	if e := Zeros(ir.FP32, 3, 0, 2); e.Numel() != 0 || len(e.Bytes()) != 0 {
		t.Errorf("empty tensor numel %d", e.Numel())
	}
}

func TestRandn(t *testing.T) {
	a, b := Randn(42, 1000), Randn(42, 1000)
	if !a.Equal(b) {
		t.Fatal("same seed gave different tensors")
	}
	if Randn(43, 1000).Equal(a) {
		t.Fatal("different seeds gave the same tensor")
	}
	if a.DType() != ir.FP32 {
		t.Fatalf("dtype %v", a.DType())
	}
	const n = 100000
	v := Randn(1, n).Float64s()
	var sum, sq float64
	for _, x := range v {
		sum += x
	}
	mean := sum / n
	for _, x := range v {
		sq += (x - mean) * (x - mean)
	}
	std := math.Sqrt(sq / n)
	if math.Abs(mean) > 0.015 || math.Abs(std-1) > 0.015 {
		t.Errorf("mean %.4f std %.4f, want about 0 and 1", mean, std)
	}
	// A prefix of a longer draw is the shorter draw: element k is the k-th sample.
	if !Randn(9, 6).Equal(Randn(9, 2, 5).Reshape(-1).sliceRange(0, 6)) {
		t.Errorf("samples depend on the shape")
	}
}

// sliceRange is a 1-D test helper: elements [lo, hi) as a copy.
func (t *Tensor) sliceRange(lo, hi int) *Tensor {
	es := itemSize(t.dtype)
	return FromBytes(t.dtype, t.data[lo*es:hi*es])
}

func TestEqual(t *testing.T) {
	nan := math.NaN()
	f := func(v ...float64) *Tensor { return FromFloat64(ir.FP32, v) }
	cases := []struct {
		name string
		a, b *Tensor
		want bool
	}{
		{"same", f(1, 2), f(1, 2), true},
		{"value", f(1, 2), f(1, 3), false},
		{"shape", f(1, 2), f(1, 2).Reshape(2, 1), false},
		{"dtype", f(1, 2), FromFloat64(ir.FP16, []float64{1, 2}), false},
		{"nan", f(nan), f(nan), false},
		{"signed zero", f(0), f(math.Copysign(0, -1)), true},
		{"ints", FromInt32([]int32{1, 2}), FromInt32([]int32{1, 2}), true},
		{"ints differ", FromInt32([]int32{1, 2}), FromInt32([]int32{1, 3}), false},
		{"bools", FromFloat64(ir.BOOL, []float64{1, 0}), FromBytes(ir.BOOL, []byte{5, 0}), true},
		{"empty", Zeros(ir.FP32, 0), Zeros(ir.FP32, 0), true},
		{"nil", f(1), nil, false},
	}
	for _, c := range cases {
		if got := c.a.Equal(c.b); got != c.want {
			t.Errorf("%s: Equal = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestAllClose(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	f := func(v ...float64) *Tensor { return FromFloat64(ir.FP32, v) }
	cases := []struct {
		name       string
		a, b       *Tensor
		rtol, atol float64
		want       bool
	}{
		{"identical", f(1, 2), f(1, 2), 0, 0, true},
		{"within atol", f(1), f(1.001), 0, 0.01, true},
		{"outside atol", f(1), f(1.1), 0, 0.01, false},
		{"rtol scales |b|", f(0), f(1), 1, 0, true},
		{"rtol is asymmetric", f(1), f(0), 1, 0, false},
		{"boundary inclusive", f(0), f(0.5), 0, 0.5, true},
		{"inf equal", f(inf), f(inf), 0, 0, true},
		{"inf opposite", f(inf), f(-inf), 1, 1, false},
		{"inf vs finite", f(inf), f(3e38), 1, 1, false},
		{"nan never close", f(nan), f(nan), 1, 1, false},
		{"nan vs number", f(nan), f(1), 1, 1, false},
		{"shape mismatch", f(1, 2), f(1, 2).Reshape(1, 2), 1, 1, false},
		{"across dtypes", FromFloat64(ir.FP16, []float64{0.1}), f(0.1), 1e-3, 0, true},
		{"across dtypes strict", FromFloat64(ir.FP16, []float64{0.1}), f(0.1), 1e-5, 0, false},
		{"ints", FromInt32([]int32{100}), FromInt32([]int32{101}), 0.01, 0, true},
		{"empty", Zeros(ir.FP32, 0), Zeros(ir.FP32, 0), 0, 0, true},
	}
	for _, c := range cases {
		if got := c.a.AllClose(c.b, c.rtol, c.atol); got != c.want {
			t.Errorf("%s: AllClose = %v, want %v", c.name, got, c.want)
		}
	}
	e := mustPanic(t, func() { f(1).AllClose(f(1), -1, 0) })
	if !strings.Contains(e.Error(), "rtol >= 0") {
		t.Errorf("message %q", e)
	}
	mustPanic(t, func() { f(1).AllClose(f(1), 0, -1e-9) })
}

func TestViewsShareStorage(t *testing.T) {
	x := Arange(ir.FP32, 6).Reshape(2, 3)
	row := x.Slice(1)
	if s := row.Shape(); len(s) != 1 || s[0] != 3 || row.At(0) != 3 {
		t.Fatalf("Slice(1) shape %v first %v", s, row.At(0))
	}
	row.Set(42, 0)
	if x.At(1, 0) != 42 {
		t.Errorf("write through slice not seen in source")
	}
	x.Set(7, 1, 2)
	if row.At(2) != 7 || row.At(-1) != 7 {
		t.Errorf("write to source not seen in slice")
	}
	if last := x.Slice(-1); last.At(0) != 42 {
		t.Errorf("Slice(-1) = %v", last)
	}
	elem := row.Slice(1)
	if elem.Dim() != 0 || elem.At() != 4 {
		t.Errorf("slice of a 1-D tensor is 0-d: %v", elem)
	}
	elem.Set(-1)
	if x.At(1, 1) != -1 {
		t.Errorf("0-d view does not share storage")
	}
	flat := x.Reshape(-1)
	flat.Set(100, 0)
	if x.At(0, 0) != 100 {
		t.Errorf("Reshape is not a view")
	}
	x.ViewFloat32()[1] = 5
	if flat.At(1) != 5 {
		t.Errorf("ViewFloat32 is not a view")
	}
	x.Bytes()[8], x.Bytes()[9], x.Bytes()[10], x.Bytes()[11] = 0, 0, 0x80, 0x3F // 1.0f at element 2
	if x.At(0, 2) != 1 {
		t.Errorf("Bytes is not a view: %v", x.At(0, 2))
	}
	// A view's byte slice cannot grow into its neighbour.
	b0 := x.Slice(0).Bytes()
	_ = append(b0, 1, 2, 3, 4)
	if x.At(1, 0) != 42 {
		t.Errorf("append to a slice's Bytes overwrote the next row")
	}
	c := x.Clone()
	c.Set(0, 0, 0)
	if x.At(0, 0) != 100 {
		t.Errorf("Clone shares storage")
	}
	if !c.Slice(1).Equal(x.Slice(1)) {
		t.Errorf("Clone differs")
	}
}

func TestReshape(t *testing.T) {
	x := Arange(ir.INT32, 24)
	cases := []struct {
		dims []int
		want []int
	}{
		{[]int{2, 3, 4}, []int{2, 3, 4}},
		{[]int{-1, 6}, []int{4, 6}},
		{[]int{2, -1, 3}, []int{2, 4, 3}},
		{[]int{24}, []int{24}},
	}
	for _, c := range cases {
		got := x.Reshape(c.dims...).Shape()
		if dimsString(got) != dimsString(c.want) {
			t.Errorf("Reshape%v = %v, want %v", c.dims, got, c.want)
		}
	}
	if s := FromFloat32([]float32{3}).Reshape().Shape(); len(s) != 0 {
		t.Errorf("Reshape() of one element = %v, want 0-d", s)
	}
}

func TestBytesLayout(t *testing.T) {
	cases := []struct {
		name string
		x    *Tensor
		want []byte
	}{
		{"INT32", FromInt32([]int32{1, -2}), []byte{1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF}},
		{"FP32", FromFloat32([]float32{1}), []byte{0, 0, 0x80, 0x3F}},
		{"FP16", FromFloat64(ir.FP16, []float64{1, -2}), []byte{0x00, 0x3C, 0x00, 0xC0}},
		{"BF16", FromFloat64(ir.BF16, []float64{1}), []byte{0x80, 0x3F}},
		{"INT64", FromInt64([]int64{258}), []byte{2, 1, 0, 0, 0, 0, 0, 0}},
		{"INT16", FromFloat64(ir.INT16, []float64{-1}), []byte{0xFF, 0xFF}},
		{"BOOL", FromFloat64(ir.BOOL, []float64{0, 2}), []byte{0, 1}},
		{"UINT8", Arange(ir.UINT8, 3), []byte{0, 1, 2}},
		{"INT8", FromFloat64(ir.INT8, []float64{-1}), []byte{0xFF}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.x.Bytes(); string(got) != string(c.want) {
				t.Errorf("Bytes = % x, want % x", got, c.want)
			}
			if c.x.NBytes() != len(c.want) || c.x.ElementSize()*c.x.Numel() != len(c.want) {
				t.Errorf("NBytes %d ElementSize %d", c.x.NBytes(), c.x.ElementSize())
			}
			back := FromBytes(c.x.DType(), c.want, c.x.Shape()...)
			if !back.Equal(c.x) {
				t.Errorf("FromBytes round trip: %v vs %v", back, c.x)
			}
			c.want[0] ^= 0xFF
			if !back.Equal(c.x) {
				t.Errorf("FromBytes must copy")
			}
		})
	}
	if s := FromBytes(ir.FP16, make([]byte, 12)).Shape(); len(s) != 1 || s[0] != 6 {
		t.Errorf("FromBytes without dims: shape %v", s)
	}
	if s := FromBytes(ir.INT32, make([]byte, 24), 2, 3).Shape(); dimsString(s) != "[2, 3]" {
		t.Errorf("FromBytes with dims: shape %v", s)
	}
}

func TestTypedViews(t *testing.T) {
	if v := FromInt32([]int32{4, 5}).ViewInt32(); len(v) != 2 || v[1] != 5 {
		t.Errorf("ViewInt32 %v", v)
	}
	if v := FromInt64([]int64{-9}).ViewInt64(); v[0] != -9 {
		t.Errorf("ViewInt64 %v", v)
	}
	if v := Arange(ir.INDEX, 3).ViewInt64(); v[2] != 2 {
		t.Errorf("ViewInt64 INDEX %v", v)
	}
	if v := FromFloat64(ir.INT16, []float64{-7}).ViewInt16(); v[0] != -7 {
		t.Errorf("ViewInt16 %v", v)
	}
	if v := FromFloat64(ir.INT8, []float64{-7}).ViewInt8(); v[0] != -7 {
		t.Errorf("ViewInt8 %v", v)
	}
	if v := FromFloat64(ir.BOOL, []float64{3}).ViewUint8(); v[0] != 1 {
		t.Errorf("ViewUint8 BOOL %v", v)
	}
	if v := Zeros(ir.FP32, 0).ViewFloat32(); len(v) != 0 {
		t.Errorf("empty view %v", v)
	}
	e := mustPanic(t, func() { Zeros(ir.INT32, 2).ViewFloat32() })
	if e.Error() != "Tensor.ViewFloat32: expected a pl.FP32 tensor, given pl.INT32" {
		t.Errorf("message %q", e)
	}
	e = mustPanic(t, func() { Zeros(ir.FP32, 2).ViewUint16() })
	if !strings.Contains(e.Error(), "pl.FP16 or pl.BF16") {
		t.Errorf("message %q", e)
	}
}

func TestErrors(t *testing.T) {
	x := Arange(ir.FP32, 6).Reshape(2, 3)
	cases := []struct {
		name string
		f    func()
		want string
	}{
		{"data length", func() { FromFloat32([]float32{1, 2, 3, 4, 5}, 2, 3) },
			"tensor.FromFloat32: expected 6 values for shape [2, 3], given 5"},
		{"int data length", func() { FromInt32([]int32{1}, 2) },
			"tensor.FromInt32: expected 2 values for shape [2], given 1"},
		{"negative dim", func() { Zeros(ir.FP32, 2, -1) },
			"tensor.Zeros: expected non-negative dimensions, given [2, -1]"},
		{"huge", func() { Zeros(ir.FP32, 1<<30, 1<<30) },
			"tensor.Zeros: expected a shape of at most 2^48 elements, given [1073741824, 1073741824]"},
		{"unsupported dtype", func() { Zeros(ir.FP8E4M3FN, 2) },
			"tensor.Zeros: expected a dtype among pl.BOOL, pl.INT8, pl.INT16, pl.INT32, pl.INT64, pl.INDEX, pl.UINT8, pl.FP16, pl.FP32, pl.BF16, pl.UINT16, pl.UINT32, pl.UINT64, given pl.FP8E4M3FN"},
		{"bytes count", func() { FromBytes(ir.FP32, make([]byte, 7)) },
			"tensor.FromBytes: expected a byte count divisible by the pl.FP32 element size 4, given 7 bytes"},
		{"bytes for shape", func() { FromBytes(ir.FP16, make([]byte, 8), 3) },
			"tensor.FromBytes: expected 6 bytes for pl.FP16 shape [3], given 8 bytes"},
		{"reshape count", func() { x.Reshape(4, 2) },
			"Tensor.Reshape: expected a shape with 6 elements (shape [2, 3]), given [4, 2]"},
		{"reshape infer", func() { x.Reshape(-1, 4) },
			"Tensor.Reshape: expected a shape compatible with 6 elements (shape [2, 3]), given [-1, 4]"},
		{"reshape two -1", func() { x.Reshape(-1, -1) },
			"Tensor.Reshape: expected non-negative dimensions with at most one -1, given [-1, -1]"},
		{"index range", func() { x.At(2, 0) },
			"Tensor.At: expected index 0 in [-2, 2) for shape [2, 3], given 2"},
		{"index arity", func() { x.At(1) },
			"Tensor.At: expected 2 indices for shape [2, 3], given 1 indices [1]"},
		{"set range", func() { x.Set(1, 0, -4) },
			"Tensor.Set: expected index 1 in [-3, 3) for shape [2, 3], given -4"},
		{"slice range", func() { x.Slice(5) },
			"Tensor.Slice: expected index in [-2, 2) for shape [2, 3], given 5"},
		{"slice 0-d", func() { Zeros(ir.FP32).Slice(0) },
			"Tensor.Slice: expected a tensor with at least one dimension, given a 0-d tensor"},
		{"full int8 overflow", func() { Full(ir.INT8, 200, 2) },
			"tensor.Full: expected a value representable in pl.INT8 without overflow, given 200"},
		{"full uint8 negative", func() { Full(ir.UINT8, -1, 2) },
			"tensor.Full: expected a value representable in pl.UINT8 without overflow, given -1"},
		{"full fp16 overflow", func() { Full(ir.FP16, 1e6, 2) },
			"tensor.Full: expected a value representable in pl.FP16 without overflow, given 1e+06"},
		{"set nan into int", func() { Zeros(ir.INT32, 1).Set(math.NaN(), 0) },
			"Tensor.Set: expected a value representable in pl.INT32 without overflow, given NaN"},
		{"full int8 before truncation", func() { Full(ir.INT8, 127.5, 2) },
			"tensor.Full: expected a value representable in pl.INT8 without overflow, given 127.5"},
		{"full fp16 before rounding", func() { Full(ir.FP16, 65519, 2) },
			"tensor.Full: expected a value representable in pl.FP16 without overflow, given 65519"},
		{"full bf16", func() { Full(ir.BF16, 3.4e38) },
			"tensor.Full: expected a value representable in pl.BF16 without overflow, given 3.4e+38"},
		{"full fp32", func() { Full(ir.FP32, 1e39) },
			"tensor.Full: expected a value representable in pl.FP32 without overflow, given 1e+39"},
		{"set int64 2^63", func() { Zeros(ir.INT64, 1).Set(0x1p63, 0) },
			"Tensor.Set: expected a value representable in pl.INT64 without overflow, given 9.223372036854776e+18"},
		{"arange bool", func() { Arange(ir.BOOL, 3) },
			"tensor.Arange: expected a numeric dtype, given pl.BOOL"},
		{"arange negative", func() { Arange(ir.INT32, -1) },
			"tensor.Arange: expected n >= 0, given -1"},
		{"to unsupported", func() { x.To(ir.FP8E4M3FN) },
			"Tensor.To: expected a dtype among pl.BOOL, pl.INT8, pl.INT16, pl.INT32, pl.INT64, pl.INDEX, pl.UINT8, pl.FP16, pl.FP32, pl.BF16, pl.UINT16, pl.UINT32, pl.UINT64, given pl.FP8E4M3FN"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := mustPanic(t, c.f)
			if e.Error() != c.want {
				t.Errorf("message\n got %q\nwant %q", e.Error(), c.want)
			}
		})
	}
	// Values torch accepts do not panic.
	Full(ir.FP16, math.Inf(-1), 1)
	Full(ir.FP16, math.NaN(), 1)
	Full(ir.INT8, -128, 1)
	Full(ir.FP16, 65504, 1)
	Full(ir.BF16, -3.3895313892515355e38, 1)
	Full(ir.FP32, math.MaxFloat32, 1)
	Full(ir.BOOL, math.NaN(), 1)
	Zeros(ir.INT64, 1).Set(-0x1p63, 0)
}
