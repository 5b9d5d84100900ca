package kernel

import (
	"context"
	"encoding/json"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/interp"
)

func goVersion() string { return runtime.Version() }

type executeRequest struct {
	Code         string `json:"code"`
	Silent       bool   `json:"silent"`
	StoreHistory *bool  `json:"store_history"`
	StopOnError  *bool  `json:"stop_on_error"`
	AllowStdin   bool   `json:"allow_stdin"`
}

// pagerQuery matches "?name" or "name?": a documentation request.
var pagerQuery = regexp.MustCompile(`^\s*(?:\?\s*([\w.]+)|([\w.]+)\s*\?)\s*$`)

func (k *Kernel) execute(sock zmq4.Socket, a arrived) {
	m := a.m
	var req executeRequest
	if err := json.Unmarshal(m.Content, &req); err != nil {
		k.reply(sock, m, "execute_reply", map[string]any{"status": "error", "ename": "BadRequest", "evalue": err.Error(), "traceback": []string{err.Error()}, "execution_count": k.count})
		return
	}
	store := !req.Silent && (req.StoreHistory == nil || *req.StoreHistory)
	stopOnError := req.StopOnError == nil || *req.StopOnError

	k.abortMu.Lock()
	aborted := a.at.Before(k.abortUntil)
	k.abortMu.Unlock()
	if aborted {
		k.reply(sock, m, "execute_reply", map[string]any{"status": "aborted", "execution_count": k.count})
		return
	}
	if store {
		k.count++
	}
	count := k.count
	if !req.Silent {
		k.broadcast(m, "execute_input", map[string]any{"code": req.Code, "execution_count": count})
	}
	if store {
		k.history.add(count, req.Code)
	}

	// ?name and name? page the documentation, as IPython does.
	if q := pagerQuery.FindStringSubmatch(req.Code); q != nil {
		name := q[1] + q[2]
		in, ok := k.sess.Inspect(name, len(name))
		text := "no documentation for " + name
		if ok {
			text = in.Text()
		}
		k.reply(sock, m, "execute_reply", map[string]any{"status": "ok", "execution_count": count, "user_expressions": map[string]any{},
			"payload": []any{map[string]any{"source": "page", "data": map[string]any{"text/plain": text}, "start": 0}}})
		return
	}

	ctx, cancel := context.WithCancel(context.Background())
	k.runMu.Lock()
	k.cancelRun, k.parent = cancel, m
	k.runMu.Unlock()
	if req.Silent {
		k.runMu.Lock()
		k.parent = nil // silent: no output on iopub
		k.runMu.Unlock()
	}
	res, err := k.evalCell(ctx, req.Code)
	k.runMu.Lock()
	k.cancelRun, k.parent = nil, nil
	k.runMu.Unlock()
	cancel()

	if err != nil {
		ename := "Error"
		if ce, ok := err.(*interp.CellError); ok {
			ename = map[string]string{"compile": "CompileError", "panic": "Panic", "interrupted": "KeyboardInterrupt"}[ce.Kind]
			if ename == "" {
				ename = "Error"
			}
		}
		tb := strings.Split(err.Error(), "\n")
		if !req.Silent {
			k.broadcast(m, "error", map[string]any{"ename": ename, "evalue": err.Error(), "traceback": tb})
		}
		if stopOnError {
			k.abortMu.Lock()
			k.abortUntil = time.Now()
			k.abortMu.Unlock()
		}
		k.reply(sock, m, "execute_reply", map[string]any{"status": "error", "execution_count": count,
			"ename": ename, "evalue": err.Error(), "traceback": tb})
		return
	}
	if res.HasValue() && !req.Silent {
		data := display.Data{}
		for i, v := range res.Values {
			b := display.Bundle(v)
			if i == 0 {
				data = b
				continue
			}
			data["text/plain"] += "\n" + b["text/plain"]
		}
		k.broadcast(m, "execute_result", map[string]any{"execution_count": count, "data": data, "metadata": map[string]any{}})
	}
	k.reply(sock, m, "execute_reply", map[string]any{"status": "ok", "execution_count": count, "user_expressions": map[string]any{}, "payload": []any{}})
}

// onOutput streams captured output to iopub as the cell prints it.
func (k *Kernel) onOutput(o interp.Output) {
	k.runMu.Lock()
	parent := k.parent
	k.runMu.Unlock()
	if parent == nil {
		return
	}
	k.broadcast(parent, "stream", map[string]any{"name": o.Stream, "text": o.Text})
}

func (k *Kernel) interrupt() {
	k.runMu.Lock()
	defer k.runMu.Unlock()
	if k.cancelRun != nil {
		k.cancelRun()
	}
}

// publisher sends cells' display calls to iopub.
type publisher struct{ k *Kernel }

func (p *publisher) Display(data display.Data, id string, update bool) {
	p.k.runMu.Lock()
	parent := p.k.parent
	p.k.runMu.Unlock()
	if parent == nil {
		return
	}
	content := map[string]any{"data": data, "metadata": map[string]any{}, "transient": map[string]any{}}
	if id != "" {
		content["transient"] = map[string]any{"display_id": id}
	}
	kind := "display_data"
	if update {
		kind = "update_display_data"
	}
	p.k.broadcast(parent, kind, content)
}

func (p *publisher) Clear(wait bool) {
	p.k.runMu.Lock()
	parent := p.k.parent
	p.k.runMu.Unlock()
	if parent != nil {
		p.k.broadcast(parent, "clear_output", map[string]any{"wait": wait})
	}
}

func (k *Kernel) complete(sock zmq4.Socket, m *Message) {
	var c struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	json.Unmarshal(m.Content, &c)
	pos := runeToByte(c.Code, c.CursorPos)
	comp := k.sess.Complete(c.Code, pos)
	k.reply(sock, m, "complete_reply", map[string]any{"status": "ok", "matches": comp.Matches,
		"cursor_start": byteToRune(c.Code, comp.Start), "cursor_end": byteToRune(c.Code, comp.End), "metadata": map[string]any{}})
}

func (k *Kernel) inspect(sock zmq4.Socket, m *Message) {
	var c struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	json.Unmarshal(m.Content, &c)
	in, ok := k.sess.Inspect(c.Code, runeToByte(c.Code, c.CursorPos))
	data := map[string]any{}
	if ok {
		data["text/plain"] = in.Text()
	}
	k.reply(sock, m, "inspect_reply", map[string]any{"status": "ok", "found": ok, "data": data, "metadata": map[string]any{}})
}

// Jupyter counts cursor positions in Unicode code points.
func runeToByte(s string, r int) int {
	i := 0
	for b := range s {
		if i == r {
			return b
		}
		i++
	}
	return len(s)
}

func byteToRune(s string, b int) int {
	if b > len(s) {
		b = len(s)
	}
	return len([]rune(s[:b]))
}
