package tensor

import (
	"encoding/binary"
	"math"

	"github.com/x448/float16"

	"github.com/ptorepl/ptorepl/ir"
)

var le = binary.LittleEndian

// supportedDTypes lists the element types a host tensor can hold, in code order.
var supportedDTypes = []ir.DataType{
	ir.BOOL, ir.INT8, ir.INT16, ir.INT32, ir.INT64, ir.INDEX, ir.UINT8, ir.FP16, ir.FP32, ir.BF16,
	ir.UINT16, ir.UINT32, ir.UINT64,
}

// Supported reports whether a host tensor can hold elements of type dt.
func Supported(dt ir.DataType) bool {
	switch dt {
	case ir.BOOL, ir.INT8, ir.INT16, ir.INT32, ir.INT64, ir.INDEX, ir.UINT8, ir.FP16, ir.FP32, ir.BF16,
		ir.UINT16, ir.UINT32, ir.UINT64:
		return true
	}
	return false
}

// itemSize is the storage size of one element in bytes. BOOL takes one byte (0 or 1), as
// in torch, although ir.BOOL.Bits() is 1.
func itemSize(dt ir.DataType) int {
	if dt == ir.BOOL {
		return 1
	}
	return dt.Bytes()
}

// ---- FP16 / BF16 ----

// roundToOdd32 converts x to float32 rounding to odd: an inexact result gets its last
// mantissa bit set. Rounding that result to nearest-even at 11 or 8 significant bits
// (FP16, BF16) then gives the correctly rounded value of x, with no double-rounding error,
// because float32 carries at least 2p+2 bits for both.
func roundToOdd32(x float64) float32 {
	f := float32(x)
	if float64(f) == x || x != x {
		return f
	}
	b := math.Float32bits(f)
	if b&1 == 1 {
		return f
	}
	if math.Abs(float64(f)) > math.Abs(x) {
		b-- // toward zero (Inf becomes MaxFloat32)
	} else {
		b++ // away from zero (0 becomes the smallest subnormal)
	}
	return math.Float32frombits(b)
}

func fp16FromFloat32(f float32) uint16 { return float16.Fromfloat32(f).Bits() }
func fp16FromFloat64(x float64) uint16 { return fp16FromFloat32(roundToOdd32(x)) }
func fp16ToFloat32(h uint16) float32   { return float16.Frombits(h).Float32() }

// bf16FromFloat32 keeps the top 16 bits of f, rounding to nearest even; NaN becomes the
// canonical quiet NaN 0x7FC0 (as torch's c10::BFloat16 does).
func bf16FromFloat32(f float32) uint16 {
	u := math.Float32bits(f)
	if f != f {
		return 0x7FC0
	}
	u += 0x7FFF + (u>>16)&1
	return uint16(u >> 16)
}
func bf16FromFloat64(x float64) uint16 { return bf16FromFloat32(roundToOdd32(x)) }
func bf16ToFloat32(h uint16) float32   { return math.Float32frombits(uint32(h) << 16) }

// int64ToOdd64 converts v to float64 rounding to odd, so that a later round-to-odd to
// float32 and round-to-nearest-even to FP16/BF16 stays correctly rounded.
func int64ToOdd64(v int64) float64 {
	d := float64(v)
	if d >= 0x1p63 {
		// v <= MaxInt64 < 2^63: inexact and rounded up.
		return math.Nextafter(d, 0)
	}
	back := int64(d)
	if back == v {
		return d
	}
	if math.Float64bits(d)&1 == 1 {
		return d
	}
	if back > v {
		return math.Nextafter(d, math.Inf(-1))
	}
	return math.Nextafter(d, math.Inf(1))
}

// ---- scalar conversions ----

// floatToInt64 truncates toward zero, saturating at the int64 range; NaN gives 0.
func floatToInt64(x float64) int64 {
	switch {
	case x != x:
		return 0
	case x >= 0x1p63:
		return math.MaxInt64
	case x < -0x1p63:
		return math.MinInt64
	}
	return int64(x)
}

// load reads element i of a dt buffer as float64 (exact for every type but INT64/INDEX
// values beyond 2^53).
func load(dt ir.DataType, b []byte, i int) float64 {
	switch dt {
	case ir.FP32:
		return float64(math.Float32frombits(le.Uint32(b[4*i:])))
	case ir.FP16:
		return float64(fp16ToFloat32(le.Uint16(b[2*i:])))
	case ir.BF16:
		return float64(bf16ToFloat32(le.Uint16(b[2*i:])))
	case ir.INT32:
		return float64(int32(le.Uint32(b[4*i:])))
	case ir.INT64, ir.INDEX:
		return float64(int64(le.Uint64(b[8*i:])))
	case ir.INT16:
		return float64(int16(le.Uint16(b[2*i:])))
	case ir.INT8:
		return float64(int8(b[i]))
	case ir.UINT8:
		return float64(b[i])
	case ir.UINT16:
		return float64(le.Uint16(b[2*i:]))
	case ir.UINT32:
		return float64(le.Uint32(b[4*i:]))
	case ir.UINT64:
		return float64(le.Uint64(b[8*i:]))
	case ir.BOOL:
		if b[i] != 0 {
			return 1
		}
		return 0
	}
	panic("tensor: internal: unsupported dtype " + dt.String())
}

