package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/require"
)

// terminal drives the real ptorepl binary through a pseudo-terminal, as a
// user at a keyboard would.
type terminal struct {
	t    *testing.T
	f    *os.File
	mu   sync.Mutex
	buf  bytes.Buffer
	seen int // output before this offset was already matched
}

func (tm *terminal) send(s string) {
	tm.t.Helper()
	_, err := tm.f.Write([]byte(s))
	require.NoError(tm.t, err)
}

// expect waits until want appears in output not yet matched.
func (tm *terminal) expect(want string) {
	tm.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		tm.mu.Lock()
		out := tm.buf.String()
		tm.mu.Unlock()
		if i := strings.Index(out[tm.seen:], want); i >= 0 {
			tm.seen += i + len(want)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.t.Fatalf("waited for %q; the terminal shows:\n%s", want, tm.buf.String()[tm.seen:])
}

var (
	replBinOnce sync.Once
	replBin     string
	replBinErr  error
	replBinOut  []byte
)

// replBinary builds ptorepl once for the pseudo-terminal tests.
func replBinary(t *testing.T) string {
	replBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ptorepl-pty-")
		if err != nil {
			replBinErr = err
			return
		}
		replBin = filepath.Join(dir, "ptorepl")
		replBinOut, replBinErr = exec.Command("go", "build", "-o", replBin, ".").CombinedOutput()
	})
	require.NoError(t, replBinErr, "%s", replBinOut)
	return replBin
}

