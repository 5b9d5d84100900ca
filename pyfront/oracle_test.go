//go:build cgo

package pyfront_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// TestUpstreamOracle checks ptorepl's values against upstream's own
// expectations, for every runtime test upstream wrote as a test case: the
// pytest plugin in testdata/oracle runs upstream's tests/st files under
// real pytest and real torch, and for each test_runner.run(case) writes the
// inputs the case's define_tensors declares and the outputs its
// compute_expected computes from them. This test builds the same test's
// program from the same file, runs it as written and compiled on those
// inputs at one device and compares with the case's own rtol and atol (NaN in the
// expected output is don't-care, as upstream's validate_golden has it).
//
// What ptorepl cannot build is the business of TestUpstreamCorpusNoInternalError
// and is only counted here; a case torch cannot compute (torch 1.13 lacks
// dtype.itemsize and unsigned 16- and 32-bit dtypes) or that is too large for the oracle is
// counted too. A case that builds but fails to compile or run, or gives
// other values, fails the test unless oracleGaps lists it with the reason;
// a listed case that passes fails it too, so the list stays true.
func TestUpstreamOracle(t *testing.T) {
	st := oracleTree(t, "the oracle runs every upstream runtime case")
	dir, log := *oracleDir, []byte(nil)
	if dir == "" {
		dir = t.TempDir()
		// pytest fails: many of upstream's tests check PyPTO's own
		// internals, which the plugin's stand-in does not have. Only the
		// records count.
		log = runOracle(t, st, dir, "", 10*time.Minute, "runtime", "examples")
	}
	recs, err := readOracle(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 500 {
		t.Fatalf("pytest recorded %d cases, fewer than upstream has:\n%s", len(recs), tail(log, 40))
	}

	mods := map[string]*pl.Module{}
	var counts = map[string]int{}
	var noOracle, unbuilt []string
	seen := map[string]bool{}
	for _, rec := range recs {
		id := rec.id(st)
		seen[id] = true
		if rec.Error != "" {
			counts["no oracle"]++
			noOracle = append(noOracle, id+": "+rec.Error)
			continue
		}
		mod, ok := mods[rec.File]
		if !ok {
			mod, err = pl.LoadPython(rec.File)
			if err != nil {
				t.Errorf("%s: %v", rec.File, err)
			}
			mods[rec.File] = mod
		}
		if mod == nil {
			continue
		}
		prog, err := mod.Program(rec.goID(mod))
		if err != nil {
			counts["unbuilt"]++
			unbuilt = append(unbuilt, id+": "+err.Error())
			continue
		}
		got := rec.check(prog)
		want, listed := oracleGaps[id]
		switch {
		case got == "" && listed:
			t.Errorf("%s now gives upstream's values: take it off oracleGaps (%s)", id, want)
		case got == "":
			counts["match"]++
		case listed && strings.Contains(got, want):
			counts["listed gap"]++
		default:
			t.Errorf("%s: %s", id, got)
		}
	}
	for id := range oracleGaps {
		if !seen[id] {
			t.Errorf("oracleGaps lists %s, which pytest did not record", id)
		}
	}
	// Tests that call their compiled program themselves ran it on
	// ptorepl (oracle_dist_test.go) and judged it with their own asserts.
	judgeRuns(t, st, dir, log)
	t.Logf("%d cases: %d give upstream's values, %d are listed gaps, %d unbuilt, %d without an oracle", len(recs),
		counts["match"], counts["listed gap"], counts["unbuilt"], counts["no oracle"])
	for _, l := range [][]string{unbuilt, noOracle} {
		for _, s := range l {
			t.Log(s)
		}
	}
}

// oracleDir reads the records of an earlier pytest run (the plugin's
// --oracle-out) instead of running pytest again.
var oracleDir = flag.String("oracle-dir", "", "TestUpstreamOracle: read the plugin's records from this directory instead of running pytest")

// oracleGaps are the cases whose values ptorepl does not give yet, by id,
// with a part of the failure they give.
var oracleGaps = map[string]string{}

// oracleRec is one recorded test_runner.run: its meta.json.
type oracleRec struct {
	dir     string
	File    string  `json:"file"`
	Test    string  `json:"test"`
	Run     int     `json:"run"`
	Rtol    float64 `json:"rtol"`
	Atol    float64 `json:"atol"`
	Error   string  `json:"error"`
	Tensors []struct {
		Name   string `json:"name"`
		DType  string `json:"dtype"`
		Shape  []int  `json:"shape"`
		Output bool   `json:"output"`
	} `json:"tensors"`
	runs int // how many runs its test made
}

func readOracle(dir string) ([]*oracleRec, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	var recs []*oracleRec
	runs := map[string]int{}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		d := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(filepath.Join(d, "meta.json"))
		if err != nil {
			return nil, err
		}
		r := &oracleRec{dir: d}
		if err := json.Unmarshal(b, r); err != nil {
			return nil, fmt.Errorf("%s: %v", d, err)
		}
		recs = append(recs, r)
		runs[r.File+"::"+r.Test]++
	}
	for _, r := range recs {
		r.runs = runs[r.File+"::"+r.Test]
	}
	return recs, nil
}

