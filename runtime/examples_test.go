package runtime_test

import (
	"context"
	"fmt"
	"github.com/ptorepl/ptorepl/testprogs"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// run executes prog on n simulated ranks (tests call the device directly so
// they do not depend on pl.Run's option surface).
func run(t testing.TB, prog *pl.Program, n int, args ...*tensor.Tensor) (*runtime.Result, error) {
	t.Helper()
	return runtime.NewSimulator().Run(context.Background(), prog.IR(), args, runtime.RunOptions{Ranks: n, Watchdog: 10 * time.Second})
}

func mustRun(t testing.TB, prog *pl.Program, n int, args ...*tensor.Tensor) *runtime.Result {
	t.Helper()
	res, err := run(t, prog, n, args...)
	require.NoError(t, err)
	return res
}

var ranksToTest = []int{2, 3, 4}

// forward defines a per-device orchestration that forwards its parameters
// to kernel k, as every upstream example does (the host dispatches this,
// never a kernel).

// --- 01_hello_rank and 02_programming_model: y = x + rank, y = x*rank + x.

func rankProgram(model bool) *pl.Program {
	return testprogs.RankProgram(model)
}

func TestExample01HelloRankAnd02Model(t *testing.T) {
	for _, model := range []bool{false, true} {
		for _, n := range []int{2, 3, 4, 8} {
			t.Run(fmt.Sprintf("model=%v/P=%d", model, n), func(t *testing.T) {
				x := tensor.Randn(1, n, 8, 8)
				y := tensor.Zeros(ir.FP32, n, 8, 8)
				res := mustRun(t, rankProgram(model), n, x, y)
				require.Same(t, y, res.Outputs[0], "Out host tensors are filled in place")
				for r := 0; r < n; r++ {
					want := x.Slice(r).Clone()
					for i := 0; i < 8; i++ {
						for j := 0; j < 8; j++ {
							v := want.At(i, j)
							if model {
								want.Set(float64(float32(float32(v)*float32(r))+float32(v)), i, j)
							} else {
								want.Set(float64(float32(v)+float32(r)), i, j)
							}
						}
					}
					require.True(t, y.Slice(r).AllClose(want, 1e-5, 1e-5), "rank %d", r)
				}
			})
		}
	}
}

// --- 03_window_buffer: store into my window, load it back.

func windowProgram() *pl.Program {
	return testprogs.WindowProgram()
}

func TestExample03WindowBuffer(t *testing.T) {
	for _, n := range ranksToTest {
		x := tensor.Randn(3, n, 1, 256)
		y := tensor.Zeros(ir.FP32, n, 1, 256)
		mustRun(t, windowProgram(), n, x, y)
		require.True(t, y.Equal(x), "P=%d", n)
	}
}

// --- 04_barrier, default mode: a hand-rolled barrier, then each rank
// scalar-reads its signal cells into y.

func barrierHandProgram() *pl.Program {
	return testprogs.BarrierHandProgram()
}

func TestExample04BarrierHandRolled(t *testing.T) {
	for _, n := range []int{2, 3, 4, 8} {
		y := tensor.Zeros(ir.INT32, n, n, 1)
		res := mustRun(t, barrierHandProgram(), n, y)
		for r := 0; r < n; r++ {
			for i := 0; i < n; i++ {
				want := 1.0
				if i == r {
					want = 0
				}
				require.Equal(t, want, y.At(r, i, 0), "P=%d y[%d,%d]", n, r, i)
			}
		}
		if n == 2 {
			require.Equal(t, []int32{0, 1, 1, 0}, y.Int32s()) // [[[0],[1]],[[1],[0]]]
		}
		// Single-writer cells end at 1: the hand barrier leaves its tally.
		require.Len(t, res.Signals, n*(n-1))
		for _, c := range res.Signals {
			require.Equal(t, int64(1), c.Value)
		}
	}
}

// --- 04_barrier --use-builtin: stage, pld.tensor.barrier, remote_load next.

func barrierBuiltinProgram() *pl.Program {
	return testprogs.BarrierBuiltinProgram()
}

func TestExample04BarrierBuiltin(t *testing.T) {
	for _, n := range []int{2, 3, 4, 8} {
		x := tensor.Randn(4, n, 1, 64)
		y := tensor.Zeros(ir.FP32, n, 1, 64)
		res := mustRun(t, barrierBuiltinProgram(), n, x, y)
		for r := 0; r < n; r++ {
			require.True(t, y.Slice(r).Equal(x.Slice((r+1)%n)), "P=%d rank %d", n, r)
		}
		for _, c := range res.Signals {
			require.Zero(t, c.Value, "the builtin barrier leaves no tally: %+v", c)
		}
	}
}

// --- 05_remote_load_store and 06/07_put_get: one ring step.

func ringProgram(mode string) *pl.Program {
	return testprogs.RingProgram(mode)
}

// model.md §5–7: put and remote_store shift data to the next rank
// (y[r] = x[r-1]); get and remote_load read the next rank (y[r] = x[r+1]).
// 07_dynamic_rank_count is the same programs at P = 2, 3, 4 (NR is dynamic).
func TestExamples05to07Ring(t *testing.T) {
	for _, mode := range []string{"load", "store", "put", "get"} {
		for _, n := range []int{2, 3, 4, 8, 16} {
			t.Run(fmt.Sprintf("%s/P=%d", mode, n), func(t *testing.T) {
				x := tensor.Randn(int64(n), n, 1, 64)
				y := tensor.Zeros(ir.FP32, n, 1, 64)
				mustRun(t, ringProgram(mode), n, x, y)
				for r := 0; r < n; r++ {
					from := (r + 1) % n
					if mode == "put" || mode == "store" {
						from = (r + n - 1) % n
					}
					require.True(t, y.Slice(r).Equal(x.Slice(from)), "rank %d should hold x[%d]", r, from)
				}
			})
		}
	}
}

// --- the quickstart allreduce (dsl.md), verbatim in structure.

func quickstart(size int) *pl.Program {
	return testprogs.QuickstartSized(size)
}

func TestQuickstartAllReduce(t *testing.T) {
	// The documented example: [[1,2,3]] and [[10,20,30]] → [[11,22,33]] on both.
	x := tensor.FromFloat32([]float32{1, 2, 3, 10, 20, 30}, 2, 1, 3)
	y := tensor.Zeros(ir.FP32, 2, 1, 3)
	mustRun(t, quickstart(3), 2, x, y)
	require.Equal(t, []float32{11, 22, 33, 11, 22, 33}, y.Float32s())

	for _, n := range []int{2, 3, 4, 8, 64} {
		t.Run(fmt.Sprintf("P=%d", n), func(t *testing.T) {
			x := tensor.Randn(int64(n), n, 1, 256)
			y := tensor.Zeros(ir.FP32, n, 1, 256)
			mustRun(t, quickstart(256), n, x, y)
			for j := 0; j < 256; j++ {
				var sum float64
				for s := 0; s < n; s++ {
					sum += x.At(s, 0, j)
				}
				for r := 0; r < n; r++ {
					require.InDelta(t, sum, y.At(r, 0, j), 1e-5*float64(n)+1e-5, "rank %d elem %d", r, j)
				}
			}
		})
	}
}

// --- 02-primitives.md tag handshake and test_l3_notify_wait: the value a
// notify carries is what the receiver reads.

func tagProgram(set bool) *pl.Program {
	return testprogs.TagProgram(set)
}

func TestTagHandshakeAndL3NotifyWait(t *testing.T) {
	y := tensor.Zeros(ir.INT32, 2, 1, 1)
	mustRun(t, tagProgram(true), 2, y)
	require.Equal(t, []int32{1, 2}, y.Int32s())

	y = tensor.Zeros(ir.INT32, 2, 1, 1)
	mustRun(t, tagProgram(false), 2, y)
	require.Equal(t, []int32{2, 1}, y.Int32s())
}
