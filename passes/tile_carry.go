package passes

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Loop-carried tiles. A kernel written at tensor level accumulates in a
// loop: acc = pl.create_tensor(...) before it, then acc = pl.matmul(...)
// on the first step and pl.matmul_acc(acc, ...) on the others (upstream's
// split-K idiom). Upstream's conversion makes the create a tile.create and
// lets the loop's iter-arg, its return variable and the if's phi take the
// tile type of their init. ptorepl does the same for a created tensor
// whose loop yields a value the conversion makes a tile: the create
// becomes a tile.create in the memory those tiles live in (Acc for the
// cube's results, else Vec), and the iter-args it seeds, the loop's return
// variables and the phis on the way become tiles.

// phiDef is the for or if statement that binds a return variable, and
// which of its variables it is.
type phiDef struct {
	s ir.Stmt
	i int
}

// findCarried marks, before conversion, the tensor.create results a loop
// carries as tiles (t.carried, with their memory) and the iter-args they
// seed, through nested loops (t.seeds).
func (t *tileConv) findCarried() {
	t.carried = map[*ir.Var]ir.MemorySpace{}
	t.seeds = map[*ir.Var][]*ir.IterArg{}
	t.phis = map[*ir.Var]phiDef{}
	var loops []ir.Stmt
	ir.WalkStmt(t.fn.Body, nil, func(s ir.Stmt) {
		switch x := s.(type) {
		case *ir.ForStmt, *ir.WhileStmt:
			loops = append(loops, x)
			_, rvs := ir.LoopCarried(x)
			for i, rv := range rvs {
				t.phis[rv] = phiDef{x, i}
			}
		case *ir.IfStmt:
			for i, rv := range x.ReturnVars {
				t.phis[rv] = phiDef{x, i}
			}
		}
	})
	// Outer loops come first (pre-order), so an inner loop seeded by an
	// outer carried iter-arg is seen after it.
	carriedIA := map[*ir.Var]bool{}
	t.carriedIA = carriedIA
	for _, f := range loops {
		y := lastYield(ir.LoopBody(f))
		ias, _ := ir.LoopCarried(f)
		for i, ia := range ias {
			v, ok := ir.VarOf(ia.Init)
			if !ok || y == nil || i >= len(y.Values) {
				continue
			}
			mem, ok := t.yieldsTile(y.Values[i], map[*ir.Var]bool{&ia.Var: true})
			if !ok {
				continue
			}
			// The init is an outer carried iter-arg, a created tensor the
			// loop's tiles fill, or a value the conversion makes a tile
			// itself (pl.full, an earlier op), whose type the iter-arg takes.
			switch d := t.defOf(v); {
			case carriedIA[v]:
			case d != nil && d.Op == ir.TensorCreate:
				t.carried[v] = mem
			default:
				if _, tile := t.yieldsTile(ia.Init, map[*ir.Var]bool{}); !tile {
					continue
				}
			}
			carriedIA[&ia.Var] = true
			t.seeds[v] = append(t.seeds[v], ia)
		}
	}
	t.findAssembledCreates(loops)
}

// findAssembledCreates marks the created tensors an assemble writes into
// (local = pl.create_tensor(...); local = pl.assemble(local, x, offs)) as
// Vec tiles: upstream's conversion makes every tensor.create in a kernel a
// tile.create, and an assemble into a tile a tile.assemble. A created
// tensor that seeds a loop is left to the loop rule above.
func (t *tileConv) findAssembledCreates(loops []ir.Stmt) {
	seeds := map[*ir.Var]bool{}
	for _, f := range loops {
		ias, _ := ir.LoopCarried(f)
		for _, ia := range ias {
			if v, ok := ir.VarOf(ia.Init); ok {
				seeds[v] = true
			}
		}
	}
	ir.WalkStmt(t.fn.Body, nil, func(s ir.Stmt) {
		c := ir.StmtCall(s)
		if c == nil || len(c.Args) == 0 {
			return
		}
		// An assemble into a created tensor makes it a tile; so does a
		// scalar read or write (an op that may stay GM), as long as every
		// use of it takes a tile.
		rule := transferRules[c.Op]
		if !rule.local {
			return
		}
		v, ok := ir.VarOf(c.Args[0])
		if !ok || seeds[v] {
			return
		}
		if _, done := t.carried[v]; done {
			return
		}
		if d := t.defOf(v); d != nil && d.Op == ir.TensorCreate && (!rule.onChipOnly || t.usesTakeTile(v)) {
			t.carried[v] = ir.MemVec
		}
	})
}

