//go:build mpi

package mpidev_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/mpidev"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
)

var (
	devOnce sync.Once
	dev     *mpidev.Device
	devErr  error
)

func device(t testing.TB) *mpidev.Device {
	devOnce.Do(func() { dev, devErr = mpidev.New(runtime.DeviceConfig{}) })
	if devErr != nil {
		t.Fatal(devErr)
	}
	return dev
}

func closeDevice() {
	if dev != nil {
		dev.Close()
	}
}

// corpusProgram is one program of the simulator's test corpus, built for
// a world of n ranks.
type corpusProgram struct {
	name  string
	build func(n int) *pl.Program
}

// worldOf names programs written for one world size only.
var worldOf = map[string]int{"host_allreduce_subsets": 4}

func fixed(p func() *pl.Program) func(int) *pl.Program { return func(int) *pl.Program { return p() } }

var reduceOps = map[string]ir.ReduceOp{"sum": pld.Sum, "max": pld.Max, "min": pld.Min, "prod": pld.Prod}

// corpus is the quickstart, the examples/distributed-style programs, every
// collective (allreduce in mesh and ring modes) with all four reduce ops
// where the collective takes one, and the host-level collectives.
func corpus() []corpusProgram {
	c := []corpusProgram{
		{"quickstart", fixed(testprogs.Quickstart)},
		{"quickstart_3", fixed(func() *pl.Program { return testprogs.QuickstartSized(3) })},
		{"01_hello_rank", fixed(func() *pl.Program { return testprogs.RankProgram(false) })},
		{"02_programming_model", fixed(func() *pl.Program { return testprogs.RankProgram(true) })},
		{"03_window_buffer", fixed(testprogs.WindowProgram)},
		{"04_barrier_hand", fixed(testprogs.BarrierHandProgram)},
		{"04_barrier_builtin", fixed(testprogs.BarrierBuiltinProgram)},
		{"05_ring_put", fixed(func() *pl.Program { return testprogs.RingProgram("put") })},
		{"06_ring_get", fixed(func() *pl.Program { return testprogs.RingProgram("get") })},
		{"07_ring_remote_store", fixed(func() *pl.Program { return testprogs.RingProgram("store") })},
		{"07_ring_remote_load", fixed(func() *pl.Program { return testprogs.RingProgram("load") })},
		{"tag_handshake_set", fixed(func() *pl.Program { return testprogs.TagProgram(true) })},
		{"tag_handshake_add", fixed(func() *pl.Program { return testprogs.TagProgram(false) })},
		{"host_allreduce_loop_mesh", fixed(func() *pl.Program { return testprogs.HostAllReduceLoopMode(3, "mesh") })},
		{"host_allreduce_loop_ring", fixed(func() *pl.Program { return testprogs.HostAllReduceLoopMode(3, "ring") })},
		{"host_allreduce_subsets", fixed(testprogs.HostAllReduceSubsets)},
		{"spmd_launches", fixed(testprogs.SpmdProgram)},
		{"barrier", (func(n int) *pl.Program {
			return testprogs.Collective("BAR", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
				testprogs.StageRows(f, x, data, 1)
				f.Set(sig, pld.Barrier(sig))
			})
		})},
		{"broadcast", (func(n int) *pl.Program {
			return testprogs.Collective("BC", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
				testprogs.StageRows(f, x, data, 1)
				f.Set(data, pld.Broadcast(data, sig, 1))
			})
		})},
		{"allgather", (func(n int) *pl.Program {
			return testprogs.Collective("AG", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
				f.Set(data, pld.AllGather(x, data, sig))
			})
		})},
		{"all_to_all", func(n int) *pl.Program {
			return testprogs.Collective("A2A", n, n, func(f *pl.Func, x, data, sig pl.Expr) {
				f.Set(data, pld.AllToAll(x, data, sig))
			})
		}},
		{"all_to_all_v", func(n int) *pl.Program { return testprogs.AllToAllV(n, 3) }},
	}
	for _, name := range []string{"sum", "max", "min", "prod"} {
		op := reduceOps[name]
		for _, mode := range []string{"mesh", "ring"} {
			c = append(c, corpusProgram{name: "allreduce_" + mode + "_" + name, build: func(n int) *pl.Program { return allReduceOf(n, 48, op, mode) }})
		}
	}
	// reduce_scatter takes only Sum (the op kwarg rejects the others).
	c = append(c, corpusProgram{name: "reduce_scatter_sum", build: func(n int) *pl.Program {
		return testprogs.Collective("RS", n, n, func(f *pl.Func, x, data, sig pl.Expr) {
			testprogs.StageRows(f, x, data, n)
			f.Set(data, pld.ReduceScatter(data, sig, pld.Op(pld.Sum)))
		})
	}})
	return c
}

