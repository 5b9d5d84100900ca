package ir

import "fmt"

// Explicit cross-core pipes (upstream's tile_ops/cross_core.cpp and
// sync_ops/cross_core.cpp): the cube (AIC) and vector (AIV) functions of a
// Group hand tiles to each other through ring buffers of slots. The
// consumer side reserves the ring in its local memory
// (system.reserve_buffer), the producer imports it by name
// (system.import_peer_buffer), both sides initialise the pipe
// (system.aic_/aiv_initialize_pipe, dir_mask 1 = cube to vector, 2 =
// vector to cube, 3 = both), then tile.tpush_to_* fills a slot,
// tile.tpop_from_* takes the oldest one and system.tfree_to_* gives it
// back. The split code says how the two vector lanes divide a tile (0
// whole, 1 rows, 2 columns; 3 and 4 the odd-extent forms, cube to vector
// only); id picks one of several pipes.

// PipeToVector and PipeToCube are the dir_mask bits of a pipe's two
// directions.
const (
	PipeToVector = 1 // dir_mask bit: cube → vector (C2V)
	PipeToCube   = 2 // dir_mask bit: vector → cube (V2C)
)

// PipeRole is an op's part in a cross-core pipe (OpDef.PipeRole).
type PipeRole int

// Pipe roles.
const (
	PipeNone  PipeRole = iota
	PipePush           // fills a slot (tile.tpush_to_*)
	PipePop            // takes the oldest slot's tile (tile.tpop_from_*)
	PipeFree           // gives a popped tile's slot back (system.tfree_to_*)
	PipeSetup          // reserves, imports or initialises a ring
)

// pipeSplit checks a tpush/tpop split code: 0..2, or 0..4 where the odd
// forms exist (the cube-to-vector direction).
func pipeSplit(c *DeduceCtx, odd bool) error {
	hi, meaning := int64(2), "0 (none), 1 (up-down) or 2 (left-right); the vector-to-cube direction has no odd split"
	if odd {
		hi, meaning = 4, "0 (none), 1 (up-down), 2 (left-right), 3 or 4 (their odd-extent forms)"
	}
	if _, err := c.IntIn("split", 0, hi, meaning); err != nil {
		return err
	}
	if c.Kwargs.Has("id") {
		if _, err := c.IntIn("id", 0, 1<<31-1, "a non-negative pipe id"); err != nil {
			return err
		}
	}
	if c.Kwargs.Has("lane_stride") {
		if _, err := c.IntIn("lane_stride", 1, 1<<31-1, "a positive partition stride"); err != nil {
			return err
		}
	}
	return nil
}

// tpushDeduce types tile.tpush_to_*: a tile in, nothing out.
func tpushDeduce(odd bool) func(c *DeduceCtx) (Type, error) {
	return func(c *DeduceCtx) (Type, error) {
		if _, err := c.Tile(0); err != nil {
			return nil, err
		}
		return Unknown, pipeSplit(c, odd)
	}
}

// tpopDeduce types tile.tpop_from_*: the popped tile's type is the one its
// binding declares (TypedByTarget), as upstream's parser takes it from the
// annotation.
func tpopDeduce(odd bool) func(c *DeduceCtx) (Type, error) {
	return func(c *DeduceCtx) (Type, error) { return Unknown, pipeSplit(c, odd) }
}

// tfreeDeduce types system.tfree_to_*: the popped tile back, nothing out.
func tfreeDeduce(c *DeduceCtx) (Type, error) {
	if _, err := c.Tile(0); err != nil {
		return nil, err
	}
	if c.Kwargs.Has("split") {
		if _, err := c.IntIn("split", 0, 4, "the split of the tpop that took the tile"); err != nil {
			return nil, err
		}
	}
	if c.Kwargs.Has("id") {
		if _, err := c.IntIn("id", 0, 1<<31-1, "a non-negative pipe id"); err != nil {
			return nil, err
		}
	}
	return Unknown, nil
}

