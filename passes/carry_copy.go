package passes

import (
	"slices"

	"github.com/ptorepl/ptorepl/ir"
)

// keepCarried gives a loop-carried tile a buffer of its own where the
// buffer it would be carried in is overwritten while it is still to be
// read:
//
//	for i, (a, b) in pl.range(n, init_values=(a0, b0)):
//	    a1 = pl.tile.add(a, b)   # from the 2nd iteration a is the last a1, in a1's buffer
//	    b1 = pl.tile.sub(b, a)   # so a1 has overwritten the a read here
//	    a_out, b_out = pl.yield_(a1, b1)
//
// A carried tile is at risk when the body reads its iter-arg after the
// statement that defines the value carried on (the yield counts: a swap,
// `pl.yield_(p1, p)`, reads p at the end), or when the value carried on is
// another iter-arg. Each such slot gets, at the end of the body, a copy
// of its value (`a__carried = pl.tile.move(a1, target_memory=...)`, in a
// buffer of its own that only that copy writes) and yields the copy; a
// slot carrying an iter-arg on copies it first into a temporary
// (`a__carried_tmp`), so that no copy overwrites an iter-arg another one
// still reads. A value an if defines is carried in the buffer of the
// branch that yielded it, so each branch is looked at the same way: the
// iter-arg read in that branch after its yielded value is written (or the
// branch yielding another iter-arg) puts the slot at risk. Upstream's
// MemoryReuse resolves such hazards with moves; ptorepl has no
// MemoryReuse, so InitMemRef does it before giving out buffers. A value
// an inner loop defines is the one its body yields last, written on every
// iteration of that body: a read of the iter-arg anywhere in it puts the
// slot at risk. The simulator reports any overwrite these miss as a
// tile-overlap.
func keepCarried(fn *ir.Function) (*ir.Function, error) {
	names := newNamer(fn)
	body, err := mapBlock(fn.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
		ias, _ := ir.LoopCarried(s)
		if len(ias) == 0 {
			return []ir.Stmt{s}, nil
		}
		stmts := ir.Flatten(ir.LoopBody(s))
		y, ok := ir.LastYield(ir.LoopBody(s))
		if !ok {
			return []ir.Stmt{s}, nil
		}
		iterArg := map[*ir.Var]bool{}
		for _, ia := range ias {
			iterArg[&ia.Var] = true
		}
		var risky []int
		for k, ia := range ias {
			if _, tile := ia.Type().(*ir.TileType); !tile || k >= len(y.Values) {
				continue
			}
			if carriedAtRisk(stmts, y.Values[k], &ia.Var, iterArg) {
				risky = append(risky, k)
			}
		}
		if len(risky) == 0 {
			return []ir.Stmt{s}, nil
		}
		out := append([]ir.Stmt(nil), stmts[:len(stmts)-1]...)
		vals := append([]ir.Expr(nil), y.Values...)
		move := func(name string, x ir.Expr, ref ir.Expr) (ir.Expr, error) {
			mem := ref.Type().(*ir.TileType).Memory
			c, err := ir.TileMove.NewCall([]ir.Expr{x}, ir.Kwargs{{Key: "target_memory", Value: mem}}, y.Pos)
			if err != nil {
				return nil, err
			}
			v := ir.NewVar(names.fresh(name), c.Type(), y.Pos)
			out = append(out, assign(v, c))
			return v, nil
		}
		// Iter-args carried on are copied before any copy overwrites one.
		for _, k := range risky {
			if v, _ := ir.VarOf(vals[k]); iterArg[v] {
				t, err := move(ias[k].Name+"__carried_tmp", vals[k], ias[k])
				if err != nil {
					return nil, err
				}
				vals[k] = t
			}
		}
		for _, k := range risky {
			c, err := move(ias[k].Name+"__carried", vals[k], ias[k])
			if err != nil {
				return nil, err
			}
			vals[k] = c
		}
		out = append(out, &ir.YieldStmt{StmtBase: y.StmtBase, Values: vals})
		nb := &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: ir.LoopBody(s).Span()}, Stmts: out}
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

// carriedAtRisk reports whether the value yielded, which block stmts
// defines (or passes on), is written where the iter-arg ia lives on the
// next iteration while the block still reads ia afterwards: ia is read
// after the statement defining the value, or the value is another
// iter-arg, or the value is an if's result and one of its branches is at
// risk for the value it yields, or the value is an inner loop's result and
// that loop's body reads ia at all (or is at risk itself).
func carriedAtRisk(stmts []ir.Stmt, yielded ir.Expr, ia *ir.Var, iterArg map[*ir.Var]bool) bool {
	v, ok := ir.VarOf(yielded)
	if !ok || v == ia {
		return false
	}
	if iterArg[v] {
		return true
	}
	for at, st := range stmts {
		k := slices.Index(stmtDefs(st), v)
		if k < 0 {
			continue
		}
		if readsAfter(stmts[at+1:], ia) {
			return true
		}
		switch x := st.(type) {
		case *ir.IfStmt: // its k-th result is v
			for _, arm := range []ir.Stmt{x.Then, x.Else} {
				if y, ok := ir.LastYield(arm); ok && k < len(y.Values) && carriedAtRisk(ir.Flatten(arm), y.Values[k], ia, iterArg) {
					return true
				}
			}
		case *ir.ForStmt, *ir.WhileStmt:
			// v is the loop's result: the value its body yields last, in
			// the buffer of the statement that wrote it, which runs again
			// on every iteration; so any read of ia in the body, before
			// or after that statement, may read the overwritten bytes.
			inner, rvs := ir.LoopCarried(x)
			j := slices.Index(rvs, v)
			y, ok := ir.LastYield(ir.LoopBody(x))
			if j < 0 || !ok || j >= len(y.Values) {
				return false
			}
			u, _ := ir.VarOf(y.Values[j])
			if u == nil {
				return false
			}
			if j < len(inner) && u == &inner[j].Var {
				// Carried through unchanged: the init, in its own buffer.
				return carriedAtRisk(stmts, inner[j].Init, ia, iterArg)
			}
			body := ir.Flatten(ir.LoopBody(x))
			return readsAfter(body, ia) || carriedAtRisk(body, u, ia, iterArg)
		}
		return false
	}
	return false
}

// readsAfter reports whether any of stmts, or a statement inside one,
// reads v.
func readsAfter(stmts []ir.Stmt, v *ir.Var) bool {
	found := false
	for _, s := range stmts {
		ir.WalkStmt(s, nil, func(st ir.Stmt) { found = found || stmtUses(st, v) })
	}
	return found
}
