package kernel_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkKernelStartup measures, with jupyter_client in one run, the
// median time from launching a kernel to its kernel_info reply, for the
// ptorepl kernel and for ipykernel (Debian's python3-ipykernel);
// testdata/startup.py alternates the two. ns/op is not reported: one op is
// a whole measurement run. Rounds per run: STARTUP_ROUNDS (default 10).
func BenchmarkKernelStartup(b *testing.B) {
	if out, err := exec.Command(jupyterPython, "-c", "import jupyter_client, ipykernel").CombinedOutput(); err != nil {
		b.Fatalf("jupyter_client or ipykernel is missing (the test command installs Debian's jupyter-client and python3-ipykernel): %v\n%s", err, out)
	}
	_, env := buildKernelBinary(b, "ptorepl-bench")
	env = append(env, "PTOREPL_KERNEL_NAME=ptorepl-bench", "PYDEVD_DISABLE_FILE_VALIDATION=1",
		"IPYTHONDIR="+filepath.Join(b.TempDir(), "ipython"))
	b.ResetTimer()
	var pt, ip float64
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		cmd := exec.CommandContext(ctx, jupyterPython, "testdata/startup.py")
		cmd.Env = env
		var stderr strings.Builder
		cmd.Stderr = &stderr // Python may print shutdown noise there
		out, err := cmd.Output()
		cancel()
		if err != nil {
			b.Fatalf("testdata/startup.py: %v\n%s%s", err, out, stderr.String())
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		var r map[string]struct {
			Startup float64 `json:"startup_ms"`
		}
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil || r["ptorepl"].Startup <= 0 || r["ipykernel"].Startup <= 0 {
			b.Fatalf("testdata/startup.py: no result line (%v):\n%s", err, out)
		}
		b.Logf("%s", strings.Join(lines[:len(lines)-1], "\n"))
		pt, ip = r["ptorepl"].Startup, r["ipykernel"].Startup
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(pt, "ptorepl-startup-ms")
	b.ReportMetric(ip, "ipykernel-startup-ms")
	b.ReportMetric(pt/ip, "startup-ratio")
}
