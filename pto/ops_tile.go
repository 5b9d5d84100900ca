package pto

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Core tile ops: load/store between tensors and tiles, tile creation,
// elementwise arithmetic, cast and padding.

func init() {
	Register(ir.TileLoad, emitTileLoad)
	Register(ir.TileStore, emitTileStore)
	Register(ir.TileCreate, emitTileCreate)
	Register(ir.TileAlloc, func(*Ctx, *ir.Call, *ir.Var) error { return nil })
	for op, inst := range elementwise {
		Register(op, emitElementwise(inst, false))
	}
	for op, inst := range elementwiseScalar {
		Register(op, emitElementwise(inst, true))
	}
	for op, inst := range map[*ir.OpDef]string{
		ir.TileRowSum: "pto.trowsum", ir.TileRowMax: "pto.trowmax", ir.TileRowMin: "pto.trowmin", ir.TileRowProd: "pto.trowprod",
		ir.TileRowExpandSub: "pto.trowexpandsub",
		ir.TileRowExpandMul: "pto.trowexpandmul", ir.TileRowExpandDiv: "pto.trowexpanddiv",
		ir.TileColExpandAdd: "pto.tcolexpandadd", ir.TileColExpandSub: "pto.tcolexpandsub",
		ir.TileColExpandMul: "pto.tcolexpandmul", ir.TileColExpandDiv: "pto.tcolexpanddiv",
		ir.TileRowExpandMax: "pto.trowexpandmax", ir.TileRowExpandMin: "pto.trowexpandmin",
		ir.TileRowExpandExpdif: "pto.trowexpandexpdif",
		ir.TileColExpandMax:    "pto.tcolexpandmax", ir.TileColExpandMin: "pto.tcolexpandmin",
		ir.TileColExpandExpdif: "pto.tcolexpandexpdif",
	} {
		Register(op, emitElementwise(inst, false))
	}
	// div, log and recip name PTOAS's high-precision mode when asked for
	// it, after outs(...) as upstream emits it.
	precision := func(kind string) func(*ir.Call) []attr {
		return func(call *ir.Call) []attr {
			if !call.Kwargs.Bool("high_precision", false) {
				return nil
			}
			return []attr{{"precisionType", "#pto<" + kind + " high_precision>"}}
		}
	}
	Register(ir.TileDiv, emitElementwiseAttrs("pto.tdiv", false, precision("div_precision")))
	Register(ir.TileLog, emitTiles("pto.tlog", precision("log_precision")))
	Register(ir.TileRecip, emitTiles("pto.trecip", precision("recip_precision")))
	// row_expand_add passes its optional scratch tile too.
	Register(ir.TileRowExpandAdd, emitTiles("pto.trowexpandadd", nil))
	// rsqrt reads its scratch tile too on the high-precision path.
	Register(ir.TileRsqrt, emitTiles("pto.trsqrt", nil))
	Register(ir.TileCi, emitCi)
	Register(ir.TileGather, emitTiles("pto.tgather", nil))
	Register(ir.TileGatherMask, emitGatherMask)
	Register(ir.TileTranspose, emitTranspose)
	// Comparisons into packed predicate masks, and the selection by one.
	cmpMode := func(call *ir.Call) []attr {
		k := call.Kwargs.Int("cmp_type", 0)
		if k < 0 || k >= int64(len(ir.CmpTypes)) {
			k = 0 // the deducer rejected it
		}
		return []attr{{"cmpMode", "#pto<cmp " + ir.CmpTypes[k] + ">"}}
	}
	Register(ir.TileCmp, emitElementwiseAttrs("pto.tcmp", false, cmpMode))
	Register(ir.TileCmps, emitElementwiseAttrs("pto.tcmps", true, cmpMode))
	Register(ir.TileSel, emitTiles("pto.tsel", nil))
	// TXOR and TXORS take their scratch tile last.
	Register(ir.TileXor, emitTiles("pto.txor", nil))
	Register(ir.TileXors, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		a, at, err := c.tile(call.Args[0])
		if err != nil {
			return err
		}
		s, err := c.as(call.Args[1], at.DType, "")
		if err != nil {
			return err
		}
		tmp, _, err := c.tile(call.Args[2])
		if err != nil {
			return err
		}
		r, err := c.allocTile(res)
		if err != nil {
			return err
		}
		c.insOuts("pto.txors", []value{a, s, tmp}, []value{r}, nil)
		return nil
	})
	for op, inst := range map[*ir.OpDef]string{ir.TileRowArgmax: "pto.trowargmax", ir.TileRowArgmin: "pto.trowargmin",
		ir.TileColArgmax: "pto.tcolargmax", ir.TileColArgmin: "pto.tcolargmin"} {
		Register(op, emitTiles(inst, nil))
	}
	Register(ir.TileScatterMask, emitScatterMask)
	// The result is dst itself (declared again at dst's address).
	Register(ir.TileScatter, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		return emitTiles("pto.tscatter", nil)(c, withArgs(call, call.Args[1:]...), res)
	})
	for op, inst := range map[*ir.OpDef]string{
		ir.TileAbs: "pto.tabs", ir.TileNeg: "pto.tneg", ir.TileRelu: "pto.trelu", ir.TileExp: "pto.texp",
		ir.TileSqrt: "pto.tsqrt", ir.TileNot: "pto.tnot",
	} {
		Register(op, emitUnary(inst))
	}
	for op, inst := range map[*ir.OpDef]string{ir.TileColMax: "pto.tcolmax", ir.TileColMin: "pto.tcolmin", ir.TileColProd: "pto.tcolprod"} {
		Register(op, emitUnary(inst))
	}
	// col_sum with a scratch tile is the binary-tree TCOLSUM (isBinary).
	Register(ir.TileColSum, emitTiles("pto.tcolsum", func(call *ir.Call) []attr {
		if len(call.Args) == 2 {
			return []attr{{name: "isBinary", val: "true"}}
		}
		return nil
	}))
	Register(ir.TileCast, emitTileCast)
	Register(ir.TileFillpad, emitFillpad)
	Register(ir.TileFillpadInplace, emitFillpad)
	// The destination's extents come from the result's type (the shape
	// operand is for type deduction), as upstream emits it.
	Register(ir.TileFillpadExpand, emitFillpad)
	Register(ir.TileSetValidshape, emitSetValidShape)
	Register(ir.TileFull, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		dt, _ := call.Kwargs.DType("dtype")
		v, err := c.as(call.Args[1], dt, "")
		if err != nil {
			return err
		}
		r, err := c.allocTile(res)
		if err != nil {
			return err
		}
		c.insOuts("pto.texpands", []value{v}, []value{r}, nil)
		return nil
	})
	Register(ir.TileConcat, emitElementwise("pto.tconcat", false))
	Register(ir.TileMove, emitUnary("pto.tmov"))
	Register(ir.TileMatmul, emitElementwise("pto.tmatmul", false))
	Register(ir.TileMatmulAcc, emitMatmulAcc)
	Register(ir.TileMatmulBias, emitTiles("pto.tmatmul.bias", nil))
	// TEXTRACT: the source and the window's offsets in; the shape is the
	// result's type.
	Register(ir.TileExtract, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		src, _, err := c.tile(call.Args[0])
		if err != nil {
			return err
		}
		row, err := c.as(call.Args[1], ir.INDEX, "")
		if err != nil {
			return err
		}
		col, err := c.as(call.Args[2], ir.INDEX, "")
		if err != nil {
			return err
		}
		r, err := c.allocTile(res)
		if err != nil {
			return err
		}
		c.insOuts("pto.textract", []value{src, row, col}, []value{r}, nil)
		return nil
	})
	// The GEMV family, with the split-K phase as upstream's accPhase
	// attribute when it is set.
	gemvPhase := func(call *ir.Call) []attr {
		if p, ok := call.Kwargs.Get("acc_phase"); ok && p != "unspecified" {
			return []attr{{"accPhase", fmt.Sprintf("#pto<acc_phase %v>", p)}}
		}
		return nil
	}
	Register(ir.TileGemv, emitTiles("pto.tgemv", gemvPhase))
	Register(ir.TileGemvAcc, emitTiles("pto.tgemv.acc", gemvPhase))
	Register(ir.TileGemvBias, emitTiles("pto.tgemv.bias", gemvPhase))
	// A reshape, like a valid-shape change, is a second declaration of the
	// same on-chip address (the memory passes give both one MemRef).
	Register(ir.TileReshape, emitSetValidShape)
	// A reinterpreted tile is a second alloc_tile of the target type at the
	// source's address (the result shares its MemRef), as upstream emits
	// it with baked addresses.
	Register(ir.TileReinterpretView, emitSetValidShape)
	// A transpose view too: upstream declares the transposed type at the
	// same address (the result shares the input's MemRef) and moves nothing.
	Register(ir.TileTransposeView, emitSetValidShape)
	// col_expand and row_expand read only the row or column they repeat.
	Register(ir.TileColExpand, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		return emitUnary("pto.tcolexpand")(c, withArgs(call, call.Args[1:]...), res)
	})
	Register(ir.TileRowExpand, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		return emitUnary("pto.trowexpand")(c, withArgs(call, call.Args[1:]...), res)
	})
}

