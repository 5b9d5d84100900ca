//go:build cgo

package pyfront

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/ptorepl/ptorepl/ir"
)

// Module is one parsed PyPTO file: its programs (classes and @pl.jit.host
// entries) and factories.
type Module struct {
	File string
	r    *reader
	// order lists every name in source order; kinds says what each is.
	order []string
	progs map[string]*ir.Program
	facs  map[string]*factory
	// errs are the entries that could not be built, with why.
	errs map[string]error
	// kernels are the @pl.jit.incore and @pl.jit functions, in source
	// order: they become part of a program only through a host entry.
	kernels []string
	// jits are the file's jit functions by name; entries names those a
	// program is built from (Specialize rebuilds one).
	jits    map[string]*jitFunc
	entries map[string]bool
	// tests are the pytest tests that build programs (pytests.go), in
	// collection order; testProgs holds the ones built so far.
	tests     []*pyTest
	testByID  map[string]*pyTest
	testProgs map[string]*ir.Program
	// definers are the defs whose bodies define @pl.program classes
	// (defined.go), by pytest-style id, in source order.
	definers     map[string]*node
	definerOrder []string
	definerClass map[string]*node // a Test* method's class
	// mu serializes Calls: a factory runs on the module's reader and its
	// syntax tree, which remember where they are.
	mu sync.Mutex
}

// Names lists the module's programs and factories in source order.
func (m *Module) Names() []string { return append([]string(nil), m.order...) }

// NoPrograms explains, for a module with nothing to build, what ptorepl
// builds programs from; it is "" when the module has a program or factory.
func (m *Module) NoPrograms() string {
	if len(m.order) > 0 {
		return ""
	}
	msg := m.File + " defines no program: ptorepl builds one from each @pl.program class, @pl.jit.host entry, top-level @pl.function, program factory and test-case class with a get_program method"
	if len(m.kernels) > 0 {
		msg += fmt.Sprintf("; its @pl.jit functions (%s) join a program when a @pl.jit.host entry calls them", strings.Join(m.kernels, ", "))
	}
	return msg
}

// IsFactory reports whether name is a factory (a def returning a program).
func (m *Module) IsFactory(name string) bool { _, ok := m.facs[name]; return ok }

// IsDefaultCase reports whether name is a test-case class (cases.go) whose
// parameters all have defaults, so Call(name) builds what its tests build
// by default.
func (m *Module) IsDefaultCase(name string) bool {
	f, ok := m.facs[name]
	if !ok || f.cls == nil {
		return false
	}
	for _, p := range f.params {
		if p.def == nil {
			return false
		}
	}
	return true
}

// Tests lists the pytest tests of the module that build a program, by
// pytest's ids (Class::test_name[param-ids]; "/k" tells apart the k-th
// program one test builds), in the order pytest collects them. Program
// builds each.
func (m *Module) Tests() []string {
	out := make([]string, len(m.tests))
	for i, t := range m.tests {
		out[i] = t.id
	}
	return out
}

// TestsCalling lists the tests whose program the factory or test case
// called name builds.
func (m *Module) TestsCalling(name string) []string {
	var out []string
	for _, t := range m.tests {
		if t.callee == name {
			out = append(out, t.id)
		}
	}
	return out
}

// Program returns the program called name: a program of the module, or
// the one a test (an id Tests lists) builds.
func (m *Module) Program(name string) (*ir.Program, error) {
	if p, ok := m.progs[name]; ok {
		return p, nil
	}
	if err, ok := m.errs[name]; ok {
		return nil, err
	}
	if t, ok := m.testByID[name]; ok {
		return m.testProgram(t)
	}
	if _, ok := m.facs[name]; ok {
		return nil, fmt.Errorf("%s: %s is a factory; call it with Call(%q, args...)", m.File, name, name)
	}
	has := strings.Join(m.order, ", ")
	if len(m.tests) > 0 {
		has += fmt.Sprintf(", and %d pytest tests that build one, by id: Tests() lists them", len(m.tests))
	}
	return nil, fmt.Errorf("%s: no program named %q (the module has %s)", m.File, name, has)
}

// testProgram builds (once) the program of test t.
func (m *Module) testProgram(t *pyTest) (prog *ir.Program, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.testProgs[t.id]; ok {
		return p, nil
	}
	if err, ok := m.errs[t.id]; ok {
		return nil, err
	}
	defer func() {
		if err != nil {
			m.errs[t.id] = err
		} else {
			m.testProgs[t.id] = prog
		}
	}()
	defer m.r.recoverTo(&err)
	return m.r.buildTest(t), nil
}

