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

func TestREPLThroughPseudoTerminal(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "ptorepl")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	hist := filepath.Join(dir, "history")
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "PTOREPL_HISTORY="+hist, "TERM=xterm")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
	require.NoError(t, err)
	defer f.Close()
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
	tm.expect("[1] ConvertToSSA")
	tm.expect(">>> ")
	tm.send(":step\r:step\r")
	tm.expect("[3] LowerCompositeOps")
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
	tm.send("\x04")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("ptorepl did not exit on Ctrl-D")
	}
	h, err := os.ReadFile(hist)
	require.NoError(t, err)
	require.Contains(t, string(h), "sq(7)")
	require.Contains(t, string(h), ":step")
}
