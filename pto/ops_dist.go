package pto

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Distributed ops (pld.*): context queries (§4), signals (§5), put/get (§6)
// and remote load/store (§7).

func init() {
	Register(ir.PldSystemGetCommCtx, emitGetCommCtx)
	Register(ir.PldSystemRank, emitRankOrNRanks(false))
	Register(ir.PldSystemNranks, emitRankOrNRanks(true))
	Register(ir.PldSystemNotify, emitNotify)
	Register(ir.PldSystemWait, emitWait)
	Register(ir.PldTileRemoteLoad, emitRemoteLoad)
	Register(ir.PldTileRemoteStore, emitRemoteStore)
	Register(ir.PldTilePut, emitPutGet(true))
	Register(ir.PldTileGet, emitPutGet(false))
}

// get_comm_ctx emits nothing: the result aliases the ctx parameter bound to
// the DistributedTensor.
func emitGetCommCtx(c *Ctx, call *ir.Call, res *ir.Var) error {
	t, err := c.tensorOf(call.Args[0])
	if err != nil {
		return err
	}
	if t.ctx == nil {
		return fmt.Errorf("%s is not a DistributedTensor parameter bound to a CommCtx", t.name)
	}
	if res != nil {
		c.vals[res] = *t.ctx
	}
	return nil
}

// rank reads the (rankId, rankNum) slot and keeps the low half; nranks
// shifts the high half down first.
func emitRankOrNRanks(nranks bool) Emitter {
	return func(c *Ctx, call *ir.Call, res *ir.Var) error {
		ctx, err := c.value(call.Args[0])
		if err != nil {
			return err
		}
		if ctx.typ != ctxType {
			return fmt.Errorf("%s is not a CommCtx", ir.Describe(call.Args[0]))
		}
		hint := ""
		if res != nil {
			hint = res.Name
		}
		p := c.loadScalar("", ctx, c.cIndex(slotRank), "i64")
		if nranks {
			p = c.bin("", "arith.shrui", p, c.consts.int(32, "i64"))
		}
		r := c.op(hint, "i32", "arith.trunci", []value{p}, nil, fmt.Sprintf("arith.trunci %s : i64 to i32", p.ssa))
		if res != nil {
			c.vals[res] = r
		}
		return nil
	}
}

// notify(target, peer, offsets, value, op=) → a 1x..x1 partition of peer's
// signal, the value as i32, pto.barrier <PIPE_ALL>, then pto.comm.tnotify.
func emitNotify(c *Ctx, call *ir.Call, _ *ir.Var) error {
	offs, err := tuple(call, 2)
	if err != nil {
		return err
	}
	var kind string
	switch call.Kwargs.Int("op", -1) {
	case int64(ir.NotifyAtomicAdd):
		kind = "atomic_add"
	case int64(ir.NotifySet):
		kind = "set"
	default:
		return fmt.Errorf("op must be NotifyOp.AtomicAdd (0) or NotifyOp.Set (1)")
	}
	_, pv, err := c.peerPartition(call.Args[0], call.Args[1], offs, ones(len(offs)))
	if err != nil {
		return err
	}
	v, err := c.as(call.Args[3], ir.INT32, "")
	if err != nil {
		return fmt.Errorf("value: %v", err)
	}
	c.barrier()
	c.signalOp("pto.comm.tnotify", pv, v, attr{"notifyOp", "#pto<notify_op " + kind + ">"}, "")
	return nil
}

// wait(signal, offsets, expected, cmp=) → pto.comm.twait on the local cell.
func emitWait(c *Ctx, call *ir.Call, _ *ir.Var) error {
	offs, err := tuple(call, 1)
	if err != nil {
		return err
	}
	var cmp string
	switch call.Kwargs.Int("cmp", -1) {
	case int64(ir.WaitEq):
		cmp = "eq"
	case int64(ir.WaitGe):
		cmp = "ge"
	default:
		return fmt.Errorf("cmp must be WaitCmp.Eq (0) or WaitCmp.Ge (1)")
	}
	_, pv, err := c.localPartition(call.Args[0], offs, ones(len(offs)))
	if err != nil {
		return err
	}
	v, err := c.as(call.Args[2], ir.INT32, "")
	if err != nil {
		return fmt.Errorf("expected: %v", err)
	}
	c.signalOp("pto.comm.twait", pv, v, attr{"cmp", "#pto<wait_cmp " + cmp + ">"}, "")
	return nil
}

// signalOp is `name(%pv, %v : P, i32) {attr}`, or with resultHint a
// `-> i1` test whose result is returned.
func (c *Ctx) signalOp(name string, pv, v value, a attr, resultHint string) value {
	custom := fmt.Sprintf("%s(%s, %s : %s, %s) {%s = %s}", name, pv.ssa, v.ssa, pv.typ, v.typ, a.name, a.val)
	operands := []value{pv, v}
	if resultHint == "" {
		c.stmtOp(name, operands, []attr{a}, custom)
		return value{}
	}
	return c.op(resultHint, "i1", name, operands, []attr{a}, custom+" -> i1")
}

