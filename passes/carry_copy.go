package passes

import "github.com/ptorepl/ptorepl/ir"

// keepCarried copies a loop-carried tile that the loop body still reads
// after defining the value it carries into the next iteration:
//
//	for i, (a, b) in pl.range(n, init_values=(a0, b0)):
//	    a1 = pl.tile.add(a, b)   # a1's buffer holds a from the 2nd iteration on
//	    b1 = pl.tile.sub(b, a)   # so this read needs a copy of a made before
//
// From the second iteration a is the previous a1, in a1's buffer, so
// writing a1 overwrites the a that b1 still reads. Upstream's MemoryReuse
// resolves such hazards with moves; ptorepl has no MemoryReuse, so the
// copy, `a__carried = pl.tile.move(a, target_memory=...)`, is made here,
// before InitMemRef gives out buffers, and the later reads take it. Not
// handled (the simulator reports the overwrite as a tile-overlap): a value
// an inner if yields, and a carried tile yielded on into another carry (a
// swap), whose copy would be overwritten the same way.
func keepCarried(fn *ir.Function) (*ir.Function, error) {
	names := newNamer(fn)
	body, err := mapBlock(fn.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
		ias, _ := ir.LoopCarried(s)
		if len(ias) == 0 {
			return []ir.Stmt{s}, nil
		}
		loopBody := ir.LoopBody(s)
		stmts := ir.Flatten(loopBody)
		y, ok := ir.LastYield(loopBody)
		if !ok {
			return []ir.Stmt{s}, nil
		}
		defAt := map[*ir.Var]int{}
		for i, st := range stmts {
			if a, ok := st.(*ir.AssignStmt); ok {
				defAt[a.Var] = i
			}
		}
		out := stmts
		changed := false
		for k, ia := range ias {
			tt, isTile := ia.Type().(*ir.TileType)
			if !isTile || k >= len(y.Values) {
				continue
			}
			yv, ok := ir.VarOf(y.Values[k])
			at, defined := defAt[yv]
			if !ok || !defined || !readsAfter(out[at+1:len(out)-1], &ia.Var) {
				continue
			}
			move, err := ir.TileMove.NewCall([]ir.Expr{ia}, ir.Kwargs{{Key: "target_memory", Value: tt.Memory}}, ia.Pos)
			if err != nil {
				return nil, err
			}
			keep := ir.NewVar(names.fresh(ia.Name+"__carried"), move.Type(), ia.Pos)
			m := map[*ir.Var]ir.Expr{&ia.Var: keep}
			next := append(append([]ir.Stmt(nil), out[:at]...), assign(keep, move))
			next = append(next, out[at])
			for _, st := range out[at+1:] {
				next = append(next, remapStmt(st, m))
			}
			// Statements shifted by one: the definitions after the copy
			// move with them.
			for v, i := range defAt {
				if i >= at {
					defAt[v] = i + 1
				}
			}
			out, changed = next, true
		}
		if !changed {
			return []ir.Stmt{s}, nil
		}
		nb := &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: loopBody.Span()}, Stmts: out}
		switch x := s.(type) {
		case *ir.ForStmt:
			c := *x
			c.Body = nb
			return []ir.Stmt{&c}, nil
		case *ir.WhileStmt:
			c := *x
			c.Body = nb
			return []ir.Stmt{&c}, nil
		}
		return []ir.Stmt{s}, nil
	})
	if err != nil || body == fn.Body {
		return fn, err
	}
	return withBody(fn, body), nil
}

// readsAfter reports whether any of stmts reads v.
func readsAfter(stmts []ir.Stmt, v *ir.Var) bool {
	found := false
	for _, s := range stmts {
		ir.WalkStmt(s, func(e ir.Expr) {
			if u, ok := ir.VarOf(e); ok && u == v {
				found = true
			}
		}, nil)
	}
	return found
}
