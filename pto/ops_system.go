package pto

import (
	"github.com/ptorepl/ptorepl/ir"
)

// Barriers, fences and cache maintenance (pto.md §8).

func init() {
	Register(ir.SystemFence, func(c *Ctx, _ *ir.Call, _ *ir.Var) error {
		c.fence()
		return nil
	})
	Register(ir.SystemCacheinvalid, emitCacheInvalid)
}

// fence is `pto.fence.barrier_all #pto.fence_scope<gm>`.
func (c *Ctx) fence() {
	const scope = "#pto.fence_scope<gm>"
	c.stmtOp("pto.fence.barrier_all", nil, []attr{{"scope", scope}}, "pto.fence.barrier_all "+scope)
}

// barrier is `pto.barrier <PIPE_ALL>`, which codegen puts around comm ops.
func (c *Ctx) barrier() {
	c.stmtOp("pto.barrier", nil, []attr{{"pipe", "#pto<pipe PIPE_ALL>"}}, "pto.barrier <PIPE_ALL>")
}

// cacheInvalidLine is `pto.cmo.cacheinvalid %pv single_cache_line : <ptype>`.
func (c *Ctx) cacheInvalidLine(pv value) {
	const mode = "single_cache_line"
	c.stmtOp("pto.cmo.cacheinvalid", []value{pv}, []attr{{"mode", "#pto<cache_line " + mode + ">"}},
		"pto.cmo.cacheinvalid "+pv.ssa+" "+mode+" : "+pv.typ)
}

// system.cacheinvalid() invalidates all of GM; the three-argument form
// (tensor, shapes, offsets) a region of a local tensor.
func emitCacheInvalid(c *Ctx, call *ir.Call, _ *ir.Var) error {
	if len(call.Args) == 0 {
		const space = "#pto.address_space<gm>"
		c.stmtOp("pto.cmo.cacheinvalid", nil, []attr{{"all", ""}, {"space", space}}, "pto.cmo.cacheinvalid all "+space)
		return nil
	}
	shapes, err := tuple(call, 1)
	if err != nil {
		return err
	}
	offs, err := tuple(call, 2)
	if err != nil {
		return err
	}
	_, pv, err := c.localPartition(call.Args[0], offs, shapes)
	if err != nil {
		return err
	}
	c.cacheInvalidLine(pv)
	return nil
}
