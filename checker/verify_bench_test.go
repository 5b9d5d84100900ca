package checker_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
)

// benchVerifyBudget caps every exploration of BenchmarkVerify, so the full
// enumerations finish; a capped one reports complete=0 and its schedule
// count is a lower bound.
const benchVerifyBudget = 5000

// BenchmarkVerify is exhaustive exploration per program at P = 2, 3, 4,
// with the partial-order reduction (dpor) and without it (full: every
// interleaving of the synchronising events). Each iteration is one whole
// verification; it reports the schedules checked, the runs pruned and
// whether the exploration completed within the budget. The reduction
// factor is full's schedules over dpor's (a lower bound when full did not
// complete). Run with -benchtime=1x: one iteration is the measurement.
func BenchmarkVerify(b *testing.B) {
	for _, n := range []int{2, 3, 4} {
		mesh := func(size int) func() []*tensor.Tensor { return meshArgs(n, size) }
		var reuse *pl.Program
		for _, c := range collectives(n) {
			if c.name == "reuse: allreduce, barrier, allreduce" {
				reuse = c.prog
			}
		}
		ring, err := pl.TryCompile(testprogs.AllReduceWindow("LoweredRing", n, 8*n, "ring", pld.Sum), pl.Ranks(n))
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name string
			prog *ir.Program
			args func() []*tensor.Tensor
		}{
			{"quickstart", quickstart(64).IR(), mesh(64)},
			{"barrier-hand", barrierHand().IR(), func() []*tensor.Tensor { return []*tensor.Tensor{tensor.Zeros(ir.INT32, n, n, 1)} }},
			{"ring-put", ringProgram("put", false).IR(), mesh(64)},
			{"allreduce-mesh", allreduceBuiltin(64).IR(), mesh(64)},
			{"seed1746", seed1746(64, true).IR(), mesh(64)},
			{"reuse", reuse.IR(), func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.Randn(int64(n+1), n, 1, S), tensor.Zeros(ir.FP32, n, n, S)}
			}},
			{"ring-lowered", ring.Final(), func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.Randn(5, n, 1, 8*n), tensor.Zeros(ir.FP32, n, 1, 8*n)}
			}},
		} {
			for _, reduce := range []bool{true, false} {
				mode := "dpor"
				if !reduce {
					mode = "full"
				}
				b.Run(fmt.Sprintf("%s/P=%d/%s", c.name, n, mode), func(b *testing.B) {
					var v *checker.Verification
					for i := 0; i < b.N; i++ {
						var err error
						v, err = checker.Verify(context.Background(), c.prog, c.args, checker.VerifyOptions{Ranks: n, Budget: benchVerifyBudget, NoReduction: !reduce})
						if err != nil {
							b.Fatal(err)
						}
						if v.Failure != "" {
							b.Fatal(v.Failure)
						}
					}
					b.ReportMetric(float64(v.Schedules), "schedules")
					b.ReportMetric(float64(v.Pruned), "pruned")
					complete := 0.0
					if v.Complete {
						complete = 1
					}
					b.ReportMetric(complete, "complete")
				})
			}
		}
	}
}
