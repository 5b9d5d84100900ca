package passes

import (
	"fmt"
	"sort"

	"github.com/ptorepl/ptorepl/ir"
)

// InferTileMemorySpace gives every InCore tile whose memory space is still
// unresolved the Vec space, and the layout its shape has there: on the
// vector core every tile this project builds (loads, remote loads, staging
// tiles, reductions) lives there.
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
			// The layout becomes the one the shape has in Vec; what the
			// view says of the data (valid shape, stride, pad) stays.
			v := tt.EffectiveView()
			im := ir.ImplicitTileView(tt.Shape, ir.MemVec)
			v.BLayout, v.SLayout, v.Fractal = im.BLayout, im.SLayout, im.Fractal
			c := ir.NewTileType(tt.Shape, tt.DType, ir.MemVec, &v)
			c.MemRef = tt.MemRef
			return c, true
		})
		return moveOperands(fn)
	})
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
			want := c.Op.ArgSpecAt(i).Memory
			tt, ok := a.Type().(*ir.TileType)
			if !ok || !movedFor(tt.Memory, want) {
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
				move, err := ir.TileMove.NewCall([]ir.Expr{a}, ir.Kwargs{{Key: "target_memory", Value: to}}, c.Pos)
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
// Bias, a matmul's result in Acc to Vec for a vector op or (through Mat)
// to a cube operand's memory, a vector result (through Mat) to a cube
// operand's memory.
func movedFor(from, want ir.MemorySpace) bool {
	switch from {
	case ir.MemMat, ir.MemVec:
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

// unallocated is the byte offset of a MemRef before AllocateMemoryAddr.
const unallocated = -1

// InitMemRef attaches a MemRef to every tensor parameter (DDR, mem_ddr_<k>)
// and every tile variable (mem_vec_<k>, one name counter across spaces) of an
// InCore function, and prepends one tile.alloc per on-chip MemRef. A tile
// produced in place from another (fillpad_inplace, set_validshape, a plain
// rebinding) shares its source's MemRef. Addresses stay unallocated (-1).
func InitMemRef(p *ir.Program) (*ir.Program, error) {
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		if !onCore(fn) {
			return fn, nil
		}
		if !hasDeclared(fn) && hasMemRefs(fn) {
			return fn, partialMemRefs(fn)
		}
		return initMemRef(fn)
	})
}

// hasMemRefs makes InitMemRef idempotent: a function whose tiles already
// carry MemRefs was initialised before.
func hasMemRefs(fn *ir.Function) bool {
	found := false
	forEachDef(fn, func(v *ir.Var) {
		if tt, ok := v.Type().(*ir.TileType); ok && tt.MemRef != nil {
			found = true
		}
	})
	return found
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

func initMemRef(fn *ir.Function) (*ir.Function, error) {
	counter := 0
	memOf := map[*ir.Var]*ir.MemRef{}
	var allocs []ir.Stmt
	newRef := func(space ir.MemorySpace, size uint64, pos ir.Span) *ir.MemRef {
		base := ir.NewVar(fmt.Sprintf("mem_%s_%d", space.Lower(), counter), ir.PtrT, pos)
		counter++
		if space == ir.MemDDR {
			return ir.NewMemRef(base, ir.Int(0), size, pos)
		}
		alloc := ir.TileAlloc.MustCall([]ir.Expr{ir.AllocOf(space), ir.Int(int64(size))}, nil, pos)
		allocs = append(allocs, assign(base, alloc))
		return ir.NewMemRef(base, ir.Int(unallocated), size, pos)
	}
	for _, p := range fn.Params {
		if shape, dt, ok := ir.ShapeOf(p.Type()); ok {
			if size, ok := byteSize(shape, dt); ok {
				memOf[p] = newRef(ir.MemDDR, size, p.Pos)
			}
		}
	}
	declared, declAllocs, err := declaredAllocations(fn)
	if err != nil {
		return nil, err
	}
	for v, m := range declared {
		memOf[v] = m
	}
	allocs = append(allocs, declAllocs...)
	// Sources of in-place results, so they share storage.
	alias := map[*ir.Var]*ir.Var{}
	// As upstream's InitMemRef: an iter-arg inherits its init's storage, a
	// loop's or an if's result shares its yielded value's.
	yields := func(rvs []*ir.Var, body ir.Stmt) {
		y, ok := ir.LastYield(body)
		if !ok {
			return
		}
		for k, rv := range rvs {
			if k < len(y.Values) {
				if src, ok := ir.VarOf(y.Values[k]); ok {
					alias[rv] = src
				}
			}
		}
	}
	ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
		switch x := s.(type) {
		case *ir.ForStmt, *ir.WhileStmt:
			ias, rvs := ir.LoopCarried(x)
			for _, ia := range ias {
				if src, ok := ir.VarOf(ia.Init); ok {
					alias[&ia.Var] = src
				}
			}
			yields(rvs, ir.LoopBody(x))
			return
		case *ir.IfStmt:
			yields(x.ReturnVars, x.Then)
			return
		}
		a, ok := s.(*ir.AssignStmt)
		if !ok {
			return
		}
		switch x := a.Value.(type) {
		case *ir.Call:
			if i := x.Op.AliasedArg(); i >= 0 && i < len(x.Args) {
				if src, ok := ir.VarOf(x.Args[i]); ok {
					alias[a.Var] = src
				}
			}
		default:
			if src, ok := ir.VarOf(x); ok {
				alias[a.Var] = src
			}
		}
	})
	var tileVars []*ir.Var
	popped := poppedTiles(fn)
	forEachDef(fn, func(v *ir.Var) {
		if _, ok := v.Type().(*ir.TileType); ok && !popped[v] {
			tileVars = append(tileVars, v)
		}
	})
	var resolve func(v *ir.Var, depth int) (*ir.MemRef, error)
	resolve = func(v *ir.Var, depth int) (*ir.MemRef, error) {
		if m, ok := memOf[v]; ok {
			return m, nil
		}
		if src, ok := alias[v]; ok && depth < 64 {
			if _, isTile := src.Type().(*ir.TileType); isTile {
				m, err := resolve(src, depth+1)
				if err != nil {
					return nil, err
				}
				memOf[v] = m
				return m, nil
			}
		}
		tt := v.Type().(*ir.TileType)
		size, ok := byteSize(tt.Shape, tt.DType)
		if !ok {
			return nil, fmt.Errorf("tile %s has shape %s: on-chip tiles need a static shape (use static dimensions, or a static shape with a valid_shape)", v.Name, ir.ShapeString(tt.Shape))
		}
		space := tt.Memory
		if space == ir.MemNone {
			return nil, fmt.Errorf("tile %s has no memory space: run InferTileMemorySpace first", v.Name)
		}
		m := newRef(space, size, v.Pos)
		memOf[v] = m
		return m, nil
	}
	for _, v := range tileVars {
		if _, err := resolve(v, 0); err != nil {
			return nil, err
		}
	}
	if len(memOf) == 0 {
		return fn, nil
	}
	g := retypeFunction(fn, func(v *ir.Var, t ir.Type) (ir.Type, bool) {
		m, ok := memOf[v]
		if !ok {
			return nil, false
		}
		return withMemRef(t, m)
	})
	if len(allocs) > 0 {
		g = g.Clone()
		g.Body = &ir.SeqStmts{StmtBase: ir.StmtBase{Pos: fn.Body.Span()}, Stmts: append(allocs, ir.Flatten(g.Body)...)}
	}
	return g, nil
}

