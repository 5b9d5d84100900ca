package interp

// The cell transformation.
//
// A cell is Go typed as if it were the body of func main, with declarations
// (types, funcs, methods, vars, consts, imports) allowed between statements.
// Yaegi evaluates top-level statements in its global scope, which has bugs a
// function scope does not have, so before evaluation each segment of a cell is
// rewritten by one transformation, always keeping every token on its original
// line so that errors name the user's cell line:
//
//   - Compound top-level statements (if, for, switch, select, blocks, labeled
//     statements) run as the body of a function literal called in place:
//     `func() { for ... }()`. Variables they declare are block-scoped in Go
//     anyway; a top-level `return` ends the cell, as it would end main.
//   - Top-level simple statements (`x := ...`, assignments, calls) stay at top
//     level, so `:=` declares session variables later cells see.
//   - A `var` declaration whose initializer reads a variable of an earlier
//     cell is evaluated as a statement (Yaegi's package-level initializer
//     ordering cannot see variables of earlier evaluations).
//   - `main` is renamed so a cell declaring func main does not run it on every
//     later evaluation; `main()` calls it once, as typed.
//   - Go 1.22 semantics: a loop variable a closure, go or defer statement
//     can capture gets a per-iteration copy; `range N` over an integer
//     constant or len/cap becomes a counting loop.
//   - Every function started by a go statement recovers its panic and reports
//     it with the cell line, so a goroutine cannot end the session.
//   - A call to the location hook precedes each statement of every statement
//     list (never in a case/comm clause list, between a label and its
//     statement, or inside an expression), so DSL calls know their cell line.

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"
)

// edit replaces src[off:end] with text (an insertion when end == off).
type edit struct {
	off, end int
	text     string
	prio     int // order among edits at the same offset, lowest first
}

// applyEdits applies edits to src; overlapping replacements after the first
// are dropped.
func applyEdits(src string, eds []edit) string {
	sort.SliceStable(eds, func(a, b int) bool {
		if eds[a].off != eds[b].off {
			return eds[a].off < eds[b].off
		}
		return eds[a].prio < eds[b].prio
	})
	var b strings.Builder
	prev := 0
	for _, e := range eds {
		if e.off > len(src) && e.end == e.off {
			e.off, e.end = len(src), len(src) // an implicit empty statement at the end
		}
		if e.off < prev || e.end > len(src) || e.off > len(src) {
			continue
		}
		b.WriteString(src[prev:e.off])
		b.WriteString(e.text)
		prev = e.off
		if e.end > e.off {
			prev = e.end
		}
	}
	b.WriteString(src[prev:])
	return b.String()
}

