package runtime

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/ptorepl/ptorepl/ir"
)

// Typed data-path kernels. The generic path widens every element to float64,
// applies a function value and rounds back through a dtype switch; these
// work on FP32 directly, which gives bit-identical results: +, −, ×, ÷ of
// two float32s computed in float64 and rounded once to float32 equal the
// float32 operation (float64 carries more than 2·24+2 bits, so the double
// rounding is innocuous), and max/min select one operand exactly.

// nativeLE reports whether this machine stores numbers little-endian, like
// every memory the simulator models; only then are FP32 bytes in memory the
// bytes of a Go float32, so they can be viewed in place instead of decoded.
var nativeLE = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// asF32 views b (FP32 elements) as []float32 sharing its memory, when the
// machine is little-endian and b is aligned for float32; ok is false
// otherwise and the caller takes the generic path.
func asF32(b []byte) (f []float32, ok bool) {
	if !nativeLE || len(b)%4 != 0 {
		return nil, false
	}
	if len(b) == 0 {
		return nil, true
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	if uintptr(p)%4 != 0 {
		return nil, false
	}
	return unsafe.Slice((*float32)(p), len(b)/4), true
}

// f32Bytes views f's memory as bytes (native order: the FP32 layout only
// when nativeLE).
func f32Bytes(f []float32) []byte {
	if len(f) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(f))), 4*len(f))
}

// getF32 decodes FP32 bytes into dst (a plain copy on little-endian machines).
func getF32(dst []float32, src []byte) {
	if nativeLE {
		copy(f32Bytes(dst), src)
		return
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
	}
}

// putF32 encodes src as FP32 bytes into dst (a plain copy on little-endian machines).
func putF32(dst []byte, src []float32) {
	if nativeLE {
		copy(dst, f32Bytes(src))
		return
	}
	for i, v := range src {
		binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(v))
	}
}

// nan32 is the FP32 NaN the generic path produces from math.Max/Min.
var nan32 = float32(math.NaN())

// max32 is float32(math.Max(x, y)) without widening: +Inf beats NaN, NaN
// beats everything else, and +0 beats −0.
func max32(x, y float32) float32 {
	switch {
	case x > y:
		return x
	case y > x:
		return y
	case x == y: // equal, or +0 and −0
		if math.Signbit(float64(x)) {
			return y
		}
		return x
	case math.IsInf(float64(x), 1) || math.IsInf(float64(y), 1):
		return float32(math.Inf(1))
	}
	return nan32
}

// min32 is float32(math.Min(x, y)) without widening: −Inf beats NaN, NaN
// beats everything else, and −0 beats +0.
func min32(x, y float32) float32 {
	switch {
	case x < y:
		return x
	case y < x:
		return y
	case x == y: // equal, or +0 and −0
		if math.Signbit(float64(x)) {
			return x
		}
		return y
	case math.IsInf(float64(x), -1) || math.IsInf(float64(y), -1):
		return float32(math.Inf(-1))
	}
	return nan32
}

// reduceF32 folds src into acc element by element: acc[i] = op(acc[i], src[i]).
// One loop per op, so the inner loop has no call and no switch.
func reduceF32(op ir.ReduceOp, acc, src []float32) {
	src = src[:len(acc)]
	switch op {
	case ir.ReduceSum:
		addF32(acc, src)
	case ir.ReduceProd:
		for i := range acc {
			acc[i] *= src[i]
		}
	case ir.ReduceMax:
		for i := range acc {
			acc[i] = max32(acc[i], src[i])
		}
	case ir.ReduceMin:
		for i := range acc {
			acc[i] = min32(acc[i], src[i])
		}
	}
}

// addF32Go is acc[i] += src[i], the portable form of addF32 (the
// allreduce's inner loop; kernels_amd64.s has the vector form).
func addF32Go(acc, src []float32) {
	src = src[:len(acc)]
	for i := range acc {
		acc[i] += src[i]
	}
}

// reduceOps are the reductions a collective's op kwarg names, in float64
// for the generic path.
var reduceOps = map[ir.ReduceOp]func(a, b float64) float64{
	ir.ReduceSum:  func(a, b float64) float64 { return a + b },
	ir.ReduceMax:  math.Max,
	ir.ReduceMin:  math.Min,
	ir.ReduceProd: func(a, b float64) float64 { return a * b },
}

