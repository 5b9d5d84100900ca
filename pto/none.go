package pto

import "github.com/ptorepl/ptorepl/ir"

// The ops with no PTO emitter, each with its reason: the op coverage test
// accepts an op with either an emitter or a line here, so a new op cannot
// silently miss codegen.
func init() {
	const tensorLevel = "a tensor-level op: ConvertTensorToTileOps lowers it to its tile form before codegen"
	for _, op := range []*ir.OpDef{
		ir.TensorCreate, ir.TensorCast, ir.TensorSlice, ir.TensorViewOp, ir.TensorAssemble,
		ir.TensorAdd, ir.TensorSub, ir.TensorMul, ir.TensorDiv, ir.TensorMaximum, ir.TensorMinimum,
		ir.TensorAdds, ir.TensorSubs, ir.TensorMuls, ir.TensorDivs,
		ir.TensorFull, ir.TensorMatmul, ir.TensorMatmulAcc, ir.TensorRandom, ir.TensorReinterpretView, ir.TensorSetValidshape, ir.TensorFillpad, ir.TensorAbs, ir.TensorNeg, ir.TensorRelu, ir.TensorExp, ir.TensorLog, ir.TensorSqrt, ir.TensorRecip,
	} {
		NoEmitter(op, tensorLevel)
	}
	for _, op := range ir.Ops() {
		if op.TileForm != nil {
			NoEmitter(op, tensorLevel)
		}
	}
	for _, op := range []*ir.OpDef{ir.TileSin, ir.TileCos} {
		NoEmitter(op, "LowerCompositeOps expands it into FP32 range reduction and a polynomial of tile ops before codegen")
	}
	NoEmitter(ir.TileBatchMatmul, "FlattenTileNdTo2D unrolls it into one tile.matmul per batch before codegen")
	NoEmitter(ir.TileBatchMatmulAcc, "FlattenTileNdTo2D unrolls it into one tile.matmul_acc per batch before codegen")
	NoEmitter(ir.TensorGather, "a tensor-level op: ConvertTensorToTileOps lowers it to a loop of tile.gather before codegen")
	NoEmitter(ir.TensorGatherCompare, "ConvertTensorToTileOps lowers it to tile.gather_compare")
	NoEmitter(ir.TensorExpandClone, "ConvertTensorToTileOps lowers it to tile loads, row or column expansions and stores")
	NoEmitter(ir.TensorCreateL1, "a tensor-level op: ConvertTensorToTileOps lowers it to a tile.create in Mat before codegen")
	NoEmitter(ir.TensorGatherRow, "a tensor-level op: ConvertTensorToTileOps lowers it to tile.gather_row before codegen")
	NoEmitter(ir.TensorPagedGather, "a tensor-level op: ConvertTensorToTileOps lowers it to a loop of tile.gather_row before codegen")
	NoEmitter(ir.TensorScatter, "a tensor-level op: ConvertTensorToTileOps lowers it to tile.scatter at flat indices before codegen")
	NoEmitter(ir.TensorScatterMask, "a tensor-level op: ConvertTensorToTileOps lowers it to tile.scatter_mask before codegen")
	for _, op := range []*ir.OpDef{ir.PldTensorPut, ir.PldTensorGet, ir.PldTensorRemoteStore} {
		NoEmitter(op, "a tensor-level transfer: ConvertTensorToTileOps stages it through tiles before codegen")
	}
	for _, op := range []*ir.OpDef{
		ir.PldTensorAllreduce, ir.PldTensorBarrier, ir.PldTensorBroadcast, ir.PldTensorReduceScatter,
		ir.PldTensorAllgather, ir.PldTensorAllToAll, ir.PldTensorAllToAllV,
	} {
		NoEmitter(op, "a collective: LowerCompositeOps expands it into signals and transfers before codegen")
	}
	for _, op := range []*ir.OpDef{
		ir.PldTensorAllocWindowBuffer, ir.PldTensorWindow, ir.PldSystemWorldSize,
		ir.BuiltinTensorAllreduce, ir.BuiltinTensorAllreduceRing, ir.BuiltinTensorBarrier, ir.BuiltinTensorBroadcast,
		ir.BuiltinTensorReduceScatter, ir.BuiltinTensorAllgather, ir.BuiltinTensorAllToAll, ir.BuiltinTensorAllToAllV,
	} {
		NoEmitter(op, "host-only: it runs in the host orchestrator, never in a kernel")
	}
	NoEmitter(ir.TensorCmp, "a tensor-level op: ConvertTensorToTileOps lowers it to tile.cmp, tile.full and tile.sel before codegen")
	for _, op := range []*ir.OpDef{ir.TileScatterUpdate, ir.TensorScatterUpdate} {
		NoEmitter(op, "ConvertTensorToTileOps lowers it to tile.scatter at flat indices before codegen")
	}
	for _, op := range []*ir.OpDef{ir.SystemTaskDummy, ir.SystemTaskInvalid} {
		NoEmitter(op, "a task-graph op: it orders launches in the orchestrator, which this codegen does not emit")
	}
}
