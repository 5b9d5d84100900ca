// Package verify checks IR invariants and reports every violation as a
// positioned Diagnostic, as upstream PyPTO's property verifiers do: variables
// used after their definition, single assignment once a program is in SSA
// form, call types that agree with their op's deducer, and For/If yields that
// match their return_vars (including the window-buffer identity rule, code 110),
// and, once FlattenCallExpr has run, no call nested in another.
// PostPipeline adds the checks that warn about a lowered program without
// rejecting it: ParamDirectionsSound, a parameter declared In that its own
// body writes.
//
// The verifier never panics on malformed IR; passes run it after every stage in
// tests.
package verify

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Error codes, upstream's numbering (ir.md §11).
const (
	MultipleAssignment         = 1
	NameShadowing              = 2
	MissingYield               = 3
	IterArgsReturnVarsMismatch = 4
	YieldCountMismatch         = 5
	ScopeViolation             = 6
	MisplacedYield             = 7
	TypeKindMismatch           = 101
	DTypeMismatch              = 102
	ShapeDimension             = 103
	ShapeValue                 = 104
	WindowIdentityMismatch     = 110
	UseBeforeDef               = 401
	CallTypeMismatch           = 501 // ptorepl's own: a call's stored type disagrees with its deducer
	NestedCall                 = 502 // ptorepl's own number for upstream's NoNestedCall findings
)

// Diagnostic is one verifier finding.
type Diagnostic struct {
	Rule     string // SSAVerify, TypeCheck, UseAfterDef, CallType, NoNestedCall
	Code     int
	Function string
	Message  string
	Pos      ir.Span
	// Warning marks a finding about a program that still compiles and runs
	// (upstream's Warning severity), such as ParamDirectionsSound's.
	Warning bool
}

func (d Diagnostic) String() string {
	tag := fmt.Sprintf("[%s %d]", d.Rule, d.Code)
	if d.Warning {
		tag = "warning [" + d.Rule + "]"
	}
	if !d.Pos.Known() {
		return fmt.Sprintf("function %s %s: %s", d.Function, tag, d.Message)
	}
	return fmt.Sprintf("%s: function %s %s: %s", d.Pos, d.Function, tag, d.Message)
}

// Options selects which properties to check.
type Options struct {
	// SSA checks single assignment and yield placement; programs claim SSA
	// form after ConvertToSSA.
	SSA bool
	// Flat checks that no call is nested where FlattenCallExpr hoists
	// calls (upstream's NoNestedCall); programs claim it after that pass.
	Flat bool
}

// Program checks every function of p and returns the diagnostics in function
// order, then source order.
func Program(p *ir.Program, o Options) []Diagnostic {
	var out []Diagnostic
	for _, f := range p.Functions {
		out = append(out, Function(p, f, o)...)
	}
	return out
}

// Function checks one function of p (p may be nil when f calls no other function).
func Function(p *ir.Program, f *ir.Function, o Options) []Diagnostic {
	v := &verifier{prog: p, fn: f, opt: o, assigned: map[*ir.Var]bool{}, free: map[*ir.Var]bool{}}
	defer func() {
		// A verifier crash on malformed IR is itself a finding, not a panic.
		if r := recover(); r != nil {
			v.report("Verifier", 0, f.Pos, "malformed IR: %v", r)
		}
	}()
	v.collectFree()
	sc := v.push(nil)
	for _, prm := range f.Params {
		v.define(sc, prm, f.Pos)
	}
	v.stmt(sc, f.Body, true)
	if o.Flat {
		v.noNestedCalls(f.Body)
	}
	return v.diags
}

// Err joins diagnostics into one error (nil when there are none).
func Err(diags []Diagnostic) error {
	if len(diags) == 0 {
		return nil
	}
	lines := make([]string, len(diags))
	for i, d := range diags {
		lines[i] = d.String()
	}
	return errors.New("verify: " + strings.Join(lines, "\nverify: "))
}

type scope struct {
	parent *scope
	vars   map[*ir.Var]bool
}

