package interp

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"sync"
)

// Output is one chunk of captured output.
type Output struct {
	Stream string // "stdout" or "stderr"
	Text   string
}

// capture reroutes the process's stdout and stderr into pipes for the
// duration of one evaluation. Yaegi's own writers only see interpreted fmt
// calls; swapping the os files also catches what compiled code prints, and
// routing both through one pipe per stream keeps their order.
type capture struct {
	mu        sync.Mutex
	outputs   []Output
	onOutput  func(Output)
	oldOut    *os.File
	oldErr    *os.File
	wOut      *os.File
	wErr      *os.File
	done      sync.WaitGroup
	panicLine []string // yaegi's "L:C: panic: f(...)" lines, innermost first
}

var captureMu sync.Mutex // os.Stdout is process-wide: one capture at a time

func startCapture(on func(Output)) (*capture, error) {
	captureMu.Lock()
	c := &capture{onOutput: on, oldOut: os.Stdout, oldErr: os.Stderr}
	rOut, wOut, err := os.Pipe()
	if err != nil {
		captureMu.Unlock()
		return nil, err
	}
	rErr, wErr, err := os.Pipe()
	if err != nil {
		rOut.Close()
		wOut.Close()
		captureMu.Unlock()
		return nil, err
	}
	c.wOut, c.wErr = wOut, wErr
	os.Stdout, os.Stderr = wOut, wErr
	c.done.Add(2)
	go c.drain(rOut, "stdout")
	go c.drain(rErr, "stderr")
	return c, nil
}

func (c *capture) drain(r *os.File, stream string) {
	defer c.done.Done()
	defer r.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			c.emit(stream, string(buf[:n]))
		}
		if err != nil {
			return
		}
	}
}

func (c *capture) emit(stream, text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.outputs); n > 0 && c.outputs[n-1].Stream == stream {
		c.outputs[n-1].Text += text
	} else {
		c.outputs = append(c.outputs, Output{Stream: stream, Text: text})
	}
	if c.onOutput != nil {
		c.onOutput(Output{Stream: stream, Text: text})
	}
}

// stop restores the os files and waits for the pipes to drain.
func (c *capture) stop() []Output {
	os.Stdout, os.Stderr = c.oldOut, c.oldErr
	c.wOut.Close()
	c.wErr.Close()
	c.done.Wait()
	captureMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.outputs
}

// panicFrame matches the line yaegi writes for each frame a panic unwinds.
var panicFrame = regexp.MustCompile(`^(?:[^:\s]*:)?(\d+):(\d+): panic(?:: .*)?$`)

// interpWriter is what yaegi writes interpreted output to: the current
// os.Stdout/os.Stderr (the capture pipes during an evaluation), minus the
// per-frame panic lines, which are kept to position the error instead.
type interpWriter struct {
	stderr bool
	s      *Session
	mu     sync.Mutex
	line   bytes.Buffer
}

func (w *interpWriter) Write(p []byte) (int, error) {
	if !w.stderr {
		return os.Stdout.Write(p)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.line.Write(p)
	for {
		b := w.line.Bytes()
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		l := string(b[:i])
		w.line.Next(i + 1)
		if panicFrame.MatchString(l) {
			w.s.notePanicLine(l)
			continue
		}
		io.WriteString(os.Stderr, l+"\n")
	}
	return len(p), nil
}
