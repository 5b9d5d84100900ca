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
	c, err := pl.TryCompile(LoweredAllReduceProgram(ranks, elems, mode), pl.Ranks(ranks))
	if err != nil {
		return nil, err
	}
	return &Lowered{Mode: mode, Ranks: ranks, Elems: elems, c: c,
		X: tensor.Randn(seed, ranks, 1, elems), Y: tensor.Zeros(ir.FP32, ranks, 1, elems)}, nil
}

// Run runs the compiled program once with c.Run, as a user does (the
// protocol checker attached), and returns its wall time.
func (l *Lowered) Run() (time.Duration, error) { return l.run(false) }

// RunUnchecked is Run with pl.Ranks(n).Unchecked(): the simulator alone.
func (l *Lowered) RunUnchecked() (time.Duration, error) { return l.run(true) }

func (l *Lowered) run(unchecked bool) (time.Duration, error) {
	// A 64-rank ring runs millions of ops: allow it more than the default 30 s.
	o := pl.Ranks(l.Ranks).Watchdog(10 * time.Minute)
	if unchecked {
		o = o.Unchecked()
	}
	start := time.Now()
	_, err := l.c.Run(o, l.X, l.Y)
	return time.Since(start), err
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
// first timed result.
func (l *Lowered) Measure(warmup, iters int) (Summary, error) {
	if iters < 1 {
		return Summary{}, fmt.Errorf("bench: iters must be at least 1")
	}
	for i := 0; i < warmup; i++ {
		if _, err := l.Run(); err != nil {
			return Summary{}, err
		}
	}
	var ds []time.Duration
	for i := 0; i < iters; i++ {
		d, err := l.Run()
		if err != nil {
			return Summary{}, err
		}
		if i == 0 {
			if err := l.Check(); err != nil {
				return Summary{}, err
			}
		}
		ds = append(ds, d)
	}
	return summarise(ds), nil
}

// The scaling table's shape: 64 Ki FP32 per rank at these world sizes.
var ScalingRanks = []int{2, 4, 8, 16, 32, 64}

// ScalingElems is the per-rank size of the scaling table.
const ScalingElems = 64 << 10
