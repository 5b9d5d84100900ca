package pto

import (
	"github.com/ptorepl/ptorepl/ir"
)

// goldenCase is one kernel whose PTO text is kept in testdata/<name>.mlir
// (and its generic form in testdata/<name>.generic.mlir).
type goldenCase struct {
	name  string
	build func() (*ir.Program, *ir.Function)
	opts  Options
}

// Parameters shared by the cases: (data, signal) DistributedTensors with
// their two ctx parameters, after MaterializeDistTensorCtx.
type distParams struct {
	data, signal, peer, dataCtx, sigCtx *ir.Var
}

func newDistParams(dataDT ir.DataType, dataDims ...int64) distParams {
	return distParams{
		data:    newVar("data", distT(dataDT, dataDims...)),
		signal:  newVar("signal", distT(ir.INT32, 2, 1)),
		peer:    newVar("peer", scalarT(ir.INT32)),
		dataCtx: newVar("data_ctx", ir.CommCtxT),
		sigCtx:  newVar("signal_ctx", ir.CommCtxT),
	}
}

func (d distParams) list(extra ...*ir.Var) []*ir.Var {
	out := []*ir.Var{d.data, d.signal, d.peer}
	out = append(out, extra...)
	return append(out, d.dataCtx, d.sigCtx)
}

// notifyKernel is pto.md §9: one Set notify of 1 into signal[0, 0] on peer.
func notifyKernel() (*ir.Program, *ir.Function) {
	d := newDistParams(ir.FP32, 1, 64)
	return kernel("k", d.list(),
		eval(call("pld.system.notify", args(d.signal, d.peer, ir.Dims(0, 0), i32(1)), kw("op", int64(ir.NotifySet)))))
}

// notifyLoopKernel notifies every rank with a loop-variable value (AtomicAdd).
func notifyLoopKernel() (*ir.Program, *ir.Function) {
	d := newDistParams(ir.FP32, 1, 64)
	ctx := newVar("ctx", ir.CommCtxT)
	me := newVar("my_rank", scalarT(ir.INT32))
	n := newVar("nranks", scalarT(ir.INT32))
	i := newVar("i", scalarT(ir.INDEX))
	return kernel("notify_loop", d.list(),
		assign(ctx, call("pld.system.get_comm_ctx", args(d.signal), nil)),
		assign(me, call("pld.system.rank", args(ctx), nil)),
		assign(n, call("pld.system.nranks", args(ctx), nil)),
		forRange(i, ir.Int(0), cast(n, ir.INDEX), ir.Int(1),
			&ir.IfStmt{Cond: bin(ir.OpNe, i, me, ir.BOOL), Then: ir.Seq(
				eval(call("pld.system.notify", args(d.signal, i, ir.Tuple(me, ir.Int(0)), i), kw("op", int64(ir.NotifyAtomicAdd)))))}))
}

// waitKernel waits for signal[src, 0] >= expected (a loop value) and == 0.
func waitKernel() (*ir.Program, *ir.Function) {
	d := newDistParams(ir.FP32, 1, 64)
	src := newVar("src", scalarT(ir.INDEX))
	return kernel("wait", d.list(),
		forRange(src, ir.Int(0), ir.Int(2), ir.Int(1),
			eval(call("pld.system.wait", args(d.signal, ir.Tuple(src, ir.Int(0)), src), kw("cmp", int64(ir.WaitGe)))),
			eval(call("system.cacheinvalid", nil, nil))),
		eval(call("pld.system.wait", args(d.signal, ir.Dims(1, 0), i32(0)), kw("cmp", int64(ir.WaitEq)))))
}

// rankKernel computes ring neighbours from rank and nranks.
func rankKernel() (*ir.Program, *ir.Function) {
	d := newDistParams(ir.FP32, 1, 64)
	ctx := newVar("ctx", ir.CommCtxT)
	me := newVar("my_rank", scalarT(ir.INT32))
	n := newVar("nranks", scalarT(ir.INT32))
	right := newVar("right", scalarT(ir.INT32))
	left := newVar("left", scalarT(ir.INT32))
	return kernel("ring", d.list(),
		assign(ctx, d.dataCtx), // MaterializeDistTensorCtx's rebinding form
		assign(me, call("pld.system.rank", args(ctx), nil)),
		assign(n, call("pld.system.nranks", args(ctx), nil)),
		assign(right, bin(ir.OpFloorMod, bin(ir.OpAdd, me, i32(1), ir.INT32), n, ir.INT32)),
		assign(left, bin(ir.OpFloorMod, bin(ir.OpAdd, bin(ir.OpSub, me, i32(1), ir.INT32), n, ir.INT32), n, ir.INT32)),
		eval(call("pld.system.notify", args(d.signal, right, ir.Tuple(me, ir.Int(0)), i32(1)), kw("op", int64(ir.NotifyAtomicAdd)))),
		eval(call("pld.system.wait", args(d.signal, ir.Tuple(left, ir.Int(0)), i32(1)), kw("cmp", int64(ir.WaitGe)))))
}

