package verify_test

import (
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/verify"
	"github.com/stretchr/testify/require"
)

func at(line int) ir.Span { return ir.Span{File: "cell.go", Line: line} }

func tensor(n int64) *ir.TensorType {
	return &ir.TensorType{Shape: []ir.Expr{ir.Int(n)}, DType: ir.FP32}
}

func add(a, b ir.Expr, line int) *ir.Call {
	return ir.MustCall("tensor.add", []ir.Expr{a, b}, nil, at(line))
}

func fn(params []*ir.Var, body ...ir.Stmt) *ir.Function {
	f := &ir.Function{Name: "k", Kind: ir.InCore, Params: params, Body: ir.Seq(body...)}
	for range params {
		f.Dirs = append(f.Dirs, ir.In)
	}
	return f
}

func assign(v *ir.Var, e ir.Expr, line int) *ir.AssignStmt {
	return &ir.AssignStmt{StmtBase: ir.StmtBase{Pos: at(line)}, Var: v, Value: e}
}

func yield(line int, vals ...ir.Expr) *ir.YieldStmt {
	return &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: at(line)}, Values: vals}
}

// loop builds `for i in range(4)` carrying one iter-arg initialised by init.
func loop(init ir.Expr, body func(ia *ir.IterArg) []ir.Stmt, rv *ir.Var) *ir.ForStmt {
	ia := ir.NewIterArg("acc_iter", tensor(8), init, at(3))
	return &ir.ForStmt{StmtBase: ir.StmtBase{Pos: at(3)}, LoopVar: ir.NewVar("i", ir.Scalar(ir.INDEX), at(3)),
		Start: ir.Int(0), Stop: ir.Int(4), Step: ir.Int(1), IterArgs: []*ir.IterArg{ia},
		Body: ir.Seq(body(ia)...), ReturnVars: []*ir.Var{rv}}
}

func TestVerifier(t *testing.T) {
	x := ir.NewVar("x", tensor(8), at(1))
	y := ir.NewVar("y", tensor(8), at(2))
	rv := ir.NewVar("acc_rv", tensor(8), at(3))
	w := ir.NewVar("w", tensor(16), at(1))
	cases := []struct {
		name string
		ssa  bool
		f    *ir.Function
		code int    // 0: clean
		want string // substring of the diagnostic
	}{
		{"clean", true, fn([]*ir.Var{x}, assign(y, add(x, x, 2), 2),
			&ir.ReturnStmt{Values: []ir.Expr{y}}), 0, ""},
		{"use before def", false, fn([]*ir.Var{x}, assign(ir.NewVar("z", tensor(8), at(2)), add(x, y, 2), 2)),
			verify.UseBeforeDef, "cell.go:2: function k [UseAfterDef 401]: variable y is used before it is defined"},
		{"double assignment in SSA", true, fn([]*ir.Var{x}, assign(y, add(x, x, 2), 2), assign(y, add(y, x, 3), 3)),
			verify.MultipleAssignment, "cell.go:3: function k [SSAVerify 1]: variable y is assigned more than once"},
		{"double assignment before SSA is fine", false, fn([]*ir.Var{x}, assign(y, add(x, x, 2), 2), assign(y, add(y, x, 3), 3)), 0, ""},
		{"loop yields its iter-arg update", true, fn([]*ir.Var{x},
			loop(x, func(ia *ir.IterArg) []ir.Stmt {
				n := ir.NewVar("acc_next", tensor(8), at(4))
				return []ir.Stmt{assign(n, add(ia, x, 4), 4), yield(5, n)}
			}, rv), &ir.ReturnStmt{Values: []ir.Expr{rv}}), 0, ""},
		{"missing yield", true, fn([]*ir.Var{x},
			loop(x, func(ia *ir.IterArg) []ir.Stmt {
				return []ir.Stmt{assign(ir.NewVar("t", tensor(8), at(4)), add(ia, x, 4), 4)}
			}, rv)), verify.MissingYield, "for body does not end with a yield of its 1 return values"},
		{"yield count", true, fn([]*ir.Var{x},
			loop(x, func(ia *ir.IterArg) []ir.Stmt { return []ir.Stmt{yield(5, ia, x)} }, rv)),
			verify.YieldCountMismatch, "for body yields 2 values for 1 return_vars"},
		{"misplaced yield", true, fn([]*ir.Var{x},
			loop(x, func(ia *ir.IterArg) []ir.Stmt {
				return []ir.Stmt{yield(4, ia), assign(ir.NewVar("t", tensor(8), at(5)), add(ia, x, 5), 5)}
			}, rv)), verify.MisplacedYield, "cell.go:4: function k [SSAVerify 7]"},
		{"loop var does not escape in SSA", true, func() *ir.Function {
			l := loop(x, func(ia *ir.IterArg) []ir.Stmt { return []ir.Stmt{yield(5, ia)} }, rv)
			return fn([]*ir.Var{x}, l, assign(ir.NewVar("j", ir.Scalar(ir.INDEX), at(7)), &ir.BinaryExpr{Op: ir.OpAdd, Left: l.LoopVar, Right: ir.Int(1), DType: ir.INDEX, Pos: at(7)}, 7))
		}(), verify.UseBeforeDef, "cell.go:7: function k [UseAfterDef 401]: variable i is used before it is defined"},
		{"yield of the wrong shape", true, fn([]*ir.Var{x, w},
			loop(x, func(ia *ir.IterArg) []ir.Stmt { return []ir.Stmt{yield(5, w)} }, rv)),
			verify.ShapeValue, "cell.go:5: function k [TypeCheck 104]: for body yield 0: shape [8] vs [16]"},
		{"stale call type", false, func() *ir.Function {
			c := add(x, x, 2)
			c.T = tensor(4)
			return fn([]*ir.Var{x}, &ir.EvalStmt{StmtBase: ir.StmtBase{Pos: at(2)}, Expr: c})
		}(), verify.CallTypeMismatch, "tensor.add: stored type differs from the deducer's result: shape [8] vs [4]"},
		{"if return var without else", true, fn([]*ir.Var{x},
			&ir.IfStmt{StmtBase: ir.StmtBase{Pos: at(2)}, Cond: &ir.ConstBool{Value: true}, Then: ir.Seq(yield(3, x)), ReturnVars: []*ir.Var{ir.NewVar("r", tensor(8), at(2))}}),
			verify.MissingYield, "if with return_vars has no else branch"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			diags := verify.Function(nil, tc.f, verify.Options{SSA: tc.ssa})
			if tc.code == 0 {
				require.Empty(t, diags, "%v", diags)
				return
			}
			require.Contains(t, verify.Codes(diags), tc.code, "%v", diags)
			require.Contains(t, verify.Err(diags).Error(), tc.want)
		})
	}
}

