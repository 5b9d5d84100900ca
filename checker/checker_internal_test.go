package checker

import (
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/stretchr/testify/require"
)

// Unit tests that drive a Checker with synthetic observer events.

var (
	opStore = &ir.Call{Op: ir.MustOp("tile.store"), Pos: ir.Span{File: "k.go", Line: 20}}
	opLoad  = &ir.Call{Op: ir.MustOp("pld.tile.remote_load"), Pos: ir.Span{File: "k.go", Line: 10}}
	opLocal = &ir.Call{Op: ir.MustOp("tile.load"), Pos: ir.Span{File: "k.go", Line: 30}}
	opNtfy  = &ir.Call{Op: ir.MustOp("pld.system.notify"), Pos: ir.Span{File: "k.go", Line: 12}}
	opWait  = &ir.Call{Op: ir.MustOp("pld.system.wait"), Pos: ir.Span{File: "k.go", Line: 14}}
)

// rowLayout is a [rows, 16] FP32 window view.
var rowLayout = &runtime.ViewLayout{ElemBytes: 4, Shape: []int{1, 16}, Strides: []int{16, 1}}

func acc(rank, target int, kind runtime.AccessKind, call *ir.Call, lo, hi int) runtime.Access {
	return runtime.Access{Rank: rank, Target: target, Origin: runtime.Origin{Call: call, Func: "k", View: rowLayout},
		Buffer: "data_buf", Ranges: []runtime.ByteRange{{Lo: lo, Hi: hi}}, Kind: kind}
}

func cell(rank, src int) runtime.Cell {
	return runtime.Cell{Rank: rank, Buffer: "signal_buf", Offset: 4 * src, Index: []int{src, 0}}
}

func notify(c *Checker, from int, cl runtime.Cell, kind runtime.NotifyKind, v, old int32, seq int) {
	nv := v
	if kind == runtime.NotifyAtomicAdd {
		nv = old + v
	}
	c.Notify(runtime.Notification{Rank: from, Origin: runtime.Origin{Call: opNtfy, Func: "k"}, Cell: cl, Kind: kind, Value: v, Old: old, New: nv, Seq: seq})
}

func wait(c *Checker, cl runtime.Cell, cmp string, want int64, saw int32, observed int) {
	c.Wait(runtime.WaitResult{Rank: cl.Rank, Origin: runtime.Origin{Call: opWait, Func: "k"}, Cell: cl, Value: saw, Satisfied: true,
		Observed: observed, Cond: runtime.Cond{Cmp: cmp, Value: want}})
}

func TestUnorderedConflictsRace(t *testing.T) {
	c := New(2)
	c.Access(acc(1, 0, runtime.Read, opLoad, 0, 64))    // rank 1 reads rank 0's row 0
	c.Access(acc(0, 0, runtime.Write, opStore, 32, 96)) // rank 0 overwrites half of it and the next row's start
	c.End(runtime.RunEnd{})
	r := c.Report().Of(KindRace)
	require.Len(t, r, 1)
	require.Equal(t, "rank 0 stores to its data_buf[0, 8:16] while rank 1 may still be reading it (remote_load): add a barrier between the reads and the store — "+
		"the readers notify when they are done and rank 0 waits for them before writing.", r[0].Message)
	require.Contains(t, r[0].Details[0], "rank 1: pld.tile.remote_load at k.go:10 in k — remote-loads rank 0's data_buf[0, 8:16] (window data_buf, bytes [32, 64))")
}

func TestReadsAndAtomicsDoNotRaceAmongThemselves(t *testing.T) {
	c := New(3)
	c.Access(acc(1, 0, runtime.Read, opLoad, 0, 64))
	c.Access(acc(2, 0, runtime.Read, opLoad, 0, 64))
	c.Access(acc(1, 0, runtime.Atomic, opStore, 64, 128))
	c.Access(acc(2, 0, runtime.Atomic, opStore, 64, 128))
	c.End(runtime.RunEnd{})
	require.Empty(t, c.Report().Findings)

	c = New(2) // an atomic add against a plain read is a race
	c.Access(acc(1, 0, runtime.Atomic, opStore, 0, 64))
	c.Access(acc(0, 0, runtime.Read, opLocal, 0, 64))
	c.End(runtime.RunEnd{})
	require.Len(t, c.Report().Of(KindRace), 1)
}