// blankOutside replaces every byte of src outside the ranges with a space,
// keeping newlines, so positions stay those of the cell.
func blankOutside(src string, ranges [][2]int) string {
	b := []byte(src)
	keep := make([]bool, len(b))
	for _, r := range ranges {
		for i := r[0]; i < r[1] && i < len(b); i++ {
			keep[i] = true
		}
	}
	for i := range b {
		if !keep[i] && b[i] != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// xform collects the edits of one segment.
type xform struct {
	cell  int
	fset  *token.FileSet
	file  *token.File
	src   string // the segment
	base  int    // bytes the parse wrapper adds before the segment
	shift int    // lines the parse wrapper adds
	eds   []edit
	err   error
	// defined are the session variables so far: earlier cells' and this
	// segment's top-level statements'.
	defined map[string]bool
	// ints are the names noteInts found integer (true) or not (false);
	// sessionInt answers for names of earlier cells.
	ints       map[string]bool
	sessionInt func(name string) bool
	// rename maps a type name declared again to its current name in the
	// interpreter, which keeps the first declaration of a name.
	rename map[string]string
}

func newXform(cell int, fset *token.FileSet, src string, base, shift int) *xform {
	x := &xform{cell: cell, fset: fset, src: src, base: base, shift: shift}
	fset.Iterate(func(f *token.File) bool { x.file = f; return false })
	return x
}

func (x *xform) off(p token.Pos) int  { return x.file.Offset(p) - x.base }
func (x *xform) line(p token.Pos) int { return x.file.Line(p) - x.shift }

func (x *xform) insert(p token.Pos, text string, prio int) {
	o := x.off(p)
	x.eds = append(x.eds, edit{off: o, end: o, text: text, prio: prio})
}

func (x *xform) replace(from, to token.Pos, text string) {
	x.eds = append(x.eds, edit{off: x.off(from), end: x.off(to), text: text, prio: 100})
}

func (x *xform) hookText(p token.Pos) string {
	return fmt.Sprintf("_ptorepl.At(%d, %d); ", x.cell, x.line(p))
}

func (x *xform) fail(p token.Pos, format string, args ...any) {
	if x.err == nil {
		x.err = &CellError{Cell: x.cell, Line: x.line(p), Msg: fmt.Sprintf(format, args...), Kind: "compile"}
	}
}

// hooks puts a location call before each statement of a list. A var
// declaration gets none: right after a call of a compiled function, the
// interpreter initializes it wrongly (yaegi v0.16.1).
func (x *xform) hooks(list []ast.Stmt) {
	for _, st := range list {
		switch st.(type) {
		case *ast.EmptyStmt, *ast.CaseClause, *ast.CommClause, *ast.DeclStmt:
			continue
		}
		x.insert(st.Pos(), x.hookText(st.Pos()), 0)
	}
}

// walk applies the in-function rewrites below n.
func (x *xform) walk(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			x.hooks(n.List)
		case *ast.CaseClause:
			x.hooks(n.Body)
		case *ast.CommClause:
			x.hooks(n.Body)
		case *ast.SelectorExpr:
			x.walk(n.X) // a selected name is a field or member, never renamed
			return false
		case *ast.Ident:
			if n.Name == "main" {
				x.replace(n.Pos(), n.End(), mainName)
			} else if r, ok := x.rename[n.Name]; ok {
				x.replace(n.Pos(), n.End(), r)
			}
		case *ast.ForStmt:
			x.forLoop(n)
		case *ast.RangeStmt:
			x.rangeLoop(n)
		case *ast.GoStmt:
			x.goStmt(n)
		}
		return true
	})
}

// mainName is what a cell's main is called in the interpreter.
const mainName = "_ptorepl_main"

// goStmt makes the started function recover its panic and report it.
func (x *xform) goStmt(g *ast.GoStmt) {
	rec := fmt.Sprintf("defer func() { if r := recover(); r != nil { _ptorepl.GoPanic(%d, %d, r) } }(); ", x.cell, x.line(g.Pos()))
	if fl, ok := g.Call.Fun.(*ast.FuncLit); ok {
		x.insert(fl.Body.Lbrace+1, rec, 10)
		return
	}
	// go f(args): the call runs inside a recovering literal; its arguments
	// are evaluated first, at the go statement, as Go does (literals stay
	// in place to keep their untyped constant type).
	var bind []string
	for k, a := range g.Call.Args {
		if constArg(a) {
			continue
		}
		name := fmt.Sprintf("_ptorepl_a%d", k)
		bind = append(bind, name)
		x.replace(a.Pos(), a.End(), name)
	}
	if len(bind) > 0 {
		vals := make([]string, 0, len(bind))
		for _, a := range g.Call.Args {
			if !constArg(a) {
				vals = append(vals, x.text(a))
			}
		}
		x.insert(g.Pos(), "{ "+strings.Join(bind, ", ")+" := "+strings.Join(vals, ", ")+"; ", 20)
		x.insert(g.End(), " }", -10)
	}
	x.insert(g.Call.Pos(), "func() { "+rec, 10)
	x.insert(g.Call.End(), " }()", -20)
}

// constArg reports whether a go statement's argument is a literal, nil,
// true or false: evaluating it later is the same, and binding it to a
// variable would lose its untyped type.
func constArg(a ast.Expr) bool {
	switch a := a.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return a.Name == "nil" || a.Name == "true" || a.Name == "false"
	}
	return false
}

// text is the source of a node, on one line.
func (x *xform) text(n ast.Node) string {
	t := x.src[x.off(n.Pos()):x.off(n.End())]
	return strings.ReplaceAll(t, "\n", " ")
}

// captures reports whether body can keep a reference to a loop variable
// beyond its iteration: a closure, a go or defer statement, or an address.
func captures(body ast.Node) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			found = true
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				found = true
			}
		}
		return !found
	})
	return found
}