// id names the case as pytest does, from tests/st, with the run's number
// when its test makes more than one.
func (r *oracleRec) id(st string) string {
	rel, err := filepath.Rel(st, r.File)
	if err != nil {
		rel = r.File
	}
	id := filepath.ToSlash(rel) + "::" + r.Test
	if r.runs > 1 {
		id += fmt.Sprintf("/%d", r.Run)
	}
	return id
}

// goID is the id the module's Tests use for the case.
func (r *oracleRec) goID(mod *pl.Module) string {
	if r.runs > 1 {
		return fmt.Sprintf("%s/%d", r.Test, r.Run)
	}
	return r.Test
}

// check runs prog as written and compiled on the recorded inputs and
// compares its outputs with the recorded expected ones: "" when both
// agree.
func (r *oracleRec) check(prog *pl.Program) string {
	host, err := runtime.HostOf(prog.IR())
	if err != nil {
		return "no entry: " + err.Error()
	}
	byName := map[string]int{}
	for i, tn := range r.Tensors {
		byName[tn.Name] = i
	}
	order := make([]int, len(host.Params))
	for i, p := range host.Params {
		j, ok := byName[p.Name]
		if !ok {
			if len(host.Params) != len(r.Tensors) {
				return fmt.Sprintf("cannot bind: %s has parameter %s, which the case's tensors do not name", host.Name, p.Name)
			}
			for k := range order {
				order[k] = k
			}
			break
		}
		order[i] = j
	}
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	if err != nil {
		return "compile: " + err.Error()
	}
	for _, compiled := range []bool{false, true} {
		args, err := r.inputs(order)
		if err != nil {
			return err.Error()
		}
		_, err = runWay(prog, comp, compiled, pl.Ranks(1), args...)
		stage := map[bool]string{false: "as written", true: "compiled"}[compiled]
		if err != nil {
			return stage + ": run: " + err.Error()
		}
		var bad []string
		for i, j := range order {
			tn := r.Tensors[j]
			if !tn.Output {
				continue
			}
			raw, err := os.ReadFile(filepath.Join(r.dir, "out."+tn.Name))
			if err != nil {
				return err.Error()
			}
			if msg := closeTo(args[i], tensor.FromBytes(args[i].DType(), raw, tn.Shape...), r.Rtol, r.Atol); msg != "" {
				bad = append(bad, tn.Name+": "+msg)
			}
		}
		if len(bad) > 0 {
			return stage + ": " + strings.Join(bad, "; ")
		}
	}
	return ""
}

// inputs are fresh host tensors of the recorded inputs, in the entry's
// parameter order.
func (r *oracleRec) inputs(order []int) ([]*tensor.Tensor, error) {
	args := make([]*tensor.Tensor, len(order))
	for i, j := range order {
		tn := r.Tensors[j]
		t, err := readTensor(filepath.Join(r.dir, "in."+tn.Name), tn.DType, tn.Shape)
		if err != nil {
			return nil, err
		}
		args[i] = t
	}
	return args, nil
}

