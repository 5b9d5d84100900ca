package interp_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/interp"
	"github.com/stretchr/testify/require"
)

// TestCellsRunOrdinaryGo: each case is a sequence of cells typed into one
// session; the last cell's display text and the stdout of all cells must be
// what the same code gives as a Go program.
func TestCellsRunOrdinaryGo(t *testing.T) {
	cases := []struct {
		name   string
		cells  []string
		text   string // display of the last cell
		stdout string // all cells' stdout
	}{
		{"switch at top level", []string{"x := 2\nswitch x {\ncase 1:\n\tfmt.Println(\"one\")\ndefault:\n\tfmt.Println(\"other\")\n}"}, "", "other\n"},
		{"switch in a function declared in a cell", []string{"func kind(x int) string {\n\tswitch x {\n\tcase 1:\n\t\treturn \"one\"\n\t}\n\treturn \"many\"\n}", "kind(1) + kind(2)"}, `"onemany"`, ""},
		{"type switch", []string{"var e interface{} = 3\nswitch v := e.(type) {\ncase int:\n\tfmt.Println(\"int\", v)\n}"}, "", "int 3\n"},
		{"select", []string{"ch := make(chan int, 1)\nch <- 4\nselect {\ncase v := <-ch:\n\tfmt.Println(v)\ndefault:\n\tfmt.Println(\"none\")\n}"}, "", "4\n"},
		{"label and break", []string{"n := 0\nOuter:\nfor i := 0; i < 3; i++ {\n\tfor j := 0; j < 3; j++ {\n\t\tif j == 1 {\n\t\t\tcontinue Outer\n\t\t}\n\t\tn++\n\t}\n}\nfmt.Println(n)"}, "", "3\n"},
		{"multi-value := inside for and if", []string{"for i := 0; i < 2; i++ {\n\ta, err := strconv.Atoi(\"12\")\n\tfmt.Println(i, a, err)\n}\nif a, err := strconv.Atoi(\"7\"); err == nil {\n\tfmt.Println(a)\n}"}, "", "0 12 <nil>\n1 12 <nil>\n7\n"},
		{"var reading an earlier cell's variable", []string{"b := 2", "var c int = 5 + b", "c"}, "7", ""},
		{"range over an integer", []string{"sum := 0\nfor i := range 4 {\n\tsum += i\n}\nsum"}, "6", ""},
		{"range over an integer variable of an earlier cell", []string{"n := 3", "for i := range n {\n\tfmt.Print(i)\n}"}, "", "012"},
		{"range over an integer parameter keeps its type", []string{"func count(n int64) string {\n\ts := \"\"\n\tfor i := range n {\n\t\ts += fmt.Sprintf(\"%d:%T \", i, i)\n\t}\n\treturn s\n}", "count(2)"}, `"0:int64 1:int64 "`, ""},
		{"range over a local integer", []string{"func() {\n\tm := 2\n\tfor range m {\n\t\tfmt.Print(\"x\")\n\t}\n}()"}, "", "xx"},
		{"range over len", []string{"xs := []int{5, 6}\nfor i := range len(xs) {\n\tfmt.Print(i)\n}"}, "", "01"},
		{"comma-ok map index at top level", []string{"m := map[string]int{\"a\": 1}", "v, ok := m[\"a\"]\nfmt.Println(v, ok)\n_, ok2 := m[\"b\"]\nok2"}, "false", "1 true\n"},
		{"comma-ok type assertion at top level", []string{"var e interface{} = 7\nn, ok := e.(int)\ns, ok2 := e.(string)\nfmt.Println(n, ok, s == \"\", ok2)"}, "", "7 true true false\n"},
		{"method declared and used in one cell", []string{"type Box struct{ v int }\nfunc (b *Box) Get() int { return b.v }\nbx := &Box{v: 9}\nbx.Get()"}, "9", ""},
		{"func main declared in a cell runs only when called", []string{"func main() { fmt.Println(\"main ran\") }", "1 + 1", "main()"}, "", "main ran\n"},
		{"per-iteration loop variables (for clause)", []string{"var fs []func() int\nfor i := 0; i < 3; i++ {\n\tfs = append(fs, func() int { return i })\n}\nfs[0]()*100 + fs[1]()*10 + fs[2]()"}, "12", ""},
		{"per-iteration loop variables (range)", []string{"var gs []func() string\nfor _, s := range []string{\"a\", \"b\"} {\n\tgs = append(gs, func() string { return s })\n}\ngs[0]() + gs[1]()"}, `"ab"`, ""},
		{"loop variable assigned in the body", []string{"n := 0\nfor i := 0; i < 10; i++ {\n\ti += 4\n\tn++\n\tdefer func() {}()\n}\nn"}, "2", ""},
		{"re-running a cell replaces its function", []string{"func answer() int { return 1 }", "func answer() int { return 42 }", "answer()"}, "42", ""},
		{"re-running a cell replaces its type", []string{"type Pt struct{ X int }", "type Pt struct{ X, Y int }", "Pt{1, 2}"}, "{1 2}", ""},
		{"re-running a cell replaces its type and methods", []string{"type Greeter struct{}\nfunc (Greeter) Hi() string { return \"v1\" }", "type Greeter struct{}\nfunc (Greeter) Hi() string { return \"v2\" }", "var g Greeter\ng.Hi()"}, `"v2"`, ""},
		{"top-level return ends the cell", []string{"fmt.Println(\"a\")\nif true {\n\treturn\n}\nfmt.Println(\"b\")", "3"}, "3", "a\n"},
		{"top-level defer runs at the end of the cell and recovers", []string{"defer func() {\n\tfmt.Println(\"recovered:\", recover())\n}()\npanic(\"boom\")"}, "", "recovered: boom\n"},
		{"goto at top level", []string{"k := 0\nagain:\nk++\nif k < 3 {\n\tgoto again\n}\nfmt.Println(k)"}, "", "3\n"},
		{"go statement evaluates its arguments at once", []string{"out := make(chan int, 3)\nsend := func(v int) { out <- v }\nv := 1\ngo send(v)\nv = 2\nfmt.Println(<-out)"}, "", "1\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			var out strings.Builder
			var r *interp.Result
			for _, c := range tc.cells {
				r = eval(t, s, c)
				out.WriteString(r.Stdout())
			}
			require.Equal(t, tc.text, r.Text())
			require.Equal(t, tc.stdout, out.String())
		})
	}
}

