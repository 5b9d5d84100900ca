// Package interp is the evaluation engine shared by the ptorepl REPL and the
// Jupyter kernel: a Yaegi interpreter with pl, pld and tensor pre-imported,
// that evaluates cells of Go, captures their output, displays the value of a
// trailing expression, and turns every failure into one clean error that
// names the cell line.
package interp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/internal/suggest"
	"github.com/ptorepl/ptorepl/interp/symbols"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// Options configure a session.
type Options struct {
	// OnOutput, if set, receives output chunks as the cell prints them
	// (the kernel streams them to iopub); Result.Outputs has them too.
	OnOutput func(Output)
	// Packages are extra symbol tables (the kernel's display package).
	Packages []map[string]map[string]reflect.Value
	// Args is os.Args as cells see it; nil means ["ptorepl"].
	Args []string
}

// Result is what evaluating a cell produced.
type Result struct {
	// Values are the values of a trailing expression (several for a
	// multi-value call); empty when there is nothing to display.
	Values []any
	// Outputs are the captured stdout/stderr chunks in order.
	Outputs []Output
}

// HasValue reports whether the cell ended in an expression with a value.
func (r *Result) HasValue() bool { return len(r.Values) > 0 }

// Text is the text/plain display of the values.
func (r *Result) Text() string {
	parts := make([]string, len(r.Values))
	for i, v := range r.Values {
		parts[i] = FormatText(v)
	}
	return strings.Join(parts, "\n")
}

// Stdout is all captured standard output.
func (r *Result) Stdout() string { return r.stream("stdout") }

// Stderr is all captured standard error.
func (r *Result) Stderr() string { return r.stream("stderr") }

func (r *Result) stream(s string) string {
	var b strings.Builder
	for _, o := range r.Outputs {
		if o.Stream == s {
			b.WriteString(o.Text)
		}
	}
	return b.String()
}

// CellError is a failed cell: a compile error, a panic or a cancellation.
type CellError struct {
	Cell int // execution count of the cell
	Line int // 1-based line in the cell, 0 when unknown
	// Col is the 1-based column of a parse error in the cell's own text, 0
	// when unknown (run-time positions can point into rewritten code).
	Col int
	Msg string // the message, without position
	// Kind is "compile", "panic", "error", "exit" or "interrupted".
	Kind string
	// ExitCode is the code a cell gave os.Exit (Kind "exit").
	ExitCode int
	// File names the program a RunProgram error is in (else the cell).
	File string
}

func (e *CellError) Error() string {
	name := CellName(e.Cell)
	if e.File != "" {
		name = e.File
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", name, e.Line, e.Msg)
	}
	return e.Msg
}

// CellName is the file name positions inside cell n carry.
func CellName(n int) string { return fmt.Sprintf("cell[%d]", n) }

// ErrInterrupted is wrapped by the error of a cancelled cell.
var ErrInterrupted = errors.New("interrupted")

// Session is one interpreter. Evaluations are serialized.
type Session struct {
	opts  Options
	mu    sync.Mutex
	i     *interp.Interpreter
	count int
	// pkgs maps a package name usable in cells (pl, fmt) to its import path.
	pkgs map[string]string
	// pkgMembers lists each package's exported names, for completion.
	pkgMembers map[string][]string
	// symbols are each package's exported symbols, by package name.
	symbols map[string]map[string]reflect.Value

	plMu   sync.Mutex
	panics []string

	// vars are the session variables earlier cells declared; decls their
	// functions, types and constants; cellSrc is the cell being evaluated.
	vars    map[string]bool
	decls   map[string]bool
	cellSrc string
	// failed are the variables a cell declared but could not run, by cell:
	// the interpreter keeps them, holding no value.
	failed map[string]int
	// types are the type names cells declared; rename maps one declared
	// again to the name the interpreter knows its latest declaration by.
	types  map[string]bool
	rename map[string]string

	// asyncMu guards what goroutines of cells report after their cell.
	asyncMu    sync.Mutex
	evaluating bool
	async      []string
}

const outVar = "_ptorepl_out"

