//go:build cgo

package pyfront

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// value is what an expression evaluates to: an ir.Expr, a Python constant
// (int64, float64, bool, string, nil), a list or tuple of values, an ir.Type,
// an enum member, or one of the small types below.
type value = any

type (
	pyList  []value
	pyTuple []value
	// dirType is pl.Out[T] / pl.InOut[T].
	dirType struct {
		dir ir.ParamDirection
		t   ir.Type
	}
	// unevaluable is a module constant this reader could not evaluate.
	unevaluable struct{ err error }
	// windowMarker is the "window_buffer=name" string of explicit-layout types.
	windowMarker string
	// opaque is a Python value the reader carries but cannot look into (a
	// plain function, a pytest fixture); using it in a program is an
	// error that says what it is.
	opaque struct{ what string }
)

func (o opaque) String() string { return o.what }

// funcRef is a module-level def (a factory, a test case class, a helper)
// used as a value: _TILE_FACTORY[name](rows, cols) calls it.
type funcRef struct{ f *factory }

func (f funcRef) String() string { return "the Python function " + f.f.name }

type reader struct {
	// sampleMakers are the file's plain functions, by name, whose return
	// values may be @pl.jit samples (a, c = _make_inputs()); sampleDepth
	// bounds their nesting.
	sampleMakers map[string]*node
	sampleDepth  int
	// sampleDefs are the same functions' definitions, for a call that
	// passes them a kernel (def check(kernel): kernel(A, out)).
	sampleDefs map[string]*node
	// topNames are the names the file's top level binds: its defs and
	// classes, assignment targets and imports (topLevelNames).
	topNames map[string]bool
	// binding is the module constant whose value is being read: a
	// pl.MemRef() declared without a name takes it.
	binding string
	// source is the file being read; while a helper imported from another
	// file is spliced, it is that file's (imports.go).
	source
	lastFile string
	lastLine int
	lastCol  int
	// loader holds the files this load has opened; imported says this
	// reader reads a file another imports (its top level only).
	loader   *loader
	imported bool
	// jitNames and progNames are the file's @pl.jit functions and
	// @pl.program classes, for what an importing file is told.
	jitNames, progNames map[string]bool
	// progBuilds build the file's @pl.program classes and top-level
	// @pl.function programs by name; a file another imports builds one
	// only when the importer uses it (imports.go).
	progBuilds map[string]func() *ir.Program
	// domainsOf holds the comm-domain comments read per host function.
	domainsOf map[*ir.Function]*fnCtx
	// strictFns are the functions declared @pl.function(strict_ssa=True).
	strictFns map[*ir.Function]bool
	// facs are the module's factories, which factories may call.
	facs map[string]*factory
	// helpers are the module's plain defs, which a factory may call to
	// compute compile-time values (factory.go).
	helpers map[string]*factory
	// cases are the module's top-level classes, for test cases that
	// inherit from one another (cases.go).
	cases map[string]*caseClass
	// enumImports are the enum classes imported from files ptorepl read.
	enumImports map[string]enumRef
	// mod is the module being read, whose programs a test case may return.
	mod *Module
	// dynamics are the module's pl.dynamic dimensions by name: one name,
	// one variable, as pl.Dynamic gives.
	dynamics map[string]*ir.Var
	// specs are the sample tensors the __main__ block passes to each
	// function it calls, by argument position (samples.go).
	specs map[string][]*sample
	// argTypes are the argument types of the call a deferred jit function
	// is being built for (samples.go).
	argTypes map[string][]ir.Type
}

func (r *reader) dynamic(name string, at *node) *ir.Var {
	if v, ok := r.dynamics[name]; ok {
		return v
	}
	if r.dynamics == nil {
		r.dynamics = map[string]*ir.Var{}
	}
	v := ir.NewVar(name, ir.Scalar(ir.INDEX), r.pos(at))
	r.dynamics[name] = v
	return v
}

