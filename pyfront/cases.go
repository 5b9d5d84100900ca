//go:build cgo

package pyfront

import (
	"fmt"
	"strings"
)

// Test-case classes, as upstream's runtime tests write them: a class
// (usually a PTOTestCase) whose __init__ stores parameters on self and
// whose get_program(self) defines and returns a @pl.program class, or
// returns one a module-level factory builds. ptorepl treats such a class
// as a factory named after it: Call binds the __init__ parameters, runs
// the assignments to self that __init__ and the class body make, then runs
// get_program. The harness around it (define_tensors, compute_expected,
// torch) is skipped like any other Python.

// caseClass is a top-level class of the module: its class-level
// assignments and methods, and the class it extends when that is defined
// earlier in the module (a base from elsewhere, PTOTestCase, adds
// nothing ptorepl reads).
type caseClass struct {
	name string
	// base is the class after this one in its MRO (super()); mro is this
	// class and its bases in Python's lookup order.
	base  *caseClass
	mro   []*caseClass
	attrs []*node          // class-level assignments
	own   map[string]*node // function_definition by name
	props map[string]bool  // the methods that are @property
	// statics are the @staticmethod methods: no self among their
	// parameters (self._build_program() calls one as a helper).
	statics map[string]bool
	// members are an enum class's members by name (enums.go); nil for
	// other classes.
	members map[string]*node
	// idByValue: pytest names a parameter of this enum by its value (a
	// str or IntEnum member), not Class.MEMBER.
	idByValue bool
}

// linearize is c's method resolution order over the bases the module
// defines: depth first, left to right, a class shared by two bases taking
// its last place, which is Python's C3 order for the mixin hierarchies
// tests write (class QKMatmulPTOASTestCase(PTOASTestCaseMixin,
// QKMatmulTestCase) finds get_program in the second base).
func (c *caseClass) linearize(bases []*caseClass) {
	var all []*caseClass
	for _, b := range bases {
		all = append(all, b.mro...)
	}
	c.mro = []*caseClass{c}
	for i, k := range all {
		later := false
		for _, l := range all[i+1:] {
			later = later || l == k
		}
		if !later {
			c.mro = append(c.mro, k)
		}
	}
	if len(c.mro) > 1 {
		c.base = c.mro[1]
	}
}

// isProperty reports whether name is a @property of c or a base.
func (c *caseClass) isProperty(name string) bool {
	for _, k := range c.mro {
		if _, defined := k.own[name]; defined {
			return k.props[name]
		}
	}
	return false
}

// method is the definition of name that c's instances use, and the class
// that defines it.
func (c *caseClass) method(name string) (*node, *caseClass) {
	for _, k := range c.mro {
		if m := k.own[name]; m != nil {
			return m, k
		}
	}
	return nil, nil
}

// caseObject is self while a case's __init__ and get_program run: the
// attributes the class body and __init__ set.
type caseObject struct {
	class string
	attrs map[string]value
}

