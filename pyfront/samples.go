package pyfront

import (
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Upstream's @pl.jit specializes a function on the tensors a call passes:
// a parameter annotated with a bare pl.Tensor (or pl.Out[pl.Tensor]) takes
// the shape and dtype of its argument. ptorepl does not run a file's
// Python, but its examples build their sample tensors with torch
// constructors in the __main__ block (a = torch.zeros((128, 128),
// dtype=torch.float32); tile_add(a, b, c)). The reader reads those
// constructors' shapes and dtypes, and the first call of each @pl.jit
// function then gives its bare parameters their types. Nothing there is
// executed; what it cannot size is left alone.

// sample is the shape and dtype of a tensor the __main__ block builds.
type sample struct {
	shape []int64
	dt    ir.DataType
}

// torchDTypes are the torch dtypes a sample may have.
var torchDTypes = map[string]ir.DataType{
	"torch.float32": ir.FP32, "torch.float": ir.FP32, "torch.float16": ir.FP16, "torch.half": ir.FP16,
	"torch.bfloat16": ir.BF16, "torch.int32": ir.INT32, "torch.int": ir.INT32, "torch.int64": ir.INT64,
	"torch.long": ir.INT64, "torch.int16": ir.INT16, "torch.int8": ir.INT8, "torch.uint8": ir.UINT8,
	"torch.bool": ir.BOOL,
}

// scanSamples reads the module's __main__ block and its undecorated
// functions (def main, the harness functions examples drive kernels from)
// for sample tensors and the calls that pass them; r.specs gets, per
// called function, each argument's sample (the first call that sizes it
// wins).
func (r *reader) scanSamples(root *node) {
	var blocks []*node
	for i := uint(0); i < root.NamedChildCount(); i++ {
		n := root.NamedChild(i)
		switch n.Kind() {
		case "if_statement":
			cond := strings.Join(strings.Fields(r.text(n.ChildByFieldId(fldCondition))), " ")
			if cond == `__name__ == "__main__"` || cond == `__name__ == '__main__'` {
				blocks = append(blocks, n.ChildByFieldId(fldConsequence))
			}
		case "function_definition":
			// main, and the other undecorated functions such files drive
			// their kernels from (each sees only its own samples).
			blocks = append(blocks, n.ChildByFieldId(fldBody))
		}
	}
	if len(blocks) == 0 {
		return
	}
	for _, b := range blocks {
		r.walkSamples(b, map[string]*sample{})
	}
}

// walkSamples visits statements in order: assignments from torch
// constructors record samples; calls record specializations.
func (r *reader) walkSamples(n *node, vars map[string]*sample) {
	if n == nil {
		return
	}
	switch n.Kind() {
	case "assignment":
		left, right := n.ChildByFieldId(fldLeft), n.ChildByFieldId(fldRight)
		if left != nil && right != nil && left.Kind() == "identifier" {
			if s := r.torchSample(right, vars); s != nil {
				vars[r.text(left)] = s
			} else {
				delete(vars, r.text(left))
			}
		}
		if right != nil {
			r.walkSamples(right, vars)
		}
		return
	case "call":
		f := n.ChildByFieldId(fldFunction)
		if f != nil && f.Kind() == "attribute" {
			// f.lower(a, c) and f.compile(a, c) specialize like f(a, c).
			if obj := f.ChildByFieldId(fldObject); obj != nil && obj.Kind() == "identifier" {
				if at := r.text(f.ChildByFieldId(fldAttribute)); at == "lower" || at == "compile" {
					f = obj
				}
			}
		}
		if f != nil && f.Kind() == "identifier" {
			name := r.text(f)
			var args []*sample
			sized := false
			for _, a := range r.kids(n.ChildByFieldId(fldArguments)) {
				if a.Kind() == "keyword_argument" {
					continue
				}
				s := r.argSample(a, vars)
				sized = sized || s != nil
				args = append(args, s)
			}
			if sized {
				if r.specs == nil {
					r.specs = map[string][]*sample{}
				}
				// The first call that sizes an argument gives its type.
				have := r.specs[name]
				for i, s := range args {
					if i >= len(have) {
						have = append(have, s)
					} else if have[i] == nil {
						have[i] = s
					}
				}
				r.specs[name] = have
			}
		}
	case "function_definition", "class_definition":
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		r.walkSamples(n.NamedChild(i), vars)
	}
}

// torchSample sizes torch.zeros/ones/empty/rand/randn((d0, d1), dtype=...),
// torch.full((d0, d1), v, dtype=...), their dims-as-arguments forms
// (torch.randn(32, 128)), and torch.zeros_like(x) of a known x; nil
// otherwise. Dimensions may name module constants.
func (r *reader) torchSample(n *node, vars map[string]*sample) *sample {
	if n.Kind() != "call" {
		return nil
	}
	callee := r.dotted(n.ChildByFieldId(fldFunction))
	args := r.kids(n.ChildByFieldId(fldArguments))
	dt := ir.FP32
	var pos []*node
	for _, a := range args {
		if a.Kind() != "keyword_argument" {
			pos = append(pos, a)
			continue
		}
		if r.text(a.ChildByFieldId(fldName)) == "dtype" {
			d, ok := torchDTypes[r.dotted(a.ChildByFieldId(fldValue))]
			if !ok {
				return nil
			}
			dt = d
		}
	}
	switch callee {
	case "torch.zeros_like", "torch.ones_like", "torch.empty_like", "torch.randn_like", "torch.rand_like":
		if len(pos) == 1 && pos[0].Kind() == "identifier" {
			if s := vars[r.text(pos[0])]; s != nil {
				c := *s
				return &c
			}
		}
		return nil
	case "torch.full":
		if len(pos) != 2 {
			return nil
		}
		pos = pos[:1]
	case "torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn":
	default:
		return nil
	}
	var dims []*node
	if len(pos) == 1 && (pos[0].Kind() == "tuple" || pos[0].Kind() == "list") {
		dims = r.kids(pos[0])
	} else {
		dims = pos
	}
	if len(dims) == 0 {
		return nil
	}
	s := &sample{dt: dt}
	for _, d := range dims {
		v, err := r.tryEval(d, r.globalEnv())
		n, ok := v.(int64)
		if err != nil || !ok || n <= 0 {
			return nil
		}
		s.shape = append(s.shape, n)
	}
	return s
}

// bareTensor reports whether a parameter annotation is a bare pl.Tensor,
// alone or in pl.Out[...] / pl.InOut[...] (its direction then).
func (r *reader) bareTensor(t *node) (dir ir.ParamDirection, ok bool) {
	if t.Kind() == "type" {
		t = r.kids(t)[0]
	}
	dir = ir.In
	if t.Kind() == "subscript" {
		switch r.dotted(t.ChildByFieldId(fldValue)) {
		case "pl.Out":
			dir = ir.Out
		case "pl.InOut":
			dir = ir.InOut
		default:
			return 0, false
		}
		subs := r.subscriptArgs(t)
		if len(subs) != 1 {
			return 0, false
		}
		t = subs[0]
	}
	return dir, r.dotted(t) == "pl.Tensor"
}

// hasBareTensor reports whether a def has a bare pl.Tensor parameter.
func (r *reader) hasBareTensor(def *node) bool {
	for _, p := range r.kids(def.ChildByFieldId(fldParameters)) {
		if p.Kind() == "typed_parameter" {
			if _, bare := r.bareTensor(p.ChildByFieldId(fldType)); bare {
				return true
			}
		}
	}
	return false
}

// specialized is the type a call in the __main__ block gives parameter i
// of fn; ok false when no call sizes it.
func (r *reader) specialized(fn string, i int) (ir.Type, bool) {
	if ts, ok := r.argTypes[fn]; ok {
		if i < len(ts) {
			if tt, ok := ts[i].(*ir.TensorType); ok {
				return tt, true
			}
		}
		return nil, false
	}
	args := r.specs[fn]
	if i >= len(args) || args[i] == nil {
		return nil, false
	}
	s := args[i]
	shape := make([]ir.Expr, len(s.shape))
	for k, d := range s.shape {
		shape[k] = ir.Int(d)
	}
	return &ir.TensorType{Shape: shape, DType: s.dt}, true
}

// argSample is the sample an argument passes: a sample variable, x.clone()
// (or .contiguous(), .detach()) of one, or a torch constructor itself.
func (r *reader) argSample(a *node, vars map[string]*sample) *sample {
	switch a.Kind() {
	case "identifier":
		return vars[r.text(a)]
	case "call":
		if f := a.ChildByFieldId(fldFunction); f != nil && f.Kind() == "attribute" {
			switch r.text(f.ChildByFieldId(fldAttribute)) {
			case "clone", "contiguous", "detach":
				if len(r.kids(a.ChildByFieldId(fldArguments))) == 0 {
					return r.argSample(f.ChildByFieldId(fldObject), vars)
				}
			}
		}
		return r.torchSample(a, vars)
	}
	return nil
}
