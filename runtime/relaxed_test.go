package runtime_test

import (
	"context"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

func weakProgram(t *testing.T, name string) *ir.Program {
	for _, p := range testprogs.WeakMemoryBugs() {
		if p.Name == name {
			return p.Build().IR()
		}
	}
	t.Fatalf("no corpus program %s", name)
	return nil
}

// weakRun runs a corpus program on 2 ranks (x row r holds r+1) and returns
// rank 1's y row, with the visibility choices answered by choose (nil: the
// default policy) and the choices it was offered.
func weakRun(t *testing.T, name string, relaxed bool, choose func(rank, kind, options int) int) []float32 {
	v := make([]float32, 2*testprogs.WeakCols)
	for i := range v {
		v[i] = float32(i/testprogs.WeakCols + 1)
	}
	args := []*tensor.Tensor{tensor.FromFloat32(v, 2, 1, testprogs.WeakCols), tensor.Zeros(ir.FP32, 2, 1, testprogs.WeakCols)}
	o := runtime.RunOptions{Ranks: 2, Relaxed: relaxed}
	if choose != nil {
		o = runtime.Visibility(o, choose)
	}
	_, err := runtime.NewSimulator().Run(context.Background(), weakProgram(t, name), args, o)
	require.NoError(t, err)
	return args[1].Float32s()[testprogs.WeakCols:]
}

// Every visibility decision goes through the one chooser: a read of a
// cached line whose bytes changed is offered as a stale-read choice, and
// the answer decides what the read returns.
func TestVisibilityChooserDecidesStaleReads(t *testing.T) {
	all := func(y []float32, want float32) {
		for _, v := range y {
			require.Equal(t, want, v)
		}
	}
	// PeekThenWait: rank 1 adds its read of the slot before the exchange
	// (zero) to its read after it (rank 0's 1s, or the stale zero).
	all(weakRun(t, "PeekThenWait", false, nil), 1)
	all(weakRun(t, "PeekThenWait", true, nil), 0) // default: the stale line is served
	var offered []int
	fresh := func(rank, kind, options int) int {
		offered = append(offered, kind)
		if kind == 1 {
			return 0 // refetch
		}
		return options - 1
	}
	all(weakRun(t, "PeekThenWait", true, fresh), 1)
	require.Contains(t, offered, 1, "the stale read was offered")
	require.Contains(t, offered, 0, "drains were offered")
}

// A chooser that drains every write at once makes the relaxed run
// sequentially consistent in effect: the unfenced store still arrives
// before the notify that publishes it.
func TestVisibilityChooserDrains(t *testing.T) {
	eager := func(rank, kind, options int) int {
		if kind == 0 {
			return 0 // drain the oldest pending write now
		}
		return 0
	}
	for _, v := range weakRun(t, "StoreThenNotify", true, eager) {
		require.Equal(t, float32(1), v)
	}
}

// The seeded policy's choices replay with the seed, and differ between
// seeds: over a few seeds the stale line is served in some runs and
// refetched in others.
func TestSeededVisibilityPolicy(t *testing.T) {
	seen := map[float32]bool{}
	for seed := int64(1); seed <= 12; seed++ {
		run := func() float32 {
			v := make([]float32, 2*testprogs.WeakCols)
			for i := range v {
				v[i] = float32(i/testprogs.WeakCols + 1)
			}
			args := []*tensor.Tensor{tensor.FromFloat32(v, 2, 1, testprogs.WeakCols), tensor.Zeros(ir.FP32, 2, 1, testprogs.WeakCols)}
			_, err := runtime.NewSimulator().Run(context.Background(), weakProgram(t, "PeekThenWait"), args, runtime.RunOptions{Ranks: 2, Relaxed: true, Seed: seed})
			require.NoError(t, err)
			return args[1].Float32s()[testprogs.WeakCols]
		}
		a := run()
		require.Equal(t, a, run(), "seed %d replays", seed)
		seen[a] = true
	}
	require.True(t, seen[0] && seen[1], "both the stale and the fresh line over the seeds: %v", seen)
}
