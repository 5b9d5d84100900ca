package pto

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Tensor views (pto.md §2) and the peer-addressed view prologue (§3).

// dimValue is a shape dim as an index value, and its static value if any.
func (c *Ctx) dimValue(d ir.Expr) (value, int64, bool, error) {
	if v, ok := ir.ConstValue(d); ok {
		return c.cIndex(v), v, true, nil
	}
	v, err := c.index(d)
	return v, 0, false, err
}

// dim is an index value with its static value, if known.
type dim struct {
	v      value
	n      int64
	static bool
}

// mulDim multiplies two dims, folding static ones.
func (c *Ctx) mulDim(a, b dim) dim {
	if a.static && b.static {
		return dim{c.cIndex(a.n * b.n), a.n * b.n, true}
	}
	if a.static && a.n == 1 {
		return b
	}
	if b.static && b.n == 1 {
		return a
	}
	return dim{v: c.bin("", "arith.muli", a.v, b.v)}
}

// rowMajorStrides are the element strides of a row-major tensor of dims.
func (c *Ctx) rowMajorStrides(dims []dim) []dim {
	strides := make([]dim, len(dims))
	acc := dim{c.cIndex(1), 1, true}
	for i := len(dims) - 1; i >= 0; i-- {
		strides[i] = acc
		if i > 0 {
			acc = c.mulDim(acc, dims[i])
		}
	}
	return strides
}

// makeView emits pto.make_tensor_view of ptr with t's shape: strides
// row-major ND, or the view's own strides and layout; a rank >= 2 tensor
// whose last dim is a static 1 and that has no explicit view is a column
// vector: layout dn with stride[rank-2] = 1.
func (c *Ctx) makeView(t *tensor, ptr value, hint string) (value, error) {
	rank := len(t.shape)
	dims := make([]dim, rank)
	for i, d := range t.shape {
		v, n, ok, err := c.dimValue(d)
		if err != nil {
			return value{}, fmt.Errorf("shape of %s: %v", t.name, err)
		}
		dims[i] = dim{v, n, ok}
	}
	strides := make([]dim, rank)
	layout := "nd"
	last1 := rank >= 2 && dims[rank-1].static && dims[rank-1].n == 1
	switch {
	case t.view != nil && len(t.view.Stride) == rank:
		for i, s := range t.view.Stride {
			v, n, ok, err := c.dimValue(s)
			if err != nil {
				return value{}, fmt.Errorf("strides of %s: %v", t.name, err)
			}
			strides[i] = dim{v, n, ok}
		}
		layout = strings.ToLower(t.view.Layout.Name())
	case t.view == nil && last1:
		layout = "dn"
		strides[rank-2] = dim{c.cIndex(1), 1, true}
		strides[rank-1] = dims[rank-2]
		if rank > 2 {
			acc := c.mulDim(dims[rank-2], dims[rank-1])
			for i := rank - 3; i >= 0; i-- {
				strides[i] = acc
				if i > 0 {
					acc = c.mulDim(acc, dims[i])
				}
			}
		}
	default:
		if t.view != nil {
			layout = strings.ToLower(t.view.Layout.Name())
		}
		strides = c.rowMajorStrides(dims)
	}
	shapeVals := make([]value, rank)
	strideVals := make([]value, rank)
	for i := range dims {
		shapeVals[i] = dims[i].v
		strideVals[i] = strides[i].v
	}
	typ := tensorViewType(rank, t.elem)
	la := "#pto.layout<" + layout + ">"
	custom := fmt.Sprintf("pto.make_tensor_view %s, shape = [%s], strides = [%s] {layout = %s} : %s",
		ptr.ssa, ssaList(shapeVals), ssaList(strideVals), la, typ)
	operands := append(append([]value{ptr}, shapeVals...), strideVals...)
	return c.op(hint, typ, "pto.make_tensor_view", operands,
		[]attr{{"layout", la}, segments(1, rank, rank)}, custom), nil
}

