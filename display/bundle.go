package display

import (
	"encoding/base64"
	"fmt"
	"html"
	"reflect"
	"regexp"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/tensor"
)

// Bundle renders v as a MIME bundle: always text/plain, plus text/html for
// IR (highlighted PyPTO), and for any value with an HTML() string method
// (tensors, compile results, run reports, timelines).
func Bundle(v any) (d Data) {
	d = Data{"text/plain": PlainText(v)}
	if isNilPointer(v) {
		return d
	}
	// A value's own HTML or MIME method must not take the session down.
	defer func() {
		if r := recover(); r != nil {
			d = Data{"text/plain": d["text/plain"]}
		}
	}()
	if m, ok := v.(interface{ MIME() map[string]string }); ok {
		for k, x := range m.MIME() {
			d[k] = x
		}
		if h, ok := d["text/html"]; ok {
			d["text/html"] = wrapHTML(h)
		}
		return d
	}
	if h, ok := v.(interface{ HTML() string }); ok {
		page := h.HTML()
		// 2-D and 3-D tensors also come as a heatmap (bounded, so a huge
		// tensor does not stall the cell). Jupyter shows the richest type
		// it can, text/html, so the picture goes inside the HTML, beside
		// the table; image/png is there too for front-ends that prefer it.
		if t, ok := v.(*tensor.Tensor); ok && (t.Dim() == 2 || t.Dim() == 3) && t.Numel() <= 1<<20 {
			if png, err := HeatmapPNG(t, heatmapWidth(t)); err == nil {
				b64 := base64.StdEncoding.EncodeToString(png)
				d["image/png"] = b64
				page = fmt.Sprintf(`<div style="display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start">`+
					`<div style="overflow-x:auto;max-width:100%%">%s</div>`+
					`<img class="ptorepl-heatmap" alt="heatmap of the tensor %s" src="data:image/png;base64,%s"></div>`,
					page, html.EscapeString(pyDims(t.Shape())), b64)
			}
		}
		d["text/html"] = wrapHTML(page)
		return d
	}
	switch v.(type) {
	case *ir.Program, *ir.Function, interface{ IR() *ir.Program }, interface{ IR() *ir.Function }:
		d["text/html"] = wrapHTML(ProgramHTML(d["text/plain"]))
	}
	return d
}

// PlainText is the text/plain form of a value: IR in PyPTO's printed syntax,
// tensors like torch, anything else as Go prints it.
func PlainText(v any) (text string) {
	if isNilPointer(v) {
		return "nil"
	}
	// A value whose String method panics is shown as such, not as a crash.
	defer func() {
		if r := recover(); r != nil {
			text = fmt.Sprintf("<%T: printing it failed: %v>", v, r)
		}
	}()
	switch x := v.(type) {
	case nil:
		return "nil"
	case *ir.Program:
		return printer.Program(x)
	case *ir.Function:
		return printer.Function(x)
	case ir.Type:
		return ir.DefaultFormat.Type(x)
	case ir.Expr:
		return ir.DefaultFormat.Expr(x) + ": " + ir.DefaultFormat.Type(x.Type())
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	case string:
		return fmt.Sprintf("%q", x)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Func {
		return rv.Type().String()
	}
	return fmt.Sprintf("%v", v)
}

// isNilPointer reports a typed nil pointer (a result a failing call left
// nil): its methods would dereference it.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

var pyToken = regexp.MustCompile(`(#[^\n]*)|('[^'\n]*'|"[^"\n]*")|(@[\w.]+)|\b(def|class|return|for|in|if|else|elif|import|as|with|pass|True|False|None)\b|\b(\d+(?:\.\d+)?)\b`)

// preStyle keeps printed code on its lines: a long line scrolls sideways
// rather than wrapping in the middle of a token (notebook style sheets set
// pre-wrap and break-all on <pre>).
const preStyle = "line-height:1.3;white-space:pre;word-break:normal;overflow-wrap:normal;overflow-x:auto"

var preTag = regexp.MustCompile(`<pre(\s[^>]*)?>`)

// wrapHTML gives every <pre> of a value's HTML (compile stages, reports)
// the style above, inline, ahead of any style the tag sets itself; the
// text of the page is left as it is.
func wrapHTML(page string) string {
	return preTag.ReplaceAllStringFunc(page, func(tag string) string {
		switch {
		case strings.Contains(tag, "white-space"):
			return tag
		case strings.Contains(tag, `style="`):
			return strings.Replace(tag, `style="`, `style="`+preStyle+";", 1)
		}
		return `<pre style="` + preStyle + `"` + strings.TrimPrefix(tag, "<pre")
	})
}

// HighlightPython renders printed PyPTO as HTML with light syntax colouring.
func HighlightPython(src string) string {
	var b strings.Builder
	b.WriteString(`<pre style="` + preStyle + `"><code class="language-python" style="white-space:inherit">`)
	last := 0
	for _, m := range pyToken.FindAllStringSubmatchIndex(src, -1) {
		b.WriteString(html.EscapeString(src[last:m[0]]))
		style := ""
		switch {
		case m[2] >= 0:
			style = "color:#6a737d;font-style:italic" // comment
		case m[4] >= 0:
			style = "color:#032f62" // string
		case m[6] >= 0:
			style = "color:#6f42c1" // decorator
		case m[8] >= 0:
			style = "color:#d73a49;font-weight:bold" // keyword
		case m[10] >= 0:
			style = "color:#005cc5" // number
		}
		fmt.Fprintf(&b, `<span style="%s">%s</span>`, style, html.EscapeString(src[m[0]:m[1]]))
		last = m[1]
	}
	b.WriteString(html.EscapeString(src[last:]))
	b.WriteString("</code></pre>")
	return b.String()
}
