package ir

import "sync/atomic"

// Expr is an expression node.
type Expr interface {
	// Type is the expression's type (UnknownType for side-effect calls).
	Type() Type
	// Span is where the expression was built.
	Span() Span
	isExpr()
}

var varCounter atomic.Uint64

// Var is a variable. Identity is the pointer; Name is only a hint for printing.
type Var struct {
	Name string
	T    Type
	Pos  Span
	id   uint64
}

// NewVar makes a fresh variable.
func NewVar(name string, t Type, pos Span) *Var {
	return &Var{Name: name, T: t, Pos: pos, id: varCounter.Add(1)}
}

// ID is the variable's process-unique id (upstream unique_id_).
func (v *Var) ID() uint64 { return v.id }

// IterArg is a loop-carried variable of a ForStmt; Init is its initial value.
type IterArg struct {
	Var
	Init Expr
}

// NewIterArg makes a fresh iter-arg.
func NewIterArg(name string, t Type, init Expr, pos Span) *IterArg {
	return &IterArg{Var: Var{Name: name, T: t, Pos: pos, id: varCounter.Add(1)}, Init: init}
}

// MemRef is a reference to on-chip or GM storage: Base is a Ptr-typed Var,
// ByteOffset the offset into it and Size the byte size.
type MemRef struct {
	Var
	Base       *Var
	ByteOffset Expr
	Size       uint64
	Pinned     bool
	SlotCount  int
	SlotIndex  Expr
}

// NewMemRef makes a MemRef named after its base.
func NewMemRef(base *Var, offset Expr, size uint64, pos Span) *MemRef {
	return &MemRef{Var: Var{Name: base.Name, T: MemRefT, Pos: pos, id: varCounter.Add(1)},
		Base: base, ByteOffset: offset, Size: size, SlotCount: 1}
}

// WindowBuffer is one window allocation (seed #1346): Base is the Ptr Var bound
// by pld.tensor.alloc_window_buffer and Size the per-rank size in bytes. Its
// name is its base's name; all views of one allocation share one *WindowBuffer.
type WindowBuffer struct {
	Var
	Base         *Var
	Size         Expr
	LoadFromHost bool
	StoreToHost  bool
}

// NewWindowBuffer makes a window buffer for the allocation bound to base.
func NewWindowBuffer(base *Var, size Expr, loadFromHost, storeToHost bool, pos Span) *WindowBuffer {
	return &WindowBuffer{Var: Var{Name: base.Name, T: WindowBufT, Pos: pos, id: varCounter.Add(1)},
		Base: base, Size: size, LoadFromHost: loadFromHost, StoreToHost: storeToHost}
}

// VarOf returns the *Var at the heart of any variable-like expression (Var,
// IterArg, MemRef, WindowBuffer): the identity used for def/use analysis.
func VarOf(e Expr) (*Var, bool) {
	switch v := e.(type) {
	case *Var:
		return v, true
	case *IterArg:
		return &v.Var, true
	case *MemRef:
		return &v.Var, true
	case *WindowBuffer:
		return &v.Var, true
	}
	return nil, false
}

// ConstInt is an integer constant; its dtype is INDEX for bare literals.
type ConstInt struct {
	Value int64
	DType DataType
	Pos   Span
}

// ConstFloat is a floating-point constant.
type ConstFloat struct {
	Value float64
	DType DataType
	Pos   Span
}

// ConstBool is a boolean constant.
type ConstBool struct {
	Value bool
	Pos   Span
}

// BinaryOp names a binary expression.
type BinaryOp int

// Binary operators, in upstream order.
const (
	OpAdd BinaryOp = iota
	OpSub
	OpMul
	OpFloorDiv
	OpFloorMod
	OpFloatDiv
	OpMin
	OpMax
	OpPow
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpAnd
	OpOr
	OpXor
	OpBitAnd
	OpBitOr
	OpBitXor
	OpShl
	OpShr
)

var binaryNames = []string{"Add", "Sub", "Mul", "FloorDiv", "FloorMod", "FloatDiv", "Min", "Max", "Pow",
	"Eq", "Ne", "Lt", "Le", "Gt", "Ge", "And", "Or", "Xor", "BitAnd", "BitOr", "BitXor",
	"BitShiftLeft", "BitShiftRight"}

func (o BinaryOp) String() string { return enumName("BinaryOp", binaryNames, int(o)) }

// IsCompare reports whether the operator yields a BOOL from two values.
func (o BinaryOp) IsCompare() bool { return o >= OpEq && o <= OpGe }

// IsLogical reports whether the operator combines BOOLs.
func (o BinaryOp) IsLogical() bool { return o >= OpAnd && o <= OpXor }

// BinaryExpr is left <op> right with result scalar type DType.
type BinaryExpr struct {
	Op          BinaryOp
	Left, Right Expr
	DType       DataType
	Pos         Span
}

// UnaryOp names a unary expression.
type UnaryOp int

