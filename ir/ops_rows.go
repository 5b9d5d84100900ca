package ir

import "fmt"

// Row reductions and row broadcasts on Vec tiles (upstream's
// tile_ops/reduction.cpp and broadcast.cpp): what a softmax or a norm is
// made of.

// rowReductions fold the last axis of a tile into one column (keepdim),
// using a scratch tile at least as large as the input (exactly as large
// for the index folds, argmax and argmin, whose result is the INT32
// position of the extreme element).
var rowReductions = []struct {
	name, doc    string
	dtypes       []DataType // nil: any
	index        bool
	tile, tensor **OpDef
}{
	{"row_sum", "Row-wise sum: [..., rows, cols] -> [..., rows, 1] (TROWSUM).", nil, false, &TileRowSum, &TensorRowSum},
	{"row_max", "Row-wise maximum: [..., rows, cols] -> [..., rows, 1] (TROWMAX).", nil, false, &TileRowMax, &TensorRowMax},
	{"row_min", "Row-wise minimum: [..., rows, cols] -> [..., rows, 1] (TROWMIN).", []DataType{INT16, INT32, FP16, FP32}, false, &TileRowMin, &TensorRowMin},
	{"row_prod", "Row-wise product: [..., rows, cols] -> [..., rows, 1] (TROWPROD).", nil, false, &TileRowProd, &TensorRowProd},
	{"row_argmax", "Row-wise argmax: the column of each row's maximum, [..., rows, 1] INT32 (TROWARGMAX).", nil, true, &TileRowArgmax, &TensorRowArgmax},
	{"row_argmin", "Row-wise argmin: the column of each row's minimum, [..., rows, 1] INT32 (TROWARGMIN).", nil, true, &TileRowArgmin, &TensorRowArgmin},
}

// colReductions fold the first axis of a tile into one row (keepdim);
// col_sum may take a scratch tile, which selects the binary-tree path.
var colReductions = []struct {
	name, doc    string
	scratch      bool
	index        bool // argmax/argmin: INT32 positions, the scratch tile required and shaped like the input
	tile, tensor **OpDef
}{
	{"col_sum", "Column-wise sum: [rows, ...] -> [1, ...] (TCOLSUM); a second tile is scratch for the binary-tree path.", true, false, &TileColSum, &TensorColSum},
	{"col_max", "Column-wise maximum: [rows, ...] -> [1, ...] (TCOLMAX).", false, false, &TileColMax, &TensorColMax},
	{"col_min", "Column-wise minimum: [rows, ...] -> [1, ...] (TCOLMIN).", false, false, &TileColMin, &TensorColMin},
	{"col_prod", "Column-wise product: [rows, ...] -> [1, ...] (TCOLPROD).", false, false, &TileColProd, &TensorColProd},
	{"col_argmax", "Column-wise argmax: the row of each column's maximum, [1, ...] INT32 (TCOLARGMAX).", true, true, &TileColArgmax, &TensorColArgmax},
	{"col_argmin", "Column-wise argmin: the row of each column's minimum, [1, ...] INT32 (TCOLARGMIN).", true, true, &TileColArgmin, &TensorColArgmin},
}

// rowExpands combine a tile [rows, cols] with a column [rows, 1]
// broadcast along each row; row_expand itself copies the column into
// every column of the target's shape.
var rowExpands = []struct {
	name, doc    string
	float        bool // defined on floating-point elements only
	tile, tensor **OpDef
}{
	{"row_expand", "The column row_vec [rows, 1] repeated into every column of target's shape (TROWEXPAND).", false, &TileRowExpand, &TensorRowExpand},
	{"row_expand_add", "tile + row_vec, row_vec [rows, 1] broadcast along each row.", false, &TileRowExpandAdd, &TensorRowExpandAdd},
	{"row_expand_sub", "tile - row_vec, row_vec [rows, 1] broadcast along each row.", false, &TileRowExpandSub, &TensorRowExpandSub},
	{"row_expand_mul", "tile * row_vec, row_vec [rows, 1] broadcast along each row.", false, &TileRowExpandMul, &TensorRowExpandMul},
	{"row_expand_div", "tile / row_vec, row_vec [rows, 1] broadcast along each row.", false, &TileRowExpandDiv, &TensorRowExpandDiv},
	{"row_expand_max", "max(tile, row_vec), row_vec [rows, 1] broadcast along each row (TROWEXPANDMAX).", false, &TileRowExpandMax, &TensorRowExpandMax},
	{"row_expand_min", "min(tile, row_vec), row_vec [rows, 1] broadcast along each row (TROWEXPANDMIN).", false, &TileRowExpandMin, &TensorRowExpandMin},
	{"row_expand_expdif", "exp(tile - row_vec), row_vec [rows, 1] broadcast along each row (TROWEXPANDEXPDIF).", true, &TileRowExpandExpdif, &TensorRowExpandExpdif},
}

