package ir

import "fmt"

// Comparisons (upstream's tile.cmp, tile.cmps, tile.sel, tensor.cmp).
// tile.cmp / tile.cmps compare elementwise and give a packed predicate
// mask: a UINT8 tile whose row holds one bit per element, element j in
// byte j/8 at bit j%8, the row rounded up to 32 bytes. tile.sel picks lhs
// where a mask bit is set, rhs elsewhere (tmp is TSEL's scratch).
// tensor.cmp gives 1 where the comparison holds and 0 elsewhere, in lhs's
// dtype; ConvertTensorToTileOps lowers it to cmp, two fulls and sel.

// CmpTypes are the comparisons cmp_type selects, by number.
var CmpTypes = []string{"eq", "ne", "lt", "le", "gt", "ge"}

// packedMask is the mask tile type of a comparison of t.
func packedMask(t *TileType) *TileType {
	last := len(t.Shape) - 1
	shape := append([]Expr(nil), t.Shape...)
	valid := append([]Expr(nil), tileValid(t)...)
	if n, ok := ConstValue(t.Shape[last]); ok {
		shape[last] = Int(((n+7)/8 + 31) / 32 * 32)
	}
	if n, ok := ConstValue(valid[last]); ok {
		valid[last] = Int((n + 7) / 8)
	}
	var view *TileView
	if !SameDims(valid, shape) {
		v := ImplicitTileView(shape, MemVec)
		v.ValidShape = valid
		view = &v
	}
	return NewTileType(shape, UINT8, MemVec, view)
}

func init() {
	cmpType := KwargSpec{Name: "cmp_type", Kind: KwInt, Default: int64(0)}
	checkCmp := func(c *DeduceCtx) error {
		if k := c.Kwargs.Int("cmp_type", 0); k < 0 || k >= int64(len(CmpTypes)) {
			return c.FailKwarg("cmp_type", "a comparison 0..5 (eq, ne, lt, le, gt, ge)", fmt.Sprint(k))
		}
		return nil
	}
	TileCmp = RegisterOp(&OpDef{
		Name: "tile.cmp", Class: ClassCompute, Category: "TileOp", OutMemory: MemVec,
		Doc:    "Compare two tiles elementwise (cmp_type: eq, ne, lt, le, gt, ge) into a packed predicate mask, one bit per element.",
		Args:   []ArgSpec{{Name: "lhs"}, {Name: "rhs"}},
		Kwargs: []KwargSpec{cmpType},
		Deduce: func(c *DeduceCtx) (Type, error) {
			l, err := vecTile(c, 0)
			if err != nil {
				return nil, err
			}
			if _, err := vecTileLike(c, 1, l, "lhs"); err != nil {
				return nil, err
			}
			return packedMask(l), checkCmp(c)
		},
	})
	TileCmps = RegisterOp(&OpDef{
		Name: "tile.cmps", Class: ClassCompute, Category: "TileOp", OutMemory: MemVec,
		Doc:    "Compare a tile with a scalar elementwise into a packed predicate mask, one bit per element.",
		Args:   []ArgSpec{{Name: "lhs"}, {Name: "rhs"}},
		Kwargs: []KwargSpec{cmpType},
		Deduce: func(c *DeduceCtx) (Type, error) {
			l, err := vecTile(c, 0)
			if err != nil {
				return nil, err
			}
			if _, err := c.Scalar(1); err != nil {
				return nil, err
			}
			return packedMask(l), checkCmp(c)
		},
	})
	TileSel = RegisterOp(&OpDef{
		Name: "tile.sel", Class: ClassCompute, Category: "TileOp", OutMemory: MemVec,
		Doc:  "lhs where the packed predicate mask's bit is set, rhs elsewhere (tmp: TSEL's scratch, UINT8 [1, 32]).",
		Args: []ArgSpec{{Name: "mask"}, {Name: "lhs"}, {Name: "rhs"}, {Name: "tmp"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if err := maskArg(c, 0); err != nil {
				return nil, err
			}
			l, err := vecTile(c, 1)
			if err != nil {
				return nil, err
			}
			if _, err := vecTileLike(c, 2, l, "lhs"); err != nil {
				return nil, err
			}
			if _, err := c.Tile(3); err != nil {
				return nil, err
			}
			return vecLike(l), nil
		},
	})
	TensorCmp = RegisterOp(&OpDef{
		Name: "tensor.cmp", Class: ClassCompute, Category: "TensorOp",
		Doc:    "1 where lhs compares true with rhs (a tensor like it, or a scalar), 0 elsewhere, in lhs's dtype.",
		Args:   []ArgSpec{{Name: "lhs"}, {Name: "rhs"}},
		Kwargs: []KwargSpec{cmpType},
		Deduce: func(c *DeduceCtx) (Type, error) {
			l, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			if _, scalar := c.Args[1].Type().(*ScalarType); !scalar {
				r, err := c.TensorLike(1)
				if err != nil {
					return nil, err
				}
				if r.DType != l.DType || !SameDims(r.Shape, l.Shape) {
					return nil, c.Fail(1, "a tensor like lhs, "+DefaultFormat.Dims(l.Shape)+" of "+l.DType.String()+", or a scalar", c.Args[1])
				}
			}
			return &TensorType{Shape: l.Shape, DType: l.DType}, checkCmp(c)
		},
	})
}

// maskArg requires argument i to be a packed predicate mask: a UINT8
// Vec tile, one bit per element, as tile.cmp writes it.
func maskArg(c *DeduceCtx, i int) error {
	m, err := vecTile(c, i)
	if err != nil {
		return err
	}
	if m.DType != UINT8 {
		return c.Fail(i, "a packed predicate mask (UINT8, from tile.cmp)", m)
	}
	return nil
}
