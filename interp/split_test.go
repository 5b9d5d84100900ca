package interp

import "testing"

// A cell line that starts with func is a declaration when it declares a
// function or method (it has a body), and a statement otherwise: a
// function literal called at once, or a conversion to a func type that
// reads like a method header.
func TestSplitCellTellsFuncDeclarationsFromStatements(t *testing.T) {
	for _, c := range []struct {
		cell string
		decl bool
	}{
		{"func F() {}", true},
		{"func (t T) M() int { return 1 }", true},
		{"func (t T) M(f func() struct{}) struct{ a int } {\n\treturn struct{ a int }{}\n}", true},
		{"func (t *T) M(xs []int, m map[string]int) (n int, err error) {\n\treturn\n}", true},
		{"func() { x() }()", false},
		{"func() int { return 1 }()", false},
		{"func (A)A(\"\")", false},
		{"func(A) A(x)", false},
		{"func() T(x)", false},
	} {
		segs := splitCell(c.cell)
		if len(segs) != 1 {
			t.Fatalf("%q: %d segments, want 1", c.cell, len(segs))
		}
		if segs[0].decl != c.decl {
			t.Errorf("%q: declaration %v, want %v", c.cell, segs[0].decl, c.decl)
		}
	}
}

// A var, const or type declaration that shares a line with a statement is
// a declaration statement, and every line of both is a statement; on lines
// of its own, or beside other declarations, it stays a declaration.
func TestSplitCellDeclarationBesideAStatement(t *testing.T) {
	for _, c := range []struct {
		cell string
		decl bool
	}{
		{"var A A;0", false},
		{"var x = 1; y := x + 1", false},
		{"const c = 2; fmt.Println(c)", false},
		{"type T int; x := T(1)", false},
		{"var\nA A;0", false},
		{"var (\n\ta = 1\n); b := a", false},
		{"x := 1; var (\n\ta = 2\n)", false},
		{"var x = 1", true},
		{"type T int; var v T", true},
		{"var (\n\ta = 1\n\tb = 2\n)", true},
	} {
		segs := splitCell(c.cell)
		if len(segs) != 1 {
			t.Fatalf("%q: %d segments, want 1", c.cell, len(segs))
		}
		if segs[0].decl != c.decl {
			t.Errorf("%q: declaration %v, want %v", c.cell, segs[0].decl, c.decl)
		}
	}
}