// rankOnlyKernel has rank but no nranks.
func rankOnlyKernel() (*ir.Program, *ir.Function) {
	d := newDistParams(ir.FP32, 1, 64)
	ctx := newVar("ctx", ir.CommCtxT)
	me := newVar("my_rank", scalarT(ir.INT32))
	return kernel("rank_only", d.list(),
		assign(ctx, call("pld.system.get_comm_ctx", args(d.data), nil)),
		assign(me, call("pld.system.rank", args(ctx), nil)),
		eval(call("pld.system.notify", args(d.signal, me, ir.Dims(0, 0), i32(1)), kw("op", int64(ir.NotifySet)))))
}

// putKernel is the main tput: full [16, 64] f16 transfer through a placed
// staging tile, followed by InsertCommFence's fence.
func putKernel(dt ir.DataType, atomic ir.AtomicType) func() (*ir.Program, *ir.Function) {
	return func() (*ir.Program, *ir.Function) {
		dst := newVar("dst", distT(dt, 16, 64))
		src := newVar("src", tensorT(dt, 16, 64))
		peer := newVar("peer", scalarT(ir.INT32))
		ctx := newVar("dst_ctx", ir.CommCtxT)
		stage := newVar("tput_stage", tileT(dt, 0, 16, 64))
		return kernel("put", []*ir.Var{dst, peer, src, ctx},
			assign(stage, call("tile.create", args(ir.Dims(16, 64)), kw("dtype", dt, "target_memory", ir.MemVec))),
			eval(call("pld.tile.put", args(dst, peer, src, stage), kw("atomic", int64(atomic)))),
			eval(call("system.fence", nil, nil)))
	}
}

// putRegionKernel copies row 1 of src into row 3 of peer's dst.
func putRegionKernel() (*ir.Program, *ir.Function) {
	dst := newVar("dst", distT(ir.FP16, 4, 64))
	src := newVar("src", tensorT(ir.FP16, 4, 64))
	peer := newVar("peer", scalarT(ir.INT32))
	ctx := newVar("dst_ctx", ir.CommCtxT)
	stage := newVar("tput_stage", tileT(ir.FP16, 128, 1, 64))
	return kernel("put_region", []*ir.Var{dst, peer, src, ctx},
		assign(stage, call("tile.create", args(ir.Dims(1, 64)), kw("dtype", ir.FP16, "target_memory", ir.MemVec))),
		eval(call("pld.tile.put", args(dst, peer, src, stage, ir.Dims(3, 0), ir.Dims(1, 0), ir.Dims(1, 64)), kw("atomic", int64(0)))),
		eval(call("system.fence", nil, nil)))
}

// putPipelinedKernel chunks a [16, 64] transfer through [4, 32] ping/pong stages.
func putPipelinedKernel() (*ir.Program, *ir.Function) {
	dst := newVar("dst", distT(ir.FP16, 16, 64))
	src := newVar("src", tensorT(ir.FP16, 16, 64))
	peer := newVar("peer", scalarT(ir.INT32))
	ctx := newVar("dst_ctx", ir.CommCtxT)
	ping := newVar("tput_stage_ping", tileT(ir.FP16, 0, 4, 32))
	pong := newVar("tput_stage_pong", tileT(ir.FP16, 256, 4, 32))
	mk := func() *ir.Call {
		return call("tile.create", args(ir.Dims(4, 32)), kw("dtype", ir.FP16, "target_memory", ir.MemVec))
	}
	return kernel("put_pipelined", []*ir.Var{dst, peer, src, ctx},
		assign(ping, mk()), assign(pong, mk()),
		eval(call("pld.tile.put", args(dst, peer, src, ping, pong), kw("atomic", int64(0)))))
}

