//go:build cgo

package pyfront

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Python data that test files compute their programs' constants with:
// dict literals keyed by a harness's enum (_PL_DT = {DataType.FP32:
// pl.FP32}), Python truthiness (out_m or m, x if valid else y), `is` /
// `in` comparisons, and the lists parametrize values are built with (list
// comprehensions, * splices).

// pyDict is a dict literal's entries in order.
type pyDict struct {
	keys, vals []value
}

// foreignSymbol is an attribute of a name imported from a module ptorepl
// does not read (DataType.FP32 from upstream's test harness): it equals
// itself and keys a dict, nothing more.
type foreignSymbol struct {
	name, from string
}

func (s foreignSymbol) String() string {
	return fmt.Sprintf("%s (from %s, which ptorepl does not read)", s.name, s.from)
}

// dict evaluates a dict literal.
func (r *reader) dict(n *node, e *env, fc *fnCtx) value {
	d := &pyDict{}
	for _, p := range r.kids(n) {
		if p.Kind() == "dictionary_splat" {
			// {**BASE, k: v}: BASE's entries first.
			base, ok := r.evalIn(r.kids(p)[0], e, fc).(*pyDict)
			if !ok {
				r.fail(p, "** in a dict literal needs a dict, given %s", r.text(p))
			}
			for i, k := range base.keys {
				d.set(k, base.vals[i])
			}
			continue
		}
		if p.Kind() != "pair" {
			r.fail(p, "unsupported dict entry %s (write key: value)", r.text(p))
		}
		k := r.evalIn(p.ChildByFieldId(fldKey), e, fc)
		if _, isIR := k.(ir.Expr); isIR {
			r.fail(p, "a dict key must be known before the program runs, given %s", describe(k))
		}
		d.set(k, r.evalIn(p.ChildByFieldId(fldValue), e, fc))
	}
	return d
}

// set binds k to v, in place when k is already a key.
func (d *pyDict) set(k, v value) {
	if i := d.find(k); i >= 0 {
		d.vals[i] = v
		return
	}
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, v)
}

// find is the index of key k, or -1.
func (d *pyDict) find(k value) int {
	for i, x := range d.keys {
		if pyEqual(x, k) {
			return i
		}
	}
	return -1
}

// pyEqual is Python's == on the constants the reader computes.
func pyEqual(a, b value) bool {
	if v, ok := foldPy(ir.OpEq, a, b); ok {
		eq, _ := v.(bool)
		return eq
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case foreignSymbol:
		y, ok := b.(foreignSymbol)
		return ok && x.name == y.name
	case enumMember:
		y, ok := b.(enumMember)
		return ok && x == y
	case ir.DataType:
		y, ok := b.(ir.DataType)
		return ok && x == y
	case pyTuple:
		y, ok := b.(pyTuple)
		return ok && seqEqual(x, y)
	case pyList:
		y, ok := b.(pyList)
		return ok && seqEqual(x, y)
	}
	return false
}

