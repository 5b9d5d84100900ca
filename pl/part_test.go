package pl_test

import (
	"math"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// The partial-combine spellings pick the tile op for tiles and the tensor
// op for tensors; over fully valid operands they are plain elementwise ops.
func TestPartSpellings(t *testing.T) {
	for _, tc := range []struct {
		name string
		op   func(a, b any) pl.Expr
		fn   func(a, b float64) float64
	}{
		{"part_add", pl.PartAdd, func(a, b float64) float64 { return float64(float32(a + b)) }},
		{"part_mul", pl.PartMul, func(a, b float64) float64 { return float64(float32(a * b)) }},
		{"part_max", pl.PartMax, math.Max},
		{"part_min", pl.PartMin, math.Min},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog := pl.NewProgram("Part")
			prog.Function("main", pl.Opaque, func(f *pl.Func) {
				a := f.In("a", pl.Tensor(pl.Dims(8, 16), pl.FP32))
				b := f.In("b", pl.Tensor(pl.Dims(8, 16), pl.FP32))
				tiles := f.Out("tiles", pl.Tensor(pl.Dims(8, 16), pl.FP32))
				tensors := f.Out("tensors", pl.Tensor(pl.Dims(8, 16), pl.FP32))
				f.InCoreScope("", func() {
					ta := f.Let("ta", pl.Load(a, pl.Dims(0, 0), pl.Dims(8, 16)))
					tb := f.Let("tb", pl.Load(b, pl.Dims(0, 0), pl.Dims(8, 16)))
					f.Set(tiles, pl.Store(tc.op(ta, tb), pl.Dims(0, 0), tiles))
					f.Set(tensors, pl.Assemble(tensors, tc.op(a, b), pl.Dims(0, 0)))
				})
			})
			text := prog.String()
			for _, want := range []string{"pl.tile." + tc.name + "(ta, tb)", "pl.tensor." + tc.name + "(a, b)"} {
				if !strings.Contains(text, want) {
					t.Fatalf("no %s in\n%s", want, text)
				}
			}
			a, b := tensor.Randn(1, 8, 16), tensor.Randn(2, 8, 16)
			tiles, tensors := tensor.Zeros(pl.FP32, 8, 16), tensor.Zeros(pl.FP32, 8, 16)
			if _, err := pl.Compile(prog, pl.Ranks(1)).Run(pl.Ranks(1), a, b, tiles, tensors); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 8; i++ {
				for j := 0; j < 16; j++ {
					want := tc.fn(a.At(i, j), b.At(i, j))
					if tiles.At(i, j) != want || tensors.At(i, j) != want {
						t.Fatalf("[%d, %d] = %v (tiles), %v (tensors), want %v", i, j, tiles.At(i, j), tensors.At(i, j), want)
					}
				}
			}
		})
	}
}
