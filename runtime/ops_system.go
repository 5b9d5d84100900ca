package runtime

import (
	"fmt"
	"runtime"
	"time"

	"github.com/ptorepl/ptorepl/ir"
)

// Semantics of the comm-context, window and view ops, and of the signal ops.

// commCtx is the value of pld.system.get_comm_ctx: the window's domain.
type commCtx struct {
	domain []int // world ranks in domain order; nil: the world
}

func init() {
	Register(ir.PldSystemWorldSize, func(x *Exec, c *ir.Call, a []any) (any, error) { return int64(x.s.world), nil })
	Register(ir.PldSystemGetCommCtx, func(x *Exec, c *ir.Call, a []any) (any, error) {
		v, err := winArg(a[0], "dist_tensor")
		if err != nil {
			return nil, err
		}
		return commCtx{domain: v.win.Domain}, nil
	})
	Register(ir.PldSystemRank, func(x *Exec, c *ir.Call, a []any) (any, error) {
		ctx, ok := a[0].(commCtx)
		if !ok {
			return nil, fmt.Errorf("ctx: expected a comm context, got %s", describe(a[0]))
		}
		if x.rank < 0 {
			// The usual way here is a device function the host called
			// without device=, which the host then runs itself.
			return nil, fmt.Errorf("rank is only defined on a device, not in the host orchestrator (a function the host calls without device= runs on the host: dispatch it with device=r)")
		}
		if ctx.domain == nil {
			return int64(x.rank), nil
		}
		for i, r := range ctx.domain {
			if r == x.rank {
				return int64(i), nil
			}
		}
		return nil, fmt.Errorf("rank %d is not in the comm domain %v", x.rank, dimsText(ctx.domain))
	})
	Register(ir.PldSystemNranks, func(x *Exec, c *ir.Call, a []any) (any, error) {
		ctx, ok := a[0].(commCtx)
		if !ok {
			return nil, fmt.Errorf("ctx: expected a comm context, got %s", describe(a[0]))
		}
		if ctx.domain == nil {
			return int64(x.s.world), nil
		}
		return int64(len(ctx.domain)), nil
	})
	Register(ir.PldTensorAllocWindowBuffer, func(x *Exec, c *ir.Call, a []any) (any, error) {
		n, err := toInt(a[0])
		if err != nil {
			return nil, fmt.Errorf("size: %w", err)
		}
		name := c.Kwargs.String("name", "window")
		return x.s.win.Alloc(name, int(n), x.s.domainOf(name))
	})
	Register(ir.PldTensorWindow, func(x *Exec, c *ir.Call, a []any) (any, error) {
		buf, ok := a[0].(*WindowBuf)
		if !ok {
			return nil, fmt.Errorf("buf: expected a window buffer (pld.alloc_window_buffer), got %s", describe(a[0]))
		}
		shape, err := intsArg(a[1], "shape")
		if err != nil {
			return nil, err
		}
		dt, _ := c.Kwargs.DType("dtype")
		if !supported(dt) {
			return nil, fmt.Errorf("the simulator does not support dtype %s", dt.Name())
		}
		// PyPTO has no fit check; an overflowing view is almost always a bug.
		if need := numel(shape) * dt.Bytes(); need > buf.Size {
			return nil, fmt.Errorf("a %v %s view needs %d bytes but window buffer %s has %d per rank", dimsText(shape), dt.Name(), need, buf.Name, buf.Size)
		}
		return &view{dt: dt, shape: shape, strides: rowMajor(shape), win: buf}, nil
	})
	Register(ir.TensorSlice, sliceOp)
	Register(ir.TileSlice, sliceOp)
	Register(ir.TileExtract, extractOp)
	Register(ir.TensorViewOp, func(x *Exec, c *ir.Call, a []any) (any, error) {
		v, err := viewArg(a[0], "input")
		if err != nil {
			return nil, err
		}
		if len(a) < 2 || a[1] == nil {
			return v, nil
		}
		shape, err := intsArg(a[1], "shape")
		if err != nil {
			return nil, err
		}
		if len(shape) == 0 {
			return v, nil
		}
		if !v.contiguous() {
			return nil, fmt.Errorf("cannot reinterpret a strided view %v as %v", dimsText(v.shape), dimsText(shape))
		}
		if err := v.checkInside(); err != nil {
			return nil, err
		}
		if numel(shape) > numel(v.shape) && v.win == nil {
			return nil, fmt.Errorf("a view %v is larger than the tensor %v", dimsText(shape), dimsText(v.shape))
		}
		return &view{dt: v.dt, shape: shape, strides: rowMajor(shape), off: v.off, host: v.host, win: v.win}, nil
	})
	// Fences and cache invalidation order device memory: no-ops when the
	// run is sequentially consistent, the relaxed mode's drains and cache
	// drops otherwise (relaxed.go).
	Register(ir.SystemFence, func(x *Exec, c *ir.Call, a []any) (any, error) {
		x.s.fence(x.rank, x.who(c))
		return nil, nil
	})
	Register(ir.SystemCacheinvalid, cacheInvalidOp)
	// On-chip reservations only name storage for codegen; simulated tiles
	// own their values, so the base pointer carries nothing.
	Register(ir.TileAlloc, func(x *Exec, c *ir.Call, a []any) (any, error) { return nil, nil })

	Register(ir.PldSystemNotify, notifyOp)
	Register(ir.PldSystemWait, waitOp)
	Register(ir.PldSystemDeferWait, waitOp)
	Register(ir.TileCommNotify, commNotifyOp)
	Register(ir.TileCommWait, commWaitOp)
	Register(ir.TileCommTest, commWaitOp)
}

