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