// colExpands combine a tile [rows, cols] with a row [1, cols] broadcast
// down each column; col_expand itself copies the row into every row of
// the target's shape.
var colExpands = []struct {
	name, doc    string
	float        bool
	tile, tensor **OpDef
}{
	{"col_expand", "The row col_vec [1, cols] repeated into every row of target's shape.", false, &TileColExpand, &TensorColExpand},
	{"col_expand_add", "tile + col_vec, col_vec [1, cols] broadcast down each column.", false, &TileColExpandAdd, &TensorColExpandAdd},
	{"col_expand_sub", "tile - col_vec, col_vec [1, cols] broadcast down each column.", false, &TileColExpandSub, &TensorColExpandSub},
	{"col_expand_mul", "tile * col_vec, col_vec [1, cols] broadcast down each column.", false, &TileColExpandMul, &TensorColExpandMul},
	{"col_expand_div", "tile / col_vec, col_vec [1, cols] broadcast down each column.", false, &TileColExpandDiv, &TensorColExpandDiv},
	{"col_expand_max", "max(tile, col_vec), col_vec [1, cols] broadcast down each column (TCOLEXPANDMAX).", false, &TileColExpandMax, &TensorColExpandMax},
	{"col_expand_min", "min(tile, col_vec), col_vec [1, cols] broadcast down each column (TCOLEXPANDMIN).", false, &TileColExpandMin, &TensorColExpandMin},
	{"col_expand_expdif", "exp(tile - col_vec), col_vec [1, cols] broadcast down each column (TCOLEXPANDEXPDIF).", true, &TileColExpandExpdif, &TensorColExpandExpdif},
}

// vecTile checks that argument i is a tile of at least two dimensions in
// Vec memory (or none yet).
func vecTile(c *DeduceCtx, i int) (*TileType, error) {
	t, err := c.Tile(i)
	if err != nil {
		return nil, err
	}
	if t.Memory != MemNone && t.Memory != MemVec {
		return nil, c.Fail(i, "a tile in Vec memory", t)
	}
	if len(t.Shape) < 2 {
		return nil, c.Fail(i, "a tile of at least 2 dimensions", t)
	}
	return t, nil
}

