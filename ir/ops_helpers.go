package ir

import (
	"fmt"
	"strings"
)

// Helpers shared by the op registrations in ops_*.go.

// atomicDestEffects returns an Effects resolver that gives arg idx the effect Write,
// or ReadWrite when the call's `atomic` kwarg is Add; other arguments are Read.
func atomicDestEffects(idx int) func(args []Expr, kw Kwargs) []Effect {
	return func(args []Expr, kw Kwargs) []Effect {
		out := make([]Effect, len(args))
		if idx < len(out) {
			out[idx] = Write
			if kw.Int("atomic", 0) == int64(AtomicAdd) {
				out[idx] = ReadWrite
			}
		}
		return out
	}
}

// staticEffects returns a resolver giving the listed argument indices fixed effects.
func staticEffects(eff map[int]Effect) func(args []Expr, kw Kwargs) []Effect {
	return func(args []Expr, _ Kwargs) []Effect {
		out := make([]Effect, len(args))
		for i, e := range eff {
			if i < len(out) {
				out[i] = e
			}
		}
		return out
	}
}

// atomicAddDTypes are the element types atomic Add supports (AtomicAddDtypeValid).
var atomicAddDTypes = map[DataType]bool{FP32: true, BF16: true, FP16: true, INT32: true, INT16: true, INT8: true}

func checkAtomic(c *DeduceCtx, dt DataType) error {
	a, err := c.IntIn("atomic", 0, 1, "pl.AtomicType.None_ (0) or pl.AtomicType.Add (1)")
	if err != nil {
		return err
	}
	if a == int64(AtomicAdd) && !atomicAddDTypes[dt] {
		return c.FailKwarg("atomic", "an element type that supports atomic Add (FP32, BF16, FP16, INT32, INT16, INT8)", "pl.AtomicType.Add on "+dt.String())
	}
	return nil
}

// wholeBytes rejects sub-byte element types for remote ops.
func wholeBytes(c *DeduceCtx, i int, dt DataType) error {
	if !dt.WholeBytes() {
		return c.Fail(i, "an element type of a whole number of bytes", dt.String())
	}
	return nil
}

// int32Signal checks that argument i is a DistributedTensor of INT32.
func int32Signal(c *DeduceCtx, i int) (*DistributedTensorType, error) {
	s, err := c.Dist(i)
	if err != nil {
		return nil, err
	}
	if s.DType != INT32 {
		return nil, c.Fail(i, "a signal with INT32 element type", s)
	}
	return s, nil
}

// regionFits checks that static offsets plus extents fit a shape.
func regionFits(c *DeduceCtx, i int, offsets, extents, dims []Expr, what string) error {
	for d := range offsets {
		off, ok1 := ConstValue(offsets[d])
		ext, ok2 := ConstValue(extents[d])
		if ok1 && off < 0 {
			return c.Fail(i, "non-negative offsets", fmt.Sprintf("offset %d in dimension %d", off, d))
		}
		dim, ok3 := ConstValue(dims[d])
		if ok1 && ok2 && ok3 && off+ext > dim {
			return c.Fail(i, fmt.Sprintf("a region inside %s (offset+extent <= %d in dimension %d)", what, dim, d),
				fmt.Sprintf("offset %d + extent %d = %d", off, ext, off+ext))
		}
	}
	return nil
}

// positiveStatic checks that static dims are > 0.
func positiveStatic(c *DeduceCtx, i int, dims []Expr) error {
	for d, e := range dims {
		if v, ok := ConstValue(e); ok && v <= 0 {
			return c.Fail(i, "dimensions > 0", fmt.Sprintf("dimension %d is %d", d, v))
		}
	}
	return nil
}

// indexInside checks that the constant elements of the index tuple in
// argument i name an element of shape (what names the indexed value in the
// message: "the signal", "the tensor").
func indexInside(c *DeduceCtx, i int, elems, shape []Expr, what string) error {
	for d, e := range elems {
		off, ok := ConstValue(e)
		if !ok || d >= len(shape) {
			continue
		}
		dim, static := ConstValue(shape[d])
		if off < 0 || (static && off >= dim) {
			want := "non-negative indices"
			if static {
				want = fmt.Sprintf("an index in [0, %d) in dimension %d (%s is %s)", dim, d, what, DefaultFormat.Dims(shape))
			}
			return c.Fail(i, want, fmt.Sprintf("%s (index %d in dimension %d)", DefaultFormat.Expr(c.Args[i]), off, d))
		}
	}
	return nil
}

// vecLike is the Vec tile of t's shape and element type that keeps t's
// valid shape, as upstream's elementwise, unary and broadcast ops type
// their results.
func vecLike(t *TileType) *TileType {
	var view *TileView
	if t.View != nil && len(t.View.ValidShape) > 0 {
		v := ImplicitTileView(t.Shape, MemVec)
		v.ValidShape = t.View.ValidShape
		view = &v
	}
	return NewTileType(t.Shape, t.DType, MemVec, view)
}

