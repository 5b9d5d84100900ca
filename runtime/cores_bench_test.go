package runtime_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
)

// BenchmarkCoresDispatch times a run of 16 deferred waiters, their 16
// consumers and a publisher per rank (49 tasks on each of 4 ranks) on 1, 4
// and 16 cores: the cost of the core accounting and of a goroutine per task.
func BenchmarkCoresDispatch(b *testing.B) {
	prog := testprogs.Saturating(16, true, false).IR()
	exe, err := runtime.NewSimulator().Load(prog)
	if err != nil {
		b.Fatal(err)
	}
	for _, cores := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("cores=%d", cores), func(b *testing.B) {
			y := tensor.Zeros(ir.INT32, 4, 16, 1, 1)
			for i := 0; i < b.N; i++ {
				if _, err := exe.Run(context.Background(), []*tensor.Tensor{y}, runtime.RunOptions{Ranks: 4, Cores: cores, Watchdog: time.Minute, MaxEvents: -1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
