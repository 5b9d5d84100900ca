package interp_test

import (
	"context"
	"errors"
	"testing"

	"github.com/ptorepl/ptorepl/interp"
	"github.com/stretchr/testify/require"
)

// A call with the wrong number of arguments is reported before the cell
// runs, naming the call, given against expected, and the signature, at the
// first extra argument or the closing parenthesis.
func TestArgumentCount(t *testing.T) {
	s, err := interp.New(interp.Options{})
	require.NoError(t, err)
	ctx := context.Background()
	_, err = s.Eval(ctx, `prog := pl.NewProgram("B"); ran := 0`)
	require.NoError(t, err)
	cases := []struct {
		name, cell string
		line, col  int
		msg        string
	}{
		{"too-many-package-func", `x := pl.Add(1, 2, 3)`, 1, 19,
			"too many arguments in call to pl.Add: given 3, expected 2: func Add(a, b any) Expr"},
		{"not-enough-package-func", `x := pl.Add(1)`, 1, 14,
			"not enough arguments in call to pl.Add: given 1, expected 2: func Add(a, b any) Expr"},
		{"session-variable-method", "ran++\nprog.InCore(\"k\")", 2, 16,
			"not enough arguments in call to prog.InCore: given 1, expected 2: func (p *Program) InCore(name string, body func(f *Func)) *Function"},
		{"parameter-method", "ran++\nprog.InCore(\"k\", func(f *pl.Func) {\n\tf.In(\"x\", pl.Tensor(pl.Dims(4), pl.FP32), 3)\n})", 3, 44,
			"too many arguments in call to f.In: given 3, expected 2: func (f *Func) In(name string, t Type) Expr"},
		{"defined-variable-method", "p := pl.NewProgram(\"C\")\np.Host(\"h\")", 2, 11,
			"not enough arguments in call to p.Host: given 1, expected 2: func (p *Program) Host(name string, body func(f *Func)) *Function"},
		{"chained-call", `pl.NewProgram("D").InCore()`, 1, 27,
			"not enough arguments in call to (…).InCore: given 0, expected 2: func (p *Program) InCore(name string, body func(f *Func)) *Function"},
		{"variadic", `s := fmt.Sprintf()`, 1, 18,
			"not enough arguments in call to fmt.Sprintf: given 0, expected at least 1: func(string, ...interface {}) string"},
		{"cell-function", "func g(a int) int { return a }\nz := g(1, 2)", 2, 11,
			"too many arguments in call to g: given 2, expected 1: func g(a int) int"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.Eval(ctx, c.cell)
			var ce *interp.CellError
			require.True(t, errors.As(err, &ce), "got %v", err)
			require.Equal(t, "compile", ce.Kind)
			require.Equal(t, c.msg, ce.Msg)
			require.Equal(t, [2]int{c.line, c.col}, [2]int{ce.Line, ce.Col})
			// A compile error: nothing in the cell ran.
			v, err := s.Value("ran")
			require.NoError(t, err)
			require.Equal(t, 0, v)
		})
	}
}

// Calls the check cannot type, or types as correct, run as before.
func TestArgumentCountAcceptsCorrectCells(t *testing.T) {
	s, err := interp.New(interp.Options{})
	require.NoError(t, err)
	for _, cell := range []string{
		`fmt.Println()`,
		`fmt.Println(1, 2, 3)`,
		`xs := []any{1, 2}; fmt.Println(xs...)`,
		`func two() (int, int) { return 1, 2 }
func add(a, b int) int { return a + b }
fmt.Println(add(two()))`,
		// A package name shadowed by a variable.
		`func() { pl := struct{ Add func(int) int }{func(a int) int { return a }}; _ = pl.Add(1) }()`,
		// A cell type whose own method shadows a promoted one of another arity.
		`type W struct{ *pl.Func }
func (w W) Let(x int) int { return x }
fmt.Println(W{}.Let(3))`,
		// One name, two types: not typed, not checked.
		`a := pl.NewProgram("A")
func() { a := 3; _ = a }()
_ = a`,
		// A method value.
		`pp := pl.NewProgram("P"); in := pp.InCore; _ = in`,
	} {
		_, err := s.Eval(context.Background(), cell)
		require.NoError(t, err, cell)
	}
}
