package pyfront_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// randIndex is an INT32 tensor of dims with values in [0, n).
func randIndex(seed int64, n int, dims ...int) *tensor.Tensor {
	r := rand.New(rand.NewSource(seed))
	size := 1
	for _, d := range dims {
		size *= d
	}
	v := make([]int32, size)
	for k := range v {
		v[k] = int32(r.Intn(n))
	}
	return tensor.FromInt32(v, dims...)
}

// lastDimGather checks out = torch.gather(in, -1, index) for flat row-major
// values: rows of width inCols and idxCols.
func lastDimGather(t *testing.T, what string, in, index, out *tensor.Tensor, inCols, idxCols int) {
	t.Helper()
	x, ix, o := in.Float64s(), index.Float64s(), out.Float64s()
	for k := range o {
		row := k / idxCols
		if want := x[row*inCols+int(ix[k])]; o[k] != want {
			t.Fatalf("%s: element %d = %v, want %v", what, k, o[k], want)
		}
	}
}

// rank3Gather checks out = torch.gather(in, dim, index) for rank-3 tensors.
func rank3Gather(t *testing.T, what string, dim int, in, index, out *tensor.Tensor) {
	t.Helper()
	sh := index.Shape()
	for i := 0; i < sh[0]; i++ {
		for j := 0; j < sh[1]; j++ {
			for k := 0; k < sh[2]; k++ {
				at := []int{i, j, k}
				at[dim] = int(index.At(i, j, k))
				if got, want := out.At(i, j, k), in.At(at...); got != want {
					t.Fatalf("%s: out[%d, %d, %d] = %v, want %v", what, i, j, k, got, want)
				}
			}
		}
	}
}

// TestGatherND: gathers along the last dimension of rank-3 and rank-4
// tensors run as written and compiled to torch.gather's result.
func TestGatherND(t *testing.T) {
	prog, comp, _ := authored(t, "gather_nd.py", "GatherND", 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 2, 3, 16), randIndex(2, 16, 2, 3, 8), tensor.Randn(3, 2, 2, 2, 32), randIndex(4, 32, 2, 2, 2, 8),
			tensor.Zeros(ir.FP32, 2, 3, 8), tensor.Zeros(ir.FP32, 2, 2, 2, 8)}
	}, func(a []*tensor.Tensor, compiled bool) {
		how := "written"
		if compiled {
			how = "compiled"
		}
		lastDimGather(t, how+" rank 3", a[0], a[1], a[4], 16, 8)
		lastDimGather(t, how+" rank 4", a[2], a[3], a[5], 32, 8)
	})
}

// TestUpstreamGatherRank3 reads upstream's test_gather.py unmodified: its
// rank-3 last-dimension case runs, as written and compiled, to
// torch.gather(inp, dim=-1, index=idx).
func TestUpstreamGatherRank3(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/ops/test_gather.py")
	prog, comp, _ := compiledProgram(t, mod, "GatherRank3LastDimProgram", 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(5, 2, 3, 16), randIndex(6, 16, 2, 3, 8), tensor.Zeros(ir.FP32, 2, 3, 8)}
	}, func(a []*tensor.Tensor, compiled bool) {
		lastDimGather(t, "GatherRank3LastDimProgram", a[0], a[1], a[2], 16, 8)
	})
}

// TestUpstreamGatherOuterDims reads upstream's rank-3 gathers along the
// middle dimension and (dim=-3) the first, unmodified: each runs, as
// written and compiled, to torch.gather(inp, dim, index=idx).
func TestUpstreamGatherOuterDims(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/ops/test_gather.py")
	for _, c := range []struct {
		name         string
		dim          int
		in, idx      []int
		indexedLimit int
	}{
		{"GatherRank3MiddleDimProgram", 1, []int{2, 8, 8}, []int{2, 3, 8}, 8},
		{"GatherRank3NegFirstDimProgram", 0, []int{8, 2, 8}, []int{3, 2, 8}, 8},
	} {
		prog, comp, _ := compiledProgram(t, mod, c.name, 1)
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Randn(7, c.in...), randIndex(8, c.indexedLimit, c.idx...), tensor.Zeros(ir.FP32, c.idx...)}
		}, func(a []*tensor.Tensor, compiled bool) {
			rank3Gather(t, fmt.Sprintf("%s compiled %v", c.name, compiled), c.dim, a[0], a[1], a[2])
		})
	}
}
