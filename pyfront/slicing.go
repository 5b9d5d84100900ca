package pyfront

import "github.com/ptorepl/ptorepl/ir"

// Numpy-style subscripts of tensors, read and written, by upstream's
// parser rules: x[a:b, c] is tensor.slice(x, [b-a, 1], [a, c]) with the
// scalar-indexed dimension dropped, missing trailing indices are a whole
// ':', and dst[a:b, c:d] = src rebinds dst to tensor.assemble(dst, src,
// [a, c]).

// subscriptPart is one index of a subscript: a scalar (idx) or a slice
// (lower and upper, nil when left out).
type subscriptPart struct {
	node         *node
	slice        bool
	idx          value
	lower, upper value
}

// hasSlice reports whether any index of a subscript is a slice (a:b).
func hasSlice(subs []*node) bool {
	for _, s := range subs {
		if s.Kind() == "slice" {
			return true
		}
	}
	return false
}

// subscriptParts evaluates a subscript's indices; what names a tensor of
// rank dims for the messages.
func (fc *fnCtx) subscriptParts(n *node, subs []*node, what string, rank int) []subscriptPart {
	r := fc.r
	if len(subs) > rank {
		r.fail(n, "%s subscript has %d indices but the %s is %dD", what, len(subs), what, rank)
	}
	parts := make([]subscriptPart, len(subs))
	for i, s := range subs {
		parts[i].node = s
		if s.Kind() != "slice" {
			parts[i].idx = r.evalIn(s, fc.env, fc)
			continue
		}
		parts[i].slice = true
		// A slice's children are its bounds between ':' tokens.
		field := 0
		for k := uint(0); k < s.ChildCount(); k++ {
			c := s.Child(k)
			switch {
			case c.Kind() == ":":
				field++
			case c.Kind() == "comment":
			case field == 0:
				parts[i].lower = r.evalIn(c, fc.env, fc)
			case field == 1:
				parts[i].upper = r.evalIn(c, fc.env, fc)
			default:
				r.fail(s, "slice step is not supported in %s subscript: use a[start:stop]", what)
			}
		}
	}
	return parts
}

// window is the full-rank region a subscript names in dims: offsets,
// extents, and the dimensions its scalar indices drop.
func (fc *fnCtx) window(parts []subscriptPart, dims []ir.Expr) (offs, exts []ir.Expr, drop []int64) {
	r := fc.r
	for i, p := range parts {
		if !p.slice {
			offs = append(offs, r.toExpr(p.node, p.idx))
			exts = append(exts, ir.Int(1))
			drop = append(drop, int64(i))
			continue
		}
		lower, upper := p.lower, p.upper
		if lower == nil {
			lower = int64(0)
		}
		if upper == nil {
			upper = dims[i]
		}
		offs = append(offs, r.toExpr(p.node, lower))
		exts = append(exts, fc.extent(p.node, lower, upper))
	}
	for _, d := range dims[len(parts):] {
		offs = append(offs, ir.Int(0))
		exts = append(exts, d)
	}
	return offs, exts, drop
}

// extent is upper - lower, folded when both are known.
func (fc *fnCtx) extent(n *node, lower, upper value) ir.Expr {
	r := fc.r
	l, u := r.toExpr(n, lower), r.toExpr(n, upper)
	lv, lok := ir.ConstValue(l)
	uv, uok := ir.ConstValue(u)
	switch {
	case lok && uok:
		if uv <= lv {
			r.fail(n, "the slice %d:%d is empty", lv, uv)
		}
		return ir.Int(uv - lv)
	case lok && lv == 0:
		return u
	}
	// k0 : k0 + 128 is 128 wide, as upstream's arithmetic analyzer folds it.
	if d, ok := ir.ConstDiff(u, l); ok {
		if d <= 0 {
			r.fail(n, "the slice is empty (its upper bound is %d below its lower one)", -d)
		}
		return ir.Int(d)
	}
	return r.binExpr(n, ir.OpSub, u, l)
}

// sliceRead is x[...] on a tensor with at least one slice.
func (fc *fnCtx) sliceRead(n *node, x ir.Expr, subs []*node) ir.Expr {
	r := fc.r
	if tt, ok := x.Type().(*ir.TileType); ok {
		return fc.tileRegion(n, x, tt, subs)
	}
	tl, ok := ir.AsTensorLike(x.Type())
	if !ok {
		r.fail(n, "cannot slice %s: subscripts with a:b take a tensor or a tile", ir.Describe(x))
	}
	return fc.region(n, x, tl, fc.subscriptParts(n, subs, "tensor", len(tl.Shape)))
}

// tileRegion is x[a:b, c:d] on a tile: the tile.slice of that window, as
// upstream's parser reads it (a view of the tile, no data moved).
func (fc *fnCtx) tileRegion(n *node, x ir.Expr, tt *ir.TileType, subs []*node) ir.Expr {
	r := fc.r
	offs, exts, drop := fc.window(fc.subscriptParts(n, subs, "tile", len(tt.Shape)), tt.Shape)
	if len(drop) > 0 {
		r.fail(n, "a tile subscript with a scalar index would drop dimension %d: slice it (i:i+1)", drop[0])
	}
	c, err := ir.TileSlice.NewCall([]ir.Expr{x, &ir.MakeTuple{Elems: exts}, &ir.MakeTuple{Elems: offs}}, nil, r.pos(n))
	if err != nil {
		r.failErr(n, err)
	}
	return c
}

