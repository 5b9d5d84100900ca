package pld

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
)

// NotifyOp values for Notify.
const (
	AtomicAdd = ir.NotifyAtomicAdd
	Set       = ir.NotifySet
)

// WaitCmp values for Wait.
const (
	Eq = ir.WaitEq
	Ge = ir.WaitGe
)

// AtomicType values for the Atomic option.
const (
	None_ = ir.AtomicNone
	Add   = ir.AtomicAdd
)

// ReduceOp values for the Op option.
const (
	Sum  = ir.ReduceSum
	Max  = ir.ReduceMax
	Min  = ir.ReduceMin
	Prod = ir.ReduceProd
)

// DistributedTensor is the type of a window-bound tensor.
// PyPTO: pld.DistributedTensor[[1, 256], pl.FP32].
func DistributedTensor(shape pl.Shape, dt pl.DataType) pl.Type {
	if !dt.Valid() {
		dsl.Failf("pld.DistributedTensor: unknown element type code %d", int(dt))
	}
	dsl.CheckDims("pld.DistributedTensor", shape)
	return &ir.DistributedTensorType{Shape: shape.Dims, DType: dt}
}

func arg(v any, op, name string) ir.Expr { return dsl.Expr(v, op+" argument '"+name+"'") }

// AllocWindowBuffer allocates nbytes per rank of window memory. Bind it with
// f.Let, whose name becomes the buffer's name; HOST orchestrator only.
// PyPTO: buf = pld.alloc_window_buffer(nbytes).
func AllocWindowBuffer(nbytes any) pl.Expr {
	// The op requires its name; the binding Let replaces this placeholder.
	return dsl.Call(ir.PldTensorAllocWindowBuffer, []ir.Expr{arg(nbytes, "pld.AllocWindowBuffer", "size")}, ir.Kwargs{{Key: "name", Value: "<unbound>"}})
}

// AllocWindowBufferOf allocates room for a tensor of shape and dtype, folding
// the size to one INT64 constant. PyPTO: pld.alloc_window_buffer([32, 16], dtype=pl.INT32).
func AllocWindowBufferOf(shape pl.Shape, dt pl.DataType) pl.Expr {
	n, ok := ir.NumElements(shape.Dims)
	if !ok {
		dsl.Failf("pld.AllocWindowBufferOf: the shape %s must be static; use pld.AllocWindowBuffer with a byte count for symbolic sizes", shape)
	}
	if !dt.WholeBytes() {
		dsl.Failf("pld.AllocWindowBufferOf: %s is not a whole number of bytes", dt)
	}
	size := ir.IntOf(n*int64(dt.Bytes()), ir.INT64)
	return dsl.Call(ir.PldTensorAllocWindowBuffer, []ir.Expr{size}, ir.Kwargs{{Key: "name", Value: "<unbound>"}})
}

// Window views a window buffer as a DistributedTensor.
// PyPTO: pld.window(buf, [1, 256], dtype=pl.FP32).
func Window(buf any, shape pl.Shape, dt pl.DataType) pl.Expr {
	dsl.CheckDims("pld.Window", shape)
	b := arg(buf, "pld.Window", "buf")
	checkWindowFits(b, shape, dt)
	return dsl.Call(ir.PldTensorWindow, []ir.Expr{b, shape.Tuple()}, ir.Kwargs{{Key: "dtype", Value: dt}})
}

// checkWindowFits raises when a static window view needs more bytes than
// its buffer's constant size (otherwise found only when the run maps it).
func checkWindowFits(buf ir.Expr, shape pl.Shape, dt pl.DataType) {
	b, v := dsl.Current(), buf
	if b == nil {
		return
	}
	bv, ok := v.(*ir.Var)
	if !ok {
		return
	}
	alloc, ok := b.Bound[bv].(*ir.Call)
	if !ok || alloc.Op != ir.PldTensorAllocWindowBuffer || len(alloc.Args) == 0 {
		return
	}
	size, ok := ir.ConstValue(alloc.Args[0])
	if !ok || !dt.WholeBytes() {
		return
	}
	need := int64(dt.Bytes())
	for _, d := range shape.Dims {
		n, ok := ir.ConstValue(d)
		if !ok {
			return
		}
		need *= n
	}
	if need > size {
		dsl.Raise(&ir.TypeError{Op: "pld.Window", Arg: "shape",
			Expected: fmt.Sprintf("a view that fits window buffer %s (%d bytes per rank)", bv.Name, size),
			Given:    fmt.Sprintf("%s of %s, %d bytes", shape, dt, need)})
	}
}

