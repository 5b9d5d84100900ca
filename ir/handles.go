package ir

// Op handles: each registered op is one exported *OpDef, filled by its
// registration (at init, so every importing package sees them set). Other
// layers attach their part to the handle (pto.Register(ir.TileLoad, ...),
// runtime.Register(ir.TileLoad, ...)), build calls with it
// (ir.TileAlloc.MustCall(...)) and compare calls against it
// (c.Op == ir.PldTensorWindow) instead of spelling the op's name.

// scatter_update (ops_scatter_update.go).
var TileScatterUpdate, TensorScatterUpdate *OpDef

// Comparisons (ops_cmp.go).
var TileCmp, TileCmps, TileSel, TensorCmp *OpDef

// Sorting (ops_sort.go).
var TileSort32, TensorSort32, TileMrgsortFormat1, TensorMrgsortFormat1, TileMrgsortFormat2, TensorMrgsortFormat2 *OpDef

// tile.mscatter (ops_mscatter.go).
var TileMscatter *OpDef

// Partial-combine ops (ops_part.go).
var TilePartAdd, TilePartMul, TilePartMax, TilePartMin, TensorPartAdd, TensorPartMul, TensorPartMax, TensorPartMin *OpDef

// Task-graph ops (task.go).
var ArrayCreate, ArrayGetElement, ArrayUpdateElement, SystemTaskDummy, SystemTaskInvalid *OpDef

// Tile and tensor ops (ops_tile.go). tensor.view's handle is TensorViewOp:
// TensorView is the view type.
var (
	TileLoad, TileStore, TileCreate, TensorCreate *OpDef
	TileRead, TileWrite, TensorRead, TensorWrite  *OpDef

	TileAdd, TileSub, TileMul, TileDiv, TileMaximum, TileMinimum             *OpDef
	TileAdds, TileSubs, TileMuls, TileDivs                                   *OpDef
	TensorAdd, TensorSub, TensorMul, TensorDiv, TensorMaximum, TensorMinimum *OpDef
	TensorAdds, TensorSubs, TensorMuls, TensorDivs                           *OpDef

	TileAnd, TileOr, TileXor, TileShl, TileShr, TileNot             *OpDef
	TileAnds, TileOrs, TileXors, TileShls, TileShrs                 *OpDef
	TensorAnd, TensorOr, TensorXor, TensorShl, TensorShr, TensorNot *OpDef
	TensorAnds, TensorOrs, TensorXors, TensorShls, TensorShrs       *OpDef
	TileMaximums, TileMinimums, TileLrelu                           *OpDef
	TileRowExpand, TensorRowExpand                                  *OpDef
	TileSels, TilePrelu, TileTri                                    *OpDef
	TileGemv, TileGemvAcc, TileGemvBias                             *OpDef
	TileExtract                                                     *OpDef

	TileCast, TensorCast                                 *OpDef
	TileFillpad, TileFillpadInplace, TileSetValidshape   *OpDef
	TileSlice, TensorSlice, TensorViewOp, TensorAssemble *OpDef
	TileAlloc, SystemFence, SystemCacheinvalid           *OpDef

	TileAbs, TileNeg, TileRelu, TileExp, TileLog, TileSqrt, TileRecip               *OpDef
	TileSin, TileCos, TensorSin, TensorCos                                          *OpDef
	TensorAbs, TensorNeg, TensorRelu, TensorExp, TensorLog, TensorSqrt, TensorRecip *OpDef

	TileRowSum, TileRowMax, TileRowMin                                        *OpDef
	TileRowExpandAdd, TileRowExpandSub, TileRowExpandMul, TileRowExpandDiv    *OpDef
	TileColExpand, TileColExpandAdd, TileColExpandSub, TileColExpandMul       *OpDef
	TileColExpandDiv, TileReshape                                             *OpDef
	TileMove, TileMatmul, TileMatmulAcc, TileConcat, TileBatchMatmul          *OpDef
	TileBatchMatmulAcc                                                        *OpDef
	TensorMatmul, TensorMatmulAcc, TileAssemble, TileTransposeView, TensorDim *OpDef
	TileRowProd, TileColSum, TileColMax, TileColMin, TileColProd              *OpDef
	TileMatmulBias, TileFillpadExpand, TensorSetValidshape, TensorFillpad     *OpDef
	TileFull, TensorFull                                                      *OpDef

	// The tensor forms of the row and column ops, and the vector ops
	// upstream's ops tests use (ops_rows.go, ops_vector.go).
	TileRowExpandMax, TileRowExpandMin, TileRowExpandExpdif              *OpDef
	TileColExpandMax, TileColExpandMin, TileColExpandExpdif              *OpDef
	TensorRowSum, TensorRowMax, TensorRowMin, TensorRowProd              *OpDef
	TensorColSum, TensorColMax, TensorColMin, TensorColProd              *OpDef
	TensorRowExpandAdd, TensorRowExpandSub, TensorRowExpandMul           *OpDef
	TensorRowExpandDiv, TensorRowExpandMax, TensorRowExpandMin           *OpDef
	TensorRowExpandExpdif, TensorColExpand, TensorColExpandAdd           *OpDef
	TensorColExpandSub, TensorColExpandMul, TensorColExpandDiv           *OpDef
	TensorColExpandMax, TensorColExpandMin, TensorColExpandExpdif        *OpDef
	TileRsqrt, TensorRsqrt                                               *OpDef
	TileFmod, TensorFmod, TileFmods, TensorFmods, TileCi, TensorCi       *OpDef
	TileRandom, TensorRandom, TileReinterpretView, TensorReinterpretView *OpDef
	TensorFillpadExpand                                                  *OpDef
	TileGetBlockIdx, TileGetBlockNum                                     *OpDef // ops_spmd.go
	TensorGetBlockIdx, TensorGetBlockNum, TensorGetSubblockIdx           *OpDef
	TensorReshape, TileGather, TensorGather                              *OpDef
	TileGatherMask, TensorGatherMask                                     *OpDef
	TileScatter, TensorScatter, TileScatterMask, TensorScatterMask       *OpDef
	TileRowArgmax, TileRowArgmin, TileColArgmax, TileColArgmin           *OpDef
	TensorRowArgmax, TensorRowArgmin, TensorColArgmax                    *OpDef
	TensorColArgmin, TileTranspose, TensorTranspose                      *OpDef
	TensorCreateL1, TileGatherRow, TensorGatherRow, TensorPagedGather    *OpDef // ops_gather_row.go
	TileGetSubblockIdx, TileAivShard, TileAicGather                      *OpDef // ops_split_aiv.go
	TensorAivShard, TensorAicGather                                      *OpDef
	SystemSyncall                                                        *OpDef // ops_syncall.go
	SystemSetFFTS, SystemSyncSet, SystemSyncWait                         *OpDef // ops_crosscore_sync.go
	TileTpushToAiv, TileTpushToAic, TileTpopFromAic, TileTpopFromAiv     *OpDef // ops_pipes.go
	SystemTfreeToAic, SystemTfreeToAiv                                   *OpDef
	SystemAicInitializePipe, SystemAivInitializePipe                     *OpDef
	SystemReserveBuffer, SystemImportPeerBuffer                          *OpDef
	TileMgather                                                          *OpDef // ops_mgather.go
	TileGatherb                                                          *OpDef // ops_gatherb.go
	TensorGatherCompare                                                  *OpDef // ops_gather.go
	TileGatherCompare                                                    *OpDef // ops_gather.go
	TensorExpandClone                                                    *OpDef // ops_expand.go
)

