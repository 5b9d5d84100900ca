package passes

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// LowerCompositeOps expands InCore collectives into notify / wait /
// remote_load / put recipes with structured control flow (passes.md §4.2):
// every collective is a sequence of credit barriers barrier(1) … barrier(N)
// on AtomicAdd-only signal cells, followed by an epilogue in which each rank
// takes N credits back from its own cells. Cells therefore return to 0 when a
// call finishes, and the same signal can be passed to the next call.
//
// The seed #1746 allreduce recipe (Set 1 / Ge 1, reduce, AtomicAdd 1 / Ge 2,
// store; single-shot signals) is available as LowerCompositeOpsSeed1746, so
// the two can be stepped side by side.
func LowerCompositeOps(p *ir.Program) (*ir.Program, error) {
	return lowerComposites(p, compositeRules)
}

// LowerCompositeOpsSeed1746 is LowerCompositeOps with allreduce lowered by
// seed #1746's recipe instead of the credit barrier (Sum only).
func LowerCompositeOpsSeed1746(p *ir.Program) (*ir.Program, error) {
	rules := map[*ir.OpDef]compositeRule{}
	for k, v := range compositeRules {
		rules[k] = v
	}
	rules[ir.PldTensorAllreduce] = lowerAllReduceSeed
	return lowerComposites(p, rules)
}

// compositeRule appends the lowering of c to b and returns the expression the
// call's result variable is bound to (nil when the result is unused).
type compositeRule func(b *lowering, c *ir.Call) (ir.Expr, error)

// compositeRules is the pass's rule table, keyed by op.
var compositeRules = map[*ir.OpDef]compositeRule{
	ir.PldTensorAllreduce:     lowerAllReduce,
	ir.PldTensorBarrier:       lowerBarrier,
	ir.PldTensorBroadcast:     lowerBroadcast,
	ir.PldTensorAllgather:     lowerGather(false),
	ir.PldTensorAllToAll:      lowerGather(true),
	ir.PldTensorReduceScatter: lowerReduceScatter,
	ir.PldTensorAllToAllV:     lowerAllToAllV,
	ir.TileSin:                lowerSin,
	ir.TileCos:                lowerCos,
}

func lowerComposites(p *ir.Program, rules map[*ir.OpDef]compositeRule) (*ir.Program, error) {
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		if fn.Kind != ir.InCore {
			return fn, nil
		}
		names := newNamer(fn)
		body, err := mapBlock(fn.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
			c := ir.StmtCall(s)
			if c == nil || c.Op == nil {
				if r, ok := s.(*ir.ReturnStmt); ok && len(r.Values) == 1 {
					if rc, ok := r.Values[0].(*ir.Call); ok && rc.Op != nil && rules[rc.Op] != nil {
						return lowerOne(names, rules[rc.Op], rc, nil, r)
					}
				}
				return []ir.Stmt{s}, nil
			}
			rule := rules[c.Op]
			if rule == nil {
				return []ir.Stmt{s}, nil
			}
			var v *ir.Var
			if a, ok := s.(*ir.AssignStmt); ok {
				v = a.Var
			}
			return lowerOne(names, rule, c, v, nil)
		})
		if err != nil {
			return nil, err
		}
		return withBody(fn, body), nil
	})
}

// lowerOne runs one rule. The call's result is rebound to v (or returned when
// the call was returned directly).
func lowerOne(names *namer, rule compositeRule, c *ir.Call, v *ir.Var, ret *ir.ReturnStmt) (out []ir.Stmt, err error) {
	defer func() {
		// ir.MustCall inside a rule panics on a deducer rejection; report it
		// as this call's error.
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("%s at %s: %v", c.Op.Name, c.Pos, r)
		}
	}()
	b := &lowering{names: names, pos: c.Pos}
	res, err := rule(b, c)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", c.Op.Name, c.Pos, err)
	}
	switch {
	case ret != nil:
		b.stmts = append(b.stmts, &ir.ReturnStmt{StmtBase: ret.StmtBase, Values: []ir.Expr{res}})
	case v != nil && res != nil:
		b.stmts = append(b.stmts, assign(v, res))
	}
	return b.stmts, nil
}

// commPrologue binds ctx, nranks, nranks_idx and my_rank, as every upstream
// rule does.
type commCtx struct {
	ctx, nranks, nranksIdx, me *ir.Var
}

func (b *lowering) prologue(dist ir.Expr) commCtx {
	ctx := b.bind("ctx", b.op(ir.PldSystemGetCommCtx, []ir.Expr{dist}, nil))
	n := b.bind("nranks", b.op(ir.PldSystemNranks, []ir.Expr{ctx}, nil))
	nIdx := b.bind("nranks_idx", cast(n, ir.INDEX))
	me := b.bind("my_rank", b.op(ir.PldSystemRank, []ir.Expr{ctx}, nil))
	return commCtx{ctx: ctx, nranks: n, nranksIdx: nIdx, me: me}
}

func (b *lowering) notify(sig, peer ir.Expr, cell []ir.Expr, value ir.Expr, op ir.NotifyOp) {
	b.do(b.op(ir.PldSystemNotify, []ir.Expr{sig, peer, tuple(cell...), value}, ir.Kwargs{{Key: "op", Value: int64(op)}}))
}

