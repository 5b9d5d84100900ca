package checker_test

import (
	"context"
	"testing"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/stretchr/testify/require"
)

// twoRounds dispatches a staging kernel on every rank, then (joined or not)
// a kernel that remote-loads the next rank's staged data with no barrier.
// A host op that is not pure dispatch makes the host join every rank
// first, which orders the rounds; without it the rounds overlap and race.
func twoRounds(join bool) *pl.Program {
	const size = 64
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("TwoRounds")
	stageK := prog.InCore("stage", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, size), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, size), pl.FP32))
		f.Set(data, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, size))), pl.Dims(0, 0), data))
	})
	readK := prog.InCore("read_next", func(f *pl.Func) {
		y := f.Out("y", pl.Tensor(pl.Dims(1, size), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, size), pl.FP32))
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		next := f.Let("next", pl.Mod(pl.Add(pld.Rank(ctx), 1), pld.NRanks(ctx)))
		f.Set(y, pl.Store(f.Let("r", pld.RemoteLoad(data, next, pl.Dims(0, 0), pl.Dims(1, size))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(size*4))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(stageK, r, pl.Index(x, r), f.Let("data", pld.Window(db, pl.Dims(1, size), pl.FP32))))
		})
		if join {
			f.Let("scratch", pl.Create(pl.Dims(1, 1), pl.FP32)) // a host op: joins every rank
		}
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(readK, r, pl.Index(y, r), f.Let("data", pld.Window(db, pl.Dims(1, size), pl.FP32))))
		})
	})
	return prog
}

func TestHostJoinOrdersDispatchRounds(t *testing.T) {
	for _, n := range []int{2, 4} {
		_, rep, err := checker.Run(context.Background(), twoRounds(true).IR(), meshArgs(n, 64)()[:2], checker.Options{Ranks: n})
		require.NoError(t, err)
		require.True(t, rep.Clean(), "%s", rep)

		_, rep, err = checker.Run(context.Background(), twoRounds(false).IR(), meshArgs(n, 64)()[:2], checker.Options{Ranks: n})
		require.NoError(t, err)
		require.Len(t, rep.Of(checker.KindRace), 1, "%s", rep)
	}
}
