package ir

import "fmt"

// Sorting (upstream's tile_ops/sort.cpp and tensor_ops/sort.cpp), the
// proposal layout of the vector unit's sort: tile.sort32 sorts each
// 32-element block of a row in descending order and writes value/index
// pairs, so the last dimension doubles (an FP32 pair is the value, then
// the index's bits); tile.mrgsort_format1 merges every four consecutive
// sorted runs of block_len elements of a row into one; and
// tile.mrgsort_format2 merges two to four sorted rows into the tmp tile's
// shape. The tensor forms lower to them; format2's tmp is allocated by
// the lowering (OpDef.TileScratch).

func init() {
	sortSrc := func(c *DeduceCtx, i int, tile bool) ([]Expr, DataType, error) {
		var shape []Expr
		var dt DataType
		if tile {
			t, err := vecTile(c, i)
			if err != nil {
				return nil, 0, err
			}
			shape, dt = t.Shape, t.DType
		} else {
			t, err := c.TensorLike(i)
			if err != nil {
				return nil, 0, err
			}
			shape, dt = t.Shape, t.DType
		}
		if dt != FP16 && dt != FP32 {
			return nil, 0, c.Fail(i, "values of FP16 or FP32", c.Args[i])
		}
		return shape, dt, nil
	}
	result := func(tile bool, shape []Expr, dt DataType) Type {
		if tile {
			return NewTileType(shape, dt, MemVec, nil)
		}
		return &TensorType{Shape: shape, DType: dt}
	}
	for _, kind := range []string{"tile", "tensor"} {
		tile := kind == "tile"
		h := &TileSort32
		if !tile {
			h = &TensorSort32
		}
		*h = RegisterOp(&OpDef{
			Name: kind + ".sort32", Class: ClassCompute, Category: "TileOp", TileForm: tileFormIf(!tile, TileSort32),
			Doc:  "Sort each 32-element block of a row in descending order, with idx's entries alongside: value/index pairs, the last dimension doubled.",
			Args: []ArgSpec{{Name: "src"}, {Name: "idx"}},
			Deduce: func(c *DeduceCtx) (Type, error) {
				shape, dt, err := sortSrc(c, 0, tile)
				if err != nil {
					return nil, err
				}
				ishape, idt, ok := ShapeOf(c.Args[1].Type())
				if !ok || !idt.IsInt() || !SameDims(ishape, shape) {
					return nil, c.Fail(1, "an integer index "+kind+" shaped like src, "+DefaultFormat.Dims(shape), c.Args[1])
				}
				last, ok := ConstValue(shape[len(shape)-1])
				if ok && last%32 != 0 {
					return nil, c.Fail(0, "a last dimension that is a multiple of 32 (whole blocks)", c.Args[0])
				}
				out := append([]Expr(nil), shape[:len(shape)-1]...)
				if ok {
					out = append(out, Int(2*last))
				} else {
					out = append(out, &BinaryExpr{Op: OpMul, Left: shape[len(shape)-1], Right: Int(2), DType: INDEX})
				}
				return result(tile, out, dt), nil
			},
		})
		h1 := &TileMrgsortFormat1
		if !tile {
			h1 = &TensorMrgsortFormat1
		}
		*h1 = RegisterOp(&OpDef{
			Name: kind + ".mrgsort_format1", Class: ClassCompute, Category: "TileOp", TileForm: tileFormIf(!tile, TileMrgsortFormat1),
			Doc:  "Merge every four consecutive sorted runs of block_len elements of a row (value/index pairs) into one sorted run.",
			Args: []ArgSpec{{Name: "src"}, {Name: "block_len"}},
			Deduce: func(c *DeduceCtx) (Type, error) {
				shape, dt, err := sortSrc(c, 0, tile)
				if err != nil {
					return nil, err
				}
				st, ok := c.Args[1].Type().(*ScalarType)
				if !ok || !st.DType.IsInt() {
					return nil, c.Fail(1, "an integer run length", c.Args[1])
				}
				if n, ok := ConstValue(c.Args[1]); ok && (n <= 0 || n%2 != 0) {
					return nil, c.Fail(1, "a positive even run length (whole value/index pairs)", fmt.Sprint(n))
				}
				return result(tile, shape, dt), nil
			},
		})
		h2 := &TileMrgsortFormat2
		if !tile {
			h2 = &TensorMrgsortFormat2
		}
		// The tile form is src0, src1[, src2[, src3]], tmp; the tensor form
		// has no tmp.
		minArgs, maxArgs := 2, 4
		args := []ArgSpec{{Name: "src0"}, {Name: "src1"}, {Name: "src2"}, {Name: "src3"}}
		if tile {
			minArgs, maxArgs = 3, 5
			args = append(args, ArgSpec{Name: "tmp"})
		}
		d := &OpDef{
			Name: kind + ".mrgsort_format2", Class: ClassCompute, Category: "TileOp", TileForm: tileFormIf(!tile, TileMrgsortFormat2),
			Doc:     "Merge two to four sorted rows of value/index pairs into one sorted row (exhausted: stop when a list runs out).",
			Args:    args,
			MinArgs: minArgs, MaxArgs: maxArgs,
			Kwargs: []KwargSpec{{Name: "exhausted", Kind: KwBool}},
			Deduce: func(c *DeduceCtx) (Type, error) {
				n := c.N()
				if tile {
					n-- // the last argument is tmp
				}
				shape, dt, err := sortSrc(c, 0, tile)
				if err != nil {
					return nil, err
				}
				width, okW := ConstValue(shape[len(shape)-1])
				for i := 1; i < n; i++ {
					s, d, err := sortSrc(c, i, tile)
					if err != nil {
						return nil, err
					}
					if d != dt || len(s) != len(shape) {
						return nil, c.Fail(i, fmt.Sprintf("a sorted %s of src0's dtype %s and rank %d", kind, dt, len(shape)), c.Args[i])
					}
					w, ok := ConstValue(s[len(s)-1])
					okW = okW && ok
					width += w
				}
				if tile {
					tmp, err := vecTile(c, n)
					if err != nil {
						return nil, err
					}
					return NewTileType(tmp.Shape, dt, MemVec, nil), nil
				}
				if !okW {
					return nil, c.Fail(0, "rows of static width", c.Args[0])
				}
				out := append(append([]Expr(nil), shape[:len(shape)-1]...), Int(width))
				return result(false, out, dt), nil
			},
		}
		if !tile {
			// The lowering allocates the merge's destination as tmp.
			d.TileScratch = func(c *Call, in *TileType) (string, []Expr, bool) {
				out, ok := c.Type().(*TensorType)
				if !ok {
					return "", nil, false
				}
				return "mrgsort_tmp", out.Shape, true
			}
		}
		*h2 = RegisterOp(d)
	}
}

// tileFormIf is form when cond holds (a tensor op's tile form), else nil.
func tileFormIf(cond bool, form *OpDef) *OpDef {
	if cond {
		return form
	}
	return nil
}
