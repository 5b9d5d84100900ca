package passes

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// ConvertTensorToTileOps lowers tensor-level ops in InCore functions to their
// tile forms (passes.md §3):
//   - pld.tensor.put/get become a Vec staging tile (tile.create, named
//     tput_stage / tget_stage, or _ping/_pong with pipeline=True) and
//     pld.tile.put/get with the stage(s) after src; chunk kwargs are dropped,
//     put forwards atomic, get forwards nothing;
//   - pld.tensor.remote_store becomes pld.tile.remote_store, a GM source first
//     loaded into Vec as <name>_vec;
//   - tensor ops with a tile form in the registry (tensor.add, tensor.cast,
//     ...) become that tile op on Vec tiles;
//   - In parameters are upgraded to Out/InOut from the registry's argument
//     effects (ops.md §d), which is how allreduce's target and signal become
//     InOut before LowerCompositeOps ever sees them.
//
// An InCore function that returns a value its conversion made a tile gets
// one Out parameter per such value (ret<i>__out, of the declared return
// type), stores the tile into it and returns the store (ret<i>__store);
// each call of it passes a fresh pl.tensor.create for the new parameters,
// as upstream's pass does.
func ConvertTensorToTileOps(p *ir.Program) (*ir.Program, error) {
	added := map[string]int{}
	q, err := eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		if fn.Kind != ir.InCore {
			return fn, nil
		}
		g, n, err := convertTileOps(fn)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			added[fn.Name] = n
		}
		return upgradeDirections(g)
	})
	if err != nil {
		return nil, err
	}
	if len(added) > 0 {
		if q, err = eachFunction(q, func(fn *ir.Function) (*ir.Function, error) {
			if fn.Kind == ir.InCore {
				return fn, nil
			}
			return passNewOutputs(fn, q, added)
		}); err != nil {
			return nil, err
		}
	}
	return propagateDirections(q), nil
}

// passNewOutputs gives every call in fn of a function that gained n Out
// parameters n fresh tensors (ret<i>__out = pl.tensor.create(...)).
func passNewOutputs(fn *ir.Function, p *ir.Program, added map[string]int) (*ir.Function, error) {
	names := newNamer(fn)
	body, err := mapBlock(fn.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
		c := ir.StmtCall(s)
		if c == nil || c.Fn == nil || added[c.Fn.Name] == 0 {
			return []ir.Stmt{s}, nil
		}
		callee := p.Function(c.Fn.Name)
		n := added[c.Fn.Name]
		var out []ir.Stmt
		args := append([]ir.Expr(nil), c.Args...)
		for _, prm := range callee.Params[len(callee.Params)-n:] {
			tt := prm.Type().(*ir.TensorType)
			layout := ir.LayoutND // the parameter's own layout, as upstream's pass gives it
			if tt.View != nil {
				layout = tt.View.Layout
			}
			create, err := ir.TensorCreate.NewCall([]ir.Expr{&ir.MakeTuple{Elems: tt.Shape}}, ir.Kwargs{{Key: "dtype", Value: tt.DType}, {Key: "layout", Value: layout}}, c.Pos)
			if err != nil {
				return nil, err
			}
			v := ir.NewVar(names.fresh(prm.Name), create.Type(), c.Pos)
			out = append(out, assign(v, create))
			args = append(args, v)
		}
		nc := *c
		nc.Args = args
		// return self.k(...) too: the call's new arguments come first.
		rebuilt := replaceCall(s, c, &nc)
		if rebuilt == nil {
			return nil, fmt.Errorf("%s: a call of %s (which gained output parameters) inside %s", fn.Name, c.Fn.Name, describeStmt(s))
		}
		return append(out, rebuilt), nil
	})
	if err != nil {
		return nil, err
	}
	return withBody(fn, body), nil
}

type tileConv struct {
	fn    *ir.Function
	names *namer
	// tiles maps a tensor-valued variable to its tile version: a converted
	// op's result, or a GM tensor loaded into Vec.
	tiles map[*ir.Var]ir.Expr
	// converted marks results of converted tensor ops: they are tiles now.
	converted map[*ir.Var]bool
	// bridged caches GM tensors loaded into Vec for the statement being
	// converted (a load dominates only what follows it in its own block, so
	// the cache does not outlive one statement).
	bridged map[*ir.Var]ir.Expr
	// yielded are the tiles of each yield's values when the yield was
	// converted: a name defined in both branches of an if (one variable,
	// as a non-SSA reader gives it) yields each branch's own tile.
	yielded map[*ir.YieldStmt][]ir.Expr
	// entry maps a parameter loaded at the function's top to its tile
	// (tile_entry.go).
	entry map[*ir.Var]ir.Expr
	// loadable marks slices of GM tensors whose every use takes a tile:
	// each becomes a tile.load of its region, as upstream lowers
	// tensor.slice. A slice something else reads as a tensor stays a view.
	loadable map[*ir.Var]ir.MemorySpace
	// carried are the tensor.create results a loop carries as tiles, with
	// their memory; seeds the iter-args each seeds; phis the for and if
	// statements binding each return variable (tile_carry.go).
	carried   map[*ir.Var]ir.MemorySpace
	seeds     map[*ir.Var][]*ir.IterArg
	phis      map[*ir.Var]phiDef
	carriedIA map[*ir.Var]bool
}

// convertTileOps converts fn and reports how many Out parameters its
// final return's tiles added.
func convertTileOps(fn *ir.Function) (*ir.Function, int, error) {
	t := &tileConv{fn: fn, names: newNamer(fn), tiles: map[*ir.Var]ir.Expr{}, converted: map[*ir.Var]bool{}, entry: map[*ir.Var]ir.Expr{}, loadable: loadableSlices(fn),
		yielded: map[*ir.YieldStmt][]ir.Expr{}}
	t.findCarried()
	loads, err := t.entryLoads()
	if err != nil {
		return nil, 0, err
	}
	stmts := ir.Flatten(fn.Body)
	var ret *ir.ReturnStmt
	if n := len(stmts); n > 0 {
		if r, ok := stmts[n-1].(*ir.ReturnStmt); ok && t.returnsTile(r) {
			ret, stmts = r, stmts[:n-1]
		}
	}
	if ret == nil {
		body, err := mapBlock(fn.Body, t.stmt)
		if err != nil {
			return nil, 0, err
		}
		out := append(loads, ir.Flatten(body)...)
		if n := len(out); n == 0 || !isReturn(out[n-1]) {
			// A void kernel ends in an explicit return, as upstream's
			// conversion leaves it.
			out = append(out, &ir.ReturnStmt{StmtBase: ir.StmtBase{Pos: fn.Body.Span()}})
		}
		return withBody(fn, &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: fn.Body.Span()}, Stmts: out}), 0, nil
	}
	body, err := mapBlock(&ir.SeqStmts{StmtBase: ir.StmtBase{Pos: fn.Body.Span()}, Stmts: stmts}, t.stmt)
	if err != nil {
		return nil, 0, err
	}
	g := fn.Clone()
	for len(g.Dirs) < len(g.Params) {
		g.Dirs = append(g.Dirs, ir.In)
	}
	out := append(loads, ir.Flatten(body)...)
	vals := make([]ir.Expr, len(ret.Values))
	g.ReturnTypes = make([]ir.Type, len(ret.Values))
	added := 0
	for i, e := range ret.Values {
		tile := t.tileOf(e)
		if tile == nil {
			vals[i] = e
			g.ReturnTypes[i] = e.Type()
			if i < len(fn.ReturnTypes) {
				g.ReturnTypes[i] = fn.ReturnTypes[i]
			}
			continue
		}
		var tt *ir.TensorType
		if i < len(fn.ReturnTypes) {
			tt, _ = fn.ReturnTypes[i].(*ir.TensorType)
		}
		if tt == nil {
			return nil, 0, fmt.Errorf("%s returns a value computed on chip as return value %d, which needs a pl.Tensor return type", fn.Name, i)
		}
		p := ir.NewVar(t.names.fresh(fmt.Sprintf("ret%d__out", added)), tt, ret.Pos)
		g.Params = append(g.Params, p)
		g.Dirs = append(g.Dirs, ir.Out)
		zeros := make([]ir.Expr, len(tt.Shape))
		for k := range zeros {
			zeros[k] = ir.Int(0)
		}
		store, err := ir.TileStore.NewCall([]ir.Expr{tile, &ir.MakeTuple{Elems: zeros}, p}, nil, ret.Pos)
		if err != nil {
			return nil, 0, err
		}
		sv := ir.NewVar(t.names.fresh(fmt.Sprintf("ret%d__store", added)), store.Type(), ret.Pos)
		out = append(out, assign(sv, store))
		vals[i], g.ReturnTypes[i] = sv, store.Type()
		added++
	}
	out = append(out, &ir.ReturnStmt{StmtBase: ret.StmtBase, Values: vals})
	g.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: fn.Body.Span()}, Stmts: out}
	return g, added, nil
}

// returnsTile reports whether the return hands back a value the
// conversion makes a tile (a tensor op's result).
func (t *tileConv) returnsTile(r *ir.ReturnStmt) bool {
	for _, e := range r.Values {
		if v, ok := ir.VarOf(e); ok {
			if d := t.defOf(v); d != nil && d.Op != nil {
				if _, tile := resultTile(d.Op); tile || t.isLoadable(v) {
					return true
				}
			}
			if t.phiTile(v) {
				return true
			}
		}
	}
	return false
}

