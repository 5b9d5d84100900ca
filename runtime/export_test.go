package runtime

import "github.com/ptorepl/ptorepl/ir"

// LoadGeneric loads p with every op call site on its op's generic
// semantics (no compiled kernels), so tests outside the package can
// compare the kernels with them.
func LoadGeneric(p *ir.Program) (Executable, error) { return NewSimulator().loadGeneric(p) }

// Visibility answers the relaxed mode's visibility choices with f (kind 0:
// drain, 1: stale read; see visKind), so tests outside the package can
// steer them.
func Visibility(o RunOptions, f func(rank, kind, options int) int) RunOptions {
	o.visibility = func(rank int, kind visKind, options int) int { return f(rank, int(kind), options) }
	return o
}
