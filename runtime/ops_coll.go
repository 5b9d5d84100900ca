package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Collectives follow main's lowering (passes.md §4.2): a sequence of credit
// barriers — notify every peer +1 on my cell [me, 0], wait until each
// peer's cell of my signal is >= g — around the data movement, then an
// epilogue that subtracts the credits so the signal returns to zero and can
// be reused. Every step goes through the same notify/wait and window API as
// user code, so deadlock detection and observers cover collectives too.

func init() {
	Register(ir.PldTensorBarrier, collective(0, func(k *coll, a []any) (any, error) {
		if err := k.barrier(1); err != nil {
			return nil, err
		}
		return k.sigV, k.epilogue(1)
	}))
	Register(ir.PldTensorAllreduce, collective(1, allreduce))
	Register(ir.PldTensorBroadcast, collective(1, broadcast))
	Register(ir.PldTensorReduceScatter, collective(1, reduceScatter))
	Register(ir.PldTensorAllgather, collective(2, func(k *coll, a []any) (any, error) { return k.scatterRows(a, false) }))
	Register(ir.PldTensorAllToAll, collective(2, func(k *coll, a []any) (any, error) { return k.scatterRows(a, true) }))
	Register(ir.PldTensorAllToAllV, collective(2, func(k *coll, a []any) (any, error) { return k.allToAllV(a) }))

	// The host builtins LowerHostTensorCollectives emits: each is one
	// device's part of a host collective, queued on that device like a
	// dispatch; the device runs the collective's native body.
	registerBuiltin(ir.BuiltinTensorAllreduce, hostBuiltin(collective(1, allreduce)))
	registerBuiltin(ir.BuiltinTensorAllreduceRing, hostBuiltin(collective(1, func(k *coll, a []any) (any, error) {
		t, err := winArg(a[0], "target")
		if err != nil {
			return nil, err
		}
		return t, k.ring(t)
	})))
	registerBuiltin(ir.BuiltinTensorBarrier, hostBuiltin(collective(0, func(k *coll, a []any) (any, error) {
		if err := k.barrier(1); err != nil {
			return nil, err
		}
		return k.sigV, k.epilogue(1)
	})))
	registerBuiltin(ir.BuiltinTensorBroadcast, hostBuiltin(collective(1, broadcast)))
	registerBuiltin(ir.BuiltinTensorReduceScatter, hostBuiltin(collective(1, reduceScatter)))
	registerBuiltin(ir.BuiltinTensorAllgather, hostBuiltin(collective(2, func(k *coll, a []any) (any, error) { return k.scatterRows(a, false) })))
	registerBuiltin(ir.BuiltinTensorAllToAll, hostBuiltin(collective(2, func(k *coll, a []any) (any, error) { return k.scatterRows(a, true) })))
	registerBuiltin(ir.BuiltinTensorAllToAllV, hostBuiltin(collective(2, func(k *coll, a []any) (any, error) { return k.allToAllV(a) })))
}

// hostDispatchFacet marks an op the host runs as a device dispatch: like
// a device= call, it does not first join the devices' queued work.
const hostDispatchFacet = "sim.host_dispatch"

func registerBuiltin(op *ir.OpDef, fn OpFunc) {
	Register(op, fn)
	op.SetFacet(hostDispatchFacet, true)
}

// hostBuiltin queues a builtin's device body on the device its device=
// attribute names.
func hostBuiltin(device OpFunc) OpFunc {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		if x.rank >= 0 {
			return nil, fmt.Errorf("%s is a host builtin: only the host orchestrator dispatches it (with device=)", c.Name())
		}
		dev := c.Device()
		if dev == nil {
			return nil, fmt.Errorf("%s needs device=", c.Name())
		}
		v, err := x.expr(dev)
		if err != nil {
			return nil, err
		}
		r, err := toInt(v)
		if err != nil {
			return nil, fmt.Errorf("device=: %w", err)
		}
		if r < 0 || int(r) >= x.s.world {
			return nil, fmt.Errorf("device=%d is outside the world of %d ranks", r, x.s.world)
		}
		x.s.ops.Add(1)
		x.s.dispatch(int(r), task{op: device, call: c, args: a})
		return nil, nil
	}
}

