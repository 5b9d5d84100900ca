package interp_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// In a cell, compile results, stage lists, a clean Differential and a
// deadlocked run show as words: no struct dumps, no <nil>, no "".
func TestValuesReadAsWordsInCells(t *testing.T) {
	s := newSession(t)
	eval(t, s, `prog := pl.NewProgram("P")
k := prog.InCore("k", func(f *pl.Func) {
	sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
	me := f.Let("me", pld.Rank(f.Let("ctx", pld.GetCommCtx(sig))))
	f.Do(pld.Wait(sig, pl.Dims(me, 0), 1, pld.Ge))
})
prog.Host("host", func(f *pl.Func) {
	buf := f.Let("sig_buf", pld.AllocWindowBuffer(8))
	f.For("r", pl.Range(2), func(r pl.Expr) {
		f.Do(f.Dispatch(k, r, f.Let("sig", pld.Window(buf, pl.Dims(2, 1), pl.INT32))))
	})
})
c := pl.Compile(prog)`)
	stages := eval(t, s, `c.Stages()`).Text()
	require.Contains(t, stages, " 0 Input ")
	require.NotContains(t, stages, "{")
	eval(t, s, `q := pl.NewProgram("Q")
kq := q.InCore("k", func(f *pl.Func) {
	sig := f.InOut("sig", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
	me := f.Let("me", pld.Rank(f.Let("ctx", pld.GetCommCtx(sig))))
	f.Do(pld.Notify(sig, me, pl.Dims(me, 0), 1, pld.AtomicAdd))
	f.Do(pld.Wait(sig, pl.Dims(me, 0), 1, pld.Ge))
})
q.Host("host", func(f *pl.Func) {
	buf := f.Let("sig_buf", pld.AllocWindowBuffer(8))
	f.For("r", pl.Range(2), func(r pl.Expr) {
		f.Do(f.Dispatch(kq, r, f.Let("sig", pld.Window(buf, pl.Dims(2, 1), pl.INT32))))
	})
})`)
	d := eval(t, s, `d, err := pl.Compile(q).Differential(pl.Ranks(2))
if err != nil { panic(err) }
d`).Text()
	require.Equal(t, "no pass differs", d)
	run := eval(t, s, `res, err := pl.Run(prog, pl.Ranks(2))
res`).Text()
	require.Contains(t, run, "run on 2 ranks: stopped after ")
	require.Contains(t, run, "rank 1: pld.system.wait at cell[1]:5 waits on sig_buf[1, 0] (for 1)")
	require.Contains(t, run, "protocol check: 1 error")
	require.Contains(t, eval(t, s, `res.Report()`).Text(), "[deadlock]")
}
