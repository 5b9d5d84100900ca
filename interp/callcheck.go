package interp

import (
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"reflect"
	"strings"
)

// A call with the wrong number of arguments is a compile error in Go, and
// Yaegi reports it badly: "too many arguments" names no callee, "not
// enough arguments in call to" names none for a method, and a method call
// inside a function literal can even surface as a panic about converting a
// string to *pl.Func. So before a cell runs, every call whose callee can be
// typed without doubt is checked against its signature, and a mismatch is
// reported Go's way: the call, given against expected, the signature, and
// the position of the first extra argument or of the closing parenthesis.
//
// The callee is typed from what the cell says (parameters, := from typed
// calls, var declarations) and from the session's earlier cells. A name the
// cell declares in any way the check cannot type is left alone: it can only
// miss a mistake, which Yaegi then reports as before, never reject a
// correct cell.

// signature is what the check knows of a callee.
type signature struct {
	params   int
	variadic bool
	results  []reflect.Type // nil when the callee was typed from the cell's AST
	text     string         // its Go declaration, for the message
}

// callChecker types the callees of one cell.
type callChecker struct {
	s     *Session
	fset  *token.FileSet          // of the segment being declared
	vars  map[string]reflect.Type // names the cell declares; nil: not typeable
	funcs map[string]*signature   // functions the cell declares
}

// checkCalls reports the cell's first call whose argument count does not
// fit its callee, or nil.
func (s *Session) checkCalls(n int, cell string) *CellError {
	c := &callChecker{s: s, vars: map[string]reflect.Type{}, funcs: map[string]*signature{}}
	type parsed struct {
		fset  *token.FileSet
		roots []ast.Node
	}
	var segs []parsed
	for _, sg := range splitCell(cell) {
		var p parsed
		if sg.decl {
			fs, f, err := parseDecls(sg.src)
			if err != nil {
				return nil
			}
			p = parsed{fs, []ast.Node{f}}
		} else {
			fs, stmts, err := parseStmts(sg.src)
			if err != nil {
				return nil
			}
			p.fset = fs
			for _, st := range stmts {
				p.roots = append(p.roots, st)
			}
		}
		segs = append(segs, p)
	}
	// Every name first, so a use sees a declaration in a later segment too.
	for _, p := range segs {
		c.fset = p.fset
		for _, r := range p.roots {
			ast.Inspect(r, c.declare)
		}
	}
	for _, p := range segs {
		var found *CellError
		for _, r := range p.roots {
			ast.Inspect(r, func(node ast.Node) bool {
				if call, ok := node.(*ast.CallExpr); ok && found == nil {
					found = c.checkCall(n, p.fset, call)
				}
				return found == nil
			})
			if found != nil {
				return found
			}
		}
	}
	return nil
}

// declare records the names a node declares, typed where the check can.
func (c *callChecker) declare(node ast.Node) bool {
	switch d := node.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			c.funcs[d.Name.Name] = c.astSignature(d.Type, d.Name.Name)
		}
		c.params(d.Recv)
		c.params(d.Type.Params)
		c.params(d.Type.Results)
	case *ast.FuncLit:
		c.params(d.Type.Params)
		c.params(d.Type.Results)
	case *ast.AssignStmt:
		if d.Tok != token.DEFINE {
			return true
		}
		types := c.valueTypes(d.Rhs, len(d.Lhs))
		for i, l := range d.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				c.set(id.Name, types[i])
			}
		}
	case *ast.ValueSpec:
		var types []reflect.Type
		if d.Type != nil {
			t := c.typeOf(d.Type)
			for range d.Names {
				types = append(types, t)
			}
		} else {
			types = c.valueTypes(d.Values, len(d.Names))
		}
		for i, id := range d.Names {
			c.set(id.Name, types[i])
		}
	case *ast.RangeStmt:
		if d.Tok == token.DEFINE {
			for _, e := range []ast.Expr{d.Key, d.Value} {
				if id, ok := e.(*ast.Ident); ok {
					c.set(id.Name, nil)
				}
			}
		}
	case *ast.TypeSwitchStmt:
		if a, ok := d.Assign.(*ast.AssignStmt); ok {
			for _, l := range a.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					c.set(id.Name, nil)
				}
			}
		}
	case *ast.TypeSpec:
		c.set(d.Name.Name, nil)
	}
	return true
}

