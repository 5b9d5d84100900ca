package pto

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptorepl/ptorepl/printer"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// emitCase emits a golden case in custom or generic form.
func emitCase(t *testing.T, gc goldenCase, generic bool) string {
	t.Helper()
	p, fn := gc.build()
	o := gc.opts
	o.Generic = generic
	text, err := EmitFunction(p, fn, o)
	require.NoError(t, err, "kernel:\n%s", printer.Function(fn))
	return text
}

// checkGolden compares text with testdata/<file>, or rewrites it with -update.
func checkGolden(t *testing.T, file, text string) {
	t.Helper()
	path := filepath.Join("testdata", file)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden %s: run go test ./pto -update", path)
	require.Equal(t, string(want), text, "golden %s differs (go test ./pto -update rewrites it)", path)
}

func TestGoldens(t *testing.T) {
	for _, gc := range goldenCases {
		t.Run(gc.name, func(t *testing.T) {
			checkGolden(t, gc.name+".mlir", emitCase(t, gc, false))
			checkGolden(t, gc.name+".generic.mlir", emitCase(t, gc, true))
		})
	}
}

// Emission is deterministic: the same kernel gives the same text twice.
func TestDeterministic(t *testing.T) {
	for _, gc := range goldenCases {
		require.Equal(t, emitCase(t, gc, false), emitCase(t, gc, false), gc.name)
	}
}