// coll is one rank's view of a collective call.
type coll struct {
	x    *Exec
	c    *ir.Call
	sigV *view
	dom  []int // world ranks of the comm domain
	me   int   // my index in dom
}

// collective wraps a collective's body: on the host it runs the device
// part on every rank of the domain (with a fresh signal when none was
// given, as SynthesizeAllReduceSignals does); on a device it builds the coll.
func collective(sigArg int, body func(k *coll, a []any) (any, error)) OpFunc {
	var self OpFunc
	self = func(x *Exec, c *ir.Call, a []any) (any, error) {
		if x.rank < 0 {
			return x.hostCollective(c, a, sigArg, self)
		}
		if sigArg >= len(a) {
			return nil, fmt.Errorf("a collective in a device function needs an explicit signal")
		}
		sig, err := winArg(a[sigArg], "signal")
		if err != nil {
			return nil, err
		}
		if sig.dt != ir.INT32 {
			return nil, fmt.Errorf("signal: expected INT32 cells, got %s", sig.dt.Name())
		}
		k := &coll{x: x, c: c, sigV: sig}
		if sig.win.Domain != nil {
			k.dom = sig.win.Domain
		} else {
			for r := 0; r < x.s.world; r++ {
				k.dom = append(k.dom, r)
			}
		}
		k.me = -1
		for i, r := range k.dom {
			if r == x.rank {
				k.me = i
			}
		}
		if k.me < 0 {
			return nil, fmt.Errorf("rank %d is not in the signal's comm domain %v", x.rank, dimsText(k.dom))
		}
		if len(sig.shape) == 0 || len(sig.shape) > 2 || sig.shape[0] < len(k.dom) {
			return nil, fmt.Errorf("signal: a mesh collective needs an [NR, 1] INT32 signal (NR = %d), given %v", len(k.dom), dimsText(sig.shape))
		}
		return body(k, a)
	}
	return self
}

// hostCollective runs a host-level collective: one task per rank.
func (x *Exec) hostCollective(c *ir.Call, a []any, sigArg int, op OpFunc) (any, error) {
	args := append([]any(nil), a...)
	t, err := winArg(a[0], "target")
	if sigArg == 2 {
		t, err = winArg(a[1], "target")
	}
	if err != nil {
		return nil, err
	}
	ranks := t.win.Domain
	if ranks == nil {
		for r := 0; r < x.s.world; r++ {
			ranks = append(ranks, r)
		}
	}
	if sigArg >= len(args) {
		// The signal spans the target's domain, as the one
		// SynthesizeAllReduceSignals adds to the compiled program.
		buf, err := x.s.win.Alloc(fmt.Sprintf("__allreduce_signal_buf_%d", x.s.ops.Load()), len(ranks)*4, t.win.Domain)
		if err != nil {
			return nil, err
		}
		args = append(args, &view{dt: ir.INT32, shape: []int{len(ranks), 1}, strides: []int{1, 1}, win: buf})
	}
	for _, r := range ranks {
		x.s.dispatch(r, task{op: op, call: c, args: args})
	}
	if sigArg == 2 {
		return a[1], nil
	}
	return a[0], nil
}

func (k *coll) cell(s int) Cell {
	idx := []int{s}
	if len(k.sigV.shape) == 2 {
		idx = []int{s, 0}
	}
	eo, _ := k.sigV.elemOffset(idx)
	return Cell{Buffer: k.sigV.win.Name, Offset: eo * 4, Index: idx}
}

// barrier(g): credit every peer, then wait for g credits from each.
func (k *coll) barrier(g int64) error {
	x, who := k.x, k.x.who(k.c)
	for p := range k.dom {
		if p != k.me {
			x.perturb()
			if err := x.s.win.Notify(x.rank, k.dom[p], k.sigV.win, k.cell(k.me), NotifyAtomicAdd, 1, who); err != nil {
				return err
			}
		}
	}
	for s := range k.dom {
		if s != k.me {
			x.perturb()
			if err := x.s.win.Wait(x.rank, k.sigV.win, k.cell(s), Cond{Cmp: "ge", Value: g}, who); err != nil {
				return err
			}
		}
	}
	return nil
}