// Seed #1346: the two branches of an if yield views of different window
// buffers, which must be reported with code 110.
func TestWindowIdentityMismatch(t *testing.T) {
	mk := func(name string) (*ir.Var, *ir.WindowBuffer) {
		base := ir.NewVar(name, ir.PtrT, at(1))
		return base, ir.NewWindowBuffer(base, ir.Int(1024), false, false, at(1))
	}
	_, wa := mk("buf_a")
	_, wb := mk("buf_b")
	view := func(w *ir.WindowBuffer, name string) *ir.Var {
		return ir.NewVar(name, &ir.DistributedTensorType{Shape: []ir.Expr{ir.Int(1), ir.Int(256)}, DType: ir.FP32, Window: w}, at(2))
	}
	a, b := view(wa, "a"), view(wb, "b")
	rv := ir.NewVar("r", a.T, at(3))
	cond := ir.NewVar("c", ir.Scalar(ir.BOOL), at(1))
	f := fn([]*ir.Var{a, b, cond}, &ir.IfStmt{StmtBase: ir.StmtBase{Pos: at(3)}, Cond: cond,
		Then: ir.Seq(yield(4, a)), Else: ir.Seq(yield(6, b)), ReturnVars: []*ir.Var{rv}})
	diags := verify.Function(nil, f, verify.Options{SSA: true})
	require.Equal(t, []int{verify.WindowIdentityMismatch}, verify.Codes(diags))
	require.True(t, strings.Contains(diags[0].Message, "buf_a and buf_b refer to different window buffers"), diags[0].Message)

	// Two views of one allocation agree.
	a2 := view(wa, "a2")
	f = fn([]*ir.Var{a, a2, cond}, &ir.IfStmt{StmtBase: ir.StmtBase{Pos: at(3)}, Cond: cond,
		Then: ir.Seq(yield(4, a)), Else: ir.Seq(yield(6, a2)), ReturnVars: []*ir.Var{rv}})
	require.Empty(t, verify.Function(nil, f, verify.Options{SSA: true}))
}

// Malformed IR is a finding, never a panic.
func TestMalformedIsReported(t *testing.T) {
	f := fn(nil, &ir.EvalStmt{Expr: &ir.Call{}})
	diags := verify.Function(nil, f, verify.Options{})
	require.NotEmpty(t, diags)
}
