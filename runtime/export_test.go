package runtime

// TreeWalk selects the tree-walking executor for device code, so tests
// outside the package can compare it with the compiled one.
func TreeWalk(o RunOptions) RunOptions {
	o.treeWalk = true
	return o
}

// Visibility answers the relaxed mode's visibility choices with f (kind 0:
// drain, 1: stale read; see visKind), so tests outside the package can
// steer them.
func Visibility(o RunOptions, f func(rank, kind, options int) int) RunOptions {
	o.visibility = func(rank int, kind visKind, options int) int { return f(rank, int(kind), options) }
	return o
}