// TestCellErrorsAreClear: failures name the cell line and say what is wrong,
// never with a panic text from inside the interpreter.
func TestCellErrorsAreClear(t *testing.T) {
	cases := []struct {
		name, cell string
		line       int
		contains   string
	}{
		{"undefined name", "undefinedName + 1", 1, "undefined"},
		{"undefined name in a declaration", "y := 1\nz := y + undefinedThing", 2, "undefined"},
		{"undefined function in a loop", "for i := 0; i < 2; i++ {\n\tnoSuchFunc(i)\n}", 2, "undefined"},
		{"undefined name in a := at top level", "v := undefinedV.Field", 1, "undefined: undefinedV"},
		{"undefined name in a var", "var q = undefinedQ", 1, "undefined: undefinedQ"},
		{"undefined name in a composite literal", "x := []int{undefinedW}", 1, "undefined: undefinedW"},
		{"undefined function with two results", "a, b := undefinedF()", 1, "undefined: undefinedF"},
		{"method of an undefined name with two results", "a, b := undefinedM.Program(\"x\")", 1, "undefined: undefinedM"},
		{"range over a function", "for x := range func(yield func(int) bool) {} {\n\t_ = x\n}", 1, "range over a function"},
		{"top-level return with a value", "if true {\n\treturn 3\n}", 2, "top-level return"},
		// Every argument of pl.Load is wrong; the error names the first.
		{"a DSL call's first bad argument", "pl.Load(nil, 1, 2)", 1, "pl.Load argument 'tensor': got nil"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			ce := evalErr(t, s, tc.cell)
			require.Equal(t, tc.line, ce.Line, ce.Error())
			require.Contains(t, ce.Msg, tc.contains)
			for _, bad := range []string{"CFG", "nil type", "goroutine ", "runtime error"} {
				require.NotContains(t, ce.Error(), bad)
			}
			require.Equal(t, "42", eval(t, s, "1 + 41").Text())
		})
	}
}

