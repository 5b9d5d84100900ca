//go:build cgo

package pyfront

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// jitFunc is an @pl.jit.incore / @pl.jit / @pl.jit.host function.
type jitFunc struct {
	name string
	kind string // "incore", "orch", "host"
	dec  *node
	def  *node
	// autoScopeOff: @pl.jit(auto_scope=False), scopes placed by hand.
	autoScopeOff bool
}

func (r *reader) jitDecl(n *node, dec string) *jitFunc {
	def := n.ChildByFieldId(fldDefinition)
	j := &jitFunc{name: r.text(def.ChildByFieldId(fldName)), dec: n, def: def}
	switch dec {
	case "pl.jit.incore":
		j.kind = "incore"
	case "pl.jit":
		j.kind = "orch"
	case "pl.jit.host":
		j.kind = "host"
	default:
		r.fail(n, "unknown decorator @%s (expected @pl.jit.incore, @pl.jit or @pl.jit.host)", dec)
	}
	if d := r.decorator(n); d != nil && d.Kind() == "call" {
		// Only auto_scope=False (hand-placed runtime scopes) is read.
		args := r.kids(d.ChildByFieldId(fldArguments))
		for _, a := range args {
			if a.Kind() != "keyword_argument" || r.text(a.ChildByFieldId(fldName)) != "auto_scope" {
				r.fail(a, "@%s takes only auto_scope= here", dec)
			}
			b, ok := r.eval(a.ChildByFieldId(fldValue), r.globalEnv()).(bool)
			if !ok {
				r.fail(a, "@%s: auto_scope must be True or False", dec)
			}
			j.autoScopeOff = !b
		}
	}
	return j
}

