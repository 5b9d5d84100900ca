//go:build cgo

package pyfront

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Syntax errors. tree-sitter recovers from an error by wrapping what it
// could not fit in an ERROR node, or by inserting a zero-width MISSING
// token; neither says what went wrong in words. syntaxError looks at the
// first such node and the source around it and names the problem the way
// Python does: the missing token, the unclosed or unmatched bracket, the
// missing colon, the unexpected text, each at its own line:col.

// firstBad is the first ERROR or MISSING node in source order.
func firstBad(n *node) *node {
	if n.IsMissing() || n.IsError() {
		return n
	}
	if !n.HasError() {
		return nil
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		if b := firstBad(n.Child(i)); b != nil {
			return b
		}
	}
	return nil
}

// leaves lists the tokens under n in source order.
func leaves(n *node, out []*node) []*node {
	if n.ChildCount() == 0 {
		return append(out, n)
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		out = leaves(n.Child(i), out)
	}
	return out
}

// innermostError descends from an ERROR node into the first ERROR nested
// in it, where recovery gave up last.
func innermostError(n *node) *node {
	for {
		var inner *node
		for i := uint(0); i < n.ChildCount() && inner == nil; i++ {
			inner = firstBad(n.Child(i))
		}
		if inner == nil || !inner.IsError() {
			return n
		}
		n = inner
	}
}

func (r *reader) syntaxError(root *node) {
	bad := firstBad(root)
	if bad == nil {
		r.hiddenError(root)
	}
	if bad.IsMissing() {
		r.fail(bad, "invalid Python syntax: expected %s", tokenName(bad.Kind()))
	}
	toks := leaves(bad, nil)
	for _, t := range toks {
		if t.Kind() == "string_start" && !hasStringEnd(toks, t) {
			r.fail(t, "invalid Python syntax: unterminated string literal")
		}
	}
	r.lineProblem(bad)
	for _, t := range toks {
		if t.Kind() == "identifier" && ir.IsPythonKeyword(r.text(t)) {
			r.fail(t, "invalid Python syntax: unexpected keyword %q", r.text(t))
		}
	}
	inner := innermostError(bad)
	toks = leaves(inner, nil)
	if len(toks) == 0 {
		r.fail(inner, "invalid Python syntax")
	}
	last := toks[len(toks)-1]
	if !last.IsNamed() && r.restOfLineBlank(last.EndByte()) {
		r.fail(last, "invalid Python syntax: %s", after(r.text(last)))
	}
	first := toks[0]
	if p := r.parentOf(inner); p != nil && first.IsNamed() && inner.StartByte() > p.StartByte() {
		switch p.Kind() {
		case "argument_list", "list", "tuple", "subscript", "parameters", "dictionary", "set":
			r.fail(first, "invalid Python syntax: unexpected %s (a ',' missing before it?)", quoteTok(r.text(first)))
		}
	}
	r.fail(first, "invalid Python syntax: unexpected %s", quoteTok(r.text(first)))
}