// elementwise maps tile ops to PTO-ISA instructions (TADD, TSUB, ...).
var elementwise = map[*ir.OpDef]string{
	ir.TileAdd: "pto.tadd", ir.TileSub: "pto.tsub", ir.TileMul: "pto.tmul",
	ir.TileMaximum: "pto.tmax", ir.TileMinimum: "pto.tmin", ir.TileFmod: "pto.tfmod",
	ir.TilePartAdd: "pto.tpartadd", ir.TilePartMul: "pto.tpartmul", ir.TilePartMax: "pto.tpartmax", ir.TilePartMin: "pto.tpartmin",
	ir.TileAnd: "pto.tand", ir.TileOr: "pto.tor", ir.TileShl: "pto.tshl", ir.TileShr: "pto.tshr",
}

// elementwiseScalar maps the tile-scalar forms (TADDS, ...).
var elementwiseScalar = map[*ir.OpDef]string{
	ir.TileAdds: "pto.tadds", ir.TileSubs: "pto.tsubs", ir.TileMuls: "pto.tmuls", ir.TileDivs: "pto.tdivs",
	ir.TileFmods: "pto.tfmods",
	ir.TileAnds:  "pto.tands", ir.TileOrs: "pto.tors", ir.TileShls: "pto.tshls", ir.TileShrs: "pto.tshrs",
	ir.TileMaximums: "pto.tmaxs", ir.TileMinimums: "pto.tmins", ir.TileLrelu: "pto.tlrelu",
}

