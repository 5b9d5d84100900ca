package display_test

import (
	"context"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
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

	// A time axis with round ticks and its title, and a legend naming every
	// op with its own colour, plus the notify → wait arrow.
	require.GreaterOrEqual(t, strings.Count(svg, `class="axis-tick"`), 5)
	require.Equal(t, strings.Count(svg, `class="axis-tick"`), strings.Count(svg, `class="axis-label"`))
	require.Contains(t, svg, `<text class="axis-title"`)
	legend := regexp.MustCompile(`<g class="legend-entry legend-op" [^>]*><rect width="12" height="12" fill="(#[0-9a-f]{6})"/><text x="16" y="10">([^<]+)</text></g>`).FindAllStringSubmatch(svg, -1)
	fills, names := map[string]bool{}, map[string]bool{}
	for _, m := range legend {
		fills[m[1]], names[m[2]] = true, true
	}
	for _, op := range []string{"notify", "wait", "remote_load", "load", "store", "rank"} {
		require.True(t, names[op], "legend entry %q in %v", op, names)
	}
	require.Len(t, fills, len(legend), "each op has its own colour")
	require.Contains(t, svg, `legend-arrow`)
	require.NotContains(t, svg, `legend-blocked`, "nothing blocked in a finished run")
	require.NotContains(t, svg, `<details`, "nothing to collapse in the ring")
}

// allreduceRun compiles a 4-rank allreduce (lowered to notifies, waits and
// remote loads) and runs it.
func allreduceRun(t *testing.T) *runtime.Timeline {
	prog := testprogs.Collective("AR", 4, 4, func(f *pl.Func, x, data, sig pl.Expr) {
		testprogs.StageRows(f, x, data, 4)
		f.Set(data, pld.AllReduce(data, sig))
	})
	c := pl.Compile(prog, pl.Ranks(4))
	res, err := c.Run(pl.Ranks(4), tensor.Randn(1, 4, 4, testprogs.CollectiveCols), tensor.Zeros(pl.FP32, 4, 4, testprogs.CollectiveCols))
	require.NoError(t, err)
	return res.Timeline()
}

// A lowered allreduce is dozens of ops per rank from the one line that
// called it: the swimlane collapses them into one titled group a lane, with
// the full picture in a <details> that expands.
func TestSwimlaneGroupsLoweredCollective(t *testing.T) {
	tl := allreduceRun(t)
	out := display.Swimlane(tl)
	collapsed, expanded, ok := strings.Cut(out, `<details class="ptorepl-swimlane-expanded">`)
	require.True(t, ok, "the expanded view follows in a <details>")
	require.True(t, strings.HasPrefix(collapsed, `<svg xmlns="http://www.w3.org/2000/svg" class="ptorepl-swimlane collapsed"`))
	require.Contains(t, expanded, `<svg xmlns="http://www.w3.org/2000/svg" class="ptorepl-swimlane expanded"`)
	require.True(t, strings.HasSuffix(out, "</svg></details>"))

	// Every rank's allreduce collapses into its signalling rounds (the
	// line's ops between one round of notifies and the next), each titled
	// with what it holds.
	_, file, _, _ := goruntime.Caller(0)
	groupTitle := regexp.MustCompile(`<g class="group"><rect [^>]*><title>rank (\d): round (\d+) of (\d+), (\d+) ops from ` + regexp.QuoteMeta(filepath.Base(file)) + `:\d+ in kernel: ([^<]*)</title>`)
	groups := groupTitle.FindAllStringSubmatch(collapsed, -1)
	perRank := map[string]int{}
	for _, g := range groups {
		perRank[g[1]]++
		require.Equal(t, "6", g[3], "the lowered allreduce signals in six rounds: %s", g[0])
	}
	require.Equal(t, map[string]int{"0": 6, "1": 6, "2": 6, "3": 6}, perRank)
	require.Contains(t, groups[1][5], "3× pld.system.notify, 3× pld.system.wait, 3× pld.tile.remote_load")
	require.Contains(t, out, "<summary>every op: ")
	boxes := func(s string) int { return strings.Count(s, "<rect x=") }
	require.Less(t, 4*boxes(collapsed), boxes(expanded), "collapsing leaves a fraction of the boxes")
	require.Equal(t, 0, strings.Count(collapsed, `class="notify-wait"`), "no arrows into collapsed groups")
	require.Greater(t, strings.Count(expanded, `class="notify-wait"`), 12)
	require.Contains(t, collapsed, "legend-group")
	require.Contains(t, collapsed, `class="axis-tick"`)
}

// A deadlocked run's blocked waits are outlined and labelled with the cell
// each waits on (the timeline marks them Blocked); they never collapse into
// a group, and no arrow points at a wait nothing released.
func TestSwimlaneMarksBlockedWaits(t *testing.T) {
	at := func(line int) ir.Span { return ir.Span{File: "cell[3]", Line: line, Col: 2} }
	tl := &runtime.Timeline{Ranks: 2, Lanes: [][]runtime.Event{
		{
			{Rank: 0, Op: "tile.load", Kind: "memory", Func: "kernel", Pos: at(4), StartTick: 1, EndTick: 2, Peer: -1},
			{Rank: 0, Op: "pld.system.wait", Kind: "wait", Func: "kernel", Pos: at(6), StartTick: 5, EndTick: 20, Peer: -1,
				Cell: "signal_buf[1, 0]", Value: 1, Blocked: true},
		},
		{
			{Rank: 1, Op: "tile.load", Kind: "memory", Func: "kernel", Pos: at(4), StartTick: 3, EndTick: 4, Peer: -1},
			{Rank: 1, Op: "pld.system.wait", Kind: "wait", Func: "kernel", Pos: at(6), StartTick: 6, EndTick: 19, Peer: -1,
				Cell: "signal_buf[0, 0]", Value: 1, Blocked: true},
		},
	}}
	svg := display.Swimlane(tl)
	require.Equal(t, 2, strings.Count(svg, `class="wait blocked" stroke="#a50f15"`))
	require.Contains(t, svg, "<title>rank 0: pld.system.wait in kernel at cell[3]:6:2, cell signal_buf[1, 0] value 1: blocked here, it never returned</title>")
	require.Contains(t, svg, ">blocked: waits on signal_buf[1, 0] for 1 (cell[3]:6:2)</text>")
	require.Contains(t, svg, ">blocked: waits on signal_buf[0, 0] for 1 (cell[3]:6:2)</text>")
	require.Contains(t, svg, `legend-blocked`)
	require.NotContains(t, svg, "notify-wait")
}

// A run whose ranks recorded nothing still draws its lanes and an axis of
// whole ticks, without repeating a label.
func TestSwimlaneEmptyLanes(t *testing.T) {
	svg := display.Swimlane(&runtime.Timeline{Ranks: 2, Lanes: make([][]runtime.Event, 2)})
	require.Contains(t, svg, ">rank 1</text>")
	labels := regexp.MustCompile(`class="axis-label"[^>]*>(\d+)<`).FindAllStringSubmatch(svg, -1)
	require.Len(t, labels, 2)
	require.Equal(t, []string{"0", "1"}, []string{labels[0][1], labels[1][1]})
}
