package ir

import "fmt"

// Gathers (upstream's tile_ops/gather.cpp and tensor_ops/gather.cpp): the
// index form only. tile.gather reads a source tile at flat element
// indices; tensor.gather is torch.gather along one dimension, which
// ConvertTensorToTileOps lowers to one tile.gather per row.

// gatherIndexOK reports whether an index of type idx may address a source
// of type src: INT32 always, INT16 with a 16-bit source.
func gatherIndexOK(src, idx DataType) bool {
	return idx == INT32 || (idx == INT16 && (src == FP16 || src == INT16))
}

var gatherSources = []DataType{FP16, FP32, INT16, INT32}

// MaskPatterns are gather_mask's selectors (upstream's pl.tile.MaskPattern),
// by value: each keeps the columns j of a row with j % Stride == Phase
// (P1111 keeps every column).
var MaskPatterns = []struct {
	Name          string
	Stride, Phase int64
}{{}, {"P0101", 2, 0}, {"P1010", 2, 1}, {"P0001", 4, 0}, {"P0010", 4, 1}, {"P0100", 4, 2}, {"P1000", 4, 3}, {"P1111", 1, 0}}

// gatherInput is the shape and dtype of a gather form's first argument: a
// Vec tile (tile) or a tensor.
func gatherInput(c *DeduceCtx, tile bool) ([]Expr, DataType, error) {
	if tile {
		t, err := vecTile(c, 0)
		if err != nil {
			return nil, 0, err
		}
		return t.Shape, t.DType, nil
	}
	t, err := c.TensorLike(0)
	if err != nil {
		return nil, 0, err
	}
	return t.Shape, t.DType, nil
}

// gatherMaskDeduce types gather_mask of a 2-D tile or tensor: the rows
// compacted to the columns the pattern keeps, in output_dtype (a bit
// reinterpretation of as many bytes) or the source's type.
func gatherMaskDeduce(tile bool) func(c *DeduceCtx) (Type, error) {
	return func(c *DeduceCtx) (Type, error) {
		shape, dt, err := gatherInput(c, tile)
		if err != nil {
			return nil, err
		}
		if len(shape) != 2 {
			return nil, c.Fail(0, "a 2-D source", c.Args[0])
		}
		if !hasDType(gatherSources, dt) {
			return nil, c.Fail(0, "elements of "+dtypeList(gatherSources), dt.String())
		}
		p := c.Kwargs.Int("mask_pattern", 0)
		if p < 1 || p >= int64(len(MaskPatterns)) {
			return nil, c.FailKwarg("mask_pattern", "a pl.tile.MaskPattern (1..7)", fmt.Sprintf("%d", p))
		}
		out := dt
		if o, ok := c.Kwargs.DType("output_dtype"); ok {
			if o.Bits() != dt.Bits() {
				return nil, c.FailKwarg("output_dtype", "a type of the source's width, "+fmt.Sprint(dt.Bits())+" bits", o.String())
			}
			out = o
		}
		cols := shape[1]
		if n, ok := ConstValue(cols); ok {
			stride := MaskPatterns[p].Stride
			if n%stride != 0 {
				return nil, c.Fail(0, fmt.Sprintf("a source whose %d columns the pattern's stride %d divides", n, stride), c.Args[0])
			}
			cols = Int(n / stride)
		} else if MaskPatterns[p].Stride != 1 {
			return nil, c.Fail(0, "a source of static columns", c.Args[0])
		}
		res := []Expr{shape[0], cols}
		if tile {
			return NewTileType(res, out, MemVec, nil), nil
		}
		return &TensorType{Shape: res, DType: out}, nil
	}
}

// CompareModes are gather_compare's comparisons, by cmp_mode.
var CompareModes = map[string]int64{"eq": 0, "ne": 1, "lt": 2, "le": 3, "gt": 4, "ge": 5}

