package runtime

import (
	"fmt"
	"math"

	"github.com/ptorepl/ptorepl/ir"
)

// The simulated semantics of every op, each attached to the op's registry
// entry. Window views are local to the executing rank unless an op names a peer.

func init() {
	Register("pld.system.world_size", func(x *Exec, c *ir.Call, a []any) (any, error) { return int64(x.s.world), nil })
	Register("pld.system.get_comm_ctx", func(x *Exec, c *ir.Call, a []any) (any, error) { return commCtx{world: x.s.world}, nil })
	Register("pld.system.rank", func(x *Exec, c *ir.Call, a []any) (any, error) {
		if x.Rank < 0 {
			return nil, fmt.Errorf("rank is only defined on a device")
		}
		return int64(x.Rank), nil
	})
	Register("pld.system.nranks", func(x *Exec, c *ir.Call, a []any) (any, error) { return int64(x.s.world), nil })
	Register("pld.tensor.alloc_window_buffer", func(x *Exec, c *ir.Call, a []any) (any, error) {
		n, err := toInt(a[0])
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return nil, fmt.Errorf("size %d bytes: a window needs a positive size", n)
		}
		return x.s.alloc(c.Kwargs.String("name", "window"), int(n)), nil
	})
	Register("pld.tensor.window", func(x *Exec, c *ir.Call, a []any) (any, error) {
		buf, ok := a[0].(*WindowBuf)
		if !ok {
			return nil, fmt.Errorf("buf: expected a window buffer, got %T", a[0])
		}
		shape, err := intsArg(a[1], "shape")
		if err != nil {
			return nil, err
		}
		dt, _ := c.Kwargs.DType("dtype")
		if need := numel(shape) * dt.Bytes(); need > buf.Size {
			return nil, fmt.Errorf("a %v %s view needs %d bytes but window buffer %s has %d per rank", shape, dt, need, buf.Name, buf.Size)
		}
		// A typed view at byte 0 of the buffer.
		return &region{dt: dt, shape: shape, strides: rowMajor(shape), win: buf}, nil
	})
	Register("tensor.slice", sliceOp)
	Register("tile.slice", sliceOp)

	Register("pld.system.notify", func(x *Exec, c *ir.Call, a []any) (any, error) {
		sig, err := signalArg(a[0])
		if err != nil {
			return nil, err
		}
		peer, err := x.peer(a[1])
		if err != nil {
			return nil, err
		}
		off, idx, err := cellOffset(sig, a[2])
		if err != nil {
			return nil, err
		}
		v, err := toInt(a[3])
		if err != nil {
			return nil, err
		}
		return nil, x.s.notify(x.Rank, peer, sig.win, off, idx, v, ir.NotifyOp(c.Kwargs.Int("op", 0)) == ir.NotifySet)
	})
	Register("pld.system.wait", func(x *Exec, c *ir.Call, a []any) (any, error) {
		sig, err := signalArg(a[0])
		if err != nil {
			return nil, err
		}
		off, idx, err := cellOffset(sig, a[1])
		if err != nil {
			return nil, err
		}
		want, err := toInt(a[2])
		if err != nil {
			return nil, err
		}
		eq := ir.WaitCmp(c.Kwargs.Int("cmp", 0)) == ir.WaitEq
		desc := ">= " + fmt.Sprint(want)
		if eq {
			desc = "== " + fmt.Sprint(want)
		}
		info := BlockedRank{Rank: x.Rank, Op: c.Op.Name, Pos: c.Pos, Func: x.fnName(), Cell: cellName(sig.win.Name, a[1].([]any)), Want: desc}
		return nil, x.s.wait(x.local(), sig.win, off, idx, info, func(v int64) bool {
			if eq {
				return v == want
			}
			return v >= want
		})
	})
	for _, op := range []string{"tile.comm_notify", "tile.comm_wait", "tile.comm_test"} {
		Register(op, commOp)
	}

	Register("pld.tile.remote_load", func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := regionArg(a[0], "target")
		if err != nil {
			return nil, err
		}
		peer, err := x.peer(a[1])
		if err != nil {
			return nil, err
		}
		offs, err := intsArg(a[2], "offsets")
		if err != nil {
			return nil, err
		}
		shape, err := intsArg(a[3], "shape")
		if err != nil {
			return nil, err
		}
		return x.tileFrom(t, peer, offs, shape)
	})
	remoteStore := func(x *Exec, c *ir.Call, a []any) (any, error) {
		src, err := regionArg(a[0], "src")
		if err != nil {
			return nil, err
		}
		t, err := regionArg(a[1], "target")
		if err != nil {
			return nil, err
		}
		peer, err := x.peer(a[2])
		if err != nil {
			return nil, err
		}
		offs, err := intsArg(a[3], "offsets")
		if err != nil {
			return nil, err
		}
		add := c.Kwargs.Int("atomic", 0) != 0
		if src.win == nil && src.bytes != nil && isTileLike(c.Args[0]) {
			return nil, x.storeTile(src, t, peer, offs, add)
		}
		tmp, err := x.tileFrom(src, x.local(), nil, src.shape)
		if err != nil {
			return nil, err
		}
		return nil, x.storeTile(tmp, t, peer, offs, add)
	}
	Register("pld.tile.remote_store", remoteStore)
	Register("pld.tensor.remote_store", remoteStore)
	Register("pld.tensor.put", rmaOp(true, false))
	Register("pld.tensor.get", rmaOp(false, false))
	Register("pld.tile.put", rmaOp(true, true))
	Register("pld.tile.get", rmaOp(false, true))

	Register("tile.load", func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := regionArg(a[0], "tensor")
		if err != nil {
			return nil, err
		}
		offs, err := intsArg(a[1], "offsets")
		if err != nil {
			return nil, err
		}
		shape, err := intsArg(a[2], "shapes")
		if err != nil {
			return nil, err
		}
		tile, err := x.tileFrom(t, x.local(), offs, shape)
		if err != nil {
			return nil, err
		}
		if len(a) > 3 {
			if v, err := intsArg(a[3], "valid_shape"); err == nil && len(v) == len(shape) && numel(v) != numel(shape) {
				tile.valid = v
			}
		}
		return tile, nil
	})
	Register("tile.store", func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := regionArg(a[0], "tile")
		if err != nil {
			return nil, err
		}
		offs, err := intsArg(a[1], "offsets")
		if err != nil {
			return nil, err
		}
		out, err := regionArg(a[2], "output_tensor")
		if err != nil {
			return nil, err
		}
		return out, x.storeTile(t, out, x.local(), offs, c.Kwargs.Int("atomic", 0) != 0)
	})
	create := func(x *Exec, c *ir.Call, a []any) (any, error) {
		shape, err := intsArg(a[0], "shape")
		if err != nil {
			return nil, err
		}
		dt, _ := c.Kwargs.DType("dtype")
		t := newTile(dt, shape)
		if v, ok := c.Kwargs.Get("init_value"); ok {
			f, _ := toFloat(v)
			each(shape, func(idx []int) error { return x.put(t, -1, idx, f, false) })
		}
		return t, nil
	}
	Register("tile.create", create)
	Register("tensor.create", create)
	for _, k := range []string{"tile", "tensor"} {
		Register(k+".read", func(x *Exec, c *ir.Call, a []any) (any, error) {
			t, err := regionArg(a[0], "tensor")
			if err != nil {
				return nil, err
			}
			idx, err := intsArg(a[1], "indices")
			if err != nil {
				return nil, err
			}
			v, err := x.get(t, x.local(), idx)
			if err != nil {
				return nil, err
			}
			if t.dt.IsFloat() {
				return v, nil
			}
			return int64(v), nil
		})
		Register(k+".write", func(x *Exec, c *ir.Call, a []any) (any, error) {
			t, err := regionArg(a[0], "tensor")
			if err != nil {
				return nil, err
			}
			idx, err := intsArg(a[1], "indices")
			if err != nil {
				return nil, err
			}
			v, err := toFloat(a[2])
			if err != nil {
				return nil, err
			}
			return t, x.put(t, x.local(), idx, v, false)
		})
		Register(k+".cast", func(x *Exec, c *ir.Call, a []any) (any, error) {
			dt, _ := c.Kwargs.DType("target_type")
			if r, ok := a[0].(*region); ok {
				out := newTile(dt, r.shape)
				return out, each(r.shape, func(idx []int) error {
					v, err := x.get(r, x.local(), idx)
					if err != nil {
						return err
					}
					return x.put(out, -1, idx, v, false)
				})
			}
			f, err := toFloat(a[0])
			if err != nil {
				return nil, err
			}
			if dt.IsFloat() {
				return roundTo(f, dt), nil
			}
			return int64(roundTo(f, dt)), nil
		})
		for name, fn := range elementwise {
			Register(k+"."+name, elementwiseOp(fn))
		}
	}
	Register("pld.tensor.barrier", func(x *Exec, c *ir.Call, a []any) (any, error) {
		sig, err := signalArg(a[0])
		if err != nil {
			return nil, err
		}
		return a[0], x.barrierPhase(c, sig, 1, true)
	})
	Register("pld.tensor.allreduce", func(x *Exec, c *ir.Call, a []any) (any, error) {
		return a[0], x.collective(c, a, "allreduce")
	})
	Register("pld.tensor.broadcast", func(x *Exec, c *ir.Call, a []any) (any, error) {
		return a[0], x.collective(c, a, "broadcast")
	})
	Register("pld.tensor.reduce_scatter", func(x *Exec, c *ir.Call, a []any) (any, error) {
		return a[0], x.collective(c, a, "reduce_scatter")
	})
	Register("pld.tensor.allgather", func(x *Exec, c *ir.Call, a []any) (any, error) {
		return a[1], x.collective(c, a, "allgather")
	})
	Register("pld.tensor.all_to_all", func(x *Exec, c *ir.Call, a []any) (any, error) {
		return a[1], x.collective(c, a, "all_to_all")
	})
	Register("system.fence", func(x *Exec, c *ir.Call, a []any) (any, error) { return nil, nil })
	Register("system.cacheinvalid", func(x *Exec, c *ir.Call, a []any) (any, error) { return nil, nil })
}

