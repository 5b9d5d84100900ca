// Package display shows rich output from cells: HTML, Markdown, images,
// JSON, and updatable displays. In the Jupyter kernel each call publishes a
// display_data message; in the terminal REPL the text form is printed.
//
// Every function takes plain Go values, so cells can call it under the
// interpreter.
package display

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
)

// Data is a MIME bundle: MIME type → content (text, or base64 for images).
type Data map[string]string

// Publisher receives what cells display. The kernel installs one per
// session; displayID is non-empty for updatable displays, and update tells
// an update of an existing display from a new one.
type Publisher interface {
	Display(data Data, displayID string, update bool)
	Clear(wait bool)
}

var (
	pubMu sync.Mutex
	pub   Publisher
)

// SetPublisher installs p (nil restores terminal output) and returns the previous one.
func SetPublisher(p Publisher) Publisher {
	pubMu.Lock()
	defer pubMu.Unlock()
	old := pub
	pub = p
	return old
}

// Active reports whether a front-end (the Jupyter kernel) receives
// displays; on a terminal there is none.
func Active() bool {
	pubMu.Lock()
	defer pubMu.Unlock()
	return pub != nil
}

func publish(d Data, id string, update bool) {
	pubMu.Lock()
	p := pub
	pubMu.Unlock()
	if p != nil {
		p.Display(d, id, update)
		return
	}
	// Terminal: the plain-text form, or a note of what could not be shown.
	if t, ok := d["text/plain"]; ok {
		fmt.Fprintln(os.Stdout, t)
		return
	}
	for mime := range d {
		fmt.Fprintf(os.Stdout, "<%s output: shown in notebooks>\n", mime)
		return
	}
}

// HTML displays an HTML fragment.
func HTML(html string) { publish(Data{"text/html": html, "text/plain": "<HTML>"}, "", false) }

// Markdown displays Markdown.
func Markdown(md string) { publish(Data{"text/markdown": md, "text/plain": md}, "", false) }

// SVG displays an SVG image.
func SVG(svg string) { publish(Data{"image/svg+xml": svg, "text/plain": "<SVG image>"}, "", false) }

// PNG displays PNG image bytes.
func PNG(png []byte) {
	publish(Data{"image/png": base64.StdEncoding.EncodeToString(png), "text/plain": "<PNG image>"}, "", false)
}

// JSON displays a value as JSON (shown as a tree by JupyterLab).
func JSON(v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		publish(Data{"text/plain": "display.JSON: " + err.Error()}, "", false)
		return
	}
	publish(Data{"application/json": string(b), "text/plain": string(b)}, "", false)
}

// Text displays plain text.
func Text(s string) { publish(Data{"text/plain": s}, "", false) }

// Show displays any value richly: IR as PyPTO text and highlighted HTML,
// tensors as text and an HTML table, compile results as collapsible stages.
func Show(v any) { publish(Bundle(v), "", false) }

// Clear clears the cell's output; with wait, only when new output arrives.
func Clear(wait bool) {
	pubMu.Lock()
	p := pub
	pubMu.Unlock()
	if p != nil {
		p.Clear(wait)
	}
}

var handleSeq atomic.Int64

// Handle is a display that can be replaced in place, e.g. a progress line
// or a plot redrawn as a run proceeds.
type Handle struct {
	id    string
	shown bool
}

// NewHandle makes an updatable display; nothing is shown until its first update.
func NewHandle() *Handle {
	return &Handle{id: fmt.Sprintf("ptorepl-display-%d-%d", os.Getpid(), handleSeq.Add(1))}
}

// ID is the Jupyter display_id.
func (h *Handle) ID() string { return h.id }

// Show displays v in this handle's place.
func (h *Handle) Show(v any) { h.send(Bundle(v)) }

// HTML displays html in this handle's place.
func (h *Handle) HTML(html string) { h.send(Data{"text/html": html, "text/plain": "<HTML>"}) }

// Text displays text in this handle's place.
func (h *Handle) Text(s string) { h.send(Data{"text/plain": s}) }

func (h *Handle) send(d Data) {
	publish(d, h.id, h.shown)
	h.shown = true
}
