//go:build mpi

package main

import (
	"fmt"
	"os"

	"github.com/ptorepl/ptorepl/mpidev"
)

// With -tags mpi, ptorepl has the MPI device (pl.MPI(), --device mpi) and
// is its own worker: the device starts `ptorepl mpi-worker` under mpirun,
// and the worker takes over before anything else starts.
func init() {
	mpidev.MaybeWorker()
	if len(os.Args) > 1 && os.Args[1] == "mpi-worker" {
		fmt.Fprintln(os.Stderr, "ptorepl mpi-worker: this is how the MPI device starts its workers under mpirun; it is not meant to be run by hand")
		os.Exit(2)
	}
}