// caseDecl reads a top-level class; nil unless it (or a base defined
// earlier in the module) has a get_program method.
func (r *reader) caseDecl(n *node) *factory {
	c := &caseClass{name: r.text(n.ChildByFieldId(fldName)), own: map[string]*node{}, props: map[string]bool{}, statics: map[string]bool{}}
	enum, byValue := false, false
	var bases []*caseClass
	if sup := n.ChildByFieldId(fldSuperclasses); sup != nil {
		for _, b := range r.kids(sup) {
			if k := r.cases[r.text(b)]; b.Kind() == "identifier" && k != nil {
				bases = append(bases, k)
			}
			enum = enum || isEnumBase(r.text(b))
			byValue = byValue || idByValueBase(r.text(b))
		}
	}
	c.linearize(bases)
	for _, s := range r.kids(n.ChildByFieldId(fldBody)) {
		switch s.Kind() {
		case "function_definition":
			c.own[r.text(s.ChildByFieldId(fldName))] = s
		case "decorated_definition":
			// A @property reads as the attribute it computes (self.cols).
			def, decs := r.undecorate(s)
			if def.Kind() != "function_definition" || len(decs) != 1 {
				break
			}
			name := r.text(def.ChildByFieldId(fldName))
			switch r.text(decs[0].NamedChild(0)) {
			case "property":
				c.own[name], c.props[name] = def, true
			case "staticmethod":
				c.own[name], c.statics[name] = def, true
			}
		case "expression_statement":
			if a := s.NamedChild(0); a != nil && a.Kind() == "assignment" && a.ChildByFieldId(fldRight) != nil {
				c.attrs = append(c.attrs, a)
			}
		}
	}
	r.cases[c.name] = c
	if enum {
		r.enumMembers(c)
		c.idByValue = byValue
	}
	if get, _ := c.method("get_program"); get == nil {
		return nil
	}
	f := &factory{name: c.name, def: n, cls: c}
	if init, _ := c.method("__init__"); init != nil {
		f.params, _ = r.methodParams(init, false)
	}
	return f
}

// methodParams are a method's parameters, after self unless static (a
// @staticmethod takes none), and the name of its **kwargs parameter (""
// without one); *args binds nothing Go passes.
func (r *reader) methodParams(def *node, static bool) (ps []factoryParam, rest string) {
	for i, p := range r.kids(def.ChildByFieldId(fldParameters)) {
		if p.Kind() == "dictionary_splat_pattern" {
			rest = r.text(r.kids(p)[0])
			continue
		}
		name, dflt, ok := r.param(p)
		if (i == 0 && !static) || !ok {
			continue
		}
		ps = append(ps, factoryParam{name: name, def: dflt})
	}
	return ps, rest
}

// runCase builds what a test case's get_program returns, after binding the
// case's parameters and running the assignments that set up self.
func (r *reader) runCase(f *factory, at *node, pos []value, kws []kwArg) value {
	self := &caseObject{class: f.name, attrs: map[string]value{}}
	// Bases first, so that a class's own attributes win.
	for i := len(f.cls.mro) - 1; i >= 0; i-- {
		for _, a := range f.cls.mro[i].attrs {
			r.caseAssign(a, r.globalEnv(), self, true)
		}
	}
	r.runInit(f.cls, at, pos, kws, self)
	get, _ := f.cls.method("get_program")
	e := r.globalEnv()
	e.vars["self"] = self
	if v := r.factoryBlock(f, get.ChildByFieldId(fldBody), e); v != nil {
		return v
	}
	r.fail(get, "%s.get_program returns no program", f.name)
	return nil
}

// callMethod runs self.name(...) of a test case while its get_program
// runs: a plain method of its class (or a base) computing a value, run as
// the reader runs a helper def, with self bound. ok is false when the class
// has no such method.
func (r *reader) callMethod(at *node, self *caseObject, name string, pos []value, kws []kwArg) (value, bool) {
	cls := r.cases[self.class]
	if cls == nil {
		return nil, false
	}
	return r.runMethod(at, cls, self, name, pos, kws)
}

// runMethod runs method name of class cls (or a base) as the reader runs
// a helper def, with self bound (a case object, an enum member); its
// errors are at at, a node of this file. ok is false when no class
// defines it.
func (r *reader) runMethod(at *node, cls *caseClass, self value, name string, pos []value, kws []kwArg) (value, bool) {
	m, owner := cls.method(name)
	if m == nil {
		return nil, false
	}
	static := owner.statics[name]
	params, rest := r.methodParams(m, static)
	if rest != "" {
		r.fail(at, "%s.%s takes **%s, which the reader does not bind", owner.name, name, rest)
	}
	h := &factory{name: owner.name + "." + name, def: m, params: params, helper: true}
	e := r.globalEnv()
	if !static {
		e.vars["self"] = self
	}
	r.bindParams(h, at, pos, kws, e)
	if v := r.factoryBlock(h, m.ChildByFieldId(fldBody), e); v != nil {
		return returned(v), true
	}
	r.fail(at, "%s returns no value", h.name)
	return nil, false
}

