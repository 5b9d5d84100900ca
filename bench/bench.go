// Package bench compares ptorepl's embedded simulator (package runtime) with
// real peers on the same machine: an 8-rank mesh allreduce of 1 Mi FP32 per
// rank next to OpenMPI's MPI_Allreduce with 8 processes, and the
// simulator's data path next to memcpy bandwidth.
//
// The Go side lives here: the allreduce and get programs (built with
// pl/pld), a runner that times the collective itself from the run's
// timeline, the same mesh algorithm in plain Go (MeshAllReduceGo) as the
// floor, the compiled allreduce (NewLowered) and its synchronisation alone
// (SyncRoundsProgram), the go test benchmarks (BenchmarkAllReduce8x1Mi,
// BenchmarkGet8x1Mi, BenchmarkMeshAllReduceGo8x1Mi, BenchmarkMemcopy, the
// Lowered ones) and the simbench command
// (bench/cmd/simbench) that prints the same numbers as key=value lines. The
// peers are C programs (peers/allreduce_mpi.c, peers/memcpy_bw.c) that
// bench.sh builds and runs; it then prints the comparison table. See
// README.md.
package bench

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// The benchmark's shape: 8 ranks, 1 Mi FP32 (4 MiB) per rank.
const (
	Ranks = 8
	Elems = 1 << 20
)

// Op names the timeline records for the measured collectives.
var (
	opAllReduce = ir.PldTensorAllreduce.Name
	opGet       = ir.PldTensorGet.Name
)

// AllReduceProgram is one rank-local [1, elems] FP32 tensor staged into a
// window, a barrier, pld.tensor.allreduce (mesh, Sum) on that window, a
// second barrier, and the result stored to y. The barriers fence the
// collective: no rank enters it before every rank finished staging, and no
// rank's store of y competes for the two cores while another rank is still
// reducing. The collective's span on the timeline is then the allreduce
// alone, as MPI's barrier-then-time loop measures it.
func AllReduceProgram(elems int) *pl.Program {
	return collProgram("BenchAllReduce", elems, func(f *pl.Func, data, sig pl.Expr) {
		f.Set(data, pld.AllReduce(data, sig))
	})
}

// GetProgram is the raw RMA data path: each rank stages x into its src
// window, a barrier, one pld.tensor.get of the next rank's whole [1, elems]
// src into its own dst window, a barrier again; y is dst.
func GetProgram(elems int) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("BenchGet")
	k := prog.InCore("get_step", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, elems), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, elems), pl.FP32))
		src := f.InOut("src", pld.DistributedTensor(pl.Dims(1, elems), pl.FP32))
		dst := f.InOut("dst", pld.DistributedTensor(pl.Dims(1, elems), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(src))
		next := f.Let("next", pl.Mod(pl.Add(pld.Rank(ctx), 1), pld.NRanks(ctx)))
		f.Set(src, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, elems))), pl.Dims(0, 0), src))
		f.Set(sig, pld.Barrier(sig))
		f.Do(pld.Get(dst, next, src))
		f.Set(sig, pld.Barrier(sig))
		f.Set(y, pl.Store(f.Let("out", pl.Load(dst, pl.Dims(0, 0), pl.Dims(1, elems))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, elems), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, elems), pl.FP32))
		sb := f.Let("src_buf", pld.AllocWindowBuffer(elems*4))
		db := f.Let("dst_buf", pld.AllocWindowBuffer(elems*4))
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r),
				f.Let("src", pld.Window(sb, pl.Dims(1, elems), pl.FP32)),
				f.Let("dst", pld.Window(db, pl.Dims(1, elems), pl.FP32)),
				f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	return prog
}

// collProgram wraps body (run after staging x into the data window and a
// barrier, followed by another barrier) in an InCore kernel and a host orchestrator dispatching it to
// every rank with a [1, elems] FP32 data window and an [NR, 1] signal.
func collProgram(name string, elems int, body func(f *pl.Func, data, sig pl.Expr)) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram(name)
	k := prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, elems), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, elems), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, elems), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		f.Set(data, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, elems))), pl.Dims(0, 0), data))
		f.Set(sig, pld.Barrier(sig))
		body(f, data, sig)
		f.Set(sig, pld.Barrier(sig))
		f.Set(y, pl.Store(f.Let("out", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, elems))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, elems), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, elems), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(elems*4))
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r),
				f.Let("data", pld.Window(db, pl.Dims(1, elems), pl.FP32)),
				f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	return prog
}

// Sample is one timed run.
type Sample struct {
	// Run is the whole program run: host orchestration, staging, the
	// barrier, the collective and the store of the result.
	Run time.Duration
	// Op is the measured collective alone: from the first rank entering it
	// to the last rank leaving it, read from the run's timeline.
	Op time.Duration
}

// Case is a loaded benchmark program with its inputs, runnable many times.
type Case struct {
	Name  string
	Ranks int
	Elems int
	X, Y  *tensor.Tensor // [Ranks, 1, Elems] FP32 input and output

	op  string
	exe runtime.Executable
}