// putDynamicKernel moves a [NR, 64] tensor (NR a pl.dynamic dim) through a
// static [4, 32] stage.
func putDynamicKernel() (*ir.Program, *ir.Function) {
	nr := newVar("NR", scalarT(ir.INDEX))
	shape := []ir.Expr{nr, ir.Int(64)}
	dst := newVar("dst", &ir.DistributedTensorType{Shape: shape, DType: ir.FP16})
	src := newVar("src", &ir.TensorType{Shape: shape, DType: ir.FP16})
	peer := newVar("peer", scalarT(ir.INT32))
	ctx := newVar("dst_ctx", ir.CommCtxT)
	stage := newVar("tput_stage", tileT(ir.FP16, 0, 4, 32))
	return kernel("put_dynamic", []*ir.Var{dst, peer, src, ctx},
		assign(stage, call("tile.create", args(ir.Dims(4, 32)), kw("dtype", ir.FP16, "target_memory", ir.MemVec))),
		eval(call("pld.tile.put", args(dst, peer, src, stage), kw("atomic", int64(0)))))
}

// put1DKernel is a rank-1 [128] f32 transfer.
func put1DKernel() (*ir.Program, *ir.Function) {
	dst := newVar("dst", distT(ir.FP32, 128))
	src := newVar("src", tensorT(ir.FP32, 128))
	peer := newVar("peer", scalarT(ir.INT32))
	ctx := newVar("dst_ctx", ir.CommCtxT)
	stage := newVar("tput_stage", tileT(ir.FP32, 0, 1, 128))
	return kernel("put_1d", []*ir.Var{dst, peer, src, ctx},
		assign(stage, call("tile.create", args(ir.Dims(1, 128)), kw("dtype", ir.FP32, "target_memory", ir.MemVec))),
		eval(call("pld.tile.put", args(dst, peer, src, stage), kw("atomic", int64(0)))))
}

// getKernel reads row 0 of peer's src into row r of dst (region form).
func getKernel() (*ir.Program, *ir.Function) {
	dst := newVar("y", tensorT(ir.FP32, 2, 16))
	src := newVar("data", distT(ir.FP32, 1, 16))
	peer := newVar("peer", scalarT(ir.INT32))
	ctx := newVar("data_ctx", ir.CommCtxT)
	stage := newVar("tget_stage", tileT(ir.FP32, 64, 1, 16))
	return kernel("get", []*ir.Var{dst, src, peer, ctx},
		assign(stage, call("tile.create", args(ir.Dims(1, 16)), kw("dtype", ir.FP32, "target_memory", ir.MemVec))),
		eval(call("pld.tile.get", args(dst, peer, src, stage, ir.Dims(1, 0), ir.Dims(0, 0), ir.Dims(1, 16)), nil)))
}

// remoteKernel: remote_load a [16, 32] block of peer's data, add it to a
// local tile, remote_store the sum (atomic add) into a [4, 16, 64] target and
// plain-store it back, then notify.
func remoteKernel() (*ir.Program, *ir.Function) {
	data := newVar("data", distT(ir.FP16, 16, 64))
	target := newVar("target", distT(ir.FP16, 4, 16, 64))
	signal := newVar("signal", distT(ir.INT32, 2, 1))
	x := newVar("x", tensorT(ir.FP16, 16, 32))
	peer := newVar("peer", scalarT(ir.INT32))
	ctxs := []*ir.Var{newVar("data_ctx", ir.CommCtxT), newVar("target_ctx", ir.CommCtxT), newVar("signal_ctx", ir.CommCtxT)}
	recv := newVar("recv", tileT(ir.FP16, 0, 16, 32))
	mine := newVar("mine", tileT(ir.FP16, 1024, 16, 32))
	sum := newVar("sum", tileT(ir.FP16, 2048, 16, 32))
	return kernel("remote", append([]*ir.Var{data, target, signal, x, peer}, ctxs...),
		assign(recv, call("pld.tile.remote_load", args(data, peer, ir.Dims(0, 32), ir.Dims(16, 32)), nil)),
		assign(mine, call("tile.load", args(x, ir.Dims(0, 0), ir.Dims(16, 32), ir.Dims(16, 32)), kw("target_memory", ir.MemVec))),
		assign(sum, call("tile.add", args(recv, mine), nil)),
		eval(call("pld.tile.remote_store", args(sum, target, peer, ir.Dims(1, 0, 32)), kw("atomic", int64(ir.AtomicAdd)))),
		eval(call("pld.tile.remote_store", args(sum, data, peer, ir.Dims(0, 0)), nil)),
		eval(call("system.fence", nil, nil)),
		eval(call("pld.system.notify", args(signal, peer, ir.Dims(0, 0), i32(1)), kw("op", int64(ir.NotifyAtomicAdd)))))
}

