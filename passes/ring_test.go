package passes_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

// The ring allreduce after LowerCompositeOps, at P = 2 and 4 over 100
// elements (segments of uneven length): upstream #2280's push model.
func TestRingPushLoweringGolden(t *testing.T) {
	for _, n := range []int{2, 4} {
		t.Run(fmt.Sprintf("P=%d", n), func(t *testing.T) {
			p, err := passes.RunUntil(ringAllReduceOf(n, 100, pl.FP32, pld.Sum, "ring").IR(), "LowerCompositeOps")
			require.NoError(t, err)
			text := printProgram(p)
			golden(t, fmt.Sprintf("allreduce_ring_push_p%d.lowered.py", n), text)
			// Push model: data moves by put into the right neighbour, never
			// by a remote load; a ready and a push-done barrier per
			// sub-chunk of each phase.
			require.Contains(t, text, "pld.tile.put(")
			require.NotContains(t, text, "remote_load")
			for _, v := range []string{"rs_ready_epoch", "rs_read_epoch", "ag_ready_epoch", "ag_read_epoch"} {
				require.Contains(t, text, v+": pl.Scalar[pl.INT32]")
			}
		})
	}
}

// Ring and mesh, lowered, run bit for bit like the native op at P = 2, 3, 4,
// 8 for every ReduceOp; the signal cells end where they started.
func TestAllReduceLoweringBitIdenticalToNative(t *testing.T) {
	sim := runtime.NewSimulator()
	type tc struct {
		mode string
		size int
		dt   pl.DataType
	}
	cases := []tc{{"ring", 100, pl.FP32}, {"mesh", 100, pl.FP32}, {"ring", 77, pl.FP16},
		// Segments of several 16 KiB sub-chunks, the last one partial.
		{"ring", 2*4096*2 + 37, pl.FP32}}
	for _, c := range cases {
		for _, n := range []int{2, 3, 4, 8} {
			for _, op := range []ir.ReduceOp{pld.Sum, pld.Max, pld.Min, pld.Prod} {
				if c.size > 1000 && (n > 3 || op == pld.Min) {
					continue // the large case at P = 2, 3 keeps the test quick
				}
				t.Run(fmt.Sprintf("%s/%s/%d/P=%d/%s", c.mode, c.dt.Name(), c.size, n, op), func(t *testing.T) {
					in := ringAllReduceOf(n, c.size, c.dt, op, c.mode).IR()
					lowered, err := passes.Lower(in)
					require.NoError(t, err)
					args := func() []*tensor.Tensor {
						x := tensor.Randn(int64(31*n+c.size), n, 1, c.size)
						if c.dt != pl.FP32 {
							x = x.To(c.dt)
						}
						return []*tensor.Tensor{x, tensor.Zeros(c.dt, n, 1, c.size)}
					}
					a, b := args(), args()
					ra, err := sim.Run(context.Background(), in, a, runtime.RunOptions{Ranks: n})
					require.NoError(t, err, "native op")
					rb, err := sim.Run(context.Background(), lowered, b, runtime.RunOptions{Ranks: n})
					require.NoError(t, err, "lowered")
					require.True(t, bytes.Equal(a[1].Bytes(), b[1].Bytes()), "not bit-identical:\nnative:  %s\nlowered: %s", a[1], b[1])
					// Every rank holds the same result, and it is the reduction.
					want := a[0].Slice(0).Clone()
					for r := 1; r < n; r++ {
						xr := a[0].Slice(r)
						for i := 0; i < c.size; i++ {
							u, v := want.At(0, i), xr.At(0, i)
							switch op {
							case pld.Sum:
								u += v
							case pld.Max:
								u = max(u, v)
							case pld.Min:
								u = min(u, v)
							case pld.Prod:
								u *= v
							}
							want.Set(u, 0, i)
						}
					}
					tol := 1e-4
					if c.dt == pl.FP16 {
						tol = 2e-2
					}
					for r := 0; r < n; r++ {
						require.True(t, want.AllClose(a[1].Slice(r), tol, tol), "rank %d: %s, want %s", r, a[1].Slice(r), want)
					}
					require.Equal(t, signalValues(ra), signalValues(rb))
					for k, v := range signalValues(rb) {
						require.Zero(t, v, "signal cell %s", k)
					}
				})
			}
		}
	}
}

// The native ring cuts segments where the lowering does.
func TestRingBoundaries(t *testing.T) {
	var b []string
	for i := 0; i <= 4; i++ {
		b = append(b, fmt.Sprint(runtime.RingBoundary(ir.FP32, 100, 4, i)), fmt.Sprint(runtime.RingBoundary(ir.FP16, 77, 4, i)))
	}
	require.Equal(t, "0 0 25 32 50 48 75 64 100 77", strings.Join(b, " "))
}

// The protocol checker finds no race, deadlock risk or signal misuse in the
// ring (native and lowered, mode ring and mesh) or the host rail at P = 2,
// 3, 4, 8.
func TestRingAndHostRailRunClean(t *testing.T) {
	for _, n := range []int{2, 3, 4, 8} {
		progs := map[string]*ir.Program{"host rail": testprogs.HostAllReduceLoop(3).IR()}
		for _, op := range []ir.ReduceOp{pld.Sum, pld.Max} {
			for _, mode := range []string{"ring", "mesh"} {
				progs[fmt.Sprintf("%s %s", mode, op)] = ringAllReduceOf(n, 100, pl.FP32, op, mode).IR()
			}
		}
		for name, in := range progs {
			lowered, err := passes.Lower(in)
			require.NoError(t, err)
			for form, p := range map[string]*ir.Program{"native": in, "lowered": lowered} {
				t.Run(fmt.Sprintf("%s/%s/P=%d", name, form, n), func(t *testing.T) {
					size := 100
					if name == "host rail" {
						size = testprogs.CollectiveCols
					}
					args := []*tensor.Tensor{tensor.Randn(int64(n), n, 1, size), tensor.Zeros(pl.FP32, n, 1, size)}
					_, rep, err := checker.Run(context.Background(), p, args, checker.Options{Ranks: n})
					require.NoError(t, err)
					require.True(t, rep.Clean(), "%s", rep)
				})
			}
		}
	}
}
