package checker

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// Options configure a checked run.
type Options struct {
	// Ranks is the world size (default 2).
	Ranks int
	// Seed perturbs the simulator's schedule (runtime.RunOptions.Seed).
	Seed int64
	// Watchdog bounds the run's wall-clock time (the runtime's default: 30s).
	Watchdog time.Duration
	// MaxEvents is runtime.RunOptions.MaxEvents (timeline size).
	MaxEvents int
	// Device runs the program (nil: the embedded simulator). Only devices
	// that call the runtime Observer give race findings.
	Device runtime.Device
	// Progress, when set, is called every ProgressEvery while the run goes
	// (runtime.RunOptions.Progress), so front-ends can show long runs.
	Progress      func(runtime.ProgressInfo)
	ProgressEvery time.Duration
	// Relaxed runs the device's weak memory model
	// (runtime.RunOptions.Relaxed): the report then also names writes read
	// before they were visible, signals that overtook data and stale cached
	// reads, each with the fence or cacheinvalid that fixes it.
	Relaxed bool
	// Disabled runs without the checker: no observer is attached, and the
	// report holds only what the result shows (cells left non-zero, Set and
	// AtomicAdd on one cell) and a deadlock's explanation.
	Disabled bool
	// Cores is runtime.RunOptions.Cores (AIV cores per rank).
	Cores int
	// Schedule runs under control (runtime.RunOptions.Schedule): a replay
	// of a counterexample Verify found, for one.
	Schedule runtime.Chooser
	// Callbacks bind host callbacks (runtime.RunOptions.Callbacks).
	Callbacks map[string]runtime.Callback
}

func (o Options) runOptions() runtime.RunOptions {
	n := o.Ranks
	if n <= 0 {
		n = 2
	}
	return runtime.RunOptions{Ranks: n, Seed: o.Seed, Watchdog: o.Watchdog, MaxEvents: o.MaxEvents,
		Progress: o.Progress, ProgressEvery: o.ProgressEvery, Relaxed: o.Relaxed, Cores: o.Cores, Schedule: o.Schedule,
		Callbacks: o.Callbacks}
}

func (o Options) device() runtime.Device {
	if o.Device != nil {
		return o.Device
	}
	return runtime.Default()
}

// unobserved is the note a run on a device without an Observer gets: race
// checking (happens-before on window memory) is a simulator feature.
func unobserved(dev runtime.Device) Finding {
	return Finding{Kind: KindUnchecked, Severity: Note,
		Message: fmt.Sprintf("race checking is a simulator feature: device %s cannot be observed, so this run was not checked for races or overtaken waits (signal hygiene and deadlock explanations remain); run on the simulator to check the protocol", dev.Name())}
}

// Run runs p on o.Ranks ranks with the checker attached. It returns the
// run's result (nil only when the program never started: a failed run's
// result holds what happened up to the failure), the report (never nil) and the
// run's error; a deadlock comes back as a *DeadlockError carrying the
// explanation (errors.As also finds the *runtime.DeadlockError in it).
func Run(ctx context.Context, p *ir.Program, args []*tensor.Tensor, o Options) (*runtime.Result, *Report, error) {
	dev := o.device()
	if _, ok := dev.(runtime.RelaxedDevice); o.Relaxed && !ok {
		return nil, &Report{Ranks: o.runOptions().Ranks, Disabled: o.Disabled}, fmt.Errorf("relaxed memory mode: device %s runs sequentially consistent only; run on the simulator (pl.Simulator()) to check weak-memory bugs", dev.Name())
	}
	exe, err := dev.Load(p)
	if err != nil {
		return nil, &Report{Ranks: o.runOptions().Ranks, Disabled: o.Disabled}, err
	}
	if _, ok := dev.(runtime.ObservingDevice); !ok && !o.Disabled {
		o.Disabled = true
		res, rep, err := runExe(ctx, exe, args, o)
		rep.Findings = append(rep.Findings, unobserved(dev))
		return res, rep, err
	}
	return runExe(ctx, exe, args, o)
}

