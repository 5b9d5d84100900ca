package tensor

import (
	"math"
	"unsafe"

	"github.com/ptorepl/ptorepl/ir"
)

// littleEndian reports whether the host stores integers least significant byte first, so
// that the little-endian storage can be viewed as native typed slices.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// Bytes returns the tensor's storage: Numel()*ElementSize() little-endian element bytes in
// row-major order, the device layout (BOOL: one byte, 0 or 1). The slice aliases the
// tensor, so writes through it change the tensor (and every view sharing its storage);
// this is how a simulated device copies results back in place.
func (t *Tensor) Bytes() []byte { return t.data }

// view checks that t's dtype is one of dts for a typed view.
func (t *Tensor) view(fn string, dts ...ir.DataType) {
	for _, d := range dts {
		if t.dtype == d {
			if !littleEndian {
				fail(fn, "a little-endian host for typed views", "a big-endian host")
			}
			return
		}
	}
	names := ""
	for i, d := range dts {
		if i > 0 {
			names += " or "
		}
		names += d.String()
	}
	fail(fn, "a "+names+" tensor", t.dtype.String())
}

func (t *Tensor) base() unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(t.data)) }

// ViewFloat32 returns the elements of an FP32 tensor as a []float32 sharing its storage.
// Typed views panic with *Error on a dtype mismatch (and on big-endian hosts).
func (t *Tensor) ViewFloat32() []float32 {
	t.view("Tensor.ViewFloat32", ir.FP32)
	return unsafe.Slice((*float32)(t.base()), len(t.data)/4)
}

// ViewUint16 returns the raw bit patterns of an FP16 or BF16 tensor, sharing its storage.
func (t *Tensor) ViewUint16() []uint16 {
	t.view("Tensor.ViewUint16", ir.FP16, ir.BF16)
	return unsafe.Slice((*uint16)(t.base()), len(t.data)/2)
}

// ViewInt8 returns the elements of an INT8 tensor, sharing its storage.
func (t *Tensor) ViewInt8() []int8 {
	t.view("Tensor.ViewInt8", ir.INT8)
	return unsafe.Slice((*int8)(t.base()), len(t.data))
}

// ViewUint8 returns the elements of a UINT8 or BOOL tensor (0 or 1), sharing its storage.
func (t *Tensor) ViewUint8() []uint8 {
	t.view("Tensor.ViewUint8", ir.UINT8, ir.BOOL)
	return t.data
}

// ViewInt16 returns the elements of an INT16 tensor, sharing its storage.
func (t *Tensor) ViewInt16() []int16 {
	t.view("Tensor.ViewInt16", ir.INT16)
	return unsafe.Slice((*int16)(t.base()), len(t.data)/2)
}

// ViewInt32 returns the elements of an INT32 tensor, sharing its storage.
func (t *Tensor) ViewInt32() []int32 {
	t.view("Tensor.ViewInt32", ir.INT32)
	return unsafe.Slice((*int32)(t.base()), len(t.data)/4)
}

// ViewInt64 returns the elements of an INT64 or INDEX tensor, sharing its storage.
func (t *Tensor) ViewInt64() []int64 {
	t.view("Tensor.ViewInt64", ir.INT64, ir.INDEX)
	return unsafe.Slice((*int64)(t.base()), len(t.data)/8)
}

// Float32s returns a new []float32 of the elements in row-major order, converted (INT64
// beyond 2^24 and similar values round to nearest even).
func (t *Tensor) Float32s() []float32 {
	if t.dtype == ir.FP32 && littleEndian {
		return append(make([]float32, 0, t.Numel()), t.ViewFloat32()...)
	}
	out := make([]float32, t.Numel())
	b := t.data
	switch t.dtype {
	case ir.FP32:
		for i := range out {
			out[i] = math.Float32frombits(le.Uint32(b[4*i:]))
		}
	case ir.FP16:
		for i := range out {
			out[i] = fp16ToFloat32(le.Uint16(b[2*i:]))
		}
	case ir.BF16:
		for i := range out {
			out[i] = bf16ToFloat32(le.Uint16(b[2*i:]))
		}
	case ir.INT64, ir.INDEX:
		for i := range out {
			out[i] = float32(int64(le.Uint64(b[8*i:])))
		}
	default:
		for i := range out {
			out[i] = float32(load(t.dtype, b, i))
		}
	}
	return out
}

// Float64s returns a new []float64 of the elements, converted (exact except INT64 beyond
// 2^53).
func (t *Tensor) Float64s() []float64 {
	out := make([]float64, t.Numel())
	for i := range out {
		out[i] = load(t.dtype, t.data, i)
	}
	return out
}

// Int32s returns a new []int32 of the elements, converted like To(INT32): floats truncate
// toward zero, wider integers wrap.
func (t *Tensor) Int32s() []int32 {
	if t.dtype == ir.INT32 && littleEndian {
		return append(make([]int32, 0, t.Numel()), t.ViewInt32()...)
	}
	out := make([]int32, t.Numel())
	b := t.data
	switch t.dtype {
	case ir.INT32:
		for i := range out {
			out[i] = int32(le.Uint32(b[4*i:]))
		}
	default:
		for i := range out {
			out[i] = int32(loadInt(t.dtype, b, i))
		}
	}
	return out
}

// Int64s returns a new []int64 of the elements, converted (floats truncate toward zero,
// saturating; NaN gives 0).
func (t *Tensor) Int64s() []int64 {
	out := make([]int64, t.Numel())
	for i := range out {
		out[i] = loadInt(t.dtype, t.data, i)
	}
	return out
}
