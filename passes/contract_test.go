package passes_test

import (
	"fmt"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/stretchr/testify/require"
)

func programNamed(t *testing.T, name string) *ir.Program {
	t.Helper()
	for _, tp := range testPrograms() {
		if tp.name == name {
			n := tp.staticN
			if n == 0 {
				n = 2
			}
			return tp.build(n).IR()
		}
	}
	t.Fatalf("no test program %q", name)
	return nil
}

func tableWithout(names ...string) []passes.Pass {
	var out []passes.Pass
	for _, ps := range passes.Table() {
		skip := false
		for _, n := range names {
			skip = skip || ps.Name == n
		}
		if !skip {
			out = append(out, ps)
		}
	}
	return out
}

// A pass whose requirement is unmet does not run: the error names the pass,
// the missing property and the pass that establishes it, by name (RunPass)
// and in a pipeline whose table leaves the establishing pass out.
func TestUnmetRequirementNamesPassAndProperty(t *testing.T) {
	until := func(prog, name string) func(*testing.T) *ir.Program {
		return func(t *testing.T) *ir.Program {
			p, err := passes.RunUntil(programNamed(t, prog), name)
			require.NoError(t, err)
			return p
		}
	}
	raw := func(t *testing.T) *ir.Program { return programNamed(t, "allreduce_sum") }
	// put_get stages its transfers in tensor form (pld.tensor.put / get),
	// allreduce_sum reassigns its data and carries an InCore allreduce.
	cases := []struct {
		name  string
		input func(*testing.T) *ir.Program
		run   func(*ir.Program) error
		want  string
	}{
		{"RunPass before SSA", raw, runPass("ConvertTensorToTileOps"),
			"ConvertTensorToTileOps requires SSA form (established by ConvertToSSA), which the program lacks"},
		{"RunPass before tile form", until("put_get", "ConvertToSSA"), runPass("LowerCompositeOps"),
			"LowerCompositeOps requires tile form (established by ConvertTensorToTileOps), which the program lacks"},
		{"seed variant before tile form", until("put_get", "ConvertToSSA"), runPass("LowerCompositeOpsSeed1746"),
			"LowerCompositeOpsSeed1746 requires tile form (established by ConvertTensorToTileOps), which the program lacks"},
		{"RunPass before memory spaces", until("allreduce_sum", "LowerCompositeOps"), runPass("InitMemRef"),
			"InitMemRef requires a memory space on every tile (established by InferTileMemorySpace), which the program lacks"},
		{"RunPass before memrefs", until("allreduce_sum", "InferTileMemorySpace"), runPass("AllocateMemoryAddr"),
			"AllocateMemoryAddr requires memrefs assigned (established by InitMemRef), which the program lacks"},
		{"pipeline without ConvertToSSA", raw, pipeline(tableWithout("ConvertToSSA")),
			"FlattenCallExpr requires SSA form (established by no pass of the pipeline), which the program lacks"},
		{"pipeline without InferTileMemorySpace", raw, pipeline(tableWithout("InferTileMemorySpace")),
			"InitMemRef requires a memory space on every tile (established by no pass of the pipeline), which the program lacks"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run(tc.input(t))
			require.Error(t, err)
			require.Equal(t, tc.want, err.Error())
		})
	}
}

func runPass(name string) func(*ir.Program) error {
	return func(p *ir.Program) error { _, err := passes.RunPass(name, p); return err }
}

func pipeline(table []passes.Pass) func(*ir.Program) error {
	return func(p *ir.Program) error {
		pp := passes.NewPipelineWith(p, table, verifyHook())
		_, err := pp.Run()
		return err
	}
}

