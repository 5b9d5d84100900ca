package pto

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Statements: sequences, assignments, call statements, scf.for, scf.if,
// yield and return.

// yieldTarget is what a yield in the current region feeds: a loop's
// iter_args or an if's return variables. Tensor-typed targets carry no SSA
// value; their yields must alias the tensor the target aliases.
type yieldTarget struct {
	what    string    // "for" or "if", for messages
	targets []*ir.Var // the iter-arg or return variables
	tensors []*tensor // per target: the tensor it aliases (nil when carried)
	arrays  []value   // per target: the on-core array it is, written in place (ssa "" otherwise)
	yielded []*tensor // per target: the tensor a yield passed (if results)
	types   []string  // per target: the carried MLIR type ("" for tensors)
	done    bool
}

func (c *Ctx) stmt(s ir.Stmt) error {
	switch s := s.(type) {
	case nil:
		return nil
	case *ir.SeqStmts:
		for _, x := range s.Stmts {
			if err := c.stmt(x); err != nil {
				return err
			}
		}
		return nil
	case *ir.AssignStmt:
		return c.assign(s)
	case *ir.EvalStmt:
		if call, ok := s.Expr.(*ir.Call); ok {
			return c.call(call, nil)
		}
		_, err := c.value(s.Expr)
		return err
	case *ir.ForStmt:
		return c.forStmt(s)
	case *ir.WhileStmt:
		return c.whileStmt(s)
	case *ir.BreakStmt, *ir.ContinueStmt:
		return c.errorf("a %s is still in the kernel: CtrlFlowTransform lowers break and continue before codegen", strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(fmt.Sprintf("%T", s), "*ir."), "Stmt")))
	case *ir.IfStmt:
		return c.ifStmt(s)
	case *ir.ScopeStmt:
		if s.Kind == ir.ScopeSplitAiv {
			// Each vector lane runs the region's code with its own lane
			// index (ExpandMixedKernel's AIC/AIV split is not followed).
			return c.stmt(s.Body)
		}
		return c.errorf("a pl.at(level=pl.Level.%s) scope is still in the kernel: OutlineIncoreScopes and OutlineHierarchyScopes make scopes functions before codegen", s.Level)
	case *ir.YieldStmt:
		if len(c.yields) == 0 {
			return c.ret(s.Values)
		}
		return c.yield(s)
	case *ir.ReturnStmt:
		if len(c.yields) > 0 {
			if c.fallThrough {
				// Emit what the return computes (a store it holds); the
				// function's own return follows the if.
				for _, e := range s.Values {
					if _, err := c.tensorExpr(e); err != nil {
						return c.errorf("return: %v", err)
					}
				}
				return nil
			}
			return c.errorf("return inside a loop or if is not supported (scf has no early exit)")
		}
		return c.ret(s.Values)
	}
	return c.errorf("statement %T has no PTO form", s)
}

// call dispatches a call through its op's "pto" facet.
func (c *Ctx) call(call *ir.Call, result *ir.Var) error {
	if call.Op == nil {
		return c.errorf("call of function %s: calls are not supported inside a kernel", call.Name())
	}
	e, ok := emitterOf(call.Op)
	if !ok {
		if _, why := Coverage(call.Op); why != "" {
			return fmt.Errorf("pto: no PTO emitter for op %s in function %s (%s)", call.Op.Name, c.fn.Name, why)
		}
		return fmt.Errorf("pto: no PTO emitter for op %s in function %s", call.Op.Name, c.fn.Name)
	}
	if err := e(c, call, result); err != nil {
		return c.errorf("%s: %v", call.Op.Name, err)
	}
	if result != nil && !c.defined(result) {
		switch result.Type().(type) {
		case *ir.UnknownType, *ir.PtrType, *ir.TupleType: // a pair is defined through its items
		default:
			return c.errorf("%s: the emitter did not define %s", call.Op.Name, result.Name)
		}
	}
	return nil
}

// defined reports whether v has a value or aliases a tensor.
func (c *Ctx) defined(v *ir.Var) bool {
	if _, ok := c.vals[v]; ok {
		return true
	}
	_, ok := c.tensors[v]
	return ok
}

