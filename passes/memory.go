package passes

import (
	"fmt"
	"slices"
	"sort"

	"github.com/ptorepl/ptorepl/ir"
)

// InferTileMemorySpace gives every InCore tile whose memory space is still
// unresolved the Vec space, and the layout its shape has there: on the
// vector core every tile this project builds (loads, remote loads, staging
// tiles, reductions) lives there. A tile.create a loop carries into
// another memory (an accumulator matmul_acc writes in Acc) is created
// there instead (carriedCreates).
func InferTileMemorySpace(p *ir.Program) (*ir.Program, error) {
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		if fn.Kind != ir.InCore {
			return fn, nil
		}
		fn = retypeFunction(fn, func(_ *ir.Var, t ir.Type) (ir.Type, bool) {
			tt, ok := t.(*ir.TileType)
			if !ok || tt.Memory != ir.MemNone {
				return nil, false
			}
			return tt.InMemory(ir.MemVec), true
		})
		fn, err := carriedCreates(fn)
		if err != nil {
			return nil, err
		}
		if err := accumulatorsInAcc(fn); err != nil {
			return nil, err
		}
		return moveOperands(fn)
	})
}

// accumulatorsInAcc refuses an op that accumulates into a Vec tile this
// pass could not place in Acc (a create it carries or is given is placed;
// a computed tile, a pl.full, is not): the cube accumulates in Acc only.
func accumulatorsInAcc(fn *ir.Function) error {
	var err error
	ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
		c := ir.StmtCall(s)
		if err != nil || c == nil || c.Op == nil || c.Op.AliasedArg() < 0 {
			return
		}
		res, ok := c.Type().(*ir.TileType)
		acc, isTile := c.Args[c.Op.AliasedArg()].Type().(*ir.TileType)
		if ok && isTile && res.Memory == ir.MemAcc && acc.Memory == ir.MemVec {
			err = &ir.TypeError{Op: c.Op.Name, Arg: c.Op.ArgName(c.Op.AliasedArg()), Pos: c.Pos,
				Expected: "an accumulator in Acc memory (a pl.tile.create, which InferTileMemorySpace places there, or a tile created with target_memory=pl.Mem.Acc)",
				Given:    acc.String()}
		}
	})
	return err
}

// carriedCreates back-propagates the memory a loop body yields a carried
// tile in to the loop's iter-arg, its result and its init, when the init
// is a tile.create: `acc0 = pl.tile.create([16, 16], dtype=pl.FP32)` is in
// Vec (the DSL's default), and a body accumulating into it with
// tile.matmul_acc yields Acc, so acc0 is created in Acc (its target_memory
// kwarg rewritten), as upstream's InferTileMemorySpace does; so is a
// create an op accumulates into directly (its result the create's storage,
// OpDef.ResultAlias), upstream's demand reaching a retargetable producer.
// The statements are looked at again until nothing moves, so an outer loop
// carrying an inner one's result follows it.
func carriedCreates(fn *ir.Function) (*ir.Function, error) {
	creates := map[*ir.Var]bool{} // results of ops whose target_memory may move
	ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
		if a, ok := s.(*ir.AssignStmt); ok {
			if c, ok := a.Value.(*ir.Call); ok && c.Op != nil && c.Op.RetargetableMemory {
				creates[a.Var] = true
			}
		}
	})
	to := map[*ir.Var]ir.MemorySpace{}
	memOf := func(e ir.Expr) ir.MemorySpace {
		if v, ok := ir.VarOf(e); ok {
			if m, moved := to[v]; moved {
				return m
			}
		}
		if tt, ok := e.Type().(*ir.TileType); ok {
			return tt.Memory
		}
		return ir.MemNone
	}
	for changed := true; changed; {
		changed = false
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			// An op whose result is its argument's storage (a matmul_acc's
			// accumulator) places a create it is given where it writes.
			if a, ok := s.(*ir.AssignStmt); ok {
				if c, ok := a.Value.(*ir.Call); ok && c.Op != nil && c.Op.AliasedArg() >= 0 {
					src, isVar := ir.VarOf(c.Args[c.Op.AliasedArg()])
					if _, placed := to[src]; isVar && creates[src] && !placed {
						if m := memOf(a.Var); m != ir.MemNone && m != memOf(src) {
							to[src] = m
							changed = true
						}
					}
				}
			}
			ias, rvs := ir.LoopCarried(s)
			y, ok := ir.LastYield(ir.LoopBody(s))
			if len(ias) == 0 || !ok {
				return
			}
			for k, ia := range ias {
				init, isVar := ir.VarOf(ia.Init)
				if _, placed := to[init]; !isVar || !creates[init] || placed || k >= len(y.Values) || k >= len(rvs) {
					continue // a create is placed once, so two loops cannot pull it back and forth
				}
				if m := memOf(y.Values[k]); m != ir.MemNone && m != memOf(ia.Init) {
					to[init], to[&ia.Var], to[rvs[k]] = m, m, m
					changed = true
				}
			}
		})
	}
	if len(to) == 0 {
		return fn, nil
	}
	g := retypeFunction(fn, func(v *ir.Var, t ir.Type) (ir.Type, bool) {
		m, ok := to[v]
		tt, tile := t.(*ir.TileType)
		if !ok || !tile || tt.Memory == m {
			return nil, false
		}
		return tt.InMemory(m), true
	})
	// The retargeted ops say where they create.
	body, err := mapBlock(g.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
		a, ok := s.(*ir.AssignStmt)
		if !ok {
			return []ir.Stmt{s}, nil
		}
		c, ok := a.Value.(*ir.Call)
		if !ok || c.Op == nil || !c.Op.RetargetableMemory {
			return []ir.Stmt{s}, nil
		}
		m := a.Var.Type().(*ir.TileType).Memory
		if cur, _ := c.Kwargs.Get("target_memory"); cur == m {
			return []ir.Stmt{s}, nil
		}
		nc, err := c.Op.NewCall(c.Args, c.Kwargs.With("target_memory", m), c.Pos)
		if err != nil {
			return nil, err
		}
		return []ir.Stmt{&ir.AssignStmt{StmtBase: a.StmtBase, Var: a.Var, Value: nc}}, nil
	})
	if err != nil {
		return nil, err
	}
	g.Body = body
	return g, nil
}