// readTensor reads a tensor the oracle plugin wrote: its raw bytes, of
// the dtype named (FP32, ...) and shape.
func readTensor(file, dtype string, shape []int) (*tensor.Tensor, error) {
	dt, ok := ir.DataTypeByName(dtype)
	if !ok {
		return nil, fmt.Errorf("unknown dtype %s", dtype)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return tensor.FromBytes(dt, raw, shape...), nil
}

// closeTo compares as torch.isclose does, NaN expected as don't-care:
// "" when every element is close, else how many are not and the first.
func closeTo(got, want *tensor.Tensor, rtol, atol float64) string {
	n := got.Numel()
	g, w := got.Reshape(n), want.Reshape(n)
	bad, first := 0, -1
	for i := 0; i < n; i++ {
		a, e := g.At(i), w.At(i)
		if math.IsNaN(e) || a == e || math.Abs(a-e) <= atol+rtol*math.Abs(e) {
			continue
		}
		if first < 0 {
			first = i
		}
		bad++
	}
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d elements differ (rtol %g, atol %g); first [%d] = %v, want %v", bad, n, rtol, atol, first, g.At(first), w.At(first))
}

func tail(b []byte, lines int) string {
	ls := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(ls) > lines {
		ls = ls[len(ls)-lines:]
	}
	return strings.Join(ls, "\n")
}

// oracleTree is upstream's tests/st directory for an oracle test, which it
// skips, saying why, without PTOREPL_PYPTO_EXAMPLES or in -short (what
// says what the test runs); without torch and pytest it fails.
func oracleTree(t *testing.T, what string) string {
	t.Helper()
	examples := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if examples == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to run upstream's tests/st beside it against ptorepl")
	}
	if testing.Short() {
		t.Skip(what + ": not in -short")
	}
	if out, err := exec.Command(oraclePython, "-c", "import torch, pytest").CombinedOutput(); err != nil {
		t.Fatalf("the oracle needs torch and pytest for %s (Debian's python3-torch and python3-pytest; the README's test command installs them): %v\n%s", oraclePython, err, out)
	}
	root, err := filepath.Abs(filepath.Join(examples, "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "tests", "st")
}

const oraclePython = "/usr/bin/python3"

// runOracle runs pytest over the paths of st with the oracle plugin,
// writing to dir, this test binary as the runner of compiled programs on
// device ("": the simulator), and returns pytest's output.
func runOracle(t *testing.T, st, dir, device string, limit time.Duration, paths ...string) []byte {
	t.Helper()
	root := filepath.Dir(filepath.Dir(st))
	plugin, err := filepath.Abs(filepath.Join("testdata", "oracle"))
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	args := append([]string{"-m", "pytest", "-q", "-p", "no:cacheprovider", "--noconftest",
		"--continue-on-collection-errors", "-p", "ptorepl_oracle", "--oracle-out", dir}, paths...)
	cmd := exec.CommandContext(ctx, oraclePython, args...)
	cmd.Dir = st
	cmd.Env = append(os.Environ(), "PYTHONPATH="+strings.Join([]string{plugin, st, root}, string(os.PathListSeparator)),
		"PTOREPL_ORACLE_RUNNER="+self, "PTOREPL_ORACLE_DEVICE="+device)
	log, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("pytest did not finish in %v:\n%s", limit, tail(log, 40))
	}
	return log
}

// TestOracleSelf runs the oracles' machinery in every test run, on cases
// of our own in upstream's forms (testdata/oracle/selftest, with a
// minimal harness): the plugin records a runtime case's inputs and
// expected outputs under real pytest and torch, ptorepl gives those
// values as written and compiled, and a distributed test that calls its
// compiled program passes its own torch assert on ptorepl's outputs. One
// test takes its platform from a pytest_generate_tests hook: pytest's id
// for it must be the reader's.
func TestOracleSelf(t *testing.T) {
	if out, err := exec.Command(oraclePython, "-c", "import torch, pytest").CombinedOutput(); err != nil {
		t.Fatalf("the oracle needs torch and pytest for %s (Debian's python3-torch and python3-pytest; the README's test command installs them): %v\n%s", oraclePython, err, out)
	}
	st, err := filepath.Abs(filepath.Join("testdata", "oracle", "selftest"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := runOracle(t, st, dir, "", 5*time.Minute, "runtime", "distributed")
	recs, err := readOracle(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("the plugin recorded %d cases, want 4:\n%s", len(recs), tail(log, 40))
	}
	for _, rec := range recs {
		id := rec.id(st)
		if rec.Error != "" {
			t.Fatalf("%s: %s", id, rec.Error)
		}
		mod, err := pl.LoadPython(rec.File)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := mod.Program(rec.goID(mod))
		if err != nil {
			t.Fatal(err)
		}
		if msg := rec.check(prog); msg != "" {
			t.Errorf("%s: %s", id, msg)
		}
	}
	if passed := judgeRuns(t, st, dir, log); passed != 1 {
		t.Errorf("%d distributed tests passed on ptorepl, want 1:\n%s", passed, tail(log, 40))
	}
}