// commGroups are the program's comm groups, inferred once a run when it
// records none (ir.InferCommGroups): before MaterializeCommDomainScopes,
// the program as written included, a window dispatched to a subset of the
// devices still has that subset as its domain. A program the inference
// refuses runs with every window on the world.
func (s *sim) commGroups() []*ir.CommGroup {
	if len(s.prog.CommGroups) > 0 || ir.InferCommGroups == nil {
		return s.prog.CommGroups
	}
	s.groupsOnce.Do(func() {
		if g, err := ir.InferCommGroups(s.prog); err == nil {
			s.groups = g
		}
	})
	return s.groups
}

// domainOf is the comm domain of the buffer allocated under name: the
// devices of the CommGroup that lists it, or the world.
func (s *sim) domainOf(name string) []int {
	for _, g := range s.commGroups() {
		for _, slot := range g.Slots {
			if slot != nil && (slot.Name == name || (slot.Base != nil && slot.Base.Name == name)) && len(g.Devices) > 0 {
				out := make([]int, 0, len(g.Devices))
				for _, d := range g.Devices {
					if int(d) < s.world {
						out = append(out, int(d))
					}
				}
				return out
			}
		}
	}
	return nil
}

// tileWindow copies the window of t at offs of shape into a new tile (the
// dimensions drop lists left out): tiles are values.
func (x *Exec) tileWindow(c *ir.Call, t *Tile, offs, shape, drop []int) (any, error) {
	tv := &view{dt: t.DType, shape: t.Shape, strides: rowMajor(t.Shape), host: t.bytes()}
	sub, err := tv.sub(offs, shape)
	if err != nil {
		return nil, err
	}
	out := newTile(t.DType, dropDims(sub.shape, drop))
	if err := x.readTile(sub, x.local(), out, c); err != nil {
		return nil, err
	}
	return out, nil
}

// extractOp is tile.extract: the window at (index_row, index_col), in the
// memory the call names (the tile's value is the same wherever it lives).
func extractOp(x *Exec, c *ir.Call, a []any) (any, error) {
	t, err := tileArg(a[0], "src")
	if err != nil {
		return nil, err
	}
	var offs [2]int
	for i := range offs {
		v, err := toInt(a[1+i])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", []string{"index_row", "index_col"}[i], err)
		}
		offs[i] = int(v)
	}
	shape, err := intsArg(a[3], "shape")
	if err != nil {
		return nil, err
	}
	return x.tileWindow(c, t, offs[:], shape, nil)
}

