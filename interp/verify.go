package interp

import (
	"context"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// VerifyRandom explores the schedules of p on ranks simulated ranks with
// random host inputs (as :run makes them), within budget runs (0: the
// default), for the REPL's :verify.
func VerifyRandom(ctx context.Context, p *ir.Program, ranks, budget int) (*checker.Verification, error) {
	args, _, err := runtime.HostArgs(p, ranks, 1)
	if err != nil {
		return nil, err
	}
	fresh := func() []*tensor.Tensor {
		c := make([]*tensor.Tensor, len(args))
		for i, a := range args {
			c[i] = a.Clone()
		}
		return c
	}
	return checker.Verify(ctx, p, fresh, checker.VerifyOptions{Ranks: ranks, Budget: budget})
}