// moveOperands inserts, before each op that reads an operand from another
// on-chip memory than the one it is in (a matmul's Left and Right operands
// given in Mat, a vector op's given in Acc), `<x>_<Memory> =
// tile.move(x, target_memory=...)`, and
// passes the moved tile: upstream's InferTileMemorySpace does the same for
// its ops' input memory constraints.
func moveOperands(fn *ir.Function) (*ir.Function, error) {
	names := newNamer(fn)
	body, err := mapBlock(fn.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
		c := ir.StmtCall(s)
		if c == nil || c.Op == nil {
			return []ir.Stmt{s}, nil
		}
		var moves []ir.Stmt
		args := c.Args
		for i, a := range c.Args {
			spec := c.Op.ArgSpecAt(i)
			want := spec.Memory
			tt, ok := a.Type().(*ir.TileType)
			if !ok || slices.Contains(spec.AlsoIn, tt.Memory) || !movedFor(tt.Memory, want) {
				continue
			}
			base := "x"
			if v, ok := ir.VarOf(a); ok {
				base = v.Name
			}
			// A cube result read by the cube goes back to Mat first (the
			// fixpipe writeback), and a vector result crosses to Mat (the
			// V2C move), then on to the operand's memory.
			hops := []ir.MemorySpace{want}
			if (tt.Memory == ir.MemAcc || tt.Memory == ir.MemVec) && want != ir.MemVec {
				hops = []ir.MemorySpace{ir.MemMat, want}
			}
			if len(moves) == 0 {
				args = append([]ir.Expr(nil), c.Args...)
			}
			for _, to := range hops {
				kw := ir.Kwargs{{Key: "target_memory", Value: to}}
				if from := a.Type().(*ir.TileType).Memory; from == ir.MemAcc && to == ir.MemVec {
					// The cube-to-vector path lands the data ND in Vec,
					// whatever its NZ form in Acc: upstream's move says so.
					kw = append(kw, ir.Kwarg{Key: "blayout", Value: ir.RowMajor}, ir.Kwarg{Key: "slayout", Value: ir.NoneBox})
				}
				move, err := ir.TileMove.NewCall([]ir.Expr{a}, kw, c.Pos)
				if err != nil {
					return nil, err
				}
				mv := ir.NewVar(names.fresh(base+"_"+to.Name()), move.Type(), c.Pos)
				moves = append(moves, assign(mv, move))
				a = mv
			}
			args[i] = a
		}
		if len(moves) == 0 {
			return []ir.Stmt{s}, nil
		}
		call, err := c.Op.NewCall(args, c.Kwargs, c.Pos)
		if err != nil {
			return nil, err
		}
		switch s.(type) {
		case *ir.AssignStmt, *ir.EvalStmt:
			return append(moves, replaceCall(s, c, call)), nil
		}
		return []ir.Stmt{s}, nil
	})
	if err != nil || body == fn.Body {
		return fn, err
	}
	g := fn.Clone()
	g.Body = body
	return g, nil
}

