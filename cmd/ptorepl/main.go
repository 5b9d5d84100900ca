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
  ptorepl run [--entry NAME [--ranks N]] FILE.py
                           print a PyPTO Python file's programs; run one on
                           seeded random inputs
  ptorepl compile [--entry NAME] [--out DIR] FILE.py
                           lower one program of a PyPTO Python file
  ptorepl kernel CONNECTION_FILE
                           run the Jupyter kernel
  ptorepl kernel install [--user] [--prefix DIR] [--name NAME]
                           write a Jupyter kernelspec
  ptorepl version          print the version
`
