package pto

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Ctx is the state of one function's emission, handed to every Emitter.
type Ctx struct {
	prog   *ir.Program
	fn     *ir.Function
	o      Options
	mod    *moduleState
	names  *namer
	consts *consts

	vals    map[*ir.Var]value   // scalar, tile and ctx values
	tensors map[*ir.Var]*tensor // tensor aliases

	prologue []*operation  // local views, after the constants
	block    *[]*operation // where ops go now
	yields   []*yieldTarget
	results  []value // the function's results (scalars returned)
	// fallThrough: the returns inside ifs may fall through to the
	// function's end (see returnsFallThrough).
	fallThrough bool
	// spmd holds the block index and block count arguments of a kernel
	// that reads them (tile.get_block_idx / get_block_num).
	spmd []value
	// subblock is the kernel's vector-lane argument (split_aiv.go).
	subblock value
	// rawArgs is the dispatch-args argument of a kernel with a deferred
	// wait (ops_defer.go).
	rawArgs value
	// sdma is the SDMA workspace argument of a kernel making a prefetch
	// context (ops_prefetch.go).
	sdma value
}

// Function is the function being emitted.
func (c *Ctx) Function() *ir.Function { return c.fn }

// Options are the emission options.
func (c *Ctx) Options() Options { return c.o }

// tensor is a tensor parameter that tensor variables alias: a pointer
// argument with the parameter's shape, and for a DistributedTensor the ctx
// parameter bound to it.
type tensor struct {
	name  string // the parameter's name: the hint of its views
	ptr   value
	dtype ir.DataType
	elem  string
	shape []ir.Expr
	view  *ir.TensorView
	dist  bool
	ctx   *value
	local *value // the local make_tensor_view, once made
}

func (c *Ctx) emit(o *operation) { *c.block = append(*c.block, o) }

// fresh makes a result value named after hint (numeric when hint is "").
func (c *Ctx) fresh(hint, typ string) value {
	if hint == "" {
		return value{ssa: c.names.temp(), typ: typ}
	}
	return value{ssa: c.names.named(hint), typ: typ}
}

// op emits an operation with one result and returns the result.
func (c *Ctx) op(hint, typ, name string, operands []value, attrs []attr, custom string) value {
	r := c.fresh(hint, typ)
	c.emit(&operation{name: name, res: []value{r}, operands: operands, attrs: attrs, custom: custom})
	return r
}

// stmtOp emits an operation without results.
func (c *Ctx) stmtOp(name string, operands []value, attrs []attr, custom string) {
	c.emit(&operation{name: name, operands: operands, attrs: attrs, custom: custom})
}

// errorf makes an error naming the function.
func (c *Ctx) errorf(format string, args ...any) error {
	return fmt.Errorf("pto: function %s: %s", c.fn.Name, fmt.Sprintf(format, args...))
}

// isTensorType reports whether t is a TensorType or DistributedTensorType.
func isTensorType(t ir.Type) bool {
	_, ok := ir.AsTensorLike(t)
	return ok
}