// params declares a field list's names with their types.
func (c *callChecker) params(fl *ast.FieldList) {
	if fl == nil {
		return
	}
	for _, f := range fl.List {
		t := c.typeOf(f.Type)
		if _, ok := f.Type.(*ast.Ellipsis); ok {
			t = nil
		}
		for _, id := range f.Names {
			c.set(id.Name, t)
		}
	}
}

// set declares name as t; a second declaration of another type makes the
// name untypeable (the check does not follow scopes).
func (c *callChecker) set(name string, t reflect.Type) {
	if name == "_" {
		return
	}
	if old, ok := c.vars[name]; ok && old != t {
		t = nil
	}
	c.vars[name] = t
}

// valueTypes types the n values of a right-hand side: one multi-value
// call, or one single value per expression.
func (c *callChecker) valueTypes(rhs []ast.Expr, n int) []reflect.Type {
	out := make([]reflect.Type, n)
	if len(rhs) == 1 && n > 1 {
		if sig := c.callResults(rhs[0]); sig != nil && len(sig.results) == n {
			copy(out, sig.results)
		}
		return out
	}
	for i := 0; i < n && i < len(rhs); i++ {
		if sig := c.callResults(rhs[i]); sig != nil && len(sig.results) == 1 {
			out[i] = sig.results[0]
		}
	}
	return out
}

// callResults is the signature of e's callee when e is a typeable call.
func (c *callChecker) callResults(e ast.Expr) *signature {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	sig, _ := c.callee(call.Fun)
	return sig
}

// typeOf resolves a type expression naming a package's type (pl.Expr,
// *pl.Func); anything else is untyped here.
func (c *callChecker) typeOf(e ast.Expr) reflect.Type {
	switch e := e.(type) {
	case *ast.StarExpr:
		if t := c.typeOf(e.X); t != nil {
			return reflect.PointerTo(t)
		}
	case *ast.ParenExpr:
		return c.typeOf(e.X)
	case *ast.SelectorExpr:
		v, ok := c.pkgSymbol(e)
		if ok && v.Kind() == reflect.Pointer && v.IsNil() {
			return v.Type().Elem() // the extracted symbol of a type is (*T)(nil)
		}
	}
	return nil
}

// pkgSymbol looks up pkg.Name when pkg is a package the cell does not
// shadow.
func (c *callChecker) pkgSymbol(sel *ast.SelectorExpr) (reflect.Value, bool) {
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return reflect.Value{}, false
	}
	if _, shadowed := c.vars[id.Name]; shadowed {
		return reflect.Value{}, false
	}
	syms, ok := c.s.symbols[id.Name]
	if !ok {
		return reflect.Value{}, false
	}
	v, ok := syms[sel.Sel.Name]
	return v, ok && v.IsValid()
}

// exprType types a receiver expression.
func (c *callChecker) exprType(e ast.Expr) reflect.Type {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if t, ok := c.vars[e.Name]; ok {
			return t
		}
		if _, ok := c.funcs[e.Name]; ok || !c.s.vars[e.Name] {
			return nil
		}
		v, err := c.s.safeEval(e.Name)
		if err != nil || !v.IsValid() {
			return nil
		}
		return v.Type()
	case *ast.CallExpr:
		if sig := c.callResults(e); sig != nil && len(sig.results) == 1 {
			return sig.results[0]
		}
	}
	return nil
}

// callee types fun and spells it for the message ("pl.Add", "f.Let").
func (c *callChecker) callee(fun ast.Expr) (*signature, string) {
	fun = ast.Unparen(fun)
	name := ""
	switch f := fun.(type) {
	case *ast.Ident:
		name = f.Name
		if sig, ok := c.funcs[f.Name]; ok {
			if _, shadowed := c.vars[f.Name]; !shadowed {
				return sig, name
			}
			return nil, name
		}
		if _, declared := c.vars[f.Name]; declared || !c.s.decls[f.Name] {
			return nil, name
		}
		v, err := c.s.safeEval(f.Name)
		if err != nil || !v.IsValid() || v.Kind() != reflect.Func {
			return nil, name
		}
		return funcSignature(v.Type(), 0, ""), name
	case *ast.SelectorExpr:
		if pkg, ok := f.X.(*ast.Ident); ok {
			name = pkg.Name + "." + f.Sel.Name
			if v, ok := c.pkgSymbol(f); ok {
				if v.Kind() != reflect.Func {
					return nil, name // a conversion or a variable
				}
				return funcSignature(v.Type(), 0, docSignature(pkg.Name+"."+f.Sel.Name)), name
			}
		}
		t := c.exprType(f.X)
		if t == nil || !c.compiled(t) {
			return nil, name
		}
		if name == "" {
			name = "(…)." + f.Sel.Name
		}
		return methodSignature(t, f.Sel.Name), name
	}
	return nil, name
}

