package pl

import (
	"fmt"
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
	ranks     int
	watchdog  time.Duration
	unchecked bool
	progress  time.Duration
}

// Ranks runs on n simulated ranks. PyPTO: the device list of a run.
func Ranks(n int) RunOption { return RunOption{ranks: n} }

// Watchdog bounds a run's wall-clock time (deadlocks are found sooner by
// analysis; this is the backstop).
func (o RunOption) Watchdog(d time.Duration) RunOption { o.watchdog = d; return o }

// Unchecked runs without the protocol checker (no race or overtaken-wait
// findings; signal hygiene and deadlock explanations remain). It is faster.
func (o RunOption) Unchecked() RunOption { o.unchecked = true; return o }

// ShowProgressAfter shows a run's progress in the notebook (an updating
// line: ranks done, ops executed) once it has lasted d; the default is
// 300ms, so quick runs show nothing.
func (o RunOption) ShowProgressAfter(d time.Duration) RunOption { o.progress = d; return o }

// Device is where pl.Run executes; the embedded simulator by default.
var Device runtime.Device = runtime.NewSimulator()

// RunResult is a finished run.
type RunResult struct {
	res    *runtime.Result
	report *Report
}

// Timeline is the run's per-rank op timeline.
func (r *RunResult) Timeline() *runtime.Timeline { return r.res.Timeline }

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
// like torch. The protocol checker watches the run. A deadlock comes back
// as an error whose text says "deadlock" and explains, for each blocked
// rank, the op, the cell, its value and its history. PyPTO: compiled(x, y).
func Run(prog *Program, ranks RunOption, args ...*tensor.Tensor) (*RunResult, error) {
	if prog == nil {
		return nil, fmt.Errorf("pl.Run: the program is nil")
	}
	dsl.NoteProgram(prog.IR())
	return runIR(prog.IR(), ranks, args)
}

func runIR(p *ir.Program, o RunOption, args []*tensor.Tensor) (*RunResult, error) {
	co := checker.Options{Ranks: o.ranks, Watchdog: o.watchdog, Device: Device, Disabled: o.unchecked}
	pr := newProgressLine(o.progress)
	if pr != nil {
		co.Progress, co.ProgressEvery = pr.update, pr.every
	}
	res, rep, err := checker.Run(dsl.Context(), p, args, co)
	pr.finish(res, err)
	if err != nil {
		return nil, err
	}
	return &RunResult{res: res, report: rep}, nil
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
	if err != nil {
		p.h.Text("run stopped: " + strings.SplitN(err.Error(), "\n", 2)[0])
		return
	}
	p.h.Text(fmt.Sprintf("finished on %d ranks: %d ops in %s", res.Ranks, res.Ops, res.Elapsed.Round(time.Millisecond)))
}

// String summarises the run.
func (r *RunResult) String() string {
	return fmt.Sprintf("run on %d ranks: %d ops, %s\n%s", r.res.Ranks, r.res.Ops, r.res.Elapsed, r.report)
}

// HTML shows the run as a swimlane of its timeline (one lane per rank,
// notify → wait arrows, RMA spans) above the protocol report.
func (r *RunResult) HTML() string {
	return display.Swimlane(r.res.Timeline) + r.report.HTML()
}