var elementwise = map[string]func(a, b float64) float64{
	"add": func(a, b float64) float64 { return a + b }, "adds": func(a, b float64) float64 { return a + b },
	"sub": func(a, b float64) float64 { return a - b }, "subs": func(a, b float64) float64 { return a - b },
	"mul": func(a, b float64) float64 { return a * b }, "muls": func(a, b float64) float64 { return a * b },
	"div": func(a, b float64) float64 { return a / b }, "divs": func(a, b float64) float64 { return a / b },
	"maximum": math.Max, "minimum": math.Min,
}

// elementwiseOp computes in the result dtype's own arithmetic: each result
// is rounded to the dtype (FP16 rounds like FP16).
func elementwiseOp(fn func(a, b float64) float64) SimOp {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		l, err := regionArg(a[0], "lhs")
		if err != nil {
			return nil, err
		}
		out := newTile(l.dt, l.shape)
		out.valid = l.valid
		rr, rIsRegion := a[1].(*region)
		var scalar float64
		if !rIsRegion {
			if scalar, err = toFloat(a[1]); err != nil {
				return nil, err
			}
		} else if numel(rr.shape) != numel(l.shape) {
			return nil, fmt.Errorf("shapes %v and %v differ", l.shape, rr.shape)
		}
		return out, each(l.shape, func(idx []int) error {
			lv, err := x.get(l, x.local(), idx)
			if err != nil {
				return err
			}
			rv := scalar
			if rIsRegion {
				if rv, err = x.get(rr, x.local(), idx); err != nil {
					return err
				}
			}
			return x.put(out, -1, idx, fn(lv, rv), false)
		})
	}
}

