package kernel_test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// buildKernelBinary builds cmd/ptorepl into a temporary directory and, when
// name is not empty, installs its kernelspec under that name into a private
// JUPYTER_DATA_DIR. It returns the binary and the environment (with that
// JUPYTER_DATA_DIR) to run Jupyter in.
func buildKernelBinary(tb testing.TB, name string) (bin string, env []string) {
	tb.Helper()
	dir := tb.TempDir()
	bin = filepath.Join(dir, "ptorepl")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/ptorepl").CombinedOutput(); err != nil {
		tb.Fatalf("go build ../cmd/ptorepl: %v\n%s", err, out)
	}
	env = append(os.Environ(), "JUPYTER_DATA_DIR="+filepath.Join(dir, "jupyter"), "PTOREPL_HISTORY="+filepath.Join(dir, "hist"))
	if name == "" {
		return bin, env
	}
	cmd := exec.Command(bin, "kernel", "install", "--user", "--name", name)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("ptorepl kernel install: %v\n%s", err, out)
	}
	return bin, env
}

// freePorts returns n distinct TCP ports that were free on ip a moment ago.
func freePorts(tb testing.TB, ip string, n int) []int {
	tb.Helper()
	var ports []int
	var ls []net.Listener
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
		if err != nil {
			tb.Fatalf("finding a free port on %s: %v", ip, err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}
