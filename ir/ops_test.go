package ir

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Test fixtures: variables of the types the distributed examples use.
func tvar(name string, t Type) *Var { return NewVar(name, t, Span{}) }

func dist(dt DataType, dims ...int64) *Var {
	return tvar("d", &DistributedTensorType{Shape: Dims(dims...).Elems, DType: dt})
}
func tens(dt DataType, dims ...int64) *Var {
	return tvar("t", &TensorType{Shape: Dims(dims...).Elems, DType: dt})
}
func tile(dt DataType, mem MemorySpace, dims ...int64) *Var {
	return tvar("x", NewTileType(Dims(dims...).Elems, dt, mem, nil))
}
func i32(v int64) *ConstInt    { return IntOf(v, INT32) }
func itile(dims ...int64) *Var { return tile(INT32, MemVec, dims...) }

var ftile = tile(FP32, MemVec, 16, 32)

var cell = Span{File: "cell[3]", Line: 7}

// A table of rejected calls, at least one per registered op, each with the full message.
func TestDeducerErrors(t *testing.T) {
	sig := dist(INT32, 4, 1)
	data := dist(FP32, 1, 256)
	ctx := tvar("ctx", CommCtxT)
	ptr := tvar("buf", PtrT)
	plain := tens(FP32, 1, 256)
	vec := tile(FP32, MemVec, 1, 256)
	one := tens(INT32, 1)
	cases := []struct {
		op   string
		args []Expr
		kw   Kwargs
		want string
	}{
		{"pld.tensor.alloc_window_buffer", []Expr{Int(1024)}, Kwargs{{"name", ""}},
			"cell[3]:7: pld.tensor.alloc_window_buffer: kwarg 'name': expected a non-empty buffer name (bind the call with Let), given ''"},
		{"pld.tensor.window", []Expr{plain, Dims(1, 256)}, Kwargs{{"dtype", FP32}},
			"cell[3]:7: pld.tensor.window: argument 'buf': expected a pl.Ptr (output of pld.tensor.alloc_window_buffer), given pl.Tensor[[1, 256], pl.FP32]"},
		{"pld.system.world_size", []Expr{Int(1)}, nil,
			"cell[3]:7: pld.system.world_size: expected no positional arguments, given 1"},
		{"pld.system.get_comm_ctx", []Expr{plain}, nil,
			"cell[3]:7: pld.system.get_comm_ctx: argument 'dist_tensor': expected a pld.DistributedTensor (window-bound), given pl.Tensor[[1, 256], pl.FP32]"},
		{"pld.system.rank", []Expr{data}, nil,
			"cell[3]:7: pld.system.rank: argument 'ctx': expected a pld.CommCtx (output of pld.system.get_comm_ctx), given pld.DistributedTensor[[1, 256], pl.FP32]"},
		{"pld.system.nranks", []Expr{Int(0)}, nil,
			"cell[3]:7: pld.system.nranks: argument 'ctx': expected a pld.CommCtx (output of pld.system.get_comm_ctx), given pl.Scalar[pl.INDEX]"},
		{"pld.system.notify", []Expr{one, i32(1), Dims(0), i32(1)}, Kwargs{{"op", int64(0)}},
			"cell[3]:7: pld.system.notify: argument 'target': expected a pld.DistributedTensor (window-bound), given pl.Tensor[[1], pl.INT32]"},
		{"pld.system.notify", []Expr{sig, i32(1), Dims(0), i32(1)}, Kwargs{{"op", int64(0)}},
			"cell[3]:7: pld.system.notify: argument 'offsets': expected a tuple of 2 elements (the tensor's rank), given [0] with 1 elements"},
		{"pld.system.notify", []Expr{sig, i32(1), Dims(0, 0), i32(1)}, Kwargs{{"op", int64(2)}},
			"cell[3]:7: pld.system.notify: kwarg 'op': expected pld.NotifyOp.AtomicAdd (0) or pld.NotifyOp.Set (1), given int 2"},
		{"pld.system.notify", []Expr{sig, i32(1), Dims(0, 0), i32(1)}, nil,
			"cell[3]:7: pld.system.notify: kwarg 'op': expected a value (required), given nothing"},
		{"pld.system.wait", []Expr{sig, Dims(0, 0), i32(1)}, Kwargs{{"cmp", int64(5)}},
			"cell[3]:7: pld.system.wait: kwarg 'cmp': expected pld.WaitCmp.Eq (0) or pld.WaitCmp.Ge (1), given int 5"},
		{"pld.system.defer_wait", []Expr{sig, Dims(0, 0), i32(1)}, Kwargs{{"cmp", int64(0)}},
			"cell[3]:7: pld.system.defer_wait: kwarg 'cmp': expected pld.WaitCmp.Ge (1), given int 0"},
		{"pld.tile.remote_load", []Expr{data, i32(1), Dims(0, 0), Dims(1, 512)}, nil,
			"cell[3]:7: pld.tile.remote_load: argument 'shape': expected a region inside the target (offset+extent <= 256 in dimension 1), given offset 0 + extent 512 = 512"},
		// With a valid_shape, only the valid region must lie inside the
		// target: a fixed physical tile may reach past a ragged tail.
		{"pld.tile.remote_load", []Expr{data, i32(1), Dims(0, 0), Dims(1, 512), Dims(1, 200)}, nil, ""},
		{"pld.tile.remote_load", []Expr{data, i32(1), Dims(0, 100), Dims(1, 512), Dims(1, 200)}, nil,
			"cell[3]:7: pld.tile.remote_load: argument 'valid_shape': expected a region inside the target (offset+extent <= 256 in dimension 1), given offset 100 + extent 200 = 300"},
		{"pld.tile.remote_load", []Expr{data, i32(1), Dims(0, 0), Dims(1, 64), Dims(1, 128)}, nil,
			"cell[3]:7: pld.tile.remote_load: argument 'valid_shape': expected valid extents within the shape (a valid region cannot be larger than the tile), given 128 > 64 in dimension 1"},
		{"pld.tile.remote_store", []Expr{tile(FP16, MemVec, 1, 256), data, i32(1), Dims(0, 0)}, nil,
			"cell[3]:7: pld.tile.remote_store: argument 'src_tile': expected element type pl.FP32 (the target's), given pl.FP16"},
		{"pld.tensor.remote_store", []Expr{data, data, i32(1), Dims(0, 0)}, nil,
			"cell[3]:7: pld.tensor.remote_store: argument 'src': expected a pl.Tensor (tensor-level value); use pld.tensor.put for window-to-window copies, given pld.DistributedTensor[[1, 256], pl.FP32]"},
		{"pld.tensor.put", []Expr{plain, i32(1), plain}, Kwargs{{"atomic", int64(0)}},
			"cell[3]:7: pld.tensor.put: argument 'dst': expected a pld.DistributedTensor (window-bound), given pl.Tensor[[1, 256], pl.FP32]"},
		{"pld.tensor.put", []Expr{data, i32(1), plain}, Kwargs{{"atomic", int64(0)}, {"pipeline", true}},
			"cell[3]:7: pld.tensor.put: kwarg 'pipeline': expected pipeline=True only with both chunk_rows > 0 and chunk_cols > 0, given chunk_rows=0, chunk_cols=0"},
		{"pld.tensor.put", []Expr{data, i32(1), plain, Dims(0, 0)}, Kwargs{{"atomic", int64(0)}},
			"cell[3]:7: pld.tensor.put: expected 3 arguments (dst, peer, src) or 6 with dst_offsets, src_offsets and shape, which must be provided together, given 4"},
		{"pld.tensor.get", []Expr{plain, i32(1), tens(FP32, 1, 128)}, nil,
			"cell[3]:7: pld.tensor.get: argument 'src': expected a pld.DistributedTensor (window-bound), given pl.Tensor[[1, 128], pl.FP32]"},
		{"pld.tile.put", []Expr{data, i32(1), plain, tile(FP16, MemVec, 1, 256)}, Kwargs{{"atomic", int64(0)}},
			"cell[3]:7: pld.tile.put: argument 'stage': expected a staging tile of element type pl.FP32, given pl.Tile[[1, 256], pl.FP16, pl.Mem.Vec]"},
		{"pld.tile.get", []Expr{plain, i32(1), data, tile(FP32, MemVec, 2, 256)}, nil,
			"cell[3]:7: pld.tile.get: argument 'stage': expected a stage of at most [1, 256] (the flattened transfer), given pl.Tile[[2, 256], pl.FP32, pl.Mem.Vec]"},
		{"pld.tensor.allreduce", []Expr{plain, sig}, Kwargs{{"op", int64(0)}, {"core_num", int64(1)}},
			"cell[3]:7: pld.tensor.allreduce: argument 'target': expected a pld.DistributedTensor (window-bound), given pl.Tensor[[1, 256], pl.FP32]"},
		{"pld.tensor.allreduce", []Expr{data, dist(FP32, 4, 1)}, Kwargs{{"op", int64(0)}, {"core_num", int64(1)}},
			"cell[3]:7: pld.tensor.allreduce: argument 'signal': expected a signal with INT32 element type, given pld.DistributedTensor[[4, 1], pl.FP32]"},
		{"pld.tensor.allreduce", []Expr{data, sig}, Kwargs{{"op", int64(7)}, {"core_num", int64(1)}},
			"cell[3]:7: pld.tensor.allreduce: kwarg 'op': expected pld.ReduceOp.Sum, Max, Min, or Prod (0..3), given int 7"},
		{"pld.tensor.allreduce", []Expr{dist(INT32, 1, 8), sig}, Kwargs{{"op", int64(0)}, {"core_num", int64(1)}},
			"cell[3]:7: pld.tensor.allreduce: argument 'target': expected a target of element type FP16 or FP32, given pld.DistributedTensor[[1, 8], pl.INT32]"},
		{"pld.tensor.barrier", []Expr{dist(FP32, 4, 1)}, nil,
			"cell[3]:7: pld.tensor.barrier: argument 'signal': expected a signal with INT32 element type, given pld.DistributedTensor[[4, 1], pl.FP32]"},
		{"pld.tensor.broadcast", []Expr{data, sig}, Kwargs{{"root", int64(-1)}},
			"cell[3]:7: pld.tensor.broadcast: kwarg 'root': expected a rank >= 0, given -1"},
		{"pld.tensor.reduce_scatter", []Expr{dist(FP32, 4, 64), sig}, Kwargs{{"op", int64(1)}},
			"cell[3]:7: pld.tensor.reduce_scatter: kwarg 'op': expected pld.ReduceOp.Sum (0), given int 1"},
		{"pld.tensor.allgather", []Expr{tens(FP32, 1, 32), dist(FP32, 4, 64), sig}, nil,
			"cell[3]:7: pld.tensor.allgather: argument 'input': expected SIZE 64 (the target's last dimension), given [1, 32]"},
		{"pld.tensor.all_to_all", []Expr{tens(FP32, 2, 64), dist(FP32, 4, 64), sig}, nil,
			"cell[3]:7: pld.tensor.all_to_all: argument 'input': expected an input of shape [NR, SIZE] matching the target, given [2, 64]"},
		{"pld.tensor.all_to_all_v", []Expr{tens(FP32, 4, 64), dist(FP32, 6, 64), sig, tens(INT32, 4), dist(INT32, 4, 1)}, nil,
			"cell[3]:7: pld.tensor.all_to_all_v: argument 'target': expected a row count divisible by NR=4, given pld.DistributedTensor[[6, 64], pl.FP32]"},
		{"tile.comm_notify", []Expr{sig, i32(1)}, Kwargs{{"op", "atomic_add"}},
			"cell[3]:7: tile.comm_notify: argument 'signal': expected a pl.Tensor signal (TensorType), given pld.DistributedTensor[[4, 1], pl.INT32]"},
		{"tile.comm_notify", []Expr{one, i32(1)}, Kwargs{{"op", "bogus"}},
			"cell[3]:7: tile.comm_notify: kwarg 'op': expected one of 'atomic_add', 'set', given 'bogus'"},
		{"tile.comm_wait", []Expr{tens(FP32, 1), i32(1)}, Kwargs{{"cmp", "ge"}},
			"cell[3]:7: tile.comm_wait: argument 'signal': expected an INT32 signal, given pl.FP32"},
		{"tile.comm_wait", []Expr{tens(INT32, 4), i32(1)}, Kwargs{{"cmp", "ge"}},
			"cell[3]:7: tile.comm_wait: argument 'signal': expected a signal holding exactly one INT32 slot, given static dim 4 in pl.Tensor[[4], pl.INT32]"},
		{"tile.comm_test", []Expr{one, Int(1)}, Kwargs{{"cmp", "eq"}},
			"cell[3]:7: tile.comm_test: argument 'cmp_value': expected an INT32 scalar, given pl.Scalar[pl.INDEX]"},
		{"tile.comm_test", []Expr{one, i32(1)}, Kwargs{{"cmp", "lte"}},
			"cell[3]:7: tile.comm_test: kwarg 'cmp': expected one of 'eq', 'ne', 'gt', 'ge', 'lt', 'le', given 'lte'"},
		{"tile.load", []Expr{vec, Dims(0, 0), Dims(1, 256)}, nil,
			"cell[3]:7: tile.load: argument 'tensor': expected a pl.Tensor or pld.DistributedTensor, given pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec]"},
		{"tile.store", []Expr{tile(FP32, MemVec, 1, 256), Dims(0, 0), tens(FP16, 1, 256)}, nil,
			"cell[3]:7: tile.store: argument 'output_tensor': expected a tensor of element type pl.FP32 (the tile's; only an Acc tile's store converts, cast a Vec tile first), given pl.Tensor[[1, 256], pl.FP16]"},
		{"tile.store", []Expr{tile(INT8, MemVec, 1, 256), Dims(0, 0), tens(INT8, 1, 256)}, Kwargs{{"atomic", int64(1)}},
			""}, // INT8 supports atomic add: accepted
		{"tile.store", []Expr{tile(INT64, MemVec, 1, 256), Dims(0, 0), tens(INT64, 1, 256)}, Kwargs{{"atomic", int64(1)}},
			"cell[3]:7: tile.store: kwarg 'atomic': expected an element type that supports atomic Add (FP32, BF16, FP16, INT32, INT16, INT8), given pl.AtomicType.Add on pl.INT64"},
		{"tile.create", []Expr{Dims(0, 64)}, Kwargs{{"dtype", FP16}},
			"cell[3]:7: tile.create: argument 'shape': expected dimensions > 0, given dimension 0 is 0"},
		{"tensor.create", []Expr{Dims(4)}, nil,
			"cell[3]:7: tensor.create: kwarg 'dtype': expected a value (required), given nothing"},
		{"tensor.read", []Expr{plain, Dims(0)}, nil,
			"cell[3]:7: tensor.read: argument 'indices': expected a tuple of 2 elements (the tensor's rank), given [0] with 1 elements"},
		{"tile.read", []Expr{plain, Dims(0, 0)}, nil,
			"cell[3]:7: tile.read: argument 'tile': expected a pl.Tile, given pl.Tensor[[1, 256], pl.FP32]"},
		{"tensor.write", []Expr{plain, Dims(0, 0), &ConstBool{Value: true}}, nil,
			"cell[3]:7: tensor.write: argument 'value': expected a scalar of element type pl.FP32, given pl.Scalar[pl.BOOL]"},
		{"tile.scatter_update", []Expr{tile(FP32, MemVec, 16, 32), tile(INT32, MemVec, 2, 4), tile(FP32, MemVec, 6, 32)}, nil,
			"cell[3]:7: tile.scatter_update: argument 'src': expected one row per index (8 rows), given pl.Tile[[6, 32], pl.FP32, pl.Mem.Vec]"},
		{"tensor.scatter_update", []Expr{tens(FP32, 16, 32), tens(INT32, 2, 4), tens(FP32, 8, 32)}, Kwargs{{"dim", int64(1)}},
			"cell[3]:7: tensor.scatter_update: kwarg 'dim': expected -2 (rows; the only dimension upstream supports), given 1"},
		{"tile.cmp", []Expr{vec, vec}, Kwargs{{"cmp_type", int64(6)}},
			"cell[3]:7: tile.cmp: kwarg 'cmp_type': expected a comparison 0..5 (eq, ne, lt, le, gt, ge), given 6"},
		{"tile.cmps", []Expr{vec, vec}, nil,
			"cell[3]:7: tile.cmps: argument 'rhs': expected a scalar, given pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec]"},
		{"tile.sel", []Expr{vec, vec, vec, tile(UINT8, MemVec, 1, 32)}, nil,
			"cell[3]:7: tile.sel: argument 'mask': expected a packed predicate mask (UINT8, from tile.cmp), given pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec]"},
		{"tensor.cmp", []Expr{plain, tens(FP32, 2, 256)}, nil,
			"cell[3]:7: tensor.cmp: argument 'rhs': expected a tensor like lhs, [1, 256] of pl.FP32, or a scalar, given pl.Tensor[[2, 256], pl.FP32]"},
		{"tile.sort32", []Expr{tile(FP32, MemVec, 1, 48), tile(UINT32, MemVec, 1, 48)}, nil,
			"cell[3]:7: tile.sort32: argument 'src': expected a last dimension that is a multiple of 32 (whole blocks), given pl.Tile[[1, 48], pl.FP32, pl.Mem.Vec]"},
		{"tensor.sort32", []Expr{plain, tens(FP32, 1, 256)}, nil,
			"cell[3]:7: tensor.sort32: argument 'idx': expected an integer index tensor shaped like src, [1, 256], given pl.Tensor[[1, 256], pl.FP32]"},
		{"tile.mrgsort_format1", []Expr{vec, Int(63)}, nil,
			"cell[3]:7: tile.mrgsort_format1: argument 'block_len': expected a positive even run length (whole value/index pairs), given 63"},
		{"tensor.mrgsort_format1", []Expr{tens(INT32, 1, 256), Int(64)}, nil,
			"cell[3]:7: tensor.mrgsort_format1: argument 'src': expected values of FP16 or FP32, given pl.Tensor[[1, 256], pl.INT32]"},
		{"tile.mrgsort_format2", []Expr{vec, vec}, nil,
			"cell[3]:7: tile.mrgsort_format2: expected 3 to 5 positional arguments, given 2"},
		{"tensor.mrgsort_format2", []Expr{plain, tens(FP16, 1, 256)}, nil,
			"cell[3]:7: tensor.mrgsort_format2: argument 'src1': expected a sorted tensor of src0's dtype pl.FP32 and rank 2, given pl.Tensor[[1, 256], pl.FP16]"},
		{"tile.mscatter", []Expr{vec, tile(INT32, MemVec, 1, 128), tens(FP32, 512)}, nil,
			"cell[3]:7: tile.mscatter: argument 'idx': expected an index tile shaped like src, [1, 256], given pl.Tile[[1, 128], pl.INT32, pl.Mem.Vec]"},
		{"tile.part_add", []Expr{vec, tile(FP16, MemVec, 1, 256)}, nil,
			"cell[3]:7: tile.part_add: argument 'src1': expected a tile like src0, [1, 256] of pl.FP32, given pl.Tile[[1, 256], pl.FP16, pl.Mem.Vec]"},
		{"tile.part_mul", []Expr{plain, vec}, nil,
			"cell[3]:7: tile.part_mul: argument 'src0': expected a pl.Tile, given pl.Tensor[[1, 256], pl.FP32]"},
		{"tile.part_max", []Expr{vec, tile(FP32, MemVec, 1, 128)}, nil,
			"cell[3]:7: tile.part_max: argument 'src1': expected a tile like src0, [1, 256] of pl.FP32, given pl.Tile[[1, 128], pl.FP32, pl.Mem.Vec]"},
		{"tile.part_min", []Expr{vec, vec}, nil, ""},
		{"tensor.part_add", []Expr{plain, tens(FP32, 2, 256)}, nil,
			"cell[3]:7: tensor.part_add: argument 'src1': expected a tensor like src0, [1, 256] of pl.FP32, given pl.Tensor[[2, 256], pl.FP32]"},
		{"tensor.part_mul", []Expr{vec, plain}, nil,
			"cell[3]:7: tensor.part_mul: argument 'src0': expected a pl.Tensor or pld.DistributedTensor, given pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec]"},
		{"tensor.part_max", []Expr{plain, plain}, nil, ""},
		{"tensor.part_min", []Expr{plain, vec}, nil,
			"cell[3]:7: tensor.part_min: argument 'src1': expected a pl.Tensor or pld.DistributedTensor, given pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec]"},
		{"array.create", []Expr{Int(0)}, Kwargs{{"dtype", TASK_ID}},
			"cell[3]:7: array.create: argument 'extent': expected a positive constant extent, given 0 of type pl.Scalar[pl.INDEX]"},
		{"array.create", []Expr{Int(4)}, Kwargs{{"dtype", FP32}},
			"cell[3]:7: array.create: kwarg 'dtype': expected an integer dtype, pl.BOOL or pl.TASK_ID, given pl.FP32"},
		{"array.get_element", []Expr{plain, Int(0)}, nil,
			"cell[3]:7: array.get_element: argument 'array': expected an array (pl.array.create), given pl.Tensor[[1, 256], pl.FP32]"},
		{"array.update_element", []Expr{NewVar("tids", &ArrayType{Extent: 4, DType: TASK_ID}, cell), Int(0), Int(3)}, nil,
			"cell[3]:7: array.update_element: argument 'value': expected a scalar of the array's dtype pl.TASK_ID, given pl.Scalar[pl.INDEX]"},
		{"system.task_dummy", nil, nil, ""},
		{"system.task_invalid", []Expr{Int(1)}, nil,
			"cell[3]:7: system.task_invalid: expected no positional arguments, given 1"},
		{"tile.write", []Expr{vec, Dims(0, 0)}, nil,
			"cell[3]:7: tile.write: expected 3 positional arguments (tile, indices, value), given 2"},
		{"tile.cast", []Expr{vec}, Kwargs{{"target_type", FP16}, {"mode", int64(9)}},
			"cell[3]:7: tile.cast: kwarg 'mode': expected a cast mode 0..6, given 9"},
		{"tensor.cast", []Expr{vec}, Kwargs{{"target_type", FP16}},
			"cell[3]:7: tensor.cast: argument 'tensor': expected a pl.Tensor or pld.DistributedTensor, given pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec]"},
		{"tile.abs", []Expr{plain}, nil,
			"cell[3]:7: tile.abs: argument 'tile': expected a pl.Tile, given pl.Tensor[[1, 256], pl.FP32]"},
		{"tile.abs", []Expr{tile(FP32, MemAcc, 16, 16)}, nil,
			"cell[3]:7: tile.abs: argument 'tile': expected a tile in Vec memory, given pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc]"},
		{"tile.fillpad", []Expr{plain}, nil,
			"cell[3]:7: tile.fillpad: argument 'tile': expected a pl.Tile, given pl.Tensor[[1, 256], pl.FP32]"},
		{"tile.fillpad_inplace", []Expr{plain}, Kwargs{{"pad_value", PadZero}},
			"cell[3]:7: tile.fillpad_inplace: argument 'tile': expected a pl.Tile, given pl.Tensor[[1, 256], pl.FP32]"},
		{"tile.set_validshape", []Expr{tile(FP32, MemVec, 256), Int(1), Int(1)}, nil,
			"cell[3]:7: tile.set_validshape: argument 'tile': expected a 2-D tile, given pl.Tile[[256], pl.FP32, pl.Mem.Vec]"},
		{"tensor.slice", []Expr{plain, Dims(1, 300), Dims(0, 0)}, nil,
			"cell[3]:7: tensor.slice: argument 'offset': expected a region inside the input (offset+extent <= 256 in dimension 1), given offset 0 + extent 300 = 300"},
		{"tile.slice", []Expr{plain, Dims(1, 1), Dims(0, 0)}, nil,
			"cell[3]:7: tile.slice: argument 'input': expected a tile, given pl.Tensor[[1, 256], pl.FP32]"},
		{"tensor.view", []Expr{plain, Dims(2, 64)}, nil,
			"cell[3]:7: tensor.view: argument 'shape': expected a shape of 256 elements (the input's), given [2, 64] with 128"},
		{"tensor.assemble", []Expr{tens(FP32, 4, 64), tens(FP32, 2, 64), Dims(3, 0)}, nil,
			"cell[3]:7: tensor.assemble: argument 'offset': expected a region inside the target (offset+extent <= 4 in dimension 0), given offset 3 + extent 2 = 5"},
		{"tensor.assemble", []Expr{tens(INT64, 4, 64), tens(INT64, 1, 64), Dims(0, 0)}, Kwargs{{"atomic", int64(1)}},
			"cell[3]:7: tensor.assemble: kwarg 'atomic': expected an element type that supports atomic Add (FP32, BF16, FP16, INT32, INT16, INT8), given pl.AtomicType.Add on pl.INT64"},
		{"tile.alloc", []Expr{AllocOf(MemVec), plain}, nil,
			"cell[3]:7: tile.alloc: argument 'size': expected an integer scalar, given pl.Tensor[[1, 256], pl.FP32]"},
		{"tile.alloc", []Expr{Int(0), Int(64)}, nil,
			"cell[3]:7: tile.alloc: argument 'memory_space': expected an on-chip memory space (pl.Mem.Vec, Mat, Left, Right, Acc, ...), given 0"},
		{"system.fence", []Expr{plain}, nil,
			"cell[3]:7: system.fence: expected no positional arguments, given 1"},
		{"system.cacheinvalid", []Expr{plain}, nil,
			"cell[3]:7: system.cacheinvalid: expected 0 or 3 arguments (tensor, shapes, offsets), given 1"},
		{"tile.load", []Expr{plain, Dims(0, 0), Dims(1, 256)}, Kwargs{{"bogus", int64(1)}},
			"cell[3]:7: tile.load: kwarg 'bogus': expected one of 'target_memory', 'clamp', given unknown kwarg 'bogus'"},
		{"tile.create", []Expr{Dims(16, 64)}, Kwargs{{"dtype", "fp16"}},
			"cell[3]:7: tile.create: kwarg 'dtype': expected DataType, given fp16 (string)"},
	}
	for _, name := range []string{"add", "sub", "mul", "div", "maximum", "minimum"} {
		cases = append(cases, struct {
			op   string
			args []Expr
			kw   Kwargs
			want string
		}{"tile." + name, []Expr{vec, tile(FP32, MemVec, 1, 128)}, nil,
			"cell[3]:7: tile." + name + ": argument 'rhs': expected a tile like lhs, [1, 256] of pl.FP32, given pl.Tile[[1, 128], pl.FP32, pl.Mem.Vec]"},
			struct {
				op   string
				args []Expr
				kw   Kwargs
				want string
			}{"tensor." + name, []Expr{plain, tens(FP16, 1, 128)}, nil,
				"cell[3]:7: tensor." + name + ": argument 'rhs': expected a tensor whose shape broadcasts against lhs's [1, 256], given pl.Tensor[[1, 128], pl.FP16]"})
	}
	for _, name := range []string{"adds", "subs", "muls", "divs"} {
		cases = append(cases, struct {
			op   string
			args []Expr
			kw   Kwargs
			want string
		}{"tile." + name, []Expr{vec, vec}, nil,
			"cell[3]:7: tile." + name + ": argument 'rhs': expected a scalar, given pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec]"},
			struct {
				op   string
				args []Expr
				kw   Kwargs
				want string
			}{"tensor." + name, []Expr{vec, &ConstFloat{Value: 2, DType: FP32}}, nil,
				"cell[3]:7: tensor." + name + ": argument 'lhs': expected a pl.Tensor or pld.DistributedTensor, given pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec]"})
	}
	type dcase = struct {
		op   string
		args []Expr
		kw   Kwargs
		want string
	}
	for _, name := range []string{"neg", "relu", "exp", "log", "sqrt", "recip"} {
		cases = append(cases, dcase{"tile." + name, []Expr{plain}, nil,
			"cell[3]:7: tile." + name + ": argument 'tile': expected a pl.Tile, given pl.Tensor[[1, 256], pl.FP32]"})
	}
	for _, name := range []string{"exp", "log", "sqrt", "recip"} {
		cases = append(cases,
			dcase{"tile." + name, []Expr{tile(INT32, MemVec, 1, 8)}, nil,
				"cell[3]:7: tile." + name + ": argument 'tile': expected elements of a floating-point type, given pl.INT32"},
			dcase{"tensor." + name, []Expr{tens(INT8, 1, 8)}, nil,
				"cell[3]:7: tensor." + name + ": argument 'input': expected elements of a floating-point type, given pl.INT8"})
	}
	cases = append(cases,
		dcase{"tile.div", []Expr{itile(1, 8), itile(1, 8)}, Kwargs{{"high_precision", true}},
			"cell[3]:7: tile.div: kwarg 'high_precision': expected FP16 or FP32 elements (PTOAS's high-precision templates are floating-point only), given pl.INT32"},
		dcase{"tensor.log", []Expr{tens(BF16, 1, 8)}, Kwargs{{"high_precision", true}},
			"cell[3]:7: tensor.log: kwarg 'high_precision': expected FP16 or FP32 elements (PTOAS's high-precision templates are floating-point only), given pl.BF16"})
	mgIdx := tile(INT32, MemVec, 4, 8)
	cases = append(cases,
		dcase{"tile.mgather", []Expr{tens(FP32, 64, 8), tile(INT16, MemVec, 4, 8)}, Kwargs{{"coalesce", int64(1)}},
			"cell[3]:7: tile.mgather: argument 'idx': expected a 2-D INT32 index tile, given pl.Tile[[4, 8], pl.INT16, pl.Mem.Vec]"},
		dcase{"tile.mgather", []Expr{tens(FP32, 64, 8), mgIdx}, nil,
			"cell[3]:7: tile.mgather: argument 'idx': expected a static [1, R] or [R, 1] index tile (row mode), given pl.Tile[[4, 8], pl.INT32, pl.Mem.Vec]"},
		dcase{"tile.mgather", []Expr{tens(FP32, 64), tile(INT32, MemVec, 1, 8)}, nil,
			"cell[3]:7: tile.mgather: argument 'mem': expected a tensor of rank 2 or more (row mode gathers its last dimension as rows), given pl.Tensor[[64], pl.FP32]"},
		dcase{"tile.mgather", []Expr{tens(FP32, 64), mgIdx}, Kwargs{{"coalesce", int64(1)}, {"target_memory", MemMat}},
			"cell[3]:7: tile.mgather: argument 'idx': expected a 2-D INT32 GM index tensor (the Mat form reads its indices from GM), given pl.Tile[[4, 8], pl.INT32, pl.Mem.Vec]"},
		dcase{"tile.mgather", []Expr{tens(FP32, 64, 16), tens(INT32, 1, 8)}, Kwargs{{"target_memory", MemMat}},
			"cell[3]:7: tile.mgather: argument 'idx': expected an output of whole Mat boxes: rows a multiple of 16, columns of 8 (given [8, 16]), given pl.Tensor[[1, 8], pl.INT32]"},
		dcase{"tile.mgather", []Expr{tens(FP32, 256), tens(INT32, 16, 16)}, Kwargs{{"coalesce", int64(1)}, {"target_memory", MemMat}},
			"cell[3]:7: tile.mgather: expected a GM scratch tensor (scratch=) for elem mode into Mat, given none"},
		dcase{"tile.mgather", []Expr{tens(FP32, 256), tens(INT32, 16, 16), tens(FP32, 128)}, Kwargs{{"coalesce", int64(1)}, {"target_memory", MemMat}},
			"cell[3]:7: tile.mgather: argument 'scratch': expected a static scratch of at least 256 elements (the output's), given pl.Tensor[[128], pl.FP32]"},
		dcase{"tile.mgather", []Expr{tens(FP32, 64, 16), mgIdx, tens(FP32, 64)}, nil,
			"cell[3]:7: tile.mgather: argument 'scratch': expected nothing (scratch and valid_shape are for target_memory=pl.Mem.Mat), given pl.Tensor[[64], pl.FP32]"},
		dcase{"tile.mgather", []Expr{tens(FP32, 64), mgIdx}, Kwargs{{"coalesce", int64(1)}, {"gather_oob", int64(7)}},
			"cell[3]:7: tile.mgather: kwarg 'gather_oob': expected 'undefined', 'clamp', 'wrap' or 'zero' (0 to 3), given 7"},
	)
	cases = append(cases,
		dcase{"tile.gatherb", []Expr{tile(FP32, MemVec, 1, 64), tile(UINT32, MemVec, 4, 6)}, nil,
			"cell[3]:7: tile.gatherb: argument 'offset': expected a 2-D UINT32 tile of static columns, a multiple of 8 (whole 32-byte rows), given pl.Tile[[4, 6], pl.UINT32, pl.Mem.Vec]"},
		dcase{"tile.gatherb", []Expr{tile(INT64, MemVec, 1, 64), tile(UINT32, MemVec, 4, 8)}, nil,
			"cell[3]:7: tile.gatherb: argument 'src': expected a 2-D tile of an 8-, 16- or 32-bit integer, FP16, BF16 or FP32, given pl.Tile[[1, 64], pl.INT64, pl.Mem.Vec]"},
	)
	for _, name := range []string{"sin", "cos"} {
		cases = append(cases,
			dcase{"tile." + name, []Expr{tile(FP16, MemVec, 1, 8)}, nil,
				"cell[3]:7: tile." + name + ": argument 'tile': expected elements of pl.FP32 (upstream's " + name + " is FP32-only), given pl.FP16"},
			dcase{"tensor." + name, []Expr{tens(BF16, 1, 8)}, nil,
				"cell[3]:7: tensor." + name + ": argument 'input': expected elements of pl.FP32 (upstream's " + name + " is FP32-only), given pl.BF16"})
	}
	rows := tile(FP32, MemVec, 64, 32)
	for _, name := range []string{"row_sum", "row_max"} {
		cases = append(cases,
			dcase{"tile." + name, []Expr{rows, tile(FP32, MemVec, 64, 16)}, nil,
				"cell[3]:7: tile." + name + ": argument 'tmp_tile': expected a scratch tile at least as large as the input, [64, 32], given pl.Tile[[64, 16], pl.FP32, pl.Mem.Vec]"},
			dcase{"tile." + name, []Expr{tile(FP32, MemVec, 64), rows}, nil,
				"cell[3]:7: tile." + name + ": argument 'tile': expected a tile of at least 2 dimensions, given pl.Tile[[64], pl.FP32, pl.Mem.Vec]"})
	}
	cases = append(cases, dcase{"tile.row_min", []Expr{tile(INT8, MemVec, 8, 32), tile(INT8, MemVec, 8, 32)}, nil,
		"cell[3]:7: tile.row_min: argument 'tile': expected elements of pl.INT16, pl.INT32, pl.FP16, pl.FP32, given pl.INT8"})
	for _, name := range []string{"", "_sub", "_mul", "_div"} {
		cases = append(cases, dcase{"tile.row_expand" + name, []Expr{rows, tile(FP32, MemVec, 1, 32)}, nil,
			"cell[3]:7: tile.row_expand" + name + ": argument 'row_vec': expected a column [64, 1] of pl.FP32, given pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec]"})
	}
	// row_expand_add also takes a packed 32-byte block per row, and a tmp.
	cases = append(cases,
		dcase{"tile.row_expand_add", []Expr{rows, tile(FP32, MemVec, 1, 32)}, nil,
			"cell[3]:7: tile.row_expand_add: argument 'row_vec': expected a column [64, 1] or a packed 32-byte row block [64, 8] of pl.FP32, given pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec]"},
		dcase{"tile.row_expand_add", []Expr{tile(BF16, MemVec, 64, 32), tile(BF16, MemVec, 64, 16), rows}, nil,
			"cell[3]:7: tile.row_expand_add: argument 'tile': expected a tile of INT8, INT16, INT32, FP16 or FP32 (the packed row and tmp forms), given pl.Tile[[64, 32], pl.BF16, pl.Mem.Vec]"})
	for _, name := range []string{"col_expand", "col_expand_add", "col_expand_sub", "col_expand_mul", "col_expand_div"} {
		cases = append(cases, dcase{"tile." + name, []Expr{rows, tile(FP32, MemVec, 64, 1)}, nil,
			"cell[3]:7: tile." + name + ": argument 'col_vec': expected a row [1, 32] of pl.FP32, given pl.Tile[[64, 1], pl.FP32, pl.Mem.Vec]"})
	}
	cases = append(cases, dcase{"tile.reshape", []Expr{rows, Dims(1, 64)}, nil,
		"cell[3]:7: tile.reshape: argument 'shape': expected a shape of 2048 elements (the tile's), given [1, 64] with 64"})
	for _, name := range []string{"tile.full", "tensor.full"} {
		cases = append(cases, dcase{name, []Expr{Dims(16, 0), &ConstFloat{Value: 1, DType: FP32}}, Kwargs{{"dtype", FP32}},
			"cell[3]:7: " + name + ": argument 'shape': expected dimensions > 0, given dimension 1 is 0"})
	}
	cases = append(cases, dcase{"tile.concat", []Expr{rows, tile(FP32, MemVec, 32, 16)}, nil,
		"cell[3]:7: tile.concat: argument 'src1': expected a tile of 64 rows (src0's), given pl.Tile[[32, 16], pl.FP32, pl.Mem.Vec]"})
	left, right := tile(FP16, MemLeft, 64, 32), tile(FP16, MemRight, 32, 16)
	cases = append(cases,
		dcase{"tile.move", []Expr{plain}, Kwargs{{"target_memory", MemLeft}},
			"cell[3]:7: tile.move: argument 'tile': expected a pl.Tile, given pl.Tensor[[1, 256], pl.FP32]"},
		dcase{"tile.matmul", []Expr{left, tile(FP16, MemRight, 16, 16)}, nil,
			"cell[3]:7: tile.matmul: argument 'rhs': expected a tile of 32 rows (the lhs's K), given pl.Tile[[16, 16], pl.FP16, pl.Mem.Right]"},
		dcase{"tile.matmul", []Expr{tile(FP16, MemRight, 64, 32), right}, nil,
			"cell[3]:7: tile.matmul: argument 'lhs': expected a tile in pl.Mem.Left memory (or pl.Mem.Mat, pl.Mem.Acc or pl.Mem.Vec, moved there before the op), given pl.Tile[[64, 32], pl.FP16, pl.Mem.Right]"},
		dcase{"tile.assemble", []Expr{tile(FP32, MemVec, 32, 32), tile(FP32, MemVec, 32, 16), Dims(0, 24)}, nil,
			"cell[3]:7: tile.assemble: argument 'offset': expected a region inside the target (offset+extent <= 32 in dimension 1), given offset 24 + extent 16 = 40"},
		dcase{"tile.assemble", []Expr{tile(FP32, MemMat, 32, 32), tile(FP32, MemVec, 32, 16), Dims(0, 0)}, nil,
			"cell[3]:7: tile.assemble: argument 'source': expected a tile in pl.Mem.Mat memory (the target's; or an Acc tile into a Mat target), given pl.Tile[[32, 16], pl.FP32, pl.Mem.Vec]"},
		dcase{"tile.assemble", []Expr{tile(FP32, MemVec, 32, 32), tile(FP16, MemVec, 32, 16), Dims(0, 0)}, nil,
			"cell[3]:7: tile.assemble: argument 'source': expected a tile of element type pl.FP32 (the target's), given pl.Tile[[32, 16], pl.FP16, pl.Mem.Vec]"},
		dcase{"tile.col_sum", []Expr{tile(FP32, MemVec, 32, 16), tile(FP16, MemVec, 32, 16)}, nil,
			"cell[3]:7: tile.col_sum: argument 'tmp_tile': expected a scratch tile of pl.FP32, given pl.Tile[[32, 16], pl.FP16, pl.Mem.Vec]"},
		dcase{"tile.matmul_bias", []Expr{tile(FP16, MemLeft, 64, 32), tile(FP16, MemRight, 32, 16), tile(FP32, MemBias, 2, 16)}, nil,
			"cell[3]:7: tile.matmul_bias: argument 'bias': expected a bias row [1, 16] of pl.FP32, given pl.Tile[[2, 16], pl.FP32, pl.Mem.Bias]"},
		dcase{"tile.extract", []Expr{tile(FP16, MemMat, 2, 32, 64), Int(0), Int(0), Dims(16, 64)}, Kwargs{{"target_memory", MemLeft}},
			"cell[3]:7: tile.extract: argument 'src': expected a 2-D tile, given pl.Tile[[2, 32, 64], pl.FP16, pl.Mem.Mat]"},
		dcase{"tile.extract", []Expr{tile(FP16, MemMat, 32, 64), Int(24), Int(0), Dims(16, 64)}, Kwargs{{"target_memory", MemLeft}},
			"cell[3]:7: tile.extract: argument 'index_row': expected a region inside the source (offset+extent <= 32 in dimension 0), given offset 24 + extent 16 = 40"},
		dcase{"tile.extract", []Expr{tile(FP16, MemMat, 32, 64), Int(0), &ConstFloat{Value: 1, DType: FP32}, Dims(16, 64)}, Kwargs{{"target_memory", MemLeft}},
			"cell[3]:7: tile.extract: argument 'index_col': expected an integer scalar, given pl.Scalar[pl.FP32]"},
		dcase{"tile.gemv", []Expr{left, right}, nil,
			"cell[3]:7: tile.gemv: argument 'lhs': expected a row vector [1, K], given pl.Tile[[64, 32], pl.FP16, pl.Mem.Left]"},
		dcase{"tile.gemv_acc", []Expr{tile(FP32, MemAcc, 1, 8), tile(FP16, MemLeft, 1, 32), right}, nil,
			"cell[3]:7: tile.gemv_acc: argument 'acc': expected an accumulator [1, 16] of pl.FP32, given pl.Tile[[1, 8], pl.FP32, pl.Mem.Acc]"},
		dcase{"tile.gemv_bias", []Expr{tile(FP16, MemLeft, 1, 32), right, tile(FP32, MemBias, 1, 16)}, Kwargs{{"acc_phase", "first"}},
			"cell[3]:7: tile.gemv_bias: kwarg 'acc_phase': expected 'unspecified', 'partial' or 'final', given first"},
		dcase{"tile.fillpad_expand", []Expr{tile(FP32, MemVec, 32, 16), Dims(16, 16)}, nil,
			"cell[3]:7: tile.fillpad_expand: argument 'shape': expected a shape no smaller than the tile's [32, 16], given [16, 16]"},
		dcase{"tensor.set_validshape", []Expr{tens(FP32, 4, 4, 4), Int(2), Int(2)}, nil,
			"cell[3]:7: tensor.set_validshape: argument 'tensor': expected a 2-D tensor, given pl.Tensor[[4, 4, 4], pl.FP32]"},
		dcase{"tensor.fillpad", []Expr{tile(FP32, MemVec, 4, 4)}, nil,
			"cell[3]:7: tensor.fillpad: argument 'tensor': expected a pl.Tensor, given pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec]"},
		dcase{"tile.col_max", []Expr{tile(FP32, MemMat, 32, 16)}, nil,
			"cell[3]:7: tile.col_max: argument 'tile': expected a tile in Vec memory, given pl.Tile[[32, 16], pl.FP32, pl.Mem.Mat]"},
		dcase{"tile.col_min", []Expr{tile(FP32, MemVec, 32)}, nil,
			"cell[3]:7: tile.col_min: argument 'tile': expected a tile of at least 2 dimensions, given pl.Tile[[32], pl.FP32, pl.Mem.Vec]"},
		dcase{"tile.col_prod", []Expr{plain}, nil,
			"cell[3]:7: tile.col_prod: argument 'tile': expected a pl.Tile, given pl.Tensor[[1, 256], pl.FP32]"},
		dcase{"tile.row_prod", []Expr{tile(FP32, MemVec, 32, 16), tile(FP32, MemVec, 16, 16)}, nil,
			"cell[3]:7: tile.row_prod: argument 'tmp_tile': expected a scratch tile at least as large as the input, [32, 16], given pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]"},
		dcase{"tensor.dim", []Expr{plain, Int(2)}, nil,
			"cell[3]:7: tensor.dim: argument 'axis': expected an axis of the rank-2 tensor, given 2"},
		dcase{"tile.transpose_view", []Expr{plain}, nil,
			"cell[3]:7: tile.transpose_view: argument 'input': expected a pl.Tile, given pl.Tensor[[1, 256], pl.FP32]"},
		dcase{"tensor.matmul", []Expr{tens(FP32, 64, 32), tens(FP32, 16, 16)}, nil,
			"cell[3]:7: tensor.matmul: argument 'rhs': expected a tensor of 32 rows (the lhs's K), given pl.Tensor[[16, 16], pl.FP32]"},
		dcase{"tile.batch_matmul", []Expr{tile(FP32, MemMat, 2, 64, 32), tile(FP32, MemVec, 2, 32, 16)}, nil,
			"cell[3]:7: tile.batch_matmul: argument 'rhs': expected a tile in Mat, Left or Right memory, given pl.Tile[[2, 32, 16], pl.FP32, pl.Mem.Vec]"},
		dcase{"tile.batch_matmul", []Expr{tile(FP32, MemMat, 2, 64, 32), tile(FP32, MemMat, 2, 16, 16)}, nil,
			"cell[3]:7: tile.batch_matmul: argument 'rhs': expected a tile of 32 rows (the lhs's K), given pl.Tile[[2, 16, 16], pl.FP32, pl.Mem.Mat]"},
		dcase{"tile.batch_matmul", []Expr{tile(FP32, MemMat, 2, 64, 32), tile(FP16, MemMat, 2, 32, 16)}, nil,
			"cell[3]:7: tile.batch_matmul: argument 'rhs': expected a tile of the lhs element type pl.FP32, given pl.Tile[[2, 32, 16], pl.FP16, pl.Mem.Mat]"},
		dcase{"tile.batch_matmul", []Expr{tile(FP32, MemMat, 2, 64, 32), tile(FP32, MemMat, 3, 32, 16)}, nil,
			"cell[3]:7: tile.batch_matmul: argument 'rhs': expected batch dimensions that broadcast against the lhs's [2], given pl.Tile[[3, 32, 16], pl.FP32, pl.Mem.Mat]"},
		dcase{"tile.batch_matmul_acc", []Expr{tile(FP32, MemAcc, 2, 64, 8), tile(FP32, MemMat, 2, 64, 32), tile(FP32, MemMat, 2, 32, 16)}, nil,
			"cell[3]:7: tile.batch_matmul_acc: argument 'acc': expected an Acc tile [2, 64, 16] of pl.FP32, given pl.Tile[[2, 64, 8], pl.FP32, pl.Mem.Acc]"},
		dcase{"tensor.matmul", []Expr{tens(FP32, 32), tens(FP32, 32, 16)}, nil,
			"cell[3]:7: tensor.matmul: argument 'lhs': expected a tensor of rank 2 or more (ptorepl's tensor.matmul takes [..., M, K] by [..., K, N]), given pl.Tensor[[32], pl.FP32]"},
		dcase{"tensor.matmul", []Expr{tens(FP32, 2, 64, 32), tens(FP32, 3, 32, 16)}, nil,
			"cell[3]:7: tensor.matmul: argument 'rhs': expected batch dimensions that broadcast against the lhs's [2], given pl.Tensor[[3, 32, 16], pl.FP32]"},
		dcase{"tensor.matmul", []Expr{tens(FP32, 2, 1, 64, 32), tens(FP32, 3, 32, 16)}, nil, ""},
		dcase{"tensor.matmul", []Expr{tens(FP16, 64, 32), tens(FP32, 32, 16)}, nil,
			"cell[3]:7: tensor.matmul: argument 'rhs': expected a tensor of the lhs element type pl.FP16 (or pass out_dtype=), given pl.Tensor[[32, 16], pl.FP32]"},
		dcase{"tensor.matmul", []Expr{tens(FP16, 64, 32), tens(FP16, 32, 16)}, Kwargs{{"a_trans", true}},
			"cell[3]:7: tensor.matmul: argument 'rhs': expected a tensor of 64 rows (the lhs's K), given pl.Tensor[[32, 16], pl.FP16]"},
		dcase{"tensor.matmul", []Expr{tens(FP16, 64, 32), tens(FP16, 16, 32)}, Kwargs{{"b_trans", true}}, ""},
		dcase{"tensor.matmul_acc", []Expr{tens(FP16, 64, 16), tens(FP16, 64, 32), tens(FP16, 32, 16)}, nil,
			"cell[3]:7: tensor.matmul_acc: argument 'acc': expected an accumulator [64, 16] of pl.FP32, given pl.Tensor[[64, 16], pl.FP16]"},
		dcase{"tensor.matmul_acc", []Expr{tens(FP32, 64, 8), tens(FP16, 64, 32), tens(FP16, 32, 16)}, nil,
			"cell[3]:7: tensor.matmul_acc: argument 'acc': expected an accumulator [64, 16] of pl.FP32, given pl.Tensor[[64, 8], pl.FP32]"},
		dcase{"tensor.matmul_acc", []Expr{tens(FP32, 64, 16), tens(FP16, 64, 32), tens(FP32, 32, 16)}, nil,
			"cell[3]:7: tensor.matmul_acc: argument 'rhs': expected a tensor of the lhs element type pl.FP16, given pl.Tensor[[32, 16], pl.FP32]"},
		dcase{"tensor.matmul_acc", []Expr{tens(INT32, 64, 16), tens(INT8, 32, 64), tens(INT8, 32, 16)}, Kwargs{{"a_trans", true}}, ""},
		dcase{"tensor.matmul_acc", []Expr{tens(FP32, 64, 16), tens(FP16, 64, 32), tens(FP16, 32, 16), Int(0)}, nil,
			"cell[3]:7: tensor.matmul_acc: argument 'init_cond': expected a BOOL scalar (k0 == 0), given pl.Scalar[pl.INDEX]"},
		dcase{"tile.random", []Expr{Int(1), i32(2), i32(3), i32(4), i32(5), i32(6), Dims(4, 16)}, nil,
			"cell[3]:7: tile.random: argument 'key0': expected an INT32 scalar (a seed word), given pl.Scalar[pl.INDEX]"},
		dcase{"tile.random", []Expr{i32(1), i32(2), i32(3), i32(4), i32(5), i32(6), Dims(2, 4, 16)}, nil,
			"cell[3]:7: tile.random: argument 'shape': expected a 2-D shape [rows, cols] (pto.trandom fills rows and columns), given [2, 4, 16]"},
		dcase{"tile.random", []Expr{i32(1), i32(2), i32(3), i32(4), i32(5), i32(6), Dims(4, 16), Dims(5, 8)}, nil,
			"cell[3]:7: tile.random: argument 'valid_shape': expected a valid shape inside [4, 16], given [5, 8]"},
		dcase{"tensor.random", []Expr{i32(1), i32(2), i32(3), i32(4), i32(5), i32(6), Dims(4, 16)}, Kwargs{{"dtype", FP32}},
			"cell[3]:7: tensor.random: kwarg 'dtype': expected pl.UINT32 or pl.INT32 (pto.trandom writes 32-bit words), given pl.FP32"},
		dcase{"tile.reinterpret_view", []Expr{tile(FP16, MemVec, 4, 3)}, Kwargs{{"dtype", FP32}},
			"cell[3]:7: tile.reinterpret_view: argument 'data': expected a last dimension whose 6 bytes are whole pl.FP32 elements, given pl.Tile[[4, 3], pl.FP16, pl.Mem.Vec]"},
		dcase{"tensor.reinterpret_view", []Expr{tens(FP32, 4, 16), Dims(4, 16)}, Kwargs{{"dtype", INT16}},
			"cell[3]:7: tensor.reinterpret_view: argument 'shape': expected a shape of 256 bytes of pl.INT16 (the source's), given [4, 16]"},
		dcase{"tile.reinterpret_view", []Expr{tile(FP32, MemVec, 4, 16)}, Kwargs{{"dtype", BOOL}},
			"cell[3]:7: tile.reinterpret_view: kwarg 'dtype': expected an integer or FP16/BF16/FP32 element type on both sides, given pl.BOOL"},
		dcase{"tile.random", []Expr{i32(1), i32(2), i32(3), i32(4), i32(5), i32(6), Dims(4, 16)}, Kwargs{{"rounds", int64(8)}},
			"cell[3]:7: tile.random: kwarg 'rounds': expected 7 or 10 (the rounds the hardware runs), given 8"},
		dcase{"tile.matmul_acc", []Expr{tile(FP32, MemAcc, 64, 32), left, right}, nil,
			"cell[3]:7: tile.matmul_acc: argument 'acc': expected an accumulator [64, 16] of pl.FP32, given pl.Tile[[64, 32], pl.FP32, pl.Mem.Acc]"},
	)
	mat := tens(FP32, 64, 32)
	cases = append(cases,
		dcase{"tile.row_argmax", []Expr{rows, tile(FP32, MemVec, 64, 64)}, nil,
			"cell[3]:7: tile.row_argmax: argument 'tmp_tile': expected a scratch tile shaped exactly like the input, [64, 32], given pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec]"},
		dcase{"tile.row_argmin", []Expr{rows}, nil, "cell[3]:7: tile.row_argmin: expected 2 positional arguments (tile, tmp_tile), given 1"},
		dcase{"tile.transpose", []Expr{rows, Int(0), Int(-2)}, nil, "cell[3]:7: tile.transpose: argument 'axis2': expected an axis other than axis1, given 0"},
		dcase{"tensor.transpose", []Expr{tens(FP32, 8, 16), Int(0), Int(2)}, nil, "cell[3]:7: tensor.transpose: argument 'axis2': expected an axis of the rank-2 input, given 2"},
		dcase{"tile.col_argmax", []Expr{rows}, nil, "cell[3]:7: tile.col_argmax: expected 2 positional arguments (tile, tmp_tile), given 1"},
		dcase{"tile.col_argmin", []Expr{rows, tile(FP32, MemVec, 32, 32)}, nil,
			"cell[3]:7: tile.col_argmin: argument 'tmp_tile': expected a scratch tile shaped exactly like the input, [64, 32], given pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec]"},
	)
	for _, name := range []string{"row_sum", "row_max", "row_min", "row_prod", "col_sum", "col_max", "col_min", "col_prod", "row_argmax", "row_argmin", "col_argmax", "col_argmin"} {
		cases = append(cases, dcase{"tensor." + name, []Expr{tens(FP32, 64)}, nil,
			"cell[3]:7: tensor." + name + ": argument 'input': expected a tensor of at least 2 dimensions, given pl.Tensor[[64], pl.FP32]"})
	}
	for _, name := range []string{"max", "min", "expdif"} {
		cases = append(cases, dcase{"tile.row_expand_" + name, []Expr{rows, tile(FP32, MemVec, 1, 32)}, nil,
			"cell[3]:7: tile.row_expand_" + name + ": argument 'row_vec': expected a column [64, 1] of pl.FP32, given pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec]"},
			dcase{"tile.col_expand_" + name, []Expr{rows, tile(FP32, MemVec, 64, 1)}, nil,
				"cell[3]:7: tile.col_expand_" + name + ": argument 'col_vec': expected a row [1, 32] of pl.FP32, given pl.Tile[[64, 1], pl.FP32, pl.Mem.Vec]"})
	}
	for _, name := range []string{"", "_add", "_sub", "_mul", "_div", "_max", "_min", "_expdif"} {
		cases = append(cases, dcase{"tensor.row_expand" + name, []Expr{mat, tens(FP32, 1, 32)}, nil,
			"cell[3]:7: tensor.row_expand" + name + ": argument 'row_vec': expected a column [64, 1] of pl.FP32, given pl.Tensor[[1, 32], pl.FP32]"})
	}
	for _, name := range []string{"col_expand", "col_expand_add", "col_expand_sub", "col_expand_mul", "col_expand_div", "col_expand_max", "col_expand_min", "col_expand_expdif"} {
		cases = append(cases, dcase{"tensor." + name, []Expr{mat, tens(FP16, 1, 32)}, nil,
			"cell[3]:7: tensor." + name + ": argument 'col_vec': expected a row [1, 32] of pl.FP32, given pl.Tensor[[1, 32], pl.FP16]"})
	}
	ints := tile(INT32, MemVec, 8, 32)
	cases = append(cases,
		dcase{"tile.row_expand_expdif", []Expr{ints, tile(INT32, MemVec, 8, 1)}, nil,
			"cell[3]:7: tile.row_expand_expdif: argument 'tile': expected elements of a floating-point type, given pl.INT32"},
		dcase{"tile.rsqrt", []Expr{rows, tile(FP32, MemVec, 64, 16)}, nil,
			"cell[3]:7: tile.rsqrt: argument 'tmp': expected a scratch tile like the input, [64, 32] of pl.FP32, given pl.Tile[[64, 16], pl.FP32, pl.Mem.Vec]"},
		dcase{"tensor.rsqrt", []Expr{tens(INT32, 8, 8)}, nil,
			"cell[3]:7: tensor.rsqrt: argument 'input': expected elements of a floating-point type, given pl.INT32"},
		dcase{"tile.fmod", []Expr{rows, ints}, nil,
			"cell[3]:7: tile.fmod: argument 'rhs': expected a tile like lhs, [64, 32] of pl.FP32, given pl.Tile[[8, 32], pl.INT32, pl.Mem.Vec]"},
		dcase{"tensor.fmod", []Expr{mat, tens(FP32, 64, 16)}, nil,
			"cell[3]:7: tensor.fmod: argument 'rhs': expected a tensor whose shape broadcasts against lhs's [64, 32], given pl.Tensor[[64, 16], pl.FP32]"},
		dcase{"tile.fmods", []Expr{rows, rows}, nil,
			"cell[3]:7: tile.fmods: argument 'rhs': expected a scalar, given pl.Tile[[64, 32], pl.FP32, pl.Mem.Vec]"},
		dcase{"tensor.fmods", []Expr{rows, Int(2)}, nil,
			"cell[3]:7: tensor.fmods: argument 'lhs': expected a pl.Tensor or pld.DistributedTensor, given pl.Tile[[64, 32], pl.FP32, pl.Mem.Vec]"},
		dcase{"tile.and", []Expr{ftile, ftile}, nil,
			"cell[3]:7: tile.and: argument 'lhs': expected integer elements, given pl.FP32"},
		dcase{"tile.or", []Expr{itile(16, 32), itile(16, 16)}, nil,
			"cell[3]:7: tile.or: argument 'rhs': expected a tile like lhs, [16, 32] of pl.INT32, given pl.Tile[[16, 16], pl.INT32, pl.Mem.Vec]"},
		dcase{"tile.xor", []Expr{itile(16, 32), itile(16, 32)}, nil,
			"cell[3]:7: tile.xor: expected 3 positional arguments (lhs, rhs, tmp), given 2"},
		dcase{"tile.shl", []Expr{itile(16, 32), tens(INT32, 16, 32)}, nil,
			"cell[3]:7: tile.shl: argument 'rhs': expected a pl.Tile, given pl.Tensor[[16, 32], pl.INT32]"},
		dcase{"tile.shr", []Expr{tile(FP16, MemVec, 16, 32), tile(FP16, MemVec, 16, 32)}, nil,
			"cell[3]:7: tile.shr: argument 'lhs': expected integer elements, given pl.FP16"},
		dcase{"tile.ands", []Expr{itile(16, 32), &ConstFloat{Value: 1.5, DType: FP32}}, nil,
			"cell[3]:7: tile.ands: argument 'rhs': expected an integer scalar, given pl.Scalar[pl.FP32]"},
		dcase{"tile.ors", []Expr{itile(16, 32), itile(16, 32)}, nil,
			"cell[3]:7: tile.ors: argument 'rhs': expected an integer scalar, given pl.Tile[[16, 32], pl.INT32, pl.Mem.Vec]"},
		dcase{"tile.xors", []Expr{itile(16, 32), i32(3), ftile}, nil,
			"cell[3]:7: tile.xors: argument 'tmp': expected a tile like lhs, [16, 32] of pl.INT32, given pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec]"},
		dcase{"tile.shls", []Expr{ftile, i32(1)}, nil,
			"cell[3]:7: tile.shls: argument 'lhs': expected integer elements, given pl.FP32"},
		dcase{"tile.shrs", []Expr{tens(INT32, 16, 32), i32(1)}, nil,
			"cell[3]:7: tile.shrs: argument 'lhs': expected a pl.Tile, given pl.Tensor[[16, 32], pl.INT32]"},
		dcase{"tile.not", []Expr{ftile}, nil,
			"cell[3]:7: tile.not: argument 'tile': expected integer elements, given pl.FP32"},
		dcase{"tensor.and", []Expr{tens(FP32, 4, 4), tens(FP32, 4, 4)}, nil,
			"cell[3]:7: tensor.and: argument 'lhs': expected integer elements, given pl.FP32"},
		dcase{"tensor.or", []Expr{tens(INT32, 4, 4), tens(INT16, 4, 4)}, nil,
			"cell[3]:7: tensor.or: argument 'rhs': expected a tensor like lhs, [4, 4] of pl.INT32, given pl.Tensor[[4, 4], pl.INT16]"},
		dcase{"tensor.xor", []Expr{tens(INT32, 4, 4), i32(1)}, nil,
			"cell[3]:7: tensor.xor: argument 'rhs': expected a pl.Tensor or pld.DistributedTensor, given pl.Scalar[pl.INT32]"},
		dcase{"tensor.shl", []Expr{tens(INT32, 4, 4), tens(INT32, 4, 8)}, nil,
			"cell[3]:7: tensor.shl: argument 'rhs': expected a tensor like lhs, [4, 4] of pl.INT32, given pl.Tensor[[4, 8], pl.INT32]"},
		dcase{"tensor.shr", []Expr{ftile, ftile}, nil,
			"cell[3]:7: tensor.shr: argument 'lhs': expected a pl.Tensor or pld.DistributedTensor, given pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec]"},
		dcase{"tensor.ands", []Expr{tens(INT32, 4, 4), tens(INT32, 4, 4)}, nil,
			"cell[3]:7: tensor.ands: argument 'rhs': expected an integer scalar, given pl.Tensor[[4, 4], pl.INT32]"},
		dcase{"tensor.ors", []Expr{tens(FP32, 4, 4), i32(1)}, nil,
			"cell[3]:7: tensor.ors: argument 'lhs': expected integer elements, given pl.FP32"},
		dcase{"tensor.xors", []Expr{tens(INT32, 4, 4), &ConstFloat{Value: 2, DType: FP32}}, nil,
			"cell[3]:7: tensor.xors: argument 'rhs': expected an integer scalar, given pl.Scalar[pl.FP32]"},
		dcase{"tensor.shls", []Expr{itile(4, 4), i32(1)}, nil,
			"cell[3]:7: tensor.shls: argument 'lhs': expected a pl.Tensor or pld.DistributedTensor, given pl.Tile[[4, 4], pl.INT32, pl.Mem.Vec]"},
		dcase{"tensor.shrs", []Expr{tens(INT8, 4, 4)}, nil,
			"cell[3]:7: tensor.shrs: expected 2 positional arguments (lhs, rhs), given 1"},
		dcase{"tensor.not", []Expr{tens(BF16, 4, 4)}, nil,
			"cell[3]:7: tensor.not: argument 'input': expected integer elements, given pl.BF16"},
		dcase{"tile.sels", []Expr{ftile, ftile, ftile, &ConstFloat{Value: 1, DType: FP32}}, nil,
			"cell[3]:7: tile.sels: argument 'mask': expected a predicate mask: a tile of an 8-, 16- or 32-bit integer type (tile.cmp's is UINT8), given pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec]"},
		dcase{"tile.sels", []Expr{tile(UINT8, MemVec, 16, 32), tile(INT64, MemVec, 16, 32), ftile, i32(0)}, nil,
			"cell[3]:7: tile.sels: argument 'src': expected a 2-D tile of INT8, UINT8, INT16, UINT16, INT32, UINT32, FP16 or FP32, given pl.Tile[[16, 32], pl.INT64, pl.Mem.Vec]"},
		dcase{"tile.prelu", []Expr{itile(16, 32), itile(16, 32), tile(UINT8, MemVec, 16, 32)}, nil,
			"cell[3]:7: tile.prelu: argument 'tile': expected a 2-D tile of FP16 or FP32, given pl.Tile[[16, 32], pl.INT32, pl.Mem.Vec]"},
		dcase{"tile.prelu", []Expr{ftile, tile(FP32, MemVec, 16, 16), tile(UINT8, MemVec, 16, 32)}, nil,
			"cell[3]:7: tile.prelu: argument 'slope': expected a tile like tile, [16, 32] of pl.FP32, given pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]"},
		dcase{"tile.tri", []Expr{Int(0), Dims(16, 16)}, nil,
			"cell[3]:7: tile.tri: argument 'diagonal': expected an INT32 scalar, given pl.Scalar[pl.INDEX]"},
		dcase{"tile.tri", []Expr{i32(0), Dims(16, 16), Dims(8, 32)}, nil,
			"cell[3]:7: tile.tri: argument 'valid_shape': expected a valid shape inside [16, 16], given [8, 32]"},
		dcase{"tile.tri", []Expr{i32(0), Dims(16, 16)}, Kwargs{{"dtype", INT64}},
			"cell[3]:7: tile.tri: kwarg 'dtype': expected one of INT8, UINT8, INT16, INT32, UINT16, UINT32, FP16, BF16, FP32, given pl.INT64"},
		dcase{"tile.maximums", []Expr{ftile, ftile}, nil,
			"cell[3]:7: tile.maximums: argument 'rhs': expected a scalar, given pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec]"},
		dcase{"tile.minimums", []Expr{tens(FP32, 4, 4), &ConstFloat{Value: 1, DType: FP32}}, nil,
			"cell[3]:7: tile.minimums: argument 'tile': expected a pl.Tile, given pl.Tensor[[4, 4], pl.FP32]"},
		dcase{"tile.lrelu", []Expr{itile(16, 32), &ConstFloat{Value: 0.1, DType: FP32}}, nil,
			"cell[3]:7: tile.lrelu: argument 'tile': expected elements of a floating-point type, given pl.INT32"},
		dcase{"tile.ci", []Expr{i32(0), Dims(2, 32)}, Kwargs{{"dtype", INT32}},
			"cell[3]:7: tile.ci: argument 'shape': expected one row: every leading dimension 1 (TCI fills only the first row), given [2, 32]"},
		dcase{"tensor.ci", []Expr{i32(0), Dims(1, 32)}, Kwargs{{"dtype", FP32}},
			"cell[3]:7: tensor.ci: kwarg 'dtype': expected one of INT16, INT32, UINT16, UINT32, given pl.FP32"},
		dcase{"tensor.fillpad_expand", []Expr{mat, Dims(32, 32)}, nil,
			"cell[3]:7: tensor.fillpad_expand: argument 'shape': expected a shape no smaller than the input's [64, 32], given [32, 32]"},
	)
	cases = append(cases,
		dcase{"tile.get_block_idx", []Expr{Int(0)}, nil, "cell[3]:7: tile.get_block_idx: expected no positional arguments, given 1"},
		dcase{"tile.get_block_num", []Expr{Int(0)}, nil, "cell[3]:7: tile.get_block_num: expected no positional arguments, given 1"},
		dcase{"tile.gather", []Expr{tile(FP32, MemVec, 4, 16), tile(INT16, MemVec, 4, 8), tile(INT32, MemVec, 4, 8)}, nil,
			"cell[3]:7: tile.gather: argument 'indices': expected an index tile of INT32 (or INT16 with a 16-bit source), given pl.Tile[[4, 8], pl.INT16, pl.Mem.Vec]"},
		dcase{"tensor.gather", []Expr{tens(FP32, 4, 16), tens(INT32, 5, 8)}, Kwargs{{"dim", int64(-1)}},
			"cell[3]:7: tensor.gather: argument 'index': expected an index no larger than the input off dim 1, [4, 16], given pl.Tensor[[5, 8], pl.INT32]"},
		dcase{"tensor.gather", []Expr{tens(FP32, 4, 16), tens(INT32, 4, 8)}, Kwargs{{"dim", int64(2)}},
			"cell[3]:7: tensor.gather: kwarg 'dim': expected an axis of the rank-2 input, given 2"},
		dcase{"tile.gather_mask", []Expr{tile(FP32, MemVec, 8, 16)}, Kwargs{{"mask_pattern", int64(8)}},
			"cell[3]:7: tile.gather_mask: kwarg 'mask_pattern': expected a pl.tile.MaskPattern (1..7), given 8"},
		dcase{"tensor.gather_mask", []Expr{tens(FP32, 8, 16)}, Kwargs{{"mask_pattern", int64(2)}, {"output_dtype", UINT16}},
			"cell[3]:7: tensor.gather_mask: kwarg 'output_dtype': expected a type of the source's width, 32 bits, given pl.UINT16"},
		dcase{"tile.scatter", []Expr{tile(FP32, MemVec, 8, 16), tile(FP32, MemVec, 8, 8), tile(INT32, MemVec, 8, 4)}, nil,
			"cell[3]:7: tile.scatter: argument 'indexes': expected an INT32 or INT16 index tile shaped like src, [8, 8], given pl.Tile[[8, 4], pl.INT32, pl.Mem.Vec]"},
		dcase{"tensor.scatter", []Expr{tens(FP32, 8, 16), tens(INT32, 8, 8), tens(FP32, 8, 8)}, Kwargs{{"dim", int64(0)}},
			"cell[3]:7: tensor.scatter: kwarg 'dim': expected the last dimension (-1 or 1), given 0"},
		dcase{"tile.scatter_mask", []Expr{tile(FP32, MemVec, 8, 16), tile(FP32, MemVec, 8, 4)}, Kwargs{{"mask_pattern", int64(1)}},
			"cell[3]:7: tile.scatter_mask: argument 'src': expected compact rows [8, 8] of pl.FP32 (the destination's columns the pattern selects), given pl.Tile[[8, 4], pl.FP32, pl.Mem.Vec]"},
		dcase{"tensor.scatter_mask", []Expr{tens(FP32, 8, 8), tens(FP32, 8, 16)}, Kwargs{{"mask_pattern", int64(0)}},
			"cell[3]:7: tensor.scatter_mask: kwarg 'mask_pattern': expected a pl.tile.MaskPattern (1..7), given 0"},
		dcase{"tensor.reshape", []Expr{tens(FP32, 8, 32), Dims(1, 64)}, nil,
			"cell[3]:7: tensor.reshape: argument 'shape': expected a shape of 256 elements (the input's), given [1, 64] with 64"},
	)
	// Only a source's valid region must fit its target (upstream #1509).
	narrow := tvar("narrow", &TensorType{Shape: Dims(16, 8).Elems, DType: FP32, View: &TensorView{ValidShape: Dims(16, 4).Elems}})
	cases = append(cases,
		dcase{"tensor.assemble", []Expr{tens(FP32, 16, 4), narrow, Dims(0, 0)}, nil, ""},
		dcase{"tensor.assemble", []Expr{tens(FP32, 16, 4), narrow, Dims(0, 1)}, nil,
			"cell[3]:7: tensor.assemble: argument 'offset': expected a region inside the target (offset+extent <= 4 in dimension 1), given offset 1 + extent 4 = 5"},
	)
	for _, name := range []string{"abs", "neg", "relu"} {
		cases = append(cases, dcase{"tensor." + name, []Expr{vec}, nil,
			"cell[3]:7: tensor." + name + ": argument 'input': expected a pl.Tensor or pld.DistributedTensor, given pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec]"})
	}
	pool, n := tens(FP16, 64, 32), tvar("n", Scalar(INDEX))
	cases = append(cases,
		dcase{"tensor.create_l1", []Expr{&MakeTuple{Elems: []Expr{n, Int(32)}}}, Kwargs{{"dtype", FP16}},
			"cell[3]:7: tensor.create_l1: argument 'shape': expected constant dimensions (the accumulator is allocated statically), given dimension 0 is n"},
		dcase{"tensor.gather_row", []Expr{tens(FP32, 16, 32), pool, Dims(0, 0), Dims(0, 0), Dims(1, 32)}, nil,
			"cell[3]:7: tensor.gather_row: argument 'src': expected a GM tensor of pl.FP32 (the accumulator's element type), given pl.Tensor[[64, 32], pl.FP16]"},
		dcase{"tensor.gather_row", []Expr{tens(FP16, 16, 32), pool, Dims(0, 0), Dims(0, 0), &MakeTuple{Elems: []Expr{n, Int(32)}}}, nil,
			"cell[3]:7: tensor.gather_row: argument 'shapes': expected a window of constant extents (it sizes the pto.subview); pass a runtime extent as valid_shape, given dimension 0 is n"},
		dcase{"tile.gather_row", []Expr{tile(FP16, MemMat, 16, 32), pool, Dims(0, 0), Dims(0, 0), Dims(4, 32), Dims(8, 32)}, nil,
			"cell[3]:7: tile.gather_row: argument 'valid_shape': expected a valid_shape inside the window [4, 32], given [8, 32]"},
		dcase{"tile.gather_row", []Expr{tile(FP16, MemLeft, 16, 32), pool, Dims(0, 0), Dims(0, 0), Dims(4, 32)}, nil,
			"cell[3]:7: tile.gather_row: argument 'acc': expected a 2-D tile in pl.Mem.Mat or pl.Mem.Vec, given pl.Tile[[16, 32], pl.FP16, pl.Mem.Left]"},
		dcase{"tile.gather_row", []Expr{tile(FP16, MemMat, 16, 32), pool, Dims(0, 0), Dims(0, 0), Dims(4, 32),
			&MakeTuple{Elems: []Expr{n, Int(32)}}}, Kwargs{{"transpose", true}},
			"cell[3]:7: tile.gather_row: argument 'valid_shape': expected a static valid_shape with transpose=True, given [n, 32]"},
		dcase{"tensor.paged_gather", []Expr{pool, tens(INT32, 8), tens(INT32, 4)}, Kwargs{{"block_size", int64(16)}, {"size", int64(32)},
			{"col_off", int64(8)}, {"max_indices", int64(8)}},
			"cell[3]:7: tensor.paged_gather: kwarg 'size': expected col_off + size <= 32 (the pool's columns), given 8 + 32"},
		dcase{"tensor.paged_gather", []Expr{pool, tens(INT32, 8), tens(INT32, 4)}, Kwargs{{"block_size", int64(16)}, {"size", int64(32)},
			{"max_indices", int64(4)}},
			"cell[3]:7: tensor.paged_gather: kwarg 'max_indices': expected at least 8 (the indices given), given 4"},
		dcase{"tensor.paged_gather", []Expr{pool, tens(INT32, 2, 8), tens(INT32, 4)}, Kwargs{{"block_size", int64(16)}, {"size", int64(32)},
			{"max_indices", int64(8)}},
			"cell[3]:7: tensor.paged_gather: argument 'indices': expected 2-D indices of shape [1, n] (only row 0 is read), given pl.Tensor[[2, 8], pl.INT32]"},
	)
	cases = append(cases,
		dcase{"system.syncall", nil, nil, ""},
		dcase{"system.syncall", []Expr{tens(INT32, 16)}, nil,
			"cell[3]:7: system.syncall: argument 'gm_workspace': expected no operands with mode=\"hard\" (the FFTS barrier; gm_workspace is the soft form's), given pl.Tensor[[16], pl.INT32]"},
		dcase{"system.syncall", []Expr{tens(INT32, 8)}, Kwargs{{"mode", "soft"}},
			"cell[3]:7: system.syncall: argument 'gm_workspace': expected a workspace of at least 16 INT32s (one 64-byte cache line), given pl.Tensor[[8], pl.INT32]"},
		dcase{"system.syncall", nil, Kwargs{{"core_type", "cube"}},
			"cell[3]:7: system.syncall: kwarg 'core_type': expected one of 'aiv_only', 'aic_only', 'mix', given 'cube'"},
	)
	cases = append(cases,
		dcase{"system.set_ffts", []Expr{tens(INT64, 128)}, nil,
			"cell[3]:7: system.set_ffts: argument 'workspace': expected a 1-D INT64 workspace of a static length of at least 256, given pl.Tensor[[128], pl.INT64]"},
		dcase{"system.sync_set", nil, Kwargs{{"pipe", PipeMTE3}, {"event_id", int64(14)}},
			"cell[3]:7: system.sync_set: kwarg 'event_id': expected an event id in 0..13, given 14"},
		dcase{"system.sync_set", nil, Kwargs{{"pipe", PipeMTE3}, {"event_id", int64(4)}, {"ffts_mode", int64(3)}},
			"cell[3]:7: system.sync_set: kwarg 'ffts_mode': expected 0, 1 or 2, given 3"},
		dcase{"system.sync_wait", []Expr{tvar("e", Scalar(INDEX))}, Kwargs{{"pipe", PipeMTE2}, {"event_id", int64(4)}},
			"cell[3]:7: system.sync_wait: expected exactly one event id: a constant (event_id=, 0..13) or a runtime INDEX operand, given 1 operands and event_id true"},
		dcase{"system.sync_wait", nil, Kwargs{{"event_id", int64(4)}},
			"cell[3]:7: system.sync_wait: kwarg 'pipe': expected a pl.PipeType (required), given nothing"},
	)
	cases = append(cases,
		dcase{"tensor.expand_clone", []Expr{tens(FP32, 2, 1, 8), tens(FP32, 2, 4, 8)}, nil, ""},
		dcase{"tensor.expand_clone", []Expr{tens(FP32, 1, 1, 8), tens(FP32, 2, 4, 8)}, nil,
			"cell[3]:7: tensor.expand_clone: argument 'target': expected a shape the input [1, 1, 8] expands to in at most one dimension (dimensions 0 and 1 differ), given pl.Tensor[[2, 4, 8], pl.FP32]"},
		dcase{"tensor.expand_clone", []Expr{tens(FP32, 2, 3, 8), tens(FP32, 2, 4, 8)}, nil,
			"cell[3]:7: tensor.expand_clone: argument 'target': expected a shape the input [2, 3, 8] expands to, broadcasting only a dimension of 1 (dimension 1 differs), given pl.Tensor[[2, 4, 8], pl.FP32]"},
		dcase{"tensor.expand_clone", []Expr{tens(FP32, 4, 8), tens(FP32, 4, 8)}, nil,
			"cell[3]:7: tensor.expand_clone: argument 'input': expected a tensor of rank 3, given pl.Tensor[[4, 8], pl.FP32]"},
		dcase{"tile.gather_compare", []Expr{tile(FP32, MemVec, 8, 32), tvar("k", Scalar(FP32)), tile(UINT8, MemMat, 8, 32)}, Kwargs{{"cmp_mode", int64(0)}, {"out_cols", int64(4)}},
			"cell[3]:7: tile.gather_compare: argument 'tmp': expected a tile in Vec memory, given pl.Tile[[8, 32], pl.UINT8, pl.Mem.Mat]"},
		dcase{"tile.gather_compare", []Expr{tile(INT8, MemVec, 8, 32), tvar("k", Scalar(INT8)), tile(UINT8, MemVec, 8, 32)}, Kwargs{{"cmp_mode", int64(0)}, {"out_cols", int64(4)}},
			"cell[3]:7: tile.gather_compare: argument 'src': expected a 2-D input of pl.FP16, pl.FP32, pl.INT16, pl.INT32, given pl.Tile[[8, 32], pl.INT8, pl.Mem.Vec]"},
		dcase{"tensor.gather_compare", []Expr{tens(FP32, 8, 32), tvar("k", Scalar(FP16))}, Kwargs{{"cmp_mode", int64(0)}, {"out_cols", int64(4)}},
			"cell[3]:7: tensor.gather_compare: argument 'kvalue': expected a scalar of the input's type pl.FP32, given pl.Scalar[pl.FP16]"},
		dcase{"tensor.gather_compare", []Expr{tens(FP32, 8, 32), tvar("k", Scalar(FP32))}, Kwargs{{"cmp_mode", int64(6)}, {"out_cols", int64(4)}},
			"cell[3]:7: tensor.gather_compare: kwarg 'cmp_mode': expected \"eq\", \"ne\", \"lt\", \"le\", \"gt\" or \"ge\", given int 6"},
		dcase{"tensor.gather_compare", []Expr{tens(FP32, 8, 32), tvar("k", Scalar(FP32))}, Kwargs{{"cmp_mode", "ge"}, {"out_cols", int64(4)}, {"count_dtype", INT16}},
			"cell[3]:7: tensor.gather_compare: kwarg 'count_dtype': expected pl.INT32 or pl.UINT32, given pl.INT16"},
	)
	i32 := &ConstInt{Value: 0, DType: INT32}
	vec16 := tile(FP32, MemVec, 16, 16)
	cases = append(cases,
		dcase{"tile.tpush_to_aic", []Expr{vec16}, Kwargs{{"split", int64(3)}},
			"cell[3]:7: tile.tpush_to_aic: kwarg 'split': expected 0 (none), 1 (up-down) or 2 (left-right); the vector-to-cube direction has no odd split, given int 3"},
		dcase{"tile.tpush_to_aiv", []Expr{tens(FP32, 16, 16)}, Kwargs{{"split", int64(0)}},
			"cell[3]:7: tile.tpush_to_aiv: argument 'tile': expected a pl.Tile, given pl.Tensor[[16, 16], pl.FP32]"},
		dcase{"tile.tpush_to_aic", []Expr{vec16}, nil,
			"cell[3]:7: tile.tpush_to_aic: kwarg 'split': expected a value (required), given nothing"},
		dcase{"tile.tpop_from_aic", nil, Kwargs{{"split", int64(5)}},
			"cell[3]:7: tile.tpop_from_aic: kwarg 'split': expected 0 (none), 1 (up-down), 2 (left-right), 3 or 4 (their odd-extent forms), given int 5"},
		dcase{"tile.tpop_from_aiv", nil, Kwargs{{"id", int64(-1)}},
			"cell[3]:7: tile.tpop_from_aiv: kwarg 'id': expected a non-negative pipe id, given int -1"},
		dcase{"system.tfree_to_aic", []Expr{tens(FP32, 16, 16)}, nil,
			"cell[3]:7: system.tfree_to_aic: argument 'tile': expected a pl.Tile, given pl.Tensor[[16, 16], pl.FP32]"},
		dcase{"system.tfree_to_aiv", []Expr{vec16}, Kwargs{{"id", int64(-2)}},
			"cell[3]:7: system.tfree_to_aiv: kwarg 'id': expected a non-negative pipe id, given int -2"},
		dcase{"system.aic_initialize_pipe", []Expr{i32, i32}, Kwargs{{"dir_mask", int64(4)}, {"slot_size", int64(1024)}},
			"cell[3]:7: system.aic_initialize_pipe: kwarg 'dir_mask': expected 1 (cube to vector), 2 (vector to cube) or 3 (both), given int 4"},
		dcase{"system.aiv_initialize_pipe", []Expr{i32, i32}, Kwargs{{"dir_mask", int64(1)}, {"slot_size", int64(1024)}, {"slot_num", int64(2)}, {"local_slot_num", int64(4)}},
			"cell[3]:7: system.aiv_initialize_pipe: kwarg 'local_slot_num': expected at most slot_num (2), given 4"},
		dcase{"system.aiv_initialize_pipe", []Expr{i32, tens(FP32, 4)}, Kwargs{{"dir_mask", int64(1)}, {"slot_size", int64(1024)}},
			"cell[3]:7: system.aiv_initialize_pipe: argument 'v2c_consumer_buf': expected an INT32 buffer base (a reserve_buffer or import_peer_buffer result, or 0), given pl.Tensor[[4], pl.FP32]"},
		dcase{"system.reserve_buffer", nil, Kwargs{{"name", "ring"}, {"size", int64(0)}},
			"cell[3]:7: system.reserve_buffer: kwarg 'size': expected a positive size in bytes, given int 0"},
		dcase{"system.import_peer_buffer", nil, Kwargs{{"name", "ring"}, {"peer_func", ""}},
			"cell[3]:7: system.import_peer_buffer: kwarg 'peer_func': expected a name, given ''"},
	)
	acc := tile(FP32, MemAcc, 16, 32)
	cases = append(cases,
		dcase{"tile.get_subblock_idx", nil, nil, ""},
		dcase{"tensor.get_block_idx", nil, nil, ""},
		dcase{"tensor.get_block_num", []Expr{Int(0)}, nil, "cell[3]:7: tensor.get_block_num: expected no positional arguments, given 1"},
		dcase{"tensor.get_subblock_idx", nil, nil, ""},
		dcase{"tile.aiv_shard", []Expr{acc}, Kwargs{{"split", int64(3)}},
			"cell[3]:7: tile.aiv_shard: kwarg 'split': expected pl.SplitMode: 0 (NONE), 1 (UP_DOWN) or 2 (LEFT_RIGHT), from the enclosing pl.split_aiv region, given int 3"},
		dcase{"tile.aic_gather", []Expr{tile(FP32, MemVec, 2, 4, 4)}, Kwargs{{"split", int64(1)}},
			"cell[3]:7: tile.aic_gather: argument 'tile': expected a 2-D value (the split halves rows or columns), given pl.Tile[[2, 4, 4], pl.FP32, pl.Mem.Vec]"},
		dcase{"tensor.aiv_shard", []Expr{acc}, Kwargs{{"split", int64(1)}},
			"cell[3]:7: tensor.aiv_shard: argument 'tensor': expected a pl.Tensor, given pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc]"},
		dcase{"tensor.aic_gather", []Expr{acc}, Kwargs{{"split", int64(1)}},
			"cell[3]:7: tensor.aic_gather: argument 'tensor': expected a pl.Tensor, given pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc]"},
	)
	// The prefetch ops, with upstream's checks (op/prefetch).
	pctx, evt, sess := tvar("pctx", PrefetchCtxT), tvar("evt", AsyncEventT), tvar("session", AsyncSessionT)
	cases = append(cases,
		dcase{"prefetch.make_context", []Expr{ptr}, nil,
			"cell[3]:7: prefetch.make_context: expected no positional arguments, given 1"},
		dcase{"prefetch.async_prefetch", []Expr{tens(FP32, 1, 1, 256), pctx}, nil, ""},
		dcase{"prefetch.async_prefetch", []Expr{tens(FP32, 2, 128), pctx}, nil,
			"cell[3]:7: prefetch.async_prefetch: argument 'src': expected a flat contiguous logical 1D region (every dimension but the last 1; dimension 0 is 2: reshape to [N] or [1, ..., N]), given pl.Tensor[[2, 128], pl.FP32]"},
		dcase{"prefetch.async_prefetch", []Expr{tvar("x", &TensorType{Shape: []Expr{Int(1), tvar("n", Scalar(INDEX))}, DType: FP32}), pctx}, nil,
			"cell[3]:7: prefetch.async_prefetch: argument 'src': expected a fully static shape (the prefetch's byte extent is fixed at compile time), given pl.Tensor[[1, n], pl.FP32]"},
		dcase{"prefetch.async_prefetch", []Expr{tile(FP32, MemVec, 1, 256), pctx}, nil,
			"cell[3]:7: prefetch.async_prefetch: argument 'src': expected a pl.Tensor or pld.DistributedTensor, given pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec]"},
		dcase{"prefetch.async_prefetch", []Expr{plain, ctx}, nil,
			"cell[3]:7: prefetch.async_prefetch: argument 'ctx': expected a pl.PrefetchAsyncContext (output of pl.prefetch.make_context), given pld.CommCtx"},
		dcase{"prefetch.session", []Expr{evt}, nil,
			"cell[3]:7: prefetch.session: argument 'ctx': expected a pl.PrefetchAsyncContext (output of pl.prefetch.make_context), given pl.AsyncEvent"},
		dcase{"prefetch.wait", []Expr{evt, sess}, nil, ""},
		dcase{"prefetch.wait", []Expr{evt, pctx}, nil,
			"cell[3]:7: prefetch.wait: argument 'session': expected a pl.AsyncSession (output of pl.prefetch.session), given pl.PrefetchAsyncContext"},
	)
	_ = ctx
	_ = ptr
	cases = append(cases, hostBuiltinDeducerCases()...)
	covered := map[string]bool{}
	for _, tc := range cases {
		covered[tc.op] = true
		t.Run(tc.op, func(t *testing.T) {
			c, err := NewCall(tc.op, tc.args, tc.kw, cell)
			if tc.want == "" {
				require.NoError(t, err)
				require.NotNil(t, c)
				return
			}
			require.Error(t, err)
			require.Equal(t, tc.want, err.Error())
			var te *TypeError
			require.ErrorAs(t, err, &te)
			require.Equal(t, tc.op, te.Op)
		})
	}
	for _, d := range Ops() {
		require.Truef(t, covered[d.Name], "op %s has no deducer error case", d.Name)
	}
}