func (c *Ctx) assign(s *ir.AssignStmt) error {
	if s.Var == nil {
		return c.errorf("assignment without a variable")
	}
	switch x := s.Value.(type) {
	case *ir.Call:
		return c.call(x, s.Var)
	case *ir.TupleGetItem:
		// A tile of a pair an op wrote (tile.gather_compare's dst and
		// cdst): the op declared it under this variable already.
		if _, ok := c.vals[s.Var]; ok {
			return nil
		}
	case *ir.Var, *ir.IterArg, *ir.MemRef, *ir.WindowBuffer:
		src, _ := ir.VarOf(x)
		if t, ok := c.tensors[src]; ok {
			c.tensors[s.Var] = t
			return nil
		}
		if _, ok := s.Var.Type().(*ir.ScalarType); !ok {
			v, ok := c.vals[src]
			if !ok {
				return c.errorf("%s is used before it has a value", src.Name)
			}
			c.vals[s.Var] = v
			return nil
		}
	}
	st, ok := s.Var.Type().(*ir.ScalarType)
	if !ok {
		return c.errorf("cannot assign %s to %s of type %s", ir.Describe(s.Value), s.Var.Name, s.Var.Type())
	}
	v, err := c.as(s.Value, st.DType, s.Var.Name)
	if err != nil {
		return err
	}
	c.vals[s.Var] = v
	return nil
}

// returnsFallThrough reports whether the returns inside the ifs of a
// kernel body can fall through to its end, as in
//
//	if my_rank == root:
//	    ...
//	    return pl.store(t, [0, 0], out)
//	return out
//
// scf has no early exit, but here there is nothing to skip: every early
// return sits in a top-level if (not in a loop) and returns only tensors,
// which are written through their pointers, and after the last such if
// the body holds nothing but a return of tensor variables.
func returnsFallThrough(body ir.Stmt) bool {
	stmts := ir.Flatten(body)
	last := -1
	for i, s := range stmts {
		switch x := s.(type) {
		case *ir.IfStmt:
			if hasReturn(x) {
				if !tensorReturnsOnly(x.Then) || !tensorReturnsOnly(x.Else) {
					return false
				}
				last = i
			}
		case *ir.ForStmt:
			if hasReturn(x) {
				return false
			}
		}
	}
	if last < 0 || last != len(stmts)-2 {
		return false
	}
	ret, ok := stmts[len(stmts)-1].(*ir.ReturnStmt)
	if !ok {
		return false
	}
	for _, e := range ret.Values {
		if _, isVar := ir.VarOf(e); !isVar || !isTensorType(e.Type()) {
			return false
		}
	}
	return true
}

func hasReturn(s ir.Stmt) bool {
	found := false
	ir.WalkStmt(s, nil, func(x ir.Stmt) {
		if _, ok := x.(*ir.ReturnStmt); ok {
			found = true
		}
	})
	return found
}

// tensorReturnsOnly: every return in s returns tensors, and none sits in
// a loop.
func tensorReturnsOnly(s ir.Stmt) bool {
	ok := true
	ir.WalkStmt(s, nil, func(x ir.Stmt) {
		switch y := x.(type) {
		case *ir.ForStmt:
			if hasReturn(y) {
				ok = false
			}
		case *ir.ReturnStmt:
			for _, e := range y.Values {
				if !isTensorType(e.Type()) {
					ok = false
				}
			}
		}
	})
	return ok
}

// ret emits func.return; scalar values become the function's results and
// tensor values are dropped (outputs are written through their pointers).
func (c *Ctx) ret(vals []ir.Expr) error {
	var out []value
	for _, e := range vals {
		if isTensorType(e.Type()) {
			// Outputs are written through their pointers; a store in the
			// return (`return pl.store(t, offs, out)`) still runs.
			if _, err := c.tensorExpr(e); err != nil {
				return c.errorf("return: %v", err)
			}
			continue
		}
		v, err := c.value(e)
		if err != nil {
			return err
		}
		out = append(out, v)
	}
	c.results = out
	c.emit(returnOp(out))
	return nil
}

// tensorExpr is the tensor a tensor-valued expression aliases, emitting it
// first when it is a call (a store's result rebinds its destination).
func (c *Ctx) tensorExpr(e ir.Expr) (*tensor, error) {
	call, ok := e.(*ir.Call)
	if !ok {
		return c.tensorOf(e)
	}
	tmp := ir.NewVar(call.Name(), call.Type(), call.Pos)
	if err := c.call(call, tmp); err != nil {
		return nil, err
	}
	t, ok := c.tensors[tmp]
	if !ok {
		return nil, fmt.Errorf("%s does not give a tensor", call.Name())
	}
	return t, nil
}

// tensorOf is the tensor an expression aliases.
func (c *Ctx) tensorOf(e ir.Expr) (*tensor, error) {
	v, ok := ir.VarOf(e)
	if !ok {
		return nil, fmt.Errorf("%s is not a tensor variable", ir.Describe(e))
	}
	t, ok := c.tensors[v]
	if !ok {
		return nil, fmt.Errorf("tensor %s does not alias a tensor parameter (only parameters, rebindings and store results can be addressed)", v.Name)
	}
	return t, nil
}

