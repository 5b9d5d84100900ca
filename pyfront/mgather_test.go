package pyfront_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// TestMgather: element and row gathers from a GM table, in range and out
// of range under each gather_oob mode, run as written and compiled to the
// table's values at the indices (clamped, wrapped or zero as asked), and
// an out-of-range index under 'undefined' is a run error naming it.
func TestMgather(t *testing.T) {
	prog, comp, text := authored(t, "mgather.py", "Mgather", 1)
	wantPTO(t, text, "{coalesce = #pto<coalesce elem>}", "gatherOob = #pto<gather_oob clamp>", "gatherOob = #pto<gather_oob wrap>", "gatherOob = #pto<gather_oob zero>")
	ints := func(seed int64, lo, hi int, dims ...int) *tensor.Tensor {
		r := rand.New(rand.NewSource(seed))
		n := 1
		for _, d := range dims {
			n *= d
		}
		v := make([]int32, n)
		for i := range v {
			v[i] = int32(lo + r.Intn(hi-lo))
		}
		return tensor.FromInt32(v, dims...)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 32, 16), ints(2, 0, 512, 4, 16), ints(3, -40, 560, 4, 16), ints(4, 0, 32, 1, 8), ints(5, -40, 72, 1, 8),
			tensor.Zeros(ir.FP32, 4, 16), tensor.Zeros(ir.FP32, 4, 16), tensor.Zeros(ir.FP32, 8, 16), tensor.Zeros(ir.FP32, 8, 16), tensor.Zeros(ir.FP32, 8, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		table := a[0].Float64s()
		check := func(what string, got, want float64, i, j int) {
			if got != want {
				t.Fatalf("compiled %v: %s[%d,%d] = %v, want %v", compiled, what, i, j, got, want)
			}
		}
		for i := 0; i < 4; i++ {
			for j := 0; j < 16; j++ {
				check("elems", a[5].At(i, j), table[int(a[1].At(i, j))], i, j)
				// The device reads an index as uint32: a negative one clamps to the end.
				check("clamped", a[6].At(i, j), table[min(int(uint32(int32(a[2].At(i, j)))), 511)], i, j)
			}
		}
		for r := 0; r < 8; r++ {
			in, out := int(a[3].At(0, r)), int(a[4].At(0, r))
			for j := 0; j < 16; j++ {
				check("picked", a[7].At(r, j), table[in*16+j], r, j)
				check("wrapped", a[8].At(r, j), table[int(uint32(int32(out))%32)*16+j], r, j)
				want := 0.0
				if out >= 0 && out < 32 {
					want = table[out*16+j]
				}
				check("zeroed", a[9].At(r, j), want, r, j)
			}
		}
	})
	// 'undefined' and an index past the table: the run names it.
	args := []*tensor.Tensor{tensor.Randn(1, 32, 16), tensor.FromInt32(append(make([]int32, 63), 900), 4, 16), ints(3, 0, 512, 4, 16), ints(4, 0, 32, 1, 8), ints(5, 0, 32, 1, 8),
		tensor.Zeros(ir.FP32, 4, 16), tensor.Zeros(ir.FP32, 4, 16), tensor.Zeros(ir.FP32, 8, 16), tensor.Zeros(ir.FP32, 8, 16), tensor.Zeros(ir.FP32, 8, 16)}
	_, err := pl.Run(prog, pl.Ranks(1), args...)
	if err == nil || !strings.Contains(err.Error(), "index 900 (element 63 of idx) is outside mem's 512 elements (gather_oob='undefined'") {
		t.Fatalf("out-of-range undefined gather: %v", err)
	}
}

// TestUpstreamMgather reads upstream's test_mgather.py unmodified: its Vec
// row and element cases, on their own tables and indices, run as written
// and compiled to its compute_expected.
func TestUpstreamMgather(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/ops/test_mgather.py")
	mod97 := func(n, m int, dims ...int) *tensor.Tensor {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i % m)
		}
		return tensor.FromFloat64(ir.FP32, v, dims...)
	}
	// Row mode: 64 x 32 table of i % 97, 16 row indices, out [16, 32].
	rowIdx := []int32{63, 2, 41, 7, 31, 0, 18, 55, 4, 29, 13, 47, 8, 38, 22, 60}
	prog, comp := calledCompiled(t, mod, 1, "MgatherRowTestCase")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{mod97(64*32, 97, 64, 32), tensor.FromInt32(rowIdx, 1, 16), tensor.Zeros(ir.FP32, 16, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for r, k := range rowIdx {
			for j := 0; j < 32; j++ {
				if got, want := a[2].At(r, j), float64((int(k)*32+j)%97); got != want {
					t.Fatalf("row mode compiled %v: out[%d,%d] = %v, want %v", compiled, r, j, got, want)
				}
			}
		}
	})
	// Element mode: 256 elements of i % 53, indices reversed, out [8, 32].
	elemIdx := make([]int32, 256)
	for i := range elemIdx {
		elemIdx[i] = int32(255 - i)
	}
	prog, comp = calledCompiled(t, mod, 1, "MgatherElemTestCase")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{mod97(256, 53, 256), tensor.FromInt32(elemIdx, 8, 32), tensor.Zeros(ir.FP32, 8, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i, k := range elemIdx {
			if got, want := a[2].At(i/32, i%32), float64(int(k)%53); got != want {
				t.Fatalf("elem mode compiled %v: out[%d,%d] = %v, want %v", compiled, i/32, i%32, got, want)
			}
		}
	})
}

