package tensor

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata from the current output")

// stringCases are the String goldens. The expected texts in testdata/string were taken
// from torch's repr of the same tensors (same dtype, shape and values) with default print
// options; -update rewrites them from this package's output.
var stringCases = []struct {
	name string
	make func() *Tensor
}{
	{"f32_row", func() *Tensor { return FromFloat32([]float32{1, 2, 3}, 1, 3) }},
	{"f32_frac", func() *Tensor { return FromFloat32([]float32{1.5, -2.25, 3.125}) }},
	{"f32_one", func() *Tensor { return FromFloat32([]float32{5}) }},
	{"f32_zeros", func() *Tensor { return Zeros(ir.FP32, 2, 3) }},
	{"f32_scalar", func() *Tensor { return Full(ir.FP32, 1.5) }},
	{"f32_scalar_int", func() *Tensor { return Full(ir.FP32, 3) }},
	{"f32_nonfinite", func() *Tensor {
		return FromFloat64(ir.FP32, []float64{1.5, math.NaN(), math.Inf(1), math.Inf(-1), 0})
	}},
	{"f32_int_nonfinite", func() *Tensor { return FromFloat64(ir.FP32, []float64{1, math.Inf(1), math.NaN()}) }},
	{"f32_all_nonfinite", func() *Tensor { return FromFloat64(ir.FP32, []float64{math.NaN(), math.Inf(-1)}) }},
	{"f32_sci_ratio", func() *Tensor { return FromFloat32([]float32{1, 2000}) }},
	{"f32_sci_small", func() *Tensor { return FromFloat32([]float32{1e-5, 1, -0.5}) }},
	{"f32_sci_big", func() *Tensor { return FromFloat32([]float32{1e9, 2.5}) }},
	{"f32_int_1e8", func() *Tensor { return FromFloat32([]float32{1e8, 1}) }},
	{"f32_negzero", func() *Tensor { return FromFloat64(ir.FP32, []float64{math.Copysign(0, -1), 1}) }},
	{"f32_tenths", func() *Tensor { return FromFloat32([]float32{0.1, 0.25, 100.5, -7}) }},
	{"f32_randn_3x4", func() *Tensor { return Randn(0, 3, 4) }},
	{"f32_randn_2x3x4", func() *Tensor { return Randn(7, 2, 3, 4) }},
	{"f32_randn_wrap", func() *Tensor { return Randn(3, 2, 20) }},
	{"f32_arange_wrap", func() *Tensor { return Arange(ir.FP32, 30) }},
	{"f32_4d", func() *Tensor { return Arange(ir.FP32, 16).Reshape(2, 2, 2, 2) }},
	{"f32_summ_1d", func() *Tensor { return Arange(ir.FP32, 2000) }},
	{"f32_summ_2d", func() *Tensor { return Randn(1, 100, 50) }},
	{"f32_summ_3d", func() *Tensor { return Arange(ir.FP32, 2000).Reshape(10, 10, 20) }},
	{"f32_summ_4d", func() *Tensor { return Arange(ir.FP32, 1024).Reshape(4, 4, 8, 8) }},
	{"f32_summ_short_rows", func() *Tensor { return Arange(ir.FP32, 1200).Reshape(200, 6) }},
	{"f16_row", func() *Tensor { return FromFloat64(ir.FP16, []float64{0.1, 0.2, 1000}) }},
	{"f16_int", func() *Tensor { return FromFloat64(ir.FP16, []float64{1, 2, 2049}) }},
	{"f16_scalar", func() *Tensor { return Full(ir.FP16, 1) }},
	{"f16_suffix_newline", func() *Tensor { return Arange(ir.FP16, 14) }},
	{"f16_2d", func() *Tensor { return FromFloat64(ir.FP16, []float64{0.5, -1.25, 3, 65504}, 2, 2) }},
	{"bf16_vals", func() *Tensor { return FromFloat64(ir.BF16, []float64{0.1, 3.14159, -2}) }},
	{"bf16_summ", func() *Tensor { return Arange(ir.BF16, 1500) }},
	{"i32_vec", func() *Tensor { return FromInt32([]int32{1, 2, 3}) }},
	{"i32_2d", func() *Tensor { return Arange(ir.INT32, 12).Reshape(3, 4) }},
	{"i32_widths", func() *Tensor { return FromInt32([]int32{-1000000, 5, 42}) }},
	{"i32_scalar", func() *Tensor { return Full(ir.INT32, 7) }},
	{"i64_vec", func() *Tensor { return Arange(ir.INT64, 5) }},
	{"index_vec", func() *Tensor { return Arange(ir.INDEX, 5) }},
	{"i64_big", func() *Tensor { return FromInt64([]int64{math.MaxInt64, math.MinInt64}) }},
	{"i8_wrap", func() *Tensor { return Arange(ir.INT8, 200) }},
	{"i16_vals", func() *Tensor { return FromFloat64(ir.INT16, []float64{-300, 5, 12000}) }},
	{"u8_vec", func() *Tensor { return Arange(ir.UINT8, 4) }},
	{"bool_vec", func() *Tensor { return FromFloat64(ir.BOOL, []float64{1, 0, 1}) }},
	{"bool_2d", func() *Tensor { return FromFloat64(ir.BOOL, []float64{0, 0, 1, 0}, 2, 2) }},
	{"i32_summ_3d", func() *Tensor { return Arange(ir.INT32, 2000).Reshape(10, 20, 10) }},
	{"bool_summ", func() *Tensor { return Arange(ir.INT32, 1500).To(ir.BOOL).Reshape(30, 50) }},
	{"f32_sci_2d", func() *Tensor { return FromFloat32([]float32{1e-3, -250, 3.5, 1e6, 0, -0.125}, 3, 2) }},
	{"f32_int_neg_3d", func() *Tensor { return FromFloat64(ir.FP32, []float64{-1, 10, -100, 0, 5, 6, 7, 8}, 2, 2, 2) }},
	{"empty_f32", func() *Tensor { return Zeros(ir.FP32, 0) }},
	{"empty_f32_2d", func() *Tensor { return Zeros(ir.FP32, 2, 0) }},
	{"empty_i32", func() *Tensor { return Zeros(ir.INT32, 0) }},
	{"empty_i64_3d", func() *Tensor { return Zeros(ir.INT64, 0, 3, 4) }},
	{"empty_bool", func() *Tensor { return Zeros(ir.BOOL, 0) }},
}

func TestStringGolden(t *testing.T) {
	for _, c := range stringCases {
		t.Run(c.name, func(t *testing.T) {
			got := c.make().String()
			path := filepath.Join("testdata", "string", c.name+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("missing golden (run with -update): %v", err)
			}
			if got+"\n" != string(want) {
				t.Errorf("String() mismatch\n got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
