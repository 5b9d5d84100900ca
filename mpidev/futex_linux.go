//go:build mpi && linux

package mpidev

import (
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// haveFutex: on Linux a rank waiting on a cell of its shared-memory window
// sleeps in the kernel (a futex on the cell's address, shared between the
// processes mapping the window) until a notifier wakes it.
const haveFutex = true

const (
	futexWaitOp = 0 // FUTEX_WAIT, not private: the word is shared between processes
	futexWakeOp = 1 // FUTEX_WAKE
)

// futexWait sleeps while *addr == val, at most d (or until woken). It is
// a raw system call: the Go scheduler is not told, so the thread keeps its
// P and nothing is handed off to another thread for a sleep that usually
// lasts microseconds (the worker's other goroutines have GOMAXPROCS-1 Ps;
// a preemption signal merely ends the sleep early).
func futexWait(addr *int32, val int32, d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	_, _, _ = syscall.RawSyscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), futexWaitOp, uintptr(uint32(val)), uintptr(unsafe.Pointer(&ts)), 0, 0)
}

// futexWake wakes every process sleeping on addr.
func futexWake(addr *int32) {
	_, _, _ = syscall.Syscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), futexWakeOp, uintptr(1<<31-1), 0, 0, 0)
}

var fenceWord atomic.Int32

// fence is a full memory barrier (a locked instruction): the notifier's
// store to the cell is visible before it reads whether anyone sleeps.
func fence() { fenceWord.Add(0) }

// osYield gives the core to another runnable thread, if any.
func osYield() { _, _, _ = syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }
