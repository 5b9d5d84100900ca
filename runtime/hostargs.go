package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// HostArgs makes seeded host tensors for p's host orchestrator, one per
// parameter in order: Out parameters zeroed, the others from tensor.Randn
// (seeded by seed and the parameter's position) in the parameter's dtype.
// A dimension that is not a constant (NR) takes the rank count. It also
// returns the parameter names.
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
			dims[j] = ranks
			if c, ok := ir.ConstValue(d); ok {
				dims[j] = int(c)
			}
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