// New starts a session.
func New(o Options) (*Session, error) {
	s := &Session{opts: o}
	if err := s.reset(); err != nil {
		return nil, err
	}
	return s, nil
}

// Reset forgets every definition, as a fresh session.
func (s *Session) Reset() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reset()
}

func (s *Session) reset() error {
	args := s.opts.Args
	if args == nil {
		args = []string{"ptorepl"}
	}
	s.vars, s.decls, s.failed = map[string]bool{}, map[string]bool{}, map[string]int{}
	s.types, s.rename = map[string]bool{}, map[string]string{}
	i := interp.New(interp.Options{
		Stdout: &interpWriter{s: s},
		Stderr: &interpWriter{s: s, stderr: true},
		Args:   args,
		// Cells see the real environment, as a Go program does.
		Env:          os.Environ(),
		Unrestricted: true,
	})
	tables := []map[string]map[string]reflect.Value{sessionStdlib(), symbols.Symbols, s.hookSymbols()}
	tables = append(tables, s.opts.Packages...)
	s.pkgs, s.pkgMembers = map[string]string{}, map[string][]string{}
	s.symbols = map[string]map[string]reflect.Value{}
	for _, t := range tables {
		if err := i.Use(t); err != nil {
			return err
		}
		for key, syms := range t {
			k := strings.LastIndex(key, "/")
			if k <= 0 || strings.HasPrefix(key[k+1:], "_") {
				continue
			}
			name := key[k+1:]
			s.pkgs[name] = key[:k]
			s.symbols[name] = syms
			for sym := range syms {
				if token.IsExported(sym) {
					s.pkgMembers[name] = append(s.pkgMembers[name], sym)
				}
			}
		}
	}
	i.ImportUsed()
	if _, err := i.Eval("var " + outVar + " []interface{}"); err != nil {
		return err
	}
	s.i = i
	dsl.Reset()
	dsl.NoteProgram(nil)
	return nil
}

// Count is the number of cells evaluated so far.
func (s *Session) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// Eval evaluates one cell. The error, if any, is a *CellError. ctx cancels
// the cell (Ctrl-C, a kernel interrupt); the session stays usable.
func (s *Session) Eval(ctx context.Context, cell string) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count++
	n := s.count
	res := &Result{}
	capt, err := startCapture(s.opts.OnOutput)
	if err != nil {
		return nil, &CellError{Cell: n, Msg: err.Error(), Kind: "error"}
	}
	s.plMu.Lock()
	s.panics = nil
	s.plMu.Unlock()
	s.setEvaluating(true)
	restore := setEvalContext(ctx)
	vals, err := s.evalCell(ctx, n, cell)
	restore()
	s.setEvaluating(false)
	dsl.ClearLocation()
	res.Outputs = capt.stop()
	if err != nil {
		// A failure inside a builder callback leaves the builder stack dirty.
		dsl.Reset()
		return res, err
	}
	res.Values = vals
	return res, nil
}

func (s *Session) evalCell(ctx context.Context, n int, cell string) (vals []any, err error) {
	s.cellSrc = cell
	saved := make(map[string]string, len(s.rename))
	for k, v := range s.rename {
		saved[k] = v
	}
	defer func() {
		if err != nil {
			s.rename = saved // a failed cell's new type names are forgotten
			if ce, ok := err.(*CellError); ok {
				ce.Msg = renamedType.ReplaceAllString(ce.Msg, "$1")
			}
		}
	}()
	segs := splitCell(cell)
	// A syntax error anywhere is reported before anything runs.
	for _, sg := range segs {
		var err error
		if sg.decl {
			_, _, err = parseDecls(sg.src)
		} else {
			_, _, err = parseStmts(sg.src)
		}
		if err != nil {
			return nil, s.compileError(n, err, 1)
		}
	}
	// So is a call with the wrong number of arguments (callcheck.go).
	if ce := s.checkCalls(n, cell); ce != nil {
		return nil, ce
	}
	for k, sg := range segs {
		// Transform each segment only once the ones before it ran: the
		// display rewrite asks the interpreter about names they declare.
		ps, err := s.prepare(n, sg, k == len(segs)-1)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			dsl.SetLocation(CellName(n), p.line)
			if _, err := s.i.EvalWithContext(ctx, p.src); err != nil {
				if isReturn(err) {
					return vals, nil // a top-level return ends the cell, as it ends main
				}
				for _, v := range p.vars {
					if !s.vars[v] {
						s.failed[v] = n
					}
				}
				return nil, s.evalError(ctx, n, err)
			}
			for _, v := range p.vars {
				s.vars[v] = true
				delete(s.failed, v)
			}
			for _, d := range p.decls {
				s.decls[d] = true
			}
			if p.display {
				vals = append(vals, s.takeValues()...)
			}
		}
	}
	return vals, nil
}

