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

// ConstDiff folds a - b when the two differ by a constant: both are read as
// integer linear combinations (sums, differences and products by
// constants) of other expressions, and ok is true when every term cancels.
// (k0 + 128) - k0 is 128, as upstream's arithmetic analyzer simplifies a
// slice extent x[k0 : k0 + 128].
func ConstDiff(a, b Expr) (int64, bool) {
	terms := map[string]int64{}
	var c int64
	if !linearTerms(a, 1, terms, &c) || !linearTerms(b, -1, terms, &c) {
		return 0, false
	}
	for _, k := range terms {
		if k != 0 {
			return 0, false
		}
	}
	return c, true
}

// linearTerms adds scale * e to terms (keyed by each atom's identity) and
// the constant c; false when e is not linear integer arithmetic.
func linearTerms(e Expr, scale int64, terms map[string]int64, c *int64) bool {
	switch x := e.(type) {
	case *ConstInt:
		*c += scale * x.Value
		return true
	case *Var:
		terms[fmt.Sprintf("var %p", x)] += scale
		return true
	case *BinaryExpr:
		switch x.Op {
		case OpAdd:
			return linearTerms(x.Left, scale, terms, c) && linearTerms(x.Right, scale, terms, c)
		case OpSub:
			return linearTerms(x.Left, scale, terms, c) && linearTerms(x.Right, -scale, terms, c)
		case OpMul:
			if k, ok := ConstValue(x.Right); ok {
				return linearTerms(x.Left, scale*k, terms, c)
			}
			if k, ok := ConstValue(x.Left); ok {
				return linearTerms(x.Right, scale*k, terms, c)
			}
		}
		if t, ok := x.Type().(*ScalarType); ok && !t.DType.IsFloat() {
			terms["expr "+DefaultFormat.Expr(x)] += scale
			return true
		}
	}
	return false
}
