//go:build cgo

package pyfront_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
)

// TestOutlinedScopes: the programs of scopes.py after the two outlining
// passes, as printed, against testdata/authoring/scopes.outlined.golden:
// each scope a function (name_hint or <parent>_incore_<n>, a hierarchy
// scope <parent>_<level>_<role>_<n>), its parameters what the body reads
// from before it with directions from what it stores into, each scope a
// call whose stored tensors get fresh names that later statements use.
func TestOutlinedScopes(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "scopes.py"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, name := range mod.Names() {
		prog, err := mod.Program(name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := pl.TryCompile(prog, pl.Ranks(2))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		st, ok := c.Stage("OutlineIncoreScopes")
		if !ok || !st.Changed {
			t.Fatalf("%s: OutlineIncoreScopes changed nothing", name)
		}
		b.WriteString(st.Text)
		b.WriteString("\n")
	}
	path := filepath.Join("testdata", "authoring", "scopes.outlined.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./pyfront -run TestOutlinedScopes -update writes it)", err)
	}
	if b.String() != string(want) {
		t.Fatalf("the outlined programs differ from %s (go test ./pyfront -run TestOutlinedScopes -update, then review the diff):\n%s", path, b.String())
	}
}

// A CORE_GROUP scope belongs in an orchestrator: in a kernel it is an
// error that names the function, not a silent no-op.
func TestScopeInKernelIsAnError(t *testing.T) {
	src := `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [8, 16])
            pl.store(t, [0, 0], y)
`
	mod, err := pl.ParsePython(src)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program("P")
	if err != nil {
		t.Fatal(err)
	}
	_, err = pl.TryCompile(prog, pl.Ranks(2))
	if err == nil || !strings.Contains(err.Error(), "InCore function k holds a pl.at(level=pl.Level.CORE_GROUP) scope: only Opaque and Orchestration functions may") {
		t.Fatalf("got %v", err)
	}
}

// Scopes survive ptorepl's JSON form: every scopes.py program, as written,
// unmarshals to a structurally equal program.
func TestScopesSerialize(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "scopes.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range mod.Names() {
		prog, err := mod.Program(name)
		if err != nil {
			t.Fatal(err)
		}
		data, err := ir.MarshalProgram(prog.IR())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(string(data), `"Scope"`) {
			t.Fatalf("%s: no scope in %s", name, data)
		}
		back, err := ir.UnmarshalProgram(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := ir.AssertStructuralEqual(prog.IR(), back, true); err != nil {
			t.Fatalf("%s: the program read back differs: %v", name, err)
		}
	}
}
