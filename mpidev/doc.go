// Package mpidev is the MPI device: every rank of a program runs as its own
// process under mpirun, on OpenMPI's one-sided communication. Window
// buffers are carved from one MPI window per worker (MPI_Win_allocate,
// passive target: lock_all and flush); put/get/remote_load/remote_store are
// MPI_Put/MPI_Get; signals are INT32 cells updated with MPI_Fetch_and_op;
// waits poll with backoff. Each worker runs its rank with the simulator's
// own op semantics (runtime.RunRank), so outputs match the simulator bit for
// bit.
//
// The device needs cgo and OpenMPI (libopenmpi-dev, openmpi-bin) and is only
// built with the build tag mpi; importing the package then registers the
// device as "mpi" (runtime.OpenDevice, pl.MPI()). In a default build the
// package holds only this comment and choosing "mpi" explains how to build
// it. A binary that can be a worker calls MaybeWorker at the top of main
// (ptorepl does; tests call it from TestMain).
package mpidev
