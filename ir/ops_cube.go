package ir

import "fmt"

// Fills and the cube path. tile.full / tensor.full make a tile (tensor)
// of one value. The cube path (upstream's tile_ops/matmul.cpp and tile.move): operands
// are loaded to Mat, moved to Left and Right, multiplied into an Acc tile
// (FP32 for floating-point operands, INT32 otherwise), and stored from Acc.

// cubeTile checks that argument i is a 2-D tile in memory mem (or none
// yet). An operand the op reads from Left, Right or Bias (ArgSpec.Memory)
// may also be in Mat: InferTileMemorySpace moves it.
func cubeTile(c *DeduceCtx, i int, mem MemorySpace) (*TileType, error) {
	t, err := c.Tile(i)
	if err != nil {
		return nil, err
	}
	// A Mat operand, a cube result in Acc (written back to Mat by the
	// fixpipe first) or a vector result in Vec (upstream's V2C move to
	// Mat) is moved to the op's memory by InferTileMemorySpace.
	fromMat := c.Op.ArgSpecAt(i).Memory == mem && (t.Memory == MemMat || t.Memory == MemAcc || t.Memory == MemVec)
	if t.Memory != MemNone && t.Memory != mem && !fromMat {
		what := "a tile in " + mem.String() + " memory"
		if c.Op.ArgSpecAt(i).Memory == mem {
			what += " (or " + MemMat.String() + ", " + MemAcc.String() + " or " + MemVec.String() + ", moved there before the op)"
		}
		return nil, c.Fail(i, what, t)
	}
	if len(t.Shape) != 2 {
		return nil, c.Fail(i, "a 2-D tile", t)
	}
	return t, nil
}

// matmulResult checks lhs [M, K] x rhs [K, N] and gives the Acc tile.
func matmulResult(c *DeduceCtx, li, ri int) (*TileType, error) {
	l, err := cubeTile(c, li, MemLeft)
	if err != nil {
		return nil, err
	}
	r, err := cubeTile(c, ri, MemRight)
	if err != nil {
		return nil, err
	}
	if r.DType != l.DType {
		return nil, c.Fail(ri, "a tile of the lhs element type "+l.DType.String(), r)
	}
	kl, ok1 := ConstValue(l.Shape[1])
	kr, ok2 := ConstValue(r.Shape[0])
	if ok1 && ok2 && kl != kr {
		return nil, c.Fail(ri, fmt.Sprintf("a tile of %d rows (the lhs's K)", kl), r)
	}
	acc := INT32
	if l.DType.IsFloat() {
		acc = FP32
	}
	if dt, ok := c.Kwargs.DType("out_dtype"); ok {
		acc = dt
	}
	// The product's storage follows the operands' physical M and N, its
	// valid rectangle their valid M and N (upstream's matmul geometry); the
	// rhs's valid K must cover the lhs's.
	lv, rv := tileValid(l), tileValid(r)
	vkl, ok1 := ConstValue(lv[1])
	vkr, ok2 := ConstValue(rv[0])
	if ok1 && ok2 && vkl > vkr {
		return nil, c.Fail(ri, fmt.Sprintf("a tile whose valid rows (%d) cover the lhs's valid K (%d)", vkr, vkl), r)
	}
	shape := []Expr{l.Shape[0], r.Shape[1]}
	var view *TileView
	if valid := []Expr{lv[0], rv[1]}; !SameDims(valid, shape) {
		v := ImplicitTileView(shape, MemAcc)
		v.ValidShape = valid
		view = &v
	}
	return NewTileType(shape, acc, MemAcc, view), nil
}

// tensorMatmulDeduce types tensor.matmul: operands of rank 2 or more
// (upstream's 1-D forms are not taken), each used transposed in its last
// two dimensions when its a_trans / b_trans kwarg says (lowered through
// tile.transpose_view, as upstream does), K matching when both are
// static. Dimensions before the last two are batch dimensions: they
// broadcast as NumPy's do, as upstream's batched form deduces them.
func tensorMatmulDeduce(c *DeduceCtx) (Type, error) {
	ops, shape, err := tensorMatmulOperands(c, 0)
	if err != nil {
		return nil, err
	}
	dt, ok := c.Kwargs.DType("out_dtype")
	if !ok {
		if ops[0].DType != ops[1].DType {
			return nil, c.Fail(1, "a tensor of the lhs element type "+ops[0].DType.String()+" (or pass out_dtype=)", c.Args[1])
		}
		dt = ops[0].DType
	}
	return &TensorType{Shape: shape, DType: dt}, nil
}