// isIntVar reports whether name is a session variable of an integer kind.
// Only names earlier cells declared are asked: evaluating an unknown name
// would leave it half-declared in the interpreter.
func (s *Session) isIntVar(name string) bool {
	if !s.vars[name] {
		return false
	}
	v, err := s.safeEval(name)
	if err != nil || !v.IsValid() {
		return false
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// takeValues reads and clears what a display rewrite stored.
func (s *Session) takeValues() []any {
	var vals []any
	v, err := s.i.Eval(outVar)
	if err == nil && v.IsValid() {
		if list, ok := v.Interface().([]interface{}); ok {
			for _, x := range list {
				if x != nil {
					vals = append(vals, x)
				}
			}
		}
	}
	s.i.Eval(outVar + " = nil")
	return vals
}

// piece is one evaluation of a transformed segment.
type piece struct {
	src     string
	line    int      // first cell line
	display bool     // the piece stores a trailing expression's values
	vars    []string // session variables it declares
	decls   []string // functions, types and constants it declares
}

// prepare transforms a segment (see transform.go) into the pieces to
// evaluate, storing a trailing expression's values for the cell's last
// statement segment.
func (s *Session) prepare(n int, sg segment, last bool) ([]piece, error) {
	if sg.decl {
		return s.prepareDecls(n, sg)
	}
	fset, stmts, err := parseStmts(sg.src)
	if err != nil {
		return nil, s.compileError(n, err, 1)
	}
	base := len(stmtPrefix)
	x := newXform(n, fset, sg.src, base, 1)
	x.defined = make(map[string]bool, len(s.vars))
	for v := range s.vars {
		x.defined[v] = true
	}
	x.sessionInt = s.isIntVar
	x.rename = s.rename
	x.noteInts(&ast.BlockStmt{List: stmts})
	local := x.topStmts(stmts)
	if x.err != nil {
		return nil, x.err
	}
	p := piece{line: sg.first}
	for _, st := range stmts {
		if !local {
			p.vars = append(p.vars, declaredVars(st)...)
		}
	}
	if last && len(stmts) > 0 {
		if es, ok := stmts[len(stmts)-1].(*ast.ExprStmt); ok {
			lo, hi := x.off(es.Pos()), x.off(es.End())
			switch k := s.arity(es.X, sg.src, base, fset); {
			case k == 1:
				x.eds = append(x.eds, edit{off: lo, end: lo, text: outVar + " = []interface{}{", prio: 2}, edit{off: hi, end: hi, text: "}", prio: -2})
				p.display = true
			case k > 1:
				names := make([]string, k)
				for j := range names {
					names[j] = "_ptorepl_v" + strconv.Itoa(j)
				}
				list := strings.Join(names, ", ")
				x.eds = append(x.eds, edit{off: lo, end: lo, text: outVar + " = func() []interface{} { " + list + " := ", prio: 2},
					edit{off: hi, end: hi, text: "; return []interface{}{" + list + "} }()", prio: -2})
				p.display = true
			}
		}
	}
	p.src = applyEdits(sg.src, x.eds)
	return []piece{p}, nil
}

// prepareDecls transforms a declaration segment. A var declaration reading
// a variable of an earlier cell becomes a statement piece of its own, in
// its place among the others.
func (s *Session) prepareDecls(n int, sg segment) ([]piece, error) {
	fset, f, err := parseDecls(sg.src)
	if err != nil {
		return nil, s.compileError(n, err, 1)
	}
	x := newXform(n, fset, sg.src, len("package p;\n"), 1)
	var ps []piece
	cur := piece{line: sg.first}
	var ranges [][2]int
	flush := func() {
		if len(ranges) > 0 {
			cur.src = renderRanges(sg.src, ranges, x.eds)
			ps = append(ps, cur)
		}
		cur, ranges = piece{line: sg.first}, nil
	}
	x.sessionInt = s.isIntVar
	x.noteInts(f)
	// A type declared again gets a new name in the interpreter (which keeps
	// a name's first declaration); later cells use it through rename.
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				name := sp.(*ast.TypeSpec).Name.Name
				if s.types[name] {
					s.rename[name] = fmt.Sprintf("%s_ptorepl%d", name, n)
				}
				s.types[name] = true
			}
		}
	}
	x.rename = s.rename
	for _, d := range f.Decls {
		x.walk(d)
		r := [2]int{x.off(d.Pos()), x.off(d.End())}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR && readsAny(gd, s.vars) {
			flush()
			x.insert(gd.Pos(), x.hookText(gd.Pos()), 0)
			ranges = [][2]int{r}
			cur = piece{line: x.line(gd.Pos()), vars: declaredVars(gd)}
			flush()
			continue
		}
		ranges = append(ranges, r)
		cur.vars = append(cur.vars, declaredVars(d)...)
		cur.decls = append(cur.decls, declaredNames(d)...)
	}
	flush()
	if x.err != nil {
		return nil, x.err
	}
	return ps, nil
}

