package pyfront

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Upstream's @pl.jit specializes a function on the tensors a call passes:
// a parameter annotated with a bare pl.Tensor (or pl.Out[pl.Tensor]) takes
// the shape and dtype of its argument. ptorepl does not run a file's
// Python, but its examples build their sample tensors with torch
// constructors in the __main__ block (a = torch.zeros((128, 128),
// dtype=torch.float32); tile_add(a, b, c)). The reader reads those
// constructors' shapes and dtypes, and the first call of each @pl.jit
// function then gives its bare parameters their types. Nothing there is
// executed; what it cannot size is left alone.

// sample is the shape and dtype of a tensor the __main__ block builds,
// or, when scalar is set, a Python number or bool a call passes (a jit
// function's scalar parameter is a specialization constant).
type sample struct {
	shape  []int64
	dt     ir.DataType
	scalar value
}

// torchDTypes are the torch dtypes a sample may have.
var torchDTypes = map[string]ir.DataType{
	"torch.float32": ir.FP32, "torch.float": ir.FP32, "torch.float16": ir.FP16, "torch.half": ir.FP16,
	"torch.bfloat16": ir.BF16, "torch.int32": ir.INT32, "torch.int": ir.INT32, "torch.int64": ir.INT64,
	"torch.long": ir.INT64, "torch.int16": ir.INT16, "torch.int8": ir.INT8, "torch.uint8": ir.UINT8,
	"torch.bool": ir.BOOL,
}

// sval is what the sample walk knows of a Python value: a *sample, a
// fnRef, an int64, a seq (tuple or list), a *sdict, or nil (unknown).
type sval any

// fnRef names a module-level function a value refers to (a kernel kept in
// a table of cases).
type fnRef string

// seq is a tuple or list of values.
type seq []sval

// sdict is a dict literal's keys and values, in order.
type sdict struct{ keys, vals seq }

// oneOf is D[k] for a key not known without running the file: any of the
// dict's values. A call of it specializes every function among them.
type oneOf seq

// scanSamples reads the module's top-level statements, its __main__ block
// and its undecorated functions (def main, the harness functions examples
// drive kernels from) for sample tensors and the calls that pass them; r.specs gets, per
// called function, each argument's sample (the first call that sizes it
// wins). Calls through tables of cases count: a loop over a literal tuple,
// list or dict (.items(), .values()) binds its targets to each element in
// turn, fn(*args) spreads a tuple of samples, and D[key] calls the dict's
// function for a literal key or each of them for another.
func (r *reader) scanSamples(root *node) {
	global := map[string]sval{}
	r.sampleMakers = map[string]*node{}
	r.sampleDefs = map[string]*node{}
	var blocks, top []*node
	for i := uint(0); i < root.NamedChildCount(); i++ {
		n := root.NamedChild(i)
		switch n.Kind() {
		case "expression_statement":
			// A script may call its kernels at module level, with no
			// __main__ guard (A = torch.randn(ROWS, COLS); k(A, B, c)):
			// those statements are walked in order, before the blocks.
			top = append(top, n)
			// Module-level tables of kernels (_MODES = {"a": kernel_a}).
			if a := n.NamedChild(0); a != nil && a.Kind() == "assignment" {
				left, right := a.ChildByFieldId(fldLeft), a.ChildByFieldId(fldRight)
				if left != nil && right != nil && left.Kind() == "identifier" && (right.Kind() == "dictionary" || right.Kind() == "tuple" || right.Kind() == "list") {
					global[r.text(left)] = r.svalue(right, global)
				}
			}
		case "for_statement", "with_statement":
			top = append(top, n) // for kernel in (k1, k2): kernel(A, B, c)
		case "if_statement":
			cond := strings.Join(strings.Fields(r.text(n.ChildByFieldId(fldCondition))), " ")
			if cond == `__name__ == "__main__"` || cond == `__name__ == '__main__'` {
				blocks = append(blocks, n.ChildByFieldId(fldConsequence))
			}
		case "function_definition":
			// main, and the other undecorated functions such files drive
			// their kernels from (each sees only its own samples).
			blocks = append(blocks, n.ChildByFieldId(fldBody))
			if name := n.ChildByFieldId(fldName); name != nil {
				r.sampleMakers[r.text(name)] = n.ChildByFieldId(fldBody)
				r.sampleDefs[r.text(name)] = n
			}
		case "decorated_definition":
			// A pytest function (@pytest.mark.parametrize def test_x) or
			// class (@pytest.mark.platforms(...) class TestX): not a PyPTO
			// definition.
			if r.plDecorated(n) {
				continue
			}
			switch def := n.ChildByFieldId(fldDefinition); {
			case def != nil && def.Kind() == "function_definition":
				blocks = append(blocks, def.ChildByFieldId(fldBody))
			case def != nil && def.Kind() == "class_definition":
				blocks = append(blocks, r.testMethods(def)...)
			}
		case "class_definition":
			if !r.plDecorated(n) {
				blocks = append(blocks, r.testMethods(n)...)
			}
		}
	}
	module := make(map[string]sval, len(global))
	for k, v := range global {
		module[k] = v
	}
	for _, s := range top {
		r.walkSamples(s, module)
	}
	for _, b := range blocks {
		vars := make(map[string]sval, len(global))
		for k, v := range global {
			vars[k] = v
		}
		r.walkSamples(b, vars)
	}
}

