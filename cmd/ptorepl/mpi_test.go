//go:build mpi

package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/mpidev"
	"github.com/stretchr/testify/require"
)

// TestMain: under -tags mpi this test binary is also the MPI worker the
// device starts.
func TestMain(m *testing.M) {
	mpidev.MaybeWorker()
	os.Exit(m.Run())
}

// outputs keeps the tensor lines of `ptorepl run --entry` output.
func outputs(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, " = tensor(") || strings.HasPrefix(l, " ") || strings.HasPrefix(l, "[") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// `ptorepl run --device mpi` and the REPL's `:run -device mpi` give the
// simulator's outputs.
func TestRunOnMPI(t *testing.T) {
	var sim, mpi, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"run", "--entry", "ring_put", "--ranks", "3", ringPy}, nil, &sim, &errOut), errOut.String())
	require.Equal(t, 0, run([]string{"run", "--device", "mpi", "--entry", "ring_put", "--ranks", "3", ringPy}, nil, &mpi, &errOut), errOut.String())
	require.NotEmpty(t, outputs(sim.String()))
	require.Equal(t, outputs(sim.String()), outputs(mpi.String()))
	require.Contains(t, mpi.String(), "race checking is a simulator feature")

	var out bytes.Buffer
	src, err := os.ReadFile("testdata/quickstart.go")
	require.NoError(t, err)
	code := run(nil, strings.NewReader(string(src)+"\n:run -ranks 2 -device mpi\n:run -ranks 2\n"), &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	parts := strings.Split(out.String(), "ran Quickstart on 2 ranks")
	require.Len(t, parts, 3, out.String())
	// Past the first line (the op count: each worker counts its own) the
	// outputs and the signal report agree.
	_, sim2, _ := strings.Cut(parts[2], "\n")
	_, mpi2, _ := strings.Cut(parts[1], "\n")
	require.Equal(t, outputs(sim2), outputs(mpi2))
}
