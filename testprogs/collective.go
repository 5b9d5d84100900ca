package testprogs

import (
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
)

// CollectiveCols is the row length of the Collective programs.
const CollectiveCols = 16

// Collective wraps one kernel body over x [xRows, 16] → y [NR, 16] with a
// data window [NR, 16] and an [NR, 1] signal: the frame the collective tests
// of the simulator, the passes and the checker share. staticN > 0 fixes NR
// (tiles of a [NR, 16] load must be static for the memory passes, and
// all_to_all / reduce_scatter need matching static shapes); 0 keeps it
// dynamic.
func Collective(name string, xRows, staticN int, body func(f *pl.Func, x, data, sig pl.Expr)) *pl.Program {
	const cols = CollectiveCols
	var nr, ws any = pl.Dynamic("NR"), pld.WorldSize()
	if staticN > 0 {
		nr, ws = staticN, staticN
	}
	prog := pl.NewProgram(name)
	k := prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(xRows, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(nr, cols), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(nr, cols), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(nr, 1), pl.INT32))
		body(f, x, data, sig)
		out := f.Let("out", pl.Load(data, pl.Dims(0, 0), pl.Dims(nr, cols)))
		f.Set(y, pl.Store(out, pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(nr, xRows, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(nr, nr, cols), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), cols*4)))
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			data := f.Let("data", pld.Window(db, pl.Dims(ws, cols), pl.FP32))
			sig := f.Let("signal", pld.Window(sb, pl.Dims(ws, 1), pl.INT32))
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r), data, sig))
		})
	})
	return prog
}

// StageRows stores the rank's first rows of x into the top of the data window.
func StageRows(f *pl.Func, x, data pl.Expr, rows int) {
	t := f.Let("staged", pl.Load(x, pl.Dims(0, 0), pl.Dims(rows, CollectiveCols)))
	f.Set(data, pl.Store(t, pl.Dims(0, 0), data))
}