// Properties are checked on the program, not only taken from pass history:
// a program serialized after a stage and read back satisfies what that stage
// established, so RunPass accepts it without the earlier passes.
func TestRequirementsHoldAfterDeserialization(t *testing.T) {
	for _, tp := range testPrograms() {
		t.Run(tp.name, func(t *testing.T) {
			n := tp.staticN
			if n == 0 {
				n = 2
			}
			pp := passes.NewPipeline(tp.build(n).IR(), verifyHook())
			stages := []passes.Stage{pp.Current()}
			for {
				st, ok, err := pp.Step()
				require.NoError(t, err)
				if !ok {
					break
				}
				stages = append(stages, st)
			}
			names := passes.PassNames()
			for i, name := range names {
				data, err := ir.MarshalProgram(stages[i].Program)
				require.NoError(t, err)
				back, err := ir.UnmarshalProgram(data)
				require.NoError(t, err)
				_, err = passes.RunPass(name, back)
				require.NoError(t, err, "%s on the deserialized output of %s", name, stages[i].Name)
			}
		})
	}
}

// Establishes is checked too: a pass claiming a property its output lacks
// stops the pipeline, and Invalidates drops a property only known from
// history.
func TestEstablishesAndInvalidates(t *testing.T) {
	raw := programNamed(t, "allreduce_sum")
	require.False(t, passes.Holds(passes.SSAForm, raw))
	identity := func(p *ir.Program) (*ir.Program, error) { return p, nil }

	liar := []passes.Pass{{Name: "Liar", Run: identity, Establishes: []passes.Property{passes.SSAForm}}}
	_, err := passes.NewPipelineWith(raw, liar).Run()
	require.EqualError(t, err, "Liar: Liar claims to establish SSA form, but its output lacks it")

	// CommFencesInserted has no check: only pass history knows it.
	mark := passes.Pass{Name: "Mark", Run: identity, Establishes: []passes.Property{passes.CommFencesInserted}}
	drop := passes.Pass{Name: "Drop", Run: identity, Invalidates: []passes.Property{passes.CommFencesInserted}}
	need := passes.Pass{Name: "Need", Run: identity, Requires: []passes.Property{passes.CommFencesInserted}}
	_, err = passes.NewPipelineWith(raw, []passes.Pass{mark, need}).Run()
	require.NoError(t, err)
	_, err = passes.NewPipelineWith(raw, []passes.Pass{mark, drop, need}).Run()
	require.EqualError(t, err, "Need requires fences inserted (established by Mark), which the program lacks")
}

// The verifier hook runs after every pass of the pipeline and stops it at
// the pass that broke the IR.
func TestVerifierRunsAfterEveryPass(t *testing.T) {
	for _, tp := range testPrograms() {
		p := programNamed(t, tp.name)
		var seen []string
		count := passes.AfterEach("count", func(s passes.Stage) error { seen = append(seen, s.Name); return nil })
		_, err := passes.NewPipeline(p, verifyHook(), count).Run()
		require.NoError(t, err, tp.name)
		require.Equal(t, passes.PassNames(), seen, tp.name)
	}
	// A pass that binds a name twice after SSA form is caught right after it.
	dup := func(p *ir.Program) (*ir.Program, error) {
		q := p.Clone()
		for i, fn := range q.Functions {
			if fn.Kind == ir.InCore {
				g := fn.Clone()
				stmts := ir.Flatten(g.Body)
				g.Body = ir.Seq(append([]ir.Stmt{stmts[0]}, stmts...)...)
				q.Functions[i] = g
				return q, nil
			}
		}
		return nil, fmt.Errorf("no InCore function")
	}
	table := append(passes.Table()[:2:2], passes.Pass{Name: "Duplicate", Run: dup})
	_, err := passes.NewPipelineWith(programNamed(t, "allreduce_sum"), table, verifyHook()).Run()
	require.ErrorContains(t, err, "verify (after Duplicate)")
	require.ErrorContains(t, err, "assigned more than once")
}

// The parameter-direction fixpoint fails loudly, naming the pass, when it
// does not converge within its bound (forced here by capping the rounds).
func TestDirectionFixpointBound(t *testing.T) {
	p := programNamed(t, "allreduce_sum")
	restore := passes.SetDirectionRoundsCap(1)
	_, err := passes.Lower(p)
	restore()
	require.Error(t, err)
	require.Contains(t, err.Error(), "ConvertTensorToTileOps: the parameter-direction fixpoint did not converge within 1 rounds")
	_, err = passes.Lower(p)
	require.NoError(t, err, "the derived bound suffices")
}
