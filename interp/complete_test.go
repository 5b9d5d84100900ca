package interp_test

import (
	"testing"

	"github.com/ptorepl/ptorepl/interp"
	"github.com/stretchr/testify/require"
)

func TestComplete(t *testing.T) {
	s := newSession(t)
	eval(t, s, `prog := pl.NewProgram("P")`)
	cases := []struct {
		code  string
		want  string
		start int
	}{
		{"pld.AllRed", "pld.AllReduce", 0},
		{"x := pld.AllRed", "pld.AllReduce", 5},
		{"prog.InC", "prog.InCore", 0},
		{"pro", "prog", 0},
		{"strings.TrimSp", "strings.TrimSpace", 0},
		{"tensor.Ran", "tensor.Randn", 0},
	}
	for _, tc := range cases {
		c := s.Complete(tc.code, len(tc.code))
		require.Contains(t, c.Matches, tc.want, tc.code)
		require.Equal(t, tc.start, c.Start, tc.code)
		require.Equal(t, len(tc.code), c.End, tc.code)
	}
	// Hidden helpers never show.
	for _, m := range s.Complete("_", 1).Matches {
		require.NotContains(t, m, "_ptorepl")
	}
	require.Empty(t, s.Complete("pld.NoSuchThing", 15).Matches)
}

func TestInspect(t *testing.T) {
	s := newSession(t)
	in, ok := s.Inspect("pld.Put", 7)
	require.True(t, ok)
	require.Contains(t, in.Signature, "func Put(")
	require.Contains(t, in.Doc, "put")
	// Cursor in the middle of the name works too.
	in2, ok := s.Inspect("x := pld.Put(a, b)", 10)
	require.True(t, ok)
	require.Equal(t, in.Signature, in2.Signature)
	// A method through a user variable.
	eval(t, s, `prog := pl.NewProgram("P")`)
	in, ok = s.Inspect("prog.InCore", 11)
	require.True(t, ok)
	require.Contains(t, in.Signature, "InCore(name string")
	_, ok = s.Inspect("nosuch", 6)
	require.False(t, ok)
}

func TestIsComplete(t *testing.T) {
	cases := []struct{ code, want string }{
		{"x := 1", interp.Complete},
		{"fmt.Println(\"hi\")", interp.Complete},
		{"func f() {\n\treturn\n}", interp.Complete},
		{"", interp.Complete},
		{"func f() {", interp.Incomplete},
		{"x := []int{1,\n2,", interp.Incomplete},
		{"y := 1 +", interp.Incomplete},
		{"s := `multi\nline", interp.Incomplete},
		{"prog.InCore(\"k\", func(f *pl.Func) {", interp.Incomplete},
		{"x := )", interp.Invalid},
		{"func f() }", interp.Invalid},
		{"x := 1 2", interp.Invalid},
		// A line that ends inside ( or [ where Go inserts a semicolon is an
		// error whatever comes next: run it, do not wait for a ")".
		{"x := 1 + (2", interp.Invalid},
		{"x := 1 + (2\ny := 3", interp.Invalid},
		{"fmt.Println(x", interp.Invalid},
		{"a := []int{1, 2}[0", interp.Invalid},
		{"fmt.Println(x,", interp.Incomplete},
		{"fmt.Println(\n\tx,", interp.Incomplete},
		{"f(func() {\n\tx := 1", interp.Incomplete},
		{"x := []int{\n1,\n2", interp.Incomplete}, // braces: a block or a literal; the parser decides
		{"var (\n\ta = 1", interp.Incomplete},
		{"const (\n\tA = iota\n\tB", interp.Incomplete},
		{"f(`raw\nline", interp.Incomplete},
	}
	for _, tc := range cases {
		got, _ := interp.IsComplete(tc.code)
		require.Equal(t, tc.want, got, "%q", tc.code)
	}
}