// startREPL starts the REPL on a pseudo-terminal with history file hist.
func startREPL(t *testing.T, hist string) (*terminal, *exec.Cmd) {
	cmd := exec.Command(replBinary(t))
	cmd.Env = append(os.Environ(), "PTOREPL_HISTORY="+hist, "TERM=xterm")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
	require.NoError(t, err)
	t.Cleanup(func() {
		f.Close()
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	tm := &terminal{t: t, f: f}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := f.Read(b)
			tm.mu.Lock()
			tm.buf.Write(b[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return tm, cmd
}

// quit sends Ctrl-D at the prompt and waits for the REPL to exit.
func quit(t *testing.T, tm *terminal, cmd *exec.Cmd) {
	tm.send("\x04")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("ptorepl did not exit on Ctrl-D")
	}
}

func TestREPLThroughPseudoTerminal(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "history")
	tm, cmd := startREPL(t, hist)
	tm.expect(">>> ")

	// A multi-line cell continues at the "..." prompt until it is complete.
	tm.send("func sq(v int) int {\r")
	tm.expect("... ")
	tm.send("return v * v\r")
	tm.expect("... ")
	tm.send("}\r")
	tm.expect(">>> ")
	tm.send("sq(7)\r")
	tm.expect("49")
	tm.expect(">>> ")

	// Tab completes the dotted name in place.
	tm.send("pld.AllRed\t")
	tm.expect("pld.AllReduce")
	tm.send("\x03") // Ctrl-C at the prompt clears the line
	tm.expect(">>> ")

	// History: the up arrow brings back the last cell.
	tm.send("\x1b[A")
	tm.expect("sq(7)")
	tm.send("\r")
	tm.expect("49")
	tm.expect(">>> ")

	// :step runs the first pass on the program just built.
	tm.send(`prog := pl.NewProgram("P"); prog.InCore("k", func(f *pl.Func) { s := f.InOut("s", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32)); f.Set(s, pld.Barrier(s)) })` + "\r")
	tm.expect(">>> ")
	tm.send(":step\r")
	tm.expect("[1] CtrlFlowTransform")
	tm.expect(">>> ")
	tm.send(":step\r:step\r:step\r:step\r:step\r:step\r")
	tm.expect("[7] LowerCompositeOps")
	tm.expect("pld.system.notify")

	// Ctrl-C stops a cell that would run forever; the session goes on.
	tm.send("for {}\r")
	time.Sleep(300 * time.Millisecond)
	tm.send("\x03")
	tm.expect("interrupted")
	tm.expect(">>> ")
	tm.send("sq(8)\r")
	tm.expect("64")
	tm.expect(">>> ")

	// Ctrl-D leaves; the history file holds the cells.
	quit(t, tm, cmd)
	h, err := os.ReadFile(hist)
	require.NoError(t, err)
	require.Contains(t, string(h), "sq(7)")
	require.Contains(t, string(h), ":step")
}

// Cells stay whole: the up arrow recalls a multi-line cell in one piece (in
// this session and the next, through the history file); Ctrl-D at "..."
// drops the half-typed cell instead of running it; a raw string continues
// over lines; :stage does not move :step; a cell running past a second
// shows a progress line.
func TestREPLCellsThroughPseudoTerminal(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "history")
	tm, cmd := startREPL(t, hist)
	tm.expect(">>> ")

	tm.send("func cube(v int) int {\r")
	tm.expect("... ")
	tm.send("return v * v * v\r")
	tm.expect("... ")
	tm.send("}\r")
	tm.expect(">>> ")
	tm.send("cube(3)\r")
	tm.expect("27")
	tm.expect(">>> ")
	// Two steps up is the whole function, shown on one line with ↵ marks;
	// Enter redefines it at once (no "..." prompt: the cell is complete).
	tm.send("\x1b[A\x1b[A")
	tm.expect("func cube(v int) int {↵return v * v * v↵}")
	tm.send("\r")
	tm.expect(">>> ")
	tm.send("cube(4)\r")
	tm.expect("64")
	tm.expect(">>> ")

	// Ctrl-D at the continuation prompt drops the cell; the session goes on.
	tm.send(`fmt.Println("ran" + "away" +` + "\r")
	tm.expect("... ")
	tm.send("\x04")
	tm.expect("(cell dropped)")
	tm.expect(">>> ")
	tm.send("2 * 21\r")
	tm.expect("42")
	tm.expect(">>> ")
	tm.mu.Lock()
	require.NotContains(t, tm.buf.String(), "ranaway", "the dropped cell never ran")
	require.NotContains(t, tm.buf.String(), "error:")
	tm.mu.Unlock()

	// A raw string spanning lines continues until its closing backquote.
	tm.send("raw := `first\r")
	tm.expect("... ")
	tm.send("second`\r")
	tm.expect(">>> ")
	tm.send("len(raw)\r")
	tm.expect("12")
	tm.expect(">>> ")

	// :stage looks ahead without moving :step.
	tm.send(`prog := pl.NewProgram("P"); prog.InCore("k", func(f *pl.Func) { s := f.InOut("s", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32)); f.Set(s, pld.Barrier(s)) })` + "\r")
	tm.expect(">>> ")
	tm.send(":stage InsertCommFence\r")
	tm.expect("# after InsertCommFence")
	tm.expect(">>> ")
	tm.send(":step\r")
	tm.expect("[1] CtrlFlowTransform")
	tm.expect(">>> ")
	tm.send(":stage InsertComFence\r")
	tm.expect("did you mean InsertCommFence?")
	tm.expect(">>> ")

	// A cell that runs past a second says so, then the line goes away.
	tm.send("time.Sleep(2500 * time.Millisecond); 5 * 5\r")
	tm.expect("running for 1s (Ctrl-C stops it)")
	tm.expect("running for 2s")
	tm.expect("\r\x1b[2K25")
	tm.expect(">>> ")
	// An updatable display (what pl.Run's progress uses) draws on that
	// line instead, and its last word stays.
	tm.send(`h := display.NewHandle(); h.Text("phase one"); time.Sleep(1500 * time.Millisecond); h.Text("phase two done"); 6 * 7` + "\r")
	tm.expect("\r\x1b[2Kphase one")
	tm.expect("\r\x1b[2Kphase two done\r\n")
	tm.expect("42")
	tm.expect(">>> ")
	quit(t, tm, cmd)

	// The history file keeps the function as one cell; a new session
	// recalls it whole.
	h, err := os.ReadFile(hist)
	require.NoError(t, err)
	require.Contains(t, string(h), `func cube(v int) int {\nreturn v * v * v\n}`)
	tm, cmd = startREPL(t, hist)
	tm.expect(">>> ")
	for range 11 {
		tm.send("\x1b[A")
	}
	tm.expect("func cube(v int) int {↵return v * v * v↵}")
	tm.send("\r")
	tm.expect(">>> ")
	tm.send("cube(5)\r")
	tm.expect("125")
	tm.expect(">>> ")
	quit(t, tm, cmd)
}
