package pto

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Options select the dialect flavour of the emitted text.
type Options struct {
	// Arch is the pto.target_arch: "a2a3" (Ascend910B, the default when
	// empty) or "a5" (Ascend950).
	Arch string
	// Generic prints every operation in MLIR's generic form.
	Generic bool
	// InlineRemoteOffset emits PyPTO main's inline peer-offset sequence at
	// each remote op instead of calls to the #1548 @CommRemoteOffset_<dtype>
	// helper functions.
	InlineRemoteOffset bool
	// NoAddresses leaves `addr = ` off pto.alloc_tile (PTOAS then places tiles).
	NoAddresses bool
}

// Module is the PTO-MLIR module of one function.
type Module struct {
	Function string
	Text     string
}

// FacetKey is the op-registry facet under which an op carries its Emitter.
const FacetKey = "pto"

// Emitter lowers one call of an op. result is the variable the call is
// assigned to, or nil for a call statement. An emitter that produces a value
// binds result (tiles, scalars) or aliases it (tensors, contexts).
type Emitter func(c *Ctx, call *ir.Call, result *ir.Var) error

// Register attaches e as the op's PTO emitter.
func Register(op *ir.OpDef, e Emitter) { op.SetFacet(FacetKey, e) }

// noEmitterKey is the facet under which an op without an emitter says why.
const noEmitterKey = "pto.none"

// NoEmitter records that op deliberately has no PTO emitter and why (it
// runs on the host, or a pass lowers it before codegen): codegen of such a
// call reports the reason, and the op coverage check accepts the op.
func NoEmitter(op *ir.OpDef, why string) { op.SetFacet(noEmitterKey, why) }

// Coverage reports whether op has a PTO emitter, or else the reason it
// declared for having none ("" when it declared nothing).
func Coverage(op *ir.OpDef) (emitter bool, noEmitter string) {
	if _, ok := emitterOf(op); ok {
		return true, ""
	}
	if v, ok := op.Facet(noEmitterKey); ok {
		return false, v.(string)
	}
	return false, ""
}

// emitterOf returns the op's emitter, if it has one.
func emitterOf(d *ir.OpDef) (Emitter, bool) {
	f, ok := d.Facet(FacetKey)
	if !ok {
		return nil, false
	}
	e, ok := f.(Emitter)
	return e, ok
}

// Emittable reports whether functions of this kind become PTO modules:
// InCore functions, and the AIC/AIV kernels split from them.
func Emittable(fn *ir.Function) bool {
	return fn.Kind == ir.InCore || fn.Kind == ir.AIC || fn.Kind == ir.AIV
}

// Emit returns one module per InCore (or AIC/AIV) function of p, in program order.
func Emit(p *ir.Program, o Options) ([]Module, error) {
	var out []Module
	for _, fn := range p.Functions {
		if !Emittable(fn) {
			continue
		}
		text, err := EmitFunction(p, fn, o)
		if err != nil {
			return nil, err
		}
		out = append(out, Module{Function: fn.Name, Text: text})
	}
	return out, nil
}

// EmitFunction returns the module `module attributes {pto.target_arch = ...}
// { func.func @name(...) {...} ... }` of one InCore (or AIC/AIV) function.
func EmitFunction(p *ir.Program, fn *ir.Function, o Options) (text string, err error) {
	if fn == nil {
		return "", fmt.Errorf("pto: no function given")
	}
	if !Emittable(fn) {
		return "", fmt.Errorf("pto: function %s is a %s function; only InCore, AIC and AIV functions have PTO code", fn.Name, fn.Kind)
	}
	arch := o.Arch
	if arch == "" {
		arch = "a2a3"
	}
	if arch != "a2a3" && arch != "a5" {
		return "", fmt.Errorf("pto: unknown target arch %q (want \"a2a3\" or \"a5\")", o.Arch)
	}
	o.Arch = arch
	defer func() {
		if r := recover(); r != nil {
			text, err = "", fmt.Errorf("pto: function %s: internal error: %v", fn.Name, r)
		}
	}()
	m := &moduleState{o: o, helpers: map[string]int{}}
	f, err := emitFunc(p, fn, o, m)
	if err != nil {
		return "", err
	}
	body := append([]*operation{f}, m.helperOps()...)
	mod := &operation{name: "builtin.module",
		custom:  fmt.Sprintf("module attributes {pto.target_arch = %q} {", arch),
		attrs:   []attr{{"pto.target_arch", fmt.Sprintf("%q", arch)}},
		regions: []*region{{ops: body}}}
	pr := &mlirPrinter{generic: o.Generic}
	pr.op(mod, 0)
	return pr.b.String(), nil
}