// initPipeDeduce types system.aic_/aiv_initialize_pipe: two INT32 buffer
// bases (0 where the side has no consumer buffer) and the ring's geometry.
func initPipeDeduce(c *DeduceCtx) (Type, error) {
	for i := 0; i < 2; i++ {
		if dt, err := c.Scalar(i); err != nil || !dt.IsInt() {
			return nil, c.Fail(i, "an INT32 buffer base (a reserve_buffer or import_peer_buffer result, or 0)", c.Args[i])
		}
	}
	if _, err := c.IntIn("dir_mask", 1, 3, "1 (cube to vector), 2 (vector to cube) or 3 (both)"); err != nil {
		return nil, err
	}
	if _, err := c.IntIn("slot_size", 1, 1<<31-1, "a positive slot size in bytes"); err != nil {
		return nil, err
	}
	n := int64(0)
	if c.Kwargs.Has("slot_num") {
		v, err := c.IntIn("slot_num", 1, 1<<31-1, "a positive slot count")
		if err != nil {
			return nil, err
		}
		n = v
	}
	if c.Kwargs.Has("local_slot_num") {
		if _, err := c.IntIn("local_slot_num", 1, 1<<31-1, "a positive slot count"); err != nil {
			return nil, err
		}
		if l := c.KwInt("local_slot_num", 0); n > 0 && l > n {
			return nil, c.FailKwarg("local_slot_num", fmt.Sprintf("at most slot_num (%d)", n), l)
		}
	}
	if c.Kwargs.Has("id") {
		if _, err := c.IntIn("id", 0, 1<<31-1, "a non-negative pipe id"); err != nil {
			return nil, err
		}
	}
	return Unknown, nil
}

// PipeSlots is the number of slots a pipe's ring has when its
// initialisation does not say (PTOAS's default: 8 one way, 4 per
// direction when the pipe runs both ways).
func PipeSlots(c *Call) int {
	if n := c.Kwargs.Int("slot_num", 0); n > 0 {
		return int(n)
	}
	if c.Kwargs.Int("dir_mask", 0) == PipeToVector|PipeToCube {
		return 4
	}
	return 8
}