// calls lists the identifiers a function body calls.
func (r *reader) calls(n *node) map[string]bool {
	out := map[string]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		if n.Kind() == "call" {
			if f := n.ChildByFieldId(fldFunction); f != nil && f.Kind() == "identifier" {
				out[r.text(f)] = true
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(n)
	return out
}

// callsThrough is calls, plus what the inline helpers called there call
// (their bodies are spliced into the caller).
func (r *reader) callsThrough(n *node) map[string]bool {
	out := r.calls(n)
	var work []string
	for c := range out {
		work = append(work, c)
	}
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if h := r.inlines[c]; h != nil {
			leave := r.enter(h.home)
			for k := range r.calls(h.def.ChildByFieldId(fldBody)) {
				if !out[k] {
					out[k] = true
					work = append(work, k)
				}
			}
			leave()
		}
	}
	return out
}

// jitPrograms builds one program per entry, named after it, holding every
// jit function it reaches. The entries are the @pl.jit.host functions and
// the @pl.jit functions no other jit function calls (upstream's examples
// call those from Python, as beginner/01_hello_world.py does).
func (r *reader) jitPrograms(entries []*jitFunc, byName map[string]*jitFunc) []jitEntry {
	var out []jitEntry
	for _, host := range entries {
		// An entry that cannot be built fails alone: the others of the
		// file still open (Module.Program reports its error).
		e := jitEntry{name: host.name}
		func() {
			defer r.recoverTo(&e.err)
			e.prog = r.jitProgram(host, byName)
		}()
		out = append(out, e)
	}
	return out
}

// jitByName indexes the file's jit functions by name.
func (r *reader) jitByName(jits []*jitFunc) map[string]*jitFunc {
	byName := map[string]*jitFunc{}
	for _, j := range jits {
		if byName[j.name] != nil {
			r.fail(j.def, "jit function %s is defined twice", j.name)
		}
		byName[j.name] = j
	}
	return byName
}

// jitEntries are the jit functions a program is built from: the
// @pl.jit.host functions and the @pl.jit functions no other jit function
// calls.
func (r *reader) jitEntries(jits []*jitFunc) []*jitFunc {
	called := map[string]bool{}
	for _, j := range jits {
		for c := range r.callsThrough(j.def.ChildByFieldId(fldBody)) {
			if c != j.name {
				called[c] = true
			}
		}
	}
	var out []*jitFunc
	for _, j := range jits {
		if j.kind == "host" || j.kind == "orch" && !called[j.name] {
			out = append(out, j)
		}
	}
	return out
}

// jitEntry is one entry program of a module, or why it cannot be built.
type jitEntry struct {
	name string
	prog *ir.Program
	err  error
}

// jitProgram builds the program of entry host.
func (r *reader) jitProgram(host *jitFunc, byName map[string]*jitFunc) *ir.Program {
	// Callees first, so each caller sees its callees' return types.
	var order []*jitFunc
	seen := map[string]int{}
	var visit func(j *jitFunc)
	visit = func(j *jitFunc) {
		switch seen[j.name] {
		case 1:
			r.fail(j.def, "jit function %s calls itself (recursion is not supported)", j.name)
		case 2:
			return
		}
		seen[j.name] = 1
		cs := r.callsThrough(j.def.ChildByFieldId(fldBody))
		names := make([]string, 0, len(cs))
		for c := range cs {
			names = append(names, c)
		}
		sort.Strings(names)
		for _, c := range names {
			if k := byName[c]; k != nil {
				visit(k)
			}
		}
		seen[j.name] = 2
		order = append(order, j)
	}
	visit(host)
	pc := &progCtx{prog: ir.NewProgram(host.name), funcs: map[string]*ir.Function{}, jit: true, deferred: map[string]func([]ir.Type){}}
	build := func(j *jitFunc) {
		fn, fenv := r.signature(nil, j.def, r.globalEnv(), true)
		switch j.kind {
		case "incore":
			fn.Kind, fn.Level, fn.Role = ir.InCore, ir.LevelChipDie, ir.SubWorker
		case "orch":
			fn.Kind, fn.Level, fn.Role = ir.Orchestration, ir.LevelChip, ir.Orchestrator
		case "host":
			fn.Kind, fn.Level, fn.Role = ir.Opaque, ir.LevelHost, ir.Orchestrator
		}
		if j.autoScopeOff {
			fn.Attrs = append(fn.Attrs, ir.Kwarg{Key: "auto_scope", Value: false})
		}
		fc := &fnCtx{r: r, fn: fn, pc: pc, env: fenv, free: map[string]*ir.Var{}, memrefBases: map[string]*ir.Var{}, authoring: true}
		fc.body(j.def)
		if j.def.ChildByFieldId(fldReturnType) == nil {
			fn.ReturnTypes = inferReturns(fn)
		}
		pc.funcs[fn.Name] = fn
		if err := pc.prog.AddFunction(fn); err != nil {
			r.fail(j.def, "%v", err)
		}
	}
	for _, j := range order {
		if j != host && r.hasBareTensor(j.def) {
			// Specialized on its first call's arguments, as @pl.jit is.
			j := j
			pc.deferred[j.name] = func(args []ir.Type) {
				saved := r.argTypes
				r.argTypes = map[string][]ir.Type{j.name: args}
				defer func() { r.argTypes = saved }()
				build(j)
			}
			continue
		}
		build(j)
	}
	return pc.prog
}

// inferReturns types an unannotated function by its first return statement.
func inferReturns(fn *ir.Function) []ir.Type {
	var out []ir.Type
	found := false
	ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
		if rs, ok := s.(*ir.ReturnStmt); ok && !found {
			found = true
			for _, v := range rs.Values {
				if _, unk := v.Type().(*ir.UnknownType); unk {
					continue
				}
				out = append(out, v.Type())
			}
		}
	})
	return out
}

func goValue(v any) (value, error) {
	switch x := v.(type) {
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case int32:
		return int64(x), nil
	case float64:
		return x, nil
	case float32:
		return float64(x), nil
	case bool:
		return x, nil
	case string:
		return x, nil
	case ir.DataType, ir.ReduceOp:
		// pl.FP32, pld.Sum: what a factory's dtype= or reduce_op= takes.
		return x, nil
	}
	return nil, fmt.Errorf("expected a Go int, float, bool, string, pl.DataType or pld.ReduceOp, given %T", v)
}

