//go:build mpi

package mpidev_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/mpidev"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
)

// deadlockProgram: every rank waits on its own signal cell >= 1, and
// nobody ever notifies it.
func deadlockProgram(n int) *pl.Program {
	return testprogs.Collective("Stuck", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
		me := f.Let("me", pld.Rank(pld.GetCommCtx(data)))
		f.Do(pld.Wait(sig, pl.Dims(me, 0), 1, pld.Ge))
	})
}

// gone reports whether pid no longer runs (a zombie counts as gone: it
// executes nothing and only waits to be reaped).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// waitGone fails unless every pid is gone within a few seconds.
func waitGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for !gone(pid) {
			if time.Now().After(deadline) {
				t.Errorf("process %d is still running after the failure", pid)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// children lists this process's live child processes.
func children() []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	me := fmt.Sprintf("PPid:\t%d\n", os.Getpid())
	for _, e := range ents {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err == nil && strings.Contains(string(b), me) && !gone(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// warm starts the n-rank pool with a quick run and returns its processes.
func warm(t *testing.T, d *mpidev.Device, n int) []int {
	t.Helper()
	prog := testprogs.Quickstart()
	args, _, _ := runtime.HostArgs(prog.IR(), n, 1)
	if _, err := d.Run(context.Background(), prog.IR(), args, runtime.RunOptions{Ranks: n}); err != nil {
		t.Fatalf("warm-up run: %v", err)
	}
	pids := d.Pids(n)
	if len(pids) != n+1 {
		t.Fatalf("pool of %d ranks has processes %v", n, pids)
	}
	return pids
}

// stillUsable: after a failure the device runs the next program.
func stillUsable(t *testing.T, d *mpidev.Device, n int) {
	t.Helper()
	prog := testprogs.Quickstart()
	want, _, _ := runtime.HostArgs(prog.IR(), n, 5)
	got, _, _ := runtime.HostArgs(prog.IR(), n, 5)
	if _, err := runtime.Default().Run(context.Background(), prog.IR(), want, runtime.RunOptions{Ranks: n}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Run(context.Background(), prog.IR(), got, runtime.RunOptions{Ranks: n}); err != nil {
		t.Fatalf("the run after the failure: %v", err)
	}
	if string(want[1].Bytes()) != string(got[1].Bytes()) {
		t.Errorf("the run after the failure differs from the simulator")
	}
}

// A deadlock on MPI is reported like the simulator's: the same blocked
// ranks, ops and cells, within seconds, and the workers are gone.
func TestFaultDeadlock(t *testing.T) {
	d := device(t)
	const n = 3
	pids := warm(t, d, n)
	prog := deadlockProgram(n).IR()
	simArgs, _, _ := runtime.HostArgs(prog, n, 1)
	_, simErr := runtime.Default().Run(context.Background(), prog, simArgs, runtime.RunOptions{Ranks: n})
	var want *runtime.DeadlockError
	if !errors.As(simErr, &want) {
		t.Fatalf("the simulator should deadlock: %v", simErr)
	}
	args, _, _ := runtime.HostArgs(prog, n, 1)
	start := time.Now()
	_, err := d.Run(context.Background(), prog, args, runtime.RunOptions{Ranks: n})
	took := time.Since(start)
	var got *runtime.DeadlockError
	if !errors.As(err, &got) {
		t.Fatalf("want a deadlock error, got %v", err)
	}
	if took > 10*time.Second {
		t.Errorf("the deadlock took %s to report", took)
	}
	if len(got.Blocked) != len(want.Blocked) {
		t.Fatalf("blocked ranks: mpi %d, simulator %d\nmpi: %v\nsim: %v", len(got.Blocked), len(want.Blocked), got, want)
	}
	for i := range want.Blocked {
		g, w := got.Blocked[i], want.Blocked[i]
		if g.Rank != w.Rank || g.Op != w.Op || g.Cell != w.Cell || g.Value != w.Value || g.Want != w.Want || g.Pos != w.Pos || g.Func != w.Func {
			t.Errorf("blocked rank %d: mpi %+v, simulator %+v", i, g, w)
		}
	}
	t.Logf("deadlock reported after %s: %v", took.Round(time.Millisecond), err)
	if !strings.HasPrefix(err.Error(), "deadlock:") {
		t.Errorf("error text: %v", err)
	}
	waitGone(t, pids)
	stillUsable(t, d, n)
}

// A worker killed mid-run: one error naming the rank and what it was
// doing, within 10 s, nothing left running, the device usable again.
func TestFaultKilledWorker(t *testing.T) {
	d := device(t)
	const n = 4
	old := mpidev.DeadlockAfter
	mpidev.DeadlockAfter = time.Minute // the run must end by the kill, not the watchdog
	defer func() { mpidev.DeadlockAfter = old }()
	pids := warm(t, d, n)
	prog := deadlockProgram(n).IR()
	args, _, _ := runtime.HostArgs(prog, n, 1)
	victim := pids[1+2] // rank 2
	time.AfterFunc(500*time.Millisecond, func() { _ = syscall.Kill(victim, syscall.SIGKILL) })
	start := time.Now()
	_, err := d.Run(context.Background(), prog, args, runtime.RunOptions{Ranks: n, Watchdog: time.Minute})
	took := time.Since(start)
	if err == nil {
		t.Fatal("the run survived a killed worker")
	}
	if took > 10*time.Second {
		t.Errorf("the failure took %s to report", took)
	}
	msg := err.Error()
	t.Logf("killed worker reported after %s: %v", took.Round(time.Millisecond), msg)
	if !strings.Contains(msg, "rank 2") || !strings.Contains(msg, "pld.system.wait") {
		t.Errorf("the error should name rank 2 and the op it was in: %v", msg)
	}
	waitGone(t, pids)
	stillUsable(t, d, n)
}

// A worker that cannot start: the error comes within 10 s and mpirun is
// gone.
func TestFaultWorkerFailsToStart(t *testing.T) {
	before := len(children())
	d, err := mpidev.New(runtime.DeviceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	d.Command = []string{"/nonexistent/ptorepl-worker"}
	prog := testprogs.Quickstart().IR()
	args, _, _ := runtime.HostArgs(prog, 2, 1)
	start := time.Now()
	_, err = d.Run(context.Background(), prog, args, runtime.RunOptions{Ranks: 2})
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "device mpi") {
		t.Fatalf("want a start-up error, got %v", err)
	}
	if took > 10*time.Second {
		t.Errorf("the start-up failure took %s to report", took)
	}
	t.Logf("error after %s: %v", took.Round(time.Millisecond), err)
	deadline := time.Now().Add(5 * time.Second)
	for len(children()) > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if c := children(); len(c) > before {
		t.Errorf("processes left behind: %v", c)
	}
	d.Close()
}

// A worker that crashes while starting (it exits before reaching the
// launcher): same as above.
func TestFaultWorkerExitsAtStart(t *testing.T) {
	d, err := mpidev.New(runtime.DeviceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	d.Command = []string{"/bin/sh", "-c", "exit 3"}
	prog := testprogs.Quickstart().IR()
	args, _, _ := runtime.HostArgs(prog, 2, 1)
	start := time.Now()
	_, err = d.Run(context.Background(), prog, args, runtime.RunOptions{Ranks: 2})
	if err == nil || time.Since(start) > 10*time.Second {
		t.Fatalf("want a start-up error within 10 s, got %v after %s", err, time.Since(start))
	}
	d.Close()
}

// Through pl.Run: the device is chosen with pl.Ranks(n).On(pl.MPI()), the
// report says race checking is a simulator feature, and a deadlock comes
// back explained.
func TestPlRunOnMPI(t *testing.T) {
	prog := testprogs.Quickstart()
	x := tensor.Randn(1, 2, 1, 256)
	y := tensor.Zeros(x.DType(), 2, 1, 256)
	res, err := pl.Run(prog, pl.Ranks(2).On(pl.MPI()), x, y)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Report().Of("unchecked-device")) != 1 {
		t.Errorf("report should say race checking is off on MPI:\n%s", res.Report())
	}
	// The timeline is assembled from the workers: every rank ran the
	// quickstart's remote loads, and the host dispatched.
	tl := res.Timeline()
	for r := 0; r < 2; r++ {
		found := false
		for _, ev := range tl.Lanes[r] {
			found = found || ev.Op == "pld.tile.remote_load"
		}
		if !found {
			t.Errorf("rank %d's lane has no remote_load: %v", r, tl.Lanes[r])
		}
	}
	if len(tl.Host) == 0 {
		t.Errorf("the host lane is empty")
	}
	_, err = pl.Run(deadlockProgram(2), pl.Ranks(2).On(pl.MPI()), tensor.Zeros(x.DType(), 2, 1, 16), tensor.Zeros(x.DType(), 2, 2, 16))
	if err == nil || !strings.Contains(err.Error(), "deadlock") || !strings.Contains(err.Error(), "rank 1") {
		t.Errorf("want an explained deadlock, got %v", err)
	}
	dev, _ := runtime.OpenDevice("mpi", runtime.DeviceConfig{})
	dev.(*mpidev.Device).Close()
}

// A single-device program (a chip orchestrator, no host) runs on MPI as on
// the simulator: its orchestrator on device 0.
func TestSingleDeviceProgramOnMPI(t *testing.T) {
	prog := pl.NewProgram("L2")
	k := prog.InCore("add", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		t := f.Let("t", pl.Load(a, pl.Dims(0, 0), pl.Dims(4, 16)))
		f.Set(out, pl.Store(pl.Add(t, t), pl.Dims(0, 0), out))
	})
	prog.Orchestration("chip_orch", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		f.Do(f.Call(k, a, out))
	})
	a := tensor.Randn(3, 4, 16)
	onSim, onMPI := tensor.Zeros(a.DType(), 4, 16), tensor.Zeros(a.DType(), 4, 16)
	if _, err := pl.Run(prog, pl.Ranks(2), a, onSim); err != nil {
		t.Fatal(err)
	}
	if _, err := pl.Run(prog, pl.Ranks(2).On(pl.MPI()), a, onMPI); err != nil {
		t.Fatal(err)
	}
	if !onSim.Equal(onMPI) || onMPI.At(1, 2) != 2*a.At(1, 2) {
		t.Fatalf("MPI gave %v, the simulator %v", onMPI, onSim)
	}
}

// Tensors a run creates and returns come back from the workers as the
// simulator hands them back: a host's (each rank filled its row in its own
// process, over the init value every process's host wrote) and a
// one-device chip orchestrator's (rank 0's).
func TestReturnedTensorsOnMPI(t *testing.T) {
	for _, c := range []struct {
		prog  *pl.Program
		ranks int
		x     *tensor.Tensor
	}{
		{testprogs.ReturnedRows(32, 1.5), 3, tensor.Randn(4, 3, 1, 32)},
		{testprogs.ReturnedChip(8, 16), 2, tensor.Randn(5, 8, 16)},
	} {
		sim, err := pl.Run(c.prog, pl.Ranks(c.ranks), c.x)
		if err != nil {
			t.Fatal(err)
		}
		onMPI, err := pl.Run(c.prog, pl.Ranks(c.ranks).On(pl.MPI()), c.x)
		if err != nil {
			t.Fatal(err)
		}
		a, b := sim.Outputs(), onMPI.Outputs()
		if len(a) != 1 || len(b) != 1 || !a[0].Equal(b[0]) || a[0].Float32s()[1] != 2*c.x.Float32s()[1] {
			t.Fatalf("%s: the simulator returned %v, MPI %v", c.prog.IR().Name, a, b)
		}
	}
}

// A tensor the host creates, written by one rank and, after the host
// joined the ranks, read by another: on MPI each process holds its own
// copy, which the join brings together as it does the host's parameters,
// so the reading rank sees the writer's row, as on the simulator.
func TestCreatedTensorAcrossRanksOnMPI(t *testing.T) {
	const n = 3
	prog := testprogs.CreatedAcrossRanks(32)
	x := tensor.Randn(6, n, 1, 32)
	onSim, onMPI := tensor.Zeros(x.DType(), n, 1, 32), tensor.Zeros(x.DType(), n, 1, 32)
	if _, err := pl.Run(prog, pl.Ranks(n), x, onSim); err != nil {
		t.Fatal(err)
	}
	if _, err := pl.Run(prog, pl.Ranks(n).On(pl.MPI()), x, onMPI); err != nil {
		t.Fatal(err)
	}
	xs, ys := x.Float32s(), onSim.Float32s()
	for r := 0; r < n; r++ {
		if got, want := ys[((r+1)%n)*32+5], 2*xs[r*32+5]; got != want {
			t.Fatalf("simulator: y[%d] = %v, want 2 x[%d] = %v", (r+1)%n, got, r, want)
		}
	}
	if !onSim.Equal(onMPI) {
		t.Fatalf("MPI gave %v, the simulator %v", onMPI, onSim)
	}
}

// A worker killed while the pool is idle: the next run does not fail, it
// runs on fresh workers.
func TestFaultWorkerKilledBetweenRuns(t *testing.T) {
	d := device(t)
	const n = 2
	pids := warm(t, d, n)
	if err := syscall.Kill(pids[2], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	stillUsable(t, d, n)
	waitGone(t, pids)
}
