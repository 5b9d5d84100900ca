package interp

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
)

// segment is a run of consecutive top-level declarations or statements of a
// cell. src is the whole cell with every other line blanked, so line numbers
// in errors from the interpreter are cell line numbers.
type segment struct {
	decl  bool
	src   string
	first int // first line (1-based) of the segment in the cell
	last  int
}

// splitCell classifies each top-level statement of a cell as a declaration
// (import, type, func, method, var, const) or a statement, and groups
// consecutive lines of one kind into segments. Yaegi evaluates a snippet as
// declarations only if it starts with a declaration keyword, so a cell that
// mixes both must be evaluated piecewise.
func splitCell(cell string) []segment {
	lines := strings.Split(cell, "\n")
	kind := make([]int, len(lines)) // 0 blank/comment, 1 decl, 2 stmt
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(cell))
	var s scanner.Scanner
	s.Init(file, []byte(cell), nil, 0)
	var toks []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		toks = append(toks, tok{t, fset.Position(pos).Line, strings.Count(lit, "\n")})
	}
	depth := 0
	start := true
	cur := 2
	// stmtDecl marks the lines whose declaration is a var, const or type:
	// one that shares its line with a statement (var x int; x++) is a
	// declaration statement, and the line is a statement.
	stmtDecl := make([]bool, len(lines))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if start && depth == 0 && t.t != token.SEMICOLON {
			cur = 2
			switch t.t {
			case token.TYPE, token.VAR, token.CONST:
				cur = 1
				if l := t.line; l-1 < len(kind) && kind[l-1] == 0 {
					stmtDecl[l-1] = true
				}
			case token.IMPORT:
				cur = 1
			case token.FUNC:
				if isFuncDecl(toks, i) {
					cur = 1
				}
			}
			if l := t.line; cur == 2 && l-1 < len(kind) && kind[l-1] == 1 && stmtDecl[l-1] {
				kind[l-1] = 2
			}
			start = false
		}
		switch t.t {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			if depth > 0 {
				depth--
			}
		case token.SEMICOLON:
			if depth == 0 {
				start = true
			}
		}
		// A raw string spans lines: every line it covers is part of its statement.
		for l := t.line; l <= t.line+t.breaks && l-1 < len(kind); l++ {
			if t.t != token.SEMICOLON && kind[l-1] == 0 {
				kind[l-1] = cur
			}
		}
	}
	// Lines inside a multi-line statement carry its kind; blank lines join
	// the segment before them.
	var segs []segment
	for i, k := range kind {
		if k == 0 {
			continue
		}
		d := k == 1
		if n := len(segs); n > 0 && segs[n-1].decl == d {
			segs[n-1].last = i + 1
			continue
		}
		segs = append(segs, segment{decl: d, first: i + 1, last: i + 1})
	}
	for i := range segs {
		var b strings.Builder
		for j, l := range lines {
			if j+1 >= segs[i].first && j+1 <= segs[i].last && (kind[j] == 0 || (kind[j] == 1) == segs[i].decl) {
				b.WriteString(l)
			}
			if j < len(lines)-1 {
				b.WriteByte('\n')
			}
		}
		segs[i].src = strings.TrimRight(b.String(), "\n \t")
	}
	return segs
}

// tok is a scanned token and its line.
type tok struct {
	t      token.Token
	line   int
	breaks int // line breaks inside the token (a raw string)
}

// isFuncDecl tells a function or method declaration from a function literal
// used as a statement (func() {...}()).
func isFuncDecl(toks []tok, i int) bool {
	if i+1 >= len(toks) {
		return false
	}
	switch toks[i+1].t {
	case token.IDENT:
		return true
	case token.LPAREN:
		// A method has a one-parameter receiver list followed by its name
		// and its parameters; a literal func() T {...}() has a result type
		// there, and an empty list () is never a receiver (func() T(x)
		// converts x to a func type).
		depth := 0
		for j := i + 1; j < len(toks); j++ {
			switch toks[j].t {
			case token.LPAREN:
				depth++
			case token.RPAREN:
				depth--
				if depth == 0 {
					return j > i+2 && j+2 < len(toks) && toks[j+1].t == token.IDENT && toks[j+2].t == token.LPAREN &&
						hasBody(toks, j+2)
				}
			}
		}
	}
	return false
}

// hasBody reports whether the parameter list opening at toks[k] is followed
// by a body before the statement ends: a method declaration has one
// (func (t T) M() int {...}), a conversion to a func type written like one
// does not (func(A) A(x)).
func hasBody(toks []tok, k int) bool {
	depth := 0
	for j := k; j < len(toks); j++ {
		switch toks[j].t {
		case token.LPAREN, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		case token.LBRACE:
			if depth == 0 {
				return true
			}
			depth++
		case token.SEMICOLON:
			if depth == 0 {
				return false
			}
		}
	}
	return false
}

// stmtPrefix wraps a statement segment for go/parser. It adds one line, so
// parsed line numbers are one more than cell lines.
const stmtPrefix = "package p; func _() {\n"

// parseStmts parses a statement segment; lines in the result are cell lines + 1.
func parseStmts(src string) (*token.FileSet, []ast.Stmt, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell", stmtPrefix+src+"\n}", parser.ParseComments)
	if err != nil {
		return fset, nil, err
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	return fset, body.List, nil
}

// parseDecls parses a declaration segment; lines in the result are cell lines + 1.
func parseDecls(src string) (*token.FileSet, *ast.File, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell", "package p;\n"+src, parser.ParseComments)
	return fset, f, err
}