// allReduceOf is a device-level allreduce of [1, size] FP32 in mode with
// op, its signal shaped as the mode needs ([2(n-1), n] for ring).
func allReduceOf(n, size int, op ir.ReduceOp, mode string) *pl.Program {
	return testprogs.AllReduceWindow("AllReduce", n, size, mode, op)
}

// TestDifferential runs every corpus program, as written and compiled, at
// P = 2, 3, 4, 8 on the MPI device and on the simulator with the same
// seeded inputs: every host tensor must come back bit-identical.
func TestDifferential(t *testing.T) {
	d := device(t)
	sim := runtime.Default()
	for _, n := range []int{2, 3, 4, 8} {
		for _, cp := range corpus() {
			if w := worldOf[cp.name]; w != 0 && w != n {
				continue
			}
			for _, form := range []string{"written", "compiled"} {
				t.Run(fmt.Sprintf("P=%d/%s/%s", n, cp.name, form), func(t *testing.T) {
					p := cp.build(n).IR()
					if form == "compiled" {
						c, err := pl.CompileIR(p, pl.Ranks(n))
						if err != nil {
							t.Fatalf("compile: %v", err)
						}
						p = c.Final()
					}
					seed := int64(n*131 + len(cp.name))
					want, _, err := runtime.HostArgs(p, n, seed)
					if err != nil {
						t.Fatal(err)
					}
					got, _, _ := runtime.HostArgs(p, n, seed)
					fresh, _, _ := runtime.HostArgs(p, n, seed)
					sres, err := sim.Run(context.Background(), p, want, runtime.RunOptions{Ranks: n})
					if err != nil {
						t.Fatalf("simulator: %v", err)
					}
					mres, err := d.Run(context.Background(), p, got, runtime.RunOptions{Ranks: n})
					if err != nil {
						t.Fatalf("mpi: %v", err)
					}
					if a, b := signalsText(sres.Signals), signalsText(mres.Signals); a != b {
						t.Errorf("signal cells differ\nsim:\n%s\nmpi:\n%s", a, b)
					}
					changed := false
					for i := range want {
						if string(want[i].Bytes()) != string(got[i].Bytes()) {
							t.Errorf("host tensor %d: the MPI device's bytes differ from the simulator's\nsim: %v\nmpi: %v", i, want[i], got[i])
						}
						changed = changed || string(fresh[i].Bytes()) != string(got[i].Bytes())
					}
					if !changed {
						t.Errorf("the run wrote no host tensor, so nothing was compared")
					}
				})
			}
		}
	}
}

// signalsText is what the checker's hygiene reads of the signal cells:
// where each is, its final value, how many notifies and of which kinds.
// Synthesized signal buffers are named after an op counter that differs
// from run to run, so the name's number is left out.
func signalsText(sigs []runtime.SignalCell) string {
	var lines []string
	for _, c := range sigs {
		lines = append(lines, fmt.Sprintf("rank %d %s+%d = %d after %d notifies (Set %v, AtomicAdd %v)", c.Rank, strings.TrimRight(c.Buffer, "0123456789"), c.ByteOffset, c.Value, c.Notifies, c.SetBy["Set"], c.SetBy["AtomicAdd"]))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

var _ = tensor.Zeros

// A run needing more window memory than the workers have is retried with
// enough, transparently, and still matches the simulator.
func TestArenaGrows(t *testing.T) {
	old := mpidev.DefaultArena
	mpidev.DefaultArena = 512 // smaller than the quickstart's 1 KiB data window
	defer func() { mpidev.DefaultArena = old }()
	d, err := mpidev.New(runtime.DeviceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p := testprogs.Quickstart().IR()
	want, _, _ := runtime.HostArgs(p, 2, 9)
	got, _, _ := runtime.HostArgs(p, 2, 9)
	if _, err := runtime.Default().Run(context.Background(), p, want, runtime.RunOptions{Ranks: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Run(context.Background(), p, got, runtime.RunOptions{Ranks: 2}); err != nil {
		t.Fatalf("mpi with a small arena: %v", err)
	}
	if string(want[1].Bytes()) != string(got[1].Bytes()) {
		t.Errorf("outputs differ from the simulator after the arena grew")
	}
}
