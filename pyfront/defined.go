//go:build cgo

package pyfront

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Defined builds the @pl.program classes a module-level def defines in its
// body, in source order, by class name. Upstream's pass unit tests are
// written so: a test function defines Before and Expected and compares
// the pass's output on one with the other. The body's other statements
// (the pass call, the comparison) are not run; an assignment before a
// class that the class reads is evaluated, and one that cannot be is left
// unbound.
func (m *Module) Defined(name string) (progs map[string]*ir.Program, order []string, err error) {
	def, ok := m.definers[name]
	if !ok {
		return nil, nil, fmt.Errorf("%s: no function %q that defines programs (the module has %s)", m.File, name, strings.Join(m.definerOrder, ", "))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	defer m.r.recoverTo(&err)
	r := m.r
	e := r.globalEnv()
	for _, p := range r.kids(def.ChildByFieldId(fldParameters)) {
		if n, _, ok := r.param(p); ok {
			e.vars[n] = opaque{"the parameter " + n} // self and fixtures: not run
		}
	}
	if cls := m.definerClass[name]; cls != nil {
		// A Test* method's self reads the class body's constants
		// (M_DYN = pl.dynamic("M_DYN"), then self.M_DYN).
		self := &caseObject{class: r.text(cls.ChildByFieldId(fldName)), attrs: map[string]value{}}
		for _, c := range r.kids(cls.ChildByFieldId(fldBody)) {
			r.bindDefined(c, self.attrs, r.globalEnv())
		}
		if ps := r.kids(def.ChildByFieldId(fldParameters)); len(ps) > 0 {
			if n, _, ok := r.param(ps[0]); ok {
				e.vars[n] = self
			}
		}
	}
	progs = map[string]*ir.Program{}
	for _, c := range r.kids(def.ChildByFieldId(fldBody)) {
		switch c.Kind() {
		case "decorated_definition":
			def := c.ChildByFieldId(fldDefinition)
			if r.decoratorName(c) == "pl.program" && def.Kind() == "class_definition" {
				cls := r.text(def.ChildByFieldId(fldName))
				if _, again := progs[cls]; !again {
					order = append(order, cls)
				}
				progs[cls] = r.programClass(c, e, true)
				e.vars[cls] = progs[cls]
			}
		case "expression_statement":
			r.bindDefined(c, e.vars, e)
		}
	}
	return progs, order, nil
}

// bindDefined evaluates an assignment statement of a definer's body (or a
// Test* class's) into vars: a name, or names unpacking a tuple
// (B, S, D = 4, 2, 8). One that cannot be evaluated is left unbound.
func (r *reader) bindDefined(c *node, vars map[string]value, e *env) {
	a := c.NamedChild(0)
	if c.Kind() != "expression_statement" || a == nil || a.Kind() != "assignment" {
		return
	}
	left, right := a.ChildByFieldId(fldLeft), a.ChildByFieldId(fldRight)
	if right == nil {
		return
	}
	v, err := r.tryEval(right, e)
	if err != nil {
		return
	}
	switch left.Kind() {
	case "identifier":
		vars[r.text(left)] = v
	case "pattern_list", "tuple_pattern":
		names := r.kids(left)
		vals, _ := seqOf(v).([]value)
		if len(vals) != len(names) {
			return
		}
		for i, n := range names {
			if n.Kind() == "identifier" {
				vars[r.text(n)] = vals[i]
			}
		}
	}
}

// Definers lists the defs Defined reads: module-level functions and
// methods of Test* classes ("TestX::test_y") whose bodies define
// @pl.program classes, in source order.
func (m *Module) Definers() []string { return append([]string(nil), m.definerOrder...) }

// collectDefiners finds the defs whose bodies define @pl.program classes.
// classOf maps a method's id to its Test* class.
func (r *reader) collectDefiners(root *node) (byID map[string]*node, order []string, classOf map[string]*node) {
	byID, classOf = map[string]*node{}, map[string]*node{}
	add := func(id string, def *node) {
		if !r.definesPrograms(def) {
			return
		}
		if _, again := byID[id]; !again {
			order = append(order, id)
		}
		byID[id] = def
	}
	for _, n := range r.kids(root) {
		def, _ := r.undecorate(n)
		switch def.Kind() {
		case "function_definition":
			add(r.text(def.ChildByFieldId(fldName)), def)
		case "class_definition":
			cls := r.text(def.ChildByFieldId(fldName))
			if !strings.HasPrefix(cls, "Test") {
				continue
			}
			for _, m := range r.kids(def.ChildByFieldId(fldBody)) {
				if mdef, _ := r.undecorate(m); mdef.Kind() == "function_definition" {
					id := cls + "::" + r.text(mdef.ChildByFieldId(fldName))
					add(id, mdef)
					classOf[id] = def
				}
			}
		}
	}
	return byID, order, classOf
}

// definesPrograms reports whether def's body defines a @pl.program class.
func (r *reader) definesPrograms(def *node) bool {
	for _, c := range r.kids(def.ChildByFieldId(fldBody)) {
		if c.Kind() == "decorated_definition" && r.decoratorName(c) == "pl.program" {
			return true
		}
	}
	return false
}