// loadInt reads element i as int64; floating values are truncated toward zero (saturating,
// NaN gives 0).
func loadInt(dt ir.DataType, b []byte, i int) int64 {
	switch dt {
	case ir.INT32:
		return int64(int32(le.Uint32(b[4*i:])))
	case ir.INT64, ir.INDEX:
		return int64(le.Uint64(b[8*i:]))
	case ir.INT16:
		return int64(int16(le.Uint16(b[2*i:])))
	case ir.INT8:
		return int64(int8(b[i]))
	case ir.UINT8:
		return int64(b[i])
	case ir.UINT16:
		return int64(le.Uint16(b[2*i:]))
	case ir.UINT32:
		return int64(le.Uint32(b[4*i:]))
	case ir.UINT64:
		return int64(le.Uint64(b[8*i:])) // values past 2^63 wrap, as torch's uint64 .long() does
	case ir.BOOL:
		if b[i] != 0 {
			return 1
		}
		return 0
	}
	return floatToInt64(load(dt, b, i))
}

// store writes x as element i, converting like torch's Tensor.to: floats round to nearest
// even, integers truncate toward zero and wrap modulo 2^bits (after saturating to the int64
// range; NaN gives 0), BOOL stores x != 0.
func store(dt ir.DataType, b []byte, i int, x float64) {
	switch dt {
	case ir.FP32:
		le.PutUint32(b[4*i:], math.Float32bits(float32(x)))
	case ir.FP16:
		le.PutUint16(b[2*i:], fp16FromFloat64(x))
	case ir.BF16:
		le.PutUint16(b[2*i:], bf16FromFloat64(x))
	case ir.BOOL:
		if x != 0 {
			b[i] = 1
		} else {
			b[i] = 0
		}
	default:
		storeInt(dt, b, i, floatToInt64(x))
	}
}

// storeInt writes v as element i: integers wrap, floats round to nearest even.
func storeInt(dt ir.DataType, b []byte, i int, v int64) {
	switch dt {
	case ir.INT32:
		le.PutUint32(b[4*i:], uint32(v))
	case ir.INT64, ir.INDEX:
		le.PutUint64(b[8*i:], uint64(v))
	case ir.INT16, ir.UINT16:
		le.PutUint16(b[2*i:], uint16(v))
	case ir.UINT32:
		le.PutUint32(b[4*i:], uint32(v))
	case ir.UINT64:
		le.PutUint64(b[8*i:], uint64(v))
	case ir.INT8, ir.UINT8:
		b[i] = byte(v)
	case ir.BOOL:
		if v != 0 {
			b[i] = 1
		} else {
			b[i] = 0
		}
	case ir.FP32:
		le.PutUint32(b[4*i:], math.Float32bits(float32(v)))
	case ir.FP16:
		le.PutUint16(b[2*i:], fp16FromFloat64(int64ToOdd64(v)))
	case ir.BF16:
		le.PutUint16(b[2*i:], bf16FromFloat64(int64ToOdd64(v)))
	default:
		panic("tensor: internal: unsupported dtype " + dt.String())
	}
}

// intRange is the value range of an integer dtype.
func intRange(dt ir.DataType) (lo, hi float64) {
	switch dt {
	case ir.INT8:
		return math.MinInt8, math.MaxInt8
	case ir.INT16:
		return math.MinInt16, math.MaxInt16
	case ir.INT32:
		return math.MinInt32, math.MaxInt32
	case ir.UINT8:
		return 0, math.MaxUint8
	case ir.UINT16:
		return 0, math.MaxUint16
	case ir.UINT32:
		return 0, math.MaxUint32
	case ir.UINT64:
		return 0, 0x1p64
	}
	return -0x1p63, 0x1p63 // INT64, INDEX: [-2^63, 2^63)
}

// checkScalar panics, as torch does for a Python float written into a tensor (full,
// fill_, item assignment), when x lies outside dt's range before any rounding: for
// floating dtypes a finite x beyond the largest finite value (so 65519 is rejected for
// FP16 although it would round to 65504; NaN and ±Inf are accepted), for integer dtypes
// an x outside [min, max] (so 127.5 and NaN are rejected for INT8). BOOL accepts anything.
func checkScalar(fn string, dt ir.DataType, x float64) {
	var lo, hi float64
	switch dt {
	case ir.BOOL:
		return
	case ir.FP32, ir.FP16, ir.BF16:
		if math.IsInf(x, 0) || x != x {
			return
		}
		hi = maxFinite(dt)
		lo = -hi
	default:
		lo, hi = intRange(dt)
	}
	bad := x != x || x < lo || x > hi
	if dt == ir.INT64 || dt == ir.INDEX {
		bad = bad || x == hi // hi is 2^63, one past the largest int64
	}
	if bad {
		failf(fn, "a value representable in "+dt.String()+" without overflow", "%v", x)
	}
}

// maxFinite is the largest finite value of a floating dtype.
func maxFinite(dt ir.DataType) float64 {
	switch dt {
	case ir.FP16:
		return 65504
	case ir.BF16:
		return float64(bf16ToFloat32(0x7F7F))
	}
	return math.MaxFloat32
}
