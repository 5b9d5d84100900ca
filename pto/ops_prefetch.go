package pto

import "github.com/ptorepl/ptorepl/ir"

// The prefetch ops map one to one onto PTOAS's asynchronous prefetch:
//
//	%ctx = pto.make_prefetch_async_context(%argN : !pto.ptr<i8>) -> !pto.prefetch_async_context
//	%evt = pto.tprefetch_async(%x_pview, %ctx : !pto.partition_tensor_view<1x4096xf32>, !pto.prefetch_async_context) -> !pto.async_event
//	%session = pto.get_prefetch_async_session %ctx : !pto.prefetch_async_context -> !pto.async_session
//	%done = pto.comm.wait_async_event(%evt, %session : !pto.async_event, !pto.async_session) -> i1
//
// The context's workspace is the runtime's SDMA scratch, which a kernel
// making a context receives as a hidden !pto.ptr<i8> argument after its
// dynamic dims (and the deferred-completion args), before its SPMD
// identity, as upstream's codegen orders them for the kernel wrapper.

// The handles' PTO-MLIR types.
const (
	prefetchCtxType  = "!pto.prefetch_async_context"
	asyncEventType   = "!pto.async_event"
	asyncSessionType = "!pto.async_session"
)

// handleType is the PTO-MLIR type of a prefetch handle.
func handleType(t *ir.AsyncHandleType) string {
	switch t {
	case ir.AsyncEventT:
		return asyncEventType
	case ir.AsyncSessionT:
		return asyncSessionType
	}
	return prefetchCtxType
}

func init() {
	Register(ir.PrefetchMakeContext, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		ws := c.sdma
		r := c.op(resultHint(res, ""), prefetchCtxType, "pto.make_prefetch_async_context", []value{ws}, nil,
			"pto.make_prefetch_async_context("+ws.ssa+" : "+ws.typ+") -> "+prefetchCtxType)
		c.bindScalar(res, r)
		return nil
	})
	Register(ir.PrefetchAsyncPrefetch, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		tl, _ := ir.AsTensorLike(call.Args[0].Type())
		_, pv, err := c.localPartition(call.Args[0], zeros(len(tl.Shape)), tl.Shape)
		if err != nil {
			return err
		}
		ctx, err := c.handle(call, 1)
		if err != nil {
			return err
		}
		r := c.op(resultHint(res, ""), asyncEventType, "pto.tprefetch_async", []value{pv, ctx}, nil,
			"pto.tprefetch_async("+pv.ssa+", "+ctx.ssa+" : "+pv.typ+", "+ctx.typ+") -> "+asyncEventType)
		c.bindScalar(res, r)
		return nil
	})
	Register(ir.PrefetchSession, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		ctx, err := c.handle(call, 0)
		if err != nil {
			return err
		}
		// A projection: upstream's assembly has no parenthesised operands.
		r := c.op(resultHint(res, ""), asyncSessionType, "pto.get_prefetch_async_session", []value{ctx}, nil,
			"pto.get_prefetch_async_session "+ctx.ssa+" : "+ctx.typ+" -> "+asyncSessionType)
		c.bindScalar(res, r)
		return nil
	})
	Register(ir.PrefetchWait, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		evt, err := c.handle(call, 0)
		if err != nil {
			return err
		}
		sess, err := c.handle(call, 1)
		if err != nil {
			return err
		}
		r := c.op(resultHint(res, ""), "i1", "pto.comm.wait_async_event", []value{evt, sess}, nil,
			"pto.comm.wait_async_event("+evt.ssa+", "+sess.ssa+" : "+evt.typ+", "+sess.typ+") -> i1")
		c.bindScalar(res, r)
		return nil
	})
}

// handle is the SSA value of the prefetch handle that is argument i.
func (c *Ctx) handle(call *ir.Call, i int) (value, error) {
	v, ok := ir.VarOf(call.Args[i])
	if ok {
		if h, ok := c.vals[v]; ok {
			return h, nil
		}
	}
	return value{}, c.errorf("%s: %s has no value here: bind the producing pl.prefetch op to a variable", call.Op.Name, ir.Describe(call.Args[i]))
}