// gatherCompareDeduce types the compare form of a gather: for each row of
// a 2-D input, the columns whose element compares true with kvalue (dst,
// INT32 [rows, out_cols]) and how many do (cdst, [1, rows] of
// count_dtype), as upstream's tensor.gather_compare; the tile form takes
// a Vec tile, a workspace tile third, and gives two Vec tiles.
func gatherCompareDeduce(tile bool) func(c *DeduceCtx) (Type, error) {
	return func(c *DeduceCtx) (Type, error) {
		shape, dt, err := gatherInput(c, tile)
		if err != nil {
			return nil, err
		}
		if !hasDType(gatherSources, dt) || len(shape) != 2 {
			return nil, c.Fail(0, "a 2-D input of "+dtypeList(gatherSources), c.Args[0])
		}
		if kdt, err := c.Scalar(1); err != nil || kdt != dt {
			return nil, c.Fail(1, "a scalar of the input's type "+dt.String(), c.Args[1])
		}
		if tile {
			if _, err := vecTile(c, 2); err != nil {
				return nil, err
			}
		}
		if _, err := c.IntIn("cmp_mode", 0, 5, `"eq", "ne", "lt", "le", "gt" or "ge"`); err != nil {
			return nil, err
		}
		n, err := c.IntIn("out_cols", 1, 1<<31-1, "a positive column count")
		if err != nil {
			return nil, err
		}
		count := INT32
		if cdt, ok := c.Kwargs.DType("count_dtype"); ok {
			if cdt != INT32 && cdt != UINT32 {
				return nil, c.FailKwarg("count_dtype", "pl.INT32 or pl.UINT32", cdt.String())
			}
			count = cdt
		}
		rows := shape[0]
		dstShape, cdstShape := []Expr{rows, Int(n)}, []Expr{Int(1), rows}
		if tile {
			return &TupleType{Types: []Type{NewTileType(dstShape, INT32, MemVec, nil), NewTileType(cdstShape, count, MemVec, nil)}}, nil
		}
		return &TupleType{Types: []Type{&TensorType{Shape: dstShape, DType: INT32}, &TensorType{Shape: cdstShape, DType: count}}}, nil
	}
}

