package pl

import (
	"fmt"

	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/pyfront"
	"github.com/ptorepl/ptorepl/tensor"
)

// Module is a PyPTO Python file read into programs: its @pl.program classes,
// its @pl.jit.host entries (each a program named after the entry, holding
// every function it reaches) and its factories (a def returning a
// @pl.program class).
type Module struct {
	m *pyfront.Module
}

// LoadPython reads a PyPTO Python file. PyPTO: the file as written.
func LoadPython(path string) (*Module, error) {
	m, err := pyfront.Load(path)
	if err != nil {
		return nil, err
	}
	return &Module{m: m}, nil
}

// ParsePython reads PyPTO Python source (messages name it "<source>").
func ParsePython(src string) (*Module, error) {
	return ParsePythonNamed("<source>", src)
}

// ParsePythonNamed reads PyPTO Python source; name prefixes its messages
// (name:line:col).
func ParsePythonNamed(name, src string) (*Module, error) {
	m, err := pyfront.Parse(name, []byte(src))
	if err != nil {
		return nil, err
	}
	return &Module{m: m}, nil
}

// Names lists the module's programs and factories in source order.
func (m *Module) Names() []string { return m.m.Names() }

// IsFactory reports whether name is a factory (a def that builds and
// returns a program: call it with Call).
func (m *Module) IsFactory(name string) bool { return m.m.IsFactory(name) }

// Tests lists the file's pytest tests that build a program, one per
// combination of their @pytest.mark.parametrize values, by pytest's ids
// ("TestDiv::test_div[f32-a2a3]"); Program(id) builds one. PyPTO: what
// `pytest --collect-only` lists for the file.
func (m *Module) Tests() []string { return m.m.Tests() }

// Program returns the program called name: a class, a @pl.jit.host entry,
// or the program a test (an id Tests lists) builds.
func (m *Module) Program(name string) (*Program, error) {
	p, err := m.m.Program(name)
	if err != nil {
		return nil, err
	}
	return wrapIR(p), nil
}

// Call builds the program a factory returns. args (Go ints, floats, bools,
// strings, dtypes such as pl.FP32 and reduce ops such as pld.Sum) bind to
// its parameters in order, keyword-only ones (after a bare *) included;
// missing ones take their Python defaults. PyPTO: build_x(4, True).
func (m *Module) Call(name string, args ...interface{}) (*Program, error) {
	p, err := m.m.Call(name, args...)
	if err != nil {
		return nil, err
	}
	return wrapIR(p), nil
}

// Specialize builds the program of a @pl.jit entry as calling it with
// args would: a tensor (*pl.Tensor data, or a type such as
// pl.Tensor(pl.Dims(128, 128), pl.FP32)) for each tensor parameter, whose
// shape and dtype a bare pl.Tensor parameter takes, and a Go int, float
// or bool for each scalar parameter, in order. The file's own calls size
// an entry when it is read; Specialize sizes one the file never calls, or
// at other sizes. PyPTO: example_orch(a, b, f) with torch tensors.
func (m *Module) Specialize(name string, args ...interface{}) (*Program, error) {
	conv := make([]any, len(args))
	for i, a := range args {
		if t, ok := a.(*tensor.Tensor); ok && t != nil {
			shape := t.Shape()
			dims := make([]ir.Expr, len(shape))
			for k, d := range shape {
				dims[k] = ir.Int(int64(d))
			}
			a = &ir.TensorType{Shape: dims, DType: t.DType()}
		}
		conv[i] = a
	}
	p, err := m.m.Specialize(name, conv...)
	if err != nil {
		return nil, err
	}
	return wrapIR(p), nil
}

// NoPrograms says, for a module with no program or factory, what programs
// are built from and which of its kernels wait for a host entry; it is ""
// when the module has one.
func (m *Module) NoPrograms() string { return m.m.NoPrograms() }

// String prints every program of the module (factories are listed; a
// test case whose parameters all have defaults prints as they build it),
// or says why there is none.
func (m *Module) String() string {
	if why := m.NoPrograms(); why != "" {
		return "# " + why
	}
	var out string
	for i, n := range m.m.Names() {
		if i > 0 {
			out += "\n\n"
		}
		if m.m.IsDefaultCase(n) {
			if p, err := m.m.Call(n); err == nil {
				out += "# test case " + n + " with its defaults (mod.Call(\"" + n + "\", ...) for others)\n" + printer.Program(p)
				continue
			}
		}
		if m.m.IsFactory(n) {
			out += "# factory " + n + ": call it with mod.Call(\"" + n + "\", ...)"
			if ids := m.m.TestsCalling(n); len(ids) > 0 {
				out += testsLine(ids)
			}
			continue
		}
		p, err := m.m.Program(n)
		if err != nil {
			out += "# " + err.Error()
			continue
		}
		out += printer.Program(p)
	}
	return out
}

// testsLine names the tests that build a factory's program: the first
// few ids and how many there are.
func testsLine(ids []string) string {
	const show = 3
	s := "\n# its tests build it: mod.Program(\"" + ids[0] + "\")"
	for i := 1; i < len(ids) && i < show; i++ {
		s += ", mod.Program(\"" + ids[i] + "\")"
	}
	if len(ids) > show {
		s += fmt.Sprintf(" and %d more (mod.Tests())", len(ids)-show)
	}
	return s
}

// wrapIR makes a program built elsewhere (read from Python) usable like one
// built with NewProgram: print, compile, step, check and run it.
func wrapIR(p *ir.Program) *Program {
	st := &dsl.ProgramState{Prog: p, Allocs: map[string]ir.Span{}}
	for _, f := range p.Functions {
		ir.WalkStmt(f.Body, nil, func(s ir.Stmt) {
			if a, ok := s.(*ir.AssignStmt); ok {
				if c, ok := a.Value.(*ir.Call); ok && c.Op == ir.PldTensorAllocWindowBuffer {
					st.Allocs[a.Var.Name] = a.Pos
				}
			}
		})
	}
	dsl.NoteProgram(p)
	return &Program{st: st}
}