// defOf is the call that binds v in the function, or nil.
func (t *tileConv) defOf(v *ir.Var) *ir.Call {
	var c *ir.Call
	ir.WalkStmt(t.fn.Body, nil, func(s ir.Stmt) {
		if a, ok := s.(*ir.AssignStmt); ok && a.Var == v {
			c, _ = a.Value.(*ir.Call)
		}
	})
	return c
}

// tileOf is the tile a converted value became, or nil.
// yieldTile is the tile of y's value i when y was converted (nil: none).
func (t *tileConv) yieldTile(y *ir.YieldStmt, i int) ir.Expr {
	if tiles, ok := t.yielded[y]; ok && i < len(tiles) {
		return tiles[i]
	}
	return t.tileOf(y.Values[i])
}

func (t *tileConv) tileOf(e ir.Expr) ir.Expr {
	if v, ok := ir.VarOf(e); ok && t.converted[v] {
		return t.tiles[v]
	}
	return nil
}

// transferShape is the transfer shape of a put/get: the region's shape tuple,
// or the DistributedTensor's shape.
func transferShape(c *ir.Call, dist ir.Expr) []ir.Expr {
	if m, ok := c.ArgTuple("shape"); ok {
		return m.Elems
	}
	s, _, _ := ir.ShapeOf(dist.Type())
	return s
}

// stageShape is MakeTputStageShape: [rows, cols] of the flattened transfer,
// capped by chunk_rows / chunk_cols.
func stageShape(shape []ir.Expr, rowsCap, colsCap int64) ([]ir.Expr, error) {
	if len(shape) == 0 {
		return nil, fmt.Errorf("a rank-0 transfer has no staging shape")
	}
	inner := shape[len(shape)-1]
	var cols int64
	if v, ok := ir.ConstValue(inner); ok {
		cols = v
		if colsCap > 0 && colsCap < cols {
			cols = colsCap
		}
	} else if colsCap > 0 {
		cols = colsCap
	} else {
		return nil, fmt.Errorf("a dynamic innermost transfer dimension needs chunk_cols")
	}
	rows := int64(1)
	dyn := false
	for _, d := range shape[:len(shape)-1] {
		v, ok := ir.ConstValue(d)
		if !ok {
			dyn = true
			break
		}
		rows *= v
	}
	switch {
	case dyn && rowsCap > 0:
		rows = rowsCap
	case dyn:
		return nil, fmt.Errorf("a dynamic leading transfer dimension needs chunk_rows")
	case rowsCap > 0 && rowsCap < rows:
		rows = rowsCap
	}
	return []ir.Expr{ir.Int(rows), ir.Int(cols)}, nil
}

func (t *tileConv) stage(name string, shape []ir.Expr, dt ir.DataType, pos ir.Span) (*ir.Var, ir.Stmt) {
	c := ir.TileCreate.MustCall([]ir.Expr{&ir.MakeTuple{Elems: shape}},
		ir.Kwargs{{Key: "dtype", Value: dt}, {Key: "target_memory", Value: ir.MemVec}}, pos)
	v := ir.NewVar(t.names.fresh(name), c.Type(), pos)
	return v, assign(v, c)
}

// transferRule is how the pass rewrites a tensor-level op by hand (other
// tensor ops go by their registry TileForm): rewrite gives the statement's
// replacement; tileArgs lists the arguments it reads as tiles (nil: none),
// in memory space (the zero value, DDR, which no tile is in: Vec).
type transferRule struct {
	rewrite  func(t *tileConv, s ir.Stmt, c *ir.Call) ([]ir.Stmt, error)
	tileArgs func(c *ir.Call) []ir.Expr
	space    ir.MemorySpace
	// tile is the memory of the tile the statement's result becomes (a
	// matmul's Acc); the zero value, DDR, when it stays a tensor.
	tile ir.MemorySpace
	// entryLoads marks a rule whose plain tensor parameter operands take
	// the kernel's entry load (tile_entry.go), as an op lowered to its tile
	// form does; the others load their own operands.
	entryLoads bool
	// local marks an op that reads or writes its first argument in place:
	// a tensor the kernel creates and gives it becomes a Vec tile
	// (findAssembledCreates), as upstream makes a kernel's local tensors.
	local bool
	// onChipOnly marks an op the pass rewrites only when its first
	// argument is on chip (a converted value, an input loaded at the
	// kernel's top); given a GM tensor it stays the GM op.
	onChipOnly bool
}

// resultTile reports whether the pass makes op's result a tile, and in
// which memory: the rule's, or Vec for an op lowered to its tile form.
func resultTile(op *ir.OpDef) (ir.MemorySpace, bool) {
	if r, ok := transferRules[op]; ok && r.tile != ir.MemDDR {
		return r.tile, true
	}
	if op.TileForm != nil {
		return ir.MemVec, true
	}
	return ir.MemNone, false
}

var transferRules = map[*ir.OpDef]transferRule{
	ir.PldTensorPut: {rewrite: (*tileConv).putGet},
	ir.PldTensorGet: {rewrite: (*tileConv).putGet},
	ir.PldTensorRemoteStore: {rewrite: (*tileConv).remoteStore, tileArgs: func(c *ir.Call) []ir.Expr {
		if src, ok := c.Arg("src"); ok {
			return []ir.Expr{src}
		}
		return nil
	}},
	ir.TensorAssemble:      {rewrite: (*tileConv).assemble, tileArgs: func(c *ir.Call) []ir.Expr { return c.Args[1:2] }, local: true},
	ir.TensorMatmul:        {rewrite: (*tileConv).matmul, tileArgs: func(c *ir.Call) []ir.Expr { return c.Args[:2] }, space: ir.MemMat, tile: ir.MemAcc},
	ir.TensorMatmulAcc:     {rewrite: (*tileConv).matmulAcc, tileArgs: func(c *ir.Call) []ir.Expr { return c.Args[1:3] }, space: ir.MemMat, tile: ir.MemAcc},
	ir.TensorGather:        {rewrite: (*tileConv).gather, tile: ir.MemVec},
	ir.TensorExpandClone:   {rewrite: (*tileConv).expandClone},
	ir.TensorGatherCompare: {rewrite: (*tileConv).gatherCompare, tileArgs: func(c *ir.Call) []ir.Expr { return c.Args[:1] }, tile: ir.MemVec, entryLoads: true},
	ir.TensorScatter:       {rewrite: (*tileConv).scatter, tileArgs: func(c *ir.Call) []ir.Expr { return c.Args }, tile: ir.MemVec, entryLoads: true},
	ir.TensorScatterMask:   {rewrite: (*tileConv).scatterMask, tileArgs: func(c *ir.Call) []ir.Expr { return c.Args }, tile: ir.MemVec, entryLoads: true},
	ir.TensorCmp:           {rewrite: (*tileConv).cmp, tile: ir.MemVec, entryLoads: true},
	ir.TensorScatterUpdate: {rewrite: (*tileConv).scatterUpdate, tileArgs: func(c *ir.Call) []ir.Expr { return c.Args }, tile: ir.MemVec},
	ir.TileScatterUpdate:   {rewrite: (*tileConv).scatterUpdate, tile: ir.MemVec},
	ir.TensorCreateL1:      {rewrite: (*tileConv).createL1, tile: ir.MemMat},
	ir.TensorGatherRow:     {rewrite: (*tileConv).gatherRow, tile: ir.MemMat},
	ir.TensorPagedGather:   {rewrite: (*tileConv).pagedGather, tile: ir.MemMat},
	ir.TensorRead:          {rewrite: onChipAccess(ir.TileRead), local: true, onChipOnly: true},
	ir.TensorWrite:         {rewrite: onChipAccess(ir.TileWrite), local: true, onChipOnly: true},
}

// aliasCall calls the op c's op is another spelling of (a tensor-scope
// pl.get_block_idx is tile.get_block_idx), as upstream's conversion
// registry maps it.
func (t *tileConv) aliasCall(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	call, err := c.Op.AliasOf.NewCall(c.Args, c.Kwargs, c.Pos)
	if err != nil {
		return nil, err
	}
	if r := replaceCall(s, c, call); r != nil {
		return []ir.Stmt{r}, nil
	}
	return []ir.Stmt{s}, nil
}

// tileLowerable reports whether the pass rewrites statement s: a program is
// in tile form when no InCore statement is.
func tileLowerable(s ir.Stmt) bool {
	c := ir.StmtCall(s)
	if c == nil || c.Op == nil {
		return false
	}
	if r, ok := transferRules[c.Op]; ok {
		return !r.onChipOnly // those may stay GM ops
	}
	if c.Op.AliasOf != nil {
		return true
	}
	_, assign := s.(*ir.AssignStmt)
	return assign && c.Op.TileForm != nil
}

// tileOperands are the arguments of s that the pass turns into tiles, and
// the memory space they are loaded to: every argument of an op with a tile
// form, the source of an assemble or a remote store (Vec, by vecOf), a
// matmul's operands (Mat). nil when s is not rewritten.
func tileOperands(s ir.Stmt) ([]ir.Expr, ir.MemorySpace) {
	c := ir.StmtCall(s)
	if c == nil || c.Op == nil || !tileLowerable(s) || c.Op.AliasOf != nil {
		return nil, ir.MemNone
	}
	if rule, ok := transferRules[c.Op]; ok {
		if rule.tileArgs == nil {
			return nil, ir.MemNone
		}
		if rule.space != ir.MemDDR {
			return rule.tileArgs(c), rule.space
		}
		return rule.tileArgs(c), ir.MemVec
	}
	if c.Op.TileForm != nil {
		return c.Args, ir.MemVec
	}
	return nil, ir.MemNone
}

