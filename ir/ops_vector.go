package ir

// Vector ops beyond the elementwise tables: rsqrt with its optional
// high-precision scratch, the integer sequence tile.ci, and the tensor form
// of fillpad_expand (upstream's tile_ops/unary.cpp and memory.cpp).

func init() {
	TileRsqrt = RegisterOp(&OpDef{
		Name: "tile.rsqrt", Class: ClassCompute, Category: "TileOp",
		Doc:       "Elementwise 1/sqrt(x) of a Vec tile; a second tile is the scratch of the high-precision path (TRSQRT).",
		Args:      []ArgSpec{{Name: "tile"}, {Name: "tmp"}},
		MinArgs:   1,
		MaxArgs:   2,
		OutMemory: MemVec,
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := vecTile(c, 0)
			if err != nil {
				return nil, err
			}
			if !t.DType.IsFloat() {
				return nil, c.Fail(0, "elements of a floating-point type", t.DType.String())
			}
			if c.N() == 2 {
				tmp, err := vecTile(c, 1)
				if err != nil {
					return nil, err
				}
				if tmp.DType != t.DType || !SameDims(tmp.Shape, t.Shape) {
					return nil, c.Fail(1, "a scratch tile like the input, "+DefaultFormat.Dims(t.Shape)+" of "+t.DType.String(), tmp)
				}
			}
			return vecLike(t), nil
		},
	})
	TensorRsqrt = RegisterOp(&OpDef{
		Name: "tensor.rsqrt", Class: ClassCompute, Category: "TensorOp", TileForm: TileRsqrt,
		Doc:    "Elementwise 1/sqrt(x) of a tensor; high_precision lowers to the tile form with a scratch tile.",
		Args:   []ArgSpec{{Name: "input"}},
		Kwargs: []KwargSpec{highPrecision},
		TileScratch: func(c *Call, in *TileType) (string, []Expr, bool) {
			return "rsqrt_tmp", in.Shape, c.Kwargs.Bool("high_precision", false)
		},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			if !t.DType.IsFloat() {
				return nil, c.Fail(0, "elements of a floating-point type", t.DType.String())
			}
			return &TensorType{Shape: t.Shape, DType: t.DType}, nil
		},
	})
	registerTilePair(func() *OpDef {
		return &OpDef{
			Name: "tile.ci", Class: ClassCompute, Category: "TileOp",
			Doc:    "The integer sequence start, start+1, ... (start, start-1, ... when descending) along one row [1, N] (TCI).",
			Args:   []ArgSpec{{Name: "start", DTypeOf: "dtype"}, {Name: "shape"}},
			Kwargs: []KwargSpec{{Name: "dtype", Kind: KwDType, Default: INT32}, {Name: "descending", Kind: KwBool, Default: false}},
		}
	}, ciDeduce, &TileCi, &TensorCi, "The integer sequence of tile.ci as a tensor (a tile.ci in a kernel).")
	TensorReshape = RegisterOp(&OpDef{
		Name: "tensor.reshape", Class: ClassCompute, Category: "TensorOp", MemRefFrom: "input", TileForm: TileReshape,
		Doc:  "The tensor's elements, in order, seen with another shape of as many elements (a tile.reshape in a kernel).",
		Args: []ArgSpec{{Name: "input"}, {Name: "shape"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			shape, err := reshapeTo(c, t.Shape, "the input's")
			if err != nil {
				return nil, err
			}
			return &TensorType{Shape: shape, DType: t.DType}, nil
		},
	})
	TensorFillpadExpand = RegisterOp(&OpDef{
		Name: "tensor.fillpad_expand", Class: ClassCompute, Category: "TensorOp", TileForm: TileFillpadExpand,
		Doc:    "A larger tensor of shape: the input at its top left, pad_value elsewhere (a tile.fillpad_expand in a kernel).",
		Args:   []ArgSpec{{Name: "input"}, {Name: "shape"}},
		Kwargs: []KwargSpec{{Name: "pad_value", Kind: KwPad}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			shape, err := expandTo(c, t.Shape, "the input's")
			if err != nil {
				return nil, err
			}
			return &TensorType{Shape: shape, DType: t.DType}, nil
		},
	})
}

// ciDeduce types tile.ci (tile) and tensor.ci: a scalar start and a
// one-row shape of more than one column, in an integer dtype TCI writes.
func ciDeduce(tile bool) func(c *DeduceCtx) (Type, error) {
	return func(c *DeduceCtx) (Type, error) {
		if _, err := c.Scalar(0); err != nil {
			return nil, err
		}
		shape, err := staticShape(c, 1, -1)
		if err != nil {
			return nil, err
		}
		for i, e := range shape {
			v, _ := ConstValue(e)
			if i < len(shape)-1 && v != 1 {
				return nil, c.Fail(1, "one row: every leading dimension 1 (TCI fills only the first row)", DefaultFormat.Dims(shape))
			}
			if i == len(shape)-1 && v == 1 {
				return nil, c.Fail(1, "more than one column (TCI takes no column vector)", DefaultFormat.Dims(shape))
			}
		}
		dt := INT32
		if v, ok := c.Kwargs.DType("dtype"); ok {
			dt = v
		}
		if !hasDType([]DataType{INT16, INT32, UINT16, UINT32}, dt) {
			return nil, c.FailKwarg("dtype", "one of INT16, INT32, UINT16, UINT32", dt.String())
		}
		if tile {
			return NewTileType(shape, dt, MemVec, nil), nil
		}
		return &TensorType{Shape: shape, DType: dt}, nil
	}
}
