package passes

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/printer"
)

// propertyInfo is what the pipeline knows about a property: how to say it in
// an error, and how to test a program for it. Checks look at the program
// itself rather than at which passes ran, so a program read back from printed
// text at some stage still has what it has.
type propertyInfo struct {
	desc  string
	check func(p *ir.Program) bool
	// rerun marks a check that reruns the main establishing pass: it tells
	// whether a program needs that pass, not whether another pass (a seed
	// variant) did its job, so it is not used to check a pass's output.
	rerun bool
}

// properties lists every property a pass of the table requires, with its
// check. A property missing here (or with a nil check) is known only from the
// passes that established it.
var properties = map[Property]propertyInfo{
	StructuredCtrlFlow:        {desc: "no break or continue", check: structuredCtrlFlow},
	SSAForm:                   {desc: "SSA form", check: inSSAForm},
	CallsFlattened:            {desc: "no nested calls", check: callsFlat},
	TileOps:                   {desc: "tile form", check: inTileForm},
	CompositesLowered:         {desc: "InCore collectives lowered", check: compositesLowered},
	TilesFlattened:            {desc: "no batched tile matmul", check: noBatchMatmul},
	TileMemoryInferred:        {desc: "a memory space on every tile", check: tileMemoryInferred},
	MemRefsInitialized:        {desc: "memrefs assigned", check: memRefsInitialized},
	AddressesAllocated:        {desc: "addresses assigned"},
	CommGroupsCollected:       {desc: "comm groups collected"},
	AllReduceSignals:          {desc: "a signal on every host allreduce", check: allReduceSignalsSynthesized},
	CommDomainScopes:          {desc: "comm domains materialized", check: commDomainsMaterialized, rerun: true},
	HostCollectivesLowered:    {desc: "host collectives lowered"},
	DistTensorCtxMaterialized: {desc: "dist ctx materialized", check: distCtxMaterialized},
	CommFencesInserted:        {desc: "fences inserted"},
}

func (p Property) desc() string {
	if in, ok := properties[p]; ok {
		return in.desc
	}
	return string(p)
}

// Holds reports whether program p has property prop, by looking at p. It
// reports false for a property that can only be known from pass history.
func Holds(prop Property, p *ir.Program) bool {
	in, ok := properties[prop]
	return ok && in.check != nil && in.check(p)
}

// establishers names the passes of table that establish prop.
func establishers(table []Pass, prop Property) string {
	var names []string
	for _, ps := range table {
		for _, e := range ps.Establishes {
			if e == prop {
				names = append(names, ps.Name)
			}
		}
	}
	if len(names) == 0 {
		return "no pass of the pipeline"
	}
	return strings.Join(names, " or ")
}

// checkRequires is the check the pipeline makes before running ps: every
// property ps requires was established by an earlier pass (have) or holds of
// p as it stands.
func checkRequires(ps Pass, p *ir.Program, have map[Property]bool, table []Pass) error {
	for _, r := range ps.Requires {
		if have[r] || Holds(r, p) {
			continue
		}
		return fmt.Errorf("%s requires %s (established by %s), which the program lacks", ps.Name, r.desc(), establishers(table, r))
	}
	return nil
}

// record updates have after ps ran.
func record(ps Pass, have map[Property]bool) {
	for _, i := range ps.Invalidates {
		delete(have, i)
	}
	for _, e := range ps.Establishes {
		have[e] = true
	}
}

// checkEstablishes is the check after ps: what it claims to establish holds
// of its output, where the property can be tested.
func checkEstablishes(ps Pass, out *ir.Program) error {
	for _, e := range ps.Establishes {
		if in, ok := properties[e]; ok && in.check != nil && !in.rerun && !in.check(out) {
			return fmt.Errorf("%s claims to establish %s, but its output lacks it", ps.Name, e.desc())
		}
	}
	return nil
}

// structuredCtrlFlow: no function breaks or continues.
func structuredCtrlFlow(p *ir.Program) bool {
	for _, fn := range p.Functions {
		if hasLoopEscape(fn.Body) {
			return false
		}
	}
	return true
}

// inSSAForm: no name is bound twice in a function (ConvertToSSA's own test).
func inSSAForm(p *ir.Program) bool {
	for _, fn := range p.Functions {
		for _, c := range bindCounts(fn) {
			if c > 1 {
				return false
			}
		}
	}
	return true
}

// inTileForm: no InCore statement is one ConvertTensorToTileOps rewrites.
func inTileForm(p *ir.Program) bool {
	return !anyInCoreStmt(p, tileLowerable)
}

// compositesLowered: no InCore call LowerCompositeOps expands is left.
func compositesLowered(p *ir.Program) bool {
	return !anyInCoreStmt(p, func(s ir.Stmt) bool {
		c := ir.StmtCall(s)
		return c != nil && c.Op != nil && compositeRules[c.Op] != nil
	})
}

// tileMemoryInferred: every InCore tile has a memory space.
func tileMemoryInferred(p *ir.Program) bool {
	return allInCoreDefs(p, func(v *ir.Var) bool {
		tt, ok := v.Type().(*ir.TileType)
		return !ok || tt.Memory != ir.MemNone
	})
}

// memRefsInitialized: every InCore tile carries a MemRef.
func memRefsInitialized(p *ir.Program) bool {
	return allInCoreDefs(p, func(v *ir.Var) bool {
		tt, ok := v.Type().(*ir.TileType)
		return !ok || tt.MemRef != nil
	})
}

// allReduceSignalsSynthesized: no host allreduce is left without a signal.
func allReduceSignalsSynthesized(p *ir.Program) bool {
	for _, fn := range p.Functions {
		if !fn.IsHostOrchestrator() {
			continue
		}
		missing := false
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			if c := directCall(s); isAllReduce(c) && len(c.Args) == 1 {
				missing = true
			}
		})
		if missing {
			return false
		}
	}
	return true
}

// commDomainsMaterialized: MaterializeCommDomainScopes is idempotent, so a
// program has its comm domains when the pass has nothing left to do. This
// check runs the pass; the pipeline only needs it when no earlier pass
// established the property (a program read back from text, RunPass).
func commDomainsMaterialized(p *ir.Program) bool {
	q, err := MaterializeCommDomainScopes(p)
	return err == nil && (q == p || printer.Program(q) == printer.Program(p))
}

// distCtxMaterialized: every device function taking a DistributedTensor
// takes its CommCtx too (what MaterializeDistTensorCtx adds).
func distCtxMaterialized(p *ir.Program) bool {
	for _, fn := range p.Functions {
		if fn.IsHostOrchestrator() || hasCtxParams(fn) {
			continue
		}
		for _, v := range fn.Params {
			if _, ok := v.Type().(*ir.DistributedTensorType); ok {
				return false
			}
		}
	}
	return true
}

func anyInCoreStmt(p *ir.Program, f func(ir.Stmt) bool) bool {
	found := false
	for _, fn := range p.Functions {
		if fn.Kind != ir.InCore {
			continue
		}
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			if !found && f(s) {
				found = true
			}
		})
	}
	return found
}

func allInCoreDefs(p *ir.Program, ok func(*ir.Var) bool) bool {
	all := true
	for _, fn := range p.Functions {
		if fn.Kind != ir.InCore {
			continue
		}
		forEachDef(fn, func(v *ir.Var) {
			if v != nil && !ok(v) {
				all = false
			}
		})
	}
	return all
}