// loadableSlices finds the InCore function's tensor.slice results (of a
// tensor, dropping no dimension) that are used only as tile operands, all
// in one memory space, and gives that space.
func loadableSlices(fn *ir.Function) map[*ir.Var]ir.MemorySpace {
	slices := map[*ir.Var]bool{}
	ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
		a, ok := s.(*ir.AssignStmt)
		if !ok {
			return
		}
		if c, ok := a.Value.(*ir.Call); ok && c.Op == ir.TensorSlice && sliceLoadable(c) {
			slices[a.Var] = true
		}
	})
	if len(slices) == 0 {
		return nil
	}
	uses, tileUses := map[*ir.Var]int{}, map[*ir.Var]int{}
	spaces := map[*ir.Var]ir.MemorySpace{}
	mixed := map[*ir.Var]bool{}
	ir.WalkStmt(fn.Body, func(e ir.Expr) {
		if v, ok := e.(*ir.Var); ok && slices[v] {
			uses[v]++
		}
	}, func(s ir.Stmt) {
		xs, space := tileOperands(s)
		for _, x := range xs {
			if v, ok := x.(*ir.Var); ok && slices[v] {
				tileUses[v]++
				if old, seen := spaces[v]; seen && old != space {
					mixed[v] = true
				}
				spaces[v] = space
			}
		}
	})
	out := map[*ir.Var]ir.MemorySpace{}
	for v := range slices {
		if uses[v] > 0 && uses[v] == tileUses[v] && !mixed[v] {
			out[v] = spaces[v]
		}
	}
	return out
}

// sliceLoadable: a slice of a tensor that keeps every dimension (a
// dropped one would need a reshape of the loaded tile).
func sliceLoadable(c *ir.Call) bool {
	if _, ok := ir.AsTensorLike(c.Args[0].Type()); !ok {
		return false
	}
	if len(c.Args) == 5 {
		if drop, ok := c.Args[4].(*ir.MakeTuple); !ok || len(drop.Elems) > 0 {
			return false
		}
	}
	return true
}

// isLoadable reports whether v is a slice the pass loads where it is sliced.
func (t *tileConv) isLoadable(v *ir.Var) bool {
	_, ok := t.loadable[v]
	return ok
}

func (t *tileConv) stmt(s ir.Stmt) ([]ir.Stmt, error) {
	t.bridged = map[*ir.Var]ir.Expr{}
	switch x := s.(type) {
	case *ir.ForStmt, *ir.WhileStmt:
		return t.carriedLoop(x)
	case *ir.IfStmt:
		return t.carriedIf(x)
	case *ir.YieldStmt:
		tiles := make([]ir.Expr, len(x.Values))
		for i, v := range x.Values {
			tiles[i] = t.tileOf(v)
		}
		t.yielded[x] = tiles
	case *ir.AssignStmt:
		if mem, ok := t.carried[x.Var]; ok {
			return t.createTile(x, x.Value.(*ir.Call), mem)
		}
	}
	if a, ok := s.(*ir.AssignStmt); ok && t.isLoadable(a.Var) {
		return t.sliceLoad(a, a.Value.(*ir.Call))
	}
	// A slice of a value on chip is a view of its tile, whoever reads it.
	if a, ok := s.(*ir.AssignStmt); ok {
		if c, ok := a.Value.(*ir.Call); ok && c.Op == ir.TensorSlice && t.tileOf(c.Args[0]) != nil {
			return t.sliceLoad(a, c)
		}
	}
	if a, ok := s.(*ir.AssignStmt); ok {
		if g, ok := a.Value.(*ir.TupleGetItem); ok {
			if out, ok := t.tupleItem(a, g); ok {
				return out, nil
			}
		}
	}
	if c := ir.StmtCall(s); c != nil && transferRules[c.Op].onChipOnly {
		return transferRules[c.Op].rewrite(t, s, c)
	}
	if !tileLowerable(s) {
		if a, ok := s.(*ir.AssignStmt); ok {
			if c, ok := a.Value.(*ir.Call); ok {
				if out, ok, err := t.withScratch(a, c); ok || err != nil {
					return out, err
				}
			}
		}
		return t.fixUses(s)
	}
	c := ir.StmtCall(s)
	if c.Op.AliasOf != nil {
		return t.aliasCall(s, c)
	}
	if rule, ok := transferRules[c.Op]; ok {
		return rule.rewrite(t, s, c)
	}
	form := c.Op.TileForm
	if c.Op.ScalarTileForm != nil && len(c.Args) > 1 {
		if _, scalar := c.Args[1].Type().(*ir.ScalarType); scalar {
			form = c.Op.ScalarTileForm
		}
	}
	if c.Op.Broadcasts && len(c.Args) == 2 {
		ls, _, ok1 := ir.ShapeOf(c.Args[0].Type())
		rs, _, ok2 := ir.ShapeOf(c.Args[1].Type())
		if ok1 && ok2 && !ir.SameDims(ls, rs) {
			return t.broadcastBinary(s.(*ir.AssignStmt), c, ls, rs)
		}
	}
	return t.elementwise(s.(*ir.AssignStmt), c, form)
}

// broadcastBinary lowers a tensor op whose operands broadcast: an
// [M, N] and [M, 1] pair is the op's row-expand tile form, the wide
// operand first, as upstream's conversion detects it. The column may be
// the lhs only when the op commutes: tile.row_expand_sub computes
// wide - column, and upstream lowering [M, 1] - [M, N] onto it would
// flip the sign. No other broadcast has a tile form.
func (t *tileConv) broadcastBinary(a *ir.AssignStmt, c *ir.Call, ls, rs []ir.Expr) ([]ir.Stmt, error) {
	column := func(s []ir.Expr) bool {
		n, ok := ir.ConstValue(s[1])
		return ok && n == 1
	}
	pair := len(ls) == 2 && len(rs) == 2 && ir.SameDims(ls[:1], rs[:1])
	what := c.Op.Name + " of " + ir.ShapeString(ls) + " and " + ir.ShapeString(rs)
	if c.Pos.Known() {
		what = c.Pos.String() + ": " + what
	}
	switch {
	case c.Kwargs.Bool("high_precision", false):
		// As upstream's conversion refuses it: the row-expand form has no
		// high-precision mode without an explicit tmp tile.
		return nil, fmt.Errorf("%s: %s(high_precision=True) does not lower a broadcasting pair (the row-expand tile form has no high-precision mode); give both operands one shape", what, c.Op.Name)
	case c.Op.RowExpandForm == nil:
		return nil, fmt.Errorf("%s: ptorepl lowers %s only for operands of one shape (it has no row-expand tile form); a broadcasting one runs in the simulator as written but does not compile", what, c.Op.Name)
	case pair && column(rs) && !column(ls):
		return t.elementwise(a, c, c.Op.RowExpandForm)
	case pair && column(ls) && !column(rs):
		if !c.Op.RowExpandCommutes {
			return nil, fmt.Errorf("%s: the [M, 1] column is the lhs, and %s takes the column as its rhs only (the op does not commute); write the column as the rhs", what, c.Op.RowExpandForm.Name)
		}
		swapped, err := c.Op.NewCall([]ir.Expr{c.Args[1], c.Args[0]}, c.Kwargs, c.Pos)
		if err != nil {
			return nil, err
		}
		return t.elementwise(a, swapped, c.Op.RowExpandForm)
	}
	return nil, fmt.Errorf("%s: ptorepl lowers a broadcasting %s only for an [M, N] and [M, 1] pair (%s); others run in the simulator as written but do not compile", what, c.Op.Name, c.Op.RowExpandForm.Name)
}

// scratchOf maps a tile op to the scratch tile its tensor form's lowering
// passes it last (OpDef.TileScratch).
var scratchOf = func() map[*ir.OpDef]func(*ir.Call, *ir.TileType) (string, []ir.Expr, bool) {
	m := map[*ir.OpDef]func(*ir.Call, *ir.TileType) (string, []ir.Expr, bool){}
	for _, d := range ir.Ops() {
		if d.TileForm != nil && d.TileScratch != nil {
			m[d.TileForm] = d.TileScratch
		}
	}
	return m
}()

// withScratch gives a tile op written without its scratch tile (pl.transpose
// of a tile: upstream's high-level three-argument form) the one its tensor
// form's lowering would allocate, as upstream's FlattenTileNdTo2D
// materialises it. ok is false when c needs none.
func (t *tileConv) withScratch(a *ir.AssignStmt, c *ir.Call) ([]ir.Stmt, bool, error) {
	sc := scratchOf[c.Op]
	if sc == nil || len(c.Args) != len(c.Op.Args)-1 || len(c.Args) == 0 {
		return nil, false, nil
	}
	in, ok := c.Args[0].Type().(*ir.TileType)
	if !ok {
		return nil, false, nil
	}
	name, shape, ok := sc(c, in)
	if !ok {
		return nil, false, nil
	}
	var out []ir.Stmt
	tmp, err := t.emit(&out, name, ir.TileCreate, []ir.Expr{&ir.MakeTuple{Elems: shape}},
		ir.Kwargs{{Key: "dtype", Value: in.DType}, {Key: "target_memory", Value: ir.MemVec}}, c.Pos)
	if err != nil {
		return nil, false, err
	}
	call, err := c.Op.NewCall(append(append([]ir.Expr{}, c.Args...), tmp), c.Kwargs, c.Pos)
	if err != nil {
		return nil, false, err
	}
	return append(out, &ir.AssignStmt{StmtBase: a.StmtBase, Var: a.Var, Value: call}), true, nil
}

