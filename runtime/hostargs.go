package runtime

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

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
	return HostArgsSized(p, ranks, seed, nil)
}

// HostArgsSized is HostArgs with the sizes of named dynamic dimensions
// (pl.dynamic("M") → dims["M"]); the other symbols take the rank count. A
// name in dims that no host parameter's shape uses is an error (a typo
// would otherwise size nothing).
func HostArgsSized(p *ir.Program, ranks int, seed int64, dims map[string]int) ([]*tensor.Tensor, []string, error) {
	host, err := hostOf(p)
	if err != nil {
		return nil, nil, err
	}
	used := map[string]bool{}
	size := func(e ir.Expr) (int64, error) {
		if v, ok := e.(*ir.Var); ok {
			used[v.Name] = true
			if n, ok := dims[v.Name]; ok {
				return int64(n), nil
			}
		}
		return int64(ranks), nil
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
			n, err := ir.FoldInt(d, size)
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
	for _, name := range sortedNames(dims) {
		if !used[name] {
			have := sortedNames(used)
			if len(have) == 0 {
				return nil, nil, fmt.Errorf("dimension %s: the host's parameter shapes have no dynamic dimension", name)
			}
			return nil, nil, fmt.Errorf("dimension %s: no host parameter's shape uses it (they use %s)", name, strings.Join(have, ", "))
		}
	}
	return args, names, nil
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ParseDims reads "M=64,N=128" (the --dims flag) into sizes of dynamic
// dimensions.
func ParseDims(s string) (map[string]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	out := map[string]int{}
	for _, kv := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		n, err := strconv.Atoi(strings.TrimSpace(val))
		name = strings.TrimSpace(name)
		if !ok || name == "" || err != nil || n < 1 {
			return nil, fmt.Errorf("dims %q: expected NAME=SIZE pairs with positive sizes, comma-separated (M=64,N=128)", kv)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("dims: %s is given twice", name)
		}
		out[name] = n
	}
	return out, nil
}