func TestUnknownOp(t *testing.T) {
	_, err := NewCall("pld.tensor.nope", nil, nil, cell)
	require.EqualError(t, err, "Operator 'pld.tensor.nope' not found in registry")
}

// Accepted calls deduce the types ops.md gives.
func TestDeducedTypes(t *testing.T) {
	sig := dist(INT32, 4, 1)
	data := dist(FP32, 1, 256)
	ctx := tvar("ctx", CommCtxT)
	cases := []struct {
		op   string
		args []Expr
		kw   Kwargs
		want string
	}{
		{"pld.tensor.alloc_window_buffer", []Expr{Int(1024)}, Kwargs{{"name", "buf"}}, "pl.Ptr"},
		{"pld.tensor.window", []Expr{tvar("buf", PtrT), Dims(1, 64)}, Kwargs{{"dtype", FP32}}, "pld.DistributedTensor[[1, 64], pl.FP32]"},
		{"pld.system.world_size", nil, nil, "pl.Scalar[pl.INT64]"},
		{"pld.system.get_comm_ctx", []Expr{data}, nil, "pld.CommCtx"},
		{"pld.system.rank", []Expr{ctx}, nil, "pl.Scalar[pl.INT32]"},
		{"pld.system.notify", []Expr{sig, i32(1), Dims(0, 0), i32(1)}, Kwargs{{"op", int64(0)}}, "pl.UnknownType"},
		{"pld.tile.remote_load", []Expr{dist(FP16, 64, 32), i32(1), Dims(0, 0), Dims(32, 16)}, nil, "pl.Tile[[32, 16], pl.FP16]"},
		{"pld.tensor.allreduce", []Expr{data, sig}, Kwargs{{"op", int64(0)}, {"mode", "mesh"}, {"core_num", int64(1)}}, "pld.DistributedTensor[[1, 256], pl.FP32]"},
		{"tile.comm_test", []Expr{tens(INT32, 1), i32(1)}, Kwargs{{"cmp", "eq"}}, "pl.Scalar[pl.BOOL]"},
		{"tile.load", []Expr{tens(FP32, 1, 64), Dims(0, 0), Dims(1, 64), Dims(1, 64)}, Kwargs{{"target_memory", MemVec}}, "pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec]"},
		// Upstream's load layouts: a column is col_major, a single row to
		// Mat an ND row (row_major / none_box); more rows to Mat the NZ pair.
		{"tile.load", []Expr{tens(FP32, 16, 1), Dims(0, 0), Dims(16, 1), Dims(16, 1)}, Kwargs{{"target_memory", MemVec}}, "pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec]"}, // a column is col_major implicitly
		{"tile.load", []Expr{tens(FP16, 1, 64), Dims(0, 0), Dims(1, 64), Dims(1, 64)}, Kwargs{{"target_memory", MemMat}}, "pl.Tile[[1, 64], pl.FP16, pl.Mem.Mat, pl.TileView(blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)]"},
		{"tile.load", []Expr{tens(FP16, 16, 64), Dims(0, 0), Dims(16, 64), Dims(16, 64)}, Kwargs{{"target_memory", MemMat}}, "pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat]"},
		{"tile.store", []Expr{tile(FP32, MemVec, 1, 256), Dims(0, 0), data}, nil, "pld.DistributedTensor[[1, 256], pl.FP32]"},
		{"tile.create", []Expr{Dims(16, 64)}, Kwargs{{"dtype", FP16}, {"target_memory", MemVec}}, "pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec]"},
		{"tile.add", []Expr{tile(FP32, MemNone, 1, 8), tile(FP32, MemNone, 1, 8)}, nil, "pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec]"},
		{"tile.abs", []Expr{tile(FP16, MemVec, 16, 64)}, nil, "pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec]"},
		{"tile.matmul", []Expr{tile(FP16, MemLeft, 64, 32), tile(FP16, MemRight, 32, 16)}, nil, "pl.Tile[[64, 16], pl.FP32, pl.Mem.Acc]"},
		{"tensor.matmul", []Expr{tens(FP16, 64, 32), tens(FP16, 32, 16)}, Kwargs{{"out_dtype", FP32}}, "pl.Tensor[[64, 16], pl.FP32]"},
		{"tensor.add", []Expr{tens(BF16, 16, 64), tens(FP32, 16, 64)}, nil, "pl.Tensor[[16, 64], pl.FP32]"},
		{"tensor.sub", []Expr{tens(INT8, 16, 64), tens(INT32, 16, 64)}, nil, "pl.Tensor[[16, 64], pl.INT32]"},
		{"tensor.mul", []Expr{tens(INT32, 16, 64), tens(FP16, 16, 64)}, nil, "pl.Tensor[[16, 64], pl.FP16]"},
		{"tensor.maximum", []Expr{tens(UINT32, 16, 64), tens(INT32, 16, 64)}, nil, "pl.Tensor[[16, 64], pl.INT32]"},
		{"tile.assemble", []Expr{tile(FP32, MemMat, 32, 32), tile(FP32, MemAcc, 32, 16), Dims(0, 16)}, nil, "pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat]"},
		{"tensor.dim", []Expr{tens(FP32, 4, 8), Int(-1)}, nil, "pl.Scalar[pl.INDEX]"},
		{"tile.transpose_view", []Expr{tile(FP16, MemMat, 64, 32)}, nil, "pl.Tile[[32, 64], pl.FP16, pl.Mem.Mat, pl.TileView(blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.col_major)]"},
		{"tile.row_max", []Expr{tile(FP32, MemVec, 64, 32), tile(FP32, MemVec, 64, 32)}, nil, "pl.Tile[[64, 1], pl.FP32, pl.Mem.Vec]"},
		// A single row reduces to [1, 1], which is row_major implicitly: the
		// reduction's col_major shows.
		{"tile.row_max", []Expr{tile(FP32, MemVec, 1, 32), tile(FP32, MemVec, 1, 32)}, nil, "pl.Tile[[1, 1], pl.FP32, pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.col_major)]"},
		{"tensor.slice", []Expr{tens(FP32, 4, 1, 256), Tuple(Int(1), Int(1), Int(256)), Tuple(tvar("r", Scalar(INDEX)), Int(0), Int(0)), Tuple(), Dims(0)}, nil, "pl.Tensor[[1, 256], pl.FP32]"},
		{"tensor.view", []Expr{data, Dims(256)}, nil, "pld.DistributedTensor[[256], pl.FP32]"},
		{"tensor.assemble", []Expr{data, tens(FP32, 1, 64), Dims(0, 64)}, nil, "pld.DistributedTensor[[1, 256], pl.FP32]"},
	}
	for _, tc := range cases {
		t.Run(tc.op, func(t *testing.T) {
			c, err := NewCall(tc.op, tc.args, tc.kw, cell)
			require.NoError(t, err)
			require.Equal(t, tc.want, c.Type().String())
		})
	}
}

