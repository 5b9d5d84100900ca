//go:build cgo

package pyfront

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Upstream's runtime tests build most of their programs inside pytest
// tests: a test function, often in a Test* class, whose body calls a
// test-case class or a factory with the values @pytest.mark.parametrize
// gives it:
//
//	@pytest.mark.parametrize("platform", PLATFORMS)
//	@pytest.mark.parametrize("dtype,high_precision", _CASES)
//	def test_div(self, test_runner, platform, dtype, high_precision):
//	    result = test_runner.run(TileDivCase(dtype, high_precision, platform=platform))
//
// The reader collects these tests as pytest would, one per combination
// of parametrize values, under pytest's own ids
// (TestDiv::test_div[dtype0-True-a2a3]), and builds each one's program
// on demand by evaluating that call with the test's parameters bound. The
// rest of the body (the runner, torch, assertions) is skipped like any
// other Python.

// pyTest is one collected test: a test function with one combination of
// its parametrize values, and one program-building call in its body.
type pyTest struct {
	id     string
	callee string           // the factory or test case called
	fn     *node            // the function_definition
	call   *node            // the call of a factory or test case
	bind   map[string]value // parametrize values by parameter name
	err    error            // why its values could not be read
}

// paramSet is one entry of a parametrize list: its values (one per
// argument name) and its explicit id ("" for none).
type paramSet struct {
	vals []value
	id   string
}

// paramMark is one @pytest.mark.parametrize: its argument names and sets.
type paramMark struct {
	names []string
	sets  []paramSet
	err   error
}

// collectTests finds the module's pytest tests that build programs.
func (r *reader) collectTests(root *node) []*pyTest {
	// A name defined again replaces the first definition in its place, as
	// in the module's (or class's) __dict__, whose order pytest follows.
	var order []string
	byName := map[string][]*pyTest{}
	define := func(name string, ts []*pyTest) {
		if _, ok := byName[name]; !ok {
			order = append(order, name)
		}
		byName[name] = ts
	}
	for _, n := range r.kids(root) {
		def, decs := r.undecorate(n)
		switch def.Kind() {
		case "function_definition":
			name := r.text(def.ChildByFieldId(fldName))
			define(name, r.testFunc("", def, r.paramMarks(decs), nil, nil))
		case "class_definition":
			name := r.text(def.ChildByFieldId(fldName))
			if !strings.HasPrefix(name, "Test") || !r.collectedClass(def) {
				continue
			}
			classMarks := r.paramMarks(decs)
			classHook := r.classHook(name, def)
			var methods []string
			tests := map[string][]*pyTest{}
			for _, m := range r.kids(def.ChildByFieldId(fldBody)) {
				mdef, mdecs := r.undecorate(m)
				if mdef.Kind() != "function_definition" {
					continue
				}
				mname := r.text(mdef.ChildByFieldId(fldName))
				if _, ok := tests[mname]; !ok {
					methods = append(methods, mname)
				}
				tests[mname] = r.testFunc(name+"::", mdef, r.paramMarks(mdecs), classMarks, classHook)
			}
			var all []*pyTest
			for _, m := range methods {
				all = append(all, tests[m]...)
			}
			define(name, all)
		}
	}
	var out []*pyTest
	for _, name := range order {
		out = append(out, byName[name]...)
	}
	return out
}

// collectedClass reports whether pytest collects a Test* class: not one
// with an __init__ (pytest warns and skips it) or __test__ = False.
func (r *reader) collectedClass(def *node) bool {
	for _, m := range r.kids(def.ChildByFieldId(fldBody)) {
		if d, _ := r.undecorate(m); d.Kind() == "function_definition" && r.text(d.ChildByFieldId(fldName)) == "__init__" {
			return false
		}
		if m.Kind() == "expression_statement" {
			if a := m.NamedChild(0); a != nil && a.Kind() == "assignment" && r.text(a.ChildByFieldId(fldLeft)) == "__test__" &&
				r.text(a.ChildByFieldId(fldRight)) == "False" {
				return false
			}
		}
	}
	return true
}

// undecorate is a definition and its decorators (innermost last, as
// written).
func (r *reader) undecorate(n *node) (*node, []*node) {
	if n.Kind() != "decorated_definition" {
		return n, nil
	}
	var decs []*node
	for _, k := range r.kids(n) {
		if k.Kind() == "decorator" {
			decs = append(decs, k)
		}
	}
	return n.ChildByFieldId(fldDefinition), decs
}

// paramMarks reads the parametrize decorators among decs in the order
// pytest applies them: the one nearest the def first.
func (r *reader) paramMarks(decs []*node) []paramMark {
	var out []paramMark
	for i := len(decs) - 1; i >= 0; i-- {
		c := decs[i].NamedChild(0)
		if c == nil || c.Kind() != "call" || r.dotted(c.ChildByFieldId(fldFunction)) != "pytest.mark.parametrize" {
			continue
		}
		out = append(out, r.paramMark(c))
	}
	return out
}