func (b *lowering) wait(sig ir.Expr, cell []ir.Expr, expected ir.Expr, cmp ir.WaitCmp) {
	b.do(b.op(ir.PldSystemWait, []ir.Expr{sig, tuple(cell...), expected}, ir.Kwargs{{Key: "cmp", Value: int64(cmp)}}))
}

// forPeers emits `for name in pl.range(nranks): if name != my_rank: body`.
func (b *lowering) forPeers(cc commCtx, name string, body func(c *lowering, peer *ir.Var)) {
	b.forRange(name, ir.Int(0), cc.nranksIdx, ir.Int(1), func(c *lowering, peer *ir.Var) {
		c.ifThen(notEq(peer, cc.me), func(d *lowering) { body(d, peer) })
	})
}

// creditBarrier is barrier(g): one credit to my cell on every peer, then wait
// until every peer's cell of my signal holds at least g.
func (b *lowering) creditBarrier(cc commCtx, sig ir.Expr, g ir.Expr) {
	b.forPeers(cc, "peer", func(c *lowering, peer *ir.Var) {
		c.notify(sig, peer, []ir.Expr{cc.me, ir.Int(0)}, i32(1), ir.NotifyAtomicAdd)
	})
	b.forPeers(cc, "src", func(c *lowering, src *ir.Var) {
		c.wait(sig, []ir.Expr{src, ir.Int(0)}, g, ir.WaitGe)
	})
}

// epilogue takes back the n credits every peer gave: a self-notify of -n on
// each peer's cell, so the signal ends the call at zero.
func (b *lowering) epilogue(cc commCtx, sig ir.Expr, n ir.Expr) {
	b.forPeers(cc, "src", func(c *lowering, src *ir.Var) {
		c.notify(sig, cc.me, []ir.Expr{src, ir.Int(0)}, neg32(n), ir.NotifyAtomicAdd)
	})
}

func addConst(e ir.Expr, k int64) ir.Expr {
	if v, ok := ir.ConstValue(e); ok {
		return ir.Int(v + k)
	}
	switch {
	case k == 0:
		return e
	case k < 0:
		return bin(ir.OpSub, e, ir.Int(-k))
	}
	return bin(ir.OpAdd, e, ir.Int(k))
}

func neg32(n ir.Expr) ir.Expr {
	if v, ok := ir.ConstValue(n); ok {
		return i32(-v)
	}
	return cast(bin(ir.OpSub, ir.Int(0), n), ir.INT32)
}

// meshSignal checks the mesh signal shape [NR, 1] (ValidateMeshSignalShape).
func meshSignal(op string, sig ir.Expr) error {
	shape, _, _ := ir.ShapeOf(sig.Type())
	switch len(shape) {
	case 1:
		return nil
	case 2:
		if v, ok := ir.ConstValue(shape[1]); ok && v == 1 {
			return nil
		}
	}
	return fmt.Errorf("%s: signal shape[1] must be 1 (a mesh signal is [nranks, 1]), got %s", op, ir.ShapeString(shape))
}

// targetDims splits a 2-D DistributedTensor target into its row count (an
// expression: NR rows are fine) and its static column count; the recipes
// address it by rows and chunks of columns.
func targetDims(op string, t ir.Expr) (rows ir.Expr, cols int64, dt ir.DataType, err error) {
	shape, dt, _ := ir.ShapeOf(t.Type())
	if len(shape) != 2 {
		return nil, 0, dt, fmt.Errorf("%s: LowerCompositeOps needs a 2-D target, got %s", op, ir.ShapeString(shape))
	}
	cols, ok := ir.ConstValue(shape[1])
	if !ok {
		return nil, 0, dt, fmt.Errorf("%s: the target's last dimension must be static, got %s", op, ir.ShapeString(shape))
	}
	return shape[0], cols, dt, nil
}

// mulRows is rows * k, folded when rows is a constant.
func mulRows(rows ir.Expr, k int64) ir.Expr {
	if v, ok := ir.ConstValue(rows); ok {
		return ir.Int(v * k)
	}
	return bin(ir.OpMul, rows, ir.Int(k))
}

// reduceTileOp is the tile op that combines two partial results.
func reduceTileOp(op int64) (*ir.OpDef, error) {
	switch ir.ReduceOp(op) {
	case ir.ReduceSum:
		return ir.TileAdd, nil
	case ir.ReduceMax:
		return ir.TileMaximum, nil
	case ir.ReduceMin:
		return ir.TileMinimum, nil
	case ir.ReduceProd:
		return ir.TileMul, nil
	}
	return nil, fmt.Errorf("unknown reduce op %d", op)
}

// chunkElems is C: 16 KiB of elements, shrunk to the 32-byte-aligned cover of
// a smaller row.
func chunkElems(cols int64, dt ir.DataType) int64 {
	esize := int64(dt.Bytes())
	if esize <= 0 {
		esize = 1
	}
	c := 16 * 1024 / esize
	if cols < c {
		bytes := (cols*esize + 31) / 32 * 32
		c = bytes / esize
	}
	return c
}

