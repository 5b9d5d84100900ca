package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/interp"
	"github.com/stretchr/testify/require"
)

// notifyInScript builds a program whose Opaque function notifies a signal it
// declares In: the pipeline upgrades InCore parameters only, so the
// post-pipeline verifier still sees the unsound declaration.
const notifyInScript = `prog := pl.NewProgram("NotifyIn")
// %%
prog.InCore("k", func(f *pl.Func) {
	x := f.In("x", pl.Tensor(pl.Dims(1, 8), pl.FP32))
	y := f.Out("y", pl.Tensor(pl.Dims(1, 8), pl.FP32))
	t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 8)))
	f.Return(pl.Store(t, pl.Dims(0, 0), y))
})
// %%
prog.Function("signal_peer", pl.Opaque, func(f *pl.Func) {
	signal := f.In("signal", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
	f.Do(pld.Notify(signal, f.Scalar("peer", pl.INT32), pl.Dims(0, 0), 1, pld.Set))
})
`

const notifyInWarning = "warning [ParamDirectionsSound]: parameter 'signal' of function 'signal_peer' is declared In but is written by 'pld.system.notify'"

// ptorepl compile prints the post-pipeline verifier's warnings on stderr and
// still compiles; a sound program prints none.
func TestCompileWarnsOnStderr(t *testing.T) {
	file := filepath.Join(t.TempDir(), "notify_in.go")
	require.NoError(t, os.WriteFile(file, []byte(notifyInScript), 0o644))
	var out, errOut bytes.Buffer
	code := run([]string{"compile", file}, nil, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	require.Contains(t, out.String(), "func.func @k(")
	lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
	require.Len(t, lines, 1, errOut.String())
	require.True(t, strings.HasPrefix(lines[0], "ptorepl compile: "), lines[0])
	require.Contains(t, lines[0], notifyInWarning)

	errOut.Reset()
	code = run([]string{"compile", "testdata/quickstart.go"}, nil, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	require.NotContains(t, errOut.String(), "warning")
}

// In the REPL the warning follows the last :step, and pl.Compile's result
// lists it.
func TestREPLShowsWarnings(t *testing.T) {
	script := notifyInScript + strings.Repeat(":step\n", len(interp.Passes())) + ":step\npl.Compile(prog)\n"
	var out, errOut bytes.Buffer
	code := run(nil, strings.NewReader(script), &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	text := out.String()
	require.Equal(t, 2, strings.Count(text, notifyInWarning), text)
	last := strings.Index(text, "every pass has run")
	require.Positive(t, last)
	require.Less(t, strings.Index(text, notifyInWarning), last, "the warning comes with the last pass, not after")
}
