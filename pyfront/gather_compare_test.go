//go:build cgo

package pyfront_test

import (
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// The compare form of a gather (gather_compare.py) runs as written and
// compiled (tile.gather_compare on the input's Vec tile, the compare form
// of pto.tgather): each row's first matching columns and its match count,
// computed here from the inputs.
func TestGatherCompare(t *testing.T) {
	const rows, cols, out = 8, 32, 4
	prog, comp, text := authored(t, "gather_compare.py", "Thresholds", 1)
	if text := prog.String(); !strings.Contains(text, `pl.tensor.gather_compare(src, kvalue, cmp_mode=5, out_cols=4)`) {
		t.Fatalf("the compare form does not print as gather_compare:\n%s", text)
	}
	wantPTO(t, text, "pto.tgather ins(%src_vec, %kvalue, %gc_tmp : ", ") outs(%dst, %cdst : ", "{cmpMode = #pto<cmp ge>, offset = 0 : i32}")
	src := tensor.Randn(1, rows, cols)
	k := float32(src.At(0, 3)) // an element of row 0, so ">=" differs from ">" there
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{src, tensor.FromFloat32([]float32{k}, 1), tensor.Zeros(ir.INT32, rows, out), tensor.Zeros(ir.INT32, 1, rows)}
	}, func(a []*tensor.Tensor, compiled bool) {
		dst, cdst := a[2], a[3]
		for i := 0; i < rows; i++ {
			var match []int
			for j := 0; j < cols; j++ {
				if float32(src.At(i, j)) >= k {
					match = append(match, j)
				}
			}
			if got := int(cdst.At(0, i)); got != len(match) {
				t.Fatalf("compiled %v: row %d: cdst = %d, want %d matches", compiled, i, got, len(match))
			}
			for k := 0; k < out; k++ {
				want := 0
				if k < len(match) {
					want = match[k]
				}
				if got := int(dst.At(i, k)); got != want {
					t.Fatalf("compiled %v: row %d: dst[%d] = %d, want %d (matches %v)", compiled, i, k, got, want, match)
				}
			}
		}
	})
}

// Upstream's compare-form gather programs (tests/st/runtime/ops/test_gather.py
// in a PyPTO checkout), read unmodified, on data built as its pytest builds
// it: every row matches at exactly eight known columns, as written and
// compiled.
func TestUpstreamGatherCompare(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/ops/test_gather.py")
	const rows, cols = 16, 64
	for _, tc := range []struct {
		name  string
		dt    ir.DataType
		kv    float64
		hit   func(j int) bool
		value func(i, j int, hit bool) float64
	}{
		{"GatherCompareEqProgram", ir.INT32, 7, func(j int) bool { return j%8 == 0 },
			func(i, j int, hit bool) float64 {
				if hit {
					return 7
				}
				return float64(100 + i + j)
			}},
		{"GatherCompareGtFP16Program", ir.FP16, 0.5, func(j int) bool { return j >= 56 },
			func(i, j int, hit bool) float64 {
				if hit {
					return 1.5
				}
				return -0.25
			}},
	} {
		prog, comp, _ := compiledProgram(t, mod, tc.name, 1)
		vals := make([]float64, rows*cols)
		var want []int
		for j := 0; j < cols; j++ {
			if tc.hit(j) {
				want = append(want, j)
			}
		}
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				vals[i*cols+j] = tc.value(i, j, tc.hit(j))
			}
		}
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.FromFloat64(tc.dt, vals, rows, cols), tensor.FromFloat64(tc.dt, []float64{tc.kv}, 1),
				tensor.Zeros(ir.INT32, rows, 8), tensor.Zeros(ir.INT32, 1, rows)}
		}, func(a []*tensor.Tensor, compiled bool) {
			dst, cdst := a[2], a[3]
			for i := 0; i < rows; i++ {
				if got := cdst.At(0, i); got != 8 {
					t.Fatalf("%s compiled %v: cdst[0, %d] = %v, want 8", tc.name, compiled, i, got)
				}
				for k, j := range want {
					if got := int(dst.At(i, k)); got != j {
						t.Fatalf("%s compiled %v: dst[%d, %d] = %d, want %d", tc.name, compiled, i, k, got, j)
					}
				}
			}
		})
	}
}