// collectiveArgs reads a collective's input, target and signal by their
// registry names; one the op does not declare is nil, one it declares but
// the call lacks is an error naming the op and the argument.
func collectiveArgs(c *ir.Call) (input, target, sig ir.Expr, err error) {
	get := func(name string) ir.Expr {
		if err != nil || c.Op.ArgIndex(name) < 0 {
			return nil
		}
		var e ir.Expr
		e, err = c.ArgErr(name)
		return e
	}
	input, target, sig = get("input"), get("target"), get("signal")
	if err == nil && sig == nil {
		err = fmt.Errorf("%s: not a collective with a signal argument", c.Name())
	}
	return input, target, sig, err
}

// meshArgs is collectiveArgs for the mesh recipes, whose signal must be
// [nranks, 1].
func meshArgs(c *ir.Call) (input, target, sig ir.Expr, err error) {
	if input, target, sig, err = collectiveArgs(c); err == nil {
		err = meshSignal(c.Op.Name, sig)
	}
	return input, target, sig, err
}

// lowerAllReduce is the mesh allreduce with self-clearing credits: barrier(1),
// then per chunk a load, a reduction over peers' remote loads, a barrier
// (so no peer still reads the chunk) and the store; the epilogue returns
// 1 + chunks credits.
func lowerAllReduce(b *lowering, c *ir.Call) (ir.Expr, error) {
	if len(c.Args) < 2 {
		return nil, fmt.Errorf("a signal-less allreduce is only allowed on the host (SynthesizeAllReduceSignals)")
	}
	if mode := c.Kwargs.String("mode", "mesh"); mode == "ring" {
		return lowerAllReduceRing(b, c)
	} else if mode != "mesh" {
		return nil, fmt.Errorf("unknown mode %q (mesh or ring)", mode)
	}
	if n := c.Kwargs.Int("core_num", 1); n != 1 {
		return nil, fmt.Errorf("mesh allreduce needs core_num=1, got %d", n)
	}
	_, target, sig, err := meshArgs(c)
	if err != nil {
		return nil, err
	}
	rows, cols, dt, err := targetDims(c.Op.Name, target)
	if err != nil {
		return nil, err
	}
	combine, err := reduceTileOp(c.Kwargs.Int("op", 0))
	if err != nil {
		return nil, err
	}
	C := chunkElems(cols, dt)
	perRow := (cols + C - 1) / C
	oneRow := false
	if v, ok := ir.ConstValue(rows); ok && v == 1 {
		oneRow = true
	}

	cc := b.prologue(target)
	b.creditBarrier(cc, sig, i32(1))
	chunk := func(c *lowering, row ir.Expr, col *ir.Var) {
		var valid ir.Expr = ir.Int(C)
		if cols%C != 0 {
			valid = c.bind("v", bin(ir.OpMin, ir.Int(C), bin(ir.OpSub, ir.Int(cols), col)))
		}
		off := tuple(row, col)
		full, vshape := tuple(ir.Int(1), ir.Int(C)), tuple(ir.Int(1), valid)
		pad := ir.Kwargs{{Key: "pad_value", Value: ir.PadZero}}
		ld := c.bind("chunk", c.op(ir.TileLoad, []ir.Expr{target, off, full, vshape}, ir.Kwargs{{Key: "target_memory", Value: ir.MemVec}}))
		acc0 := c.bind("acc", c.op(ir.TileFillpadInplace, []ir.Expr{ld}, pad))
		acc := c.forReduce("peer", ir.Int(0), cc.nranksIdx, "acc", acc0, func(d *lowering, peer *ir.Var, acc ir.Expr) ir.Expr {
			return d.ifExpr(notEq(peer, cc.me), "acc_next", acc.Type(), func(e *lowering) ir.Expr {
				recv := e.bind("recv", e.op(ir.PldTileRemoteLoad, []ir.Expr{target, peer, off, full, vshape}, nil))
				recv = e.bind("recv_pad", e.op(ir.TileFillpadInplace, []ir.Expr{recv}, pad))
				return e.bind("acc_sum", e.op(combine, []ir.Expr{acc, recv}, nil))
			}, func(e *lowering) ir.Expr { return acc })
		})
		// Chunk k's barrier expects k+2 credits: 1 from the opening barrier.
		k := bin(ir.OpFloorDiv, col, ir.Int(C))
		if !oneRow {
			k = bin(ir.OpAdd, bin(ir.OpMul, row, ir.Int(perRow)), k)
		}
		c.creditBarrier(cc, sig, cast(bin(ir.OpAdd, k, ir.Int(2)), ir.INT32))
		out := ir.Expr(acc)
		if cols%C != 0 {
			out = c.bind("acc_valid", c.op(ir.TileSetValidshape, []ir.Expr{acc, ir.Int(1), valid}, nil))
		}
		c.do(c.op(ir.TileStore, []ir.Expr{out, off, target}, nil))
	}
	colLoop := func(c *lowering, row ir.Expr) {
		c.forRange("col", ir.Int(0), ir.Int(cols), ir.Int(C), func(d *lowering, col *ir.Var) { chunk(d, row, col) })
	}
	if oneRow {
		colLoop(b, ir.Int(0))
	} else {
		b.forRange("row", ir.Int(0), rows, ir.Int(1), func(c *lowering, row *ir.Var) { colLoop(c, row) })
	}
	b.epilogue(cc, sig, addConst(mulRows(rows, perRow), 1))
	return target, nil
}