// Effects follow ops.md (d): kwarg resolvers decide the destination's effect.
func TestEffects(t *testing.T) {
	sig := dist(INT32, 4, 1)
	data := dist(FP32, 1, 256)
	plain := tens(FP32, 1, 256)
	mk := func(op string, args []Expr, kw Kwargs) *Call {
		c, err := NewCall(op, args, kw, Span{})
		require.NoError(t, err)
		return c
	}
	cases := []struct {
		name string
		call *Call
		want []Effect
	}{
		{"notify add", mk("pld.system.notify", []Expr{sig, i32(1), Dims(0, 0), i32(1)}, Kwargs{{"op", int64(0)}}), []Effect{ReadWrite, Read, Read, Read}},
		{"notify set", mk("pld.system.notify", []Expr{sig, i32(1), Dims(0, 0), i32(1)}, Kwargs{{"op", int64(1)}}), []Effect{Write, Read, Read, Read}},
		{"put none", mk("pld.tensor.put", []Expr{data, i32(1), plain}, Kwargs{{"atomic", int64(0)}}), []Effect{Write, Read, Read}},
		{"put add", mk("pld.tensor.put", []Expr{data, i32(1), plain}, Kwargs{{"atomic", int64(1)}}), []Effect{ReadWrite, Read, Read}},
		{"get", mk("pld.tensor.get", []Expr{plain, i32(1), data}, nil), []Effect{Write, Read, Read}},
		{"allreduce", mk("pld.tensor.allreduce", []Expr{data, sig}, Kwargs{{"op", int64(0)}, {"core_num", int64(1)}}), []Effect{ReadWrite, ReadWrite}},
		{"wait", mk("pld.system.wait", []Expr{sig, Dims(0, 0), i32(1)}, Kwargs{{"cmp", int64(1)}}), []Effect{Read, Read, Read}},
		{"store", mk("tile.store", []Expr{tile(FP32, MemVec, 1, 256), Dims(0, 0), plain}, nil), []Effect{Read, Read, Write}},
		{"comm_notify set", mk("tile.comm_notify", []Expr{tens(INT32, 1), i32(1)}, Kwargs{{"op", "set"}}), []Effect{Write, Read}},
		{"allgather", mk("pld.tensor.allgather", []Expr{tens(FP32, 1, 8), dist(FP32, 4, 8), sig}, nil), []Effect{Read, Write, ReadWrite}},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, CallEffects(tc.call), tc.name)
	}
}

