// Package runtime holds ptorepl's devices. The default one is an embedded
// simulator that executes the IR across N ranks with PyPTO's window-buffer
// and signal semantics: symmetric zero-initialised windows, one-sided RMA,
// Set/AtomicAdd notifies and blocking waits. It detects deadlocks instead of
// hanging and records a per-rank timeline.
package runtime

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// Device is what a backend implements: run a program's host orchestrator
// with host tensors, filling Out/InOut tensors in place.
type Device interface {
	Name() string
	Run(ctx context.Context, p *ir.Program, args []*tensor.Tensor, o RunOptions) (*Result, error)
}

// RunOptions configure one run.
type RunOptions struct {
	// Ranks is the world size (default 2).
	Ranks int
	// Watchdog bounds the wall-clock time of a run (default 30s); deadlocks
	// are normally found long before, by the blocked-rank analysis.
	Watchdog time.Duration
	// Progress, if set, is called as ranks finish and every 10000 ops.
	Progress func(Progress)
}

// Progress reports how far a run is.
type Progress struct {
	Ranks, RanksDone int
	Ops              int64
}

// Result is a finished run.
type Result struct {
	Ranks    int
	Timeline *Timeline
	// Signals are the final non-zero signal cells (window INT32 cells that a
	// notify touched), for stale-signal reports.
	Signals []SignalCell
}

// SignalCell is one notified cell and its final value on a rank.
type SignalCell struct {
	Rank   int
	Buffer string
	Offset []int
	Value  int64
	SetBy  map[string]bool // "Set", "AtomicAdd"
}

// Simulator is the embedded multi-rank device.
type Simulator struct{}

// NewSimulator returns the simulator device.
func NewSimulator() *Simulator { return &Simulator{} }

// Name is "sim".
func (*Simulator) Name() string { return "sim" }

// DeadlockError is returned when every live rank waits and nothing can wake them.
type DeadlockError struct {
	Blocked []BlockedRank
}

// BlockedRank describes one rank stuck in a wait.
type BlockedRank struct {
	Rank   int
	Op     string
	Pos    ir.Span
	Cell   string // buffer[offsets]
	Value  int64
	Want   string // ">= 1", "== 2"
	Func   string
	Writes []string // the cell's history: who wrote what, in order
}

func (e *DeadlockError) Error() string {
	var b strings.Builder
	b.WriteString("deadlock: every live rank is blocked and no pending operation can wake them")
	for _, r := range e.Blocked {
		fmt.Fprintf(&b, "\n  rank %d: %s", r.Rank, r.Op)
		if r.Pos.Known() {
			fmt.Fprintf(&b, " at %s", r.Pos)
		}
		fmt.Fprintf(&b, " in %s waits on %s = %d, for %s", r.Func, r.Cell, r.Value, r.Want)
		if len(r.Writes) > 0 {
			fmt.Fprintf(&b, " (cell history: %s)", strings.Join(r.Writes, ", "))
		} else {
			b.WriteString(" (nobody ever wrote this cell)")
		}
	}
	return b.String()
}

// sim is one run's shared state.
type sim struct {
	ctx   context.Context
	world int
	prog  *ir.Program

	mu      sync.Mutex
	cond    *sync.Cond
	bufs    []*WindowBuf
	mem     map[*WindowBuf][][]byte // per rank
	live    int
	blocked map[int]*BlockedRank
	failed  error
	cells   map[cellKey]*cellInfo

	timeline *Timeline
	ops      int64
	progress func(Progress)
	done     int
}

type cellKey struct {
	rank int
	buf  *WindowBuf
	off  int
}

type cellInfo struct {
	idx    []int
	writes []string
	setBy  map[string]bool
}

// Read implements Windows.
func (s *sim) Read(rank int, buf *WindowBuf, off int, dst []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readLocked(rank, buf, off, dst)
}

func (s *sim) readLocked(rank int, buf *WindowBuf, off int, dst []byte) error {
	m, err := s.bytesOf(rank, buf, off, len(dst))
	if err != nil {
		return err
	}
	copy(dst, m)
	return nil
}

// Write implements Windows.
func (s *sim) Write(rank int, buf *WindowBuf, off int, src []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.bytesOf(rank, buf, off, len(src))
	if err != nil {
		return err
	}
	copy(m, src)
	s.changedLocked()
	return nil
}

func (s *sim) bytesOf(rank int, buf *WindowBuf, off, n int) ([]byte, error) {
	per, ok := s.mem[buf]
	if !ok {
		return nil, fmt.Errorf("window buffer %s is not allocated", buf.Name)
	}
	if rank < 0 || rank >= len(per) {
		return nil, fmt.Errorf("rank %d is outside the world of %d ranks", rank, len(per))
	}
	if off < 0 || off+n > len(per[rank]) {
		return nil, fmt.Errorf("access of %d bytes at byte %d overflows window buffer %s (%d bytes per rank)", n, off, buf.Name, len(per[rank]))
	}
	return per[rank][off : off+n], nil
}

func (s *sim) alloc(name string, size int) *WindowBuf {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := &WindowBuf{Name: name, Size: size, id: len(s.bufs)}
	s.bufs = append(s.bufs, b)
	per := make([][]byte, s.world)
	for r := range per {
		per[r] = make([]byte, size) // zero-initialised per host call
	}
	s.mem[b] = per
	return b
}

