package ir

import "fmt"

// Scatters (upstream's tile_ops/scatter.cpp and tensor_ops/scatter.cpp),
// index form: tile.scatter writes a source into a destination at flat
// element indices; tensor.scatter is torch.scatter along the last
// dimension of a rank-2 tensor.

var scatterElements = []DataType{FP16, FP32, BF16, INT8, INT16, INT32}

func init() {
	TileScatter = RegisterOp(&OpDef{
		Name: "tile.scatter", Class: ClassCompute, Category: "TileOp", ResultAlias: "dst",
		Doc:       "dst.flat[indexes[i, j]] = src[i, j], in place: the other elements of dst pass through (TSCATTER).",
		Args:      []ArgSpec{{Name: "dst", Effect: ReadWrite}, {Name: "src"}, {Name: "indexes"}},
		OutMemory: MemVec,
		Deduce: func(c *DeduceCtx) (Type, error) {
			dst, err := vecTile(c, 0)
			if err != nil {
				return nil, err
			}
			if !hasDType(scatterElements, dst.DType) || len(dst.Shape) != 2 {
				return nil, c.Fail(0, "a 2-D tile of "+dtypeList(scatterElements), dst)
			}
			src, err := vecTile(c, 1)
			if err != nil {
				return nil, err
			}
			if src.DType != dst.DType || len(src.Shape) != 2 {
				return nil, c.Fail(1, "a 2-D tile of "+dst.DType.String()+" (dst's)", src)
			}
			idx, err := vecTile(c, 2)
			if err != nil {
				return nil, err
			}
			if (idx.DType != INT32 && idx.DType != INT16) || !SameDims(idx.Shape, src.Shape) {
				return nil, c.Fail(2, "an INT32 or INT16 index tile shaped like src, "+DefaultFormat.Dims(src.Shape), idx)
			}
			return c.Args[0].Type(), nil
		},
	})
	TensorScatter = RegisterOp(&OpDef{
		Name: "tensor.scatter", Class: ClassCompute, Category: "TensorOp",
		Doc:    "input with out[i, index[i, j]] = src[i, j], as torch.scatter along the last dimension of a rank-2 tensor.",
		Args:   []ArgSpec{{Name: "input"}, {Name: "index"}, {Name: "src"}},
		Kwargs: []KwargSpec{{Name: "dim", Kind: KwInt, Required: true}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			in, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			if !hasDType(scatterElements, in.DType) || len(in.Shape) != 2 {
				return nil, c.Fail(0, "a 2-D tensor of "+dtypeList(scatterElements), c.Args[0])
			}
			idx, err := c.TensorLike(1)
			if err != nil {
				return nil, err
			}
			src, err := c.TensorLike(2)
			if err != nil {
				return nil, err
			}
			if src.DType != in.DType || len(src.Shape) != 2 {
				return nil, c.Fail(2, "a 2-D tensor of "+in.DType.String()+" (the input's)", c.Args[2])
			}
			if (idx.DType != INT32 && idx.DType != INT16) || !SameDims(idx.Shape, src.Shape) {
				return nil, c.Fail(1, "an INT32 or INT16 index tensor shaped like src, "+DefaultFormat.Dims(src.Shape), c.Args[1])
			}
			if d := c.Kwargs.Int("dim", -1); d != -1 && d != 1 {
				return nil, c.FailKwarg("dim", "the last dimension (-1 or 1)", fmt.Sprintf("%d", d))
			}
			for d := range src.Shape {
				a, ok1 := ConstValue(src.Shape[d])
				b, ok2 := ConstValue(in.Shape[d])
				if d == 0 && ok1 && ok2 && a > b {
					return nil, c.Fail(2, "a source of no more rows than the input's "+DefaultFormat.Dim(in.Shape[0]), c.Args[2])
				}
			}
			return &TensorType{Shape: in.Shape, DType: in.DType}, nil
		},
	})
}
