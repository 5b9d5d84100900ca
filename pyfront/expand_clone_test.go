//go:build cgo

package pyfront_test

import (
	"path/filepath"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// expandedAt is y[i, j, k] of x expanded along dim (-1: none).
func expandedAt(x *tensor.Tensor, dim, i, j, k int) float64 {
	at := []int{i, j, k}
	if dim >= 0 {
		at[dim] = 0
	}
	return x.At(at...)
}

// checkExpanded fails unless y is x expanded along dim (-1: none).
func checkExpanded(t *testing.T, dim int, compiled bool, x, y *tensor.Tensor) {
	t.Helper()
	sh := y.Shape()
	for i := 0; i < sh[0]; i++ {
		for j := 0; j < sh[1]; j++ {
			for q := 0; q < sh[2]; q++ {
				if got, want := y.At(i, j, q), expandedAt(x, dim, i, j, q); got != want {
					t.Fatalf("dim %d compiled %v: y[%d, %d, %d] = %v, want %v", dim, compiled, i, j, q, got, want)
				}
			}
		}
	}
}

// pl.expand_clone along each dimension and along none (a copy) runs as
// written and compiled to torch's expand: every element of the target is
// the input's at the same index, the broadcast dimension's index 0.
func TestExpandClone(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "expand_clone.py"))
	if err != nil {
		t.Fatal(err)
	}
	const b, n, k = 3, 4, 16
	for _, dim := range []int{-1, 0, 1, 2} {
		prog, comp := calledCompiled(t, mod, 1, "build_expand", b, n, k, dim)
		in := []int{b, n, k}
		if dim >= 0 {
			in[dim] = 1
		}
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Randn(int64(dim+5), in...), tensor.Zeros(ir.FP32, b, n, k)}
		}, func(a []*tensor.Tensor, compiled bool) { checkExpanded(t, dim, compiled, a[0], a[1]) })
	}
}

// TestUpstreamExpandClone reads upstream's test_broadcast.py unmodified:
// its expand_clone case (built through its _input_shape helper method) at
// each broadcast dimension runs as written and compiled to what its
// compute_expected says (x repeated along that dimension).
func TestUpstreamExpandClone(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/ops/test_broadcast.py")
	const b, n, k = 2, 4, 8
	for _, dim := range []int{-1, 0, 1, 2} {
		prog, err := mod.Call("TestTensorExpandClone", b, n, k, dim)
		if err != nil {
			t.Fatal(err)
		}
		comp, err := pl.TryCompile(prog, pl.Ranks(1))
		if err != nil {
			t.Fatal(err)
		}
		in := []int{b, n, k}
		if dim >= 0 {
			in[dim] = 1
		}
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Randn(int64(dim+9), in...), tensor.Zeros(ir.FP32, b, n, k)}
		}, func(a []*tensor.Tensor, compiled bool) { checkExpanded(t, dim, compiled, a[0], a[1]) })
	}
}
