//go:build mpi

package mpidev

import "runtime"

func goyield() { runtime.Gosched() }