// lowerAllReduceSeed is seed #1746's recipe: ready notify (Set 1), ready wait
// (Ge 1), full load and peer reduction, post-reduce notify (AtomicAdd 1, cell
// 1 → 2), post-reduce wait (Ge 2), store. Five loops, five ifs; the signal is
// single-shot (its cells end at 2).
func lowerAllReduceSeed(b *lowering, c *ir.Call) (ir.Expr, error) {
	if len(c.Args) < 2 {
		return nil, fmt.Errorf("the seed #1746 recipe needs an explicit signal")
	}
	if op := c.Kwargs.Int("op", 0); op != int64(ir.ReduceSum) {
		return nil, fmt.Errorf("the seed #1746 recipe supports only pld.ReduceOp.Sum, got %s", ir.ReduceOp(op))
	}
	_, target, sig, err := meshArgs(c)
	if err != nil {
		return nil, err
	}
	shape, _, _ := ir.ShapeOf(target.Type())
	cc := b.prologue(target)
	mine := []ir.Expr{cc.me, ir.Int(0)}
	b.forPeers(cc, "peer", func(c *lowering, peer *ir.Var) { c.notify(sig, peer, mine, i32(1), ir.NotifySet) })
	b.forPeers(cc, "src", func(c *lowering, src *ir.Var) { c.wait(sig, []ir.Expr{src, ir.Int(0)}, i32(1), ir.WaitGe) })
	zeros, full := zerosLike(shape), tuple(shape...)
	acc0 := b.bind("acc", b.op(ir.TileLoad, []ir.Expr{target, zeros, full, full},
		ir.Kwargs{{Key: "target_memory", Value: ir.MemVec}}))
	acc := b.forReduce("peer", ir.Int(0), cc.nranksIdx, "acc", acc0, func(d *lowering, peer *ir.Var, acc ir.Expr) ir.Expr {
		return d.ifExpr(notEq(peer, cc.me), "acc_next", acc.Type(), func(e *lowering) ir.Expr {
			recv := e.bind("recv", e.op(ir.PldTileRemoteLoad, []ir.Expr{target, peer, zeros, full}, nil))
			return e.bind("acc_sum", e.op(ir.TileAdd, []ir.Expr{acc, recv}, nil))
		}, func(e *lowering) ir.Expr { return acc })
	})
	b.forPeers(cc, "peer", func(c *lowering, peer *ir.Var) { c.notify(sig, peer, mine, i32(1), ir.NotifyAtomicAdd) })
	b.forPeers(cc, "src", func(c *lowering, src *ir.Var) { c.wait(sig, []ir.Expr{src, ir.Int(0)}, i32(2), ir.WaitGe) })
	return b.op(ir.TileStore, []ir.Expr{acc, zeros, target}, nil), nil
}

func lowerBarrier(b *lowering, c *ir.Call) (ir.Expr, error) {
	_, _, sig, err := meshArgs(c)
	if err != nil {
		return nil, err
	}
	cc := b.prologue(sig)
	b.creditBarrier(cc, sig, i32(1))
	b.epilogue(cc, sig, ir.Int(1))
	return sig, nil
}

// lowerBroadcast: barrier(1) so root's data is in place, then every rank gets
// root's target through a staging tile — in one get when the shape is
// static, row by row when the row count is only known at run time.
func lowerBroadcast(b *lowering, c *ir.Call) (ir.Expr, error) {
	_, target, sig, err := meshArgs(c)
	if err != nil {
		return nil, err
	}
	shape, dt, _ := ir.ShapeOf(target.Type())
	root := ir.IntOf(c.Kwargs.Int("root", 0), ir.INT32)
	cc := b.prologue(target)
	b.creditBarrier(cc, sig, i32(1))
	stageOf := func(st []ir.Expr) *ir.Var {
		return b.bind("bcast_stage", b.op(ir.TileCreate, []ir.Expr{tuple(st...)},
			ir.Kwargs{{Key: "dtype", Value: dt}, {Key: "target_memory", Value: ir.MemVec}}))
	}
	if st, err := stageShape(shape, 0, 0); err == nil {
		b.do(b.op(ir.PldTileGet, []ir.Expr{target, root, target, stageOf(st)}, nil))
	} else {
		rows, cols, _, err := targetDims(c.Op.Name, target)
		if err != nil {
			return nil, err
		}
		stage := stageOf([]ir.Expr{ir.Int(1), ir.Int(cols)})
		b.forRange("row", ir.Int(0), rows, ir.Int(1), func(d *lowering, row *ir.Var) {
			at := tuple(row, ir.Int(0))
			d.do(d.op(ir.PldTileGet, []ir.Expr{target, root, target, stage, at, at, tuple(ir.Int(1), ir.Int(cols))}, nil))
		})
	}
	b.epilogue(cc, sig, ir.Int(1))
	return target, nil
}

