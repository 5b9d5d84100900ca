package ir

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// hostBuiltinDeducerCases are TestDeducerErrors' cases for the host
// builtins: a plain tensor where a window belongs, a non-INT32 signal, and
// an unknown reduction.
func hostBuiltinDeducerCases() []struct {
	op   string
	args []Expr
	kw   Kwargs
	want string
} {
	data, sig := dist(FP32, 1, 256), dist(INT32, 4, 1)
	plain := tens(FP32, 1, 256)
	type tc = struct {
		op   string
		args []Expr
		kw   Kwargs
		want string
	}
	red := Kwargs{{"op", int64(0)}, {"dtype", FP32}}
	return []tc{
		{"builtin.tensor.allreduce", []Expr{data, sig}, Kwargs{{"op", int64(7)}, {"dtype", FP32}, {"core_num", int64(1)}},
			"cell[3]:7: builtin.tensor.allreduce: kwarg 'op': expected pld.ReduceOp.Sum, Max, Min, or Prod (0..3), given int 7"},
		{"builtin.tensor.allreduce_ring", []Expr{plain, sig}, red,
			"cell[3]:7: builtin.tensor.allreduce_ring: argument 'target': expected a pld.DistributedTensor (window-bound), given pl.Tensor[[1, 256], pl.FP32]"},
		{"builtin.tensor.barrier", []Expr{data}, nil,
			"cell[3]:7: builtin.tensor.barrier: argument 'signal': expected a signal with INT32 element type, given pld.DistributedTensor[[1, 256], pl.FP32]"},
		{"builtin.tensor.broadcast", []Expr{data, sig}, Kwargs{{"dtype", FP32}},
			"cell[3]:7: builtin.tensor.broadcast: kwarg 'root': expected a value (required), given nothing"},
		{"builtin.tensor.reduce_scatter", []Expr{data, data}, red,
			"cell[3]:7: builtin.tensor.reduce_scatter: argument 'signal': expected a signal with INT32 element type, given pld.DistributedTensor[[1, 256], pl.FP32]"},
		{"builtin.tensor.allgather", []Expr{plain, data, sig}, Kwargs{{"dtype", FP32}},
			"cell[3]:7: builtin.tensor.allgather: argument 'input': expected a pld.DistributedTensor (window-bound), given pl.Tensor[[1, 256], pl.FP32]"},
		{"builtin.tensor.all_to_all", []Expr{data, data, sig}, nil,
			"cell[3]:7: builtin.tensor.all_to_all: kwarg 'dtype': expected a value (required), given nothing"},
		{"builtin.tensor.all_to_all_v", []Expr{data, data, data, sig, sig}, Kwargs{{"dtype", FP32}},
			"cell[3]:7: builtin.tensor.all_to_all_v: argument 'signal': expected a signal with INT32 element type, given pld.DistributedTensor[[1, 256], pl.FP32]"},
	}
}

// A host collective names its builtin through the registry; allreduce picks
// by mode.
func TestHostBuiltinOf(t *testing.T) {
	data, sig := dist(FP32, 1, 256), dist(INT32, 4, 1)
	for mode, want := range map[string]string{"mesh": "builtin.tensor.allreduce", "ring": "builtin.tensor.allreduce_ring"} {
		c := MustCall("pld.tensor.allreduce", []Expr{data, sig}, Kwargs{{"op", int64(0)}, {"mode", mode}, {"core_num", int64(1)}}, Span{})
		b, ok := HostBuiltinOf(c)
		require.True(t, ok)
		require.Equal(t, want, b.Name)
	}
	b, ok := HostBuiltinOf(MustCall("pld.tensor.barrier", []Expr{sig}, nil, Span{}))
	require.True(t, ok)
	require.Equal(t, "builtin.tensor.barrier", b.Name)
	_, ok = HostBuiltinOf(MustCall("pld.system.world_size", nil, nil, Span{}))
	require.False(t, ok)
}
