package interp

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
)

// segment is a run of consecutive top-level declarations or statements of a
// cell. src is the whole cell with the other segments' statements blanked
// (spaces, line breaks kept), so lines and columns in errors from the
// interpreter are the cell's.
type segment struct {
	decl  bool
	src   string
	first int // first line (1-based) of the segment in the cell
	last  int
}

// splitCell classifies each top-level statement of a cell as a declaration
// (import, type, func, method, var, const) or a statement, and groups
// consecutive statements of one kind into segments. Yaegi evaluates a
// snippet as declarations only if it starts with a declaration keyword, so a
// cell that mixes both must be evaluated piecewise; statements that share a
// line (import "fmt"; fmt.Println(1)) are split too.
func splitCell(cell string) []segment {
	toks := scanCell(cell)
	stmts, strays, ok := bodyStmts(cell, toks)
	if !ok {
		stmts, strays = scanStmts(toks)
	}
	return segments(cell, stmts, strays)
}

// cellStmt is a top-level statement of a cell: its kind, its bytes (its
// terminating ';' included) and the lines it covers.
type cellStmt struct {
	decl        bool
	start, end  int // byte offsets
	first, last int // lines, 1-based
}

// scanCell scans a cell into tokens (comments skipped).
func scanCell(cell string) []tok {
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
		off := file.Offset(pos)
		n := len(lit)
		switch {
		case t == token.SEMICOLON && lit != ";":
			n = 0 // inserted at a line break or at the end
		case lit == "":
			n = len(t.String())
		}
		toks = append(toks, tok{t: t, line: fset.Position(pos).Line, breaks: strings.Count(lit, "\n"), off: off, end: min(off+n, len(cell))})
	}
	return toks
}

// bodyStmts takes the statements from go/parser when the cell parses as a
// function body (no import or function declaration in it): then every
// statement's bytes are exact, headers and empty statements included. A
// var, const or type declaration is a declaration, the rest statements;
// the explicit semicolon that ends a statement goes with it, and one that
// ends none (an empty statement) is a stray.
func bodyStmts(cell string, toks []tok) (stmts []cellStmt, strays []tok, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", stmtPrefix+cell+"\n}", parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return nil, nil, false
	}
	fn, isFn := f.Decls[0].(*ast.FuncDecl)
	if !isFn || fn.Body == nil {
		return nil, nil, false
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset - len(stmtPrefix) }
	line := func(p token.Pos) int { return fset.Position(p).Line - 1 }
	for _, st := range fn.Body.List {
		if _, empty := st.(*ast.EmptyStmt); empty {
			continue // its semicolon, if it has one, is a stray below
		}
		_, decl := st.(*ast.DeclStmt)
		end := stmtEnd(st)
		stmts = append(stmts, cellStmt{decl: decl, start: off(st.Pos()), end: off(end), first: line(st.Pos()), last: line(end)})
	}
	// Walk the semicolons: the first explicit one after a statement, before
	// a line break, is its terminator; any other is a stray.
	k := 0
	ended := make([]bool, len(stmts)) // took its ';', or a line break ended it
	for _, t := range toks {
		if t.t != token.SEMICOLON {
			continue
		}
		for k < len(stmts) && stmts[k].start <= t.off {
			k++
		}
		if k > 0 && t.off < stmts[k-1].end {
			continue // inside a statement (a for header)
		}
		switch {
		case t.end == t.off: // inserted at a line break
			if k > 0 {
				ended[k-1] = true
			}
		case k > 0 && !ended[k-1]:
			stmts[k-1].end, ended[k-1] = t.end, true
		default:
			strays = append(strays, t)
		}
	}
	return stmts, strays, true
}

// scanStmts finds the top-level statements of a cell that is no function
// body (it declares imports or functions, or does not parse) from its
// tokens: a statement starts after a semicolon outside brackets and outside
// an if, for or switch header.
func scanStmts(toks []tok) (stmts []cellStmt, strays []tok) {
	depth := 0
	start := true
	// header: inside the header of an if, for or switch, whose semicolons
	// end no statement (for i := 0; i < n; i++ {).
	header := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.t == token.SEMICOLON && start && depth == 0 {
			if t.end > t.off {
				strays = append(strays, t)
			}
			continue
		}
		if start && depth == 0 {
			st := cellStmt{start: t.off, end: t.off, first: t.line, last: t.line}
			switch t.t {
			case token.IMPORT, token.TYPE, token.VAR, token.CONST:
				st.decl = true
			case token.FUNC:
				st.decl = isFuncDecl(toks, i)
			}
			stmts = append(stmts, st)
			start = false
		}
		switch t.t {
		case token.IF, token.FOR, token.SWITCH:
			if depth == 0 {
				header = true
			}
		case token.LBRACE:
			if depth == 0 {
				header = false
			}
			depth++
		case token.LPAREN, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			if depth > 0 {
				depth--
			}
		case token.SEMICOLON:
			if depth == 0 && !header {
				start = true
			}
		}
		if n := len(stmts); n > 0 && t.end > t.off {
			stmts[n-1].end = max(stmts[n-1].end, t.end)
			stmts[n-1].last = max(stmts[n-1].last, t.line+t.breaks)
		}
	}
	return stmts, strays
}

