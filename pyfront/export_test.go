//go:build cgo

package pyfront

// ParseTree is the tree-sitter parse and the copy of its tree, without
// building IR: the benchmarks time it apart.
func ParseTree(src []byte) error {
	_, err := parseNodes(src)
	return err
}