// movedFor reports whether a tile in memory from is moved before an op
// that reads it from want: a cube operand from Mat to Left, Right or
// Bias, a Mat tile to Vec for a store, a matmul's result in Acc to Vec
// for a vector op or (through Mat) to a cube operand's memory, a vector
// result (through Mat) to a cube operand's memory.
func movedFor(from, want ir.MemorySpace) bool {
	switch from {
	case ir.MemMat:
		return want == ir.MemLeft || want == ir.MemRight || want == ir.MemBias || want == ir.MemVec
	case ir.MemVec:
		return want == ir.MemLeft || want == ir.MemRight || want == ir.MemBias
	case ir.MemAcc:
		return want == ir.MemVec || want == ir.MemLeft || want == ir.MemRight || want == ir.MemBias
	}
	return false
}

// onCore reports a function whose tiles live in a core's on-chip memory:
// an InCore kernel, or the cube (AIC) or vector (AIV) function of a Group.
func onCore(fn *ir.Function) bool {
	return fn.Kind == ir.InCore || fn.Kind == ir.AIC || fn.Kind == ir.AIV
}

// InitMemRef attaches a MemRef to every shaped value of every function, as
// upstream's InitMemRef (a pass over all functions) does: a tensor gets a
// DDR MemRef of its own (mem_ddr_<k>; 0 bytes when its shape is dynamic),
// an on-chip tile one in its memory (mem_vec_<k>, one name counter across
// spaces) with one tile.alloc per tile buffer prepended to the body. A view
// or in-place result (its op's MemRefFrom, or a plain tile rebinding)
// shares its source's buffer, a slice at its byte offset. Addresses stay
// at upstream's placeholder 0 until AllocateMemoryAddr.
func InitMemRef(p *ir.Program) (*ir.Program, error) {
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		if !hasDeclared(fn) && hasMemRefs(fn) {
			return fn, partialMemRefs(fn)
		}
		if onCore(fn) {
			var err error
			if fn, err = keepCarried(fn); err != nil {
				return nil, err
			}
		}
		return initMemRef(fn)
	})
}

// hasMemRefs makes InitMemRef idempotent: a function whose tiles already
// carry MemRefs (or, without tiles, whose tensors do) was initialised
// before. Tensor MemRefs alone, on a kernel whose tiles have none, are a
// program's own annotations: the kernel is planned.
func hasMemRefs(fn *ir.Function) bool {
	tiles, tileRefs, tensorRefs := false, false, false
	forEachDef(fn, func(v *ir.Var) {
		m := memRefOf(v.Type())
		if _, ok := v.Type().(*ir.TileType); ok {
			tiles = true
			tileRefs = tileRefs || m != nil
			return
		}
		tensorRefs = tensorRefs || m != nil
	})
	if tiles {
		return tileRefs
	}
	return tensorRefs
}

// poppedTiles are the tiles a cross-core pipe hands fn (a tpop's result):
// they live in the pipe's ring, not in storage the planner gives out.
func poppedTiles(fn *ir.Function) map[*ir.Var]bool {
	out := map[*ir.Var]bool{}
	ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
		if a, ok := s.(*ir.AssignStmt); ok {
			if c, ok := a.Value.(*ir.Call); ok && c.Op != nil && c.Op.PipeRole == ir.PipePop {
				out[a.Var] = true
			}
		}
	})
	return out
}

// hasDeclared reports a tile whose MemRef the program declares without an
// address (pl.MemRef("ub", slots=2)[i % 2], or NAME = pl.MemRef()):
// InitMemRef sizes it and plans the other tiles around it.
func hasDeclared(fn *ir.Function) bool {
	found := false
	forEachDef(fn, func(v *ir.Var) {
		if tt, ok := v.Type().(*ir.TileType); ok && tt.MemRef != nil && tt.MemRef.Pinned {
			found = true
		}
	})
	return found
}

