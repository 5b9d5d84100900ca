// Package runtime holds ptorepl's devices: what runs an IR program on N ranks
// and returns tensors. The default device is an embedded simulator that
// executes the IR itself with PyPTO's window-buffer and signal semantics:
// symmetric zero-initialised windows, one-sided RMA, Set/AtomicAdd notifies
// and blocking waits, and collectives built from them.
//
// The host orchestrator runs on the caller's goroutine; each `device=r`
// dispatch queues a task on rank r, which runs it on a free one of its AIV
// cores (RunOptions.Cores; one by default, so a rank runs its tasks in
// order), concurrently with the other ranks (cores.go). Ranks reach window memory
// only through the Windows interface. The simulator never hangs: when every
// live rank is blocked in a wait it returns a *DeadlockError naming each
// rank, its op, the cell, its value and the wanted condition; a wall-clock
// watchdog and the caller's context back that up.
//
// An op's simulated semantics hang off its ir registry entry under the
// "sim" facet (see OpFunc); the interpreter has no switch on op names.
//
// Other devices plug in through the same seam (devices.go): a Device loads
// and runs; optional capabilities (observer, seed, timeline, progress) are
// small interfaces it may implement; devices register by name
// (RegisterDevice, OpenDevice); and RunRank runs one rank of a program with
// these same op semantics against a device's own Windows, which is how the
// MPI device (package mpidev) runs a rank per process.
package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// Device is what a backend implements: load a program (checking that it can
// run it) and run its host orchestrator with host tensors. Out/InOut host
// tensors are written in place, like torch, and also listed in the result.
type Device interface {
	Name() string
	Load(p *ir.Program) (Executable, error)
	Run(ctx context.Context, p *ir.Program, args []*tensor.Tensor, o RunOptions) (*Result, error)
}

// Executable is a loaded program, runnable many times.
type Executable interface {
	Program() *ir.Program
	Run(ctx context.Context, args []*tensor.Tensor, o RunOptions) (*Result, error)
}

// MaxRanks is the largest world size a run accepts: the simulator runs a
// goroutine per rank and a window per rank pair, so far larger worlds only
// exhaust memory. pl.Ranks, the REPL's -ranks and the CLI's --ranks check
// against it.
const MaxRanks = 1024

// CheckRanks validates a rank count given by the user: 1 … MaxRanks. op
// and arg name where it was given ("pl.Ranks", "n"; "ptorepl compile",
// "--ranks").
func CheckRanks(op, arg string, n int) error {
	if n < 1 || n > MaxRanks {
		return &ir.TypeError{Op: op, Arg: arg, Expected: fmt.Sprintf("a rank count from 1 to %d", MaxRanks), Given: fmt.Sprint(n)}
	}
	return nil
}

// RunOptions configure one run. The zero value runs on 2 ranks.
// Callback is the Go implementation of a host callback: it receives the
// call's tensor arguments (copies; what it writes to an Out or InOut
// argument is written back), and its error stops the run.
type Callback func(args []*tensor.Tensor) error