// testMethods are the bodies of a pytest class's methods (class TestX:
// def test_y(self)), decorated or not.
func (r *reader) testMethods(class *node) []*node {
	var out []*node
	for _, m := range r.kids(class.ChildByFieldId(fldBody)) {
		if m.Kind() == "decorated_definition" && !r.plDecorated(m) {
			m = m.ChildByFieldId(fldDefinition)
		}
		if m != nil && m.Kind() == "function_definition" {
			out = append(out, m.ChildByFieldId(fldBody))
		}
	}
	return out
}

// walkSamples visits statements in order: assignments bind what their
// values are known to be; calls record specializations.
func (r *reader) walkSamples(n *node, vars map[string]sval) {
	if n == nil {
		return
	}
	switch n.Kind() {
	case "assignment":
		left, right := n.ChildByFieldId(fldLeft), n.ChildByFieldId(fldRight)
		if right != nil {
			r.walkSamples(right, vars)
		}
		if left != nil {
			var v sval
			if right != nil {
				v = r.svalue(right, vars)
			}
			r.bindSample(left, v, vars)
		}
		return
	case "for_statement":
		left, right, body := n.ChildByFieldId(fldLeft), n.ChildByFieldId(fldRight), n.ChildByFieldId(fldBody)
		if items, ok := r.svalue(right, vars).(seq); ok && left != nil && len(items) <= maxUnroll {
			for _, it := range items {
				r.bindSample(left, it, vars)
				r.walkSamples(body, vars)
			}
			return
		}
		if left != nil {
			r.bindSample(left, nil, vars)
		}
		r.walkSamples(body, vars)
		return
	case "call":
		r.sampleCall(n, vars)
	case "function_definition", "class_definition":
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		r.walkSamples(n.NamedChild(i), vars)
	}
}

// maxUnroll bounds the elements a loop of the sample walk is followed
// through, one pass each.
const maxUnroll = 64

// bindSample binds an assignment or loop target to v, unpacking tuples;
// a name bound to something unknown is forgotten.
func (r *reader) bindSample(target *node, v sval, vars map[string]sval) {
	switch target.Kind() {
	case "identifier":
		if v == nil {
			delete(vars, r.text(target))
		} else {
			vars[r.text(target)] = v
		}
	case "pattern_list", "tuple_pattern", "tuple", "list_pattern", "list", "parenthesized_expression":
		kids := r.kids(target)
		vs, ok := v.(seq)
		for i, k := range kids {
			var e sval
			if ok && len(vs) == len(kids) {
				e = vs[i]
			}
			r.bindSample(k, e, vars)
		}
	}
}

