//go:build mpi

package mpidev

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync/atomic"
	"syscall"
	"time"
)

// envProfile names a directory: when the launcher's environment sets it,
// every worker writes a Go CPU profile of each run it executes there
// (job-<id>-rank-<r>.pprof) and a line of MPI-level timings
// (job-<id>-rank-<r>.txt). It is how the device's own speed is studied;
// nothing reads it otherwise.
const envProfile = "PTOREPL_MPI_PROFILE"

// stats are the MPI-level timings of one run on one worker: how many
// calls of each kind and the wall time spent in them (waits include the
// time they sleep), how often waits slept on their cell and notifies woke
// one.
type stats struct {
	gets, puts, atomics, waits, polls, wakes, sleeps atomic.Int64
	getNs, putNs, atomicNs, waitNs                   atomic.Int64
	// kernel: RunRank's wall time, and the process's user and system CPU
	// time meanwhile.
	kernel, kernelUser, kernelSys time.Duration
}

// cpuTimes is the process's user and system CPU time so far.
func cpuTimes() (user, sys time.Duration) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// timeKernel measures RunRank: call it before, and the result after.
func (s *stats) timeKernel() func() {
	t0 := time.Now()
	u0, s0 := cpuTimes()
	return func() {
		u1, s1 := cpuTimes()
		s.kernel, s.kernelUser, s.kernelSys = time.Since(t0), u1-u0, s1-s0
	}
}

func (s *stats) String() string {
	ms := func(n *atomic.Int64) float64 { return float64(n.Load()) / 1e6 }
	return fmt.Sprintf("kernel_ms=%.1f user_ms=%.1f sys_ms=%.1f gets=%d get_ms=%.1f puts=%d put_ms=%.1f atomics=%d atomic_ms=%.1f waits=%d wait_ms=%.1f polls=%d sleeps=%d wakes=%d",
		float64(s.kernel)/1e6, float64(s.kernelUser)/1e6, float64(s.kernelSys)/1e6, s.gets.Load(), ms(&s.getNs), s.puts.Load(), ms(&s.putNs), s.atomics.Load(), ms(&s.atomicNs),
		s.waits.Load(), ms(&s.waitNs), s.polls.Load(), s.sleeps.Load(), s.wakes.Load())
}

// since adds the time since t0 to n.
func since(n *atomic.Int64, t0 time.Time) { n.Add(int64(time.Since(t0))) }

// profiler starts a run's CPU profile when envProfile is set; the
// returned func stops it and writes the timings.
func (w *worker) profiler(id int) func() {
	dir := os.Getenv(envProfile)
	w.st = &stats{}
	if dir == "" {
		return func() {}
	}
	base := filepath.Join(dir, fmt.Sprintf("job-%d-rank-%d", id, w.rank))
	f, err := os.Create(base + ".pprof")
	if err != nil {
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return func() {}
	}
	t0 := time.Now()
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		_ = os.WriteFile(base+".txt", []byte(fmt.Sprintf("run_ms=%.1f %s\n", float64(time.Since(t0))/1e6, w.st)), 0o644)
	}
}
