package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/passes"
	"github.com/stretchr/testify/require"
)

func TestRunScript(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"run", "testdata/hello.go"}, nil, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	require.Contains(t, out.String(), "built k\n")
	require.Contains(t, out.String(), "class Hello:")
	require.Contains(t, out.String(), "return pl.tile.store(pl.tile.add(t, t), [0, 0], y)")
}

func TestRunScriptStopsAtError(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"run", "testdata/broken.go"}, nil, &out, &errOut)
	require.Equal(t, 1, code)
	require.Contains(t, errOut.String(), "error: testdata/broken.go:3:9: expected operand, found the end of the cell")
	require.NotContains(t, errOut.String(), "cell[")
	require.NotContains(t, out.String(), "never")
}

// Errors in `ptorepl run` name the script's own line (and the column where
// the parser gives one), whatever cell they are in.
func TestRunErrorsNameFileLines(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ src, want string }{
		{"a := 1\n// %%\n\nb := a +\n\n// %%\nnever()\n", ":4:9: expected operand, found the end of the cell"},
		{"a := 1\n// %% second\nb := 2\n\nc := a + undefinedName\n", ":5:"},
		{"x := 1\n\nvar y string = x\n", ":3:"},
		{"// %%\npanic(\"boom\")\n", ":2: panic: boom"},
	}
	for i, c := range cases {
		name := filepath.Join(dir, fmt.Sprintf("s%d.go", i))
		require.NoError(t, os.WriteFile(name, []byte(c.src), 0o644))
		var out, errOut bytes.Buffer
		require.Equal(t, 1, run([]string{"run", name}, nil, &out, &errOut), c.src)
		require.Contains(t, errOut.String(), "error: "+name+c.want, c.src)
		require.NotContains(t, errOut.String(), "cell[", c.src)
	}
}

func TestScriptCellsKnowTheirLines(t *testing.T) {
	cells := scriptCells("a := 1\n// %%\nb := 2\n//%% title\n\n// %%\nc := 3\n")
	require.Equal(t, []scriptCell{{"a := 1\n", 1}, {"\nb := 2\n", 2}, {"\nc := 3\n", 6}}, cells)
}

func TestScriptedStdin(t *testing.T) {
	in := strings.NewReader("a := 2\nfunc sq(v int) int {\n\treturn v * v\n}\nsq(a)\n:print a\npanic(\"x\")\nsq(3)\n:nosuch\n:quit\nsq(4)\n")
	var out, errOut bytes.Buffer
	code := run(nil, in, &out, &errOut)
	require.Equal(t, 1, code, "a failing cell makes the exit status non-zero")
	require.Equal(t, "4\n2\n9\n", out.String())
	require.Contains(t, errOut.String(), "error: cell[")
	require.Contains(t, errOut.String(), "panic: x")
	require.Contains(t, errOut.String(), "unknown command :nosuch")
}

// A line left inside ( where Go ends the statement is reported when it is
// typed; the lines after it are cells of their own, not swallowed while
// the REPL waits for a ")" that cannot mend it.
func TestUnclosedCallDoesNotSwallowLines(t *testing.T) {
	in := strings.NewReader("x := 1 + (2\ny := 3\nfmt.Println(y)\nfmt.Println(\n\ty,\n)\n")
	var out, errOut bytes.Buffer
	code := run(nil, in, &out, &errOut)
	require.Equal(t, 1, code)
	require.Equal(t, "error: cell[1]:1: expected ')', found newline\n", errOut.String())
	require.Equal(t, "3\n3\n", out.String(), "the next lines run, and a call continued after a comma still waits")
}

func TestSplitScript(t *testing.T) {
	cells := splitScript("a := 1\n// %%\nb := 2\n//%% title\n\n// %%\nc := 3\n")
	require.Equal(t, []string{"a := 1\n", "\nb := 2\n", "\nc := 3\n"}, cells)
}

func TestVersion(t *testing.T) {
	var out bytes.Buffer
	require.Equal(t, 0, run([]string{"version"}, nil, &out, &out))
	require.True(t, strings.HasPrefix(out.String(), "ptorepl "))
}