// segments groups consecutive statements of one kind. Each segment's src is
// the cell with every other segment's statements and the stray semicolons
// blanked (spaces; line breaks kept); the white space and comments between
// statements stay in every segment.
func segments(cell string, stmts []cellStmt, strays []tok) []segment {
	// owner[b] is 1 + the index of the statement byte b belongs to, -1 for
	// a stray semicolon, 0 between statements.
	owner := make([]int, len(cell))
	for k, st := range stmts {
		for b := max(st.start, 0); b < min(st.end, len(cell)); b++ {
			owner[b] = k + 1
		}
	}
	for _, t := range strays {
		for b := t.off; b < t.end; b++ {
			owner[b] = -1
		}
	}
	var segs []segment
	for k := 0; k < len(stmts); {
		e := k + 1
		for e < len(stmts) && stmts[e].decl == stmts[k].decl {
			e++
		}
		src := []byte(cell)
		for b := range src {
			if o := owner[b]; (o < 0 || o != 0 && (o-1 < k || o-1 >= e)) && src[b] != '\n' {
				src[b] = ' '
			}
		}
		last := stmts[k].last
		for _, st := range stmts[k:e] {
			last = max(last, st.last)
		}
		segs = append(segs, segment{decl: stmts[k].decl, first: stmts[k].first, last: last,
			src: strings.TrimRight(string(src), "\n \t")})
		k = e
	}
	return segs
}

// tok is a scanned token: its line and its bytes in the cell.
type tok struct {
	t        token.Token
	line     int
	breaks   int // line breaks inside the token (a raw string)
	off, end int // byte offsets; end == off for an inserted semicolon
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
// by a body, with nothing but a result type before it: a method declaration
// has one (func (t T) M() int {...}), a conversion to a func type written
// like one does not (func(A) A(x), func(A) A() % A{0}).
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
		case token.IDENT, token.PERIOD, token.MUL, token.MAP, token.CHAN, token.ARROW, token.FUNC, token.STRUCT, token.INTERFACE:
			// can spell a result type
		default:
			// A semicolon ends the statement, and an operator cannot
			// stand between a method's parameters and its body
			// (func(A) A() % A{0} is an expression).
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
		return fset, nil, atCellEnd(err, stmtPrefix, src)
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	return fset, body.List, nil
}

// parseDecls parses a declaration segment; lines in the result are cell lines + 1.
func parseDecls(src string) (*token.FileSet, *ast.File, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell", declPrefix+src, parser.ParseComments)
	if err != nil {
		return fset, f, atCellEnd(err, declPrefix, src)
	}
	return fset, f, nil
}

// declPrefix wraps a declaration segment for go/parser, adding one line.
const declPrefix = "package p;\n"

// endOfCell is what a parse error says it found when the cell ran out.
const endOfCell = "found the end of the cell"

// atCellEnd rewrites parse errors that go/parser places past the cell's
// last character: at the "}" parseStmts appends, which the user never
// typed, or at the end of the file. They point at the end of the cell's
// text instead and say that the cell ended there.
func atCellEnd(err error, prefix, src string) error {
	var list scanner.ErrorList
	if !errors.As(err, &list) {
		return err
	}
	body := strings.TrimRight(src, " \t\r\n")
	end := len(prefix) + len(body)
	line := strings.Count(prefix, "\n") + strings.Count(body, "\n") + 1
	col := len(body) - strings.LastIndexByte(body, '\n')
	out := make(scanner.ErrorList, len(list))
	for i, e := range list {
		c := *e
		if c.Pos.Offset >= end {
			c.Pos.Offset, c.Pos.Line, c.Pos.Column = end, line, col
			c.Msg = strings.NewReplacer("found '}'", endOfCell, "found 'EOF'", endOfCell).Replace(c.Msg)
		}
		out[i] = &c
	}
	return out
}
