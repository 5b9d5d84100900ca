package main

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// cellMarker separates cells in a script (jupytext's percent format).
var cellMarker = regexp.MustCompile(`(?m)^//\s*%%.*$`)

// splitScript cuts a file into cells at "// %%" lines.
func splitScript(src string) []string {
	var cells []string
	for _, c := range cellMarker.Split(src, -1) {
		if strings.TrimSpace(c) != "" {
			cells = append(cells, c)
		}
	}
	return cells
}

// runFiles evaluates each file's cells in one session, printing what the
// REPL would print; it stops at the first error and reports failure.
func runFiles(files []string, stdout, stderr io.Writer) int {
	if len(files) == 0 {
		fmt.Fprintln(stderr, "usage: ptorepl run FILE.go...")
		return 2
	}
	r, err := newREPL(stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "ptorepl: %v\n", err)
			return 1
		}
		for _, cell := range splitScript(string(src)) {
			if ok, quit := r.eval(cell); !ok {
				fmt.Fprintf(stderr, "ptorepl: %s: stopped at the first failing cell\n", name)
				return 1
			} else if quit {
				return 0
			}
		}
	}
	return 0
}