// sampleCall records the specialization a call gives: its callee (a
// function, a variable bound to one, f.lower / f.compile, D[key]) and its
// arguments' samples (*args spreads a tuple).
func (r *reader) sampleCall(n *node, vars map[string]sval) {
	if f := n.ChildByFieldId(fldFunction); f != nil && f.Kind() == "identifier" && r.sampleDepth < 4 {
		if def := r.sampleDefs[r.text(f)]; def != nil {
			r.helperCall(def, n, vars)
			return
		}
	}
	var names []string
	var callee func(f *node)
	callee = func(f *node) {
		switch f.Kind() {
		case "identifier":
			switch v := vars[r.text(f)].(type) {
			case fnRef:
				names = append(names, string(v))
			case nil:
				names = append(names, r.text(f))
			}
		case "attribute":
			// f.lower(a, c) and f.compile(a, c) specialize like f(a, c).
			if at := r.text(f.ChildByFieldId(fldAttribute)); at == "lower" || at == "compile" {
				if obj := f.ChildByFieldId(fldObject); obj != nil {
					callee(obj)
				}
			}
		case "subscript":
			switch v := r.svalue(f, vars).(type) {
			case fnRef:
				names = append(names, string(v))
			case oneOf:
				for _, e := range v {
					if fn, ok := e.(fnRef); ok {
						names = append(names, string(fn))
					}
				}
			}
		}
	}
	if f := n.ChildByFieldId(fldFunction); f != nil {
		callee(f)
	}
	if len(names) == 0 {
		return
	}
	var args []*sample
	sized := false
	for _, a := range r.kids(n.ChildByFieldId(fldArguments)) {
		switch a.Kind() {
		case "keyword_argument":
			continue
		case "list_splat":
			spread, ok := r.svalue(r.kids(a)[0], vars).(seq)
			if !ok {
				return // how many arguments is not known
			}
			for _, e := range spread {
				s, _ := e.(*sample)
				sized = sized || s != nil
				args = append(args, s)
			}
			continue
		}
		var s *sample
		switch v := r.svalue(a, vars).(type) {
		case *sample:
			s = v
		case int64, float64, bool:
			s = &sample{scalar: v}
		}
		sized = sized || s != nil
		args = append(args, s)
	}
	if !sized {
		return
	}
	if r.specs == nil {
		r.specs = map[string][]*sample{}
	}
	for _, name := range names {
		// The first call that sizes an argument gives its type.
		have := r.specs[name]
		for i, s := range args {
			if i >= len(have) {
				have = append(have, s)
			} else if have[i] == nil {
				have[i] = s
			}
		}
		r.specs[name] = have
	}
}

