package runtime_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

// ringWatch records what the ring allreduce does to peers.
type ringWatch struct {
	mu       sync.Mutex
	notifies [][2]int // (notifier, target) of cross-rank notifies
	pushes   []runtime.Access
}

func (w *ringWatch) Access(a runtime.Access) {
	if a.Rank != a.Target && a.Call != nil && a.Call.Name() == "pld.tensor.allreduce" {
		w.mu.Lock()
		w.pushes = append(w.pushes, a)
		w.mu.Unlock()
	}
}

func (w *ringWatch) Notify(n runtime.Notification) {
	if n.Rank != n.Cell.Rank && n.Call != nil && n.Call.Name() == "pld.tensor.allreduce" {
		w.mu.Lock()
		w.notifies = append(w.notifies, [2]int{n.Rank, n.Cell.Rank})
		w.mu.Unlock()
	}
}
func (w *ringWatch) Wait(runtime.WaitResult) {}
func (w *ringWatch) End(runtime.RunEnd)      {}

// The native ring allreduce runs as upstream's host builtin ring (#2280):
// every cross-rank write is a push into the right neighbour (a remote
// atomic add for Sum), every barrier notify goes to one of the two ring
// neighbours, and the sums are right.
func TestNativeRingPushesToNeighbours(t *testing.T) {
	for _, n := range []int{2, 3, 4, 8} {
		t.Run(fmt.Sprintf("P=%d", n), func(t *testing.T) {
			w := &ringWatch{}
			x := tensor.Randn(int64(n), n, 1, testprogs.CollectiveCols)
			y := tensor.Zeros(ir.FP32, n, 1, testprogs.CollectiveCols)
			_, err := runtime.NewSimulator().Run(context.Background(), testprogs.HostAllReduceLoopMode(1, "ring").IR(),
				[]*tensor.Tensor{x, y}, runtime.RunOptions{Ranks: n, Observer: w})
			require.NoError(t, err)
			require.NotEmpty(t, w.notifies)
			for _, nt := range w.notifies {
				left, right := (nt[0]+n-1)%n, (nt[0]+1)%n
				require.True(t, nt[1] == left || nt[1] == right, "rank %d notified rank %d", nt[0], nt[1])
			}
			atomic := 0
			for _, a := range w.pushes {
				require.Equal(t, (a.Rank+1)%n, a.Target, "rank %d wrote rank %d's window", a.Rank, a.Target)
				require.NotEqual(t, runtime.Read, a.Kind, "the ring never reads a peer")
				if a.Kind == runtime.Atomic {
					atomic++
				}
			}
			require.Equal(t, n*(n-1), atomic, "one atomic push per rank and reduce-scatter step")
			for r := 0; r < n; r++ {
				for j := 0; j < testprogs.CollectiveCols; j++ {
					sum := 0.0
					for q := 0; q < n; q++ {
						sum += x.At(q, 0, j)
					}
					require.InDelta(t, sum, y.At(r, 0, j), 1e-5)
				}
			}
		})
	}
}
