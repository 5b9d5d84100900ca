//go:build cgo

package pyfront

import (
	"fmt"
	"github.com/ptorepl/ptorepl/ir"
	"os"
	"path/filepath"
	"strings"
)

// Files beside a kernel. Upstream's model examples split a program over a
// package: constants in one file, @pl.jit.inline kernels in others, the
// entry in a third (from .config import BATCH; from .kernels.rmsnorm
// import input_rmsnorm). The reader opens such a file once per load,
// reads its top level without building its programs, and binds the names
// imported: constants by value, helpers as themselves. A helper keeps its
// own file: while it is spliced the reader reads that file's text and
// globals (Python's __globals__), so its names mean what they mean there
// and its errors and spans name it.

// source is one file as the reader reads it: its text and the names its
// top level binds.
type source struct {
	file   string
	src    []byte
	consts map[string]value
	alias  map[string]string
	// inlines are the file's @pl.inline and @pl.jit.inline helpers and
	// the ones it imports, by name (inline.go).
	inlines map[string]*inlineHelper
	// modFuncs are the module's top-level @pl.function kernels: a program
	// whose functions call one by name holds it too, as upstream adds a
	// module-level kernel to the program that calls it.
	modFuncs map[string]*pyFunc
	// foreign maps a name imported from a module ptorepl does not read
	// to that module: its attributes are opaque symbols (pydata.go).
	foreign map[string]string
}

func newSource(file string, src []byte) source {
	return source{
		file: file, src: src,
		consts:   map[string]value{},
		alias:    map[string]string{"pl": "pl", "pld": "pld"},
		inlines:  map[string]*inlineHelper{},
		modFuncs: map[string]*pyFunc{},
		foreign:  map[string]string{},
	}
}

// importError is why an imported name has no value ptorepl can use; it
// is raised where a program uses the name.
type importError string

func (e importError) Error() string { return string(e) }

// loader holds the files one load has opened, by absolute path.
type loader struct {
	dir   string // the opened file's directory; "" for source text
	files map[string]*reader
	// opening is the import chain being read, by absolute path (for
	// cycles), and shown as the files were named.
	opening, shown []string
}

// enter makes r read home's file until the returned func runs.
func (r *reader) enter(home *reader) (leave func()) {
	if home == nil || home == r {
		return func() {}
	}
	saved := r.source
	r.source = home.source
	return func() { r.source = saved }
}

func (r *reader) lastFileOr() string {
	if r.lastFile != "" {
		return r.lastFile
	}
	return r.file
}