// elementwiseSpelling is what one authoring spelling (pl.add) picks from by
// operand type: the tile or tensor op, its tile-by-scalar form (nil when
// there is none) and the scalar expression for two scalars.
type elementwiseSpelling struct {
	tile, tensor, tileScalar, tensorScalar *ir.OpDef
	scalar                                 ir.BinaryOp
	hasScalar                              bool
	// tmp: the tile form takes a scratch tile third (pl.xor(a, b, tmp));
	// the tensor form's lowering allocates it.
	tmp bool
}

var elementwiseOps = map[string]elementwiseSpelling{
	"pl.add":     {ir.TileAdd, ir.TensorAdd, ir.TileAdds, ir.TensorAdds, ir.OpAdd, true, false},
	"pl.sub":     {ir.TileSub, ir.TensorSub, ir.TileSubs, ir.TensorSubs, ir.OpSub, true, false},
	"pl.mul":     {ir.TileMul, ir.TensorMul, ir.TileMuls, ir.TensorMuls, ir.OpMul, true, false},
	"pl.div":     {ir.TileDiv, ir.TensorDiv, ir.TileDivs, ir.TensorDivs, ir.OpFloatDiv, true, false},
	"pl.maximum": {tile: ir.TileMaximum, tensor: ir.TensorMaximum, tileScalar: ir.TileMaximums, tensorScalar: ir.TensorMaximum},
	"pl.minimum": {tile: ir.TileMinimum, tensor: ir.TensorMinimum, tileScalar: ir.TileMinimums, tensorScalar: ir.TensorMinimum},
	"pl.and_":    {tile: ir.TileAnd, tensor: ir.TensorAnd, tileScalar: ir.TileAnds, tensorScalar: ir.TensorAnds},
	"pl.or_":     {tile: ir.TileOr, tensor: ir.TensorOr, tileScalar: ir.TileOrs, tensorScalar: ir.TensorOrs},
	"pl.xor":     {tile: ir.TileXor, tensor: ir.TensorXor, tileScalar: ir.TileXors, tensorScalar: ir.TensorXors, tmp: true},
	"pl.shl":     {tile: ir.TileShl, tensor: ir.TensorShl, tileScalar: ir.TileShls, tensorScalar: ir.TensorShls},
	"pl.shr":     {tile: ir.TileShr, tensor: ir.TensorShr, tileScalar: ir.TileShrs, tensorScalar: ir.TensorShrs},
	"pl.ands":    {tile: ir.TileAnds, tensor: ir.TensorAnds, tileScalar: ir.TileAnds, tensorScalar: ir.TensorAnds},
	"pl.ors":     {tile: ir.TileOrs, tensor: ir.TensorOrs, tileScalar: ir.TileOrs, tensorScalar: ir.TensorOrs},
	"pl.xors":    {tile: ir.TileXors, tensor: ir.TensorXors, tileScalar: ir.TileXors, tensorScalar: ir.TensorXors, tmp: true},
	"pl.shls":    {tile: ir.TileShls, tensor: ir.TensorShls, tileScalar: ir.TileShls, tensorScalar: ir.TensorShls},
	"pl.shrs":    {tile: ir.TileShrs, tensor: ir.TensorShrs, tileScalar: ir.TileShrs, tensorScalar: ir.TensorShrs},
	"pl.fmod":    {tile: ir.TileFmod, tensor: ir.TensorFmod, tileScalar: ir.TileFmods, tensorScalar: ir.TensorFmods},
	"pl.fmods":   {tile: ir.TileFmods, tensor: ir.TensorFmods, tileScalar: ir.TileFmods, tensorScalar: ir.TensorFmods},
}

