package passes

import (
	"github.com/ptorepl/ptorepl/ir"
)

// InsertCommFence adds the cache maintenance and fences InCore code needs
// around window traffic (passes.md §10). The rules are local:
//   - after a publishing write into a window (tile.store / tensor.write into
//     a DistributedTensor, pld.tile.get into one): system.cacheinvalid of the
//     whole target, then system.fence;
//   - after a remote write (pld.tile.remote_store, pld.tile.put): system.fence
//     (codegen invalidates the peer region itself);
//   - after a call of a program function (an opaque write):
//     system.cacheinvalid() then system.fence;
//   - after pld.system.wait: system.cacheinvalid(), so later reads see what
//     the notifier published.
//
// Markers already in place are not inserted twice, so the pass is idempotent.
// A simulator is sequentially consistent and cannot observe a missing marker;
// on hardware it is a silent race, which is why the pass exists.
func InsertCommFence(p *ir.Program) (*ir.Program, error) {
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		if fn.Kind != ir.InCore {
			return fn, nil
		}
		body, _ := fenceBlock(fn.Body)
		return withBody(fn, body), nil
	})
}

// fenceAfter returns the markers statement s needs after it, from the
// registry: which arguments a call writes (effects), whether it writes them
// on a peer (ArgSpec.Peer), whether they are signal cells (ArgSpec.Signal,
// ordered by the signal protocol: a notify needs nothing), and whether the
// op acquires what peers published (OpDef.Acquire).
func fenceAfter(s ir.Stmt) []ir.Expr {
	c := ir.StmtCall(s)
	if c == nil {
		return nil
	}
	pos := c.Pos
	fence := func() ir.Expr { return ir.SystemFence.MustCall(nil, nil, pos) }
	invalidAll := func() ir.Expr { return ir.SystemCacheinvalid.MustCall(nil, nil, pos) }
	if c.Fn != nil {
		return []ir.Expr{invalidAll(), fence()}
	}
	if c.Op.Acquire {
		return []ir.Expr{invalidAll()}
	}
	for i, eff := range ir.CallEffects(c) {
		spec := c.Op.ArgSpecAt(i)
		if !eff.Writes() || spec.Signal {
			continue
		}
		dt, ok := c.Args[i].Type().(*ir.DistributedTensorType)
		if !ok {
			continue // a plain tensor is not window memory
		}
		if spec.Peer {
			return []ir.Expr{fence()} // codegen invalidates the peer region itself
		}
		region := ir.SystemCacheinvalid.MustCall([]ir.Expr{c.Args[i], tuple(dt.Shape...), zerosLike(dt.Shape)}, nil, pos)
		return []ir.Expr{region, fence()}
	}
	return nil
}

// sameMarker reports whether s is already the marker e.
func sameMarker(s ir.Stmt, e ir.Expr) bool {
	ev, ok := s.(*ir.EvalStmt)
	if !ok {
		return false
	}
	a, ok1 := ev.Expr.(*ir.Call)
	b := e.(*ir.Call)
	return ok1 && a.Name() == b.Name() && len(a.Args) == len(b.Args)
}

func fenceBlock(s ir.Stmt) (ir.Stmt, bool) {
	if s == nil {
		return nil, false
	}
	stmts := ir.Flatten(s)
	var out []ir.Stmt
	changed := false
	for i := 0; i < len(stmts); i++ {
		st := stmts[i]
		switch x := st.(type) {
		case *ir.ForStmt:
			if b, ch := fenceBlock(x.Body); ch {
				c := *x
				c.Body = b
				st, changed = &c, true
			}
		case *ir.WhileStmt:
			if b, ch := fenceBlock(x.Body); ch {
				c := *x
				c.Body = b
				st, changed = &c, true
			}
		case *ir.IfStmt:
			t, ch1 := fenceBlock(x.Then)
			e, ch2 := fenceBlock(x.Else)
			if ch1 || ch2 {
				c := *x
				c.Then, c.Else = t, e
				st, changed = &c, true
			}
		}
		out = append(out, st)
		markers := fenceAfter(st)
		// Keep the markers that already follow (a second run of the pass)
		// and add only the missing ones.
		j := 0
		for j < len(markers) && i+1+j < len(stmts) && sameMarker(stmts[i+1+j], markers[j]) {
			out = append(out, stmts[i+1+j])
			j++
		}
		i += j
		for _, m := range markers[j:] {
			out = append(out, eval(m))
			changed = true
		}
	}
	if !changed {
		return s, false
	}
	return &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: s.Span()}, Stmts: out}, true
}
