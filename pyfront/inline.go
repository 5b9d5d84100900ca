//go:build cgo

package pyfront

import (
	"github.com/ptorepl/ptorepl/ir"
)

// Inline helpers. A module-level def decorated @pl.inline is a template
// that upstream's parser expands at each call site: the arguments are
// evaluated in the caller, the parameters bound to them, and the body's
// statements read into the calling function as if written there, their
// names visible to the caller afterwards; the helper's return value is
// the call's value (a tuple for `return a, b`). ptorepl reads
// @pl.jit.inline helpers the same way, so the program it builds holds
// them already spliced, where upstream's JIT emits an Inline function
// that its first pass (InlineFunctions) splices; being a function, such
// a helper's names do not reach the caller.

// inlineHelper is one @pl.inline or @pl.jit.inline def.
type inlineHelper struct {
	name   string
	dec    string // "pl.inline" or "pl.jit.inline"
	def    *node
	params []string
	// home reads the file the helper is written in (imports.go).
	home *reader
}

func (r *reader) inlineDecl(def *node, dec string) *inlineHelper {
	h := &inlineHelper{name: r.text(def.ChildByFieldId(fldName)), dec: dec, def: def, home: r}
	for _, p := range r.kids(def.ChildByFieldId(fldParameters)) {
		// Upstream binds every parameter positionally; a default is never used.
		name, _, ok := r.param(p)
		if !ok {
			r.fail(p, "@%s helper %s: unsupported parameter %s (expected a name, optionally annotated)", dec, h.name, r.text(p))
		}
		h.params = append(h.params, name)
	}
	if len(h.params) > 0 && h.params[0] == "self" {
		h.params = h.params[1:]
	}
	return h
}

// inlineCall splices h into fc at the call n with arguments pos and
// returns the helper's return value. The spliced statements go to
// fc.spliced, which the enclosing block emits before the statement that
// holds the call.
func (fc *fnCtx) inlineCall(n *node, h *inlineHelper, pos []value, kws []kwArg) value {
	r := fc.r
	if len(kws) > 0 {
		r.fail(kws[0].node, "inline function %s takes no keyword arguments, given %s=", h.name, kws[0].name)
	}
	if len(pos) != len(h.params) {
		r.fail(n, "inline function %s expects %d argument(s), got %d", h.name, len(h.params), len(pos))
	}
	if fc.inlining[h] {
		r.fail(n, "inline function %s calls itself: an inline helper is spliced, so it cannot recurse", h.name)
	}
	if fc.inlining == nil {
		fc.inlining = map[*inlineHelper]bool{}
	}
	fc.inlining[h] = true
	defer delete(fc.inlining, h)
	// A helper's pl.dump_tag marks its own calls only, as upstream parses
	// the helper on its own before splicing it.
	defer func(tags []*ir.Var) { fc.dumpTagged = tags }(fc.dumpTagged)
	defer r.enter(h.home)()
	// An @pl.inline helper's parameters (and whatever its body defines)
	// stay bound in the caller's scope after the call, as upstream's
	// parser leaks them. An @pl.jit.inline helper is a function of its
	// own that InlineFunctions splices with its parameters substituted:
	// its names stay its own, so a parameter named like a caller's
	// variable does not rebind that variable.
	if h.dec == "pl.jit.inline" {
		defer func(e *env) { fc.env = e }(fc.env)
		fc.env = fc.env.child()
	}
	for i, p := range h.params {
		fc.bind(p, pos[i])
	}
	var ret value
	body := h.def.ChildByFieldId(fldBody)
	kids := r.kids(body)
	for _, c := range kids {
		if c.Kind() != "return_statement" {
			if nested := r.findKind(c, "return_statement"); nested != nil {
				r.fail(nested, "inline function %s: a return must be the helper's last statement, not inside its if or for", h.name)
			}
		}
	}
	last := len(kids) - 1
	for last > 0 && kids[last].Kind() == "comment" {
		last--
	}
	for i, c := range kids {
		if c.Kind() == "comment" {
			continue
		}
		if c.Kind() == "return_statement" {
			if i != last {
				r.fail(c, "inline function %s: a return must be the helper's last statement", h.name)
			}
			ret = fc.inlineReturn(c)
			continue
		}
		stmts := fc.stmt(c, nil)
		fc.spliced = append(fc.spliced, stmts...)
	}
	if ret == nil {
		r.fail(n, "inline function %s has no return value: a helper used in an expression must return one", h.name)
	}
	return ret
}

// findKind is the first node of kind k at or below n, or nil.
func (r *reader) findKind(n *node, k string) *node {
	if n.Kind() == k {
		return n
	}
	for _, c := range r.kids(n) {
		if f := r.findKind(c, k); f != nil {
			return f
		}
	}
	return nil
}

// inlineReturn is the value of a helper's `return x` (a tuple for
// `return a, b`).
func (fc *fnCtx) inlineReturn(n *node) value {
	vals, list := fc.returnValues(n)
	switch {
	case list:
		return &ir.MakeTuple{Elems: vals, Pos: fc.r.pos(n)}
	case len(vals) == 1:
		return vals[0]
	}
	return nil
}
