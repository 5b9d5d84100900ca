//go:build cgo

package pyfront

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

type kwArg struct {
	name string
	node *node
	val  value
}

// args evaluates a call's argument list.
func (r *reader) args(call *node, e *env, fc *fnCtx) ([]value, []*node, []kwArg) {
	_, pos, nodes, kws := r.argsAfter(call, e, fc, 0)
	return pos, nodes, kws
}

// argsAfter is args leaving the first lead positional arguments
// unevaluated (pl.submit's function), returned as nodes.
func (r *reader) argsAfter(call *node, e *env, fc *fnCtx, lead int) ([]*node, []value, []*node, []kwArg) {
	var skipped []*node
	var pos []value
	var nodes []*node
	var kws []kwArg
	al := call.ChildByFieldId(fldArguments)
	if al.Kind() == "generator_expression" && fc == nil && lead == 0 {
		// f(x for x in xs): the generator is the one argument.
		return nil, []value{r.evalIn(al, e, fc)}, []*node{al}, nil
	}
	if al.Kind() != "argument_list" {
		r.fail(al, "unsupported call form %s", r.text(call))
	}
	for _, a := range r.kids(al) {
		switch a.Kind() {
		case "keyword_argument":
			name := r.text(a.ChildByFieldId(fldName))
			for _, k := range kws {
				if k.name == name {
					r.fail(a, "keyword argument %s repeated", name)
				}
			}
			vn := a.ChildByFieldId(fldValue)
			var v value
			if name == "attrs" && vn.Kind() == "dictionary" {
				v = vn
			} else {
				v = r.evalIn(vn, e, fc)
			}
			kws = append(kws, kwArg{name, a, v})
		case "list_splat", "dictionary_splat":
			r.fail(a, "*args and **kwargs are not supported in PyPTO calls")
		default:
			if len(kws) > 0 {
				r.fail(a, "positional argument after keyword arguments")
			}
			if len(skipped) < lead {
				skipped = append(skipped, a)
				continue
			}
			pos = append(pos, r.evalIn(a, e, fc))
			nodes = append(nodes, a)
		}
	}
	return skipped, pos, nodes, kws
}

