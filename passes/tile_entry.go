package passes

import (
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Entry loads. Upstream's conversion loads, once at the top of an InCore
// function, every plain tensor parameter that a converted op reads as a
// Vec operand (`x__tile = tile.load(x, ...)`), and every later such read
// takes that tile. Operands an op loads itself are not entry-loaded: a
// slice, assemble, expand_clone or gather loads its own region; a
// matmul's operands go to Mat; a remote store's source and a
// scatter_update's operands are loaded where they are used; a put or get
// moves GM to GM through a staging tile. Which ops take entry loads is
// their conversion rule's to say (transferRule.entryLoads).

// entryLoaded finds the parameters that take an entry load: plain tensors
// (not windows) a converted op reads directly, or through the iter-arg of
// a loop they seed.
func entryLoaded(fn *ir.Function) map[*ir.Var]bool {
	used := map[*ir.Var]bool{}
	seeds := map[*ir.Var]ir.Expr{} // iter-arg -> its init value
	ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
		if ias, _ := ir.LoopCarried(s); len(ias) > 0 {
			for _, ia := range ias {
				seeds[&ia.Var] = ia.Init
			}
		}
		if _, ok := s.(*ir.AssignStmt); !ok || !tileLowerable(s) {
			return
		}
		c := ir.StmtCall(s)
		if c == nil || !takesEntryLoads(c.Op) {
			return
		}
		for _, arg := range c.Args {
			if v, ok := plainTensorVar(arg); ok {
				used[v] = true
			}
		}
	})
	for grew := true; grew; {
		grew = false
		for ia, init := range seeds {
			if v, ok := plainTensorVar(init); ok && used[ia] && !used[v] {
				used[v], grew = true, true
			}
		}
	}
	out := map[*ir.Var]bool{}
	for _, p := range fn.Params {
		if used[p] {
			out[p] = true
		}
	}
	return out
}

// takesEntryLoads reports whether op's plain tensor parameter operands take
// the entry load: an op lowered to its tile form, or a conversion rule that
// says so (transferRules); an alias or a rule that loads its own operands
// does not.
func takesEntryLoads(op *ir.OpDef) bool {
	if r, ok := transferRules[op]; ok {
		return r.entryLoads
	}
	return op.AliasOf == nil
}

// plainTensorVar is e as a variable of a plain pl.Tensor type.
func plainTensorVar(e ir.Expr) (*ir.Var, bool) {
	switch e.(type) {
	case *ir.Var, *ir.IterArg:
	default:
		return nil, false
	}
	v, _ := ir.VarOf(e)
	_, ok := v.Type().(*ir.TensorType)
	return v, ok
}

// entryLoads emits the entry loads, in parameter order, and records each
// tile for vecOf.
func (t *tileConv) entryLoads() ([]ir.Stmt, error) {
	loaded := entryLoaded(t.fn)
	var out []ir.Stmt
	for _, p := range t.fn.Params {
		if !loaded[p] {
			continue
		}
		load, err := wholeLoad(p, p.Type().(*ir.TensorType).Shape, ir.MemVec)
		if err != nil {
			return nil, err
		}
		v := ir.NewVar(t.names.fresh(tileName(p.Name)), load.Type(), p.Span())
		out = append(out, assign(v, load))
		t.entry[p] = v
	}
	return out, nil
}

// wholeLoad is the tile.load of all of tensor e (of shape) into mem.
func wholeLoad(e ir.Expr, shape []ir.Expr, mem ir.MemorySpace) (*ir.Call, error) {
	zeros := make([]ir.Expr, len(shape))
	for i := range zeros {
		zeros[i] = ir.Int(0)
	}
	return ir.TileLoad.NewCall([]ir.Expr{e, &ir.MakeTuple{Elems: zeros}, &ir.MakeTuple{Elems: shape}, &ir.MakeTuple{Elems: shape}},
		ir.Kwargs{{Key: "target_memory", Value: mem}}, e.Span())
}

// tileName names the tile a converted value becomes, as upstream's
// conversion does: the name's base (before any __ suffix) and __tile
// (y -> y__tile, acc__ssa_v1 -> acc__tile).
func tileName(name string) string { return baseName(name) + "__tile" }

// baseName is an auto-named variable's base, the name before any __
// suffix (x__iter_v1 -> x), as upstream's auto_name parses it.
func baseName(name string) string {
	if base, _, _ := strings.Cut(name, "__"); base != "" {
		return base
	}
	return name
}

func isReturn(s ir.Stmt) bool {
	_, ok := s.(*ir.ReturnStmt)
	return ok
}
