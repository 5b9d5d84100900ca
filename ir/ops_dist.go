package ir

import (
	"fmt"
	"math"
)

// Registrations of the distributed ops (pld.*), after ops.md (a).

const distCategory = "DistributedOp"

func init() {
	PldTensorAllocWindowBuffer = RegisterOp(&OpDef{
		Name: "pld.tensor.alloc_window_buffer", Class: ClassSetup, HostSafe: true, Category: distCategory,
		Doc:    "Allocate a per-rank window buffer of size bytes; its name is the assignment target.",
		Args:   []ArgSpec{{Name: "size"}},
		Kwargs: []KwargSpec{{Name: "name", Kind: KwString, Required: true, Hidden: true}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if _, err := c.IntScalar(0); err != nil {
				return nil, err
			}
			if v, ok := ConstValue(c.Args[0]); ok && v <= 0 {
				return nil, c.Fail(0, "a positive size in bytes", fmt.Sprintf("%d", v))
			}
			if c.Kwargs.String("name", "") == "" {
				return nil, c.FailKwarg("name", "a non-empty buffer name (bind the call with Let)", "''")
			}
			return PtrT, nil
		},
	})
	PldTensorWindow = RegisterOp(&OpDef{
		Name: "pld.tensor.window", Class: ClassSetup, HostSafe: true, Category: distCategory,
		Doc:    "View a window buffer as a DistributedTensor of the given shape and dtype.",
		Args:   []ArgSpec{{Name: "buf"}, {Name: "shape"}},
		Kwargs: []KwargSpec{{Name: "dtype", Kind: KwDType, Required: true}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if _, ok := c.Args[0].Type().(*PtrType); !ok {
				return nil, c.Fail(0, "a pl.Ptr (output of pld.tensor.alloc_window_buffer)", c.Args[0])
			}
			shape, err := c.Tuple(1, -1)
			if err != nil {
				return nil, err
			}
			dt, _ := c.Kwargs.DType("dtype")
			return &DistributedTensorType{Shape: shape, DType: dt}, nil
		},
	})
	PldSystemWorldSize = RegisterOp(&OpDef{
		Name: "pld.system.world_size", Class: ClassSetup, HostSafe: true, Category: distCategory,
		Doc: "The number of ranks (host orchestrator only).",
		Deduce: func(c *DeduceCtx) (Type, error) {
			return Scalar(INT64), nil
		},
	})
	PldSystemGetCommCtx = RegisterOp(&OpDef{
		Name: "pld.system.get_comm_ctx", Class: ClassSetup, HostSafe: true, Category: distCategory,
		Doc:  "The communication context of a window-bound tensor.",
		Args: []ArgSpec{{Name: "dist_tensor"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if _, err := c.Dist(0); err != nil {
				return nil, err
			}
			return CommCtxT, nil
		},
	})
	for _, h := range []struct {
		name   string
		handle **OpDef
	}{{"pld.system.rank", &PldSystemRank}, {"pld.system.nranks", &PldSystemNranks}} {
		name := h.name
		*h.handle = RegisterOp(&OpDef{
			Name: name, Category: distCategory, Class: ClassSetup,
			Doc:  "This rank's index (rank) or the number of ranks (nranks) in a comm context.",
			Args: []ArgSpec{{Name: "ctx"}},
			Deduce: func(c *DeduceCtx) (Type, error) {
				if _, ok := c.Args[0].Type().(*CommCtxType); !ok {
					return nil, c.Fail(0, "a pld.CommCtx (output of pld.system.get_comm_ctx)", c.Args[0])
				}
				return Scalar(INT32), nil
			},
		})
	}
	registerSignalOps()
	registerRMAOps()
	registerCollectives()
}

// signalCell checks the (signal, offsets) pair shared by notify and wait:
// an INT32 window tensor (upstream leaves the dtype unchecked, but PTO
// casts every signal to i32, so another dtype only fails at codegen) and
// constant offsets naming a cell inside it.
func signalCell(c *DeduceCtx, sig, offs int) (*DistributedTensorType, error) {
	s, err := c.Dist(sig)
	if err != nil {
		return nil, err
	}
	if s.DType != INT32 {
		return nil, c.Fail(sig, "a signal with element type pl.INT32", s)
	}
	elems, err := c.Tuple(offs, len(s.Shape))
	if err != nil {
		return nil, err
	}
	if err := indexInside(c, offs, elems, s.Shape, "the signal"); err != nil {
		return nil, err
	}
	return s, nil
}

// intValue checks that argument i (a notify value, a wait's expected value)
// is an integer scalar: signal cells hold INT32 counts.
func intValue(c *DeduceCtx, i int) error {
	if _, err := c.Scalar(i); err != nil {
		return err
	}
	if _, err := c.IntScalar(i); err != nil {
		return c.Fail(i, "an integer (signal cells hold pl.INT32 counts)", Describe(c.Args[i]))
	}
	return nil
}

func registerSignalOps() {
	PldSystemNotify = RegisterOp(&OpDef{
		Name: "pld.system.notify", Class: ClassSignal, Category: distCategory,
		Doc:    "Update one signal cell on peer: op=AtomicAdd adds value, op=Set stores it.",
		Args:   []ArgSpec{{Name: "target", Peer: true, Signal: true}, {Name: "peer", Int32: true}, {Name: "offsets"}, {Name: "value", Int32: true}},
		Kwargs: []KwargSpec{{Name: "op", Kind: KwInt, Required: true}},
		Effects: func(args []Expr, kw Kwargs) []Effect {
			out := make([]Effect, len(args))
			out[0] = ReadWrite
			if kw.Int("op", 0) == int64(NotifySet) {
				out[0] = Write
			}
			return out
		},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if _, err := c.Dist(0); err != nil {
				return nil, err
			}
			if _, err := c.IntScalar(1); err != nil {
				return nil, err
			}
			if _, err := signalCell(c, 0, 2); err != nil {
				return nil, err
			}
			if err := intValue(c, 3); err != nil {
				return nil, err
			}
			if _, err := c.IntIn("op", 0, 1, "pld.NotifyOp.AtomicAdd (0) or pld.NotifyOp.Set (1)"); err != nil {
				return nil, err
			}
			return Unknown, nil
		},
	})
	for _, h := range []struct {
		name   string
		handle **OpDef
	}{{"pld.system.wait", &PldSystemWait}, {"pld.system.defer_wait", &PldSystemDeferWait}} {
		name := h.name
		deferred := h.handle == &PldSystemDeferWait
		*h.handle = RegisterOp(&OpDef{
			Name: name, Category: distCategory, Class: ClassWait, Acquire: !deferred, Deferred: deferred,
			Doc:    "Block until this rank's signal cell compares true against expected (cmp=Eq or Ge).",
			Args:   []ArgSpec{{Name: "signal", Signal: true}, {Name: "offsets"}, {Name: "expected", Int32: true}},
			Kwargs: []KwargSpec{{Name: "cmp", Kind: KwInt, Required: true}},
			Deduce: func(c *DeduceCtx) (Type, error) {
				s, err := signalCell(c, 0, 1)
				if err != nil {
					return nil, err
				}
				if err := intValue(c, 2); err != nil {
					return nil, err
				}
				if deferred {
					if s.DType != INT32 || len(s.Shape) < 1 {
						return nil, c.Fail(0, "an INT32 signal of rank >= 1", s)
					}
					if _, err := c.IntScalar(2); err != nil {
						return nil, err
					}
					if v, ok := ConstValue(c.Args[2]); ok && (v < 0 || v > math.MaxInt32) {
						return nil, c.Fail(2, "a constant in [0, INT32_MAX]", fmt.Sprintf("%d", v))
					}
					if _, err := c.IntIn("cmp", 1, 1, "pld.WaitCmp.Ge (1)"); err != nil {
						return nil, err
					}
					return Unknown, nil
				}
				if _, err := c.IntIn("cmp", 0, 1, "pld.WaitCmp.Eq (0) or pld.WaitCmp.Ge (1)"); err != nil {
					return nil, err
				}
				return Unknown, nil
			},
		})
	}
}

