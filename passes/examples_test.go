package passes_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

// hostArgs makes seeded inputs for p's host orchestrator (runtime.HostArgs).
func hostArgs(t *testing.T, p *ir.Program, n int) []*tensor.Tensor {
	t.Helper()
	args, _, err := runtime.HostArgs(p, n, int64(n))
	require.NoError(t, err)
	return args
}

// The upstream model examples (01–07, the quickstart at two sizes, the tag
// handshakes) give the same host tensors after every pass that changes them
// as written, at P = 2, 3, 4 and 8.
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
		for _, n := range []int{2, 3, 4, 8} {
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

// Seed #1301's three loopback cases give 8, 7 and 1 as written and after
// every pass.
func TestSeed1301LoopbackDifferential(t *testing.T) {
	cases := []struct {
		name string
		slot int
		want float64
		body func(f *pl.Func, slot func(int) pl.Expr)
	}{
		{"atomic_add 5 on slot 3", 3, 8, func(f *pl.Func, slot func(int) pl.Expr) { f.Do(pl.CommNotify(slot(3), 5, "atomic_add")) }},
		{"ge 1 on slot 7", 7, 7, func(f *pl.Func, slot func(int) pl.Expr) { f.Do(pl.CommWait(slot(7), 1, "ge")) }},
		{"+1 then ge 1 on slot 0", 0, 1, func(f *pl.Func, slot func(int) pl.Expr) {
			s := slot(0)
			f.Do(pl.CommNotify(s, 1, "atomic_add"))
			f.Do(pl.CommWait(s, 1, "ge"))
		}},
	}
	sim := runtime.NewSimulator()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			loop := testprogs.Loopback1301(func(f *pl.Func, _ pl.Expr, slot func(int) pl.Expr) { c.body(f, slot) })
			pp := passes.NewPipeline(loop.IR(), verifyHook())
			_, err := pp.Run()
			require.NoError(t, err)
			for _, st := range pp.Stages() {
				if st.Name != "Input" && !st.Changed {
					continue
				}
				sig := tensor.FromInt32([]int32{0, 1, 2, 3, 4, 5, 6, 7}, 1, 1, 8)
				_, err := sim.Run(context.Background(), st.Program, []*tensor.Tensor{sig}, runtime.RunOptions{Ranks: 1})
				require.NoError(t, err, st.Name)
				require.Equal(t, c.want, sig.At(0, 0, c.slot), "after %s", st.Name)
			}
		})
	}
}