// tile.load(tensor, offsets, shapes[, valid_shape]) → pto.tload from a local
// partition view whose sizes are the valid shape.
func emitTileLoad(c *Ctx, call *ir.Call, res *ir.Var) error {
	offs, err := tuple(call, 1)
	if err != nil {
		return err
	}
	sizes, err := tuple(call, 2)
	if err != nil {
		return err
	}
	if len(call.Args) > 3 {
		if sizes, err = tuple(call, 3); err != nil {
			return err
		}
	}
	_, pv, err := c.localPartition(call.Args[0], offs, sizes)
	if err != nil {
		return err
	}
	t, err := c.allocTile(res)
	if err != nil {
		return err
	}
	c.insOuts("pto.tload", []value{pv}, []value{t}, nil)
	return nil
}

// tile.store(tile, offsets, output_tensor[, shapes], atomic=) → pto.tstore
// into a local partition view; the result rebinds the tensor.
func emitTileStore(c *Ctx, call *ir.Call, res *ir.Var) error {
	src, st, err := c.tile(call.Args[0])
	if err != nil {
		return err
	}
	offs, err := tuple(call, 1)
	if err != nil {
		return err
	}
	sizes := padLeading(tileValidShape(st), len(offs))
	if len(call.Args) > 3 {
		if sizes, err = tuple(call, 3); err != nil {
			return err
		}
	}
	t, pv, err := c.localPartition(call.Args[2], offs, sizes)
	if err != nil {
		return err
	}
	var attrs []attr
	if call.Kwargs.Int("atomic", 0) == int64(ir.AtomicAdd) {
		if err := c.checkAtomic(t.dtype); err != nil {
			return err
		}
		attrs = []attr{atomicAttr(true)}
	}
	c.insOuts("pto.tstore", []value{src}, []value{pv}, attrs)
	if res != nil {
		c.tensors[res] = t
	}
	return nil
}