// commSignalsKernel is the #1301 loopback: notify, wait and test one slot.
func commSignalsKernel() (*ir.Program, *ir.Function) {
	sig := newVar("signal", tensorT(ir.INT32, 1))
	ok := newVar("ok", scalarT(ir.BOOL))
	return kernel("comm_signals", []*ir.Var{sig},
		eval(call("tile.comm_notify", args(sig, i32(1)), kw("op", "atomic_add"))),
		eval(call("tile.comm_wait", args(sig, i32(1)), kw("cmp", "ge"))),
		assign(ok, call("tile.comm_test", args(sig, i32(1)), kw("cmp", "eq"))))
}

// allreduceKernel has the shape of LowerCompositeOps' mesh allreduce after
// the whole pipeline: stage-in, notify/wait loops, a reduction loop carrying
// a tile through an if, a store back and fences.
func allreduceKernel() (*ir.Program, *ir.Function) {
	x := newVar("x", tensorT(ir.FP32, 1, 16))
	y := newVar("y", tensorT(ir.FP32, 1, 16))
	data := newVar("data", distT(ir.FP32, 2, 16))
	signal := newVar("signal", distT(ir.INT32, 2, 1))
	dataCtx := newVar("data_ctx", ir.CommCtxT)
	sigCtx := newVar("signal_ctx", ir.CommCtxT)
	tile := func(addr int64) *ir.TileType { return tileT(ir.FP32, addr, 1, 16) }
	staged := newVar("staged", tile(0))
	data1 := newVar("data__ssa_v0", data.Type())
	ctx := newVar("ctx", ir.CommCtxT)
	n := newVar("nranks", scalarT(ir.INT32))
	nIdx := newVar("nranks_idx", scalarT(ir.INDEX))
	me := newVar("my_rank", scalarT(ir.INT32))
	peer := newVar("peer", scalarT(ir.INDEX))
	chunk := newVar("chunk", tile(64))
	acc := newVar("acc", tile(64))
	peer1 := newVar("peer_1", scalarT(ir.INDEX))
	accIter := ir.NewIterArg("acc_iter", tile(64), acc, ir.Span{})
	recv := newVar("recv", tile(128))
	recvPad := newVar("recv_pad", tile(128))
	accSum := newVar("acc_sum", tile(192))
	accNext := newVar("acc_next", tile(64))
	accRV := newVar("acc_rv", tile(64))
	out := newVar("out", tile(256))
	y1 := newVar("y__ssa_v0", y.Type())
	notMe := func(v *ir.Var) ir.Expr { return bin(ir.OpNe, v, me, ir.BOOL) }
	reduce := &ir.ForStmt{LoopVar: peer1, Start: ir.Int(0), Stop: nIdx, Step: ir.Int(1),
		IterArgs: []*ir.IterArg{accIter}, ReturnVars: []*ir.Var{accRV},
		Body: ir.Seq(
			&ir.IfStmt{Cond: notMe(peer1), ReturnVars: []*ir.Var{accNext},
				Then: ir.Seq(
					assign(recv, call("pld.tile.remote_load", args(data1, peer1, ir.Dims(0, 0), ir.Dims(1, 16), ir.Dims(1, 16)), nil)),
					assign(recvPad, call("tile.fillpad_inplace", args(recv), kw("pad_value", ir.PadZero))),
					assign(accSum, call("tile.add", args(accIter, recvPad), nil)),
					&ir.YieldStmt{Values: []ir.Expr{accSum}}),
				Else: ir.Seq(&ir.YieldStmt{Values: []ir.Expr{accIter}})},
			&ir.YieldStmt{Values: []ir.Expr{accNext}})}
	return kernel("allreduce", []*ir.Var{x, y, data, signal, dataCtx, sigCtx},
		assign(staged, call("tile.load", args(x, ir.Dims(0, 0), ir.Dims(1, 16), ir.Dims(1, 16)), kw("target_memory", ir.MemVec))),
		assign(data1, call("tile.store", args(staged, ir.Tuple(ir.Int(0), ir.Int(0)), data), nil)),
		eval(call("system.cacheinvalid", args(data, ir.Dims(2, 16), ir.Dims(0, 0)), nil)),
		eval(call("system.fence", nil, nil)),
		assign(ctx, dataCtx),
		assign(n, call("pld.system.nranks", args(ctx), nil)),
		assign(nIdx, cast(n, ir.INDEX)),
		assign(me, call("pld.system.rank", args(ctx), nil)),
		forRange(peer, ir.Int(0), nIdx, ir.Int(1),
			&ir.IfStmt{Cond: notMe(peer), Then: ir.Seq(
				eval(call("pld.system.notify", args(signal, peer, ir.Tuple(me, ir.Int(0)), i32(1)), kw("op", int64(0)))))}),
		assign(chunk, call("tile.load", args(data1, ir.Dims(0, 0), ir.Dims(1, 16), ir.Dims(1, 16)), kw("target_memory", ir.MemVec))),
		assign(acc, call("tile.fillpad_inplace", args(chunk), kw("pad_value", ir.PadZero))),
		reduce,
		assign(out, call("tile.muls", args(accRV, &ir.ConstFloat{Value: 0.5, DType: ir.FP32}), nil)),
		assign(y1, call("tile.store", args(out, ir.Dims(0, 0), y), nil)),
		eval(call("system.cacheinvalid", args(data1, ir.Dims(2, 16), ir.Dims(0, 0)), nil)),
		eval(call("system.fence", nil, nil)),
		&ir.ReturnStmt{Values: []ir.Expr{y1}})
}