// staticShape reads argument i as a shape of positive dimensions (rank
// rank, or any when rank < 0).
// validInside reads argument i as a static valid shape inside the 2-D
// shape; nil when it is the whole shape (a generated tile writes only its
// valid region: pto.trandom, pto.ttri).
func validInside(c *DeduceCtx, i int, shape []Expr) ([]Expr, error) {
	valid, err := staticShape(c, i, 2)
	if err != nil {
		return nil, err
	}
	for d := range valid {
		v, _ := ConstValue(valid[d])
		s, _ := ConstValue(shape[d])
		if v > s {
			return nil, c.Fail(i, fmt.Sprintf("a valid shape inside %s", DefaultFormat.Dims(shape)), c.Args[i])
		}
	}
	if SameDims(valid, shape) {
		return nil, nil
	}
	return valid, nil
}

// generatedTile is the Vec tile a generating op (tile.random, tile.tri)
// writes: shape, and valid when it writes less (nil: all of it).
func generatedTile(shape []Expr, dt DataType, valid []Expr) *TileType {
	var view *TileView
	if valid != nil {
		v := ImplicitTileView(shape, MemVec)
		v.ValidShape = valid
		view = &v
	}
	return NewTileType(shape, dt, MemVec, view)
}

func staticShape(c *DeduceCtx, i, rank int) ([]Expr, error) {
	shape, err := c.Tuple(i, rank)
	if err != nil {
		return nil, err
	}
	return shape, positiveStatic(c, i, shape)
}

// reshapeTo reads argument 1 as the new shape of from, as many elements
// (what names whose they are: "the tile's", "the input's").
func reshapeTo(c *DeduceCtx, from []Expr, what string) ([]Expr, error) {
	shape, err := staticShape(c, 1, -1)
	if err != nil {
		return nil, err
	}
	n1, ok1 := NumElements(from)
	n2, ok2 := NumElements(shape)
	if ok1 && ok2 && n1 != n2 {
		return nil, c.Fail(1, fmt.Sprintf("a shape of %d elements (%s)", n1, what), fmt.Sprintf("%s with %d", ShapeString(shape), n2))
	}
	return shape, nil
}

// expandTo reads argument 1 as the larger shape from is padded out to:
// constant, positive, no dimension smaller than from's.
func expandTo(c *DeduceCtx, from []Expr, what string) ([]Expr, error) {
	shape, err := c.Tuple(1, len(from))
	if err != nil {
		return nil, err
	}
	for d, e := range shape {
		v, ok := ConstValue(e)
		if !ok || v <= 0 {
			return nil, c.Fail(1, "positive constant dimensions", DefaultFormat.Dims(shape))
		}
		if s, ok := ConstValue(from[d]); ok && v < s {
			return nil, c.Fail(1, "a shape no smaller than "+what+" "+DefaultFormat.Dims(from), DefaultFormat.Dims(shape))
		}
	}
	return shape, nil
}

// vecTileLike requires argument i to be a Vec tile of like's shape and
// dtype; likeName names like in the message (lhs, src0).
// vecReadable reports whether argument i, tile t, can be read from Vec:
// it is there (or nowhere yet), or it is an Acc tile and the op declares a
// Vec input (ArgSpec.Memory), so InferTileMemorySpace moves it there
// first, as upstream's Vec input requirement does.
func vecReadable(c *DeduceCtx, i int, t *TileType) bool {
	switch t.Memory {
	case MemNone, MemVec:
		return true
	case MemAcc:
		return c.Op.ArgSpecAt(i).Memory == MemVec
	}
	return false
}

func vecTileLike(c *DeduceCtx, i int, like *TileType, likeName string) (*TileType, error) {
	t, err := c.Tile(i)
	if err != nil {
		return nil, err
	}
	if !vecReadable(c, i, t) {
		return nil, c.Fail(i, "a tile in Vec memory", t)
	}
	if t.DType != like.DType || !SameDims(t.Shape, like.Shape) {
		return nil, c.Fail(i, "a tile like "+likeName+", "+DefaultFormat.Dims(like.Shape)+" of "+like.DType.String(), t)
	}
	return t, nil
}

// registerTilePair registers the tile op def makes, one that makes a tile
// with no tile operand (tile.ci, tile.random), and the tensor op of the
// same spelling that ConvertTensorToTileOps lowers to it (a second def(),
// renamed). deduce gives each its deducer (tile says which); the tensor
// op's doc is tensorDoc.
func registerTilePair(def func() *OpDef, deduce func(tile bool) func(*DeduceCtx) (Type, error), tileOp, tensorOp **OpDef, tensorDoc string) {
	t := def()
	t.Deduce = deduce(true)
	*tileOp = RegisterOp(t)
	d := def()
	d.Name = "tensor." + strings.TrimPrefix(d.Name, "tile.")
	d.Category, d.TileForm, d.ResultAlias, d.Doc = "TensorOp", *tileOp, "", tensorDoc
	d.Deduce = deduce(false)
	*tensorOp = RegisterOp(d)
}