func registerRMAOps() {
	PldTileRemoteLoad = RegisterOp(&OpDef{
		Name: "pld.tile.remote_load", Class: ClassRMA, Category: distCategory,
		Doc:     "Load a tile of shape at offsets from peer's copy of a window tensor.",
		Args:    []ArgSpec{{Name: "target", Peer: true}, {Name: "peer", Int32: true}, {Name: "offsets"}, {Name: "shape"}, {Name: "valid_shape"}},
		MinArgs: 4, MaxArgs: 5,
		Kwargs: []KwargSpec{{Name: "allow_physical_tail_padding", Kind: KwBool, Hidden: true}},
		PrintAs: func(c *Call) string {
			if c.Kwargs.Bool("allow_physical_tail_padding", false) {
				return "pld.tile._remote_load_with_physical_tail_padding"
			}
			return ""
		},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Dist(0)
			if err != nil {
				return nil, err
			}
			if t.View != nil && (t.View.Layout == LayoutMXAZZ || t.View.Layout == LayoutMXBNN) {
				return nil, c.Fail(0, "a tensor without MX layout (remote_load does not support MX-layout tensors)", t)
			}
			if err := wholeBytes(c, 0, t.DType); err != nil {
				return nil, err
			}
			rank := len(t.Shape)
			if rank == 0 {
				return nil, c.Fail(0, "a tensor of rank > 0", t)
			}
			if _, err := c.IntScalar(1); err != nil {
				return nil, err
			}
			offs, err := c.Tuple(2, rank)
			if err != nil {
				return nil, err
			}
			shape, err := c.Tuple(3, rank)
			if err != nil {
				return nil, err
			}
			if err := positiveStatic(c, 3, shape); err != nil {
				return nil, err
			}
			if c.N() < 5 {
				if err := regionFits(c, 3, offs, shape, t.Shape, "the target"); err != nil {
					return nil, err
				}
			}
			// The layout follows the shape, unless the target's own view
			// says ND (row_major) or DN (col_major), as upstream's deduces.
			iv := ImplicitTileView(shape, MemNone)
			if t.View != nil {
				switch t.View.Layout {
				case LayoutND:
					iv.BLayout = RowMajor
				case LayoutDN:
					iv.BLayout = ColMajor
				}
			}
			view := &iv
			if c.N() == 5 {
				valid, err := c.Tuple(4, rank)
				if err != nil {
					return nil, err
				}
				for d, e := range valid {
					v, ok := ConstValue(e)
					if ok && v < 0 {
						return nil, c.Fail(4, "non-negative valid extents", fmt.Sprintf("%d in dimension %d", v, d))
					}
					if w, isConst := ConstValue(shape[d]); ok && isConst && v > w {
						return nil, c.Fail(4, "valid extents within the shape (a valid region cannot be larger than the tile)", fmt.Sprintf("%d > %d in dimension %d", v, w, d))
					}
				}
				// Only the valid region is read, so it is what must lie
				// inside the target: a fixed physical tile may reach past
				// a ragged tail (upstream's clamped window read).
				if err := regionFits(c, 4, offs, valid, t.Shape, "the target"); err != nil {
					return nil, err
				}
				iv.ValidShape = valid
			}
			return NewTileType(shape, t.DType, MemNone, view), nil
		},
	})
	remoteStore := func(c *DeduceCtx, srcDT DataType, srcShape []Expr) (Type, error) {
		t, err := c.Dist(1)
		if err != nil {
			return nil, err
		}
		if srcDT != t.DType {
			return nil, c.Fail(0, "element type "+t.DType.String()+" (the target's)", srcDT.String())
		}
		if err := wholeBytes(c, 1, t.DType); err != nil {
			return nil, err
		}
		if len(t.Shape) < 2 {
			return nil, c.Fail(1, "a target of rank >= 2", t)
		}
		if _, err := c.IntScalar(2); err != nil {
			return nil, err
		}
		offs, err := c.Tuple(3, len(t.Shape))
		if err != nil {
			return nil, err
		}
		if len(srcShape) < 2 {
			return nil, c.Fail(0, "a source of rank >= 2", ShapeString(srcShape))
		}
		// Leading dims beyond the last two must be 1: the push is one 2-D block.
		for d := 0; d < len(srcShape)-2; d++ {
			if v, ok := ConstValue(srcShape[d]); ok && v != 1 {
				return nil, c.Fail(0, "leading dimensions equal to 1", ShapeString(srcShape))
			}
		}
		if len(srcShape) == len(t.Shape) {
			if err := regionFits(c, 3, offs, srcShape, t.Shape, "the peer's target"); err != nil {
				return nil, err
			}
		}
		if err := checkAtomic(c, t.DType); err != nil {
			return nil, err
		}
		return Unknown, nil
	}
	PldTileRemoteStore = RegisterOp(&OpDef{
		Name: "pld.tile.remote_store", Class: ClassRMA, Category: distCategory, StoreUnit: "dma",
		Doc:     "Store a Vec/Acc tile into peer's copy of a window tensor at offsets (atomic=Add accumulates).",
		Args:    []ArgSpec{{Name: "src_tile"}, {Name: "target", Peer: true}, {Name: "peer", Int32: true}, {Name: "offsets"}},
		Kwargs:  []KwargSpec{{Name: "atomic", Kind: KwAtomic}},
		Effects: atomicDestEffects(1),
		Deduce: func(c *DeduceCtx) (Type, error) {
			tile, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			if tile.Memory != MemNone && tile.Memory != MemVec && tile.Memory != MemAcc {
				return nil, c.Fail(0, "a tile in Vec or Acc memory", tile)
			}
			shape := tile.Shape
			if tile.View != nil && len(tile.View.ValidShape) > 0 {
				shape = tile.View.ValidShape
			}
			return remoteStore(c, tile.DType, shape)
		},
	})
	PldTensorRemoteStore = RegisterOp(&OpDef{
		Name: "pld.tensor.remote_store", Class: ClassRMA, Category: distCategory, StoreUnit: "dma",
		Doc:     "Store a tensor-level value into peer's copy of a window tensor (lowered to the tile form).",
		Args:    []ArgSpec{{Name: "src"}, {Name: "target", Peer: true}, {Name: "peer", Int32: true}, {Name: "offsets"}},
		Kwargs:  []KwargSpec{{Name: "atomic", Kind: KwAtomic}},
		Effects: atomicDestEffects(1),
		Deduce: func(c *DeduceCtx) (Type, error) {
			src, ok := c.Args[0].Type().(*TensorType)
			if !ok {
				exp := "a pl.Tensor (tensor-level value)"
				switch c.Args[0].Type().(type) {
				case *DistributedTensorType:
					exp += "; use pld.tensor.put for window-to-window copies"
				case *TileType:
					exp += "; store a tile with pld.tile.remote_store"
				}
				return nil, c.Fail(0, exp, c.Args[0])
			}
			return remoteStore(c, src.DType, src.Shape)
		},
	})
	registerPutGet()
}