// twoRemoteKernel has two f16 remote ops and an i32 notify: helpers for f16
// (once) and i32.
func twoRemoteKernel() (*ir.Program, *ir.Function) {
	data := newVar("data", distT(ir.FP16, 16, 64))
	signal := newVar("signal", distT(ir.INT32, 2, 1))
	peer := newVar("peer", scalarT(ir.INT32))
	ctxs := []*ir.Var{newVar("data_ctx", ir.CommCtxT), newVar("signal_ctx", ir.CommCtxT)}
	a := newVar("a", tileT(ir.FP16, 0, 16, 64))
	return kernel("two_remote", append([]*ir.Var{data, signal, peer}, ctxs...),
		assign(a, call("pld.tile.remote_load", args(data, peer, ir.Dims(0, 0), ir.Dims(16, 64)), nil)),
		eval(call("pld.tile.remote_store", args(a, data, peer, ir.Dims(0, 0)), nil)),
		eval(call("pld.system.notify", args(signal, peer, ir.Dims(0, 0), i32(1)), kw("op", int64(ir.NotifySet)))))
}

// aivKernel is an AIV function with a dynamic valid shape on a tile.
func aivKernel() (*ir.Program, *ir.Function) {
	x := newVar("x", tensorT(ir.FP32, 8, 64))
	rows := newVar("rows", scalarT(ir.INDEX))
	t := newVar("t", withValid(tileT(ir.FP32, 0, 8, 64), rows, ir.Int(64)))
	p, fn := kernel("vec_kernel", []*ir.Var{x, rows},
		assign(t, call("tile.load", args(x, ir.Dims(0, 0), ir.Dims(8, 64), ir.Tuple(rows, ir.Int(64))), kw("target_memory", ir.MemVec))),
		eval(call("tile.store", args(t, ir.Dims(0, 0), x), nil)))
	fn.Kind = ir.AIV
	return p, fn
}

// deferWaitKernel is upstream's strided deferred wait: a [4, 8] INT32
// signal with row stride 16, registered at [row, 2] for a scalar count.
func deferWaitKernel() (*ir.Program, *ir.Function) {
	st := distT(ir.INT32, 4, 8)
	st.View = &ir.TensorView{Stride: []ir.Expr{ir.Int(16), ir.Int(1)}, Layout: ir.LayoutND}
	sig := newVar("signal", st)
	row := newVar("row", scalarT(ir.INT32))
	expected := newVar("expected", scalarT(ir.INT32))
	return kernel("kernel", []*ir.Var{sig, row, expected, newVar("signal_ctx", ir.CommCtxT)},
		eval(call("pld.system.defer_wait", args(sig, ir.Tuple(row, ir.Int(2)), expected), kw("cmp", int64(ir.WaitGe)))))
}

