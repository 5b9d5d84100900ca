package interp

import (
	"go/scanner"
	"go/token"
	"reflect"
	"sort"
	"strings"
	"unicode"
)

// Completion is the answer to a completion request: Matches replace
// code[Start:End], the whole dotted token before the cursor.
type Completion struct {
	Matches    []string
	Start, End int
}

// token boundaries: identifiers and the dots between them.
func isTokenRune(r rune) bool {
	return r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// dottedToken returns the dotted identifier ending at cursor (a byte offset).
func dottedToken(code string, cursor int) (string, int) {
	if cursor > len(code) {
		cursor = len(code)
	}
	start := cursor
	for start > 0 {
		r := rune(code[start-1])
		if r >= 0x80 || !isTokenRune(r) {
			break
		}
		start--
	}
	return code[start:cursor], start
}

var goKeywords = []string{"break", "case", "chan", "const", "continue", "default", "defer", "else",
	"fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map", "package",
	"range", "return", "select", "struct", "switch", "type", "var"}

var goBuiltins = []string{"append", "cap", "close", "complex", "copy", "delete", "imag", "len",
	"make", "new", "panic", "print", "println", "real", "recover", "true", "false", "nil",
	"bool", "byte", "complex64", "complex128", "error", "float32", "float64", "int", "int8",
	"int16", "int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "any"}

// Complete lists completions for the dotted token before cursor: members of
// a package (pld.AllRed → pld.AllReduce), methods and fields of a user
// variable's type (prog.InC → prog.InCore), or globals, packages, keywords.
func (s *Session) Complete(code string, cursor int) Completion {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok, start := dottedToken(code, cursor)
	out := Completion{Start: start, End: start + len(tok), Matches: []string{}}
	if dot := strings.LastIndex(tok, "."); dot >= 0 {
		head, partial := tok[:dot], tok[dot+1:]
		for _, m := range s.members(head) {
			if strings.HasPrefix(m, partial) {
				out.Matches = append(out.Matches, head+"."+m)
			}
		}
	} else {
		for _, m := range s.topLevel() {
			if strings.HasPrefix(m, tok) {
				out.Matches = append(out.Matches, m)
			}
		}
	}
	sort.Strings(out.Matches)
	out.Matches = dedup(out.Matches)
	return out
}

func dedup(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// members lists the names after "head.": a package's exports, or the
// methods and fields of the value head evaluates to (only plain name chains
// are evaluated, so completion has no side effects).
func (s *Session) members(head string) []string {
	if names, ok := s.pkgMembers[head]; ok {
		return names
	}
	if !isNameChainText(head) {
		return nil
	}
	v, err := s.safeEval(head)
	if err != nil || !v.IsValid() {
		return nil
	}
	return typeMembers(v.Type())
}

// typeMembers lists exported methods and fields of t (through pointers).
func typeMembers(t reflect.Type) []string {
	var names []string
	for _, tt := range []reflect.Type{t, reflect.PointerTo(t)} {
		for i := 0; i < tt.NumMethod(); i++ {
			names = append(names, tt.Method(i).Name)
		}
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() == reflect.Struct {
		for i := 0; i < st.NumField(); i++ {
			if f := st.Field(i); f.IsExported() {
				names = append(names, f.Name)
			}
		}
	}
	return names
}

func isNameChainText(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" || !token.IsIdentifier(part) {
			return false
		}
	}
	return true
}

// safeEval evaluates a side-effect-free name chain; Yaegi can panic on some
// lookups, which completion must survive.
func (s *Session) safeEval(src string) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = reflect.Value{}, errPanicked
		}
	}()
	return s.i.Eval(src)
}

type constErr string

func (e constErr) Error() string { return string(e) }

const errPanicked = constErr("lookup panicked")

// topLevel lists user globals, packages, keywords and builtins.
func (s *Session) topLevel() []string {
	var names []string
	func() {
		defer func() { recover() }()
		for name := range s.i.Globals() {
			if !strings.HasPrefix(name, "_") {
				names = append(names, name)
			}
		}
	}()
	for name := range s.pkgs {
		names = append(names, name)
	}
	names = append(names, goKeywords...)
	return append(names, goBuiltins...)
}

// Inspection is the documentation of a name.
type Inspection struct {
	Name      string
	Signature string
	Doc       string
}

// Text renders the inspection for a terminal or a pager.
func (in Inspection) Text() string {
	var b strings.Builder
	b.WriteString(in.Signature)
	if in.Doc != "" {
		b.WriteString("\n\n")
		b.WriteString(in.Doc)
	}
	return b.String()
}

