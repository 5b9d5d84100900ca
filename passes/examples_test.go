package passes_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ptorepl/ptorepl/internal/testprogs"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// hostArgs makes seeded inputs for p's host orchestrator: In tensors random,
// Out tensors zero, dynamic dimensions equal to the rank count.
func hostArgs(t *testing.T, p *ir.Program, n int) []*tensor.Tensor {
	t.Helper()
	var host *ir.Function
	for _, f := range p.Functions {
		if f.IsHostOrchestrator() {
			host = f
		}
	}
	require.NotNil(t, host)
	var args []*tensor.Tensor
	for i, v := range host.Params {
		shape, dt, ok := ir.ShapeOf(v.Type())
		require.True(t, ok, "host parameter %s", v.Name)
		dims := make([]int, len(shape))
		for j, d := range shape {
			dims[j] = n
			if c, ok := ir.ConstValue(d); ok {
				dims[j] = int(c)
			}
		}
		a := tensor.Zeros(dt, dims...)
		if host.Direction(i) != ir.Out {
			a = tensor.Randn(int64(7*i+n), dims...).To(dt)
		}
		args = append(args, a)
	}
	return args
}

// The upstream model examples (01–07, the quickstart at two sizes, the tag
// handshakes) give the same host tensors after every pass that changes them
// as written, at P = 2, 3 and 4.
func TestExamplesDifferential(t *testing.T) {
	progs := map[string]func() *pl.Program{
		"01_hello_rank":        func() *pl.Program { return testprogs.RankProgram(false) },
		"02_programming_model": func() *pl.Program { return testprogs.RankProgram(true) },
		"03_window_buffer":     testprogs.WindowProgram,
		"04_barrier_hand":      testprogs.BarrierHandProgram,
		"04_barrier_builtin":   testprogs.BarrierBuiltinProgram,
		"quickstart_3":         func() *pl.Program { return testprogs.QuickstartSized(3) },
		"quickstart_256":       func() *pl.Program { return testprogs.QuickstartSized(256) },
		"tag_handshake_set":    func() *pl.Program { return testprogs.TagProgram(true) },
		"tag_handshake_add":    func() *pl.Program { return testprogs.TagProgram(false) },
		"05_ring_put":          func() *pl.Program { return testprogs.RingProgram("put") },
		"06_ring_get":          func() *pl.Program { return testprogs.RingProgram("get") },
		"07_ring_remote_store": func() *pl.Program { return testprogs.RingProgram("store") },
		"07_ring_remote_load":  func() *pl.Program { return testprogs.RingProgram("load") },
	}
	sim := runtime.NewSimulator()
	for name, build := range progs {
		for _, n := range []int{2, 3, 4} {
			t.Run(fmt.Sprintf("%s/P=%d", name, n), func(t *testing.T) {
				in := build().IR()
				pp := passes.NewPipeline(in, verifyHook())
				_, err := pp.Run()
				require.NoError(t, err)
				want := hostArgs(t, in, n)
				_, err = sim.Run(context.Background(), in, want, runtime.RunOptions{Ranks: n})
				require.NoError(t, err, "as written")
				for _, st := range pp.Stages()[1:] {
					if !st.Changed {
						continue
					}
					got := hostArgs(t, in, n)
					_, err := sim.Run(context.Background(), st.Program, got, runtime.RunOptions{Ranks: n})
					require.NoError(t, err, "after %s", st.Name)
					for i := range got {
						require.True(t, want[i].AllClose(got[i], 1e-5, 1e-6), "after %s host tensor %d differs", st.Name, i)
					}
				}
			})
		}
	}
}