// deferWaitDynamicKernel registers cell [n - 1] of an [n] signal (row-major
// strides, a dynamic bound) for an INT64 count, which reaches the adapter
// untruncated.
func deferWaitDynamicKernel() (*ir.Program, *ir.Function) {
	n := newVar("n", scalarT(ir.INDEX))
	sig := newVar("signal", &ir.DistributedTensorType{Shape: []ir.Expr{n}, DType: ir.INT32})
	expected := newVar("expected", scalarT(ir.INT64))
	last := bin(ir.OpSub, n, ir.Int(1), ir.INDEX)
	return kernel("kernel", []*ir.Var{sig, expected, newVar("signal_ctx", ir.CommCtxT)},
		eval(call("pld.system.defer_wait", args(sig, ir.Tuple(last), expected), kw("cmp", int64(ir.WaitGe)))))
}

// prefetchKernel is upstream's prefetch sequence (its codegen test's
// PrefetchProgram): warm x, wait, copy a slice of it out. The SDMA
// workspace is the hidden argument after the user's.
func prefetchKernel() (*ir.Program, *ir.Function) {
	x := newVar("x", tensorT(ir.FP32, 1, 4096))
	out := newVar("out", tensorT(ir.FP32, 1, 128))
	ctx, evt, sess := newVar("ctx", ir.PrefetchCtxT), newVar("evt", ir.AsyncEventT), newVar("session", ir.AsyncSessionT)
	t := newVar("tile", tileT(ir.FP32, 0, 1, 128))
	return kernel("main", []*ir.Var{x, out},
		assign(ctx, call("prefetch.make_context", nil, nil)),
		assign(evt, call("prefetch.async_prefetch", args(x, ctx), nil)),
		assign(sess, call("prefetch.session", args(ctx), nil)),
		eval(call("prefetch.wait", args(evt, sess), nil)),
		assign(t, call("tile.load", args(x, ir.Dims(0, 0), ir.Dims(1, 128)), kw("target_memory", ir.MemVec))),
		eval(call("tile.store", args(t, ir.Dims(0, 0), out), nil)))
}

// prefetchOrderedKernel has every hidden argument upstream orders: the
// dynamic dim, then the SDMA workspace, then the SPMD identity.
func prefetchOrderedKernel() (*ir.Program, *ir.Function) {
	rows := newVar("ROWS", scalarT(ir.INDEX))
	src := newVar("prefetch_src", tensorT(ir.FP32, 1, 4096))
	x := newVar("x", &ir.TensorType{Shape: []ir.Expr{rows, ir.Int(128)}, DType: ir.FP32})
	ctx, evt, sess := newVar("ctx", ir.PrefetchCtxT), newVar("evt", ir.AsyncEventT), newVar("session", ir.AsyncSessionT)
	done := newVar("done", scalarT(ir.BOOL))
	row := newVar("row", scalarT(ir.INDEX))
	t := newVar("t", tileT(ir.FP32, 0, 1, 128))
	return kernel("ordered", []*ir.Var{src, x},
		assign(ctx, call("prefetch.make_context", nil, nil)),
		assign(evt, call("prefetch.async_prefetch", args(src, ctx), nil)),
		assign(sess, call("prefetch.session", args(ctx), nil)),
		assign(done, call("prefetch.wait", args(evt, sess), nil)),
		assign(row, call("tile.get_block_idx", nil, nil)),
		assign(t, call("tile.load", args(x, ir.Tuple(row, ir.Int(0)), ir.Dims(1, 128)), kw("target_memory", ir.MemVec))),
		eval(call("tile.store", args(t, ir.Tuple(row, ir.Int(0)), x), nil)))
}

// prefetchContextOnly makes a context in a kernel without parameters: the
// workspace is its first argument.
func prefetchContextOnly() (*ir.Program, *ir.Function) {
	return kernel("main", nil, eval(call("prefetch.make_context", nil, nil)))
}

