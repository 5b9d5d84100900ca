package interp

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/pyfront"
)

// PyptoCell turns a "%%pypto NAME" cell, whose body is PyPTO Python, into
// the Go cell that binds the module to NAME and shows it. ok is false for
// any other cell. A body that does not read, or none of whose programs
// builds, gives its positioned (cell:line:col) error here, so no Go code
// runs; when some programs build, the others show their errors where they
// would print.
func PyptoCell(cell string) (goCode string, ok bool, err error) {
	trimmed := strings.TrimLeft(cell, " \t\r\n")
	skipped := strings.Count(cell[:len(cell)-len(trimmed)], "\n")
	first, body, _ := strings.Cut(trimmed, "\n")
	fields := strings.Fields(first)
	if len(fields) == 0 || fields[0] != "%%pypto" {
		return "", false, nil
	}
	if len(fields) != 2 || !token.IsIdentifier(fields[1]) || token.IsKeyword(fields[1]) {
		return "", true, fmt.Errorf("cell:1:1: usage: %%%%pypto NAME (a Go identifier), then PyPTO Python on the following lines")
	}
	// Leading newlines keep line numbers those of the cell.
	src := strings.Repeat("\n", skipped+1) + body
	mod, err := pyfront.Parse("cell", []byte(src))
	if err != nil {
		return "", true, err
	}
	if err := allFail(mod); err != nil {
		return "", true, err
	}
	return BindPython(fields[1], "cell", src), true, nil
}

// LoadPythonFile is the Go cell that reads the PyPTO file at path (and the
// files beside it that it imports) into a *pl.Module bound to name, and
// shows it.
func LoadPythonFile(name, path string) string {
	return fmt.Sprintf("var %s, _ = pl.LoadPython(%s)\n%s", name, strconv.Quote(path), name)
}

// BindPython is the Go cell that reads PyPTO source into a *pl.Module bound
// to name, and shows it.
func BindPython(name, file, src string) string {
	return fmt.Sprintf("var %s, _ = pl.ParsePythonNamed(%s, %s)\n%s", name, strconv.Quote(file), strconv.Quote(src), name)
}

// allFail is the first entry's error when no program of mod builds (a
// factory counts as one: it is built when called).
func allFail(mod *pyfront.Module) error {
	var first error
	for _, n := range mod.Names() {
		if mod.IsFactory(n) {
			return nil
		}
		_, err := mod.Program(n)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}