// A notify releases, a wait that saw it acquires: accesses around a
// barrier are ordered, and the same rank never races itself.
func TestNotifyWaitOrders(t *testing.T) {
	c := New(2)
	c.Access(acc(0, 0, runtime.Write, opStore, 0, 64))
	notify(c, 0, cell(1, 0), runtime.NotifyAtomicAdd, 1, 0, 0)
	c.Access(acc(0, 0, runtime.Write, opStore, 64, 128)) // after the release: not covered
	wait(c, cell(1, 0), "ge", 1, 1, 1)
	c.Access(acc(1, 0, runtime.Read, opLoad, 0, 128))
	c.Access(acc(1, 1, runtime.Write, opStore, 0, 64))
	c.Access(acc(1, 1, runtime.Read, opLocal, 0, 64))
	c.End(runtime.RunEnd{})
	r := c.Report().Of(KindRace)
	require.Len(t, r, 1, "only the store after the notify races")
	require.Contains(t, r[0].Message, "data_buf[1, 0:16]")

	// A comm_test that fails acquires nothing.
	c = New(2)
	c.Access(acc(0, 0, runtime.Write, opStore, 0, 64))
	notify(c, 0, cell(1, 0), runtime.NotifyAtomicAdd, 1, 0, 0)
	c.Wait(runtime.WaitResult{Rank: 1, Cell: cell(1, 0), Value: 1, Satisfied: false, Observed: 1, Cond: runtime.Cond{Cmp: "ge", Value: 2}})
	c.Access(acc(1, 0, runtime.Read, opLoad, 0, 64))
	c.End(runtime.RunEnd{})
	require.Len(t, c.Report().Of(KindRace), 1)
}

// The host's join orders everything before it before everything after.
func TestJoinedOrders(t *testing.T) {
	c := New(2)
	c.Access(acc(0, 0, runtime.Write, opStore, 0, 64))
	c.Joined()
	c.Access(acc(1, 0, runtime.Read, opLoad, 0, 64))
	c.Access(acc(1, 1, runtime.Write, opStore, 0, 64))
	c.Access(acc(0, 1, runtime.Read, opLoad, 0, 64)) // after the join, unordered with rank 1's store
	c.End(runtime.RunEnd{})
	r := c.Report().Of(KindRace)
	require.Len(t, r, 1)
	require.Contains(t, r[0].Message, "rank 1 stores to its data_buf[0, 0:16] while rank 0 may still be reading it")
}

// The interval map splits and merges: many small accesses over one range,
// then one access over all of it, leave one interval.
func TestShadowIntervals(t *testing.T) {
	sh := &shadow{}
	vc := clock{1, 1}
	noConflict := func(p *access, lo, hi int) { t.Fatalf("unexpected conflict with %+v", p) }
	for lo := 0; lo < 256; lo += 32 {
		sh.apply(&access{rank: 0, kind: runtime.Write, epoch: 1}, lo, lo+32, vc, noConflict)
	}
	require.Len(t, sh.segs, 8)
	w := &access{rank: 0, kind: runtime.Write, epoch: 1}
	sh.apply(w, 16, 240, vc, noConflict)
	require.Len(t, sh.segs, 3) // [0,16) [16,240) [240,256)
	require.Equal(t, seg{16, 240, sh.segs[1].st}, sh.segs[1])
	var got [][2]int
	sh.apply(&access{rank: 1, kind: runtime.Read, epoch: 1}, 8, 300, clock{0, 1}, func(p *access, lo, hi int) {
		got = append(got, [2]int{lo, hi})
	})
	require.Equal(t, [][2]int{{8, 16}, {16, 240}, {240, 256}}, got)
	require.Len(t, sh.segs, 5, "[0,8) keeps its state; [8,16), [16,240), [240,256) add the read to three different states; [256,300) is new")
	for i := 1; i < len(sh.segs); i++ {
		require.Equal(t, sh.segs[i-1].hi, sh.segs[i].lo)
	}
}