func runExe(ctx context.Context, exe runtime.Executable, args []*tensor.Tensor, o Options) (*runtime.Result, *Report, error) {
	ro := o.runOptions()
	if o.Disabled {
		res, err := exe.Run(ctx, args, ro)
		rep := &Report{Ranks: ro.Ranks, Disabled: true}
		if res != nil {
			rep.Findings = append(append(Hygiene(res.Signals), TileOverlaps(res.Overlaps)...), TaskRaces(res.TaskRaces)...)
		}
		var dl *runtime.DeadlockError
		var rd *runtime.ResourceDeadlockError
		if errors.As(err, &rd) && errors.As(err, &dl) {
			f := resourceFinding(rd, dl)
			rep.Findings = append([]Finding{f}, rep.Findings...)
			err = &DeadlockError{Deadlock: dl, cause: err}
		} else if errors.As(err, &dl) {
			expl := ExplainDeadlock(dl, nil, ro.Ranks)
			msg, det, _ := strings.Cut(expl, "\n  ")
			rep.Findings = append([]Finding{{Kind: KindDeadlock, Severity: Error, Message: msg, Details: strings.Split(det, "\n  "), key: "deadlock|" + deadlockKey(dl)}}, rep.Findings...)
			err = &DeadlockError{Deadlock: dl, Explanation: expl, cause: err}
		}
		return res, rep, err
	}
	c := Attach(&ro)
	res, err := exe.Run(ctx, args, ro)
	rep := c.Report()
	var dl *runtime.DeadlockError
	if errors.As(err, &dl) {
		f := rep.Of(KindDeadlock)
		expl := ""
		switch {
		case len(rep.Of(KindResourceDeadlock)) > 0:
			// The runtime's text names the holding waits and the queued tasks.
		case len(f) > 0:
			expl = f[0].Message + "\n  " + strings.Join(f[0].Details, "\n  ")
		default:
			expl = ExplainDeadlock(dl, nil, ro.Ranks)
		}
		err = &DeadlockError{Deadlock: dl, Explanation: expl, cause: err}
	}
	return res, rep, err
}

// TileOverlaps turns the simulator's on-chip buffer reports into findings:
// a tile read after another tile's placement overwrote it, which a wrong
// address plan causes (the device would compute with the clobbered bytes).
func TileOverlaps(os []runtime.TileOverlap) []Finding {
	var out []Finding
	at := map[string]int{}
	for _, o := range os {
		key := fmt.Sprintf("tile-overlap|%s|%s|%s", o.Func, o.Live.Name, o.Over.Name)
		if i, dup := at[key]; dup {
			out[i].Count = max(out[i].Count, 1) + 1 // the same pair on another rank
			continue
		}
		at[key] = len(out)
		msg := fmt.Sprintf("tiles %s and %s overlap on rank %d's on-chip buffer (bytes [%d, %d)) while both are live: %s was overwritten before its last read; give them disjoint addresses",
			o.Live.Name, o.Over.Name, o.Rank, o.Lo, o.Hi, o.Live.Name)
		if o.Live == o.Over {
			msg = fmt.Sprintf("tile %s overwrote its own previous value on rank %d's on-chip buffer (bytes [%d, %d)) while that value was still to be read (a loop carries it): keep the carried value in a buffer of its own",
				o.Live.Name, o.Rank, o.Lo, o.Hi)
		}
		out = append(out, Finding{Kind: KindTileOverlap, Severity: Error, Message: msg,
			Details: []string{"live:        " + o.Live.String(), "placed over: " + o.Over.String(), "in " + o.Func},
			key:     key})
	}
	return out
}