// putGetKwargs are the chunking kwargs of tensor-level put and get.
var putGetKwargs = []KwargSpec{{Name: "chunk_rows", Kind: KwInt}, {Name: "chunk_cols", Kind: KwInt}, {Name: "pipeline", Kind: KwBool}}

// checkTransfer checks a put/get between remote (a DT at index ri) and local
// (a tensor-like at index li), with an optional region starting at index reg.
// It returns the element type and the transfer shape.
func checkTransfer(c *DeduceCtx, ri, li, reg int) (DataType, []Expr, error) {
	remote, err := c.Dist(ri)
	if err != nil {
		return 0, nil, err
	}
	local, err := c.TensorLike(li)
	if err != nil {
		return 0, nil, err
	}
	if local.DType != remote.DType {
		return 0, nil, c.Fail(li, "element type "+remote.DType.String()+" (same as "+c.Op.ArgName(ri)+")", local.DType.String())
	}
	if err := wholeBytes(c, ri, remote.DType); err != nil {
		return 0, nil, err
	}
	if len(local.Shape) != len(remote.Shape) {
		return 0, nil, c.Fail(li, fmt.Sprintf("rank %d (same as %s)", len(remote.Shape), c.Op.ArgName(ri)), ShapeString(local.Shape))
	}
	if _, err := c.IntScalar(1); err != nil {
		return 0, nil, err
	}
	if err := positiveStatic(c, ri, remote.Shape); err != nil {
		return 0, nil, err
	}
	if err := positiveStatic(c, li, local.Shape); err != nil {
		return 0, nil, err
	}
	if c.N() <= reg {
		if !SameDims(local.Shape, remote.Shape) {
			return 0, nil, c.Fail(li, "shape "+ShapeString(remote.Shape)+" (same as "+c.Op.ArgName(ri)+"; pass dst_offsets, src_offsets and shape for a region)", ShapeString(local.Shape))
		}
		return remote.DType, remote.Shape, nil
	}
	if c.N() < reg+3 {
		return 0, nil, c.FailCall("dst_offsets, src_offsets and shape, which must be provided together", fmt.Sprintf("%d region arguments", c.N()-reg))
	}
	rank := len(remote.Shape)
	dstOff, err := c.Tuple(reg, rank)
	if err != nil {
		return 0, nil, err
	}
	srcOff, err := c.Tuple(reg+1, rank)
	if err != nil {
		return 0, nil, err
	}
	shape, err := c.Tuple(reg+2, rank)
	if err != nil {
		return 0, nil, err
	}
	if err := positiveStatic(c, reg+2, shape); err != nil {
		return 0, nil, err
	}
	dstShape, srcShape := c.Args[0].Type(), c.Args[2].Type()
	ds, _, _ := ShapeOf(dstShape)
	ss, _, _ := ShapeOf(srcShape)
	if err := regionFits(c, reg, dstOff, shape, ds, c.Op.ArgName(0)); err != nil {
		return 0, nil, err
	}
	if err := regionFits(c, reg+1, srcOff, shape, ss, c.Op.ArgName(2)); err != nil {
		return 0, nil, err
	}
	return remote.DType, shape, nil
}

