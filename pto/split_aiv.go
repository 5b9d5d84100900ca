package pto

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// pl.split_aiv regions are emitted inline: the lane index is the kernel's
// __pypto_spmd_subblock_idx argument, an aiv_shard moves this lane's half
// of the cube result (a pto.subview at the lane's offset) into its Vec
// tile, and an aic_gather moves the lane's half into the lane's window of
// the joined Mat tile. Upstream's ExpandMixedKernel instead splits such a
// kernel into cube and vector functions joined by TPUSH/TPOP pipes.

func init() {
	Register(ir.TileGetSubblockIdx, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		if res == nil {
			return nil
		}
		arg := c.subblock
		c.vals[res] = c.op(res.Name, "index", "arith.index_cast", []value{arg}, nil, "arith.index_cast "+arg.ssa+" : i32 to index")
		return nil
	})
	Register(ir.TileAivShard, emitLaneMove(true))
	Register(ir.TileAicGather, emitLaneMove(false))
}

// emitLaneMove emits aiv_shard (shard: this lane's window of the source
// moved into the result) or aic_gather (the source moved into this lane's
// window of the result); with split 0 the whole tile moves.
func emitLaneMove(shard bool) Emitter {
	return func(c *Ctx, call *ir.Call, res *ir.Var) error {
		src, st, err := c.tile(call.Args[0])
		if err != nil {
			return err
		}
		r, rt, err := c.allocResult(res)
		if err != nil {
			return err
		}
		axis := ir.SplitAxis(call.Kwargs.Int("split", 0))
		if axis < 0 {
			c.insOuts("pto.tmov", []value{src}, []value{r}, nil)
			return nil
		}
		// The half is the result's shape for a shard, the source's for a gather.
		half, whole, wholeType, hint := rt, src, st, "shard_view"
		if !shard {
			half, whole, wholeType, hint = st, r, rt, "gather_view"
		}
		row, col, err := c.laneOffset(axis, half.Shape[axis])
		if err != nil {
			return err
		}
		w, err := c.window(hint, whole, wholeType, row, col, half.Shape, tileValidShape(half))
		if err != nil {
			return err
		}
		if shard {
			c.insOuts("pto.tmov", []value{w}, []value{r}, nil)
		} else {
			c.insOuts("pto.tmov", []value{src}, []value{w}, nil)
		}
		return nil
	}
}

// laneOffset is the (row, col) offset of this lane's half along axis, of
// extent half: lane * half on the split axis, 0 on the other.
func (c *Ctx) laneOffset(axis int, half ir.Expr) (row, col value, err error) {
	if c.subblock.ssa == "" {
		return value{}, value{}, c.errorf("a split_aiv shard outside a pl.split_aiv region has no lane")
	}
	n, ok := ir.ConstValue(half)
	if !ok {
		return value{}, value{}, c.errorf("a split_aiv shard of a dynamic extent is not emitted by this codegen")
	}
	lane := c.op("lane", "index", "arith.index_cast", []value{c.subblock}, nil, "arith.index_cast "+c.subblock.ssa+" : i32 to index")
	size, err := c.index(ir.Int(n))
	if err != nil {
		return value{}, value{}, err
	}
	off := c.op("lane_off", "index", "arith.muli", []value{lane, size}, nil, fmt.Sprintf("arith.muli %s, %s : index", lane.ssa, size.ssa))
	zero, err := c.index(ir.Int(0))
	if err != nil {
		return value{}, value{}, err
	}
	if axis == 0 {
		return off, zero, nil
	}
	return zero, off, nil
}