// svalue is what the walk knows of expression n: a sample tensor (a torch
// constructor, x.clone() of one), a tuple, list or dict of known values, a
// bound name, an integer (a literal or module constant), or a reference to
// a module-level function; nil otherwise.
func (r *reader) svalue(n *node, vars map[string]sval) sval {
	if n == nil {
		return nil
	}
	switch n.Kind() {
	case "identifier":
		name := r.text(n)
		if v, ok := vars[name]; ok {
			return v
		}
		if v, err := r.tryEval(n, r.globalEnv()); err == nil {
			if i, ok := v.(int64); ok {
				return i
			}
			return nil
		}
		return fnRef(name)
	case "integer", "float", "true", "false", "unary_operator":
		if v, err := r.tryEval(n, r.globalEnv()); err == nil {
			switch v.(type) {
			case int64, float64, bool:
				return v
			}
		}
	case "string":
		return r.text(n)
	case "parenthesized_expression":
		if kids := r.kids(n); len(kids) == 1 {
			return r.svalue(kids[0], vars)
		}
	case "binary_operator":
		// torch.randn(m, k) * 0.05 keeps the tensor's shape and dtype.
		for _, side := range []*node{n.ChildByFieldId(fldLeft), n.ChildByFieldId(fldRight)} {
			if s, ok := r.svalue(side, vars).(*sample); ok && s.scalar == nil {
				return s
			}
		}
	case "tuple", "list", "expression_list":
		var out seq
		for _, k := range r.kids(n) {
			out = append(out, r.svalue(k, vars))
		}
		return out
	case "dictionary":
		d := &sdict{}
		for _, p := range r.kids(n) {
			if p.Kind() != "pair" {
				return nil // **spread
			}
			d.keys = append(d.keys, r.svalue(p.ChildByFieldId(fldKey), vars))
			d.vals = append(d.vals, r.svalue(p.ChildByFieldId(fldValue), vars))
		}
		return d
	case "subscript":
		base := r.svalue(n.ChildByFieldId(fldValue), vars)
		if s, ok := base.(*sample); ok && s.scalar == nil {
			return r.sliceSample(s, r.subscriptArgs(n), vars)
		}
		d, ok := base.(*sdict)
		if !ok {
			return nil
		}
		subs := r.subscriptArgs(n)
		if len(subs) == 1 {
			if key, ok := r.svalue(subs[0], vars).(string); ok {
				for i, k := range d.keys {
					if k == key {
						return d.vals[i]
					}
				}
				return nil
			}
		}
		return oneOf(d.vals)
	case "call":
		if f := n.ChildByFieldId(fldFunction); f != nil && f.Kind() == "attribute" && len(r.kids(n.ChildByFieldId(fldArguments))) == 0 {
			obj := f.ChildByFieldId(fldObject)
			switch at := r.text(f.ChildByFieldId(fldAttribute)); at {
			case "clone", "contiguous", "detach", "share_memory_", "cpu":
				if s, ok := r.svalue(obj, vars).(*sample); ok {
					return s
				}
				return nil
			case "bfloat16", "half", "float", "int", "long", "short":
				// x.bfloat16(): the same shape in another dtype.
				if s, ok := r.svalue(obj, vars).(*sample); ok && s.scalar == nil {
					c := *s
					c.dt = map[string]ir.DataType{"bfloat16": ir.BF16, "half": ir.FP16, "float": ir.FP32, "int": ir.INT32, "long": ir.INT64, "short": ir.INT16}[at]
					return &c
				}
				return nil
			case "items", "values", "keys":
				d, ok := r.svalue(obj, vars).(*sdict)
				if !ok {
					return nil
				}
				switch r.text(f.ChildByFieldId(fldAttribute)) {
				case "values":
					return d.vals
				case "keys":
					return d.keys
				}
				out := make(seq, len(d.keys))
				for i := range d.keys {
					out[i] = seq{d.keys[i], d.vals[i]}
				}
				return out
			}
		}
		if s := r.torchSample(n, vars); s != nil {
			return s
		}
		// a, c, expected = _make_inputs(): what a plain function of the
		// file that builds samples returns.
		if f := n.ChildByFieldId(fldFunction); f != nil && f.Kind() == "identifier" && r.sampleDepth < 4 {
			if body := r.sampleMakers[r.text(f)]; body != nil {
				return r.madeSamples(body, r.boundParams(r.sampleDefs[r.text(f)], n, vars))
			}
		}
	}
	return nil
}

// helperCall walks a plain function of the file called with arguments
// (check(kernel), check(kernel, rows)): its body sees the caller's samples
// and its parameters bound to the arguments' values, so the calls it makes
// of a kernel it was passed size that kernel.
func (r *reader) helperCall(def, call *node, vars map[string]sval) {
	r.sampleDepth++
	defer func() { r.sampleDepth-- }()
	inner := make(map[string]sval, len(vars))
	for k, v := range vars {
		inner[k] = v
	}
	// A parameter hides the caller's name of the same name, bound or not.
	for _, p := range r.kids(def.ChildByFieldId(fldParameters)) {
		if name, _, ok := r.param(p); ok {
			delete(inner, name)
		}
	}
	for k, v := range r.boundParams(def, call, vars) {
		inner[k] = v
	}
	r.walkSamples(def.ChildByFieldId(fldBody), inner)
}