// remote_load(target, peer, offsets, shape[, valid_shape]) → pto.tload from a
// partition of peer's copy, sized by the result tile's valid shape.
func emitRemoteLoad(c *Ctx, call *ir.Call, res *ir.Var) error {
	if res == nil {
		return fmt.Errorf("the loaded tile must be bound to a variable")
	}
	rt, err := tileOf(res)
	if err != nil {
		return err
	}
	offs, err := tuple(call, 2)
	if err != nil {
		return err
	}
	_, pv, err := c.peerPartition(call.Args[0], call.Args[1], offs, padLeading(tileValidShape(rt), len(offs)))
	if err != nil {
		return err
	}
	t, err := c.allocTile(res)
	if err != nil {
		return err
	}
	c.insOuts("pto.tload", []value{pv}, []value{t}, nil)
	return nil
}

// remote_store(src_tile, target, peer, offsets, atomic=) → pto.tstore into a
// partition of peer's copy ((rank-2) leading 1s, then the tile's valid
// rows and cols), then a single-line cache invalidate of it.
func emitRemoteStore(c *Ctx, call *ir.Call, _ *ir.Var) error {
	src, st, err := c.tile(call.Args[0])
	if err != nil {
		return err
	}
	offs, err := tuple(call, 3)
	if err != nil {
		return err
	}
	valid := tileValidShape(st)
	if len(valid) < 2 || len(offs) < 2 {
		return fmt.Errorf("remote_store needs a tile and a target of rank >= 2")
	}
	sizes := padLeading(valid[len(valid)-2:], len(offs))
	t, pv, err := c.peerPartition(call.Args[1], call.Args[2], offs, sizes)
	if err != nil {
		return err
	}
	var attrs []attr
	if call.Kwargs.Int("atomic", 0) == int64(ir.AtomicAdd) {
		if err := c.checkAtomic(t.dtype); err != nil {
			return err
		}
		attrs = []attr{atomicAttr(true)}
	}
	c.insOuts("pto.tstore", []value{src}, []value{pv}, attrs)
	c.cacheInvalidLine(pv)
	return nil
}

// put(dst, peer, src, stage[, stage_pong][, dst_offsets, src_offsets, shape])
// and get(dst, peer, src, stage[, ...]) → pto.comm.tput / tget through the
// staging tile(s), between pto.barrier <PIPE_ALL>; put then invalidates the
// peer region. The partitions keep the full transfer extent: a smaller
// (chunked) stage slides through it.
func emitPutGet(put bool) Emitter {
	return func(c *Ctx, call *ir.Call, _ *ir.Var) error {
		n := len(call.Args)
		nStages := 1
		if n == 5 || n == 8 {
			nStages = 2
		}
		if n != 4 && n != 5 && n != 7 && n != 8 {
			return fmt.Errorf("expected 4, 5, 7 or 8 arguments (dst, peer, src, stage[, stage_pong][, dst_offsets, src_offsets, shape]), got %d", n)
		}
		dst, err := c.tensorOf(call.Args[0])
		if err != nil {
			return err
		}
		src, err := c.tensorOf(call.Args[2])
		if err != nil {
			return err
		}
		dstOff, srcOff := zeros(len(dst.shape)), zeros(len(src.shape))
		dstSize, srcSize := dst.shape, src.shape
		if n >= 7 {
			reg := 3 + nStages
			if dstOff, err = tuple(call, reg); err != nil {
				return err
			}
			if srcOff, err = tuple(call, reg+1); err != nil {
				return err
			}
			if dstSize, err = tuple(call, reg+2); err != nil {
				return err
			}
			srcSize = dstSize
		}
		var dstPV, srcPV value
		if put {
			_, dstPV, err = c.peerPartition(call.Args[0], call.Args[1], dstOff, dstSize)
			if err == nil {
				_, srcPV, err = c.localPartition(call.Args[2], srcOff, srcSize)
			}
		} else {
			_, dstPV, err = c.localPartition(call.Args[0], dstOff, dstSize)
			if err == nil {
				_, srcPV, err = c.peerPartition(call.Args[2], call.Args[1], srcOff, srcSize)
			}
		}
		if err != nil {
			return err
		}
		var stages []value
		for i := 3; i < 3+nStages; i++ {
			s, _, err := c.tile(call.Args[i])
			if err != nil {
				return fmt.Errorf("stage: %v", err)
			}
			stages = append(stages, s)
		}
		name := "pto.comm.tget"
		var attrs []attr
		if put {
			name = "pto.comm.tput"
			add := call.Kwargs.Int("atomic", 0) == int64(ir.AtomicAdd)
			if add {
				if err := c.checkAtomic(dst.dtype); err != nil {
					return err
				}
			}
			attrs = []attr{atomicAttr(add)}
		}
		ops := append([]value{dstPV, srcPV}, stages...)
		custom := fmt.Sprintf("%s(%s, %s, buf(%s) : %s)", name, dstPV.ssa, srcPV.ssa, ssaList(stages), typeList(ops))
		if put {
			custom += " {" + attrs[0].name + " = " + attrs[0].val + "}"
		}
		c.barrier()
		c.stmtOp(name, ops, attrs, custom)
		c.barrier()
		if put {
			c.cacheInvalidLine(dstPV)
		}
		return nil
	}
}
