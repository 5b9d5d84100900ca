//go:build !cgo

package pyfront

import (
	"errors"

	"github.com/ptorepl/ptorepl/ir"
)

// errNoCgo is what every read gives in a build without cgo: the Python
// grammar is C. The rest of ptorepl builds and runs without it.
var errNoCgo = errors.New("reading PyPTO Python needs a cgo build (a C compiler such as gcc; CGO_ENABLED=1)")

// Module is one parsed PyPTO file (never made without cgo).
type Module struct {
	File string
}

// Names lists nothing.
func (m *Module) Names() []string { return nil }

// NoPrograms says there is no reader.
func (m *Module) NoPrograms() string { return errNoCgo.Error() }

// IsFactory reports false.
func (m *Module) IsFactory(string) bool { return false }

// IsDefaultCase reports false.
func (m *Module) IsDefaultCase(string) bool { return false }

// Program fails: there is no reader.
func (m *Module) Program(string) (*ir.Program, error) { return nil, errNoCgo }

// Call fails: there is no reader.
func (m *Module) Call(string, ...any) (*ir.Program, error) { return nil, errNoCgo }

// Specialize fails: there is no reader.
func (m *Module) Specialize(string, ...any) (*ir.Program, error) { return nil, errNoCgo }

// Parse fails: there is no reader.
func Parse(string, []byte) (*Module, error) { return nil, errNoCgo }

// Load fails: there is no reader.
func Load(string) (*Module, error) { return nil, errNoCgo }