func (s *scope) has(v *ir.Var) bool {
	for ; s != nil; s = s.parent {
		if s.vars[v] {
			return true
		}
	}
	return false
}

type verifier struct {
	prog     *ir.Program
	fn       *ir.Function
	opt      Options
	diags    []Diagnostic
	assigned map[*ir.Var]bool
	// free holds symbolic dimensions (pl.dynamic): defined by the program's
	// types, not by a statement.
	free map[*ir.Var]bool
}

func (v *verifier) report(rule string, code int, pos ir.Span, format string, args ...any) {
	v.diags = append(v.diags, Diagnostic{Rule: rule, Code: code, Function: v.fn.Name, Message: fmt.Sprintf(format, args...), Pos: pos})
}

func (v *verifier) push(parent *scope) *scope {
	return &scope{parent: parent, vars: map[*ir.Var]bool{}}
}

// collectFree gathers the variables that occur in shapes of any type in the
// function: symbolic dimensions are in scope everywhere.
func (v *verifier) collectFree() {
	var fromType func(t ir.Type)
	fromType = func(t ir.Type) {
		if tt, ok := t.(*ir.TupleType); ok {
			for _, x := range tt.Types {
				fromType(x)
			}
			return
		}
		if dims, _, ok := ir.ShapeOf(t); ok {
			for _, d := range dims {
				ir.WalkExpr(d, func(e ir.Expr) {
					if x, ok := e.(*ir.Var); ok {
						v.free[x] = true
					}
				})
			}
		}
	}
	for _, p := range v.fn.Params {
		fromType(p.Type())
	}
	for _, t := range v.fn.ReturnTypes {
		fromType(t)
	}
	ir.WalkStmt(v.fn.Body, func(e ir.Expr) { fromType(e.Type()) }, func(s ir.Stmt) {
		if a, ok := s.(*ir.AssignStmt); ok && a.Var != nil {
			fromType(a.Var.Type())
		}
	})
}

func (v *verifier) define(sc *scope, x *ir.Var, pos ir.Span) {
	if x == nil {
		return
	}
	if v.opt.SSA && v.assigned[x] {
		v.report("SSAVerify", MultipleAssignment, pos, "variable %s is assigned more than once", x.Name)
	}
	v.assigned[x] = true
	sc.vars[x] = true
}

// uses checks that every variable e reads is defined.
func (v *verifier) uses(sc *scope, e ir.Expr, pos ir.Span) {
	ir.WalkExpr(e, func(e ir.Expr) {
		var x *ir.Var
		switch e := e.(type) {
		case *ir.Var:
			x = e
		case *ir.IterArg:
			x = &e.Var
		case *ir.WindowBuffer:
			// A window buffer stands for its allocation: the base must be bound.
			x = e.Base
		}
		if x == nil || v.free[x] || sc.has(x) {
			return
		}
		// A Var's own span is where it was defined; report the use site.
		v.report("UseAfterDef", UseBeforeDef, pos, "variable %s is used before it is defined", x.Name)
	})
	ir.WalkExpr(e, func(e ir.Expr) {
		if c, ok := e.(*ir.Call); ok {
			v.call(c, pos)
		}
	})
}

// stmt checks s in scope sc. last tells whether s ends its block (where a
// yield belongs).
func (v *verifier) stmt(sc *scope, s ir.Stmt, last bool) {
	switch s := s.(type) {
	case nil:
	case *ir.SeqStmts:
		for i, c := range s.Stmts {
			v.stmt(sc, c, last && i == len(s.Stmts)-1)
		}
	case *ir.AssignStmt:
		v.uses(sc, s.Value, s.Pos)
		if s.Var != nil && s.Value != nil {
			v.sameType("assignment to "+s.Var.Name, s.Var.Type(), s.Value.Type(), s.Pos)
		}
		v.define(sc, s.Var, s.Pos)
	case *ir.EvalStmt:
		v.uses(sc, s.Expr, s.Pos)
	case *ir.ReturnStmt:
		for _, x := range s.Values {
			v.uses(sc, x, s.Pos)
		}
	case *ir.YieldStmt:
		for _, x := range s.Values {
			v.uses(sc, x, s.Pos)
		}
		if v.opt.SSA && !last {
			v.report("SSAVerify", MisplacedYield, s.Pos, "a yield must be the last statement of its block")
		}
	case *ir.IfStmt:
		v.ifStmt(sc, s)
	case *ir.ForStmt:
		v.forStmt(sc, s)
	case *ir.WhileStmt:
		v.whileStmt(sc, s)
	case *ir.BreakStmt, *ir.ContinueStmt:
	case *ir.ScopeStmt:
		// A scope is transparent: its definitions are visible after it.
		v.stmt(sc, s.Body, false)
	default:
		v.report("Verifier", 0, s.Span(), "unknown statement %T", s)
	}
}

