package kernel_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// latencyResult is the last line testdata/latency.py prints: median round
// trips in milliseconds.
type latencyResult struct {
	Rounds  int `json:"rounds"`
	Ptorepl struct {
		Trivial float64 `json:"trivial_ms"`
		DSL     float64 `json:"dsl_ms"`
	} `json:"ptorepl"`
	IPyKernel struct {
		Trivial float64 `json:"trivial_ms"`
		DSL     float64 `json:"dsl_ms"`
	} `json:"ipykernel"`
}

// BenchmarkExecuteLatency measures, with jupyter_client in one run, the
// median execute round trip (execute_request sent → execute_reply and idle
// status received) of the ptorepl kernel and of ipykernel (Debian's
// python3-ipykernel, kernelspec python3) for a trivial cell (`1 + 1`) and a
// cell of 100 DSL calls; testdata/latency.py says what the cells are. It
// reports each median in ms and the ratios ptorepl/ipykernel (target ≤ 0.5).
// ns/op is not reported: one op is a whole measurement run. Rounds per run:
// LATENCY_ROUNDS (default 40).
func BenchmarkExecuteLatency(b *testing.B) {
	if _, err := os.Stat(jupyterPython); err != nil {
		b.Fatalf("%s is missing: the test command installs Debian's jupyter-client and python3-ipykernel", jupyterPython)
	}
	if out, err := exec.Command(jupyterPython, "-c", "import jupyter_client, ipykernel").CombinedOutput(); err != nil {
		b.Fatalf("jupyter_client or ipykernel is missing (the test command installs Debian's jupyter-client and python3-ipykernel): %v\n%s", err, out)
	}
	_, env := buildKernelBinary(b, "ptorepl-bench")
	env = append(env, "PTOREPL_KERNEL_NAME=ptorepl-bench", "PYDEVD_DISABLE_FILE_VALIDATION=1",
		"IPYTHONDIR="+filepath.Join(b.TempDir(), "ipython"))
	b.ResetTimer()

	var runs []latencyResult
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		cmd := exec.CommandContext(ctx, jupyterPython, "testdata/latency.py")
		cmd.Env = env
		cmd.WaitDelay = 10 * time.Second
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			b.Fatalf("testdata/latency.py: %v\n%s", err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		var r latencyResult
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil || r.Ptorepl.Trivial <= 0 || r.IPyKernel.Trivial <= 0 {
			b.Fatalf("testdata/latency.py: no result line (%v):\n%s", err, out)
		}
		b.Logf("run %d of %d:\n%s", i+1, b.N, strings.Join(lines[:len(lines)-1], "\n"))
		runs = append(runs, r)
	}
	b.StopTimer()

	median := func(f func(latencyResult) float64) float64 {
		xs := make([]float64, len(runs))
		for i, r := range runs {
			xs[i] = f(r)
		}
		sort.Float64s(xs)
		if n := len(xs); n%2 == 0 {
			return (xs[n/2-1] + xs[n/2]) / 2
		}
		return xs[len(xs)/2]
	}
	pt := median(func(r latencyResult) float64 { return r.Ptorepl.Trivial })
	pd := median(func(r latencyResult) float64 { return r.Ptorepl.DSL })
	it := median(func(r latencyResult) float64 { return r.IPyKernel.Trivial })
	id := median(func(r latencyResult) float64 { return r.IPyKernel.DSL })
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(pt, "ptorepl-trivial-ms")
	b.ReportMetric(it, "ipykernel-trivial-ms")
	b.ReportMetric(pd, "ptorepl-dsl-ms")
	b.ReportMetric(id, "ipykernel-dsl-ms")
	b.ReportMetric(pt/it, "trivial-ratio")
	b.ReportMetric(pd/id, "dsl-ratio")
	for _, c := range []struct {
		name  string
		ratio float64
	}{{"trivial", pt / it}, {"dsl", pd / id}} {
		verdict := "meets"
		if c.ratio > 0.5 {
			verdict = "MISSES"
		}
		b.Logf("%s cell: ptorepl/ipykernel = %.2f, %s the ≤ 0.5 target", c.name, c.ratio, verdict)
	}
}
