package pto

import (
	"fmt"
	"strconv"
)

// moduleState is what one module collects beyond its function: the #1548
// @CommRemoteOffset_<dtype> helpers, registered lazily by the first remote
// view of each dtype and written once after the user functions.
type moduleState struct {
	o       Options
	helpers map[string]int // element type → element bytes
	order   []string
	// deferAdapter: a deferred wait calls the runtime adapter, declared
	// once after the functions.
	deferAdapter bool
}

// helper registers the offset helper of an element type and returns its name.
func (m *moduleState) helper(elem string, bytes int) string {
	if _, ok := m.helpers[elem]; !ok {
		m.helpers[elem] = bytes
		m.order = append(m.order, elem)
	}
	return "CommRemoteOffset_" + elem
}

// helperOps are the helper functions, in registration order.
func (m *moduleState) helperOps() []*operation {
	var out []*operation
	for _, elem := range m.order {
		f := remoteOffsetFunc(elem, m.helpers[elem])
		f.blank = true
		out = append(out, f)
	}
	if m.deferAdapter {
		out = append(out, deferAdapterDecl())
	}
	return out
}

// remoteOffsetFunc is the #1548 helper: the element offset from this rank's
// window to peer's, read from the CommContext.
//
//	func.func private @CommRemoteOffset_f16(%ctx: !pto.ptr<i64>, %peer: index) -> index
func remoteOffsetFunc(elem string, bytes int) *operation {
	ctx := value{"%ctx", ctxType}
	peer := value{"%peer", "index"}
	var ops []*operation
	def := func(name, typ, opName string, operands []value, custom string) value {
		r := value{name, typ}
		ops = append(ops, &operation{name: opName, res: []value{r}, operands: operands, custom: custom})
		return r
	}
	constant := func(name string, v int64, typ string) value {
		r := value{name, typ}
		ops = append(ops, constOp(r, constKey{typ: typ, i: v}))
		return r
	}
	load := func(name string, idx value) value {
		return def(name, "i64", "pto.load_scalar", []value{ctx, idx},
			fmt.Sprintf("pto.load_scalar %s[%s] : !pto.ptr<i64> -> i64", ctx.ssa, idx.ssa))
	}
	binop := func(name, opName string, a, b value) value {
		return def(name, a.typ, opName, []value{a, b}, fmt.Sprintf("%s %s, %s : %s", opName, a.ssa, b.ssa, a.typ))
	}
	cast := func(name, opName string, x value, typ string) value {
		return def(name, typ, opName, []value{x}, fmt.Sprintf("%s %s : %s to %s", opName, x.ssa, x.typ, typ))
	}
	cR := constant("%c_r", slotRank, "index")
	cW := constant("%c_w", slotWindows, "index")
	pair := load("%rk_pair", cR)
	rk := cast("%rk_i32", "arith.trunci", pair, "i32")
	rkIdx := cast("%rk_idx", "arith.index_cast", rk, "index")
	lbOff := binop("%lb_off", "arith.addi", cW, rkIdx)
	lbase := load("%lbase", lbOff)
	pbOff := binop("%pb_off", "arith.addi", cW, peer)
	pbase := load("%pbase", pbOff)
	dbytes := binop("%dbytes", "arith.subi", pbase, lbase)
	esize := constant("%esize", int64(bytes), "i64")
	delemsI := binop("%delems_i", "arith.divsi", dbytes, esize)
	delems := cast("%delems", "arith.index_cast", delemsI, "index")
	ops = append(ops, returnOp([]value{delems}))

	name := "CommRemoteOffset_" + elem
	return &operation{name: "func.func",
		custom: fmt.Sprintf("func.func private @%s(%%ctx: %s, %%peer: index) -> index {", name, ctxType),
		attrs: []attr{{"function_type", signature([]string{ctxType, "index"}, []string{"index"})},
			{"sym_name", strconv.Quote(name)}, {"sym_visibility", `"private"`}},
		regions: []*region{{args: []value{ctx, peer}, ops: ops}}}
}