// declaredAllocations sizes the allocations fn's tiles declare (a
// pl.MemRef with a name and no address, of one or more slots): a slot is
// as large as the largest tile placed in it, the allocation holds its
// slots back to back, and each tile keeps its slot index. It returns each
// such tile's MemRef and one tile.alloc per allocation, as upstream's
// InitMemRef derives a declared allocation's size.
func declaredAllocations(fn *ir.Function) (map[*ir.Var]*ir.MemRef, []ir.Stmt, error) {
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
	var allocs []ir.Stmt
	for _, d := range order {
		alloc := ir.TileAlloc.MustCall([]ir.Expr{ir.AllocOf(d.space), ir.Int(int64(d.size) * int64(d.slots))}, nil, d.base.Pos)
		allocs = append(allocs, assign(d.base, alloc))
		for _, v := range d.tiles {
			m := ir.NewMemRef(d.base, ir.Int(unallocated), d.size, v.Pos)
			m.SlotCount = d.slots
			m.SlotIndex = v.Type().(*ir.TileType).MemRef.SlotIndex
			out[v] = m
		}
	}
	return out, allocs, nil
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

// AllocateMemoryAddr is the PYPTO planner: within each on-chip memory space,
// MemRefs sorted by base name get sequential addresses, each rounded up to
// 32 bytes (next = align32(cur + size)). Every staging tile therefore has an
// address for codegen's `pto.alloc_tile addr = ...`.
func AllocateMemoryAddr(p *ir.Program) (*ir.Program, error) {
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		if !onCore(fn) {
			return fn, nil
		}
		refs := map[*ir.MemRef]bool{}
		forEachDef(fn, func(v *ir.Var) {
			if m := memRefOf(v.Type()); m != nil {
				refs[m] = true
			}
		})
		spaceOf := map[*ir.Var]ir.MemorySpace{}
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			if a, ok := s.(*ir.AssignStmt); ok {
				if c, ok := a.Value.(*ir.Call); ok && c.Op == ir.TileAlloc {
					if m, err := ir.AllocSpace(c.Args[0]); err == nil {
						spaceOf[a.Var] = m
					}
				}
			}
		})
		bySpace := map[ir.MemorySpace][]*ir.MemRef{}
		for m := range refs {
			if sp, ok := spaceOf[m.Base]; ok {
				if v, ok := ir.ConstValue(m.ByteOffset); ok && v != unallocated {
					return fn, nil // already allocated: the pass is idempotent
				}
				bySpace[sp] = append(bySpace[sp], m)
			}
		}
		placed := map[*ir.MemRef]*ir.MemRef{}
		end := map[ir.MemorySpace]uint64{} // where each space's plan ends
		for sp, ms := range bySpace {
			sort.SliceStable(ms, func(i, j int) bool { return ms[i].Base.Name < ms[j].Base.Name })
			var cur uint64
			at := map[*ir.Var]uint64{} // the offset of each base placed (a declared allocation's tiles share one)
			for _, m := range ms {
				off, done := at[m.Base]
				if !done {
					off = cur
					at[m.Base] = off
					cur = (cur + m.Size*uint64(max(m.SlotCount, 1)) + 31) / 32 * 32
				}
				n := ir.NewMemRef(m.Base, ir.Int(int64(off)), m.Size, m.Pos)
				n.SlotCount, n.SlotIndex = m.SlotCount, m.SlotIndex
				placed[m] = n
			}
			end[sp] = cur
		}
		fn, err := placeReservedBuffers(fn, end)
		if err != nil || len(placed) == 0 {
			return fn, err
		}
		return retypeFunction(fn, func(_ *ir.Var, t ir.Type) (ir.Type, bool) {
			if n, ok := placed[memRefOf(t)]; ok {
				return withMemRef(t, n)
			}
			return nil, false
		}), nil
	})
}

