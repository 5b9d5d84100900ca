package pto

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Explicit cross-core pipes, as upstream emits them:
//
//	%b = pto.reserve_buffer {name = "v2c", size = 4096, location = #pto.address_space<mat>, auto = true} -> i32
//	%p = pto.import_reserved_buffer {name = "v2c", peer_func = @cube} -> i32
//	pto.aiv_initialize_pipe {id = 0, dir_mask = 2, slot_size = 1024} (c2v_consumer_buf = %c0_i32 : i32, v2c_consumer_buf = %p : i32)
//	pto.tpush_to_aic(%t : !pto.tile_buf<...>) {id = 0, split = 0}
//	%r = pto.tpop_from_aiv {id = 0, split = 0} -> !pto.tile_buf<...>
//	pto.tfree_from_aiv {id = 0, split = 0}
//
// A reserve_buffer's base is the one AllocateMemoryAddr gave a pl.AUTO
// ring; without addresses (NoAddresses, or before that pass) PTOAS places
// it (auto = true). A tpop whose valid shape is dynamic passes its valid
// rows and columns.
func init() {
	for op, target := range map[*ir.OpDef]string{ir.TileTpushToAic: "aic", ir.TileTpushToAiv: "aiv"} {
		target := target
		Register(op, func(c *Ctx, call *ir.Call, _ *ir.Var) error {
			t, _, err := c.tile(call.Args[0])
			if err != nil {
				return err
			}
			attrs := pipeAttrs(call, call.Kwargs)
			c.stmtOp("pto.tpush_to_"+target, []value{t}, attrs,
				fmt.Sprintf("pto.tpush_to_%s(%s : %s) %s", target, t.ssa, t.typ, attrText(attrs)))
			return nil
		})
	}
	for op, target := range map[*ir.OpDef]string{ir.TileTpopFromAic: "aic", ir.TileTpopFromAiv: "aiv"} {
		target := target
		Register(op, func(c *Ctx, call *ir.Call, res *ir.Var) error {
			if res == nil {
				return fmt.Errorf("the popped tile must be bound to a variable")
			}
			t, err := tileOf(res)
			if err != nil {
				return err
			}
			typ, err := tileBufType(t)
			if err != nil {
				return fmt.Errorf("tile %s %v", res.Name, err)
			}
			var ops []value
			operands := ""
			valid := tileValidShape(t)
			if vr, vc := tileRowsCols(valid); vr < 0 || vc < 0 {
				rows, cols, err := c.validRowsCols(valid)
				if err != nil {
					return fmt.Errorf("valid shape of %s: %v", res.Name, err)
				}
				ops = []value{rows, cols}
				operands = "(" + rows.ssa + ", " + cols.ssa + ")"
			}
			attrs := pipeAttrs(call, call.Kwargs)
			c.vals[res] = c.op(res.Name, typ, "pto.tpop_from_"+target, ops, attrs,
				fmt.Sprintf("pto.tpop_from_%s%s %s -> %s", target, operands, attrText(attrs), typ))
			return nil
		})
	}
	for op, target := range map[*ir.OpDef]string{ir.SystemTfreeToAic: "aic", ir.SystemTfreeToAiv: "aiv"} {
		target := target
		Register(op, func(c *Ctx, call *ir.Call, _ *ir.Var) error {
			// The split and id are the pop's (upstream's StampTfreeSplit).
			kw := call.Kwargs
			if pop := c.definingCall(call.Args[0]); pop != nil {
				for _, k := range []string{"split", "id"} {
					if v, ok := pop.Kwargs.Get(k); ok && !kw.Has(k) {
						kw = kw.With(k, v)
					}
				}
			}
			attrs := pipeAttrs(call, kw)
			c.stmtOp("pto.tfree_from_"+target, nil, attrs, "pto.tfree_from_"+target+" "+attrText(attrs))
			return nil
		})
	}
	for op, target := range map[*ir.OpDef]string{ir.SystemAicInitializePipe: "aic", ir.SystemAivInitializePipe: "aiv"} {
		target := target
		Register(op, func(c *Ctx, call *ir.Call, _ *ir.Var) error {
			var attrs []attr
			if id, ok := call.Kwargs.Get("id"); ok {
				attrs = append(attrs, attr{"id", fmt.Sprint(id)})
			}
			for _, k := range []string{"dir_mask", "slot_size", "slot_num", "local_slot_num"} {
				if v, ok := call.Kwargs.Get(k); ok {
					attrs = append(attrs, attr{k, fmt.Sprint(v)})
				}
			}
			bufs := make([]value, 2)
			for i := range bufs {
				b, err := c.as(call.Args[i], ir.INT32, "")
				if err != nil {
					return err
				}
				bufs[i] = b
			}
			c.stmtOp("pto."+target+"_initialize_pipe", bufs, attrs, fmt.Sprintf("pto.%s_initialize_pipe %s (c2v_consumer_buf = %s : i32, v2c_consumer_buf = %s : i32)",
				target, attrText(attrs), bufs[0].ssa, bufs[1].ssa))
			return nil
		})
	}
	Register(ir.SystemReserveBuffer, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		location := "vec"
		if c.fn.Kind == ir.AIC {
			location = "mat" // the cube consumes into L1
		}
		attrs := []attr{{"name", fmt.Sprintf("%q", call.Kwargs.String("name", ""))}, {"size", fmt.Sprint(call.Kwargs.Int("size", 0))},
			{"location", "#pto.address_space<" + location + ">"}}
		if base := call.Kwargs.Int("base", -1); base < 0 || c.o.NoAddresses {
			attrs = append(attrs, attr{"auto", "true"})
		} else {
			attrs = append(attrs, attr{"auto", "false"}, attr{"base", fmt.Sprint(base)})
		}
		c.bindScalar(res, c.op(resultHint(res, call.Kwargs.String("name", "")), "i32", "pto.reserve_buffer", nil, attrs,
			"pto.reserve_buffer "+attrText(attrs)+" -> i32"))
		return nil
	})
	Register(ir.SystemImportPeerBuffer, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		name := call.Kwargs.String("name", "")
		attrs := []attr{{"name", fmt.Sprintf("%q", name)}, {"peer_func", "@" + call.Kwargs.String("peer_func", "")}}
		c.bindScalar(res, c.op(resultHint(res, name+"_import"), "i32", "pto.import_reserved_buffer", nil, attrs,
			"pto.import_reserved_buffer "+attrText(attrs)+" -> i32"))
		return nil
	})
}

