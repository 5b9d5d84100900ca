package ir

// tile.gatherb (upstream's tile_ops/gather.cpp, PTOAS pto.tgatherb): a
// 32-byte block gather. Each UINT32 of the offset tile is the byte offset
// of one 32-byte block of src; offset row r, column b fills bytes
// [32b, 32b + 32) of result row r, read as output_dtype (src's by default),
// so a result row holds offset_cols * 32 / sizeof(output_dtype) elements.

// gatherbDType reports whether dt is one of TGATHERB's element types.
func gatherbDType(dt DataType) bool {
	switch dt {
	case INT8, UINT8, INT16, UINT16, INT32, UINT32, FP16, BF16, FP32:
		return true
	}
	return false
}

func init() {
	TileGatherb = RegisterOp(&OpDef{
		Name: "tile.gatherb", Class: ClassCompute, Category: "TileOp",
		Doc: "Gather 32-byte blocks of src at the UINT32 byte offsets of an offset tile (one block per offset), " +
			"read as output_dtype (TGATHERB).",
		Args:      []ArgSpec{{Name: "src", Memory: MemVec}, {Name: "offset", Memory: MemVec}},
		Kwargs:    []KwargSpec{{Name: "output_dtype", Kind: KwDType}},
		OutMemory: MemVec,
		Deduce: func(c *DeduceCtx) (Type, error) {
			src, err := vecTile(c, 0)
			if err != nil {
				return nil, err
			}
			if !gatherbDType(src.DType) || len(src.Shape) != 2 {
				return nil, c.Fail(0, "a 2-D tile of an 8-, 16- or 32-bit integer, FP16, BF16 or FP32", src)
			}
			out := src.DType
			if dt, ok := c.Kwargs.DType("output_dtype"); ok {
				if !gatherbDType(dt) {
					return nil, c.FailKwarg("output_dtype", "an 8-, 16- or 32-bit integer, FP16, BF16 or FP32", dt.String())
				}
				out = dt
			}
			off, err := vecTile(c, 1)
			if err != nil {
				return nil, err
			}
			cols, ok := ConstValue(off.Shape[len(off.Shape)-1])
			if off.DType != UINT32 || len(off.Shape) != 2 || !ok || cols <= 0 || cols%8 != 0 {
				return nil, c.Fail(1, "a 2-D UINT32 tile of static columns, a multiple of 8 (whole 32-byte rows)", off)
			}
			per := int64(32 / out.Bytes())
			scale := func(d Expr) Expr {
				if v, ok := ConstValue(d); ok {
					return Int(v * per)
				}
				return &BinaryExpr{Op: OpMul, Left: d, Right: Int(per), DType: INDEX}
			}
			shape := []Expr{off.Shape[0], scale(off.Shape[1])}
			valid := tileValid(off)
			var view *TileView
			if v := []Expr{valid[0], scale(valid[1])}; !SameDims(v, shape) {
				view = &TileView{ValidShape: v}
			}
			return NewTileType(shape, out, MemVec, view), nil
		},
	})
}
