package pl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/manifest"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// pl.Compile: every stage in pipeline order, PTO for the InCore kernel, the
// manifest (world-size sizes need the rank count), files on disk, and the
// lowered program computing what the program as written computes.
func TestCompileQuickstart(t *testing.T) {
	c := pl.Compile(quickstart(), pl.Ranks(2))
	var names []string
	for _, s := range c.Stages() {
		names = append(names, s.Name)
	}
	require.Equal(t, []string{"Input", "CtrlFlowTransform", "ConvertToSSA", "FlattenCallExpr", "OutlineHierarchyScopes", "OutlineIncoreScopes", "ConvertTensorToTileOps", "LowerCompositeOps", "FlattenTileNdTo2D", "InferTileMemorySpace",
		"InitMemRef", "AllocateMemoryAddr", "SynthesizeAllReduceSignals", "MaterializeCommDomainScopes",
		"LowerHostTensorCollectives", "MaterializeDistTensorCtx", "InsertCommFence"}, names)
	ssa, ok := c.Stage("ConvertToSSA")
	require.True(t, ok)
	require.True(t, ssa.Changed)
	require.Contains(t, ssa.Diff, "+        for peer_1, (acc__iter_v1,) in pl.range(nranks, init_values=(acc__ssa_v0,)):")
	require.Contains(t, c.String(), "ConvertTensorToTileOps      unchanged")

	pto := c.PTO()
	require.Contains(t, pto, "// reduce_step.pto\nmodule attributes {pto.target_arch = \"a2a3\"} {")
	require.Contains(t, pto, "func.func @reduce_step(")

	m, err := manifest.Parse([]byte(c.Manifest()))
	require.NoError(t, err)
	require.EqualValues(t, 8, m.CommGroups[0].Slots[1].NBytes, "signal_buf = world_size * 4 at 2 ranks")
	_, err = pl.Compile(quickstart()).ManifestText()
	require.ErrorContains(t, err, "give the rank count")

	dir := t.TempDir()
	paths, err := c.WriteTo(dir)
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(dir, "reduce_step.pto"), filepath.Join(dir, "orchestration", "comm_manifest.json")}, paths)
	text, err := os.ReadFile(paths[0])
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(text), "module attributes"))

	in := tensor.Randn(3, 2, 1, SIZE)
	out := tensor.Zeros(ir.FP32, 2, 1, SIZE)
	diff, err := c.Differential(pl.Ranks(2), in, out)
	require.NoError(t, err)
	require.True(t, diff.None(), "every stage computes the same outputs")
	require.Equal(t, "no pass differs", diff.String())
	_, err = c.Run(pl.Ranks(2), in, out)
	require.NoError(t, err)
	for j := 0; j < SIZE; j++ {
		require.InDelta(t, in.At(0, 0, j)+in.At(1, 0, j), out.At(1, 0, j), 1e-5)
	}
}

// A pass that rejects the program raises (Compile) or returns (TryCompile)
// an error naming the pass.
func TestCompileErrors(t *testing.T) {
	prog := pl.NewProgram("Bad")
	prog.Host("host", func(f *pl.Func) {
		f.Let("unused", pldAlloc(64))
	})
	_, err := pl.TryCompile(prog)
	require.ErrorContains(t, err, "MaterializeCommDomainScopes")
	require.ErrorContains(t, err, "dead allocation")
	require.Panics(t, func() { pl.Compile(prog) })
}

func pldAlloc(n int) pl.Expr { return pld.AllocWindowBuffer(n) }

// The notebook rendering: one collapsible block per changed pass with its
// diff, unchanged passes folded, PTO and manifest at the end.
func TestCompiledHTML(t *testing.T) {
	h := pl.Compile(quickstart(), pl.Ranks(2)).HTML()
	require.Contains(t, h, "<details><summary> 2 ConvertToSSA (+")
	require.Contains(t, h, `6 ConvertTensorToTileOps: unchanged</div>`)
	require.Contains(t, h, `<span class="add">+        for peer_1, (acc__iter_v1,) in pl.range(nranks, init_values=(acc__ssa_v0,)):</span>`)
	require.Contains(t, h, "<summary>PTO-MLIR</summary>")
	require.Contains(t, h, "<summary>comm manifest</summary>")
	require.NotContains(t, h, "<script")
}