// epilogue returns the n credits each peer gave me.
func (k *coll) epilogue(n int32) error {
	x := k.x
	for s := range k.dom {
		if s != k.me {
			if err := x.s.win.Notify(x.rank, x.rank, k.sigV.win, k.cell(s), NotifyAtomicAdd, -n, x.who(k.c)); err != nil {
				return err
			}
		}
	}
	return nil
}

// reduce folds view v over the domain, in v's dtype: my own copy first,
// then each peer's in domain order, through Windows.Reduce so that no
// peer's window is copied out. The result is in v's byte layout, in a
// pooled buffer the caller hands back with putBuf.
func (k *coll) reduce(v *view) ([]byte, error) {
	op := ir.ReduceOp(k.c.Kwargs.Int("op", 0))
	if _, ok := reduceOps[op]; !ok {
		return nil, fmt.Errorf("op must be ReduceOp.Sum, Max, Min or Prod, got %d", op)
	}
	ranks := make([]int, 0, len(k.dom))
	ranks = append(ranks, k.x.rank)
	for p, r := range k.dom {
		if p != k.me {
			ranks = append(ranks, r)
		}
	}
	acc := getBuf(numel(v.shape) * v.dt.Bytes())
	if err := k.x.s.win.Reduce(k.x.rank, ranks, v.win, v.segments(), v.dt, op, acc, k.x.whoView(k.c, v)); err != nil {
		putBuf(acc)
		return nil, err
	}
	return acc, nil
}

// reduceAndWrite is the body of allreduce and reduce_scatter on v: reduce,
// wait until nobody reads my v any more, write the result over it.
func (k *coll) reduceAndWrite(v *view) error {
	acc, err := k.reduce(v)
	if err != nil {
		return err
	}
	if err := k.barrier(2); err != nil { // nobody still reads my target
		putBuf(acc)
		return err
	}
	x := k.x
	return x.s.win.WriteOwned(x.rank, x.rank, v.win, v.segments(), acc, x.whoView(k.c, v))
}

func allreduce(k *coll, a []any) (any, error) {
	t, err := winArg(a[0], "target")
	if err != nil {
		return nil, err
	}
	if t.dt != ir.FP32 && t.dt != ir.FP16 && t.dt != ir.BF16 && t.dt != ir.INT32 {
		return nil, fmt.Errorf("target dtype must be FP16 or FP32, got %s", t.dt.Name())
	}
	if k.c.Kwargs.String("mode", "mesh") == "ring" {
		return t, k.ring(t)
	}
	if err := k.barrier(1); err != nil { // everyone staged
		return nil, err
	}
	if err := k.reduceAndWrite(t); err != nil {
		return nil, err
	}
	return t, k.epilogue(2)
}

func broadcast(k *coll, a []any) (any, error) {
	t, err := winArg(a[0], "target")
	if err != nil {
		return nil, err
	}
	root := int(k.c.Kwargs.Int("root", 0))
	if root < 0 || root >= len(k.dom) {
		return nil, fmt.Errorf("root %d is outside the comm domain of %d ranks", root, len(k.dom))
	}
	if err := k.barrier(1); err != nil {
		return nil, err
	}
	if root != k.me {
		if err := k.x.copyView(t, k.x.rank, t, k.dom[root], false, k.c); err != nil {
			return nil, err
		}
	}
	return t, k.epilogue(1)
}

func reduceScatter(k *coll, a []any) (any, error) {
	t, err := winArg(a[0], "target")
	if err != nil {
		return nil, err
	}
	if len(t.shape) != 2 || t.shape[0] < len(k.dom) {
		return nil, fmt.Errorf("target: reduce_scatter needs an [NR, SIZE] tensor, given %v", dimsText(t.shape))
	}
	row, err := t.sub([]int{k.me, 0}, []int{1, t.shape[1]})
	if err != nil {
		return nil, err
	}
	if err := k.barrier(1); err != nil {
		return nil, err
	}
	if err := k.reduceAndWrite(row); err != nil {
		return nil, err
	}
	return t, k.epilogue(2)
}

