package pl

import (
	"fmt"
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
}

// Ranks runs on n simulated ranks. PyPTO: the device list of a run.
func Ranks(n int) RunOption { return RunOption{ranks: n} }

// Watchdog bounds a run's wall-clock time (deadlocks are found sooner by
// analysis; this is the backstop).
func (o RunOption) Watchdog(d time.Duration) RunOption { o.watchdog = d; return o }

// Unchecked runs without the protocol checker (no race or overtaken-wait
// findings; signal hygiene and deadlock explanations remain). It is faster.
func (o RunOption) Unchecked() RunOption { o.unchecked = true; return o }

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
	res, rep, err := checker.Run(dsl.Context(), p, args, checker.Options{Ranks: o.ranks, Watchdog: o.watchdog,
		Device: Device, Disabled: o.unchecked})
	if err != nil {
		return nil, err
	}
	return &RunResult{res: res, report: rep}, nil
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
