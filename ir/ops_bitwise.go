package ir

import "strings"

// Bitwise ops on integer elements (upstream's tile_ops/elementwise.cpp
// TAND ... TSHRS and TNOT), each with a tensor form that
// ConvertTensorToTileOps lowers to it. The operators that are Python
// keywords are spelled with a trailing underscore (pl.tile.and_), as
// upstream's DSL and printer spell them. XOR needs a scratch tile on the
// NPU: the tile form takes it last, the tensor form's lowering allocates it.
var bitwiseOps = []struct {
	name, doc    string
	scalar, tmp  bool // rhs is a scalar; the tile form takes a scratch tile last
	unary        bool
	tile, tensor **OpDef
}{
	{"and", "Elementwise lhs & rhs.", false, false, false, &TileAnd, &TensorAnd},
	{"or", "Elementwise lhs | rhs.", false, false, false, &TileOr, &TensorOr},
	{"xor", "Elementwise lhs ^ rhs.", false, true, false, &TileXor, &TensorXor},
	{"shl", "Elementwise lhs << rhs.", false, false, false, &TileShl, &TensorShl},
	{"shr", "Elementwise lhs >> rhs.", false, false, false, &TileShr, &TensorShr},
	{"ands", "lhs & scalar rhs, elementwise.", true, false, false, &TileAnds, &TensorAnds},
	{"ors", "lhs | scalar rhs, elementwise.", true, false, false, &TileOrs, &TensorOrs},
	{"xors", "lhs ^ scalar rhs, elementwise.", true, true, false, &TileXors, &TensorXors},
	{"shls", "lhs << scalar rhs, elementwise.", true, false, false, &TileShls, &TensorShls},
	{"shrs", "lhs >> scalar rhs, elementwise.", true, false, false, &TileShrs, &TensorShrs},
	{"not", "Elementwise ~x.", false, false, true, &TileNot, &TensorNot},
}

func init() {
	for _, op := range bitwiseOps {
		op := op
		spelled := op.name
		if IsPythonKeyword(spelled) {
			// and, or, not: the DSL spelling ends in an underscore.
			spelled += "_"
		}
		intElems := func(c *DeduceCtx, i int, dt DataType) error {
			if !dt.IsInt() {
				return c.Fail(i, "integer elements", dt.String())
			}
			return nil
		}
		rhs := func(c *DeduceCtx) error {
			if !op.scalar {
				return nil
			}
			_, err := c.IntScalar(1)
			return err
		}
		args := []ArgSpec{{Name: "lhs", Memory: MemVec}, {Name: "rhs", Memory: MemVec}}
		if op.unary {
			args = []ArgSpec{{Name: "tile", Memory: MemVec}}
		}
		tileArgs := args
		if op.tmp {
			tileArgs = append(append([]ArgSpec(nil), args...), ArgSpec{Name: "tmp", Memory: MemVec})
		}
		*op.tile = RegisterOp(&OpDef{
			Name: "tile." + op.name, Class: ClassCompute, Category: "TileOp",
			Doc: op.doc + " Vec tiles of integers.", PrintName: "pl.tile." + spelled,
			Args: tileArgs, OutMemory: MemVec,
			Deduce: func(c *DeduceCtx) (Type, error) {
				l, err := c.Tile(0)
				if err != nil {
					return nil, err
				}
				if !vecReadable(c, 0, l) {
					return nil, c.Fail(0, "a tile in Vec memory", l)
				}
				if err := intElems(c, 0, l.DType); err != nil {
					return nil, err
				}
				if !op.unary && !op.scalar {
					if _, err := vecTileLike(c, 1, l, "lhs"); err != nil {
						return nil, err
					}
				}
				if err := rhs(c); err != nil {
					return nil, err
				}
				if op.tmp {
					if _, err := vecTileLike(c, 2, l, "lhs"); err != nil {
						return nil, err
					}
				}
				return vecLike(l), nil
			},
		})
		var scratch func(*Call, *TileType) (string, []Expr, bool)
		if op.tmp {
			scratch = func(_ *Call, in *TileType) (string, []Expr, bool) {
				return strings.TrimSuffix(op.name, "s") + "_tmp", in.Shape, true
			}
		}
		tensorArgs := []ArgSpec{{Name: "lhs"}, {Name: "rhs"}}
		if op.unary {
			tensorArgs = []ArgSpec{{Name: "input"}}
		}
		*op.tensor = RegisterOp(&OpDef{
			Name: "tensor." + op.name, Class: ClassCompute, Category: "TensorOp", TileForm: *op.tile, TileScratch: scratch,
			Doc: op.doc + " Tensors of integers (lowered to the tile form).", PrintName: "pl.tensor." + spelled,
			Args: tensorArgs,
			Deduce: func(c *DeduceCtx) (Type, error) {
				l, err := c.TensorLike(0)
				if err != nil {
					return nil, err
				}
				if err := intElems(c, 0, l.DType); err != nil {
					return nil, err
				}
				if !op.unary && !op.scalar {
					r, err := c.TensorLike(1)
					if err != nil {
						return nil, err
					}
					if r.DType != l.DType || !SameDims(r.Shape, l.Shape) {
						return nil, c.Fail(1, "a tensor like lhs, "+DefaultFormat.Dims(l.Shape)+" of "+l.DType.String(), c.Args[1])
					}
				}
				if err := rhs(c); err != nil {
					return nil, err
				}
				return &TensorType{Shape: l.Shape, DType: l.DType, View: validView(l)}, nil
			},
		})
	}
}

// Tile-by-scalar ops with no tensor form of their own (upstream's
// pl.tile.maximums, pl.tile.minimums, pl.tile.lrelu; pl.maximum of a tile
// and a scalar is tile.maximums, and tensor.maximum of a tensor and a
// scalar lowers to it). registerElementwise registers them first.
var scalarTileOps = []struct {
	name, doc string
	float     bool
	handle    **OpDef
}{
	{"maximums", "max(lhs, scalar rhs), elementwise (TMAXS).", false, &TileMaximums},
	{"minimums", "min(lhs, scalar rhs), elementwise (TMINS).", false, &TileMinimums},
	{"lrelu", "Leaky ReLU: x where x > 0, else slope * x (TLRELU).", true, &TileLrelu},
}

func registerScalarTileOps() {
	for _, op := range scalarTileOps {
		op := op
		second := "rhs"
		if op.name == "lrelu" {
			second = "slope"
		}
		*op.handle = RegisterOp(&OpDef{
			Name: "tile." + op.name, Class: ClassCompute, Category: "TileOp", Doc: op.doc,
			Args:      []ArgSpec{{Name: "tile", Memory: MemVec}, {Name: second}},
			OutMemory: MemVec,
			Deduce: func(c *DeduceCtx) (Type, error) {
				t, err := c.Tile(0)
				if err != nil {
					return nil, err
				}
				if !vecReadable(c, 0, t) {
					return nil, c.Fail(0, "a tile in Vec memory", t)
				}
				if op.float && !t.DType.IsFloat() {
					return nil, c.Fail(0, "elements of a floating-point type", t.DType.String())
				}
				if _, err := c.Scalar(1); err != nil {
					return nil, err
				}
				return vecLike(t), nil
			},
		})
	}
}