func TestEveryOpDocumented(t *testing.T) {
	for _, d := range Ops() {
		require.NotEmpty(t, d.Doc, d.Name)
		require.False(t, strings.HasSuffix(d.Name, "."), d.Name)
	}
}

// The registry's cross-references hold: a ResultAlias names a declared
// argument (and so does a MemRefFrom), a TileForm names a registered tile op, a StoreUnit is known.
func TestRegistryPropertiesConsistent(t *testing.T) {
	for _, d := range Ops() {
		if d.ResultAlias != "" {
			require.GreaterOrEqual(t, d.AliasedArg(), 0, "%s: ResultAlias %q is not an argument", d.Name, d.ResultAlias)
		}
		if d.MemRefFrom != "" {
			require.GreaterOrEqual(t, d.MemRefArg(), 0, "%s: MemRefFrom %q is not an argument", d.Name, d.MemRefFrom)
		}
		if tf := d.TileForm; tf != nil {
			reg, ok := LookupOp(tf.Name)
			require.True(t, ok && reg == tf, "%s: TileForm %s is not registered", d.Name, tf.Name)
			// The tile form takes the tensor op's arguments, and one more
			// when the lowering adds a scratch tile.
			n := len(d.Args)
			takes := func(n int) bool { return n >= tf.MinArgs && (tf.MaxArgs < 0 || n <= tf.MaxArgs) }
			if d.TileScratch != nil {
				require.True(t, takes(n+1), "%s: its tile form %s takes the scratch tile after %d arguments", d.Name, tf.Name, n)
			} else {
				require.True(t, takes(n), "%s: its tile form %s takes %d arguments", d.Name, tf.Name, n)
			}
		}
		for k, f := range d.KwargForms {
			reg, ok := LookupOp(f.Name)
			require.True(t, ok && reg == f, "%s: kwarg form %s is not registered", d.Name, f.Name)
			_, declared := f.Kwarg(k)
			declared = declared || f.ArgIndex(k) >= 0 // a keyword that fills an argument (kvalue=)
			require.True(t, declared, "%s: its form for %s= (%s) takes no such kwarg or argument", d.Name, k, f.Name)
		}
		require.Contains(t, []string{"", "dma", "scalar"}, d.StoreUnit, d.Name)
		// A pop takes its tile's type from its binding; only pipe ops have a role.
		require.Equal(t, d.PipeRole == PipePop, d.TypedByTarget, "%s: a pop, and only a pop, is typed by its target", d.Name)
		pipeOp := false
		for _, k := range []string{"tpush", "tpop", "tfree", "initialize_pipe", "reserve_buffer", "import_peer_buffer"} {
			pipeOp = pipeOp || strings.Contains(d.Name, k)
		}
		require.Equal(t, pipeOp, d.PipeRole != PipeNone, "%s: pipe role %d", d.Name, d.PipeRole)
	}
	require.Equal(t, 2, MustOp("tile.store").AliasedArg())
	require.True(t, MustOp("pld.tile.put").Args[0].Peer)
	require.True(t, MustOp("pld.tile.get").Args[2].Peer)
	require.False(t, MustOp("pld.tile.get").Args[0].Peer)
	require.True(t, MustOp("pld.system.wait").Acquire)
}