func isTileLike(e ir.Expr) bool { _, ok := e.Type().(*ir.TileType); return ok }

func sliceOp(x *Exec, c *ir.Call, a []any) (any, error) {
	in, err := regionArg(a[0], "input")
	if err != nil {
		return nil, err
	}
	shape, err := intsArg(a[1], "shape")
	if err != nil {
		return nil, err
	}
	offs, err := intsArg(a[2], "offset")
	if err != nil {
		return nil, err
	}
	v, err := in.sub(offs, shape)
	if err != nil {
		return nil, err
	}
	var drop []int
	if len(a) > 4 {
		drop, _ = intsArg(a[4], "drop_dims")
	}
	if len(drop) == 0 {
		return v, nil
	}
	dropped := map[int]bool{}
	for _, d := range drop {
		dropped[d] = true
	}
	out := &region{dt: v.dt, off: v.off, bytes: v.bytes, win: v.win}
	for i := range v.shape {
		if !dropped[i] {
			out.shape = append(out.shape, v.shape[i])
			out.strides = append(out.strides, v.strides[i])
		}
	}
	return out, nil
}

func signalArg(v any) (*region, error) {
	r, ok := v.(*region)
	if !ok || r.win == nil {
		return nil, fmt.Errorf("signal: expected a window-bound INT32 tensor, got %T", v)
	}
	if r.dt != ir.INT32 {
		return nil, fmt.Errorf("signal: expected INT32 cells, got %s", r.dt)
	}
	return r, nil
}

// cellOffset is the byte offset of the signal cell at offsets (row-major).
func cellOffset(sig *region, offsV any) (int, []int, error) {
	offs, err := intsArg(offsV, "offsets")
	if err != nil {
		return 0, nil, err
	}
	o, err := sig.elemOffset(offs)
	if err != nil {
		return 0, nil, fmt.Errorf("signal cell: %w", err)
	}
	return o * 4, offs, nil
}