func checkChunks(c *DeduceCtx, shape []Expr) error {
	rows, cols := c.Kwargs.Int("chunk_rows", 0), c.Kwargs.Int("chunk_cols", 0)
	if rows < 0 {
		return c.FailKwarg("chunk_rows", "a value >= 0 (0 = full)", fmt.Sprintf("%d", rows))
	}
	if cols < 0 {
		return c.FailKwarg("chunk_cols", "a value >= 0 (0 = full)", fmt.Sprintf("%d", cols))
	}
	if c.Kwargs.Bool("pipeline", false) && (rows <= 0 || cols <= 0) {
		return c.FailKwarg("pipeline", "pipeline=True only with both chunk_rows > 0 and chunk_cols > 0",
			fmt.Sprintf("chunk_rows=%d, chunk_cols=%d", rows, cols))
	}
	if len(shape) > 0 {
		if _, ok := ConstValue(shape[len(shape)-1]); !ok && cols == 0 {
			return c.FailKwarg("chunk_cols", "chunk_cols > 0 for a dynamic innermost dimension", "0")
		}
		for _, d := range shape[:len(shape)-1] {
			if _, ok := ConstValue(d); !ok && rows == 0 {
				return c.FailKwarg("chunk_rows", "chunk_rows > 0 for a dynamic leading dimension", "0")
			}
		}
	}
	return nil
}