// Every registered op is reachable by its handle, and every handle is
// filled by exactly its op's registration.
func TestHandlesFilled(t *testing.T) {
	handles := map[*OpDef]bool{}
	for _, h := range []*OpDef{
		TileLoad, TileStore, TileCreate, TensorCreate, TileRead, TileWrite, TensorRead, TensorWrite,
		TileAdd, TileSub, TileMul, TileDiv, TileMaximum, TileMinimum, TileAdds, TileSubs, TileMuls, TileDivs,
		TensorAdd, TensorSub, TensorMul, TensorDiv, TensorMaximum, TensorMinimum, TensorAdds, TensorSubs, TensorMuls, TensorDivs,
		TileCast, TensorCast, TileFillpad, TileFillpadInplace, TileSetValidshape, TileSlice, TensorSlice, TensorViewOp, TensorAssemble,
		TileAlloc, SystemFence, SystemCacheinvalid, TileAbs, TileNeg, TileRelu, TileExp, TileLog, TileSqrt, TileRecip, TileSin, TileCos, TensorSin, TensorCos,
		TensorAbs, TensorNeg, TensorRelu, TensorExp, TensorLog, TensorSqrt, TensorRecip, TileCommNotify,
		TileRowSum, TileRowMax, TileRowMin, TileRowExpandAdd, TileRowExpandSub, TileRowExpandMul, TileRowExpandDiv,
		TileColExpand, TileColExpandAdd, TileColExpandSub, TileColExpandMul, TileColExpandDiv, TileReshape,
		TileMove, TileMatmul, TileMatmulAcc, TileBatchMatmul, TileBatchMatmulAcc, TensorMatmul, TensorMatmulAcc, TileRandom, TensorRandom, TileReinterpretView, TensorReinterpretView, TileAssemble, TileTransposeView, TensorDim, TileRowProd, TileColSum, TileColMax, TileColMin, TileColProd, TileMatmulBias, TileFillpadExpand, TensorSetValidshape, TensorFillpad, TileConcat, TileFull, TensorFull, TileCommWait, TileCommTest,
		TileRowExpandMax, TileRowExpandMin, TileRowExpandExpdif, TileColExpandMax, TileColExpandMin, TileColExpandExpdif,
		TensorRowSum, TensorRowMax, TensorRowMin, TensorRowProd, TensorColSum, TensorColMax, TensorColMin, TensorColProd,
		TensorRowExpandAdd, TensorRowExpandSub, TensorRowExpandMul, TensorRowExpandDiv, TensorRowExpandMax, TensorRowExpandMin,
		TensorRowExpandExpdif, TensorColExpand, TensorColExpandAdd, TensorColExpandSub, TensorColExpandMul, TensorColExpandDiv,
		TensorColExpandMax, TensorColExpandMin, TensorColExpandExpdif, TileRsqrt, TensorRsqrt,
		TileFmod, TensorFmod, TileFmods, TensorFmods, TileCi, TensorCi, TensorFillpadExpand,
		TileGetBlockIdx, TileGetBlockNum, TensorReshape, TileGather, TensorGather,
		TileGatherMask, TensorGatherMask, TileScatter, TensorScatter, TileScatterMask, TensorScatterMask,
		TileRowArgmax, TileRowArgmin, TileColArgmax, TileColArgmin, TensorRowArgmax, TensorRowArgmin, TensorColArgmax, TensorColArgmin,
		TileTranspose, TensorTranspose, ArrayCreate, ArrayGetElement, ArrayUpdateElement, SystemTaskDummy, SystemTaskInvalid,
		TileScatterUpdate, TensorScatterUpdate, TileCmp, TileCmps, TileSel, TensorCmp, TileSort32, TensorSort32, TileMrgsortFormat1, TensorMrgsortFormat1, TileMrgsortFormat2, TensorMrgsortFormat2,
		TileMscatter, TileMgather, TileGatherb, TilePartAdd, TilePartMul, TilePartMax, TilePartMin, TensorPartAdd, TensorPartMul, TensorPartMax, TensorPartMin,
		PldTensorAllocWindowBuffer, PldTensorWindow, PldSystemWorldSize, PldSystemGetCommCtx, PldSystemRank, PldSystemNranks,
		PldSystemNotify, PldSystemWait, PldSystemDeferWait, PldTileRemoteLoad, PldTileRemoteStore, PldTensorRemoteStore,
		PldTensorPut, PldTensorGet, PldTilePut, PldTileGet, PldTensorAllreduce, PldTensorBarrier, PldTensorBroadcast,
		PldTensorReduceScatter, PldTensorAllgather, PldTensorAllToAll, PldTensorAllToAllV,
		BuiltinTensorAllreduce, BuiltinTensorAllreduceRing, BuiltinTensorBarrier, BuiltinTensorBroadcast,
		BuiltinTensorReduceScatter, BuiltinTensorAllgather, BuiltinTensorAllToAll, BuiltinTensorAllToAllV,
		TensorCreateL1, TileGatherRow, TensorGatherRow, TensorPagedGather,
		TileGetSubblockIdx, TileAivShard, TileAicGather, TensorAivShard, TensorAicGather, SystemSyncall,
		SystemSetFFTS, SystemSyncSet, SystemSyncWait,
		TileTpushToAiv, TileTpushToAic, TileTpopFromAic, TileTpopFromAiv, SystemTfreeToAic, SystemTfreeToAiv,
		SystemAicInitializePipe, SystemAivInitializePipe, SystemReserveBuffer, SystemImportPeerBuffer, TensorGatherCompare, TileGatherCompare, TensorExpandClone,
		TileAnd, TileOr, TileXor, TileShl, TileShr, TileNot, TileAnds, TileOrs, TileXors, TileShls, TileShrs,
		TensorAnd, TensorOr, TensorXor, TensorShl, TensorShr, TensorNot, TensorAnds, TensorOrs, TensorXors, TensorShls, TensorShrs,
		TileMaximums, TileMinimums, TileLrelu, TileRowExpand, TensorRowExpand, TileSels, TilePrelu, TileTri, TileGemv, TileGemvAcc, TileGemvBias, TileExtract,
		PrefetchMakeContext, PrefetchAsyncPrefetch, PrefetchSession, PrefetchWait,
		TensorGetBlockIdx, TensorGetBlockNum, TensorGetSubblockIdx,
	} {
		require.NotNil(t, h)
		require.False(t, handles[h], "%s has two handles", h.Name)
		handles[h] = true
		require.Same(t, MustOp(h.Name), h)
	}
	for _, d := range Ops() {
		require.True(t, handles[d], "op %s has no handle", d.Name)
	}
	require.Equal(t, ClassRMA, PldTilePut.Class)
	require.Same(t, PldTensorAllreduce, BuiltinTensorAllreduceRing.Collective)
	require.True(t, TensorSlice.HostSafe)
	require.False(t, TileSlice.HostSafe)
}

