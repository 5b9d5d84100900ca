package ir

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Formatter prints types and expressions in PyPTO's Python syntax. The printer
// package builds statements, functions and programs on top of it.
type Formatter struct {
	// Prefix is the module alias of pypto.language ("pl").
	Prefix string
	// Explicit prints implicit tile views in full and marks distributed types
	// with their window buffer (printer's explicit_layout mode).
	Explicit bool
	// VarName names a variable; nil uses Var.Name.
	VarName func(v *Var) string
	// InSignature is set while printing a signature (MemRef bases print quoted).
	InSignature bool
	// BodyDefined reports whether a MemRef base is defined in the body (then it prints bare).
	BodyDefined func(v *Var) bool
	// InRegion is set while printing a pl.split_aiv region, whose mode
	// stands for its ops' FromRegion kwargs.
	InRegion bool
}

// DefaultFormat is the formatter behind Type.String and error messages.
var DefaultFormat = &Formatter{Prefix: "pl"}

func (f *Formatter) pl() string {
	if f.Prefix == "" {
		return "pl"
	}
	return f.Prefix
}

// Name prints a variable.
func (f *Formatter) Name(v *Var) string {
	if f.VarName != nil {
		return f.VarName(v)
	}
	return v.Name
}

// DType prints a data type ("pl.FP32").
func (f *Formatter) DType(d DataType) string { return f.pl() + "." + d.Name() }

// Type prints a type.
func (f *Formatter) Type(t Type) string {
	p := f.pl()
	switch t := t.(type) {
	case nil:
		return p + ".UnknownType"
	case *UnknownType:
		return p + ".UnknownType"
	case *ScalarType:
		return p + ".Scalar[" + f.DType(t.DType) + "]"
	case *TensorType:
		return p + ".Tensor[" + f.tensorBody(t.Shape, t.DType, t.View, t.MemRef) + "]"
	case *DistributedTensorType:
		s := "pld.DistributedTensor[" + f.tensorBody(t.Shape, t.DType, t.View, t.MemRef)
		if f.Explicit && t.Window != nil {
			s += `, "window_buffer=` + f.Name(&t.Window.Var) + `"`
		}
		return s + "]"
	case *TileType:
		var b strings.Builder
		b.WriteString(p + ".Tile[" + f.Dims(t.Shape) + ", " + f.DType(t.DType))
		if t.MemRef != nil {
			b.WriteString(", " + f.MemRef(t.MemRef))
		}
		if t.Memory != MemNone {
			b.WriteString(", " + p + ".Mem." + t.Memory.Name())
		}
		if v := f.tileView(t); v != "" {
			b.WriteString(", " + v)
		}
		b.WriteString("]")
		return b.String()
	case *TupleType:
		if len(t.Types) == 0 {
			return p + ".Tuple[()]"
		}
		parts := make([]string, len(t.Types))
		for i, x := range t.Types {
			parts[i] = f.Type(x)
		}
		return p + ".Tuple[" + strings.Join(parts, ", ") + "]"
	case *ArrayType:
		return fmt.Sprintf("%s.Array[%d, %s]", p, t.Extent, f.DType(t.DType))
	case *PtrType:
		return p + ".Ptr"
	case *MemRefType:
		return p + ".MemRefType"
	case *WindowBufferType:
		return "pld.WindowBufferType"
	case *CommCtxType:
		return "pld.CommCtx"
	case *AsyncHandleType:
		return p + "." + t.name
	}
	return fmt.Sprintf("<%T>", t)
}

func (f *Formatter) tensorBody(shape []Expr, dt DataType, view *TensorView, mr *MemRef) string {
	s := f.Dims(shape) + ", " + f.DType(dt)
	if view != nil {
		s += ", " + f.tensorView(view, shape)
	}
	if mr != nil {
		s += ", " + f.MemRef(mr)
	}
	return s
}

// tensorView prints a tensor view as upstream's printer does: valid_shape
// first unless it is the tensor's own shape, then stride and layout, both
// always once anything is set (TensorView's constructor takes both), then a
// non-null pad; a view with every field at its default is pl.TensorView().
func (f *Formatter) tensorView(v *TensorView, shape []Expr) string {
	var parts []string
	if len(v.ValidShape) > 0 && !SameDims(v.ValidShape, shape) {
		parts = append(parts, "valid_shape="+f.Dims(v.ValidShape))
	}
	if len(parts) > 0 || len(v.Stride) > 0 || v.Layout != LayoutND || v.Pad != PadNull {
		parts = append(parts, "stride="+f.Dims(v.Stride), "layout="+f.pl()+".TensorLayout."+v.Layout.Name())
	}
	if v.Pad != PadNull {
		parts = append(parts, "pad="+f.pl()+".PadValue."+v.Pad.Name())
	}
	return f.pl() + ".TensorView(" + strings.Join(parts, ", ") + ")"
}

