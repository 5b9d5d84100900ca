package passes

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// gatherCompare lowers `t = tensor.gather_compare(input, kvalue)` as
// upstream's conversion does: the input's Vec tile, a UINT8 workspace
// shaped like it (gc_tmp), and one tile.gather_compare whose result is a
// (dst, cdst) pair of Vec tiles; the `dst = t[0]` and `cdst = t[1]` that
// follow become tiles too (tupleItem).
func (t *tileConv) gatherCompare(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	a, ok := s.(*ir.AssignStmt)
	if !ok {
		return nil, fmt.Errorf("a tensor.gather_compare whose result is not kept computes nothing; assign it")
	}
	var out []ir.Stmt
	src, err := t.tileIn(c.Args[0], ir.MemVec, &out)
	if err != nil {
		return nil, err
	}
	tt, ok := src.Type().(*ir.TileType)
	if !ok {
		return nil, fmt.Errorf("tensor.gather_compare: the input did not become a tile")
	}
	tmp, err := t.emit(&out, "gc_tmp", ir.TileCreate, []ir.Expr{tuple(tt.Shape...)},
		ir.Kwargs{{Key: "dtype", Value: ir.UINT8}, {Key: "target_memory", Value: ir.MemVec}}, c.Pos)
	if err != nil {
		return nil, err
	}
	call, err := ir.TileGatherCompare.NewCall([]ir.Expr{src, c.Args[1], tmp}, c.Kwargs, c.Pos)
	if err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, out), nil
}

// tupleItem converts `x = t[i]` of a tuple the pass made a tuple of tiles:
// x is that tile.
func (t *tileConv) tupleItem(a *ir.AssignStmt, g *ir.TupleGetItem) ([]ir.Stmt, bool) {
	tup := t.tileOf(g.Tuple)
	if tup == nil {
		return nil, false
	}
	if _, ok := tup.Type().(*ir.TupleType); !ok {
		return nil, false
	}
	item := &ir.TupleGetItem{Tuple: tup, Index: g.Index, Pos: g.Pos}
	nv := ir.NewVar(a.Var.Name, item.Type(), a.Var.Pos)
	t.setTile(a.Var, nv)
	return []ir.Stmt{assign(nv, item)}, true
}
