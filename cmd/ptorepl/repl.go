package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/chzyer/readline"
	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/interp"
)

// repl evaluates cells and meta commands and prints what they produce. The
// interactive loop, the scripted (non-terminal) loop and `ptorepl run` all
// go through it, so they print the same things.
type repl struct {
	s      *interp.Session
	out    io.Writer // the real stdout: captured cell output is forwarded here
	errOut io.Writer
	meta   map[string]metaCommand
	// interrupt cancels the running cell; nil when idle.
	mu        sync.Mutex
	interrupt context.CancelFunc
	// state for pass stepping: stepper is :step's cursor; viewer answers
	// :stage and :diff on its own copy, so looking never moves the cursor.
	stepper *stepper
	viewer  *stepper
	// progress is the terminal's "still running" line (nil when scripted).
	progress *progressLine
	// place, when set, restates an error's position (ptorepl run: the
	// script file's line instead of the cell's).
	place func(error) error
}

type metaCommand struct {
	args string
	help string
	run  func(r *repl, arg string) error
}

func newREPL(out, errOut io.Writer) (*repl, error) {
	r := &repl{out: out, errOut: errOut}
	s, err := interp.New(interp.Options{OnOutput: func(o interp.Output) {
		r.progress.clear() // output goes where the progress line was
		if o.Stream == "stderr" {
			io.WriteString(r.errOut, o.Text)
		} else {
			io.WriteString(r.out, o.Text)
		}
	}})
	if err != nil {
		return nil, err
	}
	r.s = s
	r.meta = metaCommands()
	return r, nil
}

// eval runs one cell (or meta command) and prints its value or error.
// It returns false when the user asked to quit.
func (r *repl) eval(cell string) (ok, quit bool) {
	trimmed := strings.TrimSpace(cell)
	if trimmed == "" {
		return true, false
	}
	stop := r.progress.start()
	defer stop()
	if strings.HasPrefix(trimmed, ":") {
		return r.runMeta(trimmed)
	}
	ctx, done := r.interruptible()
	res, err := r.s.Eval(ctx, cell)
	done()
	stop()
	if err != nil {
		if r.place != nil {
			err = r.place(err)
		}
		fmt.Fprintf(r.errOut, "error: %v\n", err)
		return false, false
	}
	if res.HasValue() {
		fmt.Fprintln(r.out, res.Text())
	}
	return true, false
}

// cancelRunning interrupts the running cell, if any.
func (r *repl) cancelRunning() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.interrupt != nil {
		r.interrupt()
		return true
	}
	return false
}

// isCommandLine reports whether line is one of the REPL's commands (a
// colon and a known name), which no Go continuation line is.
func isCommandLine(line string) bool {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, ":") {
		return false
	}
	name, _, _ := strings.Cut(t[1:], " ")
	if name == "quit" || name == "q" || name == "exit" {
		return true
	}
	_, known := metaCommands()[name]
	return known
}

func (r *repl) runMeta(line string) (ok, quit bool) {
	name, arg, _ := strings.Cut(strings.TrimPrefix(line, ":"), " ")
	if name == "quit" || name == "q" || name == "exit" {
		return true, true
	}
	m, found := r.meta[name]
	if !found {
		fmt.Fprintf(r.errOut, "error: unknown command :%s (try :help)\n", name)
		return false, false
	}
	if err := m.run(r, strings.TrimSpace(arg)); err != nil {
		fmt.Fprintf(r.errOut, "error: %v\n", err)
		return false, false
	}
	return true, false
}

func helpText(cmds map[string]metaCommand) string {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("Type Go statements and declarations; pl, pld and tensor are imported.\n")
	b.WriteString("A cell continues over several lines until its brackets close; a command drops it.\n\n")
	for _, n := range names {
		c := cmds[n]
		fmt.Fprintf(&b, "  :%-22s %s\n", strings.TrimSpace(n+" "+c.args), c.help)
	}
	fmt.Fprintf(&b, "  :%-22s %s\n", "quit", "leave (Ctrl-D also works)")
	b.WriteString("\nCtrl-C cancels a running cell or clears the input line.\n")
	return b.String()
}

// readCells splits line input into cells: a cell ends when it is complete
// (or invalid, which evaluation then reports). prompt is called before each
// line with whether a cell is in progress. A command line (:quit, :run, ...)
// typed while a cell is unfinished drops that cell, after dropped is told,
// and runs: an unclosed bracket must not swallow a :quit.
func readCells(next func(continued bool) (string, error), cell func(string) bool, dropped func()) error {
	var buf []string
	for {
		line, err := next(len(buf) > 0)
		if err != nil {
			if len(buf) > 0 && errors.Is(err, io.EOF) {
				cell(strings.Join(buf, "\n"))
			}
			return err
		}
		if len(buf) > 0 && isCommandLine(line) {
			buf = nil
			dropped()
		}
		// A meta command is a single line.
		if len(buf) == 0 && strings.HasPrefix(strings.TrimSpace(line), ":") {
			if !cell(line) {
				return nil
			}
			continue
		}
		buf = append(buf, line)
		src := strings.Join(buf, "\n")
		if st, _ := interp.IsComplete(src); st == interp.Incomplete {
			continue
		}
		buf = nil
		if !cell(src) {
			return nil
		}
	}
}

