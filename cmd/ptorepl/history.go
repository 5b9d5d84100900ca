package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ptorepl/ptorepl/display"
)

// The REPL's history holds whole cells, so the up arrow brings a multi-line
// function back in one piece. readline edits one line, so inside it a
// cell's line breaks travel as lineBreak (a private-use rune nobody types),
// drawn as ↵ by cellPainter and turned back into newlines when the line is
// entered.
const lineBreak = '\uE000'

func toLine(cell string) string { return strings.ReplaceAll(cell, "\n", string(lineBreak)) }

func fromLine(line string) string { return strings.ReplaceAll(line, string(lineBreak), "\n") }

// cellPainter draws the line breaks of a recalled cell as ↵ (one column
// wide, like the rune it stands for, so readline's cursor arithmetic holds).
type cellPainter struct{}

func (cellPainter) Paint(line []rune, _ int) []rune {
	out := make([]rune, len(line))
	for i, r := range line {
		if r == lineBreak {
			r = '↵'
		}
		out[i] = r
	}
	return out
}

// historyHeader marks a history file in the cell format: one cell a line,
// with "\n" for a line break and "\\" for a backslash. A file without it
// (an older, line-per-entry history) is read line by line as it is.
const historyHeader = "# ptorepl history: one cell a line, \\n is a line break"

// historyLimit bounds the cells kept (the oldest go first).
const historyLimit = 1000

type history struct {
	path  string
	cells []string
}

// openHistory loads the history file at path ("" keeps history in memory).
func openHistory(path string) *history {
	h := &history{path: path}
	if path == "" {
		return h
	}
	f, err := os.Open(path)
	if err != nil {
		return h
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	encoded := false
	for first := true; sc.Scan(); first = false {
		line := sc.Text()
		if first && line == historyHeader {
			encoded = true
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if encoded {
			line = decodeCell(line)
		}
		h.cells = append(h.cells, line)
	}
	if len(h.cells) > historyLimit || !encoded {
		h.cells = h.cells[max(0, len(h.cells)-historyLimit):]
		h.rewrite()
	}
	return h
}

// add appends a cell to the history and its file.
func (h *history) add(cell string) {
	if n := len(h.cells); n > 0 && h.cells[n-1] == cell {
		return
	}
	h.cells = append(h.cells, cell)
	if len(h.cells) > historyLimit {
		h.cells = h.cells[len(h.cells)-historyLimit:] // the file is trimmed when next opened
	}
	if h.path == "" {
		return
	}
	f, err := os.OpenFile(h.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() == 0 {
		fmt.Fprintln(f, historyHeader)
	}
	fmt.Fprintln(f, encodeCell(cell))
}

// rewrite writes the whole history in the cell format.
func (h *history) rewrite() {
	if h.path == "" {
		return
	}
	var b strings.Builder
	b.WriteString(historyHeader + "\n")
	for _, c := range h.cells {
		b.WriteString(encodeCell(c) + "\n")
	}
	tmp := h.path + ".tmp"
	if os.WriteFile(tmp, []byte(b.String()), 0o600) == nil {
		_ = os.Rename(tmp, h.path)
	}
}

func encodeCell(c string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`).Replace(c)
}

func decodeCell(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// progressLine shows, on a terminal, that a cell (or :run) has been running
// for more than a second, on one line redrawn in place: what the cell's
// updatable display says (pl.Run's progress: ranks, tasks, ops), or else
// how long it has run. The line is wiped when the cell ends or prints, but
// a progress display's last word ("finished on 4 ranks: ...") stays. A nil
// *progressLine shows nothing (the scripted REPL and `ptorepl run`).
type progressLine struct {
	w       io.Writer
	mu      sync.Mutex
	shown   bool      // a line is on the screen
	began   time.Time // the running cell's start; zero when idle
	live    string    // the latest text of the cell's updatable display
	showing string    // what the line shows
}

// progressAfter is how long a cell runs before the line appears.
const progressAfter = time.Second

// start begins timing a cell; the returned stop (idempotent) ends the line.
func (p *progressLine) start() (stop func()) {
	if p == nil {
		return func() {}
	}
	p.mu.Lock()
	p.began, p.live = time.Now(), ""
	p.mu.Unlock()
	done := make(chan struct{})
	var once sync.Once
	go func() {
		t := time.NewTimer(progressAfter)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			p.mu.Lock()
			select {
			case <-done: // stopped while this tick waited for the lock
				p.mu.Unlock()
				return
			default:
			}
			p.drawLocked()
			p.mu.Unlock()
			t.Reset(time.Second)
		}
	}()
	return func() {
		once.Do(func() {
			close(done)
			p.mu.Lock()
			defer p.mu.Unlock()
			if p.shown && p.live != "" && p.showing == p.live {
				fmt.Fprintln(p.w) // keep the progress display's last word
				p.shown = false
			}
			p.clearLocked()
			p.began, p.live = time.Time{}, ""
		})
	}
}

// drawLocked redraws the line once the cell has run past progressAfter.
func (p *progressLine) drawLocked() {
	if p.began.IsZero() || time.Since(p.began) < progressAfter {
		return
	}
	text := p.live
	if text == "" {
		text = fmt.Sprintf("… running for %.0fs (Ctrl-C stops it)", time.Since(p.began).Seconds())
	}
	fmt.Fprintf(p.w, "\r\x1b[2K%s", text)
	p.shown, p.showing = true, text
}

// update takes the new text of the cell's updatable display.
func (p *progressLine) update(text string) {
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.live = text
	p.drawLocked()
}

// clear wipes the progress line if it is shown, so output starts on a clean line.
func (p *progressLine) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
}

func (p *progressLine) clearLocked() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[2K")
		p.shown = false
	}
}

// termPublisher shows a cell's displays on the terminal: an updatable
// display (a progress line) on the progress line, anything else as its
// text, as the display package prints without a front-end.
type termPublisher struct {
	p   *progressLine
	out io.Writer
}

func (tp termPublisher) Display(d display.Data, id string, _ bool) {
	text, ok := d["text/plain"]
	if id != "" && ok {
		tp.p.update(text)
		return
	}
	tp.p.clear()
	if ok {
		fmt.Fprintln(tp.out, text)
		return
	}
	for mime := range d {
		fmt.Fprintf(tp.out, "<%s output: shown in notebooks>\n", mime)
		return
	}
}

func (termPublisher) Clear(bool) {}