func init() {
	for _, op := range rowReductions {
		op := op
		*op.tile = RegisterOp(&OpDef{
			Name: "tile." + op.name, Class: ClassCompute, Category: "TileOp", Doc: op.doc,
			Args:      []ArgSpec{{Name: "tile"}, {Name: "tmp_tile"}},
			OutMemory: MemVec,
			Deduce: func(c *DeduceCtx) (Type, error) {
				t, err := vecTile(c, 0)
				if err != nil {
					return nil, err
				}
				if op.dtypes != nil && !hasDType(op.dtypes, t.DType) {
					return nil, c.Fail(0, fmt.Sprintf("elements of %s", dtypeList(op.dtypes)), t.DType.String())
				}
				tmp, err := c.Tile(1)
				if err != nil {
					return nil, err
				}
				if tmp.DType != t.DType || len(tmp.Shape) != len(t.Shape) {
					return nil, c.Fail(1, "a scratch tile of the input's element type and rank, "+DefaultFormat.Dims(t.Shape)+" of "+t.DType.String(), tmp)
				}
				if op.index && !SameDims(tmp.Shape, t.Shape) {
					return nil, c.Fail(1, "a scratch tile shaped exactly like the input, "+DefaultFormat.Dims(t.Shape), tmp)
				}
				for d := range t.Shape {
					in, ok1 := ConstValue(t.Shape[d])
					sc, ok2 := ConstValue(tmp.Shape[d])
					if ok1 && ok2 && sc < in {
						return nil, c.Fail(1, "a scratch tile at least as large as the input, "+DefaultFormat.Dims(t.Shape), tmp)
					}
				}
				n := len(t.Shape)
				shape := append(append([]Expr(nil), t.Shape[:n-1]...), Int(1))
				valid := append(append([]Expr(nil), tileValid(t)[:n-1]...), Int(1))
				view := ImplicitTileView(shape, MemVec)
				view.BLayout = ColMajor
				view.ValidShape = valid
				return NewTileType(shape, reducedType(t.DType, op.index), MemVec, &view), nil
			},
		})
	}
	for _, op := range colReductions {
		op := op
		min, max := 1, 1
		if op.scratch {
			max = 2
		}
		if op.index {
			min = 2
		}
		*op.tile = RegisterOp(&OpDef{
			Name: "tile." + op.name, Class: ClassCompute, Category: "TileOp", Doc: op.doc,
			Args:      []ArgSpec{{Name: "tile"}, {Name: "tmp_tile"}},
			MinArgs:   min,
			MaxArgs:   max,
			OutMemory: MemVec,
			Deduce: func(c *DeduceCtx) (Type, error) {
				t, err := vecTile(c, 0)
				if err != nil {
					return nil, err
				}
				if c.N() == 2 {
					tmp, err := c.Tile(1)
					if err != nil {
						return nil, err
					}
					if tmp.DType != t.DType {
						return nil, c.Fail(1, "a scratch tile of "+t.DType.String(), tmp)
					}
					if op.index && !SameDims(tmp.Shape, t.Shape) {
						return nil, c.Fail(1, "a scratch tile shaped exactly like the input, "+DefaultFormat.Dims(t.Shape), tmp)
					}
				}
				shape := append([]Expr{Int(1)}, t.Shape[1:]...)
				valid := append([]Expr{Int(1)}, tileValid(t)[1:]...)
				view := ImplicitTileView(shape, MemVec)
				view.BLayout = RowMajor
				if !SameDims(valid, shape) {
					view.ValidShape = valid
				}
				return NewTileType(shape, reducedType(t.DType, op.index), MemVec, &view), nil
			},
		})
	}
	for _, op := range rowExpands {
		first := "tile"
		if op.name == "row_expand" {
			first = "target"
		}
		def := &OpDef{
			Name: "tile." + op.name, Class: ClassCompute, Category: "TileOp", Doc: op.doc,
			Args:      []ArgSpec{{Name: first}, {Name: "row_vec"}},
			OutMemory: MemVec,
			Deduce:    broadcastDeduce("column", columnOf, op.float),
		}
		if op.name == "row_expand_add" {
			// Upstream's TROWEXPANDADD also takes the row's value packed
			// in a 32-byte block per row (repeated across the columns), and
			// an optional scratch tile.
			def.Doc = "tile + row_vec along each row: row_vec a column [rows, 1], or a packed 32-byte block per row " +
				"[rows, 32 / element bytes] repeated across the columns; tmp an optional scratch tile (TROWEXPANDADD)."
			def.Args = append(def.Args, ArgSpec{Name: "tmp"})
			def.MinArgs, def.MaxArgs = 2, 3
			def.Deduce = rowExpandAddDeduce
		}
		*op.tile = RegisterOp(def)
	}
}

