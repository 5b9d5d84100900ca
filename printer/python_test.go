package printer_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// python is Debian's interpreter; the test command installs it.
const python = "/usr/bin/python3"

// checkScript reads [{"name", "text"}] on stdin and prints one line per chunk
// that is not a self-contained program: a syntax error from ast.parse, or a
// pl./pld. spelling whose namespace the text never imports (upstream #2487:
// printed IR loads as plain Python).
const checkScript = `
import ast, json, sys
bad = 0
for c in json.load(sys.stdin):
    try:
        tree = ast.parse(c["text"], filename=c["name"])
    except SyntaxError as e:
        print("%s: line %s: %s: %r" % (c["name"], e.lineno, e.msg, e.text))
        bad += 1
        continue
    bound = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                bound.add(a.asname or a.name.split(".")[0])
    used = {n.value.id for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in ("pl", "pld")}
    if c.get("fragment"):
        continue
    for name in sorted(used - bound):
        print("%s: uses %s. but never imports it" % (c["name"], name))
        bad += 1
print("checked", bad)
`

type chunk struct {
	Name string `json:"name"`
	Text string `json:"text"`
	// Fragment marks printed functions and statements: valid Python, but
	// without a program's header, so not checked for imports.
	Fragment bool `json:"fragment,omitempty"`
}

// printedPrograms cuts every printed program out of text: each starts at a
// "# pypto.program:" line and runs to the next stage marker ("# ==== ", the
// stage goldens' separator), the end of a Markdown code fence, or the end.
func printedPrograms(name, text string) []chunk {
	var out []chunk
	var cur []string
	start := 0
	flush := func() {
		if cur != nil {
			out = append(out, chunk{Name: name + ":" + itoa(start), Text: strings.Join(cur, "\n") + "\n"})
		}
		cur = nil
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# pypto.program:"):
			flush()
			cur, start = []string{line}, n
		case strings.HasPrefix(line, "# ==== ") || strings.HasPrefix(line, "```"):
			flush()
		case cur != nil:
			cur = append(cur, line)
		}
	}
	flush()
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// runChecks runs checkScript over chunks and returns its complaint lines.
func runChecks(t *testing.T, chunks []chunk) []string {
	t.Helper()
	if _, err := os.Stat(python); err != nil {
		t.Fatalf("%s is missing: ./scripts/test.sh installs Debian's python3 (%v)", python, err)
	}
	in, err := json.Marshal(chunks)
	require.NoError(t, err)
	cmd := exec.Command(python, "-c", checkScript)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := lines[len(lines)-1]
	require.True(t, strings.HasPrefix(last, "checked "), "unexpected checker output:\n%s", out)
	return lines[:len(lines)-1]
}

// Every program printed into the repository's goldens and docs is valid
// Python that imports what it uses: Debian's python3 ast.parse reads each one.
func TestGoldenProgramsParseAsPython(t *testing.T) {
	root := filepath.Join("..")
	var chunks []chunk
	perFile := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == "node_modules" || (strings.HasPrefix(n, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		inTestdata := strings.Contains(filepath.ToSlash(path), "/testdata/")
		ext := filepath.Ext(path)
		if !(inTestdata && (ext == ".golden" || ext == ".py")) && ext != ".md" {
			return nil
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		got := printedPrograms(filepath.ToSlash(rel), string(raw))
		perFile[filepath.ToSlash(rel)] = len(got)
		chunks = append(chunks, got...)
		return nil
	})
	require.NoError(t, err)
	// The walk must find the goldens it exists for, or it would pass on nothing.
	for _, f := range []string{"printer/testdata/ringshift.golden", "printer/testdata/comm_domain.golden",
		"passes/testdata/quickstart.stages.py", "passes/testdata/allreduce_sum.stages.py", "README.md"} {
		require.Positive(t, perFile[f], "no printed program found in %s", f)
	}
	require.Greater(t, len(chunks), 100)
	// The printer's function and statement goldens are fragments of programs.
	for _, f := range []string{"ssa_loops.golden", "ssa_loops_concise.golden", "distributed_ops.golden"} {
		raw, err := os.ReadFile(filepath.Join("testdata", f))
		require.NoError(t, err)
		chunks = append(chunks, chunk{Name: "printer/testdata/" + f, Text: string(raw), Fragment: true})
	}
	bad := runChecks(t, chunks)
	require.Empty(t, bad, "printed programs that are not valid, self-contained Python:\n%s", strings.Join(bad, "\n"))
	t.Logf("%d printed programs and fragments parsed", len(chunks))
}

// The check itself rejects what it should: a syntax error, and a program
// that spells pld. without importing it (what the printer wrote before #2487).
func TestPythonCheckRejects(t *testing.T) {
	header := "# pypto.program: P\nimport pypto.language as pl\n\n@pl.program\nclass P:\n"
	withPld := strings.Replace(header, "as pl\n", "as pl\nimport pypto.language.distributed as pld\n", 1)
	fn := "    @pl.function\n    def f(x: pld.DistributedTensor[[1], pl.FP32]):\n        pass\n"
	chunks := []chunk{
		{Name: "ok", Text: withPld + fn},
		{Name: "syntax", Text: header + "    def f(x: pl.Tensor[[1], pl.FP32]:\n        pass\n"},
		{Name: "no pld import", Text: header + fn},
		{Name: "fragment", Text: "ctx: pld.CommCtx = pld.system.get_comm_ctx(data)\n", Fragment: true},
		{Name: "bad fragment", Text: "ctx: pld.CommCtx = = pld.system.get_comm_ctx(data)\n", Fragment: true},
	}
	bad := runChecks(t, chunks)
	require.Len(t, bad, 3, "%v", bad)
	require.Contains(t, bad[0], "syntax: line 6")
	require.Equal(t, "no pld import: uses pld. but never imports it", bad[1])
	require.Contains(t, bad[2], "bad fragment: line 1")

	// Cutting: stage markers and fences end a program.
	got := printedPrograms("f", "# ==== Input\n"+header+"    pass\n# ==== X: unchanged\n\n```text\n"+header+"    pass\n```\n")
	require.Len(t, got, 2)
	require.Equal(t, header+"    pass\n", got[0].Text)
	require.Equal(t, header+"    pass\n", got[1].Text)
}