func seqEqual(a, b []value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !pyEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// pyTruth is Python's truth of a constant; ok is false for a value the
// program computes (an IR expression), whose truth is not known here.
func pyTruth(v value) (truth, ok bool) {
	switch x := v.(type) {
	case nil:
		return false, true
	case bool:
		return x, true
	case int64:
		return x != 0, true
	case float64:
		return x != 0, true
	case string:
		return x != "", true
	case pyList:
		return len(x) > 0, true
	case pyTuple:
		return len(x) > 0, true
	case *pyDict:
		return len(x.keys) > 0, true
	case foreignSymbol, enumMember, ir.DataType:
		return true, true
	}
	return false, false
}

// identity answers `a is b`, `a is not b`, `a in b` and `a not in b` on
// constants; ok is false for other operators.
func (r *reader) identity(n *node, op string, l, rt value) (value, bool) {
	switch op {
	case "is", "is not":
		if _, isIR := l.(ir.Expr); isIR {
			r.fail(n, "%s: expected values known before the program runs, given %s", op, describe(l))
		}
		return pyEqual(l, rt) == (op == "is"), true
	case "in", "not in":
		var items []value
		switch c := rt.(type) {
		case pyList:
			items = c
		case pyTuple:
			items = c
		case *pyDict:
			items = c.keys
		default:
			r.fail(n, "%s: expected a list, tuple or dict, given %s", op, describe(rt))
		}
		found := false
		for _, x := range items {
			if pyEqual(x, l) {
				found = true
				break
			}
		}
		return found == (op == "in"), true
	}
	return nil, false
}

// sequence converts list(x) and tuple(x) arguments.
func (r *reader) sequence(n *node, callee string, pos []value) value {
	if len(pos) == 0 {
		if callee == "list" {
			return pyList{}
		}
		return pyTuple{}
	}
	if len(pos) != 1 {
		r.fail(n, "%s: expected one argument, given %d", callee, len(pos))
	}
	items, ok := seqOf(pos[0]).([]value)
	if d, isDict := pos[0].(*pyDict); isDict {
		items, ok = d.keys, true
	}
	if !ok {
		r.fail(n, "%s: expected a list, tuple or dict, given %s", callee, describe(pos[0]))
	}
	out := append([]value(nil), items...)
	if callee == "list" {
		return pyList(out)
	}
	return pyTuple(out)
}

// foreignAttr evaluates Name.attr where Name comes from a module ptorepl
// does not read; ok is false otherwise.
func (r *reader) foreignAttr(n *node, e *env) (value, bool) {
	obj := n.ChildByFieldId(fldObject)
	// A.b.c.d: the chain's root decides.
	for obj != nil && obj.Kind() == "attribute" {
		obj = obj.ChildByFieldId(fldObject)
	}
	if obj == nil || obj.Kind() != "identifier" {
		return nil, false
	}
	name := r.text(obj)
	if e != nil {
		if _, bound := e.lookup(name); bound {
			return nil, false
		}
	}
	from, ok := r.foreign[name]
	if !ok {
		return nil, false
	}
	return foreignSymbol{name: r.text(n), from: from}, true
}

// seqOf is a list's or tuple's items ([]value), or v itself.
func seqOf(v value) value {
	switch s := v.(type) {
	case pyList:
		return []value(s)
	case pyTuple:
		return []value(s)
	}
	return v
}

// item is what one element of a list or tuple literal contributes: its
// value, or a starred sequence's items.
func (r *reader) item(c *node, e *env, fc *fnCtx) []value {
	if c.Kind() != "list_splat" {
		return []value{r.evalIn(c, e, fc)}
	}
	v := r.evalIn(r.kids(c)[0], e, fc)
	items, ok := seqOf(v).([]value)
	if !ok {
		r.fail(c, "* in a list or tuple needs a list or tuple, given %s", describe(v))
	}
	return items
}

// comprehension evaluates a list comprehension over compile-time
// sequences: [expr for x in xs if cond ...].
func (r *reader) comprehension(n *node, e *env, fc *fnCtx) value {
	ks := r.kids(n)
	body, clauses := ks[0], ks[1:]
	out := pyList{}
	// Bounded, so a file cannot keep the reader busy for ever.
	const maxSteps = 1 << 16
	steps := 0
	var run func(i int, e *env)
	run = func(i int, e *env) {
		if i == len(clauses) {
			out = append(out, r.evalIn(body, e, fc))
			return
		}
		c := clauses[i]
		switch c.Kind() {
		case "for_in_clause":
			left := c.ChildByFieldId(fldLeft)
			seq := r.evalIn(c.ChildByFieldId(fldRight), e, fc)
			items, ok := seqOf(seq).([]value)
			if !ok {
				r.fail(c, "a comprehension needs a list or tuple to run over, given %s", describe(seq))
			}
			for _, it := range items {
				if steps++; steps > maxSteps {
					r.fail(n, "a comprehension of more than %d steps", maxSteps)
				}
				inner := e.child()
				r.bindTarget(left, it, inner)
				run(i+1, inner)
			}
		case "if_clause":
			v := r.evalIn(r.kids(c)[0], e, fc)
			t, ok := pyTruth(v)
			if !ok {
				r.fail(c, "a comprehension's if needs a compile-time condition, given %s", describe(v))
			}
			if t {
				run(i+1, e)
			}
		default:
			r.fail(c, "unsupported Python construct: %s", kindText(c.Kind()))
		}
	}
	run(0, e)
	return out
}

// bindTarget binds a comprehension's loop target (a name or a tuple of
// names) to v.
func (r *reader) bindTarget(t *node, v value, e *env) {
	switch t.Kind() {
	case "identifier":
		e.vars[r.text(t)] = v
		return
	case "pattern_list", "tuple_pattern", "tuple", "list_pattern", "list":
		items, ok := seqOf(v).([]value)
		ts := r.kids(t)
		if !ok || len(items) != len(ts) {
			r.fail(t, "cannot unpack %s into %s", describe(v), r.text(t))
		}
		for i, k := range ts {
			r.bindTarget(k, items[i], e)
		}
		return
	}
	r.fail(t, "unsupported loop target %s", r.text(t))
}
