package ir

import "fmt"

// tile.mgather (upstream's tile_ops/memory.cpp, PTOAS pto.mgather): a
// gather-load from a GM tensor into a fresh Vec tile, by an INT32 index
// tile. coalesce="elem" reads mem.flat[idx[i, j]] into [i, j]; "row"
// reads whole rows of mem (its last dimension is a row) at the indices of
// an [1, R] or [R, 1] index tile into [R, cols]. gather_oob says what an
// index outside mem does: undefined, clamp to the nearest, wrap modulo
// the count, or read zero.

// MgatherCoalesce and MgatherOOB are mgather's kwarg spellings, by value.
var (
	MgatherCoalesce = map[string]int64{"row": 0, "elem": 1}
	MgatherOOB      = map[string]int64{"undefined": 0, "clamp": 1, "wrap": 2, "zero": 3}
)

//
// With target_memory=pl.Mem.Mat the gather lands in a fresh Mat tile (a
// cube operand) and idx is a GM tensor: [1, R] rows (row mode) or the
// output's [M, N] element indices, which elem mode stages through a GM
// scratch tensor of the same element type. An optional valid_shape narrows
// the written region. Upstream keeps scratch and valid_shape positional
// after idx, each present only when given (CompactArgs), and prints them
// by keyword.

// mgatherMat reports whether a call of tile.mgather gathers into Mat.
func mgatherMat(kw Kwargs) bool {
	m, ok := kw.Get("target_memory")
	return ok && m.(MemorySpace) == MemMat
}

// MgatherGM is how many leading arguments of an mgather into Mat are GM
// tensors (mem, idx, and elem mode's scratch), so valid_shape, when
// given, is the argument at that position. The deducer, the printer's
// keywords, the simulator and the PTO emitter all read the layout here.
func MgatherGM(kw Kwargs) int {
	if kw.Int("coalesce", 0) == 1 {
		return 3
	}
	return 2
}

func init() {
	TileMgather = RegisterOp(&OpDef{
		Name: "tile.mgather", Class: ClassMemory, Category: "TileOp",
		Doc: "Gather-load from a GM tensor into a fresh Vec tile: elements at the flat indices of an INT32 index tile " +
			"(coalesce=\"elem\"), or rows at the indices of a [1, R] / [R, 1] one (coalesce=\"row\"); gather_oob handles " +
			"an index outside mem. With target_memory=pl.Mem.Mat, into a Mat tile by a GM index tensor (elem mode " +
			"through a GM scratch tensor), valid_shape narrowing what is written.",
		Args:    []ArgSpec{{Name: "mem"}, {Name: "idx"}, {Name: "scratch", Keyword: true}, {Name: "valid_shape", Keyword: true}},
		MinArgs: 2, MaxArgs: 4,
		Kwargs: []KwargSpec{{Name: "coalesce", Kind: KwInt, Names: MgatherCoalesce}, {Name: "gather_oob", Kind: KwInt, Names: MgatherOOB},
			{Name: "target_memory", Kind: KwMemory}},
		CompactArgs: true,
		KeywordAt: func(c *Call, i int) (string, bool) {
			switch {
			case i < 2:
				return "", false
			case i < MgatherGM(c.Kwargs):
				return "scratch", true
			}
			return "valid_shape", true
		},
		// Elem mode into Mat stages the gathered elements through scratch.
		Effects: func(args []Expr, kw Kwargs) []Effect {
			eff := make([]Effect, len(args))
			if len(args) > 2 && mgatherMat(kw) && kw.Int("coalesce", 0) == 1 {
				eff[2] = Write
			}
			return eff
		},
		OutMemory: MemVec,
		Deduce: func(c *DeduceCtx) (Type, error) {
			mem, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			switch mem.DType {
			case INT8, UINT8, INT16, UINT16, INT32, UINT32, FP16, BF16, FP32:
			default:
				return nil, c.Fail(0, "a tensor of INT8, UINT8, INT16, UINT16, INT32, UINT32, FP16, BF16 or FP32", c.Args[0])
			}
			if len(mem.Shape) == 0 {
				return nil, c.Fail(0, "a tensor of at least one dimension", c.Args[0])
			}
			if m, ok := c.Kwargs.Get("target_memory"); ok && m.(MemorySpace) != MemVec && m.(MemorySpace) != MemMat {
				return nil, c.FailKwarg("target_memory", "pl.Mem.Vec or pl.Mem.Mat", m.(MemorySpace).String())
			}
			if v := c.Kwargs.Int("coalesce", 0); v != 0 && v != 1 {
				return nil, c.FailKwarg("coalesce", "'row' or 'elem' (0 or 1)", fmt.Sprintf("%d", v))
			}
			if v := c.Kwargs.Int("gather_oob", 0); v < 0 || v > 3 {
				return nil, c.FailKwarg("gather_oob", "'undefined', 'clamp', 'wrap' or 'zero' (0 to 3)", fmt.Sprintf("%d", v))
			}
			if mgatherMat(c.Kwargs) {
				return mgatherMatDeduce(c, mem)
			}
			if c.N() > 2 {
				return nil, c.Fail(2, "nothing (scratch and valid_shape are for target_memory=pl.Mem.Mat)", c.Args[2])
			}
			idx, err := c.Tile(1)
			if err != nil {
				return nil, err
			}
			if idx.DType != INT32 || len(idx.Shape) != 2 {
				return nil, c.Fail(1, "a 2-D INT32 index tile", idx)
			}
			if c.Kwargs.Int("coalesce", 0) == 1 {
				var view *TileView
				if !SameDims(tileValid(idx), idx.Shape) {
					view = &TileView{ValidShape: tileValid(idx)}
				}
				return NewTileType(idx.Shape, mem.DType, MemVec, view), nil
			}
			if len(mem.Shape) < 2 {
				return nil, c.Fail(0, "a tensor of rank 2 or more (row mode gathers its last dimension as rows)", c.Args[0])
			}
			r0, ok0 := ConstValue(idx.Shape[0])
			r1, ok1 := ConstValue(idx.Shape[1])
			if !ok0 || !ok1 || r0 != 1 && r1 != 1 {
				return nil, c.Fail(1, "a static [1, R] or [R, 1] index tile (row mode)", idx)
			}
			axis := 1
			if r0 != 1 {
				axis = 0
			}
			shape := []Expr{idx.Shape[axis], mem.Shape[len(mem.Shape)-1]}
			// The valid indices give the valid rows.
			var view *TileView
			if valid := []Expr{tileValid(idx)[axis], shape[1]}; !SameDims(valid, shape) {
				view = &TileView{ValidShape: valid}
			}
			return NewTileType(shape, mem.DType, MemVec, view), nil
		},
	})
}

