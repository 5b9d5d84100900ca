package bench

import (
	"fmt"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
)

// The synchronisation of a lowered collective, without its data. After
// LowerCompositeOps an allreduce is a series of credit-barrier rounds with
// tile loads, remote loads or puts, adds and stores between them. In mesh
// mode every round is a barrier of all ranks (a rank adds 1 to its cell on
// every peer, then waits until every peer's cell on it reaches the round);
// in ring mode it is a barrier with the two ring neighbours only. The
// compiled 8 x 1 Mi FP32 allreduce has 257 mesh rounds or 896 ring rounds.
// SyncRoundsProgram keeps the rounds and drops the data, so timing it says
// how much of a lowered collective's time its synchronisation alone takes,
// on a device or on the simulator.

// SyncRoundsProgram is rounds credit-barrier rounds on one [NR, 1] signal
// in the pattern of mode ("mesh": all peers; "ring": the left and right
// neighbours, one of them at two ranks), then the epilogue that returns
// every cell to 0. The kernel holds nothing else.
func SyncRoundsProgram(mode string, rounds int) (*pl.Program, error) {
	if mode != "mesh" && mode != "ring" {
		return nil, fmt.Errorf("bench: mode %q: expected mesh or ring", mode)
	}
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("SyncRounds")
	k := prog.InCore("rounds", func(f *pl.Func) {
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(sig))
		me := f.Let("me", pld.Rank(ctx))
		n := f.Let("nranks", pld.NRanks(ctx))
		// peers runs body for each rank this one synchronises with.
		peers := func(name string, body func(p pl.Expr)) {
			if mode == "mesh" {
				f.For(name, pl.Range(n), func(p pl.Expr) { f.If(pl.Ne(p, me), func() { body(p) }) })
				return
			}
			right := f.Let(name+"_right", pl.Mod(pl.Add(me, 1), n))
			left := f.Let(name+"_left", pl.Mod(pl.Sub(pl.Add(me, n), 1), n))
			body(right)
			f.If(pl.Ne(left, right), func() { body(left) })
		}
		f.For("round", pl.Range(rounds), func(round pl.Expr) {
			peers("peer", func(p pl.Expr) { f.Do(pld.Notify(sig, p, pl.Dims(me, 0), 1, pld.AtomicAdd)) })
			peers("src", func(p pl.Expr) { f.Do(pld.Wait(sig, pl.Dims(p, 0), pl.Add(round, 1), pld.Ge)) })
		})
		peers("back", func(p pl.Expr) { f.Do(pld.Notify(sig, me, pl.Dims(p, 0), -rounds, pld.AtomicAdd)) })
	})
	prog.Host("host", func(f *pl.Func) {
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	return prog, nil
}

// CompileSyncOf compiles the synchronisation of the lowered mode allreduce
// of [1, elems] FP32 on ranks ranks: SyncRoundsProgram with as many rounds
// as that allreduce has. It returns the rounds too.
func CompileSyncOf(mode string, ranks, elems int) (*pl.Compiled, int, error) {
	l, err := NewLowered(mode, ranks, elems, 1)
	if err != nil {
		return nil, 0, err
	}
	rounds, err := l.Rounds()
	if err != nil {
		return nil, 0, err
	}
	prog, err := SyncRoundsProgram(mode, rounds)
	if err != nil {
		return nil, 0, err
	}
	c, err := pl.TryCompile(prog, pl.Ranks(ranks))
	return c, rounds, err
}

// syncPeers is how many ranks one rank waits for in a round of mode.
func syncPeers(mode string, ranks int) int {
	if mode == "ring" {
		return min(2, ranks-1)
	}
	return ranks - 1
}

// Rounds counts the credit-barrier rounds of the lowered allreduce: the
// waits rank 0 ran in it during one run, over the ranks it waits for in a
// round.
func (l *Lowered) Rounds() (int, error) {
	res, err := l.c.Run(pl.Ranks(l.Ranks).Unchecked(), l.X, l.Y)
	if err != nil {
		return 0, err
	}
	waits := 0
	for _, ev := range res.Timeline().PerRank(0) {
		if ev.Pos == l.pos && ev.Op == ir.PldSystemWait.Name {
			waits++
		}
	}
	per := syncPeers(l.Mode, l.Ranks)
	if waits == 0 || waits%per != 0 {
		return 0, fmt.Errorf("bench: rank 0 ran %d waits in the lowered %s allreduce, not a whole number of rounds of %d", waits, l.Mode, per)
	}
	return waits / per, nil
}

// WholeSpan is the wall time from the first op on any lane of the timeline
// to the last: for a program whose kernel is all that is measured.
func WholeSpan(tl *runtime.Timeline) time.Duration {
	tl.Expand()
	first, last := time.Duration(-1), time.Duration(0)
	for _, l := range tl.Lanes {
		for _, ev := range l {
			if first < 0 || ev.Start < first {
				first = ev.Start
			}
			last = max(last, ev.End)
		}
	}
	return max(last-first, 0)
}
