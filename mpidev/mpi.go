//go:build mpi

package mpidev

/*
#cgo pkg-config: ompi-c
#include <mpi.h>
#include <stdint.h>
#include <string.h>

static int pt_init(int *rank, int *size) {
	int provided = 0;
	int rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
	if (rc != MPI_SUCCESS) return rc;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, rank);
	MPI_Comm_size(MPI_COMM_WORLD, size);
	return MPI_SUCCESS;
}

static int pt_win_alloc(int64_t size, void **base, MPI_Win *win) {
	int rc = MPI_Win_allocate((MPI_Aint)size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base, win);
	if (rc != MPI_SUCCESS) return rc;
	MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN);
	return MPI_Win_lock_all(MPI_MODE_NOCHECK, *win);
}

// One node: a shared-memory window every rank can also load from directly.
static int pt_win_alloc_shared(int64_t size, void **base, MPI_Win *win) {
	int rc = MPI_Win_allocate_shared((MPI_Aint)size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base, win);
	if (rc != MPI_SUCCESS) return rc;
	MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN);
	return MPI_Win_lock_all(MPI_MODE_NOCHECK, *win);
}

static int pt_shared_query(MPI_Win win, int rank, void **ptr, int64_t *size) {
	MPI_Aint sz = 0;
	int disp = 0;
	int rc = MPI_Win_shared_query(win, rank, &sz, &disp, ptr);
	*size = (int64_t)sz;
	return rc;
}

// Whether every rank of the world shares this node's memory.
static int pt_one_node(int *yes) {
	MPI_Comm node;
	int rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
	if (rc != MPI_SUCCESS) return rc;
	int n, world;
	MPI_Comm_size(node, &n);
	MPI_Comm_size(MPI_COMM_WORLD, &world);
	MPI_Comm_free(&node);
	*yes = n == world;
	return MPI_SUCCESS;
}

static int pt_win_free(MPI_Win *win) {
	MPI_Win_unlock_all(*win);
	return MPI_Win_free(win);
}

// Gets (or puts) n segments of rank's window into (from) a dense buffer,
// then flushes: the transfer is complete at both ends on return.
static int pt_get(MPI_Win win, int rank, int n, const int64_t *offs, const int64_t *lens, char *buf) {
	int64_t k = 0;
	for (int i = 0; i < n; i++) {
		if (lens[i] == 0) continue;
		int rc = MPI_Get(buf + k, (int)lens[i], MPI_BYTE, rank, (MPI_Aint)offs[i], (int)lens[i], MPI_BYTE, win);
		if (rc != MPI_SUCCESS) return rc;
		k += lens[i];
	}
	return MPI_Win_flush(rank, win);
}

static int pt_put(MPI_Win win, int rank, int n, const int64_t *offs, const int64_t *lens, const char *buf) {
	int64_t k = 0;
	for (int i = 0; i < n; i++) {
		if (lens[i] == 0) continue;
		int rc = MPI_Put(buf + k, (int)lens[i], MPI_BYTE, rank, (MPI_Aint)offs[i], (int)lens[i], MPI_BYTE, win);
		if (rc != MPI_SUCCESS) return rc;
		k += lens[i];
	}
	return MPI_Win_flush(rank, win);
}

// op: 0 no-op (read), 1 sum, 2 replace.
static int pt_fetch_op(MPI_Win win, int rank, int64_t off, int32_t v, int op, int32_t *old) {
	MPI_Op o = op == 1 ? MPI_SUM : op == 2 ? MPI_REPLACE : MPI_NO_OP;
	int rc = MPI_Fetch_and_op(&v, old, MPI_INT32_T, rank, (MPI_Aint)off, o, win);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Win_flush(rank, win);
}

static int pt_cas(MPI_Win win, int rank, int64_t off, int32_t want, int32_t set, int32_t *old) {
	int rc = MPI_Compare_and_swap(&set, &want, old, MPI_INT32_T, rank, (MPI_Aint)off, win);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Win_flush(rank, win);
}

static int pt_sync(MPI_Win win) { return MPI_Win_sync(win); }

static int pt_ibarrier(MPI_Request *req) { return MPI_Ibarrier(MPI_COMM_WORLD, req); }

static int pt_test(MPI_Request *req, int *done) { return MPI_Test(req, done, MPI_STATUS_IGNORE); }

static int pt_ibcast(char *buf, int n, MPI_Request *req) { return MPI_Ibcast(buf, n, MPI_BYTE, 0, MPI_COMM_WORLD, req); }

static int pt_allgather(const char *src, int64_t n, char *dst) {
	// In chunks: MPI counts are ints.
	int size;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	const int64_t chunk = 1 << 28;
	for (int64_t off = 0; off < n; off += chunk) {
		int64_t m = n - off < chunk ? n - off : chunk;
		for (int r = 0; r < size; r++) {
			// Gather rank r's chunk into dst[r*n + off] by a broadcast.
			char *p = dst + (int64_t)r * n + off;
			int me;
			MPI_Comm_rank(MPI_COMM_WORLD, &me);
			if (r == me) memcpy(p, src + off, (size_t)m);
			int rc = MPI_Bcast(p, (int)m, MPI_BYTE, r, MPI_COMM_WORLD);
			if (rc != MPI_SUCCESS) return rc;
		}
	}
	return MPI_SUCCESS;
}

static int pt_allreduce_f32(const float *src, float *dst, int n) {
	return MPI_Allreduce(src, dst, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

static double pt_wtime(void) { return MPI_Wtime(); }

static int pt_finalize(void) { return MPI_Finalize(); }

static void pt_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

static void pt_error_string(int rc, char *buf, int n) {
	int len = 0;
	if (n > 0) buf[0] = 0;
	if (MPI_Error_string(rc, buf, &len) != MPI_SUCCESS) len = 0;
	if (len >= n) len = n - 1;
	if (len >= 0) buf[len] = 0;
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// mpiErr turns an MPI return code into an error naming the call.
func mpiErr(call string, rc C.int) error {
	if rc == C.MPI_SUCCESS {
		return nil
	}
	var buf [256]C.char
	C.pt_error_string(rc, &buf[0], C.int(len(buf)))
	return fmt.Errorf("%s failed: %s (MPI error %d)", call, C.GoString(&buf[0]), int(rc))
}

func mpiInit() (rank, size int, err error) {
	var r, s C.int
	if err := mpiErr("MPI_Init_thread", C.pt_init(&r, &s)); err != nil {
		return 0, 0, err
	}
	return int(r), int(s), nil
}

// arena is one MPI window per worker, locked for passive target access
// (lock_all) for its whole life; window buffers are byte ranges of it.
type arena struct {
	win  C.MPI_Win
	base unsafe.Pointer
	size int64
	// peers, when every rank shares this node, is each rank's window
	// memory mapped here (MPI_Win_allocate_shared): Reduce folds from it
	// directly instead of copying each source out with MPI_Get.
	peers [][]byte
}

func newArena(size int64, world int) (*arena, error) {
	a := &arena{size: size}
	var one C.int
	if err := mpiErr("MPI_Comm_split_type", C.pt_one_node(&one)); err != nil {
		return nil, err
	}
	if one == 0 {
		if err := mpiErr("MPI_Win_allocate", C.pt_win_alloc(C.int64_t(size), &a.base, &a.win)); err != nil {
			return nil, err
		}
		return a, nil
	}
	if err := mpiErr("MPI_Win_allocate_shared", C.pt_win_alloc_shared(C.int64_t(size), &a.base, &a.win)); err != nil {
		return nil, err
	}
	for r := 0; r < world; r++ {
		var p unsafe.Pointer
		var n C.int64_t
		if err := mpiErr("MPI_Win_shared_query", C.pt_shared_query(a.win, C.int(r), &p, &n)); err != nil {
			return nil, err
		}
		a.peers = append(a.peers, unsafe.Slice((*byte)(p), int64(n)))
	}
	return a, nil
}

// word is the INT32 at off in rank's window memory when every rank
// shares this node (and off is aligned), else nil: a signal cell a rank
// can read and sleep on directly.
func (a *arena) word(rank int, off int64) *int32 {
	if a.peers == nil || off%4 != 0 || off < 0 || off+4 > int64(len(a.peers[rank])) {
		return nil
	}
	return (*int32)(unsafe.Pointer(&a.peers[rank][off]))
}

// local is this worker's own window memory.
func (a *arena) local() []byte { return unsafe.Slice((*byte)(a.base), a.size) }

func (a *arena) free() error { return mpiErr("MPI_Win_free", C.pt_win_free(&a.win)) }

func segArrays(offs, lens []int64) (*C.int64_t, *C.int64_t) {
	if len(offs) == 0 {
		return nil, nil
	}
	return (*C.int64_t)(unsafe.Pointer(&offs[0])), (*C.int64_t)(unsafe.Pointer(&lens[0]))
}

func bufPtr(b []byte) *C.char {
	if len(b) == 0 {
		return nil
	}
	return (*C.char)(unsafe.Pointer(&b[0]))
}

func (a *arena) get(rank int, offs, lens []int64, dst []byte) error {
	o, l := segArrays(offs, lens)
	return mpiErr("MPI_Get", C.pt_get(a.win, C.int(rank), C.int(len(offs)), o, l, bufPtr(dst)))
}

func (a *arena) put(rank int, offs, lens []int64, src []byte) error {
	o, l := segArrays(offs, lens)
	return mpiErr("MPI_Put", C.pt_put(a.win, C.int(rank), C.int(len(offs)), o, l, bufPtr(src)))
}

// Fetch-and-op kinds.
const (
	opRead    = 0
	opSum     = 1
	opReplace = 2
)

func (a *arena) fetchOp(rank int, off int64, v int32, op int) (int32, error) {
	var old C.int32_t
	err := mpiErr("MPI_Fetch_and_op", C.pt_fetch_op(a.win, C.int(rank), C.int64_t(off), C.int32_t(v), C.int(op), &old))
	return int32(old), err
}

func (a *arena) cas(rank int, off int64, want, set int32) (int32, error) {
	var old C.int32_t
	err := mpiErr("MPI_Compare_and_swap", C.pt_cas(a.win, C.int(rank), C.int64_t(off), C.int32_t(want), C.int32_t(set), &old))
	return int32(old), err
}

func (a *arena) sync() error { return mpiErr("MPI_Win_sync", C.pt_sync(a.win)) }

// mpiBarrier is MPI_Ibarrier completed by polling MPI_Test with backoff:
// a blocking MPI_Barrier busy-waits, and with more ranks than cores the
// ranks spinning in it starve the ones still working. The caller holds
// mpiMu; it is released while sleeping so the rank's other goroutine can
// make MPI calls.
func mpiBarrier() error {
	var req C.MPI_Request
	if err := mpiErr("MPI_Ibarrier", C.pt_ibarrier(&req)); err != nil {
		return err
	}
	return mpiWait(&req)
}

// mpiWait completes req by polling MPI_Test with backoff, mpiMu released
// while sleeping (see mpiBarrier).
func mpiWait(req *C.MPI_Request) error {
	bo := backoff{}
	for {
		var done C.int
		if err := mpiErr("MPI_Test", C.pt_test(req, &done)); err != nil {
			return err
		}
		if done != 0 {
			return nil
		}
		mpiMu.Unlock()
		bo.wait()
		mpiMu.Lock()
	}
}

// mpiBcast sends rank 0's buf to every rank (each passes a buffer of the
// same length), in chunks (MPI counts are ints), each an MPI_Ibcast
// completed as mpiBarrier completes its barrier. The caller holds mpiMu.
func mpiBcast(buf []byte) error {
	const chunk = 1 << 28
	for off := 0; off < len(buf); off += chunk {
		var req C.MPI_Request
		if err := mpiErr("MPI_Ibcast", C.pt_ibcast(bufPtr(buf[off:]), C.int(min(len(buf)-off, chunk)), &req)); err != nil {
			return err
		}
		if err := mpiWait(&req); err != nil {
			return err
		}
	}
	return nil
}

// mpiAllgather gathers every rank's src (all the same length) into dst,
// rank by rank.
func mpiAllgather(src, dst []byte) error {
	return mpiErr("MPI_Bcast", C.pt_allgather(bufPtr(src), C.int64_t(len(src)), bufPtr(dst)))
}

func mpiAllreduceF32(src, dst []float32) error {
	if len(src) == 0 {
		return nil
	}
	return mpiErr("MPI_Allreduce", C.pt_allreduce_f32((*C.float)(unsafe.Pointer(&src[0])), (*C.float)(unsafe.Pointer(&dst[0])), C.int(len(src))))
}

func mpiWtime() float64 { return float64(C.pt_wtime()) }

func mpiFinalize() { C.pt_finalize() }

func mpiAbort(code int) { C.pt_abort(C.int(code)) }