// tensorMatmulOperands checks the operands lhs (argument at) and rhs
// (at+1) of a tensor matmul, as they are used (a_trans / b_trans applied
// to the last two dimensions), and gives the product's shape: the
// broadcast batch dimensions, then [M, N].
func tensorMatmulOperands(c *DeduceCtx, at int) ([2]TensorLike, []Expr, error) {
	var ops [2]TensorLike
	for i, k := range []string{"a_trans", "b_trans"} {
		t, err := c.TensorLike(at + i)
		if err != nil {
			return ops, nil, err
		}
		n := len(t.Shape)
		if n < 2 {
			return ops, nil, c.Fail(at+i, "a tensor of rank 2 or more (ptorepl's "+c.Op.Name+" takes [..., M, K] by [..., K, N])", c.Args[at+i])
		}
		if c.Kwargs.Bool(k, false) {
			t.Shape = append(append([]Expr{}, t.Shape[:n-2]...), t.Shape[n-1], t.Shape[n-2])
		}
		ops[i] = t
	}
	shape, err := batchedProduct(c, at, ops[0].Shape, ops[1].Shape)
	return ops, shape, err
}

// batchedProduct is the shape of l @ r for l [..., M, K] and r [..., K, N]
// (argument at and at+1): K matching when both are static, the batch
// dimensions broadcast.
func batchedProduct(c *DeduceCtx, at int, l, r []Expr) ([]Expr, error) {
	nl, nr := len(l), len(r)
	kl, ok1 := ConstValue(l[nl-1])
	kr, ok2 := ConstValue(r[nr-2])
	if ok1 && ok2 && kl != kr {
		kind := "tensor"
		if c.Op.Category == "TileOp" {
			kind = "tile"
		}
		return nil, c.Fail(at+1, fmt.Sprintf("a %s of %d rows (the lhs's K)", kind, kl), c.Args[at+1])
	}
	batch, ok := BroadcastDims(l[:nl-2], r[:nr-2])
	if !ok {
		return nil, c.Fail(at+1, "batch dimensions that broadcast against the lhs's "+DefaultFormat.Dims(l[:nl-2]), c.Args[at+1])
	}
	return append(batch, l[nl-2], r[nr-1]), nil
}

// tensorMatmulAccDeduce types tensor.matmul_acc(acc, lhs, rhs): as
// upstream, lhs and rhs of one dtype, and acc [M, N] of its accumulator
// type (FP32 for floating-point operands, INT32 otherwise); the result is
// acc's type.
func tensorMatmulAccDeduce(c *DeduceCtx) (Type, error) {
	acc, err := c.TensorLike(0)
	if err != nil {
		return nil, err
	}
	ops, shape, err := tensorMatmulOperands(c, 1)
	if err != nil {
		return nil, err
	}
	if ops[0].DType != ops[1].DType {
		return nil, c.Fail(2, "a tensor of the lhs element type "+ops[0].DType.String(), c.Args[2])
	}
	want := INT32
	if ops[0].DType.IsFloat() {
		want = FP32
	}
	if acc.DType != want || !SameDims(acc.Shape, shape) {
		return nil, c.Fail(0, "an accumulator "+DefaultFormat.Dims(shape)+" of "+want.String(), c.Args[0])
	}
	if err := initCond(c, 3); err != nil {
		return nil, err
	}
	return &TensorType{Shape: acc.Shape, DType: acc.DType}, nil
}

// batchMatmulDeduce types tile.batch_matmul as upstream's
// DeduceTileBatchMatMulType does: cube operands (not Vec or Acc) of rank 2
// or more and one element type, K matching when static, the batch
// dimensions broadcast; the result is an Acc tile.
func batchMatmulDeduce(c *DeduceCtx) (Type, error) {
	return batchMatmulResult(c, 0)
}