// Call builds the program a factory returns, binding args (Go ints, floats,
// bools, strings) to its parameters in order; missing ones take their
// Python defaults.
func (m *Module) Call(name string, args ...any) (prog *ir.Program, err error) {
	f, ok := m.facs[name]
	if !ok {
		if _, isProg := m.progs[name]; isProg {
			return nil, fmt.Errorf("%s: %s is a program, not a factory; use Program(%q)", m.File, name, name)
		}
		return nil, fmt.Errorf("%s: no factory named %q (the module has %s)", m.File, name, strings.Join(m.order, ", "))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	defer m.r.recoverTo(&err)
	return m.r.callFactory(f, args), nil
}

// Parse reads PyPTO source; file names it in messages.
func Parse(file string, src []byte) (mod *Module, err error) {
	return parse(file, src, &loader{})
}

// parse reads one file of a load; ld holds the files it imports.
func parse(file string, src []byte, ld *loader) (mod *Module, err error) {
	return parseAs(file, src, ld, false)
}

// parseImported reads a file another imports: its top level, not its
// programs.
func parseImported(file string, src []byte, ld *loader) (*Module, error) {
	return parseAs(file, src, ld, true)
}

func parseAs(file string, src []byte, ld *loader, imported bool) (mod *Module, err error) {
	r := &reader{source: newSource(file, src), loader: ld, imported: imported, domainsOf: map[*ir.Function]*fnCtx{}, strictFns: map[*ir.Function]bool{}}
	defer r.recoverTo(&err)
	root, err := parseNodes(src)
	if err != nil {
		return nil, err
	}
	if root.HasError() {
		r.syntaxError(root)
	}
	r.checkIndent(root)
	return r.module(root), nil
}

// Load reads a PyPTO file, and the files beside it that it imports
// (imports.go).
func Load(path string) (*Module, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return parse(path, src, &loader{dir: filepath.Dir(path), opening: []string{abs}, shown: []string{path}})
}

// recoverTo turns a reading panic into the returned error. Any other panic
// is a reader bug; it still becomes an error (the session lives on).
func (r *reader) recoverTo(err *error) {
	if x := recover(); x != nil {
		if e, ok := x.(*Error); ok {
			*err = e
			return
		}
		*err = &Error{File: r.lastFileOr(), Line: r.lastLine, Col: r.lastCol, Msg: fmt.Sprintf("internal error reading this construct: %v\n%s", x, firstFrames(debug.Stack()))}
	}
}

func firstFrames(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	if len(lines) > 12 {
		lines = lines[:12]
	}
	return strings.Join(lines, "\n")
}

// module walks the top level: constants, programs, jit functions,
// factories; everything else is skipped.
func (r *reader) module(root *node) *Module {
	m := &Module{File: r.file, r: r, progs: map[string]*ir.Program{}, facs: map[string]*factory{}, errs: map[string]error{}}
	r.facs = m.facs
	r.mod = m
	r.jitNames, r.progNames = map[string]bool{}, map[string]bool{}
	r.progBuilds = map[string]func() *ir.Program{}
	r.helpers = map[string]*factory{}
	r.cases = map[string]*caseClass{}
	r.enumImports = map[string]enumRef{}
	r.topNames = r.topLevelNames(root)
	var jits []*jitFunc
	add := func(name string, n *node) {
		for _, o := range m.order {
			if o == name {
				r.fail(n, "%s is defined twice in this module", name)
			}
		}
		m.order = append(m.order, name)
	}
	for i := uint(0); i < root.NamedChildCount(); i++ {
		n := root.NamedChild(i)
		if n.Kind() != "decorated_definition" {
			continue
		}
		if def := n.ChildByFieldId(fldDefinition); r.decoratorName(n) == "pl.function" && def.Kind() == "function_definition" {
			name := r.text(def.ChildByFieldId(fldName))
			r.modFuncs[name] = &pyFunc{dec: n, def: def, env: r.globalEnv(), name: name}
		}
	}
	for i := uint(0); i < root.NamedChildCount(); i++ {
		n := root.NamedChild(i)
		switch n.Kind() {
		case "import_statement":
			r.importStmt(n)
		case "import_from_statement":
			r.importStmt(n)
			r.importFrom(n)
		case "expression_statement":
			r.moduleAssign(n)
		case "decorated_definition":
			def := n.ChildByFieldId(fldDefinition)
			dec := r.decoratorName(n)
			switch {
			case dec == "pl.program" && def.Kind() == "class_definition":
				name := r.text(def.ChildByFieldId(fldName))
				add(name, n)
				r.progNames[name] = true
				r.progBuilds[name] = func() *ir.Program { return r.programClass(n, r.globalEnv(), false) }
				r.buildEntry(m, name, r.progBuilds[name])
			case dec == "pl.function" && def.Kind() == "function_definition":
				name := r.text(def.ChildByFieldId(fldName))
				add(name, n)
				r.progBuilds[name] = func() *ir.Program { return r.functionProgram(n, r.globalEnv()) }
				r.buildEntry(m, name, r.progBuilds[name])
			case (dec == "pl.inline" || dec == "pl.jit.inline") && def.Kind() == "function_definition":
				h := r.inlineDecl(def, dec)
				if r.inlines[h.name] != nil {
					r.fail(n, "inline function %s is defined twice in this module", h.name)
				}
				r.inlines[h.name] = h
			case strings.HasPrefix(dec, "pl.jit") && def.Kind() == "function_definition":
				jf := r.jitDecl(n, dec)
				jits = append(jits, jf)
				r.jitNames[jf.name] = true
				if jf.kind != "host" {
					m.kernels = append(m.kernels, jf.name)
				}
			}
		case "class_definition":
			if f := r.caseDecl(n); f != nil {
				add(f.name, n)
				m.facs[f.name] = f
			}
		case "function_definition":
			switch f := r.factoryDecl(n); {
			case f == nil:
			case f.helper:
				// A plain def: run only when a factory calls it.
				r.helpers[f.name] = f
			default:
				add(f.name, n)
				m.facs[f.name] = f
			}
		}
	}
	if r.imported {
		return m
	}
	r.scanSamples(root)
	m.tests = r.collectTests(root)
	m.definers, m.definerOrder, m.definerClass = r.collectDefiners(root)
	m.testByID, m.testProgs = map[string]*pyTest{}, map[string]*ir.Program{}
	for _, t := range m.tests {
		m.testByID[t.id] = t
	}
	m.jits = r.jitByName(jits)
	entries := r.jitEntries(jits)
	m.entries = map[string]bool{}
	for _, j := range entries {
		m.entries[j.name] = true
	}
	for _, e := range r.jitPrograms(entries, m.jits) {
		add(e.name, root)
		if e.err != nil {
			m.errs[e.name] = e.err
			continue
		}
		m.progs[e.name] = e.prog
	}
	return m
}

// topLevelNames are the names the statements at the file's top level
// bind, as Python would: def and class names, assignment targets (tuples
// unpacked), import aliases, and those bound under if/for/with/try there.
func (r *reader) topLevelNames(root *node) map[string]bool {
	names := map[string]bool{}
	var target func(n *node)
	target = func(n *node) {
		switch n.Kind() {
		case "identifier":
			names[r.text(n)] = true
		case "pattern_list", "tuple_pattern", "tuple", "list_pattern", "list", "parenthesized_expression":
			for _, k := range r.kids(n) {
				target(k)
			}
		}
	}
	var walk func(n *node)
	walk = func(n *node) {
		for _, s := range r.kids(n) {
			switch s.Kind() {
			case "function_definition", "class_definition":
				target(s.ChildByFieldId(fldName))
			case "decorated_definition":
				if def := s.ChildByFieldId(fldDefinition); def != nil {
					target(def.ChildByFieldId(fldName))
				}
			case "expression_statement":
				if a := s.NamedChild(0); a != nil && a.Kind() == "assignment" {
					target(a.ChildByFieldId(fldLeft))
				}
			case "import_statement", "import_from_statement":
				for _, k := range r.kids(s) {
					switch k.Kind() {
					case "aliased_import":
						target(k.ChildByFieldId(fldAlias))
					case "dotted_name":
						if parts := r.kids(k); len(parts) > 0 {
							target(parts[len(parts)-1]) // from m import name
							target(parts[0])            // import pkg.mod binds pkg
						}
					}
				}
			case "if_statement", "for_statement", "while_statement", "with_statement", "try_statement", "block", "else_clause", "elif_clause", "except_clause", "finally_clause":
				if s.Kind() == "for_statement" {
					target(s.ChildByFieldId(fldLeft))
				}
				walk(s)
			}
		}
	}
	walk(root)
	return names
}

// buildEntry builds one program of the module. A reading error fails that
// program alone (Program(name) returns it, and the module prints it where
// the program would be), so a file's other programs still open.
func (r *reader) buildEntry(m *Module, name string, build func() *ir.Program) {
	if r.imported {
		return
	}
	var err error
	p := func() *ir.Program {
		defer r.recoverTo(&err)
		return build()
	}()
	if err != nil {
		m.errs[name] = err
		return
	}
	m.progs[name] = p
}

func (r *reader) importStmt(n *node) {
	// import pypto.language as pl / import pypto.language.distributed as pld /
	// from pypto import language as pl
	t := strings.Join(strings.Fields(r.text(n)), " ")
	switch {
	case strings.HasPrefix(t, "import pypto.language.distributed as "):
		r.alias[strings.TrimPrefix(t, "import pypto.language.distributed as ")] = "pld"
	case strings.HasPrefix(t, "import pypto.language as "):
		r.alias[strings.TrimPrefix(t, "import pypto.language as ")] = "pl"
	case strings.HasPrefix(t, "from pypto import language as "):
		r.alias[strings.TrimPrefix(t, "from pypto import language as ")] = "pl"
	case strings.HasPrefix(t, "import pypto.language.distributed"), strings.HasPrefix(t, "import pypto.language"):
	default:
		// import torch / import numpy as np: a module ptorepl does not
		// read, whose names are opaque symbols (torch.float32).
		for _, c := range r.kids(n) {
			switch c.Kind() {
			case "dotted_name":
				name := r.text(c)
				root, _, _ := strings.Cut(name, ".")
				r.foreign[root] = root
			case "aliased_import":
				r.foreign[r.text(c.ChildByFieldId(fldAlias))] = r.text(c.ChildByFieldId(fldName))
			}
		}
	}
}

// moduleAssign records NAME = expr; a value this reader cannot evaluate is
// remembered as an error raised only if a program uses it.
func (r *reader) moduleAssign(n *node) {
	a := n.NamedChild(0)
	if a == nil || a.Kind() != "assignment" {
		return
	}
	left := a.ChildByFieldId(fldLeft)
	right := a.ChildByFieldId(fldRight)
	if left == nil || right == nil {
		return
	}
	if left.Kind() == "identifier" {
		r.binding = r.text(left)
	}
	v, err := r.tryEval(right, r.globalEnv())
	r.binding = ""
	r.bindConst(left, v, err)
}

// bindConst binds a module-level assignment target to v: a name, or a
// tuple of names unpacking a tuple of as many values (M, N = 32, 64). A
// value this reader cannot evaluate is remembered as an error raised only
// if a program uses the name.
func (r *reader) bindConst(left *node, v value, err error) {
	switch left.Kind() {
	case "identifier":
		if err != nil {
			r.consts[r.text(left)] = unevaluable{err}
			return
		}
		r.consts[r.text(left)] = v
	case "pattern_list", "tuple_pattern", "tuple", "list_pattern", "list":
		names := r.kids(left)
		var vals []value
		switch t := v.(type) {
		case pyTuple:
			vals = t
		case pyList:
			vals = t
		}
		for i, n := range names {
			if err == nil && len(vals) != len(names) {
				err = fmt.Errorf("%s: %d names for %d values", r.text(left), len(names), len(vals))
			}
			var e value
			if err == nil {
				e = vals[i]
			}
			r.bindConst(n, e, err)
		}
	}
}

func (r *reader) tryEval(n *node, env *env) (v value, err error) {
	defer r.recoverTo(&err)
	return r.eval(n, env), nil
}

// decoratorName is the dotted name of a definition's first PyPTO decorator
// ("pl.program", "pl.jit.host", "pl.function").
func (r *reader) decoratorName(n *node) string {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		d := n.NamedChild(i)
		if d.Kind() != "decorator" {
			continue
		}
		e := d.NamedChild(0)
		if e != nil && e.Kind() == "call" {
			e = e.ChildByFieldId(fldFunction)
		}
		if name := r.dotted(e); strings.HasPrefix(name, "pl.") {
			return name
		}
	}
	return ""
}

func (r *reader) decorator(n *node) *node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if d := n.NamedChild(i); d.Kind() == "decorator" {
			return d.NamedChild(0)
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