// reduceBytes folds src into acc, both elements of dt in memory layout:
// acc[i] = op(acc[i], src[i]) rounded to dt. FP32 runs in place on float32;
// other dtypes go through float64 in fixed-size chunks (no allocation). The
// generic path equals the float64-accumulator one it replaces because every
// value round(·, dt) produces survives encode/decode unchanged.
func reduceBytes(dt ir.DataType, op ir.ReduceOp, acc, src []byte) {
	if dt == ir.FP32 {
		a, okA := asF32(acc)
		s, okS := asF32(src)
		if okA && okS {
			reduceF32(op, a, s)
			return
		}
	}
	fn := reduceOps[op]
	sz := dt.Bytes()
	var a, b [256]float64
	for len(acc) > 0 {
		n := min(len(acc)/sz, len(a))
		decode(dt, acc[:n*sz], a[:n])
		decode(dt, src[:n*sz], b[:n])
		for i := range n {
			a[i] = round(fn(a[i], b[i]), dt)
		}
		encode(dt, a[:n], acc[:n*sz])
		acc, src = acc[n*sz:], src[n*sz:]
	}
}

// foldBytes sets acc to first folded with each of srcs in order (all
// elements of dt in memory layout): acc[i] = op(...op(op(first[i],
// srcs[0][i]), srcs[1][i])..., rounded to dt at every step. FP32 sums take
// one pass over acc for all sources (foldF32); the rest fold source by source.
func foldBytes(dt ir.DataType, op ir.ReduceOp, acc, first []byte, srcs [][]byte) {
	if dt == ir.FP32 && op == ir.ReduceSum {
		if f, ok := foldF32Views(acc, first, srcs); ok {
			foldF32(f[0], f[1], f[2:])
			return
		}
	}
	copy(acc, first)
	for _, s := range srcs {
		reduceBytes(dt, op, acc, s)
	}
}

// foldF32Views is acc, first and srcs viewed as []float32, if they all can be.
func foldF32Views(acc, first []byte, srcs [][]byte) ([][]float32, bool) {
	out := make([][]float32, 2+len(srcs))
	for i := range out {
		b := acc
		switch {
		case i == 1:
			b = first
		case i > 1:
			b = srcs[i-2]
		}
		f, ok := asF32(b)
		if !ok {
			return nil, false
		}
		out[i] = f
	}
	return out, true
}

// foldF32Go is dst[i] = ((first[i] + srcs[0][i]) + srcs[1][i]) + ..., the
// portable form of foldF32: the same additions in the same order, source by
// source.
func foldF32Go(dst, first []float32, srcs [][]float32) {
	copy(dst, first)
	for _, s := range srcs {
		addF32Go(dst, s)
	}
}

// skewed reports whether x and y share memory without starting at the
// same element: a vector kernel would then read elements the scalar loop
// has already overwritten (a wrong address plan can place tiles so).
func skewed(x, y []float32) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	xs, ys := uintptr(unsafe.Pointer(&x[0])), uintptr(unsafe.Pointer(&y[0]))
	xe, ye := xs+4*uintptr(len(x)), ys+4*uintptr(len(y))
	return xs != ys && xs < ye && ys < xe
}

// binaryF32 computes dst[i] = a[i] <name> b[i] for the elementwise ops that
// have an exact FP32 form; b of length 1 broadcasts. It reports false for
// other ops.
func binaryF32(name string, dst, a, b []float32) bool {
	if len(b) == 1 && len(a) != 1 {
		return scalarF32(name, dst, a, b[0])
	}
	b = b[:len(a)]
	dst = dst[:len(a)]
	switch name {
	case "add":
		if len(dst) >= 64 && !skewed(dst, a) && !skewed(dst, b) {
			// The vector kernel, one pass (dst may be a or b itself).
			foldF32(dst, a, [][]float32{b})
			return true
		}
		for i := range dst {
			dst[i] = a[i] + b[i]
		}
	case "sub":
		for i := range dst {
			dst[i] = a[i] - b[i]
		}
	case "mul":
		for i := range dst {
			dst[i] = a[i] * b[i]
		}
	case "div":
		for i := range dst {
			dst[i] = a[i] / b[i]
		}
	case "maximum":
		for i := range dst {
			dst[i] = max32(a[i], b[i])
		}
	case "minimum":
		for i := range dst {
			dst[i] = min32(a[i], b[i])
		}
	default:
		return false
	}
	return true
}

// scalarF32 is binaryF32 with a scalar right operand (the "s" forms too).
func scalarF32(name string, dst, a []float32, s float32) bool {
	dst = dst[:len(a)]
	switch name {
	case "add", "adds":
		for i := range dst {
			dst[i] = a[i] + s
		}
	case "sub", "subs":
		for i := range dst {
			dst[i] = a[i] - s
		}
	case "mul", "muls":
		for i := range dst {
			dst[i] = a[i] * s
		}
	case "div", "divs":
		for i := range dst {
			dst[i] = a[i] / s
		}
	case "maximum":
		for i := range dst {
			dst[i] = max32(a[i], s)
		}
	case "minimum":
		for i := range dst {
			dst[i] = min32(a[i], s)
		}
	default:
		return false
	}
	return true
}
