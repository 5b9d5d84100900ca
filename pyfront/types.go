//go:build cgo

package pyfront

import (
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// tileViewSpec is a pl.TileView(...) whose unset layouts take the tile's
// implicit ones once its memory space is known.
type tileViewSpec []kwArg

func (r *reader) subscript(n *node, e *env, fc *fnCtx) value {
	head := r.dotted(n.ChildByFieldId(fldValue))
	subs := r.subscriptArgs(n)
	items := func() []value {
		out := make([]value, len(subs))
		for i, s := range subs {
			out[i] = r.evalIn(s, e, fc)
		}
		return out
	}
	switch head {
	case "pl.Scalar":
		it := items()
		if len(it) != 1 {
			r.fail(n, "pl.Scalar takes one dtype: pl.Scalar[pl.INT32]")
		}
		dt, ok := it[0].(ir.DataType)
		if !ok {
			r.fail(subs[0], "pl.Scalar: expected a dtype, given %s", describe(it[0]))
		}
		return ir.Scalar(dt)
	case "pl.Tensor", "pld.DistributedTensor":
		it := items()
		if len(it) < 2 {
			r.fail(n, "%s takes a shape and a dtype: %s[[16, 64], pl.FP32]", head, head)
		}
		shape := r.shape(subs[0], it[0])
		dt, ok := it[1].(ir.DataType)
		if !ok {
			r.fail(subs[1], "%s: expected a dtype, given %s", head, describe(it[1]))
		}
		var view *ir.TensorView
		var mr *ir.MemRef
		for i, x := range it[2:] {
			switch v := x.(type) {
			case *ir.TensorView:
				view = v
			case *ir.MemRef:
				mr = v
			case ir.TensorLayout:
				// A bare layout (pl.NZ) is a stride-less view carrying it,
				// as upstream widens it; DN is refused as upstream does.
				if v == ir.LayoutDN {
					r.fail(subs[i+2], "%s[..., %s] is not supported: the DN layout-only shorthand forces two coordinate systems onto one annotation; "+
						"keep the source shape and derive DN with pl.transpose(x, -2, -1), or write pl.TensorView(stride=[...], layout=pl.TensorLayout.DN)", head, r.text(subs[i+2]))
				}
				view = &ir.TensorView{Layout: v}
			case string:
				if head == "pld.DistributedTensor" && strings.HasPrefix(v, "window_buffer=") {
					continue // explicit-layout marker; the buffer comes from the comm domain
				}
				r.fail(subs[i+2], "%s: unexpected %q", head, v)
			default:
				r.fail(subs[i+2], "%s: expected pl.TensorView(...) or pl.MemRef(...), given %s", head, describe(x))
			}
		}
		if head == "pl.Tensor" {
			return &ir.TensorType{Shape: shape, DType: dt, View: view, MemRef: mr}
		}
		return &ir.DistributedTensorType{Shape: shape, DType: dt, View: view, MemRef: mr}
	case "pl.Tile":
		it := items()
		if len(it) < 2 {
			r.fail(n, "pl.Tile takes a shape and a dtype: pl.Tile[[16, 64], pl.FP32]")
		}
		shape := r.shape(subs[0], it[0])
		dt, ok := it[1].(ir.DataType)
		if !ok {
			r.fail(subs[1], "pl.Tile: expected a dtype, given %s", describe(it[1]))
		}
		t := &ir.TileType{Shape: shape, DType: dt, Memory: ir.MemNone}
		var spec tileViewSpec
		hasView := false
		for i, x := range it[2:] {
			switch v := x.(type) {
			case *ir.MemRef:
				t.MemRef = v
			case ir.MemorySpace:
				t.Memory = v
			case tileViewSpec:
				spec, hasView = v, true
			default:
				r.fail(subs[i+2], "pl.Tile: expected pl.MemRef(...), pl.Mem.X or pl.TileView(...), given %s", describe(x))
			}
		}
		if hasView {
			// Canonical as the tile types ops deduce: a view that says only
			// what the shape and memory imply is none.
			c := ir.NewTileType(shape, dt, t.Memory, r.tileView(spec, shape, t.Memory, e, fc))
			c.MemRef = t.MemRef
			return c
		}
		return t
	case "pl.Out", "pl.InOut":
		it := items()
		if len(it) != 1 {
			r.fail(n, "%s takes one type", head)
		}
		t, ok := it[0].(ir.Type)
		if !ok {
			r.fail(subs[0], "%s: expected a type, given %s", head, describe(it[0]))
		}
		dir := ir.Out
		if head == "pl.InOut" {
			dir = ir.InOut
		}
		return dirType{dir, t}
	case "pl.Tuple", "tuple":
		it := items()
		tt := &ir.TupleType{}
		for i, x := range it {
			if tup, ok := x.(pyTuple); ok && len(tup) == 0 && len(it) == 1 {
				break
			}
			t, ok := x.(ir.Type)
			if !ok {
				r.fail(subs[i], "%s: expected a type, given %s", head, describe(x))
			}
			tt.Types = append(tt.Types, t)
		}
		return tt
	case "pl.Array":
		it := items()
		if len(it) != 2 {
			r.fail(n, "pl.Array takes an extent and a dtype")
		}
		ext, ok1 := it[0].(int64)
		dt, ok2 := it[1].(ir.DataType)
		if !ok1 || !ok2 {
			r.fail(n, "pl.Array: expected pl.Array[16, pl.INT32]")
		}
		return &ir.ArrayType{Extent: ext, DType: dt}
	}
	// Indexing a value.
	obj := r.evalIn(n.ChildByFieldId(fldValue), e, fc)
	if x, ok := obj.(ir.Expr); ok && fc != nil && hasSlice(subs) {
		return fc.sliceRead(n, x, subs)
	}
	if len(subs) > 1 {
		// x[i, r]: leading rows of a tensor, in any function.
		if x, ok := obj.(ir.Expr); ok && fc != nil {
			idxs := make([]value, len(subs))
			for i, sub := range subs {
				idxs[i] = r.evalIn(sub, e, fc)
			}
			return fc.index(n, x, subs, idxs)
		}
		r.fail(n, "unsupported subscript %s", r.text(n))
	}
	if subs[0].Kind() == "slice" {
		// xs[a:b:c] of a compile-time list or tuple, as Python slices it.
		switch o := obj.(type) {
		case pyList:
			return pyList(r.pySlice(subs[0], []value(o), e, fc))
		case pyTuple:
			return pyTuple(r.pySlice(subs[0], []value(o), e, fc))
		}
		r.fail(n, "a slice %s of %s: slices take a compile-time list or tuple", r.text(subs[0]), describe(obj))
	}
	idx := r.evalIn(subs[0], e, fc)
	switch o := obj.(type) {
	case *ir.MemRef:
		c := *o
		c.SlotIndex = r.toExpr(subs[0], idx)
		return &c
	case pyList:
		return r.pyIndex(subs[0], []value(o), idx)
	case pyTuple:
		return r.pyIndex(subs[0], []value(o), idx)
	case *pyDict:
		i := o.find(idx)
		if i < 0 {
			r.fail(subs[0], "key %s is not in the dict", describe(idx))
		}
		return o.vals[i]
	case ir.Expr:
		if _, ok := o.Type().(*ir.ArrayType); ok && fc != nil {
			// tids[i] reads one element (array.get_element).
			return fc.opCall(n, ir.ArrayGetElement, []value{o, idx}, []*node{n.ChildByFieldId(fldValue), subs[0]}, nil)
		}
		if tt, ok := o.Type().(*ir.TupleType); ok {
			i, ok := idx.(int64)
			if !ok || i < 0 || int(i) >= len(tt.Types) {
				r.fail(subs[0], "tuple index must be a constant in [0, %d), given %s", len(tt.Types), describe(idx))
			}
			return &ir.TupleGetItem{Tuple: o, Index: int(i), Pos: r.pos(n)}
		}
		if fc != nil {
			// x[r] in any function, as upstream's parser reads it.
			return fc.index(n, o, subs, []value{idx})
		}
		r.fail(n, "cannot index %s", ir.Describe(o))
	}
	r.fail(n, "cannot index %s", describe(obj))
	return nil
}

// pySlice is xs[start:stop:step] with Python's bounds rules.
func (r *reader) pySlice(n *node, xs []value, e *env, fc *fnCtx) []value {
	// The slice's parts in order, each after its colon or before the first.
	parts := [3]*node{}
	k := 0
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if c.Kind() == ":" {
			k++
			continue
		}
		if c.IsNamed() && c.Kind() != "comment" && k < 3 {
			parts[k] = c
		}
	}
	bound := func(p *node, def int64) int64 {
		if p == nil {
			return def
		}
		v, ok := r.evalIn(p, e, fc).(int64)
		if !ok {
			r.fail(p, "a slice bound must be an int")
		}
		return v
	}
	n64 := int64(len(xs))
	step := bound(parts[2], 1)
	if step == 0 {
		r.fail(n, "slice step cannot be zero")
	}
	clamp := func(v, lo, hi int64) int64 {
		if v < 0 {
			v += n64
		}
		return min(max(v, lo), hi)
	}
	var out []value
	if step > 0 {
		for i := clamp(bound(parts[0], 0), 0, n64); i < clamp(bound(parts[1], n64), 0, n64); i += step {
			out = append(out, xs[i])
		}
	} else {
		start, stop := n64-1, int64(-1)
		if parts[0] != nil {
			start = clamp(bound(parts[0], 0), -1, n64-1)
		}
		if parts[1] != nil {
			stop = clamp(bound(parts[1], 0), -1, n64-1)
		}
		for i := start; i > stop; i += step {
			out = append(out, xs[i])
		}
	}
	if out == nil {
		out = []value{}
	}
	return out
}

