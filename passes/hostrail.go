package passes

import (
	"fmt"
	"strconv"

	"github.com/ptorepl/ptorepl/ir"
)

// The host rail (passes.md §6–8): SynthesizeAllReduceSignals gives a
// signal-less host allreduce a signal, MaterializeCommDomainScopes infers
// the comm domains (main's successor of CollectCommGroups), and
// LowerHostTensorCollectives turns each host collective into one builtin
// dispatch per device of its domain.

// lineage resolves a host value to the storage it belongs to: through
// rebinds, loop-carried iter-args and loop results, collectives' results
// (which alias their target) and window views, back to the
// alloc_window_buffer variable. Values it cannot follow are their own root.
type lineage struct {
	def map[*ir.Var]ir.Expr
}

func newLineage(fn *ir.Function) *lineage {
	l := &lineage{def: map[*ir.Var]ir.Expr{}}
	ir.Preorder(fn.Body, []ir.Node{(*ir.ForStmt)(nil), (*ir.WhileStmt)(nil), (*ir.AssignStmt)(nil)}, func(n ir.Node) {
		switch x := n.(type) {
		case *ir.ForStmt, *ir.WhileStmt:
			ias, rvs := ir.LoopCarried(x.(ir.Stmt))
			for i, ia := range ias {
				l.def[&ia.Var] = ia.Init
				if i < len(rvs) {
					l.def[rvs[i]] = ia
				}
			}
		case *ir.AssignStmt:
			l.def[x.Var] = x.Value
		}
	})
	return l
}

// worldSize returns the pld.system.world_size() call e is, directly or
// through variables bound to it (FlattenCallExpr hoists the call of
// pl.range(pld.system.world_size()) into a temporary, as upstream's does).
func (l *lineage) worldSize(e ir.Expr) (*ir.Call, bool) {
	for range 10000 { // a bound, not a limit: definitions are acyclic
		if c, ok := e.(*ir.Call); ok {
			return c, c.Op == ir.PldSystemWorldSize
		}
		v, ok := ir.VarOf(e)
		if !ok {
			return nil, false
		}
		if e, ok = l.def[v]; !ok {
			return nil, false
		}
	}
	return nil, false
}

// root is the variable at the start of e's lineage: the window buffer
// pointer for a view of one, else the first value it cannot see through.
func (l *lineage) root(e ir.Expr) *ir.Var {
	var last *ir.Var
	for range 10000 { // a bound, not a limit: lineages are acyclic
		v, ok := ir.VarOf(e)
		if !ok {
			return last
		}
		last = v
		d, ok := l.def[v]
		if !ok {
			return v
		}
		if c, ok := d.(*ir.Call); ok {
			if c.Op == ir.PldTensorWindow && len(c.Args) > 0 {
				if b, ok := c.ArgVar("buf"); ok {
					return b
				}
				return v
			}
			if arg, ok := c.Aliased(); ok {
				e = arg
				continue
			}
			return v
		}
		e = d
	}
	return last
}

// directCall is the call a statement is made of, when it is an assignment,
// an expression statement or a single returned value.
func directCall(s ir.Stmt) *ir.Call {
	switch y := s.(type) {
	case *ir.AssignStmt:
		c, _ := y.Value.(*ir.Call)
		return c
	case *ir.EvalStmt:
		c, _ := y.Expr.(*ir.Call)
		return c
	case *ir.ReturnStmt:
		if len(y.Values) == 1 {
			c, _ := y.Values[0].(*ir.Call)
			return c
		}
	}
	return nil
}

// leafStmts filters an inspection to the statements that hold a call:
// the host walks look at those and prune their expressions.
var leafStmts = []ir.Node{(*ir.AssignStmt)(nil), (*ir.EvalStmt)(nil), (*ir.ReturnStmt)(nil)}

// enclosingLoops are the for loops on an inspection's parent stack,
// outermost first.
func enclosingLoops(stack []ir.Node) []*ir.ForStmt {
	var loops []*ir.ForStmt
	for _, n := range stack {
		if f, ok := n.(*ir.ForStmt); ok {
			loops = append(loops, f)
		}
	}
	return loops
}

