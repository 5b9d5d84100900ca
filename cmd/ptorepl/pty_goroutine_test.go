package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/require"
)

// TestREPLSurvivesGoroutinePanic: a goroutine's panic is reported with its
// cell line, never as a Go stack trace, and the next cell runs.
func TestREPLSurvivesGoroutinePanic(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "ptorepl")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "PTOREPL_HISTORY="+filepath.Join(dir, "history"), "TERM=xterm")
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
	// The goroutine panics while its cell still runs.
	tm.send(`go func() { panic("boom") }(); time.Sleep(200 * time.Millisecond)` + "\r")
	tm.expect("panic in goroutine: boom")
	tm.expect(">>> ")
	tm.send("1 + 41\r")
	tm.expect("42")
	tm.expect(">>> ")
	// The goroutine panics after its cell ended: reported with the next.
	tm.send(`go func() { time.Sleep(50 * time.Millisecond); panic("late") }()` + "\r")
	tm.expect(">>> ")
	time.Sleep(300 * time.Millisecond)
	tm.send("1 + 41\r")
	tm.expect("panic in goroutine: late")
	tm.expect("42")
	tm.expect(">>> ")
	tm.send("\x04")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("ptorepl did not exit on Ctrl-D")
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	require.NotRegexp(t, regexp.MustCompile(`goroutine \d+ \[`), tm.buf.String())
}
