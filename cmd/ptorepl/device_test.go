//go:build !mpi

package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestDeviceFlagWithoutMPI: choosing the MPI device in a build without it
// is one clear error saying how to build with it, from every front-end.
func TestDeviceFlagWithoutMPI(t *testing.T) {
	want := "rebuild with `go build -tags mpi`"
	if err := useDevice("mpi"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("kernel --device mpi: got %v", err)
	}
	var out, errb bytes.Buffer
	if code := kernelMain([]string{"--device", "mpi", "conn.json"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), want) {
		t.Errorf("ptorepl kernel --device mpi: exit %d, %q", code, errb.String())
	}
	if err := useDevice("sim"); err != nil {
		t.Errorf("kernel --device sim: %v", err)
	}
}
