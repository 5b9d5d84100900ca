package pto

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Element-wise addressing: one element of an on-chip tile (pl.tile.read /
// pl.tile.write), whose indices become a flat row-major offset into the
// tile's physical shape, folded to a constant when every index is one, as
// upstream's codegen does; and a tile scattered into a tensor at
// per-element indices (tile.mscatter).

func init() {
	Register(ir.TileRead, emitTileRead)
	Register(ir.TileWrite, emitTileWrite)
	Register(ir.TileMscatter, emitMscatter)
	Register(ir.TileMgather, emitMgather)
	Register(ir.TileGatherb, emitGatherb)
}

// tileElement resolves the tile and the flat element offset of a
// tile.read/tile.write call (arguments: the tile, then the indices).
func (c *Ctx) tileElement(call *ir.Call) (value, *ir.TileType, value, error) {
	t, tt, err := c.tile(call.Args[0])
	if err != nil {
		return value{}, nil, value{}, err
	}
	idx, err := tuple(call, 1)
	if err != nil {
		return value{}, nil, value{}, err
	}
	if len(idx) != len(tt.Shape) {
		return value{}, nil, value{}, fmt.Errorf("%d indices for a rank-%d tile", len(idx), len(tt.Shape))
	}
	strides := make([]int64, len(tt.Shape))
	run := int64(1)
	for k := len(tt.Shape) - 1; k >= 0; k-- {
		strides[k] = run
		d, ok := ir.ConstValue(tt.Shape[k])
		if !ok {
			return value{}, nil, value{}, fmt.Errorf("the shape of tile %s must be static to address an element", ir.Describe(call.Args[0]))
		}
		run *= d
	}
	flat, allConst := int64(0), true
	for k, e := range idx {
		v, ok := ir.ConstValue(e)
		if !ok {
			allConst = false
			break
		}
		flat += v * strides[k]
	}
	if allConst {
		return t, tt, c.cIndex(flat), nil
	}
	acc, err := c.flatIndex(idx, strides)
	return t, tt, acc, err
}

// tile.read(t, indices) → `%v = pto.tgetval ins(%t, %off : <tile>, index) outs : T`.
func emitTileRead(c *Ctx, call *ir.Call, res *ir.Var) error {
	t, tt, off, err := c.tileElement(call)
	if err != nil {
		return err
	}
	typ, err := scalarType(tt.DType)
	if err != nil {
		return err
	}
	hint := ""
	if res != nil {
		hint = res.Name
	}
	v := c.op(hint, typ, "pto.tgetval", []value{t, off}, nil,
		fmt.Sprintf("pto.tgetval ins(%s, %s : %s, index) outs : %s", t.ssa, off.ssa, t.typ, typ))
	if res != nil {
		c.vals[res] = v
	}
	return nil
}

// tile.write(t, indices, v) → `pto.tsetval ins(%off, %v : index, T) outs(%t : <tile>)`;
// the result is the tile itself, written in place.
func emitTileWrite(c *Ctx, call *ir.Call, res *ir.Var) error {
	t, tt, off, err := c.tileElement(call)
	if err != nil {
		return err
	}
	v, err := c.as(call.Args[2], tt.DType, "")
	if err != nil {
		return err
	}
	c.stmtOp("pto.tsetval", []value{off, v, t}, nil,
		fmt.Sprintf("pto.tsetval ins(%s, %s : index, %s) outs(%s : %s)", off.ssa, v.ssa, v.typ, t.ssa, t.typ))
	if res != nil {
		c.vals[res] = t
	}
	return nil
}

// tile.mscatter(src, idx, t) → `pto.mscatter ins(%src, %idx : S, I)
// outs(%pview : P)` over a partition view of the whole tensor (the indices
// address all of it), as upstream's codegen emits it; the result is t.
func emitMscatter(c *Ctx, call *ir.Call, res *ir.Var) error {
	src, _, err := c.tile(call.Args[0])
	if err != nil {
		return err
	}
	idx, _, err := c.tile(call.Args[1])
	if err != nil {
		return err
	}
	tl, ok := ir.AsTensorLike(call.Args[2].Type())
	if !ok {
		return fmt.Errorf("%s is not a tensor", ir.Describe(call.Args[2]))
	}
	t, pv, err := c.localPartition(call.Args[2], zeros(len(tl.Shape)), tl.Shape)
	if err != nil {
		return err
	}
	c.insOuts("pto.mscatter", []value{src, idx}, []value{pv}, nil)
	if res != nil {
		c.tensors[res] = t
	}
	return nil
}

// tile.mgather(mem, idx) -> pto.mgather ins(whole-mem partition, idx)
// outs(fresh Vec tile) {coalesce, gatherOob unless undefined}, as
// upstream's codegen emits its Vec form.
func emitMgather(c *Ctx, call *ir.Call, res *ir.Var) error {
	tl, ok := ir.AsTensorLike(call.Args[0].Type())
	if !ok {
		return fmt.Errorf("%s is not a tensor", ir.Describe(call.Args[0]))
	}
	_, pv, err := c.localPartition(call.Args[0], zeros(len(tl.Shape)), tl.Shape)
	if err != nil {
		return err
	}
	ins := []value{pv}
	if m, ok := call.Kwargs.Get("target_memory"); ok && m.(ir.MemorySpace) == ir.MemMat {
		// Into Mat: idx (and elem mode's scratch) are GM tensors, each
		// passed as a partition of the whole tensor, as upstream emits them.
		for _, g := range call.Args[1:ir.MgatherGM(call.Kwargs)] {
			gl, ok := ir.AsTensorLike(g.Type())
			if !ok {
				return fmt.Errorf("%s is not a tensor", ir.Describe(g))
			}
			_, gv, err := c.localPartition(g, zeros(len(gl.Shape)), gl.Shape)
			if err != nil {
				return err
			}
			ins = append(ins, gv)
		}
	} else {
		idx, _, err := c.tile(call.Args[1])
		if err != nil {
			return err
		}
		ins = append(ins, idx)
	}
	t, err := c.allocTile(res)
	if err != nil {
		return err
	}
	attrs := []attr{{"coalesce", "#pto<coalesce " + [...]string{"row", "elem"}[call.Kwargs.Int("coalesce", 0)] + ">"}}
	if oob := call.Kwargs.Int("gather_oob", 0); oob != 0 {
		attrs = append(attrs, attr{"gatherOob", "#pto<gather_oob " + [...]string{"undefined", "clamp", "wrap", "zero"}[oob] + ">"})
	}
	c.insOuts("pto.mgather", ins, []value{t}, attrs)
	return nil
}

// tile.gatherb(src, offset) -> pto.tgatherb ins(src, offset) outs(dst).
func emitGatherb(c *Ctx, call *ir.Call, res *ir.Var) error {
	src, _, err := c.tile(call.Args[0])
	if err != nil {
		return err
	}
	off, _, err := c.tile(call.Args[1])
	if err != nil {
		return err
	}
	t, err := c.allocTile(res)
	if err != nil {
		return err
	}
	c.insOuts("pto.tgatherb", []value{src, off}, []value{t}, nil)
	return nil
}
