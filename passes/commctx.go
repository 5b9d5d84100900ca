package passes

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// MaterializeDistTensorCtx gives every non-host function one CommCtxType
// parameter (direction In) per DistributedTensor parameter, appended in
// order and named <param>_ctx (passes.md §9). Inside such a function
// pld.system.get_comm_ctx(x) of a DistributedTensor that came from parameter
// p becomes p's ctx parameter. Every call site passes the matching contexts
// after its arguments: a host binds <arg>_ctx = pld.system.get_comm_ctx(arg)
// first; a device function passes its own ctx parameter.
func MaterializeDistTensorCtx(p *ir.Program) (*ir.Program, error) {
	// Callee signatures first, so call sites know what to append.
	dtParams := map[string][]int{}
	for _, fn := range p.Functions {
		if fn.IsHostOrchestrator() || hasCtxParams(fn) {
			continue
		}
		for i, v := range fn.Params {
			if _, ok := v.Type().(*ir.DistributedTensorType); ok {
				dtParams[fn.Name] = append(dtParams[fn.Name], i)
			}
		}
	}
	if len(dtParams) == 0 {
		return p, nil
	}
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		return materializeCtx(fn, dtParams)
	})
}

func hasCtxParams(fn *ir.Function) bool {
	for _, v := range fn.Params {
		if _, ok := v.Type().(*ir.CommCtxType); ok {
			return true
		}
	}
	return false
}

func materializeCtx(fn *ir.Function, dtParams map[string][]int) (*ir.Function, error) {
	names := newNamer(fn)
	g := fn.Clone()
	// ctxOf maps a DistributedTensor variable to its context parameter.
	ctxOf := map[*ir.Var]*ir.Var{}
	if idx := dtParams[fn.Name]; len(idx) > 0 {
		for _, i := range idx {
			pv := fn.Params[i]
			cv := ir.NewVar(names.fresh(pv.Name+"_ctx"), ir.CommCtxT, pv.Pos)
			g.Params = append(g.Params, cv)
			for len(g.Dirs) < len(g.Params)-1 {
				g.Dirs = append(g.Dirs, ir.In)
			}
			g.Dirs = append(g.Dirs, ir.In)
			ctxOf[pv] = cv
		}
		// Values derived from a DistributedTensor parameter (a store's
		// rebinding, an iter-arg, a loop result) keep its context.
		propagateCtx(fn, ctxOf)
	}
	host := fn.IsHostOrchestrator()
	var failure error
	body, err := mapBlock(fn.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
		// get_comm_ctx(x) inside a device function is x's ctx parameter.
		if a, ok := s.(*ir.AssignStmt); ok && !host {
			if c, ok := a.Value.(*ir.Call); ok && c.Op == ir.PldSystemGetCommCtx {
				if v, ok := c.ArgVar("dist_tensor"); ok && ctxOf[v] != nil {
					return []ir.Stmt{assign(a.Var, ctxOf[v])}, nil
				}
			}
		}
		call := ir.StmtCall(s)
		if r, ok := s.(*ir.ReturnStmt); ok && len(r.Values) == 1 {
			call, _ = r.Values[0].(*ir.Call)
		}
		if call == nil || call.Fn == nil || len(dtParams[call.Fn.Name]) == 0 {
			return []ir.Stmt{s}, nil
		}
		var pre []ir.Stmt
		nc := *call
		nc.Args = append([]ir.Expr(nil), call.Args...)
		for _, i := range dtParams[call.Fn.Name] {
			if i >= len(call.Args) {
				failure = fmt.Errorf("call of %s at %s has %d arguments", call.Fn.Name, call.Pos, len(call.Args))
				return []ir.Stmt{s}, nil
			}
			arg := call.Args[i]
			if v, ok := ir.VarOf(arg); ok && ctxOf[v] != nil {
				nc.Args = append(nc.Args, ctxOf[v])
				continue
			}
			base := "arg"
			if v, ok := ir.VarOf(arg); ok {
				base = v.Name
			}
			get := ir.PldSystemGetCommCtx.MustCall([]ir.Expr{arg}, nil, call.Pos)
			cv := ir.NewVar(names.fresh(base+"_ctx"), get.Type(), call.Pos)
			pre = append(pre, assign(cv, get))
			nc.Args = append(nc.Args, cv)
		}
		if dirs, ok := call.Attrs.Get("arg_directions"); ok {
			if ds, ok := dirs.([]ir.ArgDirection); ok {
				ds = append([]ir.ArgDirection(nil), ds...)
				for range dtParams[call.Fn.Name] {
					ds = append(ds, ir.ArgScalar)
				}
				nc.Attrs = call.Attrs.With("arg_directions", ds)
			}
		}
		return append(pre, replaceCall(s, call, &nc)), nil
	})
	if err != nil {
		return nil, err
	}
	if failure != nil {
		return nil, failure
	}
	g.Body = body
	return g, nil
}

// propagateCtx extends ctxOf along aliases of DistributedTensor values:
// plain rebinding, results that reuse an argument's storage (tile.store into
// a window, collectives), iter-args and the loop/if results they yield into.
func propagateCtx(fn *ir.Function, ctxOf map[*ir.Var]*ir.Var) {
	for round := 0; round < 8; round++ {
		grew := false
		link := func(dst *ir.Var, src ir.Expr) {
			if _, ok := dst.Type().(*ir.DistributedTensorType); !ok || ctxOf[dst] != nil {
				return
			}
			if v, ok := ir.VarOf(src); ok && ctxOf[v] != nil {
				ctxOf[dst] = ctxOf[v]
				grew = true
			}
		}
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			switch x := s.(type) {
			case *ir.AssignStmt:
				if c, ok := x.Value.(*ir.Call); ok {
					if i := aliasArg(c); i >= 0 && i < len(c.Args) {
						link(x.Var, c.Args[i])
					}
				} else {
					link(x.Var, x.Value)
				}
			case *ir.ForStmt, *ir.WhileStmt:
				ias, rvs := ir.LoopCarried(x)
				for i, ia := range ias {
					link(&ia.Var, ia.Init)
					if i < len(rvs) {
						link(rvs[i], &ia.Var)
					}
				}
			}
		})
		if !grew {
			return
		}
	}
}
