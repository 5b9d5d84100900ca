package testprogs

import (
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
)

// SpmdProgram dispatches to every rank an orchestrator with two SPMD
// launches: a kernel of four blocks, each scaling its two rows of x by the
// rank plus its block index, and a loop-form launch of two blocks, each
// adding the block count to its four rows.
func SpmdProgram() *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("SpmdRanks")
	k := prog.InCore("scale_rows", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(8, 16), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(8, 16), pl.FP32))
		r := f.Scalar("rank", pl.INT32)
		blk := f.Let("blk", pl.BlockIdx())
		t := f.Let("t", pl.Load(x, pl.Dims(pl.Mul(blk, 2), 0), pl.Dims(2, 16)))
		s := f.Let("s", pl.Add(pl.Cast(r, pl.FP32), pl.Cast(blk, pl.FP32)))
		f.Set(y, pl.Store(pl.Mul(t, s), pl.Dims(pl.Mul(blk, 2), 0), y))
	})
	orch := prog.Orchestration("per_rank", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(8, 16), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(8, 16), pl.FP32))
		z := f.Out("z", pl.Tensor(pl.Dims(8, 16), pl.FP32))
		r := f.Scalar("rank", pl.INT32)
		f.Spmd(4, func() { f.Do(f.Call(k, x, y, r)) })
		f.SpmdFor("half", 2, "add_count", func(half pl.Expr) {
			t := f.Let("u", pl.Load(x, pl.Dims(pl.Mul(half, 4), 0), pl.Dims(4, 16)))
			f.Do(pl.Store(pl.Add(t, pl.Cast(pl.BlockNum(), pl.FP32)), pl.Dims(pl.Mul(half, 4), 0), z))
		})
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 8, 16), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 8, 16), pl.FP32))
		z := f.Out("z", pl.Tensor(pl.Dims(NR, 8, 16), pl.FP32))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(orch, r, pl.Index(x, r), pl.Index(y, r), pl.Index(z, r), pl.Cast(r, pl.INT32)))
		})
	})
	return prog
}