// programNames lists every name a program's functions use.
func programNames(p *ir.Program) map[string]bool {
	used := map[string]bool{}
	for _, fn := range p.Functions {
		for _, v := range fn.Params {
			used[v.Name] = true
		}
		ir.WalkStmt(fn.Body, func(e ir.Expr) {
			if v, ok := ir.VarOf(e); ok {
				used[v.Name] = true
			}
		}, func(s ir.Stmt) {
			for _, v := range stmtDefs(s) {
				used[v.Name] = true
			}
		})
	}
	return used
}

// isAllReduce reports whether c is a host allreduce.
func isAllReduce(c *ir.Call) bool { return c != nil && c.Op == ir.PldTensorAllreduce }

// SynthesizeAllReduceSignals gives every signal-less host
// pld.tensor.allreduce(x) a signal (passes.md §6, with upstream #2504's
// lineage sharing): one [world_size, core_num] INT32 window per data-buffer
// lineage, allocated once at the top of the host orchestrator, so calls on
// the same buffer — in a loop, or one after another — share it. The credit
// barriers leave its cells at zero after each call, which is what makes the
// sharing safe. A returned call is first bound to __allreduce_result_<n>.
func SynthesizeAllReduceSignals(p *ir.Program) (*ir.Program, error) {
	used := programNames(p)
	next := 0
	fresh := func() int {
		for ; ; next++ {
			n := strconv.Itoa(next)
			if !used["__allreduce_signal_world_size_"+n] && !used["__allreduce_signal_buf_"+n] && !used["__allreduce_signal_"+n] {
				for _, s := range []string{"__allreduce_signal_world_size_", "__allreduce_signal_buf_", "__allreduce_signal_"} {
					used[s+n] = true
				}
				next++
				return next - 1
			}
		}
	}
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		if !fn.IsHostOrchestrator() {
			return fn, nil
		}
		if err := checkAllReduceForms(fn); err != nil {
			return nil, err
		}
		lin := newLineage(fn)
		type signal struct {
			coreNum int64
			win     *ir.Var
		}
		sigs := map[*ir.Var]*signal{}
		var order []*ir.Var
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			c := directCall(s)
			if !isAllReduce(c) || len(c.Args) != 1 {
				return
			}
			target, _ := c.Arg("target")
			r := lin.root(target)
			sg := sigs[r]
			if sg == nil {
				sg = &signal{}
				sigs[r] = sg
				order = append(order, r)
			}
			sg.coreNum = max(sg.coreNum, c.Kwargs.Int("core_num", 1))
		})
		if len(order) == 0 {
			return fn, nil
		}
		pos := fn.Body.Span()
		var top []ir.Stmt
		for _, r := range order {
			sg := sigs[r]
			n := strconv.Itoa(fresh())
			ws := ir.PldSystemWorldSize.MustCall(nil, nil, pos)
			wsVar := ir.NewVar("__allreduce_signal_world_size_"+n, ws.Type(), pos)
			bufName := "__allreduce_signal_buf_" + n
			size := bin(ir.OpMul, bin(ir.OpMul, wsVar, ir.IntOf(sg.coreNum, ir.INT64)), ir.IntOf(4, ir.INT64))
			alloc := ir.PldTensorAllocWindowBuffer.MustCall([]ir.Expr{size}, ir.Kwargs{{Key: "name", Value: bufName}}, pos)
			bufVar := ir.NewVar(bufName, alloc.Type(), pos)
			win := ir.PldTensorWindow.MustCall([]ir.Expr{bufVar, tuple(wsVar, ir.Int(sg.coreNum))}, ir.Kwargs{{Key: "dtype", Value: ir.INT32}}, pos)
			sg.win = ir.NewVar("__allreduce_signal_"+n, win.Type(), pos)
			top = append(top, assign(wsVar, ws), assign(bufVar, alloc), assign(sg.win, win))
		}
		body, err := mapBlock(fn.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
			c := directCall(s)
			if !isAllReduce(c) || len(c.Args) != 1 {
				return []ir.Stmt{s}, nil
			}
			target, _ := c.Arg("target")
			nc, err := c.Op.NewCall([]ir.Expr{target, sigs[lin.root(target)].win}, c.Kwargs, c.Pos)
			if err != nil {
				return nil, err
			}
			switch x := s.(type) {
			case *ir.AssignStmt, *ir.EvalStmt:
				return []ir.Stmt{replaceCall(s, c, nc)}, nil
			case *ir.ReturnStmt:
				res := ir.NewVar(freshName(used, "__allreduce_result_"), nc.Type(), c.Pos)
				return []ir.Stmt{assign(res, nc), &ir.ReturnStmt{StmtBase: x.StmtBase, Values: []ir.Expr{res}}}, nil
			}
			return []ir.Stmt{s}, nil
		})
		if err != nil {
			return nil, err
		}
		return withBody(fn, ir.Seq(append(top, ir.Flatten(body)...)...)), nil
	})
}