// fixUses rejects a converted (now tile-valued) result flowing into
// something that needs a tensor.
func (t *tileConv) fixUses(s ir.Stmt) ([]ir.Stmt, error) {
	var err error
	check := func(e ir.Expr) {
		if v, ok := ir.VarOf(e); ok && t.converted[v] && err == nil {
			err = fmt.Errorf("%s was computed by a tensor op that ConvertTensorToTileOps lowered to a tile op, but %s needs a tensor; store it first", v.Name, describeStmt(s))
		}
	}
	switch x := s.(type) {
	case *ir.AssignStmt:
		ir.WalkExpr(x.Value, check)
	case *ir.EvalStmt:
		ir.WalkExpr(x.Expr, check)
	case *ir.ReturnStmt:
		for _, v := range x.Values {
			ir.WalkExpr(v, check)
		}
	}
	return []ir.Stmt{s}, err
}

func describeStmt(s ir.Stmt) string {
	if c := ir.StmtCall(s); c != nil {
		return c.Name()
	}
	if _, ok := s.(*ir.ReturnStmt); ok {
		return "return"
	}
	return fmt.Sprintf("%T", s)
}

func (t *tileConv) putGet(_ ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	isPut := c.Op == ir.PldTensorPut
	// The peer's side is the DistributedTensor, the other the local tensor.
	distName, localName := "dst", "src"
	base, tileOp := "tput_stage", ir.PldTilePut
	if !isPut {
		distName, localName = "src", "dst"
		base, tileOp = "tget_stage", ir.PldTileGet
	}
	dist, err := c.ArgErr(distName)
	if err != nil {
		return nil, err
	}
	local, err := c.ArgErr(localName)
	if err != nil {
		return nil, err
	}
	if _, ok := ir.AsTensorLike(local.Type()); !ok {
		return nil, fmt.Errorf("%s src must be a GM tensor (got %s). Use pld.tensor.remote_store(...) for a computed tile", c.Op.Name, local.Type())
	}
	if v, ok := ir.VarOf(local); ok && t.converted[v] {
		return nil, fmt.Errorf("%s src must be a GM tensor, but %s is computed on chip. Use pld.tensor.remote_store(...)", c.Op.Name, v.Name)
	}
	shape := transferShape(c, dist)
	_, dt, _ := ir.ShapeOf(dist.Type())
	st, err := stageShape(shape, c.Kwargs.Int("chunk_rows", 0), c.Kwargs.Int("chunk_cols", 0))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Op.Name, err)
	}
	var out []ir.Stmt
	var stages []ir.Expr
	if c.Kwargs.Bool("pipeline", false) {
		for _, suf := range []string{"_ping", "_pong"} {
			v, a := t.stage(base+suf, st, dt, c.Pos)
			out = append(out, a)
			stages = append(stages, v)
		}
	} else {
		v, a := t.stage(base, st, dt, c.Pos)
		out = append(out, a)
		stages = append(stages, v)
	}
	args := append(append(append([]ir.Expr{}, c.Args[:3]...), stages...), c.Args[3:]...)
	var kw ir.Kwargs
	if isPut {
		kw = ir.Kwargs{{Key: "atomic", Value: c.Kwargs.Int("atomic", 0)}}
	}
	call, err := tileOp.NewCall(args, kw, c.Pos)
	if err != nil {
		return nil, err
	}
	return append(out, eval(call)), nil
}

// vecOf returns a Vec tile holding e: its converted value, or a full load
// of a GM tensor into <name>_vec (bridged once per tensor).
func (t *tileConv) vecOf(e ir.Expr, out *[]ir.Stmt) (ir.Expr, error) {
	if _, ok := e.Type().(*ir.TileType); ok {
		return e, nil
	}
	v, isVar := ir.VarOf(e)
	if isVar {
		if tv, ok := t.tiles[v]; ok {
			return tv, nil
		}
		if tv, ok := t.bridged[v]; ok {
			return tv, nil
		}
		if tv, ok := t.entry[v]; ok {
			return tv, nil
		}
	}
	tl, ok := ir.AsTensorLike(e.Type())
	if !ok {
		return e, nil // a scalar operand
	}
	load, err := wholeLoad(e, tl.Shape, ir.MemVec)
	if err != nil {
		return nil, err
	}
	name := "x"
	if isVar {
		name = v.Name
	}
	nv := ir.NewVar(t.names.fresh(name+"_vec"), load.Type(), e.Span())
	*out = append(*out, assign(nv, load))
	if isVar {
		t.bridged[v] = nv
	}
	return nv, nil
}

// toVec is tile e for a vector op: an Acc tile (a tensor.matmul's
// result) crosses from the cube to the vector core by tile.move to Vec, as
// upstream's Vec input requirement bridges it; any other tile as it is.
func (t *tileConv) toVec(e ir.Expr, tt *ir.TileType, out *[]ir.Stmt) (ir.Expr, error) {
	if tt.Memory != ir.MemAcc {
		return e, nil
	}
	v, isVar := ir.VarOf(e)
	if isVar {
		if tv, ok := t.bridged[v]; ok {
			return tv, nil
		}
	}
	nv, err := t.moveTile(e, ir.MemVec, "_vec", out)
	if err == nil && isVar {
		t.bridged[v] = nv
	}
	return nv, err
}

// moveTile appends `<name><suffix> = tile.move(e, target_memory=mem)` and
// returns the moved tile.
func (t *tileConv) moveTile(e ir.Expr, mem ir.MemorySpace, suffix string, out *[]ir.Stmt) (ir.Expr, error) {
	move, err := ir.TileMove.NewCall([]ir.Expr{e}, ir.Kwargs{{Key: "target_memory", Value: mem}}, e.Span())
	if err != nil {
		return nil, err
	}
	name := "x"
	if v, ok := ir.VarOf(e); ok {
		name = v.Name
	}
	nv := ir.NewVar(t.names.fresh(name+suffix), move.Type(), e.Span())
	*out = append(*out, assign(nv, move))
	return nv, nil
}

func (t *tileConv) elementwise(a *ir.AssignStmt, c *ir.Call, tileOp *ir.OpDef) ([]ir.Stmt, error) {
	var out []ir.Stmt
	args := make([]ir.Expr, len(c.Args))
	for i, x := range c.Args {
		y, err := t.vecOf(x, &out)
		if err != nil {
			return nil, err
		}
		// A vector op reads Vec: a matmul's Acc tile crosses over first (a
		// store or assemble takes it from Acc directly, and a cast of it is
		// the fixpipe's conversion on the way out of Acc).
		if tt, ok := y.Type().(*ir.TileType); ok && !tileOp.ReadsAcc {
			if y, err = t.toVec(y, tt, &out); err != nil {
				return nil, err
			}
		}
		args[i] = y
	}
	// Operands of a narrower element type than the result (a tensor op
	// promotes, FP32 + BF16 is FP32) are cast to it first: the tile op
	// takes one element type, as upstream's conversion casts for div.
	if rt, ok := a.Var.Type().(*ir.TensorType); ok && c.Op.Promotes {
		for i, y := range args {
			if tt, ok := y.Type().(*ir.TileType); ok && tt.DType != rt.DType {
				cast, err := t.emit(&out, []string{"lhs_cast", "rhs_cast"}[i], ir.TileCast, []ir.Expr{y},
					ir.Kwargs{{Key: "target_type", Value: rt.DType}, {Key: "mode", Value: int64(1)}}, c.Pos)
				if err != nil {
					return nil, err
				}
				args[i] = cast
			}
		}
	}
	// A scratch tile the tile form needs (a row reduction's tmp_tile) is
	// allocated here, as upstream's conversion allocates it.
	if sc := c.Op.TileScratch; sc != nil && len(args) > 0 {
		if in, ok := args[0].Type().(*ir.TileType); ok {
			if name, shape, ok := sc(c, in); ok {
				tmp, err := t.emit(&out, name, ir.TileCreate, []ir.Expr{&ir.MakeTuple{Elems: shape}},
					ir.Kwargs{{Key: "dtype", Value: in.DType}, {Key: "target_memory", Value: ir.MemVec}}, c.Pos)
				if err != nil {
					return nil, err
				}
				args = append(args, tmp)
			}
		}
	}
	// Kwargs that only steer the lowering (rsqrt's high_precision) stay
	// behind: the tile form is given the ones it declares.
	var kw ir.Kwargs
	for _, k := range c.Kwargs {
		if _, ok := tileOp.Kwarg(k.Key); ok {
			kw = append(kw, k)
		}
	}
	call, err := tileOp.NewCall(args, kw, c.Pos)
	if err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, out), nil
}

// sliceLoad lowers a slice of a GM tensor that is only read as a tile to
// the tile.load of its region (valid_shape as the slice says, else the
// whole region), as upstream's conversion does; a slice of a tile is a
// tile.slice.
func (t *tileConv) sliceLoad(a *ir.AssignStmt, c *ir.Call) ([]ir.Stmt, error) {
	// A slice of a value already on chip is a tile.slice of its tile.
	if src := t.tileOf(c.Args[0]); src != nil {
		args := append([]ir.Expr{src}, c.Args[1:]...)
		call, err := ir.TileSlice.NewCall(args, c.Kwargs, c.Pos)
		if err != nil {
			return nil, err
		}
		return t.convertedTo(a, call, nil), nil
	}
	// The slice's valid shape is its type's: the requested one, narrowed
	// to the source's edge (clamp=True).
	valid := c.Args[1]
	if tt, ok := a.Var.Type().(*ir.TensorType); ok && tt.View != nil && len(tt.View.ValidShape) > 0 {
		valid = &ir.MakeTuple{Elems: tt.View.ValidShape, Pos: c.Pos}
	} else if len(c.Args) >= 4 {
		if v, ok := c.Args[3].(*ir.MakeTuple); ok && len(v.Elems) > 0 {
			valid = v
		}
	}
	load, err := ir.TileLoad.NewCall([]ir.Expr{c.Args[0], c.Args[2], c.Args[1], valid},
		ir.Kwargs{{Key: "target_memory", Value: t.loadable[a.Var]}}, c.Pos)
	if err != nil {
		return nil, err
	}
	nv := ir.NewVar(a.Var.Name, load.Type(), a.Var.Pos)
	t.setTile(a.Var, nv)
	return []ir.Stmt{assign(nv, load)}, nil
}