func (r *reader) call(n *node, e *env, fc *fnCtx) value {
	fnNode := n.ChildByFieldId(fldFunction)
	callee := r.dotted(fnNode)
	if fc == nil && (fnNode.Kind() == "subscript" || fnNode.Kind() == "identifier" || fnNode.Kind() == "attribute") {
		// A def or lambda reached through a value: a table's entry, a
		// variable, a test case's attribute (self._program_builder()).
		var v value
		switch fnNode.Kind() {
		case "subscript":
			v = r.evalIn(fnNode, e, fc)
		case "identifier":
			v, _ = e.lookup(callee)
		default:
			// Only an attribute __init__ or the class body assigned: a
			// method call goes the methods' way below.
			if obj := fnNode.ChildByFieldId(fldObject); obj.Kind() == "identifier" {
				if s, _ := e.lookup(r.text(obj)); s != nil {
					if self, ok := s.(*caseObject); ok {
						v = self.attrs[r.text(fnNode.ChildByFieldId(fldAttribute))]
					}
				}
			}
		}
		switch f := v.(type) {
		case funcRef:
			pos, _, kws := r.args(n, e, fc)
			return r.runFactory(f.f, n, pos, kws)
		case *pyLambda:
			pos, _, kws := r.args(n, e, fc)
			return r.callLambda(f, n, pos, kws)
		}
	}
	if fc == nil && fnNode.Kind() == "attribute" && r.text(fnNode.ChildByFieldId(fldAttribute)) == "get" {
		// dict.get(key[, default]), as an ids= function looks a tag up.
		if obj, err := r.tryEval(fnNode.ChildByFieldId(fldObject), e); err == nil {
			if d, ok := obj.(*pyDict); ok {
				pos, _, kws := r.args(n, e, fc)
				if len(pos) < 1 || len(pos) > 2 || len(kws) > 0 {
					r.fail(n, "dict.get takes a key and an optional default")
				}
				if i := d.find(pos[0]); i >= 0 {
					return d.vals[i]
				}
				if len(pos) == 2 {
					return pos[1]
				}
				return nil
			}
		}
	}
	if fc == nil && fnNode.Kind() == "attribute" {
		if v, ok := r.methodCall(n, e); ok {
			return v
		}
	}
	if callee == "" {
		r.fail(fnNode, "unsupported call of %s", r.text(fnNode))
	}
	switch callee {
	case "pl.yield_":
		r.fail(n, "pl.yield_ is a statement (the last one of an if or for body), not a value")
	case "pl.range", "pl.parallel", "pl.unroll", "pl.pipeline":
		r.fail(n, "%s is only valid as the iterable of a for loop", callee)
	case "pl.submit", "pl.spmd_submit":
		if fc == nil {
			r.fail(n, "%s(...) launches a task from a PyPTO function", callee)
		}
		return fc.submit(n, callee)
	case "pytest.param":
		if fc == nil {
			return r.pytestParam(n, e)
		}
	}
	pos, nodes, kws := r.args(n, e, fc)
	noKw := func() {
		if len(kws) > 0 {
			r.fail(kws[0].node, "%s takes no keyword arguments, given %s=", callee, kws[0].name)
		}
	}
	nargs := func(lo, hi int) {
		if len(pos) < lo || len(pos) > hi {
			want := fmt.Sprintf("%d", lo)
			if hi != lo {
				want = fmt.Sprintf("%d to %d", lo, hi)
			}
			noun := "arguments"
			if hi == 1 && lo == 1 {
				noun = "argument"
			}
			r.fail(n, "%s: expected %s positional %s, given %d", callee, want, noun, len(pos))
		}
	}
	if d, ok := dtypeGetByte(callee); ok {
		noKw()
		nargs(0, 0)
		if !d.Valid() {
			r.fail(fnNode, "unknown DataType %s in %s(); expected a dtype such as pl.FP32", strings.TrimSuffix(callee, ".get_byte"), callee)
		}
		return int64((d.Bits() + 7) / 8) // upstream: ceil(get_bit() / 8)
	}
	if d := opByCallee[callee]; d == ir.TileScatterUpdate || d == ir.TensorScatterUpdate || callee == "pl.scatter_update" {
		// scatter_update(input, dim, index, src) takes dim second, as
		// upstream's DSL accepts it beside (input, index, src, dim=-2).
		if len(pos) >= 2 {
			if dim, ok := pos[1].(int64); ok {
				kws = append(kws, kwArg{name: "dim", node: nodes[1], val: dim})
				pos = append(pos[:1:1], pos[2:]...)
				nodes = append(nodes[:1:1], nodes[2:]...)
			}
		}
		if len(pos) == 0 {
			r.fail(n, "%s: expected the input first", callee)
		}
		if d == nil {
			d = ir.TensorScatterUpdate // pl.scatter_update picks by operand
			if e, ok := pos[0].(ir.Expr); ok {
				if _, isTile := e.Type().(*ir.TileType); isTile {
					d = ir.TileScatterUpdate
				}
			}
		}
		if fc == nil {
			r.fail(n, "%s(...) cannot be evaluated outside a PyPTO function", callee)
		}
		return fc.opCall(n, d, pos, nodes, kws)
	}
	switch callee {
	case "pl.split":
		// An InCore scope's optimization (with pl.at(..., optimizations=[...])).
		nargs(1, 1)
		opt := scopeOpt{slot: r.slotNum(callee, kws)}
		m, ok := pos[0].(ir.SplitMode)
		if !ok {
			r.fail(nodes[0], "pl.split: expected a pl.SplitMode, given %s", describe(pos[0]))
		}
		opt.split, opt.hasSplit = m, true
		return opt
	case "pl.cross_core_slot":
		nargs(0, 0)
		opt := scopeOpt{slot: r.slotNum(callee, kws)}
		if opt.slot == 0 {
			r.fail(n, "pl.cross_core_slot needs slot_num=N")
		}
		return opt
	case "pl.no_dep":
		// A marker on a kernel call's argument (programCall unwraps it).
		noKw()
		nargs(1, 1)
		if _, ok := pos[0].(noDepArg); ok {
			return pos[0] // pl.no_dep(pl.no_dep(t)) is pl.no_dep(t)
		}
		return noDepArg{pos[0]}
	case "pl.dynamic":
		noKw()
		nargs(1, 1)
		s, ok := pos[0].(string)
		if !ok || s == "" {
			r.fail(n, "pl.dynamic: expected a dimension name string, given %s", describe(pos[0]))
		}
		return r.dynamic(s, n)
	case "pl.const":
		noKw()
		nargs(2, 2)
		dt, ok := pos[1].(ir.DataType)
		if !ok {
			r.fail(nodes[1], "pl.const: expected a dtype, given %s", describe(pos[1]))
		}
		switch v := pos[0].(type) {
		case int64:
			if dt.IsFloat() {
				return &ir.ConstFloat{Value: float64(v), DType: dt, Pos: r.pos(n)}
			}
			return &ir.ConstInt{Value: v, DType: dt, Pos: r.pos(n)}
		case float64:
			return &ir.ConstFloat{Value: v, DType: dt, Pos: r.pos(n)}
		case bool:
			return &ir.ConstBool{Value: v, Pos: r.pos(n)}
		}
		r.fail(nodes[0], "pl.const: expected a number, given %s", describe(pos[0]))
	case "pl.cast":
		return r.cast(n, pos, nodes, kws)
	case "pl.tile.mrgsort", "pl.tensor.mrgsort", "pl.mrgsort":
		if fc == nil {
			r.fail(n, "%s(...) cannot be evaluated outside a PyPTO function", callee)
		}
		return fc.mrgsort(n, callee, pos, nodes, kws)
	case "pl.min", "pl.max":
		noKw()
		nargs(2, 2)
		op := ir.OpMin
		if callee == "pl.max" {
			op = ir.OpMax
		}
		if v, ok := foldMinMax(op, pos[0], pos[1]); ok {
			return v
		}
		return r.binExpr(n, op, pos[0], pos[1])
	case "min", "max":
		// Python's own, on the integers a factory or module computes.
		noKw()
		if len(pos) < 2 {
			r.fail(n, "%s: expected two or more numbers", callee)
		}
		op := ir.OpMin
		if callee == "max" {
			op = ir.OpMax
		}
		acc := pos[0]
		for i, v := range pos[1:] {
			folded, ok := foldMinMax(op, acc, v)
			if !ok {
				r.fail(nodes[i+1], "%s: expected integers known before the program runs, given %s (pl.%s takes values the program computes)", callee, describe(v), callee)
			}
			acc = folded // an integer: foldMinMax takes integers only
		}
		return acc
	case "abs":
		noKw()
		nargs(1, 1)
		switch v := pos[0].(type) {
		case int64:
			if v < 0 {
				return -v
			}
			return v
		case float64:
			return math.Abs(v)
		}
		x := r.toExpr(n, pos[0])
		st, ok := x.Type().(*ir.ScalarType)
		if !ok {
			r.fail(n, "abs: expected a scalar, given %s", ir.Describe(x))
		}
		return &ir.UnaryExpr{Op: ir.OpAbs, X: x, DType: st.DType, Pos: r.pos(n)}
	case "pl.MemRef":
		return r.memRef(n, pos, nodes, kws, fc)
	case "pl.TensorView":
		return r.tensorView(n, pos, kws)
	case "pl.TileView":
		if len(pos) > 0 {
			r.fail(n, "pl.TileView takes keyword arguments only")
		}
		return tileViewSpec(kws)
	case "list", "tuple":
		noKw()
		return r.sequence(n, callee, pos)
	case "dict.fromkeys":
		// A dict of the sequence's items, first occurrence first: a
		// deduplicated list once tuple() or list() takes its keys.
		noKw()
		nargs(1, 2)
		items, ok := seqOf(pos[0]).([]value)
		if !ok {
			r.fail(nodes[0], "dict.fromkeys: expected a list or tuple, given %s", describe(pos[0]))
		}
		var fill value
		if len(pos) == 2 {
			fill = pos[1]
		}
		d := &pyDict{}
		for _, k := range items {
			d.set(k, fill)
		}
		return d
	case "str":
		if fc != nil {
			break
		}
		noKw()
		nargs(0, 1)
		if len(pos) == 0 {
			return ""
		}
		s, ok := pyStr(pos[0])
		if !ok {
			r.fail(nodes[0], "str: expected a value known before the program runs, given %s", describe(pos[0]))
		}
		return s
	case "range":
		if fc != nil {
			break
		}
		// Module level (a parametrize list): Python's range as a list.
		noKw()
		nargs(1, 3)
		bounds := make([]int64, len(pos))
		for i, p := range pos {
			b, ok := p.(int64)
			if !ok {
				r.fail(nodes[i], "range: expected an int, given %s", describe(p))
			}
			bounds[i] = b
		}
		start, stop, step := int64(0), bounds[0], int64(1)
		if len(bounds) > 1 {
			start, stop = bounds[0], bounds[1]
		}
		if len(bounds) > 2 {
			step = bounds[2]
		}
		if step == 0 {
			r.fail(n, "range: step must not be zero")
		}
		out := pyList{}
		for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
			if len(out) >= 1<<16 {
				r.fail(n, "range: more than %d values", 1<<16)
			}
			out = append(out, i)
		}
		return out
	case "len":
		noKw()
		nargs(1, 1)
		switch v := pos[0].(type) {
		case pyList:
			return int64(len(v))
		case pyTuple:
			return int64(len(v))
		case string:
			return int64(len(v))
		}
		r.fail(n, "len: expected a list, tuple or string, given %s", describe(pos[0]))
	case "int":
		noKw()
		nargs(1, 1)
		switch v := pos[0].(type) {
		case int64:
			return v
		case float64:
			return int64(v)
		case bool:
			if v {
				return int64(1)
			}
			return int64(0)
		}
		r.fail(n, "int: expected a number, given %s", describe(pos[0]))
	}
	if f := r.facs[callee]; f != nil && fc == nil {
		return r.runFactory(f, n, pos, kws)
	}
	if imp, ok := r.consts[callee].(importedFactory); ok && fc == nil {
		return r.runImported(imp, pos, kws)
	}
	if m, ok := strings.CutPrefix(callee, "self."); ok && fc == nil {
		if self, ok := e.lookup("self"); ok {
			if co, ok := self.(*caseObject); ok {
				if v, ok := r.callMethod(n, co, m, pos, kws); ok {
					return v
				}
			}
		}
	}
	if h := r.helpers[callee]; h != nil && fc == nil {
		return r.runFactory(h, n, pos, kws)
	}
	if fc == nil {
		// A call of a name from a module ptorepl does not read (a test's
		// RunConfig(...)): carried as an opaque value, an error only where
		// a program uses it.
		root, _, _ := strings.Cut(callee, ".")
		if from, ok := r.foreign[root]; ok {
			if _, local := e.lookup(root); !local {
				return opaque{fmt.Sprintf("%s(...), from %s, which ptorepl does not read", callee, from)}
			}
		}
		if u, ok := r.consts[callee].(unevaluable); ok {
			r.resolved(n, callee, u) // an import ptorepl could not read says so
		}
		r.fail(n, "%s(...) cannot be evaluated outside a PyPTO function", callee)
	}
	if v, ok := e.lookup(callee); ok {
		if pf, ok := v.(*pyFunc); ok {
			return fc.programCall(n, pf.name, pos, nodes, kws)
		}
	}
	if pf, ok := r.consts[callee].(*pyFunc); ok && fc.pc.funcs[pf.name] != nil {
		return fc.programCall(n, pf.name, pos, nodes, kws) // k = make_k(8) at module level
	}
	if strings.HasPrefix(callee, "self.") {
		return fc.programCall(n, strings.TrimPrefix(callee, "self."), pos, nodes, kws)
	}
	if mf := r.modFuncs[callee]; mf != nil && fc.pc.funcs[callee] != nil {
		return fc.programCall(n, callee, pos, nodes, kws) // a module-level kernel the program took in
	}
	if h := r.inlines[callee]; h != nil {
		return fc.inlineCall(n, h, pos, kws)
	}
	if fc.pc.jit {
		if _, ok := fc.pc.funcs[callee]; ok || fc.pc.deferred[callee] != nil {
			return fc.programCall(n, callee, pos, nodes, kws)
		}
	}
	// The unified spellings (pl.load, pl.add) are upstream's in any function;
	// only the authoring form also reads the printed spelling of
	// pld.tensor.alloc_window_buffer with a shape.
	if fc.authoring || opByCallee[callee] == nil {
		if v, ok := fc.authoringCall(n, callee, pos, nodes, kws); ok {
			return v
		}
	}
	d := opByCallee[callee]
	if d == nil {
		d = shortOps[callee]
	}
	if d == nil && strings.HasSuffix(callee, "._remote_load_with_physical_tail_padding") && strings.HasPrefix(callee, "pld.tile.") {
		d = ir.PldTileRemoteLoad
		kws = append(kws, kwArg{name: "allow_physical_tail_padding", node: n, val: true})
	}
	if d == nil {
		if strings.HasPrefix(callee, "pl.") || strings.HasPrefix(callee, "pld.") {
			r.fail(fnNode, "unknown op %s%s", callee, suggest(callee))
		}
		if u, ok := r.consts[callee].(unevaluable); ok {
			r.resolved(fnNode, callee, u)
		}
		if fnNode.Kind() == "identifier" && !r.topNames[callee] && !pythonBuiltins[callee] {
			if _, bound := fc.env.lookup(callee); !bound {
				// A kernel of another file or page, used without its import.
				r.fail(fnNode, "%s is not defined or imported in this file: a call of it needs its def here, or an import (from kernels import %s)", callee, callee)
			}
		}
		r.fail(fnNode, "unsupported call %s(...): only PyPTO ops (pl.*, pld.*), program functions and pl.const/pl.cast/pl.min/pl.max/abs are allowed", callee)
	}
	for _, k := range kws {
		if f := d.KwargForms[k.name]; f != nil {
			d = f
			break
		}
	}
	switch d {
	case ir.ArrayCreate:
		// pl.array.create(n, pl.TASK_ID): the dtype may come second.
		if len(pos) == 2 {
			kws = append(kws, kwArg{name: "dtype", node: nodes[1], val: pos[1]})
			pos, nodes = pos[:1], nodes[:1]
		}
	case ir.SystemTaskDummy:
		if len(pos) > 0 || len(kws) != 1 || kws[0].name != "deps" {
			r.fail(n, "pl.system.task_dummy takes deps=[...] only")
		}
		c, err := ir.NewTaskDummy(fc.deps("pl.system.task_dummy", kws[0]), r.pos(n))
		if err != nil {
			r.fail(n, "%v", err)
		}
		return c
	}
	if d == ir.PldTensorAllocWindowBuffer {
		// The binding names the buffer (the hidden name kwarg).
		kws = append(kws, kwArg{name: "name", node: n, val: "<unbound>"})
	}
	return fc.opCall(n, d, pos, nodes, kws)
}

