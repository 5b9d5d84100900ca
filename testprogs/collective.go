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

// AllToAllV is upstream's all_to_all_v system test at n ranks (static)
// and maxRecv rows per block: each rank sends counts[d] of its input block
// d to rank d; the kernel returns the whole window ([n*maxRecv, 16]) and
// the published receive counts ([n, 1]).
func AllToAllV(n, maxRecv int) *pl.Program {
	const cols = CollectiveCols
	total := n * maxRecv
	prog := pl.NewProgram("AllToAllV")
	k := prog.InCore("exchange", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(total, cols), pl.FP32))
		counts := f.In("counts", pl.Tensor(pl.Dims(n, 1), pl.INT32))
		y := f.Out("y", pl.Tensor(pl.Dims(total, cols), pl.FP32))
		got := f.Out("got", pl.Tensor(pl.Dims(n, 1), pl.INT32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(total, cols), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(n, 1), pl.INT32))
		recv := f.InOut("recv", pld.DistributedTensor(pl.Dims(n, 1), pl.INT32))
		f.Set(data, pld.AllToAllV(x, data, sig, counts, recv))
		out := f.Let("out", pl.Load(data, pl.Dims(0, 0), pl.Dims(total, cols)))
		f.Set(y, pl.Store(out, pl.Dims(0, 0), y))
		rc := f.Let("rc", pl.Load(recv, pl.Dims(0, 0), pl.Dims(n, 1)))
		f.Set(got, pl.Store(rc, pl.Dims(0, 0), got))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(n, total, cols), pl.FP32))
		counts := f.In("counts", pl.Tensor(pl.Dims(n, n, 1), pl.INT32))
		y := f.Out("y", pl.Tensor(pl.Dims(n, total, cols), pl.FP32))
		got := f.Out("got", pl.Tensor(pl.Dims(n, n, 1), pl.INT32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(total*cols*4))
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(n*4))
		rb := f.Let("recv_buf", pld.AllocWindowBuffer(n*4))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			data := f.Let("data", pld.Window(db, pl.Dims(total, cols), pl.FP32))
			sig := f.Let("signal", pld.Window(sb, pl.Dims(n, 1), pl.INT32))
			recv := f.Let("recv", pld.Window(rb, pl.Dims(n, 1), pl.INT32))
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(counts, r), pl.Index(y, r), pl.Index(got, r), data, sig, recv))
		})
	})
	return prog
}