// scatterRows is allgather (every peer's target row me ← my input) and
// all_to_all (peer d's target row me ← my input row d), then barrier(1).
func (k *coll) scatterRows(a []any, toAll bool) (any, error) {
	in, err := viewArg(a[0], "input")
	if err != nil {
		return nil, err
	}
	t, err := winArg(a[1], "target")
	if err != nil {
		return nil, err
	}
	if len(t.shape) != 2 || t.shape[0] < len(k.dom) {
		return nil, fmt.Errorf("target: needs an [NR, SIZE] tensor, given %v", dimsText(t.shape))
	}
	size := t.shape[1]
	row, err := t.sub([]int{k.me, 0}, []int{1, size})
	if err != nil {
		return nil, err
	}
	for d := range k.dom {
		src := in
		if toAll {
			if len(in.shape) != 2 {
				return nil, fmt.Errorf("input: all_to_all needs an [NR, SIZE] tensor, given %v", dimsText(in.shape))
			}
			if src, err = in.sub([]int{d, 0}, []int{1, size}); err != nil {
				return nil, fmt.Errorf("input: %w", err)
			}
		}
		if err := k.x.copyView(row, k.dom[d], src, k.x.rank, false, k.c); err != nil {
			return nil, err
		}
	}
	if err := k.barrier(1); err != nil {
		return nil, err
	}
	return t, k.epilogue(1)
}

// allToAllV is the variable-size all-to-all (MPI_Alltoallv) as
// LowerCompositeOps lowers it: the target [NR*MAX_RECV, SIZE] holds one
// MAX_RECV-row block per source. To every destination d in turn, a rank
// publishes min(send_counts[d], MAX_RECV) into d's recv_counts[me, 0] (Set),
// then copies its whole block input[d*MAX_RECV:, :] into d's block
// target[me*MAX_RECV:, :] (rows past the count cross too; the count says
// which are valid); then one credit barrier.
func (k *coll) allToAllV(a []any) (any, error) {
	x := k.x
	in, err := viewArg(a[0], "input")
	if err != nil {
		return nil, err
	}
	t, err := winArg(a[1], "target")
	if err != nil {
		return nil, err
	}
	counts, err := viewArg(a[3], "send_counts")
	if err != nil {
		return nil, err
	}
	recv, err := winArg(a[4], "recv_counts")
	if err != nil {
		return nil, err
	}
	nr := len(k.dom)
	if len(t.shape) != 2 || t.shape[0]%nr != 0 {
		return nil, fmt.Errorf("target: needs an [NR*MAX_RECV, SIZE] tensor with NR = %d, given %v", nr, dimsText(t.shape))
	}
	if len(recv.shape) != 2 || recv.shape[0] < nr || recv.dt != ir.INT32 {
		return nil, fmt.Errorf("recv_counts: needs an [NR, 1] INT32 tensor with NR = %d, given %v %s", nr, dimsText(recv.shape), recv.dt.Name())
	}
	maxRecv, size := t.shape[0]/nr, t.shape[1]
	eo, err := recv.elemOffset([]int{k.me, 0})
	if err != nil {
		return nil, fmt.Errorf("recv_counts: %w", err)
	}
	myCell := Cell{Buffer: recv.win.Name, Offset: eo * 4, Index: []int{k.me, 0}}
	dst, err := t.sub([]int{k.me * maxRecv, 0}, []int{maxRecv, size})
	if err != nil {
		return nil, err
	}
	for d := range k.dom {
		idx := []int{d}
		if len(counts.shape) == 2 {
			idx = []int{d, 0}
		}
		one, err := counts.sub(idx, nil)
		if err != nil {
			return nil, fmt.Errorf("send_counts: %w", err)
		}
		vals, err := x.readView(one, x.rank, k.c)
		if err != nil {
			return nil, err
		}
		rows := min(int64(vals[0]), int64(maxRecv))
		if err := x.s.win.Notify(x.rank, k.dom[d], recv.win, myCell, NotifySet, int32(rows), x.who(k.c)); err != nil {
			return nil, err
		}
		src, err := in.sub([]int{d * maxRecv, 0}, []int{maxRecv, size})
		if err != nil {
			return nil, fmt.Errorf("input: %w", err)
		}
		if err := x.copyView(dst, k.dom[d], src, x.rank, false, k.c); err != nil {
			return nil, err
		}
	}
	if err := k.barrier(1); err != nil {
		return nil, err
	}
	return t, k.epilogue(1)
}

