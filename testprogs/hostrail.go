package testprogs

import (
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
)

// HostAllReduceLoop stages each rank's x [1, 16] into a data window, runs a
// signal-less host allreduce iters times inside a pl.range loop (each
// iteration multiplies the sum by NR), and reads the window back into y:
// y = NR^(iters-1) * Σ x on every rank. The host rail (passes.md §6–8)
// synthesizes the signal once for the data buffer's lineage.
func HostAllReduceLoop(iters int) *pl.Program { return HostAllReduceLoopMode(iters, "mesh") }

// HostAllReduceLoopMode is HostAllReduceLoop with the allreduce in mode
// ("mesh" or "ring").
func HostAllReduceLoopMode(iters int, mode string) *pl.Program {
	const cols = CollectiveCols
	prog := pl.NewProgram("HostAllReduceLoop")
	stage := prog.InCore("stage", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, cols), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, cols), pl.FP32))
		t := f.Let("staged", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, cols)))
		f.Set(data, pl.Store(t, pl.Dims(0, 0), data))
	})
	read := prog.InCore("read_back", func(f *pl.Func) {
		data := f.In("data", pld.DistributedTensor(pl.Dims(1, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, cols), pl.FP32))
		t := f.Let("got", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, cols)))
		f.Set(y, pl.Store(t, pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		nr := pl.Dynamic("NR")
		x := f.In("x", pl.Tensor(pl.Dims(nr, 1, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(nr, 1, cols), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(cols*4))
		data := f.Let("data", pld.Window(db, pl.Dims(1, cols), pl.FP32))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(stage, r, pl.Index(x, r), data))
		})
		f.For("i", pl.Range(iters), func(pl.Expr) {
			f.Set(data, pld.AllReduce(data, nil, pld.Mode(mode)))
		})
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(read, r, data, pl.Index(y, r)))
		})
	})
	return prog
}

// HostAllReduceSubsets runs two signal-less host allreduces over two data
// buffers, one used by devices 0..1 and one by devices 2..3 (a 4-rank
// world): each sums over its own pair, and each gets its own synthesized
// signal in its own comm domain. Rank r's y is the sum over its pair.
func HostAllReduceSubsets() *pl.Program {
	const cols = CollectiveCols
	prog := pl.NewProgram("HostAllReduceSubsets")
	stage := prog.InCore("stage", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, cols), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, cols), pl.FP32))
		t := f.Let("staged", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, cols)))
		f.Set(data, pl.Store(t, pl.Dims(0, 0), data))
	})
	read := prog.InCore("read_back", func(f *pl.Func) {
		data := f.In("data", pld.DistributedTensor(pl.Dims(1, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, cols), pl.FP32))
		t := f.Let("got", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, cols)))
		f.Set(y, pl.Store(t, pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(4, 1, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(4, 1, cols), pl.FP32))
		for _, half := range []struct {
			name     string
			from, to int
		}{{"lo", 0, 2}, {"hi", 2, 4}} {
			buf := f.Let(half.name+"_buf", pld.AllocWindowBuffer(cols*4))
			data := f.Let(half.name, pld.Window(buf, pl.Dims(1, cols), pl.FP32))
			f.For("r", pl.Range(half.from, half.to), func(r pl.Expr) {
				f.Do(f.Dispatch(stage, r, pl.Index(x, r), data))
			})
			f.Set(data, pld.AllReduce(data, nil))
			f.For("r", pl.Range(half.from, half.to), func(r pl.Expr) {
				f.Do(f.Dispatch(read, r, data, pl.Index(y, r)))
			})
		}
	})
	return prog
}
