package kernel_test

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/ptorepl/ptorepl/kernel"
)

// buildKernelBinary builds cmd/ptorepl into a temporary directory and, when
// name is not empty, installs its kernelspec under that name into a private
// JUPYTER_DATA_DIR. It returns the binary the kernel runs and the environment (with that
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
	// A binary in a temporary directory is installed as a copy in the
	// kernelspec folder: the kernel processes run that copy.
	raw, err := os.ReadFile(filepath.Join(dir, "jupyter", "kernels", name, "kernel.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var spec kernel.Spec
	if err := json.Unmarshal(raw, &spec); err != nil || len(spec.Argv) == 0 {
		tb.Fatalf("kernel.json: %v\n%s", err, raw)
	}
	return spec.Argv[0], env
}

// freePorts returns n distinct TCP ports that were free on ip a moment ago.
// freePortsOn finds n ports free on every one of ips: the first address
// picks each, the others must be able to take it too (a test that checks
// a port is unreachable on another address needs nothing else there).
func freePortsOn(tb testing.TB, n int, ips ...string) []int {
	tb.Helper()
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for tries := 0; len(ports) < n; tries++ {
		if tries > 100*n {
			tb.Fatalf("finding %d ports free on %v: too many taken", n, ips)
		}
		first, err := net.Listen("tcp", net.JoinHostPort(ips[0], "0"))
		if err != nil {
			tb.Fatalf("finding a free port on %s: %v", ips[0], err)
		}
		port := first.Addr().(*net.TCPAddr).Port
		held := []net.Listener{first}
		ok := true
		for _, ip := range ips[1:] {
			l, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port)))
			if err != nil {
				ok = false
				break
			}
			held = append(held, l)
		}
		ls = append(ls, held...) // held until all are found, so none repeats
		if ok {
			ports = append(ports, port)
		}
	}
	return ports
}

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
