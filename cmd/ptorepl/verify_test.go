package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const waitFirstCell = `prog := pl.NewProgram("WaitFirst")
k := prog.InCore("k", func(f *pl.Func) {
	sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
	ctx := f.Let("ctx", pld.GetCommCtx(sig))
	me := f.Let("me", pld.Rank(ctx))
	other := f.Let("other", pl.Sub(1, me))
	f.Do(pld.Wait(sig, pl.Dims(other, 0), 1, pld.Ge))
	f.Do(pld.Notify(sig, other, pl.Dims(me, 0), 1, pld.AtomicAdd))
})
prog.Host("host", func(f *pl.Func) {
	sb := f.Let("sb", pld.AllocWindowBuffer(8))
	f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
		f.Do(f.Dispatch(k, r, f.Let("sig", pld.Window(sb, pl.Dims(2, 1), pl.INT32))))
	})
})
`

// :verify proves a correct program and shows a counterexample, with its
// steps and the checker's explanation, for a broken one.
func TestVerifyMeta(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(nil, strings.NewReader(waitFirstCell+":verify -ranks 2\n"), &out, &errOut)
	require.Equal(t, 1, code, errOut.String())
	require.Contains(t, out.String(), "counterexample on 2 ranks after 1 schedules: deadlock")
	require.Contains(t, out.String(), "blocked  rank 0: wait pld.system.wait sb[1, 0] on rank 0 >= 1")
	require.Contains(t, out.String(), "[deadlock]")
	require.Contains(t, errOut.String(), "WaitFirst has a failing schedule")

	fixed := strings.Replace(waitFirstCell, `	f.Do(pld.Wait(sig, pl.Dims(other, 0), 1, pld.Ge))
	f.Do(pld.Notify(sig, other, pl.Dims(me, 0), 1, pld.AtomicAdd))`, `	f.Do(pld.Notify(sig, other, pl.Dims(me, 0), 1, pld.AtomicAdd))
	f.Do(pld.Wait(sig, pl.Dims(other, 0), 1, pld.Ge))`, 1)
	out.Reset()
	errOut.Reset()
	code = run(nil, strings.NewReader(fixed+":verify -ranks 2 -budget 50\n"), &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	require.Contains(t, out.String(), "proved on 2 ranks: 1 schedules explored")

	out.Reset()
	errOut.Reset()
	code = run(nil, strings.NewReader(":verify -ranks 0\n:verify -budget -2\n:verify -x\n"), &out, &errOut)
	require.Equal(t, 1, code)
	require.Contains(t, errOut.String(), ":verify: argument '-ranks': expected a rank count from 1 to 1024, given 0")
	require.Contains(t, errOut.String(), ":verify: -budget must be a positive number of runs, given -2")
	require.Contains(t, errOut.String(), "usage: :verify [-ranks N] [-budget RUNS]")
}
