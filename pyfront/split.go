//go:build cgo

package pyfront

import (
	"bytes"
	"runtime"
	"sync"
)

// A large file parses in two halves at once, one per core: tree-sitter's
// parse is most of a read. The first half is the text before a split
// line; the second is the split line to the end, parsed behind the
// header lines of the blocks that enclose it (tree-sitter's included
// ranges keep every position the file's own). The halves' trees are then
// joined: each enclosing statement of the first half's last line
// continues in the second. Whenever a half has a syntax error, no split
// line fits, or the joined shapes disagree, the file is parsed whole, so
// a split read is never different from a whole one (TestSplitParse
// compares them at many split lines).

// splitMin is the size from which a file is split: below it, the second
// parse costs more than it saves.
const splitMin = 32 << 10

func parseSplit(src []byte) ([]node, error) {
	if len(src) < splitMin || runtime.GOMAXPROCS(0) < 2 {
		return parseFlat(src, nil, nil)
	}
	at, heads := findSplit(src, len(src)/2)
	if at < 0 {
		return parseFlat(src, nil, nil)
	}
	if nodes, ok := parseAt(src, at, heads); ok {
		return nodes, nil
	}
	return parseFlat(src, nil, nil)
}

// parseAt parses src split at byte at (a line start), the second half
// behind the header ranges heads, and joins the halves.
func parseAt(src []byte, at int, heads []srcRange) ([]node, bool) {
	var a, b []node
	var errA, errB error
	var wg sync.WaitGroup
	wg.Add(1)
	// The halves are scratch: their slices are kept for the next read.
	bufA, bufB := halves.Get().(*[]node), halves.Get().(*[]node)
	defer func() {
		*bufA, *bufB = a[:0], b[:0]
		halves.Put(bufA)
		halves.Put(bufB)
	}()
	go func() {
		defer wg.Done()
		a, errA = parseFlat(src[:at], nil, *bufA)
	}()
	b, errB = parseFlat(src, append(heads, srcRange{at, len(src)}), *bufB)
	wg.Wait()
	if errA != nil || errB != nil || len(a) == 0 || len(b) == 0 || a[0].HasError() || b[0].HasError() {
		return nil, false
	}
	j := &joiner{a: a, b: b, at: uint32(at), out: make([]node, 0, len(a)+len(b))}
	if !j.join(0, 0) {
		return nil, false
	}
	return j.out, true
}

var halves = sync.Pool{New: func() any { return new([]node) }}

// findSplit picks a split line at or after byte from: a statement line
// indented as the line right before it (so it starts a statement of the
// same block), that line complete. heads are the header lines (with their
// decorators) of the blocks enclosing it, outermost first. at < 0: none.
func findSplit(src []byte, from int) (at int, heads []srcRange) {
	for from > 0 && src[from-1] != '\n' {
		from++
		if from >= len(src) {
			return -1, nil
		}
	}
	prev := -1 // start of the line before
	for tries := 0; tries < 400 && from < len(src); tries++ {
		end := lineEnd(src, from)
		if prev >= 0 && splitLine(src, prev, from, end) {
			if h, ok := headers(src, from); ok {
				return from, h
			}
		}
		prev = from
		from = end + 1
	}
	return -1, nil
}

func lineEnd(src []byte, from int) int {
	if i := bytes.IndexByte(src[from:], '\n'); i >= 0 {
		return from + i
	}
	return len(src)
}

func indentOf(src []byte, from, end int) int {
	i := from
	for i < end && src[i] == ' ' {
		i++
	}
	return i - from
}