func init() {
	compareKwargs := []KwargSpec{{Name: "cmp_mode", Kind: KwInt, Required: true, Names: CompareModes}, {Name: "offset", Kind: KwInt},
		{Name: "out_cols", Kind: KwInt, Required: true}, {Name: "count_dtype", Kind: KwDType}}
	TileGatherCompare = RegisterOp(&OpDef{
		Name: "tile.gather_compare", Class: ClassCompute, Category: "TileOp",
		Doc: "For each row of a 2-D Vec tile, the columns (plus offset) whose element compares true with kvalue under cmp_mode, " +
			"the first out_cols of them (dst), and how many matched (cdst), as a (dst, cdst) pair of Vec tiles; tmp is the " +
			"instruction's UINT8 workspace (TGATHER compare form).",
		Args:      []ArgSpec{{Name: "src"}, {Name: "kvalue"}, {Name: "tmp"}},
		Kwargs:    compareKwargs,
		OutMemory: MemVec,
		Deduce:    gatherCompareDeduce(true),
	})
	TensorGatherCompare = RegisterOp(&OpDef{
		Name: "tensor.gather_compare", Class: ClassCompute, Category: "TensorOp",
		Doc: "For each row of a 2-D input, the columns (plus offset) whose element compares true with kvalue under cmp_mode, " +
			"the first out_cols of them (dst), and how many matched (cdst): pl.gather(input, kvalue=, cmp_mode=, out_cols=). " +
			"In a kernel, tile.gather_compare on the input's Vec tile.",
		Args:   []ArgSpec{{Name: "input"}, {Name: "kvalue"}},
		Kwargs: compareKwargs,
		Deduce: gatherCompareDeduce(false),
	})
	maskKwargs := []KwargSpec{{Name: "mask_pattern", Kind: KwInt, Required: true}, {Name: "output_dtype", Kind: KwDType}}
	TileGatherMask = RegisterOp(&OpDef{
		Name: "tile.gather_mask", Class: ClassCompute, Category: "TileOp",
		Doc:       "Each row of src compacted to the columns mask_pattern keeps (P0101: even, P1010: odd, ...), optionally seen as output_dtype (TGATHER mask form).",
		Args:      []ArgSpec{{Name: "src"}},
		Kwargs:    maskKwargs,
		OutMemory: MemVec,
		Deduce:    gatherMaskDeduce(true),
	})
	TensorGatherMask = RegisterOp(&OpDef{
		Name: "tensor.gather_mask", Class: ClassCompute, Category: "TensorOp", TileForm: TileGatherMask,
		Doc:    "tile.gather_mask of a 2-D tensor (pl.gather(input, mask_pattern=...)).",
		Args:   []ArgSpec{{Name: "input"}},
		Kwargs: maskKwargs,
		Deduce: gatherMaskDeduce(false),
	})
	TileGather = RegisterOp(&OpDef{
		Name: "tile.gather", Class: ClassCompute, Category: "TileOp",
		Doc:       "dst[i, j] = src[indices[i, j]], the source read at flat element indices; tmp is the instruction's workspace (TGATHER).",
		Args:      []ArgSpec{{Name: "src"}, {Name: "indices"}, {Name: "tmp"}},
		OutMemory: MemVec,
		Deduce: func(c *DeduceCtx) (Type, error) {
			src, err := vecTile(c, 0)
			if err != nil {
				return nil, err
			}
			if !hasDType(gatherSources, src.DType) {
				return nil, c.Fail(0, "elements of "+dtypeList(gatherSources), src.DType.String())
			}
			idx, err := vecTile(c, 1)
			if err != nil {
				return nil, err
			}
			if !gatherIndexOK(src.DType, idx.DType) {
				return nil, c.Fail(1, "an index tile of INT32 (or INT16 with a 16-bit source)", idx)
			}
			if _, err := c.Tile(2); err != nil {
				return nil, err
			}
			return NewTileType(idx.Shape, src.DType, MemVec, nil), nil
		},
	})
	TensorGather = RegisterOp(&OpDef{
		Name: "tensor.gather", Class: ClassCompute, Category: "TensorOp",
		Doc: "out[..., k, ...] = input[..., index[..., k, ...], ...] along dim, as torch.gather; index is no larger than input " +
			"off dim. In a kernel one tile.gather per row (rank 2, the last dimension).",
		Args:   []ArgSpec{{Name: "input"}, {Name: "index"}},
		Kwargs: []KwargSpec{{Name: "dim", Kind: KwInt, Required: true}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			in, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			if !hasDType(gatherSources, in.DType) {
				return nil, c.Fail(0, "elements of "+dtypeList(gatherSources), in.DType.String())
			}
			idx, err := c.TensorLike(1)
			if err != nil {
				return nil, err
			}
			if !gatherIndexOK(in.DType, idx.DType) {
				return nil, c.Fail(1, "an index tensor of INT32 (or INT16 with a 16-bit input)", c.Args[1])
			}
			rank := len(in.Shape)
			if rank < 2 || len(idx.Shape) != rank {
				return nil, c.Fail(1, fmt.Sprintf("an index of the input's rank (%d, at least 2)", rank), c.Args[1])
			}
			dim := c.Kwargs.Int("dim", -1)
			if dim < 0 {
				dim += int64(rank)
			}
			if dim < 0 || dim >= int64(rank) {
				return nil, c.FailKwarg("dim", fmt.Sprintf("an axis of the rank-%d input", rank), fmt.Sprintf("%d", c.Kwargs.Int("dim", -1)))
			}
			for d := range in.Shape {
				a, ok1 := ConstValue(in.Shape[d])
				b, ok2 := ConstValue(idx.Shape[d])
				if int64(d) != dim && ok1 && ok2 && b > a {
					return nil, c.Fail(1, "an index no larger than the input off dim "+fmt.Sprint(dim)+", "+DefaultFormat.Dims(in.Shape), c.Args[1])
				}
			}
			return &TensorType{Shape: idx.Shape, DType: in.DType}, nil
		},
	})
}
