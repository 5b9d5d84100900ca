// Package notebooks holds the course: teaching notebooks that run on the
// ptorepl Jupyter kernel. Its tests execute every notebook once with
// Jupyter's nbconvert, then check each notebook's teaching claims against
// its executed outputs, and check that each exercise's check cell can say
// both "right" and "not yet".
package notebooks

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

const jupyterPath = "/usr/bin/jupyter"

// notebook is an executed notebook as nbformat 4 stores it.
type notebook struct {
	Cells []cell `json:"cells"`
}

type cell struct {
	CellType string          `json:"cell_type"`
	Source   json.RawMessage `json:"source"`
	Metadata struct {
		Tags []string `json:"tags"`
	} `json:"metadata"`
	Outputs []output `json:"outputs"`
}

type output struct {
	OutputType string                     `json:"output_type"`
	Name       string                     `json:"name"`
	Text       json.RawMessage            `json:"text"`
	Data       map[string]json.RawMessage `json:"data"`
	Ename      string                     `json:"ename"`
	Evalue     string                     `json:"evalue"`
}

// multiline decodes nbformat's "string or list of strings".
func multiline(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []string
	if json.Unmarshal(raw, &parts) == nil {
		return strings.Join(parts, "")
	}
	return ""
}

func (c cell) source() string { return multiline(c.Source) }