// WorldSize is the number of ranks; HOST orchestrator only. PyPTO: pld.world_size().
func WorldSize() pl.Expr {
	if b := dsl.Current(); b != nil && !b.Fn.IsHostOrchestrator() {
		dsl.Failf("pld.WorldSize is only valid in a HOST orchestrator; in %s function %s use pld.NRanks(pld.GetCommCtx(t))", b.Fn.Kind, b.Fn.Name)
	}
	return dsl.Call(ir.PldSystemWorldSize, nil, nil)
}

// GetCommCtx is the communication context of a window-bound tensor.
// PyPTO: pld.get_comm_ctx(t).
func GetCommCtx(t any) pl.Expr {
	return dsl.Call(ir.PldSystemGetCommCtx, []ir.Expr{arg(t, "pld.GetCommCtx", "dist_tensor")}, nil)
}

// Rank is this rank's index in ctx. PyPTO: pld.rank(ctx).
func Rank(ctx any) pl.Expr {
	return dsl.Call(ir.PldSystemRank, []ir.Expr{arg(ctx, "pld.Rank", "ctx")}, nil)
}

// NRanks is the number of ranks in ctx. PyPTO: pld.nranks(ctx).
func NRanks(ctx any) pl.Expr {
	return dsl.Call(ir.PldSystemNranks, []ir.Expr{arg(ctx, "pld.NRanks", "ctx")}, nil)
}

// Notify updates the signal cell at offsets on peer: AtomicAdd adds value,
// Set stores it. PyPTO: pld.system.notify(sig, peer, offsets, value, op=...).
func Notify(sig, peer, offsets, value any, op ir.NotifyOp) pl.Expr {
	return dsl.Call(ir.PldSystemNotify, []ir.Expr{arg(sig, "pld.Notify", "target"), dsl.Int32Expr(peer, "pld.Notify peer"),
		dsl.TupleArg(offsets, "pld.Notify offsets"), dsl.Int32Expr(value, "pld.Notify value")}, ir.Kwargs{{Key: "op", Value: int64(op)}})
}

// Wait blocks until this rank's signal cell at offsets compares true against
// expected (Eq or Ge). PyPTO: pld.system.wait(sig, offsets, expected, cmp=...).
func Wait(sig, offsets, expected any, cmp ir.WaitCmp) pl.Expr {
	return dsl.Call(ir.PldSystemWait, []ir.Expr{arg(sig, "pld.Wait", "signal"), dsl.TupleArg(offsets, "pld.Wait offsets"),
		dsl.Int32Expr(expected, "pld.Wait expected")}, ir.Kwargs{{Key: "cmp", Value: int64(cmp)}})
}

// DeferWait registers this rank's signal cell at offsets >= expected as a
// completion condition of the running task and returns at once: the task
// gives its AIV core back and completes once the condition holds, so work
// that needs the signal belongs in a later task (only cmp=pld.Ge).
// PyPTO: pld.system.defer_wait(sig, offsets, expected, cmp=...).
func DeferWait(sig, offsets, expected any, cmp ir.WaitCmp) pl.Expr {
	return dsl.Call(ir.PldSystemDeferWait, []ir.Expr{arg(sig, "pld.DeferWait", "signal"), dsl.TupleArg(offsets, "pld.DeferWait offsets"),
		dsl.Int32Expr(expected, "pld.DeferWait expected")}, ir.Kwargs{{Key: "cmp", Value: int64(cmp)}})
}

// RemoteLoad loads a tile of shape at offsets from peer's copy of t.
// PyPTO: pld.tile.remote_load(t, peer, offsets, shape).
func RemoteLoad(t, peer, offsets, shape any) pl.Expr {
	return dsl.Call(ir.PldTileRemoteLoad, []ir.Expr{arg(t, "pld.RemoteLoad", "target"), dsl.Int32Expr(peer, "pld.RemoteLoad peer"),
		dsl.TupleArg(offsets, "pld.RemoteLoad offsets"), dsl.TupleArg(shape, "pld.RemoteLoad shape")}, nil)
}

// Option is a keyword option of Put, Get, RemoteStore and the collectives.
type Option struct {
	key   string
	value any
	args  []ir.Expr
}

// String is the option as it was written: "pld.Atomic(pl.AtomicType.Add)",
// "pld.Chunk(4, 0)", "pld.Mode(\"ring\")".
func (o Option) String() string {
	f := ir.DefaultFormat
	switch o.key {
	case "atomic":
		return "pld.Atomic(" + ir.AtomicType(o.value.(int64)).String() + ")"
	case "chunk":
		rc := o.value.([2]int64)
		return fmt.Sprintf("pld.Chunk(%d, %d)", rc[0], rc[1])
	case "pipeline":
		return "pld.Pipeline()"
	case "op":
		return "pld.Op(pld." + ir.ReduceOp(o.value.(int64)).String() + ")"
	case "mode":
		return fmt.Sprintf("pld.Mode(%q)", o.value)
	case "core_num":
		return fmt.Sprintf("pld.CoreNum(%d)", o.value)
	case "region":
		parts := make([]string, len(o.args))
		for i, a := range o.args {
			parts[i] = f.Expr(a)
		}
		return "pld.Region(" + strings.Join(parts, ", ") + ")"
	}
	return "pld option " + o.key
}

