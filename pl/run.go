package pl

import (
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// RunOption configures pl.Run.
type RunOption struct {
	ranks    int
	watchdog time.Duration
}

// Ranks runs on n simulated ranks. PyPTO: the device list of a run.
func Ranks(n int) RunOption { return RunOption{ranks: n} }

// Watchdog bounds a run's wall-clock time (deadlocks are found sooner by
// analysis; this is the backstop).
func (o RunOption) Watchdog(d time.Duration) RunOption { o.watchdog = d; return o }

// Device is where pl.Run executes; the embedded simulator by default.
var Device runtime.Device = runtime.NewSimulator()

// RunResult is a finished run.
type RunResult struct {
	res *runtime.Result
}

// Timeline is the run's per-rank op timeline.
func (r *RunResult) Timeline() *runtime.Timeline { return r.res.Timeline }

// Report lists the protocol findings of the run (stale signals, Set mixed
// with AtomicAdd on one cell).
func (r *RunResult) Report() *Report { return newReport(r.res) }

// Run executes prog's host orchestrator on the default device with the host
// tensors args (in parameter order); Out/InOut tensors are filled in place,
// like torch. A deadlock comes back as an error whose text says "deadlock"
// and lists each blocked rank. PyPTO: compiled(x, y).
func Run(prog *Program, ranks RunOption, args ...*tensor.Tensor) (*RunResult, error) {
	if prog == nil {
		return nil, fmt.Errorf("pl.Run: the program is nil")
	}
	dsl.NoteProgram(prog.IR())
	res, err := Device.Run(dsl.Context(), prog.IR(), args, runtime.RunOptions{Ranks: ranks.ranks, Watchdog: ranks.watchdog})
	if err != nil {
		return nil, err
	}
	return &RunResult{res: res}, nil
}

// Report is the protocol checker's findings for one run.
type Report struct {
	Findings []Finding
}

// Finding is one diagnosed protocol problem.
type Finding struct {
	Kind    string // "stale-signal", "mixed-set-add"
	Message string
}

func newReport(res *runtime.Result) *Report {
	rep := &Report{}
	for _, c := range res.Signals {
		cell := fmt.Sprintf("%s%v on rank %d", c.Buffer, c.Offset, c.Rank)
		if c.SetBy["Set"] && c.SetBy["AtomicAdd"] {
			rep.Findings = append(rep.Findings, Finding{Kind: "mixed-set-add", Message: fmt.Sprintf(
				"signal cell %s was written by both Set and AtomicAdd: a Set can overwrite credits a peer already added, losing arrivals. Use one op per cell.", cell)})
		}
		if c.Value != 0 {
			rep.Findings = append(rep.Findings, Finding{Kind: "stale-signal", Message: fmt.Sprintf(
				"signal cell %s ends at %d, not 0: a later call on the same signal would pass its waits early. Subtract the credits (notify with -%d) or use a fresh window.", cell, c.Value, c.Value)})
		}
	}
	return rep
}

// String prints the findings, one per line.
func (r *Report) String() string {
	if len(r.Findings) == 0 {
		return "no protocol findings"
	}
	var b strings.Builder
	for i, f := range r.Findings {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s: %s", f.Kind, f.Message)
	}
	return b.String()
}

// HTML renders the findings as a list (notebooks show reports this way).
func (r *Report) HTML() string {
	if len(r.Findings) == 0 {
		return "<p>no protocol findings</p>"
	}
	var b strings.Builder
	b.WriteString("<ul class=\"ptorepl-report\">")
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "<li><b>%s</b>: %s</li>", html.EscapeString(f.Kind), html.EscapeString(f.Message))
	}
	b.WriteString("</ul>")
	return b.String()
}

// String summarises the run.
func (r *RunResult) String() string {
	return fmt.Sprintf("run on %d ranks: %d ops, %s\n%s", r.res.Ranks, r.res.Ops, r.res.Elapsed, r.Report())
}

// HTML shows the run as a swimlane of its timeline (one lane per rank,
// notify → wait arrows, RMA spans) above the protocol report.
func (r *RunResult) HTML() string {
	return display.Swimlane(r.res.Timeline) + r.Report().HTML()
}
