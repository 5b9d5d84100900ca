package runtime

import (
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/stretchr/testify/require"
)

// The core accounting: which tasks conflict, which queued tasks a free
// core starts, and when a deadlock is a resource deadlock.

// hostRows is a view of rows [row, row+n) of a [4, 4] FP32 host tensor.
func hostRows(buf []byte, row, n int) *view {
	return &view{dt: ir.FP32, shape: []int{n, 4}, strides: []int{4, 1}, off: row * 4, host: buf}
}

func fnDirs(name string, publishes bool, dirs ...ir.ParamDirection) *ir.Function {
	f := &ir.Function{Name: name, Dirs: dirs}
	if publishes {
		f.Body = &ir.EvalStmt{Expr: &ir.Call{Op: ir.PldSystemNotify}}
	}
	return f
}

func TestConflicts(t *testing.T) {
	x := make([]byte, 64)
	y := make([]byte, 64)
	win := &view{dt: ir.INT32, shape: []int{1, 1}, strides: []int{1, 1}, win: &WindowBuf{Name: "sig"}}
	in := fnDirs("reads", false, ir.In)
	out := fnDirs("writes", false, ir.Out)
	inout := fnDirs("updates", false, ir.InOut)
	for _, tc := range []struct {
		name string
		a, b task
		want bool
	}{
		{"both read the same rows", task{fn: in, args: []any{hostRows(x, 0, 2)}}, task{fn: in, args: []any{hostRows(x, 0, 2)}}, false},
		{"write then read of the same rows", task{fn: out, args: []any{hostRows(x, 0, 2)}}, task{fn: in, args: []any{hostRows(x, 1, 1)}}, true},
		{"read then write (WAR)", task{fn: in, args: []any{hostRows(x, 0, 2)}}, task{fn: inout, args: []any{hostRows(x, 1, 2)}}, true},
		{"writes to disjoint rows", task{fn: out, args: []any{hostRows(x, 0, 2)}}, task{fn: out, args: []any{hostRows(x, 2, 2)}}, false},
		{"writes to different tensors", task{fn: out, args: []any{hostRows(x, 0, 4)}}, task{fn: out, args: []any{hostRows(y, 0, 4)}}, false},
		{"a shared window orders nothing", task{fn: inout, args: []any{win}}, task{fn: inout, args: []any{win}}, false},
		{"scalars order nothing", task{fn: in, args: []any{int64(1)}}, task{fn: in, args: []any{int64(1)}}, false},
		{"a host collective orders everything", task{op: func(*Exec, *ir.Call, []any) (any, error) { return nil, nil }}, task{fn: in}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, conflicts(&job{task: tc.a}, &job{task: tc.b}))
			require.Equal(t, tc.want, conflicts(&job{task: tc.b}, &job{task: tc.a}), "conflict is symmetric")
		})
	}
}

func TestByteSpan(t *testing.T) {
	buf := make([]byte, 64)
	for _, tc := range []struct {
		v      *view
		lo, hi int
	}{
		{hostRows(buf, 0, 4), 0, 64},
		{hostRows(buf, 1, 2), 16, 48},
		{&view{dt: ir.FP32, shape: []int{2, 1}, strides: []int{4, 1}, off: 3, host: buf}, 12, 32}, // a column
		{&view{dt: ir.FP32, shape: []int{0, 4}, strides: []int{4, 1}, host: buf}, 0, 0},
	} {
		lo, hi := tc.v.byteSpan()
		require.Equal(t, [2]int{tc.lo, tc.hi}, [2]int{lo, hi}, "%v at %d", tc.v.shape, tc.v.off)
	}
}