// region runs f with ops going to a new block and returns the block.
func (c *Ctx) region(f func() error) ([]*operation, error) {
	saved := c.block
	var ops []*operation
	c.block = &ops
	err := f()
	c.block = saved
	return ops, err
}

func (c *Ctx) forStmt(s *ir.ForStmt) error {
	lb, err := c.as(s.Start, ir.INDEX, "")
	if err != nil {
		return err
	}
	ub, err := c.as(s.Stop, ir.INDEX, "")
	if err != nil {
		return err
	}
	step, err := c.as(s.Step, ir.INDEX, "")
	if err != nil {
		return err
	}
	yt := &yieldTarget{what: "for"}
	iv := c.fresh(s.LoopVar.Name, "index")
	inits, carriedArgs, err := c.carry(s.IterArgs, yt)
	if err != nil {
		return err
	}
	blockArgs := append([]value{iv}, carriedArgs...)
	c.yields = append(c.yields, yt)
	body, err := c.region(func() error {
		if st, ok := s.LoopVar.Type().(*ir.ScalarType); ok && st.DType != ir.INDEX {
			cv, err := c.castValue(iv, ir.INDEX, st.DType, s.LoopVar.Name+"_"+dtSuffix(st.DType))
			if err != nil {
				return err
			}
			c.vals[s.LoopVar] = cv
		} else {
			c.vals[s.LoopVar] = iv
		}
		return c.stmt(s.Body)
	})
	c.yields = c.yields[:len(c.yields)-1]
	if err != nil {
		return err
	}
	if !yt.done {
		if len(inits) > 0 || len(s.IterArgs) > 0 {
			return c.errorf("loop over %s carries %d values but its body does not end in a yield", s.LoopVar.Name, len(s.IterArgs))
		}
		body = append(body, &operation{name: "scf.yield", custom: "scf.yield", implicit: true})
	}
	if len(s.ReturnVars) != len(s.IterArgs) {
		return c.errorf("loop over %s has %d iter_args but %d return variables", s.LoopVar.Name, len(s.IterArgs), len(s.ReturnVars))
	}
	res := c.results4(s.ReturnVars, yt)
	head := fmt.Sprintf("scf.for %s = %s to %s step %s", iv.ssa, lb.ssa, ub.ssa, step.ssa)
	if len(inits) > 0 {
		pairs := make([]string, len(inits))
		for i, a := range blockArgs[1:] {
			pairs[i] = a.ssa + " = " + inits[i].ssa
		}
		head += " iter_args(" + strings.Join(pairs, ", ") + ") -> (" + typeList(inits) + ")"
	}
	c.emit(&operation{name: "scf.for", res: res,
		operands: append([]value{lb, ub, step}, inits...),
		custom:   head + " {",
		regions:  []*region{{args: blockArgs, ops: body}}})
	return nil
}

// carry sorts a loop's iter-args as the NPU carries them: an array and a
// tensor are the same storage every iteration (bound to their init), other
// values are scf iter_args, each with a block argument (bound to the
// iter-arg) and an init.
func (c *Ctx) carry(ias []*ir.IterArg, yt *yieldTarget) (inits, args []value, err error) {
	yt.arrays = make([]value, len(ias))
	for k, ia := range ias {
		v := &ia.Var
		yt.targets = append(yt.targets, v)
		if _, isArray := v.Type().(*ir.ArrayType); isArray {
			// An array is carried in place: the iter-arg is the array.
			a, err := c.value(ia.Init)
			if err != nil {
				return nil, nil, c.errorf("iter_arg %s: %v", v.Name, err)
			}
			c.vals[v] = a
			yt.arrays[k] = a
			yt.tensors = append(yt.tensors, nil)
			yt.types = append(yt.types, "")
			continue
		}
		if isTensorType(v.Type()) {
			t, err := c.tensorExpr(ia.Init)
			if err != nil {
				return nil, nil, c.errorf("iter_arg %s: %v", v.Name, err)
			}
			c.tensors[v] = t
			yt.tensors = append(yt.tensors, t)
			yt.types = append(yt.types, "")
			continue
		}
		typ, err := mlirType(v.Type())
		if err != nil {
			return nil, nil, c.errorf("iter_arg %s: %v", v.Name, err)
		}
		init, err := c.convert(ia.Init, v.Type(), "")
		if err != nil {
			return nil, nil, c.errorf("iter_arg %s: %v", v.Name, err)
		}
		arg := c.fresh(v.Name, typ)
		c.vals[v] = arg
		inits = append(inits, init)
		args = append(args, arg)
		yt.tensors = append(yt.tensors, nil)
		yt.types = append(yt.types, typ)
	}
	return inits, args, nil
}