// checkStages checks the staging tile(s) of a tile-level put/get, which start
// at index 3, and returns how many there are.
func checkStages(c *DeduceCtx, dt DataType) (int, error) {
	n := 1
	if c.N() == 5 || c.N() == 8 {
		n = 2
	}
	var first *TileType
	for i := 3; i < 3+n; i++ {
		st, err := c.Tile(i)
		if err != nil {
			return 0, err
		}
		if len(st.Shape) != 2 {
			return 0, c.Fail(i, "a 2-D staging tile", st)
		}
		if st.DType != dt {
			return 0, c.Fail(i, "a staging tile of element type "+dt.String(), st)
		}
		if first != nil && !SameDims(first.Shape, st.Shape) {
			return 0, c.Fail(i, "a pong stage shaped like the ping stage "+ShapeString(first.Shape), st)
		}
		first = st
	}
	return n, nil
}

// checkStageFits requires the stage to be no larger than the flattened transfer.
func checkStageFits(c *DeduceCtx, shape []Expr) error {
	st := c.Args[3].Type().(*TileType)
	rows := int64(1)
	for _, d := range shape[:len(shape)-1] {
		v, ok := ConstValue(d)
		if !ok {
			return nil
		}
		rows *= v
	}
	cols, ok := ConstValue(shape[len(shape)-1])
	sr, ok1 := ConstValue(st.Shape[0])
	sc, ok2 := ConstValue(st.Shape[1])
	if ok && ok1 && ok2 && (sr > rows || sc > cols) {
		return c.Fail(3, fmt.Sprintf("a stage of at most [%d, %d] (the flattened transfer)", rows, cols), st)
	}
	return nil
}