func (r *reader) pyIndex(n *node, xs []value, idx value) value {
	i, ok := idx.(int64)
	if !ok {
		r.fail(n, "list index must be an int, given %s", describe(idx))
	}
	if i < 0 {
		i += int64(len(xs))
	}
	if i < 0 || int(i) >= len(xs) {
		r.fail(n, "list index out of range")
	}
	return xs[i]
}

// shape converts a shape list.
func (r *reader) shape(n *node, v value) []ir.Expr {
	var xs []value
	switch t := v.(type) {
	case pyList:
		xs = t
	case pyTuple:
		xs = t
	default:
		r.fail(n, "expected a shape list like [16, 64], given %s", describe(v))
	}
	out := make([]ir.Expr, len(xs))
	for i, x := range xs {
		out[i] = r.toExpr(n, x)
		if st, ok := out[i].Type().(*ir.ScalarType); !ok || !st.DType.IsInt() {
			r.fail(n, "shape dimension %d must be an integer, given %s", i, describe(x))
		}
	}
	return out
}

func (r *reader) memRef(n *node, pos []value, nodes []*node, kws []kwArg, fc *fnCtx) value {
	if len(pos) == 0 && r.binding != "" {
		// SCRATCH = pl.MemRef(slots=2): the allocation takes its
		// variable's name, as upstream's DSL gives it.
		pos, nodes = []value{r.binding}, []*node{n}
	}
	if len(pos) != 1 && len(pos) != 3 {
		r.fail(n, "pl.MemRef takes (base, byte_offset, size[, slots=N]) or (\"name\"[, slots=N]); at module level NAME = pl.MemRef([slots=N]) names it NAME")
	}
	var base *ir.Var
	switch b := pos[0].(type) {
	case string:
		if fc != nil {
			if v, ok := fc.memrefBases[b]; ok {
				base = v
			} else {
				base = ir.NewVar(b, ir.PtrT, r.pos(nodes[0]))
				fc.memrefBases[b] = base
			}
		} else {
			base = ir.NewVar(b, ir.PtrT, r.pos(nodes[0]))
		}
	case ir.Expr:
		v, ok := ir.VarOf(b)
		if !ok {
			r.fail(nodes[0], "pl.MemRef: the base must be a variable or a name string")
		}
		base = v
	default:
		r.fail(nodes[0], "pl.MemRef: the base must be a variable or a name string, given %s", describe(pos[0]))
	}
	slots := 1
	for _, k := range kws {
		if k.name != "slots" {
			r.fail(k.node, "pl.MemRef: unknown keyword %s (expected slots)", k.name)
		}
		s, ok := k.val.(int64)
		if !ok {
			r.fail(k.node, "pl.MemRef: slots= takes an int")
		}
		slots = int(s)
	}
	if len(pos) == 1 {
		m := ir.NewMemRef(base, nil, 0, r.pos(n))
		m.Pinned = true
		m.SlotCount = slots
		return m
	}
	off := r.toExpr(nodes[1], pos[1])
	size, ok := pos[2].(int64)
	if !ok || size < 0 {
		r.fail(nodes[2], "pl.MemRef: size must be a non-negative int, given %s", describe(pos[2]))
	}
	m := ir.NewMemRef(base, off, uint64(size), r.pos(n))
	m.SlotCount = slots
	return m
}

