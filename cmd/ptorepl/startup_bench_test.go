package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// timeToPrompt launches cmd on a pseudo-terminal and returns how long it
// takes until prompt appears.
func timeToPrompt(b *testing.B, cmd *exec.Cmd, prompt string) time.Duration {
	b.Helper()
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		f.Close()
	}()
	var out bytes.Buffer
	buf := make([]byte, 4096)
	for time.Since(start) < 60*time.Second {
		_ = f.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		n, _ := f.Read(buf)
		out.Write(buf[:n])
		if strings.Contains(out.String(), prompt) {
			return time.Since(start)
		}
	}
	b.Fatalf("no prompt %q after 60 s; output:\n%s", prompt, out.String())
	return 0
}

// BenchmarkStartup: launch to first prompt for the ptorepl REPL and, in the
// same run, for IPython — the shell ipykernel runs (Debian's
// python3-ipykernel brings it). ns/op is the time to the prompt. The
// kernel-to-kernel comparison with ipykernel is kernel.BenchmarkKernelStartup.
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "ptorepl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	env := append(os.Environ(), "PTOREPL_HISTORY="+filepath.Join(dir, "h"), "TERM=dumb", "IPYTHONDIR="+filepath.Join(dir, "ipython"))
	b.Run("ptorepl", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cmd := exec.Command(bin)
			cmd.Env = env
			timeToPrompt(b, cmd, ">>> ")
		}
	})
	b.Run("ipython", func(b *testing.B) {
		if _, err := os.Stat("/usr/bin/python3"); err != nil {
			b.Fatal("/usr/bin/python3 is missing: the test command installs python3-ipykernel")
		}
		for i := 0; i < b.N; i++ {
			cmd := exec.Command("/usr/bin/python3", "-m", "IPython", "--no-banner", "--colors=NoColor", "--simple-prompt")
			cmd.Env = env
			timeToPrompt(b, cmd, "In [1]:")
		}
	})
}
