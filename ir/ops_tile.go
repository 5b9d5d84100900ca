package ir

import "fmt"

// Core tile and tensor ops the distributed examples use (ops.md (c)).

// CastModes are a cast's rounding modes by name (upstream's
// CAST_MODE_NAMES): none and rint round half to even, round half away from
// zero, then floor, ceil, trunc and odd.
var CastModes = map[string]int64{"none": 0, "rint": 1, "round": 2, "floor": 3, "ceil": 4, "trunc": 5, "odd": 6}

func init() {
	TileLoad = RegisterOp(&OpDef{
		Name: "tile.load", Class: ClassMemory, Category: "TileOp",
		Doc:     "Load a tile of shapes at offsets from a tensor into on-chip memory (default Vec).",
		Args:    []ArgSpec{{Name: "tensor"}, {Name: "offsets"}, {Name: "shapes"}, {Name: "valid_shape", CopyOf: "shapes"}},
		MinArgs: 3, MaxArgs: 4,
		Kwargs: []KwargSpec{{Name: "target_memory", Kind: KwMemory, Default: MemVec}, {Name: "clamp", Kind: KwBool}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			offs, err := c.Tuple(1, len(t.Shape))
			if err != nil {
				return nil, err
			}
			shape, err := c.Tuple(2, len(t.Shape))
			if err != nil {
				return nil, err
			}
			if err := positiveStatic(c, 2, shape); err != nil {
				return nil, err
			}
			// What is read is the valid region: a tile padded past the
			// tensor's edge (an 8-aligned [1, 8] load of a [1, 2] row)
			// reads only valid_shape of it.
			var valid []Expr
			if c.N() == 4 {
				if valid, err = c.Tuple(3, len(t.Shape)); err != nil {
					return nil, err
				}
				// A valid shape equal to the tile's is the whole tile: its
				// errors name the shapes, as a three-argument load's do.
				at := 3
				if SameDims(valid, shape) {
					at = 2
				}
				if err := regionFits(c, at, offs, valid, t.Shape, "the tensor"); err != nil {
					return nil, err
				}
			} else if err := regionFits(c, 2, offs, shape, t.Shape, "the tensor"); err != nil {
				return nil, err
			}
			mem := MemNone
			if v, ok := c.Kwargs.Get("target_memory"); ok {
				mem = v.(MemorySpace)
			}
			// Without a memory the layout waits for InferTileMemorySpace,
			// and the view keeps the raw defaults until then, as upstream's.
			iv := TileView{BLayout: RowMajor, SLayout: NoneBox, Fractal: 512}
			if mem != MemNone {
				iv = ImplicitTileView(shape, mem)
			}
			if valid != nil && !SameDims(valid, shape) {
				iv.ValidShape = valid
			}
			// Upstream's load picks two layouts the memory alone does not:
			// a column (last dimension 1) off Mat is col_major, and a
			// single-row 2-D load to Mat (a GEMV lhs or bias) is an ND row,
			// row_major / none_box, not the NZ pair.
			last, lastOK := ConstValue(shape[len(shape)-1])
			switch {
			case mem == MemMat && len(shape) == 2:
				if rows, ok := ConstValue(shape[0]); ok && rows == 1 {
					iv.BLayout, iv.SLayout = RowMajor, NoneBox
				}
			case mem != MemNone && mem != MemMat && lastOK && last == 1:
				iv.BLayout = ColMajor
			}
			return NewTileType(shape, t.DType, mem, &iv), nil
		},
	})
	TileStore = RegisterOp(&OpDef{
		Name: "tile.store", Class: ClassMemory, Category: "TileOp", ResultAlias: "output_tensor", MemRefFrom: "output_tensor", StoreUnit: "dma",
		Doc: "Store a Vec/Acc tile into a tensor at offsets; the result rebinds the tensor.",
		// A Mat tile is moved to Vec first (InferTileMemorySpace), as
		// upstream's input memory constraint {Vec, Acc} has it.
		Args:    []ArgSpec{{Name: "tile", Memory: MemVec, AlsoIn: []MemorySpace{MemAcc}}, {Name: "offsets"}, {Name: "output_tensor", Effect: Write}, {Name: "shapes"}},
		MinArgs: 3, MaxArgs: 4,
		Kwargs:  []KwargSpec{{Name: "atomic", Kind: KwAtomic}},
		Effects: atomicDestEffects(2),
		Deduce: func(c *DeduceCtx) (Type, error) {
			tile, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			if tile.Memory != MemNone && tile.Memory != MemVec && tile.Memory != MemAcc && tile.Memory != MemMat {
				return nil, c.Fail(0, "a tile in Vec or Acc memory (or Mat, moved to Vec before the store)", tile)
			}
			t, err := c.TensorLike(2)
			if err != nil {
				return nil, err
			}
			// An Acc tile converts on its way out (the fixpipe: FP32 into a
			// BF16 tensor); a Vec tile is cast first.
			if t.DType != tile.DType && tile.Memory != MemAcc {
				return nil, c.Fail(2, "a tensor of element type "+tile.DType.String()+" (the tile's; only an Acc tile's store converts, cast a Vec tile first)", c.Args[2])
			}
			offs, err := c.Tuple(1, len(t.Shape))
			if err != nil {
				return nil, err
			}
			extent := tile.Shape
			if tile.View != nil && len(tile.View.ValidShape) == len(tile.Shape) {
				extent = tile.View.ValidShape // only the valid region is written
			}
			if c.N() == 4 {
				if extent, err = c.Tuple(3, len(t.Shape)); err != nil {
					return nil, err
				}
			}
			if len(extent) == len(t.Shape) {
				if err := regionFits(c, 1, offs, extent, t.Shape, "the output tensor"); err != nil {
					return nil, err
				}
			}
			if err := checkAtomic(c, t.DType); err != nil {
				return nil, err
			}
			return c.Args[2].Type(), nil
		},
	})
	TileCreate = RegisterOp(&OpDef{
		Name: "tile.create", Class: ClassCompute, Category: "TileOp", RetargetableMemory: true,
		Doc:    "Create an uninitialised tile of shape and dtype in target_memory.",
		Args:   []ArgSpec{{Name: "shape"}},
		Kwargs: []KwargSpec{{Name: "dtype", Kind: KwDType, Required: true}, {Name: "target_memory", Kind: KwMemory, Default: MemVec}, {Name: "transpose", Kind: KwBool}, {Name: "flat_layout", Kind: KwBool}},
		// pl.tile.create([M, N], pl.FP32, ...): upstream's signature.
		PositionalKwarg: "dtype",
		Deduce: func(c *DeduceCtx) (Type, error) {
			shape, err := c.Tuple(0, -1)
			if err != nil {
				return nil, err
			}
			if err := positiveStatic(c, 0, shape); err != nil {
				return nil, err
			}
			dt, _ := c.Kwargs.DType("dtype")
			mem := MemNone
			if v, ok := c.Kwargs.Get("target_memory"); ok {
				mem = v.(MemorySpace)
			}
			return NewTileType(shape, dt, mem, nil), nil
		},
	})
	TensorCreate = RegisterOp(&OpDef{
		Name: "tensor.create", Class: ClassCompute, Category: "TensorOp",
		Doc:             "Create a tensor of shape and dtype in global memory.",
		Args:            []ArgSpec{{Name: "shape"}},
		Kwargs:          []KwargSpec{{Name: "dtype", Kind: KwDType, Required: true}, {Name: "layout", Kind: KwTensorLayout, Default: LayoutND}, {Name: "manual_dep", Kind: KwBool, OnlyTrue: true}, {Name: "init_value", Kind: KwFloat}},
		PositionalKwarg: "dtype",
		Deduce: func(c *DeduceCtx) (Type, error) {
			shape, err := c.Tuple(0, -1)
			if err != nil {
				return nil, err
			}
			dt, _ := c.Kwargs.DType("dtype")
			return &TensorType{Shape: shape, DType: dt}, nil
		},
	})
	registerReadWrite()
	registerElementwise()
	registerViews()
	registerSystem()
}