// dtypeGetByte recognises pl.<DTYPE>.get_byte(), which upstream's parser
// folds to a compile-time integer (the element size in bytes, rounded up to
// one byte) so that window sizes can be written as SIZE * pl.FP32.get_byte().
// ok is false for any other callee; an unknown dtype name gives an invalid d.
func dtypeGetByte(callee string) (d ir.DataType, ok bool) {
	name, found := strings.CutPrefix(callee, "pl.")
	if !found {
		return 0, false
	}
	name, found = strings.CutSuffix(name, ".get_byte")
	if !found || strings.Contains(name, ".") {
		return 0, false
	}
	if v, known := builtins["pl."+name].(ir.DataType); known {
		return v, true
	}
	return ir.DataType(0xFF), true
}

func foldMinMax(op ir.BinaryOp, a, b value) (value, bool) {
	ai, aok := a.(int64)
	bi, bok := b.(int64)
	if !aok || !bok {
		return nil, false
	}
	if (op == ir.OpMin) == (ai < bi) {
		return ai, true
	}
	return bi, true
}

// suggest names registered ops close to an unknown callee.
func suggest(callee string) string {
	last := callee[strings.LastIndexByte(callee, '.')+1:]
	var near []string
	for name := range opByCallee {
		if strings.HasSuffix(name, "."+last) {
			near = append(near, name)
		}
	}
	for name := range shortOps {
		if strings.HasSuffix(name, "."+last) {
			near = append(near, name)
		}
	}
	if len(near) == 0 {
		return ""
	}
	sort.Strings(near)
	if len(near) > 4 {
		near = near[:4]
	}
	return " (did you mean " + strings.Join(near, " or ") + "?)"
}