// Inspect documents the dotted name at (or just before) cursor: the doc
// comment and signature of a pl/pld/tensor name or method, the signature of
// another package's function, or the type of a user variable.
func (s *Session) Inspect(code string, cursor int) (Inspection, bool) {
	// Extend the token to the right so a cursor inside a name works.
	end := cursor
	for end < len(code) && code[end] < 0x80 && isTokenRune(rune(code[end])) {
		end++
	}
	tok, _ := dottedToken(code, end)
	tok = strings.Trim(tok, ".")
	if tok == "" {
		return Inspection{}, false
	}
	if d, ok := docIndex[tok]; ok {
		return Inspection{Name: tok, Signature: d.Signature, Doc: d.Doc}, true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !isNameChainText(tok) {
		return Inspection{}, false
	}
	// A method of a user variable whose type is documented: prog.InCore → pl.Program.InCore.
	if dot := strings.LastIndex(tok, "."); dot > 0 {
		if v, err := s.safeEval(tok[:dot]); err == nil && v.IsValid() {
			t := v.Type()
			for t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			key := pkgName(t.PkgPath()) + "." + t.Name() + "." + tok[dot+1:]
			if d, ok := docIndex[key]; ok {
				return Inspection{Name: key, Signature: d.Signature, Doc: d.Doc}, true
			}
		}
	}
	v, err := s.safeEval(tok)
	if err != nil || !v.IsValid() {
		return Inspection{}, false
	}
	return Inspection{Name: tok, Signature: tok + " " + v.Type().String(), Doc: ""}, true
}

func pkgName(path string) string { return path[strings.LastIndex(path, "/")+1:] }

// Completeness of a cell, as Jupyter's is_complete asks.
const (
	Complete   = "complete"
	Incomplete = "incomplete"
	Invalid    = "invalid"
)

// IsComplete classifies code: complete (ready to run), incomplete (an open
// bracket, a trailing operator: more lines needed) or invalid. indent is the
// suggested indentation of the next line when incomplete.
func IsComplete(code string) (status, indent string) {
	if strings.TrimSpace(code) == "" {
		return Complete, ""
	}
	depth, last, broken := bracketDepth(code)
	if broken {
		// No later line can mend it: running now shows the error at once,
		// where waiting for the bracket to close would swallow every line.
		return Invalid, ""
	}
	if depth > 0 {
		return Incomplete, strings.Repeat("\t", depth)
	}
	if depth < 0 {
		return Invalid, ""
	}
	switch last {
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR,
		token.SHL, token.SHR, token.AND_NOT, token.LAND, token.LOR, token.EQL, token.NEQ,
		token.LSS, token.GTR, token.LEQ, token.GEQ, token.ASSIGN, token.DEFINE, token.COMMA,
		token.PERIOD, token.ARROW, token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN, token.QUO_ASSIGN, token.COLON:
		return Incomplete, ""
	}
	for _, sg := range splitCell(code) {
		var err error
		if sg.decl {
			_, _, err = parseDecls(sg.src)
		} else {
			_, _, err = parseStmts(sg.src)
		}
		if err != nil {
			// A declaration that runs into the end of the cell waits for
			// more lines; a statement segment, whose wrapper closes it,
			// keeps its older reading.
			msg := err.Error()
			if (sg.decl && strings.Contains(msg, endOfCell)) || strings.Contains(msg, "EOF") || strings.Contains(msg, "string literal not terminated") || strings.Contains(msg, "comment not terminated") {
				return Incomplete, ""
			}
			return Invalid, ""
		}
	}
	return Complete, ""
}

// bracketDepth scans code and returns the open-bracket depth at the end and
// the last significant token. broken reports a line that ends inside a ( or
// [ on a token after which Go inserts a semicolon (`f(x` then Enter): a
// syntax error whatever follows, except in a var, const, import or type
// group, whose parentheses hold semicolon-separated specs.
func bracketDepth(code string) (depth int, last token.Token, broken bool) {
	fset := token.NewFileSet()
	f := fset.AddFile("cell", -1, len(code))
	var sc scanner.Scanner
	unterminated := false
	sc.Init(f, []byte(code), func(pos token.Position, msg string) {
		if strings.Contains(msg, "not terminated") {
			unterminated = true
		}
	}, 0)
	last = token.ILLEGAL
	var open []token.Token // the open brackets; token.VAR marks a declaration group
	for {
		_, t, lit := sc.Scan()
		if t == token.EOF {
			break
		}
		switch t {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
			kind := t
			if t == token.LPAREN && (last == token.VAR || last == token.CONST || last == token.IMPORT || last == token.TYPE) {
				kind = token.VAR
			}
			open = append(open, kind)
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
		if t == token.SEMICOLON && lit == "\n" {
			// An inserted semicolon (at a newline, or at the end, where the
			// user pressed Enter) is not a token the user typed.
			if n := len(open); n > 0 && (open[n-1] == token.LPAREN || open[n-1] == token.LBRACK) {
				broken = true
			}
			continue
		}
		last = t
	}
	if unterminated && depth >= 0 {
		depth++
		broken = false // the string or comment is still open: its next line continues it
	}
	return depth, last, broken
}