// renderRanges is src with only the ranges kept and the edits inside them
// applied.
func renderRanges(src string, ranges [][2]int, eds []edit) string {
	var in []edit
	for _, e := range eds {
		for _, r := range ranges {
			if e.off >= r[0] && e.off <= r[1] {
				in = append(in, e)
				break
			}
		}
	}
	return applyEdits(blankOutside(src, ranges), in)
}

// noValueBuiltins are builtins whose call has no value.
var noValueBuiltins = map[string]bool{"print": true, "println": true, "panic": true, "close": true, "delete": true, "clear": true}

// arity is how many values an expression statement yields. For a call it
// evaluates only the callee when that is a plain name or selector chain (no
// side effects) and reads the function's result count; Yaegi's own "last
// value" is stale after a void call.
func (s *Session) arity(x ast.Expr, src string, base int, fset *token.FileSet) int {
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return 1
	}
	fun := ast.Unparen(call.Fun)
	if id, ok := fun.(*ast.Ident); ok && noValueBuiltins[id.Name] {
		return 0
	}
	if fl, ok := fun.(*ast.FuncLit); ok {
		return fl.Type.Results.NumFields() // func() { ... }() has no value
	}
	if !isNameChain(fun) {
		return 1
	}
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" && strings.Contains(sel.Sel.Name, "rint") && !strings.HasPrefix(sel.Sel.Name, "S") {
			// fmt.Println and friends return a byte count nobody wants shown.
			return 0
		}
	}
	lo := fset.Position(fun.Pos()).Offset - base
	hi := fset.Position(fun.End()).Offset - base
	name := src[lo:hi]
	if name == "main" {
		name = mainName
	}
	// Yaegi can panic on a name an earlier failed cell left half-declared.
	v, err := s.safeEval(name)
	if err != nil || !v.IsValid() || v.Kind() != reflect.Func {
		return 1 // a conversion, a builtin with a value, or something Yaegi cannot show alone
	}
	return v.Type().NumOut()
}

func isNameChain(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return isNameChain(e.X)
	}
	return false
}

var posPrefix = regexp.MustCompile(`^(?:[^\s:]*\.go:|cell:)?(\d+):(\d+): ?`)

// compileError turns a parser or interpreter compile error into a CellError
// on the cell line. shift is how many lines the parse wrapper added.
func (s *Session) compileError(n int, err error, shift int) error {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		e := list[0]
		return &CellError{Cell: n, Line: e.Pos.Line - shift, Col: e.Pos.Column, Msg: e.Msg, Kind: "compile"}
	}
	return s.positioned(n, err.Error(), "compile", 0)
}