// NewAllReduce loads AllReduceProgram(elems) for ranks ranks with seeded
// normal inputs.
func NewAllReduce(ranks, elems int, seed int64) (*Case, error) {
	return newCase("allreduce", AllReduceProgram(elems), opAllReduce, ranks, elems, seed)
}

// NewGet loads GetProgram(elems) for ranks ranks with seeded normal inputs.
func NewGet(ranks, elems int, seed int64) (*Case, error) {
	return newCase("get", GetProgram(elems), opGet, ranks, elems, seed)
}

func newCase(name string, prog *pl.Program, op string, ranks, elems int, seed int64) (*Case, error) {
	if ranks < 2 || elems < 1 {
		return nil, fmt.Errorf("bench: need at least 2 ranks and 1 element, got %d and %d", ranks, elems)
	}
	exe, err := runtime.NewSimulator().Load(prog.IR())
	if err != nil {
		return nil, err
	}
	return &Case{
		Name: name, Ranks: ranks, Elems: elems,
		X:  tensor.Randn(seed, ranks, 1, elems),
		Y:  tensor.Zeros(ir.FP32, ranks, 1, elems),
		op: op, exe: exe,
	}, nil
}

// Run runs the program once and times it. The timeline is kept (the
// programs record a handful of events per rank) because the collective's
// span is read from it.
func (c *Case) Run(ctx context.Context) (Sample, error) {
	start := time.Now()
	res, err := c.exe.Run(ctx, []*tensor.Tensor{c.X, c.Y}, runtime.RunOptions{Ranks: c.Ranks})
	run := time.Since(start)
	if err != nil {
		return Sample{}, err
	}
	op, err := Span(res.Timeline, c.op, c.Ranks)
	if err != nil {
		return Sample{}, err
	}
	return Sample{Run: run, Op: op}, nil
}

// CallPos is where the first call of op in p was built (false when p has
// none).
func CallPos(p *ir.Program, op *ir.OpDef) (ir.Span, bool) {
	var pos ir.Span
	found := false
	for _, f := range p.Functions {
		ir.WalkStmt(f.Body, func(e ir.Expr) {
			if c, ok := e.(*ir.Call); ok && c.Op == op && !found {
				pos, found = c.Pos, true
			}
		}, nil)
	}
	return pos, found
}

