package ir

import "fmt"

// Scatters (upstream's tile_ops/scatter.cpp and tensor_ops/scatter.cpp),
// index form: tile.scatter writes a source into a destination at flat
// element indices; tensor.scatter is torch.scatter along the last
// dimension of a rank-2 tensor.

var scatterElements = []DataType{FP16, FP32, BF16, INT8, INT16, INT32}

// scatterMaskDeduce types scatter_mask: the compact rows of src written
// onto the columns of dst that mask_pattern selects (the inverse of
// gather_mask); the result is dst's type.
func scatterMaskDeduce(tile bool, dstArg, srcArg int) func(c *DeduceCtx) (Type, error) {
	return func(c *DeduceCtx) (Type, error) {
		var ds, ss []Expr
		var ddt, sdt DataType
		for _, a := range []struct {
			i     int
			shape *[]Expr
			dt    *DataType
		}{{dstArg, &ds, &ddt}, {srcArg, &ss, &sdt}} {
			if tile {
				t, err := vecTile(c, a.i)
				if err != nil {
					return nil, err
				}
				*a.shape, *a.dt = t.Shape, t.DType
			} else {
				t, err := c.TensorLike(a.i)
				if err != nil {
					return nil, err
				}
				*a.shape, *a.dt = t.Shape, t.DType
			}
		}
		if len(ds) != 2 || !hasDType(scatterElements, ddt) {
			return nil, c.Fail(dstArg, "a 2-D destination of "+dtypeList(scatterElements), c.Args[dstArg])
		}
		p := c.Kwargs.Int("mask_pattern", 0)
		if p < 1 || p >= int64(len(MaskPatterns)) {
			return nil, c.FailKwarg("mask_pattern", "a pl.tile.MaskPattern (1..7)", fmt.Sprintf("%d", p))
		}
		want := []Expr{ds[0], ds[1]}
		if n, ok := ConstValue(ds[1]); ok {
			want[1] = Int(n / MaskPatterns[p].Stride)
		}
		if sdt != ddt || len(ss) != 2 || !SameDims(ss, want) {
			return nil, c.Fail(srcArg, "compact rows "+DefaultFormat.Dims(want)+" of "+ddt.String()+" (the destination's columns the pattern selects)", c.Args[srcArg])
		}
		if tile {
			return c.Args[dstArg].Type(), nil
		}
		return &TensorType{Shape: ds, DType: ddt}, nil
	}
}

func init() {
	TileScatterMask = RegisterOp(&OpDef{
		Name: "tile.scatter_mask", Class: ClassCompute, Category: "TileOp", ResultAlias: "dst", MemRefFrom: "dst",
		Doc:       "src's compact rows written, in place, onto the columns of dst that mask_pattern selects (the inverse of gather_mask; TSCATTER mask form).",
		Args:      []ArgSpec{{Name: "dst", Effect: ReadWrite}, {Name: "src"}},
		Kwargs:    []KwargSpec{{Name: "mask_pattern", Kind: KwInt, Required: true}},
		OutMemory: MemVec,
		Deduce:    scatterMaskDeduce(true, 0, 1),
	})
	TensorScatterMask = RegisterOp(&OpDef{
		Name: "tensor.scatter_mask", Class: ClassCompute, Category: "TensorOp",
		Doc:    "tile.scatter_mask of tensors: input's compact rows onto dst's selected columns (pl.scatter(input, mask_pattern=..., dst=...)).",
		Args:   []ArgSpec{{Name: "input"}, {Name: "dst"}},
		Kwargs: []KwargSpec{{Name: "mask_pattern", Kind: KwInt, Required: true}},
		Deduce: scatterMaskDeduce(false, 1, 0),
	})
	TileScatter = RegisterOp(&OpDef{
		Name: "tile.scatter", Class: ClassCompute, Category: "TileOp", ResultAlias: "dst", MemRefFrom: "dst",
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

// The mask forms share their index form's spelling (registered after both).
func init() {
	TensorGather.KwargForms = map[string]*OpDef{"mask_pattern": TensorGatherMask, "kvalue": TensorGatherCompare}
	TensorScatter.KwargForms = map[string]*OpDef{"mask_pattern": TensorScatterMask}
}
