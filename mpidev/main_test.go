//go:build mpi

package mpidev_test

import (
	"os"
	"testing"

	"github.com/ptorepl/ptorepl/mpidev"
)

// TestMain lets the test binary double as the MPI worker: the device
// starts this same binary under mpirun.
func TestMain(m *testing.M) {
	mpidev.MaybeWorker()
	code := m.Run()
	closeDevice()
	os.Exit(code)
}