// splitLine: the line [from, end) can start the second half, after the
// line at prev.
func splitLine(src []byte, prev, from, end int) bool {
	ind := indentOf(src, from, end)
	text := src[from+ind : end]
	if len(text) == 0 || !isNameStart(text[0]) || bytes.IndexByte(src[prev:end], '\t') >= 0 {
		return false
	}
	for _, kw := range []string{"else", "elif", "except", "finally", "case"} {
		if bytes.HasPrefix(text, []byte(kw)) {
			return false
		}
	}
	// The line before ends the first half, and tree-sitter resolves some
	// ambiguous lines by what follows them: a starred `*a.b` anywhere on a
	// line is list_splat(a.b) at the end of the input but
	// attribute(list_splat(a), b) before another statement. So that line
	// must hold no `*` and start with a name (a keyword or an identifier),
	// which also rules out comments, decorators and the closing lines of
	// bracketed expressions.
	pind := indentOf(src, prev, from-1)
	ptext := bytes.TrimRight(src[prev+pind:from-1], " \r")
	if pind != ind || len(ptext) == 0 || !isNameStart(ptext[0]) || bytes.IndexByte(ptext, '*') >= 0 {
		return false
	}
	switch ptext[len(ptext)-1] {
	case ':', '\\', ',', '(', '[', '{':
		return false
	}
	return true
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// headers finds the header lines of the blocks enclosing the line at
// from: going back, each line indented less than all after it, and the
// decorator lines right above a def or class. Each must be one complete
// line ending in ':' (decorators: one line).
func headers(src []byte, from int) ([]srcRange, bool) {
	ind := indentOf(src, from, lineEnd(src, from))
	var out []srcRange
	for ind > 0 {
		// the previous line start
		end := from - 1
		if end < 0 {
			return nil, false
		}
		start := bytes.LastIndexByte(src[:end], '\n') + 1
		from = start
		lind := indentOf(src, start, end)
		text := bytes.TrimRight(src[start+lind:end], " \r")
		if len(text) == 0 || text[0] == '#' || lind >= ind {
			continue
		}
		if text[len(text)-1] != ':' || bytes.IndexByte(text, '#') >= 0 || !isNameStart(text[0]) {
			return nil, false
		}
		for _, kw := range []string{"else", "elif", "except", "finally"} {
			if bytes.HasPrefix(text, []byte(kw)) {
				return nil, false
			}
		}
		h := srcRange{start, end + 1}
		// decorators right above
		for h.start > 0 {
			pend := h.start - 1
			pstart := bytes.LastIndexByte(src[:pend], '\n') + 1
			pind := indentOf(src, pstart, pend)
			ptext := bytes.TrimRight(src[pstart+pind:pend], " \r")
			if pind != lind || len(ptext) == 0 || ptext[0] != '@' {
				break
			}
			if bytes.Count(ptext, []byte("(")) != bytes.Count(ptext, []byte(")")) || bytes.IndexByte(ptext, '#') >= 0 {
				return nil, false
			}
			h.start = pstart
		}
		from = h.start
		out = append([]srcRange{h}, out...)
		ind = lind
	}
	return out, true
}

// joiner joins the trees of the two halves into out, in preorder.
type joiner struct {
	a, b []node
	at   uint32
	out  []node
}

func children(ns []node, i uint32) []uint32 {
	var out []uint32
	for c, k := i+1, uint32(0); k < ns[i].nchild; c, k = ns[c].next, k+1 {
		out = append(out, c)
	}
	return out
}

// copySub appends the subtree at i of ns, its next links rebased.
func (j *joiner) copySub(ns []node, i uint32) {
	base := uint32(len(j.out))
	j.out = append(j.out, ns[i:ns[i].next]...)
	moved := j.out[base:]
	for k := range moved {
		moved[k].next = moved[k].next - i + base
	}
}

// join appends the node a (first half) continued by b (second half).
func (j *joiner) join(ai, bi uint32) bool {
	a, b := j.a[ai], j.b[bi]
	if a.symbol != b.symbol {
		return false
	}
	self := uint32(len(j.out))
	n := a
	n.end = b.end
	j.out = append(j.out, n)
	ak, bk := children(j.a, ai), children(j.b, bi)
	if len(ak) == 0 || len(bk) == 0 {
		return false
	}
	var nchild, nnamed uint32
	add := func(ns []node, i uint32) {
		nchild++
		if ns[i].IsNamed() {
			nnamed++
		}
	}
	kind := a.Kind()
	if kind == "module" || kind == "block" {
		rest := bk
		if j.b[bk[0]].start < j.at {
			// the statement that encloses the split continues
			for _, c := range ak[:len(ak)-1] {
				j.copySub(j.a, c)
				add(j.a, c)
			}
			add(j.a, ak[len(ak)-1])
			if !j.join(ak[len(ak)-1], bk[0]) {
				return false
			}
			rest = bk[1:]
		} else {
			for _, c := range ak {
				j.copySub(j.a, c)
				add(j.a, c)
			}
		}
		for _, c := range rest {
			if j.b[c].start < j.at {
				return false
			}
			j.copySub(j.b, c)
			add(j.b, c)
		}
	} else {
		// a compound statement: b repeats a's header tokens, then
		// continues a's last child
		cont := -1
		for k, c := range bk {
			if j.b[c].end > j.at {
				cont = k
				break
			}
		}
		if cont < 0 || cont != len(ak)-1 {
			return false
		}
		for k := 0; k < cont; k++ {
			x, y := j.a[ak[k]], j.b[bk[k]]
			if x.symbol != y.symbol || x.start != y.start || x.end != y.end || x.field != y.field {
				return false
			}
		}
		for _, c := range ak[:cont] {
			j.copySub(j.a, c)
			add(j.a, c)
		}
		if j.a[ak[cont]].field != j.b[bk[cont]].field {
			return false
		}
		add(j.a, ak[cont])
		if !j.join(ak[cont], bk[cont]) {
			return false
		}
		for _, c := range bk[cont+1:] {
			if j.b[c].start < j.at {
				return false
			}
			j.copySub(j.b, c)
			add(j.b, c)
		}
	}
	j.out[self].nchild, j.out[self].nnamed = nchild, nnamed
	j.out[self].next = uint32(len(j.out))
	return true
}
