package notebooks

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const (
	chromiumPath        = "/usr/bin/chromium"
	jupyterNotebookPath = "/usr/bin/jupyter-notebook"
	// browserBudget bounds the whole browser test after the notebooks have
	// been executed: the server, Chromium, and every notebook's page.
	browserBudget = 5 * time.Minute
	// systemPython runs Debian's Jupyter (its nbformat signs notebooks).
	systemPython = "/usr/bin/python3"
)

// signPy signs notebooks into the Jupyter data directory's trust database,
// as "jupyter trust" does (Debian ships no jupyter-trust command).
const signPy = `import sys, nbformat
from nbformat.sign import NotebookNotary
notary = NotebookNotary()
for path in sys.argv[1:]:
    notary.sign(nbformat.read(path, as_version=4))
`

// picture is one image a cell's outputs hold: an inline SVG (the swimlane)
// or a PNG (a heatmap), with the size it should be shown at (0: unknown).
type picture struct {
	Kind string  `json:"tag"` // "svg" or "img"
	W    float64 `json:"w"`
	H    float64 `json:"h"`
}

var svgOpenRe = regexp.MustCompile(`<svg\b[^>]*>`)
var attrRe = regexp.MustCompile(`\b(width|height)="([\d.]+)"`)
var imgTagRe = regexp.MustCompile(`<img\b[^>]*>`)

// expectedPictures lists, per code cell, the pictures the executed
// notebook's outputs hold, in display order.
func expectedPictures(t *testing.T, nb *notebook) [][]picture {
	var all [][]picture
	for _, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		var pics []picture
		for _, o := range c.Outputs {
			if h, ok := o.Data["text/html"]; ok {
				html := multiline(h)
				for _, tag := range svgOpenRe.FindAllString(html, -1) {
					p := picture{Kind: "svg"}
					for _, m := range attrRe.FindAllStringSubmatch(tag, -1) {
						v, _ := strconv.ParseFloat(m[2], 64)
						if m[1] == "width" {
							p.W = v
						} else {
							p.H = v
						}
					}
					pics = append(pics, p)
				}
				for range imgTagRe.FindAllString(html, -1) {
					pics = append(pics, picture{Kind: "img"})
				}
				continue // the HTML is what the page shows
			}
			if raw, ok := o.Data["image/png"]; ok {
				w, h := pngSize(t, multiline(raw))
				pics = append(pics, picture{Kind: "img", W: w, H: h})
			}
		}
		all = append(all, pics)
	}
	return all
}

// pngSize reads a base64 PNG's size from its IHDR chunk.
func pngSize(t *testing.T, b64 string) (float64, float64) {
	data, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(b64), ""))
	if err != nil || len(data) < 24 || !bytes.Equal(data[:8], []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("an image/png output is not a PNG (%v)", err)
	}
	return float64(binary.BigEndian.Uint32(data[16:20])), float64(binary.BigEndian.Uint32(data[20:24]))
}

// pageJS reports, per code cell of the loaded notebook, the pictures its
// output area shows: top-level SVGs and images, with their rendered size.
const pageJS = `(() => {
	const nb = window.Jupyter && Jupyter.notebook;
	if (!nb || !nb._fully_loaded) return null;
	return nb.get_cells().filter(c => c.cell_type === "code").map(c => {
		const el = c.output_area && c.output_area.element[0];
		if (!el) return [];
		return Array.from(el.querySelectorAll("svg, img"))
			.filter(p => p.tagName.toLowerCase() === "img" || !p.parentElement.closest("svg"))
			.map(p => {
				const r = p.getBoundingClientRect();
				return {tag: p.tagName.toLowerCase(), w: r.width, h: r.height};
			});
	});
})()`