// ring is the ring allreduce as upstream's host builtin runs it (#2280): the
// target is cut into NR segments with LowerCompositeOps' boundaries, and in
// NR-1 reduce-scatter steps each rank pushes its partial of segment me-s into
// the same segment of its right neighbour, then in NR-1 allgather steps
// forwards the finished segment me-s+1. Sum pushes with a remote atomic add
// (the receiver's own value plus the partial); the other reductions push a
// plain copy that the receiver combines with its saved own value, as the
// InCore recipe does. Either way segment j is folded in the order own[j+1],
// own[j+2], …, own[j], so the result is bit-identical to the lowered ring.
// Barriers involve the two ring neighbours only; their credits accumulate on
// the cell [src, 0] and the epilogue takes them back.
func (k *coll) ring(t *view) error {
	nr := len(k.dom)
	if nr == 1 {
		return nil
	}
	if !t.contiguous() {
		return fmt.Errorf("target: a ring allreduce needs a dense tensor, given %v", dimsText(t.shape))
	}
	op := ir.ReduceOp(k.c.Kwargs.Int("op", 0))
	if _, ok := reduceOps[op]; !ok {
		return fmt.Errorf("op must be ReduceOp.Sum, Max, Min or Prod, got %d", op)
	}
	size := numel(t.shape)
	seg := func(i int) *view {
		b, e := RingBoundary(t.dt, size, nr, (i+nr)%nr), RingBoundary(t.dt, size, nr, (i+nr)%nr+1)
		return &view{dt: t.dt, shape: []int{e - b}, strides: []int{1}, off: t.off + b, win: t.win}
	}
	x, who := k.x, k.x.who(k.c)
	left, right := (k.me+nr-1)%nr, (k.me+1)%nr
	neighbours := []int{left}
	if right != left {
		neighbours = append(neighbours, right)
	}
	var g int64
	barrier := func() error {
		g++
		for _, p := range neighbours {
			x.perturb()
			if err := x.s.win.Notify(x.rank, k.dom[p], k.sigV.win, k.cell(k.me), NotifyAtomicAdd, 1, who); err != nil {
				return err
			}
		}
		for _, p := range neighbours {
			x.perturb()
			if err := x.s.win.Wait(x.rank, k.sigV.win, k.cell(p), Cond{Cmp: "ge", Value: g}, who); err != nil {
				return err
			}
		}
		return nil
	}
	for s := 1; s < nr; s++ {
		send, recv := seg(k.me-s), seg(k.me-s-1)
		if op == ir.ReduceSum {
			if err := barrier(); err != nil {
				return err
			}
			if err := x.copyView(send, k.dom[right], send, x.rank, true, k.c); err != nil {
				return err
			}
			continue
		}
		own, err := x.readBytes(recv, x.rank, k.c) // before anyone pushes into it
		if err != nil {
			return err
		}
		if err := barrier(); err != nil {
			return err
		}
		if err := x.copyView(send, k.dom[right], send, x.rank, false, k.c); err != nil {
			return err
		}
		if err := barrier(); err != nil {
			return err
		}
		got, err := x.readBytes(recv, x.rank, k.c)
		if err != nil {
			return err
		}
		reduceBytes(t.dt, op, own, got)
		if err := x.writeBytes(recv, x.rank, own, k.c); err != nil {
			return err
		}
	}
	for s := 1; s < nr; s++ {
		if err := barrier(); err != nil {
			return err
		}
		send := seg(k.me - s + 1)
		if err := x.copyView(send, k.dom[right], send, x.rank, false, k.c); err != nil {
			return err
		}
	}
	// The last pushes land before anyone returns.
	if err := barrier(); err != nil {
		return err
	}
	for _, p := range neighbours {
		if err := x.s.win.Notify(x.rank, x.rank, k.sigV.win, k.cell(p), NotifyAtomicAdd, int32(-g), who); err != nil {
			return err
		}
	}
	return nil
}

// RingBoundary is the first element of segment i of a ring allreduce over
// size elements on nr ranks (segment nr ends the tensor): floor(i*size/nr),
// with FP16 boundaries rounded up to 32 bytes and capped at size, as
// LowerCompositeOps cuts the target.
func RingBoundary(dt ir.DataType, size, nr, i int) int {
	if dt != ir.FP16 {
		return i * size / nr
	}
	const align = 16
	b := (i*size + nr*align - 1) / (nr * align) * align
	return min(b, size)
}
