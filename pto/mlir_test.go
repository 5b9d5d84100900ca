package pto

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptorepl/ptorepl/internal/mlirtool"
)

// The generic form of every golden module parses and verifies: the builtin,
// func, arith, scf and math ops are checked by MLIR itself; pto ops are
// unregistered and only parsed.
func TestGenericFormVerifiesWithMLIROpt(t *testing.T) {
	bin, ok := mlirtool.Opt()
	if !ok {
		t.Fatal(mlirtool.Missing)
	}
	for _, gc := range goldenCases {
		t.Run(gc.name, func(t *testing.T) {
			text := emitCase(t, gc, true)
			require.NoError(t, mlirtool.Verify(bin, text), "--- input ---\n%s", text)
		})
	}
}