// freshName is prefix<n> for the first n not in used (and marks it used).
func freshName(used map[string]bool, prefix string) string {
	for n := 0; ; n++ {
		name := prefix + strconv.Itoa(n)
		if !used[name] {
			used[name] = true
			return name
		}
	}
}

// checkAllReduceForms rejects the host allreduce forms §6 cannot rewrite: a
// call with other than (target) or (target, signal) arguments, and a call
// nested inside another expression.
func checkAllReduceForms(fn *ir.Function) error {
	direct := map[*ir.Call]bool{}
	var err error
	ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
		if c := directCall(s); isAllReduce(c) {
			direct[c] = true
		}
	})
	ir.WalkStmt(fn.Body, func(e ir.Expr) {
		c, ok := e.(*ir.Call)
		if !ok || !isAllReduce(c) || err != nil {
			return
		}
		if n := len(c.Args); n != 1 && n != 2 {
			err = fmt.Errorf("pld.tensor.allreduce at %s takes (target) or (target, signal), given %d positional arguments", c.Pos, n)
			return
		}
		if !direct[c] {
			err = fmt.Errorf("pld.tensor.allreduce at %s must be a direct assignment, expression statement or return value, not nested inside another expression", c.Pos)
		}
	}, nil)
	return err
}

// MaterializeCommDomainScopes is main's successor of CollectCommGroups
// (passes.md §7): the same inference from window allocations and device=
// dispatches, following each view through rebinds and loop-carried values,
// with main's additions — a dispatch over pl.range(a, b) covers a..b-1, and a
// host collective's signal (synthesized or not) inherits the devices of its
// data buffer, so it lands in the same domain. The domains print as the
// scope comments that open the host body.
func MaterializeCommDomainScopes(p *ir.Program) (*ir.Program, error) {
	return perHost(p, materializeInHost)
}

// deviceSetMain classifies a device= expression as main does, with its
// messages.
func deviceSetMain(dev ir.Expr, loops []*ir.ForStmt, lin *lineage, pos ir.Span) (all bool, devs []int64, err error) {
	if v, ok := ir.ConstValue(dev); ok {
		return false, []int64{v}, nil
	}
	dv, ok := ir.VarOf(dev)
	if !ok {
		return false, nil, fmt.Errorf("MaterializeCommDomainScopes: device= expression must be ConstInt or the induction var of pl.range; got an unsupported expression at %s", pos)
	}
	for i := len(loops) - 1; i >= 0; i-- {
		l := loops[i]
		if l.LoopVar != dv {
			continue
		}
		if _, ok := lin.worldSize(l.Stop); ok {
			return true, nil, nil
		}
		a, okA := ir.ConstValue(l.Start)
		b, okB := ir.ConstValue(l.Stop)
		s, okS := ir.ConstValue(l.Step)
		if okA && okB && okS && s == 1 && a >= 0 && b >= a {
			for d := a; d < b; d++ {
				devs = append(devs, d)
			}
			return false, devs, nil
		}
		return false, nil, fmt.Errorf("MaterializeCommDomainScopes: device=r loop bound must be ConstInt or pld.system.world_size()")
	}
	return false, nil, fmt.Errorf("MaterializeCommDomainScopes: device= Var is not the induction variable of any enclosing pl.range loop")
}

