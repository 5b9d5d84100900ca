package ir

// Type is the type of an expression. Types are not IR nodes: they carry no span.
// Each concrete type is its own kind; in particular a *DistributedTensorType is
// not a *TensorType (code that wants either calls AsTensorLike).
type Type interface {
	// TypeName is the upstream TypeName(), used by equality and serialization.
	TypeName() string
	// String prints the type in PyPTO syntax.
	String() string
	isType()
}

// UnknownType is the result of side-effect-only ops.
type UnknownType struct{}

// ScalarType is a single value of DType.
type ScalarType struct{ DType DataType }

// TensorView is an optional GM tensor view.
type TensorView struct {
	Stride     []Expr
	Layout     TensorLayout
	ValidShape []Expr
	Pad        PadValue
}

// TensorType is a tensor in global memory.
type TensorType struct {
	Shape  []Expr
	DType  DataType
	MemRef *MemRef
	View   *TensorView
}

// DistributedTensorType is a tensor that lives in a window buffer and can be
// addressed by peers. Window is the allocation it views, once known (nil before
// CollectCommGroups).
type DistributedTensorType struct {
	Shape  []Expr
	DType  DataType
	MemRef *MemRef
	View   *TensorView
	Window *WindowBuffer
}

// TileView is a tile's optional layout description.
type TileView struct {
	ValidShape  []Expr
	Stride      []Expr
	StartOffset Expr
	BLayout     TileLayout
	SLayout     TileLayout
	Fractal     int
	Pad         PadValue
}

// TileType is an on-chip tile. Memory is MemNone until resolved.
type TileType struct {
	Shape  []Expr
	DType  DataType
	MemRef *MemRef
	Memory MemorySpace
	View   *TileView
}

// TupleType is a tuple of types.
type TupleType struct{ Types []Type }

// ArrayType is a rank-1 on-core array with a constant extent.
type ArrayType struct {
	Extent int64
	DType  DataType
}

// PtrType is an untyped address: the result of allocations.
type PtrType struct{}

// MemRefType is the type of MemRef variables.
type MemRefType struct{}

// WindowBufferType is the type of WindowBuffer variables.
type WindowBufferType struct{}

// CommCtxType is a communication context (pld.system.get_comm_ctx).
type CommCtxType struct{}

// AsyncHandleType is one of the three opaque handles of the asynchronous
// prefetch ops (pl.prefetch.*, ops_prefetch.go): the context, the event of
// one prefetch, and the session events complete in. Upstream has a type
// for each; they carry no shape or buffer, so here one type with a name
// serves all three.
type AsyncHandleType struct {
	name string // PrefetchAsyncContext, AsyncEvent or AsyncSession
}

// Singletons. Compare by kind, not by pointer: deserialized programs reuse them too.
var (
	Unknown    Type = &UnknownType{}
	PtrT       Type = &PtrType{}
	MemRefT    Type = &MemRefType{}
	WindowBufT Type = &WindowBufferType{}
	CommCtxT   Type = &CommCtxType{}
	// The prefetch handles, printed pl.PrefetchAsyncContext, pl.AsyncEvent
	// and pl.AsyncSession.
	PrefetchCtxT  Type = &AsyncHandleType{"PrefetchAsyncContext"}
	AsyncEventT   Type = &AsyncHandleType{"AsyncEvent"}
	AsyncSessionT Type = &AsyncHandleType{"AsyncSession"}
	scalarByType       = map[DataType]*ScalarType{}
)

func init() {
	for _, d := range AllDataTypes() {
		scalarByType[d] = &ScalarType{DType: d}
	}
}

// Scalar returns the shared ScalarType of d.
func Scalar(d DataType) *ScalarType {
	if s, ok := scalarByType[d]; ok {
		return s
	}
	return &ScalarType{DType: d}
}

