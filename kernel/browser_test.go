package kernel_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"image/png"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const (
	chromiumPath        = "/usr/bin/chromium"
	jupyterNotebookPath = "/usr/bin/jupyter-notebook"
	// browserBudget bounds everything after the build: the notebook server
	// starting, Chromium loading the page, the kernel starting and the cell
	// running. Each step also has its own, shorter, limit.
	browserBudget = 120 * time.Second
)

// notebookState is what the page's Jupyter object says about the notebook,
// its kernel and the first code cell.
type notebookState struct {
	Loaded         bool     `json:"loaded"`
	KernelName     string   `json:"kernelName"`
	Implementation string   `json:"implementation"`
	Connected      bool     `json:"connected"`
	Indicator      string   `json:"indicator"`
	DisplayName    string   `json:"displayName"`
	Prompt         string   `json:"prompt"`
	Output         string   `json:"output"`
	OutputTypes    []string `json:"outputTypes"`
	Errors         []string `json:"errors"`
}

func (s notebookState) kernelIdle() bool {
	return strings.Contains(s.Indicator, "kernel_idle_icon")
}

const notebookStateJS = `(() => {
	const nb = window.Jupyter && Jupyter.notebook;
	const k = nb && nb.kernel;
	const cell = nb && nb.get_cells ? nb.get_cells().find(c => c.cell_type === "code") : null;
	const ind = document.querySelector("#kernel_indicator_icon");
	const name = document.querySelector("#kernel_indicator .kernel_indicator_name");
	const outs = cell && cell.output_area ? cell.output_area.outputs : [];
	return {
		loaded: !!(nb && nb._fully_loaded),
		kernelName: k ? String(k.name || "") : "",
		implementation: k && k.info_reply ? String(k.info_reply.implementation || "") : "",
		connected: !!(k && k.is_connected && k.is_connected()),
		indicator: ind ? ind.className : "",
		displayName: name ? name.textContent.trim() : "",
		prompt: cell ? cell.element.find(".input_prompt").text().replace(/\u00a0/g, " ").trim() : "",
		output: cell && cell.output_area ? cell.output_area.element[0].innerText : "",
		outputTypes: outs.map(o => o.output_type),
		errors: outs.filter(o => o.output_type === "error" || o.name === "stderr")
			.map(o => o.output_type === "error" ? o.ename + ": " + o.evalue : o.text),
	};
})()`

// artifactDir is $PTOREPL_TEST_ARTIFACTS if set, else a temporary directory.
func artifactDir(t *testing.T) string {
	if d := os.Getenv("PTOREPL_TEST_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatalf("PTOREPL_TEST_ARTIFACTS: %v", err)
		}
		return d
	}
	return t.TempDir()
}

// browserNotebook is a notebook open in headless Chromium, served by Jupyter
// Notebook with the ptorepl kernel ready.
type browserNotebook struct {
	t          *testing.T
	bctx       context.Context
	start      time.Time
	screenshot func(name string) string
	fail       func(format string, args ...any)
	waitFor    func(what string, limit time.Duration, ok func(notebookState) bool) notebookState
	state      func() (notebookState, error)
}

