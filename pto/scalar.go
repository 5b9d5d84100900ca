package pto

import (
	"fmt"
	"math"

	"github.com/ptorepl/ptorepl/ir"
)

// Scalar expressions → arith (and math for pow/abs).

func dtSuffix(d ir.DataType) string {
	s, err := scalarType(d)
	if err != nil {
		return "v"
	}
	return s
}

// value is the SSA value of an expression in its own type.
func (c *Ctx) value(e ir.Expr) (value, error) { return c.expr(e, "") }

// expr lowers e; hint names the op that produces the result, if one does.
func (c *Ctx) expr(e ir.Expr, hint string) (value, error) {
	switch x := e.(type) {
	case *ir.Var, *ir.IterArg, *ir.MemRef, *ir.WindowBuffer:
		v, _ := ir.VarOf(x)
		if val, ok := c.vals[v]; ok {
			return val, nil
		}
		if _, ok := c.tensors[v]; ok {
			return value{}, fmt.Errorf("tensor %s has no SSA value (tensors are addressed through views)", v.Name)
		}
		return value{}, fmt.Errorf("%s is used before it has a value", v.Name)
	case *ir.ConstInt:
		return c.as(x, x.DType, hint)
	case *ir.ConstFloat:
		return c.as(x, x.DType, hint)
	case *ir.ConstBool:
		return c.as(x, ir.BOOL, hint)
	case *ir.BinaryExpr:
		return c.binary(x, hint)
	case *ir.UnaryExpr:
		return c.unary(x, hint)
	case *ir.Call:
		if tt, ok := x.Type().(*ir.TileType); ok && tt.Memory == ir.MemNone {
			// Memory passes give tiles bound to variables a space and a
			// buffer; a nested one was never seen by them.
			return value{}, fmt.Errorf("the %s nested here produces a tile that no variable holds, so memory planning gave it no on-chip buffer: bind it to a variable first (the FlattenCallExpr pass does that; this program skipped it)", x.Name())
		}
		tmp := ir.NewVar(hint, x.Type(), x.Pos)
		if err := c.call(x, tmp); err != nil {
			return value{}, err
		}
		if v, ok := c.vals[tmp]; ok {
			return v, nil
		}
		return value{}, fmt.Errorf("%s has no value", x.Name())
	}
	return value{}, fmt.Errorf("%s has no scalar PTO form", ir.Describe(e))
}

// scalarDT is the dtype of a scalar expression.
func scalarDT(e ir.Expr) (ir.DataType, error) {
	st, ok := e.Type().(*ir.ScalarType)
	if !ok {
		return 0, fmt.Errorf("%s is not a scalar", ir.Describe(e))
	}
	return st.DType, nil
}