// whileStmt emits scf.while, as upstream's codegen does: the before
// region tests the condition on its block arguments and passes them on
// (scf.condition), the after region runs the body and yields the next
// values. Tensors and arrays are not carried (see carry).
func (c *Ctx) whileStmt(s *ir.WhileStmt) error {
	yt := &yieldTarget{what: "while"}
	inits, before, err := c.carry(s.IterArgs, yt)
	if err != nil {
		return err
	}
	// The before region reads the carried values as its own arguments;
	// the after region as fresh ones.
	after := make([]value, len(before))
	for i, b := range before {
		after[i] = c.fresh(b.ssa[1:]+"_next", b.typ)
	}
	carriedVars := func(vals []value) {
		j := 0
		for k, ia := range s.IterArgs {
			if yt.types[k] != "" {
				c.vals[&ia.Var] = vals[j]
				j++
			}
		}
	}
	beforeOps, err := c.region(func() error {
		carriedVars(before)
		cond, err := c.as(s.Cond, ir.BOOL, "")
		if err != nil {
			return err
		}
		custom := "scf.condition(" + cond.ssa + ")"
		if len(before) > 0 {
			custom += " " + ssaList(before) + " : " + typeList(before)
		}
		c.emit(&operation{name: "scf.condition", operands: append([]value{cond}, before...), custom: custom})
		return nil
	})
	if err != nil {
		return err
	}
	c.yields = append(c.yields, yt)
	body, err := c.region(func() error {
		carriedVars(after)
		return c.stmt(s.Body)
	})
	c.yields = c.yields[:len(c.yields)-1]
	if err != nil {
		return err
	}
	if !yt.done {
		if len(inits) > 0 {
			return c.errorf("a while loop carries %d values but its body does not end in a yield", len(inits))
		}
		body = append(body, &operation{name: "scf.yield", custom: "scf.yield"})
	}
	if len(s.ReturnVars) != len(s.IterArgs) {
		return c.errorf("a while loop has %d iter_args but %d return variables", len(s.IterArgs), len(s.ReturnVars))
	}
	res := c.results4(s.ReturnVars, yt)
	head := "scf.while : () -> () {"
	if len(inits) > 0 {
		pairs := make([]string, len(inits))
		for i, a := range before {
			pairs[i] = a.ssa + " = " + inits[i].ssa
		}
		types := "(" + typeList(inits) + ")"
		head = "scf.while (" + strings.Join(pairs, ", ") + ") : " + types + " -> " + types + " {"
	}
	c.emit(&operation{name: "scf.while", res: res, operands: inits, custom: head, sep: "do",
		regions: []*region{{args: before, ops: beforeOps}, {args: after, ops: body, label: true}}})
	return nil
}

// results4 names the SSA results of an scf.for/scf.if for its return
// variables (carried ones only) and aliases the tensor-typed ones.
func (c *Ctx) results4(rvs []*ir.Var, yt *yieldTarget) []value {
	var carried []*ir.Var
	var types []string
	for i, rv := range rvs {
		if i < len(yt.arrays) && yt.arrays[i].ssa != "" {
			c.vals[rv] = yt.arrays[i]
			continue
		}
		if yt.types[i] == "" {
			t := yt.tensors[i]
			if t == nil && i < len(yt.yielded) {
				t = yt.yielded[i]
			}
			if t != nil {
				c.tensors[rv] = t
			}
			continue
		}
		carried = append(carried, rv)
		types = append(types, yt.types[i])
	}
	switch len(carried) {
	case 0:
		return nil
	case 1:
		v := c.fresh(carried[0].Name, types[0])
		c.vals[carried[0]] = v
		return []value{v}
	}
	base := c.fresh(carried[0].Name, "")
	out := make([]value, len(carried))
	for i, rv := range carried {
		out[i] = value{ssa: base.ssa + "#" + itoa(i), typ: types[i]}
		c.vals[rv] = out[i]
	}
	return out
}

