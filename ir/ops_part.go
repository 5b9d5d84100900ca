package ir

// Partial-combine ops (TPARTADD, TPARTMUL, TPARTMAX, TPARTMIN): elementwise
// where both operands are valid; where only one is, the result copies it.
// The result is valid over the union of the operands' valid regions, so a
// ragged tile folds into a full one (upstream's tile_ops/elementwise.cpp).

func init() {
	for _, op := range []struct {
		name, doc    string
		tile, tensor **OpDef
	}{
		{"part_add", "lhs + rhs where both are valid; the valid one where only one is.", &TilePartAdd, &TensorPartAdd},
		{"part_mul", "lhs * rhs where both are valid; the valid one where only one is.", &TilePartMul, &TensorPartMul},
		{"part_max", "max(lhs, rhs) where both are valid; the valid one where only one is.", &TilePartMax, &TensorPartMax},
		{"part_min", "min(lhs, rhs) where both are valid; the valid one where only one is.", &TilePartMin, &TensorPartMin},
	} {
		*op.tile = RegisterOp(&OpDef{
			Name: "tile." + op.name, Class: ClassCompute, Category: "TileOp", Doc: op.doc,
			Args: []ArgSpec{{Name: "src0"}, {Name: "src1"}}, OutMemory: MemVec,
			Deduce: func(c *DeduceCtx) (Type, error) {
				var ts [2]*TileType
				var err error
				if ts[0], err = c.Tile(0); err != nil {
					return nil, err
				}
				if ts[0].Memory != MemNone && ts[0].Memory != MemVec {
					return nil, c.Fail(0, "a tile in Vec memory", ts[0])
				}
				if ts[1], err = vecTileLike(c, 1, ts[0], "src0"); err != nil {
					return nil, err
				}
				valid := validUnion(ts[0].Shape, tileValid(ts[0]), tileValid(ts[1]))
				var view *TileView
				if !SameDims(valid, ts[0].Shape) {
					v := ImplicitTileView(ts[0].Shape, MemVec)
					v.ValidShape = valid
					view = &v
				}
				return NewTileType(ts[0].Shape, ts[0].DType, MemVec, view), nil
			},
		})
		*op.tensor = RegisterOp(&OpDef{
			Name: "tensor." + op.name, Class: ClassCompute, Category: "TensorOp", Doc: op.doc, TileForm: *op.tile,
			Args: []ArgSpec{{Name: "src0"}, {Name: "src1"}},
			Deduce: func(c *DeduceCtx) (Type, error) {
				l, err := c.TensorLike(0)
				if err != nil {
					return nil, err
				}
				r, err := c.TensorLike(1)
				if err != nil {
					return nil, err
				}
				if r.DType != l.DType || !SameDims(r.Shape, l.Shape) {
					return nil, c.Fail(1, "a tensor like src0, "+DefaultFormat.Dims(l.Shape)+" of "+l.DType.String(), c.Args[1])
				}
				out := &TensorType{Shape: l.Shape, DType: l.DType}
				if valid := validUnion(l.Shape, tensorValid(l), tensorValid(r)); !SameDims(valid, l.Shape) {
					out.View = &TensorView{ValidShape: valid}
				}
				return out, nil
			},
		})
	}
}

// tileValid is a tile's valid shape (its shape when it has none).
func tileValid(t *TileType) []Expr {
	if t.View != nil && len(t.View.ValidShape) == len(t.Shape) {
		return t.View.ValidShape
	}
	return t.Shape
}

// validUnion is the valid shape covering both a and b: per dimension the
// larger static extent; a dimension either side leaves dynamic is the
// whole shape's.
func validUnion(shape, a, b []Expr) []Expr {
	out := make([]Expr, len(shape))
	for d := range shape {
		x, okA := ConstValue(a[d])
		y, okB := ConstValue(b[d])
		switch {
		case okA && okB:
			out[d] = Int(max(x, y))
		case SameDims([]Expr{a[d]}, []Expr{b[d]}):
			out[d] = a[d]
		default:
			out[d] = shape[d]
		}
	}
	return out
}