// lowerGather is allgather (each rank puts its [1, SIZE] input into row me of
// every peer's target, itself included) or all_to_all (row dest of the input
// goes to row me of dest's target); one barrier publishes the rows.
func lowerGather(toAll bool) compositeRule {
	return func(b *lowering, c *ir.Call) (ir.Expr, error) {
		input, target, sig, err := meshArgs(c)
		if err != nil {
			return nil, err
		}
		_, cols, dt, err := targetDims(c.Op.Name, target)
		if err != nil {
			return nil, err
		}
		name, loop := "ag_stage", "peer"
		if toAll {
			name, loop = "aa_stage", "dest"
		}
		cc := b.prologue(target)
		stage := b.bind(name, b.op(ir.TileCreate, []ir.Expr{tuple(ir.Int(1), ir.Int(cols))},
			ir.Kwargs{{Key: "dtype", Value: dt}, {Key: "target_memory", Value: ir.MemVec}}))
		b.forRange(loop, ir.Int(0), cc.nranksIdx, ir.Int(1), func(d *lowering, peer *ir.Var) {
			var srcRow ir.Expr = ir.Int(0)
			if toAll {
				srcRow = peer
			}
			d.do(d.op(ir.PldTilePut, []ir.Expr{target, peer, input, stage,
				tuple(cc.me, ir.Int(0)), tuple(srcRow, ir.Int(0)), tuple(ir.Int(1), ir.Int(cols))},
				ir.Kwargs{{Key: "atomic", Value: int64(ir.AtomicNone)}}))
		})
		b.creditBarrier(cc, sig, i32(1))
		b.epilogue(cc, sig, ir.Int(1))
		return target, nil
	}
}

// lowerAllToAllV is upstream's LowerTensorAllToAllVRule (MPI_Alltoallv):
// the target [NR*MAX_RECV, SIZE] holds one MAX_RECV-row block per source.
// For each destination: read send_counts[dest], publish min(count,
// MAX_RECV) into dest's recv_counts[me, 0] with Set, and put the whole
// block input[dest*MAX_RECV, :] into dest's target[me*MAX_RECV, :]
// (transfers are static [MAX_RECV, SIZE], through a [1, SIZE] stage); then
// one credit barrier. NR and MAX_RECV must be static.
func lowerAllToAllV(b *lowering, c *ir.Call) (ir.Expr, error) {
	input, target, sig, err := meshArgs(c)
	if err != nil {
		return nil, err
	}
	counts, err := c.ArgErr("send_counts")
	if err != nil {
		return nil, err
	}
	recv, err := c.ArgErr("recv_counts")
	if err != nil {
		return nil, err
	}
	rows, cols, dt, err := targetDims(c.Op.Name, target)
	if err != nil {
		return nil, err
	}
	sigShape, _, _ := ir.ShapeOf(sig.Type())
	total, ok1 := ir.ConstValue(rows)
	nr, ok2 := ir.ConstValue(sigShape[0])
	if !ok1 || !ok2 || nr <= 0 || total%nr != 0 {
		return nil, fmt.Errorf("%s: the target's rows (%s) must be a static multiple of the signal's static NR (%s)", c.Op.Name, ir.DefaultFormat.Dim(rows), ir.DefaultFormat.Dim(sigShape[0]))
	}
	countShape, _, _ := ir.ShapeOf(counts.Type())
	maxRecv := ir.Int(total / nr)
	cc := b.prologue(target)
	stage := b.bind("aav_stage", b.op(ir.TileCreate, []ir.Expr{tuple(ir.Int(1), ir.Int(cols))},
		ir.Kwargs{{Key: "dtype", Value: dt}, {Key: "target_memory", Value: ir.MemVec}}))
	b.forRange("dest", ir.Int(0), cc.nranksIdx, ir.Int(1), func(d *lowering, dest *ir.Var) {
		idx := []ir.Expr{dest}
		if len(countShape) == 2 {
			idx = append(idx, ir.Int(0))
		}
		count := d.bind("aav_count", d.op(ir.TensorRead, []ir.Expr{counts, tuple(idx...)}, nil))
		n := d.bind("aav_rows", bin(ir.OpMin, cast(count, ir.INDEX), maxRecv))
		n32 := d.bind("aav_count_i32", cast(n, ir.INT32))
		d.notify(recv, dest, []ir.Expr{cc.me, ir.Int(0)}, n32, ir.NotifySet)
		d.do(d.op(ir.PldTilePut, []ir.Expr{target, dest, input, stage,
			tuple(bin(ir.OpMul, cc.me, maxRecv), ir.Int(0)), tuple(bin(ir.OpMul, dest, maxRecv), ir.Int(0)), tuple(maxRecv, ir.Int(cols))},
			ir.Kwargs{{Key: "atomic", Value: int64(ir.AtomicNone)}}))
	})
	b.creditBarrier(cc, sig, i32(1))
	b.epilogue(cc, sig, ir.Int(1))
	return target, nil
}