// Unary operators.
const (
	OpAbs UnaryOp = iota
	OpNeg
	OpNot
	OpBitNot
	OpCast
)

func (o UnaryOp) String() string {
	return enumName("UnaryOp", []string{"Abs", "Neg", "Not", "BitNot", "Cast"}, int(o))
}

// UnaryExpr is <op> X with result scalar type DType (the target of a Cast).
type UnaryExpr struct {
	Op    UnaryOp
	X     Expr
	DType DataType
	Pos   Span
}

// GlobalVar names a function of the program; calls to it print self.f(...).
type GlobalVar struct{ Name string }

// Call applies an op (Op) or a program function (Fn) to positional arguments.
// Kwargs are the op's attributes in stored order; Attrs are compiler-internal
// ("arg_directions", "device").
type Call struct {
	Op     *OpDef
	Fn     *GlobalVar
	Args   []Expr
	Kwargs Kwargs
	Attrs  Kwargs
	T      Type
	Pos    Span
}

// Name is the op name or the called function's name.
func (c *Call) Name() string {
	if c.Fn != nil {
		return c.Fn.Name
	}
	if c.Op != nil {
		return c.Op.Name
	}
	return "<nil>"
}

// Device is the device= expression of a host dispatch, or nil.
func (c *Call) Device() Expr {
	if v, ok := c.Attrs.Get("device"); ok {
		if e, ok := v.(Expr); ok {
			return e
		}
	}
	return nil
}

// MakeTuple is a tuple of expressions; shapes and offsets are MakeTuples.
type MakeTuple struct {
	Elems []Expr
	Pos   Span
}

// TupleGetItem is tuple[index].
type TupleGetItem struct {
	Tuple Expr
	Index int
	Pos   Span
}

func (v *Var) Type() Type          { return orUnknown(v.T) }
func (c *ConstInt) Type() Type     { return Scalar(c.DType) }
func (c *ConstFloat) Type() Type   { return Scalar(c.DType) }
func (c *ConstBool) Type() Type    { return Scalar(BOOL) }
func (b *BinaryExpr) Type() Type   { return Scalar(b.DType) }
func (u *UnaryExpr) Type() Type    { return Scalar(u.DType) }
func (c *Call) Type() Type         { return orUnknown(c.T) }
func (t *TupleGetItem) Type() Type { return tupleElem(t) }
func (m *MakeTuple) Type() Type {
	ts := make([]Type, len(m.Elems))
	for i, e := range m.Elems {
		ts[i] = e.Type()
	}
	return &TupleType{Types: ts}
}

func orUnknown(t Type) Type {
	if t == nil {
		return Unknown
	}
	return t
}

func tupleElem(t *TupleGetItem) Type {
	if tt, ok := t.Tuple.Type().(*TupleType); ok && t.Index >= 0 && t.Index < len(tt.Types) {
		return tt.Types[t.Index]
	}
	return Unknown
}

func (v *Var) Span() Span          { return v.Pos }
func (c *ConstInt) Span() Span     { return c.Pos }
func (c *ConstFloat) Span() Span   { return c.Pos }
func (c *ConstBool) Span() Span    { return c.Pos }
func (b *BinaryExpr) Span() Span   { return b.Pos }
func (u *UnaryExpr) Span() Span    { return u.Pos }
func (c *Call) Span() Span         { return c.Pos }
func (m *MakeTuple) Span() Span    { return m.Pos }
func (t *TupleGetItem) Span() Span { return t.Pos }

func (*Var) isExpr()          {}
func (*IterArg) isExpr()      {}
func (*MemRef) isExpr()       {}
func (*WindowBuffer) isExpr() {}
func (*ConstInt) isExpr()     {}
func (*ConstFloat) isExpr()   {}
func (*ConstBool) isExpr()    {}
func (*BinaryExpr) isExpr()   {}
func (*UnaryExpr) isExpr()    {}
func (*Call) isExpr()         {}
func (*MakeTuple) isExpr()    {}
func (*TupleGetItem) isExpr() {}

// Int makes an INDEX constant, the type of a bare integer literal.
func Int(v int64) *ConstInt { return &ConstInt{Value: v, DType: INDEX} }

// IntOf makes an integer constant of dtype d.
func IntOf(v int64, d DataType) *ConstInt { return &ConstInt{Value: v, DType: d} }

// Tuple makes a MakeTuple of INDEX constants or expressions.
func Tuple(elems ...Expr) *MakeTuple { return &MakeTuple{Elems: elems} }

// Dims makes a MakeTuple of INDEX constants.
func Dims(vals ...int64) *MakeTuple {
	es := make([]Expr, len(vals))
	for i, v := range vals {
		es[i] = Int(v)
	}
	return &MakeTuple{Elems: es}
}

// ConstValue returns the value of an integer constant expression.
func ConstValue(e Expr) (int64, bool) {
	if c, ok := e.(*ConstInt); ok {
		return c.Value, true
	}
	return 0, false
}
