// Package passes is ptorepl's pass pipeline: the distributed-relevant subset of
// PyPTO's Default strategy (ConvertToSSA, FlattenCallExpr, OutlineHierarchyScopes,
// OutlineIncoreScopes, ConvertTensorToTileOps,
// LowerCompositeOps, InferTileMemorySpace, InitMemRef, AllocateMemoryAddr,
// SynthesizeAllReduceSignals, MaterializeCommDomainScopes,
// LowerHostTensorCollectives, MaterializeDistTensorCtx, InsertCommFence), in
// upstream order and under upstream names. The seed-era passes stay
// available as functions to put in a custom table: CollectCommGroups (in
// place of MaterializeCommDomainScopes) and LowerCompositeOpsSeed1746.
//
// Passes are rows of one ordered table. Each pass takes a program and returns
// a new one without mutating its input (unchanged subtrees are shared). A
// row declares the properties it requires, establishes and invalidates;
// every driver (Pipeline, Lower, RunUntil, RunPass) refuses to run a pass
// whose requirement is neither established earlier nor visible in the
// program itself. A
// Pipeline runs the table one pass at a time with hooks before and after each
// pass; Compile runs it to the end, prints every stage, diffs it against the
// previous one, and emits PTO-MLIR and the comm manifest.
//
// The exported API has no generics: cells call it from the Yaegi interpreter.
package passes

import (
	"fmt"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/printer"
)

// Property is an IR property a pass requires, establishes or invalidates.
type Property string

// Properties the pipeline tracks.
const (
	StructuredCtrlFlow        Property = "StructuredCtrlFlow"
	SSAForm                   Property = "SSAForm"
	CallsFlattened            Property = "NoNestedCall"
	HierarchyOutlined         Property = "HierarchyOutlined"
	IncoreOutlined            Property = "SplitIncoreOrch"
	TileOps                   Property = "TileOpsConverted"
	CompositesLowered         Property = "CompositeOpsLowered"
	TilesFlattened            Property = "TileOps2D"
	TileMemoryInferred        Property = "TileMemorySpaceInferred"
	MemRefsInitialized        Property = "MemRefsInitialized"
	AddressesAllocated        Property = "MemoryAddressesAllocated"
	CommGroupsCollected       Property = "CommGroupsCollected"
	AllReduceSignals          Property = "AllReduceSignalsSynthesized"
	CommDomainScopes          Property = "CommDomainScopesMaterialized"
	HostCollectivesLowered    Property = "HostTensorCollectivesLowered"
	DistTensorCtxMaterialized Property = "DistTensorCtxMaterialized"
	CommFencesInserted        Property = "CommFencesInserted"
)

// PassFunc transforms a program into a new one. It must not mutate its input.
type PassFunc func(p *ir.Program) (*ir.Program, error)

// Pass is one row of the pass table. Before running a pass the pipeline
// checks that every property it Requires was established by an earlier pass
// and not invalidated since, or holds of the program as it stands (Holds);
// otherwise the pass does not run and the error names it and the property.
type Pass struct {
	Name        string
	Run         PassFunc
	Requires    []Property
	Establishes []Property
	Invalidates []Property
	Doc         string
}