func (r *reader) cast(n *node, pos []value, nodes []*node, kws []kwArg) value {
	var dt ir.DataType
	have := false
	if len(pos) == 2 {
		d, ok := pos[1].(ir.DataType)
		if !ok {
			r.fail(nodes[1], "pl.cast: expected a dtype, given %s", describe(pos[1]))
		}
		dt, have = d, true
	}
	var mode value
	for _, k := range kws {
		switch k.name {
		case "target_type":
			d, ok := k.val.(ir.DataType)
			if !ok || have {
				r.fail(k.node, "pl.cast: target_type= takes a dtype, given once")
			}
			dt, have = d, true
		case "mode":
			mode = k.val
		default:
			r.fail(k.node, "pl.cast: unknown keyword %s (expected target_type or mode)", k.name)
		}
	}
	if len(pos) < 1 || len(pos) > 2 || !have {
		r.fail(n, "pl.cast: expected pl.cast(x, dtype) or pl.cast(x, target_type=dtype)")
	}
	x := r.toExpr(nodes[0], pos[0])
	switch x.Type().(type) {
	case *ir.ScalarType:
		if mode != nil {
			r.fail(n, "pl.cast: mode= applies to tiles and tensors only")
		}
		return &ir.UnaryExpr{Op: ir.OpCast, X: x, DType: dt, Pos: r.pos(n)}
	}
	op := ir.TensorCast
	if _, ok := x.Type().(*ir.TileType); ok {
		op = ir.TileCast
	}
	kw := ir.Kwargs{{Key: "target_type", Value: dt}}
	if mode != nil {
		kw = append(kw, ir.Kwarg{Key: "mode", Value: mode})
	}
	c, err := op.NewCall([]ir.Expr{x}, withDefaults(op, kw), r.pos(n))
	if err != nil {
		r.failErr(n, err)
	}
	return c
}

