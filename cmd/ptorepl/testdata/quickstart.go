// The quickstart of dsl.md, cell by cell (PyPTO docs/en/user/distributed/00-model.md).
// %%
const SIZE = 256
// %%
NR := pl.Dynamic("NR")
// %%
prog := pl.NewProgram("Quickstart")
// %%
reduceStep := prog.InCore("reduce_step", func(f *pl.Func) {
	inp := f.In("inp", pl.Tensor(pl.Dims(1, SIZE), pl.FP32))
	out := f.Out("out", pl.Tensor(pl.Dims(1, SIZE), pl.FP32))
	data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, SIZE), pl.FP32))
	signal := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
	f.Returns(pl.Tensor(pl.Dims(1, SIZE), pl.FP32))
	ctx := f.Let("ctx", pld.GetCommCtx(data))
	me := f.Let("my_rank", pld.Rank(ctx))
	n := f.Let("nranks", pld.NRanks(ctx))
	local := f.Let("local", pl.Load(inp, pl.Dims(0, 0), pl.Dims(1, SIZE)))
	f.Set(data, pl.Store(local, pl.Dims(0, 0), data))
	f.For("peer", pl.Range(n), func(peer pl.Expr) {
		f.If(pl.Ne(peer, me), func() {
			f.Do(pld.Notify(signal, peer, pl.Dims(me, 0), 1, pld.AtomicAdd))
		})
	})
	f.For("src", pl.Range(n), func(src pl.Expr) {
		f.If(pl.Ne(src, me), func() {
			f.Do(pld.Wait(signal, pl.Dims(src, 0), 1, pld.Ge))
		})
	})
	acc := f.Let("acc", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, SIZE)))
	f.For("peer", pl.Range(n), func(peer pl.Expr) {
		f.If(pl.Ne(peer, me), func() {
			t := f.Let("peer_tile", pld.RemoteLoad(data, peer, pl.Dims(0, 0), pl.Dims(1, SIZE)))
			f.Set(acc, pl.Add(acc, t))
		})
	})
	f.Return(pl.Store(acc, pl.Dims(0, 0), out))
})
// %%
chipOrch := prog.Orchestration("chip_orch", func(f *pl.Func) {
	inp := f.In("inp", pl.Tensor(pl.Dims(1, SIZE), pl.FP32))
	out := f.Out("out", pl.Tensor(pl.Dims(1, SIZE), pl.FP32))
	data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, SIZE), pl.FP32))
	signal := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
	f.Returns(pl.Tensor(pl.Dims(1, SIZE), pl.FP32))
	f.Return(f.Call(reduceStep, inp, out, data, signal))
})
// %%
prog.Host("orchestrator", func(f *pl.Func) {
	inputs := f.In("inputs", pl.Tensor(pl.Dims(NR, 1, SIZE), pl.FP32))
	outputs := f.Out("outputs", pl.Tensor(pl.Dims(NR, 1, SIZE), pl.FP32))
	f.Returns(pl.Tensor(pl.Dims(NR, 1, SIZE), pl.FP32))
	dataBuf := f.Let("data_buf", pld.AllocWindowBuffer(SIZE*pl.FP32.Bytes()))
	sigBuf := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), pl.INT32.Bytes())))
	f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
		data := f.Let("data", pld.Window(dataBuf, pl.Dims(1, SIZE), pl.FP32))
		signal := f.Let("signal", pld.Window(sigBuf, pl.Dims(pld.WorldSize(), 1), pl.INT32))
		f.Do(f.Dispatch(chipOrch, r, pl.Index(inputs, r), pl.Index(outputs, r), data, signal))
	})
	f.Return(outputs)
})
// %%
prog
// %%
c := pl.Compile(prog, pl.Ranks(2))
// %%
c
// %%
for _, s := range c.Stages() {
	fmt.Println("stage", s.Name, s.Changed)
}
// %%
x := tensor.FromFloat32([]float32{1, 2, 3, 10, 20, 30}, 2, 1, 3)
// %%
inputs := tensor.Zeros(pl.FP32, 2, 1, SIZE)
outputs := tensor.Zeros(pl.FP32, 2, 1, SIZE)
for r := 0; r < 2; r++ {
	for j := 0; j < 3; j++ {
		inputs.Set(x.At(r, 0, j), r, 0, j)
	}
}
// %%
res, err := pl.Run(prog, pl.Ranks(2), inputs, outputs)
// %%
err
// %%
fmt.Println(outputs.At(0, 0, 0), outputs.At(0, 0, 1), outputs.At(0, 0, 2), outputs.At(1, 0, 0), outputs.At(1, 0, 1), outputs.At(1, 0, 2))
// %%
res.Report()