func (*UnknownType) TypeName() string           { return "UnknownType" }
func (*ScalarType) TypeName() string            { return "ScalarType" }
func (*TensorType) TypeName() string            { return "TensorType" }
func (*DistributedTensorType) TypeName() string { return "DistributedTensorType" }
func (*TileType) TypeName() string              { return "TileType" }
func (*TupleType) TypeName() string             { return "TupleType" }
func (*ArrayType) TypeName() string             { return "ArrayType" }
func (*PtrType) TypeName() string               { return "Ptr" }
func (*MemRefType) TypeName() string            { return "MemRefType" }
func (*WindowBufferType) TypeName() string      { return "WindowBufferType" }
func (*CommCtxType) TypeName() string           { return "CommCtxType" }
func (t *AsyncHandleType) TypeName() string     { return t.name + "Type" }

func (*UnknownType) isType()           {}
func (*ScalarType) isType()            {}
func (*TensorType) isType()            {}
func (*DistributedTensorType) isType() {}
func (*TileType) isType()              {}
func (*TupleType) isType()             {}
func (*ArrayType) isType()             {}
func (*PtrType) isType()               {}
func (*MemRefType) isType()            {}
func (*WindowBufferType) isType()      {}
func (*CommCtxType) isType()           {}
func (*AsyncHandleType) isType()       {}

func (t *UnknownType) String() string           { return DefaultFormat.Type(t) }
func (t *ScalarType) String() string            { return DefaultFormat.Type(t) }
func (t *TensorType) String() string            { return DefaultFormat.Type(t) }
func (t *DistributedTensorType) String() string { return DefaultFormat.Type(t) }
func (t *TileType) String() string              { return DefaultFormat.Type(t) }
func (t *TupleType) String() string             { return DefaultFormat.Type(t) }
func (t *ArrayType) String() string             { return DefaultFormat.Type(t) }
func (t *PtrType) String() string               { return DefaultFormat.Type(t) }
func (t *MemRefType) String() string            { return DefaultFormat.Type(t) }
func (t *WindowBufferType) String() string      { return DefaultFormat.Type(t) }
func (t *CommCtxType) String() string           { return DefaultFormat.Type(t) }
func (t *AsyncHandleType) String() string       { return DefaultFormat.Type(t) }

// Name is the handle's DSL name: pl.<Name>.
func (t *AsyncHandleType) Name() string { return t.name }

// TensorLike is the view AsTensorLike gives of a TensorType or a
// DistributedTensorType (upstream AsTensorTypeLike).
type TensorLike struct {
	Shape       []Expr
	DType       DataType
	View        *TensorView
	Distributed bool
}

// AsTensorLike accepts a TensorType or a DistributedTensorType.
func AsTensorLike(t Type) (TensorLike, bool) {
	switch t := t.(type) {
	case *TensorType:
		return TensorLike{t.Shape, t.DType, t.View, false}, true
	case *DistributedTensorType:
		return TensorLike{t.Shape, t.DType, t.View, true}, true
	}
	return TensorLike{}, false
}

// ShapeOf returns the shape and dtype of a tensor-like or tile type.
func ShapeOf(t Type) ([]Expr, DataType, bool) {
	switch t := t.(type) {
	case *TensorType:
		return t.Shape, t.DType, true
	case *DistributedTensorType:
		return t.Shape, t.DType, true
	case *TileType:
		return t.Shape, t.DType, true
	}
	return nil, 0, false
}

// WithShape returns a copy of a shaped type with a new shape and dtype,
// keeping its kind (tensor, distributed tensor or tile) and memory space.
func WithShape(t Type, shape []Expr, dt DataType) Type {
	switch t := t.(type) {
	case *TensorType:
		return &TensorType{Shape: shape, DType: dt}
	case *DistributedTensorType:
		return &DistributedTensorType{Shape: shape, DType: dt}
	case *TileType:
		return &TileType{Shape: shape, DType: dt, Memory: t.Memory}
	}
	return t
}