// signalOp applies a notify to rank's INT32 cell under the lock.
func (s *sim) notify(from, rank int, buf *WindowBuf, off int, idx []int, v int64, set bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.bytesOf(rank, buf, off, 4)
	if err != nil {
		return err
	}
	old := int64(int32(loadElem(m, ir.INT32)))
	nv := v
	kind := "Set"
	if !set {
		nv = old + v
		kind = "AtomicAdd"
	}
	storeElem(m, ir.INT32, float64(nv))
	ci := s.cell(rank, buf, off, idx)
	ci.setBy[kind] = true
	ci.writes = append(ci.writes, fmt.Sprintf("rank %d %s %d → %d", from, strings.ToLower(kind), v, int32(nv)))
	s.changedLocked()
	return nil
}

func (s *sim) cell(rank int, buf *WindowBuf, off int, idx []int) *cellInfo {
	k := cellKey{rank, buf, off}
	ci, ok := s.cells[k]
	if !ok {
		ci = &cellInfo{idx: append([]int(nil), idx...), setBy: map[string]bool{}}
		s.cells[k] = ci
	}
	return ci
}

// changedLocked wakes every waiter after window memory changed. Woken
// waiters are no longer counted as blocked until they re-check their cell,
// so a deadlock is declared only when all live ranks re-checked in vain.
func (s *sim) changedLocked() {
	clear(s.blocked)
	s.cond.Broadcast()
}

// wait blocks rank until its cell satisfies ok. When every live rank is
// blocked, nothing can change any cell: that is a deadlock.
func (s *sim) wait(rank int, buf *WindowBuf, off int, idx []int, info BlockedRank, ok func(int64) bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if s.failed != nil {
			return errAborted
		}
		m, err := s.bytesOf(rank, buf, off, 4)
		if err != nil {
			return err
		}
		v := int64(int32(loadElem(m, ir.INT32)))
		if ok(v) {
			return nil
		}
		if err := s.ctx.Err(); err != nil {
			s.fail(err)
			return err
		}
		info.Value = v
		info.Writes = append([]string(nil), s.cell(rank, buf, off, idx).writes...)
		s.blocked[rank] = &info
		if len(s.blocked) == s.live {
			s.fail(s.deadlockLocked())
			return errAborted
		}
		s.cond.Wait()
		delete(s.blocked, rank)
	}
}

var errAborted = errors.New("run aborted")

func (s *sim) deadlockLocked() error {
	d := &DeadlockError{}
	for _, b := range s.blocked {
		d.Blocked = append(d.Blocked, *b)
	}
	sort.Slice(d.Blocked, func(i, j int) bool { return d.Blocked[i].Rank < d.Blocked[j].Rank })
	return d
}

// fail records the run's first error and wakes everyone.
func (s *sim) fail(err error) {
	if s.failed == nil {
		s.failed = err
	}
	s.cond.Broadcast()
}

func (s *sim) hostDone() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.live--
	s.checkStuckLocked()
}

func (s *sim) rankDone() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.live--
	s.done++
	if s.progress != nil {
		s.progress(Progress{Ranks: s.world, RanksDone: s.done, Ops: s.ops})
	}
	s.checkStuckLocked()
}

func (s *sim) checkStuckLocked() {
	if s.live > 0 && len(s.blocked) == s.live && s.failed == nil {
		s.fail(s.deadlockLocked())
	}
	s.cond.Broadcast()
}

// Run executes p's host orchestrator with args on o.Ranks simulated ranks.
func (d *Simulator) Run(ctx context.Context, p *ir.Program, args []*tensor.Tensor, o RunOptions) (*Result, error) {
	if o.Ranks <= 0 {
		o.Ranks = 2
	}
	if o.Watchdog <= 0 {
		o.Watchdog = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, o.Watchdog)
	defer cancel()
	s := &sim{ctx: ctx, world: o.Ranks, prog: p, mem: map[*WindowBuf][][]byte{}, blocked: map[int]*BlockedRank{},
		cells: map[cellKey]*cellInfo{}, timeline: newTimeline(o.Ranks), progress: o.Progress}
	s.cond = sync.NewCond(&s.mu)
	// Wake waiters when the context ends, so cancellation and the watchdog work.
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.fail(fmt.Errorf("run stopped: %w", ctx.Err()))
		s.mu.Unlock()
	})
	defer stop()

	var host *ir.Function
	for _, f := range p.Functions {
		if f.IsHostOrchestrator() {
			if host != nil {
				return nil, fmt.Errorf("program %s has two host orchestrators (%s, %s)", p.Name, host.Name, f.Name)
			}
			host = f
		}
	}
	if host == nil {
		return nil, fmt.Errorf("program %s has no host orchestrator (prog.Host): nothing says how ranks are dispatched", p.Name)
	}
	if err := s.runHost(host, args); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("watchdog: the run took longer than %s: %w", o.Watchdog, err)
		}
		return nil, err
	}
	res := &Result{Ranks: o.Ranks, Timeline: s.timeline}
	for k, ci := range s.cells {
		m, _ := s.bytesOf(k.rank, k.buf, k.off, 4)
		if v := int64(int32(loadElem(m, ir.INT32))); v != 0 || len(ci.setBy) > 1 {
			res.Signals = append(res.Signals, SignalCell{Rank: k.rank, Buffer: k.buf.Name, Offset: ci.idx, Value: v, SetBy: ci.setBy})
		}
	}
	sort.Slice(res.Signals, func(i, j int) bool {
		a, b := res.Signals[i], res.Signals[j]
		if a.Rank != b.Rank {
			return a.Rank < b.Rank
		}
		if a.Buffer != b.Buffer {
			return a.Buffer < b.Buffer
		}
		return fmt.Sprint(a.Offset) < fmt.Sprint(b.Offset)
	})
	return res, nil
}
