package pto

import (
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/stretchr/testify/require"
)

// Rejected kernels: each gives an error (never a panic) naming the problem.
func TestErrors(t *testing.T) {
	dataRaw := func(dt ir.DataType) *ir.Var { return newVar("data", distT(dt, 2, 16)) }
	cases := []struct {
		name  string
		build func() (*ir.Program, *ir.Function)
		opts  Options
		want  []string
	}{
		{"no ctx parameters", func() (*ir.Program, *ir.Function) {
			sig := newVar("signal", distT(ir.INT32, 2, 1))
			return kernel("k", []*ir.Var{sig, newVar("peer", scalarT(ir.INT32))},
				eval(call("pld.system.notify", args(sig, i32(1), ir.Dims(0, 0), i32(1)), kw("op", int64(1)))))
		}, Options{}, []string{"function k", "run MaterializeDistTensorCtx before PTO codegen"}},
		{"ctx count mismatch", func() (*ir.Program, *ir.Function) {
			return kernel("k", []*ir.Var{newVar("a", distT(ir.FP32, 1, 16)), newVar("b", distT(ir.FP32, 1, 16)), newVar("ctx", ir.CommCtxT)})
		}, Options{}, []string{"2 DistributedTensor parameters but 1 CommCtx parameters", "run MaterializeDistTensorCtx before PTO codegen"}},
		{"defer_wait with cmp=Eq", func() (*ir.Program, *ir.Function) {
			d := newDistParams(ir.FP32, 1, 64)
			c := &ir.Call{Op: ir.MustOp("pld.system.defer_wait"), Args: args(d.signal, ir.Dims(0, 0), i32(1)), Kwargs: kw("cmp", int64(ir.WaitEq)), T: ir.Unknown}
			return kernel("k", d.list(), eval(c))
		}, Options{}, []string{"pld.system.defer_wait", "only cmp=WaitCmp.Ge is supported"}},
		{"defer_wait in a kernel named like the adapter", func() (*ir.Program, *ir.Function) {
			d := newDistParams(ir.FP32, 1, 64)
			return kernel("pypto_register_counter_completion", d.list(),
				eval(call("pld.system.defer_wait", args(d.signal, ir.Dims(0, 0), i32(1)), kw("cmp", int64(ir.WaitGe)))))
		}, Options{}, []string{"function name 'pypto_register_counter_completion' is reserved for PyPTO's deferred-completion runtime adapter"}},
		{"defer_wait on a signal alias", func() (*ir.Program, *ir.Function) {
			d := newDistParams(ir.FP32, 1, 64)
			alias := newVar("sig2", d.signal.Type())
			return kernel("k", d.list(), assign(alias, d.signal),
				eval(call("pld.system.defer_wait", args(alias, ir.Dims(0, 0), i32(1)), kw("cmp", int64(ir.WaitGe)))))
		}, Options{}, []string{"the signal must be a DistributedTensor parameter of the kernel, given sig2"}},
		{"tensor op without emitter", func() (*ir.Program, *ir.Function) {
			x := newVar("x", tensorT(ir.FP32, 1, 16))
			y := newVar("y", tensorT(ir.FP32, 1, 16))
			return kernel("f", []*ir.Var{x}, assign(y, call("tensor.add", args(x, x), nil)))
		}, Options{}, []string{"no PTO emitter for op tensor.add in function f"}},
		{"sub-byte remote_load", func() (*ir.Program, *ir.Function) {
			data := dataRaw(ir.INT4)
			peer := newVar("peer", scalarT(ir.INT32))
			res := newVar("t", &ir.TileType{Shape: ir.Dims(2, 16).Elems, DType: ir.INT4, Memory: ir.MemVec})
			// The IR deducer rejects INT4 already; build the call directly.
			c := &ir.Call{Op: ir.MustOp("pld.tile.remote_load"), Args: args(data, peer, ir.Dims(0, 0), ir.Dims(2, 16)), T: res.T}
			return kernel("k", []*ir.Var{data, peer, newVar("ctx", ir.CommCtxT)}, assign(res, c))
		}, Options{}, []string{"pld.tile.remote_load", "Distributed remote ops only support byte-sized element types"}},
		{"bool signal notify", func() (*ir.Program, *ir.Function) {
			sig := newVar("signal", distT(ir.BOOL, 2, 1))
			// The IR deducer rejects a non-INT32 signal already; build the call directly.
			c := &ir.Call{Op: ir.MustOp("pld.system.notify"), Args: args(sig, i32(1), ir.Dims(0, 0), i32(1)), Kwargs: kw("op", int64(1)), T: ir.Unknown}
			return kernel("k", []*ir.Var{sig, newVar("ctx", ir.CommCtxT)}, eval(c))
		}, Options{}, []string{"pld.system.notify", "Distributed remote ops only support byte-sized element types"}},
		{"bf16 atomic on a5", putKernel(ir.BF16, ir.AtomicAdd), Options{Arch: "a5"},
			[]string{"bf16 atomic-add requires the Ascend910B (A2/A3) profile"}},
		{"unknown arch", notifyKernel, Options{Arch: "a9"}, []string{`unknown target arch "a9"`}},
		{"set_validshape without address", func() (*ir.Program, *ir.Function) {
			x := newVar("x", tensorT(ir.FP32, 8, 64))
			n := newVar("n", scalarT(ir.INDEX))
			a := newVar("a", tileT(ir.FP32, -1, 8, 64))
			b := newVar("b", withValid(tileT(ir.FP32, -1, 8, 64), n, ir.Int(64)))
			return kernel("k", []*ir.Var{x, n},
				assign(a, call("tile.load", args(x, ir.Dims(0, 0), ir.Dims(8, 64)), kw("target_memory", ir.MemVec))),
				assign(b, call("tile.set_validshape", args(a, n, ir.Int(64)), nil)))
		}, Options{}, []string{"tile.set_validshape", "needs the tile's address"}},
		{"tile without memory space", func() (*ir.Program, *ir.Function) {
			x := newVar("x", tensorT(ir.FP32, 1, 16))
			a := newVar("a", &ir.TileType{Shape: ir.Dims(1, 16).Elems, DType: ir.FP32, Memory: ir.MemNone})
			return kernel("k", []*ir.Var{x}, assign(a, call("tile.load", args(x, ir.Dims(0, 0), ir.Dims(1, 16)), nil)))
		}, Options{}, []string{"run InferTileMemorySpace before PTO codegen"}},
		{"tile call nested without memory space", func() (*ir.Program, *ir.Function) {
			x := newVar("x", tensorT(ir.FP32, 1, 16))
			y := newVar("y", tensorT(ir.FP32, 1, 16))
			inner := &ir.Call{Op: ir.MustOp("tile.load"), Args: args(x, ir.Dims(0, 0), ir.Dims(1, 16)),
				T: &ir.TileType{Shape: ir.Dims(1, 16).Elems, DType: ir.FP32, Memory: ir.MemNone}}
			return kernel("k", []*ir.Var{x, y}, assign(y, call("tile.store", args(inner, ir.Dims(0, 0), y), nil)))
		}, Options{}, []string{"tile.store", "the tile.load nested here", "bind it to a variable first"}},
		{"return inside a loop", func() (*ir.Program, *ir.Function) {
			i := newVar("i", scalarT(ir.INDEX))
			return kernel("k", nil, forRange(i, ir.Int(0), ir.Int(2), ir.Int(1), &ir.ReturnStmt{}))
		}, Options{}, []string{"return inside a loop or if"}},
		{"return inside an if with work after it", func() (*ir.Program, *ir.Function) {
			// Falling through would run the load the return skips.
			x := newVar("x", tensorT(ir.FP32, 1, 16))
			a := newVar("a", tileT(ir.FP32, 0, 1, 16))
			early := &ir.IfStmt{Cond: &ir.ConstBool{Value: true}, Then: ir.Seq(&ir.ReturnStmt{Values: []ir.Expr{x}})}
			return kernel("k", []*ir.Var{x}, early,
				assign(a, call("tile.load", args(x, ir.Dims(0, 0), ir.Dims(1, 16)), kw("target_memory", ir.MemVec))),
				&ir.ReturnStmt{Values: []ir.Expr{x}})
		}, Options{}, []string{"return inside a loop or if"}},
		{"call of a function", func() (*ir.Program, *ir.Function) {
			return kernel("k", nil, eval(&ir.Call{Fn: &ir.GlobalVar{Name: "helper"}}))
		}, Options{}, []string{"call of function helper"}},
		{"tensor not bound to a parameter", func() (*ir.Program, *ir.Function) {
			y := newVar("y", tensorT(ir.FP32, 1, 16))
			a := newVar("a", tileT(ir.FP32, 0, 1, 16))
			return kernel("k", nil, assign(a, call("tile.load", args(y, ir.Dims(0, 0), ir.Dims(1, 16)), kw("target_memory", ir.MemVec))))
		}, Options{}, []string{"tensor y does not alias a tensor parameter"}},
		{"loop carrying without yield", func() (*ir.Program, *ir.Function) {
			i := newVar("i", scalarT(ir.INDEX))
			acc := ir.NewIterArg("acc", scalarT(ir.INT32), i32(0), ir.Span{})
			return kernel("k", nil, &ir.ForStmt{LoopVar: i, Start: ir.Int(0), Stop: ir.Int(2), Step: ir.Int(1),
				IterArgs: []*ir.IterArg{acc}, ReturnVars: []*ir.Var{newVar("r", scalarT(ir.INT32))}, Body: ir.Seq()})
		}, Options{}, []string{"does not end in a yield"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, fn := tc.build()
			text, err := EmitFunction(p, fn, tc.opts)
			require.Error(t, err, "emitted:\n%s", text)
			for _, w := range tc.want {
				require.Contains(t, err.Error(), w)
			}
			require.NotContains(t, err.Error(), "internal error", "an expected error, not a recovered panic")
		})
	}
}

