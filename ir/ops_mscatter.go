package ir

// tile.mscatter (upstream's tile_ops/memory.cpp, PTOAS pto.mscatter): a
// tile's elements stored into a tensor at per-element flat indices,
// output_tensor.flat[idx[i, j]] = src[i, j]. Nothing of the tensor is
// read; the result rebinds it, as a store's does.

func init() {
	TileMscatter = RegisterOp(&OpDef{
		Name: "tile.mscatter", Class: ClassMemory, Category: "TileOp", ResultAlias: "output_tensor", MemRefFrom: "output_tensor", StoreUnit: "dma",
		Doc:  "Store src's elements into output_tensor at the flat indices idx holds (output_tensor.flat[idx[i, j]] = src[i, j]).",
		Args: []ArgSpec{{Name: "src"}, {Name: "idx"}, {Name: "output_tensor", Effect: Write}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			src, err := vecTile(c, 0)
			if err != nil {
				return nil, err
			}
			switch src.DType {
			case FP16, FP32, INT16, INT32:
			default:
				return nil, c.Fail(0, "a tile of FP16, FP32, INT16 or INT32", src)
			}
			idx, err := vecTile(c, 1)
			if err != nil {
				return nil, err
			}
			if idx.DType != INT32 || len(idx.Shape) != len(src.Shape) {
				return nil, c.Fail(1, "an INT32 index tile of src's rank", idx)
			}
			for d := range src.Shape {
				a, ok1 := ConstValue(src.Shape[d])
				b, ok2 := ConstValue(idx.Shape[d])
				if ok1 && ok2 && a != b {
					return nil, c.Fail(1, "an index tile shaped like src, "+DefaultFormat.Dims(src.Shape), idx)
				}
			}
			t, err := c.TensorLike(2)
			if err != nil {
				return nil, err
			}
			if len(t.Shape) == 0 || t.DType != src.DType {
				return nil, c.Fail(2, "a tensor of element type "+src.DType.String()+" (src's)", c.Args[2])
			}
			return c.Args[2].Type(), nil
		},
	})
}