// openNotebookInBrowser installs the kernel, serves testdata/notebook with
// Debian's Jupyter Notebook (classic UI) on localhost, opens it in headless
// Chromium and waits for the ptorepl kernel to be ready. failShot names the
// screenshot saved when a step fails.
func openNotebookInBrowser(t *testing.T, notebook, failShot string) *browserNotebook {
	for _, p := range []string{chromiumPath, jupyterNotebookPath, jupyterPython} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s is missing: the test command (scripts/test.sh) installs Debian's chromium and jupyter-notebook packages", p)
		}
	}
	bin, env := buildKernelBinary(t, "ptorepl")
	artifacts := artifactDir(t)
	root := t.TempDir()
	nbDir := filepath.Join(root, "notebooks")
	if err := os.MkdirAll(nbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	nb, err := os.ReadFile(filepath.Join("testdata", notebook))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(nbDir, notebook), nb, 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), browserBudget)
	t.Cleanup(cancel)
	start := time.Now()

	// The notebook server, on a free loopback port, with its own config and
	// runtime directories and a random token.
	port := freePorts(t, "127.0.0.1", 1)[0]
	tok := make([]byte, 16)
	if _, err := rand.Read(tok); err != nil {
		t.Fatal(err)
	}
	token := hex.EncodeToString(tok)
	serverLog := filepath.Join(root, "notebook-server.log")
	logf, err := os.Create(serverLog)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logf.Close() })
	server := exec.Command(jupyterNotebookPath, "--no-browser", "--allow-root", "--ip=127.0.0.1",
		"--port="+strconv.Itoa(port), "--port-retries=0", "--notebook-dir="+nbDir, "--NotebookApp.password=")
	server.Env = append(env, "JUPYTER_CONFIG_DIR="+filepath.Join(root, "config"), "JUPYTER_RUNTIME_DIR="+filepath.Join(root, "runtime"),
		"JUPYTER_TOKEN="+token, "IPYTHONDIR="+filepath.Join(root, "ipython"), "PYDEVD_DISABLE_FILE_VALIDATION=1")
	server.Stdout, server.Stderr = logf, logf
	server.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := server.Start(); err != nil {
		t.Fatalf("starting %s: %v", jupyterNotebookPath, err)
	}
	serverDone := make(chan struct{})
	go func() {
		_ = server.Wait()
		close(serverDone)
	}()
	readLog := func(path string) string {
		b, _ := os.ReadFile(path)
		if len(b) > 8000 {
			b = append([]byte("...\n"), b[len(b)-8000:]...)
		}
		return string(b)
	}
	t.Cleanup(func() { stopNotebookServer(t, server, serverDone, bin) })

	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/status", nil)
		req.Header.Set("Authorization", "token "+token)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-serverDone:
			t.Fatalf("the notebook server exited before serving; its log:\n%s", readLog(serverLog))
		case <-ctx.Done():
			t.Fatalf("the notebook server did not answer on %s within %v; its log:\n%s", base, browserBudget, readLog(serverLog))
		case <-time.After(200 * time.Millisecond):
		}
	}
	t.Logf("notebook server up after %v", time.Since(start).Round(time.Millisecond))

	// Headless Chromium, driven over the DevTools protocol.
	browserLog := &lockedBuffer{}
	profile := filepath.Join(root, "chromium-profile")
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", "new"),
		chromedp.NoSandbox, // needed as root
		chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 960),
		chromedp.UserDataDir(profile),
		chromedp.CombinedOutput(browserLog),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	cdpLog := &lockedBuffer{}
	logTo := func(format string, args ...any) { fmt.Fprintf(cdpLog, format+"\n", args...) }
	bctx, cancelBrowser := chromedp.NewContext(allocCtx, chromedp.WithLogf(logTo), chromedp.WithErrorf(logTo))
	t.Cleanup(cancelBrowser)
	// The first Run starts Chromium and ties its life to bctx (bounded by the
	// overall budget), so later steps can use shorter derived contexts.
	if err := chromedp.Run(bctx); err != nil {
		t.Fatalf("starting %s: %v\n%s", chromiumPath, err, browserLog)
	}
	t.Logf("chromium up after %v", time.Since(start).Round(time.Millisecond))

	screenshot := func(name string) string {
		var png []byte
		sctx, c := context.WithTimeout(bctx, 20*time.Second)
		defer c()
		if err := chromedp.Run(sctx, chromedp.FullScreenshot(&png, 100)); err != nil {
			t.Logf("screenshot %s: %v", name, err)
			return ""
		}
		path := filepath.Join(artifacts, name)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Logf("screenshot %s: %v", name, err)
			return ""
		}
		t.Logf("screenshot: %s", path)
		return path
	}
	fail := func(format string, args ...any) {
		t.Helper()
		screenshot(failShot)
		t.Fatalf("%s (after %v)\n--- notebook server log:\n%s\n--- chromium output:\n%s\n--- devtools log:\n%s",
			fmt.Sprintf(format, args...), time.Since(start).Round(time.Millisecond), readLog(serverLog), browserLog, cdpLog)
	}
	state := func() (notebookState, error) {
		var s notebookState
		ectx, c := context.WithTimeout(bctx, 10*time.Second)
		defer c()
		err := chromedp.Run(ectx, chromedp.Evaluate(notebookStateJS, &s))
		return s, err
	}
	// waitFor polls the notebook's state until ok holds, for at most limit
	// (and never past the overall budget).
	waitFor := func(what string, limit time.Duration, ok func(notebookState) bool) notebookState {
		t.Helper()
		deadline := time.Now().Add(limit)
		var s notebookState
		var err error
		for {
			s, err = state()
			if err == nil && ok(s) {
				t.Logf("%s after %v", what, time.Since(start).Round(time.Millisecond))
				return s
			}
			if err == nil && len(s.Errors) > 0 {
				fail("the cell failed while waiting for %s: %q (state %+v)", what, s.Errors, s)
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				fail("timed out waiting for %s; last state %+v, last error %v", what, s, err)
			}
			time.Sleep(250 * time.Millisecond)
		}
	}

	url := fmt.Sprintf("%s/notebooks/%s?token=%s", base, notebook, token)
	nctx, cancelNav := context.WithTimeout(bctx, 60*time.Second)
	err = chromedp.Run(nctx, chromedp.Navigate(url))
	cancelNav()
	if err != nil {
		fail("Chromium could not open %s/notebooks/%s: %v", base, notebook, err)
	}
	ready := waitFor("kernel ready", 60*time.Second, func(s notebookState) bool {
		return s.Loaded && s.Connected && s.Implementation != "" && s.kernelIdle()
	})
	if ready.KernelName != "ptorepl" || ready.Implementation != "ptorepl" || ready.DisplayName != "Go (ptorepl)" {
		fail("the notebook runs kernel %q (implementation %q, shown as %q), want the ptorepl kernelspec", ready.KernelName, ready.Implementation, ready.DisplayName)
	}

	return &browserNotebook{t: t, bctx: bctx, start: start, screenshot: screenshot, fail: fail, waitFor: waitFor, state: state}
}