// tile.create → pto.alloc_tile (a staging tile carries its address).
func emitTileCreate(c *Ctx, _ *ir.Call, res *ir.Var) error {
	_, err := c.allocTile(res)
	return err
}

func emitElementwise(inst string, scalar bool) Emitter {
	return emitElementwiseAttrs(inst, scalar, nil)
}

// emitElementwiseAttrs is emitElementwise with the attributes attrs gives.
func emitElementwiseAttrs(inst string, scalar bool, attrs func(*ir.Call) []attr) Emitter {
	return func(c *Ctx, call *ir.Call, res *ir.Var) error {
		a, at, err := c.tile(call.Args[0])
		if err != nil {
			return err
		}
		var b value
		if scalar {
			b, err = c.as(call.Args[1], at.DType, "")
		} else {
			b, _, err = c.tile(call.Args[1])
		}
		if err != nil {
			return err
		}
		r, err := c.allocTile(res)
		if err != nil {
			return err
		}
		var as []attr
		if attrs != nil {
			as = attrs(call)
		}
		c.insOuts(inst, []value{a, b}, []value{r}, as)
		return nil
	}
}

// emitTiles lowers an op whose arguments are all tiles into a new tile
// (`inst ins(%a, ... ) outs(%r)`), with the attributes attrs gives (nil:
// none).
func emitTiles(inst string, attrs func(*ir.Call) []attr) Emitter {
	return func(c *Ctx, call *ir.Call, res *ir.Var) error {
		ins, err := c.tiles(call.Args)
		if err != nil {
			return err
		}
		r, err := c.allocTile(res)
		if err != nil {
			return err
		}
		var as []attr
		if attrs != nil {
			as = attrs(call)
		}
		c.insOuts(inst, ins, []value{r}, as)
		return nil
	}
}

// emitUnary lowers a one-tile elementwise op (tile.abs → pto.tabs) into a
// new tile.
func emitUnary(inst string) Emitter {
	return func(c *Ctx, call *ir.Call, res *ir.Var) error {
		a, _, err := c.tile(call.Args[0])
		if err != nil {
			return err
		}
		r, err := c.allocTile(res)
		if err != nil {
			return err
		}
		c.insOuts(inst, []value{a}, []value{r}, nil)
		return nil
	}
}

// cast modes 0..6 of tile.cast, as PTO round modes.
var roundModes = []string{"none", "rint", "round", "floor", "ceil", "trunc", "odd"}

// tile.cast → pto.tcvt with the rounding mode.
func emitTileCast(c *Ctx, call *ir.Call, res *ir.Var) error {
	src, _, err := c.tile(call.Args[0])
	if err != nil {
		return err
	}
	mode := call.Kwargs.Int("mode", call.Op.KwargDefault("mode").(int64))
	if mode < 0 || int(mode) >= len(roundModes) {
		return fmt.Errorf("cast mode %d is not one of 0..6", mode)
	}
	r, err := c.allocTile(res)
	if err != nil {
		return err
	}
	c.insOuts("pto.tcvt", []value{src}, []value{r}, []attr{{"rmode", "#pto<round_mode " + roundModes[mode] + ">"}})
	return nil
}

// tile.fillpad → pto.tfillpad into a new tile; tile.fillpad_inplace fills
// its source in place and the result aliases it. PTO pads with the
// destination tile_buf's pad; when that type does not carry the requested
// pad_value, the padValue attribute says it.
func emitFillpad(c *Ctx, call *ir.Call, res *ir.Var) error {
	src, st, err := c.tile(call.Args[0])
	if err != nil {
		return err
	}
	dst := src
	dt := st
	inst := "pto.tfillpad"
	if call.Op == ir.TileFillpadExpand {
		inst = "pto.tfillpad_expand"
	}
	if call.Op != ir.TileFillpadInplace {
		if dst, err = c.allocTile(res); err != nil {
			return err
		}
		dt, _ = tileOf(res)
	} else if res != nil {
		c.vals[res] = src
	}
	var attrs []attr
	if v, ok := call.Kwargs.Get("pad_value"); ok {
		pad := v.(ir.PadValue)
		have := ir.PadNull
		if dt.View != nil {
			have = dt.View.Pad
		}
		if pad != have {
			attrs = []attr{{"padValue", "#pto<pad_value " + pad.Name() + ">"}}
		}
	}
	c.insOuts(inst, []value{src}, []value{dst}, attrs)
	return nil
}