func (f *Formatter) tileView(t *TileType) string {
	implicit := ImplicitTileView(t.Shape, t.Memory)
	v := t.View
	if v == nil {
		if !f.Explicit {
			return ""
		}
		v = &implicit
	}
	p := f.pl()
	var parts []string
	if len(v.ValidShape) > 0 && !SameDims(v.ValidShape, t.Shape) {
		parts = append(parts, "valid_shape="+f.Dims(v.ValidShape))
	}
	if len(v.Stride) > 0 {
		parts = append(parts, "stride="+f.Dims(v.Stride))
	}
	if v.StartOffset != nil {
		parts = append(parts, "start_offset="+f.Expr(v.StartOffset))
	}
	if f.Explicit || v.BLayout != implicit.BLayout {
		parts = append(parts, "blayout="+p+".TileLayout."+v.BLayout.Name())
	}
	if f.Explicit || v.SLayout != implicit.SLayout {
		parts = append(parts, "slayout="+p+".TileLayout."+v.SLayout.Name())
	}
	if f.Explicit || v.Fractal != implicit.Fractal {
		parts = append(parts, fmt.Sprintf("fractal=%d", v.Fractal))
	}
	if v.Pad != PadNull {
		parts = append(parts, "pad="+p+".PadValue."+v.Pad.Name())
	}
	return p + ".TileView(" + strings.Join(parts, ", ") + ")"
}

// MemRef prints a MemRef annotation.
func (f *Formatter) MemRef(m *MemRef) string {
	base := m.Name
	if m.Base != nil {
		base = f.Name(m.Base)
	}
	quoted := strconv.Quote(base)
	if !f.InSignature && m.Base != nil && f.BodyDefined != nil && f.BodyDefined(m.Base) {
		quoted = base
	}
	slots, slot := "", ""
	if m.SlotCount > 1 {
		slots = fmt.Sprintf(", slots=%d", m.SlotCount)
	}
	if m.SlotIndex != nil {
		slot = "[" + f.Expr(m.SlotIndex) + "]"
	}
	if m.Pinned {
		return f.pl() + ".MemRef(" + quoted + slots + ")" + slot
	}
	off := "0"
	if m.ByteOffset != nil {
		off = f.Expr(m.ByteOffset)
	}
	return fmt.Sprintf("%s.MemRef(%s, %s, %d%s)%s", f.pl(), quoted, off, m.Size, slots, slot)
}