// TestNotebookInBrowser serves a notebook whose kernelspec is the installed
// ptorepl kernel with Debian's Jupyter Notebook (classic UI) on localhost,
// opens it in headless Chromium, waits for the kernel to be ready, runs the
// code cell with Shift+Enter as a person would, and checks that the page
// shows the program printed in PyPTO syntax, with no error output. It saves
// a screenshot of the page (notebook_in_browser.png) as a test artifact.
func TestNotebookInBrowser(t *testing.T) {
	nb := openNotebookInBrowser(t, "browser_demo.ipynb", "notebook_in_browser_failure.png")
	bctx, fail, waitFor, screenshot := nb.bctx, nb.fail, nb.waitFor, nb.screenshot
	// Click into the code cell and press Shift+Enter.
	rctx, cancelRun := context.WithTimeout(bctx, 30*time.Second)
	err := chromedp.Run(rctx,
		chromedp.Click(`.code_cell .CodeMirror`, chromedp.ByQuery),
		chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(input.ModifierShift)),
	)
	cancelRun()
	if err != nil {
		fail("clicking the code cell and pressing Shift+Enter: %v", err)
	}
	done := waitFor("cell output", 60*time.Second, func(s notebookState) bool {
		return s.Prompt == "In [1]:" && s.kernelIdle() && strings.Contains(s.Output, "class Demo:")
	})
	for _, want := range []string{"# pypto.program: Demo", "@pl.program", "class Demo:", "def ring(",
		"me: pl.Scalar[pl.INT32] = pld.system.rank(ctx)"} {
		if !strings.Contains(done.Output, want) {
			fail("the cell's output lacks %q; it is:\n%s", want, done.Output)
		}
	}
	if len(done.OutputTypes) != 1 || done.OutputTypes[0] != "execute_result" {
		fail("want exactly one execute_result output, got %q", done.OutputTypes)
	}
	if screenshot("notebook_in_browser.png") == "" {
		t.Error("could not save the screenshot")
	}
}

