package kernel_test

import (
	"os"
	"os/exec"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// jupyterPython is Debian's interpreter, which sees Debian's Jupyter packages
// (a python3 earlier on PATH may not).
const jupyterPython = "/usr/bin/python3"

// buildAndInstall builds ptorepl and installs a kernelspec named
// ptorepl-test into a private JUPYTER_DATA_DIR; it returns the environment
// to run Jupyter clients in.
func buildAndInstall(t *testing.T) []string {
	t.Helper()
	if _, err := os.Stat(jupyterPython); err != nil {
		t.Fatalf("%s is missing: the test command installs Debian's Jupyter packages", jupyterPython)
	}
	_, env := buildKernelBinary(t, "ptorepl-test")
	return append(env, "PTOREPL_KERNEL_NAME=ptorepl-test")
}

// TestJupyterKernelConformance runs jupyter_kernel_test's 12 tests; all must
// run and pass, none skipped.
func TestJupyterKernelConformance(t *testing.T) {
	env := buildAndInstall(t)
	cmd := exec.Command(jupyterPython, "-m", "unittest", "-v", "testdata/test_ptorepl_kernel.py")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	require.NoError(t, err)
	require.Regexp(t, regexp.MustCompile(`Ran 12 tests`), string(out))
	require.NotContains(t, string(out), "skipped")
	require.Regexp(t, regexp.MustCompile(`(?m)^OK$`), string(out))
}

// TestProtocolBehaviour drives the kernel with jupyter_client through
// interrupts, a forged signature, stop_on_error, silent runs and shutdown.
func TestProtocolBehaviour(t *testing.T) {
	env := buildAndInstall(t)
	cmd := exec.Command(jupyterPython, "testdata/protocol_check.py")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	require.NoError(t, err)
	require.NotContains(t, string(out), "FAIL")
}