// partialMemRefs rejects a kernel where some tiles carry MemRefs (the
// program's own, such as upstream's pl.MemRef("ub", slots=2)[i % 2]) and
// others none: InitMemRef either plans a whole kernel, around the
// allocations it declares, or keeps one already planned.
func partialMemRefs(fn *ir.Function) error {
	var with, without *ir.Var
	popped := poppedTiles(fn)
	forEachDef(fn, func(v *ir.Var) {
		if tt, ok := v.Type().(*ir.TileType); ok && !popped[v] {
			if tt.MemRef != nil && with == nil {
				with = v
			}
			if tt.MemRef == nil && without == nil {
				without = v
			}
		}
	})
	if with == nil || without == nil {
		return nil
	}
	return fmt.Errorf("%s: tile %s has no MemRef while %s (%s) carries one the program declares; "+
		"ptorepl plans a kernel's buffers whole and cannot yet place the other tiles around declared ones: declare a MemRef on every tile, or on none",
		without.Pos, without.Name, with.Name, with.Pos)
}

// forEachDef visits every variable fn defines: parameters, assignment
// targets, iter-args and loop/if return variables.
func forEachDef(fn *ir.Function, f func(v *ir.Var)) {
	for _, p := range fn.Params {
		f(p)
	}
	ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
		for _, v := range stmtDefs(s) {
			f(v)
		}
	})
}

func byteSize(shape []ir.Expr, dt ir.DataType) (uint64, bool) {
	n, ok := ir.NumElements(shape)
	if !ok || dt.Bytes() <= 0 {
		return 0, false
	}
	return uint64(n) * uint64(dt.Bytes()), true
}

// memRefPlan is InitMemRef's walk over one function, in upstream's order:
// the parameters, then the statements as they come, a loop's iter-args
// before its body and its return values (and an if's) after. Each new
// MemRef takes the function's next number, also one a loop's or an if's
// tile result then drops for the buffer it shares, as upstream numbers
// them.
type memRefPlan struct {
	memOf    map[*ir.Var]*ir.MemRef
	declared map[*ir.Var]*ir.MemRef
	declSize map[*ir.Var]uint64 // each declared allocation's size, slots included
	// bufferLess are tiles without a buffer of their own: a cross-core
	// pipe's tiles (they live in its ring) and views of them.
	bufferLess map[*ir.Var]bool
	next       int
	allocs     []ir.Stmt // one tile.alloc per on-chip base, in first-use order
	allocated  map[*ir.Var]bool
}

func initMemRef(fn *ir.Function) (*ir.Function, error) {
	declared, declSize, err := declaredAllocations(fn)
	if err != nil {
		return nil, err
	}
	m := &memRefPlan{memOf: map[*ir.Var]*ir.MemRef{}, declared: declared, declSize: declSize,
		bufferLess: poppedTiles(fn), allocated: map[*ir.Var]bool{}}
	for _, p := range fn.Params {
		if err := m.own(p); err != nil {
			return nil, err
		}
	}
	if err := m.stmt(fn.Body); err != nil {
		return nil, err
	}
	if len(m.memOf) == 0 {
		return fn, nil
	}
	g := retypeFunction(fn, func(v *ir.Var, t ir.Type) (ir.Type, bool) {
		mr, ok := m.memOf[v]
		if !ok {
			return nil, false
		}
		return withMemRef(t, mr)
	})
	if len(m.allocs) > 0 {
		g = g.Clone()
		g.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: fn.Body.Span()}, Stmts: append(m.allocs, ir.Flatten(g.Body)...)}
	}
	return g, nil
}

// fresh makes a new MemRef for v, taking the next number (nil: v is not a
// shaped value).
func (m *memRefPlan) fresh(v *ir.Var) (*ir.MemRef, error) {
	shape, dt, ok := ir.ShapeOf(v.Type())
	if !ok {
		return nil, nil
	}
	space := ir.MemDDR
	tt, isTile := v.Type().(*ir.TileType)
	if isTile {
		if space = tt.Memory; space == ir.MemNone {
			return nil, fmt.Errorf("tile %s has no memory space: run InferTileMemorySpace first", v.Name)
		}
	}
	size, ok := byteSize(shape, dt)
	if !ok && isTile {
		return nil, fmt.Errorf("tile %s has shape %s: on-chip tiles need a static shape (use static dimensions, or a static shape with a valid_shape)", v.Name, ir.ShapeString(shape))
	}
	base := ir.NewVar(fmt.Sprintf("mem_%s_%d", space.Lower(), m.next), ir.PtrT, v.Pos)
	m.next++
	return ir.NewMemRef(base, ir.Int(0), size, v.Pos), nil
}