// importFrom reads `from M import a, b as c` for a module M that is not
// PyPTO's own: a file beside this one (relative, or found from the opened
// file's directory as Python finds a script's neighbours) is read and its
// names bound; names from anything else (torch, typing, pypto.runtime)
// are bound to an error raised only if a program uses them.
func (r *reader) importFrom(n *node) {
	kids := r.kids(n)
	if len(kids) == 0 {
		return
	}
	mod := kids[0]
	dots, dotted := 0, r.text(mod)
	if mod.Kind() == "relative_import" {
		dotted = ""
		for _, c := range r.kids(mod) {
			switch c.Kind() {
			case "import_prefix":
				dots = len(strings.TrimSpace(r.text(c)))
			case "dotted_name":
				dotted = r.text(c)
			}
		}
	}
	if dots == 0 && (dotted == "pypto" || strings.HasPrefix(dotted, "pypto.")) {
		if !strings.HasPrefix(dotted, "pypto.language") {
			// PyPTO's own non-DSL modules (pypto.pypto_core.passes'
			// MemoryPlanner, a test's default argument): their names are
			// opaque symbols, as a foreign module's.
			for _, c := range kids[1:] {
				if c.Kind() == "dotted_name" || c.Kind() == "aliased_import" {
					as := r.text(c)
					if c.Kind() == "aliased_import" {
						as = r.text(c.ChildByFieldId(fldAlias))
					}
					r.consts[as] = unevaluable{importError(fmt.Sprintf("%s comes from %s, which ptorepl does not read", as, dotted))}
					r.foreign[as] = dotted
				}
			}
		}
		return
	}
	spelled := strings.Repeat(".", dots) + dotted
	var from *reader
	switch path, err := r.modulePath(dots, dotted); {
	case err != nil:
		r.fail(mod, "from %s import: %v", spelled, err)
	case path != "":
		from = r.openImport(mod, spelled, path)
	case dots > 0:
		r.fail(mod, "from %s import: no file %s beside %s", spelled, relPath(dots, dotted), r.file)
	}
	for _, c := range kids[1:] {
		name, as := r.text(c), r.text(c)
		switch c.Kind() {
		case "aliased_import":
			name = r.text(c.ChildByFieldId(fldName))
			as = r.text(c.ChildByFieldId(fldAlias))
		case "wildcard_import":
			if from != nil {
				r.fail(c, "from %s import *: name what this file uses (from %s import A, B)", spelled, spelled)
			}
			continue
		case "dotted_name":
		default:
			continue
		}
		if from == nil {
			r.consts[as] = unevaluable{importError(fmt.Sprintf("%s comes from %s, which ptorepl does not read (it reads PyPTO files, and the files beside them that they import)", as, spelled))}
			r.foreign[as] = spelled
			continue
		}
		r.bindImported(from, spelled, name, as)
	}
}

// bindImported binds as to from's top-level name.
func (r *reader) bindImported(from *reader, spelled, name, as string) {
	if h := from.inlines[name]; h != nil {
		r.inlines[as] = h
		delete(r.consts, as)
		return
	}
	if v, ok := from.consts[name]; ok {
		// A kernel a factory of that file made (k = make_k(...)) is read
		// there.
		r.consts[as] = withHome(v, from)
		delete(r.inlines, as)
		return
	}
	if f := from.facs[name]; f != nil {
		r.consts[as] = importedFactory{home: from, f: f}
		return
	}
	if h := from.helpers[name]; h != nil {
		// A plain def computing values (a shape helper): run in its file.
		r.consts[as] = importedFactory{home: from, f: h}
		return
	}
	if pf := from.modFuncs[name]; pf != nil {
		if as != name {
			r.consts[as] = unevaluable{importError(fmt.Sprintf("%s is a @pl.function kernel of %s imported as %s; a program calls an imported kernel by its own name (from ... import %s)", name, from.file, as, name))}
			return
		}
		home := from
		if pf.home != nil {
			home = pf.home // imported there from a third file
		}
		r.modFuncs[as] = &pyFunc{dec: pf.dec, def: pf.def, env: pf.env, name: pf.name, home: home}
		delete(r.consts, as)
		// A top-level @pl.function is a program of its own too, which a
		// test case may return; a program that calls it takes it in.
		if b := from.progBuilds[name]; b != nil {
			r.consts[as] = &importedProgram{home: from, name: name, build: b}
		}
		return
	}
	if b := from.progBuilds[name]; b != nil {
		r.consts[as] = &importedProgram{home: from, name: name, build: b}
		return
	}
	what := ""
	if from.jitNames[name] {
		what = "a @pl.jit function"
	}
	if what != "" {
		r.consts[as] = unevaluable{importError(fmt.Sprintf("%s is %s of %s; ptorepl imports constants, @pl.inline / @pl.jit.inline helpers, "+
			"@pl.function kernels, program factories and @pl.program classes from other files, and builds @pl.jit functions from the file it opens", name, what, from.file))}
		return
	}
	if c := from.cases[name]; c != nil && c.members != nil {
		// An enum (a harness's DataType): its members are values.
		r.enumImports[as] = enumRef{home: from, class: name}
	}
	// A class or function of plain Python: its attributes are opaque
	// symbols, as a foreign module's names.
	r.consts[as] = unevaluable{importError(fmt.Sprintf("%s is not a constant or a PyPTO helper of %s", name, from.file))}
	r.foreign[as] = spelled
}