// sliceSample is the sample a subscript of s gives (A[:64], A[rows:, 0:8]):
// each slice with constant bounds narrows its dimension, an integer index
// drops it, the dimensions not named stay; nil for anything else.
func (r *reader) sliceSample(s *sample, subs []*node, vars map[string]sval) sval {
	if len(subs) > len(s.shape) {
		return nil
	}
	constant := func(n *node) (int64, bool) {
		if i, ok := r.svalue(n, vars).(int64); ok {
			return i, true // a bound name, a literal or a module constant
		}
		v, err := r.tryEval(n, r.globalEnv())
		i, ok := v.(int64)
		return i, err == nil && ok
	}
	var shape []int64
	for d, sub := range subs {
		size := s.shape[d]
		if sub.Kind() != "slice" {
			if _, ok := constant(sub); !ok {
				return nil
			}
			continue // an index drops the dimension
		}
		// [start]:[stop] (no step): the bounds are the children around
		// the first colon.
		bound := [2]int64{0, size}
		part := 0
		for i := uint(0); i < sub.ChildCount(); i++ {
			c := sub.Child(i)
			if c.Kind() == ":" {
				part++
				continue
			}
			if part > 1 {
				return nil // a step
			}
			v, ok := constant(c)
			if !ok {
				return nil
			}
			if v < 0 {
				v += size
			}
			bound[part] = min(max(v, 0), size)
		}
		shape = append(shape, max(bound[1]-bound[0], 0))
	}
	shape = append(shape, s.shape[len(subs):]...)
	return &sample{shape: shape, dt: s.dt}
}

// boundParams are the values a call of a plain function of the file binds
// its parameters to: the arguments' values in order, else the defaults
// (def fresh(rows=ROWS)) that are integers.
func (r *reader) boundParams(def, call *node, vars map[string]sval) map[string]sval {
	out := map[string]sval{}
	if def == nil {
		return out
	}
	var args []*node
	for _, a := range r.kids(call.ChildByFieldId(fldArguments)) {
		if a.Kind() != "keyword_argument" && a.Kind() != "list_splat" && a.Kind() != "dictionary_splat" {
			args = append(args, a)
		}
	}
	for i, p := range r.kids(def.ChildByFieldId(fldParameters)) {
		name, dflt, ok := r.param(p)
		if !ok {
			continue
		}
		var v sval
		if i < len(args) {
			v = r.svalue(args[i], vars)
		} else if dflt != nil {
			if d, err := r.tryEval(dflt, r.globalEnv()); err == nil {
				if n, isInt := d.(int64); isInt {
					v = n
				}
			}
		}
		if v != nil {
			out[name] = v
		}
	}
	return out
}

// madeSamples is what a sample-building function returns: its body's
// samples, read in order (its parameters bound to vars), then the value of
// its first top-level return.
func (r *reader) madeSamples(body *node, vars map[string]sval) sval {
	r.sampleDepth++
	defer func() { r.sampleDepth-- }()
	for _, st := range r.kids(body) {
		if st.Kind() == "return_statement" {
			if kids := r.kids(st); len(kids) == 1 {
				if kids[0].Kind() == "expression_list" {
					var out seq
					for _, k := range r.kids(kids[0]) {
						out = append(out, r.svalue(k, vars))
					}
					return out
				}
				return r.svalue(kids[0], vars)
			}
			return nil
		}
		r.walkSamples(st, vars)
	}
	return nil
}

