package pl

import (
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// RunOption configures pl.Run.
type RunOption struct {
	ranks     int // 0: the default, 2
	watchdog  time.Duration
	unchecked bool
	progress  time.Duration
	target    *Target // nil: pl.Device
	relaxed   bool
	cores     int // 0: runtime.DefaultCores
	budget    int // pl.Verify's runs (0: the default)
	noReduce  bool
	replay    *runtime.Schedule
	callbacks map[string]runtime.Callback
}

// MaxRanks is the largest rank count pl.Ranks accepts (1024).
const MaxRanks = runtime.MaxRanks

// Ranks runs on n simulated ranks, 1 ≤ n ≤ pl.MaxRanks; any other n raises
// at the call. PyPTO: the device list of a run.
func Ranks(n int) RunOption {
	if err := checkRanks("pl.Ranks", n); err != nil {
		dsl.Raise(err)
	}
	return RunOption{ranks: n}
}

func checkRanks(what string, n int) error {
	if n == 0 && what != "pl.Ranks" {
		return nil // a zero RunOption: the default
	}
	return runtime.CheckRanks(what, "n", n)
}

// Watchdog bounds a run's wall-clock time (deadlocks are found sooner by
// analysis; this is the backstop).
func (o RunOption) Watchdog(d time.Duration) RunOption { o.watchdog = d; return o }

// Cores gives every simulated device n AIV cores, 1 ≤ n ≤ pl.MaxCores; any
// other n raises at the call. The default, one core, runs each rank's tasks
// one at a time in dispatch order. With more, tasks of a rank that share no
// host tensor one of them writes run at once; a blocking wait holds its
// core, and a run whose waits hold every core of a rank while the task
// that would release them is queued stops with a resource deadlock
// (docs/memory-model.md, rule 8).
func (o RunOption) Cores(n int) RunOption {
	if err := runtime.CheckCores("pl.Cores", "n", n); err != nil {
		dsl.Raise(err)
	}
	o.cores = n
	return o
}

// MaxCores is the largest core count pl.Cores accepts (1024).
const MaxCores = runtime.MaxCores

// Unchecked runs without the protocol checker (no race or overtaken-wait
// findings; signal hygiene and deadlock explanations remain). It is faster.
func (o RunOption) Unchecked() RunOption { o.unchecked = true; return o }

// Relaxed runs on the device's weak memory model instead of sequential
// consistency (docs/memory-model.md): writes to window memory wait in the
// writing rank's buffer until a pl.Fence (or the task's end), a notify can
// overtake them, and a rank's reads of its own window may see stale cache
// lines until pl.CacheInvalidate. The report then names each write read
// before it was visible, each signal that overtook its data and each stale
// read, with the statements involved and the fence or cacheinvalid that
// fixes it. Simulator only.
func (o RunOption) Relaxed() RunOption { o.relaxed = true; return o }

// Callback binds fn to the host callback name: a HOST SubWorker of the
// program whose body is `...` (upstream's runtime-bound callback, bound at
// prepare(callbacks=...)) or host Python, which ptorepl does not run. The
// host orchestrator's call of name runs fn with copies of the call's tensor
// arguments, once the ranks dispatched before the call are done; what fn
// writes to an Out or InOut argument is written back, and an error it
// returns (or a panic) stops the run. On the MPI device fn runs once per
// call, in the process that called pl.Run, and every rank's host gets
// what it wrote.
func (o RunOption) Callback(name string, fn func(args []*tensor.Tensor) error) RunOption {
	cbs := make(map[string]runtime.Callback, len(o.callbacks)+1)
	for k, v := range o.callbacks {
		cbs[k] = v
	}
	cbs[name] = fn
	o.callbacks = cbs
	return o
}

// ShowProgressAfter shows a run's progress in the notebook (an updating
// line: ranks done, ops executed) once it has lasted d; the default is
// 300ms, so quick runs show nothing.
func (o RunOption) ShowProgressAfter(d time.Duration) RunOption { o.progress = d; return o }

// Device is where pl.Run executes when a run names no target (On); the
// embedded simulator by default.
var Device runtime.Device = runtime.Default()

// Target names the device a run executes on: pl.Simulator() or pl.MPI().
// Choose it with pl.Ranks(n).On(target).
type Target struct {
	name     string
	hosts    string
	hostfile string
}

// Simulator is the embedded multi-rank simulator (the default): every rank
// a goroutine of this process, with the protocol checker, timeline and
// schedule exploration.
func Simulator() Target { return Target{name: "sim"} }

// MPI runs each rank as its own process under mpirun, on OpenMPI's
// one-sided windows (a ptorepl built with -tags mpi; docs/mpi.md). Race
// checking is a simulator feature: MPI runs get signal hygiene and
// deadlock reports only.
func MPI() Target { return Target{name: "mpi"} }

// DeviceNamed is the target registered under name ("sim", "mpi").
func DeviceNamed(name string) Target { return Target{name: name} }

// Hosts spreads the ranks over machines, as mpirun's --host does
// ("node1:4,node2:4"). Devices that run in-process ignore it.
func (t Target) Hosts(list string) Target { t.hosts = list; return t }

// Hostfile names an mpirun hostfile; it wins over Hosts.
func (t Target) Hostfile(path string) Target { t.hostfile = path; return t }

// Name is the device name the target opens.
func (t Target) Name() string { return t.name }

// On runs on target instead of pl.Device.
func (o RunOption) On(target Target) RunOption { o.target = &target; return o }

// device resolves the run's device: the named target or pl.Device.
func (o RunOption) device() (runtime.Device, error) {
	if o.target == nil {
		return Device, nil
	}
	t := *o.target
	d, err := runtime.OpenDevice(t.name, runtime.DeviceConfig{Hosts: t.hosts, Hostfile: t.hostfile})
	if err != nil {
		return nil, fmt.Errorf("pl.Run: %w", err)
	}
	return d, nil
}

// RunResult is a run: finished, or stopped by a deadlock, the watchdog or
// an error. A failed run keeps what happened up to the failure, so
// res.Report() and the swimlane explain it.
type RunResult struct {
	res    *runtime.Result
	report *Report
	err    error
}

// Timeline is the run's per-rank op timeline (for a deadlock, each blocked
// wait is marked with the cell it waits on).
func (r *RunResult) Timeline() *runtime.Timeline {
	if r.res.Timeline != nil {
		r.res.Timeline.Expand()
	}
	return r.res.Timeline
}

// Err is the run's error (the same pl.Run returned); nil when it finished.
func (r *RunResult) Err() error { return r.err }

// OK reports whether the run finished (the checker may still have findings).
func (r *RunResult) OK() bool { return r.err == nil }

// Outputs are the Out/InOut host tensors in parameter order, then the
// tensors the host function created and returned (a @pl.jit entry's
// `return c` after pl.create_tensor; for a one-device program, its chip
// orchestrator's); after a failed run they hold whatever the ranks wrote
// before it stopped.
func (r *RunResult) Outputs() []*tensor.Tensor {
	return append([]*tensor.Tensor(nil), r.res.Outputs...)
}

// Blocked lists the waits a failed run stopped in, one line each:
// "rank 1: pld.system.wait at cell[3]:5 waits on sig[0, 0]". Empty for a run
// that finished.
func (r *RunResult) Blocked() []string {
	var out []string
	for rank, lane := range r.Timeline().Lanes {
		for _, ev := range lane {
			if !ev.Blocked {
				continue
			}
			line := fmt.Sprintf("rank %d: %s", rank, ev.Op)
			if ev.Pos.Known() {
				line += " at " + ev.Pos.String()
			}
			if ev.Cell != "" {
				line += fmt.Sprintf(" waits on %s (for %d)", ev.Cell, ev.Value)
			}
			out = append(out, line)
		}
	}
	return out
}

// Status is one line: "finished" or what stopped the run ("deadlock: ...").
func (r *RunResult) Status() string {
	if r.err == nil {
		return "finished"
	}
	return strings.SplitN(r.err.Error(), "\n", 2)[0]
}

// Report lists the protocol checker's findings: races on window memory,
// waits a fast peer can overtake, reused signals, Set mixed with AtomicAdd,
// cells left non-zero.
func (r *RunResult) Report() *Report { return r.report }

// Report is the protocol checker's findings for one run.
type Report = checker.Report

// Finding is one diagnosed protocol problem.
type Finding = checker.Finding

// Run executes prog's host orchestrator on the default device with the host
// tensors args (in parameter order); Out/InOut tensors are filled in place,
// like torch. Trailing Out tensors may be left out: the run makes them
// and Outputs returns them, as upstream's compiled(a, b) does. The protocol checker watches the run. A deadlock comes back
// as an error whose text says "deadlock" and explains, for each blocked
// rank, the op, the cell, its value and its history. Whenever the program
// started, the result is non-nil, failed or not: its Report, Timeline and
// swimlane show what happened. PyPTO: compiled(x, y).
func Run(prog *Program, ranks RunOption, args ...*tensor.Tensor) (*RunResult, error) {
	if prog == nil {
		return nil, fmt.Errorf("pl.Run: the program is nil")
	}
	dsl.NoteProgram(prog.IR())
	return runIR(prog.IR(), ranks, args)
}

func runIR(p *ir.Program, o RunOption, args []*tensor.Tensor) (*RunResult, error) {
	dev, err := o.device()
	if err != nil {
		return nil, err
	}
	args = withMadeOutputs(p, args)
	co := checker.Options{Ranks: o.ranks, Watchdog: o.watchdog, Device: dev, Disabled: o.unchecked, Relaxed: o.relaxed, Cores: o.cores,
		Callbacks: o.callbacks}
	if o.replay != nil {
		if _, sim := dev.(*runtime.Simulator); !sim {
			return nil, fmt.Errorf("pl.Run: a schedule replays on the simulator only, not on device %s", dev.Name())
		}
		co.Schedule = runtime.NewReplay(o.replay)
	}
	pr := newProgressLine(o.progress)
	if pr != nil {
		co.Progress, co.ProgressEvery = pr.update, pr.every
	}
	if err := checkRanks("pl.Run", o.ranks); err != nil {
		return nil, err
	}
	res, rep, err := checker.Run(dsl.Context(), p, args, co)
	pr.finish(res, err)
	if res == nil {
		return nil, err // the program never started (it could not be loaded)
	}
	return &RunResult{res: res, report: rep, err: err}, err
}

// withMadeOutputs is args with the host function's trailing Out tensors
// the call left out made (zeros of their static shapes), as upstream's
// compiled(a, b) makes and returns them; Outputs lists them. Anything else
// missing is left for the device to report.
func withMadeOutputs(p *ir.Program, args []*tensor.Tensor) []*tensor.Tensor {
	host, err := runtime.HostOf(p)
	if err != nil || len(args) >= len(host.Params) {
		return args
	}
	var made []*tensor.Tensor
	for i := len(args); i < len(host.Params); i++ {
		dims, dt, ok := ir.ShapeOf(host.Params[i].Type())
		sizes, static := ir.StaticDims(dims)
		if !ok || !static || host.Direction(i) != ir.Out {
			return args
		}
		shape := make([]int, len(sizes))
		for k, v := range sizes {
			shape[k] = int(v)
		}
		made = append(made, tensor.Zeros(dt, shape...))
	}
	return append(append([]*tensor.Tensor(nil), args...), made...)
}

// progressLine streams a long run's progress to the notebook through one
// updatable display.
type progressLine struct {
	after, every time.Duration
	h            *display.Handle
	shown        bool
}

func newProgressLine(after time.Duration) *progressLine {
	if !display.Active() {
		return nil // a terminal: the REPL shows nothing while a cell runs
	}
	if after <= 0 {
		after = 300 * time.Millisecond
	}
	return &progressLine{after: after, every: min(after, 250*time.Millisecond), h: display.NewHandle()}
}

func (p *progressLine) update(pi runtime.ProgressInfo) {
	if pi.Elapsed < p.after {
		return
	}
	p.shown = true
	p.h.Text(fmt.Sprintf("running on %d ranks: %d/%d ranks done, %d/%d tasks, %d ops, %s",
		pi.Ranks, pi.RanksDone, pi.Ranks, pi.TasksDone, pi.Tasks, pi.Ops, pi.Elapsed.Round(time.Millisecond)))
}

func (p *progressLine) finish(res *runtime.Result, err error) {
	if p == nil || !p.shown {
		return
	}
	if err != nil || res == nil {
		p.h.Text("run stopped: " + strings.SplitN(err.Error(), "\n", 2)[0])
		return
	}
	p.h.Text(fmt.Sprintf("finished on %d ranks: %d ops in %s", res.Ranks, res.Ops, res.Elapsed.Round(time.Millisecond)))
}

// String summarises the run: how it ended, what the blocked ranks wait on,
// and the protocol report.
func (r *RunResult) String() string {
	var b strings.Builder
	if r.err == nil {
		fmt.Fprintf(&b, "run on %d ranks: finished, %d ops in %s", r.res.Ranks, r.res.Ops, r.res.Elapsed.Round(time.Microsecond))
	} else {
		fmt.Fprintf(&b, "run on %d ranks: stopped after %d ops in %s: %s", r.res.Ranks, r.res.Ops, r.res.Elapsed.Round(time.Microsecond), r.Status())
		for _, l := range r.Blocked() {
			b.WriteString("\n  " + l)
		}
	}
	b.WriteString("\n" + r.report.String())
	return b.String()
}

// HTML shows the run as a swimlane of its timeline (one lane per rank,
// notify → wait arrows, RMA spans) above the protocol report; a failed run
// leads with what stopped it.
func (r *RunResult) HTML() string {
	head := ""
	if r.err != nil {
		head = `<div class="ptorepl-run-error" style="font-family:sans-serif;color:#c62828;font-weight:bold">` +
			html.EscapeString(fmt.Sprintf("run on %d ranks stopped: %s", r.res.Ranks, r.Status())) + `</div>`
		if bl := r.Blocked(); len(bl) > 0 {
			head += `<pre style="margin:0.2em 0 0.5em 0">` + html.EscapeString(strings.Join(bl, "\n")) + `</pre>`
		}
	}
	return head + display.Swimlane(r.res.Timeline) + r.report.HTML()
}