// own gives v a MemRef of its own: its declared allocation's, or a new one.
func (m *memRefPlan) own(v *ir.Var) error {
	if m.bufferLess[v] {
		return nil
	}
	if d, ok := m.declared[v]; ok {
		m.set(v, d)
		return nil
	}
	mr, err := m.fresh(v)
	if mr != nil {
		m.set(v, mr)
	}
	return err
}

// set binds v to mr and, the first time an on-chip tile uses mr's base,
// allocates the base.
func (m *memRefPlan) set(v *ir.Var, mr *ir.MemRef) {
	m.memOf[v] = mr
	tt, ok := v.Type().(*ir.TileType)
	if !ok || tt.Memory == ir.MemDDR || m.allocated[mr.Base] {
		return
	}
	m.allocated[mr.Base] = true
	size := int64(mr.Size)
	if n, ok := m.declSize[mr.Base]; ok {
		size = int64(n)
	}
	alloc := ir.TileAlloc.MustCall([]ir.Expr{ir.AllocOf(tt.Memory), ir.Int(size)}, nil, mr.Base.Pos)
	m.allocs = append(m.allocs, assign(mr.Base, alloc))
}

// share binds v to the buffer of src (a view's or an in-place op's source,
// c its call, nil for a plain rebinding) and reports whether src had one.
// A slice sits at its byte offset in the source, as large as the span it
// can touch; anything else is the source's MemRef itself.
func (m *memRefPlan) share(v *ir.Var, src ir.Expr, c *ir.Call) bool {
	sv, ok := ir.VarOf(src)
	if !ok {
		return false
	}
	parent := m.memOf[sv]
	if parent == nil {
		return false
	}
	off, size := ir.Expr(nil), parent.Size
	if c != nil && (c.Op == ir.TileSlice || c.Op == ir.TensorSlice) {
		off = sliceByteOffset(c, sv.Type())
		if n, ok := sliceSpan(c, sv.Type(), v.Type()); ok {
			size = n
		}
	}
	if k, ok := ir.ConstValue(off); (off == nil || ok && k == 0) && size == parent.Size {
		m.set(v, parent)
		return true
	}
	n := ir.NewMemRef(parent.Base, addIndex(parent.ByteOffset, off), size, v.Pos)
	m.set(v, n)
	return true
}

func (m *memRefPlan) stmt(s ir.Stmt) error {
	switch x := s.(type) {
	case *ir.SeqStmts:
		for _, c := range x.Stmts {
			if err := m.stmt(c); err != nil {
				return err
			}
		}
	case *ir.ScopeStmt:
		return m.stmt(x.Body)
	case *ir.AssignStmt:
		return m.assign(x)
	case *ir.IfStmt:
		if err := m.stmt(x.Then); err != nil {
			return err
		}
		if err := m.stmt(x.Else); err != nil {
			return err
		}
		// A tile result shares the buffer of the value the then branch
		// yields (else the else branch's).
		return m.results(x.ReturnVars, func(k int) *ir.MemRef {
			for _, b := range []ir.Stmt{x.Then, x.Else} {
				if y, ok := ir.LastYield(b); ok && k < len(y.Values) {
					if v, ok := ir.VarOf(y.Values[k]); ok {
						return m.memOf[v]
					}
				}
			}
			return nil
		})
	case *ir.ForStmt, *ir.WhileStmt:
		ias, rvs := ir.LoopCarried(x)
		for _, ia := range ias {
			// An iter-arg is its init's buffer.
			if v, ok := ir.VarOf(ia.Init); ok && m.memOf[v] != nil {
				m.memOf[&ia.Var] = m.memOf[v]
			}
		}
		if err := m.stmt(ir.LoopBody(x)); err != nil {
			return err
		}
		// The loop's accumulator lives in one place: a tile result shares
		// its iter-arg's (so its init's) buffer. (Upstream's pass leaves a
		// while loop's results buffers of their own, which its printed
		// form, `a, b = pl.yield_(x, y)`, cannot carry; ptorepl treats
		// both loops alike.)
		return m.results(rvs, func(k int) *ir.MemRef {
			if k < len(ias) {
				return m.memOf[&ias[k].Var]
			}
			return nil
		})
	}
	return nil
}

