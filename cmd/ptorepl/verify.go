package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ptorepl/ptorepl/interp"
	"github.com/ptorepl/ptorepl/runtime"
)

// cmdVerify explores every schedule of the last program with random
// inputs: a proof, a counterexample with its steps and report, or an
// incomplete result when the budget runs out. Ctrl-C stops it.
func (r *repl) cmdVerify(arg string) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	nf := fs.Int("ranks", 2, "rank count")
	budget := fs.Int("budget", 0, "runs to try before giving up")
	if err := fs.Parse(strings.Fields(arg)); err != nil {
		return fmt.Errorf(":verify: %v (usage: :verify [-ranks N] [-budget RUNS])", err)
	}
	if err := runtime.CheckRanks(":verify", "-ranks", *nf); err != nil {
		return err
	}
	if *budget < 0 {
		return fmt.Errorf(":verify: -budget must be a positive number of runs, given %d", *budget)
	}
	p := r.s.LastProgram()
	if p == nil {
		return errNoProgram
	}
	ctx, done := r.interruptible()
	defer done()
	v, err := interp.VerifyRandom(ctx, p, *nf, *budget)
	if v != nil {
		fmt.Fprint(r.out, ensureNewline(v.String()))
	}
	if err != nil {
		return err
	}
	if v.Failure != "" {
		return fmt.Errorf("%s has a failing schedule (above); replay it in a cell with pl.Run(prog, pl.Ranks(%d).Replay(pl.Verify(prog, pl.Ranks(%d), args...).Counterexample()), args...)", p.Name, *nf, *nf)
	}
	return nil
}