// Asynchronous prefetch ops (ops_prefetch.go).
var PrefetchMakeContext, PrefetchAsyncPrefetch, PrefetchSession, PrefetchWait *OpDef

// Seed PR #1301's tile-level signal ops (ops_comm.go).
var TileCommNotify, TileCommWait, TileCommTest *OpDef

// Distributed ops (ops_dist.go).
var (
	PldTensorAllocWindowBuffer, PldTensorWindow                                       *OpDef
	PldSystemWorldSize, PldSystemGetCommCtx, PldSystemRank, PldSystemNranks           *OpDef
	PldSystemNotify, PldSystemWait, PldSystemDeferWait                                *OpDef
	PldTileRemoteLoad, PldTileRemoteStore, PldTensorRemoteStore                       *OpDef
	PldTensorPut, PldTensorGet, PldTilePut, PldTileGet                                *OpDef
	PldTensorAllreduce, PldTensorBarrier, PldTensorBroadcast                          *OpDef
	PldTensorReduceScatter, PldTensorAllgather, PldTensorAllToAll, PldTensorAllToAllV *OpDef
)

// Host builtin collectives (ops_host_builtin.go).
var (
	BuiltinTensorAllreduce, BuiltinTensorAllreduceRing, BuiltinTensorBarrier   *OpDef
	BuiltinTensorBroadcast, BuiltinTensorReduceScatter, BuiltinTensorAllgather *OpDef
	BuiltinTensorAllToAll, BuiltinTensorAllToAllV                              *OpDef
)

// OpClass is what an op does to the machine: the run's timeline colours
// by it and reports word accesses by it. Every registered op sets one.
type OpClass int

// Op classes.
const (
	ClassUnset      OpClass = iota // not declared (the op coverage test rejects it)
	ClassCompute                   // on-chip arithmetic, views, layout, allocation
	ClassMemory                    // moves data between global and on-chip memory, or one element
	ClassRMA                       // reads or writes a peer rank's window
	ClassSignal                    // notifies a signal cell
	ClassWait                      // waits on (or tests) a signal cell
	ClassCollective                // a collective over the comm group
	ClassSetup                     // comm context, windows, rank queries
)

var opClassNames = []string{"unset", "compute", "memory", "rma", "signal", "wait", "collective", "setup"}

func (c OpClass) String() string { return enumName("OpClass", opClassNames, int(c)) }

// MustCall builds a call of this op from arguments known to be valid
// (passes re-creating ops); an error is a compiler bug and panics.
func (d *OpDef) MustCall(args []Expr, kwargs Kwargs, pos Span) *Call {
	c, err := d.NewCall(args, kwargs, pos)
	if err != nil {
		panic(err)
	}
	return c
}

// Is reports whether c is a call of this op.
func (d *OpDef) Is(c *Call) bool { return c != nil && d != nil && c.Op == d }