// tile.set_validshape → a second tile handle at the source's address with
// the new valid_row/valid_col.
func emitSetValidShape(c *Ctx, call *ir.Call, res *ir.Var) error {
	if _, _, err := c.tile(call.Args[0]); err != nil {
		return err
	}
	rt, err := tileOf(res)
	if err != nil {
		return err
	}
	if _, ok := tileAddr(rt); !ok || c.o.NoAddresses {
		return fmt.Errorf("%s needs the tile's address to re-view it (run InitMemRef and AllocateMemoryAddr; not available with NoAddresses)", res.Name)
	}
	_, err = c.allocTile(res)
	return err
}

// tile.assemble writes a source tile into a window of the result tile, as
// upstream's codegen does: the result shares the target's buffer (the
// memory passes give it the target's MemRef), so the window is a
// pto.subview of the result and the source moves into it with pto.tmov;
// an Acc source into a low-precision Mat target is the fixpipe writeback,
// pto.tinsert at the offset. A result in another buffer first receives
// the target (pto.tmov), which an Acc-to-Mat assemble cannot do.
func init() {
	Register(ir.TileAssemble, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		target, tt, err := c.tile(call.Args[0])
		if err != nil {
			return err
		}
		src, st, err := c.tile(call.Args[1])
		if err != nil {
			return err
		}
		offs, ok := call.Args[2].(*ir.MakeTuple)
		if !ok || len(offs.Elems) != 2 {
			return c.errorf("tile.assemble: the offset must be a 2-D tuple")
		}
		row, err := c.index(offs.Elems[0])
		if err != nil {
			return err
		}
		col, err := c.index(offs.Elems[1])
		if err != nil {
			return err
		}
		r, rt, err := c.allocResult(res)
		if err != nil {
			return err
		}
		cross := st.Memory == ir.MemAcc && rt.Memory == ir.MemMat
		if cross && (rt.DType == ir.FP16 || rt.DType == ir.BF16) {
			custom := fmt.Sprintf("pto.tinsert ins(%s, %s, %s : %s, index, index) outs(%s : %s)", src.ssa, row.ssa, col.ssa, src.typ, r.ssa, r.typ)
			c.stmtOp("pto.tinsert", []value{src, row, col, r}, nil, custom)
			return nil
		}
		if !sameBuffer(tt, rt) {
			if cross {
				return c.errorf("tile.assemble of an Acc tile into Mat tile %s needs the result in the target's buffer (a Mat-to-Mat copy does not exist)", res.Name)
			}
			c.insOuts("pto.tmov", []value{target}, []value{r}, nil)
		}
		// The window: the source's shape and valid region, the result's
		// memory, element type and layout.
		w, err := c.window("assemble_view", r, rt, row, col, st.Shape, tileValidShape(st))
		if err != nil {
			return err
		}
		c.insOuts("pto.tmov", []value{src}, []value{w}, nil)
		return nil
	})
	// tile.slice is a window of its input, as upstream lowers it: a
	// pto.subview bound to the slice's variable (no data moves).
	Register(ir.TileSlice, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		in, _, err := c.tile(call.Args[0])
		if err != nil {
			return err
		}
		if res == nil {
			return c.errorf("a tile.slice must be bound to a variable")
		}
		rt, err := tileOf(res)
		if err != nil {
			return err
		}
		if len(call.Args) == 5 {
			if d, ok := call.Args[4].(*ir.MakeTuple); !ok || len(d.Elems) > 0 {
				return c.errorf("tile.slice %s drops dimensions, which this codegen does not emit", res.Name)
			}
		}
		offs, ok := call.Args[2].(*ir.MakeTuple)
		if !ok || len(offs.Elems) != 2 || len(rt.Shape) != 2 {
			return c.errorf("tile.slice %s: this codegen emits 2-D slices at a 2-D offset", res.Name)
		}
		row, err := c.index(offs.Elems[0])
		if err != nil {
			return err
		}
		col, err := c.index(offs.Elems[1])
		if err != nil {
			return err
		}
		typ, err := tileBufType(rt)
		if err != nil {
			return c.errorf("tile %s %v", res.Name, err)
		}
		w, err := c.subview(res.Name, in, row, col, rt.Shape, tileValidShape(rt), typ)
		if err != nil {
			return err
		}
		c.vals[res] = w
		return nil
	})
}