// TestCallAfterFailedDefine: a call on a name that a failed := left
// half-declared in the interpreter is an error, not a crash (the display
// rewrite's lookup of the callee panicked inside Yaegi).
func TestCallAfterFailedDefine(t *testing.T) {
	s := newSession(t)
	evalErr(t, s, "q := m.Program(\"x\")")
	ce := evalErr(t, s, "m.Program(\"x\")")
	require.Contains(t, ce.Msg, "m")
	for _, bad := range []string{"CFG", "goroutine ", "runtime error"} {
		require.NotContains(t, ce.Error(), bad)
	}
	require.Equal(t, "42", eval(t, s, "1 + 41").Text())
}

// TestUseAfterFailedDeclaration: a variable whose declaring cell failed
// holds no value; using it later is an error that says so and names that
// cell, and declaring it again makes it usable.
func TestUseAfterFailedDeclaration(t *testing.T) {
	s := newSession(t)
	evalErr(t, s, "q := pl.Compile(nope, pl.Ranks(1))")
	ce := evalErr(t, s, "q.Stages()")
	require.Contains(t, ce.Msg, "nil pointer dereference (q holds no value: its declaration in cell[1] failed; declare it again)")
	eval(t, s, "q := pl.Compile(pl.NewProgram(\"Empty\"), pl.Ranks(1))")
	require.Equal(t, "true", eval(t, s, "q != nil && len(q.Stages()) > 0").Text())
}

// A statement the interpreter's type checker crashes on (nil converted
// to a struct type) is a compile error that says so, not Yaegi's panic,
// and no hint about the variable the failing cell itself declares.
func TestTypeCheckerCrashIsACompileError(t *testing.T) {
	s := newSession(t)
	ce := evalErr(t, s, "x := pl.Program(nil)")
	require.Equal(t, "compile", ce.Kind)
	require.Contains(t, ce.Msg, "the interpreter could not compile this statement: its type checker failed")
	for _, bad := range []string{"CFG", "post-order", "holds no value"} {
		require.NotContains(t, ce.Error(), bad)
	}
	require.Equal(t, "3", eval(t, s, "x := 3\nx").Text())
}

// A member that is not there is named in Go's words, with the one the
// user most likely meant.
func TestSelectorErrorsSuggest(t *testing.T) {
	s := newSession(t)
	eval(t, s, `x := pl.NewProgram("A")`)
	for _, c := range []struct{ src, want string }{
		{"pl.NewProgrm(\"B\")", "undefined: pl.NewProgrm (did you mean pl.NewProgram?)"},
		{"pl.tile.bogus()", "undefined: pl.tile (did you mean pl.Tile?)"},
		{"strings.ToUpperr(\"a\")", "undefined: strings.ToUpperr (did you mean strings.ToUpper?)"},
		{"x.Strng()", "x.Strng undefined (type *pl.Program has no field or method Strng, but does have String)"},
		{"x.Zzzzzz()", "x.Zzzzzz undefined (type *pl.Program has no field or method Zzzzzz)"},
	} {
		ce := evalErr(t, s, c.src)
		require.Equal(t, c.want, ce.Msg, c.src)
		require.Equal(t, "compile", ce.Kind, c.src)
	}
}

// TestFailedCellLeavesNoPoisonedNames: after a cell fails to compile, its
// names can be declared again as if it had never run.
func TestFailedCellLeavesNoPoisonedNames(t *testing.T) {
	s := newSession(t)
	ce := evalErr(t, s, "type Rec struct{ A Missing }\nvar rr Rec")
	require.NotContains(t, ce.Error(), "_ptorepl")
	eval(t, s, "type Rec struct{ A int }\nvar rr Rec")
	require.Equal(t, "{0}", eval(t, s, "rr").Text())
	evalErr(t, s, "func helper() int { return missing }")
	eval(t, s, "func helper() int { return 5 }")
	require.Equal(t, "5", eval(t, s, "helper()").Text())
}

