package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/internal/suggest"
	"github.com/ptorepl/ptorepl/interp"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// passCommands are the pass-stepping commands. They act on the last program
// the session built (or compiled, or ran).
func passCommands() map[string]metaCommand {
	return map[string]metaCommand{
		"passes":   {help: "list the pass pipeline (a > marks the next pass of :step)", run: (*repl).cmdPasses},
		"step":     {args: "[N|Pass]", help: "run the next pass (or the passes up to pass N or the named one) on the last program and print its diff", run: (*repl).cmdStep},
		"stage":    {args: "N|Pass", help: "print the program after pass N (0 is the input) or the named pass", run: (*repl).cmdStage},
		"diff":     {args: "[N|Pass]", help: "print what pass N (default: the last stepped) changed", run: (*repl).cmdDiff},
		"pto":      {help: "lower the last program and print its PTO-MLIR", run: (*repl).cmdPTO},
		"manifest": {args: "[-ranks N]", help: "lower the last program and print its comm manifest", run: (*repl).cmdManifest},
		"run":      {args: "[-ranks N] [-cores K] [-device sim|mpi] [-relaxed] [-dims M=64,N=128]", help: "run the last program with random inputs (on the simulator unless -device names another; -cores: AIV cores per device, default 1; -relaxed: the weak memory model; -dims: sizes of dynamic dimensions, else the rank count)", run: (*repl).cmdRun},
		"verify":   {args: "[-ranks N] [-budget RUNS]", help: "explore every schedule of the last program with random inputs: a proof or a counterexample", run: (*repl).cmdVerify},
	}
}

// stepper is the REPL's pass-stepping state: restarted whenever the last
// program changes.
type stepper = interp.Stepper

// currentStepper returns the stepper for the session's last program.
func (r *repl) currentStepper() (*stepper, error) { return r.stepperIn(&r.stepper) }

// viewStepper returns the stepper :stage and :diff look through: a copy of
// :step's walk, so looking at a later stage does not move :step's cursor.
func (r *repl) viewStepper() (*stepper, error) { return r.stepperIn(&r.viewer) }

// stepperIn returns *slot, restarted when the session's last program changed.
func (r *repl) stepperIn(slot **stepper) (*stepper, error) {
	p := r.s.LastProgram()
	if p == nil {
		return nil, errNoProgram
	}
	if *slot == nil || (*slot).Program() != p {
		*slot = interp.NewStepper(p)
	}
	return *slot, nil
}

// stageKey checks a :stage or :diff argument: a stage number (0 is the
// input) or a pass name, in any case. An unknown name is an error that
// suggests the closest pass.
func stageKey(cmd, arg string) (string, error) {
	names := []string{"Input"}
	for _, p := range interp.Passes() {
		names = append(names, p.Name)
	}
	if n, err := strconv.Atoi(arg); err == nil {
		if n < 0 || n >= len(names) {
			return "", fmt.Errorf(":%s %s: there are stages 0 (the input) to %d", cmd, arg, len(names)-1)
		}
		return arg, nil
	}
	best, bestD := suggest.Nearest(arg, names)
	if bestD == 0 {
		return best, nil
	}
	if bestD <= max(2, len(arg)/2) || strings.Contains(strings.ToLower(best), strings.ToLower(arg)) {
		return "", fmt.Errorf(":%s: no stage named %q; did you mean %s? (:passes lists them)", cmd, arg, best)
	}
	return "", fmt.Errorf(":%s: no stage named %q; give 0..%d or one of %s", cmd, arg, len(names)-1, strings.Join(names, ", "))
}

func (r *repl) cmdPasses(string) error {
	next := -1
	if r.stepper != nil && r.stepper.Program() == r.s.LastProgram() {
		next = len(r.stepper.Stages()) - 1
	}
	for i, p := range interp.Passes() {
		mark := " "
		if i == next {
			mark = ">"
		}
		fmt.Fprintf(r.out, "%s %2d %-27s %s\n", mark, i+1, p.Name, p.Doc)
	}
	return nil
}

func (r *repl) cmdStep(arg string) error {
	s, err := r.currentStepper()
	if err != nil {
		return err
	}
	target := -1 // the stage to stop at; -1: the next one
	if arg != "" {
		key, err := stageKey("step", arg)
		if err != nil {
			return err
		}
		target = stageIndex(key)
		if at := len(s.Stages()) - 1; target <= at {
			return fmt.Errorf(":step %s: stage %d has run already (:stage %s shows it; :step goes on from stage %d)", arg, target, key, at)
		}
	}
	for {
		st, ok, err := s.Step()
		if err != nil {
			return err
		}
		if !ok {
			fmt.Fprintln(r.out, "every pass has run (:stage N shows a stage, :pto the generated code)")
			return nil
		}
		n := len(s.Stages()) - 1
		switch {
		case target > n && st.Changed:
			fmt.Fprintf(r.out, "[%d] %s: changed (:diff %d shows how)\n", n, st.Name, n)
			continue
		case !st.Changed:
			fmt.Fprintf(r.out, "[%d] %s: unchanged\n", n, st.Name)
		default:
			fmt.Fprintf(r.out, "[%d] %s\n%s", n, st.Name, ensureNewline(st.Diff))
		}
		if target > n {
			continue
		}
		r.printWarnings(s)
		return nil
	}
}

// stageIndex is the stage number a stageKey result names (0: the input).
func stageIndex(key string) int {
	if n, err := strconv.Atoi(key); err == nil {
		return n
	}
	for i, p := range interp.Passes() {
		if p.Name == key {
			return i + 1
		}
	}
	return 0
}

// printWarnings shows the post-pipeline verifier's warnings once the last
// pass has run.
func (r *repl) printWarnings(s *stepper) {
	for _, w := range s.Warnings() {
		fmt.Fprintln(r.out, w)
	}
}

