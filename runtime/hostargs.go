package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// HostArgs makes seeded host tensors for p's host orchestrator, one per
// parameter in order: Out parameters zeroed, the others from tensor.Randn
// (seeded by seed and the parameter's position) in the parameter's dtype.
// A dimension's symbols (NR) and pld.system.world_size() take the rank
// count, so [NR, 1, NR * 64] at 4 ranks is [4, 1, 256]. It also returns the
// parameter names.
func HostArgs(p *ir.Program, ranks int, seed int64) ([]*tensor.Tensor, []string, error) {
	host, err := hostOf(p)
	if err != nil {
		return nil, nil, err
	}
	var args []*tensor.Tensor
	var names []string
	for i, v := range host.Params {
		shape, dt, ok := ir.ShapeOf(v.Type())
		if !ok {
			return nil, nil, fmt.Errorf("host parameter %s is %s: only tensors can be filled automatically", v.Name, v.Type())
		}
		dims := make([]int, len(shape))
		for j, d := range shape {
			n, err := ir.FoldInt(d, func(ir.Expr) (int64, error) { return int64(ranks), nil })
			if err != nil || n < 0 {
				return nil, nil, fmt.Errorf("host parameter %s: dimension %d (%s) has no size at %d ranks", v.Name, j, ir.DefaultFormat.Expr(d), ranks)
			}
			dims[j] = int(n)
		}
		t := tensor.Zeros(dt, dims...)
		if host.Direction(i) != ir.Out {
			t = tensor.Randn(seed+int64(i), dims...).To(dt)
		}
		args = append(args, t)
		names = append(names, v.Name)
	}
	return args, names, nil
}