// A tile padded past the tensor's edge (upstream's 8-aligned [1, 8] load of
// a [1, 2] row with valid_shape=[1, 2]) reads and writes only its valid
// region, so only that region must fit; without a valid shape the whole
// tile must.
func TestPaddedTileFitsByValidShape(t *testing.T) {
	row := tens(FP32, 1, 2)
	padded, err := MustOp("tile.load").NewCall([]Expr{row, Dims(0, 0), Dims(1, 8), Dims(1, 2)}, Kwargs{{Key: "target_memory", Value: MemVec}}, cell)
	require.NoError(t, err)
	tt := padded.Type().(*TileType)
	require.Equal(t, "[1, 8]", DefaultFormat.Dims(tt.Shape))
	require.Equal(t, "[1, 2]", DefaultFormat.Dims(tt.View.ValidShape))
	tv := tvar("padded", tt)
	_, err = MustOp("tile.store").NewCall([]Expr{tv, Dims(0, 0), tens(FP32, 1, 2)}, nil, cell)
	require.NoError(t, err, "the valid [1, 2] fits the [1, 2] tensor")

	_, err = MustOp("tile.load").NewCall([]Expr{row, Dims(0, 0), Dims(1, 8)}, nil, cell)
	require.EqualError(t, err, "cell[3]:7: tile.load: argument 'shapes': expected a region inside the tensor (offset+extent <= 2 in dimension 1), given offset 0 + extent 8 = 8")
	_, err = MustOp("tile.load").NewCall([]Expr{row, Dims(0, 1), Dims(1, 8), Dims(1, 2)}, nil, cell)
	require.EqualError(t, err, "cell[3]:7: tile.load: argument 'valid_shape': expected a region inside the tensor (offset+extent <= 2 in dimension 1), given offset 1 + extent 2 = 3")
	_, err = MustOp("tile.store").NewCall([]Expr{tile(FP32, MemVec, 1, 8), Dims(0, 0), tens(FP32, 1, 2)}, nil, cell)
	require.Error(t, err, "a whole [1, 8] tile does not fit a [1, 2] tensor")
}