type RunOptions struct {
	// Ranks is the world size, len(device_ids) in PyPTO (default 2).
	Ranks int
	// Watchdog bounds the run's wall-clock time (default 30s). Deadlocks are
	// normally found at once by the blocked-rank analysis; this catches the rest.
	Watchdog time.Duration
	// Progress, if set, is called (never concurrently) as ranks finish their
	// work and every ProgressEvery (default 250ms) while the run lasts.
	Progress      func(ProgressInfo)
	ProgressEvery time.Duration
	// Observer, if set, sees every window access, notify and wait (see Observer).
	Observer Observer
	// Seed, when non-zero, perturbs the schedule reproducibly: random short
	// delays before notifies and waits, and a shuffled rank start order, so
	// timing-dependent protocol bugs show up. Zero runs unperturbed.
	Seed int64
	// Relaxed runs the device's weak memory model (docs/memory-model.md):
	// writes wait in per-rank buffers until a fence, notifies may overtake
	// them, and reads may see stale cache lines until a cacheinvalid. The
	// zero value is sequentially consistent. Only RelaxedDevices accept it.
	Relaxed bool
	// Cores is the number of AIV cores of each simulated device (default
	// DefaultCores, one). A dispatched task runs on a free core of its rank
	// and a blocking wait holds that core until it is satisfied; tasks that
	// share no host tensor they write may then run at once (cores.go says
	// exactly when). When every core of a rank is held by waits while a task
	// that would publish is queued, the run stops with a
	// *ResourceDeadlockError instead of hanging.
	Cores int
	// MaxEvents caps the timeline events kept per rank (default 100000;
	// negative: no timeline). Dropped events are counted.
	MaxEvents int
	// Callbacks bind the program's host callbacks (HOST SubWorkers whose
	// body is `...` or host Python) by function name; a run that calls an
	// unbound one stops with an error naming it. The call runs once the
	// ranks dispatched before it are done.
	Callbacks map[string]Callback
	// Schedule, when set, runs the simulator under control: one rank at a
	// time, the Chooser picking the next at every synchronising event
	// (schedule.go); Seed is then ignored. Result.Schedule records the
	// decisions, and NewReplay(res.Schedule) replays the run.
	Schedule Chooser
	// visibility, when set, answers the relaxed mode's visibility choices
	// instead of the built-in policies (relaxedMem.choose; see visKind):
	// the hook a schedule explorer drives.
	visibility func(rank int, kind visKind, options int) int
}

// ProgressInfo reports how far a run is.
type ProgressInfo struct {
	Ranks     int   // world size
	RanksDone int   // ranks that finished every task dispatched to them
	Tasks     int   // tasks (device dispatches) so far
	TasksDone int   // tasks finished
	Ops       int64 // ops executed on all ranks and the host
	Elapsed   time.Duration
}

// Result is a finished run.
type Result struct {
	Ranks int
	// Outputs are the Out/InOut host tensors in parameter order (the same
	// tensors the caller passed, now filled), then the tensors the host
	// function created and returned (a @pl.jit entry's `return c`), in
	// return order.
	Outputs  []*tensor.Tensor
	Timeline *Timeline
	// Signals are every signal cell a notify touched, with its final value,
	// for stale-signal and Set/AtomicAdd-mixing reports.
	Signals []SignalCell
	Ops     int64
	Elapsed time.Duration
	// Err is the run's error (nil for a run that finished): a failed run
	// still has a result up to the point it stopped.
	Err error
	// Overlaps are tiles read after another tile's placement overwrote
	// them on the simulated on-chip buffer (a wrong address plan).
	Overlaps []TileOverlap
	// TaskRaces are tasks of a manual scope that touch the same bytes with
	// no deps chain between them (taskcheck.go).
	TaskRaces []TaskRace
	// Schedule is a controlled run's decisions (nil for a free run).
	Schedule *Schedule
}

// SignalCell is one notified cell and its final value on a rank.
type SignalCell struct {
	Rank       int
	Buffer     string
	Offset     []int // the index the notifies named
	ByteOffset int
	Value      int64
	SetBy      map[string]bool // "Set", "AtomicAdd" (shared between cells: read only)
	Notifies   int
	History    []SignalWrite // the first 64 notifies, in the order they landed
}

// SignalWrite is one notify of a signal cell: rank From applied Kind with
// Value, leaving the cell at New. It prints as "rank 1 AtomicAdd 1 → 2".
type SignalWrite struct {
	From  int
	Kind  NotifyKind
	Value int32
	New   int32
}

func (w SignalWrite) String() string {
	return fmt.Sprintf("rank %d %s %d → %d", w.From, w.Kind, w.Value, w.New)
}

// DeadlockError is returned when every live rank waits and nothing can wake them.
type DeadlockError struct {
	Blocked []BlockedRank
}

