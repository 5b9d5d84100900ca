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
			if a := c.NamedChild(0); a != nil && a.Kind() == "assignment" {
				if left, right := a.ChildByFieldId(fldLeft), a.ChildByFieldId(fldRight); left.Kind() == "identifier" && right != nil {
					if v, err := r.tryEval(right, e); err == nil {
						e.vars[r.text(left)] = v
					}
				}
			}
		}
	}
	return progs, order, nil
}

// Definers lists the defs Defined reads: module-level functions and
// methods of Test* classes ("TestX::test_y") whose bodies define
// @pl.program classes, in source order.
func (m *Module) Definers() []string { return append([]string(nil), m.definerOrder...) }

// collectDefiners finds the defs whose bodies define @pl.program classes.
func (r *reader) collectDefiners(root *node) (map[string]*node, []string) {
	byID := map[string]*node{}
	var order []string
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
					add(cls+"::"+r.text(mdef.ChildByFieldId(fldName)), mdef)
				}
			}
		}
	}
	return byID, order
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