// TestGoroutinePanicIsContained: a goroutine's panic is reported with its
// cell line and the session goes on.
func TestGoroutinePanicIsContained(t *testing.T) {
	s := newSession(t)
	// Reported on the cell that is running when the goroutine panics.
	r := eval(t, s, "done := make(chan bool)\ngo func() {\n\tdefer close(done)\n\tpanic(\"boom\")\n}()\n<-done\ntime.Sleep(20 * time.Millisecond)")
	require.Contains(t, r.Stderr(), "cell[1]:2: panic in goroutine: boom")
	// Reported on the next cell when the first has already ended.
	eval(t, s, "go func() { time.Sleep(10 * time.Millisecond); panic(\"late\") }()")
	time.Sleep(100 * time.Millisecond)
	r = eval(t, s, "1 + 41")
	require.Equal(t, "42", r.Text())
	require.Contains(t, r.Stderr(), "cell[2]:1: panic in goroutine: late")
	require.NotContains(t, r.Stderr(), "goroutine 1 [")
	// go f(x) with a named function.
	eval(t, s, "func bad(n int) { panic(n) }\nch := make(chan int)\ngo bad(7)\ntime.Sleep(50 * time.Millisecond)")
}

// TestOsExitEndsTheCellNotTheSession: os.Exit in a cell stops the cell with
// an "exit" error carrying the code; in a goroutine it stops the goroutine.
func TestOsExitEndsTheCellNotTheSession(t *testing.T) {
	s := newSession(t)
	ce := evalErr(t, s, "fmt.Println(\"before\")\nos.Exit(3)\nfmt.Println(\"after\")")
	require.Equal(t, "exit", ce.Kind)
	require.Equal(t, 3, ce.ExitCode)
	require.Contains(t, ce.Msg, "os.Exit(3)")
	r := eval(t, s, "go os.Exit(4)\ntime.Sleep(50 * time.Millisecond)")
	require.Contains(t, r.Stderr(), "os.Exit(4) called in a goroutine")
	require.Equal(t, "42", eval(t, s, "1 + 41").Text())
}

// TestCellsSeeTheRealEnvironment: os.Getenv, os.LookupEnv and os.Environ
// are the process's; os.Args is what the session was given.
func TestCellsSeeTheRealEnvironment(t *testing.T) {
	t.Setenv("PTOREPL_TEST_SETTING", "on")
	s, err := interp.New(interp.Options{Args: []string{"prog.go", "a", "b"}})
	require.NoError(t, err)
	require.Equal(t, `"on"`, eval(t, s, `os.Getenv("PTOREPL_TEST_SETTING")`).Text())
	require.Equal(t, "\"on\"\ntrue", eval(t, s, `os.LookupEnv("PTOREPL_TEST_SETTING")`).Text())
	require.Equal(t, "true", eval(t, s, `len(os.Environ()) > 0 && os.Getenv("PATH") != ""`).Text())
	require.Equal(t, `[a b]`, eval(t, s, "os.Args[1:]").Text())
	require.NotEmpty(t, os.Getenv("PATH"))
}

// TestCellPositionsStayTheUsers: errors after the transformation still name
// the cell line the user typed.
func TestCellPositionsStayTheUsers(t *testing.T) {
	s := newSession(t)
	ce := evalErr(t, s, "x := 1\nswitch x {\ncase 1:\n\tvar s string = 5\n\t_ = s\n}")
	require.Equal(t, 4, ce.Line, ce.Error())
	ce = evalErr(t, s, "for i := range 3 {\n\t_ = i\n\tpanic(\"at three\")\n}")
	require.Equal(t, 3, ce.Line, ce.Error())
	_, err := s.Eval(context.Background(), "1")
	require.NoError(t, err)
}

// TestInterpreterLimitsAreNamed: what Yaegi's global scope cannot type gets
// one clear error, not its internal panic text.
func TestInterpreterLimitsAreNamed(t *testing.T) {
	s := newSession(t)
	eval(t, s, "func Sum[T int | float64](xs []T) T {\n\tvar t T\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}")
	_, err := s.Eval(context.Background(), "total := Sum([]int{1, 2})")
	if err != nil {
		require.Contains(t, err.Error(), "cannot type this statement")
		require.NotContains(t, err.Error(), "nil reflect type")
	}
	require.Equal(t, "3", eval(t, s, "func() int { return Sum([]int{1, 2}) }()").Text())
	require.Equal(t, "42", eval(t, s, "1 + 41").Text())
}
