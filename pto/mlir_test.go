package pto

import (
	"bytes"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

// mlirOpt finds MLIR 16's mlir-opt: mlir-opt on PATH, else Debian's
// mlir-opt-16 (package mlir-16-tools).
func mlirOpt() (string, bool) {
	for _, name := range []string{"mlir-opt", "mlir-opt-16"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	if _, err := os.Stat("/usr/bin/mlir-opt-16"); err == nil {
		return "/usr/bin/mlir-opt-16", true
	}
	return "", false
}

// The generic form of every golden module parses and verifies: the builtin,
// func, arith, scf and math ops are checked by MLIR itself; pto ops are
// unregistered and only parsed.
func TestGenericFormVerifiesWithMLIROpt(t *testing.T) {
	bin, ok := mlirOpt()
	if !ok {
		t.Fatalf("mlir-opt not found (looked for mlir-opt and mlir-opt-16 on PATH and /usr/bin/mlir-opt-16): " +
			"the test command (scripts/test.sh) installs Debian's mlir-16-tools; run `apt-get install mlir-16-tools`")
	}
	for _, gc := range goldenCases {
		t.Run(gc.name, func(t *testing.T) {
			text := emitCase(t, gc, true)
			cmd := exec.Command(bin, "--allow-unregistered-dialect", "-")
			cmd.Stdin = bytes.NewBufferString(text)
			var out bytes.Buffer
			cmd.Stdout = &out
			cmd.Stderr = &out
			require.NoError(t, cmd.Run(), "%s rejects the generic form:\n%s\n--- input ---\n%s", bin, out.String(), text)
		})
	}
}