func registerReadWrite() {
	for _, h := range []struct {
		kind        string
		read, write **OpDef
	}{{"tensor", &TensorRead, &TensorWrite}, {"tile", &TileRead, &TileWrite}} {
		kind := h.kind
		isTile := kind == "tile"
		shapeOf := func(c *DeduceCtx) ([]Expr, DataType, error) {
			if isTile {
				t, err := c.Tile(0)
				if err != nil {
					return nil, 0, err
				}
				return t.Shape, t.DType, nil
			}
			t, err := c.TensorLike(0)
			return t.Shape, t.DType, err
		}
		*h.read = RegisterOp(&OpDef{
			Name: kind + ".read", Category: "ScalarOp", Class: ClassMemory,
			Doc:  "Read one element at indices.",
			Args: []ArgSpec{{Name: kind}, {Name: "indices", IndexList: true}},
			Deduce: func(c *DeduceCtx) (Type, error) {
				shape, dt, err := shapeOf(c)
				if err != nil {
					return nil, err
				}
				idx, err := c.Tuple(1, len(shape))
				if err != nil {
					return nil, err
				}
				if err := indexInside(c, 1, idx, shape, "the "+kind); err != nil {
					return nil, err
				}
				return Scalar(dt), nil
			},
		})
		*h.write = RegisterOp(&OpDef{
			Name: kind + ".write", Category: "ScalarOp", Class: ClassMemory, ResultAlias: kind, StoreUnit: "scalar",
			Doc:  "Write value at indices; the result rebinds the " + kind + ".",
			Args: []ArgSpec{{Name: kind, Effect: Write}, {Name: "indices", IndexList: true}, {Name: "value", Int32: true}},
			Deduce: func(c *DeduceCtx) (Type, error) {
				shape, dt, err := shapeOf(c)
				if err != nil {
					return nil, err
				}
				idx, err := c.Tuple(1, len(shape))
				if err != nil {
					return nil, err
				}
				if err := indexInside(c, 1, idx, shape, "the "+kind); err != nil {
					return nil, err
				}
				vt, err := c.Scalar(2)
				if err != nil {
					return nil, err
				}
				if vt != dt && !(vt == INDEX && dt.IsInt()) && !(vt == FP32 && dt.IsFloat()) {
					return nil, c.Fail(2, "a scalar of element type "+dt.String(), c.Args[2])
				}
				return c.Args[0].Type(), nil
			},
		})
	}
}

