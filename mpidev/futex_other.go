//go:build mpi && !linux

package mpidev

import "time"

// haveFutex: elsewhere waits poll with backoff.
const haveFutex = false

func futexWait(addr *int32, val int32, d time.Duration) {}

func futexWake(addr *int32) {}

func fence() {}

func osYield() {}
