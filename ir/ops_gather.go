package ir

import "fmt"

// Gathers (upstream's tile_ops/gather.cpp and tensor_ops/gather.cpp): the
// index form only. tile.gather reads a source tile at flat element
// indices; tensor.gather is torch.gather along one dimension, which
// ConvertTensorToTileOps lowers to one tile.gather per row.

// gatherIndexOK reports whether an index of type idx may address a source
// of type src: INT32 always, INT16 with a 16-bit source.
func gatherIndexOK(src, idx DataType) bool {
	return idx == INT32 || (idx == INT16 && (src == FP16 || src == INT16))
}

var gatherSources = []DataType{FP16, FP32, INT16, INT32}

func init() {
	TileGather = RegisterOp(&OpDef{
		Name: "tile.gather", Class: ClassCompute, Category: "TileOp",
		Doc:       "dst[i, j] = src[indices[i, j]], the source read at flat element indices; tmp is the instruction's workspace (TGATHER).",
		Args:      []ArgSpec{{Name: "src"}, {Name: "indices"}, {Name: "tmp"}},
		OutMemory: MemVec,
		Deduce: func(c *DeduceCtx) (Type, error) {
			src, err := vecTile(c, 0)
			if err != nil {
				return nil, err
			}
			if !hasDType(gatherSources, src.DType) {
				return nil, c.Fail(0, "elements of "+dtypeList(gatherSources), src.DType.String())
			}
			idx, err := vecTile(c, 1)
			if err != nil {
				return nil, err
			}
			if !gatherIndexOK(src.DType, idx.DType) {
				return nil, c.Fail(1, "an index tile of INT32 (or INT16 with a 16-bit source)", idx)
			}
			if _, err := c.Tile(2); err != nil {
				return nil, err
			}
			return NewTileType(idx.Shape, src.DType, MemVec, nil), nil
		},
	})
	TensorGather = RegisterOp(&OpDef{
		Name: "tensor.gather", Class: ClassCompute, Category: "TensorOp",
		Doc: "out[..., k, ...] = input[..., index[..., k, ...], ...] along dim, as torch.gather; index is no larger than input " +
			"off dim. In a kernel one tile.gather per row (rank 2, the last dimension).",
		Args:   []ArgSpec{{Name: "input"}, {Name: "index"}},
		Kwargs: []KwargSpec{{Name: "dim", Kind: KwInt, Required: true}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			in, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			if !hasDType(gatherSources, in.DType) {
				return nil, c.Fail(0, "elements of "+dtypeList(gatherSources), in.DType.String())
			}
			idx, err := c.TensorLike(1)
			if err != nil {
				return nil, err
			}
			if !gatherIndexOK(in.DType, idx.DType) {
				return nil, c.Fail(1, "an index tensor of INT32 (or INT16 with a 16-bit input)", c.Args[1])
			}
			rank := len(in.Shape)
			if rank < 2 || len(idx.Shape) != rank {
				return nil, c.Fail(1, fmt.Sprintf("an index of the input's rank (%d, at least 2)", rank), c.Args[1])
			}
			dim := c.Kwargs.Int("dim", -1)
			if dim < 0 {
				dim += int64(rank)
			}
			if dim < 0 || dim >= int64(rank) {
				return nil, c.FailKwarg("dim", fmt.Sprintf("an axis of the rank-%d input", rank), fmt.Sprintf("%d", c.Kwargs.Int("dim", -1)))
			}
			for d := range in.Shape {
				a, ok1 := ConstValue(in.Shape[d])
				b, ok2 := ConstValue(idx.Shape[d])
				if int64(d) != dim && ok1 && ok2 && b > a {
					return nil, c.Fail(1, "an index no larger than the input off dim "+fmt.Sprint(dim)+", "+DefaultFormat.Dims(in.Shape), c.Args[1])
				}
			}
			return &TensorType{Shape: idx.Shape, DType: in.DType}, nil
		},
	})
}
