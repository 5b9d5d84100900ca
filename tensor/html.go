package tensor

import (
	"html"
	"strconv"
	"strings"
)

// HTML renders t as an HTML fragment for notebook display: a <div class="tensor"> with a
// caption giving dtype and shape, then one <table> for a 0-d, 1-D (one row) or 2-D tensor,
// or, for more dimensions, one table per trailing 2-D slice, each headed by its index such
// as [0, 1, :, :]. Values print as in String (same number style, no padding). Tensors of
// more than 1000 elements are summarized like String: each dimension longer than 6 keeps
// its first and last 3 entries, with … for skipped columns, ⋮ for skipped rows and
// slices, and ⋱ where both meet. All text is HTML-escaped.
func (t *Tensor) HTML() string {
	if t == nil {
		return `<div class="tensor">&lt;nil&gt;</div>`
	}
	return t.renderHTML("tensor " + t.dtype.String() + " " + dimsString(t.shape))
}

// renderHTML renders t under the given caption (escaped here).
func (t *Tensor) renderHTML(caption string) string {
	var b strings.Builder
	summarize := t.Numel() > printThreshold
	if summarize {
		caption += " (summarized)"
	}
	b.WriteString(`<div class="tensor">`)
	b.WriteString("\n")
	if t.Numel() == 0 {
		b.WriteString(`<div class="caption">` + html.EscapeString(caption) + "</div>\n")
		b.WriteString(`<div class="empty">` + html.EscapeString("(no elements)") + "</div>\n</div>")
		return b.String()
	}
	f := newFormatter(t, summarize)
	if len(t.shape) <= 2 {
		writeHTMLTable(&b, f, t, t.shape, 0, caption, summarize)
		b.WriteString("</div>")
		return b.String()
	}
	b.WriteString(`<div class="caption">` + html.EscapeString(caption) + "</div>\n")
	lead := t.shape[:len(t.shape)-2]
	matrix := t.shape[len(t.shape)-2:]
	stride := matrix[0] * matrix[1]
	var walk func(dim, base int, prefix []string)
	walk = func(dim, base int, prefix []string) {
		if dim == len(lead) {
			label := "[" + strings.Join(prefix, ", ") + ", :, :]"
			b.WriteString(`<div class="slice">` + html.EscapeString(label) + "</div>\n")
			writeHTMLTable(&b, f, t, matrix, base*stride, "", summarize)
			return
		}
		n := lead[dim]
		for k, i := range edgeRange(n, summarize) {
			if summarize && n > 2*printEdgeItems && k == printEdgeItems {
				b.WriteString(`<div class="ellipsis">⋮</div>` + "\n")
			}
			walk(dim+1, base*n+i, append(prefix[:len(prefix):len(prefix)], strconv.Itoa(i)))
		}
	}
	walk(0, 0, nil)
	b.WriteString("</div>")
	return b.String()
}

// writeHTMLTable writes one table for a 0-d, 1-D or 2-D block of shape starting at flat
// element base.
func writeHTMLTable(b *strings.Builder, f *formatter, t *Tensor, shape []int, base int, caption string, summarize bool) {
	rows, cols := 1, 1
	switch len(shape) {
	case 1:
		cols = shape[0]
	case 2:
		rows, cols = shape[0], shape[1]
	}
	b.WriteString(`<table style="font-family:monospace;text-align:right">` + "\n")
	if caption != "" {
		b.WriteString("<caption>" + html.EscapeString(caption) + "</caption>\n")
	}
	rowIdx := edgeRange(rows, summarize)
	colIdx := edgeRange(cols, summarize)
	cutRows := summarize && rows > 2*printEdgeItems
	cutCols := summarize && cols > 2*printEdgeItems
	cell := func(s string) { b.WriteString("<td>" + html.EscapeString(s) + "</td>") }
	for k, r := range rowIdx {
		if cutRows && k == printEdgeItems {
			b.WriteString("<tr>")
			for c := range colIdx {
				if cutCols && c == printEdgeItems {
					cell("⋱")
				}
				cell("⋮")
			}
			b.WriteString("</tr>\n")
		}
		b.WriteString("<tr>")
		for c, col := range colIdx {
			if cutCols && c == printEdgeItems {
				cell("…")
			}
			cell(f.formatRaw(t, base+r*cols+col))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
}
