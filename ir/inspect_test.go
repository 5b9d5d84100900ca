package ir

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// label names a node briefly for the expected visit orders below.
func label(n Node) string {
	switch n := n.(type) {
	case *Var:
		return n.Name
	case *ConstInt:
		return fmt.Sprint(n.Value)
	case *Call:
		return n.Name()
	case *BinaryExpr:
		return "bin"
	case *MakeTuple:
		return "tuple"
	case *SeqStmts:
		return "seq"
	case *AssignStmt:
		return "assign " + n.Var.Name
	case *EvalStmt:
		return "eval"
	case *ForStmt:
		return "for"
	case *IfStmt:
		return "if"
	case *ReturnStmt:
		return "return"
	}
	return fmt.Sprintf("%T", n)
}

// inspectFixture is
//
//	x = tile.load(t, (0,), (8,))
//	for i in range(0, 4, 1):
//	    if i < 2:
//	        y = tile.load(t, (i,), (8,))
//	return x
func inspectFixture(t *testing.T) Stmt {
	t.Helper()
	tv := tvar("t", &TensorType{Shape: Dims(8).Elems, DType: FP32})
	ld1, err := NewCall("tile.load", []Expr{tv, Dims(0), Dims(8)}, nil, Span{})
	require.NoError(t, err)
	x := tvar("x", ld1.Type())
	i := tvar("i", &ScalarType{DType: INDEX})
	ld2, err := NewCall("tile.load", []Expr{tv, &MakeTuple{Elems: []Expr{i}}, Dims(8)}, nil, Span{})
	require.NoError(t, err)
	y := tvar("y", ld2.Type())
	return Seq(
		&AssignStmt{Var: x, Value: ld1},
		&ForStmt{LoopVar: i, Start: Int(0), Stop: Int(4), Step: Int(1), Body: Seq(
			&IfStmt{Cond: &BinaryExpr{Op: OpLt, Left: i, Right: Int(2)}, Then: Seq(
				&AssignStmt{Var: y, Value: ld2},
			)},
		)},
		&ReturnStmt{Values: []Expr{x}},
	)
}

func TestPreorderFilter(t *testing.T) {
	root := inspectFixture(t)
	cases := []struct {
		name  string
		types []Node
		want  string
	}{
		{"calls", []Node{(*Call)(nil)}, "tile.load tile.load"},
		{"vars", []Node{(*Var)(nil)}, "t i t i x"},
		{"stmts", []Node{(*AssignStmt)(nil), (*ForStmt)(nil), (*IfStmt)(nil), (*ReturnStmt)(nil)},
			"assign x for if assign y return"},
		{"consts", []Node{(*ConstInt)(nil)}, "0 8 0 4 1 2 8"},
		{"none-matching", []Node{(*UnaryExpr)(nil)}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			Preorder(root, c.types, func(n Node) { got = append(got, label(n)) })
			require.Equal(t, c.want, strings.Join(got, " "))
		})
	}
}

// The inspector and WalkStmt must agree on what is below a statement, or a
// pass converted from one to the other would change behaviour.
func TestPreorderMatchesWalkStmt(t *testing.T) {
	root := inspectFixture(t)
	var walk, insp []string
	WalkStmt(root, func(e Expr) { walk = append(walk, label(e)) }, func(s Stmt) { walk = append(walk, label(s)) })
	Preorder(root, nil, func(n Node) { insp = append(insp, label(n)) })
	require.Equal(t, walk, insp)
	require.NotEmpty(t, walk)
}

func TestWithStackPruneAndParents(t *testing.T) {
	root := inspectFixture(t)
	cases := []struct {
		name  string
		types []Node
		prune func(Node) bool // true: skip the node's children
		want  string
	}{
		{
			// Parents of each call, innermost last, whether or not they matched.
			name:  "call parents",
			types: []Node{(*Call)(nil)},
			want:  "+tile.load<seq/assign x> -tile.load +tile.load<seq/for/seq/if/seq/assign y> -tile.load",
		},
		{
			// Pruning a for loop hides everything inside it, and its pop.
			name:  "prune for",
			types: []Node{(*ForStmt)(nil), (*Call)(nil)},
			prune: func(n Node) bool { _, ok := n.(*ForStmt); return ok },
			want:  "+tile.load<seq/assign x> -tile.load +for<seq>",
		},
		{
			// Pruning a call skips its arguments but not its siblings.
			name:  "prune call",
			types: []Node{(*Call)(nil), (*Var)(nil)},
			prune: func(n Node) bool { _, ok := n.(*Call); return ok },
			want:  "+tile.load<seq/assign x> +i<seq/for/seq/if/bin> -i +tile.load<seq/for/seq/if/seq/assign y> +x<seq/return> -x",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			WithStack(root, c.types, func(n Node, push bool, stack []Node) bool {
				require.Same(t, n, stack[len(stack)-1], "the node is the top of its stack")
				if !push {
					got = append(got, "-"+label(n))
					return true
				}
				var parents []string
				for _, p := range stack[:len(stack)-1] {
					parents = append(parents, label(p))
				}
				got = append(got, "+"+label(n)+"<"+strings.Join(parents, "/")+">")
				return c.prune == nil || !c.prune(n)
			})
			require.Equal(t, c.want, strings.Join(got, " "))
		})
	}
}

