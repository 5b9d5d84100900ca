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
	// Each top-level statement: its kind and the lines it covers. A raw
	// string spans lines: every line it covers is part of its statement.
	type stmt struct {
		kind        int  // 1 declaration, 2 statement
		local       bool // a var, const or type: also a statement in a body
		first, last int  // lines, 1-based
	}
	var stmts []stmt
	depth := 0
	start := true
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if start && depth == 0 && t.t != token.SEMICOLON {
			st := stmt{kind: 2, first: t.line}
			switch t.t {
			case token.TYPE, token.VAR, token.CONST:
				st.kind, st.local = 1, true
			case token.IMPORT:
				st.kind = 1
			case token.FUNC:
				if isFuncDecl(toks, i) {
					st.kind = 1
				}
			}
			stmts = append(stmts, st)
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
			continue
		}
		if n := len(stmts); n > 0 {
			stmts[n-1].last = max(stmts[n-1].last, t.line+t.breaks)
		}
	}
	// Statements that share a line form one group of lines, evaluated as one
	// kind: declarations, or statements when the group holds a statement and
	// its declarations are all var, const or type (declaration statements:
	// var x = 1; y := x + 1). An import or a function declaration beside a
	// statement is no function body; the group stays declarations and the
	// interpreter says what is wrong.
	for g := 0; g < len(stmts); {
		first, last := stmts[g].first, stmts[g].last
		hasStmt, allLocal := false, true
		e := g
		for ; e < len(stmts) && (e == g || stmts[e].first <= last); e++ {
			last = max(last, stmts[e].last)
			if stmts[e].kind == 2 {
				hasStmt = true
			} else if !stmts[e].local {
				allLocal = false
			}
		}
		k := 1
		if hasStmt && allLocal {
			k = 2
		}
		for l := first; l <= last && l-1 < len(kind); l++ {
			kind[l-1] = k
		}
		g = e
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
