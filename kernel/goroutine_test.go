package kernel_test

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGoroutinePanicThroughJupyterClient: a goroutine panic and os.Exit in
// cells leave the kernel running; the next cell gives its result.
func TestGoroutinePanicThroughJupyterClient(t *testing.T) {
	env := buildAndInstall(t)
	cmd := exec.Command(jupyterPython, "testdata/goroutine_panic.py")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	require.NoError(t, err)
	require.NotContains(t, string(out), "FAIL")
}