// compiled reports whether t (or what it points to) is a named type of an
// imported, compiled package: only those have their whole method set in
// reflect. A type a cell declares may define methods reflect does not see
// (and shadow promoted ones).
func (c *callChecker) compiled(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	path := t.PkgPath()
	if t.Name() == "" || path == "" {
		return false
	}
	return c.s.pkgs[path[strings.LastIndex(path, "/")+1:]] == path
}

// methodSignature is method m of t (or of *t), nil when it has none.
func methodSignature(t reflect.Type, m string) *signature {
	doc := func(t reflect.Type) string {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		pkg := t.PkgPath()
		if k := strings.LastIndex(pkg, "/"); k >= 0 {
			pkg = pkg[k+1:]
		}
		return docSignature(pkg + "." + t.Name() + "." + m)
	}
	if t.Kind() == reflect.Interface {
		if meth, ok := t.MethodByName(m); ok {
			return funcSignature(meth.Type, 0, doc(t))
		}
		return nil
	}
	for _, u := range []reflect.Type{t, reflect.PointerTo(t)} {
		if meth, ok := u.MethodByName(m); ok {
			return funcSignature(meth.Type, 1, doc(t))
		}
	}
	return nil
}

// funcSignature is a reflected function type, its first skip parameters
// (a method's receiver) dropped.
func funcSignature(t reflect.Type, skip int, text string) *signature {
	sig := &signature{params: t.NumIn() - skip, variadic: t.IsVariadic(), text: text}
	for i := 0; i < t.NumOut(); i++ {
		sig.results = append(sig.results, t.Out(i))
	}
	if sig.text == "" {
		in := make([]string, 0, t.NumIn())
		for i := skip; i < t.NumIn(); i++ {
			s := t.In(i).String()
			if sig.variadic && i == t.NumIn()-1 {
				s = "..." + t.In(i).Elem().String()
			}
			in = append(in, s)
		}
		sig.text = "func(" + strings.Join(in, ", ") + ")"
		if t.NumOut() == 1 {
			sig.text += " " + t.Out(0).String()
		} else if t.NumOut() > 1 {
			out := make([]string, t.NumOut())
			for i := range out {
				out[i] = t.Out(i).String()
			}
			sig.text += " (" + strings.Join(out, ", ") + ")"
		}
	}
	return sig
}

// astSignature is a function the cell declares.
func (c *callChecker) astSignature(ft *ast.FuncType, name string) *signature {
	sig := &signature{}
	for _, f := range ft.Params.List {
		k := max(len(f.Names), 1)
		sig.params += k
		if _, ok := f.Type.(*ast.Ellipsis); ok {
			sig.variadic = true
		}
	}
	var b strings.Builder
	if err := printer.Fprint(&b, c.fset, ft); err == nil {
		sig.text = "func " + name + strings.TrimPrefix(b.String(), "func")
	}
	return sig
}

// docSignature is the declaration the DSL's documentation gives key.
func docSignature(key string) string {
	if d, ok := docIndex[key]; ok {
		return d.Signature
	}
	return ""
}

// checkCall reports call when its argument count cannot fit its callee.
func (c *callChecker) checkCall(n int, fset *token.FileSet, call *ast.CallExpr) *CellError {
	if call.Ellipsis.IsValid() {
		return nil // f(xs...)
	}
	sig, name := c.callee(call.Fun)
	if sig == nil {
		return nil
	}
	given := len(call.Args)
	if given == 1 {
		if inner, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr); ok {
			isig, _ := c.callee(inner.Fun)
			if isig == nil || isig.results == nil || len(isig.results) != 1 {
				return nil // f(g()) may spread g's results
			}
		}
	}
	want := sig.params
	var at token.Pos
	var what string
	switch {
	case given > want && !sig.variadic:
		at, what = call.Args[want].Pos(), "too many"
	case given < want && !(sig.variadic && given == want-1):
		at, what = call.Rparen, "not enough"
	default:
		return nil
	}
	expected := fmt.Sprintf("%d", want)
	if sig.variadic {
		expected = fmt.Sprintf("at least %d", want-1)
	}
	p := fset.Position(at)
	return &CellError{Cell: n, Line: p.Line - 1, Col: p.Column, Kind: "compile",
		Msg: fmt.Sprintf("%s arguments in call to %s: given %d, expected %s: %s", what, name, given, expected, sig.text)}
}
