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

func init() {
	TileMgather = RegisterOp(&OpDef{
		Name: "tile.mgather", Class: ClassMemory, Category: "TileOp",
		Doc: "Gather-load from a GM tensor into a fresh Vec tile: elements at the flat indices of an INT32 index tile " +
			"(coalesce=\"elem\"), or rows at the indices of a [1, R] / [R, 1] one (coalesce=\"row\"); gather_oob handles " +
			"an index outside mem.",
		Args: []ArgSpec{{Name: "mem"}, {Name: "idx"}},
		Kwargs: []KwargSpec{{Name: "coalesce", Kind: KwInt, Names: MgatherCoalesce}, {Name: "gather_oob", Kind: KwInt, Names: MgatherOOB},
			{Name: "target_memory", Kind: KwMemory}},
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
			if m, ok := c.Kwargs.Get("target_memory"); ok && m.(MemorySpace) != MemVec {
				return nil, c.FailKwarg("target_memory", "pl.Mem.Vec (ptorepl gathers into Vec tiles; upstream's Mat form takes GM indices and is not taken)", m.(MemorySpace).String())
			}
			if v := c.Kwargs.Int("coalesce", 0); v != 0 && v != 1 {
				return nil, c.FailKwarg("coalesce", "'row' or 'elem' (0 or 1)", fmt.Sprintf("%d", v))
			}
			if v := c.Kwargs.Int("gather_oob", 0); v < 0 || v > 3 {
				return nil, c.FailKwarg("gather_oob", "'undefined', 'clamp', 'wrap' or 'zero' (0 to 3)", fmt.Sprintf("%d", v))
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
				if !SameDims(validOf(idx), idx.Shape) {
					view = &TileView{ValidShape: validOf(idx)}
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
			if valid := []Expr{validOf(idx)[axis], shape[1]}; !SameDims(valid, shape) {
				view = &TileView{ValidShape: valid}
			}
			return NewTileType(shape, mem.DType, MemVec, view), nil
		},
	})
}