// placeReservedBuffers gives each cross-core ring a function reserves with
// base=pl.AUTO an address after the tiles of its memory (the cube's L1,
// Mat, or the vector lanes' UB, Vec), as upstream's AllocateMemoryAddr
// resolves it before PTO emission; end is where each space's plan ends.
func placeReservedBuffers(fn *ir.Function, end map[ir.MemorySpace]uint64) (*ir.Function, error) {
	space := ir.MemVec
	if fn.Kind == ir.AIC {
		space = ir.MemMat
	}
	body, err := mapBlock(fn.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
		a, ok := s.(*ir.AssignStmt)
		c := ir.StmtCall(s)
		if c == nil || c.Op != ir.SystemReserveBuffer || c.Kwargs.Int("base", -1) >= 0 {
			return []ir.Stmt{s}, nil
		}
		off := end[space]
		end[space] = (off + uint64(c.Kwargs.Int("size", 0)) + 31) / 32 * 32
		placed, err := c.Op.NewCall(c.Args, c.Kwargs.With("base", int64(off)), c.Pos)
		if err != nil {
			return nil, err
		}
		if ok {
			return []ir.Stmt{&ir.AssignStmt{StmtBase: a.StmtBase, Var: a.Var, Value: placed}}, nil
		}
		return []ir.Stmt{&ir.EvalStmt{StmtBase: s.(*ir.EvalStmt).StmtBase, Expr: placed}}, nil
	})
	if err != nil || body == fn.Body {
		return fn, err
	}
	g := fn.Clone()
	g.Body = body
	return g, nil
}
