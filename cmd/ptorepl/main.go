// Command ptorepl is an interactive Go REPL for building, compiling and
// running PyPTO distributed kernels, and a Jupyter kernel.
//
//	ptorepl                 interactive REPL (reads cells from stdin when it is not a terminal)
//	ptorepl run FILE.go...  evaluate files as cells separated by "// %%" lines
//	ptorepl compile FILE.go...  lower the program the files build to PTO-MLIR and a comm manifest
//	ptorepl kernel FILE     the Jupyter kernel (ptorepl kernel install writes its kernelspec)
//	ptorepl version         print the version
package main

import (
	"fmt"
	"io"
	"os"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return replMain(stdin, stdout, stderr)
	}
	// Every subcommand answers -h/--help with its usage, before it reads
	// any argument (so `ptorepl run --help` is not a file name).
	if help, ok := subcommandHelp(args); ok {
		fmt.Fprint(stdout, help)
		return 0
	}
	switch args[0] {
	case "run":
		if isPython(args[1:]) {
			return runPython(args[1:], stdout, stderr)
		}
		return runFiles(args[1:], stdout, stderr)
	case "compile":
		if isPython(args[1:]) {
			return compilePython(args[1:], stdout, stderr)
		}
		return compileFiles(args[1:], stdout, stderr)
	case "kernel":
		return kernelMain(args[1:], stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "ptorepl %s\n", version)
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "ptorepl: unknown command %q\n\n%s", args[0], usage)
	return 2
}

const usage = `usage:
  ptorepl                  interactive REPL on the embedded simulator
  ptorepl run FILE.go...   evaluate files as cells separated by "// %%" lines
  ptorepl compile [--out DIR] [--ranks N] [--stages] FILE.go...
                           lower the last program the files build to PTO-MLIR
                           and its comm manifest
  ptorepl run [--entry NAME [--args A,B] [--ranks N] [--cores K] [--dims M=64,N=128] [--relaxed]] FILE.py
                           print a PyPTO Python file's programs; run one
                           (a factory's with --args; a @pl.jit entry's sized by
                           --args 16x16:fp32,...) on seeded random inputs
  ptorepl compile [--entry NAME [--args A,B]] [--out DIR] [--stages] FILE.py
                           lower one program of a PyPTO Python file
  ptorepl kernel CONNECTION_FILE
                           run the Jupyter kernel
  ptorepl kernel install [--user] [--prefix DIR] [--name NAME]
                           write a Jupyter kernelspec
  ptorepl version          print the version
`

// Usage of each subcommand, for --help.
const (
	runUsage = `usage: ptorepl run FILE.go...

Evaluate the files in one session, cell by cell ("// %%" lines separate
cells), printing what the REPL would print. It stops at the first failing
cell and exits 1.
`
	compileUsage = `usage: ptorepl compile [--out DIR] [--ranks N] [--stages] FILE.go...

Evaluate the files (their output is not shown), lower the last program they
build through the pass pipeline, and print its PTO-MLIR, or write it.

  --out DIR    write <kernel>.pto per InCore function and
               orchestration/comm_manifest.json under DIR
  --ranks N    rank count, to size windows that depend on the world size
  --stages     print the diff of every pass that changed the program
`
	kernelUsage = `usage: ptorepl kernel CONNECTION_FILE
       ptorepl kernel install [--user] [--prefix DIR] [--name NAME]

Run the Jupyter kernel on the connection file Jupyter gives it, or install
its kernelspec (see ptorepl kernel install --help).
`
	kernelInstallUsage = `usage: ptorepl kernel install [--user] [--prefix DIR] [--name NAME]

Write a Jupyter kernelspec that runs this ptorepl binary. A binary that
lives in a temporary directory (go run, go test) is copied into the
kernelspec folder first, so the kernel keeps working after it is gone.

  --user         install for the current user (JUPYTER_DATA_DIR if set)
  --prefix DIR   install under DIR/share/jupyter/kernels
  --name NAME    kernelspec name (default "ptorepl")
`
	versionUsage = `usage: ptorepl version

Print the version.
`
)

// subcommandHelp returns the usage of the subcommand args name when args
// ask for help (-h, -help or --help before any "--").
func subcommandHelp(args []string) (string, bool) {
	asks := false
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			asks = true
		}
	}
	if !asks {
		return "", false
	}
	switch args[0] {
	case "run":
		return runUsage, true
	case "compile":
		return compileUsage, true
	case "kernel":
		if len(args) > 1 && args[1] == "install" {
			return kernelInstallUsage, true
		}
		return kernelUsage, true
	case "version", "--version", "-version":
		return versionUsage, true
	}
	return "", false
}