// Atomic selects the atomic mode of a store or put: pld.Atomic(pld.Add).
func Atomic(a ir.AtomicType) Option { return Option{key: "atomic", value: int64(a)} }

// Chunk splits a put/get into chunks of rows × cols (0 = full extent).
func Chunk(rows, cols int) Option {
	return Option{key: "chunk", value: [2]int64{int64(rows), int64(cols)}}
}

// Pipeline double-buffers a chunked put/get through ping/pong staging tiles.
func Pipeline() Option { return Option{key: "pipeline", value: true} }

// Op selects a collective's reduction: pld.Op(pld.Max).
func Op(op ir.ReduceOp) Option { return Option{key: "op", value: int64(op)} }

// Mode selects an allreduce algorithm: "mesh" (default) or "ring".
func Mode(mode string) Option { return Option{key: "mode", value: mode} }

// CoreNum sets an allreduce's core count (default 1).
func CoreNum(n int) Option { return Option{key: "core_num", value: int64(n)} }

// Region restricts a put/get to shape at dstOffsets in dst and srcOffsets in src.
func Region(dstOffsets, srcOffsets, shape pl.Shape) Option {
	return Option{key: "region", args: []ir.Expr{dstOffsets.Tuple(), srcOffsets.Tuple(), shape.Tuple()}}
}

// applyOptions turns options into kwargs (validated against allowed) and extra
// positional arguments.
func applyOptions(op string, opts []Option, allowed ...string) (ir.Kwargs, []ir.Expr) {
	var kws ir.Kwargs
	var extra []ir.Expr
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	for _, o := range opts {
		if !ok[o.key] {
			dsl.Failf("%s does not take the %s option (it takes: %v)", op, o.key, allowed)
		}
		switch o.key {
		case "region":
			extra = o.args
		case "chunk":
			rc := o.value.([2]int64)
			if rc[0] != 0 {
				kws = kws.With("chunk_rows", rc[0])
			}
			if rc[1] != 0 {
				kws = kws.With("chunk_cols", rc[1])
			}
		default:
			kws = kws.With(o.key, o.value)
		}
	}
	return kws, extra
}

// RemoteStore stores src into peer's copy of t at offsets. A tile src uses
// the tile form, a tensor src the tensor form (lowered to the tile form).
// PyPTO: pld.remote_store(src, t, peer, offsets[, atomic=...]).
func RemoteStore(src, t, peer, offsets any, opts ...Option) pl.Expr {
	s := arg(src, "pld.RemoteStore", "src")
	op := ir.PldTensorRemoteStore
	if _, ok := s.Type().(*ir.TileType); ok {
		op = ir.PldTileRemoteStore
	}
	kws, _ := applyOptions("pld.RemoteStore", opts, "atomic")
	if kws.Int("atomic", 0) == int64(ir.AtomicNone) {
		kws = kws.Without("atomic") // None_ is not stored
	}
	return dsl.Call(op, []ir.Expr{s, arg(t, "pld.RemoteStore", "target"), dsl.Int32Expr(peer, "pld.RemoteStore peer"), dsl.TupleArg(offsets, "pld.RemoteStore offsets")}, kws)
}

// Put copies local src into peer's window tensor dst.
// PyPTO: pld.tensor.put(dst, peer, src, atomic=pl.AtomicType.None_).
func Put(dst, peer, src any, opts ...Option) pl.Expr {
	kws, extra := applyOptions("pld.Put", opts, "atomic", "chunk", "pipeline", "region")
	// The builder always stores atomic first, then chunking.
	out := ir.Kwargs{{Key: "atomic", Value: kws.Int("atomic", int64(ir.AtomicNone))}}
	for _, k := range kws {
		if k.Key != "atomic" {
			out = append(out, k)
		}
	}
	args := append([]ir.Expr{arg(dst, "pld.Put", "dst"), dsl.Int32Expr(peer, "pld.Put peer"), arg(src, "pld.Put", "src")}, extra...)
	return dsl.Call(ir.PldTensorPut, args, out)
}

// Get copies peer's window tensor src into local dst.
// PyPTO: pld.tensor.get(dst, peer, src).
func Get(dst, peer, src any, opts ...Option) pl.Expr {
	kws, extra := applyOptions("pld.Get", opts, "chunk", "pipeline", "region")
	args := append([]ir.Expr{arg(dst, "pld.Get", "dst"), dsl.Int32Expr(peer, "pld.Get peer"), arg(src, "pld.Get", "src")}, extra...)
	return dsl.Call(ir.PldTensorGet, args, kws)
}