// results gives a loop's or an if's return values MemRefs: each takes a
// new number, and a tile then shares the buffer shared(k) names instead.
func (m *memRefPlan) results(rvs []*ir.Var, shared func(k int) *ir.MemRef) error {
	for k, rv := range rvs {
		mr, err := m.fresh(rv)
		if err != nil {
			return err
		}
		if _, tile := rv.Type().(*ir.TileType); tile && shared != nil {
			if sh := shared(k); sh != nil {
				m.set(rv, sh)
				continue
			}
		}
		if mr != nil {
			m.set(rv, mr)
		}
	}
	return nil
}

func (m *memRefPlan) assign(a *ir.AssignStmt) error {
	v := a.Var
	_, isTile := v.Type().(*ir.TileType)
	c, _ := a.Value.(*ir.Call)
	src := a.Value
	if c != nil {
		src = nil
		if c.Op != nil {
			if i := c.Op.MemRefArg(); i >= 0 && i < len(c.Args) {
				src = c.Args[i]
			}
		}
	} else if !isTile {
		src = nil // a tensor rebinding gets a MemRef of its own
	}
	if src == nil {
		return m.own(v)
	}
	if sv, ok := ir.VarOf(src); ok && isTile && m.bufferLess[sv] {
		m.bufferLess[v] = true // a view of a pipe's tile stays in the pipe
		return nil
	}
	if m.share(v, src, c) {
		return nil
	}
	return m.own(v)
}

// sliceByteOffset is where a slice starts in its source, in bytes: the
// offsets folded row-major over the source's shape (an expression when
// an offset or a dimension is dynamic).
func sliceByteOffset(c *ir.Call, parent ir.Type) ir.Expr {
	shape, dt, ok := ir.ShapeOf(parent)
	if !ok || len(c.Args) < 3 {
		return nil
	}
	t, ok := c.Args[2].(*ir.MakeTuple)
	if !ok || len(t.Elems) != len(shape) {
		return nil
	}
	var total ir.Expr
	for i, o := range t.Elems {
		term := o
		for _, d := range shape[i+1:] {
			term = mulIndex(term, d)
		}
		total = addIndex(total, term)
	}
	return mulIndex(total, ir.Int(int64(dt.Bytes())))
}

// sliceSpan is the bytes a static slice can touch in its source, from its
// first element to its last: a view's extent, not a new allocation's.
func sliceSpan(c *ir.Call, parent, view ir.Type) (uint64, bool) {
	pshape, _, ok := ir.ShapeOf(parent)
	_, vdt, vok := ir.ShapeOf(view)
	if !ok || !vok || len(c.Args) < 2 {
		return 0, false
	}
	t, ok := c.Args[1].(*ir.MakeTuple)
	if !ok || len(t.Elems) != len(pshape) {
		return 0, false
	}
	var last, stride uint64 = 0, 1
	for i := len(pshape) - 1; i >= 0; i-- {
		p, ok1 := ir.ConstValue(pshape[i])
		r, ok2 := ir.ConstValue(t.Elems[i])
		if !ok1 || !ok2 || p <= 0 || r <= 0 || r > p {
			return 0, false
		}
		last += uint64(r-1) * stride
		stride *= uint64(p)
	}
	return (last + 1) * uint64(vdt.Bytes()), true
}

// addIndex and mulIndex build INDEX arithmetic on byte offsets, folding
// constants and identities as upstream's offset helpers do (a nil operand
// of addIndex is 0).
func addIndex(a, b ir.Expr) ir.Expr {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return indexArith(ir.OpAdd, a, b, 0)
}

func mulIndex(a, b ir.Expr) ir.Expr { return indexArith(ir.OpMul, a, b, 1) }