func (x *Exec) peer(v any) (int, error) {
	p, err := toInt(v)
	if err != nil {
		return 0, fmt.Errorf("peer: %w", err)
	}
	if p < 0 || int(p) >= x.s.world {
		return 0, fmt.Errorf("peer %d is outside the world of %d ranks (a negative peer often comes from (r - 1) %% n on the device's truncating %%: write (r + n - 1) %% n)", p, x.s.world)
	}
	return int(p), nil
}

// commOp runs seed #1301's tile.comm_notify/comm_wait/comm_test: the signal
// is a one-element view of the destination slot on this rank.
func commOp(x *Exec, c *ir.Call, a []any) (any, error) {
	sig, err := regionArg(a[0], "signal")
	if err != nil {
		return nil, err
	}
	if sig.dt != ir.INT32 {
		return nil, fmt.Errorf("signal: expected INT32 cells, got %s", sig.dt)
	}
	v, err := toInt(a[1])
	if err != nil {
		return nil, err
	}
	idx := make([]int, len(sig.shape))
	read := func() (int64, error) {
		f, err := x.get(sig, x.local(), idx)
		return int64(f), err
	}
	if c.Op.Name == "tile.comm_notify" {
		if sig.win != nil {
			return nil, x.s.notify(x.Rank, x.local(), sig.win, sig.off*4, idx, v, c.Kwargs.String("op", "atomic_add") == "set")
		}
		return nil, x.put(sig, x.local(), idx, float64(v), c.Kwargs.String("op", "atomic_add") != "set")
	}
	cmp := c.Kwargs.String("cmp", "eq")
	test := func(cur int64) bool {
		switch cmp {
		case "eq":
			return cur == v
		case "ne":
			return cur != v
		case "gt":
			return cur > v
		case "ge":
			return cur >= v
		case "lt":
			return cur < v
		case "le":
			return cur <= v
		}
		return false
	}
	if c.Op.Name == "tile.comm_test" || sig.win == nil {
		cur, err := read()
		if err != nil {
			return nil, err
		}
		if c.Op.Name == "tile.comm_test" {
			return test(cur), nil
		}
		if !test(cur) {
			// Only this rank can write a non-window tensor: waiting would never end.
			return nil, fmt.Errorf("deadlock: comm_wait on a rank-local tensor whose value %d is not %s %d, and no other rank can change it", cur, cmp, v)
		}
		return nil, nil
	}
	info := BlockedRank{Rank: x.Rank, Op: c.Op.Name, Pos: c.Pos, Func: x.fnName(), Cell: fmt.Sprintf("%s[+%d]", sig.win.Name, sig.off), Want: cmp + " " + fmt.Sprint(v)}
	return nil, x.s.wait(x.local(), sig.win, sig.off*4, idx, info, test)
}

// rmaOp is put (local src → peer dst) or get (peer src → local dst), full
// slices or the (dst_offsets, src_offsets, shape) region form. The tile
// forms carry a staging tile (and optionally a pong tile) after src.
func rmaOp(put, tileForm bool) SimOp {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		dst, err := regionArg(a[0], "dst")
		if err != nil {
			return nil, err
		}
		peer, err := x.peer(a[1])
		if err != nil {
			return nil, err
		}
		src, err := regionArg(a[2], "src")
		if err != nil {
			return nil, err
		}
		rest := a[3:]
		if tileForm {
			// Skip the staging tile(s): the simulator copies directly.
			for len(rest) > 0 {
				if _, isTile := rest[0].(*region); !isTile {
					break
				}
				rest = rest[1:]
			}
		}
		dv, sv := dst, src
		if len(rest) >= 3 {
			doff, err := intsArg(rest[0], "dst_offsets")
			if err != nil {
				return nil, err
			}
			soff, err := intsArg(rest[1], "src_offsets")
			if err != nil {
				return nil, err
			}
			shape, err := intsArg(rest[2], "shape")
			if err != nil {
				return nil, err
			}
			if dv, err = dst.sub(doff, shape); err != nil {
				return nil, fmt.Errorf("dst: %w", err)
			}
			if sv, err = src.sub(soff, shape); err != nil {
				return nil, fmt.Errorf("src: %w", err)
			}
		}
		add := c.Kwargs.Int("atomic", 0) != 0
		if put {
			return nil, x.copyRegion(dv, peer, sv, x.local(), add)
		}
		return nil, x.copyRegion(dv, x.local(), sv, peer, add)
	}
}
