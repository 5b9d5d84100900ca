//go:build cgo

package pyfront

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Upstream's @pl.jit compiles an entry when Python calls it, specialized
// on the arguments: a bare pl.Tensor parameter takes its argument's shape
// and dtype, a scalar parameter its value. The reader sizes an entry from
// the calls in the file's __main__ block (samples.go); Specialize is the
// same call made from Go, for an entry the file never calls (a kernel
// kept for codegen tests) or for other sizes than the file's own.

// Specialize builds the program of @pl.jit entry name as a call with args
// specializes it: each arg is a tensor type (*ir.TensorType with a static
// shape) for a tensor parameter, or a Go int, float or bool for a scalar
// one, in parameter order.
func (m *Module) Specialize(name string, args ...any) (prog *ir.Program, err error) {
	j := m.jits[name]
	if j == nil || !m.entries[name] {
		switch {
		case j != nil:
			return nil, fmt.Errorf("%s: %s is a @pl.jit.%s kernel, which a program holds through the entry that calls it; specialize that entry", m.File, name, j.kind)
		case m.facs[name] != nil:
			return nil, fmt.Errorf("%s: %s is a factory; call it with Call(%q, args...)", m.File, name, name)
		case m.progs[name] != nil:
			return nil, fmt.Errorf("%s: %s is a @pl.program class, whose types are written out; use Program(%q)", m.File, name, name)
		}
		return nil, fmt.Errorf("%s: no @pl.jit entry named %q (the module's entries: %s)", m.File, name, m.entryList())
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	defer m.r.recoverTo(&err)
	return m.r.specialize(j, m.jits, args), nil
}

func (m *Module) entryList() string {
	var names []string
	for _, n := range m.order {
		if m.entries[n] {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// jitParam is one parameter of a jit function as a call binds it.
type jitParam struct {
	name string
	at   *node // its annotation
	bare bool  // a bare pl.Tensor (or pl.Out / pl.InOut of one)
}

func (r *reader) jitParams(def *node) []jitParam {
	var out []jitParam
	for i, p := range r.kids(def.ChildByFieldId(fldParameters)) {
		switch p.Kind() {
		case "identifier":
			if i == 0 && r.text(p) == "self" {
				continue
			}
			out = append(out, jitParam{name: r.text(p), at: p})
		case "typed_parameter":
			t := p.ChildByFieldId(fldType)
			_, bare := r.bareTensor(t)
			out = append(out, jitParam{name: r.text(r.kids(p)[0]), at: t, bare: bare})
		default:
			out = append(out, jitParam{name: r.text(p), at: p})
		}
	}
	return out
}

// specialize builds entry j's program with args standing for the call's
// arguments.
func (r *reader) specialize(j *jitFunc, byName map[string]*jitFunc, args []any) *ir.Program {
	params := r.jitParams(j.def)
	if len(args) != len(params) {
		names := make([]string, len(params))
		for i, p := range params {
			names[i] = p.name
		}
		r.fail(j.def, "%s takes %d arguments (%s), given %d", j.name, len(params), strings.Join(names, ", "), len(args))
	}
	samples := make([]*sample, len(args))
	given := make([]ir.Type, len(args))
	for i, a := range args {
		p := params[i]
		switch x := a.(type) {
		case *ir.TensorType:
			dims, ok := ir.StaticDims(x.Shape)
			if !ok {
				r.fail(p.at, "%s: argument %d (%s): a call passes a tensor of a known shape, given %s", j.name, i+1, p.name, x)
			}
			samples[i] = &sample{shape: dims, dt: x.DType}
			given[i] = x
		default:
			v, err := goValue(a)
			switch v.(type) {
			case int64, float64, bool:
			default:
				err = fmt.Errorf("given %T", a)
			}
			if err != nil {
				r.fail(p.at, "%s: argument %d (%s): expected a tensor or a Go int, float or bool, %v", j.name, i+1, p.name, err)
			}
			if p.bare {
				r.fail(p.at, "%s: argument %d (%s) is a bare pl.Tensor parameter and takes a tensor, given %s", j.name, i+1, p.name, describe(v))
			}
			samples[i] = &sample{scalar: v}
		}
	}
	saved, hadSaved := r.specs[j.name]
	if r.specs == nil {
		r.specs = map[string][]*sample{}
	}
	r.specs[j.name] = samples
	defer func() {
		if hadSaved {
			r.specs[j.name] = saved
		} else {
			delete(r.specs, j.name)
		}
	}()
	prog := r.jitProgram(j, byName)
	// An annotated parameter keeps its annotation: the argument must fit it.
	fn := prog.Function(j.name)
	for i, p := range fn.Params {
		if i >= len(args) {
			break
		}
		_, isScalar := p.Type().(*ir.ScalarType)
		switch {
		case given[i] == nil && !isScalar:
			r.fail(params[i].at, "%s: argument %d (%s): expected a tensor of type %s, given %s", j.name, i+1, params[i].name, p.Type(), describe(samples[i].scalar))
		case given[i] == nil && isScalar:
			if _, ok := scalarConst(p.Type().(*ir.ScalarType), samples[i].scalar); !ok {
				r.fail(params[i].at, "%s: argument %d (%s): expected a value of type %s, given %s", j.name, i+1, params[i].name, p.Type(), describe(samples[i].scalar))
			}
		case given[i] != nil && isScalar:
			r.fail(params[i].at, "%s: argument %d (%s): expected a scalar of type %s, given the tensor type %s", j.name, i+1, params[i].name, p.Type(), given[i])
		case given[i] != nil && !params[i].bare && p.Type().String() != given[i].String():
			r.fail(params[i].at, "%s: argument %d (%s): expected %s (its annotation), given %s", j.name, i+1, params[i].name, p.Type(), given[i])
		}
	}
	return prog
}
