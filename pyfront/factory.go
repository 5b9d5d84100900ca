//go:build cgo

package pyfront

import (
	"github.com/ptorepl/ptorepl/ir"
	"strings"
)

// Factories, as upstream's examples write them: a def whose body computes
// constants from its parameters, defines @pl.function kernels and a
// @pl.program class that calls them by name, may call other factories
// (make_kernel_x(...) returning a @pl.function), and returns the class or
// the function. It runs at compile time: its parameters and locals are
// closure constants of what it defines.

// factory is a def that defines and returns a @pl.program class or a
// @pl.function.
type factory struct {
	name   string
	def    *node
	params []factoryParam
	// helper marks a plain module-level def (no PyPTO definition inside)
	// that a factory calls to compute values: its return value may be any
	// Python value the reader knows.
	helper bool
	// cls is set for a test-case class (cases.go).
	cls *caseClass
}

// noneReturned is what factoryBlock gives for a helper's bare return:
// the call's value is None, unlike falling off the end of a helper the
// reader runs for its value.
type noneReturned struct{}

// returned is the value a helper's return statement gave: None for a bare
// return.
func returned(v value) value {
	if _, none := v.(noneReturned); none {
		return nil
	}
	return v
}

type factoryParam struct {
	name string
	def  *node // default value, or nil
}

// pyFunc is a @pl.function a factory defined: built into the program
// whose class calls it, with the factory's scope. home is the reader of
// the file it is written in when another file imported it (nil: this
// file's); its nodes are read there.
type pyFunc struct {
	dec, def *node
	env      *env
	name     string
	home     *reader
}

func (r *reader) factoryDecl(def *node) *factory {
	body := def.ChildByFieldId(fldBody)
	isFactory := false
	for _, c := range r.kids(body) {
		if c.Kind() == "decorated_definition" {
			if d := r.decoratorName(c); d == "pl.program" || d == "pl.function" {
				isFactory = true
			}
		}
	}
	f := &factory{name: r.text(def.ChildByFieldId(fldName)), def: def, helper: !isFactory}
	for _, p := range r.kids(def.ChildByFieldId(fldParameters)) {
		if p.Kind() == "keyword_separator" {
			// def build(n, *, op=...): the parameters after * are keyword-only
			// in Python; Go arguments bind to them in order all the same.
			continue
		}
		name, dflt, ok := r.param(p)
		if !ok {
			if f.helper {
				return nil // *args and the like: not a helper the reader runs
			}
			r.fail(p, "factory %s: unsupported parameter %s", f.name, r.text(p))
		}
		f.params = append(f.params, factoryParam{name: name, def: dflt})
	}
	return f
}

// param is a def parameter's name and default value (nil without one); ok
// is false for the kinds a PyPTO def does not take (*args, **kwargs, /).
func (r *reader) param(p *node) (name string, dflt *node, ok bool) {
	switch p.Kind() {
	case "identifier":
		return r.text(p), nil, true
	case "typed_parameter":
		return r.text(r.kids(p)[0]), nil, true
	case "default_parameter", "typed_default_parameter":
		return r.text(p.ChildByFieldId(fldName)), p.ChildByFieldId(fldValue), true
	}
	return "", nil, false
}

// callFactory builds the program a factory returns from Go arguments (a
// returned function becomes a program of that one function).
func (r *reader) callFactory(f *factory, args []any) *ir.Program {
	vals := make([]value, len(args))
	for i, a := range args {
		v, err := goValue(a)
		if err != nil {
			name := "?"
			if i < len(f.params) {
				name = f.params[i].name
			}
			r.fail(f.def, "%s argument %s: %v", f.name, name, err)
		}
		vals[i] = v
	}
	switch v := r.runFactory(f, f.def, vals, nil).(type) {
	case *ir.Program:
		return v
	case *pyFunc:
		defer r.enter(v.home)() // a kernel another file's factory made is read there
		return r.functionProgram(v.dec, v.env)
	}
	r.fail(f.def, "factory %s returns no program", f.name)
	return nil
}

// runFactory runs a factory's body on Python values (positional, then
// keyword) and returns what it returns: a program or a function.
func (r *reader) runFactory(f *factory, at *node, pos []value, kws []kwArg) value {
	if f.cls != nil {
		return r.runCase(f, at, pos, kws)
	}
	e := r.globalEnv()
	r.bindParams(f, at, pos, kws, e)
	if v := r.factoryBlock(f, f.def.ChildByFieldId(fldBody), e); v != nil {
		return returned(v)
	}
	if f.helper {
		r.fail(at, "%s returns no value", f.name)
	}
	r.fail(f.def, "factory %s returns no program", f.name)
	return nil
}