// Dims prints a shape: constants bare, variables by name, other expressions
// with typed leaves.
func (f *Formatter) Dims(shape []Expr) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = f.Dim(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Dim prints one shape dimension.
func (f *Formatter) Dim(d Expr) string {
	switch d := d.(type) {
	case *ConstInt:
		return strconv.FormatInt(d.Value, 10)
	case *Var:
		return f.Name(d)
	}
	return f.expr(d, 0, true)
}

// Expr prints an expression.
func (f *Formatter) Expr(e Expr) string { return f.expr(e, 0, allConst(e)) }

// allConst reports whether e is a binary/unary tree whose leaves are all
// ConstInts; upstream then prints every leaf typed.
func allConst(e Expr) bool {
	switch e := e.(type) {
	case *BinaryExpr:
		return allConstLeaf(e.Left) && allConstLeaf(e.Right)
	case *UnaryExpr:
		return e.Op != OpCast && allConstLeaf(e.X)
	}
	return false
}

func allConstLeaf(e Expr) bool {
	if _, ok := e.(*ConstInt); ok {
		return true
	}
	return allConst(e)
}

// Python precedence, higher binds tighter.
func binPrec(op BinaryOp) int {
	switch op {
	case OpOr:
		return 1
	case OpAnd:
		return 2
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return 4
	case OpBitOr:
		return 5
	case OpBitXor, OpXor:
		return 6
	case OpBitAnd:
		return 7
	case OpShl, OpShr:
		return 8
	case OpAdd, OpSub:
		return 9
	case OpMul, OpFloorDiv, OpFloorMod, OpFloatDiv:
		return 10
	case OpPow:
		return 12
	}
	return 13
}

var binSym = map[BinaryOp]string{
	OpAdd: "+", OpSub: "-", OpMul: "*", OpFloorDiv: "//", OpFloorMod: "%", OpFloatDiv: "/", OpPow: "**",
	OpEq: "==", OpNe: "!=", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=", OpAnd: "and", OpOr: "or",
	OpXor: "xor", OpBitAnd: "&", OpBitOr: "|", OpBitXor: "^", OpShl: "<<", OpShr: ">>",
}

func (f *Formatter) expr(e Expr, ctx int, typedConst bool) string {
	p := f.pl()
	switch e := e.(type) {
	case nil:
		return "None"
	case *Var:
		return f.Name(e)
	case *IterArg:
		return f.Name(&e.Var)
	case *MemRef:
		return f.Name(&e.Var)
	case *WindowBuffer:
		return f.Name(&e.Var)
	case *ConstInt:
		if e.DType == INDEX && !typedConst {
			return strconv.FormatInt(e.Value, 10)
		}
		return fmt.Sprintf("%s.const(%d, %s)", p, e.Value, f.DType(e.DType))
	case *ConstFloat:
		s := FloatLiteral(e.Value)
		if e.DType == FP32 && !typedConst {
			return s
		}
		return fmt.Sprintf("%s.const(%s, %s)", p, s, f.DType(e.DType))
	case *ConstBool:
		if e.Value {
			return "True"
		}
		return "False"
	case *BinaryExpr:
		if e.Op == OpMin || e.Op == OpMax {
			name := "min"
			if e.Op == OpMax {
				name = "max"
			}
			return fmt.Sprintf("%s.%s(%s, %s)", p, name, f.expr(e.Left, 0, typedConst), f.expr(e.Right, 0, typedConst))
		}
		prec := binPrec(e.Op)
		// Left-associative: the right operand needs parens at equal precedence
		// (** is right-associative: the left one does).
		lp, rp := prec, prec+1
		if e.Op == OpPow {
			lp, rp = prec+1, prec
		}
		s := f.expr(e.Left, lp, typedConst) + " " + binSym[e.Op] + " " + f.expr(e.Right, rp, typedConst)
		if prec < ctx {
			return "(" + s + ")"
		}
		return s
	case *UnaryExpr:
		switch e.Op {
		case OpAbs:
			return "abs(" + f.expr(e.X, 0, typedConst) + ")"
		case OpCast:
			return fmt.Sprintf("%s.cast(%s, %s)", p, f.expr(e.X, 0, typedConst), f.DType(e.DType))
		case OpNot:
			s := "not " + f.expr(e.X, 3, typedConst)
			if ctx > 3 {
				return "(" + s + ")"
			}
			return s
		default:
			sym := "-"
			if e.Op == OpBitNot {
				sym = "~"
			}
			s := sym + f.expr(e.X, 11, typedConst)
			if ctx > 11 {
				return "(" + s + ")"
			}
			return s
		}
	case *MakeTuple:
		parts := make([]string, len(e.Elems))
		for i, x := range e.Elems {
			parts[i] = f.expr(x, 0, false)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *TupleGetItem:
		return fmt.Sprintf("%s[%d]", f.expr(e.Tuple, 14, false), e.Index)
	case *Call:
		return f.Call(e)
	}
	return fmt.Sprintf("<%T>", e)
}

// FloatLiteral prints a float as upstream's printer does: 17 significant
// digits (C++'s max_digits10, so the text reads back to the same double:
// 0.1 prints 0.10000000000000001), trailing zeros dropped, and ".0" forced
// on an integral value.
func FloatLiteral(v float64) string {
	s := strconv.FormatFloat(v, 'g', 17, 64)
	if strings.ContainsAny(s, "eE") {
		// C's %g strips the mantissa's trailing zeros before the exponent.
		mant, exp, _ := strings.Cut(s, "e")
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		s = mant + "e" + exp
	} else if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if !strings.ContainsAny(s, ".eEn") { // n: NaN/Inf
		s += ".0"
	}
	return s
}

// Call prints a call: the op's callee, positional arguments, visible kwargs in
// stored order, then device= and attrs= for compiler attributes.
func (f *Formatter) Call(c *Call) string {
	var parts []string
	for i, a := range c.Args {
		if kw := c.KeywordOf(i); kw != "" {
			parts = append(parts, kw+"="+f.Expr(a))
			continue
		}
		if k, ok := a.(*ConstInt); ok && c.Op != nil && c.Op.ArgSpecAt(i).MemSpace {
			parts = append(parts, MemorySpace(k.Value).String())
			continue
		}
		parts = append(parts, f.Expr(a))
	}
	var callee string
	if c.Fn != nil && c.IsSubmit() {
		// pl.submit(self.f, args..., deps=[...]) launches f as a task,
		// pl.spmd_submit(..., core_num=n) as an SPMD one.
		callee = f.pl() + ".submit"
		if c.CoreNum() != nil {
			callee = f.pl() + ".spmd_submit"
		}
		parts = append([]string{"self." + c.Fn.Name}, parts...)
	} else if c.Fn != nil {
		callee = "self." + c.Fn.Name
	} else if c.Op != nil {
		callee = c.Op.calleeWith(f.pl(), c)
	}
	for _, kv := range c.Kwargs {
		var kind KwargKind = -1
		if c.Op != nil {
			spec, ok := c.Op.Kwarg(kv.Key)
			if ok && (spec.Hidden || spec.FromRegion && f.InRegion) {
				continue
			}
			if ok {
				kind = spec.Kind
			}
			if name, named := spec.nameOf(kv.Value); ok && named {
				parts = append(parts, kv.Key+"="+f.KwargValue(KwString, name))
				continue
			}
		}
		parts = append(parts, kv.Key+"="+f.KwargValue(kind, kv.Value))
	}
	if dev := c.Device(); dev != nil {
		parts = append(parts, "device="+f.Expr(dev))
	}
	if deps, ok := c.Attrs.Get(attrDeps); ok {
		parts = append(parts, "deps="+f.KwargValue(-1, deps))
	}
	var attrs []string
	if dumps := c.DumpArgs(); len(dumps) > 0 {
		names := make([]string, len(dumps))
		for i, k := range dumps {
			names[i] = f.Expr(c.Args[k])
		}
		// A submit spells them as its dumps= kwarg; a plain call has no
		// such kwarg and carries them in its attrs, as upstream prints it.
		if c.IsSubmit() {
			parts = append(parts, "dumps=["+strings.Join(names, ", ")+"]")
		} else {
			attrs = append(attrs, strconv.Quote("dump_vars")+": ["+strings.Join(names, ", ")+"]")
		}
	}
	if n := c.CoreNum(); n != nil {
		parts = append(parts, "core_num="+f.Expr(n))
		if c.SyncStart() {
			parts = append(parts, "sync_start=True")
		}
	}
	if c.AllowsEarlyResolve() {
		parts = append(parts, "allow_early_resolve=True")
	}
	if p := c.Predicate(); p != nil {
		parts = append(parts, "predicate=("+f.Expr(p)+")")
	}
	for _, kv := range c.Attrs {
		switch kv.Key {
		case "device", attrDeps, attrSubmit, attrEarly, attrDumps, attrCoreNum, attrSyncStart, attrPredicate:
			continue
		}
		attrs = append(attrs, strconv.Quote(kv.Key)+": "+f.KwargValue(-1, kv.Value))
	}
	if len(attrs) > 0 {
		parts = append(parts, "attrs={"+strings.Join(attrs, ", ")+"}")
	}
	return callee + "(" + strings.Join(parts, ", ") + ")"
}

// KwargValue prints a kwarg value; kind (or -1 for "by Go type") picks the spelling.
func (f *Formatter) KwargValue(kind KwargKind, v any) string {
	p := f.pl()
	switch x := v.(type) {
	case int64:
		if kind == KwAtomic {
			if x == int64(AtomicAdd) {
				return p + ".AtomicType.Add"
			}
			return p + ".AtomicType.None_"
		}
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case bool:
		if x {
			return "True"
		}
		return "False"
	case string:
		return "'" + strings.ReplaceAll(x, "'", `\'`) + "'"
	case float64:
		return FloatLiteral(x)
	case DataType:
		return f.DType(x)
	case MemorySpace:
		return p + ".Mem." + x.Name()
	case TileLayout:
		return p + ".TileLayout." + x.Name()
	case TensorLayout:
		return p + ".TensorLayout." + x.Name()
	case PipeType:
		return p + ".PipeType." + x.Name()
	case PadValue:
		return p + ".PadValue." + x.Name()
	case []ArgDirection:
		names := make([]string, len(x))
		for i, d := range x {
			names[i] = p + ".adir." + d.Name()
		}
		return "[" + strings.Join(names, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		items := make([]string, len(keys))
		for i, k := range keys {
			items[i] = strconv.Quote(k) + ": " + f.KwargValue(-1, x[k])
		}
		return "{" + strings.Join(items, ", ") + "}"
	case Expr:
		return f.Expr(x)
	}
	return fmt.Sprintf("%v", v)
}