// paramMark reads one @pytest.mark.parametrize(argnames, argvalues, ids=...).
func (r *reader) paramMark(c *node) paramMark {
	pos, kws := r.rawArgs(c)
	return r.paramMarkIn(c, pos, kws, r.globalEnv())
}

// paramMarkIn reads the arguments of a parametrize call c (the
// decorator's or metafunc.parametrize in a hook), evaluated in e.
func (r *reader) paramMarkIn(c *node, pos []*node, kws []kwArg, e *env) (m paramMark) {
	defer r.recoverTo(&m.err)
	if len(pos) < 2 {
		r.fail(c, "pytest.mark.parametrize takes argument names and values")
	}
	switch v := r.eval(pos[0], e).(type) {
	case string:
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				m.names = append(m.names, s)
			}
		}
	case pyList, pyTuple:
		for _, s := range seqOf(v).([]value) {
			name, ok := s.(string)
			if !ok {
				r.fail(pos[0], "parametrize: argument names must be strings, given %s", describe(s))
			}
			m.names = append(m.names, name)
		}
	default:
		r.fail(pos[0], "parametrize: argument names must be a string or a list of strings, given %s", describe(v))
	}
	var ids []value
	var idFn *factory
	for _, kw := range kws {
		switch kw.name {
		case "ids":
			// A list of ids, or a function pytest calls on each value
			// (ids=_planner_tag): a string it returns is that value's
			// id, anything else (None) leaves pytest's own.
			if v, err := r.tryEval(kw.node, e); err == nil {
				if f, ok := v.(funcRef); ok {
					idFn = f.f
				}
				ids, _ = seqOf(v).([]value)
			}
		case "indirect":
			r.fail(kw.node, "parametrize: indirect parameters go through fixtures, which ptorepl does not run")
		}
	}
	for i, v := range r.paramValues(pos[1], e) {
		set := r.paramSet(pos[1], v, len(m.names), e)
		if i < len(ids) {
			if s, ok := ids[i].(string); ok {
				set.id = s
			}
		}
		if idFn != nil && set.id == "" {
			set.id = r.callIDs(idFn, c, set.vals, m.names, i)
		}
		m.sets = append(m.sets, set)
	}
	return m
}

// callIDs is the id an ids= function gives a parameter set: each value's
// own id joined by "-", where a value the function gives no string for
// (or that it cannot be run on) keeps pytest's default.
func (r *reader) callIDs(f *factory, at *node, vals []value, names []string, idx int) string {
	parts := make([]string, len(vals))
	for k, v := range vals {
		parts[k] = paramID(v, names[min(k, len(names)-1)], idx)
		if got, err := r.tryCall(f, at, v); err == nil {
			if s, ok := got.(string); ok {
				parts[k] = s
			}
		}
	}
	return strings.Join(parts, "-")
}

func (r *reader) tryCall(f *factory, at *node, v value) (got value, err error) {
	defer r.recoverTo(&err)
	return r.runFactory(f, at, []value{v}, nil), nil
}

// paramValues are the entries of a parametrize list: the literal's items
// (so that an error names the entry), or a module constant's evaluated
// items.
func (r *reader) paramValues(n *node, e *env) []any {
	n = r.unparen(n)
	if n.Kind() == "list" || n.Kind() == "tuple" {
		var out []any
		for _, k := range r.kids(n) {
			if k.Kind() == "list_splat" {
				for _, v := range r.item(k, e, nil) {
					out = append(out, v)
				}
				continue
			}
			out = append(out, k)
		}
		return out
	}
	items, ok := seqOf(r.eval(n, e)).([]value)
	if !ok {
		r.fail(n, "parametrize: the values must be a list or tuple, given %s", r.text(n))
	}
	return items
}

// paramSet reads one entry (a syntax node or an evaluated value) of the
// list at for nargs argument names, evaluated in env.
func (r *reader) paramSet(at *node, e any, nargs int, env *env) paramSet {
	whole := e
	if n, ok := e.(*node); ok {
		at, whole = n, r.eval(n, env)
	}
	if p, ok := whole.(*pyParam); ok {
		if len(p.vals) != nargs {
			r.fail(at, "parametrize: %s is not %d values, one per argument name", r.text(at), nargs)
		}
		return paramSet{vals: p.vals, id: p.id}
	}
	if nargs == 1 {
		return paramSet{vals: []value{whole}}
	}
	items, ok := seqOf(whole).([]value)
	if !ok || len(items) != nargs {
		what := describe(whole)
		if _, isNode := e.(*node); isNode {
			what = r.text(at)
		}
		r.fail(at, "parametrize: %s is not %d values, one per argument name", what, nargs)
	}
	return paramSet{vals: items}
}

