// Package mlirtool runs Debian's MLIR 16 tools on emitted PTO text: tests
// use it to have MLIR itself parse and verify what codegen writes.
package mlirtool

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
)

// Opt finds mlir-opt: on PATH, else Debian's mlir-opt-16 (package
// mlir-16-tools).
func Opt() (string, bool) {
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

// Missing is the message for a machine without mlir-opt.
const Missing = "mlir-opt not found (looked for mlir-opt and mlir-opt-16 on PATH and /usr/bin/mlir-opt-16): " +
	"the test command (scripts/test.sh) installs Debian's mlir-16-tools; run `apt-get install mlir-16-tools`"

// Verify has mlir-opt bin parse and verify text, a module in MLIR's
// generic form (unregistered dialects, such as pto, are only parsed).
func Verify(bin, text string) error {
	cmd := exec.Command(bin, "--allow-unregistered-dialect", "-")
	cmd.Stdin = bytes.NewBufferString(text)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s rejects the module: %v\n%s", bin, err, out.String())
	}
	return nil
}