// branch runs a nested block. In SSA form its definitions stay inside; before
// SSA they escape, as Python's do.
func (v *verifier) branch(sc *scope, body ir.Stmt, bind func(*scope)) {
	inner := sc
	if v.opt.SSA {
		inner = v.push(sc)
	}
	if bind != nil {
		bind(inner)
	}
	v.stmt(inner, body, true)
}

func (v *verifier) ifStmt(sc *scope, s *ir.IfStmt) {
	v.uses(sc, s.Cond, s.Pos)
	if t, ok := s.Cond.Type().(*ir.ScalarType); !ok {
		v.report("TypeCheck", 106, s.Pos, "if condition must be a scalar, given %s", s.Cond.Type())
	} else if t.DType != ir.BOOL {
		v.report("TypeCheck", 108, s.Pos, "if condition must be BOOL, given %s", t.DType)
	}
	v.branch(sc, s.Then, nil)
	v.branch(sc, s.Else, nil)
	if len(s.ReturnVars) > 0 {
		v.yields("if then-branch", s.Then, s.ReturnVars, s.Pos)
		if s.Else == nil {
			v.report("SSAVerify", MissingYield, s.Pos, "if with return_vars has no else branch to yield them")
		} else {
			v.yields("if else-branch", s.Else, s.ReturnVars, s.Pos)
		}
	}
	for _, rv := range s.ReturnVars {
		v.define(sc, rv, s.Pos)
	}
}

func (v *verifier) forStmt(sc *scope, s *ir.ForStmt) {
	for _, e := range []ir.Expr{s.Start, s.Stop, s.Step} {
		v.uses(sc, e, s.Pos)
		if e != nil {
			if _, ok := e.Type().(*ir.ScalarType); !ok {
				v.report("TypeCheck", 107, s.Pos, "for range bounds must be scalars, given %s", e.Type())
			}
		}
	}
	v.loop(sc, "for", s.IterArgs, s.Body, s.ReturnVars, s.Pos, func(in *scope) {
		v.define(in, s.LoopVar, s.Pos)
	})
}

// whileStmt checks a while loop: its condition is a BOOL scalar read where
// the body's iter-args are bound.
func (v *verifier) whileStmt(sc *scope, s *ir.WhileStmt) {
	v.loop(sc, "while", s.IterArgs, s.Body, s.ReturnVars, s.Pos, func(in *scope) {
		v.uses(in, s.Cond, s.Pos)
		if st, ok := s.Cond.Type().(*ir.ScalarType); !ok || st.DType != ir.BOOL {
			v.report("TypeCheck", 107, s.Pos, "a while condition must be a BOOL scalar, given %s", s.Cond.Type())
		}
	})
}