// TestCourseInBrowser serves the executed course with Jupyter Notebook,
// opens every notebook in headless Chromium, and checks that every
// picture the outputs hold (swimlanes, heatmaps) is on the page at its
// size. It renders the notebooks the claims tests executed, so nothing
// runs twice; the pages are trusted first so their HTML is shown as is.
func TestCourseInBrowser(t *testing.T) {
	for _, p := range []string{chromiumPath, jupyterNotebookPath} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s is missing: the test command (scripts/test.sh) installs Debian's chromium and jupyter-notebook packages", p)
		}
	}
	books := executedCourse(t)
	dir := executedDir(t)
	root := t.TempDir()
	env := append(append([]string{}, kernEnv...), "JUPYTER_CONFIG_DIR="+filepath.Join(root, "config"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(root, "runtime"), "IPYTHONDIR="+filepath.Join(root, "ipython"),
		"PYDEVD_DISABLE_FILE_VALIDATION=1")
	names := bookNames(t)
	// Trust the executed notebooks as their author would: Notebook shows an
	// untrusted notebook's HTML outputs sanitised, without their SVG.
	sign := exec.Command(systemPython, append([]string{"-c", signPy}, names...)...)
	sign.Dir, sign.Env = dir, env
	if out, err := sign.CombinedOutput(); err != nil {
		t.Fatalf("signing the executed notebooks: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), browserBudget)
	defer cancel()
	base, token, stop := startNotebookServer(t, ctx, dir, env, root)
	defer stop()

	browserLog := &syncBuffer{}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", "new"),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 960),
		chromedp.UserDataDir(filepath.Join(root, "chromium-profile")),
		chromedp.CombinedOutput(browserLog),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := chromedp.Run(bctx); err != nil {
		t.Fatalf("starting %s: %v\n%s", chromiumPath, err, browserLog)
	}
	artifacts := os.Getenv("PTOREPL_TEST_ARTIFACTS")

	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			want := expectedPictures(t, books[name])
			nctx, c := context.WithTimeout(bctx, 60*time.Second)
			defer c()
			url := fmt.Sprintf("%s/notebooks/%s?token=%s", base, name, token)
			if err := chromedp.Run(nctx, chromedp.Navigate(url)); err != nil {
				t.Fatalf("opening %s: %v", name, err)
			}
			var got [][]picture
			deadline := time.Now().Add(20 * time.Second)
			for {
				got = nil
				err := chromedp.Run(nctx, chromedp.Evaluate(pageJS, &got))
				if err == nil && got != nil && sameCounts(got, want) && sized(got) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the page's pictures never matched the notebook's outputs (last error %v)\nwant %v\ngot  %v", err, want, got)
				}
				time.Sleep(300 * time.Millisecond)
			}
			total := 0
			for i := range want {
				for j, w := range want[i] {
					g := got[i][j]
					total++
					if g.Kind != w.Kind {
						t.Errorf("code cell %d picture %d: the page shows an %s where the output holds an %s", i, j, g.Kind, w.Kind)
						continue
					}
					if g.W < 1 || g.H < 1 {
						t.Errorf("code cell %d picture %d (%s): drawn %gx%g, not visible", i, j, g.Kind, g.W, g.H)
					}
					if w.W > 0 && (math.Abs(g.W-w.W) > 1 || math.Abs(g.H-w.H) > 1) {
						t.Errorf("code cell %d picture %d (%s): drawn %.0fx%.0f, its output says %.0fx%.0f", i, j, g.Kind, g.W, g.H, w.W, w.H)
					}
				}
			}
			if _, lesson := claims[name]; lesson && total == 0 {
				t.Errorf("%s shows no picture at all", name)
			}
			if artifacts != "" {
				var png []byte
				if err := chromedp.Run(nctx, chromedp.FullScreenshot(&png, 100)); err == nil {
					_ = os.WriteFile(filepath.Join(artifacts, strings.TrimSuffix(name, ".ipynb")+".png"), png, 0o644)
				}
			}
		})
	}
}

func sameCounts(got, want [][]picture) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			return false
		}
	}
	return true
}

// sized: every picture has been laid out (images decode asynchronously).
func sized(got [][]picture) bool {
	for _, c := range got {
		for _, p := range c {
			if p.W < 1 || p.H < 1 {
				return false
			}
		}
	}
	return true
}

// startNotebookServer serves dir with Jupyter Notebook on a free loopback
// port with a random token, and returns its address, the token, and a stop
// function that shuts it down (and checks its kernels went with it).
func startNotebookServer(t *testing.T, ctx context.Context, dir string, env []string, root string) (string, string, func()) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	tok := make([]byte, 16)
	if _, err := rand.Read(tok); err != nil {
		t.Fatal(err)
	}
	token := hex.EncodeToString(tok)
	logPath := filepath.Join(root, "notebook-server.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	server := exec.Command(jupyterNotebookPath, "--no-browser", "--allow-root", "--ip=127.0.0.1",
		"--port="+strconv.Itoa(port), "--port-retries=0", "--notebook-dir="+dir, "--NotebookApp.password=")
	server.Env = append(env, "JUPYTER_TOKEN="+token)
	server.Stdout, server.Stderr = logf, logf
	server.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := server.Start(); err != nil {
		t.Fatalf("starting %s: %v", jupyterNotebookPath, err)
	}
	done := make(chan struct{})
	go func() { _ = server.Wait(); close(done) }()
	serverLog := func() string { b, _ := os.ReadFile(logPath); return string(b) }
	stop := func() {
		_ = server.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Errorf("the notebook server did not stop within 20 s of SIGTERM; killing its process group")
			_ = syscall.Kill(-server.Process.Pid, syscall.SIGKILL)
			<-done
		}
		logf.Close()
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/status", nil)
		req.Header.Set("Authorization", "token "+token)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, token, stop
			}
		}
		select {
		case <-done:
			t.Fatalf("the notebook server exited before serving; its log:\n%s", serverLog())
		case <-ctx.Done():
			stop()
			t.Fatalf("the notebook server did not answer on %s; its log:\n%s", base, serverLog())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// syncBuffer collects Chromium's output from its reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
