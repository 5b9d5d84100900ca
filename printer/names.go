package printer

import (
	"sort"
	"strconv"

	"github.com/ptorepl/ptorepl/ir"
)

// defs lists the variables a statement defines, in order.
func defs(s ir.Stmt) []*ir.Var {
	switch s := s.(type) {
	case *ir.AssignStmt:
		return []*ir.Var{s.Var}
	case *ir.ForStmt:
		out := []*ir.Var{s.LoopVar}
		for _, ia := range s.IterArgs {
			out = append(out, &ia.Var)
		}
		return append(out, s.ReturnVars...)
	case *ir.WhileStmt:
		var out []*ir.Var
		for _, ia := range s.IterArgs {
			out = append(out, &ia.Var)
		}
		return append(out, s.ReturnVars...)
	case *ir.IfStmt:
		return s.ReturnVars
	case *ir.ScopeStmt:
		if s.TaskID != nil {
			return []*ir.Var{s.TaskID}
		}
	}
	return nil
}

// bodyDefined is the set of variables f's body defines.
func bodyDefined(f *ir.Function) map[*ir.Var]bool {
	out := map[*ir.Var]bool{}
	ir.WalkStmt(f.Body, nil, func(s ir.Stmt) {
		for _, v := range defs(s) {
			out[v] = true
		}
	})
	return out
}

// RenameOrder lists f's variables in the order the printer's renaming visits
// them: the parameters, every variable the body defines, then each variable
// the body uses that keep accepts (given the parameters and definitions so
// far). bound holds the parameters and definitions. A reader of printed text
// that must undo the renaming walks the same order.
func RenameOrder(f *ir.Function, keep func(v *ir.Var, bound map[*ir.Var]bool) bool) (order []*ir.Var, bound map[*ir.Var]bool) {
	seen := map[*ir.Var]bool{}
	bound = map[*ir.Var]bool{}
	add := func(v *ir.Var, def bool) {
		if def {
			bound[v] = true
		}
		if !seen[v] {
			seen[v] = true
			order = append(order, v)
		}
	}
	for _, v := range f.Params {
		add(v, true)
	}
	ir.WalkStmt(f.Body, nil, func(s ir.Stmt) {
		for _, v := range defs(s) {
			add(v, true)
		}
	})
	ir.WalkStmt(f.Body, func(e ir.Expr) {
		if _, isWB := e.(*ir.WindowBuffer); isWB {
			return
		}
		if v, ok := ir.VarOf(e); ok && keep(v, bound) {
			add(v, false)
		}
	}, nil)
	return order, bound
}

// renameMap gives every variable of f its printed name (printer.md §8): the
// distinct variables in order — parameters, body definitions, then uses — keep
// a name that occurs once; each colliding one takes the first free of x, x_1,
// x_2, .... A used variable that is neither a parameter nor defined in f (nor
// a dynamic dimension) is free and gets the suffix __FREE_VAR.
func renameMap(f *ir.Function, dynamic map[*ir.Var]bool) map[*ir.Var]string {
	order, bound := RenameOrder(f, func(v *ir.Var, _ map[*ir.Var]bool) bool { return !dynamic[v] })
	count := map[string]int{}
	for _, v := range order {
		count[v.Name]++
	}
	names := map[*ir.Var]string{}
	used := map[string]bool{}
	next := map[string]int{} // next suffix to try per name: n clashes cost O(n)
	for _, v := range order {
		if count[v.Name] == 1 {
			used[v.Name] = true
		}
	}
	for _, v := range order {
		if count[v.Name] == 1 {
			names[v] = v.Name
			continue
		}
		for i := next[v.Name]; ; i++ {
			cand := v.Name
			if i > 0 {
				cand = v.Name + "_" + strconv.Itoa(i)
			}
			if !used[cand] {
				used[cand] = true
				names[v] = cand
				next[v.Name] = i + 1
				break
			}
		}
	}
	for _, v := range order {
		if !bound[v] {
			names[v] += "__FREE_VAR"
		}
	}
	return names
}

// dynamicVars are the variables used as dimensions in any type of the
// program, sorted by name: each prints as `N = pl.dynamic("N")`.
func dynamicVars(prog *ir.Program) []*ir.Var {
	set := map[*ir.Var]bool{}
	var fromShape func(dims []ir.Expr)
	fromShape = func(dims []ir.Expr) {
		for _, d := range dims {
			ir.WalkExpr(d, func(e ir.Expr) {
				if v, ok := e.(*ir.Var); ok {
					set[v] = true
				}
			})
		}
	}
	var fromType func(t ir.Type)
	fromType = func(t ir.Type) {
		switch t := t.(type) {
		case *ir.TupleType:
			for _, x := range t.Types {
				fromType(x)
			}
		default:
			if dims, _, ok := ir.ShapeOf(t); ok {
				fromShape(dims)
			}
		}
		// A view's valid shape and strides may name dimensions no shape
		// does (a tensor valid to VALID_LEN columns).
		switch t := t.(type) {
		case *ir.TensorType:
			if t.View != nil {
				fromShape(t.View.ValidShape)
				fromShape(t.View.Stride)
			}
		case *ir.DistributedTensorType:
			if t.View != nil {
				fromShape(t.View.ValidShape)
				fromShape(t.View.Stride)
			}
		case *ir.TileType:
			if t.View != nil {
				fromShape(t.View.ValidShape)
				fromShape(t.View.Stride)
			}
		}
	}
	for _, f := range prog.Functions {
		for _, v := range f.Params {
			fromType(v.Type())
		}
		for _, t := range f.ReturnTypes {
			fromType(t)
		}
		ir.WalkStmt(f.Body, func(e ir.Expr) { fromType(e.Type()) }, func(s ir.Stmt) {
			for _, v := range defs(s) {
				fromType(v.Type())
			}
		})
	}
	// A dimension that the program binds itself (a loop variable, say) is not a declaration.
	for _, f := range prog.Functions {
		for _, v := range f.Params {
			delete(set, v)
		}
		for v := range bodyDefined(f) {
			delete(set, v)
		}
	}
	out := make([]*ir.Var, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].ID() < out[j].ID()
	})
	return out
}
