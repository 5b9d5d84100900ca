//go:build cgo

package pyfront

import (
	"strings"
)

// A module's pytest_generate_tests hook parametrizes its tests from code
// rather than decorators, as upstream's cross-core runtime tests pick
// their backend:
//
//	def pytest_generate_tests(metafunc):
//	    if "backend_type" in metafunc.fixturenames:
//	        metafunc.parametrize("backend_type", [_backend(metafunc.config)], ids=[platform])
//
// A Test* class may define the hook as a method too; pytest calls the
// class's before the module's.
//
// The reader runs the hook once per test function, as pytest does, with a
// metafunc whose fixturenames are the function's arguments and whose
// config has no command-line options (getoption gives its default
// argument, or None), and collects its parametrize calls. Their marks
// come before the decorators' ones, as pytest stacks them.

// pyMetafunc is what the hook is handed for one test function.
type pyMetafunc struct {
	fixturenames pyList
	marks        []paramMark
}

func (*pyMetafunc) String() string { return "a pytest Metafunc" }

// pyConfig is metafunc.config: pytest's configuration when no option was
// given on the command line.
type pyConfig struct{}

func (pyConfig) String() string { return "a pytest Config" }

// hookMarks are the parametrize marks the pytest_generate_tests hooks
// give the test function def: its class's (classHook, nil for none)
// first, then the module's, in the order pytest calls them.
func (r *reader) hookMarks(def *node, classHook *factory) (marks []paramMark, err error) {
	var hooks []*factory
	if classHook != nil {
		hooks = append(hooks, classHook)
	}
	if h := r.helpers["pytest_generate_tests"]; h != nil {
		hooks = append(hooks, h)
	}
	if len(hooks) == 0 {
		return nil, nil
	}
	defer r.recoverTo(&err)
	mf := &pyMetafunc{}
	for _, p := range r.kids(def.ChildByFieldId(fldParameters)) {
		if name, _, ok := r.param(p); ok && name != "self" {
			mf.fixturenames = append(mf.fixturenames, name)
		}
	}
	for _, h := range hooks {
		e := r.globalEnv()
		r.bindParams(h, def, []value{mf}, nil, e)
		r.factoryBlock(h, h.def.ChildByFieldId(fldBody), e) // a hook returns nothing
	}
	return mf.marks, nil
}

// classHook is the pytest_generate_tests method of the test class def
// (named name), as a helper taking metafunc (its self is not used); nil
// when the class has none.
func (r *reader) classHook(name string, def *node) *factory {
	var hook *factory
	for _, m := range r.kids(def.ChildByFieldId(fldBody)) {
		mdef, _ := r.undecorate(m)
		if mdef.Kind() != "function_definition" || r.text(mdef.ChildByFieldId(fldName)) != "pytest_generate_tests" {
			continue
		}
		params, _ := r.methodParams(mdef, false)
		// A later definition replaces an earlier one, as in the class's dict.
		hook = &factory{name: name + ".pytest_generate_tests", def: mdef, params: params, helper: true}
	}
	return hook
}

// hookAttr is metafunc.fixturenames and metafunc.config; ok is false for
// other values.
func (r *reader) hookAttr(at *node, v value, attr string) (value, bool) {
	switch v.(type) {
	case *pyMetafunc:
		switch attr {
		case "fixturenames":
			return append(pyList(nil), v.(*pyMetafunc).fixturenames...), true
		case "config":
			return pyConfig{}, true
		}
		r.fail(at, "metafunc.%s: the reader's metafunc has fixturenames, config and parametrize", attr)
	case pyConfig:
		r.fail(at, "config.%s: the reader's config has getoption only (no command-line options are given)", attr)
	}
	return nil, false
}

// methodCall evaluates the methods of Python values the reader knows
// that a hook and its helpers call: metafunc.parametrize,
// config.getoption, str.strip and str.split. ok is false when the callee
// is none of them.
func (r *reader) methodCall(n *node, e *env) (value, bool) {
	fnNode := n.ChildByFieldId(fldFunction)
	method := r.text(fnNode.ChildByFieldId(fldAttribute))
	switch method {
	case "parametrize", "getoption", "strip", "split":
	default:
		return nil, false
	}
	obj, err := r.tryEval(fnNode.ChildByFieldId(fldObject), e)
	if err != nil {
		return nil, false
	}
	switch o := obj.(type) {
	case *pyMetafunc:
		if method == "parametrize" {
			pos, kws := r.rawArgs(n)
			m := r.paramMarkIn(n, pos, kws, e)
			if pe, positioned := m.err.(*Error); positioned {
				panic(pe) // already at the argument it is about
			} else if m.err != nil {
				r.failErr(n, m.err)
			}
			o.marks = append(o.marks, m)
			return nil, true
		}
	case pyConfig:
		if method == "getoption" {
			pos, _, kws := r.args(n, e, nil)
			if len(pos) < 1 || len(pos) > 2 {
				r.fail(n, "config.getoption takes an option name and an optional default")
			}
			if len(pos) == 2 {
				return pos[1], true
			}
			for _, k := range kws {
				if k.name == "default" {
					return k.val, true
				}
			}
			return nil, true
		}
	case string:
		pos, _, kws := r.args(n, e, nil)
		if len(kws) > 0 {
			r.fail(kws[0].node, "str.%s: keyword arguments are not read", method)
		}
		switch method {
		case "strip":
			if len(pos) == 0 {
				return strings.TrimSpace(o), true
			}
			if cut, ok := pos[0].(string); ok && len(pos) == 1 {
				return strings.Trim(o, cut), true
			}
			r.fail(n, "str.strip takes one optional string")
		case "split":
			if len(pos) == 0 {
				out := pyList{}
				for _, f := range strings.Fields(o) {
					out = append(out, f)
				}
				return out, true
			}
			sep, ok := pos[0].(string)
			if !ok || sep == "" || len(pos) > 1 {
				r.fail(n, "str.split takes one non-empty string separator")
			}
			out := pyList{}
			for _, f := range strings.Split(o, sep) {
				out = append(out, f)
			}
			return out, true
		}
	}
	return nil, false
}