// window is a pto.subview of base, a tile of type bt, at (row, col): of
// the static shape and valid region given, in bt's memory, element type
// and layout.
func (c *Ctx) window(hint string, base value, bt *ir.TileType, row, col value, shape, valid []ir.Expr) (value, error) {
	vt := *bt
	vt.Shape = shape
	view := bt.EffectiveView()
	view.ValidShape = valid
	vt.View = &view
	typ, err := tileBufType(&vt)
	if err != nil {
		return value{}, c.errorf("the %s window %v", hint, err)
	}
	return c.subview(hint, base, row, col, shape, valid, typ)
}

// subview emits `%v = pto.subview %base[%row, %col] sizes [R, C] valid
// [%vr, %vc] : B -> V`: the window of base at the offset, of the static
// shape and valid region given, typed typ.
func (c *Ctx) subview(hint string, base, row, col value, shape, valid []ir.Expr, typ string) (value, error) {
	rows, cols := tileRowsCols(shape)
	if rows < 0 || cols < 0 {
		return value{}, c.errorf("a window of the dynamic shape %s (pto.subview sizes are static)", ir.ShapeString(shape))
	}
	vr, vc, err := c.validRowsCols(valid)
	if err != nil {
		return value{}, err
	}
	custom := fmt.Sprintf("pto.subview %s[%s, %s] sizes [%d, %d] valid [%s, %s] : %s -> %s", base.ssa, row.ssa, col.ssa, rows, cols, vr.ssa, vc.ssa, base.typ, typ)
	return c.op(hint, typ, "pto.subview", []value{base, row, col, vr, vc}, nil, custom), nil
}

// tensor.dim in a kernel is the dimension's value: a constant, or the
// dynamic dim's index argument.
func init() {
	Register(ir.TensorDim, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		tl, ok := ir.AsTensorLike(call.Args[0].Type())
		axis, cok := ir.ConstValue(call.Args[1])
		if !ok || !cok {
			return c.errorf("tensor.dim needs a tensor and a constant axis")
		}
		if axis < 0 {
			axis += int64(len(tl.Shape))
		}
		if axis < 0 || int(axis) >= len(tl.Shape) {
			return c.errorf("tensor.dim: axis %d is outside the rank-%d tensor", axis, len(tl.Shape))
		}
		v, _, _, err := c.dimValue(tl.Shape[axis])
		if err != nil {
			return err
		}
		if res != nil {
			c.vals[res] = v
		}
		return nil
	})
}

// tile.ci → pto.tci: the start scalar in the destination's type, the
// direction as an attribute (the shape is the result's type).
func emitCi(c *Ctx, call *ir.Call, res *ir.Var) error {
	dt := ir.INT32
	if v, ok := call.Kwargs.DType("dtype"); ok {
		dt = v
	}
	start, err := c.as(call.Args[0], dt, "")
	if err != nil {
		return err
	}
	r, err := c.allocTile(res)
	if err != nil {
		return err
	}
	c.insOuts("pto.tci", []value{start}, []value{r}, []attr{{name: "descending", val: fmt.Sprint(call.Kwargs.Bool("descending", false))}})
	return nil
}

// tile.gather_mask → the row form of pto.tgather, its pattern an attribute
// inside ins(...): `pto.tgather ins(%src, {maskPattern =
// #pto.mask_pattern<P0101>} : T, "row") outs(%dst : T)`, as upstream emits.
func emitGatherMask(c *Ctx, call *ir.Call, res *ir.Var) error {
	return emitMasked(c, "pto.tgather", call, call.Args[0], res)
}

