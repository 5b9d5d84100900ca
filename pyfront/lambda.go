//go:build cgo

package pyfront

// Lambdas. Upstream's tests hand a case the program to build as a
// closure (_PhaseFenceCase(name, lambda: _build_x(epochs=epochs), ...)),
// which get_program calls through self. Outside PyPTO functions the reader
// keeps a lambda as a value with the scope it was written in, and calls
// it like Python: parameters (defaults evaluated where the lambda is
// written) bound by position or keyword, then the body evaluated.

// pyLambda is a lambda expression and the scope it closes over.
type pyLambda struct {
	def *node
	env *env
}

func (l *pyLambda) String() string { return "a lambda" }

// callLambda runs l with the call's arguments.
func (r *reader) callLambda(l *pyLambda, at *node, pos []value, kws []kwArg) value {
	e := l.env.child()
	var names []string
	if ps := l.def.ChildByFieldId(fldParameters); ps != nil {
		for _, p := range r.kids(ps) {
			switch p.Kind() {
			case "identifier":
				names = append(names, r.text(p))
			case "default_parameter":
				name := r.text(p.ChildByFieldId(fldName))
				names = append(names, name)
				e.vars[name] = r.evalIn(p.ChildByFieldId(fldValue), l.env, nil)
			default:
				r.fail(p, "a lambda's parameters may be names and names with defaults, given %s", r.text(p))
			}
		}
	}
	if len(pos) > len(names) {
		r.fail(at, "the lambda takes %d arguments, given %d", len(names), len(pos))
	}
	for i, v := range pos {
		e.vars[names[i]] = v
	}
	for _, kw := range kws {
		known := false
		for _, n := range names {
			known = known || n == kw.name
		}
		if !known {
			r.fail(kw.node, "the lambda has no parameter %s", kw.name)
		}
		e.vars[kw.name] = kw.val
	}
	for _, n := range names {
		if _, ok := e.vars[n]; !ok {
			r.fail(at, "the lambda's parameter %s is not given", n)
		}
	}
	return r.evalIn(l.def.ChildByFieldId(fldBody), e, nil)
}