// segments is the generic form's operand_segment_sizes.
func segments(sizes ...int) attr {
	s := make([]string, len(sizes))
	for i, n := range sizes {
		s[i] = itoa(n)
	}
	return attr{"operand_segment_sizes", "array<i32: " + strings.Join(s, ", ") + ">"}
}

// localView is the tensor's local view, made once and placed after the
// hoisted constants so it dominates every use.
func (c *Ctx) localView(t *tensor) (value, error) {
	if t.local != nil {
		return *t.local, nil
	}
	saved := c.block
	c.block = &c.prologue
	v, err := c.makeView(t, t.ptr, t.name+"_view")
	c.block = saved
	if err != nil {
		return value{}, err
	}
	t.local = &v
	return v, nil
}

// peerView is the view of peer's copy of a DistributedTensor (§3): the peer
// offset in elements, pto.addptr on the local pointer, then a view.
func (c *Ctx) peerView(t *tensor, peer ir.Expr) (value, error) {
	if !t.dtype.WholeBytes() {
		return value{}, fmt.Errorf("%s has element type %s: Distributed remote ops only support byte-sized element types", t.name, t.dtype)
	}
	if !t.dist || t.ctx == nil {
		return value{}, fmt.Errorf("%s is not a DistributedTensor parameter bound to a CommCtx", t.name)
	}
	peerHint := ""
	if v, ok := peer.(*ir.Var); ok {
		peerHint = v.Name + "_idx"
	}
	p, err := c.indexHint(peer, peerHint)
	if err != nil {
		return value{}, fmt.Errorf("peer: %v", err)
	}
	var off value
	if c.o.InlineRemoteOffset {
		off = c.inlineRemoteOffset(*t.ctx, p, t.dtype.Bytes())
	} else {
		fn := c.mod.helper(t.elem, t.dtype.Bytes())
		off = c.fresh("", "index")
		c.emit(&operation{name: "func.call", res: []value{off}, operands: []value{*t.ctx, p},
			attrs:  []attr{{"callee", "@" + fn}},
			custom: fmt.Sprintf("func.call @%s(%s, %s) : (%s, index) -> index", fn, t.ctx.ssa, p.ssa, ctxType)})
	}
	ptr := c.op("", t.ptr.typ, "pto.addptr", []value{t.ptr, off}, nil,
		fmt.Sprintf("pto.addptr %s, %s : %s -> %s", t.ptr.ssa, off.ssa, t.ptr.typ, t.ptr.typ))
	return c.makeView(t, ptr, "")
}

// loadScalar is `pto.load_scalar %ptr[%i] : !pto.ptr<T> -> T`.
func (c *Ctx) loadScalar(hint string, ptr, idx value, typ string) value {
	return c.op(hint, typ, "pto.load_scalar", []value{ptr, idx}, nil,
		fmt.Sprintf("pto.load_scalar %s[%s] : %s -> %s", ptr.ssa, idx.ssa, ptr.typ, typ))
}

// CommContext slots (u64): (rankId, rankNum) is slot 2, windowsIn[i] is slot 4+i.
const (
	slotRank    = 2
	slotWindows = 4
)

// inlineRemoteOffset is PyPTO main's EmitCommRemoteOffsetInline: the peer's
// window base minus ours, in elements.
func (c *Ctx) inlineRemoteOffset(ctx, peer value, bytes int) value {
	pair := c.loadScalar("", ctx, c.cIndex(slotRank), "i64")
	rk := c.castOp("arith.trunci", pair, "i32")
	rkIdx := c.castOp("arith.index_cast", rk, "index")
	lOff := c.bin("", "arith.addi", c.cIndex(slotWindows), rkIdx)
	lBase := c.loadScalar("", ctx, lOff, "i64")
	pOff := c.bin("", "arith.addi", c.cIndex(slotWindows), peer)
	pBase := c.loadScalar("", ctx, pOff, "i64")
	diff := c.bin("", "arith.subi", pBase, lBase)
	elems := c.bin("", "arith.divsi", diff, c.consts.int(int64(bytes), "i64"))
	return c.castOp("arith.index_cast", elems, "index")
}

