package pto

import (
	"regexp"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/stretchr/testify/require"
)

// The strings upstream tests assert (the ✓ marks of pto.md), checked on the
// custom form.

func emit(t *testing.T, build func() (*ir.Program, *ir.Function), o Options) string {
	t.Helper()
	p, fn := build()
	text, err := EmitFunction(p, fn, o)
	require.NoError(t, err, "kernel:\n%s", printer.Function(fn))
	return text
}

// kernelPart is the text before the first helper function.
func kernelPart(text string) string {
	before, _, _ := strings.Cut(text, "func.func private")
	return before
}

// helperPart is the helper function of dtype elem (its header through its closing brace).
func helperPart(t *testing.T, text, elem string) string {
	t.Helper()
	_, after, ok := strings.Cut(text, "func.func private @CommRemoteOffset_"+elem+"(")
	require.True(t, ok, "no CommRemoteOffset_%s in\n%s", elem, text)
	body, _, _ := strings.Cut(after, "\n  }\n")
	return body
}

// lineWith is the index of the first line containing s, or -1.
func lineWith(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

// theLine is the one line containing s.
func theLine(t *testing.T, text, s string) string {
	t.Helper()
	lines := strings.Split(text, "\n")
	i := lineWith(lines, s)
	require.GreaterOrEqual(t, i, 0, "no line with %q in\n%s", s, text)
	return lines[i]
}

func TestSignatureOrder(t *testing.T) {
	build := func() (*ir.Program, *ir.Function) {
		data := newVar("data", distT(ir.FP16, 16, 64))
		signal := newVar("signal", distT(ir.INT32, 2, 1))
		out := newVar("out", tensorT(ir.FP16, 16, 64))
		peer := newVar("peer", scalarT(ir.INT32))
		return kernel("k", []*ir.Var{data, signal, out, peer, newVar("data_ctx", ir.CommCtxT), newVar("signal_ctx", ir.CommCtxT)})
	}
	text := emit(t, build, Options{})
	header := theLine(t, text, "func.func @k(")
	require.Contains(t, header, "%arg4: !pto.ptr<i64>")
	require.Contains(t, header, "%arg5: !pto.ptr<i64>")
	require.Equal(t, 6, strings.Count(header, "%arg"))
	require.Contains(t, header, "(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<f16>, %arg3: i32,")
	require.NotContains(t, header, "attributes", "an InCore function has no kernel_kind")
	require.True(t, strings.HasPrefix(text, `module attributes {pto.target_arch = "a2a3"} {`))
	a5 := emit(t, build, Options{Arch: "a5"})
	require.True(t, strings.HasPrefix(a5, `module attributes {pto.target_arch = "a5"} {`))
}

func TestKernelKindAttribute(t *testing.T) {
	for kind, want := range map[ir.FunctionType]string{ir.AIV: "#pto.kernel_kind<vector>", ir.AIC: "#pto.kernel_kind<cube>"} {
		build := func() (*ir.Program, *ir.Function) {
			p, fn := kernel("k", []*ir.Var{newVar("x", tensorT(ir.FP32, 1, 16))})
			fn.Kind = kind
			return p, fn
		}
		require.Contains(t, theLine(t, emit(t, build, Options{}), "func.func @k("), "attributes {pto.kernel_kind = "+want+"}")
	}
}

func TestViewNames(t *testing.T) {
	text := emit(t, putKernel(ir.FP16, ir.AtomicNone), Options{})
	require.Contains(t, text, "_peer_pview")
	require.Contains(t, text, "_local_pview")
	// Column vector: [2, 1] is dn with stride[rank-2] = 1.
	notify := emit(t, notifyKernel, Options{})
	require.Contains(t, notify, "shape = [%c2_index, %c1_index], strides = [%c1_index, %c2_index] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>")
}

// §3, main: the inline peer-offset sequence.
func TestInlineRemoteOffset(t *testing.T) {
	o := Options{InlineRemoteOffset: true}
	for _, tc := range []struct {
		name  string
		build func() (*ir.Program, *ir.Function)
		bytes string
	}{
		{"put f16", putKernel(ir.FP16, ir.AtomicNone), "arith.constant 2 : i64"},
		{"notify i32", notifyKernel, "arith.constant 4 : i64"},
		{"get f32", getKernel, "arith.constant 4 : i64"},
	} {
		text := emit(t, tc.build, o)
		require.NotContains(t, text, "CommRemoteOffset", tc.name)
		require.NotContains(t, text, "func.call", tc.name)
		require.GreaterOrEqual(t, strings.Count(text, "pto.load_scalar"), 3, tc.name)
		require.Contains(t, text, "arith.divsi", tc.name)
		require.Contains(t, text, "pto.addptr", tc.name)
		require.Contains(t, text, tc.bytes, tc.name)
		lines := strings.Split(text, "\n")
		i := lineWith(lines, "pto.addptr")
		found := false
		for j := i + 1; j <= i+3 && j < len(lines); j++ {
			found = found || strings.Contains(lines[j], "pto.make_tensor_view")
		}
		require.True(t, found, "%s: make_tensor_view within 3 lines after addptr", tc.name)
	}
	two := emit(t, twoRemoteKernel, Options{InlineRemoteOffset: true})
	require.Equal(t, 3, strings.Count(two, "arith.divsi"), "two f16 remote ops and an i32 notify")
	one := func() (*ir.Program, *ir.Function) {
		data := newVar("data", distT(ir.FP16, 16, 64))
		peer := newVar("peer", scalarT(ir.INT32))
		a := newVar("a", tileT(ir.FP16, 0, 16, 64))
		return kernel("k", []*ir.Var{data, peer, newVar("ctx", ir.CommCtxT)},
			assign(a, call("pld.tile.remote_load", args(data, peer, ir.Dims(0, 0), ir.Dims(16, 64)), nil)),
			eval(call("pld.tile.remote_store", args(a, data, peer, ir.Dims(0, 0)), nil)))
	}
	require.Equal(t, 2, strings.Count(emit(t, one, o), "arith.divsi"), "two remote ops give exactly two divsi")
}

// §3, seed #1548: module-level helpers, emitted once per dtype at module end.
func TestRemoteOffsetHelpers(t *testing.T) {
	text := emit(t, twoRemoteKernel, Options{})
	require.Equal(t, 1, strings.Count(text, "func.func private @CommRemoteOffset_f16("), "one f16 helper for two f16 remote ops")
	require.Contains(t, text, "func.func private @CommRemoteOffset_f16(%ctx: !pto.ptr<i64>, %peer: index) -> index")
	require.Contains(t, text, "func.func private @CommRemoteOffset_i32(", "an i32 notify registers the i32 helper")
	require.Less(t, strings.Index(text, "func.func @two_remote("), strings.Index(text, "@CommRemoteOffset_f16(%ctx"), "helpers follow the kernel")
	require.True(t, strings.HasSuffix(text, "  }\n}\n"), "the helpers end the module")

	f16 := helperPart(t, text, "f16")
	require.Contains(t, f16, "return %delems : index")
	require.GreaterOrEqual(t, strings.Count(f16, "pto.load_scalar"), 3)
	require.NotContains(t, f16, "pto.addptr")
	require.NotContains(t, f16, "pto.make_tensor_view")
	require.Contains(t, f16, "arith.constant 2 : index")
	require.Contains(t, f16, "arith.constant 4 : index")
	require.Contains(t, f16, "%esize = arith.constant 2 : i64")
	require.Contains(t, helperPart(t, text, "i32"), "%esize = arith.constant 4 : i64")

	k := kernelPart(text)
	require.Contains(t, k, "func.call @CommRemoteOffset_f16(")
	require.Contains(t, k, "(!pto.ptr<i64>, index) -> index")
	require.NotContains(t, k, "pto.load_scalar")

	require.Contains(t, kernelPart(emit(t, putKernel(ir.FP16, ir.AtomicNone), Options{})), "func.call @CommRemoteOffset_f16")
	get1D := func() (*ir.Program, *ir.Function) {
		dst := newVar("dst", tensorT(ir.FP32, 128))
		src := newVar("src", distT(ir.FP32, 128))
		peer := newVar("peer", scalarT(ir.INT32))
		stage := newVar("tget_stage", tileT(ir.FP32, 0, 1, 128))
		return kernel("get_1d", []*ir.Var{dst, src, peer, newVar("src_ctx", ir.CommCtxT)},
			assign(stage, call("tile.create", args(ir.Dims(1, 128)), kw("dtype", ir.FP32, "target_memory", ir.MemVec))),
			eval(call("pld.tile.get", args(dst, peer, src, stage), nil)))
	}
	g := emit(t, get1D, Options{})
	require.Contains(t, g, "func.call @CommRemoteOffset_f32")
	require.Contains(t, theLine(t, g, "pto.comm.tget("), "!pto.partition_tensor_view<128xf32>")
}

// §4: rank, nranks and get_comm_ctx.
func TestRankNRanks(t *testing.T) {
	rank := emit(t, rankOnlyKernel, Options{})
	require.Contains(t, rank, "pto.load_scalar")
	require.Contains(t, rank, "!pto.ptr<i64> -> i64")
	require.Contains(t, rank, "arith.trunci")
	require.NotContains(t, rank, "arith.shrui")
	require.NotContains(t, rank, "pld.system.get_comm_ctx")
	require.Contains(t, rank, "%my_rank = arith.trunci %0 : i64 to i32")
	require.Contains(t, rank, "pto.load_scalar %arg3[%c2_index]", "get_comm_ctx(data) is the first ctx parameter (%arg3)")

	both := emit(t, rankKernel, Options{})
	require.Contains(t, both, "arith.shrui")
	require.Contains(t, both, "arith.shrui %1, %c32_i64 : i64")
	require.NotContains(t, both, "get_comm_ctx")
}

// notifySetLoop notifies with the loop variable as a Set value.
func notifySetLoop() (*ir.Program, *ir.Function) {
	d := newDistParams(ir.FP32, 1, 64)
	i := newVar("i", scalarT(ir.INDEX))
	return kernel("k", d.list(),
		forRange(i, ir.Int(0), ir.Int(2), ir.Int(1),
			eval(call("pld.system.notify", args(d.signal, d.peer, ir.Tuple(i, ir.Int(0)), i), kw("op", int64(ir.NotifySet))))))
}

// §5: notify and wait.
func TestNotifyWait(t *testing.T) {
	set := emit(t, notifyKernel, Options{})
	add := emit(t, notifyLoopKernel, Options{})
	require.Contains(t, set, "pto.comm.tnotify(")
	require.Contains(t, set, "#pto<notify_op set>")
	require.Contains(t, add, "#pto<notify_op atomic_add>")
	for _, text := range []string{set, add, emit(t, notifySetLoop, Options{}), emit(t, remoteKernel, Options{})} {
		lines := strings.Split(text, "\n")
		i := lineWith(lines, "pto.comm.tnotify(")
		require.Greater(t, i, 0)
		require.Contains(t, lines[i-1], "pto.barrier <PIPE_ALL>")
		require.Contains(t, lines[i], "!pto.partition_tensor_view<1x1xi32>")
	}
	loop := emit(t, notifySetLoop, Options{})
	lines := strings.Split(loop, "\n")
	i := lineWith(lines, "pto.comm.tnotify(")
	require.True(t, strings.HasSuffix(lines[i], "i32) {notifyOp = #pto<notify_op set>}"), lines[i])
	j := lineWith(lines, "arith.index_cast %i : index to i32")
	require.True(t, j >= 0 && j < i, "the loop value is cast to i32 before tnotify")

	wait := emit(t, waitKernel, Options{})
	require.Contains(t, wait, "pto.comm.twait(")
	require.Contains(t, wait, "#pto<wait_cmp eq>")
	require.Contains(t, wait, "#pto<wait_cmp ge>")
	before, _, _ := strings.Cut(wait, "pto.comm.twait(")
	require.NotContains(t, before, "pto.addptr")
	require.True(t, strings.HasSuffix(theLine(t, wait, "pto.comm.twait("), "i32) {cmp = #pto<wait_cmp ge>}"))
	require.Contains(t, theLine(t, wait, "pto.comm.twait("), "_local_pview")
	require.Contains(t, wait, "pto.cmo.cacheinvalid all #pto.address_space<gm>")
}

// Seed #1301: tile.comm_notify / comm_wait / comm_test.
func TestCommSignals(t *testing.T) {
	text := emit(t, commSignalsKernel, Options{})
	for _, s := range []string{"pto.comm.tnotify", "#pto<notify_op atomic_add>", "pto.comm.twait", "#pto<wait_cmp ge>", "pto.comm.ttest", "#pto<wait_cmp eq>"} {
		require.Contains(t, text, s)
	}
	for _, op := range []string{"pto.comm.tnotify(", "pto.comm.twait(", "pto.comm.ttest("} {
		require.Contains(t, theLine(t, text, op), "!pto.partition_tensor_view<1xi32>, i32)")
	}
	require.True(t, strings.HasSuffix(theLine(t, text, "pto.comm.ttest("), "-> i1"))
	require.NotContains(t, text, "pto.barrier", "no barriers around #1301 ops")
	require.NotContains(t, text, "pto.addptr")

	for _, cmp := range []string{"eq", "ne", "gt", "ge", "lt", "le"} {
		build := func() (*ir.Program, *ir.Function) {
			sig := newVar("signal", tensorT(ir.INT32, 1, 1))
			ok := newVar("ok", scalarT(ir.BOOL))
			return kernel("k", []*ir.Var{sig},
				eval(call("tile.comm_wait", args(sig, i32(2)), kw("cmp", cmp))),
				assign(ok, call("tile.comm_test", args(sig, i32(2)), kw("cmp", cmp))))
		}
		out := emit(t, build, Options{})
		require.Contains(t, theLine(t, out, "pto.comm.twait("), "{cmp = #pto<wait_cmp "+cmp+">}")
		require.Contains(t, theLine(t, out, "pto.comm.ttest("), "!pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp "+cmp+">} -> i1")
	}
	set := func() (*ir.Program, *ir.Function) {
		sig := newVar("signal", tensorT(ir.INT32, 1))
		return kernel("k", []*ir.Var{sig}, eval(call("tile.comm_notify", args(sig, i32(5)), kw("op", "set"))))
	}
	require.Contains(t, emit(t, set, Options{}), "{notifyOp = #pto<notify_op set>}")
}

var bufArgs = regexp.MustCompile(`buf\(([^)]*)\)`)

// §6: put, get and staging tiles.
func TestPutGet(t *testing.T) {
	check := func(text, ptype, atomic string) []string {
		lines := strings.Split(text, "\n")
		i := lineWith(lines, "pto.comm.tput(")
		require.GreaterOrEqual(t, i, 0)
		line := lines[i]
		require.Contains(t, line, "#pto<atomic_type "+atomic+">")
		require.Equal(t, 2, strings.Count(line, ptype), line)
		require.Contains(t, line, "buf(")
		require.Contains(t, line, "!pto.tile_buf<loc=vec")
		require.Contains(t, lines[i-1], "pto.barrier <PIPE_ALL>")
		require.Contains(t, lines[i+1], "pto.barrier <PIPE_ALL>")
		require.Contains(t, lines[i+2], "pto.cmo.cacheinvalid")
		require.Contains(t, lines[i+2], "_peer_pview single_cache_line")
		return lines
	}
	put := emit(t, putKernel(ir.FP16, ir.AtomicNone), Options{})
	lines := check(put, "!pto.partition_tensor_view<16x64xf16>", "atomic_none")
	i := lineWith(lines, "pto.comm.tput(")
	require.Contains(t, lines[i+3], "pto.fence.barrier_all #pto.fence_scope<gm>")
	require.Contains(t, theLine(t, put, "%tput_stage = pto.alloc_tile"), "addr = ")
	require.NotContains(t, theLine(t, emit(t, putKernel(ir.FP16, ir.AtomicNone), Options{NoAddresses: true}), "%tput_stage = pto.alloc_tile"), "addr = ")

	check(emit(t, putKernel(ir.BF16, ir.AtomicAdd), Options{}), "!pto.partition_tensor_view<16x64xbf16>", "atomic_add")
	check(emit(t, put1DKernel, Options{}), "!pto.partition_tensor_view<128xf32>", "atomic_none")

	region := emit(t, putRegionKernel, Options{})
	check(region, "!pto.partition_tensor_view<1x64xf16>", "atomic_none")
	require.Contains(t, theLine(t, region, "%dst_peer_pview = "), "offsets = [%c3_index, %c0_index]")
	require.Contains(t, theLine(t, region, "%src_local_pview = "), "offsets = [%c1_index, %c0_index]")

	dyn := emit(t, putDynamicKernel, Options{})
	check(dyn, "!pto.partition_tensor_view<?x64xf16>", "atomic_none")
	stage := theLine(t, dyn, "%tput_stage = pto.alloc_tile")
	require.Contains(t, stage, "rows=4")
	require.Contains(t, stage, "cols=32")

	pipe := emit(t, putPipelinedKernel, Options{})
	check(pipe, "!pto.partition_tensor_view<16x64xf16>", "atomic_none")
	require.Contains(t, pipe, "%tput_stage_ping = pto.alloc_tile addr = ")
	require.Contains(t, pipe, "%tput_stage_pong = pto.alloc_tile addr = ")
	tput := theLine(t, pipe, "pto.comm.tput(")
	m := bufArgs.FindStringSubmatch(tput)
	require.NotNil(t, m)
	require.Equal(t, 1, strings.Count(m[1], ","), "buf(%ping, %pong)")
	require.Equal(t, 2, strings.Count(tput, "!pto.tile_buf<loc=vec"))
	require.Contains(t, theLine(t, pipe, "%tput_stage_ping ="), "rows=4, cols=32")

	get := emit(t, getKernel, Options{})
	glines := strings.Split(get, "\n")
	gi := lineWith(glines, "pto.comm.tget(")
	require.GreaterOrEqual(t, gi, 0)
	require.Contains(t, glines[gi-1], "pto.barrier <PIPE_ALL>")
	require.Contains(t, glines[gi+1], "pto.barrier <PIPE_ALL>")
	require.NotContains(t, glines[gi], "atomicType")
	require.True(t, strings.HasSuffix(glines[gi], ">)"), "tget has no attribute: %s", glines[gi])
	require.Contains(t, glines[gi], "(%y_local_pview, %data_peer_pview, buf(%tget_stage) :")
	require.Contains(t, theLine(t, get, "%tget_stage = pto.alloc_tile"), "addr = ")
}

// §7: remote_load and remote_store.
func TestRemoteLoadStore(t *testing.T) {
	text := emit(t, remoteKernel, Options{})
	require.Contains(t, text, "pto.tstore")
	require.Contains(t, text, "_peer_pview")
	require.Contains(t, text, "!pto.partition_tensor_view<1x16x32xf16>")
	require.Contains(t, text, "{atomicType = #pto<atomic_type atomic_add>}")
	require.Contains(t, theLine(t, text, "pto.tload ins(%data_peer_pview"), "outs(%recv : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32")
	lines := strings.Split(text, "\n")
	var stores []int
	for i, l := range lines {
		if strings.Contains(l, "pto.tstore") {
			stores = append(stores, i)
		}
	}
	require.Len(t, stores, 2)
	require.True(t, strings.HasSuffix(lines[stores[0]], "{atomicType = #pto<atomic_type atomic_add>}"))
	require.NotContains(t, lines[stores[1]], "atomicType", "the plain store has no atomic suffix")
	// remote_store then notify: tstore, cacheinvalid, fence, tnotify.
	last := stores[1]
	require.Contains(t, lines[last+1], "pto.cmo.cacheinvalid")
	require.Contains(t, lines[last+1], "single_cache_line")
	fence := lineWith(lines[last:], "pto.fence.barrier_all #pto.fence_scope<gm>") + last
	notify := lineWith(lines, "pto.comm.tnotify(")
	require.True(t, last < fence && fence < notify)

	plain := func() (*ir.Program, *ir.Function) {
		data := newVar("data", distT(ir.FP16, 16, 64))
		peer := newVar("peer", scalarT(ir.INT32))
		a := newVar("a", tileT(ir.FP16, 0, 16, 64))
		x := newVar("x", tensorT(ir.FP16, 16, 64))
		return kernel("k", []*ir.Var{data, x, peer, newVar("ctx", ir.CommCtxT)},
			assign(a, call("tile.load", args(x, ir.Dims(0, 0), ir.Dims(16, 64)), kw("target_memory", ir.MemVec))),
			eval(call("pld.tile.remote_store", args(a, data, peer, ir.Dims(0, 0)), nil)))
	}
	require.NotContains(t, kernelPart(emit(t, plain, Options{})), "atomicType")

	// remote_load partition sizes follow the requested valid shape.
	valid := func() (*ir.Program, *ir.Function) {
		data := newVar("data", distT(ir.FP16, 16, 64))
		peer := newVar("peer", scalarT(ir.INT32))
		a := newVar("a", withValid(tileT(ir.FP16, 0, 16, 64), ir.Int(16), ir.Int(40)))
		return kernel("k", []*ir.Var{data, peer, newVar("ctx", ir.CommCtxT)},
			assign(a, call("pld.tile.remote_load", args(data, peer, ir.Dims(0, 0), ir.Dims(16, 64), ir.Dims(16, 40)), nil)))
	}
	v := emit(t, valid, Options{})
	require.Contains(t, theLine(t, v, "%data_peer_pview ="), "-> !pto.partition_tensor_view<16x40xf16>")
	require.Contains(t, theLine(t, v, "%a = pto.alloc_tile"), "rows=16, cols=64, v_row=16, v_col=40")
}

// §8: fences and cache maintenance.
func TestFenceCacheInvalid(t *testing.T) {
	text := emit(t, allreduceKernel, Options{})
	require.Contains(t, text, "pto.fence.barrier_all #pto.fence_scope<gm>")
	require.Contains(t, text, "pto.cmo.cacheinvalid %0 single_cache_line : !pto.partition_tensor_view<2x16xf32>")
	require.Contains(t, emit(t, waitKernel, Options{}), "pto.cmo.cacheinvalid all #pto.address_space<gm>")
}

// Structured control flow: a loop carrying a tile through an if.
func TestControlFlow(t *testing.T) {
	text := emit(t, allreduceKernel, Options{})
	require.Contains(t, text, "%acc_rv = scf.for %peer_1 = %c0_index to %nranks_idx step %c1_index iter_args(%acc_iter = %chunk) -> (!pto.tile_buf<")
	require.Contains(t, text, "%acc_next = scf.if ")
	require.Contains(t, text, "} else {")
	require.Contains(t, text, "scf.yield %acc_next : !pto.tile_buf<")
	require.Contains(t, text, "pto.tmuls ins(%acc_rv, %c0p5_f32 : ")
	require.Contains(t, text, "pto.tfillpad ins(%chunk : ")
	require.Equal(t, 1, strings.Count(text, "\n    return\n"), "one return ends the kernel")
}

func TestTensorIterArgsAndReturnedStore(t *testing.T) {
	text := emit(t, tensorLoopKernel, Options{})
	header := theLine(t, text, "func.func @tensor_loop(")
	require.Contains(t, header, "(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: index)", "one index argument for NR")
	require.Contains(t, text, "scf.for %i = %c0_index to %arg2 step %c1_index {", "a tensor iter_arg is not carried")
	require.Equal(t, 2, strings.Count(text, "pto.tstore"), "the store in the return is emitted")
	require.Equal(t, 1, strings.Count(text, "%y_view = "), "iter_arg and return var alias y's view")
}