// env is a lexical scope: a function's variables, a factory's parameters.
type env struct {
	parent *env
	vars   map[string]value
}

func (r *reader) globalEnv() *env { return &env{vars: map[string]value{}} }

func (e *env) child() *env { return &env{parent: e, vars: map[string]value{}} }

func (e *env) lookup(name string) (value, bool) {
	for s := e; s != nil; s = s.parent {
		if v, ok := s.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

func (r *reader) pos(n *node) ir.Span {
	p := n.StartPosition()
	return ir.Span{File: r.file, Line: int(p.Row) + 1, Col: int(p.Column) + 1}
}

func (r *reader) fail(n *node, format string, args ...any) {
	p := r.pos(n)
	panic(&Error{File: r.file, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)})
}

// failErr reports an error from ir (a TypeError) at n, dropping its own
// position prefix so the message carries one.
func (r *reader) failErr(n *node, err error) {
	if te, ok := err.(*ir.TypeError); ok {
		c := *te
		c.Pos = ir.Span{}
		err = &c
	}
	r.fail(n, "%v", err)
}

func (r *reader) text(n *node) string {
	if n == nil {
		return ""
	}
	return string(r.src[n.StartByte():n.EndByte()])
}

func (r *reader) touch(n *node) {
	p := n.StartPosition()
	r.lastFile, r.lastLine, r.lastCol = r.file, int(p.Row)+1, int(p.Column)+1
}

// dotted is the canonical dotted name of an identifier/attribute chain
// ("pl.tile.load"), with import aliases resolved; "" for anything else.
func (r *reader) dotted(n *node) string {
	if n == nil {
		return ""
	}
	switch n.Kind() {
	case "identifier":
		name := r.text(n)
		if c, ok := r.alias[name]; ok {
			return c
		}
		return name
	case "attribute":
		obj := r.dotted(n.ChildByFieldId(fldObject))
		if obj == "" {
			return ""
		}
		return obj + "." + r.text(n.ChildByFieldId(fldAttribute))
	}
	return ""
}

// named children, skipping comments.
func (r *reader) kids(n *node) []*node {
	var out []*node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// eval evaluates an expression at compile time, or to IR when it involves
// IR values. fc is the function being built (nil at module level).
func (r *reader) eval(n *node, e *env) value { return r.evalIn(n, e, nil) }

func (r *reader) evalIn(n *node, e *env, fc *fnCtx) value {
	r.touch(n)
	switch n.Kind() {
	case "integer":
		t := strings.ReplaceAll(r.text(n), "_", "")
		v, err := strconv.ParseInt(t, 0, 64)
		if err != nil {
			r.fail(n, "integer %s does not fit in 64 bits", t)
		}
		return v
	case "float":
		t := strings.ReplaceAll(r.text(n), "_", "")
		v, err := strconv.ParseFloat(t, 64)
		if err != nil {
			r.fail(n, "bad float literal %s", t)
		}
		return v
	case "true":
		return true
	case "false":
		return false
	case "none":
		return nil
	case "string", "concatenated_string":
		if n.Kind() == "string" && hasInterpolation(n) {
			return r.fstring(n, e, fc)
		}
		if n.Kind() == "concatenated_string" {
			var b strings.Builder
			for _, c := range r.kids(n) {
				b.WriteString(r.evalIn(c, e, fc).(string))
			}
			return b.String()
		}
		return r.str(n)
	case "parenthesized_expression":
		return r.evalIn(r.kids(n)[0], e, fc)
	case "list":
		out := pyList{}
		for _, c := range r.kids(n) {
			out = append(out, r.item(c, e, fc)...)
		}
		return out
	case "list_comprehension", "generator_expression":
		if fc == nil {
			// Module level and factories: over compile-time sequences
			// (PLATFORMS = [pytest.param(p, id=p) for p in IDS]).
			return r.comprehension(n, e, fc)
		}
	case "dictionary":
		return r.dict(n, e, fc)
	case "lambda":
		if fc == nil {
			return &pyLambda{def: n, env: e}
		}
	case "tuple", "expression_list":
		out := pyTuple{}
		for _, c := range r.kids(n) {
			out = append(out, r.item(c, e, fc)...)
		}
		return out
	case "identifier":
		name := r.text(n)
		if v, ok := e.lookup(name); ok {
			return r.resolved(n, name, v)
		}
		if v, ok := r.consts[name]; ok {
			return r.resolved(n, name, v)
		}
		if fc == nil {
			// A test case's `program = SomeProgram` names a module-level
			// program class.
			if p := r.moduleProgram(n); p != nil {
				return p
			}
		}
		if fc != nil {
			if v := fc.freeVar(name); v != nil {
				return v
			}
		}
		switch name {
		case "True":
			return true
		case "False":
			return false
		case "None":
			return nil
		}
		if fc == nil {
			// A def used as a value (a table of factories, a test case's
			// expected-output function): called where the reader calls
			// defs, carried otherwise.
			if f := r.facs[name]; f != nil {
				return funcRef{f}
			}
			if f := r.helpers[name]; f != nil {
				return funcRef{f}
			}
		}
		r.fail(n, "name %q is not defined", name)
	case "attribute":
		name := r.dotted(n)
		if v, ok := builtins[name]; ok {
			return v
		}
		if name != "" && (strings.HasPrefix(name, "pl.") || strings.HasPrefix(name, "pld.")) {
			r.fail(n, "unknown PyPTO name %s", name)
		}
		if v, ok := r.shapeAttr(n, e, fc); ok {
			return v
		}
		if v, ok := r.selfAttr(n, e); ok {
			return v
		}
		if v, ok := r.valueAttr(n, e, fc); ok {
			return v
		}
		if v, ok := r.foreignAttr(n, e); ok {
			return v
		}
		r.fail(n, "unsupported attribute access %s (only pl.* and pld.* names, and a tensor's or tile's .shape and .dtype)", r.text(n))
	case "subscript":
		return r.subscript(n, e, fc)
	case "call":
		return r.call(n, e, fc)
	case "binary_operator":
		return r.binary(n, e, fc)
	case "comparison_operator":
		return r.compare(n, e, fc)
	case "boolean_operator":
		op := r.text(n.ChildByFieldId(fldOperator))
		l := r.evalIn(n.ChildByFieldId(fldLeft), e, fc)
		if t, ok := pyTruth(l); ok {
			if _, isBool := l.(bool); !isBool {
				// Python's and/or on constants: the operand that decides
				// (out_m or m).
				if t == (op == "or") {
					return l
				}
				return r.evalIn(n.ChildByFieldId(fldRight), e, fc)
			}
		}
		rt := r.evalIn(n.ChildByFieldId(fldRight), e, fc)
		if lb, ok := l.(bool); ok {
			if rb, ok := rt.(bool); ok {
				if op == "and" {
					return lb && rb
				}
				return lb || rb
			}
		}
		bop := ir.OpAnd
		if op == "or" {
			bop = ir.OpOr
		}
		return r.binExpr(n, bop, l, rt)
	case "not_operator":
		x := r.evalIn(n.ChildByFieldId(fldArgument), e, fc)
		if _, isIR := x.(ir.Expr); !isIR {
			if t, ok := pyTruth(x); ok {
				return !t // not on a constant: Python's truth
			}
		}
		xe := r.toExpr(n, x)
		if st, ok := xe.Type().(*ir.ScalarType); !ok || st.DType != ir.BOOL {
			r.fail(n, "not: expected a BOOL scalar, given %s", ir.Describe(xe))
		}
		return &ir.UnaryExpr{Op: ir.OpNot, X: xe, DType: ir.BOOL, Pos: r.pos(n)}
	case "unary_operator":
		op := r.text(n.ChildByFieldId(fldOperator))
		x := r.evalIn(n.ChildByFieldId(fldArgument), e, fc)
		switch v := x.(type) {
		case int64:
			switch op {
			case "-":
				return -v
			case "+":
				return v
			case "~":
				return ^v
			}
		case float64:
			switch op {
			case "-":
				return -v
			case "+":
				return v
			}
		}
		xe := r.toExpr(n, x)
		st, ok := xe.Type().(*ir.ScalarType)
		if !ok {
			r.fail(n, "unary %s: expected a scalar, given %s", op, ir.Describe(xe))
		}
		switch op {
		case "-":
			return &ir.UnaryExpr{Op: ir.OpNeg, X: xe, DType: st.DType, Pos: r.pos(n)}
		case "~":
			return &ir.UnaryExpr{Op: ir.OpBitNot, X: xe, DType: st.DType, Pos: r.pos(n)}
		case "+":
			return xe
		}
	case "ellipsis":
		return nil
	case "conditional_expression":
		ks := r.kids(n)
		c := r.evalIn(ks[1], e, fc)
		b, ok := pyTruth(c)
		if !ok {
			r.fail(ks[1], "a conditional expression needs a compile-time condition, given %s", describe(c))
		}
		if b {
			return r.evalIn(ks[0], e, fc)
		}
		return r.evalIn(ks[2], e, fc)
	}
	r.fail(n, "unsupported Python construct: %s", kindText(n.Kind()))
	return nil
}

func kindText(k string) string { return strings.ReplaceAll(k, "_", " ") }

func (r *reader) resolved(n *node, name string, v value) value {
	if u, ok := v.(unevaluable); ok {
		if ie, ok := u.err.(importError); ok {
			r.fail(n, "%s", string(ie))
		}
		msg := u.err.Error()
		if pe, ok := u.err.(*Error); ok {
			msg = fmt.Sprintf("%s (at line %d:%d)", pe.Msg, pe.Line, pe.Col)
		}
		r.fail(n, "module constant %s could not be evaluated: %s", name, msg)
	}
	return v
}

func (r *reader) str(n *node) string {
	if n.Kind() == "concatenated_string" {
		var b strings.Builder
		for _, c := range r.kids(n) {
			b.WriteString(r.str(c))
		}
		return b.String()
	}
	t := r.text(n)
	for _, c := range r.kids(n) {
		if c.Kind() == "interpolation" {
			r.fail(n, "f-strings are not supported here")
		}
	}
	if s, err := strconv.Unquote(t); err == nil {
		return s
	}
	// Python single-quoted and triple-quoted strings.
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if len(t) >= 2*len(q) && strings.HasPrefix(t, q) && strings.HasSuffix(t, q) {
			body := t[len(q) : len(t)-len(q)]
			body = strings.ReplaceAll(body, `\'`, `'`)
			body = strings.ReplaceAll(body, `\"`, `"`)
			body = strings.ReplaceAll(body, `\\`, `\`)
			return body
		}
	}
	r.fail(n, "unsupported string literal %s", t)
	return ""
}

func describe(v value) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case int64:
		return fmt.Sprintf("int %d", x)
	case float64:
		return fmt.Sprintf("float %v", x)
	case bool:
		return fmt.Sprintf("bool %v", x)
	case string:
		return fmt.Sprintf("str %q", x)
	case pyList:
		return "a list"
	case pyTuple:
		return "a tuple"
	case *pyDict:
		return "a dict"
	case ir.Expr:
		return ir.Describe(x)
	case ir.Type:
		return "the type " + x.String()
	case dirType:
		return "a direction-wrapped type"
	}
	return fmt.Sprintf("%v", v)
}

// toExpr converts a value to IR: Python ints are INDEX constants, floats
// FP32, lists and tuples MakeTuples.
func (r *reader) toExpr(n *node, v value) ir.Expr {
	switch x := v.(type) {
	case ir.Expr:
		return x
	case int64:
		return &ir.ConstInt{Value: x, DType: ir.INDEX, Pos: r.pos(n)}
	case float64:
		return &ir.ConstFloat{Value: x, DType: ir.FP32, Pos: r.pos(n)}
	case bool:
		return &ir.ConstBool{Value: x, Pos: r.pos(n)}
	case pyList:
		return r.tupleExpr(n, x)
	case pyTuple:
		return r.tupleExpr(n, x)
	case noDepArg:
		r.fail(n, "pl.no_dep(...) marks an argument of a kernel call (self.k(pl.no_dep(t), ...)), not a value of its own")
	}
	r.fail(n, "expected a value, given %s", describe(v))
	return nil
}

func (r *reader) tupleExpr(n *node, xs []value) *ir.MakeTuple {
	es := make([]ir.Expr, len(xs))
	for i, x := range xs {
		es[i] = r.toExpr(n, x)
	}
	return &ir.MakeTuple{Elems: es, Pos: r.pos(n)}
}

var binOps = map[string]ir.BinaryOp{
	"+": ir.OpAdd, "-": ir.OpSub, "*": ir.OpMul, "//": ir.OpFloorDiv, "%": ir.OpFloorMod, "/": ir.OpFloatDiv,
	"**": ir.OpPow, "&": ir.OpBitAnd, "|": ir.OpBitOr, "^": ir.OpBitXor, "<<": ir.OpShl, ">>": ir.OpShr,
	"==": ir.OpEq, "!=": ir.OpNe, "<": ir.OpLt, "<=": ir.OpLe, ">": ir.OpGt, ">=": ir.OpGe,
}

func (r *reader) binary(n *node, e *env, fc *fnCtx) value {
	opText := r.text(n.ChildByFieldId(fldOperator))
	op, ok := binOps[opText]
	if !ok {
		r.fail(n, "unsupported operator %s", opText)
	}
	l := r.evalIn(n.ChildByFieldId(fldLeft), e, fc)
	rt := r.evalIn(n.ChildByFieldId(fldRight), e, fc)
	if v, ok := foldPy(op, l, rt); ok {
		return v
	}
	if _, ok := l.(ir.Expr); !ok {
		if _, ok := rt.(ir.Expr); !ok {
			r.fail(n, "operator %s: unsupported operands %s and %s", opText, describe(l), describe(rt))
		}
	}
	return r.binExpr(n, op, l, rt)
}

func (r *reader) compare(n *node, e *env, fc *fnCtx) value {
	ks := r.kids(n)
	if len(ks) != 2 {
		r.fail(n, "chained comparisons are not supported; write (a < b) and (b < c)")
	}
	var opText string
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if !c.IsNamed() {
			opText = strings.Join(strings.Fields(r.text(c)), " ")
		}
	}
	if opText == "is" || opText == "is not" || opText == "in" || opText == "not in" {
		v, _ := r.identity(n, opText, r.evalIn(ks[0], e, fc), r.evalIn(ks[1], e, fc))
		return v
	}
	op, ok := binOps[opText]
	if !ok {
		r.fail(n, "unsupported comparison %s", opText)
	}
	l := r.evalIn(ks[0], e, fc)
	rt := r.evalIn(ks[1], e, fc)
	if v, ok := foldPy(op, l, rt); ok {
		return v
	}
	_, lIR := l.(ir.Expr)
	_, rIR := rt.(ir.Expr)
	if !lIR && !rIR && (op == ir.OpEq || op == ir.OpNe) {
		// None, dtypes, tuples, a harness's enum members.
		return pyEqual(l, rt) == (op == ir.OpEq)
	}
	return r.binExpr(n, op, l, rt)
}

// foldPy folds an operation on two Python constants.
func foldPy(op ir.BinaryOp, l, r value) (value, bool) {
	li, lok := l.(int64)
	ri, rok := r.(int64)
	if lok && rok {
		switch op {
		case ir.OpFloatDiv:
			if ri == 0 {
				return nil, false
			}
			return float64(li) / float64(ri), true
		case ir.OpEq:
			return li == ri, true
		case ir.OpNe:
			return li != ri, true
		case ir.OpLt:
			return li < ri, true
		case ir.OpLe:
			return li <= ri, true
		case ir.OpGt:
			return li > ri, true
		case ir.OpGe:
			return li >= ri, true
		case ir.OpPow:
			if ri < 0 {
				return math.Pow(float64(li), float64(ri)), true // 2 ** -1 is 0.5 in Python
			}
			return int64(math.Pow(float64(li), float64(ri))), true
		}
		v, ok, err := ir.IntArith(op, li, ri)
		if err != nil || !ok {
			return nil, false
		}
		return v, true
	}
	lf, lfok := toFloat(l)
	rf, rfok := toFloat(r)
	if lfok && rfok && (!lok || !rok) {
		switch op {
		case ir.OpAdd:
			return lf + rf, true
		case ir.OpSub:
			return lf - rf, true
		case ir.OpMul:
			return lf * rf, true
		case ir.OpFloatDiv:
			if rf == 0 {
				return nil, false
			}
			return lf / rf, true
		case ir.OpPow:
			return math.Pow(lf, rf), true
		case ir.OpLt:
			return lf < rf, true
		case ir.OpLe:
			return lf <= rf, true
		case ir.OpGt:
			return lf > rf, true
		case ir.OpGe:
			return lf >= rf, true
		case ir.OpEq:
			return lf == rf, true
		case ir.OpNe:
			return lf != rf, true
		}
	}
	if ls, ok := l.(string); ok {
		if rs, ok := r.(string); ok {
			switch op {
			case ir.OpEq:
				return ls == rs, true
			case ir.OpNe:
				return ls != rs, true
			case ir.OpAdd:
				return ls + rs, true
			}
		}
	}
	if lb, ok := l.(bool); ok {
		if rb, ok := r.(bool); ok {
			switch op {
			case ir.OpEq:
				return lb == rb, true
			case ir.OpNe:
				return lb != rb, true
			}
		}
	}
	return nil, false
}

func toFloat(v value) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// binExpr builds a scalar binary expression with the builder's dtype rules.
func (r *reader) binExpr(n *node, op ir.BinaryOp, lv, rv value) ir.Expr {
	l, rt := r.toExpr(n, lv), r.toExpr(n, rv)
	for i, x := range []ir.Expr{l, rt} {
		if _, ok := x.Type().(*ir.ScalarType); !ok {
			r.fail(n, "operator %s: the %s operand must be a scalar, given %s (use pl.add, pl.mul, ... on tiles and tensors)",
				op, []string{"left", "right"}[i], ir.Describe(x))
		}
	}
	dt := ir.PromoteScalar(l, rt)
	if op.IsCompare() || op.IsLogical() {
		dt = ir.BOOL
	}
	if op == ir.OpFloatDiv && !dt.IsFloat() {
		dt = ir.FP32
	}
	return &ir.BinaryExpr{Op: op, Left: l, Right: rt, DType: dt, Pos: r.pos(n)}
}

// shapeAttr reads x.shape and x.dtype of a tensor or tile: a tuple of its
// dimensions (integers where static) and its dtype, as upstream's JIT
// specializer inlines them (M, N = a.shape).
func (r *reader) shapeAttr(n *node, e *env, fc *fnCtx) (value, bool) {
	obj, attr := n.ChildByFieldId(fldObject), r.text(n.ChildByFieldId(fldAttribute))
	if obj == nil || (attr != "shape" && attr != "dtype") {
		return nil, false
	}
	x, ok := r.evalIn(obj, e, fc).(ir.Expr)
	if !ok {
		return nil, false
	}
	dims, dt, ok := ir.ShapeOf(x.Type())
	if !ok {
		return nil, false
	}
	if attr == "dtype" {
		return dt, true
	}
	out := make(pyTuple, len(dims))
	for i, d := range dims {
		if v, ok := ir.ConstValue(d); ok {
			out[i] = v
		} else {
			out[i] = d
		}
	}
	return out, true
}