// SpanAt is the wall time from the first rank starting an op built at pos
// to the last rank finishing one. After LowerCompositeOps every op of a
// collective's recipe carries the collective's position, so this is the
// lowered collective from its first op to its last, as the collective's
// own span times the op as written.
func SpanAt(tl *runtime.Timeline, pos ir.Span, ranks int) (time.Duration, error) {
	if tl == nil {
		return 0, fmt.Errorf("bench: the run kept no timeline")
	}
	var first, last time.Duration
	n := 0
	for r := 0; r < ranks; r++ {
		for _, ev := range tl.PerRank(r) {
			if ev.Pos != pos {
				continue
			}
			if n == 0 || ev.Start < first {
				first = ev.Start
			}
			last = max(last, ev.End)
			n++
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("bench: no op of the run was built at %s", pos)
	}
	return last - first, nil
}

// Span is the wall time from the first rank starting op to the last rank
// finishing it; every one of ranks ranks must have run op exactly once.
func Span(tl *runtime.Timeline, op string, ranks int) (time.Duration, error) {
	if tl == nil {
		return 0, fmt.Errorf("bench: the run kept no timeline")
	}
	var first, last time.Duration
	seen := false
	for r := 0; r < ranks; r++ {
		n := 0
		for _, ev := range tl.PerRank(r) {
			if ev.Op != op {
				continue
			}
			n++
			if !seen || ev.Start < first {
				first, seen = ev.Start, true
			}
			if ev.End > last {
				last = ev.End
			}
		}
		if n != 1 {
			return 0, fmt.Errorf("bench: rank %d ran %s %d times, want once", r, op, n)
		}
	}
	return last - first, nil
}

// PeerBytes is how many bytes one run's collective delivers from one rank
// to another: a mesh allreduce has every rank read each of its ranks-1 peers'
// whole buffer, a get reads one peer's buffer. Local reads and writes are
// not counted.
func (c *Case) PeerBytes() int64 {
	per := int64(c.Elems) * 4
	if c.op == opGet {
		return int64(c.Ranks) * per
	}
	return int64(c.Ranks) * int64(c.Ranks-1) * per
}

// Check verifies c.Y after a run: the sum over ranks of X for allreduce
// (within FP32 rounding of the summation order), the next rank's X exactly
// for get.
func (c *Case) Check() error {
	x, y := c.X.ViewFloat32(), c.Y.ViewFloat32()
	n := c.Elems
	for r := 0; r < c.Ranks; r++ {
		for i := 0; i < n; i++ {
			got := float64(y[r*n+i])
			if c.op == opGet {
				if want := x[((r+1)%c.Ranks)*n+i]; float32(got) != want {
					return fmt.Errorf("rank %d element %d: got %g, want rank %d's %g", r, i, got, (r+1)%c.Ranks, want)
				}
				continue
			}
			var want, mag float64
			for s := 0; s < c.Ranks; s++ {
				v := float64(x[s*n+i])
				want += v
				mag += math.Abs(v)
			}
			// Each of the ranks-1 FP32 additions rounds by at most half an
			// ulp of a partial sum bounded by mag.
			if tol := float64(c.Ranks) * mag * 0x1p-24; math.Abs(got-want) > tol {
				return fmt.Errorf("rank %d element %d: got %g, want %g (±%g)", r, i, got, want, tol)
			}
		}
	}
	return nil
}

// Stats summarises samples.
type Stats struct {
	N               int
	Run, Op         Summary // whole program run; the collective alone
	PeerBytesPerRun int64
}

// Summary is the spread of one duration over the timed runs. The median is
// the headline: this machine is shared, and a stray neighbour inflates the
// mean.
type Summary struct {
	Mean, Median, Min, Max time.Duration
}

// BytesPerSecond is bytes over the median time.
func (s Summary) BytesPerSecond(bytes int64) float64 { return float64(bytes) / s.Median.Seconds() }

func summarise(ds []time.Duration) Summary {
	sorted := slices.Clone(ds)
	slices.Sort(sorted)
	var sum time.Duration
	for _, d := range sorted {
		sum += d
	}
	n := len(sorted)
	med := sorted[n/2]
	if n%2 == 0 {
		med = (sorted[n/2-1] + sorted[n/2]) / 2
	}
	return Summary{Mean: sum / time.Duration(n), Median: med, Min: sorted[0], Max: sorted[n-1]}
}

// Measure runs c warmup times untimed, then iters times, checking the
// result after the first timed run.
func (c *Case) Measure(ctx context.Context, warmup, iters int) (Stats, error) {
	if iters < 1 {
		return Stats{}, fmt.Errorf("bench: iters must be at least 1")
	}
	for i := 0; i < warmup; i++ {
		if _, err := c.Run(ctx); err != nil {
			return Stats{}, err
		}
	}
	var run, op []time.Duration
	for i := 0; i < iters; i++ {
		s, err := c.Run(ctx)
		if err != nil {
			return Stats{}, err
		}
		if i == 0 {
			if err := c.Check(); err != nil {
				return Stats{}, err
			}
		}
		run = append(run, s.Run)
		op = append(op, s.Op)
	}
	return Stats{N: iters, Run: summarise(run), Op: summarise(op), PeerBytesPerRun: c.PeerBytes()}, nil
}

// MeshAllReduceGo is the simulator's mesh algorithm written directly in Go,
// without the simulator: one goroutine per rank sums every rank's buffer
// (its own first) into a private accumulator in FP32, all ranks wait until
// nobody reads any more, then each writes its sum back over its own buffer.
// It is the floor the simulator's allreduce could reach on this machine
// with the same algorithm; acc must hold len(bufs) buffers of the same
// length as bufs.
func MeshAllReduceGo(bufs, acc [][]float32) {
	n := len(bufs)
	var reduced, done sync.WaitGroup
	reduced.Add(n)
	done.Add(n)
	for r := 0; r < n; r++ {
		go func(r int) {
			defer done.Done()
			a := acc[r]
			copy(a, bufs[r])
			for p := 1; p < n; p++ {
				src := bufs[(r+p)%n]
				src = src[:len(a)]
				for i := range a {
					a[i] += src[i]
				}
			}
			reduced.Done()
			reduced.Wait() // nobody still reads my buffer
			copy(bufs[r], a)
		}(r)
	}
	done.Wait()
}

// MeasureMeshGo times MeshAllReduceGo on ranks buffers of elems FP32 after
// warmup untimed calls; inputs are small integers so every sum is exact, and
// the first timed call's result is checked.
func MeasureMeshGo(ranks, elems, warmup, iters int) (Summary, error) {
	if ranks < 2 || elems < 1 || iters < 1 {
		return Summary{}, fmt.Errorf("bench: need at least 2 ranks, 1 element and 1 iteration")
	}
	bufs, acc := make([][]float32, ranks), make([][]float32, ranks)
	fill := func() {
		for r := range bufs {
			for i := range bufs[r] {
				bufs[r][i] = float32((r + 1) * (i%7 + 1))
			}
		}
	}
	for r := range bufs {
		bufs[r], acc[r] = make([]float32, elems), make([]float32, elems)
	}
	fill()
	for i := 0; i < warmup; i++ {
		MeshAllReduceGo(bufs, acc)
	}
	var ds []time.Duration
	for i := 0; i < iters; i++ {
		fill() // sums of sums would overflow into inexact FP32 after a few calls
		start := time.Now()
		MeshAllReduceGo(bufs, acc)
		ds = append(ds, time.Since(start))
		if i == 0 {
			ranksum := float32(ranks * (ranks + 1) / 2)
			for r := range bufs {
				for j, v := range bufs[r] {
					if want := ranksum * float32(j%7+1); v != want {
						return Summary{}, fmt.Errorf("bench: MeshAllReduceGo rank %d element %d: got %g, want %g", r, j, v, want)
					}
				}
			}
		}
	}
	return summarise(ds), nil
}