// opCall builds a call of a registered op. Keyword arguments naming a
// positional argument fill its slot (peer=, offsets=, shape=); the rest are
// the op's kwargs, converted by their declared kind.
func (fc *fnCtx) opCall(n *node, d *ir.OpDef, pos []value, nodes []*node, kws []kwArg) ir.Expr {
	r := fc.r
	// Kwargs the DSL takes positionally: a dtype second
	// (pl.reinterpret_view(x, pl.INT32)), a constant integer first
	// (pl.system.sync_set(4, ...) is event_id=4). The printed form spells
	// them as keywords and reads as it is.
	for _, pk := range []struct {
		name string
		at   int
		fits func(value) bool
	}{
		{d.PositionalKwarg, 1, func(v value) bool { _, ok := v.(ir.DataType); return ok }},
		{d.ConstArgKwarg, 0, func(v value) bool { _, ok := v.(int64); return ok }},
	} {
		if pk.name != "" && len(pos) > pk.at && len(nodes) > pk.at && pk.fits(pos[pk.at]) {
			kws = append(kws, kwArg{name: pk.name, node: nodes[pk.at], val: pos[pk.at]})
			pos = append(append([]value(nil), pos[:pk.at]...), pos[pk.at+1:]...)
			nodes = append(append([]*node(nil), nodes[:pk.at]...), nodes[pk.at+1:]...)
		}
	}
	slots := make([]value, len(pos))
	copy(slots, pos)
	filled := make([]bool, len(pos))
	for i := range filled {
		filled[i] = true
	}
	var kw, attrs ir.Kwargs
	for _, k := range kws {
		if _, ok := d.Kwarg(k.name); ok {
			kw = append(kw, ir.Kwarg{Key: k.name, Value: r.kwargValue(k, d)})
			continue
		}
		if k.name == "device" {
			// A per-device dispatch of a host builtin (LowerHostTensorCollectives)
			// carries its device as a call attribute, as function calls do.
			attrs = append(attrs, ir.Kwarg{Key: "device", Value: r.toExpr(k.node, k.val)})
			continue
		}
		idx := -1
		for i, a := range d.Args {
			if a.Name == k.name {
				idx = i
			}
		}
		if idx < 0 {
			names := make([]string, 0, len(d.Args)+len(d.Kwargs))
			for _, a := range d.Args {
				names = append(names, a.Name)
			}
			for _, s := range d.Kwargs {
				if !s.Hidden {
					names = append(names, s.Name)
				}
			}
			r.fail(k.node, "%s: unknown keyword %s (expected one of %s)", d.Callee(nil), k.name, strings.Join(names, ", "))
		}
		for len(slots) <= idx {
			slots = append(slots, nil)
			filled = append(filled, false)
		}
		if filled[idx] {
			r.fail(k.node, "%s: argument %s given twice", d.Callee(nil), k.name)
		}
		if k.val == nil && idx == len(slots)-1 && d.MinArgs > 0 && idx >= d.MinArgs {
			// valid_shape=None: an optional trailing argument left out.
			slots, filled = slots[:idx], filled[:idx]
			continue
		}
		slots[idx], filled[idx] = k.val, true
	}
	if d.CompactArgs {
		// Optional arguments left out leave no gap (mgather's scratch and
		// valid_shape): the ones given close up after the required ones.
		var cs []value
		var cf []bool
		for i := range slots {
			if filled[i] || i < d.MinArgs {
				cs, cf = append(cs, slots[i]), append(cf, filled[i])
			}
		}
		slots, filled = cs, cf
	}
	kw = fc.regionKwargs(n, d, kw)
	kw = withDefaults(d, kw)
	// Arguments the DSL defaults (an initialize_pipe's consumer buffers).
	for len(slots) < len(d.Args) && d.Args[len(slots)].Default != nil {
		slots, filled = append(slots, nil), append(filled, false)
	}
	for i := range slots {
		if !filled[i] && i < len(d.Args) && d.Args[i].Default != nil {
			slots[i], filled[i] = d.Args[i].Default, true
		}
	}
	// Arguments the DSL fills from another (a load's valid_shape).
	for len(slots) < len(d.Args) && d.Args[len(slots)].CopyOf != "" {
		slots, filled = append(slots, nil), append(filled, false)
	}
	for i := range slots {
		if !filled[i] && i < len(d.Args) && d.Args[i].CopyOf != "" {
			if j := d.ArgIndex(d.Args[i].CopyOf); j >= 0 && j < len(slots) && filled[j] {
				slots[i], filled[i] = slots[j], true
			}
		}
	}
	// pl.read(t, i): one index is the list [i], as upstream's DSL takes it.
	for i, v := range slots {
		if filled[i] && i < len(d.Args) && d.Args[i].IndexList {
			switch x := v.(type) {
			case int64:
				slots[i] = pyList{x}
			case ir.Expr:
				if _, scalar := x.Type().(*ir.ScalarType); scalar {
					slots[i] = pyList{x}
				}
			}
		}
	}
	args := make([]ir.Expr, len(slots))
	for i, v := range slots {
		if !filled[i] {
			r.fail(n, "%s: missing argument %s", d.Callee(nil), d.ArgName(i))
		}
		at := n
		if i < len(nodes) {
			at = nodes[i]
		}
		if m, ok := v.(ir.MemorySpace); ok && i < len(d.Args) && d.Args[i].MemSpace {
			args[i] = ir.AllocOf(m)
			continue
		}
		if iv, ok := v.(int64); ok && i < len(d.Args) && d.Args[i].Int32 {
			if iv < math.MinInt32 || iv > math.MaxInt32 {
				r.fail(at, "%s: %s=%d does not fit in INT32", d.Callee(nil), d.ArgName(i), iv)
			}
			args[i] = &ir.ConstInt{Value: iv, DType: ir.INT32, Pos: r.pos(at)}
			continue
		}
		args[i] = r.toExpr(at, v)
	}
	c, err := d.NewCall(args, kw, r.pos(n))
	if err != nil {
		// Name the op as the source spells it.
		if te, ok := err.(*ir.TypeError); ok && te.Op == d.Name {
			cp := *te
			cp.Op = d.Callee(nil)
			err = &cp
		}
		r.failErr(n, err)
	}
	if len(attrs) > 0 {
		c.Attrs = append(c.Attrs, attrs...)
	}
	return c
}