// AllReduce reduces t across all ranks in place; rebind the result:
// f.Set(t, pld.AllReduce(t, sig)). Options: Op (default Sum), Mode (default
// "mesh"), CoreNum (default 1). In a HOST orchestrator sig may be nil: the
// compiler then synthesizes one signal per data buffer
// (SynthesizeAllReduceSignals), which makes the call legal inside loops.
// PyPTO: t = pld.tensor.allreduce(t, sig, op=0, mode='mesh', core_num=1),
// or t = pld.tensor.allreduce(t, op=0, mode='mesh', core_num=1) without a signal.
func AllReduce(t, sig any, opts ...Option) pl.Expr {
	kws, _ := applyOptions("pld.AllReduce", opts, "op", "mode", "core_num")
	d := ir.PldTensorAllreduce // the defaults are the registry's, as a reader fills them
	out := ir.Kwargs{
		{Key: "op", Value: kws.Int("op", d.KwargDefault("op").(int64))},
		{Key: "mode", Value: kws.String("mode", d.KwargDefault("mode").(string))},
		{Key: "core_num", Value: kws.Int("core_num", d.KwargDefault("core_num").(int64))},
	}
	args := []ir.Expr{arg(t, "pld.AllReduce", "target")}
	if sig != nil {
		args = append(args, arg(sig, "pld.AllReduce", "signal"))
	}
	return dsl.Call(ir.PldTensorAllreduce, args, out)
}

// Barrier blocks until every rank reached it. PyPTO: sig = pld.tensor.barrier(sig).
func Barrier(sig any) pl.Expr {
	return dsl.Call(ir.PldTensorBarrier, []ir.Expr{arg(sig, "pld.Barrier", "signal")}, nil)
}

// Broadcast copies root's t to every rank. PyPTO: t = pld.tensor.broadcast(t, sig, root=0).
func Broadcast(t, sig any, root int) pl.Expr {
	return dsl.Call(ir.PldTensorBroadcast, []ir.Expr{arg(t, "pld.Broadcast", "target"), arg(sig, "pld.Broadcast", "signal")}, ir.Kwargs{{Key: "root", Value: int64(root)}})
}

// AllGather gathers every rank's [1, SIZE] input into row r of t [NR, SIZE].
// PyPTO: t = pld.tensor.allgather(input, t, sig).
func AllGather(input, t, sig any) pl.Expr {
	return dsl.Call(ir.PldTensorAllgather, []ir.Expr{arg(input, "pld.AllGather", "input"), arg(t, "pld.AllGather", "target"), arg(sig, "pld.AllGather", "signal")}, nil)
}

// ReduceScatter reduces row r of t across ranks onto rank r.
// PyPTO: t = pld.tensor.reduce_scatter(t, sig, op=0).
func ReduceScatter(t, sig any, opts ...Option) pl.Expr {
	kws, _ := applyOptions("pld.ReduceScatter", opts, "op")
	return dsl.Call(ir.PldTensorReduceScatter, []ir.Expr{arg(t, "pld.ReduceScatter", "target"), arg(sig, "pld.ReduceScatter", "signal")},
		ir.Kwargs{{Key: "op", Value: kws.Int("op", int64(ir.ReduceSum))}})
}

// AllToAll exchanges rows: t[src, :] receives input_src[me, :].
// PyPTO: t = pld.tensor.all_to_all(input, t, sig).
func AllToAll(input, t, sig any) pl.Expr {
	return dsl.Call(ir.PldTensorAllToAll, []ir.Expr{arg(input, "pld.AllToAll", "input"), arg(t, "pld.AllToAll", "target"), arg(sig, "pld.AllToAll", "signal")}, nil)
}

// AllToAllV is the variable-size all-to-all (MPI_Alltoallv). t is
// [NR*MAX_RECV, SIZE], one MAX_RECV-row block per source: block src of t
// receives block me of rank src's input, and recvCounts[src, 0] the
// number of its rows that are valid, min(sendCounts[me] on src, MAX_RECV).
// PyPTO: t = pld.tensor.all_to_all_v(input, t, sig, send_counts, recv_counts).
func AllToAllV(input, t, sig, sendCounts, recvCounts any) pl.Expr {
	const name = "pld.AllToAllV"
	return dsl.Call(ir.PldTensorAllToAllV, []ir.Expr{arg(input, name, "input"), arg(t, name, "target"), arg(sig, name, "signal"),
		arg(sendCounts, name, "send_counts"), arg(recvCounts, name, "recv_counts")}, nil)
}
