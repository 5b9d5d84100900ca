package ir

import "fmt"

// scatter_update (upstream's tile_ops/transform.cpp): rows of src written
// over rows of input, input[index.flat[k], :] = src[k, :], every other row
// passing through. input is [m, d], index an integer [b, s] of row
// numbers, src [b*s, d]. ConvertTensorToTileOps lowers both forms to
// tile.scatter at flat element indices, as upstream's conversion does.

func init() {
	for _, kind := range []string{"tile", "tensor"} {
		tile := kind == "tile"
		h := &TileScatterUpdate
		if !tile {
			h = &TensorScatterUpdate
		}
		memRefFrom := "" // upstream's tile form updates its input in place
		if tile {
			memRefFrom = "input"
		}
		*h = RegisterOp(&OpDef{
			Name: kind + ".scatter_update", Class: ClassCompute, Category: "TileOp", MemRefFrom: memRefFrom,
			Doc:    "input with rows replaced: input[index.flat[k], :] = src[k, :] (input [m, d], index [b, s] row numbers, src [b*s, d]).",
			Args:   []ArgSpec{{Name: "input"}, {Name: "index"}, {Name: "src"}},
			Kwargs: []KwargSpec{{Name: "dim", Kind: KwInt, Default: int64(-2)}},
			Deduce: func(c *DeduceCtx) (Type, error) {
				var shapes [3][]Expr
				var dts [3]DataType
				for i := range shapes {
					var ok bool
					shapes[i], dts[i], ok = ShapeOf(c.Args[i].Type())
					_, isTile := c.Args[i].Type().(*TileType)
					if !ok || isTile != tile {
						return nil, c.Fail(i, "a "+kind, c.Args[i])
					}
					if len(shapes[i]) != 2 {
						return nil, c.Fail(i, "a 2-D "+kind+" (ptorepl lowers the 2-D form)", c.Args[i])
					}
				}
				if !dts[1].IsInt() {
					return nil, c.Fail(1, "integer row numbers", c.Args[1])
				}
				if dts[2] != dts[0] || !SameDims(shapes[2][1:], shapes[0][1:]) {
					return nil, c.Fail(2, fmt.Sprintf("rows like input's, [*, %s] of %s", DefaultFormat.Dim(shapes[0][1]), dts[0]), c.Args[2])
				}
				b, ok1 := ConstValue(shapes[1][0])
				s, ok2 := ConstValue(shapes[1][1])
				n, ok3 := ConstValue(shapes[2][0])
				if ok1 && ok2 && ok3 && n != b*s {
					return nil, c.Fail(2, fmt.Sprintf("one row per index (%d rows)", b*s), c.Args[2])
				}
				if d := c.Kwargs.Int("dim", -2); d != -2 && d != 0 {
					return nil, c.FailKwarg("dim", "-2 (rows; the only dimension upstream supports)", fmt.Sprint(d))
				}
				if tile {
					t, _ := c.Args[0].Type().(*TileType)
					return vecLike(t), nil
				}
				return &TensorType{Shape: shapes[0], DType: dts[0]}, nil
			},
		})
	}
}
