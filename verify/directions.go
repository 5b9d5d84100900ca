package verify

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// ParamDirectionsRule names the check of ParamDirectionsSound (upstream
// #2457's IRProperty::ParamDirectionsSound).
const ParamDirectionsRule = "ParamDirectionsSound"

// ParamDirectionsSound reports every tensor parameter a function declares In
// that its own body writes, one warning per parameter (upstream #2457, after
// #2391 found pld.system.notify's write missing). A write read as an input
// drops the dependency edge its writer needs; the program then races or
// hangs instead of failing at compile time.
//
// Writes come from declarations only: an op's argument effects on its
// registry entry, and a called function's Out/InOut parameters. A written
// variable is traced to the buffer it owns through plain rebinding, an op's
// result alias (a store's output tensor, a view's input), loop-carried values
// and if results; a variable that control flow leaves with more than one
// possible owner is skipped, never blamed. Orchestration functions are
// skipped: their directions are the host ABI the user declares.
//
// Upstream runs it on the finished program (the pipeline itself upgrades the
// directions of InCore parameters it sees written); run on a program as
// written it shows the declarations the pipeline will correct.
func ParamDirectionsSound(p *ir.Program) []Diagnostic {
	var out []Diagnostic
	if p == nil {
		return nil
	}
	byName := map[string]*ir.Function{}
	for _, f := range p.Functions {
		byName[f.Name] = f
	}
	for _, f := range p.Functions {
		if f == nil || f.Body == nil || f.Kind == ir.Orchestration {
			continue
		}
		out = append(out, paramDirections(f, byName)...)
	}
	return out
}

func paramDirections(f *ir.Function, byName map[string]*ir.Function) (diags []Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			diags = append(diags, Diagnostic{Rule: "Verifier", Function: f.Name, Message: fmt.Sprintf("malformed IR: %v", r), Pos: f.Pos, Warning: true})
		}
	}()
	in := map[*ir.Var]bool{}
	for i, v := range f.Params {
		if _, ok := ir.AsTensorLike(v.Type()); ok && f.Direction(i) == ir.In {
			in[v] = true
		}
	}
	if len(in) == 0 {
		return nil
	}
	roots := bufferRoots(f)
	reported := map[*ir.Var]bool{}
	report := func(arg ir.Expr, writer string, pos ir.Span) {
		v, ok := ir.VarOf(arg)
		if !ok {
			return
		}
		root := v
		if rs := roots[v]; len(rs) > 1 {
			return // control flow leaves the owner ambiguous
		} else if len(rs) == 1 {
			for r := range rs {
				root = r
			}
		}
		if !in[root] || reported[root] {
			return
		}
		reported[root] = true
		if !pos.Known() {
			pos = f.Pos
		}
		diags = append(diags, Diagnostic{Rule: ParamDirectionsRule, Function: f.Name, Pos: pos, Warning: true,
			Message: fmt.Sprintf("parameter '%s' of function '%s' is declared In but is written by '%s'. "+
				"A written parameter read as an input drops the dependency edge its writer needs, "+
				"so the program races or deadlocks on device instead of failing here. "+
				"If the operator really does write it, declare that write as the argument's effect on "+
				"its registry entry so direction inference can see it; if the parameter really is an "+
				"output, declare it pl.Out or pl.InOut", root.Name, f.Name, writer)})
	}
	ir.Preorder(f.Body, []ir.Node{(*ir.Call)(nil)}, func(n ir.Node) {
		c := n.(*ir.Call)
		if c.Op != nil {
			for i, eff := range ir.CallEffects(c) {
				if i < len(c.Args) && eff.Writes() {
					report(c.Args[i], c.Op.Name, c.Pos)
				}
			}
			return
		}
		// A call of another function writes the arguments in its Out and
		// InOut slots.
		if c.Fn == nil {
			return
		}
		callee := byName[c.Fn.Name]
		if callee == nil {
			return
		}
		for i, a := range c.Args {
			if i < len(callee.Params) && callee.Direction(i) != ir.In {
				report(a, c.Fn.Name, c.Pos)
			}
		}
	})
	return diags
}

// bufferRoots maps each variable of f that aliases other storage to the
// variables that may own it; a variable not in the map owns its storage.
func bufferRoots(f *ir.Function) map[*ir.Var]map[*ir.Var]bool {
	// edges: a variable to the variables it is bound from without a copy.
	edges := map[*ir.Var][]*ir.Var{}
	link := func(v *ir.Var, src ir.Expr) {
		if u, ok := ir.VarOf(src); ok && u != v {
			edges[v] = append(edges[v], u)
		}
	}
	yields := func(body ir.Stmt, targets ...[]*ir.Var) {
		stmts := ir.Flatten(body)
		if len(stmts) == 0 {
			return
		}
		y, ok := stmts[len(stmts)-1].(*ir.YieldStmt)
		if !ok {
			return
		}
		for i, val := range y.Values {
			for _, ts := range targets {
				if i < len(ts) {
					link(ts[i], val)
				}
			}
		}
	}
	ir.WalkStmt(f.Body, nil, func(s ir.Stmt) {
		switch s := s.(type) {
		case *ir.AssignStmt:
			switch val := s.Value.(type) {
			case *ir.Call:
				// A store's result is its output tensor, a view its input:
				// the op's registry entry names the aliased argument.
				if arg, ok := val.Aliased(); ok {
					link(s.Var, arg)
				}
			default:
				link(s.Var, val)
			}
		case *ir.ForStmt, *ir.WhileStmt:
			carried, rvs := ir.LoopCarried(s)
			ias := make([]*ir.Var, len(carried))
			for i, ia := range carried {
				ias[i] = &ia.Var
				link(ias[i], ia.Init)
				if i < len(rvs) {
					link(rvs[i], ia)
				}
			}
			yields(ir.LoopBody(s), ias, rvs)
		case *ir.IfStmt:
			yields(s.Then, s.ReturnVars)
			yields(s.Else, s.ReturnVars)
		}
	})
	// The owners are the ends of the edge chains; a loop-carried value's
	// cycle (iter_arg -> store -> iter_arg) leads out through its init.
	roots := map[*ir.Var]map[*ir.Var]bool{}
	for v := range edges {
		ends := map[*ir.Var]bool{}
		seen := map[*ir.Var]bool{}
		var walk func(x *ir.Var)
		walk = func(x *ir.Var) {
			if seen[x] {
				return
			}
			seen[x] = true
			if len(edges[x]) == 0 {
				ends[x] = true
				return
			}
			for _, u := range edges[x] {
				walk(u)
			}
		}
		walk(v)
		roots[v] = ends
	}
	return roots
}

// PostPipeline runs the checks that belong on a fully lowered program and
// report without rejecting it (upstream's PostPipeline diagnostics): today
// ParamDirectionsSound. Front-ends show these after the last pass.
func PostPipeline(p *ir.Program) []Diagnostic { return ParamDirectionsSound(p) }