// pipeAttrs are a pipe op's {id = N, split = S} (id only when given).
func pipeAttrs(call *ir.Call, kw ir.Kwargs) []attr {
	var attrs []attr
	if id, ok := kw.Get("id"); ok {
		attrs = append(attrs, attr{"id", fmt.Sprint(id)})
	}
	return append(attrs, attr{"split", fmt.Sprint(kw.Int("split", 0))})
}

// attrText is attrs in an attribute dictionary: {a = 1, b = 2}.
func attrText(attrs []attr) string {
	parts := make([]string, len(attrs))
	for i, a := range attrs {
		parts[i] = a.name + " = " + a.val
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// resultHint names an op's result after its variable, else after hint.
func resultHint(res *ir.Var, hint string) string {
	if res != nil {
		return res.Name
	}
	return hint
}

// bindScalar makes v the value of res (when the op's result is bound).
func (c *Ctx) bindScalar(res *ir.Var, v value) {
	if res != nil {
		c.vals[res] = v
	}
}

// definingCall is the op call that assigned e in the function being
// emitted (nil: e is not a variable so defined).
func (c *Ctx) definingCall(e ir.Expr) *ir.Call {
	v, ok := ir.VarOf(e)
	if !ok {
		return nil
	}
	var found *ir.Call
	ir.WalkStmt(c.fn.Body, nil, func(s ir.Stmt) {
		if a, ok := s.(*ir.AssignStmt); ok && a.Var == v {
			found, _ = a.Value.(*ir.Call)
		}
	})
	return found
}