// rawArgs splits a call's arguments into positional nodes and keyword
// arguments, unevaluated.
func (r *reader) rawArgs(c *node) (pos []*node, kws []kwArg) {
	for _, a := range r.kids(c.ChildByFieldId(fldArguments)) {
		switch a.Kind() {
		case "keyword_argument":
			kws = append(kws, kwArg{name: r.text(a.ChildByFieldId(fldName)), node: a.ChildByFieldId(fldValue)})
		case "list_splat", "dictionary_splat":
			r.fail(a, "unsupported argument %s (write the values out)", r.text(a))
		default:
			pos = append(pos, a)
		}
	}
	return pos, kws
}

// testFunc collects the tests of one test function: a pytest test (name
// starting with "test") whose body calls a factory or test case of the
// module. marks are its own parametrize decorators, then its class's;
// classHook is its class's pytest_generate_tests method (nil: none).
func (r *reader) testFunc(prefix string, def *node, marks, classMarks []paramMark, classHook *factory) []*pyTest {
	name := r.text(def.ChildByFieldId(fldName))
	if !strings.HasPrefix(name, "test") {
		return nil
	}
	marks = append(append([]paramMark(nil), marks...), classMarks...)
	calls := r.programCalls(def.ChildByFieldId(fldBody), factoryParams(marks))
	if len(calls) == 0 {
		return nil
	}
	// The pytest_generate_tests hooks parametrize first.
	hooked, err := r.hookMarks(def, classHook)
	if err != nil {
		hooked = []paramMark{{err: err}}
	}
	marks = append(hooked, marks...)
	type combo struct {
		ids  []string
		bind map[string]value
		err  error
	}
	combos := []combo{{bind: map[string]value{}}}
	for _, m := range marks {
		if m.err != nil {
			for i := range combos {
				combos[i].err = m.err
			}
			continue
		}
		if len(m.sets) == 0 {
			return nil // pytest skips a test with no parameter sets
		}
		ids := setIDs(m)
		var next []combo
		for _, c := range combos {
			for k, set := range m.sets {
				b := make(map[string]value, len(c.bind)+len(set.vals))
				for key, v := range c.bind {
					b[key] = v
				}
				for i, v := range set.vals {
					b[m.names[i]] = v
				}
				next = append(next, combo{ids: append(append([]string(nil), c.ids...), ids[k]), bind: b, err: c.err})
			}
		}
		combos = next
	}
	var out []*pyTest
	for _, c := range combos {
		id := prefix + name
		if len(c.ids) > 0 {
			id += "[" + strings.Join(c.ids, "-") + "]"
		}
		for k, call := range calls {
			t := &pyTest{id: id, callee: r.text(call.ChildByFieldId(fldFunction)), fn: def, call: call, bind: c.bind, err: c.err}
			if len(calls) > 1 {
				t.id += fmt.Sprintf("/%d", k+1)
			}
			out = append(out, t)
		}
	}
	return out
}

// programCalls are the calls in body of a factory or test case of the
// module, in source order.
// A call of a test parameter that parametrize binds to factories or test
// cases (op_cls(m=m, n=n) over [TileRowArgmax, TileRowArgmin]) is one too.
func (r *reader) programCalls(body *node, params map[string]bool) []*node {
	var out []*node
	var walk func(n *node)
	walk = func(n *node) {
		if n.Kind() == "call" {
			if f := n.ChildByFieldId(fldFunction); f != nil && f.Kind() == "identifier" && (r.facs[r.text(f)] != nil || params[r.text(f)] || r.returnsCase(r.text(f))) {
				out = append(out, n)
				return
			}
		}
		if n.Kind() == "function_definition" || n.Kind() == "class_definition" {
			return
		}
		for _, k := range r.kids(n) {
			walk(k)
		}
	}
	if body != nil {
		walk(body)
	}
	return out
}

// returnsCase reports whether name is a module helper def that returns a
// call of a factory or test case (def _submit_case(**kw): return
// _PhaseFenceCase(...)), so that calling it builds a program.
func (r *reader) returnsCase(name string) bool {
	h := r.helpers[name]
	if h == nil || h.def == nil {
		return false
	}
	found := false
	var walk func(n *node)
	walk = func(n *node) {
		if found || n.Kind() == "function_definition" && n != h.def || n.Kind() == "class_definition" {
			return
		}
		if n.Kind() == "return_statement" {
			for _, x := range r.kids(n) {
				if x.Kind() == "call" {
					if f := x.ChildByFieldId(fldFunction); f != nil && f.Kind() == "identifier" && r.facs[r.text(f)] != nil {
						found = true
					}
				}
			}
			return
		}
		for _, k := range r.kids(n) {
			walk(k)
		}
	}
	walk(h.def)
	return found
}

