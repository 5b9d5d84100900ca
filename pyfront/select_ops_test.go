//go:build cgo

package pyfront_test

import (
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// tile.sels, tile.prelu and tile.row_expand (select_ops.py), each block of
// rows of out computed here from the same inputs.
func TestSelectOps(t *testing.T) {
	const R, C = 16, 32
	prog, comp, text := authored(t, "select_ops.py", "SelectOps", 1)
	wantPTO(t, text, "pto.tsels", "pto.tprelu", "pto.trowexpand")
	a, slope, col := tensor.Randn(21, R, C), tensor.Randn(22, R, C), tensor.Randn(23, R, 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{a.Clone(), slope.Clone(), col.Clone(), tensor.Zeros(ir.FP32, 3*R, C)}
	}, func(got []*tensor.Tensor, compiled bool) {
		for i := 0; i < R; i++ {
			for j := 0; j < C; j++ {
				x := a.At(i, j)
				sels, prelu := x, x
				if x < 0 {
					sels, prelu = -1, f32(slope.At(i, j)*x)
				}
				for k, want := range []float64{sels, prelu, col.At(i, 0)} {
					if g := got[3].At(k*R+i, j); g != want {
						t.Fatalf("compiled %v: op %d at [%d, %d]: got %v, want %v (x = %v)", compiled, k, i, j, g, want, x)
					}
				}
			}
		}
	})
}

// tile.tri: the lower triangle with the diagonal, and the upper one from
// two columns right of it over the first 8 rows only (the rest of the
// tile is not written, so those rows of out keep their zeros).
func TestTriangles(t *testing.T) {
	const R = 16
	prog, comp, text := authored(t, "select_ops.py", "Triangles", 1)
	wantPTO(t, text, `"pto.ttri"`, "upperOrLower = 0 : i32", "upperOrLower = 1 : i32")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Zeros(ir.FP32, 2*R, R)}
	}, func(got []*tensor.Tensor, compiled bool) {
		for i := 0; i < R; i++ {
			for j := 0; j < R; j++ {
				lower, upper := 0.0, 0.0
				if j <= i {
					lower = 1
				}
				if i < 8 && j >= i+2 {
					upper = 1
				}
				if g := got[0].At(i, j); g != lower {
					t.Fatalf("compiled %v: lower[%d, %d] = %v, want %v", compiled, i, j, g, lower)
				}
				if g := got[0].At(R+i, j); g != upper {
					t.Fatalf("compiled %v: upper[%d, %d] = %v, want %v", compiled, i, j, g, upper)
				}
			}
		}
	})
}

