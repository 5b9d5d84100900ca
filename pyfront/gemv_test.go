//go:build cgo

package pyfront_test

import (
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// The GEMV family (gemv.py): rows of out are a @ b, a @ b + bias, and
// the same product summed in two halves of K through an accumulator.
func TestGemv(t *testing.T) {
	const K, N = 64, 16
	prog, comp, text := authored(t, "gemv.py", "Gemv", 1)
	wantPTO(t, text, "pto.tgemv ins(", "pto.tgemv.bias ins(", "pto.tgemv.acc ins(", "accPhase = #pto<acc_phase partial>", "accPhase = #pto<acc_phase final>")
	a, b := tensor.Randn(51, 1, K).To(ir.FP16), tensor.Randn(52, K, N).To(ir.FP16)
	bias := tensor.Randn(53, 1, N)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{a.Clone(), b.Clone(), bias.Clone(), tensor.Zeros(ir.FP32, 3, N)}
	}, func(got []*tensor.Tensor, compiled bool) {
		for j := 0; j < N; j++ {
			lo, hi := 0.0, 0.0
			for k := 0; k < K; k++ {
				p := a.At(0, k) * b.At(k, j)
				if k < K/2 {
					lo += p
				} else {
					hi += p
				}
			}
			for r, want := range []float64{f32(lo + hi), f32(bias.At(0, j) + lo + hi), f32(f32(lo) + hi)} {
				if g := got[3].At(r, j); g != want {
					t.Fatalf("compiled %v: row %d col %d = %v, want %v", compiled, r, j, g, want)
				}
			}
		}
	})
}

// Upstream's GEMV system test (tests/st/runtime/ops/test_gemv.py), read
// unmodified at its defaults (FP32 operands, K = N = 64), without and with
// its bias (bias=True binds positionally after k and n): out = a @ b
// (+ bias), as its compute_expected says.
func TestUpstreamGemv(t *testing.T) {
	const K, N = 64, 64
	mod := upstreamSystemTest(t, "runtime/ops/test_gemv.py")
	a, b, bias := tensor.Randn(61, 1, K), tensor.Randn(62, K, N), tensor.Randn(63, 1, N)
	for _, withBias := range []bool{false, true} {
		prog, comp := calledCompiled(t, mod, 1, "GemvTestCase", K, N, withBias)
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			if withBias {
				return []*tensor.Tensor{a.Clone(), b.Clone(), bias.Clone(), tensor.Zeros(ir.FP32, 1, N)}
			}
			return []*tensor.Tensor{a.Clone(), b.Clone(), tensor.Zeros(ir.FP32, 1, N)}
		}, func(got []*tensor.Tensor, compiled bool) {
			out := got[len(got)-1]
			for j := 0; j < N; j++ {
				s := 0.0
				if withBias {
					s = bias.At(0, j)
				}
				for k := 0; k < K; k++ {
					s += a.At(0, k) * b.At(k, j)
				}
				if g := out.At(0, j); g != f32(s) {
					t.Fatalf("bias %v, compiled %v: out[0, %d] = %v, want %v", withBias, compiled, j, g, f32(s))
				}
			}
		})
	}
}

// tile.extract (extract.py): rows 16..31 of a, cut into Left, times b
// cut into Right.
func TestExtract(t *testing.T) {
	prog, comp, text := authored(t, "extract.py", "Extract", 1)
	wantPTO(t, text, "pto.textract ins(")
	a, b := tensor.Randn(71, 32, 64).To(ir.FP16), tensor.Randn(72, 64, 16).To(ir.FP16)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{a.Clone(), b.Clone(), tensor.Zeros(ir.FP32, 16, 16)}
	}, func(got []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			for j := 0; j < 16; j++ {
				if g, want := got[2].At(i, j), matmulAt(func(idx ...int) float64 { return a.At(16+idx[0], idx[1]) }, b.At, 64, i, j); g != want {
					t.Fatalf("compiled %v: c[%d, %d] = %v, want %v", compiled, i, j, g, want)
				}
			}
		}
	})
}

// Upstream's column-load case (tests/st/runtime/ops/test_trans.py), read
// unmodified: a Vec row extracted from a transposed strip scales each row
// of x, y = x * scale[:, 0], as its compute_expected says.
func TestUpstreamExtract(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/ops/test_trans.py")
	prog, comp := calledCompiled(t, mod, 1, "ColumnLoadRowExpandMulCase")
	x, scale := tensor.Randn(81, 16, 64), tensor.Randn(82, 16, 8)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{x.Clone(), scale.Clone(), tensor.Zeros(ir.FP32, 16, 64)}
	}, func(got []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			for j := 0; j < 64; j++ {
				if g, want := got[2].At(i, j), f32(x.At(i, j)*scale.At(i, 0)); g != want {
					t.Fatalf("compiled %v: y[%d, %d] = %v, want %v", compiled, i, j, g, want)
				}
			}
		}
	})
}