// emitFunc emits the func.func of fn.
func emitFunc(p *ir.Program, fn *ir.Function, o Options, m *moduleState) (*operation, error) {
	c := &Ctx{prog: p, fn: fn, o: o, mod: m, names: newNamer(),
		vals: map[*ir.Var]value{}, tensors: map[*ir.Var]*tensor{}}
	c.consts = newConsts(c.names)

	// Signature: tensors first, then the other parameters in IR order, then
	// dynamic dims of the tensor shapes as trailing index arguments.
	var ordered []*ir.Var
	for _, v := range fn.Params {
		if isTensorType(v.Type()) {
			ordered = append(ordered, v)
		}
	}
	for _, v := range fn.Params {
		if !isTensorType(v.Type()) {
			ordered = append(ordered, v)
		}
	}
	dyn, dynAlias := dynamicDims(fn)
	isDyn := map[*ir.Var]bool{}
	for _, v := range dyn {
		isDyn[v] = true
	}
	ordered = append(ordered, dyn...)
	var args []value
	var dists []*tensor
	var ctxs []value
	for i, v := range ordered {
		name := "%arg" + itoa(i)
		c.names.reserve(name)
		if isDyn[v] {
			a := value{ssa: name, typ: "index"}
			c.vals[v] = a
			args = append(args, a)
			continue
		}
		switch t := v.Type().(type) {
		case *ir.TensorType, *ir.DistributedTensorType:
			tl, _ := ir.AsTensorLike(t)
			elem, err := elemType(tl.DType)
			if err != nil {
				return nil, c.errorf("parameter %s: %v", v.Name, err)
			}
			a := value{ssa: name, typ: ptrType(elem)}
			tn := &tensor{name: v.Name, ptr: a, dtype: tl.DType, elem: elem, shape: tl.Shape, view: tl.View, dist: tl.Distributed}
			c.tensors[v] = tn
			if tn.dist {
				dists = append(dists, tn)
			}
			args = append(args, a)
		case *ir.CommCtxType:
			a := value{ssa: name, typ: ctxType}
			c.vals[v] = a
			ctxs = append(ctxs, a)
			args = append(args, a)
		case *ir.ScalarType:
			typ, err := scalarType(t.DType)
			if err != nil {
				return nil, c.errorf("parameter %s: %v", v.Name, err)
			}
			a := value{ssa: name, typ: typ}
			c.vals[v] = a
			args = append(args, a)
		default:
			return nil, c.errorf("parameter %s has type %s, which has no PTO-MLIR form", v.Name, v.Type())
		}
	}
	// A kernel with a deferred wait takes the raw dispatch args next, as
	// upstream's codegen does, before the runtime's other arguments.
	if usesOp(fn, ir.PldSystemDeferWait) {
		c.names.reserve(rawArgsSSA)
		c.rawArgs = value{ssa: rawArgsSSA, typ: ctxType}
		args = append(args, c.rawArgs)
	}
	// A kernel making a prefetch context takes the runtime's SDMA
	// workspace next, numbered as if it followed the dynamic dims.
	if usesOp(fn, ir.PrefetchMakeContext) {
		c.sdma = value{ssa: "%arg" + itoa(len(ordered)), typ: "!pto.ptr<i8>"}
		c.names.reserve(c.sdma.ssa)
		args = append(args, c.sdma)
	}
	// A kernel reading its SPMD identity takes it as two trailing i32
	// arguments, block index then block count, as upstream's codegen
	// appends them for the launch wrapper to fill.
	if usesSpmdIdentity(fn) {
		for _, n := range []string{"%__pypto_spmd_block_idx", "%__pypto_spmd_block_num"} {
			c.names.reserve(n)
			a := value{ssa: n, typ: "i32"}
			c.spmd = append(c.spmd, a)
			args = append(args, a)
		}
	}
	// A kernel reading its vector lane (a pl.split_aiv region) takes it as
	// one more i32 argument after those, as upstream's codegen does.
	if usesOp(fn, ir.TileGetSubblockIdx) {
		n := "%__pypto_spmd_subblock_idx"
		c.names.reserve(n)
		c.subblock = value{ssa: n, typ: "i32"}
		args = append(args, c.subblock)
	}
	for v, first := range dynAlias {
		c.vals[v] = c.vals[first]
	}
	if len(dists) > 0 && len(ctxs) != len(dists) {
		if len(ctxs) == 0 {
			return nil, c.errorf("%d DistributedTensor parameters but no CommCtx parameters: run MaterializeDistTensorCtx before PTO codegen", len(dists))
		}
		return nil, c.errorf("%d DistributedTensor parameters but %d CommCtx parameters (one each is needed): run MaterializeDistTensorCtx before PTO codegen", len(dists), len(ctxs))
	}
	for k, tn := range dists {
		ctx := ctxs[k]
		tn.ctx = &ctx
	}

	var body []*operation
	c.block = &body
	c.fallThrough = returnsFallThrough(fn.Body)
	if err := c.stmt(fn.Body); err != nil {
		return nil, err
	}
	if n := len(body); n == 0 || body[n-1].name != "func.return" {
		c.emit(returnOp(nil))
	}
	ops := append(append(c.consts.ops(), c.prologue...), body...)

	argTypes := make([]string, len(args))
	params := make([]string, len(args))
	for i, a := range args {
		argTypes[i] = a.typ
		params[i] = a.ssa + ": " + a.typ
	}
	resTypes := make([]string, len(c.results))
	for i, r := range c.results {
		resTypes[i] = r.typ
	}
	head := "func.func @" + fn.Name + "(" + strings.Join(params, ", ") + ")"
	if len(resTypes) > 0 {
		head += " -> (" + strings.Join(resTypes, ", ") + ")"
	}
	attrs := []attr{{"function_type", signature(argTypes, resTypes)}, {"sym_name", fmt.Sprintf("%q", fn.Name)}}
	if kk := kernelKind(fn); kk != "" {
		head += " attributes {pto.kernel_kind = " + kk + "}"
		attrs = append(attrs, attr{"pto.kernel_kind", kk})
	}
	return &operation{name: "func.func", custom: head + " {", attrs: attrs,
		regions: []*region{{args: args, ops: ops}}}, nil
}

func kernelKind(fn *ir.Function) string {
	switch fn.Kind {
	case ir.AIV:
		return "#pto.kernel_kind<vector>"
	case ir.AIC:
		return "#pto.kernel_kind<cube>"
	}
	return ""
}

// dynamicDims lists the variables free in the tensor parameters' shapes
// (pl.dynamic dims) that are not parameters themselves, in order of first
// use, one per name (pl.dynamic("NR") twice is one symbol); alias maps the
// other variables of a name to the listed one.
func dynamicDims(fn *ir.Function) (out []*ir.Var, alias map[*ir.Var]*ir.Var) {
	isParam := map[*ir.Var]bool{}
	for _, p := range fn.Params {
		isParam[p] = true
	}
	seen := map[*ir.Var]bool{}
	byName := map[string]*ir.Var{}
	alias = map[*ir.Var]*ir.Var{}
	for _, p := range fn.Params {
		tl, ok := ir.AsTensorLike(p.Type())
		if !ok {
			continue
		}
		for _, d := range tl.Shape {
			ir.WalkExpr(d, func(e ir.Expr) {
				v, ok := e.(*ir.Var)
				if !ok || isParam[v] || seen[v] {
					return
				}
				seen[v] = true
				if first, ok := byName[v.Name]; ok {
					alias[v] = first
					return
				}
				byName[v.Name] = v
				out = append(out, v)
			})
		}
	}
	return out, alias
}

// returnOp is func.return of vals.
func returnOp(vals []value) *operation {
	custom := "return"
	if len(vals) > 0 {
		custom += " " + ssaList(vals) + " : " + typeList(vals)
	}
	return &operation{name: "func.return", operands: vals, custom: custom}
}
