package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/ptorepl/ptorepl/interp"
)

// cellMarker separates cells in a script (jupytext's percent format).
var cellMarker = regexp.MustCompile(`(?m)^//\s*%%.*$`)

// splitScript cuts a file into cells at "// %%" lines.
func splitScript(src string) []string {
	var cells []string
	for _, c := range scriptCells(src) {
		cells = append(cells, c.text)
	}
	return cells
}

// scriptCell is one cell of a script and the file line its text starts on.
type scriptCell struct {
	text string
	line int
}

// scriptCells cuts a file into cells at "// %%" lines, keeping where each
// starts so that errors can name the file's line, not the cell's.
func scriptCells(src string) []scriptCell {
	var cells []scriptCell
	start, line := 0, 1
	add := func(end int) {
		c := src[start:end]
		if strings.TrimSpace(c) != "" {
			cells = append(cells, scriptCell{text: c, line: line})
		}
	}
	for _, m := range cellMarker.FindAllStringIndex(src, -1) {
		add(m[0])
		// The next cell's text starts right after the marker, on its line.
		line += strings.Count(src[start:m[1]], "\n")
		start = m[1]
	}
	add(len(src))
	return cells
}

// inFile restates a cell error at the script's own position: FILE:LINE:COL
// (the column when the parser gave one), as go run and compilers do.
func inFile(err error, file string, first int) error {
	var ce *interp.CellError
	if !errors.As(err, &ce) || ce.Line <= 0 {
		return err
	}
	pos := fmt.Sprintf("%s:%d", file, first+ce.Line-1)
	if ce.Col > 0 {
		pos += fmt.Sprintf(":%d", ce.Col)
	}
	return fmt.Errorf("%s: %s", pos, ce.Msg)
}

// runArgs splits `run` arguments into files and the program's arguments:
// the first argument and the .go files right after it are files; the rest
// (or everything after "--") is os.Args[1:] for the cells.
func runArgs(args []string) (files, progArgs []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
		if i > 0 && !strings.HasSuffix(a, ".go") {
			return args[:i], args[i:]
		}
	}
	return args, nil
}

// runFiles evaluates each file in one session, printing what the REPL would
// print; it stops at the first error and reports failure. A file that is a
// whole program (package main with func main) runs as `go run` runs it:
// main once, and its os.Exit code is the command's.
func runFiles(args []string, stdout, stderr io.Writer) int {
	files, progArgs := runArgs(args)
	if len(files) == 0 {
		fmt.Fprintln(stderr, "usage: ptorepl run FILE.go... [--] [ARGS...]")
		return 2
	}
	r, err := newREPL(stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	if err := r.s.SetArgs(append([]string{files[0]}, progArgs...)); err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "ptorepl: %v\n", err)
			return 1
		}
		if interp.IsProgram(string(src)) {
			if _, err := r.s.RunProgram(context.Background(), name, string(src)); err != nil {
				var ce *interp.CellError
				if errors.As(err, &ce) && ce.Kind == "exit" {
					return ce.ExitCode
				}
				fmt.Fprintf(stderr, "%v\n", err)
				return 1
			}
			continue
		}
		for _, cell := range scriptCells(string(src)) {
			r.place = func(err error) error { return inFile(err, name, cell.line) }
			ok, quit := r.eval(cell.text)
			r.place = nil
			if !ok {
				fmt.Fprintf(stderr, "ptorepl: %s: stopped at the first failing cell\n", name)
				return 1
			} else if quit {
				return 0
			}
		}
	}
	return 0
}