func sliceOp(x *Exec, c *ir.Call, a []any) (any, error) {
	shape, err := intsArg(a[1], "shape")
	if err != nil {
		return nil, err
	}
	offs, err := intsArg(a[2], "offset")
	if err != nil {
		return nil, err
	}
	var drop []int
	if len(a) > 4 {
		if drop, err = intsArg(a[4], "drop_dims"); err != nil {
			return nil, err
		}
	}
	if t, ok := a[0].(*Tile); ok {
		w, err := x.tileWindow(c, t, offs, shape, drop)
		if out, isTile := w.(*Tile); isTile && len(drop) == 0 && len(t.Shape) == 2 {
			// A slice is a view of its tile: an op accumulating into it
			// in place writes the tile (tileWindowOf).
			out.window = &tileWindowOf{parent: t, offs: append([]int(nil), offs...)}
		}
		return w, err
	}
	v, err := viewArg(a[0], "input")
	if err != nil {
		return nil, err
	}
	var sub *view
	if len(a) > 3 || c.Kwargs.Bool("clamp", false) {
		sub, err = x.windowSlice(v, c, a, offs, shape)
	} else {
		sub, err = v.overhang(offs, shape)
	}
	if err != nil {
		return nil, err
	}
	if len(drop) == 0 {
		return sub, nil
	}
	if sub.inside != nil {
		return nil, fmt.Errorf("a slice that drops dims may not reach past the end of its tensor (%v at %v of %v)", dimsText(shape), dimsText(offs), dimsText(v.shape))
	}
	dropped := map[int]bool{}
	for _, d := range drop {
		dropped[d] = true
	}
	out := &view{dt: sub.dt, off: sub.off, host: sub.host, win: sub.win}
	for i := range sub.shape {
		if !dropped[i] {
			out.shape = append(out.shape, sub.shape[i])
			out.strides = append(out.strides, sub.strides[i])
			if sub.valid != nil {
				out.valid = append(out.valid, sub.valid[i])
			}
		}
	}
	return out, nil
}

// windowSlice is a slice with a valid shape or clamp=True: its valid
// extent in each dimension is the requested one (the window when none is
// given), narrowed to what the source holds under the window. A window
// inside the source stays a view of it; one that overhangs the source
// (the valid region inside it, as the deducer checked) is read into a
// buffer of its own, zero past the valid region, since no memory lies
// there to view.
func (x *Exec) windowSlice(v *view, c *ir.Call, a []any, offs, shape []int) (*view, error) {
	req, requested := shape, false
	if len(a) > 3 {
		r, err := intsArg(a[3], "valid_shape")
		if err != nil {
			return nil, err
		}
		if len(r) == len(shape) {
			req, requested = r, true
		}
	}
	clamp := c.Kwargs.Bool("clamp", false)
	if len(offs) != len(v.shape) || len(shape) != len(v.shape) || (!clamp && !requested) {
		return v.sub(offs, shape) // no valid region narrows the window
	}
	src := v.shape
	if v.valid != nil {
		src = v.valid
	}
	valid := make([]int, len(shape))
	inside := true
	for d := range shape {
		if offs[d] < 0 {
			return nil, fmt.Errorf("offset %d in dimension %d is negative", offs[d], d)
		}
		if !clamp && offs[d]+req[d] > v.shape[d] {
			return nil, fmt.Errorf("the valid region %v at offsets %v does not fit in %v (clamp=True narrows it to the edge)", dimsText(req), dimsText(offs), dimsText(v.shape))
		}
		valid[d] = max(0, min(req[d], src[d]-offs[d]))
		inside = inside && offs[d]+shape[d] <= v.shape[d]
	}
	if inside {
		sub, err := v.sub(offs, shape)
		if err == nil && !equalInts(valid, shape) {
			sub.valid = valid
		}
		return sub, err
	}
	out := localView(v.dt, shape)
	if !equalInts(valid, shape) {
		out.valid = valid
	}
	if numel(valid) == 0 {
		return out, nil
	}
	part, err := v.sub(offs, valid)
	if err != nil {
		return nil, err
	}
	b, err := x.readBytes(part, x.local(), c)
	if err != nil {
		return nil, err
	}
	dst, err := out.sub(nil, valid)
	if err != nil {
		return nil, err
	}
	return out, x.writeBytes(dst, x.local(), b, c)
}

func dropDims(shape, drop []int) []int {
	if len(drop) == 0 {
		return shape
	}
	var out []int
outer:
	for i, d := range shape {
		for _, k := range drop {
			if k == i {
				continue outer
			}
		}
		out = append(out, d)
	}
	return out
}

