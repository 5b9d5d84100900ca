package pl_test

import (
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/stretchr/testify/require"
)

// notifyIn notifies a signal its function declares In; the pipeline upgrades
// InCore parameters only, so an Opaque function keeps the declaration.
func notifyIn(kind ir.FunctionType) *pl.Program {
	prog := pl.NewProgram("NotifyIn")
	prog.Function("kernel", kind, func(f *pl.Func) {
		signal := f.In("signal", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
		f.Do(pld.Notify(signal, f.Scalar("peer", pl.INT32), pl.Dims(0, 0), 1, pld.Set))
	})
	return prog
}

// The post-pipeline verifier's warnings show in the compiled program's text
// and HTML (the REPL's and the kernel's display of pl.Compile).
func TestCompileWarnings(t *testing.T) {
	const want = "parameter 'signal' of function 'kernel' is declared In but is written by 'pld.system.notify'"
	c := pl.Compile(notifyIn(ir.Opaque))
	require.Len(t, c.Warnings(), 1)
	require.Contains(t, c.Warnings()[0], "warning [ParamDirectionsSound]: "+want)
	require.Contains(t, c.String(), want)
	require.Contains(t, c.HTML(), `<div class="warning"`)
	require.Contains(t, c.HTML(), "parameter &#39;signal&#39; of function &#39;kernel&#39; is declared In")

	clean := pl.Compile(notifyIn(ir.InCore))
	require.Empty(t, clean.Warnings())
	require.False(t, strings.Contains(clean.String(), "warning"), clean.String())
	require.NotContains(t, clean.HTML(), `<div class="warning"`)
}