func (c cell) tagged(tag string) bool {
	for _, t := range c.Metadata.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// text is everything the cell printed or displayed as text (stdout, and
// the text/plain of displays without HTML), plus the visible text of its
// HTML displays.
func (c cell) text() string {
	var b strings.Builder
	for _, o := range c.Outputs {
		b.WriteString(o.visible())
		b.WriteString("\n")
	}
	return b.String()
}

func (c cell) html() string {
	var b strings.Builder
	for _, o := range c.Outputs {
		b.WriteString(multiline(o.Data["text/html"]))
	}
	return b.String()
}

func (c cell) count(mime string) int {
	n := 0
	for _, o := range c.Outputs {
		if _, ok := o.Data[mime]; ok {
			n++
		}
	}
	return n
}

// swimlanes counts the SVG pictures the cell displayed.
// swimlanes counts the swimlanes a reader sees; a lowered collective's
// fully expanded copy, folded under its own <details>, is not another one.
func (c cell) swimlanes() int {
	return strings.Count(expandedRe.ReplaceAllString(c.html(), ""), "<svg")
}

var expandedRe = regexp.MustCompile(`(?s)<details class="ptorepl-swimlane-expanded">.*?</details>`)

var (
	foldedRe = regexp.MustCompile(`(?s)<details.*?</details>|<svg.*?</svg>|<style.*?</style>`)
	tagRe    = regexp.MustCompile(`(?s)<[^>]*>`)
	blockRe  = regexp.MustCompile(`(?i)<(br|/div|/pre|/tr|/p|/li|/h\d)[^>]*>`)
)

// visible is the text a reader sees without clicking: stream text, or
// HTML with folded <details>, pictures and styles removed.
func (o output) visible() string {
	if o.OutputType == "stream" {
		return multiline(o.Text)
	}
	if h, ok := o.Data["text/html"]; ok {
		s := foldedRe.ReplaceAllString(multiline(h), "")
		s = blockRe.ReplaceAllString(s, "\n$0")
		s = tagRe.ReplaceAllString(s, "")
		for _, e := range [][2]string{{"&lt;", "<"}, {"&gt;", ">"}, {"&#34;", `"`}, {"&#39;", "'"}, {"&quot;", `"`}, {"&amp;", "&"}} {
			s = strings.ReplaceAll(s, e[0], e[1])
		}
		return s
	}
	if p, ok := o.Data["text/markdown"]; ok {
		return multiline(p)
	}
	return multiline(o.Data["text/plain"])
}

func lines(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// byTag finds the code cell with the tag.
func (nb *notebook) byTag(t *testing.T, tag string) cell {
	t.Helper()
	for _, c := range nb.Cells {
		if c.tagged(tag) {
			return c
		}
	}
	t.Fatalf("no cell tagged %q", tag)
	return cell{}
}

// run is one nbconvert execution of a set of notebooks, shared by the tests.
type run struct {
	once  sync.Once
	dir   string
	books map[string]*notebook
	err   error
}

var (
	course  run // the notebooks as shipped
	wrongs  run // the same notebooks with each exercise given a wrong answer
	workdir string
	kernEnv []string
	// background counts executions still running when the tests are done.
	background sync.WaitGroup
)

func TestMain(m *testing.M) {
	d, err := os.MkdirTemp("", "notebooks-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	workdir = d
	code := m.Run()
	background.Wait() // nbconvert must not outlive its directory
	os.RemoveAll(d)
	os.Exit(code)
}

var kernelOnce sync.Once
var kernelErr error

// installKernel builds ptorepl and installs its kernelspec into a private
// Jupyter data directory.
func installKernel() error {
	kernelOnce.Do(func() {
		if _, err := os.Stat(jupyterPath); err != nil {
			kernelErr = fmt.Errorf("%s is missing: the test command installs Debian's jupyter-nbconvert", jupyterPath)
			return
		}
		bin := filepath.Join(workdir, "ptorepl")
		if out, err := exec.Command("go", "build", "-o", bin, "../cmd/ptorepl").CombinedOutput(); err != nil {
			kernelErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		kernEnv = append(os.Environ(), "JUPYTER_DATA_DIR="+filepath.Join(workdir, "jupyter"))
		cmd := exec.Command(bin, "kernel", "install", "--user", "--name", "ptorepl")
		cmd.Env = kernEnv
		if out, err := cmd.CombinedOutput(); err != nil {
			kernelErr = fmt.Errorf("kernel install: %v\n%s", err, out)
		}
	})
	return kernelErr
}

// execute runs nbconvert once over every notebook in srcDir, writing the
// executed copies to outDir, and parses them.
func execute(srcDir, outDir string) (map[string]*notebook, error) {
	if err := installKernel(); err != nil {
		return nil, err
	}
	books, _ := filepath.Glob(filepath.Join(srcDir, "*.ipynb"))
	if len(books) == 0 {
		return nil, fmt.Errorf("no notebooks in %s", srcDir)
	}
	args := append([]string{"nbconvert", "--to", "notebook", "--execute", "--allow-errors",
		"--ExecutePreprocessor.timeout=300", "--output-dir", outDir}, books...)
	cmd := exec.Command(jupyterPath, args...)
	cmd.Env = kernEnv
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("nbconvert: %v\n%s", err, out)
	}
	got := map[string]*notebook{}
	for _, b := range books {
		raw, err := os.ReadFile(filepath.Join(outDir, filepath.Base(b)))
		if err != nil {
			return nil, err
		}
		nb := &notebook{}
		if err := json.Unmarshal(raw, nb); err != nil {
			return nil, fmt.Errorf("%s: %v", b, err)
		}
		got[filepath.Base(b)] = nb
	}
	return got, nil
}

// executedCourse executes the shipped notebooks once per test binary; the
// notebooks with wrong exercise answers run at the same time (two cores).
func executedCourse(t *testing.T) map[string]*notebook {
	t.Helper()
	course.once.Do(func() {
		if err := installKernel(); err != nil {
			course.err = err
			return
		}
		background.Add(1)
		go func() { // overlaps with the course's own execution
			defer background.Done()
			wrongAnswers()
		}()
		course.dir = filepath.Join(workdir, "executed")
		course.books, course.err = execute(".", course.dir)
	})
	require.NoError(t, course.err)
	return course.books
}

// ExecutedDir is where the executed course is written (for the browser test).
func executedDir(t *testing.T) string {
	executedCourse(t)
	return course.dir
}

// wrong is a wrong answer to a notebook's exercise: the exercise cell's
// text old is replaced by bad.
type wrong struct{ old, bad string }

var wrongAnswersByBook = map[string]wrong{
	"01_ranks_and_tiers.ipynb":          {"pl.Mul(t, pl.Cast(pl.Add(me, 1), pl.FP32))", "pl.Mul(t, pl.Cast(me, pl.FP32))"},
	"02_window_buffers.ipynb":           {"pl.Mod(pl.Sub(pl.Add(me, n), 1), n)", "pl.Mod(pl.Add(me, 1), n)"},
	"03_signals_and_barrier.ipynb":      {"clearValue := -1", "clearValue := 0"},
	"04_one_sided_rma.ipynb":            {"pld.Put(dst, prev, src)", "pld.Put(dst, next, src)"},
	"05_dynamic_rank_count.ipynb":       {"sigBytes := pl.Mul(pld.WorldSize(), 4)", "sigBytes := pl.Mul(4, 4)"},
	"06_allreduce_three_ways.ipynb":     {"meshBytes8 := 7 * 256", "meshBytes8 := 7 * 64"},
	"07_broadcast.ipynb":                {"myRoot := 3", "myRoot := 0"},
	"08_allgather_reduce_scatter.ipynb": {"rank3row0 := 300.0", "rank3row0 := 330.0"},
	"09_all_to_all.ipynb":               {"rank2row0 := 2.0", "rank2row0 := 20.0"},
	"10_compile_and_step.ipynb":         {`answerPass := "LowerCompositeOps"`, `answerPass := "ConvertToSSA"`},
	"11_finding_comm_bugs.ipynb":        {"pl.Dims(left, 0), 1, pld.Ge)) // ← your line", "pl.Dims(me, 0), 1, pld.Ge)) // ← your line"},
}

// wrongAnswers writes every notebook with its exercise answered wrongly and
// executes them all.
func wrongAnswers() {
	wrongs.once.Do(func() {
		src := filepath.Join(workdir, "wrong-src")
		wrongs.dir = filepath.Join(workdir, "wrong")
		if err := os.MkdirAll(src, 0o755); err != nil {
			wrongs.err = err
			return
		}
		for name, w := range wrongAnswersByBook {
			raw, err := os.ReadFile(name)
			if err != nil {
				wrongs.err = err
				return
			}
			var doc map[string]any
			if err := json.Unmarshal(raw, &doc); err != nil {
				wrongs.err = err
				return
			}
			replaced := false
			for _, c := range doc["cells"].([]any) {
				cm := c.(map[string]any)
				if !hasTag(cm, "exercise") {
					continue
				}
				text := sourceOf(cm["source"])
				if strings.Contains(text, w.old) {
					cm["source"] = strings.Replace(text, w.old, w.bad, 1)
					replaced = true
				}
			}
			if !replaced {
				wrongs.err = fmt.Errorf("%s: the exercise cell no longer contains %q", name, w.old)
				return
			}
			out, _ := json.Marshal(doc)
			if err := os.WriteFile(filepath.Join(src, name), out, 0o644); err != nil {
				wrongs.err = err
				return
			}
		}
		wrongs.books, wrongs.err = execute(src, wrongs.dir)
	})
}

func hasTag(c map[string]any, tag string) bool {
	md, _ := c["metadata"].(map[string]any)
	tags, _ := md["tags"].([]any)
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

func sourceOf(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case []any:
		var b strings.Builder
		for _, p := range s {
			b.WriteString(p.(string))
		}
		return b.String()
	}
	return ""
}

func bookNames(t *testing.T) []string {
	books, _ := filepath.Glob("*.ipynb")
	require.GreaterOrEqual(t, len(books), 11, "the course has eleven notebooks")
	sort.Strings(books)
	return books
}

// TestNotebooksExecute: every notebook runs top to bottom with no error
// output and nothing on stderr.
func TestNotebooksExecute(t *testing.T) {
	books := executedCourse(t)
	for _, name := range bookNames(t) {
		t.Run(name, func(t *testing.T) {
			nb := books[name]
			require.NotNil(t, nb)
			executed := 0
			for i, c := range nb.Cells {
				if c.CellType != "code" {
					continue
				}
				executed++
				for _, o := range c.Outputs {
					require.NotEqual(t, "error", o.OutputType, "cell %d: %s: %s", i, o.Ename, o.Evalue)
					require.NotEqual(t, "stderr", o.Name, "cell %d wrote to stderr: %s", i, multiline(o.Text))
				}
			}
			require.Positive(t, executed)
		})
	}
}

// TestNotebookShape: each notebook opens by saying what the learner will
// see, ends with a "your turn" exercise whose check passes with the
// reference answer, keeps every output within 60 visible lines, shows a
// swimlane with every displayed run, and prints no Go-isms.
func TestNotebookShape(t *testing.T) {
	books := executedCourse(t)
	for _, name := range bookNames(t) {
		t.Run(name, func(t *testing.T) {
			nb := books[name]
			require.NotEmpty(t, nb.Cells)
			defer visibleOutputs(t, nb)
			if _, lesson := claims[name]; !lesson {
				return // not one of the course's lessons: only the output rules apply
			}
			require.Equal(t, "markdown", nb.Cells[0].CellType)
			require.Contains(t, nb.Cells[0].source(), "What you will see", "the opening cell says what the learner will see")
			turn := false
			for _, c := range nb.Cells {
				turn = turn || (c.CellType == "markdown" && strings.Contains(c.source(), "## Your turn"))
			}
			require.True(t, turn, "a \"Your turn\" section")
			nb.byTag(t, "exercise")
			require.Contains(t, nb.byTag(t, "check").text(), "✓ right", "the check cell accepts the reference answer")
		})
	}
}

// visibleOutputs: no output shows more than 60 lines unfolded or a Go-ism,
// and every displayed run (a protocol report) comes with its swimlane.
func visibleOutputs(t *testing.T, nb *notebook) {
	goism := regexp.MustCompile(`<nil>|map\[|&\{|\(MISSING\)|%!`)
	for i, c := range nb.Cells {
		for j, o := range c.Outputs {
			v := o.visible()
			require.LessOrEqual(t, lines(v), 60, "cell %d output %d shows %d lines unfolded", i, j, lines(v))
			require.False(t, goism.MatchString(v), "cell %d output %d shows a Go-ism %q", i, j, goism.FindString(v))
			if strings.Contains(v, "protocol check:") {
				require.Contains(t, multiline(o.Data["text/html"]), "<svg", "cell %d: a displayed run has its swimlane", i)
			}
		}
	}
}

// TestExercisesCanFail: with a wrong answer in the exercise cell, every
// check cell says "not yet" (and runs without an error).
func TestExercisesCanFail(t *testing.T) {
	executedCourse(t)
	wrongAnswers() // waits if the course run started it
	require.NoError(t, wrongs.err)
	for _, name := range bookNames(t) {
		t.Run(name, func(t *testing.T) {
			if _, lesson := claims[name]; !lesson {
				t.Skipf("%s is not one of the course's lessons", name)
			}
			require.Contains(t, wrongAnswersByBook, name, "every lesson has a wrong answer to test its check with")
			nb := wrongs.books[name]
			require.NotNil(t, nb)
			check := nb.byTag(t, "check")
			for _, o := range check.Outputs {
				require.NotEqual(t, "error", o.OutputType, "%s: %s", o.Ename, o.Evalue)
			}
			txt := check.text()
			require.Contains(t, txt, "not yet")
			require.NotContains(t, txt, "✓ right")
		})
	}
}

// TestPyptoNotebookScopes: the PyPTO Python notebook's hello-world kernel,
// written inside a with pl.at scope on bare pl.Tensor parameters, is sized
// from its __main__ block's torch tensors, outlined into an InCore
// function that stores into c, and computes c = a + b.
func TestPyptoNotebookScopes(t *testing.T) {
	nb := executedCourse(t)["12_pypto_python.ipynb"]
	require.NotNil(t, nb)
	out := nb.outputText()
	for _, want := range []string{
		"def tile_add(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]])",
		"with pl.at(level=pl.Level.CORE_GROUP):",
		"def tile_add_incore_0(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]])",
		"c__ssa_v0: pl.Tensor[[16, 16], pl.FP32] = self.tile_add_incore_0(a, b, c)",
		"c = a + b everywhere: true",
	} {
		require.Contains(t, out, want)
	}
}

// TestPyptoNotebookTasks: the notebook's manual-scope pipeline without its
// edge is named a race between its two launches, and with deps=[first] it
// runs clean; a kept pl.no_dep promise runs clean and a broken one is
// named.
func TestPyptoNotebookTasks(t *testing.T) {
	nb := executedCourse(t)["12_pypto_python.ipynb"]
	require.NotNil(t, nb)
	out := nb.outputText()
	race := strings.Index(out, "manual-scope-race in a pl.manual_scope, inc reads s, which double writes")
	require.GreaterOrEqual(t, race, 0, "no manual-scope race in\n%s", out)
	require.Contains(t, out[race:], "protocol check: clean", "the fixed pipeline is not clean")
	// pl.no_dep: the kept promise is clean, the broken one a no-dep-race.
	broken := strings.Index(out, "no-dep-race inc reads s, which double writes, and a pl.no_dep slot takes the pair out")
	require.GreaterOrEqual(t, broken, 0, "no no-dep race in\n%s", out)
	require.Equal(t, 2, strings.Count(out[race:broken], "protocol check: clean"), "the fixed pipeline and the kept promise should both run clean")
	require.NotRegexp(t, `0x[0-9a-f]{8,}`, out, "a cell echoes a pointer")
}

// TestPyptoNotebookCallbacks: the notebook's host SubWorker, unbound,
// stops the run naming what to bind; bound to a Go closure it runs once,
// after every rank's row is doubled, and writes its Out tensor; an error
// it returns stops the run under its name.
func TestPyptoNotebookCallbacks(t *testing.T) {
	nb := executedCourse(t)["12_pypto_python.ipynb"]
	require.NotNil(t, nb)
	out := nb.outputText()
	for _, want := range []string{
		"inspect is a runtime-bound callback (its body is ...): bind a Go function to it for the run",
		"inspect ran 1 time(s) and saw 4 doubled rows",
		"host callback inspect: row 0 looks wrong",
	} {
		require.Contains(t, out, want)
	}
}

// outputText is every visible output of the notebook, one after another.
func (nb *notebook) outputText() string {
	var all strings.Builder
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			all.WriteString(o.visible())
			all.WriteString("\n")
		}
	}
	return all.String()
}