// The quickstart of dsl.md typed cell by cell prints the program, its
// stages, and runs to the documented sums.
func TestQuickstartCellByCell(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"run", "testdata/quickstart.go"}, nil, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	text := out.String()
	require.Contains(t, text, "def reduce_step(inp: pl.Tensor[[1, 256], pl.FP32]")
	require.Contains(t, text, "compiled Quickstart: 16 passes")
	require.Contains(t, text, "stage LowerCompositeOps false")
	require.Contains(t, text, "stage InsertCommFence true")
	require.Contains(t, text, "11 22 33 11 22 33\n")
}

// Pass stepping in a scripted session: :passes, :step, :diff, :stage,
// :pto, :manifest and :run on the last program.
func TestPassCommands(t *testing.T) {
	src, err := os.ReadFile("testdata/quickstart.go")
	require.NoError(t, err)
	cells := splitScript(string(src))
	// The cells up to the program's definition, then meta commands.
	var script strings.Builder
	for _, c := range cells {
		script.WriteString(c)
		if strings.Contains(c, "prog.Host(") {
			break
		}
	}
	script.WriteString(":passes\n:step\n:step\n:passes\n:step\n:diff 2\n:stage 0\n:stage InsertCommFence\n:pto\n:manifest\n:manifest -ranks 4\n:run -ranks 2\n:step\n:passes\n")
	var out, errOut bytes.Buffer
	code := run(nil, strings.NewReader(script.String()), &out, &errOut)
	text := out.String()
	require.Equal(t, 1, code, "the :manifest without ranks fails, so the session reports failure")
	require.Contains(t, text, "   2 ConvertToSSA")
	require.Contains(t, text, "[1] CtrlFlowTransform: unchanged\n", "no loop of the quickstart breaks or continues")
	require.Contains(t, text, "[2] ConvertToSSA\n--- CtrlFlowTransform\n+++ ConvertToSSA\n")
	require.Contains(t, text, ">  3 FlattenCallExpr", ":passes marks the next pass")
	require.Contains(t, text, "[3] FlattenCallExpr\n--- ConvertToSSA\n+++ FlattenCallExpr\n")
	require.Contains(t, text, "+        return t__tmp_v0\n", "the returned store is hoisted")
	require.Contains(t, text, "+        for peer_1, (acc__iter_v1,) in pl.range(nranks, init_values=(acc__ssa_v0,)):")
	require.Contains(t, text, "# after Input\n")
	require.Contains(t, text, "# after InsertCommFence\n")
	require.Contains(t, text, "func.func @reduce_step(")
	require.Contains(t, errOut.String(), "give the rank count")
	require.Contains(t, text, `"nbytes": 16,`, "signal_buf is world_size * 4 bytes at 4 ranks")
	require.Contains(t, text, "ran Quickstart on 2 ranks")
	// :stage and :diff only look: after three :steps, the next :step is the
	// fourth pass even though :stage InsertCommFence ran the pipeline to the end.
	require.Contains(t, text, "[4] OutlineHierarchyScopes: unchanged\n")
	require.NotContains(t, text, "every pass has run")
}

// A command typed while a cell is unfinished (an unclosed bracket) drops
// the cell and runs: :quit quits rather than being read as Go.
func TestCommandEndsAnUnfinishedCell(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(nil, strings.NewReader("x := foo(\n:passes\ny := (1 +\n:quit\nfmt.Println(\"printed-after-quit\")\n"), &out, &errOut)
	require.Equal(t, 1, code, "a dropped cell fails the scripted session")
	require.Equal(t, 2, strings.Count(errOut.String(), "(the unfinished cell above was dropped: a command ends it)"), errOut.String())
	require.NotContains(t, errOut.String(), "expected operand")
	require.Contains(t, out.String(), "CtrlFlowTransform", ":passes ran")
	require.NotContains(t, out.String(), "printed-after-quit", ":quit quit")
}

