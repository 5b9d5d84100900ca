package ir

// Selection and mask-generating tile ops (upstream's
// tile_ops/elementwise.cpp tile.sels and tile.prelu, tile_ops/memory.cpp
// tile.tri): TSELS picks a tile's element where the packed predicate mask
// (tile.cmp's) has its bit set and a scalar elsewhere; TPRELU is leaky
// ReLU with a slope per element; TTRI writes a 0/1 triangle.

// selsDTypes are the source element types TSELS takes.
var selsDTypes = map[DataType]bool{INT8: true, UINT8: true, INT16: true, UINT16: true, INT32: true, UINT32: true, FP16: true, FP32: true}

// triDTypes are the element types TTRI writes.
var triDTypes = map[DataType]bool{INT8: true, UINT8: true, INT16: true, INT32: true, UINT16: true, UINT32: true, FP16: true, BF16: true, FP32: true}

func init() {
	TileSels = RegisterOp(&OpDef{
		Name: "tile.sels", Class: ClassCompute, Category: "TileOp", OutMemory: MemVec,
		Doc: "src where the packed predicate mask's bit is set, scalar elsewhere (tmp: TSELS's scratch). The mask is " +
			"bits in the bytes of its rows, carried in a tile of any 8-, 16- or 32-bit integer type.",
		Args: []ArgSpec{{Name: "mask", Memory: MemVec}, {Name: "src", Memory: MemVec}, {Name: "tmp", Memory: MemVec}, {Name: "scalar"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			// Upstream takes any 8-, 16- or 32-bit integer tile as the
			// mask's carrier: its bytes, little-endian, are the bits.
			m, err := vecTile(c, 0)
			if err != nil {
				return nil, err
			}
			switch m.DType {
			case INT8, UINT8, INT16, UINT16, INT32, UINT32:
			default:
				return nil, c.Fail(0, "a predicate mask: a tile of an 8-, 16- or 32-bit integer type (tile.cmp's is UINT8)", m)
			}
			if len(m.Shape) != 2 {
				return nil, c.Fail(0, "a rank-2 mask tile", m)
			}
			s, err := vecTile(c, 1)
			if err != nil {
				return nil, err
			}
			if len(s.Shape) != 2 || !selsDTypes[s.DType] {
				return nil, c.Fail(1, "a 2-D tile of INT8, UINT8, INT16, UINT16, INT32, UINT32, FP16 or FP32", s)
			}
			if _, err := vecTile(c, 2); err != nil {
				return nil, err
			}
			if _, err := c.Scalar(3); err != nil {
				return nil, err
			}
			return vecLike(s), nil
		},
	})
	TilePrelu = RegisterOp(&OpDef{
		Name: "tile.prelu", Class: ClassCompute, Category: "TileOp", OutMemory: MemVec,
		Doc:  "Parametric ReLU: x where x > 0, else slope * x, slope a tile like x (TPRELU; tmp its scratch).",
		Args: []ArgSpec{{Name: "tile", Memory: MemVec}, {Name: "slope", Memory: MemVec}, {Name: "tmp", Memory: MemVec}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := vecTile(c, 0)
			if err != nil {
				return nil, err
			}
			if len(t.Shape) != 2 || (t.DType != FP16 && t.DType != FP32) {
				return nil, c.Fail(0, "a 2-D tile of FP16 or FP32", t)
			}
			if _, err := vecTileLike(c, 1, t, "tile"); err != nil {
				return nil, err
			}
			if _, err := vecTile(c, 2); err != nil {
				return nil, err
			}
			return vecLike(t), nil
		},
	})
	TileTri = RegisterOp(&OpDef{
		Name: "tile.tri", Class: ClassCompute, Category: "TileOp",
		Doc: "A 0/1 triangle: 1 where col <= row + diagonal (upper: col >= row + diagonal); only valid_shape " +
			"is written (TTRI).",
		Args:    []ArgSpec{{Name: "diagonal", Int32: true}, {Name: "shape"}, {Name: "valid_shape"}},
		MinArgs: 2, MaxArgs: 3,
		Kwargs: []KwargSpec{{Name: "dtype", Kind: KwDType, Default: INT32}, {Name: "upper", Kind: KwBool, Default: false}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if dt, err := c.Scalar(0); err != nil || dt != INT32 {
				return nil, c.Fail(0, "an INT32 scalar", c.Args[0])
			}
			shape, err := staticShape(c, 1, 2)
			if err != nil {
				return nil, err
			}
			var valid []Expr
			if c.N() == 3 {
				if valid, err = validInside(c, 2, shape); err != nil {
					return nil, err
				}
			}
			dt := INT32
			if v, ok := c.Kwargs.DType("dtype"); ok {
				dt = v
			}
			if !triDTypes[dt] {
				return nil, c.FailKwarg("dtype", "one of INT8, UINT8, INT16, INT32, UINT16, UINT32, FP16, BF16, FP32", dt.String())
			}
			return generatedTile(shape, dt, valid), nil
		},
	})
}
