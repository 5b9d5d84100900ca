package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// saturatingCell is upstream #2369's shape typed at the REPL: three tasks
// per rank block on the rank's cell before the one task that notifies the
// peer's.
const saturatingCell = `prog := pl.NewProgram("Saturating")
waiter := prog.InCore("waiter", func(f *pl.Func) {
	sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
	f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
})
pub := prog.InCore("publisher", func(f *pl.Func) {
	sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(1, 1), pl.INT32))
	ctx := f.Let("ctx", pld.GetCommCtx(sig))
	peer := f.Let("peer", pl.Mod(pl.Add(pld.Rank(ctx), 1), pld.NRanks(ctx)))
	f.Do(pld.Notify(sig, peer, pl.Dims(0, 0), 1, pld.AtomicAdd))
})
prog.Host("host", func(f *pl.Func) {
	sb := f.Let("sb", pld.AllocWindowBuffer(4))
	f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
		sig := f.Let("sig", pld.Window(sb, pl.Dims(1, 1), pl.INT32))
		for i := 0; i < 3; i++ {
			f.Do(f.Dispatch(waiter, r, sig))
		}
		f.Do(f.Dispatch(pub, r, sig))
	})
})
`

// :run -cores K gives each device K AIV cores: two cores deadlock on the
// waits, four finish.
func TestRunMetaCores(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(nil, strings.NewReader(saturatingCell+":run -cores 2\n"), &out, &errOut)
	require.Equal(t, 1, code, errOut.String())
	require.Contains(t, out.String(), "[resource-deadlock] every AIV core of a rank is held by a blocking wait while a task that would publish is queued")
	require.Contains(t, out.String(), "queued publisher (dispatch 4 at ")
	require.Contains(t, errOut.String(), "error: resource deadlock: ")

	out.Reset()
	errOut.Reset()
	code = run(nil, strings.NewReader(saturatingCell+":run -cores 4\n"), &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	require.Contains(t, out.String(), "ran Saturating on 2 ranks (")
	require.NotContains(t, out.String(), "deadlock")
}

// -cores and --cores take 1 … 1024.
func TestCoresValidated(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(nil, strings.NewReader(":run -cores 0\n"), &out, &errOut)
	require.Equal(t, 1, code)
	require.Contains(t, errOut.String(), ":run: argument '-cores': expected an AIV core count from 1 to 1024, given 0")
	out.Reset()
	errOut.Reset()
	code = run([]string{"run", "--entry", "X", "--cores", "2000", "no-such-file.py"}, nil, &out, &errOut)
	require.Equal(t, 2, code)
	require.Contains(t, errOut.String(), "ptorepl run: argument '--cores': expected an AIV core count from 1 to 1024, given 2000")
}
