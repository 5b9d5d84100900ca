//go:build cgo

package pyfront

import "fmt"

// ParseTree is the tree-sitter parse and the copy of its tree, without
// building IR: the benchmarks time it apart.
func ParseTree(src []byte) error {
	_, err := parseNodes(src)
	return err
}

// Sexp is the syntax tree of src (debug aid).
func Sexp(src []byte) string {
	root, err := parseNodes(src)
	if err != nil {
		return err.Error()
	}
	var b []byte
	var walk func(n *node, d int)
	walk = func(n *node, d int) {
		for i := 0; i < d; i++ {
			b = append(b, ' ', ' ')
		}
		flag := ""
		if n.IsMissing() {
			flag = " MISSING"
		}
		if n.HasError() {
			flag += " E"
		}
		b = append(b, fmt.Sprintf("%s%s %d:%d %q\n", n.Kind(), flag, n.row+1, n.col+1, string(src[n.start:n.end]))...)
		for i := uint(0); i < n.ChildCount(); i++ {
			walk(n.Child(i), d+1)
		}
	}
	walk(root, 0)
	return string(b)
}
