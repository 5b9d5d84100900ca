//go:build cgo

package pyfront_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// The compare form of a gather (gather_compare.py) runs in the simulator:
// each row's first matching columns and its match count, computed here
// from the inputs; compiling it says plainly that it is not lowered yet.
func TestGatherCompare(t *testing.T) {
	const rows, cols, out = 8, 32, 4
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "gather_compare.py"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program("Thresholds")
	if err != nil {
		t.Fatal(err)
	}
	if text := prog.String(); !strings.Contains(text, `pl.tensor.gather_compare(src, kvalue, cmp_mode=5, out_cols=4)`) {
		t.Fatalf("the compare form does not print as gather_compare:\n%s", text)
	}
	src := tensor.Randn(1, rows, cols)
	k := float32(src.At(0, 3)) // an element of row 0, so ">=" differs from ">" there
	kv := tensor.FromFloat32([]float32{k}, 1)
	dst, cdst := tensor.Zeros(ir.INT32, rows, out), tensor.Zeros(ir.INT32, 1, rows)
	if _, err := pl.Run(prog, pl.Ranks(1), src, kv, dst, cdst); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < rows; i++ {
		var match []int
		for j := 0; j < cols; j++ {
			if float32(src.At(i, j)) >= k {
				match = append(match, j)
			}
		}
		if got := int(cdst.At(0, i)); got != len(match) {
			t.Fatalf("row %d: cdst = %d, want %d matches", i, got, len(match))
		}
		for k := 0; k < out; k++ {
			want := 0
			if k < len(match) {
				want = match[k]
			}
			if got := int(dst.At(i, k)); got != want {
				t.Fatalf("row %d: dst[%d] = %d, want %d (matches %v)", i, k, got, want, match)
			}
		}
	}
	c, err := pl.TryCompile(prog, pl.Ranks(1))
	if err == nil {
		_, err = c.PTOText()
	}
	if err == nil || !strings.Contains(err.Error(), "compare form of a gather runs in the simulator") {
		t.Fatalf("want compiling to say the compare form is not lowered, got %v", err)
	}
}

// Upstream's compare-form gather programs (tests/st/runtime/ops/test_gather.py
// in a PyPTO checkout), read unmodified, on data built as its pytest builds
// it: every row matches at exactly eight known columns.
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
		prog, err := mod.Program(tc.name)
		if err != nil {
			t.Fatal(err)
		}
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
		src := tensor.FromFloat64(tc.dt, vals, rows, cols)
		kv := tensor.FromFloat64(tc.dt, []float64{tc.kv}, 1)
		dst, cdst := tensor.Zeros(ir.INT32, rows, 8), tensor.Zeros(ir.INT32, 1, rows)
		if _, err := pl.Run(prog, pl.Ranks(1), src, kv, dst, cdst); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i := 0; i < rows; i++ {
			if got := cdst.At(0, i); got != 8 {
				t.Fatalf("%s: cdst[0, %d] = %v, want 8", tc.name, i, got)
			}
			for k, j := range want {
				if got := int(dst.At(i, k)); got != j {
					t.Fatalf("%s: dst[%d, %d] = %d, want %d", tc.name, i, k, got, j)
				}
			}
		}
	}
}
