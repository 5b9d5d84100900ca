package pto

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Tile buffers: every tile variable an op defines gets a pto.alloc_tile.

// tileAddr is the tile's on-chip address from its MemRef, once
// AllocateMemoryAddr placed it (a byte offset of -1 is unallocated).
func tileAddr(t *ir.TileType) (int64, bool) {
	if t.MemRef == nil || t.MemRef.ByteOffset == nil {
		return 0, false
	}
	v, ok := ir.ConstValue(t.MemRef.ByteOffset)
	if !ok || v < 0 {
		return 0, false
	}
	if idx := t.MemRef.SlotIndex; idx != nil {
		k, ok := ir.ConstValue(idx)
		if !ok {
			return 0, false // a runtime slot: slotAddr
		}
		v += k * int64(t.MemRef.Size)
	}
	return v, true
}

// slotAddr is the address of a tile in a runtime-indexed slot of a
// planned allocation, base + slot * slot size (nil: not such a tile).
func slotAddr(t *ir.TileType) ir.Expr {
	m := t.MemRef
	if m == nil || m.SlotIndex == nil || m.ByteOffset == nil {
		return nil
	}
	base, ok := ir.ConstValue(m.ByteOffset)
	if _, static := ir.ConstValue(m.SlotIndex); !ok || base < 0 || static {
		return nil
	}
	slot := &ir.BinaryExpr{Op: ir.OpMul, Left: m.SlotIndex, Right: ir.Int(int64(m.Size)), DType: ir.INDEX, Pos: m.Pos}
	return &ir.BinaryExpr{Op: ir.OpAdd, Left: ir.Int(base), Right: slot, DType: ir.INDEX, Pos: m.Pos}
}

// tileOf is the tile type of a variable.
func tileOf(v *ir.Var) (*ir.TileType, error) {
	t, ok := v.Type().(*ir.TileType)
	if !ok {
		return nil, fmt.Errorf("%s has type %s where a tile is expected", v.Name, v.Type())
	}
	return t, nil
}

// allocTile emits `%v = pto.alloc_tile [addr = %cA_i64] [valid_row = %r]
// [valid_col = %c] : !pto.tile_buf<...>` for tile variable v and binds it.
// valid_row/valid_col are given when the valid shape is dynamic (the type
// then says v_row=? / v_col=?).
func (c *Ctx) allocTile(v *ir.Var) (value, error) {
	if v == nil {
		return value{}, fmt.Errorf("a tile result must be bound to a variable")
	}
	t, err := tileOf(v)
	if err != nil {
		return value{}, err
	}
	typ, err := tileBufType(t)
	if err != nil {
		return value{}, fmt.Errorf("tile %s %v", v.Name, err)
	}
	var operands []value
	var parts []string
	nAddr, nRow, nCol := 0, 0, 0
	if a, ok := tileAddr(t); ok && !c.o.NoAddresses {
		addr := c.consts.int(a, "i64")
		operands = append(operands, addr)
		parts = append(parts, "addr = "+addr.ssa)
		nAddr = 1
	} else if e := slotAddr(t); e != nil && !c.o.NoAddresses {
		addr, err := c.as(e, ir.INT64, v.Name+"_addr")
		if err != nil {
			return value{}, fmt.Errorf("address of %s: %v", v.Name, err)
		}
		operands = append(operands, addr)
		parts = append(parts, "addr = "+addr.ssa)
		nAddr = 1
	}
	valid := tileValidShape(t)
	if vr, vc := tileRowsCols(valid); vr < 0 || vc < 0 {
		rows, cols, err := c.validRowsCols(valid)
		if err != nil {
			return value{}, fmt.Errorf("valid shape of %s: %v", v.Name, err)
		}
		if vr < 0 {
			operands = append(operands, rows)
			parts = append(parts, "valid_row = "+rows.ssa)
			nRow = 1
		}
		if vc < 0 {
			operands = append(operands, cols)
			parts = append(parts, "valid_col = "+cols.ssa)
			nCol = 1
		}
	}
	custom := "pto.alloc_tile"
	if len(parts) > 0 {
		custom += " " + strings.Join(parts, " ")
	}
	custom += " : " + typ
	r := c.op(v.Name, typ, "pto.alloc_tile", operands, []attr{segments(nAddr, nRow, nCol)}, custom)
	c.vals[v] = r
	return r, nil
}

// validRowsCols flattens a valid shape to index values: the product of the
// leading dims and the last dim.
func (c *Ctx) validRowsCols(valid []ir.Expr) (value, value, error) {
	rows := dim{c.cIndex(1), 1, true}
	for _, d := range valid[:len(valid)-1] {
		v, n, ok, err := c.dimValue(d)
		if err != nil {
			return value{}, value{}, err
		}
		rows = c.mulDim(rows, dim{v, n, ok})
	}
	cols, _, _, err := c.dimValue(valid[len(valid)-1])
	return rows.v, cols, err
}

// tile is the value of a tile operand.
func (c *Ctx) tile(e ir.Expr) (value, *ir.TileType, error) {
	t, ok := e.Type().(*ir.TileType)
	if !ok {
		return value{}, nil, fmt.Errorf("%s is not a tile", ir.Describe(e))
	}
	v, err := c.value(e)
	return v, t, err
}

// insOuts is `name ins(%a, ... : A, ...) outs(%r : R)` with an optional
// attribute, and emits it.
func (c *Ctx) insOuts(name string, ins, outs []value, attrs []attr) {
	custom := fmt.Sprintf("%s ins(%s : %s) outs(%s : %s)", name, ssaList(ins), typeList(ins), ssaList(outs), typeList(outs))
	if len(attrs) > 0 {
		as := make([]string, len(attrs))
		for i, a := range attrs {
			as[i] = a.name + " = " + a.val
		}
		custom += " {" + strings.Join(as, ", ") + "}"
	}
	c.stmtOp(name, append(append([]value{}, ins...), outs...), attrs, custom)
}

// atomicAttr is the atomicType attribute of a store/put.
func atomicAttr(add bool) attr {
	if add {
		return attr{"atomicType", "#pto<atomic_type atomic_add>"}
	}
	return attr{"atomicType", "#pto<atomic_type atomic_none>"}
}

// checkAtomic enforces the arch rule for atomic Add (AtomicAddDtypeValid).
func (c *Ctx) checkAtomic(dt ir.DataType) error {
	if dt == ir.BF16 && c.o.Arch != "a2a3" {
		return fmt.Errorf("bf16 atomic-add requires the Ascend910B (A2/A3) profile (target arch is %s)", c.o.Arch)
	}
	return nil
}

// padLeading fits an extent to rank dims: leading ones are added, or
// surplus leading dims (which must be ones) dropped.
func padLeading(dims []ir.Expr, rank int) []ir.Expr {
	if len(dims) >= rank {
		return dims[len(dims)-rank:]
	}
	return append(ones(rank-len(dims)), dims...)
}

// allocResult allocates res's tile (allocTile) and gives its type too.
func (c *Ctx) allocResult(res *ir.Var) (value, *ir.TileType, error) {
	r, err := c.allocTile(res)
	if err != nil {
		return value{}, nil, err
	}
	rt, err := tileOf(res)
	return r, rt, err
}

// sameBuffer reports whether two tiles have one planned address, so a
// result written in place needs no copy of its target first.
func sameBuffer(a, b *ir.TileType) bool {
	aa, aok := tileAddr(a)
	ba, bok := tileAddr(b)
	return aok && bok && aa == ba
}
