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

// SplitAgrees parses src split at up to max candidate lines (spread over
// the file) and compares each joined tree with the whole parse. It
// returns how many split lines it tried and how many gave a joined tree
// (the others fell back); a difference is an error.
func SplitAgrees(src []byte, max int) (tried, joined int, err error) {
	whole, err := parseFlat(src, nil, nil)
	if err != nil {
		return 0, 0, err
	}
	step := len(src) / (max + 1)
	if step < 1 {
		step = 1
	}
	last := -1
	for from := step; from < len(src) && tried < max; from += step {
		at, heads := findSplit(src, from)
		if at < 0 || at == last {
			continue
		}
		last = at
		tried++
		got, ok := parseAt(src, at, heads)
		if !ok {
			continue
		}
		joined++
		if len(got) != len(whole) {
			return tried, joined, fmt.Errorf("split at byte %d: %d nodes, the whole parse has %d", at, len(got), len(whole))
		}
		for i := range got {
			g, w := got[i], whole[i]
			g.self, g.lastAll, g.lastAllAt, g.lastNamed, g.lastNamedAt = 0, 0, 0, 0, 0
			w.self, w.lastAll, w.lastAllAt, w.lastNamed, w.lastNamedAt = 0, 0, 0, 0, 0
			if g != w {
				return tried, joined, fmt.Errorf("split at byte %d: node %d (%s at %d:%d) differs: %+v, whole %+v", at, i, w.Kind(), w.row+1, w.col+1, g, w)
			}
		}
	}
	return tried, joined, nil
}

// ArenaBytes is the memory the parser's pooled arenas hold.
func ArenaBytes() int { return arenaBytes() }

// PythonBuiltins are the names the reader takes for Python's built-in
// functions.
func PythonBuiltins() []string {
	var out []string
	for n := range pythonBuiltins {
		out = append(out, n)
	}
	return out
}