// assigns reports whether body assigns one of names.
func assigns(body ast.Node, names []string) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		for _, n := range names {
			if id.Name == n {
				return true
			}
		}
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					found = found || is(l)
				}
			}
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				found = found || (n.Key != nil && is(n.Key)) || (n.Value != nil && is(n.Value))
			}
		}
		return !found
	})
	return found
}

func copies(names []string) string {
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s := %s; ", n, n)
	}
	return b.String()
}

func definedNames(es ...ast.Expr) []string {
	var out []string
	for _, e := range es {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			out = append(out, id.Name)
		}
	}
	return out
}

// forLoop gives a captured for-clause variable a per-iteration copy (Go
// 1.22). A body that assigns the variable keeps one variable: copying it
// would lose the assignment for the next iteration.
func (x *xform) forLoop(f *ast.ForStmt) {
	init, ok := f.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE {
		return
	}
	names := definedNames(init.Lhs...)
	if len(names) == 0 || !captures(f.Body) || assigns(f.Body, names) {
		return
	}
	x.insert(f.Body.Lbrace+1, copies(names), 5)
}

// rangeLoop rewrites range over an integer to a counting loop and gives
// captured range variables per-iteration copies.
func (x *xform) rangeLoop(r *ast.RangeStmt) {
	if _, ok := r.X.(*ast.FuncLit); ok {
		x.fail(r.Pos(), "range over a function (Go 1.23 iterators) is not supported by the interpreter; call the function with a yield callback instead")
		return
	}
	if r.Tok == token.DEFINE && captures(r.Body) {
		if names := definedNames(r.Key, r.Value); len(names) > 0 {
			x.insert(r.Body.Lbrace+1, copies(names), 5)
		}
	}
	if !(intRange(r.X) || x.intName(r.X)) || r.Value != nil {
		return
	}
	if r.Tok == token.ASSIGN {
		return // for k = range n: leave it to the interpreter
	}
	k := "_ptorepl_i"
	if id, ok := r.Key.(*ast.Ident); ok && id.Name != "_" {
		k = id.Name
	}
	// for K := range X { → for K, _ptorepl_n := X-X, X; K < _ptorepl_n; K++ {
	// (X-X gives K the type of X; X is a name or a pure expression).
	xt := x.text(r.X)
	x.replace(r.For, r.X.Pos(), fmt.Sprintf("for %s, _ptorepl_n := (%s)-(%s), ", k, xt, xt))
	x.insert(r.X.End(), fmt.Sprintf("; %s < _ptorepl_n; %s++ ", k, k), 0)
}

// intTypes are the integer type names.
var intTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true, "byte": true, "rune": true}

// intName reports whether e is a name the segment (or the session) declares
// with an integer type and never with another.
func (x *xform) intName(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	if v, seen := x.ints[id.Name]; seen {
		return v
	}
	return x.sessionInt != nil && x.sessionInt(id.Name)
}

// noteInts records, scope-insensitively, which names the segment declares
// as integers: parameters, var declarations and := of integer expressions.
// A name also declared with another type is not an integer.
func (x *xform) noteInts(n ast.Node) {
	x.ints = map[string]bool{}
	note := func(name string, isInt bool) {
		if v, seen := x.ints[name]; seen {
			isInt = isInt && v
		}
		x.ints[name] = isInt
	}
	isIntType := func(t ast.Expr) bool {
		id, ok := t.(*ast.Ident)
		return ok && intTypes[id.Name]
	}
	isIntExpr := func(e ast.Expr) bool {
		if c, ok := e.(*ast.CallExpr); ok && len(c.Args) == 1 && isIntType(c.Fun) {
			return true
		}
		return intRange(e)
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, nm := range n.Names {
				note(nm.Name, isIntType(n.Type))
			}
		case *ast.ValueSpec:
			for k, nm := range n.Names {
				isInt := n.Type != nil && isIntType(n.Type)
				if n.Type == nil && k < len(n.Values) && len(n.Values) == len(n.Names) {
					isInt = isIntExpr(n.Values[k])
				}
				note(nm.Name, isInt)
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for k, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						note(id.Name, len(n.Lhs) == len(n.Rhs) && isIntExpr(n.Rhs[k]))
					}
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE {
					note(id.Name, false)
				}
			}
		}
		return true
	})
}

// intRange reports whether a range expression is an integer the rewrite can
// count to: an integer literal, len or cap, or arithmetic on those.
func intRange(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return e.Kind == token.INT
	case *ast.CallExpr:
		id, ok := e.Fun.(*ast.Ident)
		return ok && (id.Name == "len" || id.Name == "cap")
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.SHL:
			return intRange(e.X) && intRange(e.Y)
		}
	}
	return false
}