// stopNotebookServer stops the server as Ctrl-C would (SIGTERM shuts its
// kernels down), then makes sure no ptorepl kernel from bin outlives it.
func stopNotebookServer(t *testing.T, server *exec.Cmd, done <-chan struct{}, bin string) {
	_ = server.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Errorf("the notebook server did not stop within 20 s of SIGTERM; killing its process group")
		_ = syscall.Kill(-server.Process.Pid, syscall.SIGKILL)
		<-done
	}
	// The kernel runs in a session of its own (jupyter_client starts it so);
	// it must end with the server that started it.
	deadline := time.Now().Add(15 * time.Second)
	for {
		pids := processesOf(bin)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("ptorepl kernel process(es) %v still running 15 s after the notebook server stopped; killing them", pids)
			for _, pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// processesOf lists the processes running the executable bin.
func processesOf(bin string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err == nil && strings.TrimSuffix(exe, " (deleted)") == bin {
			pids = append(pids, pid)
		}
	}
	return pids
}

// picturesJS measures what the swimlanes notebook's outputs draw: per code
// cell, its execution count, output types and errors, and for each swimlane
// SVG and heatmap image their size and the axis and legend elements.
const picturesJS = `(() => {
	const cells = Jupyter.notebook.get_cells().filter(c => c.cell_type === "code");
	const svgInfo = svg => svg ? {
		width: svg.width.baseVal.value, height: svg.height.baseVal.value,
		shownWidth: svg.getBoundingClientRect().width, shownHeight: svg.getBoundingClientRect().height,
		ticks: svg.querySelectorAll(".axis-tick").length,
		tickLabels: Array.from(svg.querySelectorAll(".axis-label")).map(e => e.textContent),
		axisTitle: (svg.querySelector(".axis-title") || {}).textContent || "",
		legend: Array.from(svg.querySelectorAll(".legend-entry")).map(e => e.textContent),
		legendGroup: svg.querySelectorAll(".legend-group").length,
		legendBlocked: svg.querySelectorAll(".legend-blocked").length,
		groups: svg.querySelectorAll("g.group").length,
		rounds: Array.from(svg.querySelectorAll("g.group title")).filter(e => / round \d+ of 6, /.test(e.textContent)).length,
		boxes: svg.querySelectorAll("rect").length,
		blocked: svg.querySelectorAll("rect.blocked").length,
		blockedLabels: Array.from(svg.querySelectorAll(".blocked-label")).map(e => e.textContent),
	} : null;
	return cells.map(c => {
		const el = c.output_area.element[0];
		const img = el.querySelector("img.ptorepl-heatmap");
		const details = el.querySelector("details.ptorepl-swimlane-expanded");
		return {
			count: typeof c.input_prompt_number === "number" ? c.input_prompt_number : 0,
			outputTypes: c.output_area.outputs.map(o => o.output_type),
			errors: c.output_area.outputs.filter(o => o.output_type === "error" || o.name === "stderr")
				.map(o => o.output_type === "error" ? o.ename + ": " + o.evalue : o.text),
			text: el.innerText.slice(0, 400),
			swimlane: svgInfo(el.querySelector("svg.ptorepl-swimlane")),
			expanded: svgInfo(el.querySelector("svg.ptorepl-swimlane.expanded")),
			detailsOpen: details ? details.open : null,
			heatmap: img ? {complete: img.complete, naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight,
				shownWidth: img.getBoundingClientRect().width} : null,
		};
	});
})()`

type svgPicture struct {
	Width, Height           float64
	ShownWidth, ShownHeight float64
	Ticks                   int
	TickLabels              []string
	AxisTitle               string
	Legend                  []string
	LegendGroup             int
	LegendBlocked           int
	Groups, Boxes, Blocked  int
	Rounds                  int
	BlockedLabels           []string
}