// BlockedRank describes one rank stuck in a wait.
type BlockedRank struct {
	Rank int
	Op   string
	// Deferred: the wait is a task's deferred completion condition
	// (OpDef.Deferred), which holds no core while it waits.
	Deferred bool
	Pos      ir.Span
	Func     string
	Cell     string // buffer[offsets]
	Value    int64  // the cell's current value
	Want     string // ">= 1", "== 2", as Cond prints
	// Cond is the wanted condition itself (Want is its text).
	Cond   Cond
	Writes []SignalWrite
	// NoHistory says the device does not record cell histories (Writes
	// is then empty whether or not the cell was written).
	NoHistory bool
	// cell, when Cell is empty, is the cell a waiting rank holds while it
	// waits; fillTexts names it (and Want) only for a report. on is the
	// buffer copy the wait sleeps on.
	cell Cell
	on   *memBuf
}

// fillTexts sets Cell and Want from the wait's cell and condition, for a
// report built while the wait still blocks (its cell's index is the
// waiting op's and is not kept).
func (b *BlockedRank) fillTexts() {
	if b.Cell == "" && b.cell.Buffer != "" {
		b.Cell = b.cell.String()
	}
	if b.Want == "" {
		b.Want = b.Cond.String()
	}
	b.cell, b.on = Cell{}, nil
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
		if r.NoHistory {
			// nothing known about the cell's writers
		} else if len(r.Writes) > 0 {
			parts := make([]string, len(r.Writes))
			for i, w := range r.Writes {
				parts[i] = w.String()
			}
			fmt.Fprintf(&b, " (cell history: %s)", strings.Join(parts, ", "))
		} else {
			b.WriteString(" (nobody ever wrote this cell)")
		}
	}
	return b.String()
}

// Simulator is the embedded multi-rank device.
type Simulator struct{}

// NewSimulator returns the simulator device.
func NewSimulator() *Simulator { return &Simulator{} }

// Name is "sim".
func (*Simulator) Name() string { return "sim" }

// Load checks that p has one host orchestrator and that the simulator has
// semantics for every op it calls.
func (d *Simulator) Load(p *ir.Program) (Executable, error) {
	if p == nil {
		return nil, errors.New("runtime: the program is nil")
	}
	host, err := hostOf(p)
	if err != nil {
		return nil, err
	}
	var missing error
	for _, f := range p.Functions {
		ir.WalkStmt(f.Body, func(e ir.Expr) {
			c, ok := e.(*ir.Call)
			if !ok || missing != nil {
				return
			}
			if c.Op != nil {
				if _, ok := c.Op.Facet(FacetKey); !ok {
					missing = posErr(c.Pos, fmt.Errorf("%s (in %s): the simulator has no semantics for op %s", c.Op.Name, f.Name, c.Op.Name))
				}
			} else if c.Fn != nil && p.Function(c.Fn.Name) == nil && builtinCollective(c.Fn.Name) == "" {
				missing = posErr(c.Pos, fmt.Errorf("%s calls unknown function %s", f.Name, c.Fn.Name))
			}
		}, nil)
	}
	if missing != nil {
		return nil, missing
	}
	l := &loaded{prog: p, host: host, compiled: compileProgram(p)}
	if p.Function(host.Name) != host {
		l.entry = host.Body.(*ir.EvalStmt).Expr.(*ir.Call) // deviceZeroHost's dispatch
	}
	return l, nil
}

// loadGeneric is Load with every op on its generic semantics, no kernels
// (for the tests that compare the two).
func (d *Simulator) loadGeneric(p *ir.Program) (Executable, error) {
	exe, err := d.Load(p)
	if err != nil {
		return nil, err
	}
	l := exe.(*loaded)
	l.compiled = compileProgramWith(p, false)
	return l, nil
}

// Run loads p and runs it once.
func (d *Simulator) Run(ctx context.Context, p *ir.Program, args []*tensor.Tensor, o RunOptions) (*Result, error) {
	exe, err := d.Load(p)
	if err != nil {
		return nil, err
	}
	return exe.Run(ctx, args, o)
}

func posErr(pos ir.Span, err error) error {
	if pos.Known() {
		return fmt.Errorf("%s: %w", pos, err)
	}
	return err
}

