package kernel

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"
)

// history keeps the inputs of this kernel session for history_request.
type history struct {
	mu      sync.Mutex
	entries []histEntry
}

type histEntry struct {
	line  int
	input string
}

func newHistory() *history { return &history{} }

func (h *history) add(line int, input string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries = append(h.entries, histEntry{line, input})
}

type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           int    `json:"stop"`
	N              int    `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

// answer serves tail, range and search (glob patterns, unique, n). Every
// entry belongs to the current session, numbered 0 as "this session".
func (h *history) answer(content json.RawMessage, _ string) map[string]any {
	var r historyRequest
	json.Unmarshal(content, &r)
	h.mu.Lock()
	entries := append([]histEntry(nil), h.entries...)
	h.mu.Unlock()
	var sel []histEntry
	switch r.HistAccessType {
	case "tail":
		sel = entries
		if r.N > 0 && len(sel) > r.N {
			sel = sel[len(sel)-r.N:]
		}
	case "range":
		for _, e := range entries {
			if e.line >= r.Start && (r.Stop <= 0 || e.line < r.Stop) {
				sel = append(sel, e)
			}
		}
	case "search":
		match := globMatcher(r.Pattern)
		seen := map[string]bool{}
		// Newest first while filtering, so unique keeps the latest and n the most recent.
		for i := len(entries) - 1; i >= 0; i-- {
			e := entries[i]
			if !match(e.input) {
				continue
			}
			if r.Unique && seen[e.input] {
				continue
			}
			seen[e.input] = true
			sel = append([]histEntry{e}, sel...)
			if r.N > 0 && len(sel) >= r.N {
				break
			}
		}
	}
	out := []any{}
	for _, e := range sel {
		if r.Output {
			out = append(out, []any{0, e.line, []any{e.input, nil}})
		} else {
			out = append(out, []any{0, e.line, e.input})
		}
	}
	return map[string]any{"status": "ok", "history": out}
}

// globMatcher compiles an IPython history glob: * is any text (newlines and
// slashes included), ? one character; the pattern must match the whole input.
func globMatcher(glob string) func(string) bool {
	if glob == "" {
		glob = "*"
	}
	var b strings.Builder
	b.WriteString("(?s)^")
	for _, r := range glob {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	re := regexp.MustCompile(b.String())
	return re.MatchString
}