// replMain runs the REPL: interactive on a terminal, scripted otherwise.
func replMain(stdin io.Reader, stdout, stderr io.Writer) int {
	r, err := newREPL(stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	// Ctrl-C while a cell runs cancels it; at the prompt readline sees it.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	go func() {
		for range sig {
			if r.cancelRunning() {
				fmt.Fprintln(stderr, "^C")
			}
		}
	}()
	if f, ok := stdin.(*os.File); ok && readline.IsTerminal(int(f.Fd())) {
		return r.interactive(f, stdout, stderr)
	}
	failed := false
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	err = readCells(func(bool) (string, error) {
		if !sc.Scan() {
			if sc.Err() != nil {
				return "", sc.Err()
			}
			return "", io.EOF
		}
		return sc.Text(), nil
	}, func(cell string) bool {
		ok, quit := r.eval(cell)
		failed = failed || !ok
		return !quit
	}, func() {
		fmt.Fprintln(stderr, "(the unfinished cell above was dropped: a command ends it)")
		failed = true
	})
	if failed {
		return 1
	}
	return 0
}

func historyFile() string {
	if p := os.Getenv("PTOREPL_HISTORY"); p != "" {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".ptorepl_history")
}

const (
	prompt     = ">>> "
	contPrompt = "... "
)

func (r *repl) interactive(in *os.File, stdout, stderr io.Writer) int {
	hist := openHistory(historyFile())
	rl, err := readline.NewEx(&readline.Config{
		Prompt: prompt,
		// History is whole cells, kept by openHistory: readline's own file
		// holds one physical line per entry.
		DisableAutoSaveHistory: true,
		Painter:                cellPainter{},
		AutoComplete:           &completer{s: r.s},
		InterruptPrompt:        "^C",
		EOFPrompt:              "",
		Stdin:                  in,
		Stdout:                 stdout,
		Stderr:                 stderr,
	})
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	defer rl.Close()
	loadHistory := func() {
		rl.ResetHistory()
		// The newest cells, as many as readline keeps (its default limit).
		for _, c := range hist.cells[max(0, len(hist.cells)-readlineHistory):] {
			_ = rl.SaveHistory(toLine(c))
		}
	}
	loadHistory()
	r.progress = &progressLine{w: stderr}
	// Updatable displays (pl.Run's progress) draw on the progress line.
	defer display.SetPublisher(display.SetPublisher(termPublisher{p: r.progress, out: stdout}))
	fmt.Fprintf(stdout, "ptorepl %s — Go cells build PyPTO programs; :help for commands, Ctrl-D to quit.\n", version)
	next := func(continued bool) (string, error) {
		if continued {
			rl.SetPrompt(contPrompt)
		} else {
			rl.SetPrompt(prompt)
		}
		for {
			line, err := rl.Readline()
			if errors.Is(err, readline.ErrInterrupt) {
				if continued {
					// Ctrl-C drops the unfinished cell.
					fmt.Fprintln(stdout, "(cell dropped)")
					return "", errDropCell
				}
				continue
			}
			if errors.Is(err, io.EOF) && continued {
				// Ctrl-D at "..." drops the half-typed cell rather than
				// evaluating it; Ctrl-D at ">>>" leaves.
				fmt.Fprintln(stdout, "(cell dropped)")
				return "", errDropCell
			}
			return fromLine(line), err
		}
	}
	onCell := func(cell string) bool {
		if strings.TrimSpace(cell) != "" {
			hist.add(cell)
			loadHistory()
		}
		_, quit := r.eval(cell)
		return !quit
	}
	dropped := func() { fmt.Fprintln(stdout, "(the unfinished cell was dropped: a command ends it)") }
	for errors.Is(readCells(next, onCell, dropped), errDropCell) {
	}
	return 0
}

var errDropCell = errors.New("cell dropped")

// readlineHistory is readline's default history limit.
const readlineHistory = 500

// completer adapts the session's completion to readline, which wants the
// suffixes to insert and the length of the typed prefix they share.
type completer struct{ s *interp.Session }

func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	code := string(line[:pos])
	comp := c.s.Complete(code, len(code))
	typed := code[comp.Start:comp.End]
	var out [][]rune
	for _, m := range comp.Matches {
		if strings.HasPrefix(m, typed) {
			out = append(out, []rune(m[len(typed):]))
		}
	}
	return out, len([]rune(typed))
}

// interruptible is the context of one command or cell: Ctrl-C cancels it
// until done is called.
func (r *repl) interruptible() (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(context.Background())
	r.mu.Lock()
	r.interrupt = cancel
	r.mu.Unlock()
	return ctx, func() {
		r.mu.Lock()
		r.interrupt = nil
		r.mu.Unlock()
		cancel()
	}
}