// regionKwargs fills the kwargs the enclosing pl.split_aiv region sets
// (aiv_shard's split is the region's mode), which a call inside one may
// not write itself; outside a region the call must give them.
func (fc *fnCtx) regionKwargs(n *node, d *ir.OpDef, kw ir.Kwargs) ir.Kwargs {
	for _, s := range d.Kwargs {
		if !s.FromRegion {
			continue
		}
		_, given := kw.Get(s.Name)
		switch {
		case given && len(fc.splitModes) > 0:
			fc.r.fail(n, "%s: %s= is set by the enclosing pl.split_aiv region", d.Callee(nil), s.Name)
		case !given && len(fc.splitModes) == 0:
			fc.r.fail(n, "%s outside a pl.split_aiv region needs %s= (a pl.SplitMode)", d.Callee(nil), s.Name)
		case !given:
			kw = append(kw, ir.Kwarg{Key: s.Name, Value: int64(fc.splitModes[len(fc.splitModes)-1])})
		}
	}
	return kw
}

// withDefaults fills the kwargs a call omitted with the values upstream's
// DSL functions default them to (pld.tensor.put's atomic=None_,
// allreduce's op=Sum and core_num=1), and stores them in the op's order, as
// those functions build their kwargs whatever order the call wrote.
func withDefaults(d *ir.OpDef, kw ir.Kwargs) ir.Kwargs {
	var out ir.Kwargs
	for _, s := range d.Kwargs {
		if v, ok := kw.Get(s.Name); ok {
			out = append(out, ir.Kwarg{Key: s.Name, Value: v})
		} else if s.Default != nil {
			out = append(out, ir.Kwarg{Key: s.Name, Value: s.Default})
		}
	}
	return out
}

// kwargValue converts a kwarg to the Go value its kind stores.
func (r *reader) kwargValue(k kwArg, d *ir.OpDef) any {
	spec, _ := d.Kwarg(k.name)
	v := k.val
	bad := func() any {
		r.fail(k.node, "%s: kwarg %s expects %s, given %s", d.Callee(nil), k.name, spec.Kind, describe(v))
		return nil
	}
	switch spec.Kind {
	case ir.KwInt:
		switch x := v.(type) {
		case int64:
			return x
		case ir.NotifyOp:
			return int64(x)
		case ir.WaitCmp:
			return int64(x)
		case ir.ReduceOp:
			return int64(x)
		case ir.AtomicType:
			return int64(x)
		case bool:
			return bad()
		case string:
			// A named value (a compare-form gather's cmp_mode="ge").
			if n, ok := spec.Names[x]; ok {
				return n
			}
			if spec.Names != nil {
				r.fail(k.node, "%s: kwarg %s expects an int or one of %s, given %q", d.Callee(nil), k.name, ir.NamesList(spec.Names), x)
			}
		}
	case ir.KwAtomic:
		switch x := v.(type) {
		case ir.AtomicType:
			return int64(x)
		case int64:
			return x
		}
	case ir.KwBool:
		if b, ok := v.(bool); ok {
			return b
		}
	case ir.KwString:
		if s, ok := v.(string); ok {
			return s
		}
	case ir.KwFloat:
		if f, ok := toFloat(v); ok {
			return f
		}
	case ir.KwDType:
		if x, ok := v.(ir.DataType); ok {
			return x
		}
	case ir.KwMemory:
		if x, ok := v.(ir.MemorySpace); ok {
			return x
		}
	case ir.KwPad:
		if x, ok := v.(ir.PadValue); ok {
			return x
		}
	case ir.KwTileLayout:
		if x, ok := v.(ir.TileLayout); ok {
			return x
		}
	case ir.KwTensorLayout:
		if x, ok := v.(ir.TensorLayout); ok {
			return x
		}
	case ir.KwPipe:
		if x, ok := v.(ir.PipeType); ok {
			return x
		}
	}
	return bad()
}

