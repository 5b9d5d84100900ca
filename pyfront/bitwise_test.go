//go:build cgo

package pyfront_test

import (
	"math/rand"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// int32s is a [rows, cols] INT32 tensor of values from gen.
func int32s(rows, cols int, gen func(i int) int32) *tensor.Tensor {
	v := make([]int32, rows*cols)
	for i := range v {
		v[i] = gen(i)
	}
	return tensor.FromInt32(v, rows, cols)
}

// Bitwise ops (bitwise.py): each block of rows of out is one op of the
// tile forms, computed here on the same INT32 inputs (negative ones
// included, so shifts right are arithmetic and NOT flips the sign).
func TestBitwiseTiles(t *testing.T) {
	const R, C = 16, 32
	prog, comp, text := authored(t, "bitwise.py", "BitwiseTiles", 1)
	wantPTO(t, text, "pto.tand", "pto.tor", "pto.txor", "pto.tshl", "pto.tshr", "pto.tands", "pto.tors", "pto.txors", "pto.tshls", "pto.tshrs", "pto.tnot")
	rng := rand.New(rand.NewSource(7))
	a := int32s(R, C, func(int) int32 { return rng.Int31() - 1<<30 })
	b := int32s(R, C, func(int) int32 { return rng.Int31() - 1<<30 })
	s := int32s(R, C, func(i int) int32 { return int32(i % 31) })
	ops := []func(x, y, k int32) int32{
		func(x, y, _ int32) int32 { return x & y },
		func(x, y, _ int32) int32 { return x | y },
		func(x, y, _ int32) int32 { return x ^ y },
		func(x, _, k int32) int32 { return x << uint(k) },
		func(x, _, k int32) int32 { return x >> uint(k) },
		func(x, _, _ int32) int32 { return x & 0xF0F },
		func(x, _, _ int32) int32 { return x | 6 },
		func(x, _, _ int32) int32 { return x ^ -1 },
		func(x, _, _ int32) int32 { return x << 3 },
		func(x, _, _ int32) int32 { return x >> 2 },
		func(x, _, _ int32) int32 { return ^x },
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{a.Clone(), b.Clone(), s.Clone(), tensor.Zeros(ir.INT32, len(ops)*R, C)}
	}, func(got []*tensor.Tensor, compiled bool) {
		for k, op := range ops {
			for i := 0; i < R; i++ {
				for j := 0; j < C; j++ {
					want := op(int32(a.At(i, j)), int32(b.At(i, j)), int32(s.At(i, j)))
					if g := int32(got[3].At(k*R+i, j)); g != want {
						t.Fatalf("compiled %v: op %d at [%d, %d]: got %d, want %d (a %d, b %d, s %d)", compiled, k, i, j, g, want, int32(a.At(i, j)), int32(b.At(i, j)), int32(s.At(i, j)))
					}
				}
			}
		}
	})

	// The tensor forms lower to the tile ops; xor's lowering gives it the
	// scratch tile the tile form takes.
	prog, comp, text = authored(t, "bitwise.py", "BitwiseTensors", 1)
	wantPTO(t, text, "pto.txor", "pto.tors", "pto.tnot", "pto.tand", "pto.tshrs")
	tensorOps := []func(x, y int32) int32{
		func(x, y int32) int32 { return x ^ y },
		func(x, _ int32) int32 { return x | 1 },
		func(x, y int32) int32 { return ^(x & y) },
		func(x, _ int32) int32 { return x >> 1 },
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{a.Clone(), b.Clone(), tensor.Zeros(ir.INT32, len(tensorOps)*R, C)}
	}, func(got []*tensor.Tensor, compiled bool) {
		for k, op := range tensorOps {
			for i := 0; i < R; i++ {
				for j := 0; j < C; j++ {
					if g, want := int32(got[2].At(k*R+i, j)), op(int32(a.At(i, j)), int32(b.At(i, j))); g != want {
						t.Fatalf("compiled %v: tensor op %d at [%d, %d]: got %d, want %d", compiled, k, i, j, g, want)
					}
				}
			}
		}
	})
}

// maximums, minimums and lrelu: a tile and a scalar, the scalar taken in
// the element type as the NPU takes it (0.3 and 0.1 are not FP32 values).
func TestScalarTileOps(t *testing.T) {
	const R, C = 16, 32
	prog, comp, text := authored(t, "bitwise.py", "ScalarTiles", 1)
	wantPTO(t, text, "pto.tmaxs", "pto.tmins", "pto.tlrelu")
	a := tensor.Randn(11, R, C)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{a.Clone(), tensor.Zeros(ir.FP32, 3*R, C)}
	}, func(got []*tensor.Tensor, compiled bool) {
		for i := 0; i < R; i++ {
			for j := 0; j < C; j++ {
				x := a.At(i, j)
				lrelu := x
				if x <= 0 {
					lrelu = f32(f32(0.1) * x)
				}
				for k, want := range []float64{max(x, f32(0.3)), min(x, -0.5), lrelu} {
					if g := got[1].At(k*R+i, j); g != want {
						t.Fatalf("compiled %v: op %d at [%d, %d]: got %v, want %v (x = %v)", compiled, k, i, j, g, want, x)
					}
				}
			}
		}
	})
}

// tensor.maximum and tensor.minimum of a tensor and a scalar lower to
// tile.maximums and tile.minimums, as upstream's conversion dispatches them.
func TestTensorScalarMax(t *testing.T) {
	const R, C = 16, 32
	prog, comp, text := authored(t, "bitwise.py", "TensorScalarMax", 1)
	wantPTO(t, text, "pto.tmaxs", "pto.tmins")
	a := tensor.Randn(12, R, C)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{a.Clone(), tensor.Zeros(ir.FP32, 2*R, C)}
	}, func(got []*tensor.Tensor, compiled bool) {
		for i := 0; i < R; i++ {
			for j := 0; j < C; j++ {
				x := a.At(i, j)
				for k, want := range []float64{max(x, f32(0.3)), min(x, -0.5)} {
					if g := got[1].At(k*R+i, j); g != want {
						t.Fatalf("compiled %v: op %d at [%d, %d]: got %v, want %v", compiled, k, i, j, g, want)
					}
				}
			}
		}
	})
}