// runInit runs the __init__ that class c's instances use, with these
// arguments: keywords it does not name go to its **kwargs.
func (r *reader) runInit(c *caseClass, at *node, pos []value, kws []kwArg, self *caseObject) {
	init, owner := c.method("__init__")
	if init == nil {
		return
	}
	params, rest := r.methodParams(init, false)
	var extra []kwArg
	if rest != "" {
		var named []kwArg
		for _, k := range kws {
			if hasParam(params, k.name) {
				named = append(named, k)
			} else {
				extra = append(extra, k)
			}
		}
		kws = named
	}
	e := r.globalEnv()
	r.bindParams(&factory{name: owner.name + ".__init__", def: init, params: params}, at, pos, kws, e)
	if rest != "" {
		d := &pyDict{}
		for _, k := range extra {
			d.keys = append(d.keys, k.name)
			d.vals = append(d.vals, k.val)
		}
		e.vars[rest] = d
	}
	e.vars["self"] = self
	r.caseInit(init.ChildByFieldId(fldBody), e, self, owner)
}

func hasParam(ps []factoryParam, name string) bool {
	for _, p := range ps {
		if p.name == name {
			return true
		}
	}
	return false
}

// caseInit runs an __init__ body (of class owner) for its assignments and
// its super().__init__(...) call. Python the reader cannot evaluate
// (harness configuration) is skipped; an attribute it would have set is
// an error only if get_program reads it.
func (r *reader) caseInit(body *node, e *env, self *caseObject, owner *caseClass) {
	if body == nil {
		return
	}
	for _, s := range r.kids(body) {
		switch s.Kind() {
		case "expression_statement":
			x := s.NamedChild(0)
			switch {
			case x == nil:
			case x.Kind() == "assignment" && x.ChildByFieldId(fldRight) != nil:
				r.caseAssign(x, e, self, false)
			case x.Kind() == "call" && r.text(x.ChildByFieldId(fldFunction)) == "super().__init__" && owner.base != nil:
				pos, kws := r.superArgs(x, e)
				r.runInit(owner.base, x, pos, kws, self)
			}
		case "if_statement":
			branch, err := r.tryBranch(s, e)
			if err != nil {
				// Which branch Python takes is unknown here: what either
				// sets cannot be read.
				r.forgetAssigned(s, e, self, err)
				continue
			}
			r.caseInit(branch, e, self, owner)
		}
	}
}

// superArgs evaluates the arguments of super().__init__(...): a value the
// reader cannot compute is passed along as unreadable, and **kw spreads
// the keywords a subclass did not name.
func (r *reader) superArgs(call *node, e *env) (pos []value, kws []kwArg) {
	for _, a := range r.kids(call.ChildByFieldId(fldArguments)) {
		switch a.Kind() {
		case "keyword_argument":
			kws = append(kws, kwArg{r.text(a.ChildByFieldId(fldName)), a, r.evalOrUnreadable(a.ChildByFieldId(fldValue), e)})
		case "dictionary_splat":
			if d, ok := r.evalOrUnreadable(r.kids(a)[0], e).(*pyDict); ok {
				for i, k := range d.keys {
					if name, ok := k.(string); ok {
						kws = append(kws, kwArg{name, a, d.vals[i]})
					}
				}
			}
		case "list_splat":
			if l, ok := r.evalOrUnreadable(r.kids(a)[0], e).(pyTuple); ok {
				pos = append(pos, l...)
			}
		case "comment":
		default:
			pos = append(pos, r.evalOrUnreadable(a, e))
		}
	}
	return pos, kws
}

func (r *reader) evalOrUnreadable(n *node, e *env) value {
	v, err := r.tryEval(n, e)
	if err != nil {
		return unevaluable{err}
	}
	return v
}