type cellPictures struct {
	Count       int
	OutputTypes []string
	Errors      []string
	Text        string
	Swimlane    *svgPicture
	Expanded    *svgPicture
	DetailsOpen *bool
	Heatmap     *struct {
		Complete                    bool
		NaturalWidth, NaturalHeight int
		ShownWidth                  float64
	}
}

// TestSwimlanesInBrowser renders, in Jupyter Notebook under headless
// Chromium, a deadlocked run, a lowered allreduce run (pl.Compile, then Run)
// and a 3-D tensor. It checks in the page that each swimlane is an SVG of
// the size it declares with a time axis (ticks, labels, title) and a
// legend; that the deadlock marks both blocked waits with the cell each
// waits on; that the allreduce collapses into its rounds and expands; and
// that the heatmap is an image 960 px wide (four 240 px panels). It saves
// screenshots of the pictures (swimlane_deadlock.png, swimlane_allreduce.png,
// swimlane_allreduce_expanded.png, heatmap_3d.png) as test artifacts and
// checks their sizes.
func TestSwimlanesInBrowser(t *testing.T) {
	nb := openNotebookInBrowser(t, "swimlanes.ipynb", "swimlanes_in_browser_failure.png")
	bctx, fail := nb.bctx, nb.fail
	run := func(what string, limit time.Duration, actions ...chromedp.Action) {
		t.Helper()
		c, cancel := context.WithTimeout(bctx, limit)
		defer cancel()
		if err := chromedp.Run(c, actions...); err != nil {
			fail("%s: %v", what, err)
		}
	}
	var started bool
	run("running every cell", 10*time.Second, chromedp.Evaluate(`Jupyter.notebook.execute_all_cells(), true`, &started))

	var cells []cellPictures
	deadline := time.Now().Add(90 * time.Second)
	for {
		run("measuring the outputs", 10*time.Second, chromedp.Evaluate(picturesJS, &cells))
		done := len(cells) == 3
		for _, c := range cells {
			if len(c.Errors) > 0 {
				fail("a cell failed: %q", c.Errors)
			}
			done = done && c.Count > 0 && len(c.OutputTypes) > 0
		}
		if s, err := nb.state(); done && err == nil && s.kernelIdle() {
			break
		}
		if time.Now().After(deadline) {
			fail("the cells did not all finish within 90 s: %+v", cells)
		}
		time.Sleep(300 * time.Millisecond)
	}
	t.Logf("cells ran after %v", time.Since(nb.start).Round(time.Millisecond))
	dead, ar, ten := cells[0], cells[1], cells[2]

	// A swimlane is drawn at the size it declares, with a time axis and a legend.
	checkLane := func(name string, p *svgPicture, lanes int) {
		t.Helper()
		if p == nil {
			fail("%s: no swimlane SVG in the output", name)
		}
		if p.Width != 900 || p.Height < float64(lanes)*34 || p.ShownWidth != p.Width || p.ShownHeight != p.Height {
			fail("%s: the swimlane declares %gx%g and is shown %gx%g, want 900 wide, at least %d px high, shown as declared",
				name, p.Width, p.Height, p.ShownWidth, p.ShownHeight, lanes*34)
		}
		if p.Ticks < 3 || len(p.TickLabels) != p.Ticks || !strings.HasPrefix(p.AxisTitle, "logical time") {
			fail("%s: the time axis has %d ticks, labels %q, title %q", name, p.Ticks, p.TickLabels, p.AxisTitle)
		}
		if len(p.Legend) < 2 {
			fail("%s: the legend has %q", name, p.Legend)
		}
	}
	if dead.Swimlane == nil {
		fail("deadlock: no swimlane; the cell shows %q (pl.Run must return the stopped run's result, with its timeline, next to the deadlock error)", dead.Text)
	}
	checkLane("deadlock", dead.Swimlane, 2)
	if dead.Swimlane.Blocked != 2 || dead.Swimlane.LegendBlocked != 1 || len(dead.Swimlane.BlockedLabels) != 2 {
		fail("deadlock: want both ranks' waits marked blocked and in the legend; got %d blocked boxes, labels %q, legend %q",
			dead.Swimlane.Blocked, dead.Swimlane.BlockedLabels, dead.Swimlane.Legend)
	}
	for r, l := range dead.Swimlane.BlockedLabels {
		if want := fmt.Sprintf("waits on signal_buf[%d, 0] for 1", r); !strings.Contains(l, want) {
			fail("deadlock: rank %d's label is %q, want it to say %q", r, l, want)
		}
	}
	checkLane("allreduce", ar.Swimlane, 4)
	if ar.Swimlane.Rounds != 4*6 || ar.Swimlane.LegendGroup != 1 {
		fail("allreduce: want 6 collapsed rounds on each of 4 ranks and a legend entry; got %d rounds in %d groups, legend %q",
			ar.Swimlane.Rounds, ar.Swimlane.Groups, ar.Swimlane.Legend)
	}
	for _, op := range []string{"notify", "wait", "remote_load"} {
		if !slices.Contains(ar.Swimlane.Legend, op) {
			fail("allreduce: the legend %q lacks %s", ar.Swimlane.Legend, op)
		}
	}
	if ar.Expanded == nil || ar.DetailsOpen == nil || *ar.DetailsOpen {
		fail("allreduce: want the every-op view in a closed <details>")
	}
	if ten.Heatmap == nil || !ten.Heatmap.Complete || ten.Heatmap.NaturalWidth != 960 || ten.Heatmap.NaturalHeight < 120 || ten.Heatmap.ShownWidth != 960 {
		fail("3-D tensor: want a loaded heatmap image 960 px wide (four 240 px panels) shown at that size; got %+v", ten.Heatmap)
	}

	// Screenshots of the pictures, each the size the page shows it at.
	cell := func(i int) string { return fmt.Sprintf("#notebook-container > .cell:nth-child(%d) ", i+2) }
	shoot := func(name, sel string, w, h float64) {
		t.Helper()
		var buf []byte
		run("screenshot "+name, 20*time.Second, chromedp.ScrollIntoView(sel, chromedp.ByQuery), chromedp.Screenshot(sel, &buf, chromedp.ByQuery))
		img, err := png.DecodeConfig(bytes.NewReader(buf))
		if err != nil {
			fail("screenshot %s: %v", name, err)
		}
		if math.Abs(float64(img.Width)-w) > 1 || math.Abs(float64(img.Height)-h) > 1 {
			fail("screenshot %s is %dx%d, want %.0fx%.0f", name, img.Width, img.Height, w, h)
		}
		path := filepath.Join(artifactDir(t), name)
		if err := os.WriteFile(path, buf, 0o644); err != nil {
			t.Errorf("saving %s: %v", path, err)
		}
		t.Logf("screenshot: %s", path)
	}
	shoot("swimlane_deadlock.png", cell(0)+"svg.ptorepl-swimlane", dead.Swimlane.Width, dead.Swimlane.Height)
	shoot("swimlane_allreduce.png", cell(1)+"svg.ptorepl-swimlane.collapsed", ar.Swimlane.Width, ar.Swimlane.Height)
	shoot("heatmap_3d.png", cell(2)+"img.ptorepl-heatmap", 960, float64(ten.Heatmap.NaturalHeight))

	// The collapsed rounds expand: open the <details> and the every-op view shows.
	run("expanding the allreduce", 10*time.Second, chromedp.Click(cell(1)+"details.ptorepl-swimlane-expanded > summary", chromedp.ByQuery))
	run("measuring the expanded view", 10*time.Second, chromedp.Evaluate(picturesJS, &cells))
	ex := cells[1].Expanded
	checkLane("allreduce expanded", ex, 4)
	if cells[1].DetailsOpen == nil || !*cells[1].DetailsOpen || ex.Groups != 0 || ex.Boxes < 4*ar.Swimlane.Boxes/2 {
		fail("allreduce: the expanded view should show every op (%d boxes against %d collapsed, %d groups)", ex.Boxes, ar.Swimlane.Boxes, ex.Groups)
	}
	shoot("swimlane_allreduce_expanded.png", cell(1)+"svg.ptorepl-swimlane.expanded", ex.Width, ex.Height)
}