func (c *Ctx) ifStmt(s *ir.IfStmt) error {
	cond, err := c.as(s.Cond, ir.BOOL, "")
	if err != nil {
		return err
	}
	yt := &yieldTarget{what: "if", targets: s.ReturnVars, arrays: make([]value, len(s.ReturnVars))}
	for _, rv := range s.ReturnVars {
		yt.tensors = append(yt.tensors, nil)
		yt.yielded = append(yt.yielded, nil)
		_, isArray := rv.Type().(*ir.ArrayType)
		if isTensorType(rv.Type()) || isArray {
			yt.types = append(yt.types, "")
			continue
		}
		typ, err := mlirType(rv.Type())
		if err != nil {
			return c.errorf("if result %s: %v", rv.Name, err)
		}
		yt.types = append(yt.types, typ)
	}
	branch := func(b ir.Stmt, which string) ([]*operation, error) {
		yt.done = false
		c.yields = append(c.yields, yt)
		ops, err := c.region(func() error { return c.stmt(b) })
		c.yields = c.yields[:len(c.yields)-1]
		if err != nil {
			return nil, err
		}
		if !yt.done {
			if len(s.ReturnVars) > 0 {
				return nil, c.errorf("the %s branch of an if with %d results does not end in a yield", which, len(s.ReturnVars))
			}
			ops = append(ops, &operation{name: "scf.yield", custom: "scf.yield", implicit: true})
		}
		return ops, nil
	}
	thenOps, err := branch(s.Then, "then")
	if err != nil {
		return err
	}
	var elseOps []*operation
	if s.Else != nil {
		if elseOps, err = branch(s.Else, "else"); err != nil {
			return err
		}
	} else if len(s.ReturnVars) > 0 {
		return c.errorf("an if with %d results needs an else branch", len(s.ReturnVars))
	}
	res := c.results4(s.ReturnVars, yt)
	head := "scf.if " + cond.ssa
	if len(res) > 0 {
		head += " -> (" + typeList(res) + ")"
	}
	c.emit(&operation{name: "scf.if", res: res, operands: []value{cond},
		custom: head + " {", sep: "else",
		regions: []*region{{ops: thenOps}, {ops: elseOps, elide: s.Else == nil}}})
	return nil
}

func (c *Ctx) yield(s *ir.YieldStmt) error {
	yt := c.yields[len(c.yields)-1]
	if len(s.Values) != len(yt.targets) {
		return c.errorf("a yield of %d values in a %s with %d results", len(s.Values), yt.what, len(yt.targets))
	}
	var vals []value
	for i, e := range s.Values {
		tgt := yt.targets[i]
		if _, isArray := tgt.Type().(*ir.ArrayType); isArray {
			// Arrays are written in place: every yield passes the one array.
			a, err := c.value(e)
			if err != nil {
				return c.errorf("yield to %s: %v", tgt.Name, err)
			}
			if yt.arrays[i].ssa == "" {
				yt.arrays[i] = a
			} else if yt.arrays[i].ssa != a.ssa {
				return c.errorf("yield to %s passes array %s, not the array it carries (%s): arrays are updated in place", tgt.Name, ir.Describe(e), yt.arrays[i].ssa)
			}
			continue
		}
		if yt.types[i] == "" {
			t, err := c.tensorExpr(e)
			if err != nil {
				return c.errorf("yield to %s: %v", tgt.Name, err)
			}
			if yt.tensors[i] != nil && yt.tensors[i] != t {
				return c.errorf("yield to %s passes tensor %s, which aliases parameter %s, not %s", tgt.Name, ir.Describe(e), t.name, yt.tensors[i].name)
			}
			if yt.yielded != nil {
				if prev := yt.yielded[i]; prev != nil && prev != t {
					return c.errorf("the branches of an if yield tensors of different parameters (%s and %s) to %s", prev.name, t.name, tgt.Name)
				}
				yt.yielded[i] = t
			}
			continue
		}
		v, err := c.convert(e, tgt.Type(), "")
		if err != nil {
			return c.errorf("yield to %s: %v", tgt.Name, err)
		}
		vals = append(vals, v)
	}
	custom := "scf.yield"
	if len(vals) > 0 {
		custom += " " + ssaList(vals) + " : " + typeList(vals)
	}
	c.emit(&operation{name: "scf.yield", operands: vals, custom: custom, implicit: len(vals) == 0})
	yt.done = true
	return nil
}

// convert gives e as a value of IR type t: scalars are cast, tiles must
// already have t's tile_buf type.
func (c *Ctx) convert(e ir.Expr, t ir.Type, hint string) (value, error) {
	if st, ok := t.(*ir.ScalarType); ok {
		return c.as(e, st.DType, hint)
	}
	want, err := mlirType(t)
	if err != nil {
		return value{}, err
	}
	v, err := c.value(e)
	if err != nil {
		return value{}, err
	}
	if v.typ != want {
		return value{}, fmt.Errorf("%s has type %s where %s is expected", ir.Describe(e), v.typ, want)
	}
	return v, nil
}