// tryBranch is the block an if/elif/else chain picks, or the error that
// keeps the reader from knowing.
func (r *reader) tryBranch(n *node, e *env) (b *node, err error) {
	defer r.recoverTo(&err)
	return r.factoryBranch(&factory{name: "__init__"}, n, e), nil
}

// caseAssign runs one assignment of a class body (classBody: a bare name
// is an attribute) or of __init__ (a bare name is a local): to a name, to
// self.X, or to a tuple of those. Other targets
// (self.config.rtol) are harness settings and are skipped.
func (r *reader) caseAssign(a *node, e *env, self *caseObject, classBody bool) {
	left, right := a.ChildByFieldId(fldLeft), a.ChildByFieldId(fldRight)
	v, err := r.tryEval(right, e)
	var bind func(t *node, v value, err error)
	bind = func(t *node, v value, err error) {
		if err != nil {
			v = unevaluable{err}
		}
		switch t.Kind() {
		case "identifier":
			if classBody {
				// A class attribute: self.X reads it, a bare X does not.
				self.attrs[r.text(t)] = v
			} else {
				e.vars[r.text(t)] = v
			}
		case "attribute":
			obj := t.ChildByFieldId(fldObject)
			if obj.Kind() == "identifier" && r.text(obj) == "self" {
				self.attrs[r.text(t.ChildByFieldId(fldAttribute))] = v
			}
		case "pattern_list", "tuple_pattern":
			ts := r.kids(t)
			vals, ok := v.(pyTuple)
			for i, c := range ts {
				switch {
				case err != nil:
					bind(c, nil, err)
				case !ok || len(vals) != len(ts):
					bind(c, nil, fmt.Errorf("%d names unpack %s", len(ts), r.text(right)))
				default:
					bind(c, vals[i], nil)
				}
			}
		}
	}
	bind(left, v, err)
}

// forgetAssigned marks what the if statement n may assign as unreadable.
func (r *reader) forgetAssigned(n *node, e *env, self *caseObject, err error) {
	all := n.all()
	for i := n.index(); i < n.next; i++ {
		a := &all[i]
		if a.Kind() != "assignment" {
			continue
		}
		var mark func(t *node)
		mark = func(t *node) {
			switch t.Kind() {
			case "identifier":
				e.vars[r.text(t)] = unevaluable{err}
			case "attribute":
				if obj := t.ChildByFieldId(fldObject); obj.Kind() == "identifier" && r.text(obj) == "self" {
					self.attrs[r.text(t.ChildByFieldId(fldAttribute))] = unevaluable{err}
				}
			case "pattern_list", "tuple_pattern":
				for _, c := range r.kids(t) {
					mark(c)
				}
			}
		}
		mark(a.ChildByFieldId(fldLeft))
	}
}

// selfAttr evaluates self.X in a test case's get_program; ok is false when
// n is not an attribute of a case's self.
func (r *reader) selfAttr(n *node, e *env) (value, bool) {
	obj := n.ChildByFieldId(fldObject)
	if obj == nil || obj.Kind() != "identifier" || e == nil {
		return nil, false
	}
	v, found := e.lookup(r.text(obj))
	self, isCase := v.(*caseObject)
	if !found || !isCase {
		return nil, false
	}
	name := r.text(n.ChildByFieldId(fldAttribute))
	a, has := self.attrs[name]
	if cls := r.cases[self.class]; !has && cls != nil && cls.isProperty(name) {
		v, _ := r.callMethod(n, self, name, nil, nil)
		return v, true
	}
	if !has {
		r.fail(n, "%s has no attribute %s that ptorepl can read (it reads what the class body and __init__ assign)", self.class, name)
	}
	if u, bad := a.(unevaluable); bad {
		r.fail(n, "%s.%s could not be evaluated: %s", self.class, name, strings.TrimSpace(u.err.Error()))
	}
	return a, true
}
