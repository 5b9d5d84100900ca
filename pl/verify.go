package pl

import (
	"fmt"
	"html"
	"strings"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// Schedule is the decisions of one controlled run of the simulator: which
// rank ran at each synchronising event. A Verification's counterexample is
// one; pl.Ranks(n).Replay(s) runs it again, deterministically.
type Schedule = runtime.Schedule

// Budget bounds pl.Verify to n runs (default 10000); past it the result is
// "incomplete after N schedules", never a hang. n must be positive.
func (o RunOption) Budget(n int) RunOption {
	if n <= 0 {
		dsl.Raise(fmt.Errorf("pl.Ranks(...).Budget: n must be a positive number of runs, given %d", n))
	}
	o.budget = n
	return o
}

// NoReduction makes pl.Verify enumerate every interleaving of the
// synchronising events, without partial-order reduction (much slower; for
// comparing with the reduction).
func (o RunOption) NoReduction() RunOption { o.noReduce = true; return o }

// Replay runs pl.Run under a recorded schedule (a Verification's
// counterexample): one rank at a time, in the schedule's order, so the run
// fails exactly as it did during verification. Only the simulator replays.
func (o RunOption) Replay(s *Schedule) RunOption {
	if s == nil {
		dsl.Raise(fmt.Errorf("pl.Ranks(...).Replay: the schedule is nil (a proved Verification has no counterexample)"))
	}
	o.replay = s
	return o
}

// Verification is the outcome of pl.Verify.
type Verification struct {
	v    *checker.Verification
	err  error
	cx   *RunResult // the counterexample replayed with a timeline
	opts RunOption
}

// Verify explores the schedules of prog on the simulator: every order in
// which the ranks' synchronising events (notify, wait, test, window reads
// and writes, remote loads and stores, puts and gets, the collectives'
// internal steps, task starts and ends) can happen, up to reordering
// independent events (dynamic partial-order reduction). Each schedule is
// checked by the protocol checker; a deadlock, a checker error or outputs
// that differ from the first schedule's end the exploration with that
// schedule as counterexample. args are the host tensors as for pl.Run; each
// schedule runs on copies, so args are left as they were. Bound the work
// with pl.Ranks(n).Budget(runs).
func Verify(prog *Program, ranks RunOption, args ...*tensor.Tensor) *Verification {
	if prog == nil {
		return &Verification{err: fmt.Errorf("pl.Verify: the program is nil"), opts: ranks}
	}
	dsl.NoteProgram(prog.IR())
	return verifyIR(prog.IR(), ranks, args)
}

// Verify is pl.Verify on the compiled program (the last pipeline stage):
// the lowered collectives' every notify, wait and put is a scheduling point.
func (c *Compiled) Verify(ranks RunOption, args ...*tensor.Tensor) *Verification {
	return verifyIR(c.Final(), ranks, args)
}

func verifyIR(p *ir.Program, ranks RunOption, args []*tensor.Tensor) *Verification {
	out := &Verification{opts: ranks}
	if err := checkRanks("pl.Verify", ranks.ranks); err != nil {
		out.err = err
		return out
	}
	if ranks.target != nil && ranks.target.name != "sim" {
		out.err = fmt.Errorf("pl.Verify: schedules are explored on the simulator only, not on device %s", ranks.target.name)
		return out
	}
	if ranks.cores > 1 {
		// A controlled run gives each rank one worker; exploring the
		// interleavings of several cores per rank is not modelled.
		out.err = fmt.Errorf("pl.Verify: schedules are explored with one AIV core per rank; Cores(%d) is not supported (drop .Cores, or check it with pl.Run)", ranks.cores)
		return out
	}
	for i, a := range args {
		if a == nil {
			out.err = fmt.Errorf("pl.Verify: host tensor %d is nil", i)
			return out
		}
	}
	fresh := func() []*tensor.Tensor {
		c := make([]*tensor.Tensor, len(args))
		for i, a := range args {
			c[i] = a.Clone()
		}
		return c
	}
	v, err := checker.Verify(dsl.Context(), p, fresh, checker.VerifyOptions{Ranks: ranks.ranks, Budget: ranks.budget,
		NoReduction: ranks.noReduce, Watchdog: ranks.watchdog, Relaxed: ranks.relaxed})
	out.v, out.err = v, err
	if v != nil && v.Counterexample != nil && err == nil {
		// Replayed once more, with a timeline, for the swimlane.
		o := ranks
		o.replay, o.progress = v.Counterexample, 0
		res, _ := runIR(p, o, fresh())
		out.cx = res
	}
	return out
}

// Err is what kept the exploration from running (a program that does not
// load, a cancelled cell); nil otherwise.
func (v *Verification) Err() error { return v.err }

// Proved reports whether every schedule was explored and each was clean
// with the same outputs.
func (v *Verification) Proved() bool { return v.err == nil && v.v != nil && v.v.Proved() }

// Complete reports whether every schedule was explored (false when the
// budget ran out or a counterexample stopped the exploration).
func (v *Verification) Complete() bool { return v.v != nil && v.v.Complete }

// Schedules is how many complete schedules were run and checked.
func (v *Verification) Schedules() int {
	if v.v == nil {
		return 0
	}
	return v.v.Schedules
}

// Pruned is how many runs were cut short as redundant.
func (v *Verification) Pruned() int {
	if v.v == nil {
		return 0
	}
	return v.v.Pruned
}

// Failure is what the counterexample showed ("" when none was found).
func (v *Verification) Failure() string {
	if v.v == nil {
		return ""
	}
	return v.v.Failure
}

// Counterexample is the failing schedule, nil when none was found. Replay
// it with pl.Run(prog, pl.Ranks(n).Replay(cx), args...).
func (v *Verification) Counterexample() *Schedule {
	if v.v == nil {
		return nil
	}
	return v.v.Counterexample
}

// CounterexampleRun is the counterexample replayed (with its timeline, for
// the swimlane); nil when there is none.
func (v *Verification) CounterexampleRun() *RunResult { return v.cx }

// Status is one line: proved, a counterexample, or incomplete.
func (v *Verification) Status() string {
	if v.err != nil {
		return "verification failed to run: " + strings.SplitN(v.err.Error(), "\n", 2)[0]
	}
	return v.v.Status()
}

// String is the status and, for a counterexample, its steps and report.
func (v *Verification) String() string {
	if v.err != nil {
		return v.Status()
	}
	return strings.TrimRight(v.v.String(), "\n")
}

// HTML shows the verdict, the counts and, for a counterexample, its steps
// and the swimlane of its replay.
func (v *Verification) HTML() string {
	var b strings.Builder
	color := "#2e7d32"
	switch {
	case v.err != nil || v.Failure() != "":
		color = "#c62828"
	case !v.Complete():
		color = "#ef6c00"
	}
	fmt.Fprintf(&b, `<div class="ptorepl-verify" style="font-family:sans-serif"><div style="color:%s;font-weight:bold">%s</div>`, color, html.EscapeString(v.Status()))
	if v.v != nil {
		fmt.Fprintf(&b, `<table style="margin:0.3em 0"><tr><td>ranks</td><td>%d</td></tr><tr><td>schedules checked</td><td>%d</td></tr><tr><td>runs pruned as redundant</td><td>%d</td></tr><tr><td>reduction</td><td>%v</td></tr><tr><td>longest schedule</td><td>%d decisions</td></tr><tr><td>time</td><td>%s</td></tr></table>`,
			v.v.Ranks, v.v.Schedules, v.v.Pruned, v.v.Reduced, v.v.MaxSteps, html.EscapeString(v.v.Elapsed.Round(1e6).String()))
	}
	if cx := v.Counterexample(); cx != nil {
		b.WriteString(`<details><summary>counterexample: ` + html.EscapeString(cx.String()) + `</summary><pre>` +
			html.EscapeString(strings.Join(cx.Steps(), "\n")) + `</pre></details>`)
		if v.cx != nil {
			b.WriteString(v.cx.HTML())
		}
	}
	b.WriteString(`</div>`)
	return b.String()
}

// Schedule is the decisions of a run made under a schedule (Replay): nil
// for a run whose ranks ran freely.
func (r *RunResult) Schedule() *Schedule { return r.res.Schedule }
