package ir

import "fmt"

// Reinterpreting bytes: tile.reinterpret_view (and tensor.reinterpret_view,
// lowered to it) sees a packed, fully valid tile's bytes as another
// element type. Without a shape the contiguous (last) dimension scales by
// the byte ratio of the two types: an FP32 [8, 16] seen as INT16 is
// [8, 32]; with one, it must hold as many bytes. No data moves: the
// result shares the source's buffer.

// reinterpretDTypes are the element types upstream reinterprets between.
var reinterpretDTypes = []DataType{INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, FP16, FP32, BF16}

func reinterpretDeduce(tile bool) func(c *DeduceCtx) (Type, error) {
	return func(c *DeduceCtx) (Type, error) {
		var shape []Expr
		var src DataType
		var mem MemorySpace
		if tile {
			t, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			if !SameDims(tileValid(t), t.Shape) {
				return nil, c.Fail(0, "a fully valid tile (a partial valid region is not reinterpreted)", t)
			}
			shape, src, mem = t.Shape, t.DType, t.Memory
		} else {
			t, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			shape, src = t.Shape, t.DType
		}
		dt, _ := c.Kwargs.DType("dtype")
		for _, d := range []DataType{src, dt} {
			if !hasDType(reinterpretDTypes, d) {
				return nil, c.FailKwarg("dtype", "an integer or FP16/BF16/FP32 element type on both sides", d.String())
			}
		}
		srcBytes, ok := NumElements(shape)
		if !ok {
			return nil, c.Fail(0, "a static shape", c.Args[0])
		}
		srcBytes *= int64(src.Bytes())
		var out []Expr
		if c.N() >= 2 {
			given, err := staticShape(c, 1, -1)
			if err != nil {
				return nil, err
			}
			if n, _ := NumElements(given); n*int64(dt.Bytes()) != srcBytes {
				return nil, c.Fail(1, fmt.Sprintf("a shape of %d bytes of %s (the source's)", srcBytes, dt), DefaultFormat.Dims(given))
			}
			out = given
		} else {
			last, _ := ConstValue(shape[len(shape)-1])
			scaled := last * int64(src.Bytes())
			if scaled%int64(dt.Bytes()) != 0 {
				return nil, c.Fail(0, fmt.Sprintf("a last dimension whose %d bytes are whole %s elements", scaled, dt), c.Args[0])
			}
			out = append(append([]Expr(nil), shape[:len(shape)-1]...), Int(scaled/int64(dt.Bytes())))
		}
		if tile {
			return NewTileType(out, dt, mem, nil), nil
		}
		return &TensorType{Shape: out, DType: dt}, nil
	}
}

func init() {
	registerTilePair(func() *OpDef {
		return &OpDef{
			Name: "tile.reinterpret_view", Class: ClassCompute, Category: "TileOp", ResultAlias: "data", MemRefFrom: "data",
			Doc: "The tile's bytes seen as dtype (no data moves): the last dimension scaled by the byte ratio, " +
				"or the given shape of as many bytes.",
			Args:    []ArgSpec{{Name: "data"}, {Name: "shape"}},
			MinArgs: 1, MaxArgs: 2,
			Kwargs:          []KwargSpec{{Name: "dtype", Kind: KwDType, Required: true}},
			PositionalKwarg: "dtype",
		}
	}, reinterpretDeduce, &TileReinterpretView, &TensorReinterpretView, "The tensor's bytes seen as dtype (a tile.reinterpret_view in a kernel).")
}