// tileSpellings are the tensor ops whose tile op of the same spelling is
// not a lowering (the registry's TileForm) but a sibling: pl.read of a
// tile is tile.read, pl.matmul of tiles is tile.matmul.
var tileSpellings = map[*ir.OpDef]*ir.OpDef{ir.TensorRead: ir.TileRead, ir.TensorWrite: ir.TileWrite, ir.TensorSlice: ir.TileSlice,
	ir.TensorMatmul: ir.TileMatmul, ir.TensorMatmulAcc: ir.TileMatmulAcc, ir.TensorCmp: ir.TileCmp, ir.TensorGatherRow: ir.TileGatherRow,
	ir.PldTensorRemoteStore: ir.PldTileRemoteStore}

// tileFormOf is the op an authoring spelling means on a tile operand: the
// registry's TileForm, or a sibling tile op; nil when there is none.
func tileFormOf(op *ir.OpDef) *ir.OpDef {
	if t := tileSpellings[op]; t != nil {
		return t
	}
	return op.TileForm
}

// authoringCall builds the authoring-form spellings that are not one op
// each: pl.add and friends pick the tile, tensor or tile-by-scalar op by
// operand type; a shaped
// pld.alloc_window_buffer sizes itself in bytes.
func (fc *fnCtx) authoringCall(n *node, callee string, pos []value, nodes []*node, kws []kwArg) (value, bool) {
	r := fc.r
	op := shortOps[callee]
	if op == nil && opByCallee[callee] == ir.PldTensorAllocWindowBuffer {
		op = ir.PldTensorAllocWindowBuffer // the shaped form is accepted under either spelling
	}
	// A tensor spelling on a tile operand means its tile op (pl.exp of a
	// tile is tile.exp).
	if op != nil && op.TileForm != nil || tileSpellings[op] != nil {
		if len(pos) > 0 {
			if e, ok := pos[0].(ir.Expr); ok {
				if _, isTile := e.Type().(*ir.TileType); isTile {
					op = tileFormOf(op)
				}
			}
		}
		return fc.opCall(n, op, pos, nodes, kws), true
	}
	switch op {
	case ir.PldTensorAllocWindowBuffer:
		if len(pos) == 1 {
			if _, isList := pos[0].(pyList); isList {
				var dt ir.DataType
				ok := false
				for _, k := range kws {
					if k.name != "dtype" {
						r.fail(k.node, "%s: unknown keyword %s (expected dtype)", callee, k.name)
					}
					dt, ok = k.val.(ir.DataType)
				}
				if !ok {
					r.fail(n, "%s(shape, dtype=...): dtype= is required with a shape", callee)
				}
				dims := r.shape(nodes[0], pos[0])
				cnt, static := ir.NumElements(dims)
				if !static {
					r.fail(nodes[0], "%s: the shape must be static; pass a byte count for symbolic sizes", callee)
				}
				if !dt.WholeBytes() {
					r.fail(n, "%s: %s is not a whole number of bytes", callee, dt)
				}
				size := &ir.ConstInt{Value: cnt * int64(dt.Bytes()), DType: ir.INT64, Pos: r.pos(nodes[0])}
				return fc.opCall(n, op, []value{size}, nodes, []kwArg{{name: "name", node: n, val: "<unbound>"}}), true
			}
		}
	}
	if sp, ok := elementwiseOps[callee]; ok {
		if len(pos) < 2 {
			r.fail(n, "%s: expected 2 positional arguments (lhs, rhs), given %d", callee, len(pos))
		}
		l := r.toExpr(nodes[0], pos[0])
		_, onTile := l.Type().(*ir.TileType)
		switch {
		case sp.tmp && onTile && len(pos) != 3:
			r.fail(n, "%s of tiles: expected 3 positional arguments (lhs, rhs, tmp), given %d", callee, len(pos))
		case (!sp.tmp || !onTile) && len(pos) != 2:
			r.fail(n, "%s: expected 2 positional arguments (lhs, rhs), given %d", callee, len(pos))
		}
		rt := r.toExpr(nodes[1], pos[1])
		var kind string
		var op, scalarOp *ir.OpDef
		switch l.Type().(type) {
		case *ir.TileType:
			kind, op, scalarOp = "tile", sp.tile, sp.tileScalar
		case *ir.TensorType, *ir.DistributedTensorType:
			kind, op, scalarOp = "tensor", sp.tensor, sp.tensorScalar
		case *ir.ScalarType:
			if sp.hasScalar {
				return r.binExpr(n, sp.scalar, l, rt), true
			}
			r.fail(n, "%s: expected tiles or tensors, given %s", callee, ir.Describe(l))
		default:
			r.fail(nodes[0], "%s: lhs: expected a tile, tensor or scalar, given %s", callee, ir.Describe(l))
		}
		if _, isScalar := rt.Type().(*ir.ScalarType); isScalar {
			if scalarOp == nil {
				r.fail(nodes[1], "%s: rhs: expected a %s, given %s", callee, kind, ir.Describe(rt))
			}
			op = scalarOp
		}
		args := []ir.Expr{l, rt}
		if len(pos) == 3 {
			args = append(args, r.toExpr(nodes[2], pos[2]))
		}
		// Keywords go to the op picked (pl.div(a, b, high_precision=True)
		// is tile.div's or tensor.div's).
		var kw ir.Kwargs
		for _, k := range kws {
			_, byPair := sp.tile.Kwarg(k.name)
			if _, known := op.Kwarg(k.name); !known && byPair && op == scalarOp {
				r.fail(k.node, "%s: %s= applies to two %ss; with a scalar rhs the op is %s, which has no such mode", callee, k.name, kind, op.Name)
			}
			if spec, known := op.Kwarg(k.name); !known || spec.Hidden {
				r.fail(k.node, "%s: unknown keyword %s for %s (%s)", callee, k.name, op.Name, kwargsTaken(op))
			}
			kw = append(kw, ir.Kwarg{Key: k.name, Value: r.kwargValue(k, op)})
		}
		c, err := op.NewCall(args, kw, r.pos(n))
		if err != nil {
			r.failErr(n, err)
		}
		return c, true
	}
	return nil, false
}

