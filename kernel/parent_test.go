package kernel_test

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func unusedLoopbackPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// A kernel whose parent (JPY_PARENT_PID) dies exits by itself, as ipykernel
// does, instead of lingering as an orphan.
func TestKernelExitsWhenParentDies(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "ptorepl")
	out, err := exec.Command("go", "build", "-o", bin, "../cmd/ptorepl").CombinedOutput()
	require.NoError(t, err, "%s", out)
	conn := map[string]any{"transport": "tcp", "ip": "127.0.0.1", "key": "k", "signature_scheme": "hmac-sha256",
		"shell_port": unusedLoopbackPort(t), "control_port": unusedLoopbackPort(t), "stdin_port": unusedLoopbackPort(t), "iopub_port": unusedLoopbackPort(t), "hb_port": unusedLoopbackPort(t)}
	raw, err := json.Marshal(conn)
	require.NoError(t, err)
	cf := filepath.Join(dir, "conn.json")
	require.NoError(t, os.WriteFile(cf, raw, 0o600))

	parent := exec.Command("sleep", "60")
	require.NoError(t, parent.Start())
	kernel := exec.Command(bin, "kernel", cf)
	kernel.Env = append(os.Environ(), "JPY_PARENT_PID="+strconv.Itoa(parent.Process.Pid), "PTOREPL_HISTORY="+filepath.Join(dir, "h"))
	require.NoError(t, kernel.Start())
	done := make(chan error, 1)
	go func() { done <- kernel.Wait() }()

	// The kernel stays up while its parent lives...
	select {
	case err := <-done:
		t.Fatalf("the kernel exited while its parent was alive: %v", err)
	case <-time.After(1500 * time.Millisecond):
	}
	// ...and leaves once the parent is gone.
	require.NoError(t, parent.Process.Kill())
	_ = parent.Wait()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = kernel.Process.Kill()
		t.Fatal("the kernel did not exit within 15 s of its parent's death")
	}
}
