package ir

import "testing"

// TestBroadcastDims: NumPy's broadcasting rule on static and symbolic
// dimensions.
func TestBroadcastDims(t *testing.T) {
	n := &Var{Name: "N", T: Scalar(INDEX)}
	m := &Var{Name: "M", T: Scalar(INDEX)}
	dims := func(ds ...any) []Expr {
		out := make([]Expr, len(ds))
		for i, d := range ds {
			switch d := d.(type) {
			case int:
				out[i] = Int(int64(d))
			case Expr:
				out[i] = d
			}
		}
		return out
	}
	for _, c := range []struct {
		a, b, want []Expr
		ok         bool
	}{
		{dims(16, 32), dims(16, 32), dims(16, 32), true},
		{dims(16, 32), dims(16, 1), dims(16, 32), true},
		{dims(16, 1), dims(16, 32), dims(16, 32), true},
		{dims(4, 1), dims(1, 8), dims(4, 8), true},
		{dims(2, 1, 8), dims(4, 1), dims(2, 4, 8), true},
		{dims(8), dims(3, 1), dims(3, 8), true},
		{dims(n, 1), dims(n, 32), dims(n, 32), true},
		{dims(1, 32), dims(n, 32), dims(n, 32), true},
		{dims(16, 32), dims(16, 8), nil, false},
		{dims(n, 32), dims(m, 32), nil, false},
		{dims(3), dims(4), nil, false},
	} {
		got, ok := BroadcastDims(c.a, c.b)
		if ok != c.ok || ok && !SameDims(got, c.want) {
			t.Errorf("BroadcastDims(%s, %s) = %s, %v; want %s, %v", ShapeString(c.a), ShapeString(c.b), ShapeString(got), ok, ShapeString(c.want), c.ok)
		}
	}
}
