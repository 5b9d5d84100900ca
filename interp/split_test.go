package interp

import (
	"strings"
	"testing"
)

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
		{"func(A)A()%A{0}", false},
		{"func (t T) M() map[string]*pkg.T { return nil }", true},
		{"func (t T) M() (n int, err error) { return }", true},
		{"func (t T) M() <-chan struct{} { return nil }", true},
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

// Statements that share a line are split by kind: each segment keeps its
// own statements where they stand (the others blanked, lines and columns
// kept), so declarations run as declarations and statements as statements
// even on one line.
func TestSplitCellSplitsStatementsThatShareALine(t *testing.T) {
	for _, c := range []struct {
		cell string
		want []string // D: or S:, then the segment's words
	}{
		{"var A A;0", []string{"D:var A A;", "S:0"}},
		{"var\nA A;0", []string{"D:var A A;", "S:0"}},
		{"var x = 1; y := x + 1", []string{"D:var x = 1;", "S:y := x + 1"}},
		{"import \"fmt\"; fmt.Println(1)", []string{"D:import \"fmt\";", "S:fmt.Println(1)"}},
		{"func f() int { return 1 }; x := f()", []string{"D:func f() int { return 1 };", "S:x := f()"}},
		{"var (\n\ta = 1\n); b := a", []string{"D:var ( a = 1 );", "S:b := a"}},
		{"x := 1; var (\n\ta = 2\n)", []string{"S:x := 1;", "D:var ( a = 2 )"}},
		{"a := 1; b := 2 // two\nc := a + b", []string{"S:a := 1; b := 2 // two c := a + b"}},
		{"type T int; var v T", []string{"D:type T int; var v T"}},
		{"var x = 1", []string{"D:var x = 1"}},
		{"// only a comment", nil},
		{"var A=\"\"\n;0", []string{"D:var A=\"\"", "S:0"}},
		{";x := 1;;", []string{"S:x := 1;"}},
		{"for ; ; {\n\tbreak\n}", []string{"S:for ; ; { break }"}},
		{"L: for i := 0; i < 2; i++ { continue L }; var z = 1", []string{"S:L: for i := 0; i < 2; i++ { continue L };", "D:var z = 1"}},
		{"if v := 1; v > 0 {\n} else if w := 2; w > 1 {\n}", []string{"S:if v := 1; v > 0 { } else if w := 2; w > 1 { }"}},
		{"switch x := 3; x {\ncase 3:\n}; type T int", []string{"S:switch x := 3; x { case 3: };", "D:type T int"}},
		{"x := 1 // a; var b\nvar y = 2 ;", []string{"S:x := 1 // a; var b", "D:// a; var b var y = 2 ;"}},
		{"A://\nx := 1; var v = x", []string{"S:A:// x := 1;", "D:var v = x"}},
		{"import \"fmt\"\nfor ; ; { fmt.Println(); break }", []string{"D:import \"fmt\"", "S:for ; ; { fmt.Println(); break }"}},
	} {
		var got []string
		for _, sg := range splitCell(c.cell) {
			k := "S:"
			if sg.decl {
				k = "D:"
			}
			got = append(got, k+strings.Join(strings.Fields(sg.src), " "))
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: segments %q, want %q", c.cell, got, c.want)
		}
	}
}

// A segment keeps the cell's lines and columns: a statement after a
// declaration on the same line stands at its own column.
func TestSplitCellKeepsPositions(t *testing.T) {
	cell := "var x = 1; y := x\nz := y"
	segs := splitCell(cell)
	if len(segs) != 2 {
		t.Fatalf("%d segments, want 2", len(segs))
	}
	if got := strings.Index(segs[1].src, "y :="); got != strings.Index(cell, "y :=") {
		t.Fatalf("the statement moved from byte %d to %d: %q", strings.Index(cell, "y :="), got, segs[1].src)
	}
	if segs[1].first != 1 || segs[1].last != 2 || strings.Count(segs[1].src, "\n") != 1 {
		t.Fatalf("the statements' lines are %d-%d in %q, want 1-2", segs[1].first, segs[1].last, segs[1].src)
	}
}