// elementwise ops: name suffix and whether the right operand is a scalar.
// tile and tensor point at the handles the registration fills.
var elementwiseOps = []struct {
	name         string
	scalar       bool
	doc          string
	tile, tensor **OpDef
	// scalarTile is the tile op the tensor form lowers to when its rhs is
	// a scalar (tensor.maximum(t, 2.0) is tile.maximums); nil: the tensor
	// form takes tensors only.
	scalarTile **OpDef
	// rowExpand is the tile op the tensor form lowers to when it
	// broadcasts an [M, 1] column against an [M, N] operand (nil: none);
	// commutes lets the column be the lhs.
	rowExpand **OpDef
	commutes  bool
	// precise ops take high_precision=True (PTOAS's high-precision mode,
	// floating-point elements only).
	precise bool
}{
	{"add", false, "Elementwise lhs + rhs; the tensor form broadcasts its operands as NumPy does.", &TileAdd, &TensorAdd, nil, &TileRowExpandAdd, true, false},
	{"sub", false, "Elementwise lhs - rhs; the tensor form broadcasts its operands as NumPy does.", &TileSub, &TensorSub, nil, &TileRowExpandSub, false, false},
	{"mul", false, "Elementwise lhs * rhs; the tensor form broadcasts its operands as NumPy does.", &TileMul, &TensorMul, nil, &TileRowExpandMul, true, false},
	{"div", false, "Elementwise lhs / rhs; the tensor form broadcasts its operands as NumPy does.", &TileDiv, &TensorDiv, nil, &TileRowExpandDiv, false, true},
	{"maximum", false, "Elementwise max(lhs, rhs); the tensor form's rhs may be a scalar, and tensor operands broadcast as NumPy's do.", &TileMaximum, &TensorMaximum, &TileMaximums, nil, false, false},
	{"minimum", false, "Elementwise min(lhs, rhs); the tensor form's rhs may be a scalar, and tensor operands broadcast as NumPy's do.", &TileMinimum, &TensorMinimum, &TileMinimums, nil, false, false},
	{"adds", true, "lhs + scalar rhs, elementwise.", &TileAdds, &TensorAdds, nil, nil, false, false},
	{"subs", true, "lhs - scalar rhs, elementwise.", &TileSubs, &TensorSubs, nil, nil, false, false},
	{"muls", true, "lhs * scalar rhs, elementwise.", &TileMuls, &TensorMuls, nil, nil, false, false},
	{"divs", true, "lhs / scalar rhs, elementwise.", &TileDivs, &TensorDivs, nil, nil, false, false},
	{"fmod", false, "Elementwise remainder of lhs / rhs with the sign of lhs, as torch.fmod (TFMOD); the tensor form broadcasts its operands as NumPy does.", &TileFmod, &TensorFmod, nil, nil, false, false},
	{"fmods", true, "Remainder of lhs / scalar rhs with the sign of lhs, elementwise (TFMODS).", &TileFmods, &TensorFmods, nil, nil, false, false},
}