func TestNotEmittable(t *testing.T) {
	fn, err := ir.NewFunction("host", ir.Orchestration, ir.LevelNone, ir.RoleNone, ir.Span{})
	require.NoError(t, err)
	fn.Body = ir.Seq()
	p := ir.NewProgram("P")
	require.NoError(t, p.AddFunction(fn))
	_, err = EmitFunction(p, fn, Options{})
	require.ErrorContains(t, err, "only InCore, AIC and AIV functions have PTO code")
	mods, err := Emit(p, Options{})
	require.NoError(t, err)
	require.Empty(t, mods)
}

// Emit returns one module per InCore function, in program order.
func TestEmitProgram(t *testing.T) {
	p, _ := notifyKernel()
	_, put := putKernel(ir.FP16, ir.AtomicNone)()
	require.NoError(t, p.AddFunction(put))
	host, err := ir.NewFunction("host", ir.Orchestration, ir.LevelNone, ir.RoleNone, ir.Span{})
	require.NoError(t, err)
	host.Body = ir.Seq()
	require.NoError(t, p.AddFunction(host))
	mods, err := Emit(p, Options{})
	require.NoError(t, err)
	require.Len(t, mods, 2)
	for i, fn := range []string{"k", "put"} {
		require.Equal(t, fn, mods[i].Function)
		want, err := EmitFunction(p, p.Function(fn), Options{})
		require.NoError(t, err)
		require.Equal(t, want, mods[i].Text)
	}
}

// Every op the distributed pipeline leaves in an InCore function has an
// emitter registered under the "pto" facet.
func TestEmitterRegistry(t *testing.T) {
	for _, op := range []string{
		"pld.system.get_comm_ctx", "pld.system.rank", "pld.system.nranks", "pld.system.notify", "pld.system.wait",
		"pld.tile.remote_load", "pld.tile.remote_store", "pld.tile.put", "pld.tile.get",
		"tile.comm_notify", "tile.comm_wait", "tile.comm_test",
		"tile.load", "tile.store", "tile.create", "tile.alloc", "tile.add", "tile.sub", "tile.mul", "tile.div",
		"tile.maximum", "tile.minimum", "tile.adds", "tile.subs", "tile.muls", "tile.divs", "tile.cast",
		"tile.fillpad", "tile.fillpad_inplace", "tile.set_validshape", "system.fence", "system.cacheinvalid",
	} {
		_, ok := emitterOf(ir.MustOp(op))
		require.True(t, ok, "no emitter for %s", op)
	}
}