// :step Pass runs the passes up to the named one (or stage N), a line for
// each on the way and the diff of the last; a stage already run, or a
// misspelt name, is an error.
func TestStepToAPass(t *testing.T) {
	script := `prog := pl.NewProgram("P"); prog.InCore("k", func(f *pl.Func) { s := f.InOut("s", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32)); f.Set(s, pld.Barrier(s)) })
:step LowerCompositeOps
:step 9
:step ConvertToSSA
:step InitMemRf
:step
`
	var out, errOut bytes.Buffer
	code := run(nil, strings.NewReader(script), &out, &errOut)
	require.Equal(t, 1, code, "the bad :steps fail the session")
	text := out.String()
	require.Contains(t, text, "[1] CtrlFlowTransform: unchanged\n")
	require.Contains(t, text, "[2] ConvertToSSA: changed (:diff 2 shows how)\n")
	require.Contains(t, text, "[7] LowerCompositeOps\n--- ConvertTensorToTileOps\n+++ LowerCompositeOps\n", "the target's diff")
	require.Contains(t, text, "[8] FlattenTileNdTo2D: unchanged\n[9] InferTileMemorySpace: unchanged\n", "the last one reached says so")
	require.Contains(t, text, "[10] InitMemRef\n", "a bad :step does not move the cursor")
	e := errOut.String()
	require.Contains(t, e, "error: :step ConvertToSSA: stage 2 has run already (:stage ConvertToSSA shows it; :step goes on from stage 9)")
	require.Contains(t, e, `error: :step: no stage named "InitMemRf"; did you mean InitMemRef? (:passes lists them)`)
}

// :stage and :diff never move :step's cursor, and an unknown stage is an
// error that suggests the closest pass rather than running every pass.
func TestStageAndDiffDoNotStep(t *testing.T) {
	script := `prog := pl.NewProgram("P"); prog.InCore("k", func(f *pl.Func) { s := f.InOut("s", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32)); f.Set(s, pld.Barrier(s)) })
:step
:stage 10
:diff LowerCompositeOps
:stage insertcommfence
:step
:stage InsertComFence
:diff Foo
:stage 42
:passes
`
	var out, errOut bytes.Buffer
	code := run(nil, strings.NewReader(script), &out, &errOut)
	require.Equal(t, 1, code, "the bad :stage and :diff fail the session")
	text := out.String()
	require.Contains(t, text, "[1] CtrlFlowTransform")
	require.Contains(t, text, "# after InitMemRef\n")
	require.Contains(t, text, "# after InsertCommFence\n")
	require.Contains(t, text, "[2] ConvertToSSA", ":step goes on from where it was")
	require.Contains(t, text, ">  3 FlattenCallExpr", ":passes marks the pass after the last :step")
	e := errOut.String()
	require.Contains(t, e, `error: :stage: no stage named "InsertComFence"; did you mean InsertCommFence? (:passes lists them)`)
	last := len(passes.Table())
	require.Contains(t, e, fmt.Sprintf(`error: :diff: no stage named "Foo"; give 0..%d or one of Input, CtrlFlowTransform, ConvertToSSA,`, last))
	require.Contains(t, e, fmt.Sprintf("error: :stage 42: there are stages 0 (the input) to %d", last))
}

// Every subcommand answers --help (and -h) with its usage on stdout and
// exit status 0, without acting: run does not open a file named --help.
func TestSubcommandHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--help"}, "usage: ptorepl run FILE.go..."},
		{[]string{"run", "x.go", "-h"}, "usage: ptorepl run FILE.go..."},
		{[]string{"compile", "--help"}, "usage: ptorepl compile [--out DIR] [--ranks N] [--stages] FILE.go..."},
		{[]string{"kernel", "--help"}, "usage: ptorepl kernel CONNECTION_FILE"},
		{[]string{"kernel", "install", "--help"}, "usage: ptorepl kernel install [--user] [--prefix DIR] [--name NAME]"},
		{[]string{"version", "--help"}, "usage: ptorepl version"},
		{[]string{"--help"}, "ptorepl run FILE.go..."},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tc.args, nil, &out, &errOut)
			require.Equal(t, 0, code, errOut.String())
			require.Contains(t, out.String(), tc.want)
			require.Empty(t, errOut.String())
		})
	}
}