// assemble lowers dst = tensor.assemble(target, source, offset) to the
// store of the source as a Vec tile (a GM source is loaded first): dst is
// the target after the store, as before.
func (t *tileConv) assemble(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	var out []ir.Stmt
	src, err := t.vecOf(c.Args[1], &out)
	if err != nil {
		return nil, err
	}
	if target := t.tileOf(c.Args[0]); target != nil {
		return t.assembleTile(s, c, target, src, out)
	}
	// A source of another element type converts: an Acc tile on its way
	// out (the fixpipe), a Vec tile by a cast first.
	if st, ok := src.Type().(*ir.TileType); ok && st.Memory != ir.MemAcc {
		if tt, ok := ir.AsTensorLike(c.Args[0].Type()); ok && tt.DType != st.DType {
			mode := ir.CastModes["round"]
			if !tt.DType.IsFloat() {
				mode = ir.CastModes["trunc"] // as the simulator's conversion on assemble
			}
			if src, err = t.emit(&out, "assemble_cast", ir.TileCast, []ir.Expr{src},
				ir.Kwargs{{Key: "target_type", Value: tt.DType}, {Key: "mode", Value: mode}}, c.Pos); err != nil {
				return nil, err
			}
		}
	}
	var kw ir.Kwargs
	if c.Kwargs.Int("atomic", 0) != 0 {
		kw = ir.Kwargs{{Key: "atomic", Value: c.Kwargs.Int("atomic", 0)}}
	}
	store, err := ir.TileStore.NewCall([]ir.Expr{src, c.Args[2], c.Args[0]}, kw, c.Pos)
	if err != nil {
		return nil, err
	}
	if a, ok := s.(*ir.AssignStmt); ok {
		return append(out, &ir.AssignStmt{StmtBase: a.StmtBase, Var: a.Var, Value: store}), nil
	}
	return append(out, &ir.EvalStmt{StmtBase: ir.StmtBase{Pos: s.Span(), Leading: s.Comments()}, Expr: store}), nil
}

// assembleTile lowers an assemble into a value computed on chip (a
// created tensor the pass made a tile, or an earlier assemble's result)
// to tile.assemble of the source's Vec tile, as upstream's conversion
// does; the result is the target tile after the write.
func (t *tileConv) assembleTile(s ir.Stmt, c *ir.Call, target, src ir.Expr, out []ir.Stmt) ([]ir.Stmt, error) {
	a, ok := s.(*ir.AssignStmt)
	if !ok {
		return nil, fmt.Errorf("tensor.assemble into %s, which is computed on chip, must keep its result (x = pl.assemble(x, ...))", ir.DefaultFormat.Expr(c.Args[0]))
	}
	if c.Kwargs.Int("atomic", 0) != 0 {
		return nil, fmt.Errorf("tensor.assemble with atomic=AtomicType.Add needs a global-memory destination, but %s is computed on chip", ir.DefaultFormat.Expr(c.Args[0]))
	}
	call, err := ir.TileAssemble.NewCall([]ir.Expr{target, src, c.Args[2]}, nil, c.Pos)
	if err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, out), nil
}

// matmul lowers v = tensor.matmul(lhs, rhs) to the cube path, as
// upstream's conversion (its Mat input requirements) does: each operand is
// loaded to Mat (a slice of a GM tensor is loaded where it is sliced),
// moved to Left or Right, and tile.matmul makes v an Acc tile of the
// tensor's dtype.
func (t *tileConv) matmul(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	a, ok := s.(*ir.AssignStmt)
	if !ok {
		return nil, fmt.Errorf("a tensor.matmul whose result is not kept computes nothing; assign it")
	}
	tt, ok := a.Var.Type().(*ir.TensorType)
	if !ok {
		return nil, fmt.Errorf("tensor.matmul: %s is not a tensor", a.Var.Name)
	}
	var out []ir.Stmt
	if len(tt.Shape) > 2 {
		return t.batchMatmul(a, c, tt, out)
	}
	ops, err := t.cubeOperands(c, c.Args[0], c.Args[1], &out)
	if err != nil {
		return nil, err
	}
	call, err := ir.TileMatmul.NewCall(ops[:], ir.Kwargs{{Key: "out_dtype", Value: tt.DType}}, c.Pos)
	if err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, out), nil
}

// batchMatmul lowers a batched tensor.matmul (an operand of rank above
// 2) to tile.batch_matmul of its operands loaded to Mat (seen transposed
// when a_trans / b_trans says), as upstream's conversion does;
// FlattenTileNdTo2D unrolls it.
func (t *tileConv) batchMatmul(a *ir.AssignStmt, c *ir.Call, tt *ir.TensorType, out []ir.Stmt) ([]ir.Stmt, error) {
	ops, err := t.batchOperands(c, c.Args[:2], &out)
	if err != nil {
		return nil, err
	}
	call, err := ir.TileBatchMatmul.NewCall(ops[:], nil, c.Pos)
	if err != nil {
		return nil, err
	}
	if rt := call.Type().(*ir.TileType); rt.DType != tt.DType {
		return nil, fmt.Errorf("%s: a batched tensor.matmul into %s: the cube accumulates %s, and ptorepl does not lower the conversion of a batched product yet", c.Pos, tt.DType, rt.DType)
	}
	return t.convertedTo(a, call, out), nil
}

// batchOperands loads a batched matmul's lhs and rhs to Mat, each seen
// transposed when the call's a_trans / b_trans says.
func (t *tileConv) batchOperands(c *ir.Call, args []ir.Expr, out *[]ir.Stmt) ([2]ir.Expr, error) {
	var ops [2]ir.Expr
	for i, e := range args {
		mat, err := t.tileIn(e, ir.MemMat, out)
		if err != nil {
			return ops, err
		}
		if c.Kwargs.Bool([]string{"a_trans", "b_trans"}[i], false) {
			base := "x"
			if v, ok := ir.VarOf(mat); ok {
				base = v.Name
			}
			if mat, err = t.emit(out, base+"_t", ir.TileTransposeView, []ir.Expr{mat}, nil, c.Pos); err != nil {
				return ops, err
			}
		}
		ops[i] = mat
	}
	return ops, nil
}

// matmulAcc lowers v = tensor.matmul_acc(acc, lhs, rhs) to tile.matmul_acc
// on acc's Acc tile (a matmul's result, or a loop-carried accumulator,
// tile_carry.go), the operands taking the cube path as tensor.matmul's do.
func (t *tileConv) matmulAcc(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	a, ok := s.(*ir.AssignStmt)
	if !ok {
		return nil, fmt.Errorf("a tensor.matmul_acc whose result is not kept computes nothing; assign it")
	}
	acc := c.Args[0]
	if tile := t.tileOf(acc); tile != nil {
		acc = tile
	}
	if tt, ok := acc.Type().(*ir.TileType); !ok || tt.Memory != ir.MemAcc {
		return nil, fmt.Errorf("tensor.matmul_acc: the accumulator %s must be an on-chip Acc tile: a pl.matmul's result in this kernel, "+
			"or a pl.create_tensor carried through the loop whose iterations make it; given %s", ir.DefaultFormat.Expr(c.Args[0]), ir.DefaultFormat.Type(acc.Type()))
	}
	var out []ir.Stmt
	if tt := acc.Type().(*ir.TileType); len(tt.Shape) > 2 {
		if len(c.Args) > 3 {
			return nil, fmt.Errorf("%s: a batched tensor.matmul_acc with init_cond is not lowered yet", c.Pos)
		}
		ops, err := t.batchOperands(c, c.Args[1:3], &out)
		if err != nil {
			return nil, err
		}
		call, err := ir.TileBatchMatmulAcc.NewCall([]ir.Expr{acc, ops[0], ops[1]}, nil, c.Pos)
		if err != nil {
			return nil, err
		}
		return t.convertedTo(a, call, out), nil
	}
	ops, err := t.cubeOperands(c, c.Args[1], c.Args[2], &out)
	if err != nil {
		return nil, err
	}
	args := []ir.Expr{acc, ops[0], ops[1]}
	if len(c.Args) > 3 {
		args = append(args, c.Args[3]) // init_cond
	}
	call, err := ir.TileMatmulAcc.NewCall(args, nil, c.Pos)
	if err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, out), nil
}