// mgatherMatDeduce types the Mat form: the output's shape from idx (and
// mem's rows), static, whole 16-row fractal boxes of 32-byte rows; the
// valid shape from the optional valid_shape argument.
func mgatherMatDeduce(c *DeduceCtx, mem TensorLike) (Type, error) {
	idx, ok := AsTensorLike(c.Args[1].Type())
	if !ok || idx.DType != INT32 || len(idx.Shape) != 2 {
		return nil, c.Fail(1, "a 2-D INT32 GM index tensor (the Mat form reads its indices from GM)", c.Args[1])
	}
	elem := c.Kwargs.Int("coalesce", 0) == 1
	var shape []Expr
	validAt := MgatherGM(c.Kwargs)
	if elem {
		if c.N() < 3 {
			return nil, c.FailCall("a GM scratch tensor (scratch=) for elem mode into Mat", "none")
		}
		sc, ok := AsTensorLike(c.Args[2].Type())
		if !ok || sc.DType != mem.DType || c.Args[2] == c.Args[0] || c.Args[2] == c.Args[1] {
			return nil, c.Fail(2, "a GM tensor of mem's element type "+mem.DType.String()+", distinct from mem and idx", c.Args[2])
		}
		need, ok1 := NumElements(idx.Shape)
		have, ok2 := NumElements(sc.Shape)
		if !ok1 || !ok2 || have < need {
			return nil, c.Fail(2, fmt.Sprintf("a static scratch of at least %d elements (the output's)", need), c.Args[2])
		}
		shape = idx.Shape
	} else {
		if len(mem.Shape) < 2 {
			return nil, c.Fail(0, "a tensor of rank 2 or more (row mode gathers its last dimension as rows)", c.Args[0])
		}
		if one, ok := ConstValue(idx.Shape[0]); !ok || one != 1 {
			return nil, c.Fail(1, "a [1, R] GM index tensor (row mode into Mat)", c.Args[1])
		}
		if _, isTuple := c.Args[len(c.Args)-1].(*MakeTuple); c.N() > 3 || c.N() == 3 && !isTuple {
			return nil, c.Fail(2, "only valid_shape= (row mode into Mat takes no scratch)", c.Args[2])
		}
		shape = []Expr{idx.Shape[1], mem.Shape[len(mem.Shape)-1]}
	}
	rows, ok1 := ConstValue(shape[0])
	cols, ok2 := ConstValue(shape[1])
	if !ok1 || !ok2 {
		return nil, c.Fail(1, "an index tensor giving a static output shape", c.Args[1])
	}
	if c0 := int64(32 / mem.DType.Bytes()); rows%16 != 0 || cols%c0 != 0 {
		return nil, c.Fail(1, fmt.Sprintf("an output of whole Mat boxes: rows a multiple of 16, columns of %d (given [%d, %d])", c0, rows, cols), c.Args[1])
	}
	var view *TileView
	if c.N() > validAt {
		t, ok := c.Args[validAt].(*MakeTuple)
		if !ok || len(t.Elems) != 2 {
			return nil, c.Fail(validAt, "a valid_shape of two static extents", c.Args[validAt])
		}
		for i, e := range t.Elems {
			v, ok := ConstValue(e)
			if !ok || v <= 0 || v > []int64{rows, cols}[i] {
				return nil, c.Fail(validAt, fmt.Sprintf("a valid_shape inside the output [%d, %d]", rows, cols), c.Args[validAt])
			}
		}
		if !SameDims(t.Elems, shape) {
			v := ImplicitTileView(shape, MemMat)
			v.ValidShape = t.Elems
			view = &v
		}
	}
	return NewTileType(shape, mem.DType, MemMat, view), nil
}