var goldenCases = []goldenCase{
	{"prefetch", prefetchKernel, Options{}},
	{"prefetch_ordered", prefetchOrderedKernel, Options{}},
	{"prefetch_context_only", prefetchContextOnly, Options{}},
	{"defer_wait", deferWaitKernel, Options{}},
	{"defer_wait_dynamic", deferWaitDynamicKernel, Options{}},
	{"notify_set", notifyKernel, Options{}},
	{"notify_set_inline", notifyKernel, Options{InlineRemoteOffset: true}},
	{"notify_loop", notifyLoopKernel, Options{}},
	{"wait", waitKernel, Options{}},
	{"rank_nranks", rankKernel, Options{}},
	{"rank_only", rankOnlyKernel, Options{}},
	{"put", putKernel(ir.FP16, ir.AtomicNone), Options{}},
	{"put_inline", putKernel(ir.FP16, ir.AtomicNone), Options{InlineRemoteOffset: true}},
	{"put_atomic_bf16", putKernel(ir.BF16, ir.AtomicAdd), Options{}},
	{"put_no_addresses", putKernel(ir.FP16, ir.AtomicNone), Options{NoAddresses: true}},
	{"put_region", putRegionKernel, Options{}},
	{"put_pipelined", putPipelinedKernel, Options{}},
	{"put_dynamic", putDynamicKernel, Options{}},
	{"put_1d", put1DKernel, Options{}},
	{"get", getKernel, Options{}},
	{"remote", remoteKernel, Options{}},
	{"remote_inline", remoteKernel, Options{InlineRemoteOffset: true, Arch: "a5"}},
	{"comm_signals", commSignalsKernel, Options{}},
	{"allreduce", allreduceKernel, Options{}},
	{"two_remote", twoRemoteKernel, Options{}},
	{"two_remote_inline", twoRemoteKernel, Options{InlineRemoteOffset: true}},
	{"aiv_dynamic_valid", aivKernel, Options{}},
}

// scalarKernel lowers every binary and unary operator and the casts between
// integer, index, float and bool scalars; it returns one scalar.
func scalarKernel() (*ir.Program, *ir.Function) {
	a := newVar("a", scalarT(ir.INT32))
	b := newVar("b", scalarT(ir.INDEX))
	f := newVar("f", scalarT(ir.FP32))
	h := newVar("h", scalarT(ir.FP16))
	u := newVar("u", scalarT(ir.UINT32))
	g := newVar("g", scalarT(ir.BF16))
	flag := newVar("flag", scalarT(ir.BOOL))
	var body []ir.Stmt
	n := 0
	def := func(dt ir.DataType, e ir.Expr) *ir.Var {
		v := newVar("s"+itoa(n), scalarT(dt))
		n++
		body = append(body, assign(v, e))
		return v
	}
	for _, op := range []ir.BinaryOp{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpFloorDiv, ir.OpFloorMod, ir.OpMin, ir.OpMax,
		ir.OpPow, ir.OpBitAnd, ir.OpBitOr, ir.OpBitXor, ir.OpShl, ir.OpShr} {
		def(ir.INT32, bin(op, a, i32(3), ir.INT32))
		if op != ir.OpPow {
			def(ir.UINT32, bin(op, u, ir.IntOf(2, ir.UINT32), ir.UINT32))
		}
	}
	for _, op := range []ir.BinaryOp{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpFloatDiv, ir.OpFloorDiv, ir.OpFloorMod, ir.OpMin, ir.OpMax, ir.OpPow} {
		def(ir.FP32, bin(op, f, h, ir.FP32))
	}
	for _, op := range []ir.BinaryOp{ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe} {
		def(ir.BOOL, bin(op, a, b, ir.BOOL))
		def(ir.BOOL, bin(op, u, ir.IntOf(7, ir.UINT32), ir.BOOL))
		def(ir.BOOL, bin(op, f, a, ir.BOOL))
	}
	c0 := def(ir.BOOL, bin(ir.OpLt, h, g, ir.BOOL))
	c1 := def(ir.BOOL, bin(ir.OpAnd, flag, c0, ir.BOOL))
	def(ir.BOOL, bin(ir.OpOr, c1, &ir.UnaryExpr{Op: ir.OpNot, X: flag, DType: ir.BOOL}, ir.BOOL))
	def(ir.BOOL, bin(ir.OpXor, flag, &ir.ConstBool{Value: true}, ir.BOOL))
	def(ir.INT32, &ir.UnaryExpr{Op: ir.OpNeg, X: a, DType: ir.INT32})
	def(ir.FP32, &ir.UnaryExpr{Op: ir.OpNeg, X: f, DType: ir.FP32})
	def(ir.INT32, &ir.UnaryExpr{Op: ir.OpBitNot, X: a, DType: ir.INT32})
	def(ir.INT32, &ir.UnaryExpr{Op: ir.OpAbs, X: a, DType: ir.INT32})
	def(ir.FP32, &ir.UnaryExpr{Op: ir.OpAbs, X: f, DType: ir.FP32})
	for _, x := range []*ir.Var{a, b, f, h, u, g, flag} {
		for _, to := range []ir.DataType{ir.INT8, ir.INT64, ir.INDEX, ir.FP32, ir.FP16, ir.BF16, ir.UINT16, ir.BOOL} {
			def(to, cast(x, to))
		}
	}
	def(ir.INT32, ir.IntOf(-1, ir.INT32))
	last := def(ir.FP32, bin(ir.OpAdd, cast(b, ir.FP32), &ir.ConstFloat{Value: -2.5, DType: ir.FP32}, ir.FP32))
	body = append(body, &ir.ReturnStmt{Values: []ir.Expr{last, b}})
	p, fn := kernel("scalars", []*ir.Var{a, b, f, h, u, g, flag}, body...)
	fn.ReturnTypes = []ir.Type{scalarT(ir.FP32), scalarT(ir.INDEX)}
	return p, fn
}