// Table is the pipeline, in upstream order (passes.md "Minimal pipeline", with
// CtrlFlowTransform, upstream's pass 3, before ConvertToSSA and
// FlattenCallExpr, upstream's pass 7, after it).
func Table() []Pass {
	return []Pass{
		{Name: "CtrlFlowTransform", Run: CtrlFlowTransform, Establishes: []Property{StructuredCtrlFlow},
			Doc: "Lower break and continue: a continue ends its branch, a break sets a flag the loop tests (a for loop with one becomes a while over a counter); in a loop that carries values each branch yields them into the if's phi."},
		{Name: "ConvertToSSA", Run: ConvertToSSA, Requires: []Property{StructuredCtrlFlow}, Establishes: []Property{SSAForm},
			Doc: "Version every reassignment: loop-carried values become iter_args fed by pl.yield_, ifs get return_vars."},
		{Name: "FlattenCallExpr", Run: FlattenCallExpr, Requires: []Property{SSAForm}, Establishes: []Property{CallsFlattened},
			Doc: "Hoist calls nested in call arguments, operators, if conditions, for bounds, returns and yields into t__tmp_vN temporaries."},
		{Name: "OutlineHierarchyScopes", Run: OutlineHierarchyScopes, Requires: []Property{SSAForm}, Establishes: []Property{HierarchyOutlined},
			Doc: "Make each with pl.at(level=..., role=...) scope a function at that level and role, and the scope a call of it."},
		{Name: "OutlineIncoreScopes", Run: OutlineIncoreScopes, Requires: []Property{SSAForm}, Establishes: []Property{IncoreOutlined},
			Doc: "Make each with pl.at(level=pl.Level.CORE_GROUP) scope an InCore function, and the scope a call of it."},
		{Name: "ConvertTensorToTileOps", Run: ConvertTensorToTileOps, Requires: []Property{SSAForm}, Establishes: []Property{TileOps},
			Doc: "Lift put/get staging tiles into IR, lower tensor ops and remote_store to tile form, upgrade parameter directions."},
		{Name: "LowerCompositeOps", Run: LowerCompositeOps, Requires: []Property{TileOps}, Establishes: []Property{CompositesLowered},
			Doc: "Expand InCore collectives (allreduce, barrier, broadcast, allgather, reduce_scatter, all_to_all) into notify/wait/remote_load recipes, and tile.sin / tile.cos into FP32 range reduction and a polynomial."},
		{Name: "FlattenTileNdTo2D", Run: FlattenTileNdTo2D, Requires: []Property{CompositesLowered}, Establishes: []Property{TilesFlattened},
			Doc: "Unroll each tile.batch_matmul into one 2-D tile.matmul per batch (ptorepl's PTO lays other N-D tiles out as 2-D already)."},
		{Name: "InferTileMemorySpace", Run: InferTileMemorySpace, Requires: []Property{CompositesLowered, TilesFlattened}, Establishes: []Property{TileMemoryInferred},
			Doc: "Give every tile without a memory space the Vec space."},
		{Name: "InitMemRef", Run: InitMemRef, Requires: []Property{TileMemoryInferred}, Establishes: []Property{MemRefsInitialized},
			Doc: "Attach a MemRef to every tensor and tile variable and allocate on-chip buffers."},
		{Name: "AllocateMemoryAddr", Run: AllocateMemoryAddr, Requires: []Property{MemRefsInitialized}, Establishes: []Property{AddressesAllocated},
			Doc: "Assign 32-byte-aligned addresses per memory space."},
		{Name: "SynthesizeAllReduceSignals", Run: SynthesizeAllReduceSignals, Establishes: []Property{AllReduceSignals},
			Doc: "Give each signal-less host allreduce a signal: one per data-buffer lineage, allocated at the top of the host orchestrator."},
		{Name: "MaterializeCommDomainScopes", Run: MaterializeCommDomainScopes, Requires: []Property{AllReduceSignals}, Establishes: []Property{CommDomainScopes},
			Doc: "Infer the comm domains from window allocations, device= dispatches and host collectives; bind views to their window buffer."},
		// Its per-device loops run over pl.range(pld.system.world_size()), a
		// call in a for bound, as upstream's do.
		{Name: "LowerHostTensorCollectives", Run: LowerHostTensorCollectives, Requires: []Property{CommDomainScopes}, Establishes: []Property{HostCollectivesLowered}, Invalidates: []Property{CallsFlattened},
			Doc: "Turn each host collective into one builtin.tensor dispatch per device of its comm domain."},
		{Name: "MaterializeDistTensorCtx", Run: MaterializeDistTensorCtx, Requires: []Property{CommDomainScopes}, Establishes: []Property{DistTensorCtxMaterialized},
			Doc: "Pass one CommCtx parameter per DistributedTensor parameter; replace get_comm_ctx in device functions."},
		{Name: "InsertCommFence", Run: InsertCommFence, Requires: []Property{TileOps, CompositesLowered}, Establishes: []Property{CommFencesInserted},
			Doc: "Insert cache invalidations and fences after publishing writes and waits."},
	}
}