func materializeInHost(fn *ir.Function) (*ir.Function, []*ir.CommGroup, error) {
	lin := newLineage(fn)
	allocs := map[*ir.Var]*windowAlloc{}
	var order []*windowAlloc
	type consumer struct {
		data, signal *windowAlloc
		barrier      bool
		pos          ir.Span
	}
	var consumers []consumer
	var walkErr error
	allocOf := func(e ir.Expr) *windowAlloc {
		if r := lin.root(e); r != nil {
			return allocs[r]
		}
		return nil
	}
	// As in collectInHost: statements are leaves, loops come from the stack.
	ir.WithStack(fn.Body, leafStmts, func(n ir.Node, push bool, stack []ir.Node) bool {
		if !push || walkErr != nil {
			return false
		}
		s := n.(ir.Stmt)
		loops := enclosingLoops(stack)
		call := directCall(s)
		if call == nil {
			return false
		}
		if a, ok := s.(*ir.AssignStmt); ok {
			switch call.Op {
			case ir.PldTensorAllocWindowBuffer:
				size, _ := call.Arg("size")
				w := &windowAlloc{ptr: a.Var, size: size, pos: a.Pos, devs: map[int64]bool{}, order: len(order)}
				allocs[a.Var] = w
				order = append(order, w)
				return false
			case ir.PldTensorWindow:
				if w := allocOf(a.Var); w != nil {
					w.views = append(w.views, a.Var)
				}
				return false
			}
		}
		if _, ok := ir.HostBuiltinOf(call); ok {
			if call.Op == ir.PldTensorAllToAllV && len(loops) > 0 {
				walkErr = fmt.Errorf("pld.tensor.all_to_all_v at %s is not supported inside a for/while loop in a HOST orchestrator. The signal protocol is single-use and cannot reuse a signal across dynamic invocations (same restriction LowerCompositeOps enforces on the InCore path via CheckAllReduceLoopUse)", call.Pos)
				return false
			}
			// The signal (and all_to_all_v's recv_counts) inherit the data
			// buffer's devices; a barrier has only its signal.
			var data *ir.Expr
			if arg, ok := call.Aliased(); ok && call.Op.ResultAlias != "signal" {
				data = &arg
			}
			for _, name := range []string{"signal", "recv_counts"} {
				arg, ok := call.Arg(name)
				if !ok {
					continue
				}
				sig := allocOf(arg)
				if sig == nil {
					walkErr = fmt.Errorf("MaterializeCommDomainScopes: %s at %s: its %s is not a view of a window buffer allocated in this function", call.Name(), call.Pos, name)
					return false
				}
				cs := consumer{signal: sig, pos: call.Pos, barrier: data == nil}
				if data != nil {
					cs.data = allocOf(*data)
				}
				consumers = append(consumers, cs)
			}
			return false
		}
		if call.Fn == nil || call.Device() == nil {
			return false
		}
		all, devs, err := deviceSetMain(call.Device(), loops, lin, call.Pos)
		if err != nil {
			walkErr = err
			return false
		}
		for _, arg := range call.Args {
			w := allocOf(arg)
			if w == nil {
				continue
			}
			w.used = true
			w.all = w.all || all
			for _, d := range devs {
				w.devs[d] = true
			}
		}
		return false
	})
	if walkErr != nil {
		return nil, nil, walkErr
	}
	// A host collective carries no device=; its signal shares its data's
	// coverage (a barrier's signal needs its own).
	for _, cs := range consumers {
		if cs.data != nil {
			if !cs.data.used {
				return nil, nil, fmt.Errorf("MaterializeCommDomainScopes: collective data/target buffer %s at %s has no inferred comm-domain coverage to share with its signal buffer", cs.data.ptr.Name, cs.pos)
			}
			cs.signal.used = true
			cs.signal.all = cs.signal.all || cs.data.all
			for d := range cs.data.devs {
				cs.signal.devs[d] = true
			}
			continue
		}
		if !cs.signal.used {
			return nil, nil, fmt.Errorf("MaterializeCommDomainScopes: pld.tensor.barrier signal buffer has no inferred comm-domain coverage — add a device= annotation or ensure the signal window is consumed by a device-tagged chip dispatch (at %s)", cs.pos)
		}
	}
	if len(order) == 0 {
		return fn, nil, nil
	}
	wbOf := map[*ir.Var]*ir.WindowBuffer{}
	var domains commDomains
	for _, w := range order {
		name := w.ptr.Name
		if len(w.views) == 0 {
			return nil, nil, fmt.Errorf("MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer '%s' has no pld.tensor.window materialisation (dead allocation), at %s", name, w.pos)
		}
		if !w.used {
			return nil, nil, fmt.Errorf("MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer '%s' is not consumed by any chip_orch dispatch, at %s", name, w.pos)
		}
		wb := ir.NewWindowBuffer(w.ptr, sizeExpr(w.size, lin), false, false, w.pos)
		wbOf[w.ptr] = wb
		if domains.add(wb, w.all, w.devs) {
			return nil, nil, fmt.Errorf("MaterializeCommDomainScopes: duplicate allocation name '%s' within the same comm domain", wb.Name)
		}
	}
	return WithWindowBuffers(fn, wbOf), domains.groups, nil
}

