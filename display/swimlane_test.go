package display_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// A ring exchange at 3 ranks: one lane per rank, a notify → wait arrow per
// released wait, an RMA span per remote load, every box titled.
func TestSwimlane(t *testing.T) {
	prog := pl.NewProgram("Ring")
	k := prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 8), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 8), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, 8), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(3, 1), pl.INT32))
		me := f.Let("me", pld.Rank(f.Let("ctx", pld.GetCommCtx(data))))
		right := f.Let("right", pl.Mod(pl.Add(me, 1), 3))
		left := f.Let("left", pl.Mod(pl.Add(me, 2), 3))
		f.Set(data, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 8))), pl.Dims(0, 0), data))
		f.Do(pld.Notify(sig, right, pl.Dims(me, 0), 1, pld.AtomicAdd))
		f.Do(pld.Wait(sig, pl.Dims(left, 0), 1, pld.Ge))
		got := f.Let("got", pld.RemoteLoad(data, left, pl.Dims(0, 0), pl.Dims(1, 8)))
		f.Set(y, pl.Store(got, pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(3, 1, 8), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(3, 1, 8), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(32))
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(12))
		f.For("r", pl.Range(3), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r),
				f.Let("data", pld.Window(db, pl.Dims(1, 8), pl.FP32)), f.Let("signal", pld.Window(sb, pl.Dims(3, 1), pl.INT32))))
		})
	})
	res, err := runtime.NewSimulator().Run(context.Background(), prog.IR(),
		[]*tensor.Tensor{tensor.Randn(1, 3, 1, 8), tensor.Zeros(ir.FP32, 3, 1, 8)}, runtime.RunOptions{Ranks: 3})
	require.NoError(t, err)
	svg := display.Swimlane(res.Timeline)
	require.True(t, strings.HasPrefix(svg, `<svg xmlns="http://www.w3.org/2000/svg"`))
	for r := 0; r < 3; r++ {
		require.Contains(t, svg, ">rank "+string(rune('0'+r))+"</text>")
	}
	require.Equal(t, 3, strings.Count(svg, `class="notify-wait"`), "each rank's wait is released by one notify")
	require.Equal(t, 3, strings.Count(svg, `class="rma-span"`))
	require.Contains(t, svg, "<title>rank 0: pld.system.notify in kernel")
}