// factoryParams are the parametrize names whose values are all factories
// or test cases (not helper defs, which a test may call for other values).
func factoryParams(marks []paramMark) map[string]bool {
	out := map[string]bool{}
	for _, m := range marks {
		for i, name := range m.names {
			all := len(m.sets) > 0
			for _, set := range m.sets {
				if i >= len(set.vals) {
					all = false
					break
				}
				if f, ok := set.vals[i].(funcRef); !ok || f.f.helper {
					all = false
				}
			}
			if all {
				out[name] = true
			}
		}
	}
	return out
}

// setIDs are the ids pytest gives a parametrize mark's sets: the explicit
// one, else each value's joined by "-", made unique as pytest does.
func setIDs(m paramMark) []string {
	ids := make([]string, len(m.sets))
	for k, set := range m.sets {
		if set.id != "" {
			ids[k] = set.id
			continue
		}
		parts := make([]string, len(set.vals))
		for i, v := range set.vals {
			parts[i] = paramID(v, m.names[i], k)
		}
		ids[k] = strings.Join(parts, "-")
	}
	// pytest 7 numbers each repeated id's sets from 0 (pytest 8 puts "_"
	// between an id that ends in a digit and its number).
	count := map[string]int{}
	for _, id := range ids {
		count[id]++
	}
	next := map[string]int{}
	for k, id := range ids {
		if count[id] > 1 {
			ids[k] = id + strconv.Itoa(next[id])
			next[id]++
		}
	}
	return ids
}

// paramID is pytest's id of one value: a string as is, a number, bool or
// None as Python prints it, anything else its argument name and index.
func paramID(v value, argname string, idx int) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return pyFloat(x)
	case enumMember:
		if x.home.cases[x.class].idByValue {
			return paramID(x.value(), argname, idx)
		}
		return x.String()
	}
	return argname + strconv.Itoa(idx)
}

// pyFloat is Python's repr of a float: the shortest digits that read
// back, in positional notation from 1e-4 up to 1e16 (with ".0" when
// integral), scientific with a two-digit exponent outside it.
func pyFloat(f float64) string {
	switch {
	case f != f:
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return fmt.Sprintf("%se%s%02d", mant, sign, exp)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// buildTest builds a test's program: the simple assignments of its body
// before the call (those that evaluate) bound with its parameters, then
// the call.
func (r *reader) buildTest(t *pyTest) *ir.Program {
	if t.err != nil {
		panic(t.err)
	}
	e := r.globalEnv().child()
	// The test's other parameters are pytest fixtures (test_runner,
	// backend_type): carried as opaque values, an error only if the
	// program needs one.
	for _, p := range r.kids(t.fn.ChildByFieldId(fldParameters)) {
		if name, _, ok := r.param(p); ok && name != "self" {
			e.vars[name] = opaque{"the pytest fixture " + name + ", which ptorepl does not run"}
		}
	}
	for k, v := range t.bind {
		e.vars[k] = v
	}
	for _, s := range r.kids(t.fn.ChildByFieldId(fldBody)) {
		if s.StartByte() >= t.call.StartByte() {
			break
		}
		if s.Kind() != "expression_statement" {
			continue
		}
		a := s.NamedChild(0)
		if a == nil || a.Kind() != "assignment" || a.ChildByFieldId(fldRight) == nil {
			continue
		}
		left := a.ChildByFieldId(fldLeft)
		if left.Kind() != "identifier" {
			continue
		}
		name := r.text(left)
		if v, err := r.tryEval(a.ChildByFieldId(fldRight), e); err == nil {
			e.vars[name] = v
		} else {
			e.vars[name] = opaque{fmt.Sprintf("%s (the test computes it with Python ptorepl does not run: %s)", name, strings.TrimPrefix(err.Error(), r.file+":"))}
		}
	}
	switch v := r.eval(t.call, e).(type) {
	case *ir.Program:
		return v
	case *pyFunc:
		defer r.enter(v.home)()
		return r.functionProgram(v.dec, v.env)
	}
	r.fail(t.call, "%s builds no program", r.text(t.call.ChildByFieldId(fldFunction)))
	return nil
}

// pyParam is pytest.param(values..., id=...) as a value: a parametrize
// entry with its own id (its marks are not read).
type pyParam struct {
	vals []value
	id   string
}

// pytestParam evaluates pytest.param(...) at module level.
func (r *reader) pytestParam(n *node, e *env) value {
	pos, kws := r.rawArgs(n)
	p := &pyParam{}
	for _, a := range pos {
		p.vals = append(p.vals, r.eval(a, e))
	}
	for _, kw := range kws {
		if kw.name == "id" {
			if s, ok := r.eval(kw.node, e).(string); ok {
				p.id = s
			}
		}
	}
	return p
}