// TestStartOnFreeCores: what a free core starts, for given cores, running
// tasks and queue.
func TestStartOnFreeCores(t *testing.T) {
	x := make([]byte, 64)
	out := fnDirs("writes", false, ir.Out)
	task0 := func(row int) *job { return &job{task: task{fn: out, args: []any{hostRows(x, row, 1)}}} }
	coll := &job{task: task{op: func(*Exec, *ir.Call, []any) (any, error) { return nil, nil }}}
	for _, tc := range []struct {
		name    string
		cores   int
		active  []*job // running, each on a core
		queue   []*job
		resume  []*job
		stopped bool
		started []int // queue indexes started (resumers first, as -1 - i)
		busy    int
	}{
		{"one core runs one task", 1, nil, []*job{task0(0), task0(1)}, nil, false, []int{0}, 1},
		{"two cores run two independent tasks", 2, nil, []*job{task0(0), task0(1), task0(2)}, nil, false, []int{0, 1}, 2},
		{"a conflicting task waits, a later one overtakes", 2, nil, []*job{task0(0), task0(0), task0(1)}, nil, false, []int{0, 2}, 2},
		{"a task conflicting with a running one waits", 2, []*job{task0(3)}, []*job{task0(3), task0(2)}, nil, false, []int{1}, 2},
		{"no free core", 1, []*job{task0(3)}, []*job{task0(2)}, nil, false, nil, 1},
		{"a resuming task goes first", 1, nil, []*job{task0(2)}, []*job{task0(3)}, false, []int{-1}, 1},
		{"a host collective waits for everything before it", 3, nil, []*job{task0(0), coll, task0(1)}, nil, false, []int{0}, 1},
		{"a stopped run starts everything", 1, []*job{task0(3)}, []*job{task0(3), task0(2)}, nil, true, []int{0, 1}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(&ir.Program{}, RunOptions{Ranks: 1, Cores: tc.cores, MaxEvents: -1})
			if tc.stopped {
				s.sched.stopped.Store(true)
			}
			w := &worker{cores: tc.cores}
			for _, a := range tc.active {
				a.core = true
				w.active = append(w.active, a)
				w.busy++
			}
			for _, r := range tc.resume {
				w.active = append(w.active, r)
			}
			w.q = append(w.q, tc.queue...)
			w.resume = append(w.resume, tc.resume...)
			got := s.startLocked(w)
			var idx []int
			for _, j := range got {
				for i, q := range tc.queue {
					if q == j {
						idx = append(idx, i)
					}
				}
				for i, r := range tc.resume {
					if r == j {
						idx = append(idx, -1-i)
					}
				}
				require.True(t, j.core)
			}
			require.Equal(t, tc.started, idx)
			require.Equal(t, tc.busy, w.busy)
			require.Len(t, w.q, len(tc.queue)-countQueued(tc.started))
		})
	}
}

func countQueued(idx []int) int {
	n := 0
	for _, i := range idx {
		if i >= 0 {
			n++
		}
	}
	return n
}

// TestClassifyDeadlock: a deadlock is a resource deadlock exactly when a
// rank's cores are all held by blocking waits and a publishing task that a
// free core would start is queued there.
func TestClassifyDeadlock(t *testing.T) {
	x := make([]byte, 64)
	waiter := fnDirs("waiter", false, ir.Out)
	pub := fnDirs("publisher", true, ir.Out)
	quiet := fnDirs("quiet", false, ir.Out)
	wait := func(op string) BlockedRank {
		return BlockedRank{Rank: 0, Op: op, Deferred: ir.MustOp(op).Deferred, Func: "waiter", Cell: "sig[0, 0]", Want: ">= 1"}
	}
	on := func(fn *ir.Function, row int) *job { return &job{task: task{fn: fn, args: []any{hostRows(x, row, 1)}}} }
	for _, tc := range []struct {
		name     string
		cores    int
		running  []*job
		queue    []*job
		blocked  []BlockedRank
		resource bool
	}{
		{"both cores held, publisher queued", 2, []*job{on(waiter, 0), on(waiter, 1)}, []*job{on(waiter, 2), on(pub, 3)},
			[]BlockedRank{wait("pld.system.wait"), wait("pld.system.wait")}, true},
		{"only quiet tasks queued", 2, []*job{on(waiter, 0), on(waiter, 1)}, []*job{on(quiet, 2)},
			[]BlockedRank{wait("pld.system.wait"), wait("pld.system.wait")}, false},
		{"the publisher waits for a waiter it conflicts with", 2, []*job{on(waiter, 0), on(waiter, 1)}, []*job{on(pub, 1)},
			[]BlockedRank{wait("pld.system.wait"), wait("pld.system.wait")}, false},
		{"a deferred wait holds no core", 2, []*job{on(waiter, 0), on(waiter, 1)}, []*job{on(pub, 3)},
			[]BlockedRank{wait("pld.system.wait"), wait("pld.system.defer_wait")}, false},
		{"nothing queued", 1, []*job{on(waiter, 0)}, nil, []BlockedRank{wait("pld.system.wait")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(&ir.Program{}, RunOptions{Ranks: 1, Cores: tc.cores, MaxEvents: -1})
			w := &worker{cores: tc.cores}
			for i, j := range tc.running {
				j.core, j.seq = true, i+1
				w.active = append(w.active, j)
				w.busy++
			}
			for i, j := range tc.queue {
				j.seq = len(tc.running) + i + 1
			}
			w.q = tc.queue
			s.workers[0] = w
			err := s.classifyDeadlock(&DeadlockError{Blocked: tc.blocked})
			rd, ok := err.(*ResourceDeadlockError)
			require.Equal(t, tc.resource, ok, "%v", err)
			if ok {
				require.Len(t, rd.Starved, 1)
				require.Len(t, rd.Starved[0].Holding, tc.cores)
				require.Len(t, rd.Starved[0].Queued, len(tc.queue))
			}
		})
	}
}