// lowerReduceScatter: barrier(1); row me reduced over peers; barrier(2) so
// no peer still reads row me; store.
func lowerReduceScatter(b *lowering, c *ir.Call) (ir.Expr, error) {
	_, target, sig, err := meshArgs(c)
	if err != nil {
		return nil, err
	}
	_, cols, _, err := targetDims(c.Op.Name, target)
	if err != nil {
		return nil, err
	}
	combine, err := reduceTileOp(c.Kwargs.Int("op", 0))
	if err != nil {
		return nil, err
	}
	cc := b.prologue(target)
	b.creditBarrier(cc, sig, i32(1))
	off, shape := tuple(cc.me, ir.Int(0)), tuple(ir.Int(1), ir.Int(cols))
	acc0 := b.bind("acc", b.op(ir.TileLoad, []ir.Expr{target, off, shape, shape}, ir.Kwargs{{Key: "target_memory", Value: ir.MemVec}}))
	acc := b.forReduce("peer", ir.Int(0), cc.nranksIdx, "acc", acc0, func(d *lowering, peer *ir.Var, acc ir.Expr) ir.Expr {
		return d.ifExpr(notEq(peer, cc.me), "acc_next", acc.Type(), func(e *lowering) ir.Expr {
			recv := e.bind("recv", e.op(ir.PldTileRemoteLoad, []ir.Expr{target, peer, off, shape}, nil))
			return e.bind("acc_sum", e.op(combine, []ir.Expr{acc, recv}, nil))
		}, func(e *lowering) ir.Expr { return acc })
	})
	b.creditBarrier(cc, sig, i32(2))
	b.do(b.op(ir.TileStore, []ir.Expr{acc, off, target}, nil))
	b.epilogue(cc, sig, ir.Int(2))
	return target, nil
}

