//go:build cgo

package pyfront_test

import (
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// Dispatch predicates (predicate.py): an expert with no rows is retired
// without running, its rows of y stay as they were, and the launch after
// all experts still runs; a predicated scope clobbers x only when its gate
// is set.
func TestDispatchPredicate(t *testing.T) {
	const e, rows, cols = 4, 16, 16
	prog, comp, _ := authored(t, "predicate.py", "Experts", 1)
	sizes := []int32{3, 0, 5, 0}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.FromInt32(sizes, e, 1), tensor.Randn(1, e*rows, cols), tensor.Zeros(ir.INT32, e, 1),
			tensor.Randn(2, e*rows, cols), tensor.Zeros(ir.FP32, e*rows, cols)}
	}, func(a []*tensor.Tensor, compiled bool) {
		y0 := tensor.Randn(2, e*rows, cols)
		for i := 0; i < e*rows; i++ {
			for j := 0; j < cols; j++ {
				want := f32(y0.At(i, j) + 1) // a retired expert leaves its rows of y as they were
				if sizes[i/rows] > 0 {
					want = f32(f32(3*a[1].At(i, j)) + 1)
				}
				if got := a[4].At(i, j); got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v (expert %d has %d rows)", compiled, i, j, got, want, i/rows, sizes[i/rows])
				}
			}
		}
	})

	prog, comp, _ = authored(t, "predicate.py", "ScopeForm", 1)
	for _, gate := range []float64{0, 1} {
		want := 42.0
		if gate > 0 {
			want = 999
		}
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Zeros(ir.FP32, rows, cols), tensor.Full(ir.INT32, gate, rows, cols), tensor.Zeros(ir.FP32, rows, cols)}
		}, func(a []*tensor.Tensor, compiled bool) {
			if got := a[2].At(rows-1, cols-1); got != want {
				t.Fatalf("compiled %v, gate %v: out = %v, want %v", compiled, gate, got, want)
			}
		})
	}
}

// Upstream's predicated-dispatch system test (tests/st/runtime/scheduling
// in a PyPTO checkout), both its submit and scope forms, read unmodified:
// out is POISON when the gate is set and SENTINEL when not, as its
// compute_expected says.
func TestUpstreamPredicatedDispatch(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/scheduling/test_predicated_dispatch.py")
	const r, c = 128, 128
	for _, factory := range []string{"_build_program", "_build_scope_program"} {
		prog, err := mod.Call(factory)
		if err != nil {
			t.Fatal(err)
		}
		comp, err := pl.TryCompile(prog, pl.Ranks(1))
		if err != nil {
			t.Fatal(err)
		}
		for _, gate := range []float64{0, 1} {
			want := 42.0
			if gate > 0 {
				want = 999
			}
			writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.Full(ir.FP32, -1, r, c), tensor.Full(ir.INT32, gate, r, c), tensor.Full(ir.FP32, -1, r, c)}
			}, func(a []*tensor.Tensor, compiled bool) {
				for _, at := range [][2]int{{0, 0}, {r - 1, c - 1}} {
					if got := a[2].At(at[0], at[1]); got != want {
						t.Fatalf("%s compiled %v, gate %v: out%v = %v, want %v", factory, compiled, gate, at, got, want)
					}
				}
			})
		}
	}
}
