package testprogs_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
)

// Outside the op's registration (ir/), code names an op by its handle (ir.TileLoad), never by a string: no `case
// "tile.load":`, no `c.Name() == "pld.tensor.window"`. This test parses the
// module's non-test Go files and reports every such string, in a case
// clause or an ==/!= comparison, as file:line. The strings it looks for
// are the registered ops' IR names and printed callees; Python spellings
// that are not an op's name ("pl.range", "pl.load") are the front end's
// own business.

// opNameSpellings is every string that names a registered op.
func opNameSpellings() map[string]string {
	out := map[string]string{}
	for _, d := range ir.Ops() {
		out[d.Name] = d.Name
		out[d.Callee(nil)] = d.Name
	}
	return out
}

// opNameUses returns "file:line: op-name literal "x" in a case clause" for
// each op-name string compared in src.
func opNameUses(fset *token.FileSet, file *ast.File, names map[string]string) []string {
	var out []string
	report := func(e ast.Expr, where string) {
		lit, ok := ast.Unparen(e).(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return
		}
		if op, ok := names[s]; ok {
			out = append(out, fset.Position(lit.Pos()).String()+": op name "+lit.Value+" ("+op+") in "+where+"; use the op's handle")
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CaseClause:
			for _, e := range x.List {
				report(e, "a case clause")
			}
		case *ast.BinaryExpr:
			if x.Op == token.EQL || x.Op == token.NEQ {
				report(x.X, "a "+x.Op.String()+" comparison")
				report(x.Y, "a "+x.Op.String()+" comparison")
			}
		}
		return true
	})
	return out
}

// exempt is the tree that may spell op names: the registry. (The rule
// allows the DSL, pl and pld, too, but they name ops by handle as well.)
var exempt = map[string]bool{"ir": true}

func TestNoOpNameComparisonsOutsideIR(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	names := opNameSpellings()
	fset := token.NewFileSet()
	var found []string
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			base := d.Name()
			if exempt[rel] || base == "testdata" || base == "vendor" || (strings.HasPrefix(base, ".") && rel != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, u := range opNameUses(fset, f, names) {
			r, _ := filepath.Rel(root, u)
			found = append(found, r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("scanned only %d files under %s; the walk is broken", files, root)
	}
	sort.Strings(found)
	for _, f := range found {
		t.Error(f)
	}
}

// The scanner finds what it is meant to find: the forms the rule forbids
// are reported with their line, and the allowed ones are not.
func TestOpNameScannerFindsComparisons(t *testing.T) {
	const src = `package p

func f(name string, c call) {
	switch name {
	case "tile.load": // line 5: an IR name in a case clause
	case "pl.range": // a Python spelling, not an op
	}
	if c.Name() == "pld.tensor.window" { // line 8
	}
	if "pl.tile.store" != name { // line 10: a printed callee
	}
	x := "tile.add" // an assignment, not a comparison
	_ = x
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := opNameUses(fset, f, opNameSpellings())
	want := []string{"p.go:5:", "p.go:8:", "p.go:10:"}
	if len(got) != len(want) {
		t.Fatalf("got %d findings %v, want lines 5, 8, 10", len(got), got)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("finding %d = %q, want it at %s", i, got[i], w)
		}
	}
}