// rowExpandAddDeduce types tile.row_expand_add: a column or a packed
// 32-byte row block, of the tile's element type (INT8, INT16, INT32,
// FP16 or FP32 for the packed form and with tmp, as upstream's), and an
// optional Vec scratch tile.
func rowExpandAddDeduce(c *DeduceCtx) (Type, error) {
	t, err := vecTile(c, 0)
	if err != nil {
		return nil, err
	}
	r, err := vecTile(c, 1)
	if err != nil {
		return nil, err
	}
	col := columnOf(t.Shape)
	if r.DType == t.DType && SameDims(r.Shape, col) && c.N() == 2 {
		return vecLike(t), nil
	}
	switch t.DType {
	case INT8, INT16, INT32, FP16, FP32:
	default:
		return nil, c.Fail(0, "a tile of INT8, INT16, INT32, FP16 or FP32 (the packed row and tmp forms)", t)
	}
	if len(t.Shape) != 2 {
		return nil, c.Fail(0, "a 2-D tile", t)
	}
	packed := []Expr{t.Shape[0], Int(int64(32 / t.DType.Bytes()))}
	if r.DType != t.DType || !SameDims(r.Shape, col) && !SameDims(r.Shape, packed) {
		return nil, c.Fail(1, "a column "+DefaultFormat.Dims(col)+" or a packed 32-byte row block "+DefaultFormat.Dims(packed)+" of "+t.DType.String(), r)
	}
	if c.N() == 3 {
		if _, err := vecTile(c, 2); err != nil {
			return nil, err
		}
	}
	return vecLike(t), nil
}

// columnOf is the [..., rows, 1] column a row broadcast takes for shape.
func columnOf(shape []Expr) []Expr {
	return append(append([]Expr(nil), shape[:len(shape)-1]...), Int(1))
}

// rowOf is the [1, ..., cols] row a column broadcast takes for shape.
func rowOf(shape []Expr) []Expr {
	out := make([]Expr, len(shape))
	for d := range out {
		out[d] = Int(1)
	}
	out[len(out)-1] = shape[len(shape)-1]
	return out
}

// broadcastDeduce types tile (op) vec, where vec is the what (column or
// row) of tile's shape that want gives: a Vec tile like tile.
func broadcastDeduce(what string, want func([]Expr) []Expr, float bool) func(c *DeduceCtx) (Type, error) {
	return func(c *DeduceCtx) (Type, error) {
		t, err := vecTile(c, 0)
		if err != nil {
			return nil, err
		}
		if float && !t.DType.IsFloat() {
			return nil, c.Fail(0, "elements of a floating-point type", t.DType.String())
		}
		r, err := vecTile(c, 1)
		if err != nil {
			return nil, err
		}
		if w := want(t.Shape); r.DType != t.DType || !SameDims(r.Shape, w) {
			return nil, c.Fail(1, "a "+what+" "+DefaultFormat.Dims(w)+" of "+t.DType.String(), r)
		}
		return vecLike(t), nil
	}
}

// rowReductionScratch is the tmp_tile upstream's conversion gives a row
// reduction: the input's shape with the last dimension at least 128.
func rowReductionScratch(_ *Call, in *TileType) (string, []Expr, bool) {
	shape := append([]Expr(nil), in.Shape...)
	if v, ok := ConstValue(shape[len(shape)-1]); !ok || v < 128 {
		shape[len(shape)-1] = Int(128)
	}
	return "tmp_tile", shape, true
}