// programCall calls a function of the program being built.
func (fc *fnCtx) programCall(n *node, name string, pos []value, nodes []*node, kws []kwArg) ir.Expr {
	r := fc.r
	callee := fc.pc.funcs[name]
	if build := fc.pc.deferred[name]; callee == nil && build != nil {
		types := make([]ir.Type, len(pos))
		for i, v := range pos {
			if e, ok := v.(ir.Expr); ok {
				types[i] = e.Type()
			}
		}
		delete(fc.pc.deferred, name)
		build(types)
		callee = fc.pc.funcs[name]
	}
	if callee == nil {
		r.fail(n, "program %s has no function %s", fc.pc.prog.Name, name)
	}
	if len(pos) != len(callee.Params) {
		r.fail(n, "%s takes %d arguments, given %d", name, len(callee.Params), len(pos))
	}
	args := make([]ir.Expr, len(pos))
	var noDep, dumps []int
	for i, v := range pos {
		if m, ok := v.(noDepArg); ok {
			v = m.v
			noDep = append(noDep, i)
		}
		args[i] = r.toExpr(nodes[i], v)
		if !compatible(callee.Params[i].Type(), args[i].Type()) {
			r.fail(nodes[i], "%s argument %s: expected %s, given %s", name, callee.Params[i].Name, callee.Params[i].Type(), args[i].Type())
		}
	}
	var t ir.Type = ir.Unknown
	switch len(callee.ReturnTypes) {
	case 0:
	case 1:
		t = callee.ReturnTypes[0]
	default:
		t = &ir.TupleType{Types: callee.ReturnTypes}
	}
	c := &ir.Call{Fn: &ir.GlobalVar{Name: name}, Args: args, T: t, Pos: r.pos(n)}
	for _, k := range kws {
		switch k.name {
		case "device":
			c.Attrs = append(c.Attrs, ir.Kwarg{Key: "device", Value: r.toExpr(k.node, k.val)})
		case "attrs":
			dn, ok := k.val.(*node)
			if !ok {
				r.fail(k.node, "attrs= takes a dict literal")
			}
			for _, p := range r.kids(dn) {
				key, ok := r.evalIn(p.ChildByFieldId(fldKey), fc.env, fc).(string)
				if !ok {
					r.fail(p, "attrs keys are strings")
				}
				if key == "dump_vars" {
					// The printed form of a plain call's dumps: its
					// arguments, by name.
					dumps = append(dumps, fc.argPositions(p.ChildByFieldId(fldValue), "attrs[\"dump_vars\"]", args)...)
					continue
				}
				c.Attrs = append(c.Attrs, ir.Kwarg{Key: key, Value: r.attrValue(p.ChildByFieldId(fldValue), fc)})
			}
		default:
			r.fail(k.node, "call of %s: unknown keyword %s (expected device= or attrs=)", name, k.name)
		}
	}
	if len(noDep) > 0 {
		nc, err := ir.WithNoDep(c, noDep)
		if err != nil {
			r.fail(n, "%v", err)
		}
		c = nc
	}
	for i, a := range args {
		if v, ok := a.(*ir.Var); ok && slices.Contains(fc.dumpTagged, v) {
			dumps = append(dumps, i)
		}
	}
	if len(dumps) > 0 {
		c = ir.WithDumps(c, dumps)
	}
	return c
}

// argPositions reads a list of a call's arguments by name (a plain
// call's attrs["dump_vars"]) as their positions.
func (fc *fnCtx) argPositions(n *node, what string, args []ir.Expr) []int {
	r := fc.r
	list, ok := r.evalIn(n, fc.env, fc).(pyList)
	if !ok {
		r.fail(n, "%s takes a list of the call's arguments", what)
	}
	var out []int
	for _, v := range list {
		at := slices.IndexFunc(args, func(a ir.Expr) bool { return a == v })
		if at < 0 {
			r.fail(n, "%s names %s, which is not an argument of the call", what, describe(v))
		}
		out = append(out, at)
	}
	return out
}

// compatible is the Go builder's argument check: the same kind of type, same
// dtype and rank.
func compatible(param, arg ir.Type) bool {
	if param.TypeName() != arg.TypeName() {
		return false
	}
	ps, pd, ok1 := ir.ShapeOf(param)
	as, ad, ok2 := ir.ShapeOf(arg)
	if ok1 && ok2 {
		if pd != ad {
			return false
		}
		if len(ps) == len(as) {
			return true
		}
		// Another rank of as many elements: upstream's calls check only
		// the arity, and a [64] window passes as a [1, 64] parameter.
		n1, s1 := ir.NumElements(ps)
		n2, s2 := ir.NumElements(as)
		return s1 && s2 && n1 == n2
	}
	if p, ok := param.(*ir.ScalarType); ok {
		a := arg.(*ir.ScalarType)
		// An integer flag (pl.yield_(1)) passes as a BOOL parameter, as
		// upstream's paged-attention example passes is_first.
		return p.DType == a.DType || (p.DType.IsInt() && a.DType.IsInt()) || (p.DType == ir.BOOL && a.DType.IsInt())
	}
	return true
}

// boolKwarg is keyword k of call what, which must be True or False.
func (r *reader) boolKwarg(what string, k kwArg) bool {
	b, ok := k.val.(bool)
	if !ok {
		r.fail(k.node, "%s: %s must be True or False, given %s", what, k.name, describe(k.val))
	}
	return b
}

// noDepArg is pl.no_dep(t): an argument of a kernel call whose slot the
// runtime is not to track (ArgDirection NoDep). Anywhere else it is an
// error.
type noDepArg struct{ v value }

// scopeOpt is one entry of a scope's optimizations list: a split mode,
// a cross-core slot count, or both (pl.split(mode, slot_num=N)).
type scopeOpt struct {
	split    ir.SplitMode
	hasSplit bool
	slot     int
}

// slotNum is the slot_num= of pl.split / pl.cross_core_slot (0: none),
// the only keyword either takes.
func (r *reader) slotNum(callee string, kws []kwArg) int {
	n := 0
	for _, k := range kws {
		if k.name != "slot_num" {
			r.fail(k.node, "%s: unknown keyword %s (expected slot_num)", callee, k.name)
		}
		n = r.positiveInt(k.node, k.val, callee+" slot_num")
	}
	return n
}