// WindowBufferSize is the size MaterializeCommDomainScopes records for a
// window buffer of fn allocated with size e: host variables bound to
// pld.system.world_size() are replaced by the call, so the size folds once
// the rank count is known.
func WindowBufferSize(fn *ir.Function, e ir.Expr) ir.Expr {
	return sizeExpr(e, newLineage(fn))
}

// WithWindowBuffers gives every host value of a window buffer's lineage
// (views, rebinds, loop-carried values, collective results) the buffer that
// wbs names for the lineage's root allocation, so the types of an iter-arg
// and its init agree. MaterializeCommDomainScopes ends with it; a reader of
// printed programs, whose types do not spell the buffer, uses it to rebuild
// the same IR from the comm-domain comments.
func WithWindowBuffers(fn *ir.Function, wbs map[*ir.Var]*ir.WindowBuffer) *ir.Function {
	lin := newLineage(fn)
	return retypeFunction(fn, func(v *ir.Var, t ir.Type) (ir.Type, bool) {
		dt, ok := t.(*ir.DistributedTensorType)
		if !ok {
			return nil, false
		}
		wb := wbs[lin.root(v)]
		if wb == nil || dt.Window == wb {
			return nil, false
		}
		c := *dt
		c.Window = wb
		return &c, true
	})
}

// sizeExpr is a window size with host variables bound to
// pld.system.world_size() replaced by the call, so the size (a synthesized
// signal's world_size * core_num * 4) folds wherever the rank count is known.
func sizeExpr(e ir.Expr, lin *lineage) ir.Expr {
	m := map[*ir.Var]ir.Expr{}
	ir.WalkExpr(e, func(x ir.Expr) {
		if v, ok := x.(*ir.Var); ok {
			if c, ok := lin.worldSize(v); ok {
				m[v] = c
			}
		}
	})
	if len(m) == 0 {
		return e
	}
	return substVars(e, m)
}

