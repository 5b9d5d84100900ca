package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ptorepl/ptorepl/interp"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
)

// compileFiles evaluates the files as cells (their output is not shown),
// lowers the last program they build through the pipeline and writes the
// PTO modules and the comm manifest to --out, or prints the PTO text.
// --stages prints what every pass changed.
func compileFiles(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory for <kernel>.pto files and orchestration/comm_manifest.json")
	ranks := fs.Int("ranks", 0, "rank count, to resolve window sizes that depend on the world size")
	stages := fs.Bool("stages", false, "print the diff of every pass that changed the program")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: ptorepl compile [--out DIR] [--ranks N] [--stages] FILE.go...")
		fs.PrintDefaults()
	}
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(files) == 0 {
		fs.Usage()
		return 2
	}
	if err := ranksGiven(fs, "ptorepl compile", *ranks); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	r, err := newREPL(io.Discard, stderr)
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
			if ok, _ := r.eval(cell); !ok {
				fmt.Fprintf(stderr, "ptorepl: %s: stopped at the first failing cell\n", name)
				return 1
			}
		}
	}
	p := r.s.LastProgram()
	if p == nil {
		fmt.Fprintln(stderr, "ptorepl compile: the files build no program (pl.NewProgram)")
		return 1
	}
	if *stages && !printStages(p, stdout, stderr) {
		return 1
	}
	// The post-pipeline verifier's warnings go to stderr, whatever the
	// output; a pipeline error is reported by the steps below.
	warnings, _ := interp.Warnings(p)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "ptorepl compile: %s\n", w)
	}
	if *out == "" {
		text, err := interp.PTOText(p)
		if err != nil {
			fmt.Fprintf(stderr, "ptorepl compile: %v\n", err)
			return 1
		}
		fmt.Fprint(stdout, ensureNewline(text))
		return 0
	}
	paths, err := interp.WriteCompiled(p, *out, *ranks)
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl compile: %v\n", err)
		return 1
	}
	for _, path := range paths {
		fmt.Fprintln(stdout, "wrote", path)
	}
	return 0
}

// printStages prints what every pass of the pipeline changed in p; false
// when a pass fails (its error reported).
func printStages(p *ir.Program, stdout, stderr io.Writer) bool {
	s := interp.NewStepper(p)
	for {
		st, ok, err := s.Step()
		if err != nil {
			fmt.Fprintf(stderr, "ptorepl compile: %v\n", err)
			return false
		}
		if !ok {
			return true
		}
		if st.Changed {
			fmt.Fprintf(stdout, "# ==== %s\n%s", st.Name, ensureNewline(st.Diff))
		} else {
			fmt.Fprintf(stdout, "# ==== %s: unchanged\n", st.Name)
		}
	}
}

// ranksGiven validates --ranks when the command line gave it, with the
// bounds pl.Ranks enforces in a cell.
// parseInterleaved parses a command line whose flags may come before or
// after its files (ptorepl run kernel.py --entry k, as Python tools take
// them), and returns the files in order. After "--" every argument is a
// file.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return files, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(files, rest...), nil
		}
		files = append(files, rest[0])
		args = rest[1:]
	}
}

func ranksGiven(fs *flag.FlagSet, cmd string, n int) error {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "ranks" })
	if !given {
		return nil
	}
	return runtime.CheckRanks(cmd, "--ranks", n)
}