func init() {
	for _, op := range colExpands {
		first := "tile"
		if op.name == "col_expand" {
			first = "target"
		}
		*op.tile = RegisterOp(&OpDef{
			Name: "tile." + op.name, Class: ClassCompute, Category: "TileOp", Doc: op.doc,
			Args:      []ArgSpec{{Name: first}, {Name: "col_vec"}},
			OutMemory: MemVec,
			Deduce:    broadcastDeduce("row", rowOf, op.float),
		})
	}
	TileReshape = RegisterOp(&OpDef{
		Name: "tile.reshape", Class: ClassCompute, Category: "TileOp", ResultAlias: "tile", MemRefFrom: "tile",
		Doc:  "The same on-chip data seen with another shape of as many elements (no data moves).",
		Args: []ArgSpec{{Name: "tile"}, {Name: "shape"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			shape, err := reshapeTo(c, t.Shape, "the tile's")
			if err != nil {
				return nil, err
			}
			if !SameDims(tileValid(t), t.Shape) {
				return nil, c.Fail(0, "a fully valid tile (reshaping a partial valid region is not supported)", t)
			}
			return NewTileType(shape, t.DType, t.Memory, nil), nil
		},
	})
}

func init() {
	TileTransposeView = RegisterOp(&OpDef{
		Name: "tile.transpose_view", Class: ClassCompute, Category: "TileOp", ResultAlias: "input", MemRefFrom: "input",
		Doc: "The same on-chip bytes seen transposed (no data moves): the last two dims swap and each layout " +
			"flips its major-ness (NZ<->ZN), as a Mat tile is read as the transposed operand of a matmul.",
		Args: []ArgSpec{{Name: "input"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			n := len(t.Shape)
			if n < 2 {
				return nil, c.Fail(0, "a tile of at least 2 dimensions", t)
			}
			shape := append([]Expr(nil), t.Shape...)
			shape[n-2], shape[n-1] = shape[n-1], shape[n-2]
			src := t.EffectiveView()
			flip := func(l TileLayout) TileLayout {
				switch l {
				case RowMajor:
					return ColMajor
				case ColMajor:
					return RowMajor
				}
				return l
			}
			valid := append([]Expr(nil), tileValid(t)...)
			valid[n-2], valid[n-1] = valid[n-1], valid[n-2]
			view := TileView{BLayout: flip(src.BLayout), SLayout: flip(src.SLayout), Fractal: src.Fractal, Pad: src.Pad}
			if !SameDims(valid, shape) {
				view.ValidShape = valid
			}
			return NewTileType(shape, t.DType, t.Memory, &view), nil
		},
	})
	TileConcat = RegisterOp(&OpDef{
		Name: "tile.concat", Class: ClassCompute, Category: "TileOp",
		Doc:       "src0 [rows, c0] and src1 [rows, c1] side by side: [rows, c0 + c1] (TCONCAT).",
		Args:      []ArgSpec{{Name: "src0"}, {Name: "src1"}},
		OutMemory: MemVec,
		Deduce: func(c *DeduceCtx) (Type, error) {
			a, err := vecTile(c, 0)
			if err != nil {
				return nil, err
			}
			b, err := vecTile(c, 1)
			if err != nil {
				return nil, err
			}
			if len(a.Shape) != 2 || len(b.Shape) != 2 {
				return nil, c.FailCall("2-D tiles", DefaultFormat.Dims(a.Shape)+" and "+DefaultFormat.Dims(b.Shape))
			}
			if b.DType != a.DType {
				return nil, c.Fail(1, "a tile of src0's element type "+a.DType.String(), b)
			}
			r0, ok0 := ConstValue(a.Shape[0])
			r1, ok1 := ConstValue(b.Shape[0])
			if ok0 && ok1 && r0 != r1 {
				return nil, c.Fail(1, fmt.Sprintf("a tile of %d rows (src0's)", r0), b)
			}
			var cols Expr
			c0, ok0 := ConstValue(a.Shape[1])
			c1, ok1 := ConstValue(b.Shape[1])
			if ok0 && ok1 {
				cols = Int(c0 + c1)
			} else {
				cols = &BinaryExpr{Op: OpAdd, Left: a.Shape[1], Right: b.Shape[1], DType: INDEX}
			}
			return NewTileType([]Expr{a.Shape[0], cols}, a.DType, MemVec, nil), nil
		},
	})
}

func hasDType(ds []DataType, d DataType) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

func dtypeList(ds []DataType) string {
	s := ""
	for i, d := range ds {
		if i > 0 {
			s += ", "
		}
		s += d.String()
	}
	return s
}

// The tensor forms of the row and column ops (registered after the tile
// forms above, which they name): the same ops on tensors,
// which ConvertTensorToTileOps lowers to their tile forms. A row
// reduction's scratch tile is allocated there, as upstream's conversion
// allocates it, so a tensor author never writes one.
func init() {
	matrix := func(c *DeduceCtx, i int) (TensorLike, error) {
		t, err := c.TensorLike(i)
		if err == nil && len(t.Shape) < 2 {
			err = c.Fail(i, "a tensor of at least 2 dimensions", c.Args[i])
		}
		return t, err
	}
	for _, op := range rowReductions {
		op := op
		scratch := rowReductionScratch
		if op.index {
			scratch = likeInputScratch
		}
		*op.tensor = RegisterOp(&OpDef{
			Name: "tensor." + op.name, Class: ClassCompute, Category: "TensorOp", TileForm: *op.tile,
			Doc:         op.doc + " A tensor (lowered to the tile form with a scratch tile).",
			Args:        []ArgSpec{{Name: "input"}},
			TileScratch: scratch,
			Deduce: func(c *DeduceCtx) (Type, error) {
				t, err := matrix(c, 0)
				if err != nil {
					return nil, err
				}
				if op.dtypes != nil && !hasDType(op.dtypes, t.DType) {
					return nil, c.Fail(0, fmt.Sprintf("elements of %s", dtypeList(op.dtypes)), t.DType.String())
				}
				return &TensorType{Shape: columnOf(t.Shape), DType: reducedType(t.DType, op.index)}, nil
			},
		})
	}
	for _, op := range colReductions {
		op := op
		d := &OpDef{
			Name: "tensor." + op.name, Class: ClassCompute, Category: "TensorOp", TileForm: *op.tile,
			Doc:  op.doc + " A tensor (lowered to the sequential tile form).",
			Args: []ArgSpec{{Name: "input"}},
			Deduce: func(c *DeduceCtx) (Type, error) {
				t, err := matrix(c, 0)
				if err != nil {
					return nil, err
				}
				return &TensorType{Shape: append([]Expr{Int(1)}, t.Shape[1:]...), DType: reducedType(t.DType, op.index)}, nil
			},
		}
		if op.index {
			d.Doc = op.doc + " A tensor (lowered to the tile form with a scratch tile)."
			d.TileScratch = likeInputScratch
		}
		*op.tensor = RegisterOp(d)
	}
	expand := func(what, vec string, want func([]Expr) []Expr, float bool) func(c *DeduceCtx) (Type, error) {
		return func(c *DeduceCtx) (Type, error) {
			t, err := matrix(c, 0)
			if err != nil {
				return nil, err
			}
			if float && !t.DType.IsFloat() {
				return nil, c.Fail(0, "elements of a floating-point type", t.DType.String())
			}
			r, err := c.TensorLike(1)
			if err != nil {
				return nil, err
			}
			if w := want(t.Shape); r.DType != t.DType || !SameDims(r.Shape, w) {
				return nil, c.Fail(1, "a "+what+" "+DefaultFormat.Dims(w)+" of "+t.DType.String(), c.Args[1])
			}
			return &TensorType{Shape: t.Shape, DType: t.DType}, nil
		}
	}
	for _, op := range rowExpands {
		first := "tensor"
		if op.name == "row_expand" {
			first = "target"
		}
		*op.tensor = RegisterOp(&OpDef{
			Name: "tensor." + op.name, Class: ClassCompute, Category: "TensorOp", TileForm: *op.tile,
			Doc:    op.doc + " Tensors (lowered to the tile form).",
			Args:   []ArgSpec{{Name: first}, {Name: "row_vec"}},
			Deduce: expand("column", "row_vec", columnOf, op.float),
		})
	}
	for _, op := range colExpands {
		first := "tensor"
		if op.name == "col_expand" {
			first = "target"
		}
		*op.tensor = RegisterOp(&OpDef{
			Name: "tensor." + op.name, Class: ClassCompute, Category: "TensorOp", TileForm: *op.tile,
			Doc:    op.doc + " Tensors (lowered to the tile form).",
			Args:   []ArgSpec{{Name: first}, {Name: "col_vec"}},
			Deduce: expand("row", "col_vec", rowOf, op.float),
		})
	}
}

// likeInputScratch is the tmp_tile upstream's conversion gives argmax and
// argmin: shaped exactly like the input.
func likeInputScratch(_ *Call, in *TileType) (string, []Expr, bool) {
	return "tmp_tile", in.Shape, true
}

// reducedType is a reduction's element type: INT32 positions for the
// index folds, else the input's type.
func reducedType(dt DataType, index bool) DataType {
	if index {
		return INT32
	}
	return dt
}

// FoldedAxis is the axis a tile reduction folds (row_*: the last, col_*:
// the first) of a tile of rank dims; ok is false for other ops. Split
// vector kernels refuse a reduction along their split axis, as upstream's
// SplitVectorKernel does: each lane would fold only its half.
func FoldedAxis(op *OpDef, dims int) (axis int, ok bool) {
	for _, r := range rowReductions {
		if *r.tile == op {
			return dims - 1, true
		}
	}
	for _, r := range colReductions {
		if *r.tile == op {
			return 0, true
		}
	}
	return 0, false
}