// importedFactory is a program factory (or test-case class) of another
// file: a call runs it there, among that file's names.
type importedFactory struct {
	home *reader
	f    *factory
}

func (importedFactory) String() string { return "an imported program factory" }

// importedProgram is a @pl.program class (or top-level @pl.function) of
// another file, built in that file the first time it is used.
type importedProgram struct {
	home  *reader
	name  string
	build func() *ir.Program
	prog  *ir.Program
	err   error
}

func (p *importedProgram) String() string { return "the @pl.program " + p.name + " of " + p.home.file }

// program builds p once; its reading error is this file's error at at.
func (r *reader) importedProgramAt(at *node, p *importedProgram) *ir.Program {
	if p.prog == nil && p.err == nil {
		p.prog = func() *ir.Program {
			defer p.home.recoverTo(&p.err)
			return p.build()
		}()
	}
	if p.err != nil {
		r.fail(at, "%s could not be built: %v", p.name, p.err)
	}
	return p.prog
}

// runImported runs an imported factory with this file's arguments; its
// errors carry its own file's positions.
func (r *reader) runImported(imp importedFactory, pos []value, kws []kwArg) value {
	return withHome(imp.home.runFactory(imp.f, imp.f.def, pos, kws), imp.home)
}

// withHome marks a kernel v that another file's factory made (make_k(...))
// as read in that file, home; other values are as they are.
func withHome(v value, home *reader) value {
	if pf, ok := v.(*pyFunc); ok && pf.home == nil {
		cp := *pf
		cp.home = home
		return &cp
	}
	return v
}

// modulePath is the file a module name refers to: for dots > 0 relative
// to this file's directory (each dot past the first one directory up),
// else relative to the opened file's directory; "" when there is none.
func (r *reader) modulePath(dots int, dotted string) (string, error) {
	var base string
	if dots > 0 {
		if r.loader.dir == "" {
			return "", fmt.Errorf("a relative import needs the file's directory: open the file (pl.LoadPython, :load, ptorepl run FILE.py) rather than its text")
		}
		base = filepath.Dir(r.file)
		for i := 1; i < dots; i++ {
			base = filepath.Dir(base)
		}
	} else {
		if r.loader.dir == "" {
			return "", nil
		}
		// An absolute import is found beside the opened file, as Python
		// finds a script's neighbours, or from the root of the project
		// the file is in, as pytest puts its rootdir on sys.path: each
		// directory up to the nearest one holding a project marker. Of a
		// file there that is not PyPTO (a test harness) only constants
		// are used; its classes and functions are opaque names.
		for _, dir := range projectDirs(r.loader.dir) {
			if p := moduleFile(dir, dotted); p != "" {
				return p, nil
			}
		}
		return "", nil
	}
	return moduleFile(base, dotted), nil
}