// HostOf is the function a device runs on the host for p: its host
// orchestrator, or for a single-device program the host that dispatches
// its chip orchestrator to device 0.
func HostOf(p *ir.Program) (*ir.Function, error) { return hostOf(p) }

func hostOf(p *ir.Program) (*ir.Function, error) {
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
		entries := chipEntries(p)
		switch len(entries) {
		case 1:
			return deviceZeroHost(entries[0]), nil
		case 0:
			return nil, fmt.Errorf("program %s has no host orchestrator (prog.Host): nothing says how ranks are dispatched", p.Name)
		}
		names := make([]string, len(entries))
		for i, f := range entries {
			names[i] = f.Name
		}
		return nil, fmt.Errorf("program %s has no host orchestrator and %d chip orchestrators no function calls (%s): nothing says which runs where; add a host orchestrator that dispatches them", p.Name, len(entries), strings.Join(names, ", "))
	}
	return host, nil
}

// chipEntries are the Orchestration functions of a program that no other
// function calls: a single-device (L2) program has one.
func chipEntries(p *ir.Program) []*ir.Function {
	called := map[string]bool{}
	for _, f := range p.Functions {
		ir.WalkStmt(f.Body, func(e ir.Expr) {
			if c, ok := e.(*ir.Call); ok && c.Fn != nil {
				called[c.Fn.Name] = true
			}
		}, nil)
	}
	var out []*ir.Function
	for _, f := range p.Functions {
		// An Opaque function holding an InCore scope is the chip
		// orchestrator OutlineIncoreScopes makes of it, as upstream's is.
		if (f.Kind == ir.Orchestration || (f.Kind == ir.Opaque && hasInCoreScope(f))) && !called[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

// hasInCoreScope reports whether f's body holds a with pl.at(CORE_GROUP)
// scope.
func hasInCoreScope(f *ir.Function) bool {
	found := false
	ir.WalkStmt(f.Body, nil, func(s ir.Stmt) {
		if sc, ok := s.(*ir.ScopeStmt); ok && sc.Kind == ir.ScopeInCore {
			found = true
		}
	})
	return found
}

// deviceZeroHost is the host a single-device program runs under, as
// upstream's runtime runs one compiled without HOST functions: it takes the
// entry's tensors and dispatches the entry to device 0.
func deviceZeroHost(entry *ir.Function) *ir.Function {
	params := make([]*ir.Var, len(entry.Params))
	args := make([]ir.Expr, len(entry.Params))
	for i, v := range entry.Params {
		params[i] = ir.NewVar(v.Name, v.Type(), v.Pos)
		args[i] = params[i]
	}
	call := &ir.Call{Fn: &ir.GlobalVar{Name: entry.Name}, Args: args, T: ir.Unknown, Pos: entry.Pos,
		Attrs: ir.Kwargs{{Key: "device", Value: ir.Expr(ir.Int(0))}}}
	// Named as the entry: the user wrote no host, so what it reports (a
	// wrong argument) is about the entry they call.
	return &ir.Function{Name: entry.Name, Params: params, Dirs: entry.Dirs,
		Level: ir.LevelHost, Role: ir.Orchestrator, Pos: entry.Pos,
		Body: &ir.EvalStmt{StmtBase: ir.StmtBase{Pos: entry.Pos}, Expr: call}}
}

type loaded struct {
	prog     *ir.Program
	host     *ir.Function
	entry    *ir.Call // the host's dispatch of the chip orchestrator, when the simulator wrote the host
	compiled *cprog
	// laneHints are the timeline lane sizes of the last run, to size the
	// next run's lanes (repeated runs of one program record alike).
	mu        sync.Mutex
	laneHints []int
}

func (l *loaded) Program() *ir.Program { return l.prog }

// Run executes the host orchestrator with args on o.Ranks simulated ranks.
// Once the program started, the result is non-nil even when err is not.
func (l *loaded) Run(ctx context.Context, args []*tensor.Tensor, o RunOptions) (res *Result, err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.Ranks == 0 {
		o.Ranks = 2
	}
	if err := CheckRanks("run", "ranks", o.Ranks); err != nil {
		return nil, err
	}
	if o.Watchdog <= 0 {
		o.Watchdog = 30 * time.Second
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 250 * time.Millisecond
	}
	if o.MaxEvents == 0 {
		o.MaxEvents = 100000
	}
	if o.Cores == 0 {
		o.Cores = DefaultCores
	}
	if err := CheckCores("run", "cores", o.Cores); err != nil {
		return nil, err
	}
	if o.Schedule != nil && o.Cores > 1 {
		return nil, fmt.Errorf("a controlled run (an exploration or a replay) models one AIV core per rank; Cores(%d) is not supported there", o.Cores)
	}
	start := time.Now()
	s := newSim(l.prog, o)
	s.compiled = l.compiled
	s.entryCall = l.entry
	if hints := l.hints(o.Ranks); hints != nil && o.MaxEvents > 0 {
		s.timeline = newTimeline(o.Ranks, o.MaxEvents, hints)
	}
	s.timeline.static = &l.compiled.sites
	wctx, cancel := context.WithTimeout(ctx, o.Watchdog)
	defer cancel()
	// The context ending (Ctrl-C, the watchdog) stops every rank.
	stop := context.AfterFunc(wctx, func() {
		s.sched.mu.Lock()
		blocked := s.sched.deadlockLocked().(*DeadlockError)
		s.sched.mu.Unlock()
		var msg string
		if errors.Is(wctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			msg = fmt.Sprintf("watchdog: the run took longer than %s", o.Watchdog)
		} else {
			msg = "run cancelled"
		}
		if len(blocked.Blocked) > 0 {
			msg += "; blocked ranks:" + strings.TrimPrefix(blocked.Error(), "deadlock: every live rank is blocked and no pending operation can wake them")
		}
		s.sched.fail(&StopError{Msg: msg, Cause: wctx.Err()})
	})
	defer stop()

	doneProgress := s.startProgress(start)
	err = s.runHost(l.host, args)
	doneProgress()
	sigs := s.mem.signals()
	s.mem.release() // every rank has stopped: recycle window memory for the next run
	if o.Observer != nil {
		func() {
			defer func() { _ = recover() }() // an observer's panic must not escape
			o.Observer.End(RunEnd{Signals: sigs, Err: err, Overlaps: s.overlaps, TaskRaces: s.taskRaces})
		}()
	}
	// A failed run still returns what happened up to the failure (the
	// timeline with each blocked wait marked, the signal cells, the partial
	// outputs): it is the picture a user needs to understand the failure.
	l.setHints(s.timeline.counts())
	s.timeline.finish()
	res = &Result{Ranks: o.Ranks, Timeline: s.timeline, Signals: sigs, Ops: s.ops.Load(), Elapsed: time.Since(start), Err: err, Overlaps: s.overlaps, TaskRaces: s.taskRaces}
	if s.ctl != nil {
		res.Schedule = s.ctl.schedule()
	}
	for i := range l.host.Params {
		if d := l.host.Direction(i); (d == ir.Out || d == ir.InOut) && i < len(args) {
			res.Outputs = append(res.Outputs, args[i])
		}
	}
	res.Outputs = append(res.Outputs, s.createdReturns(s.returned())...)
	return res, err
}

// StopError is a run ended by its context or the watchdog.
type StopError struct {
	Msg   string
	Cause error
}

func (e *StopError) Error() string { return e.Msg }
func (e *StopError) Unwrap() error { return e.Cause }

// sim is one run's shared state.
type sim struct {
	// taskIDs numbers the tasks a run launches (task.go): 0 is no task.
	taskIDs atomic.Int64
	// groups are the comm groups inferred for a program that records none
	// (commGroups).
	groupsOnce sync.Once
	groups     []*ir.CommGroup
	// hostRets are the host function's return values; entryRets the chip
	// orchestrator's, when entryCall (the dispatch in the host the
	// simulator writes for a one-device program) ran it.
	hostRets, entryRets []any
	entryCall           *ir.Call
	// created holds, when ranks run in separate processes (RunRank), the
	// tensors the host created, in creation order (the same in every
	// process), each with its bytes as of the last join (the base the
	// processes' copies merge from); createdBy finds one by its first byte.
	created   []HostBuf
	createdBy map[*byte]int
	createdMu sync.Mutex
	prog      *ir.Program
	opts      RunOptions
	world     int
	sched     *sched
	// win is the window layer every op goes through; mem is the same
	// in-process implementation when the simulator owns it (nil when a
	// device runs one rank against its own Windows, see RunRank).
	win Windows
	mem *simWindows
	// only, when >= 0, is the one rank this process executes: dispatches
	// to every other rank are dropped (their own processes run them).
	only int
	// onJoin runs after the host joined its rank (RunRank's Join).
	onJoin   func() error
	timeline *Timeline
	ops      atomic.Int64
	start    time.Time

	wmu     sync.Mutex // guards workers and the counts below; never held while taking sched.mu (classifyDeadlock takes wmu under sched.mu)
	workers []*worker
	tasks   int
	done    int
	wg      sync.WaitGroup

	progMu sync.Mutex

	ovMu     sync.Mutex
	overlaps []TileOverlap // tiles read after an overlapping placement (arena.go)
	// taskRaces are manual-scope tasks unordered by deps that touch the
	// same bytes (taskcheck.go); hostNames names host tensors' memory by
	// the entry parameter that holds it.
	taskRaces []TaskRace
	hostNames map[*byte]string
	// noDep: the program marks kernel-call slots pl.adir.no_dep, so auto
	// scopes record their tasks too, to check those promises.
	noDep bool

	compiled *cprog // the device functions, compiled at Load

	ctl *ctl // the scheduler of a controlled run (nil: ranks run freely)
}

func newSim(p *ir.Program, o RunOptions) *sim {
	sc := &sched{}
	s := &sim{prog: p, opts: o, world: o.Ranks, sched: sc, timeline: newTimeline(o.Ranks, o.MaxEvents, nil), start: time.Now(), only: -1}
	s.noDep = marksNoDep(p)
	s.mem = newSimWindows(o.Ranks, sc, o.Observer)
	s.win = s.mem
	if o.Relaxed {
		s.mem.rx = newRelaxedMem(s.mem, o.Ranks, o.Seed)
		s.mem.rx.choose = o.visibility
		sc.settle = s.mem.rx.settle
	}
	s.workers = make([]*worker, o.Ranks)
	sc.classify = s.classifyDeadlock
	if o.Schedule != nil {
		s.ctl = newCtl(s, o.Schedule)
		s.win = &ctlWindows{simWindows: s.mem, c: s.ctl}
		wake := sc.onStop
		sc.onStop = func() { wake(); s.ctl.stop() }
		if s.mem.rx != nil && o.visibility == nil {
			// Under control every write-visibility decision of the relaxed
			// mode is a choice point of the schedule too: the explorer
			// branches on it and a replay repeats it.
			s.mem.rx.choose = func(rank int, kind visKind, options int) int {
				return s.chooseVisibility(rank, options, kind.String())
			}
		}
	}
	return s
}

func (s *sim) progressInfo() ProgressInfo {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	p := ProgressInfo{Ranks: s.world, Tasks: s.tasks, TasksDone: s.done, Ops: s.ops.Load(), Elapsed: time.Since(s.start)}
	for _, w := range s.workers {
		if w != nil && w.ran > 0 && w.pending == 0 {
			p.RanksDone++
		}
	}
	return p
}

func (s *sim) reportProgress() {
	if s.opts.Progress == nil {
		return
	}
	p := s.progressInfo()
	s.progMu.Lock()
	defer s.progMu.Unlock()
	defer func() { _ = recover() }() // a callback's panic must not kill a rank
	s.opts.Progress(p)
}

func (s *sim) startProgress(start time.Time) func() {
	if s.opts.Progress == nil {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(s.opts.ProgressEvery)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				s.reportProgress()
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
		s.reportProgress()
	}
}
