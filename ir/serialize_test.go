package ir

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sharedProgram has a window buffer shared by two distributed types, a loop
// with iter-args and return vars, an if with return vars, a while loop
// that breaks and continues, kwargs of every kind and a MemRef.
func sharedProgram(t *testing.T) *Program {
	p := NewProgram("Shared")
	host, err := NewFunction("host", Opaque, LevelHost, Orchestrator, Span{File: "cell[1]", Line: 3})
	require.NoError(t, err)
	alloc := MustCall("pld.tensor.alloc_window_buffer", []Expr{IntOf(1024, INT64)}, Kwargs{{"name", "buf"}}, Span{})
	buf := NewVar("buf", PtrT, Span{})
	wb := NewWindowBuffer(buf, IntOf(1024, INT64), false, true, Span{})
	view := func(name string) *AssignStmt {
		c := MustCall("pld.tensor.window", []Expr{buf, Dims(1, 256)}, Kwargs{{"dtype", FP32}}, Span{})
		return &AssignStmt{Var: NewVar(name, &DistributedTensorType{Shape: Dims(1, 256).Elems, DType: FP32, Window: wb}, Span{}), Value: c}
	}
	i := NewVar("i", Scalar(INDEX), Span{})
	acc := NewIterArg("acc", Scalar(INT32), IntOf(0, INT32), Span{})
	next := &BinaryExpr{Op: OpAdd, Left: acc, Right: IntOf(1, INT32), DType: INT32}
	rv := NewVar("acc_rv", Scalar(INT32), Span{})
	phi := NewVar("phi", Scalar(FP32), Span{})
	loop := &ForStmt{LoopVar: i, Start: Int(0), Stop: Int(4), Step: Int(1), IterArgs: []*IterArg{acc},
		Body: Seq(&YieldStmt{Values: []Expr{next}}), ReturnVars: []*Var{rv}, Attrs: Kwargs{{"unroll", int64(2)}}}
	ifs := &IfStmt{Cond: &BinaryExpr{Op: OpGt, Left: rv, Right: IntOf(2, INT32), DType: BOOL},
		Then: Seq(&YieldStmt{Values: []Expr{&ConstFloat{Value: 0.5, DType: FP32}}}),
		Else: Seq(&YieldStmt{Values: []Expr{&UnaryExpr{Op: OpCast, X: rv, DType: FP32}}}), ReturnVars: []*Var{phi}}
	// A while loop carrying n, with a break and a continue in its body.
	n := NewIterArg("n", Scalar(INDEX), Int(0), Span{})
	nrv := NewVar("n_rv", Scalar(INDEX), Span{})
	step := &BinaryExpr{Op: OpAdd, Left: n, Right: Int(1), DType: INDEX}
	wl := &WhileStmt{Cond: &BinaryExpr{Op: OpLt, Left: n, Right: Int(8), DType: BOOL}, IterArgs: []*IterArg{n},
		Body: Seq(&IfStmt{Cond: &BinaryExpr{Op: OpEq, Left: n, Right: Int(3), DType: BOOL}, Then: Seq(&ContinueStmt{}), Else: Seq(&BreakStmt{})},
			&YieldStmt{Values: []Expr{step}}), ReturnVars: []*Var{nrv}}
	mem := NewMemRef(NewVar("mem_vec_0", PtrT, Span{}), Int(0), 2048, Span{})
	tile := NewVar("t", &TileType{Shape: Dims(16, 64).Elems, DType: FP16, Memory: MemVec, MemRef: mem}, Span{})
	create := MustCall("tile.create", []Expr{Dims(16, 64)}, Kwargs{{"dtype", FP16}, {"target_memory", MemVec}}, Span{})
	host.Body = Seq(&AssignStmt{Var: buf, Value: alloc, StmtBase: StmtBase{Leading: []string{"a comment"}}}, view("a"), view("b"), loop, ifs, wl,
		&AssignStmt{Var: tile, Value: create})
	require.NoError(t, p.AddFunction(host))
	p.CommGroups = []*CommGroup{{Slots: []*WindowBuffer{wb}}, {Devices: []int64{0, 2}}}
	return p
}

func TestRoundTripPreservesSharing(t *testing.T) {
	p := sharedProgram(t)
	require.NoError(t, RoundTripCheck(p))
	data, err := MarshalProgram(p)
	require.NoError(t, err)
	q, err := UnmarshalProgram(data)
	require.NoError(t, err)
	stmts := Flatten(q.Functions[0].Body)
	a := stmts[1].(*AssignStmt).Var.Type().(*DistributedTensorType)
	b := stmts[2].(*AssignStmt).Var.Type().(*DistributedTensorType)
	require.Same(t, a.Window, b.Window, "views of one allocation share one window buffer")
	require.Same(t, a.Window, q.CommGroups[0].Slots[0])
	require.Same(t, stmts[0].(*AssignStmt).Var, a.Window.Base, "the buffer's base is the alloc's variable")
	require.True(t, a.Window.StoreToHost)
	require.Equal(t, []string{"a comment"}, stmts[0].Comments())
	require.Equal(t, Span{File: "cell[1]", Line: 3}, q.Functions[0].Pos)
}

func TestUnmarshalRejectsBadInput(t *testing.T) {
	good, err := MarshalProgram(sharedProgram(t))
	require.NoError(t, err)
	cases := []struct {
		name string
		data string
		want string
	}{
		{"not json", "{", "not a serialized program"},
		{"wrong format", `{"format": "x", "version": 1}`, "not a serialized program"},
		{"wrong version", `{"format": "ptorepl-ir", "version": 9}`, "unsupported serialization version"},
		{"no program", `{"format": "ptorepl-ir", "version": 1}`, "program: missing"},
		{"unknown op", strings.Replace(string(good), `"pld.tensor.window"`, `"pld.tensor.nope"`, 1), "Operator 'pld.tensor.nope' not found"},
		{"dangling ref", strings.Replace(string(good), `"ref": 1`, `"ref": 999`, 1), "reference to unknown node 999"},
		{"bad dtype", strings.Replace(string(good), `"dtype": 52`, `"dtype": 250`, 1), "unknown dtype code 250"},
		{"unknown type kind", strings.Replace(string(good), `"type_kind": "Ptr"`, `"type_kind": "Nope"`, 1), `unknown type kind "Nope"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := UnmarshalProgram([]byte(tc.data))
			require.ErrorContains(t, err, tc.want)
		})
	}
}
