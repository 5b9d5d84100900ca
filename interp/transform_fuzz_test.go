package interp

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCellTransform: splitting and transforming a cell never panics or
// hangs, and a cell go/parser accepts as a function body is never rejected
// (other than the constructs the transformation names as unsupported) and
// becomes pieces that parse.
func FuzzCellTransform(f *testing.F) {
	for _, c := range []string{
		"x := 1\nx + 1",
		"switch x := 2; x {\ncase 1:\n\tfmt.Println(1)\ndefault:\n}",
		"L:\nfor i := range 3 {\n\tgo func() { _ = i }()\n\tcontinue L\n}",
		"type T struct{ a int }\nfunc (t T) M() int { return t.a }\nv, ok := m[\"k\"]\nn, ok2 := e.(int)",
		"defer func() { recover() }()\nselect {\ncase v := <-ch:\n\t_ = v\n}",
		"var c int = 5 + b\ngo f(x, 1)\nif true { return }",
	} {
		f.Add(c)
	}
	// Seed from the main bodies of Yaegi's corpus, when the module is there.
	if out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/traefik/yaegi").Output(); err == nil {
		files, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "_test", "*.go"))
		for i, p := range files {
			if i%8 != 0 {
				continue // a sample keeps seeding quick
			}
			src, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			if cells, err := corpusCells(string(src)); err == nil {
				for _, c := range cells {
					f.Add(c)
				}
			}
		}
	}
	s, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, cell string) {
		body := "package p; func _() {\n" + cell + "\n}"
		pf, perr := parser.ParseFile(token.NewFileSet(), "", body, 0)
		if perr == nil && len(pf.Decls) != 1 {
			// A stray '}' closed the wrapper early: the cell is not one
			// function body, whatever parses after it.
			perr = errEscapedBody
		}
		for _, sg := range splitCell(cell) {
			ps, err := s.prepare(1, sg, false)
			if err != nil {
				if perr != nil {
					continue
				}
				if ce, ok := err.(*CellError); ok && ce.Kind == "compile" &&
					(strings.Contains(ce.Msg, "not supported") || strings.Contains(ce.Msg, "top-level return")) {
					continue
				}
				t.Fatalf("a valid function body was rejected: %v\ncell:\n%s", err, cell)
			}
			if perr != nil {
				continue
			}
			for _, p := range ps {
				if err := parsePiece(p.src); err != nil {
					t.Fatalf("transformed piece does not parse: %v\npiece:\n%s\ncell:\n%s", err, p.src, cell)
				}
			}
		}
	})
}

var errEscapedBody = errors.New("the cell closes the function body it was wrapped in")

// parsePiece parses a piece as the interpreter will: as declarations when
// it starts with a declaration keyword, else as statements.
func parsePiece(src string) error {
	t := strings.TrimSpace(src)
	for _, kw := range []string{"import", "type", "var", "const", "func "} {
		if strings.HasPrefix(t, kw) && !(kw == "func " && strings.HasPrefix(t, "func()")) {
			_, err := parser.ParseFile(token.NewFileSet(), "", "package p;\n"+src, 0)
			return err
		}
	}
	_, err := parser.ParseFile(token.NewFileSet(), "", stmtPrefix+src+"\n}", 0)
	return err
}

// corpusCells is a program's declarations and main's body, as cells.
func corpusCells(src string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, 0)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range f.Decls {
		lo, hi := fset.Position(d.Pos()).Offset, fset.Position(d.End()).Offset
		out = append(out, src[lo:hi])
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			out = append(out, src[fset.Position(fd.Body.Lbrace).Offset+1:fset.Position(fd.Body.Rbrace).Offset])
		}
	}
	return out, nil
}
