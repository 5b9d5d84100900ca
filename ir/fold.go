package ir

import "fmt"

// IntArith applies an integer arithmetic operator with Python's semantics
// (floor division and modulo round toward minus infinity). ok is false for
// operators that are not integer arithmetic (comparisons, true division,
// bit operations).
func IntArith(op BinaryOp, a, b int64) (v int64, ok bool, err error) {
	switch op {
	case OpAdd:
		return a + b, true, nil
	case OpSub:
		return a - b, true, nil
	case OpMul:
		return a * b, true, nil
	case OpMin:
		return min(a, b), true, nil
	case OpMax:
		return max(a, b), true, nil
	case OpFloorDiv, OpFloorMod:
		if b == 0 {
			return 0, true, fmt.Errorf("integer division by zero")
		}
		q := a / b
		if a%b != 0 && (a < 0) != (b < 0) {
			q--
		}
		if op == OpFloorDiv {
			return q, true, nil
		}
		return a - q*b, true, nil
	}
	return 0, false, nil
}

// FoldInt evaluates an integer expression built from constants and
// arithmetic; leaf gives the value of anything else (a variable, a call
// such as pld.system.world_size()) or an error saying why it has none.
func FoldInt(e Expr, leaf func(Expr) (int64, error)) (int64, error) {
	switch x := e.(type) {
	case *ConstInt:
		return x.Value, nil
	case *BinaryExpr:
		a, err := FoldInt(x.Left, leaf)
		if err != nil {
			return 0, err
		}
		b, err := FoldInt(x.Right, leaf)
		if err != nil {
			return 0, err
		}
		v, ok, err := IntArith(x.Op, a, b)
		if !ok {
			return 0, fmt.Errorf("%s is not integer arithmetic", DefaultFormat.Expr(e))
		}
		return v, err
	}
	return leaf(e)
}
