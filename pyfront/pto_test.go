//go:build cgo

package pyfront_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pto"
	"github.com/ptorepl/ptorepl/testprogs"
)

// TestScalarElementPTO: pl.read / pl.write on GM tensors (upstream's
// barrier example surfaces its signal row so) lower to pto.load_scalar and
// pto.store_scalar, and the generic form verifies with mlir-opt.
func TestScalarElementPTO(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "ring.py"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program("arrivals")
	if err != nil {
		t.Fatal(err)
	}
	lowered, err := passes.Lower(prog.IR())
	if err != nil {
		t.Fatal(err)
	}
	for _, generic := range []bool{false, true} {
		mods, err := pto.Emit(lowered, pto.Options{Generic: generic})
		if err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		for _, m := range mods {
			all.WriteString(m.Text)
		}
		text := all.String()
		if !generic {
			for _, want := range []string{"pto.load_scalar %arg1[", "pto.store_scalar %v, %arg0["} {
				if !strings.Contains(text, want) {
					t.Fatalf("missing %q in\n%s", want, text)
				}
			}
			continue
		}
		bin, err := exec.LookPath("mlir-opt-16")
		if err != nil {
			if bin, err = exec.LookPath("mlir-opt"); err != nil {
				t.Fatal("mlir-opt not found: the test command installs Debian's mlir-16-tools")
			}
		}
		cmd := exec.Command(bin, "--allow-unregistered-dialect", "-")
		cmd.Stdin = strings.NewReader(text)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("mlir-opt rejects the generic form: %v\n%s\n%s", err, out.String(), text)
		}
	}
}

// TestRegionAndAllToAllVPTO: the kernels of slices.py (slices become
// region loads, assembles region stores) and the lowered all_to_all_v (a
// scalar count read, a Set notify, a static [MAX_RECV, SIZE] put) emit PTO
// whose generic form verifies with mlir-opt.
func TestRegionAndAllToAllVPTO(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "slices.py"))
	if err != nil {
		t.Fatal(err)
	}
	progs := map[string]*ir.Program{"AllToAllV": testprogs.AllToAllV(4, 3).IR()}
	for _, name := range mod.Names() {
		p, err := mod.Program(name)
		if err != nil {
			t.Fatal(err)
		}
		progs[name] = p.IR()
	}
	// The unary, row, column and cube emitters too.
	jit, err := pl.LoadPython(filepath.Join("testdata", "authoring", "jit_samples.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"activations", "row_softmax", "col_ops", "split_k", "swap_halves", "plus_quarter", "plus_half"} {
		p, err := jit.Program(name)
		if err != nil {
			t.Fatal(err)
		}
		progs[name] = p.IR()
	}
	// The element, array, scatter and partial-combine emitters.
	for file, names := range map[string][]string{"tile_elements.py": {"TileElements"}, "local_array.py": {"Histogram"},
		"mscatter.py": {"Mscatter"}, "part_ops.py": {"PartOps"}, "valid_shapes.py": {"RuntimePrefix"}, "sort.py": {"SortRow"}, "compare.py": {"Compare", "TensorCompare"}} {
		m, err := pl.LoadPython(filepath.Join("testdata", "authoring", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			p, err := m.Program(name)
			if err != nil {
				t.Fatal(err)
			}
			progs[name] = p.IR()
		}
	}
	bin, err := exec.LookPath("mlir-opt-16")
	if err != nil {
		if bin, err = exec.LookPath("mlir-opt"); err != nil {
			t.Fatal("mlir-opt not found: the test command installs Debian's mlir-16-tools")
		}
	}
	for name, p := range progs {
		lowered, err := passes.Lower(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		mods, err := pto.Emit(lowered, pto.Options{Generic: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, m := range mods {
			cmd := exec.Command(bin, "--allow-unregistered-dialect", "-")
			cmd.Stdin = strings.NewReader(m.Text)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s: mlir-opt rejects the generic form: %v\n%s\n%s", name, err, out.String(), m.Text)
			}
		}
	}
}