// indexArith is a op b, folded when both are constants or one is the op's
// identity.
func indexArith(op ir.BinaryOp, a, b ir.Expr, identity int64) ir.Expr {
	x, okA := ir.ConstValue(a)
	y, okB := ir.ConstValue(b)
	switch {
	case okA && okB:
		if v, ok, err := ir.IntArith(op, x, y); ok && err == nil {
			return ir.Int(v)
		}
	case okB && y == identity:
		return a
	case okA && x == identity:
		return b
	}
	return &ir.BinaryExpr{Op: op, Left: a, Right: b, DType: ir.INDEX}
}

// declaredAllocations sizes the allocations fn's tiles declare (a
// pl.MemRef with a name and no address, of one or more slots): a slot is
// as large as the largest tile placed in it, the allocation holds its
// slots back to back, and each tile keeps its slot index. It returns each
// such tile's MemRef and each allocation's size (its base's tile.alloc),
// as upstream's InitMemRef derives a declared allocation's size.
func declaredAllocations(fn *ir.Function) (map[*ir.Var]*ir.MemRef, map[*ir.Var]uint64, error) {
	type decl struct {
		base  *ir.Var
		space ir.MemorySpace
		slots int
		size  uint64
		tiles []*ir.Var
		first *ir.Var
	}
	byName := map[string]*decl{}
	var order []*decl
	var err error
	forEachDef(fn, func(v *ir.Var) {
		tt, ok := v.Type().(*ir.TileType)
		if !ok || tt.MemRef == nil || !tt.MemRef.Pinned || err != nil {
			return
		}
		m := tt.MemRef
		size, ok := byteSize(tt.Shape, tt.DType)
		if !ok {
			err = fmt.Errorf("tile %s has shape %s: a tile in a declared allocation needs a static shape", v.Name, ir.ShapeString(tt.Shape))
			return
		}
		d := byName[m.Name]
		if d == nil {
			d = &decl{base: m.Base, space: tt.Memory, slots: max(m.SlotCount, 1), first: v}
			byName[m.Name] = d
			order = append(order, d)
		}
		switch {
		case tt.Memory != d.space:
			err = fmt.Errorf("%s: tile %s is in %s, but %s, in the same declared allocation %s, is in %s: tiles sharing an allocation share its memory",
				v.Pos, v.Name, tt.Memory.Name(), d.first.Name, m.Name, d.space.Name())
		case max(m.SlotCount, 1) != d.slots:
			err = fmt.Errorf("%s: tile %s declares %s with %d slots, %s with %d", v.Pos, v.Name, m.Name, m.SlotCount, d.first.Name, d.slots)
		}
		d.size = max(d.size, size)
		d.tiles = append(d.tiles, v)
	})
	if err != nil {
		return nil, nil, err
	}
	out := map[*ir.Var]*ir.MemRef{}
	sizes := map[*ir.Var]uint64{}
	for _, d := range order {
		sizes[d.base] = d.size * uint64(d.slots)
		for _, v := range d.tiles {
			m := ir.NewMemRef(d.base, ir.Int(0), d.size, v.Pos)
			m.SlotCount = d.slots
			m.SlotIndex = v.Type().(*ir.TileType).MemRef.SlotIndex
			out[v] = m
		}
	}
	return out, sizes, nil
}

// withMemRef returns t carrying m.
func withMemRef(t ir.Type, m *ir.MemRef) (ir.Type, bool) {
	switch x := t.(type) {
	case *ir.TensorType:
		c := *x
		c.MemRef = m
		return &c, true
	case *ir.DistributedTensorType:
		c := *x
		c.MemRef = m
		return &c, true
	case *ir.TileType:
		c := *x
		c.MemRef = m
		return &c, true
	}
	return nil, false
}

func memRefOf(t ir.Type) *ir.MemRef {
	switch x := t.(type) {
	case *ir.TensorType:
		return x.MemRef
	case *ir.DistributedTensorType:
		return x.MemRef
	case *ir.TileType:
		return x.MemRef
	}
	return nil
}