func (r *repl) cmdStage(arg string) error {
	if arg == "" {
		return fmt.Errorf(":stage needs a stage number or a pass name")
	}
	key, err := stageKey("stage", arg)
	if err != nil {
		return err
	}
	s, err := r.viewStepper()
	if err != nil {
		return err
	}
	st, err := s.Stage(key)
	if err != nil {
		return err
	}
	fmt.Fprintf(r.out, "# after %s\n%s", st.Name, ensureNewline(st.Text))
	return nil
}

func (r *repl) cmdDiff(arg string) error {
	if arg == "" {
		// The last pass :step ran.
		s, err := r.currentStepper()
		if err != nil {
			return err
		}
		stages := s.Stages()
		if len(stages) < 2 {
			return fmt.Errorf("no pass has run yet: :step runs the next one")
		}
		arg = fmt.Sprint(len(stages) - 1)
	}
	key, err := stageKey("diff", arg)
	if err != nil {
		return err
	}
	s, err := r.viewStepper()
	if err != nil {
		return err
	}
	st, err := s.Stage(key)
	if err != nil {
		return err
	}
	if !st.Changed || st.Diff == "" {
		fmt.Fprintf(r.out, "%s changed nothing\n", st.Name)
		return nil
	}
	fmt.Fprint(r.out, ensureNewline(st.Diff))
	return nil
}

func (r *repl) cmdPTO(string) error {
	p := r.s.LastProgram()
	if p == nil {
		return errNoProgram
	}
	text, err := interp.PTOText(p)
	if err != nil {
		return err
	}
	fmt.Fprint(r.out, ensureNewline(text))
	return nil
}

// ranksFlag parses "-ranks N" (default def).
func ranksFlag(cmd, arg string, def int) (int, error) {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.Int("ranks", def, "rank count")
	if err := fs.Parse(strings.Fields(arg)); err != nil {
		return 0, fmt.Errorf(":%s: %v (usage: :%s -ranks N)", cmd, err, cmd)
	}
	if *n == 0 && def == 0 {
		return 0, nil // not given: the command's default
	}
	if err := runtime.CheckRanks(":"+cmd, "-ranks", *n); err != nil {
		return 0, err
	}
	return *n, nil
}

func (r *repl) cmdManifest(arg string) error {
	n, err := ranksFlag("manifest", arg, 0)
	if err != nil {
		return err
	}
	p := r.s.LastProgram()
	if p == nil {
		return errNoProgram
	}
	text, err := interp.ManifestText(p, n)
	if err != nil {
		return err
	}
	fmt.Fprint(r.out, text)
	return nil
}

func (r *repl) cmdRun(arg string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	nf := fs.Int("ranks", 2, "rank count")
	cores := fs.Int("cores", runtime.DefaultCores, "AIV cores per simulated device")
	device := fs.String("device", "", "device: sim (default) or mpi")
	relaxed := fs.Bool("relaxed", false, "run on the weak memory model: unfenced writes, overtaking signals, stale cache lines")
	dimsFlag := fs.String("dims", "", "sizes of dynamic dimensions: M=64,N=128 (the others take the rank count)")
	if err := fs.Parse(strings.Fields(arg)); err != nil {
		return fmt.Errorf(":run: %v (usage: :run [-ranks N] [-cores K] [-device sim|mpi] [-relaxed] [-dims M=64,N=128])", err)
	}
	dims, err := runtime.ParseDims(*dimsFlag)
	if err != nil {
		return fmt.Errorf(":run: -%v", err)
	}
	if err := runtime.CheckRanks(":run", "-ranks", *nf); err != nil {
		return err
	}
	if err := runtime.CheckCores(":run", "-cores", *cores); err != nil {
		return err
	}
	n := *nf
	p := r.s.LastProgram()
	if p == nil {
		return errNoProgram
	}
	ctx, done := r.interruptible()
	defer done()
	args, names, res, rep, err := interp.RunRandomWith(ctx, p, n, interp.RandomRun{Device: *device, Relaxed: *relaxed, Cores: *cores, Dims: dims})
	return showRun(r.out, p.Name, n, args, names, res, rep, err)
}

// showRun prints a :run: the outputs of a finished run, what stopped a
// failed one, and the protocol checker's report either way.
func showRun(w io.Writer, name string, n int, args []*tensor.Tensor, names []string, res *runtime.Result, rep *checker.Report, err error) error {
	if res == nil {
		return err // the program never started
	}
	if err != nil {
		fmt.Fprintf(w, "ran %s on %d ranks: stopped after %d ops\n%s\n", name, n, res.Ops, rep)
		first, _, _ := strings.Cut(err.Error(), "\n")
		return fmt.Errorf("%s (the report above explains it)", first)
	}
	fmt.Fprintf(w, "ran %s on %d ranks (%d ops)\n", name, n, res.Ops)
	for i, t := range args {
		fmt.Fprintf(w, "%s = %s\n", names[i], t)
	}
	showReturned(w, res.Outputs, args)
	fmt.Fprintln(w, rep)
	return nil
}

// showReturned prints the tensors a run created and returned (its outputs
// that are not among the tensors passed in): "return = ..." for one,
// "return[i] = ..." for several.
func showReturned(w io.Writer, outputs, args []*tensor.Tensor) {
	var ret []*tensor.Tensor
	for _, o := range outputs {
		if !slices.Contains(args, o) {
			ret = append(ret, o)
		}
	}
	for i, t := range ret {
		if len(ret) == 1 {
			fmt.Fprintf(w, "return = %s\n", t)
		} else {
			fmt.Fprintf(w, "return[%d] = %s\n", i, t)
		}
	}
}

func ensureNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