// perturb delays a rank at a signal op when a seed asks for a perturbed
// schedule, so timing-dependent protocol bugs surface.
func (x *Exec) perturb() {
	r := x.rc.rng
	if r == nil {
		return
	}
	switch r.Intn(4) {
	case 0:
		time.Sleep(time.Duration(r.Intn(300)) * time.Microsecond)
	case 1:
		runtime.Gosched()
	}
}

// signalCell resolves offsets of an INT32 signal view to a cell; its Index
// is op scratch (copy it to keep the cell).
func (x *Exec) signalCell(sig *view, offsV any) (Cell, error) {
	if sig.dt != ir.INT32 {
		return Cell{}, fmt.Errorf("signal: expected INT32 cells, got %s", sig.dt.Name())
	}
	offs, err := x.ints(offsV, "offsets")
	if err != nil {
		return Cell{}, err
	}
	eo, err := sig.elemOffset(offs)
	if err != nil {
		return Cell{}, fmt.Errorf("signal cell: %w", err)
	}
	return Cell{Buffer: sig.win.Name, Offset: eo * 4, Index: offs}, nil
}

func notifyOp(x *Exec, c *ir.Call, a []any) (any, error) {
	sig, err := winArg(a[0], "target")
	if err != nil {
		return nil, err
	}
	peer, err := x.peerOf(sig, a[1])
	if err != nil {
		return nil, err
	}
	cell, err := x.signalCell(sig, a[2])
	if err != nil {
		return nil, err
	}
	v, err := toInt(a[3])
	if err != nil {
		return nil, fmt.Errorf("value: %w", err)
	}
	kind := NotifyAtomicAdd
	if ir.NotifyOp(c.Kwargs.Int("op", 0)) == ir.NotifySet {
		kind = NotifySet
	}
	x.noteCell(peer, sig.win, cell, v)
	x.perturb()
	return nil, x.s.win.Notify(x.rank, peer, sig.win, cell, kind, int32(v), x.who(c))
}

func waitOp(x *Exec, c *ir.Call, a []any) (any, error) {
	if x.rank < 0 {
		return nil, fmt.Errorf("waits run on a device, not in the host orchestrator")
	}
	sig, err := winArg(a[0], "signal")
	if err != nil {
		return nil, err
	}
	cell, err := x.signalCell(sig, a[1])
	if err != nil {
		return nil, err
	}
	want, err := toInt(a[2])
	if err != nil {
		return nil, fmt.Errorf("expected: %w", err)
	}
	cond := Cond{Cmp: "ge", Value: want}
	if ir.WaitCmp(c.Kwargs.Int("cmp", 0)) == ir.WaitEq {
		cond.Cmp = "eq"
	}
	x.noteCell(-1, sig.win, cell, want)
	if c.Op.Deferred {
		// The task completes once cell >= expected, compared as uint32.
		cond = Cond{Cmp: "ge", Value: want, Unsigned: true}
		cell.Index = append([]int(nil), cell.Index...) // kept past the op
		x.rc.deferred = append(x.rc.deferred, deferredWait{buf: sig.win, cell: cell, cond: cond, who: x.who(c)})
		return nil, nil
	}
	x.perturb()
	return nil, x.s.win.Wait(x.rank, sig.win, cell, cond, x.who(c))
}

// commSignal resolves seed #1301's signal operand: a one-element INT32 view
// of the slot.
func commSignal(v any) (*view, Cell, error) {
	sig, err := viewArg(v, "signal")
	if err != nil {
		return nil, Cell{}, err
	}
	if sig.dt != ir.INT32 {
		return nil, Cell{}, fmt.Errorf("signal: expected INT32, got %s", sig.dt.Name())
	}
	if numel(sig.shape) != 1 {
		return nil, Cell{}, fmt.Errorf("signal must hold exactly one INT32 slot, got shape %v", dimsText(sig.shape))
	}
	cell := Cell{Offset: sig.off * 4, Index: nil}
	if sig.win != nil {
		cell.Buffer = sig.win.Name
	}
	return sig, cell, nil
}

