package dsl

import (
	"fmt"
	"strconv"
	"sync"
	"unicode"

	"github.com/ptorepl/ptorepl/ir"
)

// CheckName raises unless name is a Python identifier that is not a
// keyword; op and arg say where it was given ("f.Let", "name").
func CheckName(op, arg, name string) {
	why := ""
	switch {
	case name == "":
		why = "an empty name"
	case ir.IsPythonKeyword(name):
		why = strconv.Quote(name) + ", a Python keyword"
	default:
		for i, r := range name {
			if r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r)) {
				continue
			}
			if i == 0 && unicode.IsDigit(r) {
				why = strconv.Quote(name) + ", which starts with a digit"
			} else {
				why = fmt.Sprintf("%q, which contains %q", name, r)
			}
			break
		}
	}
	if why != "" {
		Raise(&ir.TypeError{Op: op, Arg: arg, Expected: "a Python identifier that is not a keyword (letters, digits, _)", Given: why})
	}
}

// CheckDims raises if a constant dimension of a type is negative.
func CheckDims(op string, s Shape) {
	for d, e := range s.Dims {
		if v, ok := ir.ConstValue(e); ok && v < 0 {
			Raise(&ir.TypeError{Op: op, Arg: "shape", Expected: "non-negative dimensions",
				Given: fmt.Sprintf("%s (dimension %d is %d)", s, d, v)})
		}
	}
}

// dynamics holds the dynamic dimensions (pl.Dynamic) by name. One name is
// one variable: the printed form declares a dynamic once by its name
// (NR = pl.dynamic("NR")), so two variables of one name could not be told
// apart there, and the program would not read back as itself.
var dynamics = struct {
	sync.Mutex
	byName map[string]*ir.Var
	is     map[*ir.Var]bool
}{byName: map[string]*ir.Var{}, is: map[*ir.Var]bool{}}

// Dynamic is the dynamic dimension called name: a program-level INDEX
// scalar, usable in every function without being defined there. The first
// call makes it (at pos); later calls with the name return the same one.
func Dynamic(name string, pos ir.Span) *ir.Var {
	dynamics.Lock()
	defer dynamics.Unlock()
	if v, ok := dynamics.byName[name]; ok {
		return v
	}
	v := ir.NewVar(name, ir.Scalar(ir.INDEX), pos)
	dynamics.byName[name] = v
	dynamics.is[v] = true
	return v
}

func isDynamic(v *ir.Var) bool {
	dynamics.Lock()
	defer dynamics.Unlock()
	return dynamics.is[v]
}

// Declare brings v into scope in b's function (a parameter, an assignment,
// a loop variable while its body is recorded).
func (b *Builder) Declare(v *ir.Var) {
	b.scope[v]++
	if b.Prog != nil {
		b.Prog.Owner[v] = b.Fn.Name
	}
}

// Undeclare takes a loop variable out of scope when its body ends.
func (b *Builder) Undeclare(v *ir.Var) {
	if b.scope[v]--; b.scope[v] <= 0 {
		delete(b.scope, v)
	}
}

// inScope reports whether v may be used in b's function.
func (b *Builder) inScope(v *ir.Var) bool {
	if b.scope[v] > 0 || isDynamic(v) {
		return true
	}
	// A symbolic dimension of a parameter's type is bound by the call.
	for _, p := range b.Fn.Params {
		if dims, _, ok := ir.ShapeOf(p.Type()); ok {
			for _, d := range dims {
				found := false
				ir.WalkExpr(d, func(e ir.Expr) { found = found || e == ir.Expr(v) })
				if found {
					return true
				}
			}
		}
	}
	return false
}

// checkFree raises if an expression of s (not of its nested blocks, which
// were checked as they were recorded) uses a variable that is not defined
// in this function: the printed IR would show it as NAME__FREE_VAR.
func (b *Builder) checkFree(s ir.Stmt) {
	var exprs []ir.Expr
	op, arg := "", "value"
	switch s := s.(type) {
	case *ir.AssignStmt:
		exprs, op = []ir.Expr{s.Value}, "f.Let"
	case *ir.EvalStmt:
		exprs, op, arg = []ir.Expr{s.Expr}, "f.Do", "call"
	case *ir.ReturnStmt:
		exprs, op = s.Values, "f.Return"
	case *ir.IfStmt:
		exprs, op, arg = []ir.Expr{s.Cond}, "f.If", "cond"
	case *ir.ForStmt:
		exprs, op, arg = []ir.Expr{s.Start, s.Stop, s.Step}, "f.For", "range"
	case *ir.WhileStmt:
		exprs, op, arg = []ir.Expr{s.Cond}, "f.While", "cond"
	}
	for _, x := range exprs {
		ir.WalkExpr(x, func(e ir.Expr) {
			v, ok := e.(*ir.Var)
			if !ok || b.inScope(v) {
				return
			}
			given := v.Name + ", which is not a parameter or a variable of " + b.Fn.Name
			if owner, ok := b.Prog.Owner[v]; ok && owner != b.Fn.Name {
				given = v.Name + ", a variable of function " + owner + " (pass it as a parameter)"
			} else if ok {
				given = v.Name + ", a loop variable used after its loop"
			}
			Raise(&ir.TypeError{Op: op, Arg: arg, Expected: "only variables of function " + b.Fn.Name + " (its parameters, bindings and loop variables)", Given: given})
		})
	}
}