// Hygiene lists the end-of-run signal findings visible in a result's
// signal cells alone: cells written by both Set and AtomicAdd (a warning:
// without the checker their order is unknown) and cells left non-zero.
func Hygiene(sigs []runtime.SignalCell) []Finding {
	var mixed []string
	for _, s := range sigs {
		if s.SetBy["Set"] && s.SetBy["AtomicAdd"] {
			mixed = append(mixed, fmt.Sprintf("%s on rank %d", cellName(s.Buffer, s.Offset, s.ByteOffset), s.Rank))
		}
	}
	var out []Finding
	if len(mixed) > 0 {
		out = append(out, Finding{Kind: KindMixedSetAdd, Severity: Warning,
			Message: fmt.Sprintf("%s written by both Set and AtomicAdd: a Set that lands after a peer's add loses it. Prefer AtomicAdd throughout (run with the checker to see whether the two can overlap).",
				plural(len(mixed), "signal cell", "signal cells")),
			Details: limit(mixed, 8)})
	}
	return append(out, nonZero(sigs)...)
}

// --- schedule exploration

// Schedule is one explored run.
type Schedule struct {
	Seed    int64
	Err     error // the run's error (a *DeadlockError for a deadlock)
	Report  *Report
	Elapsed time.Duration
}

// Failed reports whether the run failed or the checker found an error.
func (s *Schedule) Failed() bool { return s.Err != nil || s.Report.HasErrors() }

// Deadlocked reports whether the run deadlocked.
func (s *Schedule) Deadlocked() bool {
	var dl *runtime.DeadlockError
	return errors.As(s.Err, &dl)
}

// Exploration is the outcome of running one program under several seeded
// schedules.
type Exploration struct {
	Ranks     int
	Tried     int
	Schedules []Schedule
	// Report merges the findings of every schedule (each once, with the seed
	// of the first schedule that showed it).
	Report *Report
}

// Failed returns the schedules that failed.
func (e *Exploration) Failed() []Schedule {
	var out []Schedule
	for _, s := range e.Schedules {
		if s.Failed() {
			out = append(out, s)
		}
	}
	return out
}

// FirstDeadlock returns the first schedule that deadlocked, or nil.
func (e *Exploration) FirstDeadlock() *Schedule {
	for i := range e.Schedules {
		if e.Schedules[i].Deadlocked() {
			return &e.Schedules[i]
		}
	}
	return nil
}

// String summarises the exploration: schedules tried, which failed and how,
// then the merged findings.
func (e *Exploration) String() string {
	var b strings.Builder
	failed := e.Failed()
	fmt.Fprintf(&b, "explored %d schedules on %d ranks: %d failed", e.Tried, e.Ranks, len(failed))
	dead := 0
	for _, s := range e.Schedules {
		if s.Deadlocked() {
			dead++
		}
	}
	if dead > 0 {
		fmt.Fprintf(&b, ", %d deadlocked", dead)
	}
	if len(failed) > 0 {
		var seeds []string
		for _, s := range failed {
			seeds = append(seeds, fmt.Sprint(s.Seed))
		}
		fmt.Fprintf(&b, " (seeds %s)", strings.Join(limit(seeds, 16), ", "))
		s := failed[0]
		if d := e.FirstDeadlock(); d != nil {
			s = *d
		}
		how := "checker errors"
		if s.Err != nil {
			how = strings.SplitN(s.Err.Error(), "\n", 2)[0]
		}
		fmt.Fprintf(&b, "; reproduce with Seed: %d — %s", s.Seed, how)
	}
	b.WriteString("\n")
	b.WriteString(e.Report.String())
	return b.String()
}