// kwargsTaken says which keywords op takes.
func kwargsTaken(op *ir.OpDef) string {
	var names []string
	for _, s := range op.Kwargs {
		if !s.Hidden {
			names = append(names, s.Name)
		}
	}
	if len(names) == 0 {
		return "it takes none"
	}
	return "it takes " + strings.Join(names, ", ")
}

// index is x[r] (or x[i, r]) on a tensor: the slice at those leading
// indices with their dimensions dropped, as the Go builder's pl.Index and
// upstream's per-rank dispatch argument.
func (fc *fnCtx) index(n *node, x ir.Expr, subs []*node, idxs []value) ir.Expr {
	r := fc.r
	k := len(idxs)
	tl, ok := ir.AsTensorLike(x.Type())
	if !ok || len(tl.Shape) < k {
		r.fail(n, "cannot index %s with %d indices: expected a tensor of rank >= %d", ir.Describe(x), k, k)
	}
	if k == len(tl.Shape) {
		// All-scalar and full-rank: an element read, as upstream parses it.
		idx := make([]ir.Expr, k)
		for i := range idx {
			idx[i] = r.toExpr(subs[i], idxs[i])
		}
		c, err := ir.TensorRead.NewCall([]ir.Expr{x, &ir.MakeTuple{Elems: idx}}, nil, r.pos(n))
		if err != nil {
			r.failErr(n, err)
		}
		return c
	}
	parts := make([]subscriptPart, k)
	for i := range parts {
		parts[i] = subscriptPart{node: subs[i], idx: idxs[i]}
	}
	return fc.region(n, x, tl, parts)
}
