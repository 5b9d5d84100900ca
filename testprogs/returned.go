package testprogs

import (
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
)

// ReturnedRows is a host that creates its result instead of taking an Out
// tensor, as a @pl.jit entry does (`rows = pl.create_tensor(...,
// init_value=init)`, `return rows`): one row per rank and one more, each
// rank doubling its row of x into its row of rows; the last row keeps
// init. The run hands rows back after the Out and InOut tensors (it has
// none).
func ReturnedRows(cols int, init float64) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("ReturnedRows")
	k := prog.InCore("double", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, cols), pl.FP32))
		t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, cols)))
		f.Set(y, pl.Store(pl.Add(t, t), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, cols), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(pl.Add(NR, 1), 1, cols), pl.FP32))
		rows := f.Let("rows", pl.Full(pl.Dims(pl.Add(pld.WorldSize(), 1), 1, cols), pl.FP32, init))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(rows, r)))
		})
		f.Return(rows)
	})
	return prog
}

// ReturnedChip is the one-device form: a chip orchestrator (the run writes
// its host) that creates a tensor, has a kernel fill it with x + x and
// returns it.
func ReturnedChip(rows, cols int) *pl.Program {
	prog := pl.NewProgram("ReturnedChip")
	k := prog.InCore("double", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(rows, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(rows, cols), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(rows, cols), pl.FP32))
		t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(rows, cols)))
		f.Return(pl.Store(pl.Add(t, t), pl.Dims(0, 0), y))
	})
	prog.Orchestration("chip_orch", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(rows, cols), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(rows, cols), pl.FP32))
		y := f.Let("y", pl.Create(pl.Dims(rows, cols), pl.FP32))
		f.Set(y, f.Call(k, x, y))
		f.Return(y)
	})
	return prog
}

// CreatedAcrossRanks hands a host-created tensor from rank to rank: each
// rank r doubles its row of x into row r of t (a tensor the host created),
// the host reads t (so it joins the ranks), and then rank r+1 (mod the
// world) copies row r of t into its row of y: y[(r+1) % n] = 2 x[r].
func CreatedAcrossRanks(cols int) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("CreatedAcrossRanks")
	row := pl.Tensor(pl.Dims(1, cols), pl.FP32)
	double := prog.InCore("double", func(f *pl.Func) {
		x := f.In("x", row)
		y := f.Out("y", row)
		t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, cols)))
		f.Set(y, pl.Store(pl.Add(t, t), pl.Dims(0, 0), y))
	})
	copyRow := prog.InCore("copy_row", func(f *pl.Func) {
		x := f.In("x", row)
		y := f.Out("y", row)
		f.Set(y, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, cols))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, cols), pl.FP32))
		t := f.Let("t", pl.Create(pl.Dims(pld.WorldSize(), 1, cols), pl.FP32))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(double, r, pl.Index(x, r), pl.Index(t, r)))
		})
		f.Let("probe", pl.Read(t, pl.Dims(0, 0, 0))) // a host op: the host joins the ranks first
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			next := f.Let("next", pl.Mod(pl.Add(r, 1), pld.WorldSize()))
			f.Do(f.Dispatch(copyRow, next, pl.Index(t, r), pl.Index(y, next)))
		})
	})
	return prog
}