func init() {
	goldenCases = append(goldenCases, goldenCase{"scalars", scalarKernel, Options{}})
}

// tensorLoopKernel stores row by row through a tensor-typed iter_arg (no SSA
// value: it aliases y), then returns a store. Both tensors use their own
// pl.dynamic("NR"), which is one symbol: one trailing index argument.
func tensorLoopKernel() (*ir.Program, *ir.Function) {
	nr1, nr2 := newVar("NR", scalarT(ir.INDEX)), newVar("NR", scalarT(ir.INDEX))
	x := newVar("x", &ir.TensorType{Shape: []ir.Expr{nr1, ir.Int(16)}, DType: ir.FP32})
	y := newVar("y", &ir.TensorType{Shape: []ir.Expr{nr2, ir.Int(16)}, DType: ir.FP32})
	i := newVar("i", scalarT(ir.INDEX))
	yIter := ir.NewIterArg("y_iter", y.Type(), y, ir.Span{})
	yNext := newVar("y_next", y.Type())
	yRV := newVar("y_rv", y.Type())
	row := newVar("row", tileT(ir.FP32, 0, 1, 16))
	last := newVar("last", tileT(ir.FP32, 64, 1, 16))
	loop := &ir.ForStmt{LoopVar: i, Start: ir.Int(0), Stop: nr1, Step: ir.Int(1),
		IterArgs: []*ir.IterArg{yIter}, ReturnVars: []*ir.Var{yRV},
		Body: ir.Seq(
			assign(row, call("tile.load", args(x, ir.Tuple(i, ir.Int(0)), ir.Dims(1, 16)), kw("target_memory", ir.MemVec))),
			assign(yNext, call("tile.store", args(row, ir.Tuple(i, ir.Int(0)), yIter), nil)),
			&ir.YieldStmt{Values: []ir.Expr{yNext}})}
	return kernel("tensor_loop", []*ir.Var{x, y}, loop,
		assign(last, call("tile.load", args(x, ir.Dims(0, 0), ir.Dims(1, 16)), kw("target_memory", ir.MemVec))),
		&ir.ReturnStmt{Values: []ir.Expr{call("tile.store", args(last, ir.Dims(0, 0), yRV), nil)}})
}

func init() {
	goldenCases = append(goldenCases, goldenCase{"tensor_loop", tensorLoopKernel, Options{}})
}

// absKernel loads a tile, takes tile.abs of it and stores the result.
func absKernel() (*ir.Program, *ir.Function) {
	x := newVar("x", tensorT(ir.FP32, 16, 16))
	y := newVar("y", tensorT(ir.FP32, 16, 16))
	a := newVar("a", tileT(ir.FP32, 0, 16, 16))
	b := newVar("b", tileT(ir.FP32, 1024, 16, 16))
	return kernel("abs_kernel", []*ir.Var{x, y},
		assign(a, call("tile.load", args(x, ir.Dims(0, 0), ir.Dims(16, 16)), kw("target_memory", ir.MemVec))),
		assign(b, call("tile.abs", args(a), nil)),
		eval(call("tile.store", args(b, ir.Dims(0, 0), y), nil)))
}

func init() {
	goldenCases = append(goldenCases, goldenCase{"tile_abs", absKernel, Options{}})
}
