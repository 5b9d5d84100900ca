package interp_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/interp"
	"github.com/stretchr/testify/require"
)

func newSession(t *testing.T) *interp.Session {
	t.Helper()
	s, err := interp.New(interp.Options{})
	require.NoError(t, err)
	return s
}

func eval(t *testing.T, s *interp.Session, cell string) *interp.Result {
	t.Helper()
	r, err := s.Eval(context.Background(), cell)
	require.NoError(t, err, "cell:\n%s", cell)
	return r
}

func evalErr(t *testing.T, s *interp.Session, cell string) *interp.CellError {
	t.Helper()
	_, err := s.Eval(context.Background(), cell)
	require.Error(t, err)
	var ce *interp.CellError
	require.True(t, errors.As(err, &ce), "%T %v", err, err)
	return ce
}

func TestDisplayRules(t *testing.T) {
	s := newSession(t)
	cases := []struct {
		name, cell, text string
		has              bool
	}{
		{"expression", "1 + 2", "3", true},
		{"declaration", "x := 40", "", false},
		{"expression of a global", "x + 2", "42", true},
		{"void call", "func hello() { }\nhello()", "", false},
		{"multi-value call", "func two() (int, string) { return 7, \"seven\" }\ntwo()", "7\n\"seven\"", true},
		{"function declaration", "func three() int { return 3 }", "", false},
		{"call with a value", "three()", "3", true},
		{"void host call", "xs := []int{3, 1}\nsort.Ints(xs)", "", false},
		{"fmt printing shows no byte count", `fmt.Print("")`, "", false},
		{"host call with values", `strings.Cut("a=b", "=")`, "\"a\"\n\"b\"\ntrue", true},
		{"type declaration then use", "type P struct{ A int }\nP{A: 5}", "{5}", true},
		{"mixed declarations and statements", "y := 1\nfunc addY(v int) int { return v + y }\naddY(1)", "2", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := eval(t, s, tc.cell)
			require.Equal(t, tc.has, r.HasValue(), "values %v", r.Values)
			require.Equal(t, tc.text, r.Text())
		})
	}
}

func TestCapturedOutputInOrder(t *testing.T) {
	s := newSession(t)
	// pl.NewProgram(...).String() is compiled; fmt.Println from the cell is
	// interpreted; os.Stdout.WriteString is the host file directly.
	r := eval(t, s, `fmt.Println("one")
os.Stdout.WriteString("two\n")
fmt.Println("three")
fmt.Fprintln(os.Stderr, "warn")
print("")`)
	require.Equal(t, "one\ntwo\nthree\n", r.Stdout())
	require.Equal(t, "warn\n", r.Stderr())
}

func TestPanicIsOneCleanError(t *testing.T) {
	s := newSession(t)
	ce := evalErr(t, s, "a := 1\nvar xs []int\n_ = a\npanic(\"boom\")")
	require.Equal(t, "panic", ce.Kind)
	require.Equal(t, "cell[1]:4: panic: boom", ce.Error())
	require.NotContains(t, ce.Error(), "goroutine")
	// and the session still works
	require.Equal(t, "2", eval(t, s, "1+1").Text())
}

// Runtime errors that the interpreter raises through reflect read as
// compiled Go's, on the cell's line.
func TestRuntimeErrorsInGoWords(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct{ cell, want string }{
		{"x := []int{1}\n_ = x[5]", "cell[1]:2: panic: runtime error: index out of range"},
		{"s := \"ab\"\n_ = s[7]", "cell[2]:2: panic: runtime error: index out of range"},
		{"arr := [2]int{}\ni := 3\n_ = arr[i]", "cell[3]:3: panic: runtime error: index out of range"},
		{"y := []int{1}\n_ = y[1:9]", "cell[4]:2: panic: runtime error: slice bounds out of range"},
		{"type T struct{ A int }\nvar p *T\n_ = p.A", "cell[5]:3: panic: runtime error: invalid memory address or nil pointer dereference"},
		{"var m map[string]int\nm[\"a\"] = 1", "cell[6]:2: panic: assignment to entry in nil map"},
	} {
		ce := evalErr(t, s, c.cell)
		require.Equal(t, c.want, ce.Error(), c.cell)
	}
	require.Equal(t, "2", eval(t, s, "1+1").Text())
}

func TestPanicOutputHasNoYaegiFrames(t *testing.T) {
	s := newSession(t)
	r, err := s.Eval(context.Background(), "func f() { panic(\"deep\") }\nf()")
	require.Error(t, err)
	require.NotContains(t, r.Stderr(), "panic: main")
	require.Empty(t, r.Stderr())
}

func TestCompileError(t *testing.T) {
	s := newSession(t)
	ce := evalErr(t, s, "x := 1\ny := x +\n")
	require.Equal(t, "compile", ce.Kind)
	require.Equal(t, 2, ce.Line, ce.Error())
	ce = evalErr(t, s, "z := 1\nz = \"str\"")
	require.Equal(t, "compile", ce.Kind)
	require.Equal(t, 2, ce.Line, ce.Error())
	require.False(t, strings.Contains(ce.Error(), "goroutine"))
}

// TestCellEndsEarly: a cell that stops mid-statement or mid-declaration
// (the REPL runs what it has at the end of its input) is told so at its
// last line, never about the brace the parse wrapper adds.
func TestCellEndsEarly(t *testing.T) {
	s := newSession(t)
	for _, tc := range []struct {
		cell string
		want string
	}{
		{"x := ", "cell[1]:1: expected operand, found the end of the cell"},
		{"a := 1\nb := a *\n\n", "cell[2]:2: expected operand, found the end of the cell"},
		{"f := fmt.Sprint(1,\n\t2,", "cell[3]:2: expected operand, found the end of the cell"},
		{"func f() {\n\treturn", "cell[4]:2: expected '}', found the end of the cell"},
		{"type T struct {", "cell[5]:1: expected '}', found the end of the cell"},
		{"x := 1\nif x > 0 {\n\tx++\n} else", "cell[6]:4: expected if statement or block, found the end of the cell"},
	} {
		ce := evalErr(t, s, tc.cell)
		require.Equal(t, "compile", ce.Kind)
		require.Equal(t, tc.want, ce.Error(), "%q", tc.cell)
	}
}

func TestCancelInfiniteLoop(t *testing.T) {
	s := newSession(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Eval(ctx, "for {}")
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		var ce *interp.CellError
		require.True(t, errors.As(err, &ce))
		require.Equal(t, "interrupted", ce.Kind)
	case <-time.After(time.Second):
		t.Fatal("cell not cancelled within 1s")
	}
	require.Equal(t, "4", eval(t, s, "2*2").Text())
}
