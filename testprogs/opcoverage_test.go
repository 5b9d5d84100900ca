package testprogs_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pto"
	"github.com/ptorepl/ptorepl/runtime"
)

// The op coverage check: an op is one registration in ir plus a part in
// each layer that handles it. checkOps lists, for a given set of ops, every
// part one of them lacks, so a forgotten emitter or simulator rule fails a
// test naming the op and the part instead of surfacing as a runtime error in
// some program that happens to use the op.

// Parts an op needs besides its registration.
const (
	partPTO      = "PTO emitter (pto.Register, or pto.NoEmitter with the reason it has none)"
	partSim      = "simulator semantics (runtime.Register)"
	partClass    = "op class (OpDef.Class: the timeline kind)"
	partEffects  = "effects (an op that stores to memory declares the argument it writes)"
	partSpelling = "printed spelling (OpDef.Callee, distinct from every other op's)"
	partDoc      = "doc (OpDef.Doc)"
)

// gap is one missing part of one op.
type gap struct{ op, part string }

func (g gap) String() string { return g.op + ": missing " + g.part }

// checkOps returns the gaps of ops, sorted by op then part.
func checkOps(ops []*ir.OpDef) []gap {
	var out []gap
	spelledBy := map[string]string{}
	for _, d := range ops {
		miss := func(part string) { out = append(out, gap{d.Name, part}) }
		if emitter, why := pto.Coverage(d); !emitter && why == "" {
			miss(partPTO)
		}
		if _, ok := d.Facet(runtime.FacetKey); !ok {
			miss(partSim)
		}
		if d.Class == ir.ClassUnset {
			miss(partClass)
		}
		if d.StoreUnit != "" && d.Effects == nil && !writesAnArg(d) {
			miss(partEffects)
		}
		callee := d.Callee(nil)
		if other, dup := spelledBy[callee]; callee == "" || dup {
			miss(partSpelling + fmt.Sprintf(" (%q is also %s)", callee, other))
		}
		spelledBy[callee] = d.Name
		if strings.TrimSpace(d.Doc) == "" {
			miss(partDoc)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].op < out[j].op })
	return out
}

func writesAnArg(d *ir.OpDef) bool {
	for _, a := range d.Args {
		if a.Effect == ir.Write || a.Effect == ir.ReadWrite {
			return true
		}
	}
	return false
}

// Every registered op has every part.
func TestEveryOpHasEveryPart(t *testing.T) {
	ops := ir.Ops()
	if len(ops) < 70 {
		t.Fatalf("the registry holds %d ops; expected the full set (is ir initialised?)", len(ops))
	}
	for _, g := range checkOps(ops) {
		t.Error(g)
	}
}

// throwaway builds an op outside the registry (so no other test sees it)
// with every part, then drops the ones named in without.
func throwaway(name string, without ...string) *ir.OpDef {
	skip := map[string]bool{}
	for _, p := range without {
		skip[p] = true
	}
	d := &ir.OpDef{Name: name, Category: "Test",
		Args:   []ir.ArgSpec{{Name: "dst", Effect: ir.Write}},
		Deduce: func(c *ir.DeduceCtx) (ir.Type, error) { return ir.Unknown, nil }}
	if !skip[partClass] {
		d.Class = ir.ClassCompute
	}
	if !skip[partDoc] {
		d.Doc = "A throwaway op for the coverage test."
	}
	d.StoreUnit = "dma"
	if skip[partEffects] {
		d.Args = []ir.ArgSpec{{Name: "dst"}} // stores, but declares no written argument
	}
	if !skip[partPTO] {
		pto.Register(d, func(*pto.Ctx, *ir.Call, *ir.Var) error { return nil })
	}
	if !skip[partSim] {
		runtime.Register(d, func(*runtime.Exec, *ir.Call, []any) (any, error) { return nil, nil })
	}
	if skip[partSpelling] {
		d.PrintName = "pl.tile.load" // another op's spelling
	}
	return d
}

// Removing any one part of an op makes the check report exactly that part
// of exactly that op; a complete op reports nothing.
func TestOpCoverageReportsTheMissingPart(t *testing.T) {
	require := func(cond bool, format string, args ...any) {
		t.Helper()
		if !cond {
			t.Fatalf(format, args...)
		}
	}
	require(len(checkOps([]*ir.OpDef{throwaway("test.complete")})) == 0,
		"a complete op reports %v", checkOps([]*ir.OpDef{throwaway("test.complete")}))
	for name, part := range map[string]string{"pto": partPTO, "sim": partSim, "class": partClass, "effects": partEffects, "spelling": partSpelling, "doc": partDoc} {
		t.Run(name, func(t *testing.T) {
			ops := []*ir.OpDef{throwaway("test.throwaway", part)}
			if part == partSpelling {
				ops = append([]*ir.OpDef{ir.TileLoad}, ops...)
			}
			gaps := checkOps(ops)
			if len(gaps) != 1 || gaps[0].op != "test.throwaway" || !strings.HasPrefix(gaps[0].part, part) {
				t.Fatalf("without %q: got %v, want exactly that part of test.throwaway", part, gaps)
			}
		})
	}
	// The case the issue names: an op registered with no PTO emitter and no
	// reason for having none.
	gaps := checkOps([]*ir.OpDef{throwaway("test.noemitter", partPTO)})
	require(len(gaps) == 1 && gaps[0].String() == "test.noemitter: missing "+partPTO, "got %v", gaps)
	// A declared reason satisfies the check.
	d := throwaway("test.hostonly", partPTO)
	pto.NoEmitter(d, "host-only")
	require(len(checkOps([]*ir.OpDef{d})) == 0, "a NoEmitter reason still reports %v", checkOps([]*ir.OpDef{d}))
	_, stillThere := ir.LookupOp("test.noemitter")
	require(!stillThere, "the throwaway op leaked into the registry")
}