// stmtEnd is where a statement's last token ends. A label on nothing (L:
// at the end of a block) labels an implicit empty statement that go/parser
// places at the next token, past any comment after the colon; text put
// there would land inside that comment.
func stmtEnd(st ast.Stmt) token.Pos {
	if l, ok := st.(*ast.LabeledStmt); ok {
		if e, ok := l.Stmt.(*ast.EmptyStmt); ok && e.Implicit {
			return l.Colon + 1
		}
		return stmtEnd(l.Stmt)
	}
	return st.End()
}

// topStmts transforms the statements of a statement segment. It reports
// whether the segment runs as one function body (see oneBody).
func (x *xform) topStmts(stmts []ast.Stmt) bool {
	if oneBody(stmts) {
		for _, st := range stmts {
			x.walk(st)
		}
		x.hooks(stmts)
		first, last := stmts[0], stmts[len(stmts)-1]
		x.insert(first.Pos(), "func() { ", -5)
		x.insert(stmtEnd(last), " }()", 50)
		return true
	}
	for _, st := range stmts {
		if _, ok := st.(*ast.EmptyStmt); ok {
			continue
		}
		x.insert(st.Pos(), x.hookText(st.Pos()), 0)
		switch st := st.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
			*ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
			x.insert(st.Pos(), "func() { ", 1)
			x.insert(stmtEnd(st), " }()", -1)
			x.topReturns(st)
		case *ast.ReturnStmt:
			x.topReturns(st)
		case *ast.AssignStmt:
			if x.commaOK(st) {
				x.define(st)
				continue
			}
		}
		x.walk(st)
		x.define(st)
	}
	return false
}

func (x *xform) define(st ast.Stmt) {
	if x.defined == nil {
		x.defined = map[string]bool{}
	}
	for _, v := range declaredVars(st) {
		x.defined[v] = true
	}
}

// decl is ":=", or "=" for a name that already exists.
func (x *xform) decl(name string) string {
	if x.defined[name] {
		return "="
	}
	return ":="
}

// oneBody reports whether a statement segment needs one function scope
// around all of it: a top-level defer must run at its end and recover its
// panics, and labels and goto join statements. Variables such a segment
// declares stay local to it.
func oneBody(stmts []ast.Stmt) bool {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.DeferStmt, *ast.LabeledStmt:
			return true
		case *ast.BranchStmt:
			if st.Tok == token.GOTO {
				return true
			}
		}
	}
	return false
}

// commaOK rewrites a top-level `v, ok := e.(T)` or `v, ok := m[k]`, which
// the interpreter's global scope cannot type, into single-value forms whose
// comma-ok half runs in a function scope. It reports whether it did.
func (x *xform) commaOK(a *ast.AssignStmt) bool {
	if a.Tok != token.DEFINE || len(a.Lhs) != 2 || len(a.Rhs) != 1 {
		return false
	}
	v, ok1 := a.Lhs[0].(*ast.Ident)
	ok, ok2 := a.Lhs[1].(*ast.Ident)
	if !ok1 || !ok2 {
		return false
	}
	var out []string
	switch r := ast.Unparen(a.Rhs[0]).(type) {
	case *ast.TypeAssertExpr:
		if r.Type == nil {
			return false
		}
		t := x.text(r.Type)
		tmp := fmt.Sprintf("_ptorepl_e%d_%d", x.cell, x.off(a.Pos()))
		out = append(out, tmp+" := "+x.text(r.X))
		if ok.Name != "_" {
			out = append(out, fmt.Sprintf("%s %s func() bool { _, ok := %s.(%s); return ok }()", ok.Name, x.decl(ok.Name), tmp, t))
		}
		if v.Name != "_" {
			out = append(out, fmt.Sprintf("%s %s func() %s { v, _ := %s.(%s); return v }()", v.Name, x.decl(v.Name), t, tmp, t))
		}
	case *ast.IndexExpr:
		if !pure(r) {
			return false
		}
		e := x.text(r)
		if ok.Name != "_" {
			out = append(out, fmt.Sprintf("%s %s func() bool { _, ok := %s; return ok }()", ok.Name, x.decl(ok.Name), e))
		}
		if v.Name != "_" {
			out = append(out, fmt.Sprintf("%s %s %s", v.Name, x.decl(v.Name), e))
		}
	default:
		return false
	}
	// Keep the statement's line count so later lines keep their numbers.
	nl := strings.Count(x.src[x.off(a.Pos()):x.off(a.End())], "\n")
	x.replace(a.Pos(), a.End(), strings.Join(out, "; ")+strings.Repeat("\n", nl))
	return true
}