// hiddenError reports an error tree-sitter marked on no visible node (a
// missing newline between two statements): it lies between the children
// of the deepest node flagged with an error.
func (r *reader) hiddenError(root *node) {
	n := root
	for {
		var next *node
		for i := uint(0); i < n.ChildCount() && next == nil; i++ {
			if c := n.Child(i); c.HasError() {
				next = c
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	for i := uint(1); i < n.NamedChildCount(); i++ {
		a, b := n.NamedChild(i-1), n.NamedChild(i)
		if a.Kind() != "comment" && b.Kind() != "comment" && a.row == b.row && !strings.Contains(string(r.src[a.end:b.start]), ";") {
			r.fail(b, "invalid Python syntax: unexpected %s (two statements on one line need a ';' between them)", quoteTok(r.text(b)))
		}
	}
	r.fail(n, "invalid Python syntax in this %s", strings.ReplaceAll(n.Kind(), "_", " "))
}

func hasStringEnd(toks []*node, start *node) bool {
	for _, t := range toks {
		if t.Kind() == "string_end" && t.StartByte() >= start.EndByte() {
			return true
		}
	}
	return false
}

// tokenName names a MISSING node's kind for a message.
func tokenName(kind string) string {
	switch kind {
	case "identifier":
		return "a name"
	case "block":
		return "an indented block"
	}
	return fmt.Sprintf("%q", kind)
}

func quoteTok(t string) string {
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[:i]
	}
	if len(t) > 40 {
		t = t[:40] + "..."
	}
	return fmt.Sprintf("%q", t)
}

// after says what a line cannot end with tok lacks.
func after(tok string) string {
	switch tok {
	case ".":
		return "expected an attribute name after '.'"
	case "def":
		return "expected a function name after 'def'"
	case "class":
		return "expected a class name after 'class'"
	case "import", "from":
		return "expected a module name after '" + tok + "'"
	case ":":
		return "expected a type or a statement after ':'"
	}
	return fmt.Sprintf("expected an expression after %q", tok)
}

func (r *reader) restOfLineBlank(at uint32) bool {
	for i := int(at); i < len(r.src); i++ {
		switch r.src[i] {
		case ' ', '\t', '\r':
		case '\n', '#':
			return true
		default:
			return false
		}
	}
	return true
}

// parentOf finds n's parent (errors are rare; a walk from the root is
// cheap enough).
func (r *reader) parentOf(n *node) *node {
	all := n.all()
	want := n.index()
	var p *node
	for i := uint32(0); i < want; {
		c := &all[i]
		if c.next <= want {
			i = c.next
			continue
		}
		p = c
		i++
	}
	return p
}

// lineProblem checks the source lines an ERROR node spans for a bracket
// never closed, a closing bracket never opened, and a compound statement
// header without its colon, and reports the first.
func (r *reader) lineProblem(bad *node) {
	from := int(bad.StartByte())
	for from > 0 && r.src[from-1] != '\n' {
		from--
	}
	to := int(bad.EndByte())
	for to < len(r.src) && r.src[to] != '\n' {
		to++
	}
	type open struct {
		c  byte
		at int
	}
	var stack []open
	closer := map[byte]byte{'(': ')', '[': ']', '{': '}'}
	lineStart := from
	var quote byte
	for i := from; i <= to; i++ {
		if i == to || r.src[i] == '\n' {
			if len(stack) == 0 {
				if msg := missingColon(string(r.src[lineStart:i])); msg != "" {
					r.failAt(i, msg)
				}
			}
			lineStart = i + 1
			quote = 0
			continue
		}
		c := r.src[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			for i+1 < to && r.src[i+1] != '\n' {
				i++
			}
		case c == '(' || c == '[' || c == '{':
			stack = append(stack, open{c, i})
		case c == ')' || c == ']' || c == '}':
			if len(stack) == 0 || closer[stack[len(stack)-1].c] != c {
				r.failAt(i, fmt.Sprintf("invalid Python syntax: unmatched %q", string(c)))
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		o := stack[len(stack)-1]
		r.failAt(o.at, fmt.Sprintf("invalid Python syntax: %q was never closed (expected %q)", string(o.c), string(closer[o.c])))
	}
}

// missingColon reports a compound statement's header line without its
// colon.
func missingColon(line string) string {
	t := strings.TrimSpace(line)
	if i := strings.Index(t, "#"); i >= 0 && !strings.ContainsAny(t[:i], "\"'") {
		t = strings.TrimSpace(t[:i])
	}
	for _, kw := range []string{"for", "if", "elif", "else", "while", "def", "class", "with", "try", "except", "finally"} {
		if (t == kw || strings.HasPrefix(t, kw+" ") || strings.HasPrefix(t, kw+"(")) && !strings.HasSuffix(t, ":") {
			return "invalid Python syntax: expected ':' at the end of the " + kw + " line"
		}
	}
	return ""
}

// failAt reports msg at a byte offset.
func (r *reader) failAt(at int, msg string) {
	line, col := 1, 1
	for i := 0; i < at && i < len(r.src); i++ {
		if r.src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	panic(&Error{File: r.file, Line: line, Col: col, Msg: msg})
}

// checkIndent rejects what tree-sitter's recovery accepts silently: a
// statement indented more or less than the others of its block, and a
// keyword read as a name.
func (r *reader) checkIndent(root *node) {
	all := root.all()
	for i := range all {
		n := &all[i]
		k := n.Kind()
		if k == "identifier" && ir.IsPythonKeyword(r.text(n)) {
			r.fail(n, "invalid Python syntax: unexpected keyword %q", r.text(n))
		}
		if k != "block" && k != "module" {
			continue
		}
		want := -1
		if n.Kind() == "module" {
			want = 0
		}
		var prev *node
		for j := uint(0); j < n.NamedChildCount(); j++ {
			c := n.NamedChild(j)
			if c.Kind() == "comment" || !r.startsLine(c) {
				continue
			}
			col := int(c.col)
			switch {
			case want < 0:
				want = col
			case col > want && prev != nil && r.blockColAfter(prev) > col:
				r.fail(c, "invalid Python syntax: unindent does not match any outer indentation level")
			case col > want:
				r.fail(c, "invalid Python syntax: unexpected indent (the block's statements start at column %d)", want+1)
			case col < want:
				r.fail(c, "invalid Python syntax: unindent does not match any outer indentation level")
			}
			prev = c
		}
	}
}

// startsLine reports whether only blanks precede n on its line.
func (r *reader) startsLine(n *node) bool {
	for i := int(n.start) - 1; i >= 0; i-- {
		switch r.src[i] {
		case ' ', '\t':
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}

// blockColAfter is the column of the last block nested in n (0: none).
func (r *reader) blockColAfter(n *node) int {
	all := n.all()
	col := 0
	for i := n.index() + 1; i < n.next; i++ {
		if all[i].Kind() == "block" && all[i].nchild > 0 {
			col = int(all[i].col)
		}
	}
	return col
}