// A cast's mode may be given by name, as upstream's DSL resolves it; it
// stores (and prints) as its number.
func TestCastModeNames(t *testing.T) {
	x := tile(FP32, MemVec, 16, 16)
	c, err := NewCall("tile.cast", []Expr{x}, Kwargs{{"target_type", FP16}, {"mode", "rint"}}, cell)
	require.NoError(t, err)
	require.Equal(t, int64(1), c.Kwargs.Int("mode", -1))
	c, err = NewCall("tile.cast", []Expr{x}, Kwargs{{"target_type", FP16}, {"mode", int64(3)}}, cell)
	require.NoError(t, err)
	require.Equal(t, int64(3), c.Kwargs.Int("mode", -1))
	_, err = NewCall("tile.cast", []Expr{x}, Kwargs{{"target_type", FP16}, {"mode", "nearest"}}, cell)
	require.EqualError(t, err, `cell[3]:7: tile.cast: kwarg 'mode': expected an int or one of "none", "rint", "round", "floor", "ceil", "trunc", "odd", given "nearest"`)
}

// high_precision is stored only when true, as upstream's DSL passes it: a
// call that writes it false is the call that omits it.
func TestHighPrecisionOnlyTrue(t *testing.T) {
	a := tile(FP32, MemVec, 1, 8)
	plain, err := TileDiv.NewCall([]Expr{a, a}, nil, Span{})
	require.NoError(t, err)
	off, err := TileDiv.NewCall([]Expr{a, a}, Kwargs{{"high_precision", false}}, Span{})
	require.NoError(t, err)
	on, err := TileDiv.NewCall([]Expr{a, a}, Kwargs{{"high_precision", true}}, Span{})
	require.NoError(t, err)
	require.True(t, StructuralEqual(plain, off, false))
	require.False(t, StructuralEqual(plain, on, false))
	require.Equal(t, Kwargs{{"high_precision", true}}, on.Kwargs)
}

// TestTypedConsts: an integer constant given where an argument takes its
// dtype kwarg's type (ci's start) becomes a constant of that type, as
// upstream's DSL builds it; the caller's arguments are left as they were.
func TestTypedConsts(t *testing.T) {
	for _, c := range []struct {
		op *OpDef
		dt DataType
	}{{TileCi, INT32}, {TileCi, INT16}, {TensorCi, UINT32}} {
		args := []Expr{Int(3), Dims(1, 32)}
		call, err := c.op.NewCall(args, Kwargs{{"dtype", c.dt}}, Span{})
		if err != nil {
			t.Fatal(err)
		}
		got, ok := call.Args[0].(*ConstInt)
		if !ok || got.Value != 3 || got.DType != c.dt {
			t.Fatalf("%s dtype=%s: start is %#v, want 3 of %s", c.op.Name, c.dt, call.Args[0], c.dt)
		}
		if args[0].(*ConstInt).DType != INDEX {
			t.Fatalf("%s changed the caller's argument", c.op.Name)
		}
	}
}
