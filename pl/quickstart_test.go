package pl_test

import (
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/ptorepl/ptorepl/verify"
	"github.com/stretchr/testify/require"
)

const SIZE = 256

// quickstart is PyPTO's two-rank allreduce quickstart exactly as the DSL
// contract writes it, cell by cell.
func quickstart() *pl.Program { return testprogs.Quickstart() }

// The lines the foundation issue requires of the printed quickstart, in its
// source-names form (Program.Source).
func TestQuickstartPrints(t *testing.T) {
	requireLines(t, quickstart().Source(), []string{
		`NR = pl.dynamic("NR")`,
		`@pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)`,
		`pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]`,
		`for peer in pl.range(nranks):`,
		`if peer != my_rank:`,
		`pld.tile.remote_load(data, peer, [0, 0], [1, 256])`,
		`pld.tensor.window(data_buf, [1, 256], dtype=pl.FP32)`,
	})
	require.Regexp(t, `self\.chip_orch\(.*device=r\)`, quickstart().Source())
}

// String prints like PyPTO's printer, with its name-clash renaming
// (printer.md §8): the store rebinds data (a new variable, data_1) and the
// third loop's peer is a new variable too (peer_1).
func TestQuickstartPrintsWithPyPTORenaming(t *testing.T) {
	requireLines(t, quickstart().String(), []string{
		`pld.tile.remote_load(data_1, peer_1, [0, 0], [1, 256])`,
		`data_1: pld.DistributedTensor[[1, 256], pl.FP32] = pl.tile.store(local, [0, 0], data)`,
	})
}

func requireLines(t *testing.T, text string, wants []string) {
	t.Helper()
	for _, want := range wants {
		found := false
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, want) {
				found = true
			}
		}
		require.Truef(t, found, "missing %q in:\n%s", want, text)
	}
}

// The quickstart's IR is what the DSL promised: an INT32 notify value, names
// from Let, rebinding through Set.
func TestQuickstartIR(t *testing.T) {
	p := quickstart().IR()
	require.Len(t, p.Functions, 3)
	k := p.Function("reduce_step")
	require.Equal(t, ir.LevelChipDie, k.Level)
	require.Equal(t, []ir.ParamDirection{ir.In, ir.Out, ir.InOut, ir.InOut}, k.Dirs)
	host := p.Function("orchestrator")
	require.Equal(t, ir.LevelHost, host.Level)
	require.Equal(t, ir.Orchestrator, host.Role)
	// The alloc takes its name from the Let.
	first := ir.Flatten(host.Body)[0].(*ir.AssignStmt)
	require.Equal(t, "data_buf", first.Value.(*ir.Call).Kwargs.String("name", ""))
}

// The quickstart verifies cleanly and survives serialization unchanged.
func TestQuickstartVerifiesAndRoundTrips(t *testing.T) {
	p := quickstart().IR()
	require.Empty(t, verify.Program(p, verify.Options{}))
	require.NoError(t, ir.RoundTripCheck(p))
	data, err := ir.MarshalProgram(p)
	require.NoError(t, err)
	back, err := ir.UnmarshalProgram(data)
	require.NoError(t, err)
	// Free dimensions (NR) are new variables after reading, so only
	// auto-mapped equality holds; the printed text is identical.
	require.NoError(t, ir.AssertStructuralEqual(p, back, true))
	require.Equal(t, printer.Program(p), printer.Program(back))
}
