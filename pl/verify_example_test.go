package pl_test

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/tensor"
)

// handoff: every rank stages x, tells its successor, waits for its
// predecessor and reads the predecessor's data. eqWait waits with Eq, which
// is correct here (each cell is notified once).
func handoff() *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("Handoff")
	k := prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 8), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 8), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, 8), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		me := f.Let("me", pld.Rank(ctx))
		n := f.Let("n", pld.NRanks(ctx))
		prev := f.Let("prev", pl.Mod(pl.Add(me, pl.Sub(n, 1)), n))
		f.Set(data, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 8))), pl.Dims(0, 0), data))
		f.Do(pld.Notify(sig, pl.Mod(pl.Add(me, 1), n), pl.Dims(me, 0), 1, pld.AtomicAdd))
		f.Do(pld.Wait(sig, pl.Dims(prev, 0), 1, pld.Ge))
		f.Set(y, pl.Store(f.Let("r", pld.RemoteLoad(data, prev, pl.Dims(0, 0), pl.Dims(1, 8))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, 8), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, 8), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(32))
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r),
				f.Let("data", pld.Window(db, pl.Dims(1, 8), pl.FP32)),
				f.Let("signal", pld.Window(sb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	return prog
}

// Verify explores every schedule of a program; a counterexample replays
// through pl.Run.
func ExampleVerify() {
	x, y := tensor.Randn(1, 3, 1, 8), tensor.Zeros(ir.FP32, 3, 1, 8)
	v := pl.Verify(handoff(), pl.Ranks(3), x, y)
	fmt.Println(v.Proved(), v.Schedules())

	bad := waitFirst() // every rank waits before it notifies
	v = pl.Verify(bad, pl.Ranks(3))
	fmt.Println(v.Proved(), v.Failure())
	res, _ := pl.Run(bad, pl.Ranks(3).Replay(v.Counterexample()))
	fmt.Println(res.Status())
	// Output:
	// true 1
	// false deadlock: every live rank is blocked and no pending operation can wake them
	// deadlock: every live rank is blocked and no pending operation can wake them
}
