package runtime

import (
	"math/bits"
	"sync"
	"unsafe"
)

// Large byte buffers (window memory, collective accumulators, staging) are
// recycled across ops and runs: a fresh multi-MiB allocation is cleared by
// the allocator and page-faulted in on first touch every time, a recycled
// one costs at most a clear. sync.Pool lets the GC drop idle buffers.

// minPooled is the smallest buffer worth recycling; smaller ones are
// cheap to allocate.
const minPooled = 64 << 10

// bufPools holds free buffers by capacity class: class c has capacity 1<<c.
var bufPools [bits.UintSize]sync.Pool

// alignedBytes allocates n zeroed bytes starting on an 8-byte boundary, so
// elements at their natural offsets can be viewed in place (see asF32).
func alignedBytes(n int) []byte {
	if n == 0 {
		return nil
	}
	w := make([]uint64, (n+7)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), n)
}

// getBuf returns an 8-byte aligned buffer of n bytes with undefined contents.
func getBuf(n int) []byte {
	if n < minPooled {
		return alignedBytes(n)
	}
	c := bits.Len(uint(n - 1))
	if p, ok := bufPools[c].Get().(*[]byte); ok {
		return (*p)[:n]
	}
	return alignedBytes(1 << c)[:n]
}

// getZeroBuf is getBuf, cleared.
func getZeroBuf(n int) []byte {
	b := getBuf(n)
	if n >= minPooled {
		clear(b)
	}
	return b
}

// putBuf recycles a buffer from getBuf; nothing may use it afterwards.
func putBuf(b []byte) {
	c := cap(b)
	if c < minPooled || c&(c-1) != 0 {
		return
	}
	b = b[:c]
	bufPools[bits.Len(uint(c-1))].Put(&b)
}
