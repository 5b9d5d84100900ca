package checker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// DefaultBudget is the number of runs Verify tries before it gives up with
// an incomplete result.
const DefaultBudget = 10000

// VerifyOptions configure Verify.
type VerifyOptions struct {
	// Ranks is the world size (default 2).
	Ranks int
	// Budget bounds the runs (default DefaultBudget); past it the result
	// is "incomplete after N schedules", never a hang.
	Budget int
	// NoReduction explores every interleaving of the synchronising events
	// (no partial-order reduction): for measuring the reduction and for
	// checking it on small programs.
	NoReduction bool
	// Watchdog bounds each run (default 20s).
	Watchdog time.Duration
	// Relaxed explores the relaxed memory mode (runtime.RunOptions.Relaxed):
	// every write-visibility decision is a branch of the exploration too,
	// and each run's weak-memory findings are failures.
	Relaxed bool
}

// Verification is the outcome of exploring a program's schedules.
type Verification struct {
	Ranks int
	// Schedules is how many complete schedules were run and checked;
	// Pruned how many runs were cut as redundant (sleep-set blocked).
	Schedules, Pruned int
	// Complete is set when every schedule is covered (up to the
	// reduction): with no failure that is a proof over all schedules.
	Complete bool
	Reduced  bool // the partial-order reduction was on
	Budget   int
	MaxSteps int // the most decisions in one schedule
	Elapsed  time.Duration
	// Failure, when non-empty, is what the first failing schedule showed;
	// Counterexample is that schedule (replay it with runtime.NewReplay,
	// or pl.Ranks(n).Replay), FailErr its run error and FailReport its
	// checker report.
	Failure        string
	Counterexample *runtime.Schedule
	FailErr        error
	FailReport     *Report
	// Outputs are the host outputs of the first schedule, the reference
	// every other schedule's outputs are compared with.
	Outputs []*tensor.Tensor
}

// Proved reports whether every schedule was explored and none failed.
func (v *Verification) Proved() bool { return v.Complete && v.Failure == "" }

// Status is one line: proved, failed (how) or incomplete.
func (v *Verification) Status() string {
	red := ""
	if !v.Reduced {
		red = ", no reduction"
	}
	switch {
	case v.Failure != "":
		return fmt.Sprintf("counterexample on %d ranks after %d schedules: %s", v.Ranks, v.Schedules, v.Failure)
	case v.Complete:
		return fmt.Sprintf("proved on %d ranks: %d schedules explored (%d pruned as redundant%s), every one clean with the same outputs", v.Ranks, v.Schedules, v.Pruned, red)
	}
	return fmt.Sprintf("incomplete after %d schedules on %d ranks (budget %d runs): no failure found so far, but not every schedule was explored", v.Schedules, v.Ranks, v.Budget)
}

// String is the status, then for a counterexample its steps and report.
func (v *Verification) String() string {
	var b strings.Builder
	b.WriteString(v.Status())
	fmt.Fprintf(&b, " [%s]\n", v.Elapsed.Round(time.Millisecond))
	if v.Counterexample != nil {
		b.WriteString(v.Counterexample.String() + "\n")
		steps := v.Counterexample.Steps()
		const keep = 40
		if len(steps) > keep {
			fmt.Fprintf(&b, "  ... %d earlier steps\n", len(steps)-keep)
			steps = steps[len(steps)-keep:]
		}
		for _, s := range steps {
			b.WriteString("  " + s + "\n")
		}
		if v.FailReport != nil && !v.FailReport.Clean() {
			b.WriteString(v.FailReport.String())
		}
	}
	return b.String()
}