// cubeOperands takes a matmul's lhs and rhs to Left and Right: each is
// loaded to Mat (a slice of a GM tensor is loaded where it is sliced),
// seen transposed when the call's a_trans / b_trans says, and moved.
func (t *tileConv) cubeOperands(c *ir.Call, lhs, rhs ir.Expr, out *[]ir.Stmt) ([2]ir.Expr, error) {
	var ops [2]ir.Expr
	for i, mem := range []ir.MemorySpace{ir.MemLeft, ir.MemRight} {
		e := []ir.Expr{lhs, rhs}[i]
		mat, err := t.tileIn(e, ir.MemMat, out)
		if err != nil {
			return ops, err
		}
		// A transposed operand is loaded as it is and seen transposed in
		// Mat (a zero-copy view), as upstream's conversion does.
		if c.Kwargs.Bool([]string{"a_trans", "b_trans"}[i], false) {
			base := "x"
			if v, ok := ir.VarOf(mat); ok {
				base = v.Name
			}
			tv, err := t.emit(out, base+"_t", ir.TileTransposeView, []ir.Expr{mat}, nil, c.Pos)
			if err != nil {
				return ops, err
			}
			mat = tv
		}
		move, err := ir.TileMove.NewCall([]ir.Expr{mat}, ir.Kwargs{{Key: "target_memory", Value: mem}}, c.Pos)
		if err != nil {
			return ops, err
		}
		name := "x"
		if v, ok := ir.VarOf(e); ok {
			name = v.Name
		}
		mv := ir.NewVar(t.names.fresh(name+"_"+mem.Lower()), move.Type(), c.Pos)
		*out = append(*out, assign(mv, move))
		ops[i] = mv
	}
	return ops, nil
}

// tileIn is e as a tile in memory mem: a tile already there, an Acc tile
// (a matmul's result, cast or not) written back to Mat as the fixpipe does
// (tile.move, PTO tmov from L0C to L1), a Vec tile moved to Mat (the
// vector half of a mixed kernel handing its result to the cube), or a GM
// tensor loaded whole.
func (t *tileConv) tileIn(e ir.Expr, mem ir.MemorySpace, out *[]ir.Stmt) (ir.Expr, error) {
	if v, ok := ir.VarOf(e); ok {
		if tv, ok := t.tiles[v]; ok {
			e = tv
		}
	}
	if tt, ok := e.Type().(*ir.TileType); ok {
		if tt.Memory == mem {
			return e, nil
		}
		// A Vec tile (a vector result in a mixed kernel) crosses to the cube
		// as upstream's V2C move, a tile.move to Mat (ExpandMixedKernel,
		// not followed, would make it a TPUSH/TPOP pair).
		if (tt.Memory != ir.MemAcc && tt.Memory != ir.MemVec) || mem != ir.MemMat {
			return nil, fmt.Errorf("%s is a tile in %s memory; the cube path loads its operands to %s", ir.DefaultFormat.Expr(e), tt.Memory, mem)
		}
		return t.moveTile(e, mem, "_mat", out)
	}
	tl, ok := ir.AsTensorLike(e.Type())
	if !ok {
		return nil, fmt.Errorf("%s is not a tensor", ir.DefaultFormat.Expr(e))
	}
	load, err := wholeLoad(e, tl.Shape, mem)
	if err != nil {
		return nil, err
	}
	name := "x"
	if v, ok := ir.VarOf(e); ok {
		name = v.Name
	}
	suffix := "_mat"
	if mem == ir.MemVec {
		suffix = "_vec"
	}
	nv := ir.NewVar(t.names.fresh(name+suffix), load.Type(), e.Span())
	*out = append(*out, assign(nv, load))
	return nv, nil
}

func (t *tileConv) remoteStore(_ ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	var out []ir.Stmt
	in, err := c.ArgErr("src")
	if err != nil {
		return nil, err
	}
	src, err := t.vecOf(in, &out)
	if err != nil {
		return nil, err
	}
	args := append([]ir.Expr{src}, c.Args[1:]...)
	call, err := ir.PldTileRemoteStore.NewCall(args, c.Kwargs, c.Pos)
	if err != nil {
		return nil, err
	}
	return append(out, eval(call)), nil
}

// channel is how an op writes GM: DMA (MTE3) or the scalar unit.
// aliasArg is the argument whose storage an op's result reuses (-1: none),
// from the op's registry entry.
func aliasArg(c *ir.Call) int { return c.Op.AliasedArg() }

// directionRoundsCap, when positive, replaces upgradeDirections' derived
// round bound (tests set it to force the non-convergence error).
var directionRoundsCap int

// upgradeDirections is UpgradeWrittenTensorParamDirections: every tensor
// parameter is an alias origin; aliases flow through assignments, views,
// stores, yields and loop/if return vars; the registry's argument effects
// mark origins read and written. Only In parameters change.
func upgradeDirections(fn *ir.Function) (*ir.Function, error) {
	origin := map[*ir.Var]map[int]bool{}
	for i, p := range fn.Params {
		if _, ok := ir.AsTensorLike(p.Type()); ok {
			origin[p] = map[int]bool{i: true}
		}
	}
	of := func(e ir.Expr) map[int]bool {
		if v, ok := ir.VarOf(e); ok {
			return origin[v]
		}
		return nil
	}
	join := func(v *ir.Var, src map[int]bool) bool {
		if len(src) == 0 {
			return false
		}
		if origin[v] == nil {
			origin[v] = map[int]bool{}
		}
		grew := false
		for k := range src {
			if !origin[v][k] {
				origin[v][k] = true
				grew = true
			}
		}
		return grew
	}
	read, written := map[int]bool{}, map[int]bool{}
	units := map[int]string{} // per parameter: the unit that stores to it
	var mixErr error
	// Aliases through loops need a fixpoint: iterate until nothing grows.
	// Each round that does not converge adds at least one (variable,
	// parameter) pair to origin, so defs*params+1 rounds always suffice;
	// hitting the bound means a bug, reported rather than ignored.
	defs := 0
	forEachDef(fn, func(*ir.Var) { defs++ })
	bound := defs*len(fn.Params) + 1
	if directionRoundsCap > 0 {
		bound = directionRoundsCap
	}
	converged := false
	for iter := 0; iter < bound && !converged; iter++ {
		grew := false
		var yieldTo func(body ir.Stmt, rvs []*ir.Var, ias []*ir.IterArg)
		yieldTo = func(body ir.Stmt, rvs []*ir.Var, ias []*ir.IterArg) {
			stmts := ir.Flatten(body)
			if len(stmts) == 0 {
				return
			}
			if y, ok := stmts[len(stmts)-1].(*ir.YieldStmt); ok {
				for i, v := range y.Values {
					if i < len(rvs) && join(rvs[i], of(v)) {
						grew = true
					}
					if i < len(ias) && join(&ias[i].Var, of(v)) {
						grew = true
					}
				}
			}
		}
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			switch x := s.(type) {
			case *ir.AssignStmt:
				switch val := x.Value.(type) {
				case *ir.Call:
					if i := aliasArg(val); i >= 0 && i < len(val.Args) && join(x.Var, of(val.Args[i])) {
						grew = true
					}
				default:
					if join(x.Var, of(val)) {
						grew = true
					}
				}
			case *ir.ForStmt, *ir.WhileStmt:
				ias, rvs := ir.LoopCarried(x)
				for i, ia := range ias {
					if join(&ia.Var, of(ia.Init)) {
						grew = true
					}
					if i < len(rvs) && join(rvs[i], origin[&ia.Var]) {
						grew = true
					}
				}
				yieldTo(ir.LoopBody(x), rvs, ias)
			case *ir.IfStmt:
				yieldTo(x.Then, x.ReturnVars, nil)
				yieldTo(x.Else, x.ReturnVars, nil)
			}
		})
		converged = !grew
	}
	if !converged {
		return nil, fmt.Errorf("ConvertTensorToTileOps: the parameter-direction fixpoint did not converge within %d rounds", bound)
	}
	ir.WalkStmt(fn.Body, func(e ir.Expr) {
		c, ok := e.(*ir.Call)
		if !ok || c.Op == nil {
			return
		}
		eff := ir.CallEffects(c)
		for i, a := range c.Args {
			if i >= len(eff) {
				break
			}
			for o := range of(a) {
				if eff[i].Reads() {
					read[o] = true
				}
				if eff[i].Writes() {
					written[o] = true
					if u := c.Op.StoreUnit; u != "" {
						if prev, ok := units[o]; ok && prev != u && mixErr == nil {
							mixErr = fmt.Errorf("GM tensor '%s' mixes MTE3 and scalar stores in one InCore function", fn.Params[o].Name)
						}
						units[o] = u
					}
				}
			}
		}
	}, nil)
	if mixErr != nil {
		return nil, mixErr
	}
	var g *ir.Function
	for i := range fn.Params {
		if fn.Direction(i) != ir.In || !written[i] {
			continue
		}
		if g == nil {
			g = fn.Clone()
			for len(g.Dirs) < len(g.Params) {
				g.Dirs = append(g.Dirs, ir.In)
			}
		}
		if read[i] {
			g.Dirs[i] = ir.InOut
		} else {
			g.Dirs[i] = ir.Out
		}
	}
	if g == nil {
		return fn, nil
	}
	return g, nil
}