// positioned strips a leading "L:C:" and keeps L as the cell line.
func (s *Session) positioned(n int, msg, kind string, shift int) *CellError {
	msg = strings.TrimSpace(msg)
	if m := posPrefix.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &CellError{Cell: n, Line: line - shift, Msg: strings.TrimSpace(msg[len(m[0]):]), Kind: kind}
	}
	return &CellError{Cell: n, Msg: msg, Kind: kind}
}

// evalError classifies what EvalWithContext returned.
func (s *Session) evalError(ctx context.Context, n int, err error) error {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &CellError{Cell: n, Msg: "interrupted: the cell was cancelled", Kind: "interrupted"}
	}
	var p interp.Panic
	if errors.As(err, &p) {
		if e, ok := p.Value.(exitSignal); ok {
			line, _ := dsl.Location()
			_ = line
			return &CellError{Cell: n, Msg: fmt.Sprintf("os.Exit(%d) called: the cell stopped, the session continues", e.code), Kind: "exit", ExitCode: e.code}
		}
		// Yaegi's compiler can crash on a cell using a name nothing
		// declares (a, b := undefined.Method()): say which name.
		perr := s.panicError(n, p.Value)
		if ce, ok := perr.(*CellError); ok && bytes.Contains(p.Stack, []byte("yaegi/interp.(*Interpreter).CompileAST(")) {
			if names := undefinedNames(s.cellSrc, s.known); len(names) > 0 {
				ce.Msg, ce.Kind = "undefined: "+strings.Join(names, ", "), "compile"
				if ce.Line == 0 {
					ce.Line = lineOf(s.cellSrc, names[0])
				}
			}
		}
		return perr
	}
	var list scanner.ErrorList
	if errors.As(err, &list) {
		return s.compileError(n, err, 0)
	}
	ce := s.positioned(n, err.Error(), "compile", 0)
	if strings.Contains(ce.Msg, "CFG post-order panic") || strings.Contains(ce.Msg, "nil type") {
		ce.Msg = yaegiTypeLimit
	}
	if strings.Contains(ce.Msg, "constant definition loop") {
		// Yaegi's message for an undefined name; say what it means.
		ce.Msg = "undefined name (or a constant that depends on itself)"
	}
	s.selectorHelp(ce)
	return s.nameUndefined(ce)
}

var (
	// Yaegi's words for a package member or a field or method that is not
	// there.
	undefinedMember   = regexp.MustCompile(`undefined selector [\w./-]*?(\w+)\.(\w+)$`)
	noSymbol          = regexp.MustCompile(`package (\w+) "[^"]*" has no symbol (\w+)$`)
	undefinedSelector = regexp.MustCompile(`undefined selector (\w+)$`)
)

// selectorHelp puts a selector error in Go's words, with the name the
// user most likely meant: `undefined: pl.Tiel (did you mean pl.Tile?)`,
// `x.Nme undefined (type *pl.Program has no field or method Nme, but
// does have Name)`.
func (s *Session) selectorHelp(ce *CellError) {
	var pkg, name string
	if m := undefinedMember.FindStringSubmatch(ce.Msg); m != nil && s.pkgs[m[1]] != "" {
		pkg, name = m[1], m[2]
	} else if m := noSymbol.FindStringSubmatch(ce.Msg); m != nil {
		pkg, name = m[1], m[2]
	}
	if pkg != "" {
		ce.Msg = "undefined: " + pkg + "." + name
		if near := closest(name, s.pkgMembers[pkg]); near != "" {
			ce.Msg += " (did you mean " + pkg + "." + near + "?)"
		}
		return
	}
	m := undefinedSelector.FindStringSubmatch(ce.Msg)
	if m == nil {
		return
	}
	name = m[1]
	recv := regexp.MustCompile(`\b([A-Za-z_]\w*)\s*\.\s*` + regexp.QuoteMeta(name) + `\b`).FindStringSubmatch(s.cellSrc)
	if recv == nil || !s.vars[recv[1]] {
		return
	}
	v, err := s.i.Eval(recv[1])
	if err != nil || !v.IsValid() {
		return
	}
	t := v.Type()
	ce.Msg = fmt.Sprintf("%s.%s undefined (type %s has no field or method %s", recv[1], name, t, name)
	if near := closest(name, typeMembers(t)); near != "" {
		ce.Msg += ", but does have " + near
	}
	ce.Msg += ")"
}

