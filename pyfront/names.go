//go:build cgo

package pyfront

import (
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// builtins are the dotted PyPTO names that denote a constant: dtypes,
// enum members and the field-less types.
var builtins = map[string]value{}

// opByCallee maps a printed callee ("pl.tile.load") to its op.
var opByCallee = map[string]*ir.OpDef{}

// shortOps are the authoring-form spellings upstream's examples use that
// name a registered op by another path ("pl.load", "pld.rank").
var shortOps = map[string]*ir.OpDef{
	"pl.load":                 ir.TileLoad,
	"pl.not_":                 ir.TensorNot,
	"pl.maximums":             ir.TileMaximums,
	"pl.minimums":             ir.TileMinimums,
	"pl.lrelu":                ir.TileLrelu,
	"pl.sels":                 ir.TileSels,
	"pl.prelu":                ir.TilePrelu,
	"pl.tri":                  ir.TileTri,
	"pl.gemv":                 ir.TileGemv,
	"pl.batch_matmul":         ir.TileBatchMatmul,
	"pl.batch_matmul_acc":     ir.TileBatchMatmulAcc,
	"pl.gemv_acc":             ir.TileGemvAcc,
	"pl.gemv_bias":            ir.TileGemvBias,
	"pl.store":                ir.TileStore,
	"pl.read":                 ir.TensorRead,
	"pl.write":                ir.TensorWrite,
	"pl.slice":                ir.TensorSlice,
	"pl.create_tensor":        ir.TensorCreate,
	"pl.mscatter":             ir.TileMscatter,
	"pl.sort32":               ir.TensorSort32,
	"pl.cmp":                  ir.TensorCmp,
	"pl.part_add":             ir.TensorPartAdd,
	"pl.part_mul":             ir.TensorPartMul,
	"pl.part_max":             ir.TensorPartMax,
	"pl.part_min":             ir.TensorPartMin,
	"pl.row_sum":              ir.TensorRowSum,
	"pl.row_max":              ir.TensorRowMax,
	"pl.row_min":              ir.TensorRowMin,
	"pl.row_prod":             ir.TensorRowProd,
	"pl.col_sum":              ir.TensorColSum,
	"pl.col_max":              ir.TensorColMax,
	"pl.col_min":              ir.TensorColMin,
	"pl.col_prod":             ir.TensorColProd,
	"pl.row_argmax":           ir.TensorRowArgmax,
	"pl.row_argmin":           ir.TensorRowArgmin,
	"pl.col_argmax":           ir.TensorColArgmax,
	"pl.col_argmin":           ir.TensorColArgmin,
	"pl.set_validshape":       ir.TensorSetValidshape,
	"pl.fillpad":              ir.TensorFillpad,
	"pl.fillpad_expand":       ir.TensorFillpadExpand,
	"pl.matmul_bias":          ir.TileMatmulBias,
	"pl.row_expand_add":       ir.TensorRowExpandAdd,
	"pl.row_expand_sub":       ir.TensorRowExpandSub,
	"pl.row_expand_mul":       ir.TensorRowExpandMul,
	"pl.row_expand_div":       ir.TensorRowExpandDiv,
	"pl.row_expand_max":       ir.TensorRowExpandMax,
	"pl.row_expand_min":       ir.TensorRowExpandMin,
	"pl.row_expand_expdif":    ir.TensorRowExpandExpdif,
	"pl.col_expand":           ir.TensorColExpand,
	"pl.row_expand":           ir.TensorRowExpand,
	"pl.col_expand_add":       ir.TensorColExpandAdd,
	"pl.col_expand_sub":       ir.TensorColExpandSub,
	"pl.col_expand_mul":       ir.TensorColExpandMul,
	"pl.col_expand_div":       ir.TensorColExpandDiv,
	"pl.col_expand_max":       ir.TensorColExpandMax,
	"pl.col_expand_min":       ir.TensorColExpandMin,
	"pl.col_expand_expdif":    ir.TensorColExpandExpdif,
	"pl.rsqrt":                ir.TensorRsqrt,
	"pl.arange":               ir.TensorCi,
	"pl.random":               ir.TensorRandom,
	"pl.reinterpret_view":     ir.TensorReinterpretView,
	"pl.tensor.arange":        ir.TensorCi,
	"pl.tile.arange":          ir.TileCi,
	"pl.reshape":              ir.TensorReshape,
	"pl.gather":               ir.TensorGather,
	"pl.create_l1":            ir.TensorCreateL1,
	"pl.gather_row":           ir.TensorGatherRow,
	"pl.paged_gather":         ir.TensorPagedGather,
	"pl.aiv_shard":            ir.TensorAivShard,
	"pl.tpush_to_aiv":         ir.TileTpushToAiv,
	"pl.tpush_to_aic":         ir.TileTpushToAic,
	"pl.tpop_from_aic":        ir.TileTpopFromAic,
	"pl.tpop_from_aiv":        ir.TileTpopFromAiv,
	"pl.system.tpush_to_aiv":  ir.TileTpushToAiv,
	"pl.system.tpush_to_aic":  ir.TileTpushToAic,
	"pl.system.tpop_from_aic": ir.TileTpopFromAic,
	"pl.system.tpop_from_aiv": ir.TileTpopFromAiv,
	"pl.tfree_to_aic":         ir.SystemTfreeToAic,
	"pl.tfree_to_aiv":         ir.SystemTfreeToAiv,
	"pl.aic_initialize_pipe":  ir.SystemAicInitializePipe,
	"pl.aiv_initialize_pipe":  ir.SystemAivInitializePipe,
	"pl.reserve_buffer":       ir.SystemReserveBuffer,
	"pl.import_peer_buffer":   ir.SystemImportPeerBuffer,
	"pl.aic_gather":           ir.TensorAicGather,
	"pl.scatter":              ir.TensorScatter,
	"pl.transpose":            ir.TensorTranspose,
	"pl.full":                 ir.TensorFull,
	"pl.get_block_idx":        ir.TensorGetBlockIdx,
	"pl.get_block_num":        ir.TensorGetBlockNum,
	"pl.get_subblock_idx":     ir.TensorGetSubblockIdx,
	"pl.concat":               ir.TileConcat,
	"pl.move":                 ir.TileMove,
	"pl.matmul":               ir.TensorMatmul,
	"pl.matmul_acc":           ir.TensorMatmulAcc,
	"pl.abs":                  ir.TensorAbs,
	"pl.neg":                  ir.TensorNeg,
	"pl.relu":                 ir.TensorRelu,
	"pl.exp":                  ir.TensorExp,
	"pl.sin":                  ir.TensorSin,
	"pl.cos":                  ir.TensorCos,
	"pl.log":                  ir.TensorLog,
	"pl.sqrt":                 ir.TensorSqrt,
	"pl.recip":                ir.TensorRecip,
	"pl.create_tile":          ir.TileCreate,
	"pl.assemble":             ir.TensorAssemble,
	"pl.expand_clone":         ir.TensorExpandClone,
	"pld.get_comm_ctx":        ir.PldSystemGetCommCtx,
	"pld.rank":                ir.PldSystemRank,
	"pld.nranks":              ir.PldSystemNranks,
	"pld.world_size":          ir.PldSystemWorldSize,
	"pld.window":              ir.PldTensorWindow,
	"pld.alloc_window_buffer": ir.PldTensorAllocWindowBuffer,
	"pld.notify":              ir.PldSystemNotify,
	"pld.wait":                ir.PldSystemWait,
	// The short forms pld.remote_load and pld.remote_store (the latter a
	// tile op on a tile source, tileSpellings).
	"pld.remote_load":  ir.PldTileRemoteLoad,
	"pld.remote_store": ir.PldTensorRemoteStore,
}

func init() {
	for _, d := range ir.AllDataTypes() {
		builtins["pl."+d.Name()] = d
	}
	for i := 0; i < 16; i++ {
		enumEntry("pl.Mem.", ir.MemorySpace(i).Name(), ir.MemorySpace(i))
		enumEntry("pl.MemorySpace.", ir.MemorySpace(i).Name(), ir.MemorySpace(i))
		enumEntry("pl.TileLayout.", ir.TileLayout(i).Name(), ir.TileLayout(i))
		enumEntry("pl.TensorLayout.", ir.TensorLayout(i).Name(), ir.TensorLayout(i))
		enumEntry("pl.PadValue.", ir.PadValue(i).Name(), ir.PadValue(i))
		enumEntry("pl.PipeType.", ir.PipeType(i).Name(), ir.PipeType(i))
		enumEntry("pl.FunctionType.", ir.FunctionType(i).String(), ir.FunctionType(i))
		enumEntry("pl.Level.", ir.Level(i).String(), ir.Level(i))
		enumEntry("pl.Role.", ir.Role(i).String(), ir.Role(i))
		enumEntry("pl.adir.", ir.ArgDirection(i).Name(), ir.ArgDirection(i))
		enumEntry("pld.NotifyOp.", ir.NotifyOp(i).String(), ir.NotifyOp(i))
		enumEntry("pld.WaitCmp.", ir.WaitCmp(i).String(), ir.WaitCmp(i))
		enumEntry("pld.ReduceOp.", ir.ReduceOp(i).String(), ir.ReduceOp(i))
	}
	for _, p := range []string{"pl", "pld"} {
		builtins[p+".AtomicType.None_"] = ir.AtomicNone
		builtins[p+".AtomicType.Add"] = ir.AtomicAdd
	}
	builtins["pl.Ptr"] = ir.PtrT
	builtins["pl.MemRefType"] = ir.MemRefT
	builtins["pld.WindowBufferType"] = ir.WindowBufT
	// Both spellings of the comm context: e2d0f78's CommCtxType and the
	// CommCtx of upstream #2487.
	builtins["pld.CommCtxType"] = ir.CommCtxT
	builtins["pld.CommCtx"] = ir.CommCtxT
	// Upstream's short names: the tensor layouts (pl.NZ) and the levels'
	// readability aliases (pl.Level.POD is CLUSTER_0).
	for _, l := range []ir.TensorLayout{ir.LayoutND, ir.LayoutDN, ir.LayoutNZ, ir.LayoutMXAZZ, ir.LayoutMXBNN} {
		builtins["pl."+l.Name()] = l
	}
	for alias, l := range map[string]ir.Level{"L2CACHE": ir.LevelChipDie, "PROCESSOR": ir.LevelChip, "UMA": ir.LevelChip,
		"NODE": ir.LevelHost, "POD": ir.LevelCluster0, "CLOS1": ir.LevelCluster1, "CLOS2": ir.LevelCluster2} {
		builtins["pl.Level."+alias] = l
	}
	builtins["pl.ScopeMode.AUTO"] = scopeAuto
	builtins["pl.ScopeMode.MANUAL"] = scopeManual
	builtins["pl.UnknownType"] = ir.Unknown
	for _, h := range []ir.Type{ir.PrefetchCtxT, ir.AsyncEventT, ir.AsyncSessionT} {
		builtins["pl."+h.(*ir.AsyncHandleType).Name()] = h
	}
	builtins["pl.AUTO"] = int64(-1) // reserve_buffer's base: the compiler places the buffer
	for _, d := range ir.Ops() {
		opByCallee[d.Callee(nil)] = d
	}
}

func init() {
	for i, m := range ir.MaskPatterns {
		if m.Name != "" {
			builtins["pl.tile.MaskPattern."+m.Name] = int64(i)
		}
	}
	for _, m := range []ir.SplitMode{ir.SplitNone, ir.SplitUpDown, ir.SplitLeftRight} {
		enumEntry("pl.SplitMode.", m.String(), m)
	}
}

func enumEntry(prefix, name string, v value) {
	if strings.Contains(name, "(") {
		return
	}
	builtins[prefix+name] = v
}

// pythonBuiltins are Python's built-in functions: a call of one that is
// not a PyPTO spelling is unsupported, not undefined.
var pythonBuiltins = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`abs all any ascii bin bool breakpoint bytearray bytes callable chr
		classmethod compile complex delattr dict dir divmod enumerate eval exec filter float format
		frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len
		list locals map max memoryview min next object oct open ord pow print property range repr
		reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip`) {
		m[n] = true
	}
	return m
}()