// moduleProgram is the module-level @pl.program class n names (nil: n
// names none), as a test case's get_program returns it.
func (r *reader) moduleProgram(n *node) *ir.Program {
	name := r.text(n)
	if r.mod == nil || !r.progNames[name] {
		return nil
	}
	if err := r.mod.errs[name]; err != nil {
		r.fail(n, "%s could not be built: %v", name, err)
	}
	return r.mod.progs[name]
}

// bindParams binds a factory's parameters in e: positional values, then
// keyword ones, then Python defaults.
func (r *reader) bindParams(f *factory, at *node, pos []value, kws []kwArg, e *env) {
	if len(pos) > len(f.params) {
		r.fail(at, "%s takes %d arguments, given %d", f.name, len(f.params), len(pos))
	}
	for i, v := range pos {
		e.vars[f.params[i].name] = v
	}
	for _, k := range kws {
		found := false
		for i, p := range f.params {
			if p.name == k.name {
				if i < len(pos) {
					r.fail(k.node, "%s: argument %s given twice", f.name, k.name)
				}
				e.vars[p.name] = k.val
				found = true
			}
		}
		if !found {
			r.fail(k.node, "%s: unknown keyword %s", f.name, k.name)
		}
	}
	for _, p := range f.params {
		if _, ok := e.vars[p.name]; ok {
			continue
		}
		if p.def == nil {
			r.fail(at, "%s: missing argument %s (no default)", f.name, p.name)
		}
		e.vars[p.name] = r.eval(p.def, e)
	}
}

// factoryBlock runs the statements of a factory body (or of the branch a
// compile-time if picks) in e and returns what a return statement among
// them returns (nil when none does).
func (r *reader) factoryBlock(f *factory, body *node, e *env) value {
	if body == nil {
		return nil
	}
	for _, c := range r.kids(body) {
		switch c.Kind() {
		case "decorated_definition":
			def := c.ChildByFieldId(fldDefinition)
			name := r.text(def.ChildByFieldId(fldName))
			switch dec := r.decoratorName(c); {
			case dec == "pl.program" && def.Kind() == "class_definition":
				e.vars[name] = r.programClass(c, e, true)
			case dec == "pl.function" && def.Kind() == "function_definition":
				e.vars[name] = &pyFunc{dec: c, def: def, env: e, name: name}
			default:
				r.fail(c, "factory %s: only @pl.program classes and @pl.function kernels may be defined inside", f.name)
			}
		case "expression_statement":
			x := r.kids(c)[0]
			switch x.Kind() {
			case "string":
				continue
			case "assignment":
				left, right := x.ChildByFieldId(fldLeft), x.ChildByFieldId(fldRight)
				if right == nil {
					r.fail(x, "factory %s: unsupported assignment", f.name)
				}
				switch left.Kind() {
				case "identifier":
					e.vars[r.text(left)] = r.eval(right, e)
				case "pattern_list", "tuple_pattern":
					// M, N = _M, _N: Python unpacks the tuple.
					names := r.kids(left)
					vals, _ := seqOf(r.eval(right, e)).([]value)
					if len(vals) != len(names) {
						r.fail(x, "factory %s: %d names unpack %s", f.name, len(names), r.text(right))
					}
					for i, nn := range names {
						if nn.Kind() != "identifier" {
							r.fail(nn, "factory %s: unsupported assignment target %s", f.name, r.text(nn))
						}
						e.vars[r.text(nn)] = vals[i]
					}
				default:
					r.fail(x, "factory %s: unsupported assignment", f.name)
				}
				continue
			case "call":
				// A call for its effect (a hook's metafunc.parametrize).
				r.eval(x, e)
				continue
			}
			r.fail(c, "factory %s: unsupported statement", f.name)
		case "if_statement":
			// Python runs the factory: its conditions are values here.
			if v := r.factoryBlock(f, r.factoryBranch(f, c, e), e); v != nil {
				return v
			}
		case "try_statement":
			// The body runs as Python would; when it raises, the read
			// stops with that (the except clauses are not run).
			if v := r.factoryBlock(f, c.ChildByFieldId(fldBody), e); v != nil {
				return v
			}
			for _, k := range r.kids(c) {
				var body *node
				switch k.Kind() {
				case "else_clause":
					body = k.ChildByFieldId(fldBody)
				case "finally_clause":
					body = r.kids(k)[len(r.kids(k))-1] // its block has no field name
				}
				if v := r.factoryBlock(f, body, e); v != nil {
					return v
				}
			}
		case "return_statement":
			ks := r.kids(c)
			if f.helper && len(ks) == 0 {
				return noneReturned{} // a bare return: the helper gives None
			}
			if f.helper {
				// A helper returns a value: `return a, b` is a tuple.
				if len(ks) != 1 {
					r.fail(c, "%s: a helper the reader runs must return a value", f.name)
				}
				return r.eval(ks[0], e)
			}
			if len(ks) == 1 && ks[0].Kind() == "identifier" {
				switch v := e.vars[r.text(ks[0])].(type) {
				case *ir.Program, *pyFunc:
					return v
				}
				if p := r.moduleProgram(ks[0]); p != nil {
					return p
				}
				if ip, ok := r.consts[r.text(ks[0])].(*importedProgram); ok {
					return r.importedProgramAt(ks[0], ip)
				}
			}
			if len(ks) == 1 && ks[0].Kind() != "identifier" {
				// return build_x(...) / return self.program /
				// return PROGRAMS[self.op]: what another factory, the
				// case's attribute or a table holds.
				v := r.eval(ks[0], e)
				switch p := v.(type) {
				case *ir.Program, *pyFunc:
					return v
				case *importedProgram:
					return r.importedProgramAt(ks[0], p)
				}
				if f.cls != nil {
					r.fail(c, "%s.get_program must return a @pl.program class, given %s", f.name, describe(v))
				}
			}
			if f.cls != nil {
				r.fail(c, "%s.get_program must return the @pl.program class it defines or a module-level one", f.name)
			}
			r.fail(c, "factory %s must return the @pl.program class or the @pl.function it defines", f.name)
		case "raise_statement":
			// Python would raise here: the read stops with what it raises.
			r.fail(c, "%s raises: %s", f.name, strings.TrimSpace(strings.TrimPrefix(r.text(c), "raise")))
		case "pass_statement", "comment":
		default:
			r.fail(c, "factory %s: unsupported statement %s", f.name, kindText(c.Kind()))
		}
	}
	return nil
}

