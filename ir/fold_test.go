package ir

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestIntArith(t *testing.T) {
	for _, c := range []struct {
		op   BinaryOp
		a, b int64
		want int64
	}{
		{OpAdd, 2, 3, 5}, {OpSub, 2, 3, -1}, {OpMul, -2, 3, -6}, {OpMin, 2, -3, -3}, {OpMax, 2, -3, 2},
		{OpFloorDiv, 7, 2, 3}, {OpFloorDiv, -7, 2, -4}, {OpFloorMod, -7, 2, 1}, {OpFloorMod, 7, -2, -1},
	} {
		v, ok, err := IntArith(c.op, c.a, c.b)
		require.True(t, ok)
		require.NoError(t, err)
		require.Equal(t, c.want, v, "%s(%d, %d)", c.op, c.a, c.b)
	}
	_, ok, err := IntArith(OpFloorDiv, 1, 0)
	require.True(t, ok)
	require.ErrorContains(t, err, "division by zero")
	_, ok, _ = IntArith(OpLt, 1, 2)
	require.False(t, ok)
}

func TestFoldInt(t *testing.T) {
	ws := NewVar("ws", Scalar(INT64), Span{})
	e := &BinaryExpr{Op: OpMul, Left: ws, Right: Int(4), DType: INT64}
	leaf := func(x Expr) (int64, error) {
		if x == ws {
			return 8, nil
		}
		return 0, fmt.Errorf("unknown")
	}
	v, err := FoldInt(e, leaf)
	require.NoError(t, err)
	require.EqualValues(t, 32, v)
	_, err = FoldInt(&BinaryExpr{Op: OpLt, Left: Int(1), Right: Int(2), DType: BOOL}, leaf)
	require.ErrorContains(t, err, "not integer arithmetic")
	_, err = FoldInt(NewVar("n", Scalar(INT64), Span{}), leaf)
	require.ErrorContains(t, err, "unknown")
}

func TestConstDiff(t *testing.T) {
	k := NewVar("k0", Scalar(INDEX), Span{})
	j := NewVar("j", Scalar(INDEX), Span{})
	add := func(a, b Expr) Expr { return &BinaryExpr{Op: OpAdd, Left: a, Right: b, DType: INDEX} }
	sub := func(a, b Expr) Expr { return &BinaryExpr{Op: OpSub, Left: a, Right: b, DType: INDEX} }
	mul := func(a, b Expr) Expr { return &BinaryExpr{Op: OpMul, Left: a, Right: b, DType: INDEX} }
	fdiv := func(a, b Expr) Expr { return &BinaryExpr{Op: OpFloorDiv, Left: a, Right: b, DType: INDEX} }
	for _, c := range []struct {
		a, b Expr
		want int64
		ok   bool
	}{
		{add(k, Int(128)), k, 128, true},
		{add(mul(k, Int(4)), Int(4)), mul(Int(4), k), 4, true},
		{sub(add(k, j), Int(2)), add(j, sub(k, Int(10))), 8, true},
		{add(fdiv(k, Int(2)), Int(3)), fdiv(k, Int(2)), 3, true},
		{add(k, Int(1)), j, 0, false},
		{mul(k, j), k, 0, false},
		{add(mul(k, Int(2)), Int(1)), k, 0, false},
	} {
		got, ok := ConstDiff(c.a, c.b)
		if ok != c.ok || got != c.want {
			t.Errorf("ConstDiff(%s, %s) = %d, %v; want %d, %v", DefaultFormat.Expr(c.a), DefaultFormat.Expr(c.b), got, ok, c.want, c.ok)
		}
	}
}