// LowerHostTensorCollectives turns each host collective into one builtin
// dispatch per device of its comm domain (passes.md §8): a loop over
// pld.system.world_size() for the all-devices domain, one statement per
// device for an explicit subset. The call's binding is kept as the rebind
// x = target. Every window argument must be a view of a materialized
// window buffer, all of one domain, and no two may share an allocation.
func LowerHostTensorCollectives(p *ir.Program) (*ir.Program, error) {
	domainOf := map[*ir.Var]*ir.CommGroup{}
	for _, g := range p.CommGroups {
		for _, s := range g.Slots {
			if b, ok := ir.VarOf(s.Base); ok {
				domainOf[b] = g
			}
		}
	}
	return eachFunction(p, func(fn *ir.Function) (*ir.Function, error) {
		if !fn.IsHostOrchestrator() {
			return fn, nil
		}
		lin := newLineage(fn)
		names := newNamer(fn)
		body, err := mapBlock(fn.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
			c := directCall(s)
			builtin, ok := ir.HostBuiltinOf(c)
			if !ok {
				return []ir.Stmt{s}, nil
			}
			if len(c.Args) < len(builtin.Args) {
				return nil, fmt.Errorf("LowerHostTensorCollectives: %s at %s has no signal (run SynthesizeAllReduceSignals first)", c.Name(), c.Pos)
			}
			var dom *ir.CommGroup
			seen := map[*ir.Var]string{}
			for i, a := range c.Args {
				argName := c.Op.Args[min(i, len(c.Op.Args)-1)].Name
				r := lin.root(a)
				g := domainOf[r]
				if _, isDist := a.Type().(*ir.DistributedTensorType); !isDist || g == nil {
					return nil, fmt.Errorf("LowerHostTensorCollectives: %s at %s: argument '%s' must be a window view materialized by MaterializeCommDomainScopes, given %s", c.Name(), c.Pos, argName, ir.DefaultFormat.Expr(a))
				}
				if other, dup := seen[r]; dup {
					return nil, fmt.Errorf("LowerHostTensorCollectives: %s at %s: all window operands of a HOST collective must resolve to pairwise distinct WindowBuffer allocations, but '%s' and '%s' are both views of %s", c.Name(), c.Pos, other, argName, r.Name)
				}
				seen[r] = argName
				if dom != nil && g != dom {
					return nil, fmt.Errorf("LowerHostTensorCollectives: %s at %s: argument '%s' is in a different comm domain than the collective's other window arguments", c.Name(), c.Pos, argName)
				}
				dom = g
			}
			alias := c.Op.AliasedArg()
			dataType, _ := c.Args[max(alias, 0)].Type().(*ir.DistributedTensorType)
			if builtin == ir.BuiltinTensorAllreduceRing {
				if op := ir.ReduceOp(c.Kwargs.Int("op", 0)); op != ir.ReduceSum || dataType.DType != ir.FP32 {
					return nil, fmt.Errorf("LowerHostTensorCollectives: %s at %s: ring allreduce currently supports only ReduceOp.Sum with dtype=FP32, given %s over %s", c.Name(), c.Pos, op, dataType.DType.Name())
				}
				if n := c.Kwargs.Int("core_num", 1); n != 1 {
					return nil, fmt.Errorf("LowerHostTensorCollectives: %s at %s: multicore is mesh-only: mode=\"ring\" requires core_num == 1, given %d", c.Name(), c.Pos, n)
				}
			}
			var kw ir.Kwargs
			for _, k := range builtin.Kwargs {
				switch {
				case k.Kind == ir.KwDType:
					kw = append(kw, ir.Kwarg{Key: k.Name, Value: dataType.DType})
				case c.Kwargs.Has(k.Name):
					v, _ := c.Kwargs.Get(k.Name)
					kw = append(kw, ir.Kwarg{Key: k.Name, Value: v})
				default:
					kw = append(kw, ir.Kwarg{Key: k.Name, Value: int64(builtinDefault(k.Name))})
				}
			}
			dispatch := func(dev ir.Expr) (ir.Stmt, error) {
				bc, err := builtin.NewCall(c.Args, kw, c.Pos)
				if err != nil {
					return nil, err
				}
				bc.Attrs = ir.Kwargs{{Key: "device", Value: dev}}
				return eval(bc), nil
			}
			var out []ir.Stmt
			if len(dom.Devices) == 0 {
				r := ir.NewVar(names.fresh("r"), ir.Scalar(ir.INDEX), c.Pos)
				d, err := dispatch(r)
				if err != nil {
					return nil, err
				}
				ws := ir.PldSystemWorldSize.MustCall(nil, nil, c.Pos)
				out = append(out, &ir.ForStmt{StmtBase: ir.StmtBase{Pos: c.Pos}, LoopVar: r, Start: ir.Int(0), Stop: ws, Step: ir.Int(1),
					Body: ir.Seq(d), Kind: ir.Sequential})
			} else {
				var seq []ir.Stmt
				for _, dv := range dom.Devices {
					d, err := dispatch(ir.Int(dv))
					if err != nil {
						return nil, err
					}
					seq = append(seq, d)
				}
				out = append(out, ir.Seq(seq...))
			}
			target := c.Args[max(alias, 0)]
			switch x := s.(type) {
			case *ir.AssignStmt:
				out = append(out, &ir.AssignStmt{StmtBase: x.StmtBase, Var: x.Var, Value: target})
			case *ir.ReturnStmt:
				out = append(out, &ir.ReturnStmt{StmtBase: x.StmtBase, Values: []ir.Expr{target}})
			}
			return out, nil
		})
		if err != nil {
			return nil, err
		}
		return withBody(fn, body), nil
	})
}

// builtinDefault is a forwarded kwarg's value when the source call leaves
// it out: op Sum, root 0, core_num 1.
func builtinDefault(name string) int {
	if name == "core_num" {
		return 1
	}
	return 0
}
