package passes

import (
	"fmt"
	"strings"
)

// UnifiedDiff is a unified diff (3 lines of context) of two texts, as
// `diff -u` prints it, with a and b naming the two sides. Identical texts give "".
func UnifiedDiff(a, b, from, to string) string {
	if from == to {
		return ""
	}
	x, y := strings.Split(from, "\n"), strings.Split(to, "\n")
	ops := editScript(x, y)
	const ctx = 3
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", a, b)
	// Group edits into hunks separated by more than 2*ctx unchanged lines.
	i := 0
	for i < len(ops) {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i >= len(ops) {
			break
		}
		start := i - ctx
		if start < 0 {
			start = 0
		}
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run >= len(ops) || run-end > 2*ctx {
				end += min(ctx, run-end)
				break
			}
			end = run
		}
		h := ops[start:end]
		aStart, bStart := h[0].ai, h[0].bi
		aLen, bLen := 0, 0
		for _, o := range h {
			if o.kind != '+' {
				aLen++
			}
			if o.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		for _, o := range h {
			out.WriteByte(o.kind)
			out.WriteString(o.line)
			out.WriteByte('\n')
		}
		i = end
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

type diffOp struct {
	kind   byte // ' ', '-', '+'
	line   string
	ai, bi int // positions in a and b before this op
}

// maxEditDistance bounds the Myers search; beyond it the changed middle is
// shown as one replacement, which keeps huge rewrites fast.
const maxEditDistance = 1000

// editScript trims the common prefix and suffix, then runs Myers on the rest.
func editScript(a, b []string) []diffOp {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	var out []diffOp
	for i := 0; i < p; i++ {
		out = append(out, diffOp{' ', a[i], i, i})
	}
	mid := myers(a[p:len(a)-s], b[p:len(b)-s])
	if mid == nil {
		for i := p; i < len(a)-s; i++ {
			mid = append(mid, diffOp{'-', a[i], i - p, 0})
		}
		for j := p; j < len(b)-s; j++ {
			mid = append(mid, diffOp{'+', b[j], len(a) - s - p, j - p})
		}
	}
	for _, o := range mid {
		o.ai += p
		o.bi += p
		out = append(out, o)
	}
	for i := 0; i < s; i++ {
		ai, bi := len(a)-s+i, len(b)-s+i
		out = append(out, diffOp{' ', a[ai], ai, bi})
	}
	return out
}

// myers computes a shortest edit script (Myers' O(ND) algorithm), so large
// programs that change in a few places diff quickly. Each step keeps only the
// diagonals it can reach (k in [-d, d]), so the trace is O(D²), not O(D·N).
func myers(a, b []string) []diffOp {
	n, m := len(a), len(b)
	if n-m > maxEditDistance || m-n > maxEditDistance {
		return nil // at least |n-m| edits: over the bound before we start
	}
	max := n + m
	off := max + 1
	v := make([]int, 2*max+3)
	// trace[d] holds v[off-d-1 .. off+d+1] as it was before step d.
	var trace [][]int
	done := false
	for d := 0; d <= max && !done; d++ {
		if d > maxEditDistance {
			return nil
		}
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				done = true
				break
			}
		}
	}
	var rev []diffOp
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		vv := trace[d]
		at := func(k int) int { return vv[k+d+1] } // v[off+k] before step d
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, diffOp{' ', a[x], x, y})
		}
		if d > 0 {
			if x == px {
				y--
				rev = append(rev, diffOp{'+', b[y], x, y})
			} else {
				x--
				rev = append(rev, diffOp{'-', a[x], x, y})
			}
		}
		x, y = px, py
	}
	out := make([]diffOp, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}