// ptorepl compile writes one .pto per kernel and the comm manifest.
func TestCompileCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := run([]string{"compile", "--out", dir, "--ranks", "4", "testdata/quickstart.go"}, nil, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	require.Contains(t, out.String(), "wrote "+dir+"/reduce_step.pto\n")
	data, err := os.ReadFile(dir + "/orchestration/comm_manifest.json")
	require.NoError(t, err)
	require.Contains(t, string(data), `"nbytes": 16`)

	out.Reset()
	code = run([]string{"compile", "--stages", "testdata/quickstart.go"}, nil, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	require.Contains(t, out.String(), "# ==== ConvertTensorToTileOps: unchanged\n")
	require.Contains(t, out.String(), "func.func @reduce_step(")

	// Without ranks the world-size-dependent slot cannot be sized.
	errOut.Reset()
	code = run([]string{"compile", "--out", t.TempDir(), "testdata/quickstart.go"}, nil, &out, &errOut)
	require.Equal(t, 1, code)
	require.Contains(t, errOut.String(), "give the rank count")
	require.Equal(t, 2, run([]string{"compile"}, nil, &out, &errOut))
}

// Bad input gives a clear error and the session goes on: a failing run
// shown as a trailing expression (its result is a nil pointer), a program a
// pass rejects, and meta-command misuse.
func TestBadInputIsReportedNotCrashed(t *testing.T) {
	script := `prog := pl.NewProgram("P")
prog.InCore("k", func(f *pl.Func) {
	x := f.In("x", pl.Tensor(pl.Dims(pl.Dynamic("N"), 4), pl.FP32))
	f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(pl.Dynamic("N"), 4)))
})
pl.Run(prog, pl.Ranks(2), tensor.Zeros(pl.FP32, 1))
pl.Compile(prog)
:stage InsertCommFence
:manifest -ranks x
1 + 1
`
	var out, errOut bytes.Buffer
	code := run(nil, strings.NewReader(script), &out, &errOut)
	require.Equal(t, 1, code)
	require.Contains(t, out.String(), "nil\n", "the failed run's nil result prints as nil")
	require.Contains(t, out.String(), "has no host orchestrator")
	require.Contains(t, errOut.String(), "error: cell[4]:1: pl.Compile: InitMemRef: function k: tile t has shape [N, 4]: on-chip tiles need a static shape")
	require.NotContains(t, errOut.String(), "panic")
	require.NotContains(t, errOut.String(), "goroutine")
	require.Contains(t, errOut.String(), "\nerror: InitMemRef: function k:", ":stage reports where the pipeline stopped")
	require.Contains(t, errOut.String(), `invalid value "x" for flag -ranks`)
	require.True(t, strings.HasSuffix(out.String(), "2\n"), "the session still evaluates cells")
}

// `ptorepl kernel install` from a temporary build (what go run makes)
// copies the binary into the kernelspec folder, points kernel.json at the
// copy and says so; the copy outlives the build. A binary outside the
// temporary directory is used where it is.
func TestKernelInstallStableBinary(t *testing.T) {
	build := t.TempDir()
	bin := filepath.Join(build, "ptorepl")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)

	prefix := t.TempDir()
	out, err = exec.Command(bin, "kernel", "install", "--prefix", prefix).CombinedOutput()
	require.NoError(t, err, "%s", out)
	dir := filepath.Join(prefix, "share", "jupyter", "kernels", "ptorepl")
	copyPath := filepath.Join(dir, "ptorepl")
	require.Contains(t, string(out), "installed kernelspec ptorepl in "+dir+"\n")
	require.Contains(t, string(out), "a copy of it: "+copyPath+"\n")
	var spec struct{ Argv []string }
	raw, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &spec))
	require.Equal(t, []string{copyPath, "kernel", "{connection_file}"}, spec.Argv)
	require.NoError(t, os.RemoveAll(build), "the temporary build goes away")
	v, err := exec.Command(copyPath, "version").Output()
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(v), "ptorepl "))

	// The same binary, when it is not in the temporary directory, is used as is.
	bin2 := filepath.Join(t.TempDir(), "ptorepl")
	out, err = exec.Command("go", "build", "-o", bin2, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	prefix2 := t.TempDir()
	cmd := exec.Command(bin2, "kernel", "install", "--prefix", prefix2)
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "the kernel runs "+bin2+"\n")
	raw, err = os.ReadFile(filepath.Join(prefix2, "share", "jupyter", "kernels", "ptorepl", "kernel.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &spec))
	require.Equal(t, bin2, spec.Argv[0])
}
