package pyfront_test

import (
	"bytes"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// TestGatherb: gatherb copies the 32-byte blocks its offsets name, so the
// result's bytes are the source's blocks in offset order, whatever the
// element types (FP32 blocks reversed; INT16 pairs read back as INT32),
// as written and compiled.
func TestGatherb(t *testing.T) {
	prog, comp, text := authored(t, "gatherb.py", "Gatherb", 1)
	wantPTO(t, text, "pto.tgatherb ins(")
	offsets := make([]float64, 16)
	for i := range offsets {
		offsets[i] = float64((15 - (i*7)%16) * 32) // a permutation of the 16 blocks
	}
	halves := make([]float64, 256)
	for i := range halves {
		halves[i] = float64(i*37%65536 - 32768)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(3, 1, 128), tensor.FromFloat64(ir.INT16, halves, 1, 256), tensor.FromFloat64(ir.UINT32, offsets, 2, 8),
			tensor.Zeros(ir.FP32, 2, 64), tensor.Zeros(ir.INT32, 2, 64)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for k, pair := range [][2]int{{0, 3}, {1, 4}} {
			src, out := a[pair[0]].Bytes(), a[pair[1]].Bytes()
			var want []byte
			for _, o := range offsets {
				want = append(want, src[int(o):int(o)+32]...)
			}
			if !bytes.Equal(out, want) {
				t.Fatalf("compiled %v: result %d holds %x, want %x", compiled, k, out[:64], want[:64])
			}
		}
	})
}

// TestUpstreamGatherb reads upstream's test_gatherb.py unmodified: its
// default case (an FP32 table of 32 blocks, reversed by 4 x 8 offsets)
// runs, as written and compiled, to its compute_expected.
func TestUpstreamGatherb(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/ops/test_gatherb.py")
	prog, comp := calledCompiled(t, mod, 1, "GatherbTestCase")
	src := make([]float64, 256) // 32 blocks of 8 FP32: arange
	for i := range src {
		src[i] = float64(i)
	}
	offsets := make([]float64, 32)
	for i := range offsets {
		offsets[i] = float64((31 - i) * 32)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.FromFloat64(ir.FP32, src, 1, 256), tensor.FromFloat64(ir.UINT32, offsets, 4, 8), tensor.Zeros(ir.FP32, 4, 64)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for r := 0; r < 4; r++ {
			for j := 0; j < 64; j++ {
				block := 31 - (r*8 + j/8)
				if got, want := a[2].At(r, j), float64(block*8+j%8); got != want {
					t.Fatalf("compiled %v: out[%d,%d] = %v, want %v", compiled, r, j, got, want)
				}
			}
		}
	})
}