// Explore runs p under K seeded schedules (seeds 1..K) on ranks ranks with
// the checker attached; dev nil means the simulator. args is called before
// every run for fresh host tensors. A schedule that fails (deadlock, run
// error, checker error) is listed with its seed: passing that seed as
// Options.Seed (runtime.RunOptions.Seed) replays the same perturbation. The
// error is for a program that cannot run at all or a cancelled context.
func Explore(ctx context.Context, dev runtime.Device, p *ir.Program, args func() []*tensor.Tensor, ranks, K int) (*Exploration, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if dev == nil {
		dev = runtime.Default()
	}
	if _, ok := dev.(runtime.SeededDevice); !ok {
		return nil, fmt.Errorf("schedule exploration needs a device that perturbs its schedule from a seed; device %s does not (explore on the simulator)", dev.Name())
	}
	if ranks <= 0 {
		ranks = 2
	}
	exe, err := dev.Load(p)
	if err != nil {
		return nil, err
	}
	e := &Exploration{Ranks: ranks, Report: &Report{Ranks: ranks}}
	seen := map[string]bool{}
	for seed := int64(1); seed <= int64(K); seed++ {
		if err := ctx.Err(); err != nil {
			return e, err
		}
		var a []*tensor.Tensor
		if args != nil {
			a = args()
		}
		start := time.Now()
		_, rep, err := runExe(ctx, exe, a, Options{Ranks: ranks, Seed: seed, Watchdog: 20 * time.Second, MaxEvents: -1})
		if ctx.Err() != nil {
			return e, ctx.Err()
		}
		s := Schedule{Seed: seed, Err: err, Report: rep, Elapsed: time.Since(start)}
		e.Schedules = append(e.Schedules, s)
		e.Tried++
		for _, f := range rep.Findings {
			key := f.key
			if key == "" {
				key = string(f.Kind) + "|" + f.Message
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			f.Seed = seed
			e.Report.Findings = append(e.Report.Findings, f)
		}
		var dl *runtime.DeadlockError
		if err != nil && !errors.As(err, &dl) {
			key := "run-error|" + err.Error()
			if !seen[key] {
				seen[key] = true
				e.Report.Findings = append(e.Report.Findings, Finding{Kind: KindRunError, Severity: Error, Seed: seed,
					Message: "the run failed under this schedule: " + strings.SplitN(err.Error(), "\n", 2)[0]})
			}
		}
	}
	sortFindings(e.Report.Findings)
	return e, nil
}

// deadlockKey identifies a deadlock by where ranks block (not the values),
// so exploration lists each distinct deadlock once.
func deadlockKey(dl *runtime.DeadlockError) string {
	seen := map[string]bool{}
	var parts []string
	for _, b := range dl.Blocked {
		p := fmt.Sprintf("%s@%s", b.Op, b.Pos)
		if !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// TaskRaces turns the simulator's manual-scope reports into findings: two
// tasks of a pl.manual_scope that touch the same bytes of a tensor, one
// writing, with no chain of declared deps between them. The simulator ran
// them in program order; the device may run them at once.
func TaskRaces(rs []runtime.TaskRace) []Finding {
	var out []Finding
	at := map[string]int{}
	for _, r := range rs {
		kind := KindTaskRace
		if r.NoDep {
			kind = KindNoDepRace
		}
		key := fmt.Sprintf("%s|%s|%s|%s", kind, r.Earlier, r.Later, r.Tensor)
		if i, dup := at[key]; dup {
			out[i].Count = max(out[i].Count, 1) + 1 // the same pair on another rank
			continue
		}
		at[key] = len(out)
		verb := func(w bool) string {
			if w {
				return "writes"
			}
			return "reads"
		}
		msg := fmt.Sprintf("in a pl.manual_scope, %s %s %s, which %s %s, and no chain of deps orders them: the runtime infers no edges there, so they may run at once; add deps=[...] naming the earlier task",
			r.Later.Name, verb(r.LaterWrites), r.Tensor, r.Earlier.Name, verb(r.EarlierWrites))
		if r.NoDep {
			msg = fmt.Sprintf("%s %s %s, which %s %s, and a pl.no_dep slot takes the pair out of the runtime's tracking: nothing orders them, so they may run at once; drop pl.no_dep for it or add deps=[...] naming the earlier task",
				r.Later.Name, verb(r.LaterWrites), r.Tensor, r.Earlier.Name, verb(r.EarlierWrites))
		}
		out = append(out, Finding{Kind: kind, Severity: Error,
			Message: msg,
			Details: []string{"earlier: " + r.Earlier.String(), "later:   " + r.Later.String(),
				fmt.Sprintf("shared:  bytes [%d, %d) of %s on rank %d", r.Lo, r.Hi, r.Tensor, r.Rank)},
			key: key})
	}
	return out
}
