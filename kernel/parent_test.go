package kernel_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A kernel whose parent (JPY_PARENT_PID) dies exits by itself, as ipykernel
// does, instead of lingering as an orphan.
func TestKernelExitsWhenParentDies(t *testing.T) {
	bin, env := buildKernelBinary(t, "")
	raw, err := json.Marshal(connFile("127.0.0.1", freePorts(t, "127.0.0.1", 5)))
	require.NoError(t, err)
	cf := filepath.Join(t.TempDir(), "conn.json")
	require.NoError(t, os.WriteFile(cf, raw, 0o600))

	parent := exec.Command("sleep", "60")
	require.NoError(t, parent.Start())
	kernel := exec.Command(bin, "kernel", cf)
	kernel.Env = append(env, "JPY_PARENT_PID="+strconv.Itoa(parent.Process.Pid))
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