// AllocateMemoryAddr is the PYPTO planner: within each on-chip memory space
// of an InCore (or AIC/AIV) function, the buffers sorted by base name get
// sequential addresses, each rounded up to 32 bytes (next = align32(cur +
// size)), and every MemRef on a buffer moves by its address (a slice keeps
// its place inside). Every staging tile therefore has an address for
// codegen's `pto.alloc_tile addr = ...`.
func AllocateMemoryAddr(p *ir.Program) (*ir.Program, error) {
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		if !onCore(fn) || ir.AddressesPlanned(fn) {
			return fn, nil // the pass is idempotent
		}
		type buffer struct {
			base  *ir.Var
			space ir.MemorySpace
			size  uint64
		}
		var bufs []buffer
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			if a, ok := s.(*ir.AssignStmt); ok {
				if c, ok := a.Value.(*ir.Call); ok && c.Op == ir.TileAlloc && len(c.Args) == 2 {
					sp, err := ir.AllocSpace(c.Args[0])
					n, ok := ir.ConstValue(c.Args[1])
					if err == nil && ok {
						bufs = append(bufs, buffer{a.Var, sp, uint64(n)})
					}
				}
			}
		})
		fn, end, err := placeReservedBuffers(fn) // end: where each space's plan has got to
		if err != nil {
			return nil, err
		}
		sort.SliceStable(bufs, func(i, j int) bool { return bufs[i].base.Name < bufs[j].base.Name })
		addr := map[*ir.Var]int64{}
		for _, b := range bufs {
			addr[b.base] = int64(end[b.space])
			end[b.space] = (end[b.space] + b.size + 31) / 32 * 32
		}
		if len(addr) == 0 {
			return fn, nil
		}
		placed := map[*ir.MemRef]*ir.MemRef{}
		return retypeFunction(fn, func(_ *ir.Var, t ir.Type) (ir.Type, bool) {
			m := memRefOf(t)
			if m == nil {
				return nil, false
			}
			at, ok := addr[m.Base]
			if !ok {
				return nil, false
			}
			n := placed[m]
			if n == nil {
				n = ir.NewMemRef(m.Base, addIndex(ir.Int(at), m.ByteOffset), m.Size, m.Pos)
				n.SlotCount, n.SlotIndex = m.SlotCount, m.SlotIndex
				placed[m] = n
			}
			return withMemRef(t, n)
		}), nil
	})
}

// placeReservedBuffers resolves the cross-core rings a function reserves
// (pl.system.reserve_buffer), as upstream's AllocateMemoryAddr does before
// it places tiles: in the function's ring memory (the cube's L1, Mat, for
// an AIC function; the vector buffer, Vec, otherwise) each ring with
// base=pl.AUTO takes the next free address, one with a base keeps it,
// ranges may not overlap, and the space's tiles start past the last ring.
// It returns where each space's tiles start.
func placeReservedBuffers(fn *ir.Function) (*ir.Function, map[ir.MemorySpace]uint64, error) {
	space := ir.MemVec
	if fn.Kind == ir.AIC {
		space = ir.MemMat
	}
	start := map[ir.MemorySpace]uint64{}
	var next uint64
	type span struct{ lo, hi uint64 }
	var taken []span
	body, err := mapBlock(fn.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
		a, ok := s.(*ir.AssignStmt)
		c := ir.StmtCall(s)
		if c == nil || c.Op != ir.SystemReserveBuffer {
			return []ir.Stmt{s}, nil
		}
		base := c.Kwargs.Int("base", -1)
		lo := uint64(base)
		if base < 0 {
			lo = next
		}
		hi := (lo + uint64(c.Kwargs.Int("size", 0)) + 31) / 32 * 32
		for _, t := range taken {
			if lo < t.hi && t.lo < hi {
				return nil, fmt.Errorf("%s: reserve_buffer %q at [%d, %d) overlaps the ring reserved at [%d, %d)",
					c.Pos, c.Kwargs.String("name", ""), lo, hi, t.lo, t.hi)
			}
		}
		taken = append(taken, span{lo, hi})
		next = max(next, hi)
		start[space] = max(start[space], hi)
		if base >= 0 {
			return []ir.Stmt{s}, nil
		}
		placed, err := c.Op.NewCall(c.Args, c.Kwargs.With("base", int64(lo)), c.Pos)
		if err != nil {
			return nil, err
		}
		if ok {
			return []ir.Stmt{&ir.AssignStmt{StmtBase: a.StmtBase, Var: a.Var, Value: placed}}, nil
		}
		return []ir.Stmt{&ir.EvalStmt{StmtBase: s.(*ir.EvalStmt).StmtBase, Expr: placed}}, nil
	})
	if err != nil || body == fn.Body {
		return fn, start, err
	}
	g := fn.Clone()
	g.Body = body
	return g, start, nil
}