// factoryBranch is the block an if/elif/else chain of a factory body picks
// (nil: none), its conditions evaluated as Python would.
func (r *reader) factoryBranch(f *factory, n *node, e *env) *node {
	truth := func(cond *node) bool {
		if t, ok := pyTruth(r.eval(cond, e)); ok {
			return t
		}
		r.fail(cond, "factory %s: an if condition must be a value known when the factory runs (a bool, number or string), given %s", f.name, r.text(cond))
		return false
	}
	if truth(n.ChildByFieldId(fldCondition)) {
		return n.ChildByFieldId(fldConsequence)
	}
	for _, a := range n.ChildrenByField(fldAlternative) {
		switch a.Kind() {
		case "elif_clause":
			if truth(a.ChildByFieldId(fldCondition)) {
				return a.ChildByFieldId(fldConsequence)
			}
		case "else_clause":
			return a.ChildByFieldId(fldBody)
		}
	}
	return nil
}

// freeFuncs lists the factory-defined functions the class body at n
// names, and those they name, callees before their callers (an
// unannotated function's return type is its callees').
// isCallee reports whether the identifier at all[i] is the function of a
// call: in the preorder a call's function is its first child, right after it.
func isCallee(all []node, i uint32) bool {
	return i > 0 && all[i-1].Kind() == "call" && all[i].field == fldFunction
}

func (r *reader) freeFuncs(n *node, e *env) []*pyFunc {
	var out []*pyFunc
	seen := map[*node]bool{} // by definition: an imported kernel is a copy naming its file
	var scan func(n *node, e *env, home *reader)
	scan = func(n *node, e *env, home *reader) {
		all := n.all()
		for i := n.index(); i < n.next; i++ {
			c := &all[i]
			if c.Kind() != "identifier" {
				continue
			}
			v, ok := e.lookup(r.text(c))
			if pf, isFn := r.consts[r.text(c)].(*pyFunc); !ok && isFn && isCallee(all, i) {
				// A module constant holding a kernel a factory made
				// (k = make_k(8)), called by name.
				v, ok = pf, true
			}
			if _, prog := v.(*importedProgram); !ok || prog {
				// A module-level @pl.function the program calls by name
				// (an imported one is bound as a program too).
				if mf := r.modFuncs[r.text(c)]; mf != nil && isCallee(all, i) {
					v, ok = mf, true
				}
			}
			pf, isFn := v.(*pyFunc)
			if !ok || !isFn || seen[pf.def] {
				continue
			}
			seen[pf.def] = true
			if pf.home == nil && home != nil {
				// Found while reading another file's kernel: it is that
				// file's too.
				cp := *pf
				cp.home = home
				pf = &cp
			}
			leave := r.enter(pf.home)
			scan(pf.def, pf.env, pf.home)
			leave()
			out = append(out, pf)
		}
	}
	scan(n, e, nil)
	return out
}
