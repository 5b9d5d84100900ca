package pyfront_test

import (
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
	for _, name := range []string{"BatchSplitK", "BatchTilesAcc"} {
		prog, comp, _ := authored(t, "batch_matmul.py", name, 1)
		splitK(t, name, prog, comp)
	}
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

// splitK runs a batched split-K product (a matmul of K's first half, a
// matmul_acc of its second) as written and compiled.
func splitK(t *testing.T, name string, prog *pl.Program, comp *pl.Compiled) {
	t.Helper()
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(7, 2, 16, 64), tensor.Randn(8, 2, 64, 16), tensor.Zeros(ir.FP32, 2, 16, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for p := 0; p < 2; p++ {
			for i := 0; i < 16; i++ {
				for j := 0; j < 16; j++ {
					// matmul_acc adds the second half's products to the
					// first half's rounded sum, and rounds once more.
					sum := 0.0
					for q := 0; q < 64; q++ {
						if q == 32 {
							sum = f32(sum)
						}
						sum += a[0].At(p, i, q) * a[1].At(p, q, j)
					}
					if got, want := a[2].At(p, i, j), f32(sum); got != want {
						t.Fatalf("%s compiled %v: y[%d,%d,%d] = %v, want %v", name, compiled, p, i, j, got, want)
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
	mod := upstreamSystemTest(t, "runtime/ops/test_batch_matmul.py")
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

// TestUpstreamTensorBatchMatmul reads upstream's
// test_tensor_batch_matmul.py unmodified: each case runs, as written and
// compiled, to its compute_expected (torch.matmul of its inputs), computed
// here with the cube's rounding.
func TestUpstreamTensorBatchMatmul(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/ops/test_tensor_batch_matmul.py")
	// dot is sum over q < k of x(q) * y(q) in float64, rounded to FP32
	// after the first half when split (a matmul then a matmul_acc).
	dot := func(k int, split bool, x, y func(q int) float64) float64 {
		sum := 0.0
		for q := 0; q < k; q++ {
			if split && q == k/2 {
				sum = f32(sum)
			}
			sum += x(q) * y(q)
		}
		return f32(sum)
	}
	for _, c := range []struct {
		name string
		in   [][]int // input shapes, the output last
		want func(in []*tensor.Tensor, p, i, j int) float64
	}{
		{"TestTensorMatmul2dBy3d", [][]int{{16, 64}, {1, 64, 64}, {1, 16, 64}}, func(in []*tensor.Tensor, p, i, j int) float64 {
			return dot(64, false, func(q int) float64 { return in[0].At(i, q) }, func(q int) float64 { return in[1].At(0, j, q) })
		}},
		{"TestTensorMatmulAcc2dBy3d", [][]int{{16, 64}, {1, 64, 64}, {1, 16, 64}}, func(in []*tensor.Tensor, p, i, j int) float64 {
			return dot(64, true, func(q int) float64 { return in[0].At(i, q) }, func(q int) float64 { return in[1].At(0, j, q) })
		}},
		{"TestTensorBatchMatmulMixedAddBTrans", [][]int{{2, 16, 64}, {2, 64, 64}, {2, 64, 64}, {2, 16, 64}}, func(in []*tensor.Tensor, p, i, j int) float64 {
			return dot(64, false, func(q int) float64 { return in[0].At(p, i, q) }, func(q int) float64 { return f32(in[1].At(p, j, q) + in[2].At(p, j, q)) })
		}},
		{"TestTensorBatchMatmul3dBy3dBTrans", [][]int{{2, 16, 80}, {2, 48, 80}, {2, 16, 48}}, func(in []*tensor.Tensor, p, i, j int) float64 {
			return dot(80, false, func(q int) float64 { return in[0].At(p, i, q) }, func(q int) float64 { return in[1].At(p, j, q) })
		}},
		{"TestTensorBatchMatmulSlicedBTrans", [][]int{{2, 16, 80}, {4, 48, 80}, {2, 16, 48}}, func(in []*tensor.Tensor, p, i, j int) float64 {
			return dot(80, false, func(q int) float64 { return in[0].At(p, i, q) }, func(q int) float64 { return in[1].At(1+p, j, q) })
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog, comp := calledCompiled(t, mod, 1, c.name)
			writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
				var in []*tensor.Tensor
				for k, shape := range c.in[:len(c.in)-1] {
					in = append(in, tensor.Randn(int64(10+k), shape...))
				}
				return append(in, tensor.Zeros(ir.FP32, c.in[len(c.in)-1]...))
			}, func(in []*tensor.Tensor, compiled bool) {
				out := in[len(in)-1]
				shape := out.Shape()
				for p := 0; p < shape[0]; p++ {
					for i := 0; i < shape[1]; i++ {
						for j := 0; j < shape[2]; j++ {
							if got, want := out.At(p, i, j), c.want(in, p, i, j); got != want {
								t.Fatalf("compiled %v: c[%d,%d,%d] = %v, want %v", compiled, p, i, j, got, want)
							}
						}
					}
				}
			})
		})
	}
}

// TestBatchMatmulErrors: a batched product FlattenTileNdTo2D cannot unroll
// (a dynamic batch) or ConvertTensorToTileOps cannot convert (an out_dtype
// other than the accumulator's) is a compile error naming the op, the
// operand and the position.
func TestBatchMatmulErrors(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"dynamic batch", `import pypto.language as pl

B = pl.dynamic("B")

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[B, 16, 32], pl.FP32], b: pl.Tensor[[B, 32, 16], pl.FP32], c: pl.Out[pl.Tensor[[B, 16, 16], pl.FP32]]) -> pl.Tensor[[B, 16, 16], pl.FP32]:
        ta = pl.load(a, [0, 0, 0], [B, 16, 32], target_memory=pl.MemorySpace.Mat)
        tb = pl.load(b, [0, 0, 0], [B, 32, 16], target_memory=pl.MemorySpace.Mat)
        return pl.store(pl.batch_matmul(ta, tb), [0, 0, 0], c)
`, "FlattenTileNdTo2D: function k: case.py:11:25: tile.batch_matmul of pl.Tile[[B, 16, 32], pl.FP32, pl.Mem.Mat]: ptorepl unrolls a batched matmul of static shapes only"},
		{"fp16 out", `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[2, 16, 32], pl.FP16], b: pl.Tensor[[2, 32, 16], pl.FP16], c: pl.Out[pl.Tensor[[2, 16, 16], pl.FP16]]) -> pl.Tensor[[2, 16, 16], pl.FP16]:
        m = pl.matmul(a, b, out_dtype=pl.FP16)
        c = pl.assemble(c, m, [0, 0, 0])
        return c
`, "case.py:7:13: a batched tensor.matmul into pl.FP16: the cube accumulates pl.FP32, and ptorepl does not lower the conversion of a batched product yet"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mod, err := pl.ParsePythonNamed("case.py", c.src)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := mod.Program("P")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pl.TryCompile(prog, pl.Ranks(1)); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("compile: %v\nwant %s", err, c.want)
			}
		})
	}
}