func init() {
	pipeKw := func(odd bool) []KwargSpec {
		kw := []KwargSpec{{Name: "split", Kind: KwInt, Required: true}}
		if odd {
			kw = append(kw, KwargSpec{Name: "lane_stride", Kind: KwInt})
		}
		return append(kw, KwargSpec{Name: "id", Kind: KwInt})
	}
	TileTpushToAiv = RegisterOp(&OpDef{
		Name: "tile.tpush_to_aiv", Class: ClassSignal, PipeRole: PipePush, Category: "CrossCoreOp",
		Doc:  "Push a cube tile into a slot of the cube-to-vector pipe (split: how the two vector lanes divide it).",
		Args: []ArgSpec{{Name: "tile"}}, Kwargs: pipeKw(true), Deduce: tpushDeduce(true),
	})
	TileTpushToAic = RegisterOp(&OpDef{
		Name: "tile.tpush_to_aic", Class: ClassSignal, PipeRole: PipePush, Category: "CrossCoreOp",
		Doc:  "Push a vector tile into a slot of the vector-to-cube pipe (split: how the two lanes' tiles join).",
		Args: []ArgSpec{{Name: "tile"}}, Kwargs: pipeKw(false), Deduce: tpushDeduce(false),
	})
	popKw := func(odd bool) []KwargSpec {
		kw := pipeKw(odd)
		kw[0] = KwargSpec{Name: "split", Kind: KwInt, Default: int64(0)}
		return kw
	}
	TileTpopFromAic = RegisterOp(&OpDef{
		Name: "tile.tpop_from_aic", Class: ClassWait, PipeRole: PipePop, Category: "CrossCoreOp", TypedByTarget: true, OutMemory: MemVec,
		Doc:    "Take the oldest tile of the cube-to-vector pipe (its type is the one its binding declares); it holds its slot until tfree_to_aic.",
		Kwargs: popKw(true), Deduce: tpopDeduce(true),
	})
	TileTpopFromAiv = RegisterOp(&OpDef{
		Name: "tile.tpop_from_aiv", Class: ClassWait, PipeRole: PipePop, Category: "CrossCoreOp", TypedByTarget: true, OutMemory: MemMat,
		Doc:    "Take the oldest tile of the vector-to-cube pipe (its type is the one its binding declares); it holds its slot until tfree_to_aiv.",
		Kwargs: popKw(false), Deduce: tpopDeduce(false),
	})
	freeKw := []KwargSpec{{Name: "split", Kind: KwInt}, {Name: "id", Kind: KwInt}}
	SystemTfreeToAic = RegisterOp(&OpDef{
		Name: "system.tfree_to_aic", Class: ClassSignal, PipeRole: PipeFree, Category: "CrossCoreOp",
		Doc:  "Give the slot of a tile popped from the cube back to the cube, which may then push into it again.",
		Args: []ArgSpec{{Name: "tile"}}, Kwargs: freeKw, Deduce: tfreeDeduce,
	})
	SystemTfreeToAiv = RegisterOp(&OpDef{
		Name: "system.tfree_to_aiv", Class: ClassSignal, PipeRole: PipeFree, Category: "CrossCoreOp",
		Doc:  "Give the slot of a tile popped from the vector lanes back to them.",
		Args: []ArgSpec{{Name: "tile"}}, Kwargs: freeKw, Deduce: tfreeDeduce,
	})
	initArgs := []ArgSpec{{Name: "c2v_consumer_buf", Int32: true, Default: int64(0)}, {Name: "v2c_consumer_buf", Int32: true, Default: int64(0)}}
	initKw := []KwargSpec{{Name: "dir_mask", Kind: KwInt, Required: true}, {Name: "slot_size", Kind: KwInt, Required: true},
		{Name: "slot_num", Kind: KwInt}, {Name: "local_slot_num", Kind: KwInt}, {Name: "id", Kind: KwInt}}
	SystemAicInitializePipe = RegisterOp(&OpDef{
		Name: "system.aic_initialize_pipe", Class: ClassSetup, PipeRole: PipeSetup, Category: "CrossCoreOp",
		Doc:  "Set up a pipe on the cube side: the consumer buffers (the vector-to-cube ring is the cube's own), its direction and slots.",
		Args: initArgs, Kwargs: initKw, Deduce: initPipeDeduce,
	})
	SystemAivInitializePipe = RegisterOp(&OpDef{
		Name: "system.aiv_initialize_pipe", Class: ClassSetup, PipeRole: PipeSetup, Category: "CrossCoreOp",
		Doc:  "Set up a pipe on the vector side: the consumer buffers (the cube-to-vector ring is the lanes' own), its direction and slots.",
		Args: initArgs, Kwargs: initKw, Deduce: initPipeDeduce,
	})
	SystemReserveBuffer = RegisterOp(&OpDef{
		Name: "system.reserve_buffer", Class: ClassSetup, PipeRole: PipeSetup, Category: "CrossCoreOp",
		Doc: "Reserve a named ring buffer in this core's memory for a pipe it consumes (base -1, pl.AUTO: the compiler places it); " +
			"the result is its base address.",
		Kwargs: []KwargSpec{{Name: "name", Kind: KwString, Required: true}, {Name: "size", Kind: KwInt, Required: true},
			{Name: "base", Kind: KwInt, Default: int64(-1)}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if c.Kwargs.String("name", "") == "" {
				return nil, c.FailKwarg("name", "a buffer name", "''")
			}
			if _, err := c.IntIn("size", 1, 1<<31-1, "a positive size in bytes"); err != nil {
				return nil, err
			}
			if c.Kwargs.Has("base") {
				if _, err := c.IntIn("base", -1, 1<<31-1, "-1 (pl.AUTO) or an address"); err != nil {
					return nil, err
				}
			}
			return Scalar(INT32), nil
		},
	})
	SystemImportPeerBuffer = RegisterOp(&OpDef{
		Name: "system.import_peer_buffer", Class: ClassSetup, PipeRole: PipeSetup, Category: "CrossCoreOp",
		Doc:    "The base of the ring buffer a peer function of the same group reserved under name (the pipe's producer side).",
		Kwargs: []KwargSpec{{Name: "name", Kind: KwString, Required: true}, {Name: "peer_func", Kind: KwString, Required: true}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			for _, k := range []string{"name", "peer_func"} {
				if c.Kwargs.String(k, "") == "" {
					return nil, c.FailKwarg(k, "a name", "''")
				}
			}
			return Scalar(INT32), nil
		},
	})
}
