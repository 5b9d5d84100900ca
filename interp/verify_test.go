package interp_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// pl.Verify runs in a cell: a program whose ranks wait before they send
// gives a counterexample that replays through pl.Run.
func TestVerifyInCells(t *testing.T) {
	s := newSession(t)
	eval(t, s, `prog := pl.NewProgram("WaitFirst")
NR := pl.Dynamic("NR")
k := prog.InCore("kernel", func(f *pl.Func) {
	sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
	ctx := f.Let("ctx", pld.GetCommCtx(sig))
	me := f.Let("me", pld.Rank(ctx))
	n := f.Let("n", pld.NRanks(ctx))
	f.Do(pld.Wait(sig, pl.Dims(pl.Mod(pl.Add(me, pl.Sub(n, 1)), n), 0), 1, pld.Ge))
	f.Do(pld.Notify(sig, pl.Mod(pl.Add(me, 1), n), pl.Dims(me, 0), 1, pld.AtomicAdd))
})
prog.Host("host", func(f *pl.Func) {
	sb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
	f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
		f.Do(f.Dispatch(k, r, f.Let("signal", pld.Window(sb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
	})
})`)
	r := eval(t, s, `v := pl.Verify(prog, pl.Ranks(3).Budget(100))
v`)
	require.Contains(t, r.Text(), "counterexample on 3 ranks after 1 schedules: deadlock")
	r = eval(t, s, `res, err := pl.Run(prog, pl.Ranks(3).Replay(v.Counterexample()))
fmt.Println(v.Proved(), res.Status() == v.Failure(), err != nil)`)
	require.Contains(t, r.Stdout(), "false true true")
}