// TestUpstreamMgatherMat runs two of upstream's Mat tests, by their pytest
// ids: rows and elements gathered into Mat with a valid shape of 16 x 21
// (its row-col-tail case), on its FP16 tables and indices, brought out by
// its eye @ gathered product, to what its compute_expected says: the table
// in the valid region, zero elsewhere.
func TestUpstreamMgatherMat(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/ops/test_mgather.py")
	fp16 := func(n int, dims ...int) *tensor.Tensor {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i % 53)
		}
		return tensor.FromFloat64(ir.FP16, v, dims...)
	}
	eye := make([]float64, 32*32)
	for i := 0; i < 32; i++ {
		eye[i*32+i] = 1
	}
	rowIdx := make([]int32, 32)
	for i := range rowIdx {
		rowIdx[i] = int32((i*29 + 7) % 64)
	}
	elemIdx := make([]int32, 1024)
	for i := range elemIdx {
		elemIdx[i] = int32(1023 - i)
	}
	for _, c := range []struct {
		id   string
		args func() []*tensor.Tensor
		at   func(r, j int) float64
	}{
		{"TestMgather::test_gm_to_mat_valid_shape[row-col-tail-row-a2a3]", func() []*tensor.Tensor {
			return []*tensor.Tensor{fp16(64*32, 64, 32), tensor.FromInt32(rowIdx, 1, 32), tensor.FromFloat64(ir.FP16, eye, 32, 32), tensor.Zeros(ir.FP32, 16, 32)}
		}, func(r, j int) float64 { return float64((int(rowIdx[r])*32 + j) % 53) }},
		{"TestMgather::test_gm_to_mat_valid_shape[row-col-tail-elem-a2a3]", func() []*tensor.Tensor {
			return []*tensor.Tensor{fp16(1024, 1024), tensor.FromInt32(elemIdx, 32, 32), tensor.Zeros(ir.FP16, 1024), tensor.FromFloat64(ir.FP16, eye, 32, 32), tensor.Zeros(ir.FP32, 16, 32)}
		}, func(r, j int) float64 { return float64(int(elemIdx[r*32+j]) % 53) }},
	} {
		prog, err := mod.Program(c.id)
		if err != nil {
			t.Fatal(err)
		}
		comp, err := pl.TryCompile(prog, pl.Ranks(1))
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		writtenAndCompiled(t, prog, comp, 1, c.args, func(a []*tensor.Tensor, compiled bool) {
			out := a[len(a)-1]
			for r := 0; r < 16; r++ {
				for j := 0; j < 32; j++ {
					want := 0.0
					if j < 21 {
						want = c.at(r, j)
					}
					if got := out.At(r, j); got != want {
						t.Fatalf("%s compiled %v: out[%d, %d] = %v, want %v", c.id, compiled, r, j, got, want)
					}
				}
			}
		})
	}
}

// TestMgatherMat: gathers into Mat tiles by GM index tensors, rows (their
// indices wrapped, a valid shape of 12 rows) and elements (through a GM
// scratch tensor), brought out by an identity matmul, give the table's
// values, as written and compiled; scratch= and valid_shape= print by
// keyword and the PTO passes idx and scratch as GM partitions.
func TestMgatherMat(t *testing.T) {
	prog, comp, text := authored(t, "mgather_mat.py", "MatGather", 1)
	printed := prog.String()
	for _, want := range []string{"coalesce=0, gather_oob=2, target_memory=pl.Mem.Mat)", "valid_shape=[12, 16], coalesce=0",
		"pl.tile.mgather(flat, where, scratch=scratch, coalesce=1, target_memory=pl.Mem.Mat)",
		// The annotation names no view: the call's deduced one fills it, as
		// upstream's parser merges them.
		"rows: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat, pl.TileView(valid_shape=[12, 16])] = "} {
		if !strings.Contains(printed, want) {
			t.Fatalf("printed program has no %q:\n%s", want, printed)
		}
	}
	wantPTO(t, text, "pto.mgather ins(", "#pto<coalesce row>", "#pto<gather_oob wrap>", "#pto<coalesce elem>")
	r := rand.New(rand.NewSource(9))
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		picks := make([]int32, 16)
		for i := range picks {
			picks[i] = int32(r.Intn(3*64) - 64) // some outside the table: wrapped
		}
		where := make([]int32, 256)
		for i := range where {
			where[i] = int32(r.Intn(1024))
		}
		eye := make([]float32, 256)
		for i := 0; i < 16; i++ {
			eye[i*16+i] = 1
		}
		table := tensor.Randn(10, 64, 16)
		return []*tensor.Tensor{table, tensor.FromInt32(picks, 1, 16), tensor.FromFloat32(table.Float32s(), 1024), tensor.FromInt32(where, 16, 16),
			tensor.Zeros(ir.FP32, 256), tensor.FromFloat32(eye, 16, 16), tensor.Zeros(ir.FP32, 12, 16), tensor.Zeros(ir.FP32, 16, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		table := a[0].Float64s()
		for i := 0; i < 12; i++ {
			row := ((int(a[1].At(0, i)) % 64) + 64) % 64
			for j := 0; j < 16; j++ {
				if got, want := a[6].At(i, j), table[row*16+j]; got != want {
					t.Fatalf("compiled %v: by_row[%d, %d] = %v, want table[%d, %d] = %v", compiled, i, j, got, row, j, want)
				}
			}
		}
		for i := 0; i < 16; i++ {
			for j := 0; j < 16; j++ {
				if got, want := a[7].At(i, j), table[int(a[3].At(i, j))]; got != want {
					t.Fatalf("compiled %v: by_elem[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}