// Upstream's system tests of these ops (tests/st/runtime/ops), read
// unmodified, at their cases' defaults: each runs as written and compiled
// to what its compute_expected says.
func TestUpstreamSelectOps(t *testing.T) {
	type check func(t *testing.T, a []*tensor.Tensor, compiled bool)
	run := func(t *testing.T, file, name string, args func() []*tensor.Tensor, c check) {
		mod := upstreamSystemTest(t, "runtime/ops/"+file)
		prog, comp := calledCompiled(t, mod, 1, name)
		writtenAndCompiled(t, prog, comp, 1, args, func(a []*tensor.Tensor, compiled bool) { c(t, a, compiled) })
	}
	tril := func(diag int) check {
		return func(t *testing.T, a []*tensor.Tensor, compiled bool) {
			out := a[len(a)-1]
			for i := 0; i < 16; i++ {
				for j := 0; j < 32; j++ {
					want := 0.0
					if j <= i+diag {
						want = 1
					}
					if g := out.At(i, j); g != want {
						t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, g, want)
					}
				}
			}
		}
	}
	t.Run("TriTestCase", func(t *testing.T) {
		run(t, "test_tri.py", "TriTestCase", func() []*tensor.Tensor { return []*tensor.Tensor{tensor.Zeros(ir.FP32, 16, 32)} }, tril(0))
	})
	t.Run("TriScalarDiagonalTestCase", func(t *testing.T) {
		run(t, "test_tri.py", "TriScalarDiagonalTestCase", func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.FromInt32([]int32{2}, 1), tensor.Zeros(ir.FP32, 16, 32)}
		}, tril(2))
	})
	src := tensor.Randn(31, 16, 64)
	t.Run("TileSelsTestCase", func(t *testing.T) {
		run(t, "test_sels.py", "TileSelsTestCase", func() []*tensor.Tensor {
			return []*tensor.Tensor{src.Clone(), tensor.Zeros(ir.FP32, 16, 64)}
		}, func(t *testing.T, a []*tensor.Tensor, compiled bool) {
			for i := 0; i < 16; i++ {
				for j := 0; j < 64; j++ {
					want := src.At(i, j)
					if want <= 0 {
						want = -3
					}
					if g := a[1].At(i, j); g != want {
						t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, g, want)
					}
				}
			}
		})
	})
	slope := tensor.Randn(32, 16, 64)
	t.Run("TilePreluTestCase", func(t *testing.T) {
		run(t, "test_prelu.py", "TilePreluTestCase", func() []*tensor.Tensor {
			return []*tensor.Tensor{src.Clone(), slope.Clone(), tensor.Zeros(ir.UINT8, 17, 32), tensor.Zeros(ir.FP32, 16, 64)}
		}, func(t *testing.T, a []*tensor.Tensor, compiled bool) {
			for i := 0; i < 16; i++ {
				for j := 0; j < 64; j++ {
					want := src.At(i, j)
					if want <= 0 {
						want = f32(slope.At(i, j) * want)
					}
					if g := a[3].At(i, j); g != want {
						t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, g, want)
					}
				}
			}
		})
	})
	col := tensor.Randn(33, 16, 1)
	t.Run("TestTileRowExpand", func(t *testing.T) {
		run(t, "test_broadcast.py", "TestTileRowExpand", func() []*tensor.Tensor {
			return []*tensor.Tensor{col.Clone(), tensor.Zeros(ir.FP32, 16, 16)}
		}, func(t *testing.T, a []*tensor.Tensor, compiled bool) {
			for i := 0; i < 16; i++ {
				for j := 0; j < 16; j++ {
					if g, want := a[1].At(i, j), col.At(i, 0); g != want {
						t.Fatalf("compiled %v: y[%d, %d] = %v, want %v", compiled, i, j, g, want)
					}
				}
			}
		})
	})
}

// A sels mask carried in an INT16 tile (upstream takes any 8-, 16- or
// 32-bit integer carrier): bit j of a row is bit j%8 of the row's byte
// j/8, the bytes of each INT16 little-endian, as the NPU stores them.
func TestSelsMaskCarrier(t *testing.T) {
	prog, comp, text := authored(t, "sels_carrier.py", "SelsCarrier", 1)
	wantPTO(t, text, "pto.tsels ins(")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		bits := []int32{-21846, 0x0F0F, 1, -1, 0x7000, -32768, 0, 0x00FF, 0x5555, -2, 3, 4, 5, 6, 7, 8,
			0, 0, 0x1234, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
		v := make([]float64, len(bits))
		for i, b := range bits {
			v[i] = float64(b)
		}
		return []*tensor.Tensor{tensor.Randn(4, 2, 16), tensor.FromFloat64(ir.INT16, v, 2, 16), tensor.Zeros(ir.FP32, 2, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for r := 0; r < 2; r++ {
			for j := 0; j < 16; j++ {
				word := uint16(int16(a[1].At(r, j/16)))
				bit := word >> (j % 16) & 1
				want := -3.0
				if bit == 1 {
					want = a[0].At(r, j)
				}
				if got := a[2].At(r, j); got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v (mask word %#04x)", compiled, r, j, got, want, word)
				}
			}
		}
	})
}

// tile.row_expand_add's packed form adds element j % 8 of each row's
// 32-byte block (FP32) to column j, the column form with a scratch tile
// adds the column; as written and compiled, the tmp passed to PTO.
func TestRowExpandAddPacked(t *testing.T) {
	prog, comp, text := authored(t, "row_expand_packed.py", "PackedRowAdd", 1)
	wantPTO(t, text, "pto.trowexpandadd ins(%t, %p :", "pto.trowexpandadd ins(%t, %c, %tmp :")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 32), tensor.Randn(2, 16, 8), tensor.Randn(3, 16, 1), tensor.Zeros(ir.FP32, 2, 16, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			for j := 0; j < 32; j++ {
				x := a[0].At(i, j)
				if got, want := a[3].At(0, i, j), f32(x+a[1].At(i, j%8)); got != want {
					t.Fatalf("compiled %v: packed out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
				if got, want := a[3].At(1, i, j), f32(x+a[2].At(i, 0)); got != want {
					t.Fatalf("compiled %v: column out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}
