package pyfront_test

import (
	"math"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// TestTrig: pl.sin and pl.cos run as written to the sine and cosine
// rounded to FP32, and compiled (LowerCompositeOps' FP32 recipe) to within
// a few FP32 ulps of them, over radians in [-20, 20].
func TestTrig(t *testing.T) {
	prog, comp, text := authored(t, "trig.py", "Trig", 1)
	wantPTO(t, text, "pto.tmuls", "pto.tcvt", "pto.tmul")
	worst := 0.0
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		x := tensor.Zeros(ir.FP32, 16, 64)
		for i := 0; i < 16; i++ {
			for j := 0; j < 64; j++ {
				x.Set(-20+40*float64(i*64+j)/1023, i, j)
			}
		}
		return []*tensor.Tensor{x, tensor.Zeros(ir.FP32, 16, 64), tensor.Zeros(ir.FP32, 16, 64)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			for j := 0; j < 64; j++ {
				x := a[0].At(i, j)
				for k, fn := range []func(float64) float64{math.Sin, math.Cos} {
					got, want := a[1+k].At(i, j), f32(fn(x))
					if !compiled {
						if got != want {
							t.Fatalf("written: %s(%v) = %v, want %v", []string{"sin", "cos"}[k], x, got, want)
						}
						continue
					}
					worst = math.Max(worst, math.Abs(got-want))
					if math.Abs(got-want) > 4e-7 {
						t.Fatalf("compiled: %s(%v) = %v, want %v within 4e-7", []string{"sin", "cos"}[k], x, got, want)
					}
				}
			}
		}
	})
	t.Logf("compiled recipe: worst error %.3g", worst)
}

// TestUpstreamTrig reads upstream's test_unary_math.py unmodified: its sin
// and cos cases (16 x 16 and 32 x 64) run, as written and compiled, to
// torch.sin / torch.cos of inputs over two periods each way.
func TestUpstreamTrig(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/ops/test_unary_math.py")
	for _, c := range []struct {
		name string
		fn   func(float64) float64
		m, n int
	}{{"TileSinTestCase", math.Sin, 16, 16}, {"TileCosTestCase", math.Cos, 16, 16}, {"TileSinTestCase", math.Sin, 32, 64}, {"TileCosTestCase", math.Cos, 32, 64}} {
		prog, comp := calledCompiled(t, mod, 1, c.name, c.m, c.n)
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			x := tensor.Randn(9, c.m, c.n)
			for i := 0; i < c.m; i++ {
				for j := 0; j < c.n; j++ {
					x.Set(math.Mod(x.At(i, j)*4, 2*math.Pi), i, j)
				}
			}
			return []*tensor.Tensor{x, tensor.Zeros(ir.FP32, c.m, c.n)}
		}, func(a []*tensor.Tensor, compiled bool) {
			for i := 0; i < c.m; i++ {
				for j := 0; j < c.n; j++ {
					got, want := a[1].At(i, j), f32(c.fn(a[0].At(i, j)))
					tol := 0.0 // as written: the sine rounded to FP32
					if compiled {
						tol = 4e-7
					}
					if math.Abs(got-want) > tol {
						t.Fatalf("%s %dx%d compiled %v: [%d,%d] = %v, want %v", c.name, c.m, c.n, compiled, i, j, got, want)
					}
				}
			}
		})
	}
}
