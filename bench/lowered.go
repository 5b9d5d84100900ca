package bench

import (
	"fmt"
	"math"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
)

// The lowered allreduce: what a PyPTO user runs. The program holds one
// pld.tensor.allreduce (mode mesh or ring); pl.Compile lowers it through the
// whole pass pipeline into chunked tile loads, puts or remote loads, adds,
// stores, notifies and waits, and c.Run executes that on the simulator with
// the protocol checker attached, exactly as a cell does.

// LoweredAllReduceProgram is x → data window → allreduce(mode, Sum) → y for
// [1, elems] FP32 per rank on ranks ranks. The ring lowering needs a static
// [2(P-1), P] signal, so the program is built for one world size.
func LoweredAllReduceProgram(ranks, elems int, mode string) *pl.Program {
	return testprogs.AllReduceWindow("LoweredAllReduce", ranks, elems, mode, ir.ReduceSum)
}

// Lowered is a compiled lowered allreduce with its inputs.
type Lowered struct {
	Mode         string
	Ranks, Elems int
	X, Y         *tensor.Tensor
	c            *pl.Compiled
	pos          ir.Span // where the allreduce was built: every op of its lowering carries it
}

// NewLowered compiles LoweredAllReduceProgram with pl.Compile(prog,
// pl.Ranks(ranks)).
func NewLowered(mode string, ranks, elems int, seed int64) (*Lowered, error) {
	if ranks < 2 || elems < ranks {
		return nil, fmt.Errorf("bench: the lowered allreduce needs at least 2 ranks and an element per rank, got %d and %d", ranks, elems)
	}
	if mode != "mesh" && mode != "ring" {
		return nil, fmt.Errorf("bench: mode %q: expected mesh or ring", mode)
	}
	prog := LoweredAllReduceProgram(ranks, elems, mode)
	pos, ok := CallPos(prog.IR(), ir.PldTensorAllreduce)
	if !ok {
		return nil, fmt.Errorf("bench: the lowered program has no allreduce")
	}
	c, err := pl.TryCompile(prog, pl.Ranks(ranks))
	if err != nil {
		return nil, err
	}
	return &Lowered{Mode: mode, Ranks: ranks, Elems: elems, c: c, pos: pos,
		X: tensor.Randn(seed, ranks, 1, elems), Y: tensor.Zeros(ir.FP32, ranks, 1, elems)}, nil
}

// Run runs the compiled program once with c.Run, as a user does (the
// protocol checker attached), and returns its wall time.
func (l *Lowered) Run() (time.Duration, error) {
	d, _, err := l.run(false)
	return d, err
}

// RunUnchecked is Run with pl.Ranks(n).Unchecked(): the simulator alone.
func (l *Lowered) RunUnchecked() (time.Duration, error) {
	d, _, err := l.run(true)
	return d, err
}

// RunSpans is Run that also returns the lowered allreduce's own span on the
// run's timeline: from its first op on any rank to its last (SpanAt), the
// part of the run MPI_Allreduce compares with (staging x into the window
// and storing y are not the allreduce).
func (l *Lowered) RunSpans() (whole, coll time.Duration, err error) { return l.run(false) }

func (l *Lowered) run(unchecked bool) (whole, coll time.Duration, err error) {
	// A 64-rank ring runs millions of ops: allow it more than the default 30 s.
	o := pl.Ranks(l.Ranks).Watchdog(10 * time.Minute)
	if unchecked {
		o = o.Unchecked()
	}
	start := time.Now()
	res, err := l.c.Run(o, l.X, l.Y)
	whole = time.Since(start)
	if err != nil {
		return whole, 0, err
	}
	coll, err = SpanAt(res.Timeline(), l.pos, l.Ranks)
	return whole, coll, err
}

// Check verifies every rank's y against the FP32 sum of the ranks' x
// (within FP32 reassociation error: the ring sums in another order).
func (l *Lowered) Check() error {
	x, y := l.X.ViewFloat32(), l.Y.ViewFloat32()
	for j := 0; j < l.Elems; j++ {
		var want, mag float64
		for r := 0; r < l.Ranks; r++ {
			v := float64(x[r*l.Elems+j])
			want += v
			mag += math.Abs(v)
		}
		for r := 0; r < l.Ranks; r++ {
			got := float64(y[r*l.Elems+j])
			if math.Abs(got-want) > 1e-6*float64(l.Ranks)*mag+1e-30 {
				return fmt.Errorf("lowered %s allreduce: rank %d element %d = %g, want %g", l.Mode, r, j, got, want)
			}
		}
	}
	return nil
}

// Measure runs l warmup times untimed, then iters times, checking the
// first timed result: the whole runs and the allreduce's spans in them.
func (l *Lowered) Measure(warmup, iters int) (whole, coll Summary, err error) {
	if iters < 1 {
		return Summary{}, Summary{}, fmt.Errorf("bench: iters must be at least 1")
	}
	for i := 0; i < warmup; i++ {
		if _, err := l.Run(); err != nil {
			return Summary{}, Summary{}, err
		}
	}
	var ds, cs []time.Duration
	for i := 0; i < iters; i++ {
		d, c, err := l.RunSpans()
		if err != nil {
			return Summary{}, Summary{}, err
		}
		if i == 0 {
			if err := l.Check(); err != nil {
				return Summary{}, Summary{}, err
			}
		}
		ds, cs = append(ds, d), append(cs, c)
	}
	return summarise(ds), summarise(cs), nil
}

// The scaling table's shape: 64 Ki FP32 per rank at these world sizes.
var ScalingRanks = []int{2, 4, 8, 16, 32, 64}

// ScalingElems is the per-rank size of the scaling table.
const ScalingElems = 64 << 10
