package ir

import "fmt"

// Gathers straight into an on-chip accumulator (upstream's
// tensor_ops/paged_gather.cpp and tile_ops/paged_gather.cpp): a kernel
// builds a matmul operand in L1 from rows of a GM pool, with no round
// trip through the vector core. tensor.create_l1 makes the accumulator,
// tensor.gather_row DMAs one window of GM into a slot of it (tile.gather_row
// in a kernel: a pto.subview of the accumulator and a pto.tload), and
// tensor.paged_gather is the whole paged lookup, lowered to a loop of
// tile.gather_row.

// gatherRowOperands checks what tile.gather_row and tensor.gather_row
// share: a destination of rank 2 and a GM source of its element type,
// 2-element offsets, a static window (it sizes the subview), and an
// optional valid_shape of integers no larger than the window, static when
// the row lands transposed.
func gatherRowOperands(c *DeduceCtx, dst DataType) error {
	src, err := c.TensorLike(1)
	if err != nil {
		return err
	}
	if src.DType != dst {
		return c.Fail(1, "a GM tensor of "+dst.String()+" (the accumulator's element type)", c.Args[1])
	}
	for _, i := range []int{2, 3} {
		if _, err := c.Tuple(i, 2); err != nil {
			return err
		}
	}
	shapes, err := staticShape(c, 4, 2)
	if err != nil {
		return err
	}
	for d, e := range shapes {
		if _, ok := ConstValue(e); !ok {
			return c.Fail(4, "a window of constant extents (it sizes the pto.subview); pass a runtime extent as valid_shape", fmt.Sprintf("dimension %d is %s", d, DefaultFormat.Expr(e)))
		}
	}
	if c.N() < 6 {
		return nil
	}
	valid, err := c.Tuple(5, 2)
	if err != nil {
		return err
	}
	transpose, _ := c.Kwargs.Get("transpose")
	for d, e := range valid {
		v, ok := ConstValue(e)
		if !ok {
			if transpose == true {
				return c.Fail(5, "a static valid_shape with transpose=True", DefaultFormat.Dims(valid))
			}
			continue
		}
		if s, _ := ConstValue(shapes[d]); v < 0 || v > s {
			return c.Fail(5, "a valid_shape inside the window "+DefaultFormat.Dims(shapes), DefaultFormat.Dims(valid))
		}
	}
	return nil
}

var gatherRowArgs = []ArgSpec{{Name: "acc", Effect: ReadWrite}, {Name: "src"}, {Name: "dst_offset"}, {Name: "src_offset"},
	{Name: "shapes"}, {Name: "valid_shape", Keyword: true}}

func init() {
	TensorCreateL1 = RegisterOp(&OpDef{
		Name: "tensor.create_l1", Class: ClassCompute, Category: "TensorOp",
		Doc: "An on-chip (L1) accumulator of a static shape for tensor.gather_row, typed as a tensor so it feeds " +
			"tensor.matmul; a tile.create in Mat in a kernel.",
		Args:            []ArgSpec{{Name: "shape"}},
		Kwargs:          []KwargSpec{{Name: "dtype", Kind: KwDType, Required: true}, {Name: "transpose", Kind: KwBool}},
		PositionalKwarg: "dtype",
		Deduce: func(c *DeduceCtx) (Type, error) {
			shape, err := staticShape(c, 0, -1)
			if err != nil {
				return nil, err
			}
			for d, e := range shape {
				if _, ok := ConstValue(e); !ok {
					return nil, c.Fail(0, "constant dimensions (the accumulator is allocated statically)", fmt.Sprintf("dimension %d is %s", d, DefaultFormat.Expr(e)))
				}
			}
			dt, _ := c.Kwargs.DType("dtype")
			return &TensorType{Shape: shape, DType: dt}, nil
		},
	})
	gatherRowDoc := "Copy the window shapes (its valid_shape part, when given) of the GM tensor src at src_offset into "
	TileGatherRow = RegisterOp(&OpDef{
		Name: "tile.gather_row", Class: ClassMemory, Category: "TileOp", ResultAlias: "acc", MemRefFrom: "acc",
		Doc:     gatherRowDoc + "the tile acc at dst_offset (transposed: the row lands as a column); the result is acc after the write.",
		Args:    gatherRowArgs,
		MinArgs: 5, MaxArgs: 6,
		Kwargs: []KwargSpec{{Name: "transpose", Kind: KwBool}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			if len(t.Shape) != 2 || (t.Memory != MemMat && t.Memory != MemVec && t.Memory != MemNone) {
				return nil, c.Fail(0, "a 2-D tile in pl.Mem.Mat or pl.Mem.Vec", t)
			}
			if err := gatherRowOperands(c, t.DType); err != nil {
				return nil, err
			}
			return t, nil
		},
	})
	TensorGatherRow = RegisterOp(&OpDef{
		Name: "tensor.gather_row", Class: ClassMemory, Category: "TensorOp", ResultAlias: "acc",
		Doc:     gatherRowDoc + "the accumulator acc (from tensor.create_l1) at dst_offset; tile.gather_row in a kernel.",
		Args:    gatherRowArgs,
		MinArgs: 5, MaxArgs: 6,
		Kwargs: []KwargSpec{{Name: "transpose", Kind: KwBool}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tensor(0)
			if err != nil {
				return nil, err
			}
			if len(t.Shape) != 2 {
				return nil, c.Fail(0, "a 2-D accumulator (from tensor.create_l1)", t)
			}
			if err := gatherRowOperands(c, t.DType); err != nil {
				return nil, err
			}
			return t, nil
		},
	})
	TensorPagedGather = RegisterOp(&OpDef{
		Name: "tensor.paged_gather", Class: ClassMemory, Category: "TensorOp",
		Doc: "Rows of a paged GM pool into an on-chip buffer [max_indices, size] (transposed with is_trans): row i is " +
			"src[block_table[j // block_size] * block_size + j % block_size, col_off:col_off+size] for j = indices[i]; " +
			"in a kernel a loop of tile.gather_row.",
		Args: []ArgSpec{{Name: "src"}, {Name: "indices"}, {Name: "block_table"}},
		Kwargs: []KwargSpec{{Name: "block_size", Kind: KwInt, Required: true}, {Name: "size", Kind: KwInt, Required: true},
			{Name: "col_off", Kind: KwInt}, {Name: "max_indices", Kind: KwInt, Required: true}, {Name: "is_trans", Kind: KwBool},
			{Name: "is_b_matrix", Kind: KwBool}, {Name: "space", Kind: KwMemory}},
		Deduce: pagedGatherDeduce,
	})
}