// moduleFile is dotted's file (a.b: a/b.py, or the package a/b/__init__.py)
// under base, or "".
func moduleFile(base, dotted string) string {
	rel := filepath.Join(strings.Split(dotted, ".")...)
	for _, p := range []string{filepath.Join(base, rel) + ".py", filepath.Join(base, rel, "__init__.py")} {
		if dotted == "" && strings.HasSuffix(p, ".py") && !strings.HasSuffix(p, "__init__.py") {
			continue
		}
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return numberedModule(base, dotted)
}

// numberedModule finds pkg.name as the one file NN_name.py of package pkg:
// upstream's examples are numbered (examples/models/04_paged_attention.py)
// and each package's __init__.py registers the plain name as an alias of
// the numbered module at import time, which is how its tests import them
// (from examples.models.paged_attention import ...).
func numberedModule(base, dotted string) string {
	parts := strings.Split(dotted, ".")
	if len(parts) < 2 {
		return ""
	}
	pkg := filepath.Join(append([]string{base}, parts[:len(parts)-1]...)...)
	if _, err := os.Stat(filepath.Join(pkg, "__init__.py")); err != nil {
		return ""
	}
	ents, err := os.ReadDir(pkg)
	if err != nil {
		return ""
	}
	found := ""
	for _, e := range ents {
		n := e.Name()
		digits := len(n) - len(strings.TrimLeft(n, "0123456789"))
		if digits == 0 || e.IsDir() || n[digits:] != "_"+parts[len(parts)-1]+".py" {
			continue
		}
		if found != "" {
			return "" // two candidates: no alias to pick
		}
		found = filepath.Join(pkg, n)
	}
	return found
}

// importsPyPTO reports whether the Python file at path imports PyPTO's
// language (pypto.language, or language from pypto) at its top level.
func importsPyPTO(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == ' ' || line[0] == '\t' {
			continue // a module-level import only, not one inside a function
		}
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "import" && (f[1] == "pypto.language" || strings.HasPrefix(f[1], "pypto.language.")),
			len(f) >= 4 && f[0] == "from" && (f[1] == "pypto.language" || strings.HasPrefix(f[1], "pypto.language.")) && f[2] == "import",
			len(f) >= 4 && f[0] == "from" && f[1] == "pypto" && f[2] == "import" && strings.HasPrefix(strings.TrimLeft(strings.Join(f[3:], " "), "( "), "language"):
			return true
		}
	}
	return false
}

// projectMarkers are the files that make a directory a Python project's
// root (pytest's rootdir is found by them too).
var projectMarkers = []string{"pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini", ".git"}

// projectDirs are dir and, when an ancestor holds a project marker, every
// directory up to the nearest such one, innermost first.
func projectDirs(dir string) []string {
	dirs := []string{dir}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dirs
	}
	for d := abs; ; {
		for _, m := range projectMarkers {
			if _, err := os.Stat(filepath.Join(d, m)); err == nil {
				if d == abs {
					return dirs
				}
				return append(dirs, ancestorsUpTo(abs, d)...)
			}
		}
		up := filepath.Dir(d)
		if up == d {
			return dirs // no project: the file's own directory only
		}
		d = up
	}
}

// ancestorsUpTo lists the directories above dir up to and including root.
func ancestorsUpTo(dir, root string) []string {
	var out []string
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		out = append(out, d)
		if d == root || filepath.Dir(d) == d {
			return out
		}
	}
}

func relPath(dots int, dotted string) string {
	p := strings.Repeat("../", dots-1)
	if dotted == "" {
		return p + "__init__.py"
	}
	return p + strings.ReplaceAll(dotted, ".", "/") + ".py"
}

// openImport reads path once per load; a file importing itself through a
// chain is an error naming the chain.
func (r *reader) openImport(at *node, spelled, path string) *reader {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	ld := r.loader
	for i, o := range ld.opening {
		if o == abs {
			chain := append(append([]string(nil), ld.shown[i:]...), path)
			r.fail(at, "from %s import: import cycle %s", spelled, strings.Join(chain, " -> "))
		}
	}
	if f := ld.files[abs]; f != nil {
		return f
	}
	src, err := os.ReadFile(path)
	if err != nil {
		r.fail(at, "from %s import: %v", spelled, err)
	}
	ld.opening, ld.shown = append(ld.opening, abs), append(ld.shown, path)
	defer func() { ld.opening, ld.shown = ld.opening[:len(ld.opening)-1], ld.shown[:len(ld.shown)-1] }()
	m, err := parseImported(path, src, ld)
	if err != nil {
		// The imported file's own error, with its own position.
		panic(err)
	}
	if ld.files == nil {
		ld.files = map[string]*reader{}
	}
	ld.files[abs] = m.r
	return m.r
}