// closest is the one of names nearest to name: the same but for case, or
// within two edits (and fewer than half its letters); "" when none is.
func closest(name string, names []string) string {
	best, d := suggest.Nearest(name, names)
	if best == "" || d > 2 || 2*d >= len(name) && d > 0 {
		return ""
	}
	return best
}

// nameUndefined rewrites an error that hides an undefined name (Yaegi's
// definition loops, incomplete types, its type checker giving up) into
// "undefined: NAME" when the cell uses names nothing declares.
func (s *Session) nameUndefined(ce *CellError) *CellError {
	if m := incompleteType.FindStringSubmatch(ce.Msg); m != nil && !s.known(m[1]) {
		ce.Msg, ce.Kind = "undefined: "+m[1], "compile"
		return ce
	}
	if !strings.HasPrefix(ce.Msg, "undefined name") && ce.Msg != yaegiTypeLimit && !strings.Contains(ce.Msg, "returns 0 values") {
		return ce
	}
	if names := undefinedNames(s.cellSrc, s.known); len(names) > 0 {
		ce.Msg, ce.Kind = "undefined: "+strings.Join(names, ", "), "compile"
	}
	return ce
}

// lineOf is the line (from 1) of the first whole-word use of name in src,
// or 0.
func lineOf(src, name string) int {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	if loc := re.FindStringIndex(src); loc != nil {
		return strings.Count(src[:loc[0]], "\n") + 1
	}
	return 0
}

