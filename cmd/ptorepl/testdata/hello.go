// A script in cells, as `ptorepl run` reads it.
// %%
prog := pl.NewProgram("Hello")
// %%
prog.InCore("k", func(f *pl.Func) {
	x := f.In("x", pl.Tensor(pl.Dims(1, 8), pl.FP32))
	y := f.Out("y", pl.Tensor(pl.Dims(1, 8), pl.FP32))
	t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 8)))
	f.Return(pl.Store(pl.Add(t, t), pl.Dims(0, 0), y))
})
fmt.Println("built", prog.IR().Functions[0].Name)
// %%
prog
