//go:build cgo

package pyfront_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// TestMain lets the test binary serve the oracle plugin as ptorepl: with
// PTOREPL_ORACLE_RUN naming a directory, it runs the program that
// directory describes (oracleRun) instead of the tests.
func TestMain(m *testing.M) {
	if dir := os.Getenv("PTOREPL_ORACLE_RUN"); dir != "" {
		err := oracleRun(dir)
		oracleDone()
		if err != nil {
			_ = os.WriteFile(filepath.Join(dir, "error.txt"), []byte(err.Error()), 0o644)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	oracleDone()
	os.Exit(code)
}

// oracleOn picks the device the runner runs on (the simulator; the MPI
// device under the mpi tag, oracle_mpi_test.go), and oracleDone closes
// what it opened.
var (
	oracleOn   = func(o pl.RunOption) pl.RunOption { return o }
	oracleDone = func() {}
)

// oracleCall is what the plugin's compiled(...) stand-in writes: the test
// whose program runs, which of its ir.compile calls, at how many ranks,
// and the call's tensors (in.0, in.1, ... beside it).
type oracleCall struct {
	File    string `json:"file"`
	Test    string `json:"test"`
	Compile int    `json:"compile"`
	Program string `json:"program"` // the class's name, when a @pl.program class is compiled
	Ranks   int    `json:"ranks"`
	Tensors []struct {
		DType string `json:"dtype"`
		Shape []int  `json:"shape"`
	} `json:"tensors"`
}

// oracleRun builds the call's program from its test, compiles it, runs it
// at the call's ranks on its tensors and writes every tensor back (out.0,
// ...), as the device leaves them.
func oracleRun(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		return err
	}
	var c oracleCall
	if err := json.Unmarshal(b, &c); err != nil {
		return err
	}
	mod, err := pl.LoadPython(c.File)
	if err != nil {
		return err
	}
	// The test's own program (its k-th when it builds several), else the
	// module's program the test compiles by name.
	id := c.Test
	has := map[string]bool{}
	for _, t := range mod.Tests() {
		has[t] = true
	}
	switch k := fmt.Sprintf("%s/%d", c.Test, c.Compile); {
	case has[id]:
	case has[k]:
		id = k
	case c.Program != "":
		id = c.Program
	}
	prog, err := mod.Program(id)
	if err != nil && c.Program != "" {
		// A helper of the test may build it: a factory that needs no
		// arguments and makes a program of that name.
		for _, n := range mod.Names() {
			if !mod.IsFactory(n) {
				continue
			}
			if p, ferr := mod.Call(n); ferr == nil && p.IR().Name == c.Program {
				prog, err = p, nil
				break
			}
		}
	}
	if err != nil {
		return err
	}
	args := make([]*tensor.Tensor, len(c.Tensors))
	for i, tn := range c.Tensors {
		if args[i], err = readTensor(filepath.Join(dir, fmt.Sprintf("in.%d", i)), tn.DType, tn.Shape); err != nil {
			return err
		}
	}
	comp, err := pl.TryCompile(prog, pl.Ranks(c.Ranks))
	if err != nil {
		return err
	}
	// Host SubWorkers' Python runs as the Go functions the system tests
	// bind in its place.
	opts := oracleOn(pl.Ranks(c.Ranks))
	for name, fn := range systemCallbacks[filepath.Base(c.File)+"/"+prog.IR().Name] {
		opts = opts.Callback(name, fn)
	}
	res, err := comp.Run(opts, args...)
	if err != nil {
		return err
	}
	for i, t := range args {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("out.%d", i)), t.Bytes(), 0o644); err != nil {
			return err
		}
	}
	// compiled(a, b) may leave out trailing Out tensors: the run made
	// them, and the call returns them (ret.0, ...): the last of the
	// Out/InOut outputs, which come first in Outputs.
	host, err := runtime.HostOf(prog.IR())
	if err != nil {
		return err
	}
	outs := 0
	for i := range host.Params {
		if d := host.Direction(i); d == ir.Out || d == ir.InOut {
			outs++
		}
	}
	made := res.Outputs()[:outs]
	made = made[len(made)-(len(host.Params)-len(args)):]
	for k, t := range made {
		name := fmt.Sprintf("ret.%d.%s.%s", k, t.DType().Name(), shapeText(t.Shape()))
		if err := os.WriteFile(filepath.Join(dir, name), t.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func shapeText(s []int) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = fmt.Sprint(d)
	}
	return strings.Join(parts, "x")
}

// TestUpstreamDistributedOracle lets upstream's distributed tests
// (tests/st/distributed) judge ptorepl: under real pytest and torch, each
// test builds its inputs, calls its compiled program, which the plugin
// runs on ptorepl (oracleRun, through this test binary), and checks the
// outputs with its own asserts. A test that passes got the values its
// author expects from the NPU. A test whose own value assert fails fails
// this test unless runOracleGaps lists it; one that fails otherwise
// (it checks the device's build artifacts, or ptorepl cannot build or run
// its program) is counted and logged.
func TestUpstreamDistributedOracle(t *testing.T) { distributedOracle(t, "") }

// distributedOracle runs upstream's distributed tests with their programs
// on device ("": the simulator).
func distributedOracle(t *testing.T, device string) {
	st := oracleTree(t, "the distributed oracle runs every upstream distributed test")
	dir := t.TempDir()
	log := runOracle(t, st, dir, device, 15*time.Minute, "distributed")
	if passed := judgeRuns(t, st, dir, log); passed < 20 {
		t.Errorf("only %d of upstream's distributed tests passed on ptorepl:\n%s", passed, tail(log, 40))
	}
}

// judgeRuns reads the outcomes of the tests that ran a compiled program
// on ptorepl (the plugin's runs.jsonl in dir) and returns how many passed
// their own asserts. A test whose value assert fails fails t unless
// runOracleGaps lists it; other failures are logged.
func judgeRuns(t *testing.T, st, dir string, log []byte) int {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "runs.jsonl"))
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type run struct {
		File, Test, When, Outcome, Error string
	}
	passed, listed, other, failed := 0, 0, 0, 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r run
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(st, r.File)
		id := filepath.ToSlash(rel) + "::" + r.Test
		want, isGap := runOracleGaps[id]
		switch {
		case r.Outcome == "passed" && isGap:
			t.Errorf("%s now passes: take it off runOracleGaps (%s)", id, want)
		case r.Outcome == "passed":
			passed++
		case isGap && strings.Contains(r.Error, want):
			listed++
		case strings.HasPrefix(r.Error, "AssertionError") && !strings.Contains(r.Error, "ptorepl:"):
			failed++
			t.Errorf("%s: upstream's assert fails on ptorepl's outputs: %s", id, r.Error)
		default:
			other++
			t.Logf("%s: %s", id, firstLine(r.Error))
		}
	}
	t.Logf("pytest: %s", tail(log, 1))
	t.Logf("%d tests ran a compiled program on ptorepl: %d passed their own asserts, %d failed them, %d are listed gaps, %d failed for other reasons (logged)",
		passed+failed+listed+other, passed, failed, listed, other)
	return passed
}

// runOracleGaps are tests that call their compiled program themselves and
// whose own value asserts ptorepl's outputs fail, by id, with a part of
// the failure.
var runOracleGaps = map[string]string{}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