// gather lowers tensor.gather of a rank-2 input along its last dimension
// as upstream's conversion does for a2a3: a loop over the index rows loads
// one input row and one index row, gathers it (tile.gather with a [1, K]
// INT32 workspace) and assembles it into the result tile it carries.
func (t *tileConv) gather(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	a, ok := s.(*ir.AssignStmt)
	if !ok {
		return nil, fmt.Errorf("a tensor.gather whose result is not kept computes nothing; assign it")
	}
	in, ok1 := ir.AsTensorLike(c.Args[0].Type())
	idx, ok2 := ir.AsTensorLike(c.Args[1].Type())
	dim := c.Kwargs.Int("dim", -1)
	if dim < 0 {
		dim += int64(len(in.Shape))
	}
	rank := len(in.Shape)
	if ok1 && ok2 && rank == 3 && len(idx.Shape) == 3 && (dim == 0 || dim == 1) {
		return t.gatherOuterDim(a, c, in, idx, dim)
	}
	if !ok1 || !ok2 || rank < 2 || len(idx.Shape) != rank || dim != int64(rank-1) {
		return nil, fmt.Errorf("tensor.gather: ptorepl lowers a gather along the last dimension of tensors of rank 2 or more, "+
			"and along any dimension of rank-3 tensors (given rank %d, dim %d); others run in the simulator as written but do not compile yet", rank, c.Kwargs.Int("dim", -1))
	}
	rows := int64(1)
	for _, d := range idx.Shape[:rank-1] {
		v, ok := ir.ConstValue(d)
		if !ok {
			return nil, fmt.Errorf("tensor.gather: the index's leading dimensions must be static to size the result tile, given %s", ir.DefaultFormat.Dims(idx.Shape))
		}
		rows *= v
	}
	pos := c.Pos
	var out []ir.Stmt
	bind := func(out *[]ir.Stmt, name string, op *ir.OpDef, args []ir.Expr, kw ir.Kwargs) (*ir.Var, error) {
		return t.emit(out, name, op, args, kw, pos)
	}
	// The operands' tiles: on chip already, or (rank above 2) loaded whole
	// and seen as 2-D with the leading dimensions collapsed into rows, as
	// upstream's lowering does; a rank-2 GM operand is loaded row by row.
	srcTiles := [2]ir.Expr{t.tileOf(c.Args[0]), t.tileOf(c.Args[1])}
	cols := []ir.Expr{in.Shape[rank-1], idx.Shape[rank-1]}
	if rank > 2 {
		for i, e := range c.Args[:2] {
			whole, err := t.tileIn(e, ir.MemVec, &out)
			if err != nil {
				return nil, err
			}
			shape := []ir.TensorLike{in, idx}[i].Shape
			lead := int64(1)
			for _, d := range shape[:rank-1] {
				v, ok := ir.ConstValue(d)
				if !ok {
					return nil, fmt.Errorf("tensor.gather: the %s's leading dimensions must be static to collapse them, given %s", []string{"input", "index"}[i], ir.DefaultFormat.Dims(shape))
				}
				lead *= v
			}
			flat, err := bind(&out, []string{"gather_inp_2d", "gather_idx_2d"}[i], ir.TileReshape, []ir.Expr{whole, &ir.MakeTuple{Elems: []ir.Expr{ir.Int(lead), cols[i]}}}, nil)
			if err != nil {
				return nil, err
			}
			srcTiles[i] = flat
		}
	}
	vec := func(dt ir.DataType) ir.Kwargs {
		return ir.Kwargs{{Key: "dtype", Value: dt}, {Key: "target_memory", Value: ir.MemVec}}
	}
	k := idx.Shape[rank-1]
	init, err := bind(&out, "gather_acc_init", ir.TileCreate, []ir.Expr{&ir.MakeTuple{Elems: []ir.Expr{ir.Int(rows), k}}}, vec(in.DType))
	if err != nil {
		return nil, err
	}
	lv := ir.NewVar(t.names.fresh("gather_lv"), ir.Scalar(ir.INDEX), pos)
	ia := ir.NewIterArg(t.names.fresh("gather_ia"), init.Type(), init, pos)
	var body []ir.Stmt
	at := &ir.MakeTuple{Elems: []ir.Expr{lv, ir.Int(0)}}
	// A row of a GM operand is loaded; a row of one already on chip is a
	// view of its tile (a tile.slice, which leaves the source as it is).
	row := func(name string, i int) (*ir.Var, error) {
		shape := &ir.MakeTuple{Elems: []ir.Expr{ir.Int(1), cols[i]}}
		if tile := srcTiles[i]; tile != nil {
			return bind(&body, name, ir.TileSlice, []ir.Expr{tile, shape, at}, nil)
		}
		return bind(&body, name, ir.TileLoad, []ir.Expr{c.Args[i], at, shape, shape}, ir.Kwargs{{Key: "target_memory", Value: ir.MemVec}})
	}
	inRow, err := row("gather_inp_row", 0)
	if err != nil {
		return nil, err
	}
	idxRow, err := row("gather_idx_row", 1)
	if err != nil {
		return nil, err
	}
	tmp, err := bind(&body, "gather_row_tmp", ir.TileCreate, []ir.Expr{&ir.MakeTuple{Elems: []ir.Expr{ir.Int(1), k}}}, vec(ir.INT32))
	if err != nil {
		return nil, err
	}
	got, err := bind(&body, "gather_row", ir.TileGather, []ir.Expr{inRow, idxRow, tmp}, nil)
	if err != nil {
		return nil, err
	}
	acc, err := bind(&body, "gather_asmbl", ir.TileAssemble, []ir.Expr{ia, got, at}, nil)
	if err != nil {
		return nil, err
	}
	body = append(body, &ir.YieldStmt{StmtBase: ir.StmtBase{Pos: pos}, Values: []ir.Expr{acc}})
	name := a.Var.Name
	if rank > 2 {
		name = t.names.fresh("gather_out_2d")
	}
	rv := ir.NewVar(name, init.Type(), a.Var.Pos)
	loop := &ir.ForStmt{StmtBase: ir.StmtBase{Pos: pos}, LoopVar: lv, Start: ir.Int(0), Stop: ir.Int(rows), Step: ir.Int(1),
		IterArgs: []*ir.IterArg{ia}, Body: &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: pos}, Stmts: body}, ReturnVars: []*ir.Var{rv}, Kind: ir.Sequential}
	out = append(out, loop)
	if rank == 2 {
		t.setTile(a.Var, rv)
		return out, nil
	}
	// The result seen in the index's shape again.
	call, err := ir.TileReshape.NewCall([]ir.Expr{rv, &ir.MakeTuple{Elems: idx.Shape}}, nil, pos)
	if err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, out), nil
}

// scatter lowers tensor.scatter (rank 2, the last dimension) to one
// tile.scatter into the input's tile: the column indices become flat ones
// by adding each row's offset (a tile.ci of the rows, reshaped to a
// column, times the column count, added along each row), as upstream's
// conversion builds them. Upstream then blends the scattered values over
// the input through a scatter-built mask; tile.scatter itself passes the
// other elements through, so ptorepl scatters into the input directly.
func (t *tileConv) scatter(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	a, out, ops, err := t.keptOperands(s, c, len(c.Args))
	if err != nil {
		return nil, err
	}
	in, ok1 := ops[0].Type().(*ir.TileType)
	idx, ok2 := ops[1].Type().(*ir.TileType)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("tensor.scatter: the input and index must become tiles")
	}
	rows, okR := ir.ConstValue(idx.Shape[0])
	cols, okC := ir.ConstValue(in.Shape[1])
	if !okR || !okC {
		return nil, fmt.Errorf("tensor.scatter: the index's rows and the input's columns must be static")
	}
	pos := c.Pos
	bind := func(name string, op *ir.OpDef, args []ir.Expr, kw ir.Kwargs) (*ir.Var, error) {
		return t.emit(&out, name, op, args, kw, pos)
	}
	flat := ops[1]
	if rows > 1 {
		dt := idx.DType
		ci, err := bind("scatter_ci_rows", ir.TileCi, []ir.Expr{&ir.ConstInt{Value: 0, DType: dt}, ir.Dims(1, rows)},
			ir.Kwargs{{Key: "dtype", Value: dt}, {Key: "descending", Value: false}})
		if err != nil {
			return nil, err
		}
		ar, err := bind("scatter_row_arange", ir.TileReshape, []ir.Expr{ci, ir.Dims(rows, 1)}, nil)
		if err != nil {
			return nil, err
		}
		base, err := bind("scatter_row_base", ir.TileMuls, []ir.Expr{ar, &ir.ConstInt{Value: cols, DType: dt}}, nil)
		if err != nil {
			return nil, err
		}
		if flat, err = bind("scatter_flat_idx", ir.TileRowExpandAdd, []ir.Expr{ops[1], base}, nil); err != nil {
			return nil, err
		}
	}
	call, err := ir.TileScatter.NewCall([]ir.Expr{ops[0], ops[2], flat}, nil, pos)
	if err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, out), nil
}

// emit appends `<fresh name> = op(args, kw)` to out and returns the variable.
func (t *tileConv) emit(out *[]ir.Stmt, name string, op *ir.OpDef, args []ir.Expr, kw ir.Kwargs, pos ir.Span) (*ir.Var, error) {
	call, err := op.NewCall(args, kw, pos)
	if err != nil {
		return nil, err
	}
	v := ir.NewVar(t.names.fresh(name), call.Type(), pos)
	*out = append(*out, assign(v, call))
	return v, nil
}

// convertedTo binds a's variable, now a tile, to call: later uses of it
// read the tile.
func (t *tileConv) convertedTo(a *ir.AssignStmt, call *ir.Call, out []ir.Stmt) []ir.Stmt {
	nv := t.tileVar(a.Var, call.Type())
	t.setTile(a.Var, nv)
	return append(out, assign(nv, call))
}

// tileVar is the tile variable a converted assignment to v binds. A name
// assigned in both branches of an if is one variable when the program is
// not in SSA form; its tile is then one variable too, as upstream's
// conversion keeps one tile per tensor variable.
func (t *tileConv) tileVar(v *ir.Var, typ ir.Type) *ir.Var {
	if old, ok := t.tiles[v].(*ir.Var); ok && t.converted[v] && ir.StructuralEqual(old.Type(), typ, false) {
		return old
	}
	return ir.NewVar(t.names.fresh(tileName(v.Name)), typ, v.Pos)
}