// batchMatmulResult types the product of lhs (argument at) and rhs (at+1)
// of a batched tile matmul.
func batchMatmulResult(c *DeduceCtx, at int) (*TileType, error) {
	var ops [2]*TileType
	for i := range ops {
		t, err := c.Tile(at + i)
		if err != nil {
			return nil, err
		}
		if t.Memory == MemVec || t.Memory == MemAcc {
			return nil, c.Fail(at+i, "a tile in Mat, Left or Right memory", t)
		}
		if len(t.Shape) < 2 {
			return nil, c.Fail(at+i, "a tile of rank 2 or more", t)
		}
		ops[i] = t
	}
	if ops[1].DType != ops[0].DType {
		return nil, c.Fail(at+1, "a tile of the lhs element type "+ops[0].DType.String(), ops[1])
	}
	shape, err := batchedProduct(c, at, ops[0].Shape, ops[1].Shape)
	if err != nil {
		return nil, err
	}
	acc := INT32
	if ops[0].DType.IsFloat() {
		acc = FP32
	}
	return NewTileType(shape, acc, MemAcc, nil), nil
}

// initCond checks matmul_acc's optional init_cond (argument i): a BOOL
// scalar, as upstream's CheckMatmulInitCond.
func initCond(c *DeduceCtx, i int) error {
	if c.N() <= i {
		return nil
	}
	if dt, err := c.Scalar(i); err != nil || dt != BOOL {
		return c.Fail(i, "a BOOL scalar (k0 == 0)", c.Args[i])
	}
	return nil
}

// fullDeduce types tile.full / tensor.full: shape, a scalar value, dtype=.
func fullDeduce(tile bool) func(c *DeduceCtx) (Type, error) {
	return func(c *DeduceCtx) (Type, error) {
		shape, err := staticShape(c, 0, -1)
		if err != nil {
			return nil, err
		}
		if _, err := c.Scalar(1); err != nil {
			return nil, err
		}
		dt, _ := c.Kwargs.DType("dtype")
		if tile {
			return NewTileType(shape, dt, MemVec, nil), nil
		}
		return &TensorType{Shape: shape, DType: dt}, nil
	}
}