// loop checks what for and while share: iter-arg inits read outside, the
// body with the iter-args (and what head binds or reads) in scope, and
// one return var per iter-arg, bound by the body's yield.
func (v *verifier) loop(sc *scope, what string, ias []*ir.IterArg, body ir.Stmt, rvs []*ir.Var, pos ir.Span, head func(in *scope)) {
	for _, ia := range ias {
		v.uses(sc, ia.Init, pos)
		if ia.Init != nil {
			v.sameType("iter_arg "+ia.Name+" init", ia.Type(), ia.Init.Type(), pos)
		}
	}
	v.branch(sc, body, func(in *scope) {
		for _, ia := range ias {
			v.define(in, &ia.Var, pos)
		}
		head(in)
	})
	if len(ias) != len(rvs) {
		v.report("SSAVerify", IterArgsReturnVarsMismatch, pos, "%s has %d iter_args but %d return_vars", what, len(ias), len(rvs))
	}
	if len(ias) > 0 {
		v.yields(what+" body", body, rvs, pos)
		for i, ia := range ias {
			if i < len(rvs) {
				v.sameType("iter_arg "+ia.Name+" vs return var", ia.Type(), rvs[i].Type(), pos)
			}
		}
	}
	for _, rv := range rvs {
		v.define(sc, rv, pos)
	}
}

// yields checks that body ends with a yield of len(rvs) values typed like rvs.
func (v *verifier) yields(where string, body ir.Stmt, rvs []*ir.Var, pos ir.Span) {
	stmts := ir.Flatten(body)
	if len(stmts) == 0 {
		v.report("SSAVerify", MissingYield, pos, "%s does not end with a yield of its %d return values", where, len(rvs))
		return
	}
	y, ok := stmts[len(stmts)-1].(*ir.YieldStmt)
	if !ok {
		v.report("SSAVerify", MissingYield, stmts[len(stmts)-1].Span(), "%s does not end with a yield of its %d return values", where, len(rvs))
		return
	}
	if len(y.Values) != len(rvs) {
		v.report("SSAVerify", YieldCountMismatch, y.Pos, "%s yields %d values for %d return_vars", where, len(y.Values), len(rvs))
		return
	}
	for i, x := range y.Values {
		if x != nil {
			v.sameType(fmt.Sprintf("%s yield %d", where, i), rvs[i].Type(), x.Type(), y.Pos)
		}
	}
}

// sameType reports the first way got differs from want: kind, dtype, shape,
// then window-buffer identity (code 110).
func (v *verifier) sameType(ctx string, want, got ir.Type, pos ir.Span) {
	if msg, code := typeMismatch(want, got); code != 0 {
		v.report("TypeCheck", code, pos, "%s: %s", ctx, msg)
	}
}

func typeMismatch(want, got ir.Type) (string, int) {
	if want == nil || got == nil {
		return "", 0
	}
	_, wu := want.(*ir.UnknownType)
	_, gu := got.(*ir.UnknownType)
	if wu || gu {
		return "", 0
	}
	if want.TypeName() != got.TypeName() {
		return fmt.Sprintf("expected %s, given %s", want, got), TypeKindMismatch
	}
	if ws, ok := want.(*ir.ScalarType); ok {
		gs := got.(*ir.ScalarType)
		if ws.DType != gs.DType && !(isIndexLike(ws.DType) && isIndexLike(gs.DType)) {
			return fmt.Sprintf("dtype %s vs %s", ws.DType, gs.DType), DTypeMismatch
		}
		return "", 0
	}
	wd, wdt, wok := ir.ShapeOf(want)
	gd, gdt, gok := ir.ShapeOf(got)
	if wok && gok {
		if wdt != gdt {
			return fmt.Sprintf("dtype %s vs %s", wdt, gdt), DTypeMismatch
		}
		if len(wd) != len(gd) {
			return fmt.Sprintf("rank %d vs %d (%s vs %s)", len(wd), len(gd), want, got), ShapeDimension
		}
		if !ir.SameDims(wd, gd) {
			return fmt.Sprintf("shape %s vs %s", ir.ShapeString(wd), ir.ShapeString(gd)), ShapeValue
		}
	}
	if a, ok := want.(*ir.DistributedTensorType); ok {
		b := got.(*ir.DistributedTensorType)
		if a.Window != b.Window {
			return fmt.Sprintf("Distributed window-buffer identity mismatch: %s and %s refer to different window buffers",
				windowName(a.Window), windowName(b.Window)), WindowIdentityMismatch
		}
	}
	return "", 0
}

func windowName(w *ir.WindowBuffer) string {
	if w == nil {
		return "<no window>"
	}
	return w.Name
}