// scatterMask lowers tensor.scatter_mask(input, dst) to
// tile.scatter_mask(dst, input) on their Vec tiles (the tile op takes the
// destination first, as upstream's does).
func (t *tileConv) scatterMask(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	a, out, ops, err := t.keptOperands(s, c, 2)
	if err != nil {
		return nil, err
	}
	call, err := ir.TileScatterMask.NewCall([]ir.Expr{ops[1], ops[0]}, c.Kwargs, c.Pos)
	if err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, out), nil
}

// cmp lowers tensor.cmp(lhs, rhs) as upstream's conversion does: a packed
// mask from tile.cmp (tile.cmps for a scalar rhs), two tile.fulls of 1 and
// 0 in lhs's dtype, and tile.sel between them through TSEL's [1, 32] UINT8
// scratch.
func (t *tileConv) cmp(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	a, out, ops, err := t.keptOperands(s, c, 1)
	if err != nil {
		return nil, err
	}
	lhs := ops[0]
	lt, ok := lhs.Type().(*ir.TileType)
	if !ok {
		return nil, fmt.Errorf("tensor.cmp: lhs %s is not a tile after loading", ir.Describe(lhs))
	}
	op, rhs := ir.TileCmps, c.Args[1]
	if _, scalar := rhs.Type().(*ir.ScalarType); !scalar {
		op = ir.TileCmp
		if rhs, err = t.vecOf(rhs, &out); err != nil {
			return nil, err
		}
	}
	mask, err := t.emit(&out, "cmp_mask", op, []ir.Expr{lhs, rhs}, c.Kwargs, c.Pos)
	if err != nil {
		return nil, err
	}
	var consts [2]ir.Expr
	for i, v := range []int64{1, 0} {
		val := ir.Expr(&ir.ConstInt{Value: v, DType: lt.DType, Pos: c.Pos})
		if lt.DType.IsFloat() {
			val = &ir.ConstFloat{Value: float64(v), DType: lt.DType, Pos: c.Pos}
		}
		if consts[i], err = t.emit(&out, []string{"cmp_one", "cmp_zero"}[i], ir.TileFull, []ir.Expr{&ir.MakeTuple{Elems: lt.Shape}, val},
			ir.Kwargs{{Key: "dtype", Value: lt.DType}}, c.Pos); err != nil {
			return nil, err
		}
	}
	tmp, err := t.emit(&out, "cmp_tmp", ir.TileCreate, []ir.Expr{ir.Dims(1, 32)},
		ir.Kwargs{{Key: "dtype", Value: ir.UINT8}, {Key: "target_memory", Value: ir.MemVec}}, c.Pos)
	if err != nil {
		return nil, err
	}
	call, err := ir.TileSel.NewCall([]ir.Expr{mask, consts[0], consts[1], tmp}, nil, c.Pos)
	if err != nil {
		return nil, err
	}
	return t.convertedTo(a, call, out), nil
}

// scatterUpdate lowers scatter_update(input, index, src) (either form) as
// upstream's conversion does: flat element indices index.flat[k]*d + c
// over an [n, d] template (tile.ci of the columns, tile.col_expand down n
// rows, the row numbers reshaped to a column, tile.muls by d,
// tile.row_expand_add), narrowed to INT16 for a 2-byte input, then
// tile.scatter of src into the input at them (the other rows pass
// through).
func (t *tileConv) scatterUpdate(s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	a, out, ops, err := t.keptOperands(s, c, len(c.Args))
	if err != nil {
		return nil, err
	}
	in, ok1 := ops[0].Type().(*ir.TileType)
	idx, ok2 := ops[1].Type().(*ir.TileType)
	src, ok3 := ops[2].Type().(*ir.TileType)
	if !ok1 || !ok2 || !ok3 {
		return nil, fmt.Errorf("%s: the input, index and src must become tiles", c.Op.Name)
	}
	n, okN := ir.ConstValue(src.Shape[0])
	d, okD := ir.ConstValue(in.Shape[1])
	if !okN || !okD {
		return nil, fmt.Errorf("%s: the src rows and the input columns must be static", c.Op.Name)
	}
	pos := c.Pos
	bind := func(name string, op *ir.OpDef, args []ir.Expr, kw ir.Kwargs) (*ir.Var, error) {
		return t.emit(&out, name, op, args, kw, pos)
	}
	i32 := func(v int64) ir.Expr { return &ir.ConstInt{Value: v, DType: ir.INT32} }
	col, err := bind("su_col", ir.TileCi, []ir.Expr{i32(0), ir.Dims(1, d)}, ir.Kwargs{{Key: "dtype", Value: ir.INT32}, {Key: "descending", Value: false}})
	if err != nil {
		return nil, err
	}
	tmpl, err := bind("su_tmpl", ir.TileFull, []ir.Expr{ir.Dims(n, d), i32(0)}, ir.Kwargs{{Key: "dtype", Value: ir.INT32}})
	if err != nil {
		return nil, err
	}
	colND, err := bind("su_col_nd", ir.TileColExpand, []ir.Expr{tmpl, col}, nil)
	if err != nil {
		return nil, err
	}
	rowsIdx := ops[1]
	if idx.DType != ir.INT32 {
		if rowsIdx, err = bind("su_idx_i32", ir.TileCast, []ir.Expr{rowsIdx}, ir.Kwargs{{Key: "target_type", Value: ir.INT32}, {Key: "mode", Value: ir.CastModes["none"]}}); err != nil {
			return nil, err
		}
	}
	flatRows, err := bind("su_idx_flat", ir.TileReshape, []ir.Expr{rowsIdx, ir.Dims(n, 1)}, nil)
	if err != nil {
		return nil, err
	}
	base, err := bind("su_row_base", ir.TileMuls, []ir.Expr{flatRows, i32(d)}, nil)
	if err != nil {
		return nil, err
	}
	flat, err := bind("su_flat_idx", ir.TileRowExpandAdd, []ir.Expr{colND, base}, nil)
	if err != nil {
		return nil, err
	}
	if in.DType.Bits() == 16 {
		if flat, err = bind("su_flat_idx_cast", ir.TileCast, []ir.Expr{flat}, ir.Kwargs{{Key: "target_type", Value: ir.INT16}, {Key: "mode", Value: ir.CastModes["none"]}}); err != nil {
			return nil, err
		}
	}
	call, err := ir.TileScatter.NewCall([]ir.Expr{ops[0], ops[2], flat}, nil, pos)
	if err != nil {
		return nil, err
	}
	if c.Op == ir.TileScatterUpdate {
		// Already a tile: the variable, and so the call, keep their type.
		call.T = a.Var.Type()
		return append(out, &ir.AssignStmt{StmtBase: a.StmtBase, Var: a.Var, Value: call}), nil
	}
	return t.convertedTo(a, call, out), nil
}

// keptOperands is the start of a lowering whose op computes a value: the
// assignment that keeps it (an error naming the op when there is none),
// and the first n arguments as Vec tiles, with the statements that load
// them.
func (t *tileConv) keptOperands(s ir.Stmt, c *ir.Call, n int) (*ir.AssignStmt, []ir.Stmt, []ir.Expr, error) {
	a, ok := s.(*ir.AssignStmt)
	if !ok {
		return nil, nil, nil, fmt.Errorf("a %s whose result is not kept computes nothing; assign it", c.Op.Name)
	}
	var out []ir.Stmt
	ops := make([]ir.Expr, n)
	for i := range ops {
		y, err := t.vecOf(c.Args[i], &out)
		if err != nil {
			return nil, nil, nil, err
		}
		ops[i] = y
	}
	return a, out, ops, nil
}

// onChipAccess is the rule of tensor.read / tensor.write: on a value the
// kernel has on chip (a converted result, its only copy; or an input
// parameter loaded at its top, never written, so the tile is what GM
// holds) it becomes tileOp (tile.read / tile.write) of the tile, as
// upstream's conversion does for a local tensor; a plain GM tensor keeps
// the scalar GM access. A result that rebinds its argument (tileOp's
// ResultAlias: a write's) rebinds the tile.
func onChipAccess(tileOp *ir.OpDef) func(t *tileConv, s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
	return func(t *tileConv, s ir.Stmt, c *ir.Call) ([]ir.Stmt, error) {
		tile := t.tileOf(c.Args[0])
		if v, ok := ir.VarOf(c.Args[0]); ok && tile == nil {
			if tv, loaded := t.entry[v]; loaded && t.readOnly(v) {
				tile = tv
			}
		}
		if tile == nil {
			return t.fixUses(s)
		}
		call, err := tileOp.NewCall(append([]ir.Expr{tile}, c.Args[1:]...), c.Kwargs, c.Pos)
		if err != nil {
			return nil, err
		}
		a, ok := s.(*ir.AssignStmt)
		if !ok || tileOp.ResultAlias == "" {
			return []ir.Stmt{replaceCall(s, c, call)}, nil
		}
		v := t.tileVar(a.Var, call.Type())
		t.tiles[a.Var], t.converted[a.Var] = v, true
		return []ir.Stmt{&ir.AssignStmt{StmtBase: a.StmtBase, Var: v, Value: call}}, nil
	}
}

// readOnly reports whether parameter v of the kernel is an input.
func (t *tileConv) readOnly(v *ir.Var) bool {
	for i, p := range t.fn.Params {
		if p == v {
			return t.fn.Direction(i) == ir.In
		}
	}
	return false
}