// SeedCommGroupsTable is Table with the seed's CollectCommGroups (#1369) in
// place of main's host rail (SynthesizeAllReduceSignals,
// MaterializeCommDomainScopes, LowerHostTensorCollectives): host
// collectives stay as they are written.
func SeedCommGroupsTable() []Pass {
	var out []Pass
	for _, p := range Table() {
		switch p.Name {
		case "SynthesizeAllReduceSignals", "LowerHostTensorCollectives":
			continue
		case "MaterializeCommDomainScopes":
			p = Pass{Name: "CollectCommGroups", Run: CollectCommGroups, Establishes: []Property{CommGroupsCollected, CommDomainScopes},
				Doc: "Infer the program's comm groups from window allocations and device= dispatches; bind views to their window buffer (seed #1369)."}
		}
		out = append(out, p)
	}
	return out
}

// PassNames lists the pass names in pipeline order.
func PassNames() []string {
	t := Table()
	out := make([]string, len(t))
	for i, p := range t {
		out[i] = p.Name
	}
	return out
}

// Stage is the program after one pass (or the input, named "Input").
type Stage struct {
	Name     string
	Program  *ir.Program
	Text     string
	Changed  bool
	Diff     string
	Duration time.Duration
}

// Hook runs before (Before) or after (After) each pass. A non-nil error stops
// the pipeline; Before sees the stage about to be transformed (with Name set to
// the pass that will run), After the stage the pass produced.
type Hook struct {
	Name   string
	Before func(stage Stage) error
	After  func(stage Stage) error
}

// AfterEach makes a hook that runs fn after every pass, e.g. a verifier:
// passes.AfterEach("verify", func(s passes.Stage) error { ... }).
func AfterEach(name string, fn func(stage Stage) error) Hook { return Hook{Name: name, After: fn} }

// Pipeline runs the pass table one pass at a time.
type Pipeline struct {
	passes []Pass
	hooks  []Hook
	cur    Stage
	next   int
	stages []Stage
	have   map[Property]bool
	err    error
}

// NewPipeline starts a pipeline on p with the default pass table.
func NewPipeline(p *ir.Program, hooks ...Hook) *Pipeline {
	return NewPipelineWith(p, Table(), hooks...)
}

// NewPipelineWith starts a pipeline with a custom pass list.
func NewPipelineWith(p *ir.Program, table []Pass, hooks ...Hook) *Pipeline {
	in := Stage{Name: "Input", Program: p, Text: printer.Program(p), Changed: true}
	return &Pipeline{passes: table, hooks: hooks, cur: in, stages: []Stage{in}, have: map[Property]bool{}}
}

// Passes lists the names of the pipeline's passes in order.
func (pl *Pipeline) Passes() []string {
	out := make([]string, len(pl.passes))
	for i, p := range pl.passes {
		out[i] = p.Name
	}
	return out
}

// Done reports whether every pass has run.
func (pl *Pipeline) Done() bool { return pl.next >= len(pl.passes) || pl.err != nil }

// Current is the latest stage.
func (pl *Pipeline) Current() Stage { return pl.cur }

// Stages lists the input and every stage produced so far.
func (pl *Pipeline) Stages() []Stage { return append([]Stage(nil), pl.stages...) }