// tile.scatter_mask → the row form of pto.tscatter, src's compact rows
// onto dst (the result, declared at dst's address).
func emitScatterMask(c *Ctx, call *ir.Call, res *ir.Var) error {
	return emitMasked(c, "pto.tscatter", call, call.Args[1], res)
}

// emitMasked emits `inst ins(%src, {maskPattern = ...} : T, "row")
// outs(%res : T)` for a mask-pattern gather or scatter.
func emitMasked(c *Ctx, inst string, call *ir.Call, from ir.Expr, res *ir.Var) error {
	src, _, err := c.tile(from)
	if err != nil {
		return err
	}
	p := call.Kwargs.Int("mask_pattern", 0)
	if p < 1 || p >= int64(len(ir.MaskPatterns)) {
		return fmt.Errorf("%s: mask_pattern %d is not 1..7", call.Op.Name, p)
	}
	r, err := c.allocTile(res)
	if err != nil {
		return err
	}
	pattern := attr{name: "maskPattern", val: "#pto.mask_pattern<" + ir.MaskPatterns[p].Name + ">"}
	c.stmtOp(inst, []value{src, r}, []attr{pattern},
		fmt.Sprintf("%s ins(%s, {%s = %s} : %s, \"row\") outs(%s : %s)", inst, src.ssa, pattern.name, pattern.val, src.typ, r.ssa, r.typ))
	return nil
}

// tile.transpose → pto.ttrans ins(%src, %tmp) outs(%dst), as upstream
// emits its four-argument form; the axes are the types'.
func emitTranspose(c *Ctx, call *ir.Call, res *ir.Var) error {
	if len(call.Args) != 4 {
		return fmt.Errorf("tile.transpose: pto.ttrans needs the scratch tile, the fourth argument (tensor.transpose's lowering adds it)")
	}
	return emitTiles("pto.ttrans", nil)(c, withArgs(call, call.Args[0], call.Args[3]), res)
}

// withArgs is call with only the operands an instruction reads (the rest
// are type-only, or the destination the result is declared at).
func withArgs(call *ir.Call, args ...ir.Expr) *ir.Call {
	return &ir.Call{Op: call.Op, Args: args, Kwargs: call.Kwargs, T: call.T, Pos: call.Pos}
}

// tiles is the values of tile operands.
func (c *Ctx) tiles(es []ir.Expr) ([]value, error) {
	out := make([]value, len(es))
	for i, e := range es {
		v, _, err := c.tile(e)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// tile.matmul_acc → pto.tmatmul.acc of acc, lhs and rhs. With init_cond
// the pto ops expose the MAD's initialise bit only as the choice between
// the plain and the accumulating op, so a run-time predicate is an scf.if
// over the two, each writing the result in place (no phi), as upstream
// emits it.
func emitMatmulAcc(c *Ctx, call *ir.Call, res *ir.Var) error {
	if len(call.Args) < 4 {
		return emitTiles("pto.tmatmul.acc", nil)(c, call, res)
	}
	ins, err := c.tiles(call.Args[:3])
	if err != nil {
		return err
	}
	cond, err := c.as(call.Args[3], ir.BOOL, "")
	if err != nil {
		return err
	}
	r, err := c.allocTile(res)
	if err != nil {
		return err
	}
	branch := func(inst string, operands []value) ([]*operation, error) {
		ops, err := c.region(func() error {
			c.insOuts(inst, operands, []value{r}, nil)
			return nil
		})
		return append(ops, &operation{name: "scf.yield", custom: "scf.yield", implicit: true}), err
	}
	init, err := branch("pto.tmatmul", ins[1:])
	if err != nil {
		return err
	}
	accum, err := branch("pto.tmatmul.acc", ins)
	if err != nil {
		return err
	}
	c.emit(&operation{name: "scf.if", operands: []value{cond}, custom: "scf.if " + cond.ssa + " {", sep: "else",
		regions: []*region{{ops: init}, {ops: accum}}})
	return nil
}