func pagedGatherDeduce(c *DeduceCtx) (Type, error) {
	src, err := c.Tensor(0)
	if err != nil {
		return nil, err
	}
	if !hasDType([]DataType{FP16, BF16, FP32, INT8}, src.DType) || len(src.Shape) != 2 {
		return nil, c.Fail(0, "a 2-D pool of FP16, BF16, FP32 or INT8", src)
	}
	for i, what := range []string{"indices", "block_table"} {
		t, err := c.Tensor(i + 1)
		if err != nil {
			return nil, err
		}
		if t.DType != INT32 || len(t.Shape) < 1 || len(t.Shape) > 2 {
			return nil, c.Fail(i+1, "INT32 "+what+" of shape [n] or [1, n]", t)
		}
		if len(t.Shape) == 2 {
			if rows, ok := ConstValue(t.Shape[0]); !ok || rows != 1 {
				return nil, c.Fail(i+1, "2-D "+what+" of shape [1, n] (only row 0 is read)", t)
			}
		}
	}
	for _, k := range []string{"block_size", "size", "max_indices"} {
		if v := c.KwInt(k, 0); v <= 0 {
			return nil, c.FailKwarg(k, "a positive int", v)
		}
	}
	size, off := c.KwInt("size", 0), c.KwInt("col_off", 0)
	if off < 0 {
		return nil, c.FailKwarg("col_off", "a non-negative int", off)
	}
	if cols, ok := ConstValue(src.Shape[1]); ok && off+size > cols {
		return nil, c.FailKwarg("size", fmt.Sprintf("col_off + size <= %d (the pool's columns)", cols), fmt.Sprintf("%d + %d", off, size))
	}
	space := MemMat
	if v, ok := c.Kwargs.Get("space"); ok {
		space = v.(MemorySpace)
	}
	if space != MemMat && space != MemVec {
		return nil, c.FailKwarg("space", "pl.Mem.Mat or pl.Mem.Vec", space.String())
	}
	trans, _ := c.Kwargs.Get("is_trans")
	if trans == true && space != MemMat {
		return nil, c.FailKwarg("space", "pl.Mem.Mat with is_trans=True", space.String())
	}
	if idx, _ := c.Tensor(1); idx != nil {
		if n, ok := ConstValue(idx.Shape[len(idx.Shape)-1]); ok && n > c.KwInt("max_indices", 0) {
			return nil, c.FailKwarg("max_indices", fmt.Sprintf("at least %d (the indices given)", n), c.KwInt("max_indices", 0))
		}
	}
	shape := []Expr{Int(c.KwInt("max_indices", 0)), Int(size)}
	if trans == true {
		shape[0], shape[1] = shape[1], shape[0]
	}
	return &TensorType{Shape: shape, DType: src.DType}, nil
}