// usesTakeTile reports whether every statement using v can take it as a
// tile: an op reading or writing it in place (a rule's local: assemble,
// scalar read and write), an op the pass lowers with v among its tile
// operands, a yield or a return.
func (t *tileConv) usesTakeTile(v *ir.Var) bool {
	ok := true
	ir.WalkStmt(t.fn.Body, nil, func(s ir.Stmt) {
		if !ok || !stmtUses(s, v) {
			return
		}
		switch s.(type) {
		case *ir.YieldStmt, *ir.ReturnStmt:
			return
		case *ir.ForStmt, *ir.WhileStmt, *ir.IfStmt, *ir.SeqStmts, *ir.ScopeStmt:
			return // their own statements are visited
		}
		if c := ir.StmtCall(s); c != nil && transferRules[c.Op].local {
			return
		}
		if args, _ := tileOperands(s); exprsUse(args, v) {
			return
		}
		ok = false
	})
	return ok
}

// phiTile reports whether v, a for's or if's return variable, becomes a
// tile: a carried loop's, or an if's with a branch yielding a tile.
func (t *tileConv) phiTile(v *ir.Var) bool {
	p, ok := t.phis[v]
	if !ok {
		return false
	}
	if ias, _ := ir.LoopCarried(p.s); ir.LoopBody(p.s) != nil {
		return p.i < len(ias) && t.carriedIA[&ias[p.i].Var]
	}
	_, tile := t.yieldsTile(v, map[*ir.Var]bool{})
	return tile
}

// yieldsTile reports whether e, a loop's yielded value, is one the
// conversion makes a tile (through ifs and nested loops), and in which
// memory; seen are the iter-args already on the path (neutral).
func (t *tileConv) yieldsTile(e ir.Expr, seen map[*ir.Var]bool) (ir.MemorySpace, bool) {
	v, ok := ir.VarOf(e)
	if !ok || seen[v] {
		return ir.MemNone, false
	}
	seen[v] = true
	if p, ok := t.phis[v]; ok {
		var branches []ir.Stmt
		switch x := p.s.(type) {
		case *ir.IfStmt:
			branches = []ir.Stmt{x.Then, x.Else}
		case *ir.ForStmt, *ir.WhileStmt:
			branches = []ir.Stmt{ir.LoopBody(x)}
			if ias, _ := ir.LoopCarried(x); p.i < len(ias) {
				seen[&ias[p.i].Var] = true
			}
		}
		for _, b := range branches {
			if y := lastYield(b); y != nil && p.i < len(y.Values) {
				if mem, ok := t.yieldsTile(y.Values[p.i], seen); ok {
					return mem, true
				}
			}
		}
		return ir.MemNone, false
	}
	d := t.defOf(v)
	if d == nil || d.Op == nil {
		return ir.MemNone, false
	}
	return resultTile(d.Op)
}

// lastYield is the yield ending block s, or nil.
func lastYield(s ir.Stmt) *ir.YieldStmt {
	if s == nil {
		return nil
	}
	stmts := ir.Flatten(s)
	if len(stmts) == 0 {
		return nil
	}
	y, _ := stmts[len(stmts)-1].(*ir.YieldStmt)
	return y
}

// createTile lowers a carried v = tensor.create(shape, dtype=) to a
// tile.create in memory mem.
func (t *tileConv) createTile(a *ir.AssignStmt, c *ir.Call, mem ir.MemorySpace) ([]ir.Stmt, error) {
	dt, _ := c.Kwargs.DType("dtype")
	var call *ir.Call
	var err error
	if init, ok := c.Kwargs.Get("init_value"); ok {
		// A created tensor with a value is a filled tile: tile.full, which
		// writes Vec; an accumulator in another memory cannot start so.
		if mem != ir.MemVec {
			return nil, fmt.Errorf("%s is created with init_value and carried through a loop in %s memory, where no op fills a tile; create it without a value (the first step's result seeds it)", a.Var.Name, mem)
		}
		v, err := fillValue(init, c.Pos)
		if err != nil {
			return nil, err
		}
		call, err = ir.TileFull.NewCall([]ir.Expr{c.Args[0], v}, ir.Kwargs{{Key: "dtype", Value: dt}}, c.Pos)
		if err != nil {
			return nil, err
		}
	} else if call, err = ir.TileCreate.NewCall(c.Args[:1], ir.Kwargs{{Key: "dtype", Value: dt}, {Key: "target_memory", Value: mem}}, c.Pos); err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, nil), nil
}

// fillValue is a tensor.create's init_value as a scalar expression.
func fillValue(v any, pos ir.Span) (ir.Expr, error) {
	switch x := v.(type) {
	case ir.Expr:
		return x, nil
	case float64:
		return &ir.ConstFloat{Value: x, DType: ir.FP32, Pos: pos}, nil
	case int64:
		return &ir.ConstInt{Value: x, DType: ir.INDEX, Pos: pos}, nil
	}
	return nil, fmt.Errorf("init_value %v is not a number", v)
}

// seedFrom gives the iter-args v seeds (and those they seed) their tile
// versions, v having become tile: before the loops' bodies are converted.
func (t *tileConv) seedFrom(v *ir.Var, tile ir.Expr) {
	for _, ia := range t.seeds[v] {
		nia := ir.NewIterArg(ia.Name, tile.Type(), tile, ia.Pos)
		t.tiles[&ia.Var], t.converted[&ia.Var] = nia, true
		t.seedFrom(&ia.Var, nia)
	}
}