func (r *reader) tensorView(n *node, pos []value, kws []kwArg) value {
	if len(pos) > 0 {
		r.fail(n, "pl.TensorView takes keyword arguments only")
	}
	v := &ir.TensorView{}
	for _, k := range kws {
		switch k.name {
		case "stride":
			v.Stride = r.shape(k.node, k.val)
		case "valid_shape":
			v.ValidShape = r.shape(k.node, k.val)
		case "layout":
			l, ok := k.val.(ir.TensorLayout)
			if !ok {
				r.fail(k.node, "pl.TensorView: layout= takes pl.TensorLayout.X")
			}
			v.Layout = l
		case "pad":
			p, ok := k.val.(ir.PadValue)
			if !ok {
				r.fail(k.node, "pl.TensorView: pad= takes pl.PadValue.X")
			}
			v.Pad = p
		default:
			r.fail(k.node, "pl.TensorView: unknown keyword %s (expected stride, layout, valid_shape, pad)", k.name)
		}
	}
	return v
}

func (r *reader) tileView(spec tileViewSpec, shape []ir.Expr, mem ir.MemorySpace, e *env, fc *fnCtx) *ir.TileView {
	v := ir.ImplicitTileView(shape, mem)
	for _, k := range spec {
		switch k.name {
		case "valid_shape":
			v.ValidShape = r.shape(k.node, k.val)
		case "stride":
			v.Stride = r.shape(k.node, k.val)
		case "start_offset":
			v.StartOffset = r.toExpr(k.node, k.val)
		case "blayout", "slayout":
			l, ok := k.val.(ir.TileLayout)
			if !ok {
				r.fail(k.node, "pl.TileView: %s= takes pl.TileLayout.X", k.name)
			}
			if k.name == "blayout" {
				v.BLayout = l
			} else {
				v.SLayout = l
			}
		case "fractal":
			f, ok := k.val.(int64)
			if !ok {
				r.fail(k.node, "pl.TileView: fractal= takes an int")
			}
			v.Fractal = int(f)
		case "pad":
			p, ok := k.val.(ir.PadValue)
			if !ok {
				r.fail(k.node, "pl.TileView: pad= takes pl.PadValue.X")
			}
			v.Pad = p
		default:
			r.fail(k.node, "pl.TileView: unknown keyword %s", k.name)
		}
	}
	return &v
}