// renamedType matches a type name as the interpreter knows a redeclared type.
var renamedType = regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*)_ptorepl\d+\b`)

var incompleteType = regexp.MustCompile(`incomplete type (\w+)$`)

// known reports whether name is declared in the session or is a package.
func (s *Session) known(name string) bool {
	if s.vars[name] || s.decls[name] {
		return true
	}
	_, pkg := s.pkgs[name]
	return pkg
}

// reflectPanics are the panics Yaegi raises through reflect where compiled
// Go raises a runtime error, in the words a Go programmer knows (without
// the index and length, which reflect's message does not carry).
var reflectPanics = []struct{ yaegi, goWords string }{
	{"reflect: slice index out of range", "runtime error: index out of range"},
	{"reflect: array index out of range", "runtime error: index out of range"},
	{"reflect: string index out of range", "runtime error: index out of range"},
	{"reflect.Value.Slice: slice index out of bounds", "runtime error: slice bounds out of range"},
	{"reflect.Value.Slice3: slice index out of bounds", "runtime error: slice bounds out of range"},
	{"reflect: call of reflect.Value.Field on zero Value", "runtime error: invalid memory address or nil pointer dereference"},
	{"reflect: call of reflect.Value.Elem on zero Value", "runtime error: invalid memory address or nil pointer dereference"},
}

// goRuntimeWords is msg with a reflect panic said as Go says it.
func goRuntimeWords(msg string) string {
	for _, p := range reflectPanics {
		if msg == p.yaegi {
			return p.goWords
		}
	}
	return msg
}

// panicError makes a panic value one clean error: DSL errors already carry
// their cell position; other panics get the line of the innermost
// interpreted frame Yaegi reported.
func (s *Session) panicError(n int, v any) error {
	msg := fmt.Sprint(v)
	if e, ok := v.(error); ok {
		msg = e.Error()
	}
	prefix := CellName(n) + ":"
	if strings.HasPrefix(msg, prefix) {
		line, rest := 0, strings.TrimPrefix(msg, prefix)
		if k := strings.Index(rest, ":"); k > 0 {
			line, _ = strconv.Atoi(rest[:k])
			rest = strings.TrimSpace(rest[k+1:])
		}
		return &CellError{Cell: n, Line: line, Msg: rest, Kind: "panic"}
	}
	s.plMu.Lock()
	frames := s.panics
	s.plMu.Unlock()
	ce := &CellError{Cell: n, Msg: "panic: " + goRuntimeWords(msg), Kind: "panic"}
	if strings.HasSuffix(msg, "nil type") || strings.HasSuffix(msg, "nil reflect type") {
		// The interpreter's type checker gave up: say so, not its panic.
		ce.Msg, ce.Kind = yaegiTypeLimit, "compile"
	}
	if strings.Contains(msg, "CFG post-order panic") || ce.Msg == yaegiTypeLimit {
		if incompleteType.MatchString(msg) {
			ce.Msg = msg
		}
		s.nameUndefined(ce)
	}
	if _, isDSL := v.(*dsl.Error); isDSL {
		ce.Msg = msg
	}
	if strings.Contains(msg, "CFG post-order panic") && strings.HasPrefix(ce.Msg, "panic: ") {
		// The interpreter's type checker crashed on the statement
		// (Yaegi's words for it are no help to a user): say so.
		ce.Msg, ce.Kind = fmt.Sprintf(yaegiCheckFailed, goRuntimeWords(cfgDetail(msg))), "compile"
	} else if strings.Contains(ce.Msg, "nil pointer dereference") {
		ce.Msg += s.failedHint(n)
	}
	// Yaegi's frame lines point at the start of the enclosing block, not the
	// panicking statement; the location hook knows the statement.
	if file, line := dsl.Location(); file == CellName(n) && line > 0 {
		ce.Line = line
	} else if len(frames) > 0 {
		if m := panicFrame.FindStringSubmatch(frames[0]); m != nil {
			ce.Line, _ = strconv.Atoi(m[1])
		}
	}
	return ce
}

// failedHint names the variables cell n uses whose declaring cell failed
// before it: the interpreter declared them with no value, which is the nil
// a later use dereferences.
func (s *Session) failedHint(n int) string {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	src := []byte(s.cellSrc)
	sc.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var hints []string
	seen := map[string]bool{}
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if at, ok := s.failed[lit]; ok && at != n && tok == token.IDENT && !s.vars[lit] && !seen[lit] {
			seen[lit] = true
			hints = append(hints, fmt.Sprintf("%s holds no value: its declaration in %s failed; declare it again", lit, CellName(at)))
		}
	}
	if len(hints) == 0 {
		return ""
	}
	return " (" + strings.Join(hints, "; ") + ")"
}

func (s *Session) notePanicLine(l string) {
	s.plMu.Lock()
	s.panics = append(s.panics, l)
	s.plMu.Unlock()
}

// hookSymbols are what transformed cells call (see transform.go).
func (s *Session) hookSymbols() map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{
		"ptorepl.internal/_ptorepl/_ptorepl": {
			"At":      reflect.ValueOf(func(cell, line int) { dsl.SetLocation(CellName(cell), line) }),
			"Return":  reflect.ValueOf(func() { panic(returnSignal{}) }),
			"GoPanic": reflect.ValueOf(s.goPanic),
		},
	}
}

// yaegiTypeLimit is the error for statements Yaegi's type checker cannot
// type (it panics with "nil type").
// yaegiCheckFailed is the message for a statement the interpreter's type
// checker crashed on (%s: what it crashed with); such a statement is most
// often one Go rejects, such as nil converted to a struct type.
const yaegiCheckFailed = "the interpreter could not compile this statement: its type checker failed (%s); Go would most likely reject it too: check its conversions and operand types (nil converts only to pointer, slice, map, channel, func and interface types)"

// cfgDetail is what a "CFG post-order panic" says after those words.
func cfgDetail(msg string) string {
	if _, rest, ok := strings.Cut(msg, "CFG post-order panic: "); ok {
		return rest
	}
	return msg
}

const yaegiTypeLimit = "the interpreter cannot type this statement (a generic function call or a comma-ok receive at top level, or range over an integer it cannot see is one): write it inside a function, e.g. func() { ... }(), or count with for i := 0; i < n; i++"

// returnSignal unwinds a cell that executed a top-level return.
type returnSignal struct{}

func isReturn(err error) bool {
	var p interp.Panic
	if errors.As(err, &p) {
		_, ok := p.Value.(returnSignal)
		return ok
	}
	return false
}

// exitSignal is what os.Exit does in a cell: it unwinds the cell instead of
// ending the process (the REPL or the kernel).
type exitSignal struct{ code int }

// String is what a cell that recovers the exit sees.
func (e exitSignal) String() string { return fmt.Sprintf("os.Exit(%d)", e.code) }

// sessionStdlib is Yaegi's standard library with os.Exit contained.
func sessionStdlib() map[string]map[string]reflect.Value {
	out := make(map[string]map[string]reflect.Value, len(stdlib.Symbols))
	for k, v := range stdlib.Symbols {
		out[k] = v
	}
	osSyms := make(map[string]reflect.Value, len(stdlib.Symbols["os/os"]))
	for k, v := range stdlib.Symbols["os/os"] {
		osSyms[k] = v
	}
	osSyms["Exit"] = reflect.ValueOf(func(code int) { panic(exitSignal{code}) })
	out["os/os"] = osSyms
	return out
}

// goPanic reports a panic a goroutine of a cell recovered: on the stderr of
// the cell being evaluated, or else of the next one.
func (s *Session) goPanic(cell, line int, v any) {
	msg := fmt.Sprintf("%s:%d: panic in goroutine: %v\n", CellName(cell), line, v)
	if e, ok := v.(exitSignal); ok {
		msg = fmt.Sprintf("%s:%d: os.Exit(%d) called in a goroutine: the goroutine stopped, the session continues\n", CellName(cell), line, e.code)
	}
	s.asyncMu.Lock()
	defer s.asyncMu.Unlock()
	if s.evaluating {
		io.WriteString(os.Stderr, msg)
		return
	}
	s.async = append(s.async, msg)
}

// setEvaluating marks the capture of a cell as open (flushing reports of
// goroutines that ended between cells into it) or closed.
func (s *Session) setEvaluating(on bool) {
	s.asyncMu.Lock()
	defer s.asyncMu.Unlock()
	s.evaluating = on
	if on {
		for _, m := range s.async {
			io.WriteString(os.Stderr, m)
		}
		s.async = nil
	}
}

// Value evaluates a side-effect-free expression (a name chain such as
// `prog` or `c.PTO`) for the front-ends' meta commands.
func (s *Session) Value(expr string) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	expr = strings.TrimSpace(expr)
	if !isNameChainText(expr) {
		return nil, fmt.Errorf("%q is not a variable name", expr)
	}
	v, err := s.safeEval(expr)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", expr, err)
	}
	if !v.IsValid() || !v.CanInterface() {
		return nil, fmt.Errorf("%s has no value", expr)
	}
	return v.Interface(), nil
}

// LastProgram is the IR of the program the user built or compiled last.
func (s *Session) LastProgram() *ir.Program { return dsl.LastProgram() }

// IsProgram reports whether src is a whole Go program: package main with a
// func main. `ptorepl run` runs such a file as `go run` does instead of as
// cells.
func IsProgram(src string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly)
	if err != nil || f.Name.Name != "main" {
		return false
	}
	full, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return true // let the run report the syntax error
	}
	for _, d := range full.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			return true
		}
	}
	return false
}

// RunProgram runs a whole program (see IsProgram): its declarations, then
// main once. Errors carry the file name instead of a cell name.
func (s *Session) RunProgram(ctx context.Context, file, src string) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count++
	n := s.count
	res := &Result{}
	capt, err := startCapture(s.opts.OnOutput)
	if err != nil {
		return nil, &CellError{Cell: n, Msg: err.Error(), Kind: "error"}
	}
	s.setEvaluating(true)
	restore := setEvalContext(ctx)
	_, err = s.i.EvalWithContext(ctx, src)
	restore()
	s.setEvaluating(false)
	dsl.ClearLocation()
	res.Outputs = capt.stop()
	if err != nil {
		dsl.Reset()
		ce := &CellError{Cell: n, Msg: err.Error(), Kind: "error"}
		if e, ok := s.evalError(ctx, n, err).(*CellError); ok {
			ce = e
		}
		ce.File = file
		return res, ce
	}
	return res, nil
}

// SetArgs sets os.Args as cells see it. It starts the session afresh, so
// call it before the first cell.
func (s *Session) SetArgs(args []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opts.Args = append([]string(nil), args...)
	return s.reset()
}