// lowerAllReduceRing is the ring allreduce (mode="ring") in upstream #2280's
// push model: NR-1 reduce-scatter steps then NR-1 allgather steps, step s on
// row s of the [2(NR-1), NR] signal. The [1, SIZE] target is cut into NR
// balanced segments (boundaries floor(i*SIZE/NR); FP16 rounds interior
// boundaries up to 32 bytes), each walked in sub-chunks of at most 16 KiB.
//
// Per reduce-scatter sub-chunk, rank me first reads its own value of the
// receive slot (nobody has pushed into it yet), passes a ready barrier
// (generation 2k+1), pushes its send slot into the same slot of its right
// neighbour with a non-atomic pld.tile.put, passes a push-done barrier
// (2k+2), and only then reads the slot again (now the left neighbour's
// partial), reduces it with the saved own value and stores it. The push is
// a plain copy and the reduction local, so every ReduceOp works. Allgather
// sub-chunks push the finished segment between the same two barriers.
//
// A barrier involves the two ring neighbours only (one rank at NR = 2): it
// credits cell [row, me] on each and waits on cells [row, left] and
// [row, right]. That suffices in the push model: the only writer of a rank's
// slots is its left neighbour, whose put is ordered ahead of the notify that
// follows it, and the only rank it must not overtake is its right one. So a
// rank executes O(1) signal ops per sub-chunk rather than O(NR). Every row
// receives 2 * chunk_count credits on each neighbour's cell and nothing on
// the others, and the epilogue takes exactly those back.
func lowerAllReduceRing(b *lowering, c *ir.Call) (ir.Expr, error) {
	_, target, sig, err := collectiveArgs(c)
	if err != nil {
		return nil, err
	}
	rows, size, dt, err := targetDims(c.Op.Name, target)
	if err != nil {
		return nil, err
	}
	if r, ok := ir.ConstValue(rows); !ok || r != 1 {
		return nil, fmt.Errorf("ring mode lowers a [1, SIZE] target, got %s rows", ir.DefaultFormat.Expr(rows))
	}
	sigShape, sigDT, _ := ir.ShapeOf(sig.Type())
	if len(sigShape) != 2 {
		return nil, fmt.Errorf("mode=ring signal must be 2D [2*(NR-1), NR], got %s", ir.ShapeString(sigShape))
	}
	if sigDT != ir.INT32 {
		return nil, fmt.Errorf("mode=ring signal must be INT32, got %s", sigDT.Name())
	}
	dims, ok := ir.StaticDims(sigShape)
	if !ok || dims[1] < 2 {
		return nil, fmt.Errorf("ring mode needs a static signal of shape [2*(NR-1), NR] with NR >= 2, got %s", ir.ShapeString(sigShape))
	}
	nr := dims[1]
	if dims[0] != 2*(nr-1) {
		return nil, fmt.Errorf("pld.tensor.allreduce mode=ring signal shape[0] (%d) must equal 2*(NR-1) = %d for NR = %d", dims[0], 2*(nr-1), nr)
	}
	combine, err := reduceTileOp(c.Kwargs.Int("op", 0))
	if err != nil {
		return nil, err
	}
	esize := int64(dt.Bytes())
	maxChunk := 16 * 1024 / esize
	align := 32 / esize
	maxSeg := (size + nr - 1) / nr
	if dt == ir.FP16 {
		maxSeg = min(size, maxSeg+align-1)
	}
	chunkCols := maxChunk
	if maxSeg > 0 && maxSeg < maxChunk {
		chunkCols = ((maxSeg-1)/align + 1) * align
	}
	chunkCount := (maxSeg + chunkCols - 1) / chunkCols
	sizeE, nrE := ir.Int(size), ir.Int(nr)
	one := ir.Int(1)
	// boundary(i) is segment i's first column.
	boundary := func(i ir.Expr) ir.Expr {
		scaled := bin(ir.OpMul, i, sizeE)
		if dt != ir.FP16 {
			return bin(ir.OpFloorDiv, scaled, nrE)
		}
		den := ir.Int(nr * align)
		aligned := bin(ir.OpMul, bin(ir.OpFloorDiv, bin(ir.OpAdd, scaled, ir.Int(nr*align-1)), den), ir.Int(align))
		return bin(ir.OpMin, aligned, sizeE)
	}

	cc := b.prologue(target)
	me := b.bind("my_rank_idx", cast(cc.me, ir.INDEX))
	chunkShape := tuple(one, ir.Int(chunkCols))
	stage := b.bind("ring_put_stage", b.op(ir.TileCreate, []ir.Expr{chunkShape},
		ir.Kwargs{{Key: "dtype", Value: dt}, {Key: "target_memory", Value: ir.MemVec}}))
	vec := ir.Kwargs{{Key: "target_memory", Value: ir.MemVec}}
	pad := ir.Kwargs{{Key: "pad_value", Value: ir.PadZero}}
	sub := func(a, b ir.Expr) ir.Expr { return bin(ir.OpSub, a, b) }
	add := func(a, b ir.Expr) ir.Expr { return bin(ir.OpAdd, a, b) }
	mod := func(a ir.Expr) ir.Expr { return bin(ir.OpFloorMod, a, cc.nranksIdx) }
	// The ring neighbours, bound once; at P = 2 they are the same rank,
	// which then gets one credit per barrier, not two.
	ringLeft := b.bind("ring_left", mod(add(sub(me, one), cc.nranksIdx)))
	ringRight := b.bind("ring_right", mod(add(me, one)))
	twoNeighbours := func() ir.Expr { return notEq(ringLeft, ringRight) }
	// barrier credits cell [row, me] of both neighbours and waits for
	// generation g on cells [row, left] and [row, right]. Ranks further
	// away never touch this rank's target during the step, and a put's
	// data is ordered ahead of the notify that follows it.
	barrier := func(d *lowering, row, g ir.Expr) {
		d.notify(sig, ringRight, []ir.Expr{row, cc.me}, i32(1), ir.NotifyAtomicAdd)
		d.ifThen(twoNeighbours(), func(e *lowering) {
			e.notify(sig, ringLeft, []ir.Expr{row, cc.me}, i32(1), ir.NotifyAtomicAdd)
		})
		d.wait(sig, []ir.Expr{row, ringLeft}, g, ir.WaitGe)
		d.ifThen(twoNeighbours(), func(e *lowering) {
			e.wait(sig, []ir.Expr{row, ringRight}, g, ir.WaitGe)
		})
	}
	// epochs binds the ready (2k+1) and push-done (2k+2) generations of
	// the sub-chunk at subcol.
	epoch := func(d *lowering, name string, subcol ir.Expr, plus int64) ir.Expr {
		k2 := bin(ir.OpMul, bin(ir.OpFloorDiv, subcol, ir.Int(chunkCols)), ir.Int(2))
		return d.bind(name, cast(bin(ir.OpAdd, k2, ir.Int(plus)), ir.INT32))
	}
	// loadOr is fillpad(load(offs)) when active, else a placeholder read of
	// the same shape at [0, 0]: an IfExpr's branches need one tile type.
	zeros := tuple(ir.Int(0), ir.Int(0))
	loadOr := func(d *lowering, active ir.Expr, offs, valid *ir.MakeTuple, rv, name, placeholder string,
		then func(e *lowering, v ir.Expr) ir.Expr) *ir.Var {
		return d.ifExpr(active, rv, nil, func(e *lowering) ir.Expr {
			ld := e.bind(name+"_loaded", e.op(ir.TileLoad, []ir.Expr{target, offs, chunkShape, valid}, vec))
			return then(e, e.bind(name, e.op(ir.TileFillpadInplace, []ir.Expr{ld}, pad)))
		}, func(e *lowering) ir.Expr {
			ld := e.bind(placeholder+"_loaded", e.op(ir.TileLoad, []ir.Expr{target, zeros, chunkShape, valid}, vec))
			return e.bind(placeholder, e.op(ir.TileFillpadInplace, []ir.Expr{ld}, pad))
		})
	}
	// push is `if active: put(target → right's target, same slot)` through
	// the stage narrowed to the transfer.
	push := func(d *lowering, active ir.Expr, right ir.Expr, offs *ir.MakeTuple, validCols ir.Expr, stageName string) {
		d.ifThen(active, func(e *lowering) {
			st := e.bind(stageName, e.op(ir.TileSetValidshape, []ir.Expr{stage, one, validCols}, nil))
			e.do(e.op(ir.PldTilePut, []ir.Expr{target, right, target, st, offs, offs, tuple(one, validCols)},
				ir.Kwargs{{Key: "atomic", Value: int64(ir.AtomicNone)}}))
		})
	}
	chunkE := ir.Int(chunkCols)
	nrMinusOne := b.bind("nr_minus_one", sub(cc.nranksIdx, one))

	// Reduce-scatter: in step s rank me receives segment me-s-1 from its
	// left neighbour and pushes segment me-s to its right one.
	b.forRange("rs_step", ir.Int(0), nrMinusOne, one, func(d *lowering, rsStep *ir.Var) {
		step := d.bind("step", add(rsStep, one))
		recvIdx := d.bind("recv_idx", mod(add(sub(sub(me, step), one), cc.nranksIdx)))
		sendIdx := d.bind("send_idx", mod(add(sub(me, step), cc.nranksIdx)))
		recvBegin := d.bind("rs_recv_segment_begin", boundary(recvIdx))
		recvEnd := d.bind("rs_recv_segment_end", boundary(add(recvIdx, one)))
		recvCols := d.bind("rs_recv_segment_cols", sub(recvEnd, recvBegin))
		sendBegin := d.bind("rs_send_segment_begin", boundary(sendIdx))
		sendEnd := d.bind("rs_send_segment_end", boundary(add(sendIdx, one)))
		sendCols := d.bind("rs_send_segment_cols", sub(sendEnd, sendBegin))
		d.forRange("rs_col", ir.Int(0), ir.Int(maxSeg), chunkE, func(e *lowering, subcol *ir.Var) {
			recvActive := bin(ir.OpLt, subcol, recvCols)
			recvValid := bin(ir.OpMin, chunkE, sub(recvCols, subcol))
			loadValid := tuple(one, bin(ir.OpMax, one, recvValid))
			recvOffs := tuple(ir.Int(0), add(recvBegin, subcol))
			sendActive := bin(ir.OpLt, subcol, sendCols)
			sendValid := bin(ir.OpMin, chunkE, sub(sendCols, subcol))
			sendOffs := tuple(ir.Int(0), add(sendBegin, subcol))
			// Own value first: nobody pushes into the slot before the
			// ready barrier.
			own := loadOr(e, recvActive, recvOffs, loadValid, "acc_own", "acc_rs_own", "acc_rs_own_placeholder",
				func(_ *lowering, v ir.Expr) ir.Expr { return v })
			barrier(e, rsStep, epoch(e, "rs_ready_epoch", subcol, 1))
			push(e, sendActive, ringRight, sendOffs, sendValid, "rs_stage_valid")
			barrier(e, rsStep, epoch(e, "rs_read_epoch", subcol, 2))
			acc := loadOr(e, recvActive, recvOffs, loadValid, "acc_full", "recv_rs", "acc_rs_placeholder",
				func(f *lowering, recv ir.Expr) ir.Expr {
					return f.bind("acc_rs_next", f.op(combine, []ir.Expr{own, recv}, nil))
				})
			e.ifThen(recvActive, func(f *lowering) {
				// Clamped forms of the active branch's bounds, as upstream
				// writes them, so the store is provably inside the target.
				col := sub(sizeE, bin(ir.OpMax, ir.Int(0), sub(sizeE, add(recvBegin, subcol))))
				end := sub(sizeE, bin(ir.OpMax, ir.Int(0), sub(sizeE, add(col, recvValid))))
				v := f.bind("acc_rs_valid", f.op(ir.TileSetValidshape, []ir.Expr{acc, one, sub(end, col)}, nil))
				f.do(f.op(ir.TileStore, []ir.Expr{v, tuple(ir.Int(0), col), target}, nil))
			})
		})
	})
	// Allgather: in step s rank me forwards the finished segment me-s+1 to
	// its right neighbour; the push is the store.
	b.forRange("ag_step", ir.Int(0), nrMinusOne, one, func(d *lowering, agStep *ir.Var) {
		step := d.bind("ag_step_val", add(agStep, one))
		round := d.bind("ag_round", add(agStep, nrMinusOne))
		sendIdx := d.bind("ag_send_idx", mod(add(add(sub(me, step), one), cc.nranksIdx)))
		begin := d.bind("ag_segment_begin", boundary(sendIdx))
		end := d.bind("ag_segment_end", boundary(add(sendIdx, one)))
		cols := d.bind("ag_segment_cols", sub(end, begin))
		d.forRange("ag_col", ir.Int(0), ir.Int(maxSeg), chunkE, func(e *lowering, subcol *ir.Var) {
			active := bin(ir.OpLt, subcol, cols)
			valid := bin(ir.OpMin, chunkE, sub(cols, subcol))
			offs := tuple(ir.Int(0), add(begin, subcol))
			barrier(e, round, epoch(e, "ag_ready_epoch", subcol, 1))
			push(e, active, ringRight, offs, valid, "ag_stage_valid")
			barrier(e, round, epoch(e, "ag_read_epoch", subcol, 2))
		})
	})
	// Every row got 2 * chunk_count credits from each neighbour and none
	// from anyone else.
	total := b.bind("ring_reset_total", i32(2*chunkCount))
	// A one-rank run has no neighbour and took no credits.
	b.ifThen(notEq(ringLeft, me), func(c *lowering) {
		c.forRange("reset_row", ir.Int(0), ir.Int(2*(nr-1)), one, func(d *lowering, row *ir.Var) {
			neg := &ir.UnaryExpr{Op: ir.OpNeg, X: total, DType: ir.INT32}
			d.notify(sig, cc.me, []ir.Expr{row, ringLeft}, neg, ir.NotifyAtomicAdd)
			d.ifThen(twoNeighbours(), func(e *lowering) {
				e.notify(sig, cc.me, []ir.Expr{row, ringRight}, neg, ir.NotifyAtomicAdd)
			})
		})
	})
	return target, nil
}