func commNotifyOp(x *Exec, c *ir.Call, a []any) (any, error) {
	sig, cell, err := commSignal(a[0])
	if err != nil {
		return nil, err
	}
	v, err := toInt(a[1])
	if err != nil {
		return nil, fmt.Errorf("value: %w", err)
	}
	kind := NotifyAtomicAdd
	if c.Kwargs.String("op", "atomic_add") == "set" {
		kind = NotifySet
	}
	x.note(x.rank, cell.String(), v)
	if sig.win == nil {
		// A rank-private tensor: only this rank sees it.
		vals, err := x.readView(sig, x.local(), c)
		if err != nil {
			return nil, err
		}
		if kind == NotifyAtomicAdd {
			v = int64(int32(int64(vals[0]) + v))
		}
		return nil, x.writeView(sig, x.local(), []float64{float64(v)}, false, c)
	}
	x.perturb()
	return nil, x.s.win.Notify(x.rank, x.local(), sig.win, cell, kind, int32(v), x.who(c))
}

func commWaitOp(x *Exec, c *ir.Call, a []any) (any, error) {
	sig, cell, err := commSignal(a[0])
	if err != nil {
		return nil, err
	}
	v, err := toInt(a[1])
	if err != nil {
		return nil, fmt.Errorf("cmp_value: %w", err)
	}
	cond := Cond{Cmp: c.Kwargs.String("cmp", "eq"), Value: v}
	switch cond.Cmp {
	case "eq", "ne", "gt", "ge", "lt", "le":
	default:
		return nil, fmt.Errorf("cmp must be one of eq|ne|gt|ge|lt|le, got %q", cond.Cmp)
	}
	x.note(-1, cell.String(), v)
	test := c.Op == ir.TileCommTest
	if sig.win == nil {
		vals, err := x.readView(sig, x.local(), c)
		if err != nil {
			return nil, err
		}
		ok := cond.Holds(int32(vals[0]))
		if test || ok {
			return ok, nil
		}
		// Nobody else can change a rank-private tensor: waiting never ends.
		return nil, &DeadlockError{Blocked: []BlockedRank{{Rank: x.rank, Op: c.Op.Name, Pos: c.Pos, Func: x.fnName(),
			Cell: "a rank-private tensor", Value: int64(vals[0]), Want: cond.String(), Cond: cond}}}
	}
	if test {
		return x.s.win.Test(x.local(), sig.win, cell, cond, x.who(c))
	}
	x.perturb()
	return nil, x.s.win.Wait(x.local(), sig.win, cell, cond, x.who(c))
}

// cacheInvalidOp is system.cacheinvalid: every line (no arguments) or the
// (tensor, shapes, offsets) region of the rank's own window; a no-op
// outside the relaxed mode.
func cacheInvalidOp(x *Exec, c *ir.Call, a []any) (any, error) {
	if x.s.relaxed() == nil {
		return nil, nil // sequentially consistent: nothing is cached
	}
	if len(a) == 0 {
		x.s.cacheInvalidate(x.rank, nil, x.who(c))
		return nil, nil
	}
	if len(a) != 3 {
		return nil, fmt.Errorf("cacheinvalid takes no arguments or (tensor, shapes, offsets), given %d", len(a))
	}
	v, err := viewArg(a[0], "tensor")
	if err != nil {
		return nil, err
	}
	if v.win == nil {
		return nil, nil // a rank-local tensor has no cached window lines
	}
	shape, err := intsArg(a[1], "shapes")
	if err != nil {
		return nil, err
	}
	offs, err := intsArg(a[2], "offsets")
	if err != nil {
		return nil, err
	}
	sub, err := v.sub(offs, shape)
	if err != nil {
		return nil, fmt.Errorf("cacheinvalid region: %w", err)
	}
	x.s.cacheInvalidate(x.rank, sub, x.whoView(c, sub))
	return nil, nil
}

// tensor.dim is the extent of one dimension of a tensor's view.
func init() {
	Register(ir.TensorDim, func(x *Exec, c *ir.Call, a []any) (any, error) {
		v, err := viewArg(a[0], "tensor")
		if err != nil {
			return nil, err
		}
		axis, err := toInt(a[1])
		if err != nil {
			return nil, fmt.Errorf("axis: %w", err)
		}
		if axis < 0 {
			axis += int64(len(v.shape))
		}
		if axis < 0 || int(axis) >= len(v.shape) {
			return nil, fmt.Errorf("axis %d is outside the rank-%d tensor", axis, len(v.shape))
		}
		return int64(v.shape[axis]), nil
	})
}