// carriedLoop gives a converted for or while loop its tile iter-args,
// yields the tiles its body made, and makes its return variables tiles.
func (t *tileConv) carriedLoop(f ir.Stmt) ([]ir.Stmt, error) {
	ias, rvs := ir.LoopCarried(f)
	var tiled []int
	for i, ia := range ias {
		if t.converted[&ia.Var] {
			tiled = append(tiled, i)
		}
	}
	if len(tiled) == 0 {
		return t.fixUses(f)
	}
	newIAs := append([]*ir.IterArg(nil), ias...)
	newRVs := append([]*ir.Var(nil), rvs...)
	for _, i := range tiled {
		newIAs[i] = t.tiles[&ias[i].Var].(*ir.IterArg)
	}
	body, err := t.yieldTiles(ir.LoopBody(f), tiled, func(i int) ir.Type { return newIAs[i].Type() }, "loop")
	if err != nil {
		return nil, err
	}
	for _, i := range tiled {
		if i < len(rvs) {
			newRVs[i] = t.retile(rvs[i], newIAs[i].Type())
		}
	}
	switch x := f.(type) {
	case *ir.ForStmt:
		c := *x
		c.IterArgs, c.Body, c.ReturnVars = newIAs, body, newRVs
		return []ir.Stmt{&c}, nil
	case *ir.WhileStmt:
		c := *x
		c.IterArgs, c.Body, c.ReturnVars = newIAs, body, newRVs
		return []ir.Stmt{&c}, nil
	}
	return nil, fmt.Errorf("carriedLoop: %T is not a loop", f)
}

// carriedIf makes a converted if's return variables tiles where a branch
// yields a tile.
func (t *tileConv) carriedIf(x *ir.IfStmt) ([]ir.Stmt, error) {
	var tiled []int
	types := map[int]ir.Type{}
	for i := range x.ReturnVars {
		for _, b := range []ir.Stmt{x.Then, x.Else} {
			if y := lastYield(b); y != nil && i < len(y.Values) {
				if tile := t.yieldTile(y, i); tile != nil {
					if _, ok := types[i]; !ok {
						tiled = append(tiled, i)
						types[i] = tile.Type()
					}
				}
			}
		}
	}
	if len(tiled) == 0 {
		return t.fixUses(x)
	}
	c := *x
	c.ReturnVars = append([]*ir.Var(nil), x.ReturnVars...)
	typeOf := func(i int) ir.Type { return types[i] }
	var err error
	if c.Then, err = t.yieldTiles(x.Then, tiled, typeOf, "if"); err != nil {
		return nil, err
	}
	if c.Else, err = t.yieldTiles(x.Else, tiled, typeOf, "if"); err != nil {
		return nil, err
	}
	for _, i := range tiled {
		c.ReturnVars[i] = t.retile(x.ReturnVars[i], types[i])
	}
	return []ir.Stmt{&c}, nil
}

// yieldTiles rewrites the yield ending block s: the values at tiled
// become their tiles, which must be of the carried type.
func (t *tileConv) yieldTiles(s ir.Stmt, tiled []int, want func(int) ir.Type, what string) (ir.Stmt, error) {
	if s == nil {
		return nil, nil
	}
	stmts := ir.Flatten(s)
	y := lastYield(s)
	if y == nil {
		return s, nil
	}
	vals := append([]ir.Expr(nil), y.Values...)
	for _, i := range tiled {
		if i >= len(vals) {
			continue
		}
		tile := t.yieldTile(y, i)
		if tile == nil {
			return nil, fmt.Errorf("%s carries %s as an on-chip tile, but one of its paths yields %s, a tensor in GM; compute it on chip on every path (pl.matmul, pl.matmul_acc)",
				what, ir.DefaultFormat.Type(want(i)), ir.DefaultFormat.Expr(vals[i]))
		}
		if ir.DefaultFormat.Type(tile.Type()) != ir.DefaultFormat.Type(want(i)) {
			return nil, fmt.Errorf("%s carries an on-chip tile %s, but one of its paths yields %s", what, ir.DefaultFormat.Type(want(i)), ir.DefaultFormat.Type(tile.Type()))
		}
		vals[i] = tile
	}
	out := append([]ir.Stmt(nil), stmts[:len(stmts)-1]...)
	out = append(out, &ir.YieldStmt{StmtBase: y.StmtBase, Values: vals})
	return &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: s.Span()}, Stmts: out}, nil
}

// retile is return variable v as a tile of type tt, recorded as v's tile.
func (t *tileConv) retile(v *ir.Var, tt ir.Type) *ir.Var {
	nv := ir.NewVar(v.Name, tt, v.Pos)
	t.setTile(v, nv)
	return nv
}

// setTile records that v, a tensor-valued variable, is tile now: its
// uses read tile, and the iter-args it seeds become tiles.
func (t *tileConv) setTile(v *ir.Var, tile ir.Expr) {
	t.tiles[v], t.converted[v] = tile, true
	t.seedFrom(v, tile)
}