// pure reports whether evaluating e twice is the same as once: names,
// selectors, literals, indexing and arithmetic, no calls or receives.
func pure(e ast.Node) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr, *ast.FuncLit, *ast.CompositeLit:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// topReturns turns returns outside function literals into the end of the cell.
func (x *xform) topReturns(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) > 0 {
				x.fail(n.Pos(), "too many return values: a top-level return ends the cell and takes no values")
			}
			x.replace(n.Pos(), n.End(), "_ptorepl.Return()")
		}
		return true
	})
}

// readsAny reports whether e mentions one of names.
func readsAny(n ast.Node, names map[string]bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && names[id.Name] {
			found = true
		}
		return !found
	})
	return found
}

// declaredVars lists the names a top-level statement or var declaration
// adds to the session.
func declaredVars(n ast.Node) []string {
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE {
			return definedNames(n.Lhs...)
		}
	case *ast.DeclStmt:
		return declaredVars(n.Decl)
	case *ast.GenDecl:
		if n.Tok != token.VAR {
			return nil
		}
		var out []string
		for _, sp := range n.Specs {
			for _, id := range sp.(*ast.ValueSpec).Names {
				if id.Name != "_" {
					out = append(out, id.Name)
				}
			}
		}
		return out
	}
	return nil
}

// universe are the predeclared names.
var universe = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`bool byte complex64 complex128 error float32 float64 int int8 int16
		int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable true false iota nil
		append cap clear close complex copy delete imag len make max min new panic print println real recover _`) {
		universe[n] = true
	}
}

// undefinedNames lists the names a cell uses but neither declares nor finds
// in known (the session's names, packages and the universe). It names what
// the interpreter's "definition loop" errors leave unnamed.
func undefinedNames(cell string, known func(string) bool) []string {
	declared := map[string]bool{}
	var used []string
	visit := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				ast.Inspect(n.X, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok {
						used = append(used, id.Name)
					}
					return true
				})
				return false
			case *ast.KeyValueExpr:
				if _, ok := n.Key.(*ast.Ident); ok {
					ast.Inspect(n.Value, func(m ast.Node) bool {
						if id, ok := m.(*ast.Ident); ok {
							used = append(used, id.Name)
						}
						return true
					})
					return false
				}
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					for _, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							declared[id.Name] = true
						}
					}
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						declared[id.Name] = true
					}
				}
			case *ast.ValueSpec:
				for _, id := range n.Names {
					declared[id.Name] = true
				}
			case *ast.TypeSpec:
				declared[n.Name.Name] = true
			case *ast.FuncDecl:
				declared[n.Name.Name] = true
			case *ast.Field:
				for _, id := range n.Names {
					declared[id.Name] = true
				}
			case *ast.LabeledStmt:
				declared[n.Label.Name] = true
			case *ast.BranchStmt:
				return false
			case *ast.Ident:
				used = append(used, n.Name)
			}
			return true
		})
	}
	for _, sg := range splitCell(cell) {
		if sg.decl {
			if _, f, err := parseDecls(sg.src); err == nil {
				for _, d := range f.Decls {
					visit(d)
				}
			}
		} else if _, stmts, err := parseStmts(sg.src); err == nil {
			for _, st := range stmts {
				visit(st)
			}
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, u := range used {
		if declared[u] || universe[u] || seen[u] || strings.HasPrefix(u, "_ptorepl") || known(u) {
			continue
		}
		seen[u] = true
		out = append(out, u)
	}
	return out
}

// declaredNames lists the functions, types and constants a declaration adds.
func declaredNames(d ast.Decl) []string {
	var out []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			out = append(out, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				out = append(out, sp.Name.Name)
			case *ast.ValueSpec:
				if d.Tok == token.CONST {
					for _, id := range sp.Names {
						out = append(out, id.Name)
					}
				}
			}
		}
	}
	return out
}