func registerPutGet() {
	PldTensorPut = RegisterOp(&OpDef{
		Name: "pld.tensor.put", Class: ClassRMA, Category: distCategory, StoreUnit: "dma",
		Doc:     "Copy local src into peer's window tensor dst (full or region form; atomic=Add accumulates).",
		Args:    []ArgSpec{{Name: "dst", Peer: true}, {Name: "peer", Int32: true}, {Name: "src"}, {Name: "dst_offsets"}, {Name: "src_offsets"}, {Name: "shape"}},
		MinArgs: 3, MaxArgs: 6,
		Kwargs:  append([]KwargSpec{{Name: "atomic", Kind: KwAtomic, Required: true, Default: int64(AtomicNone)}}, putGetKwargs...),
		Effects: atomicDestEffects(0),
		Deduce: func(c *DeduceCtx) (Type, error) {
			if c.N() != 3 && c.N() != 6 {
				return nil, c.FailCall("3 arguments (dst, peer, src) or 6 with dst_offsets, src_offsets and shape, which must be provided together", fmt.Sprintf("%d", c.N()))
			}
			dt, shape, err := checkTransfer(c, 0, 2, 3)
			if err != nil {
				return nil, err
			}
			if err := checkChunks(c, shape); err != nil {
				return nil, err
			}
			return Unknown, checkAtomic(c, dt)
		},
	})
	PldTensorGet = RegisterOp(&OpDef{
		Name: "pld.tensor.get", Class: ClassRMA, Category: distCategory, StoreUnit: "dma",
		Doc:     "Copy peer's window tensor src into local dst (full or region form).",
		Args:    []ArgSpec{{Name: "dst", Effect: Write}, {Name: "peer", Int32: true}, {Name: "src", Peer: true}, {Name: "dst_offsets"}, {Name: "src_offsets"}, {Name: "shape"}},
		MinArgs: 3, MaxArgs: 6,
		Kwargs:  putGetKwargs,
		Effects: staticEffects(map[int]Effect{0: Write}),
		Deduce: func(c *DeduceCtx) (Type, error) {
			if c.N() != 3 && c.N() != 6 {
				return nil, c.FailCall("3 arguments (dst, peer, src) or 6 with dst_offsets, src_offsets and shape, which must be provided together", fmt.Sprintf("%d", c.N()))
			}
			_, shape, err := checkTransfer(c, 2, 0, 3)
			if err != nil {
				return nil, err
			}
			return Unknown, checkChunks(c, shape)
		},
	})
	tileForm := func(remote, local int) func(c *DeduceCtx) (Type, error) {
		return func(c *DeduceCtx) (Type, error) {
			switch c.N() {
			case 4, 5, 7, 8:
			default:
				return nil, c.FailCall("4, 5, 7 or 8 arguments (dst, peer, src, stage[, stage_pong][, dst_offsets, src_offsets, shape])", fmt.Sprintf("%d", c.N()))
			}
			r, err := c.Dist(remote)
			if err != nil {
				return nil, err
			}
			n, err := checkStages(c, r.DType)
			if err != nil {
				return nil, err
			}
			// Check the transfer with the stage arguments removed.
			rest := append(append([]Expr{}, c.Args[:3]...), c.Args[3+n:]...)
			sub := &DeduceCtx{Op: c.Op, Args: rest, Kwargs: c.Kwargs, Pos: c.Pos}
			dt, shape, err := checkTransfer(sub, remote, local, 3)
			if err != nil {
				return nil, err
			}
			if err := checkStageFits(c, shape); err != nil {
				return nil, err
			}
			if c.Op.Name == "pld.tile.put" {
				return Unknown, checkAtomic(c, dt)
			}
			return Unknown, nil
		}
	}
	// stageArgs are put's and get's tile-form arguments; the peer side is
	// dst for a put, src for a get.
	stageArgs := func(peerDst bool) []ArgSpec {
		return []ArgSpec{{Name: "dst", Peer: peerDst}, {Name: "peer", Int32: true}, {Name: "src", Peer: !peerDst}, {Name: "stage"}, {Name: "stage_pong"},
			{Name: "dst_offsets"}, {Name: "src_offsets"}, {Name: "shape"}}
	}
	PldTilePut = RegisterOp(&OpDef{
		Name: "pld.tile.put", Class: ClassRMA, Category: distCategory, StoreUnit: "dma",
		Doc:     "Tile-level put through a Vec staging tile (ping/pong when pipelined); made by ConvertTensorToTileOps.",
		Args:    stageArgs(true),
		MinArgs: 4, MaxArgs: 8,
		Kwargs:  []KwargSpec{{Name: "atomic", Kind: KwAtomic}},
		Effects: atomicDestEffects(0),
		Deduce:  tileForm(0, 2),
	})
	PldTileGet = RegisterOp(&OpDef{
		Name: "pld.tile.get", Class: ClassRMA, Category: distCategory, StoreUnit: "dma",
		Doc:     "Tile-level get through a Vec staging tile; made by ConvertTensorToTileOps.",
		Args:    stageArgs(false),
		MinArgs: 4, MaxArgs: 8,
		Effects: staticEffects(map[int]Effect{0: Write}),
		Deduce:  tileForm(2, 0),
	})
}