// ImplicitTileView is the layout a tile of this shape in memory space m has
// when no view is given (upstream's GetImplicitTileLayout): the block
// layout follows the shape (a static column [N, 1], N > 1, is col_major,
// anything else row_major) unless the memory fixes it, and the memory
// fixes the box and fractal. Its ValidShape is empty: the whole shape.
func ImplicitTileView(shape []Expr, m MemorySpace) TileView {
	v := TileView{BLayout: implicitBlockLayout(shape), SLayout: NoneBox, Fractal: 512}
	switch m {
	case MemAcc:
		v.BLayout, v.SLayout, v.Fractal = ColMajor, RowMajor, 1024
	case MemMat, MemLeft:
		v.BLayout, v.SLayout = ColMajor, RowMajor
	case MemRight:
		v.SLayout = ColMajor
	case MemLeftScale: // one shared exponent per 32 elements
		v.BLayout, v.SLayout, v.Fractal = RowMajor, RowMajor, 32
	case MemRightScale:
		v.BLayout, v.SLayout, v.Fractal = ColMajor, ColMajor, 32
	}
	return v
}

// implicitBlockLayout is the block layout a shape implies: a static 2-D
// column of more than one row is stored column-major.
func implicitBlockLayout(shape []Expr) TileLayout {
	if len(shape) != 2 {
		return RowMajor
	}
	rows, ok1 := ConstValue(shape[0])
	cols, ok2 := ConstValue(shape[1])
	if ok1 && ok2 && cols == 1 && rows > 1 {
		return ColMajor
	}
	return RowMajor
}

// InMemory is t in memory m, with the layout its shape has there; what
// the view says of the data (valid shape, stride, pad) and the MemRef
// stay.
func (t *TileType) InMemory(m MemorySpace) *TileType {
	v := t.EffectiveView()
	im := ImplicitTileView(t.Shape, m)
	v.BLayout, v.SLayout, v.Fractal = im.BLayout, im.SLayout, im.Fractal
	c := NewTileType(t.Shape, t.DType, m, &v)
	c.MemRef = t.MemRef
	return c
}

// EffectiveView is the tile's view with its implicit layout filled in when
// it has none; an empty ValidShape still means the whole shape.
func (t *TileType) EffectiveView() TileView {
	if t.View != nil {
		return *t.View
	}
	return ImplicitTileView(t.Shape, t.Memory)
}

// NewTileType builds a tile type in upstream's canonical form: a valid
// shape equal to the shape is dropped, and a view that then says nothing
// the shape and memory do not already imply collapses to nil.
func NewTileType(shape []Expr, dt DataType, mem MemorySpace, view *TileView) *TileType {
	t := &TileType{Shape: shape, DType: dt, Memory: mem, View: view}
	if view == nil {
		return t
	}
	if len(view.ValidShape) > 0 && SameDims(view.ValidShape, shape) {
		v := *view
		v.ValidShape = nil
		view = &v
		t.View = view
	}
	if len(view.ValidShape) == 0 && len(view.Stride) == 0 && view.StartOffset == nil &&
		view.Pad == PadNull && sameLayout(*view, ImplicitTileView(shape, mem)) {
		t.View = nil
	}
	return t
}

// StaticDims returns the shape as integers when every dim is a constant.
func StaticDims(shape []Expr) ([]int64, bool) {
	out := make([]int64, len(shape))
	for i, d := range shape {
		c, ok := d.(*ConstInt)
		if !ok {
			return nil, false
		}
		out[i] = c.Value
	}
	return out, true
}

// NumElements is the product of a static shape; ok is false when a dim is symbolic.
func NumElements(shape []Expr) (int64, bool) {
	dims, ok := StaticDims(shape)
	if !ok {
		return 0, false
	}
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	return n, true
}

func sameLayout(a, b TileView) bool {
	return a.BLayout == b.BLayout && a.SLayout == b.SLayout && a.Fractal == b.Fractal
}