// region is the tensor.slice of x a subscript's parts name (fc.index's
// scalar indices and sliceRead's slices alike).
func (fc *fnCtx) region(n *node, x ir.Expr, tl ir.TensorLike, parts []subscriptPart) ir.Expr {
	r := fc.r
	offs, exts, drop := fc.window(parts, tl.Shape)
	args := []ir.Expr{x, &ir.MakeTuple{Elems: exts}, &ir.MakeTuple{Elems: offs}}
	if len(drop) > 0 {
		args = append(args, &ir.MakeTuple{}, ir.Dims(drop...))
	}
	c, err := ir.TensorSlice.NewCall(args, nil, r.pos(n))
	if err != nil {
		r.failErr(n, err)
	}
	return c
}

// subscriptAssign reads dst[...] = src: dst is rebound to
// tensor.assemble(dst, src, offsets), as upstream's parser desugars it.
func (fc *fnCtx) subscriptAssign(n, left, right *node) []ir.Stmt {
	r := fc.r
	base := left.ChildByFieldId(fldValue)
	if base.Kind() != "identifier" {
		r.fail(left, "subscript-write target must be a variable name, got %s", r.text(base))
	}
	name := r.text(base)
	if v, ok := fc.env.lookup(name); ok {
		if a, ok := v.(ir.Expr); ok {
			if _, isArray := a.Type().(*ir.ArrayType); isArray {
				return fc.arrayAssign(n, left, right, name, a)
			}
		}
	}
	dst, tl, ok := fc.tensorValue(base)
	if !ok {
		r.fail(left, "subscript-write requires a tensor target, given %s", r.text(base))
	}
	subs := left.ChildrenByField(fldSubscript)
	parts := fc.subscriptParts(left, subs, "tensor", len(tl.Shape))
	if !hasSlice(subs) && len(subs) == len(tl.Shape) {
		r.fail(left, "element-write 'dst[i, j] = scalar' is not supported for tensor targets: use pl.write, or slice indices (dst[i:i+1, j:j+1] = t)")
	}
	offs, exts, drop := fc.window(parts, tl.Shape)
	src, st, ok := fc.tensorValue(right)
	if !ok {
		r.fail(right, "subscript-write source must also be a tensor, given %s", r.text(right))
	}
	if len(drop) > 0 {
		r.fail(left, "a subscript-write with a scalar index (it drops dimension %d) is not supported yet: slice that dimension too (i:i+1)", drop[0])
	}
	if len(st.Shape) != len(exts) {
		r.fail(right, "subscript-write source must be %dD to match the window, got %dD", len(exts), len(st.Shape))
	}
	// The window matches the source's shape, or its valid region when it
	// has one (a padded source narrowed by pl.set_validshape), as
	// upstream's parser accepts either.
	var valid []ir.Expr
	if st.View != nil && len(st.View.ValidShape) == len(st.Shape) {
		valid = st.View.ValidShape
	}
	for i := range exts {
		want, ok1 := ir.ConstValue(exts[i])
		got, ok2 := ir.ConstValue(st.Shape[i])
		if !ok1 || !ok2 || want == got {
			continue
		}
		if valid != nil {
			if v, ok := ir.ConstValue(valid[i]); !ok || v == want {
				continue
			}
		}
		r.fail(right, "subscript-write shape mismatch on source axis %d: window expects %d elements, source has %d", i, want, got)
	}
	c, err := ir.TensorAssemble.NewCall([]ir.Expr{dst, src, &ir.MakeTuple{Elems: offs}}, nil, r.pos(left))
	if err != nil {
		r.failErr(left, err)
	}
	nv := ir.NewVar(name, c.Type(), r.pos(base))
	fc.bind(name, nv)
	return []ir.Stmt{&ir.AssignStmt{StmtBase: ir.StmtBase{Pos: r.pos(n)}, Var: nv, Value: c}}
}

// tensorValue evaluates n; ok when it is a tensor.
func (fc *fnCtx) tensorValue(n *node) (ir.Expr, ir.TensorLike, bool) {
	e, ok := fc.r.evalIn(n, fc.env, fc).(ir.Expr)
	if !ok {
		return nil, ir.TensorLike{}, false
	}
	tl, ok := ir.AsTensorLike(e.Type())
	return e, tl, ok
}

// arrayAssign reads arr[i] = v: arr is rebound to
// pl.array.update_element(arr, i, v), as upstream's parser desugars it.
func (fc *fnCtx) arrayAssign(n, left, right *node, name string, arr ir.Expr) []ir.Stmt {
	r := fc.r
	subs := left.ChildrenByField(fldSubscript)
	if len(subs) != 1 {
		r.fail(left, "an array takes one index, given %d", len(subs))
	}
	idx := r.evalIn(subs[0], fc.env, fc)
	val := r.evalIn(right, fc.env, fc)
	c := fc.opCall(n, ir.ArrayUpdateElement, []value{arr, idx, val}, []*node{left.ChildByFieldId(fldValue), subs[0], right}, nil)
	nv := ir.NewVar(name, c.Type(), r.pos(left))
	fc.bind(name, nv)
	return []ir.Stmt{&ir.AssignStmt{StmtBase: ir.StmtBase{Pos: r.pos(n)}, Var: nv, Value: c}}
}