func registerCollectives() {
	rw01 := staticEffects(map[int]Effect{0: ReadWrite, 1: ReadWrite})
	PldTensorAllreduce = RegisterOp(&OpDef{
		Name: "pld.tensor.allreduce", Class: ClassCollective, Category: distCategory, ResultAlias: "target",
		Doc:     "Reduce target across all ranks in place (op=Sum/Max/Min/Prod, mode 'mesh' or 'ring'), synchronising through signal.",
		Args:    []ArgSpec{{Name: "target", Effect: ReadWrite}, {Name: "signal", Effect: ReadWrite}},
		MinArgs: 1, MaxArgs: 2,
		Kwargs:  []KwargSpec{{Name: "op", Kind: KwInt, Required: true, Default: int64(ReduceSum)}, {Name: "mode", Kind: KwString, Default: "mesh"}, {Name: "core_num", Kind: KwInt, Required: true, Default: int64(1)}},
		Effects: rw01,
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Dist(0)
			if err != nil {
				return nil, err
			}
			if t.DType != FP16 && t.DType != FP32 {
				return nil, c.Fail(0, "a target of element type FP16 or FP32", t)
			}
			if c.N() == 2 {
				if _, err := int32Signal(c, 1); err != nil {
					return nil, err
				}
			}
			if _, err := c.IntIn("op", 0, 3, "pld.ReduceOp.Sum, Max, Min, or Prod (0..3)"); err != nil {
				return nil, err
			}
			if c.Kwargs.Has("mode") {
				if _, err := c.StrIn("mode", []string{"mesh", "ring"}); err != nil {
					return nil, err
				}
			}
			if n := c.Kwargs.Int("core_num", 1); n <= 0 {
				return nil, c.FailKwarg("core_num", "a positive core count", fmt.Sprintf("%d", n))
			}
			return c.Args[0].Type(), nil
		},
	})
	PldTensorBarrier = RegisterOp(&OpDef{
		Name: "pld.tensor.barrier", Class: ClassCollective, Category: distCategory, ResultAlias: "signal",
		Doc:     "Block until every rank has reached the barrier on signal.",
		Args:    []ArgSpec{{Name: "signal", Effect: ReadWrite}},
		Effects: staticEffects(map[int]Effect{0: ReadWrite}),
		Deduce: func(c *DeduceCtx) (Type, error) {
			if _, err := int32Signal(c, 0); err != nil {
				return nil, err
			}
			return c.Args[0].Type(), nil
		},
	})
	PldTensorBroadcast = RegisterOp(&OpDef{
		Name: "pld.tensor.broadcast", Class: ClassCollective, Category: distCategory, ResultAlias: "target",
		Doc:     "Copy root's target to every rank.",
		Args:    []ArgSpec{{Name: "target", Effect: ReadWrite}, {Name: "signal", Effect: ReadWrite}},
		Kwargs:  []KwargSpec{{Name: "root", Kind: KwInt, Required: true}},
		Effects: rw01,
		Deduce: func(c *DeduceCtx) (Type, error) {
			if _, err := c.Dist(0); err != nil {
				return nil, err
			}
			if _, err := int32Signal(c, 1); err != nil {
				return nil, err
			}
			if r := c.Kwargs.Int("root", 0); r < 0 {
				return nil, c.FailKwarg("root", "a rank >= 0", fmt.Sprintf("%d", r))
			}
			return c.Args[0].Type(), nil
		},
	})
	PldTensorReduceScatter = RegisterOp(&OpDef{
		Name: "pld.tensor.reduce_scatter", Class: ClassCollective, Category: distCategory, ResultAlias: "target",
		Doc:     "Reduce row r of target across ranks onto rank r (op=Sum).",
		Args:    []ArgSpec{{Name: "target", Effect: ReadWrite}, {Name: "signal", Effect: ReadWrite}},
		Kwargs:  []KwargSpec{{Name: "op", Kind: KwInt, Required: true, Default: int64(ReduceSum)}},
		Effects: rw01,
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Dist(0)
			if err != nil {
				return nil, err
			}
			if len(t.Shape) != 2 {
				return nil, c.Fail(0, "a 2-D target [NR, SIZE]", t)
			}
			if _, err := int32Signal(c, 1); err != nil {
				return nil, err
			}
			if _, err := c.IntIn("op", 0, 0, "pld.ReduceOp.Sum (0)"); err != nil {
				return nil, err
			}
			return c.Args[0].Type(), nil
		},
	})
	gatherLike := func(rowsIn bool) func(c *DeduceCtx) (Type, error) {
		return func(c *DeduceCtx) (Type, error) {
			in, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			t, err := c.Dist(1)
			if err != nil {
				return nil, err
			}
			if c.Args[0] == c.Args[1] {
				return nil, c.Fail(0, "an input different from target", "the target itself")
			}
			if in.DType != t.DType {
				return nil, c.Fail(0, "element type "+t.DType.String()+" (the target's)", in.DType.String())
			}
			if len(t.Shape) != 2 || len(in.Shape) != 2 {
				return nil, c.Fail(1, "2-D input and target", fmt.Sprintf("input %s, target %s", ShapeString(in.Shape), ShapeString(t.Shape)))
			}
			if !rowsIn {
				if v, ok := ConstValue(in.Shape[0]); ok && v != 1 {
					return nil, c.Fail(0, "an input of shape [1, SIZE]", ShapeString(in.Shape))
				}
			} else if !dimEqual(in.Shape[0], t.Shape[0]) {
				return nil, c.Fail(0, "an input of shape [NR, SIZE] matching the target", ShapeString(in.Shape))
			}
			if !dimEqual(in.Shape[1], t.Shape[1]) {
				return nil, c.Fail(0, "SIZE "+DefaultFormat.Dim(t.Shape[1])+" (the target's last dimension)", ShapeString(in.Shape))
			}
			s, err := int32Signal(c, 2)
			if err != nil {
				return nil, err
			}
			if len(s.Shape) == 2 {
				if v, ok := ConstValue(s.Shape[1]); ok && v != 1 {
					return nil, c.Fail(2, "a signal of shape [NR] or [NR, 1]", s)
				}
			} else if len(s.Shape) != 1 {
				return nil, c.Fail(2, "a signal of shape [NR] or [NR, 1]", s)
			}
			a, okA := ConstValue(s.Shape[0])
			b, okB := ConstValue(t.Shape[0])
			if okA && okB && a != b {
				return nil, c.Fail(2, fmt.Sprintf("%d signal cells (the target's rows)", b), s)
			}
			return c.Args[1].Type(), nil
		}
	}
	wTarget := staticEffects(map[int]Effect{0: Read, 1: Write, 2: ReadWrite})
	PldTensorAllgather = RegisterOp(&OpDef{
		Name: "pld.tensor.allgather", Class: ClassCollective, Category: distCategory, ResultAlias: "target",
		Doc:     "Gather every rank's [1, SIZE] input into row r of target [NR, SIZE].",
		Args:    []ArgSpec{{Name: "input"}, {Name: "target", Effect: Write}, {Name: "signal", Effect: ReadWrite}},
		Effects: wTarget,
		Deduce:  gatherLike(false),
	})
	PldTensorAllToAll = RegisterOp(&OpDef{
		Name: "pld.tensor.all_to_all", Class: ClassCollective, Category: distCategory, ResultAlias: "target",
		Doc:     "Exchange rows: target[src, :] receives input_src[me, :].",
		Args:    []ArgSpec{{Name: "input"}, {Name: "target", Effect: Write}, {Name: "signal", Effect: ReadWrite}},
		Effects: wTarget,
		Deduce:  gatherLike(true),
	})
	PldTensorAllToAllV = RegisterOp(&OpDef{
		Name: "pld.tensor.all_to_all_v", Class: ClassCollective, Category: distCategory, ResultAlias: "target",
		Doc:     "Variable-size all-to-all: send_counts rows go to each rank; recv_counts says what arrived.",
		Args:    []ArgSpec{{Name: "input"}, {Name: "target", Effect: Write}, {Name: "signal", Effect: ReadWrite}, {Name: "send_counts"}, {Name: "recv_counts", Effect: Write}},
		Effects: staticEffects(map[int]Effect{1: Write, 2: ReadWrite, 4: Write}),
		Deduce: func(c *DeduceCtx) (Type, error) {
			in, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			t, err := c.Dist(1)
			if err != nil {
				return nil, err
			}
			if in.DType != t.DType {
				return nil, c.Fail(0, "element type "+t.DType.String()+" (the target's)", in.DType.String())
			}
			if _, err := int32Signal(c, 2); err != nil {
				return nil, err
			}
			sc, err := c.TensorLike(3)
			if err != nil {
				return nil, err
			}
			if sc.DType != INT32 {
				return nil, c.Fail(3, "INT32 send counts", sc.DType.String())
			}
			rc, err := int32Signal(c, 4)
			if err != nil {
				return nil, err
			}
			nr, ok := ConstValue(rc.Shape[0])
			rows, ok2 := ConstValue(t.Shape[0])
			if !ok {
				return nil, c.Fail(4, "a static number of ranks", rc)
			}
			if ok2 && (nr <= 0 || rows%nr != 0) {
				return nil, c.Fail(1, fmt.Sprintf("a row count divisible by NR=%d", nr), t)
			}
			return c.Args[1].Type(), nil
		},
	})
}