// positiveInt is v as a positive Python int, or a positioned error.
func (r *reader) positiveInt(n *node, v value, what string) int {
	i, ok := v.(int64)
	if !ok || i <= 0 {
		r.fail(n, "%s: expected a positive int, given %s", what, describe(v))
	}
	return int(i)
}

// submit reads pl.submit(self.f, args..., deps=[...]) and
// pl.spmd_submit(..., core_num=n[, sync_start=True]): a launch of program
// function f as a task, giving f's results and then the task's id. Both
// take dumps=, allow_early_resolve= and a dispatch predicate=(t[i] > 0).
func (fc *fnCtx) submit(n *node, callee string) ir.Expr {
	r := fc.r
	lead, pos, nodes, kws := r.argsAfter(n, fc.env, fc, 1)
	if len(lead) != 1 {
		r.fail(n, "%s(self.f, args...): the first argument is the function to launch", callee)
	}
	name := strings.TrimPrefix(r.dotted(lead[0]), "self.")
	if name == "" || strings.Contains(name, ".") {
		r.fail(lead[0], "%s: expected a program function (self.f), given %s", callee, r.text(lead[0]))
	}
	var deps []ir.Expr
	var rest []kwArg
	var dumps, coreNum, predicate *kwArg
	early, syncStart := false, false
	flag := func(k kwArg) bool { return r.boolKwarg(callee, k) }
	for _, k := range kws {
		k := k
		switch {
		case k.name == "deps":
			deps = fc.deps(callee, k)
		case k.name == "dumps":
			dumps = &k
		case k.name == "allow_early_resolve":
			early = flag(k)
		case k.name == "predicate":
			predicate = &k
		case k.name == "core_num" && callee == "pl.spmd_submit":
			coreNum = &k
		case k.name == "sync_start" && callee == "pl.spmd_submit":
			syncStart = flag(k)
		default:
			rest = append(rest, k)
		}
	}
	if callee == "pl.spmd_submit" && coreNum == nil {
		r.fail(n, "pl.spmd_submit needs core_num= (the number of blocks)")
	}
	call, ok := fc.programCall(n, name, pos, nodes, rest).(*ir.Call)
	if !ok {
		r.fail(n, "%s: %s is not a program function", callee, name)
	}
	s, err := ir.NewSubmit(call, deps)
	if err != nil {
		r.fail(n, "%v", err)
	}
	if coreNum != nil {
		cn := r.toExpr(coreNum.node, coreNum.val)
		if v, ok := ir.ConstValue(cn); ok && v <= 0 {
			r.fail(coreNum.node, "pl.spmd_submit: core_num must be positive, given %d", v)
		}
		s = ir.WithLaunch(s, cn, syncStart)
	}
	if early {
		s = ir.WithEarlyResolve(s)
	}
	if dumps != nil {
		s = ir.WithDumps(s, fc.dumpArgs(*dumps, call))
	}
	if predicate != nil {
		if s, err = ir.WithPredicate(s, r.toExpr(predicate.node, predicate.val)); err != nil {
			r.fail(predicate.node, "%s: %v", callee, err)
		}
	}
	return s
}

// dumpArgs reads pl.submit's dumps=[x, ...]: each must be one of the
// call's arguments (the runtime dumps a task's bindings), given by its
// position.
func (fc *fnCtx) dumpArgs(k kwArg, call *ir.Call) []int {
	r := fc.r
	list, ok := k.val.(pyList)
	if !ok {
		r.fail(k.node, "pl.submit: dumps= takes a list of the call's tensor arguments, given %s", describe(k.val))
	}
	var out []int
	for _, v := range list {
		e, isExpr := v.(ir.Expr)
		at := -1
		for i, a := range call.Args {
			if isExpr && a == e {
				at = i
				break
			}
		}
		if at < 0 {
			r.fail(k.node, "pl.submit: dumps= names %s, which is not an argument of the call", describe(v))
		}
		out = append(out, at)
	}
	return out
}

// mrgsort reads pl.tile.mrgsort / pl.tensor.mrgsort / pl.mrgsort, which
// upstream's DSL dispatches by its arguments: (src, block_len=N) is format1,
// (src0, src1[, src2[, src3]][, tmp=t][, exhausted=b]) format2; the tile
// form names its destination tmp, the tensor form's lowering allocates it.
func (fc *fnCtx) mrgsort(n *node, callee string, pos []value, nodes []*node, kws []kwArg) ir.Expr {
	r := fc.r
	if len(pos) == 0 {
		r.fail(n, "%s: expected sorted sources", callee)
	}
	tile := callee == "pl.tile.mrgsort"
	if callee == "pl.mrgsort" {
		if e, ok := pos[0].(ir.Expr); ok {
			_, tile = e.Type().(*ir.TileType)
		}
	}
	var rest []kwArg
	var blockLen *kwArg
	for i := range kws {
		if kws[i].name == "block_len" {
			blockLen = &kws[i]
			continue
		}
		rest = append(rest, kws[i])
	}
	if blockLen != nil {
		op := ir.TensorMrgsortFormat1
		if tile {
			op = ir.TileMrgsortFormat1
		}
		return fc.opCall(n, op, append(pos, blockLen.val), append(nodes, blockLen.node), rest)
	}
	op := ir.TensorMrgsortFormat2
	if tile {
		op = ir.TileMrgsortFormat2
		var keep []kwArg
		for _, k := range rest {
			if k.name == "tmp" {
				pos, nodes = append(pos, k.val), append(nodes, k.node)
				continue
			}
			keep = append(keep, k)
		}
		rest = keep
	}
	return fc.opCall(n, op, pos, nodes, rest)
}
