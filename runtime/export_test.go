package runtime

// TreeWalk selects the tree-walking executor for device code, so tests
// outside the package can compare it with the compiled one.
func TreeWalk(o RunOptions) RunOptions {
	o.treeWalk = true
	return o
}