func isIndexLike(d ir.DataType) bool { return d == ir.INDEX || d == ir.INT64 }

// call re-runs the op's deducer and compares with the stored type. Memory
// annotations that later passes add (MemRef, memory space, views) are not
// part of the comparison; kind, dtype, shape and window identity are.
func (v *verifier) call(c *ir.Call, pos ir.Span) {
	if c.Pos.Known() {
		pos = c.Pos
	}
	if c.Op == nil {
		v.fnCall(c, pos)
		return
	}
	fresh, err := c.Op.NewCall(c.Args, c.Kwargs, c.Pos)
	if err != nil {
		v.report("CallType", CallTypeMismatch, pos, "%s no longer type-checks: %v", c.Op.Name, err)
		return
	}
	want := fresh.Type()
	// A deducer cannot know which allocation a view belongs to; the window
	// CollectCommGroups bound into the stored type is not a disagreement.
	if fd, ok := want.(*ir.DistributedTensorType); ok && fd.Window == nil {
		if sd, ok := c.Type().(*ir.DistributedTensorType); ok && sd.Window != nil {
			cp := *fd
			cp.Window = sd.Window
			want = &cp
		}
	}
	if msg, code := typeMismatch(want, c.Type()); code != 0 {
		v.report("CallType", CallTypeMismatch, pos, "%s: stored type differs from the deducer's result: %s", c.Op.Name, msg)
	}
}

// fnCall checks a call of a program function against its signature.
func (v *verifier) fnCall(c *ir.Call, pos ir.Span) {
	if c.Fn == nil {
		v.report("CallType", CallTypeMismatch, pos, "call has neither an op nor a function")
		return
	}
	if v.prog == nil {
		return
	}
	callee := v.prog.Function(c.Fn.Name)
	if callee == nil {
		v.report("CallType", CallTypeMismatch, pos, "call of unknown function %s", c.Fn.Name)
		return
	}
	if len(c.Args) != len(callee.Params) {
		v.report("CallType", CallTypeMismatch, pos, "%s takes %d arguments, given %d", callee.Name, len(callee.Params), len(c.Args))
		return
	}
	for i, a := range c.Args {
		if msg, code := argMismatch(callee.Params[i].Type(), a.Type()); code != 0 {
			v.report("CallType", code, pos, "%s argument %s: %s", callee.Name, callee.Params[i].Name, msg)
		}
	}
}

// argMismatch compares a parameter type with an argument type, letting
// symbolic dimensions of the parameter bind to anything.
func argMismatch(param, arg ir.Type) (string, int) {
	if param.TypeName() != arg.TypeName() {
		// A host tensor passed where a DistributedTensor is declared is how
		// windows are bound at dispatch; the simulator checks the rest.
		if param.TypeName() == "DistributedTensorType" && arg.TypeName() == "TensorType" {
			return "", 0
		}
		return fmt.Sprintf("expected %s, given %s", param, arg), TypeKindMismatch
	}
	pd, pdt, pok := ir.ShapeOf(param)
	ad, adt, aok := ir.ShapeOf(arg)
	if pok && aok {
		if pdt != adt {
			return fmt.Sprintf("dtype %s vs %s", pdt, adt), DTypeMismatch
		}
		if len(pd) != len(ad) {
			return fmt.Sprintf("rank %d vs %d", len(pd), len(ad)), ShapeDimension
		}
		for i := range pd {
			pv, pc := ir.ConstValue(pd[i])
			av, ac := ir.ConstValue(ad[i])
			if pc && ac && pv != av {
				return fmt.Sprintf("shape %s vs %s", ir.ShapeString(pd), ir.ShapeString(ad)), ShapeValue
			}
		}
	}
	return "", 0
}

// Codes returns the sorted distinct codes of diags (handy in tests).
func Codes(diags []Diagnostic) []int {
	seen := map[int]bool{}
	var out []int
	for _, d := range diags {
		if !seen[d.Code] {
			seen[d.Code] = true
			out = append(out, d.Code)
		}
	}
	sort.Ints(out)
	return out
}