// castOp is an unnamed `name %x : A to B`.
func (c *Ctx) castOp(name string, x value, typ string) value {
	return c.op("", typ, name, []value{x}, nil, fmt.Sprintf("%s %s : %s to %s", name, x.ssa, x.typ, typ))
}

// partitionView is `%<hint>_pview = pto.partition_view %view, offsets = [...],
// sizes = [...]`: offsets cast to index; sizes as index values, and the type
// shows static sizes.
func (c *Ctx) partitionView(t *tensor, view value, offsets, sizes []ir.Expr, hint string) (value, error) {
	if len(offsets) != len(t.shape) || len(sizes) != len(t.shape) {
		return value{}, fmt.Errorf("a region of %d offsets and %d sizes on rank-%d tensor %s", len(offsets), len(sizes), len(t.shape), t.name)
	}
	offs := make([]value, len(offsets))
	for i, o := range offsets {
		v, err := c.index(o)
		if err != nil {
			return value{}, fmt.Errorf("offset %d: %v", i, err)
		}
		offs[i] = v
	}
	szs := make([]value, len(sizes))
	for i, s := range sizes {
		v, _, _, err := c.dimValue(s)
		if err != nil {
			return value{}, fmt.Errorf("size %d: %v", i, err)
		}
		szs[i] = v
	}
	typ := partitionType(sizes, t.elem)
	custom := fmt.Sprintf("pto.partition_view %s, offsets = [%s], sizes = [%s] : %s -> %s",
		view.ssa, ssaList(offs), ssaList(szs), view.typ, typ)
	operands := append(append([]value{view}, offs...), szs...)
	return c.op(hint+"_pview", typ, "pto.partition_view", operands,
		[]attr{segments(1, len(offs), len(szs))}, custom), nil
}

// localPartition is a partition view of a tensor's local view, named
// <param>_local_pview after the parameter the tensor aliases.
func (c *Ctx) localPartition(e ir.Expr, offsets, sizes []ir.Expr) (*tensor, value, error) {
	t, err := c.tensorOf(e)
	if err != nil {
		return nil, value{}, err
	}
	view, err := c.localView(t)
	if err != nil {
		return nil, value{}, err
	}
	pv, err := c.partitionView(t, view, offsets, sizes, t.name+"_local")
	return t, pv, err
}

// peerPartition is a partition view of peer's copy, named <param>_peer_pview.
func (c *Ctx) peerPartition(e, peer ir.Expr, offsets, sizes []ir.Expr) (*tensor, value, error) {
	t, err := c.tensorOf(e)
	if err != nil {
		return nil, value{}, err
	}
	view, err := c.peerView(t, peer)
	if err != nil {
		return nil, value{}, err
	}
	pv, err := c.partitionView(t, view, offsets, sizes, t.name+"_peer")
	return t, pv, err
}

// zeros is a tuple of INDEX zeros.
func zeros(n int) []ir.Expr {
	out := make([]ir.Expr, n)
	for i := range out {
		out[i] = ir.Int(0)
	}
	return out
}

// ones is a tuple of INDEX ones.
func ones(n int) []ir.Expr {
	out := make([]ir.Expr, n)
	for i := range out {
		out[i] = ir.Int(1)
	}
	return out
}

// tuple returns the elements of a MakeTuple argument.
func tuple(call *ir.Call, i int) ([]ir.Expr, error) {
	if i >= len(call.Args) {
		return nil, fmt.Errorf("argument %d is missing", i)
	}
	mt, ok := call.Args[i].(*ir.MakeTuple)
	if !ok {
		return nil, fmt.Errorf("argument '%s' must be a tuple, got %s", call.Op.ArgName(i), ir.Describe(call.Args[i]))
	}
	return mt.Elems, nil
}