func TestNodesNilRoot(t *testing.T) {
	called := false
	Nodes(nil, nil, func(Node, bool) bool { called = true; return true })
	require.False(t, called)
}

func TestCallArgAccessors(t *testing.T) {
	tv := tvar("t", &TensorType{Shape: Dims(8).Elems, DType: FP32})
	ld, err := NewCall("tile.load", []Expr{tv, Dims(0), Dims(8)}, nil, Span{})
	require.NoError(t, err)
	fn := &Call{Fn: &GlobalVar{Name: "kernel"}, Args: []Expr{tv}}

	cases := []struct {
		name    string
		call    *Call
		arg     string
		want    Expr
		wantErr string
	}{
		{"first", ld, "tensor", tv, ""},
		{"tuple", ld, "shapes", ld.Args[2], ""},
		{"optional omitted", ld, "valid_shape", nil,
			`tile.load: argument "valid_shape" (position 3) not given: 3 argument(s)`},
		{"unknown", ld, "tile", nil,
			`tile.load: no argument "tile" (expected one of: tensor, offsets, shapes, valid_shape)`},
		{"function call", fn, "tensor", nil,
			`kernel: a function call has no registry arguments (asked for "tensor")`},
		{"nil call", nil, "tensor", nil, `argument "tensor" of a nil call`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := c.call.Arg(c.arg)
			gotE, err := c.call.ArgErr(c.arg)
			if c.wantErr != "" {
				require.False(t, ok)
				require.Nil(t, got)
				require.EqualError(t, err, c.wantErr)
				return
			}
			require.True(t, ok)
			require.Same(t, c.want, got)
			require.NoError(t, err)
			require.Same(t, c.want, gotE)
		})
	}

	v, ok := ld.ArgVar("tensor")
	require.True(t, ok)
	require.Same(t, tv, v)
	_, ok = ld.ArgVar("shapes")
	require.False(t, ok, "a tuple is not a variable")
	tup, ok := ld.ArgTuple("offsets")
	require.True(t, ok)
	require.Len(t, tup.Elems, 1)
	_, ok = ld.ArgTuple("tensor")
	require.False(t, ok)
	_, ok = ld.Aliased()
	require.False(t, ok, "a load's result is new storage")
	_, ok = fn.Aliased()
	require.False(t, ok)
	x := tvar("x", ld.Type())
	st, err := NewCall("tile.store", []Expr{x, Dims(0), tv}, nil, Span{})
	require.NoError(t, err)
	out, ok := st.Aliased()
	require.True(t, ok)
	require.Same(t, tv, out, "a store's result is its output tensor")
	require.Equal(t, 2, ld.Op.ArgIndex("shapes"))
	require.Equal(t, -1, ld.Op.ArgIndex("nope"))
}

// Count the loads in a program and name the statement each sits in, pruning
// the loop so only top-level loads are seen.
func ExampleWithStack() {
	tv := NewVar("t", &TensorType{Shape: Dims(8).Elems, DType: FP32}, Span{})
	ld, _ := NewCall("tile.load", []Expr{tv, Dims(0), Dims(8)}, nil, Span{})
	inner, _ := NewCall("tile.load", []Expr{tv, Dims(0), Dims(8)}, nil, Span{})
	i := NewVar("i", &ScalarType{DType: INDEX}, Span{})
	body := Seq(
		&AssignStmt{Var: NewVar("x", ld.Type(), Span{}), Value: ld},
		&ForStmt{LoopVar: i, Start: Int(0), Stop: Int(4), Step: Int(1),
			Body: Seq(&AssignStmt{Var: NewVar("y", inner.Type(), Span{}), Value: inner})},
	)
	WithStack(body, []Node{(*Call)(nil), (*ForStmt)(nil)}, func(n Node, push bool, stack []Node) bool {
		if _, isFor := n.(*ForStmt); isFor {
			return false // top level only
		}
		if c, ok := n.(*Call); ok && push {
			parent := stack[len(stack)-2].(*AssignStmt)
			src, _ := c.ArgVar("tensor")
			fmt.Printf("%s = %s(%s)\n", parent.Var.Name, c.Name(), src.Name)
		}
		return true
	})
	// Output:
	// x = tile.load(t)
}
