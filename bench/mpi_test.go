//go:build mpi

package bench

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/mpidev"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// TestMain: under -tags mpi the test binary is also the MPI device's
// worker.
func TestMain(m *testing.M) {
	mpidev.MaybeWorker()
	os.Exit(m.Run())
}

// baseline times MPI_Allreduce of Elems FP32 on ranks ranks in the device's
// workers (10 calls after 3 warm-ups, the slowest rank's mean), outside the
// benchmark's timer: the peer each device run is paired with.
func baseline(ctx context.Context, b *testing.B, d *mpidev.Device, ranks int) time.Duration {
	b.StopTimer()
	defer b.StartTimer()
	base, err := d.AllreduceBaseline(ctx, ranks, Elems, 3, 10)
	if err != nil {
		b.Fatal(err)
	}
	return base
}

// openMPI opens the MPI device for the benchmark, closed when it ends.
func openMPI(b *testing.B) *mpidev.Device {
	d, err := mpidev.New(runtime.DeviceConfig{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Close() })
	return d
}

// loadBoth loads p on the MPI device and on the simulator.
func loadBoth(b *testing.B, d *mpidev.Device, p *ir.Program) (mpi, sim runtime.Executable) {
	mpi, err := d.Load(p)
	if err != nil {
		b.Fatal(err)
	}
	sim, err = runtime.Default().Load(p)
	if err != nil {
		b.Fatal(err)
	}
	return mpi, sim
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkAllReduceMPIDevice8x1Mi runs the allreduce program (8 ranks, 1
// Mi FP32 each) on the MPI device, as written and compiled, next to the
// simulator and OpenMPI's MPI_Allreduce measured in the same worker
// processes, in the same run. ns/op is the device's whole run (shipping
// the program and 32 MiB of host tensors each way included); the metrics:
//
//	mpi-kernel-ms   first op to last op on the ranks (stage, barrier,
//	                allreduce, barrier, store), MPI device
//	sim-kernel-ms   the same span on the simulator
//	mpi-op-ms       the allreduce alone: the pld.tensor.allreduce op as
//	                written; compiled, the ops of its lowering from the
//	                first on any rank to the last (SpanAt)
//	sim-op-ms       the same on the simulator
//	MPI_Allreduce-ms  OpenMPI's own call in the same workers, timed just
//	                  before each device run (mean of 10 calls after 3
//	                  warm-ups, the slowest rank's); the median
//	x-MPI_Allreduce   the device's allreduce (mpi-op-ms) ÷ MPI_Allreduce,
//	                  per run against the call timed just before it; the
//	                  median (the machine's load drifts less between the
//	                  two halves of a pair than over the whole benchmark)
//	x-MPI-kernel      the whole kernel ÷ MPI_Allreduce, likewise
func BenchmarkAllReduceMPIDevice8x1Mi(b *testing.B) {
	d := openMPI(b)
	for _, form := range []string{"written", "compiled"} {
		b.Run(form, func(b *testing.B) { allReduceMPIDevice(b, d, form, Ranks) })
	}
}

// BenchmarkAllReduceMPIDevice2x1Mi is BenchmarkAllReduceMPIDevice8x1Mi at
// two ranks: on a 2-core machine one process per core, so no round waits
// for a process the kernel has not scheduled yet. Next to the 8-rank run it
// separates what the device costs from what oversubscription costs.
func BenchmarkAllReduceMPIDevice2x1Mi(b *testing.B) {
	d := openMPI(b)
	for _, form := range []string{"written", "compiled"} {
		b.Run(form, func(b *testing.B) { allReduceMPIDevice(b, d, form, 2) })
	}
}

// allReduceMPIDevice runs the allreduce program at ranks ranks in form
// ("written" or "compiled") on d and on the simulator and reports the
// metrics BenchmarkAllReduceMPIDevice8x1Mi describes.
func allReduceMPIDevice(b *testing.B, d *mpidev.Device, form string, ranks int) {
	ctx := context.Background()
	p := AllReduceProgram(Elems).IR()
	pos, ok := CallPos(p, ir.PldTensorAllreduce)
	if !ok {
		b.Fatal("the program has no allreduce")
	}
	// The allreduce alone: the op as written, its lowering compiled.
	opSpan := func(tl *runtime.Timeline) (time.Duration, error) {
		if form == "written" {
			return Span(tl, opAllReduce, ranks)
		}
		return SpanAt(tl, pos, ranks)
	}
	if form == "compiled" {
		c, err := pl.CompileIR(p, pl.Ranks(ranks))
		if err != nil {
			b.Fatal(err)
		}
		p = c.Final()
	}
	x := tensor.Randn(1, ranks, 1, Elems)
	y := tensor.Zeros(ir.FP32, ranks, 1, Elems)
	ySim := tensor.Zeros(ir.FP32, ranks, 1, Elems)
	exe, sim := loadBoth(b, d, p)
	o := runtime.RunOptions{Ranks: ranks, Watchdog: 5 * time.Minute}
	if _, err := exe.Run(ctx, []*tensor.Tensor{x, y}, o); err != nil { // warm-up, and the pool starts
		b.Fatal(err)
	}
	if _, err := sim.Run(ctx, []*tensor.Tensor{x, ySim}, o); err != nil {
		b.Fatal(err)
	}
	if string(y.Bytes()) != string(ySim.Bytes()) {
		b.Fatal("the MPI device's sums differ from the simulator's")
	}
	var mk, mo, sk, so, bases []time.Duration
	var ratios, kratios []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		base := baseline(ctx, b, d, ranks)
		bases = append(bases, base)
		res, err := exe.Run(ctx, []*tensor.Tensor{x, y}, o)
		if err != nil {
			b.Fatal(err)
		}
		k := WholeSpan(res.Timeline)
		mk = append(mk, k)
		s, err := opSpan(res.Timeline)
		if err != nil {
			b.Fatal(err)
		}
		mo = append(mo, s)
		ratios = append(ratios, float64(s)/float64(base))
		kratios = append(kratios, float64(k)/float64(base))
	}
	b.StopTimer()
	for i := 0; i < max(3, min(b.N, 5)); i++ {
		res, err := sim.Run(ctx, []*tensor.Tensor{x, ySim}, o)
		if err != nil {
			b.Fatal(err)
		}
		sk = append(sk, WholeSpan(res.Timeline))
		s, err := opSpan(res.Timeline)
		if err != nil {
			b.Fatal(err)
		}
		so = append(so, s)
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	b.ReportMetric(ms(median(mk)), "mpi-kernel-ms")
	b.ReportMetric(ms(median(sk)), "sim-kernel-ms")
	b.ReportMetric(ms(median(bases)), "MPI_Allreduce-ms")
	b.ReportMetric(ms(median(mo)), "mpi-op-ms")
	b.ReportMetric(ms(median(so)), "sim-op-ms")
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "x-MPI_Allreduce")
	slices.Sort(kratios)
	b.ReportMetric(kratios[len(kratios)/2], "x-MPI-kernel")
}

// BenchmarkSyncMPIDevice8x1Mi runs the synchronisation of the compiled 8 x
// 1 Mi allreduce alone on the MPI device: SyncRoundsProgram with as many
// rounds as each mode's lowering has (mesh 257, ring 896), no data, next to
// MPI_Allreduce timed in the same workers just before each run. With eight
// processes on fewer cores every round must run every process, so this is
// the part of BenchmarkAllReduceMPIDevice8x1Mi's compiled run that no speed
// of the data path removes. The metrics: mpi-sync-ms and sim-sync-ms (the
// kernel's span on the MPI device and on the simulator), MPI_Allreduce-ms,
// and x-MPI_Allreduce (the median of the paired ratios).
func BenchmarkSyncMPIDevice8x1Mi(b *testing.B) {
	ctx := context.Background()
	d := openMPI(b)
	for _, mode := range []string{"mesh", "ring"} {
		b.Run(mode, func(b *testing.B) {
			c, rounds, err := CompileSyncOf(mode, Ranks, Elems)
			if err != nil {
				b.Fatal(err)
			}
			p := c.Final()
			exe, sim := loadBoth(b, d, p)
			o := runtime.RunOptions{Ranks: Ranks, Watchdog: time.Minute}
			if _, err := exe.Run(ctx, nil, o); err != nil { // warm-up, and the pool starts
				b.Fatal(err)
			}
			var ms, ss, bases []time.Duration
			var ratios []float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				base := baseline(ctx, b, d, Ranks)
				bases = append(bases, base)
				res, err := exe.Run(ctx, nil, o)
				if err != nil {
					b.Fatal(err)
				}
				s := WholeSpan(res.Timeline)
				ms = append(ms, s)
				ratios = append(ratios, float64(s)/float64(base))
			}
			b.StopTimer()
			for i := 0; i < max(3, min(b.N, 5)); i++ {
				res, err := sim.Run(ctx, nil, o)
				if err != nil {
					b.Fatal(err)
				}
				ss = append(ss, WholeSpan(res.Timeline))
			}
			msec := func(d time.Duration) float64 { return float64(d) / 1e6 }
			b.ReportMetric(float64(rounds), "rounds")
			b.ReportMetric(msec(median(ms)), "mpi-sync-ms")
			b.ReportMetric(msec(median(ss)), "sim-sync-ms")
			b.ReportMetric(msec(median(bases)), "MPI_Allreduce-ms")
			slices.Sort(ratios)
			b.ReportMetric(ratios[len(ratios)/2], "x-MPI_Allreduce")
		})
	}
}