// torchSample sizes torch.zeros/ones/empty/rand/randn((d0, d1), dtype=...),
// torch.full((d0, d1), v, dtype=...), their dims-as-arguments forms
// (torch.randn(32, 128)), and torch.zeros_like(x) of a known x; nil
// otherwise. Dimensions may name module constants.
func (r *reader) torchSample(n *node, vars map[string]sval) *sample {
	if n.Kind() != "call" {
		return nil
	}
	callee := r.dotted(n.ChildByFieldId(fldFunction))
	args := r.kids(n.ChildByFieldId(fldArguments))
	dt := ir.FP32
	var pos []*node
	for _, a := range args {
		if a.Kind() != "keyword_argument" {
			pos = append(pos, a)
			continue
		}
		if r.text(a.ChildByFieldId(fldName)) == "dtype" {
			d, ok := torchDTypes[r.dotted(a.ChildByFieldId(fldValue))]
			if !ok {
				return nil
			}
			dt = d
		}
	}
	switch callee {
	case "torch.zeros_like", "torch.ones_like", "torch.empty_like", "torch.randn_like", "torch.rand_like":
		if len(pos) == 1 && pos[0].Kind() == "identifier" {
			if s, ok := vars[r.text(pos[0])].(*sample); ok {
				c := *s
				return &c
			}
		}
		return nil
	case "torch.tensor":
		// torch.tensor([1, 48, 64], dtype=torch.int64): the nesting is the
		// shape; without dtype=, ints are INT64 and any float FP32.
		if len(pos) != 1 {
			return nil
		}
		shape, kind, ok := r.literalShape(pos[0])
		if !ok || len(shape) == 0 {
			return nil
		}
		if !hasKw(r, args, "dtype") {
			dt = map[string]ir.DataType{"int": ir.INT64, "float": ir.FP32, "bool": ir.BOOL}[kind]
		}
		return &sample{shape: shape, dt: dt}
	case "torch.full":
		if len(pos) != 2 {
			return nil
		}
		pos = pos[:1]
	case "torch.randint":
		// torch.randint([low,] high, size, dtype=): the size is the last
		// positional argument, a tuple or list; ints default to INT64.
		if len(pos) < 2 || (pos[len(pos)-1].Kind() != "tuple" && pos[len(pos)-1].Kind() != "list") {
			return nil
		}
		pos = pos[len(pos)-1:]
		if !hasKw(r, args, "dtype") {
			dt = ir.INT64
		}
	case "torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn":
	default:
		return nil
	}
	var dims []*node
	if len(pos) == 1 && (pos[0].Kind() == "tuple" || pos[0].Kind() == "list") {
		dims = r.kids(pos[0])
	} else {
		dims = pos
	}
	if len(dims) == 0 {
		return nil
	}
	s := &sample{dt: dt}
	for _, d := range dims {
		// A dimension a loop binds (for fn, K in cases: torch.randn(256, K)).
		n, ok := r.svalue(d, vars).(int64)
		if !ok {
			v, err := r.tryEval(d, r.globalEnv())
			n, ok = v.(int64)
			if err != nil {
				ok = false
			}
		}
		if !ok || n <= 0 {
			return nil
		}
		s.shape = append(s.shape, n)
	}
	return s
}

// literalShape is the shape of a rectangular nested list or tuple of
// number literals, and the kind of its elements ("int", "float", "bool").
func (r *reader) literalShape(n *node) (shape []int64, kind string, ok bool) {
	switch n.Kind() {
	case "list", "tuple":
		kids := r.kids(n)
		if len(kids) == 0 {
			return nil, "", false
		}
		var inner []int64
		for i, k := range kids {
			s, kk, ok := r.literalShape(k)
			if !ok || (i > 0 && len(s) != len(inner)) {
				return nil, "", false
			}
			for j := range s {
				if i > 0 && s[j] != inner[j] {
					return nil, "", false
				}
			}
			inner = s
			if kind == "" || kk == "float" || (kk == "int" && kind == "bool") {
				kind = kk
			}
		}
		return append([]int64{int64(len(kids))}, inner...), kind, true
	case "integer":
		return nil, "int", true
	case "float":
		return nil, "float", true
	case "true", "false":
		return nil, "bool", true
	case "unary_operator":
		return r.literalShape(n.ChildByFieldId(fldArgument))
	case "identifier":
		if v, err := r.tryEval(n, r.globalEnv()); err == nil {
			switch v.(type) {
			case int64:
				return nil, "int", true
			case float64:
				return nil, "float", true
			}
		}
	}
	return nil, "", false
}

// hasKw reports whether a call's arguments name keyword name.
func hasKw(r *reader, args []*node, name string) bool {
	for _, a := range args {
		if a.Kind() == "keyword_argument" && r.text(a.ChildByFieldId(fldName)) == name {
			return true
		}
	}
	return false
}

// bareTensor reports whether a parameter annotation is a bare pl.Tensor
// or pld.DistributedTensor, alone or in pl.Out[...] / pl.InOut[...] (its
// direction then).
func (r *reader) bareTensor(t *node) (dir ir.ParamDirection, ok bool) {
	dir, head := r.bareHead(t)
	return dir, head != ""
}

