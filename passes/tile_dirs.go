package passes

import "github.com/ptorepl/ptorepl/ir"

// propagateDirections carries the directions ConvertTensorToTileOps gave
// kernel parameters up the call chain, as upstream's pass ends: a
// parameter of an orchestrating function passed where the callee writes
// becomes Out (from In) or InOut. A chain of callers settles in a few
// rounds; only directions change.
func propagateDirections(p *ir.Program) *ir.Program {
	byName := map[string]*ir.Function{}
	for _, fn := range p.Functions {
		byName[fn.Name] = fn
	}
	for changed := true; changed; {
		changed = false
		for i, fn := range p.Functions {
			if fn.Kind == ir.InCore {
				continue
			}
			idx := map[*ir.Var]int{}
			for k, prm := range fn.Params {
				idx[prm] = k
			}
			dirs := make([]ir.ParamDirection, len(fn.Params))
			for k := range dirs {
				dirs[k] = fn.Direction(k)
			}
			grew := false
			ir.WalkStmt(fn.Body, func(e ir.Expr) {
				c, ok := e.(*ir.Call)
				if !ok || c.Fn == nil || byName[c.Fn.Name] == nil {
					return
				}
				callee := byName[c.Fn.Name]
				for a, arg := range c.Args {
					v, ok := arg.(*ir.Var)
					if !ok || a >= len(callee.Params) {
						continue
					}
					k, ok := idx[v]
					if !ok {
						continue
					}
					switch d := callee.Direction(a); {
					case d == ir.Out && dirs[k] == ir.In:
						dirs[k], grew = ir.Out, true
					case d == ir.InOut && dirs[k] != ir.InOut:
						dirs[k], grew = ir.InOut, true
					}
				}
			}, nil)
			if !grew {
				continue
			}
			g := fn.Clone()
			g.Dirs = dirs
			p.Functions[i] = g
			byName[g.Name] = g
			changed = true
		}
	}
	return p
}