func registerElementwise() {
	registerScalarTileOps()
	for _, op := range elementwiseOps {
		op := op
		var kwargs []KwargSpec
		if op.precise {
			kwargs = []KwargSpec{highPrecision}
		}
		*op.tile = RegisterOp(&OpDef{
			Name: "tile." + op.name, Class: ClassCompute, Category: "TileOp", Doc: op.doc,
			Args:      []ArgSpec{{Name: "lhs", Memory: MemVec}, {Name: "rhs", Memory: MemVec}},
			Kwargs:    kwargs,
			OutMemory: MemVec,
			Deduce: func(c *DeduceCtx) (Type, error) {
				l, err := c.Tile(0)
				if err != nil {
					return nil, err
				}
				if !vecReadable(c, 0, l) {
					return nil, c.Fail(0, "a tile in Vec memory", l)
				}
				if op.scalar {
					if _, err := c.Scalar(1); err != nil {
						return nil, err
					}
				} else {
					if _, err := vecTileLike(c, 1, l, "lhs"); err != nil {
						return nil, err
					}
				}
				if err := checkPrecise(c, l.DType); err != nil {
					return nil, err
				}
				return vecLike(l), nil
			},
		})
		var scalarTile, rowExpand *OpDef
		if op.scalarTile != nil {
			scalarTile = *op.scalarTile
		}
		if op.rowExpand != nil {
			if rowExpand = *op.rowExpand; rowExpand == nil {
				panic("ir: the row_expand tile ops must register before the elementwise ones")
			}
		}
		*op.tensor = RegisterOp(&OpDef{
			Name: "tensor." + op.name, Class: ClassCompute, Category: "TensorOp", Doc: op.doc, TileForm: *op.tile, Promotes: !op.scalar, Broadcasts: !op.scalar,
			ScalarTileForm: scalarTile, RowExpandForm: rowExpand, RowExpandCommutes: op.commutes,
			Args:   []ArgSpec{{Name: "lhs"}, {Name: "rhs"}},
			Kwargs: kwargs,
			Deduce: func(c *DeduceCtx) (Type, error) {
				l, err := c.TensorLike(0)
				if err != nil {
					return nil, err
				}
				if err := checkPrecise(c, l.DType); err != nil {
					return nil, err
				}
				_, scalarRHS := c.Args[1].Type().(*ScalarType)
				if op.scalar || (scalarTile != nil && scalarRHS) {
					if _, err := c.Scalar(1); err != nil {
						return nil, err
					}
				} else {
					r, err := c.TensorLike(1)
					if err != nil {
						return nil, err
					}
					// Operands of two element types give the promoted one,
					// as upstream's tensor ops do (FP32 + BF16 is FP32).
					dt := PromoteDTypes(l.DType, r.DType)
					if !SameDims(r.Shape, l.Shape) {
						// NumPy broadcasting, as upstream's tensor ops deduce
						// it; a broadcast result has no valid shape.
						shape, ok := BroadcastDims(l.Shape, r.Shape)
						if !ok {
							return nil, c.Fail(1, "a tensor whose shape broadcasts against lhs's "+DefaultFormat.Dims(l.Shape), c.Args[1])
						}
						return &TensorType{Shape: shape, DType: dt}, nil
					}
					if !SameDims(tensorValid(r), tensorValid(l)) {
						return &TensorType{Shape: l.Shape, DType: dt}, nil
					}
					return &TensorType{Shape: l.Shape, DType: dt, View: validView(l)}, nil
				}
				// The result keeps the operands' valid shape, as upstream's does.
				return &TensorType{Shape: l.Shape, DType: l.DType, View: validView(l)}, nil
			},
		})
	}
	for _, kind := range []string{"tile", "tensor"} {
		isTile := kind == "tile"
		var tileForm *OpDef
		handle := &TileCast
		if !isTile {
			tileForm, handle = TileCast, &TensorCast
		}
		*handle = RegisterOp(&OpDef{
			Name: kind + ".cast", Category: "TileOp", Class: ClassCompute, TileForm: tileForm, ReadsAcc: kind == "tile",
			Doc:  "Convert elements to target_type (mode selects rounding; round, half away from zero, unless a call says).",
			Args: []ArgSpec{{Name: kind}},
			// Upstream's cast functions store mode="round" when a call
			// omits it.
			Kwargs: []KwargSpec{{Name: "target_type", Kind: KwDType, Required: true}, {Name: "mode", Kind: KwInt, Names: CastModes, PrintName: true, Default: CastModes["round"]}},
			Deduce: func(c *DeduceCtx) (Type, error) {
				dt, _ := c.Kwargs.DType("target_type")
				if m := c.Kwargs.Int("mode", 0); m < 0 || m > 6 {
					return nil, c.FailKwarg("mode", "a cast mode 0..6", fmt.Sprintf("%d", m))
				}
				if isTile {
					t, err := c.Tile(0)
					if err != nil {
						return nil, err
					}
					return NewTileType(t.Shape, dt, t.Memory, t.View), nil
				}
				t, err := c.TensorLike(0)
				if err != nil {
					return nil, err
				}
				return &TensorType{Shape: t.Shape, DType: dt}, nil
			},
		})
	}
	TileFillpad = RegisterOp(&OpDef{
		Name: "tile.fillpad", Class: ClassCompute, Category: "TileOp",
		Doc:    "Fill a tile's invalid region with pad_value.",
		Args:   []ArgSpec{{Name: "tile"}},
		Kwargs: []KwargSpec{{Name: "pad_value", Kind: KwPad}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			return NewTileType(t.Shape, t.DType, t.Memory, nil), nil
		},
	})
	TileFillpadExpand = RegisterOp(&OpDef{
		Name: "tile.fillpad_expand", Class: ClassCompute, Category: "TileOp",
		Doc:    "A larger Vec tile of shape: the source's valid region at its top left, pad_value elsewhere (TFILLPAD_EXPAND).",
		Args:   []ArgSpec{{Name: "tile"}, {Name: "shape"}},
		Kwargs: []KwargSpec{{Name: "pad_value", Kind: KwPad}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			shape, err := expandTo(c, t.Shape, "the tile's")
			if err != nil {
				return nil, err
			}
			return NewTileType(shape, t.DType, MemVec, nil), nil
		},
	})
	TileFillpadInplace = RegisterOp(&OpDef{
		Name: "tile.fillpad_inplace", Class: ClassCompute, Category: "TileOp", ResultAlias: "tile", MemRefFrom: "tile",
		Doc:    "Fill a tile's invalid region with pad_value, in place.",
		Args:   []ArgSpec{{Name: "tile", Effect: ReadWrite}},
		Kwargs: []KwargSpec{{Name: "pad_value", Kind: KwPad}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if _, err := c.Tile(0); err != nil {
				return nil, err
			}
			return c.Args[0].Type(), nil
		},
	})
	TileSetValidshape = RegisterOp(&OpDef{
		Name: "tile.set_validshape", Class: ClassCompute, Category: "TileOp", ResultAlias: "tile", MemRefFrom: "tile",
		Doc:  "The same tile with a new valid shape [valid_rows, valid_cols].",
		Args: []ArgSpec{{Name: "tile"}, {Name: "valid_rows"}, {Name: "valid_cols"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			if len(t.Shape) != 2 {
				return nil, c.Fail(0, "a 2-D tile", t)
			}
			for i := 1; i <= 2; i++ {
				if _, err := c.IntScalar(i); err != nil {
					return nil, err
				}
			}
			v := t.EffectiveView()
			v.ValidShape = []Expr{c.Args[1], c.Args[2]}
			return NewTileType(t.Shape, t.DType, t.Memory, &v), nil
		},
	})
	TensorSetValidshape = RegisterOp(&OpDef{
		Name: "tensor.set_validshape", Class: ClassCompute, Category: "TensorOp", ResultAlias: "tensor", MemRefFrom: "tensor", TileForm: TileSetValidshape,
		Doc:  "The same 2-D tensor with a new valid shape [valid_rows, valid_cols] (in a kernel, tile.set_validshape of its tile).",
		Args: []ArgSpec{{Name: "tensor"}, {Name: "valid_rows"}, {Name: "valid_cols"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tensor(0)
			if err != nil {
				return nil, err
			}
			if len(t.Shape) != 2 {
				return nil, c.Fail(0, "a 2-D tensor", t)
			}
			for i := 1; i <= 2; i++ {
				if _, err := c.IntScalar(i); err != nil {
					return nil, err
				}
			}
			v := TensorView{}
			if t.View != nil {
				v = *t.View
			}
			v.ValidShape = []Expr{c.Args[1], c.Args[2]}
			return &TensorType{Shape: t.Shape, DType: t.DType, View: &v}, nil
		},
	})
	TensorFillpad = RegisterOp(&OpDef{
		Name: "tensor.fillpad", Class: ClassCompute, Category: "TensorOp", TileForm: TileFillpad,
		Doc:    "A tensor whose elements outside the input's valid shape are pad_value (in a kernel, tile.fillpad).",
		Args:   []ArgSpec{{Name: "tensor"}},
		Kwargs: []KwargSpec{{Name: "pad_value", Kind: KwPad}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tensor(0)
			if err != nil {
				return nil, err
			}
			return &TensorType{Shape: t.Shape, DType: t.DType}, nil
		},
	})
}

func registerViews() {
	for _, h := range []struct {
		kind  string
		slice **OpDef
	}{{"tensor", &TensorSlice}, {"tile", &TileSlice}} {
		kind := h.kind
		isTile := kind == "tile"
		*h.slice = RegisterOp(&OpDef{
			Name: kind + ".slice", Category: "ViewOp", Class: ClassCompute, HostSafe: !isTile, ResultAlias: "input", MemRefFrom: "input",
			Doc:     "A view of shape at offset; drop_dims removes unit dimensions (x[r]).",
			Args:    []ArgSpec{{Name: "input"}, {Name: "shape"}, {Name: "offset"}, {Name: "valid_shape"}, {Name: "drop_dims"}},
			MinArgs: 3, MaxArgs: 5,
			Kwargs: []KwargSpec{{Name: "pad_value", Kind: KwPad}, {Name: "clamp", Kind: KwBool}},
			Deduce: func(c *DeduceCtx) (Type, error) {
				in := c.Args[0].Type()
				dims, dt, ok := ShapeOf(in)
				if _, isTileT := in.(*TileType); !ok || isTileT != isTile {
					return nil, c.Fail(0, "a "+kind, c.Args[0])
				}
				shape, err := c.Tuple(1, len(dims))
				if err != nil {
					return nil, err
				}
				offs, err := c.Tuple(2, len(dims))
				if err != nil {
					return nil, err
				}
				var requested []Expr
				if c.N() >= 4 {
					if requested, err = c.Tuple(3, -1); err != nil {
						return nil, err
					}
					if len(requested) != 0 && len(requested) != len(shape) {
						return nil, c.Fail(3, fmt.Sprintf("a valid shape of rank %d (the slice's)", len(shape)), Describe(c.Args[3]))
					}
				}
				valid, err := sliceValid(c, in, dims, shape, offs, requested, isTile)
				if err != nil {
					return nil, err
				}
				out := shape
				if c.N() == 5 {
					drop, err := c.Tuple(4, -1)
					if err != nil {
						return nil, err
					}
					dropped := map[int64]bool{}
					for _, d := range drop {
						v, ok := ConstValue(d)
						if !ok || v < 0 || int(v) >= len(shape) {
							return nil, c.Fail(4, fmt.Sprintf("constant dimension indices in [0, %d)", len(shape)), Describe(c.Args[4]))
						}
						if s, ok := ConstValue(shape[v]); !ok || s != 1 {
							return nil, c.Fail(4, "indices of unit dimensions", fmt.Sprintf("dimension %d of extent %s", v, DefaultFormat.Dim(shape[v])))
						}
						dropped[v] = true
					}
					out = nil
					var kept []Expr
					for i, s := range shape {
						if !dropped[int64(i)] {
							out = append(out, s)
							if valid != nil {
								kept = append(kept, valid[i])
							}
						}
					}
					valid = kept
				}
				res := WithShape(in, out, dt)
				if tt, ok := res.(*TensorType); ok && valid != nil && !SameDims(valid, out) {
					tt.View = &TensorView{ValidShape: valid}
				}
				return res, nil
			},
		})
	}
	TensorAssemble = RegisterOp(&OpDef{
		Name: "tensor.assemble", Class: ClassMemory, Category: "TensorOp", ResultAlias: "target", MemRefFrom: "target", StoreUnit: "dma",
		Doc:     "Write source into target at offset (dst[a:b, c:d] = src); the result rebinds the target.",
		Args:    []ArgSpec{{Name: "target", Effect: Write}, {Name: "source"}, {Name: "offset"}},
		Kwargs:  []KwargSpec{{Name: "atomic", Kind: KwAtomic}},
		Effects: atomicDestEffects(0),
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			s, err := c.TensorLike(1)
			if err != nil {
				return nil, err
			}
			// Another element type is converted on the way, as upstream
			// allows (a matmul's FP32 result assembled into BF16).
			offs, err := c.Tuple(2, len(t.Shape))
			if err != nil {
				return nil, err
			}
			// Like upstream, the region check applies when source and
			// target share a rank (a lower-rank source is a reinterpreting
			// write).
			// Only the source's valid region is written (a DMA over the
			// valid extent), so only it must fit: a padded staging source
			// may overhang the target, as upstream allows (#1509).
			if len(s.Shape) == len(t.Shape) {
				extent := s.Shape
				if s.View != nil && len(s.View.ValidShape) == len(s.Shape) {
					extent = s.View.ValidShape
				}
				if err := regionFits(c, 2, offs, extent, t.Shape, "the target"); err != nil {
					return nil, err
				}
			}
			if err := checkAtomic(c, t.DType); err != nil {
				return nil, err
			}
			return c.Args[0].Type(), nil
		},
	})
	TileAssemble = RegisterOp(&OpDef{
		Name: "tile.assemble", Class: ClassMemory, Category: "TileOp", ResultAlias: "target", MemRefFrom: "target",
		Doc: "Write source into target at offset, on chip; the result is the target after the write. " +
			"Source and target share a memory space, or an Acc source writes into a Mat target (the fixpipe writeback).",
		Args: []ArgSpec{{Name: "target", Effect: ReadWrite}, {Name: "source"}, {Name: "offset"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			s, err := c.Tile(1)
			if err != nil {
				return nil, err
			}
			if len(t.Shape) != 2 || len(s.Shape) != 2 {
				i := 0
				if len(t.Shape) == 2 {
					i = 1
				}
				return nil, c.Fail(i, "a 2-D tile", c.Args[i])
			}
			if s.DType != t.DType {
				return nil, c.Fail(1, "a tile of element type "+t.DType.String()+" (the target's)", c.Args[1])
			}
			if s.Memory != MemNone && t.Memory != MemNone && s.Memory != t.Memory && !(s.Memory == MemAcc && t.Memory == MemMat) {
				return nil, c.Fail(1, "a tile in "+t.Memory.String()+" memory (the target's; or an Acc tile into a Mat target)", c.Args[1])
			}
			offs, err := c.Tuple(2, 2)
			if err != nil {
				return nil, err
			}
			if err := regionFits(c, 2, offs, s.Shape, t.Shape, "the target"); err != nil {
				return nil, err
			}
			return c.Args[0].Type(), nil
		},
	})
	TensorDim = RegisterOp(&OpDef{
		Name: "tensor.dim", Class: ClassCompute, HostSafe: true, Category: "TensorOp",
		Doc:  "The extent of one dimension of a tensor (axis may be negative), as an INDEX scalar.",
		Args: []ArgSpec{{Name: "tensor"}, {Name: "axis"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			axis, ok := ConstValue(c.Args[1])
			if !ok {
				return nil, c.Fail(1, "a constant axis", c.Args[1])
			}
			if axis < 0 {
				axis += int64(len(t.Shape))
			}
			if axis < 0 || axis >= int64(len(t.Shape)) {
				return nil, c.Fail(1, fmt.Sprintf("an axis of the rank-%d tensor", len(t.Shape)), DefaultFormat.Expr(c.Args[1]))
			}
			return Scalar(INDEX), nil
		},
	})
	TensorViewOp = RegisterOp(&OpDef{
		Name: "tensor.view", Class: ClassCompute, HostSafe: true, Category: "ViewOp", ResultAlias: "input", MemRefFrom: "input",
		Doc:     "Reinterpret a tensor with a new shape; a DistributedTensor stays distributed.",
		Args:    []ArgSpec{{Name: "input"}, {Name: "shape"}, {Name: "valid_shape"}},
		MinArgs: 1, MaxArgs: 3,
		Kwargs: []KwargSpec{{Name: "layout", Kind: KwTensorLayout}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			if c.N() == 1 {
				return c.Args[0].Type(), nil
			}
			shape, err := c.Tuple(1, -1)
			if err != nil {
				return nil, err
			}
			n1, ok1 := NumElements(t.Shape)
			n2, ok2 := NumElements(shape)
			if ok1 && ok2 && n1 != n2 {
				return nil, c.Fail(1, fmt.Sprintf("a shape of %d elements (the input's)", n1), fmt.Sprintf("%s with %d", ShapeString(shape), n2))
			}
			if c.N() == 3 {
				if _, err := c.Tuple(2, len(shape)); err != nil {
					return nil, err
				}
			}
			if t.Distributed {
				return &DistributedTensorType{Shape: shape, DType: t.DType}, nil
			}
			return &TensorType{Shape: shape, DType: t.DType}, nil
		},
	})
}

// AllocSpace is the memory space a tile.alloc's first argument names.
func AllocSpace(e Expr) (MemorySpace, error) {
	k, ok := e.(*ConstInt)
	if !ok || k.Value <= int64(MemDDR) || k.Value > int64(MemRightScale) {
		return MemNone, fmt.Errorf("not an on-chip memory space")
	}
	return MemorySpace(k.Value), nil
}

// AllocOf is a tile.alloc's first argument for memory space m.
func AllocOf(m MemorySpace) *ConstInt { return &ConstInt{Value: int64(m), DType: INDEX} }

func registerSystem() {
	TileAlloc = RegisterOp(&OpDef{
		Name: "tile.alloc", Class: ClassCompute, Category: "MemoryOp",
		Doc:    "Reserve size bytes of on-chip memory in memory_space; the result is the base of the tiles' MemRefs (made by InitMemRef).",
		Args:   []ArgSpec{{Name: "memory_space", MemSpace: true}, {Name: "size"}},
		Kwargs: []KwargSpec{{Name: "pinned", Kind: KwBool, OnlyTrue: true}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if _, err := AllocSpace(c.Args[0]); err != nil {
				return nil, c.Fail(0, "an on-chip memory space (pl.Mem.Vec, Mat, Left, Right, Acc, ...)", DefaultFormat.Expr(c.Args[0]))
			}
			if _, err := c.IntScalar(1); err != nil {
				return nil, err
			}
			return PtrT, nil
		},
	})
	SystemFence = RegisterOp(&OpDef{
		Name: "system.fence", Class: ClassCompute, Category: "SyncOp",
		Doc: "Order this rank's prior memory operations before later ones (inserted by InsertCommFence).",
		Deduce: func(c *DeduceCtx) (Type, error) {
			return Unknown, nil
		},
	})
	SystemCacheinvalid = RegisterOp(&OpDef{
		Name: "system.cacheinvalid", Class: ClassCompute, Category: "SyncOp",
		Doc:     "Invalidate cached lines of a tensor region (tensor, shapes, offsets), or everything with no arguments.",
		Args:    []ArgSpec{{Name: "tensor"}, {Name: "shapes"}, {Name: "offsets"}},
		MinArgs: 0, MaxArgs: 3,
		Deduce: func(c *DeduceCtx) (Type, error) {
			switch c.N() {
			case 0:
				return Unknown, nil
			case 3:
				t, err := c.TensorLike(0)
				if err != nil {
					return nil, err
				}
				if _, err := c.Tuple(1, len(t.Shape)); err != nil {
					return nil, err
				}
				if _, err := c.Tuple(2, len(t.Shape)); err != nil {
					return nil, err
				}
				return Unknown, nil
			}
			return nil, c.FailCall("0 or 3 arguments (tensor, shapes, offsets)", fmt.Sprintf("%d", c.N()))
		},
	})
}

// unaryOps are the elementwise one-operand ops (upstream's tile_ops/unary
// and activation ops), each with a tile form on Vec tiles and a tensor form
// ConvertTensorToTileOps lowers to it. float marks the ones defined on
// floating-point elements only.
var unaryOps = []struct {
	name, doc    string
	float        bool
	tile, tensor **OpDef
	// fp32 ops take FP32 elements only (upstream's sin and cos).
	fp32 bool
	// precise ops take high_precision=True.
	precise bool
}{
	{"abs", "Elementwise absolute value.", false, &TileAbs, &TensorAbs, false, false},
	{"neg", "Elementwise negation.", false, &TileNeg, &TensorNeg, false, false},
	{"relu", "Elementwise max(x, 0).", false, &TileRelu, &TensorRelu, false, false},
	{"exp", "Elementwise e^x.", true, &TileExp, &TensorExp, false, false},
	{"log", "Elementwise natural logarithm.", true, &TileLog, &TensorLog, false, true},
	{"sqrt", "Elementwise square root.", true, &TileSqrt, &TensorSqrt, false, false},
	{"recip", "Elementwise reciprocal 1/x.", true, &TileRecip, &TensorRecip, false, true},
	{"sin", "Elementwise sine of radians (LowerCompositeOps expands the tile form into upstream's FP32 polynomial).", true, &TileSin, &TensorSin, true, false},
	{"cos", "Elementwise cosine of radians (LowerCompositeOps expands the tile form into upstream's FP32 polynomial).", true, &TileCos, &TensorCos, true, false},
}

func init() {
	for _, op := range unaryOps {
		op := op
		elem := func(c *DeduceCtx, dt DataType) error {
			if op.fp32 && dt != FP32 {
				return c.Fail(0, "elements of pl.FP32 (upstream's "+op.name+" is FP32-only)", dt.String())
			}
			if op.float && !dt.IsFloat() {
				return c.Fail(0, "elements of a floating-point type", dt.String())
			}
			return checkPrecise(c, dt)
		}
		var kwargs []KwargSpec
		if op.precise {
			kwargs = []KwargSpec{highPrecision}
		}
		*op.tile = RegisterOp(&OpDef{
			Name: "tile." + op.name, Class: ClassCompute, Category: "TileOp",
			Doc:       op.doc + " A Vec tile.",
			Args:      []ArgSpec{{Name: "tile"}},
			Kwargs:    kwargs,
			OutMemory: MemVec,
			Deduce: func(c *DeduceCtx) (Type, error) {
				t, err := c.Tile(0)
				if err != nil {
					return nil, err
				}
				if t.Memory != MemNone && t.Memory != MemVec {
					return nil, c.Fail(0, "a tile in Vec memory", t)
				}
				if err := elem(c, t.DType); err != nil {
					return nil, err
				}
				// Like upstream's unary ops, the result keeps the source's valid shape.
				return vecLike(t), nil
			},
		})
		*op.tensor = RegisterOp(&OpDef{
			Name: "tensor." + op.name, Class: ClassCompute, Category: "TensorOp", TileForm: *op.tile,
			Doc:    op.doc + " A tensor (lowered to the tile form).",
			Args:   []ArgSpec{{Name: "input"}},
			Kwargs: kwargs,
			Deduce: func(c *DeduceCtx) (Type, error) {
				t, err := c.TensorLike(0)
				if err != nil {
					return nil, err
				}
				if err := elem(c, t.DType); err != nil {
					return nil, err
				}
				return &TensorType{Shape: t.Shape, DType: t.DType, View: validView(t)}, nil
			},
		})
	}
}

// highPrecision selects PTOAS's high-precision mode of div, log, recip and
// rsqrt; upstream stores it only when true.
var highPrecision = KwargSpec{Name: "high_precision", Kind: KwBool, OnlyTrue: true}

// checkPrecise rejects high_precision=True on elements the high-precision
// templates do not implement (upstream: FP16 or FP32 only).
func checkPrecise(c *DeduceCtx, dt DataType) error {
	if !c.Kwargs.Bool("high_precision", false) || dt == FP16 || dt == FP32 {
		return nil
	}
	return c.FailKwarg("high_precision", "FP16 or FP32 elements (PTOAS's high-precision templates are floating-point only)", dt.String())
}

// tensorValid is a tensor's valid shape (its shape when it has none).
func tensorValid(t TensorLike) []Expr {
	if t.View != nil && len(t.View.ValidShape) == len(t.Shape) {
		return t.View.ValidShape
	}
	return t.Shape
}

// validView is the view an elementwise result of t takes: t's valid
// shape, or none when t is wholly valid.
func validView(t TensorLike) *TensorView {
	if t.View == nil || len(t.View.ValidShape) != len(t.Shape) || SameDims(t.View.ValidShape, t.Shape) {
		return nil
	}
	return &TensorView{ValidShape: t.View.ValidShape}
}

// sliceValid checks a slice's window against its source and gives the
// result's valid shape (nil: the whole window), upstream's window-read
// rule for static extents. A window may overhang the source when a valid
// shape inside it (pl.slice(x, [16, K], [0, 0], valid_shape=[15, K])) or
// clamp=True keeps what is read inside; the valid extent is then what the
// source holds under the window, or the requested one when no smaller.
// A tile slice keeps the plain rule: the window inside the tile.
func sliceValid(c *DeduceCtx, in Type, dims, shape, offs, requested []Expr, isTile bool) ([]Expr, error) {
	clamp := c.Kwargs.Bool("clamp", false)
	if isTile || (len(requested) == 0 && !clamp) {
		return nil, regionFits(c, 2, offs, shape, dims, "the input")
	}
	srcValid := dims
	if tl, ok := AsTensorLike(in); ok {
		srcValid = tensorValid(tl)
	}
	valid := make([]Expr, len(shape))
	for d := range shape {
		off, okO := ConstValue(offs[d])
		win, okW := ConstValue(shape[d])
		if okO && off < 0 {
			return nil, c.Fail(2, "non-negative offsets", fmt.Sprintf("offset %d in dimension %d", off, d))
		}
		reach := shape[d]
		if len(requested) > 0 {
			reach = requested[d]
			if r, ok := ConstValue(requested[d]); ok && okW && r > win {
				return nil, c.Fail(3, fmt.Sprintf("a valid extent inside the window (<= %d in dimension %d)", win, d), fmt.Sprintf("%d", r))
			}
		}
		src, okS := ConstValue(dims[d])
		if r, okR := ConstValue(reach); !clamp && okO && okR && okS && off+r > src {
			return nil, c.Fail(2, fmt.Sprintf("a valid region inside the input (offset+extent <= %d in dimension %d; clamp=True narrows it to the input's edge)", src, d),
				fmt.Sprintf("offset %d + extent %d = %d", off, r, off+r))
		}
		// available: what the source holds under the window.
		available := shape[d]
		sv, okV := ConstValue(srcValid[d])
		if okO && okW && okV && (clamp || sv != src) {
			a := sv - off
			if a < 0 {
				a = 0
			}
			if a > win {
				a = win
			}
			available = Int(a)
		}
		valid[d] = available
		if len(requested) > 0 {
			valid[d] = requested[d]
			a, okA := ConstValue(available)
			r, okR := ConstValue(requested[d])
			if okA && okR && okW && a != win && a < r {
				valid[d] = available
			}
		}
	}
	return valid, nil
}
