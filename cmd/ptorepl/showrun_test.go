package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// --ranks and -ranks take the bounds pl.Ranks enforces.
func TestRanksValidated(t *testing.T) {
	for _, n := range []string{"-1", "0", "1025"} {
		var out, errOut bytes.Buffer
		code := run([]string{"compile", "--ranks", n, "testdata/quickstart.go"}, nil, &out, &errOut)
		require.Equal(t, 2, code, "--ranks %s", n)
		require.Contains(t, errOut.String(), "ptorepl compile: argument '--ranks': expected a rank count from 1 to 1024, given "+n)
		// PyPTO Python files are validated the same way, before reading.
		for _, cmd := range []string{"compile", "run"} {
			out.Reset()
			errOut.Reset()
			code := run([]string{cmd, "--entry", "X", "--ranks", n, "no-such-file.py"}, nil, &out, &errOut)
			require.Equal(t, 2, code, "%s --ranks %s", cmd, n)
			require.Contains(t, errOut.String(), "ptorepl "+cmd+": argument '--ranks': expected a rank count from 1 to 1024, given "+n)
		}
	}
	var out, errOut bytes.Buffer
	code := run(nil, strings.NewReader(":run -ranks -3\n:manifest -ranks 5000\n"), &out, &errOut)
	require.Equal(t, 1, code)
	require.Contains(t, errOut.String(), ":run: argument '-ranks': expected a rank count from 1 to 1024, given -3")
	require.Contains(t, errOut.String(), ":manifest: argument '-ranks': expected a rank count from 1 to 1024, given 5000")
}

// :run shows the protocol checker's report: for a finished run and, with
// what stopped it, for a deadlock.
func TestRunMetaShowsReport(t *testing.T) {
	deadlock := `prog := pl.NewProgram("Stuck")
k := prog.InCore("k", func(f *pl.Func) {
	sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
	me := f.Let("me", pld.Rank(f.Let("ctx", pld.GetCommCtx(sig))))
	f.Do(pld.Wait(sig, pl.Dims(me, 0), 1, pld.Ge))
})
prog.Host("host", func(f *pl.Func) {
	sb := f.Let("sb", pld.AllocWindowBuffer(8))
	f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
		f.Do(f.Dispatch(k, r, f.Let("sig", pld.Window(sb, pl.Dims(2, 1), pl.INT32))))
	})
})
:run -ranks 2
`
	var out, errOut bytes.Buffer
	code := run(nil, strings.NewReader(deadlock), &out, &errOut)
	require.Equal(t, 1, code, errOut.String())
	require.Contains(t, out.String(), "ran Stuck on 2 ranks: stopped after ")
	require.Contains(t, out.String(), "protocol check: 1 error")
	require.Contains(t, out.String(), "[deadlock]")
	require.Contains(t, errOut.String(), "error: deadlock: ")
	require.Contains(t, errOut.String(), "(the report above explains it)")
}