func init() {
	TileFull = RegisterOp(&OpDef{
		Name: "tile.full", Class: ClassCompute, Category: "TileOp",
		Doc:    "A Vec tile of shape filled with value (TEXPANDS).",
		Args:   []ArgSpec{{Name: "shape"}, {Name: "value", Int32: true}},
		Kwargs: []KwargSpec{{Name: "dtype", Kind: KwDType, Required: true}},
		Deduce: fullDeduce(true),
	})
	TensorFull = RegisterOp(&OpDef{
		Name: "tensor.full", Class: ClassCompute, Category: "TensorOp", TileForm: TileFull,
		Doc:    "A tensor of shape filled with value (a tile.full in a kernel).",
		Args:   []ArgSpec{{Name: "shape"}, {Name: "value", Int32: true}},
		Kwargs: []KwargSpec{{Name: "dtype", Kind: KwDType, Required: true}},
		Deduce: fullDeduce(false),
	})
	TileMove = RegisterOp(&OpDef{
		Name: "tile.move", Class: ClassMemory, Category: "TileOp",
		Doc:    "Copy a tile into another on-chip memory (Mat to Left or Right, ...), blayout/slayout overriding the result's layout.",
		Args:   []ArgSpec{{Name: "tile"}},
		Kwargs: []KwargSpec{{Name: "target_memory", Kind: KwMemory, Required: true}, {Name: "blayout", Kind: KwTileLayout}, {Name: "slayout", Kind: KwTileLayout}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			mem := MemVec
			if v, ok := c.Kwargs.Get("target_memory"); ok {
				mem = v.(MemorySpace)
			}
			// The destination's layout where it has one of its own (Mat,
			// Acc, Left and the scales are boxed), else the source's; Right
			// is row_major whatever the shape; blayout/slayout override but
			// for the scales, whose layout is the hardware's. The source's
			// valid shape and pad stay. So upstream's move deduces it.
			dst, flat := ImplicitTileView(t.Shape, mem), ImplicitTileView(t.Shape, MemNone)
			v := TileView{BLayout: dst.BLayout, SLayout: dst.SLayout, Fractal: dst.Fractal}
			if dst.BLayout == flat.BLayout && dst.SLayout == flat.SLayout && dst.Fractal == flat.Fractal {
				src := t.EffectiveView()
				v.BLayout, v.SLayout = src.BLayout, src.SLayout
			}
			if mem == MemRight {
				v.BLayout = RowMajor
			}
			for _, k := range []struct {
				name string
				into *TileLayout
			}{{"blayout", &v.BLayout}, {"slayout", &v.SLayout}} {
				x, ok := c.Kwargs.Get(k.name)
				if !ok {
					continue
				}
				l := x.(TileLayout)
				if (mem == MemLeftScale || mem == MemRightScale) && l != *k.into {
					return nil, c.FailKwarg(k.name, fmt.Sprintf("%s, the hardware-fixed layout of %s", *k.into, mem), l)
				}
				*k.into = l
			}
			if t.View != nil {
				if len(t.View.ValidShape) == len(t.Shape) && !SameDims(t.View.ValidShape, t.Shape) {
					v.ValidShape = t.View.ValidShape
				}
				v.Pad = t.View.Pad
			}
			return NewTileType(t.Shape, t.DType, mem, &v), nil
		},
	})
	TileMatmul = RegisterOp(&OpDef{
		Name: "tile.matmul", Class: ClassCompute, Category: "TileOp",
		Doc:    "lhs @ rhs: Left [M, K] by Right [K, N] into a new Acc tile [M, N] (out_dtype overrides FP32/INT32).",
		Args:   []ArgSpec{{Name: "lhs", Memory: MemLeft}, {Name: "rhs", Memory: MemRight}},
		Kwargs: []KwargSpec{{Name: "out_dtype", Kind: KwDType}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			return matmulResult(c, 0, 1)
		},
	})
	TileBatchMatmul = RegisterOp(&OpDef{
		Name: "tile.batch_matmul", Class: ClassCompute, Category: "TileOp",
		Doc: "lhs @ rhs for tiles [..., M, K] and [..., K, N] of rank 2 or more, their batch dimensions broadcast, " +
			"into a new Acc tile [..., M, N] of FP32 (INT32 for integer operands): one matmul per batch.",
		Args:   []ArgSpec{{Name: "lhs"}, {Name: "rhs"}},
		Deduce: batchMatmulDeduce,
	})
	TileBatchMatmulAcc = RegisterOp(&OpDef{
		Name: "tile.batch_matmul_acc", Class: ClassCompute, Category: "TileOp", ResultAlias: "acc", MemRefFrom: "acc",
		Doc:  "acc += lhs @ rhs page by page, in place on the Acc tile [..., M, N], as tile.batch_matmul multiplies.",
		Args: []ArgSpec{{Name: "acc", Effect: ReadWrite}, {Name: "lhs"}, {Name: "rhs"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			want, err := batchMatmulResult(c, 1)
			if err != nil {
				return nil, err
			}
			acc, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			if acc.Memory != MemAcc && acc.Memory != MemNone && acc.Memory != MemVec || acc.DType != want.DType || !SameDims(acc.Shape, want.Shape) {
				return nil, c.Fail(0, "an Acc tile "+DefaultFormat.Dims(want.Shape)+" of "+want.DType.String(), acc)
			}
			return accumulated(c.Args[0].Type()), nil
		},
	})
	TensorMatmul = RegisterOp(&OpDef{
		Name: "tensor.matmul", Class: ClassCompute, Category: "TensorOp",
		Doc: "lhs @ rhs of tensors [..., M, K] and [..., K, N] (batch dimensions broadcast) into a [..., M, N] tensor of " +
			"out_dtype (else the operands' dtype); in a kernel ConvertTensorToTileOps makes a 2-D one the cube path " +
			"(Mat loads, Left/Right moves, tile.matmul).",
		Args: []ArgSpec{{Name: "lhs"}, {Name: "rhs"}},
		Kwargs: []KwargSpec{{Name: "out_dtype", Kind: KwDType}, {Name: "a_trans", Kind: KwBool}, {Name: "b_trans", Kind: KwBool},
			{Name: "c_matrix_nz", Kind: KwBool}},
		Deduce: tensorMatmulDeduce,
	})
	TensorMatmulAcc = RegisterOp(&OpDef{
		Name: "tensor.matmul_acc", Class: ClassCompute, Category: "TensorOp",
		Doc: "acc + lhs @ rhs of 2-D tensors, acc [M, N] of the accumulator type (FP32, or INT32 for integer operands); " +
			"in a kernel ConvertTensorToTileOps makes it tile.matmul_acc on the accumulator's Acc tile.",
		Args:    []ArgSpec{{Name: "acc"}, {Name: "lhs"}, {Name: "rhs"}, {Name: "init_cond"}},
		MinArgs: 3, MaxArgs: 4,
		Kwargs: []KwargSpec{{Name: "a_trans", Kind: KwBool}, {Name: "b_trans", Kind: KwBool}},
		Deduce: tensorMatmulAccDeduce,
	})
	TileMatmulBias = RegisterOp(&OpDef{
		Name: "tile.matmul_bias", Class: ClassCompute, Category: "TileOp",
		Doc:  "lhs @ rhs + bias: Left [M, K] by Right [K, N], plus a Bias row [1, N] of the accumulator type, into a new Acc tile.",
		Args: []ArgSpec{{Name: "lhs", Memory: MemLeft}, {Name: "rhs", Memory: MemRight}, {Name: "bias", Memory: MemBias}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			acc, err := matmulResult(c, 0, 1)
			if err != nil {
				return nil, err
			}
			if err := biasRow(c, 2, acc); err != nil {
				return nil, err
			}
			return acc, nil
		},
	})
	TileMatmulAcc = RegisterOp(&OpDef{
		Name: "tile.matmul_acc", Class: ClassCompute, Category: "TileOp", ResultAlias: "acc", MemRefFrom: "acc",
		Doc: "acc += lhs @ rhs, in place on the Acc tile; with init_cond, where it holds acc = lhs @ rhs " +
			"(the split-K first step without a peeled iteration).",
		Args:    []ArgSpec{{Name: "acc", Effect: ReadWrite}, {Name: "lhs", Memory: MemLeft}, {Name: "rhs", Memory: MemRight}, {Name: "init_cond"}},
		MinArgs: 3, MaxArgs: 4,
		Deduce: func(c *DeduceCtx) (Type, error) {
			want, err := matmulResult(c, 1, 2)
			if err != nil {
				return nil, err
			}
			if err := accumulatorLike(c, 0, want); err != nil {
				return nil, err
			}
			if err := initCond(c, 3); err != nil {
				return nil, err
			}
			return accumulated(c.Args[0].Type()), nil
		},
	})
}

// accumulatorLike requires argument i to be an Acc tile of want's shape
// and element type (a matmul_acc's or gemv_acc's accumulator). A Vec tile
// is taken too: `acc = pl.tile.create(shape, dtype=...)` is in Vec, the
// DSL's default, and InferTileMemorySpace places it in Acc, as upstream's
// does, when the accumulation is what it holds (accumulated).
func accumulatorLike(c *DeduceCtx, i int, want *TileType) error {
	var acc *TileType
	var err error
	if t, ok := c.Args[i].Type().(*TileType); ok && t.Memory == MemVec && len(t.Shape) == 2 {
		acc = t
	} else if acc, err = cubeTile(c, i, MemAcc); err != nil {
		return err
	}
	if acc.DType != want.DType || !SameDims(acc.Shape, want.Shape) {
		return c.Fail(i, "an accumulator "+DefaultFormat.Dims(want.Shape)+" of "+want.DType.String(), acc)
	}
	return nil
}

// accumulated is the type of an accumulating op's result: its
// accumulator's, in Acc (where the cube writes it) when that was still in
// Vec.
func accumulated(acc Type) Type {
	t, ok := acc.(*TileType)
	if !ok || t.Memory != MemVec {
		return acc
	}
	return t.InMemory(MemAcc)
}

// biasRow requires argument i to be a Bias row [1, N] of acc's element
// type and columns (a matmul_bias's or gemv_bias's bias).
func biasRow(c *DeduceCtx, i int, acc *TileType) error {
	b, err := cubeTile(c, i, MemBias)
	if err != nil {
		return err
	}
	one, ok1 := ConstValue(b.Shape[0])
	n, ok2 := ConstValue(b.Shape[1])
	an, ok3 := ConstValue(acc.Shape[1])
	if !ok1 || one != 1 || (ok2 && ok3 && n != an) || b.DType != acc.DType {
		return c.Fail(i, "a bias row [1, "+DefaultFormat.Dim(acc.Shape[1])+"] of "+acc.DType.String(), b)
	}
	return nil
}

// The GEMV family (upstream's tile.gemv, gemv_acc, gemv_bias): a matmul
// whose lhs is one row, [1, K] in Left, by Right [K, N] into Acc [1, N];
// acc_phase ("unspecified", "partial", "final") tells the cube which step
// of a split-K sum this is and changes nothing computed.
var gemvPhase = KwargSpec{Name: "acc_phase", Kind: KwString, Default: "unspecified"}

// gemvResult is matmulResult for a one-row lhs, with acc_phase checked.
func gemvResult(c *DeduceCtx, li, ri int) (*TileType, error) {
	acc, err := matmulResult(c, li, ri)
	if err != nil {
		return nil, err
	}
	l := c.Args[li].Type().(*TileType)
	if rows, ok := ConstValue(l.Shape[0]); !ok || rows != 1 {
		return nil, c.Fail(li, "a row vector [1, K]", l)
	}
	switch p, _ := c.Kwargs.Get("acc_phase"); p {
	case nil, "unspecified", "partial", "final":
	default:
		return nil, c.FailKwarg("acc_phase", "'unspecified', 'partial' or 'final'", fmt.Sprint(p))
	}
	return acc, nil
}

func init() {
	TileGemv = RegisterOp(&OpDef{
		Name: "tile.gemv", Class: ClassCompute, Category: "TileOp",
		Doc:    "lhs @ rhs: a row vector Left [1, K] by Right [K, N] into a new Acc row [1, N] (TGEMV).",
		Args:   []ArgSpec{{Name: "lhs", Memory: MemLeft}, {Name: "rhs", Memory: MemRight}},
		Kwargs: []KwargSpec{gemvPhase},
		Deduce: func(c *DeduceCtx) (Type, error) { return gemvResult(c, 0, 1) },
	})
	TileGemvAcc = RegisterOp(&OpDef{
		Name: "tile.gemv_acc", Class: ClassCompute, Category: "TileOp", ResultAlias: "acc", MemRefFrom: "acc",
		Doc:    "acc += lhs @ rhs for a row vector lhs, in place on the Acc row (TGEMV.ACC).",
		Args:   []ArgSpec{{Name: "acc", Effect: ReadWrite}, {Name: "lhs", Memory: MemLeft}, {Name: "rhs", Memory: MemRight}},
		Kwargs: []KwargSpec{gemvPhase},
		Deduce: func(c *DeduceCtx) (Type, error) {
			want, err := gemvResult(c, 1, 2)
			if err != nil {
				return nil, err
			}
			if err := accumulatorLike(c, 0, want); err != nil {
				return nil, err
			}
			return accumulated(c.Args[0].Type()), nil
		},
	})
	TileGemvBias = RegisterOp(&OpDef{
		Name: "tile.gemv_bias", Class: ClassCompute, Category: "TileOp",
		Doc:    "lhs @ rhs + bias for a row vector lhs, bias a Bias row [1, N] of the accumulator type (TGEMV.BIAS).",
		Args:   []ArgSpec{{Name: "lhs", Memory: MemLeft}, {Name: "rhs", Memory: MemRight}, {Name: "bias", Memory: MemBias}},
		Kwargs: []KwargSpec{gemvPhase},
		Deduce: func(c *DeduceCtx) (Type, error) {
			acc, err := gemvResult(c, 0, 1)
			if err != nil {
				return nil, err
			}
			if err := biasRow(c, 2, acc); err != nil {
				return nil, err
			}
			return acc, nil
		},
	})
}

// tile.extract (upstream's TEXTRACT, variant 1): the sub-tile of a 2-D
// tile at (index_row, index_col) of a static shape, placed in
// target_memory; typically a Mat source cut into Left or Right (a cube
// operand) or an Acc one into Mat, but upstream's deducer restricts no
// pair (its tests extract a Vec row into Vec).
func init() {
	TileExtract = RegisterOp(&OpDef{
		Name: "tile.extract", Class: ClassCompute, Category: "TileOp",
		Doc:    "The [rows, cols] window of src at (index_row, index_col), in target_memory (TEXTRACT).",
		Args:   []ArgSpec{{Name: "src"}, {Name: "index_row"}, {Name: "index_col"}, {Name: "shape"}},
		Kwargs: []KwargSpec{{Name: "target_memory", Kind: KwMemory, Required: true}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			src, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			if len(src.Shape) != 2 {
				return nil, c.Fail(0, "a 2-D tile", src)
			}
			for i := 1; i <= 2; i++ {
				if _, err := c.IntScalar(i); err != nil {
					return nil, err
				}
			}
			shape, err := staticShape(c, 3, 2)
			if err != nil {
				return nil, err
			}
			if err := regionFits(c, 1, []Expr{c.Args[1], c.Args[2]}, shape, src.Shape, "the source"); err != nil {
				return nil, err
			}
			mem, _ := c.Kwargs.Get("target_memory")
			m, _ := mem.(MemorySpace)
			return NewTileType(shape, src.DType, m, nil), nil
		},
	})
}