// Verify explores the schedules of p on o.Ranks simulated ranks with
// dynamic partial-order reduction (verify_dpor.go), checking every complete
// schedule with the protocol checker: a deadlock, a run error, a checker
// error or outputs different from the first schedule's are a failure, and
// the exploration stops at the first with its schedule as counterexample.
// args is called before every run for fresh host tensors. The error is for
// a program that cannot load, a cancelled context or a program that does
// not behave deterministically under a fixed schedule.
func Verify(ctx context.Context, p *ir.Program, args func() []*tensor.Tensor, o VerifyOptions) (*Verification, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.Ranks <= 0 {
		o.Ranks = 2
	}
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if o.Watchdog <= 0 {
		o.Watchdog = 20 * time.Second
	}
	v := &Verification{Ranks: o.Ranks, Reduced: !o.NoReduction, Budget: o.Budget}
	start := time.Now()
	st, err := exploreRuns(ctx, p, args, o, func(res *runtime.Result, rep *Report, err error) bool {
		v.judge(res, rep, err)
		return v.Failure != ""
	})
	v.Elapsed = time.Since(start)
	v.Schedules, v.Pruned, v.MaxSteps = st.Complete, st.Pruned, st.MaxDepth
	v.Complete = st.Done && v.Failure == ""
	if st.Runs == 0 && err != nil {
		return nil, err // the program did not load
	}
	return v, err
}

// ExploreOutcomes runs every schedule of p the exploration covers (with
// the reduction unless noReduction) and hands each complete one to visit,
// failed or not; it returns how many there were. For measuring and testing
// the reduction: Verify is the checking front end.
func ExploreOutcomes(ctx context.Context, p *ir.Program, args func() []*tensor.Tensor, ranks int, noReduction bool, visit func(res *runtime.Result, rep *Report, err error)) (int, error) {
	st, err := exploreRuns(ctx, p, args, VerifyOptions{Ranks: ranks, NoReduction: noReduction, Budget: 1 << 30, Watchdog: 20 * time.Second},
		func(res *runtime.Result, rep *Report, err error) bool { visit(res, rep, err); return false })
	return st.Complete, err
}

// exploreRuns is the loop Verify and ExploreOutcomes share: load once, then
// one checked controlled run per schedule; visit returns true to stop.
func exploreRuns(ctx context.Context, p *ir.Program, args func() []*tensor.Tensor, o VerifyOptions, visit func(*runtime.Result, *Report, error) bool) (dporStats, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	exe, err := runtime.NewSimulator().Load(p)
	if err != nil {
		return dporStats{}, err
	}
	var runErr error
	stop := false
	run := func(ch runtime.Chooser) {
		var a []*tensor.Tensor
		if args != nil {
			a = args()
		}
		res, rep, err := runExe(ctx, exe, a, Options{Ranks: o.Ranks, Watchdog: o.Watchdog, MaxEvents: -1, Schedule: ch, Relaxed: o.Relaxed})
		var pe *runtime.PrunedError
		if errors.As(err, &pe) && !pe.Diverged {
			return // the explorer abandoned it
		}
		if ctx.Err() != nil {
			runErr = ctx.Err()
			return
		}
		if res == nil {
			runErr = err
			return
		}
		stop = visit(res, rep, err)
	}
	st, err := explore(ctx, !o.NoReduction, o.Budget, run, func(*dchooser) bool { return runErr != nil || stop })
	if err == nil {
		err = runErr
	}
	return st, err
}

// judge checks one complete schedule; the first failure becomes the
// counterexample.
func (v *Verification) judge(res *runtime.Result, rep *Report, err error) {
	if v.Failure != "" {
		return
	}
	fail := ""
	switch {
	case err != nil:
		fail = strings.SplitN(err.Error(), "\n", 2)[0]
	case rep.HasErrors():
		for _, f := range rep.Findings {
			if f.Severity == Error {
				fail = "checker: " + f.Message
				break
			}
		}
	case v.Outputs == nil:
		for _, t := range res.Outputs {
			v.Outputs = append(v.Outputs, t.Clone())
		}
	default:
		fail = outputsDiffer(v.Outputs, res.Outputs)
	}
	if fail != "" {
		v.Failure, v.FailErr, v.FailReport, v.Counterexample = fail, err, rep, res.Schedule
	}
}

// outputsDiffer names the first output that differs from the reference
// ("" when all are bit-identical).
func outputsDiffer(want, got []*tensor.Tensor) string {
	for i := range want {
		if i >= len(got) {
			return fmt.Sprintf("output %d is missing", i)
		}
		if !bytes.Equal(want[i].Bytes(), got[i].Bytes()) {
			return fmt.Sprintf("output %d differs from the first schedule's: the result depends on the schedule", i)
		}
	}
	return ""
}
