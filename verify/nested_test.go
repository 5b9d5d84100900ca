package verify_test

import (
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/verify"
	"github.com/stretchr/testify/require"
)

// NoNestedCall (Options.Flat) reports a call in a call's arguments, an
// operator's operands, an if condition or a for bound; calls inside tuple
// literals and returned calls are allowed, as upstream's verifier allows
// them; without Flat nothing is checked.
func TestNoNestedCall(t *testing.T) {
	x := ir.NewVar("x", tensor(8), at(1))
	y := ir.NewVar("y", tensor(8), at(2))
	n := ir.NewVar("n", ir.Scalar(ir.INDEX), at(1))
	body := func(stmts ...ir.Stmt) *ir.Function { return fn([]*ir.Var{x, n}, stmts...) }
	nested := add(x, add(x, x, 2), 2)
	size := ir.MustCall("pld.system.world_size", nil, nil, at(3))
	loopOver := func(stop ir.Expr) ir.Stmt {
		return &ir.ForStmt{StmtBase: ir.StmtBase{Pos: at(3)}, LoopVar: ir.NewVar("i", ir.Scalar(ir.INDEX), at(3)),
			Start: ir.Int(0), Stop: stop, Step: ir.Int(1), Body: ir.Seq()}
	}
	cases := []struct {
		name string
		f    *ir.Function
		want string // "": clean
	}{
		{"flat", body(assign(y, add(x, x, 2), 2), &ir.ReturnStmt{Values: []ir.Expr{y}}), ""},
		{"call argument", body(assign(y, nested, 2)),
			"cell.go:2: function k [NoNestedCall 502]: Call expression has nested call in arguments (tensor.add)"},
		{"for bound", body(loopOver(size)),
			"cell.go:3: function k [NoNestedCall 502]: For loop stop expression cannot be a call expression (pld.system.world_size)"},
		{"operator operand", body(loopOver(&ir.BinaryExpr{Op: ir.OpAdd, Left: size, Right: n, DType: ir.INT64, Pos: at(3)})),
			"cell.go:3: function k [NoNestedCall 502]: Binary expression left operand cannot be a call expression (pld.system.world_size)"},
		{"returned call", body(&ir.ReturnStmt{Values: []ir.Expr{add(x, x, 4)}}), ""},
		{"call in a tuple literal", body(&ir.EvalStmt{StmtBase: ir.StmtBase{Pos: at(5)},
			Expr: &ir.MakeTuple{Elems: []ir.Expr{add(x, x, 5), n}}}), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Empty(t, verify.Function(nil, tc.f, verify.Options{}), "nothing is checked without Flat")
			diags := verify.Function(nil, tc.f, verify.Options{Flat: true})
			if tc.want == "" {
				require.Empty(t, diags, "%v", diags)
				return
			}
			require.Contains(t, verify.Codes(diags), verify.NestedCall, "%v", diags)
			require.Contains(t, verify.Err(diags).Error(), tc.want)
		})
	}
}