// as gives e as a scalar of dtype dt, folding constants and casting values.
func (c *Ctx) as(e ir.Expr, dt ir.DataType, hint string) (value, error) {
	typ, err := scalarType(dt)
	if err != nil {
		return value{}, err
	}
	switch x := e.(type) {
	case *ir.ConstInt:
		if dt.IsFloat() {
			return c.consts.float(float64(x.Value), typ), nil
		}
		if dt == ir.BOOL {
			return c.consts.int(b2i(x.Value != 0), typ), nil
		}
		return c.consts.int(x.Value, typ), nil
	case *ir.ConstFloat:
		if math.IsInf(x.Value, 0) || math.IsNaN(x.Value) {
			return value{}, fmt.Errorf("non-finite constant %v has no PTO form", x.Value)
		}
		if dt.IsFloat() {
			return c.consts.float(x.Value, typ), nil
		}
		if dt == ir.BOOL {
			return c.consts.int(b2i(x.Value != 0), typ), nil
		}
		return c.consts.int(int64(x.Value), typ), nil
	case *ir.ConstBool:
		if dt.IsFloat() {
			return c.consts.float(float64(b2i(x.Value)), typ), nil
		}
		return c.consts.int(b2i(x.Value), typ), nil
	}
	from, err := scalarDT(e)
	if err != nil {
		return value{}, err
	}
	inner := hint
	if from != dt {
		inner = ""
	}
	v, err := c.expr(e, inner)
	if err != nil {
		return value{}, err
	}
	if v.typ == "index" {
		from = ir.INDEX
	}
	return c.castValue(v, from, dt, hint)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// castValue converts v from dtype from to dtype to.
func (c *Ctx) castValue(v value, from, to ir.DataType, hint string) (value, error) {
	toT, err := scalarType(to)
	if err != nil {
		return value{}, err
	}
	if v.typ == toT {
		return v, nil
	}
	cast := func(name string, x value, typ string) value {
		return c.op(hint, typ, name, []value{x}, nil, fmt.Sprintf("%s %s : %s to %s", name, x.ssa, x.typ, typ))
	}
	tmp := func(name string, x value, typ string) value {
		return c.op("", typ, name, []value{x}, nil, fmt.Sprintf("%s %s : %s to %s", name, x.ssa, x.typ, typ))
	}
	switch {
	case to == ir.BOOL:
		if from.IsFloat() {
			return c.cmp(hint, "arith.cmpf", "une", 13, v, c.consts.float(0, v.typ)), nil
		}
		return c.cmp(hint, "arith.cmpi", "ne", 1, v, c.consts.int(0, v.typ)), nil
	case from == ir.BOOL:
		switch {
		case to.IsFloat():
			return cast("arith.uitofp", v, toT), nil
		case to == ir.INDEX:
			return cast("arith.index_cast", tmp("arith.extui", v, "i64"), toT), nil
		}
		return cast("arith.extui", v, toT), nil
	case from.IsFloat() && to.IsFloat():
		if from.Bits() == to.Bits() { // f16 <-> bf16 through f32
			return cast("arith.truncf", tmp("arith.extf", v, "f32"), toT), nil
		}
		if from.Bits() < to.Bits() {
			return cast("arith.extf", v, toT), nil
		}
		return cast("arith.truncf", v, toT), nil
	case from.IsFloat():
		name := "arith.fptosi"
		if to.IsUnsignedInt() {
			name = "arith.fptoui"
		}
		if to == ir.INDEX {
			return cast("arith.index_cast", tmp(name, v, "i64"), toT), nil
		}
		return cast(name, v, toT), nil
	case to.IsFloat():
		name := "arith.sitofp"
		if from.IsUnsignedInt() {
			name = "arith.uitofp"
		}
		if from == ir.INDEX {
			return cast(name, tmp("arith.index_cast", v, "i64"), toT), nil
		}
		return cast(name, v, toT), nil
	case from == ir.INDEX || to == ir.INDEX:
		return cast("arith.index_cast", v, toT), nil
	case from.Bits() < to.Bits():
		if from.IsUnsignedInt() {
			return cast("arith.extui", v, toT), nil
		}
		return cast("arith.extsi", v, toT), nil
	default:
		return cast("arith.trunci", v, toT), nil
	}
}

// cmp emits arith.cmpi/cmpf with the named predicate (code is its MLIR 16
// enum value, the generic form's attribute).
func (c *Ctx) cmp(hint, name, pred string, code int, a, b value) value {
	return c.op(hint, "i1", name, []value{a, b}, []attr{{"predicate", itoa(code) + " : i64"}},
		fmt.Sprintf("%s %s, %s, %s : %s", name, pred, a.ssa, b.ssa, a.typ))
}

// bin emits a two-operand op of one type: `name %a, %b : T`.
func (c *Ctx) bin(hint, name string, a, b value) value {
	return c.op(hint, a.typ, name, []value{a, b}, nil, fmt.Sprintf("%s %s, %s : %s", name, a.ssa, b.ssa, a.typ))
}

// commonType is the dtype both operands of a comparison are brought to.
func commonType(a, b ir.DataType) ir.DataType {
	switch {
	case a == b:
		return a
	case a.IsFloat() && b.IsFloat():
		if a.Bits() == b.Bits() {
			return ir.FP32
		}
		if a.Bits() > b.Bits() {
			return a
		}
		return b
	case a.IsFloat():
		return a
	case b.IsFloat():
		return b
	case a == ir.INDEX || b == ir.INDEX:
		return ir.INDEX
	case a == ir.BOOL:
		return b
	case b == ir.BOOL:
		return a
	case a.Bits() > b.Bits():
		return a
	case b.Bits() > a.Bits():
		return b
	case a.IsSignedInt():
		return a
	}
	return b
}

// integer compare predicates: name and MLIR 16 enum value, signed and unsigned.
var intPreds = map[ir.BinaryOp][2]struct {
	name string
	code int
}{
	ir.OpEq: {{"eq", 0}, {"eq", 0}},
	ir.OpNe: {{"ne", 1}, {"ne", 1}},
	ir.OpLt: {{"slt", 2}, {"ult", 6}},
	ir.OpLe: {{"sle", 3}, {"ule", 7}},
	ir.OpGt: {{"sgt", 4}, {"ugt", 8}},
	ir.OpGe: {{"sge", 5}, {"uge", 9}},
}

// ordered float compare predicates (une for !=, as Python's != is true on NaN).
var floatPreds = map[ir.BinaryOp]struct {
	name string
	code int
}{
	ir.OpEq: {"oeq", 1}, ir.OpNe: {"une", 13}, ir.OpLt: {"olt", 4},
	ir.OpLe: {"ole", 5}, ir.OpGt: {"ogt", 2}, ir.OpGe: {"oge", 3},
}

func (c *Ctx) binary(b *ir.BinaryExpr, hint string) (value, error) {
	lt, err := scalarDT(b.Left)
	if err != nil {
		return value{}, err
	}
	rt, err := scalarDT(b.Right)
	if err != nil {
		return value{}, err
	}
	operands := func(dt ir.DataType) (value, value, error) {
		l, err := c.as(b.Left, dt, "")
		if err != nil {
			return value{}, value{}, err
		}
		r, err := c.as(b.Right, dt, "")
		return l, r, err
	}
	switch {
	case b.Op.IsCompare():
		dt := commonType(lt, rt)
		l, r, err := operands(dt)
		if err != nil {
			return value{}, err
		}
		if dt.IsFloat() {
			p := floatPreds[b.Op]
			return c.cmp(hint, "arith.cmpf", p.name, p.code, l, r), nil
		}
		p := intPreds[b.Op][0]
		if dt.IsUnsignedInt() {
			p = intPreds[b.Op][1]
		}
		return c.cmp(hint, "arith.cmpi", p.name, p.code, l, r), nil
	case b.Op.IsLogical():
		l, r, err := operands(ir.BOOL)
		if err != nil {
			return value{}, err
		}
		name := map[ir.BinaryOp]string{ir.OpAnd: "arith.andi", ir.OpOr: "arith.ori", ir.OpXor: "arith.xori"}[b.Op]
		return c.bin(hint, name, l, r), nil
	}
	dt := b.DType
	l, r, err := operands(dt)
	if err != nil {
		return value{}, err
	}
	if dt.IsFloat() {
		name, ok := map[ir.BinaryOp]string{ir.OpAdd: "arith.addf", ir.OpSub: "arith.subf", ir.OpMul: "arith.mulf",
			ir.OpFloatDiv: "arith.divf", ir.OpFloorMod: "arith.remf", ir.OpMin: "arith.minf", ir.OpMax: "arith.maxf",
			ir.OpPow: "math.powf"}[b.Op]
		if b.Op == ir.OpFloorDiv {
			q := c.bin("", "arith.divf", l, r)
			return c.op(hint, q.typ, "math.floor", []value{q}, nil, fmt.Sprintf("math.floor %s : %s", q.ssa, q.typ)), nil
		}
		if !ok {
			return value{}, fmt.Errorf("%s on %s has no PTO form", b.Op, dt)
		}
		return c.bin(hint, name, l, r), nil
	}
	if dt == ir.BOOL {
		return value{}, fmt.Errorf("%s on %s has no PTO form", b.Op, dt)
	}
	unsigned := dt.IsUnsignedInt()
	pick := func(s, u string) string {
		if unsigned {
			return u
		}
		return s
	}
	name, ok := map[ir.BinaryOp]string{
		ir.OpAdd: "arith.addi", ir.OpSub: "arith.subi", ir.OpMul: "arith.muli",
		ir.OpFloorDiv: pick("arith.floordivsi", "arith.divui"), ir.OpFloorMod: pick("arith.remsi", "arith.remui"),
		ir.OpMin: pick("arith.minsi", "arith.minui"), ir.OpMax: pick("arith.maxsi", "arith.maxui"),
		ir.OpBitAnd: "arith.andi", ir.OpBitOr: "arith.ori", ir.OpBitXor: "arith.xori",
		ir.OpShl: "arith.shli", ir.OpShr: pick("arith.shrsi", "arith.shrui"), ir.OpPow: "math.ipowi",
	}[b.Op]
	if !ok {
		return value{}, fmt.Errorf("%s on %s has no PTO form", b.Op, dt)
	}
	return c.bin(hint, name, l, r), nil
}

func (c *Ctx) unary(u *ir.UnaryExpr, hint string) (value, error) {
	if u.Op == ir.OpCast {
		return c.as(u.X, u.DType, hint)
	}
	dt := u.DType
	x, err := c.as(u.X, dt, "")
	if err != nil {
		return value{}, err
	}
	one := func(name string) value {
		return c.op(hint, x.typ, name, []value{x}, nil, fmt.Sprintf("%s %s : %s", name, x.ssa, x.typ))
	}
	switch u.Op {
	case ir.OpNeg:
		if dt.IsFloat() {
			return one("arith.negf"), nil
		}
		return c.bin(hint, "arith.subi", c.consts.int(0, x.typ), x), nil
	case ir.OpNot:
		if dt != ir.BOOL {
			return value{}, fmt.Errorf("not of %s: expected a BOOL", dt)
		}
		return c.bin(hint, "arith.xori", x, c.consts.int(1, "i1")), nil
	case ir.OpBitNot:
		if !dt.IsInt() {
			return value{}, fmt.Errorf("bitwise not of %s: expected an integer", dt)
		}
		return c.bin(hint, "arith.xori", x, c.consts.int(-1, x.typ)), nil
	case ir.OpAbs:
		if dt.IsFloat() {
			return one("math.absf"), nil
		}
		return one("math.absi"), nil
	}
	return value{}, fmt.Errorf("%s has no PTO form", u.Op)
}

// index gives e as an index value (offsets, sizes, loop bounds).
func (c *Ctx) index(e ir.Expr) (value, error) { return c.as(e, ir.INDEX, "") }

// indexHint is index with a name for the cast, if one is needed.
func (c *Ctx) indexHint(e ir.Expr, hint string) (value, error) { return c.as(e, ir.INDEX, hint) }

// cIndex is the index constant v.
func (c *Ctx) cIndex(v int64) value { return c.consts.int(v, "index") }