func TestBoxRendering(t *testing.T) {
	l := &runtime.ViewLayout{ElemBytes: 4, Strides: []int{64, 64, 1}} // a [NR, 1, 64] FP32 view
	for _, c := range []struct {
		rs   []runtime.ByteRange
		want string
		ok   bool
	}{
		{[]runtime.ByteRange{{Lo: 0, Hi: 256}}, "[0, 0, 0:64]", true},
		{[]runtime.ByteRange{{Lo: 256, Hi: 768}}, "[1:3, 0, 0:64]", true},
		{[]runtime.ByteRange{{Lo: 260, Hi: 264}}, "[1, 0, 1]", true},
		{[]runtime.ByteRange{{Lo: 0, Hi: 16}, {Lo: 256, Hi: 272}}, "[0:2, 0, 0:4]", true},
		{[]runtime.ByteRange{{Lo: 128, Hi: 384}}, "", false}, // half a row into the next
		{[]runtime.ByteRange{{Lo: 2, Hi: 6}}, "", false},     // not element-aligned
	} {
		got, ok := boxOf(l, c.rs)
		require.Equal(t, c.ok, ok, "%v", c.rs)
		require.Equal(t, c.want, got)
	}
	_, ok := boxOf(nil, []runtime.ByteRange{{Lo: 0, Hi: 4}})
	require.False(t, ok)
	require.Equal(t, "buf bytes [0, 64) in 2 pieces", byteText("buf", []runtime.ByteRange{{Lo: 0, Hi: 16}, {Lo: 32, Hi: 64}}))
}

// Stale reuse is decided by the notifies each wait needed, not by timing: a
// Ge 1 then Ge 2 credit barrier is fine even when the first wait already
// saw 2, a second Ge 1 is not; the waiter's own epilogue counts.
func TestStaleAnalysis(t *testing.T) {
	c := New(2)
	cl := cell(0, 1)
	notify(c, 1, cl, runtime.NotifyAtomicAdd, 1, 0, 0)
	notify(c, 1, cl, runtime.NotifyAtomicAdd, 1, 1, 1)
	wait(c, cl, "ge", 1, 2, 2) // a fast peer: already 2
	wait(c, cl, "ge", 2, 2, 2) // needs the second notify: fine
	notify(c, 0, cl, runtime.NotifyAtomicAdd, -2, 2, 2)
	notify(c, 1, cl, runtime.NotifyAtomicAdd, 1, 0, 3)
	wait(c, cl, "ge", 1, 1, 4) // the next call: needs the new notify
	require.Empty(t, c.Report().Of(KindStaleSignal))
	wait(c, cl, "ge", 1, 1, 4) // the same credits again
	s := c.Report().Of(KindStaleSignal)
	require.Len(t, s, 1)
	require.True(t, strings.HasPrefix(s[0].Message, "rank 0's wait for signal_buf[1, 0] >= 1 passes on credits an earlier wait"), s[0].Message)
}

// A wait for the clear state after a credit barrier's epilogue (upstream's
// multicore allreduce test waits == 0 on each lane) counts no credits: it
// is not stale reuse (TestStaleAnalysis keeps a second Ge 1 on the same
// credits flagged).
func TestStaleAnalysisSkipsClearWaits(t *testing.T) {
	c := New(2)
	cl := cell(0, 1)
	notify(c, 1, cl, runtime.NotifyAtomicAdd, 1, 0, 0)
	wait(c, cl, "ge", 1, 1, 1)
	notify(c, 0, cl, runtime.NotifyAtomicAdd, -1, 1, 1) // the epilogue
	wait(c, cl, "eq", 0, 0, 2)                          // the cell is clear
	require.Empty(t, c.Report().Of(KindStaleSignal))
}

func TestOvertakenNeedsAnUnorderedNotify(t *testing.T) {
	c := New(2)
	cl := cell(0, 1)
	notify(c, 1, cl, runtime.NotifyAtomicAdd, 1, 0, 0)
	wait(c, cl, "eq", 1, 1, 1)
	notify(c, 0, cell(1, 0), runtime.NotifyAtomicAdd, 1, 0, 0) // rank 0 tells rank 1 it passed
	wait(c, cell(1, 0), "ge", 1, 1, 1)
	notify(c, 1, cl, runtime.NotifyAtomicAdd, 1, 1, 1) // ordered after the Eq wait: fine
	require.Empty(t, c.Report().Of(KindOvertaken))

	c = New(2)
	notify(c, 1, cl, runtime.NotifyAtomicAdd, 1, 0, 0)
	wait(c, cl, "eq", 1, 1, 1)
	notify(c, 1, cl, runtime.NotifyAtomicAdd, 1, 1, 1) // nothing orders it after the wait
	require.Len(t, c.Report().Of(KindOvertaken), 1)
}