// bareHead is bareTensor's direction and the bare type's name ("" when
// the annotation is not bare).
func (r *reader) bareHead(t *node) (dir ir.ParamDirection, head string) {
	if t.Kind() == "type" {
		t = r.kids(t)[0]
	}
	dir = ir.In
	if t.Kind() == "subscript" {
		switch r.dotted(t.ChildByFieldId(fldValue)) {
		case "pl.Out":
			dir = ir.Out
		case "pl.InOut":
			dir = ir.InOut
		default:
			return 0, ""
		}
		subs := r.subscriptArgs(t)
		if len(subs) != 1 {
			return 0, ""
		}
		t = subs[0]
	}
	switch h := r.dotted(t); h {
	case "pl.Tensor", "pld.DistributedTensor":
		return dir, h
	}
	return dir, ""
}

// hasBareTensor reports whether a def has a bare pl.Tensor parameter.
func (r *reader) hasBareTensor(def *node) bool {
	for _, p := range r.kids(def.ChildByFieldId(fldParameters)) {
		if p.Kind() == "typed_parameter" {
			if _, bare := r.bareTensor(p.ChildByFieldId(fldType)); bare {
				return true
			}
		}
	}
	return false
}

// specialized is the type a call in the __main__ block gives parameter i
// of fn; ok false when no call sizes it.
func (r *reader) specialized(fn string, i int, head, param string, at *node) (ir.Type, bool) {
	if ts, ok := r.argTypes[fn]; ok {
		if i < len(ts) {
			switch tt := ts[i].(type) {
			case *ir.TensorType:
				return tt, head == "pl.Tensor"
			case *ir.DistributedTensorType:
				// The window's shape and layout; its buffer is the
				// caller's business. A dimension the host computes
				// (pld.world_size()) is the callee's dynamic dimension.
				shape := make([]ir.Expr, len(tt.Shape))
				for k, d := range tt.Shape {
					shape[k] = d
					if _, isConst := ir.ConstValue(d); !isConst {
						if _, isVar := d.(*ir.Var); !isVar {
							shape[k] = r.dynamic(fmt.Sprintf("%s_dim%d", param, k), at)
						}
					}
				}
				return &ir.DistributedTensorType{Shape: shape, DType: tt.DType, View: tt.View}, head == "pld.DistributedTensor"
			}
		}
		return nil, false
	}
	if head != "pl.Tensor" {
		return nil, false // a torch tensor in __main__ sizes a pl.Tensor only
	}
	args := r.specs[fn]
	if i >= len(args) || args[i] == nil || args[i].scalar != nil {
		return nil, false
	}
	s := args[i]
	shape := make([]ir.Expr, len(s.shape))
	for k, d := range s.shape {
		shape[k] = ir.Int(d)
	}
	return &ir.TensorType{Shape: shape, DType: s.dt}, true
}

// specializedScalar is the constant a call in the __main__ block passes
// for scalar parameter i of jit function fn, as a value of type t (ok
// false when no call passes a literal). Upstream's specializer inlines it
// at every use in the body; the parameter stays in the signature.
func (r *reader) specializedScalar(fn string, i int, t *ir.ScalarType) (value, bool) {
	if _, ok := r.argTypes[fn]; ok {
		return nil, false // a call from another kernel passes a value at run time
	}
	args := r.specs[fn]
	if i >= len(args) || args[i] == nil || args[i].scalar == nil {
		return nil, false
	}
	return scalarConst(t, args[i].scalar)
}

// scalarConst is v as a constant of scalar type t (ok false when a value
// of v's kind cannot be one: a float for an integer, a number for a bool).
func scalarConst(t *ir.ScalarType, v value) (value, bool) {
	switch {
	case t.DType == ir.BOOL:
		if b, ok := v.(bool); ok {
			return b, true
		}
	case t.DType.IsFloat():
		switch x := v.(type) {
		case float64:
			return x, true
		case int64:
			return float64(x), true
		}
	case t.DType.IsInt():
		if x, ok := v.(int64); ok {
			return x, true
		}
	}
	return nil, false
}

// plDecorated reports whether a definition carries a PyPTO decorator
// (@pl.jit, @pl.program, @pl.function ...), whose body is a kernel, not a
// driver of kernels.
func (r *reader) plDecorated(n *node) bool {
	return n.Kind() == "decorated_definition" && r.decoratorName(n) != ""
}
