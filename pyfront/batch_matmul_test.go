package pyfront_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// bmmWant is element (i, j) of page (la, lb) of the batched product of a
// [..., M, K] and b [..., K, N] (aT: a holds [..., K, M]; bT: b holds
// [..., N, K]), summed in float64 and rounded once to FP32, as the cube's
// accumulator.
func bmmWant(a, b []float64, la, lb, m, k, n, i, j int, aT, bT bool) float64 {
	sum := 0.0
	for q := 0; q < k; q++ {
		av, bv := a[la*m*k+i*k+q], b[lb*k*n+q*n+j]
		if aT {
			av = a[la*k*m+q*m+i]
		}
		if bT {
			bv = b[lb*n*k+j*k+q]
		}
		sum += av * bv
	}
	return f32(sum)
}

// TestBatchMatmul: pl.batch_matmul of rank-3 Mat tiles, and pl.matmul of
// rank-4 by rank-3 tensors (the weights broadcast over the outer batch,
// b_trans), run as written and compiled (FlattenTileNdTo2D's one 2-D
// matmul per page) to the product computed here.
func TestBatchMatmul(t *testing.T) {
	prog, comp, text := authored(t, "batch_matmul.py", "BatchTiles", 1)
	if strings.Contains(text, "batch_matmul") || strings.Count(text, "pto.tmatmul ") != 2 {
		t.Fatalf("want two pto.tmatmul and no batch_matmul in\n%s", text)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 2, 16, 32), tensor.Randn(2, 2, 32, 16), tensor.Zeros(ir.FP32, 2, 16, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		x, w := a[0].Float64s(), a[1].Float64s()
		for p := 0; p < 2; p++ {
			for i := 0; i < 16; i++ {
				for j := 0; j < 16; j++ {
					if got, want := a[2].At(p, i, j), bmmWant(x, w, p, p, 16, 32, 16, i, j, false, false); got != want {
						t.Fatalf("compiled %v: c[%d,%d,%d] = %v, want %v", compiled, p, i, j, got, want)
					}
				}
			}
		}
	})
	prog, comp, text = authored(t, "batch_matmul.py", "SharedWeights", 1)
	if n := strings.Count(text, "pto.tmatmul "); n != 6 {
		t.Fatalf("%d pto.tmatmul, want one per page (6)", n)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(3, 2, 3, 16, 32), tensor.Randn(4, 3, 16, 32), tensor.Zeros(ir.FP32, 2, 3, 16, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		x, w := a[0].Float64s(), a[1].Float64s()
		for b0 := 0; b0 < 2; b0++ {
			for b1 := 0; b1 < 3; b1++ {
				for i := 0; i < 16; i++ {
					for j := 0; j < 16; j++ {
						if got, want := a[2].At(b0, b1, i, j), bmmWant(x, w, b0*3+b1, b1, 16, 32, 16, i, j, false, true); got != want {
							t.Fatalf("compiled %v: y[%d,%d,%d,%d] = %v, want %v", compiled, b0, b1, i, j, got, want)
						}
					}
				}
			}
		}
	})
}

// TestUpstreamBatchMatmul reads upstream's test_batch_matmul.py and
// test_tensor_batch_matmul.py unmodified: their test cases run, as written
// and compiled, to torch.bmm / torch.matmul of their inputs.
func TestUpstreamBatchMatmul(t *testing.T) {
	dir := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if dir == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to read tests/st/runtime/ops/test_batch_matmul.py beside it (testdata/authoring/batch_matmul.py runs regardless)")
	}
	mod, err := pl.LoadPython(filepath.Join(dir, "..", "..", "tests", "st", "runtime", "ops", "test_batch_matmul.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		aT, bT bool
	}{{"TestBatchMatmulTile", false, false}, {"TestBatchMatmulBTranspose", false, true}, {"TestBatchMatmulATranspose", true, false}} {
		t.Run(c.name, func(t *testing.T) {
			prog, comp := calledCompiled(t, mod, 1, c.name)
			const bs, m, k, n = 2, 64, 64, 64
			writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.Randn(5, bs, m, k), tensor.Randn(6, bs, k, n), tensor.Zeros(ir.FP32, bs, m, n)}
			}, func(a []*tensor.Tensor, compiled bool) {
				x, w := a[0].Float64s(), a[1].Float64s()
				for p := 0; p < bs; p++ {
					for i := 0; i < m; i += 7 {
						for j := 0; j < n; j += 5 {
							if got, want := a[2].At(p, i, j), bmmWant(x, w, p, p, m, k, n, i, j, c.aT, c.bT); got != want {
								t.Fatalf("compiled %v: c[%d,%d,%d] = %v, want %v", compiled, p, i, j, got, want)
							}
						}
					}
				}
			})
		})
	}
}