// Step runs the next pass. It returns the new stage and true, or false when
// the pipeline is finished; an error stops the pipeline for good.
func (pl *Pipeline) Step() (Stage, bool, error) {
	if pl.err != nil {
		return pl.cur, false, pl.err
	}
	if pl.next >= len(pl.passes) {
		return pl.cur, false, nil
	}
	ps := pl.passes[pl.next]
	pl.next++
	before := pl.cur
	before.Name = ps.Name
	for _, h := range pl.hooks {
		if h.Before != nil {
			if err := h.Before(before); err != nil {
				pl.err = fmt.Errorf("%s (before %s): %w", hookName(h), ps.Name, err)
				return pl.cur, false, pl.err
			}
		}
	}
	if err := checkRequires(ps, pl.cur.Program, pl.have, pl.passes); err != nil {
		pl.err = err
		return pl.cur, false, pl.err
	}
	start := time.Now()
	out, err := runPass(ps, pl.cur.Program)
	dur := time.Since(start)
	if err == nil {
		err = checkEstablishes(ps, out)
	}
	if err != nil {
		pl.err = fmt.Errorf("%s: %w", ps.Name, err)
		return pl.cur, false, pl.err
	}
	text := printer.Program(out)
	st := Stage{Name: ps.Name, Program: out, Text: text, Changed: text != pl.cur.Text, Duration: dur}
	if st.Changed {
		st.Diff = UnifiedDiff(pl.cur.Name, ps.Name, pl.cur.Text, text)
	}
	record(ps, pl.have)
	pl.cur = st
	pl.stages = append(pl.stages, st)
	for _, h := range pl.hooks {
		if h.After != nil {
			if err := h.After(st); err != nil {
				pl.err = fmt.Errorf("%s (after %s): %w", hookName(h), ps.Name, err)
				return st, false, pl.err
			}
		}
	}
	return st, true, nil
}

// Run steps to the end and returns the last stage.
func (pl *Pipeline) Run() (Stage, error) {
	for {
		_, ok, err := pl.Step()
		if err != nil {
			return pl.cur, err
		}
		if !ok {
			return pl.cur, nil
		}
	}
}

func hookName(h Hook) string {
	if h.Name == "" {
		return "hook"
	}
	return h.Name
}

// runPass turns a pass's panic (a compiler bug, or an ir.MustCall on bad
// input) into an error naming the pass.
func runPass(ps Pass, p *ir.Program) (out *ir.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	out, err = ps.Run(p)
	if err == nil && out == nil {
		err = fmt.Errorf("pass returned no program")
	}
	return out, err
}

// RunPass runs one pass by name on p: a pass of the table, or one of the
// seed-era passes (CollectCommGroups, LowerCompositeOpsSeed1746). With no
// pass history, each property the pass requires must hold of p itself.
func RunPass(name string, p *ir.Program) (*ir.Program, error) {
	table := append(Table(), seedPasses()...)
	for _, ps := range table {
		if ps.Name == name {
			if err := checkRequires(ps, p, nil, table); err != nil {
				return nil, err
			}
			return runPass(ps, p)
		}
	}
	return nil, fmt.Errorf("no pass named %q (passes: %v)", name, PassNames())
}

// seedPasses are the seed-era passes RunPass knows besides the table's.
func seedPasses() []Pass {
	var out []Pass
	for _, ps := range SeedCommGroupsTable() {
		if ps.Name == "CollectCommGroups" {
			out = append(out, ps)
		}
	}
	for _, ps := range Table() {
		if ps.Name == "LowerCompositeOps" {
			ps.Name, ps.Run = "LowerCompositeOpsSeed1746", LowerCompositeOpsSeed1746
			out = append(out, ps)
		}
	}
	return out
}

// RunUntil runs the pipeline up to and including the named pass.
func RunUntil(p *ir.Program, name string) (*ir.Program, error) {
	return runTable(p, Table(), name)
}

// Lower runs every pass of the table with no instrumentation (no printing,
// diffs or hooks): what a compiler driver does when nobody watches the
// stages. Pass contracts are still checked.
func Lower(p *ir.Program) (*ir.Program, error) {
	return runTable(p, Table(), "")
}

// runTable runs table on p, checking each pass's requirements, up to and
// including the pass named until (to the end when until is empty).
func runTable(p *ir.Program, table []Pass, until string) (*ir.Program, error) {
	have := map[Property]bool{}
	for _, ps := range table {
		if err := checkRequires(ps, p, have, table); err != nil {
			return nil, err
		}
		var err error
		if p, err = runPass(ps, p); err != nil {
			return nil, fmt.Errorf("%s: %w", ps.Name, err)
		}
		record(ps, have)
		if ps.Name == until {
			return p, nil
		}
	}
	if until != "" {
		return nil, fmt.Errorf("no pass named %q", until)
	}
	return p, nil
}
