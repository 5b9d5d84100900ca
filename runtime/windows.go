package runtime

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ptorepl/ptorepl/ir"
)

// Windows is the only way a rank touches window memory and signal cells,
// its own or a peer's. Ranks never share Go slices of window memory, so a
// device that runs each rank as its own process can implement Windows over
// one-sided communication (MPI windows) instead of the in-process
// implementation the simulator uses. from is the rank issuing the access,
// rank the rank whose copy is touched; who is the op, for observers.
type Windows interface {
	// Alloc makes a symmetric, zero-initialised buffer of size bytes on
	// every rank of domain (nil: all ranks).
	Alloc(name string, size int, domain []int) (*WindowBuf, error)
	// Read copies the segments of rank's copy of buf, in order, into dst.
	Read(from, rank int, buf *WindowBuf, segs []Segment, dst []byte, who Origin) error
	// Write copies src over the segments of rank's copy of buf.
	Write(from, rank int, buf *WindowBuf, segs []Segment, src []byte, who Origin) error
	// Accumulate atomically adds vals (elements of dt, in segment order).
	Accumulate(from, rank int, buf *WindowBuf, segs []Segment, dt ir.DataType, vals []float64, who Origin) error
	// Reduce folds the same segments of buf on each of ranks, in order,
	// into acc (elements of dt in the window's byte layout): acc becomes
	// ranks[0]'s elements, then acc[i] = op(acc[i], element i of the next
	// rank) rounded to dt, and so on. Each rank's copy is read as by Read
	// (observers see one read per rank, in order), but nothing is copied
	// out of it first (on MPI: gets from every rank, reduced as they arrive).
	Reduce(from int, ranks []int, buf *WindowBuf, segs []Segment, dt ir.DataType, op ir.ReduceOp, acc []byte, who Origin) error
	// WriteOwned is Write for a src the caller hands over and never uses
	// again: an implementation may adopt it as the memory itself instead
	// of copying it (the in-process one does when segs cover the buffer).
	WriteOwned(from, rank int, buf *WindowBuf, segs []Segment, src []byte, who Origin) error
	// Copy copies src's bytes over dst's (the same number of bytes, in
	// segment order): a Read of src and a Write of dst without staging the
	// bytes through the caller (on MPI: a get or put between windows).
	Copy(from int, dst, src Region) error
	// Notify applies a Set or AtomicAdd of v to an INT32 cell of rank.
	Notify(from, rank int, buf *WindowBuf, cell Cell, kind NotifyKind, v int32, who Origin) error
	// Wait blocks until rank's cell satisfies cond (only the owner waits).
	Wait(rank int, buf *WindowBuf, cell Cell, cond Cond, who Origin) error
	// Test evaluates cond on rank's cell without blocking.
	Test(rank int, buf *WindowBuf, cell Cell, cond Cond, who Origin) (bool, error)
}

// WindowBuf is one symmetric window allocation: the same byte range on
// every rank of its domain.
type WindowBuf struct {
	Name   string
	Size   int   // bytes per rank
	Domain []int // ranks of the comm domain, in rank order; nil: the world
	id     int
}

// Segment is a contiguous byte run of a window buffer.
type Segment struct{ Off, Len int }

// Region is the segments of one rank's copy of a window buffer, with the op
// touching it (for observers).
type Region struct {
	Rank int
	Buf  *WindowBuf
	Segs []Segment
	Who  Origin
}

// Cond is a wait condition on an INT32 cell: Cmp is one of eq, ne, gt, ge,
// lt, le. Unsigned compares as uint32 (defer_wait: -1 satisfies anything).
type Cond struct {
	Cmp      string
	Value    int64
	Unsigned bool
}

// Holds evaluates the condition on a cell value.
func (c Cond) Holds(v int32) bool {
	a, b := int64(v), c.Value
	if c.Unsigned {
		a, b = int64(uint32(v)), int64(uint32(int32(c.Value)))
	}
	switch c.Cmp {
	case "eq":
		return a == b
	case "ne":
		return a != b
	case "gt":
		return a > b
	case "ge":
		return a >= b
	case "lt":
		return a < b
	case "le":
		return a <= b
	}
	return false
}

func (c Cond) String() string {
	sym := c.Cmp
	switch c.Cmp {
	case "eq":
		sym = "=="
	case "ne":
		sym = "!="
	case "gt":
		sym = ">"
	case "ge":
		sym = ">="
	case "lt":
		sym = "<"
	case "le":
		sym = "<="
	}
	s := sym + " " + strconv.FormatInt(c.Value, 10)
	if c.Unsigned {
		s += " (unsigned)"
	}
	return s
}

// CellString prints a cell as buffer[i, j] (or buffer[+byte] without an index).
func (c Cell) String() string {
	if c.Index == nil {
		return fmt.Sprintf("%s[+%d]", c.Buffer, c.Offset)
	}
	parts := make([]string, len(c.Index))
	for i, x := range c.Index {
		parts[i] = strconv.Itoa(x)
	}
	return c.Buffer + "[" + strings.Join(parts, ", ") + "]"
}

// errAborted means "another rank (or the watchdog) ended the run".
var errAborted = errors.New("run aborted")

// sched tracks which ranks can still make progress, to declare a deadlock
// the moment every live actor is blocked in a wait. An actor is the host
// while it runs or a task that holds a core or waits on deferred conditions
// (cores.go); a rank with several cores has several, so blocked waits are
// kept per rank as a list.
type sched struct {
	mu       sync.Mutex
	live     int                    // the host while it runs, plus every running task
	blocked  map[int][]*BlockedRank // made at the first block
	nblocked int
	err      error
	stopped  atomic.Bool
	onStop   func() // wakes every waiter
	// classify, when set, turns a deadlock into the more precise error the
	// executor knows (a resource deadlock, cores.go). It runs under mu.
	classify func(*DeadlockError) error
	// settle, when set (the relaxed memory mode), is asked before a
	// deadlock is declared; true means it took over the decision.
	settle func(s *sched) bool
}

// block records a wait of rank as blocked; it returns the deadlock error
// when that makes every live actor blocked.
func (s *sched) block(rank int, b *BlockedRank) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.blocked == nil {
		s.blocked = map[int][]*BlockedRank{}
	}
	list := s.blocked[rank]
	for _, o := range list {
		if o == b {
			return nil
		}
	}
	s.blocked[rank] = append(list, b)
	s.nblocked++
	if s.nblocked >= s.live {
		if s.settle != nil && s.settle(s) {
			return nil
		}
		return s.failLocked(s.deadlockErrLocked())
	}
	return nil
}

// unblock drops every blocked wait of rank on the cells of on (a write to
// on woke them all; waits of the rank's other cores on other buffers
// sleep on).
func (s *sched) unblock(rank int, on *memBuf) {
	s.mu.Lock()
	list := s.blocked[rank]
	k := 0
	for _, b := range list {
		if b.on == on {
			s.nblocked--
			continue
		}
		list[k] = b
		k++
	}
	if k == 0 {
		delete(s.blocked, rank)
	} else {
		s.blocked[rank] = list[:k]
	}
	s.mu.Unlock()
}

// unblockOne drops one blocked wait of rank (the waiter woke up).
func (s *sched) unblockOne(rank int, b *BlockedRank) {
	s.mu.Lock()
	list := s.blocked[rank]
	for i, o := range list {
		if o == b {
			list = append(list[:i], list[i+1:]...)
			s.nblocked--
			break
		}
	}
	if len(list) == 0 {
		delete(s.blocked, rank)
	} else {
		s.blocked[rank] = list
	}
	s.mu.Unlock()
}

// addLive / doneLive count actors that can still act; doneLive checks for
// a deadlock among the rest.
func (s *sched) addLive(n int) {
	if n == 0 {
		return
	}
	s.mu.Lock()
	s.live += n
	s.mu.Unlock()
}

func (s *sched) doneLive() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.live--
	if s.live > 0 && s.nblocked >= s.live {
		if s.settle != nil && s.settle(s) {
			return
		}
		s.failLocked(s.deadlockErrLocked())
	}
}

// deadlockErrLocked is the error of a deadlock found now: the plain
// DeadlockError, or what classify makes of it.
func (s *sched) deadlockErrLocked() error {
	d := s.deadlockLocked().(*DeadlockError)
	if s.classify != nil {
		return s.classify(d)
	}
	return d
}

func (s *sched) deadlockLocked() error {
	d := &DeadlockError{}
	for _, list := range s.blocked {
		for _, b := range list {
			bb := *b
			bb.Writes = append([]SignalWrite(nil), b.Writes...)
			bb.fillTexts()
			d.Blocked = append(d.Blocked, bb)
		}
	}
	sort.SliceStable(d.Blocked, func(i, j int) bool {
		a, b := d.Blocked[i], d.Blocked[j]
		if a.Rank != b.Rank {
			return a.Rank < b.Rank
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		return a.Cell < b.Cell
	})
	return d
}

func (s *sched) fail(err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failLocked(err)
}

// failLocked records the run's first error and stops everyone. Waking the
// waiters takes their memory locks, so it runs on its own goroutine (the
// caller may hold one).
func (s *sched) failLocked(err error) error {
	if s.err == nil {
		s.err = err
		s.stopped.Store(true)
		if s.onStop != nil {
			go s.onStop()
		}
	}
	return s.err
}

func (s *sched) firstErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// --- the in-process implementation of Windows

type cellKey struct{ buf, off int }

type cellState struct {
	cell    Cell
	count   int           // notifies applied
	history []SignalWrite // the first 64 notifies
	kinds   uint8         // bit k: a notify of NotifyKind k wrote the cell
}

// memBuf is one rank's copy of one window buffer, behind its own lock, so
// that a rank's data windows and its signal buffers do not contend (peers
// read a rank's data while others notify its cells). Reads of data share
// the lock (every rank reads every peer at once in a mesh collective);
// writes, notifies and waits hold it alone.
type memBuf struct {
	mu      sync.RWMutex
	cond    *sync.Cond
	data    []byte
	waiting int
	cells   map[cellKey]*cellState
	// waitKey is the cell the buffer's one waiter waits on (waiting == 1):
	// a notify of another cell cannot satisfy it, so it does not wake it.
	// With several waiters (cores) every notify wakes them all, and each
	// sets it again as it goes back to waiting, so it is never stale.
	waitKey cellKey
}

func newMemBuf(data []byte) *memBuf {
	m := &memBuf{data: data, cells: map[cellKey]*cellState{}}
	m.cond = sync.NewCond(&m.mu)
	return m
}

// rankMem is one rank's window memory: its copy of each buffer, by
// WindowBuf.id (nil outside the buffer's domain). Alloc replaces the
// list whole, so readers load it without a lock.
type rankMem struct {
	bufs atomic.Value // []*memBuf
}

func (m *rankMem) list() []*memBuf {
	l, _ := m.bufs.Load().([]*memBuf)
	return l
}

type simWindows struct {
	ranks []*rankMem
	sched *sched
	obsMu sync.Mutex
	obs   Observer
	// concurrent: obs takes calls from several ranks at once (a
	// ConcurrentObserver that said so), so calls skip obsMu.
	concurrent bool

	allocMu sync.Mutex
	nbufs   int

	// rx is the relaxed memory mode's state (relaxed.go); nil: sequentially
	// consistent.
	rx *relaxedMem
}

func newSimWindows(n int, s *sched, obs Observer) *simWindows {
	w := &simWindows{sched: s, obs: obs}
	if co, ok := obs.(ConcurrentObserver); ok {
		w.concurrent = co.ObservesConcurrently()
	}
	for i := 0; i < n; i++ {
		w.ranks = append(w.ranks, &rankMem{})
	}
	s.onStop = w.wakeAll
	return w
}

func (w *simWindows) wakeAll() {
	for _, m := range w.ranks {
		for _, mb := range m.list() {
			if mb != nil {
				mb.mu.Lock()
				mb.cond.Broadcast()
				mb.mu.Unlock()
			}
		}
	}
}

func (w *simWindows) observe(fn func(o Observer)) {
	if w.obs == nil {
		return
	}
	if w.concurrent {
		fn(w.obs)
		return
	}
	w.obsMu.Lock()
	defer w.obsMu.Unlock()
	fn(w.obs)
}

func (w *simWindows) Alloc(name string, size int, domain []int) (*WindowBuf, error) {
	if size <= 0 {
		return nil, fmt.Errorf("window buffer %s: size %d bytes; a window needs a positive size", name, size)
	}
	w.allocMu.Lock()
	b := &WindowBuf{Name: name, Size: size, Domain: domain, id: w.nbufs}
	w.nbufs++
	w.allocMu.Unlock()
	in := map[int]bool{}
	for _, r := range domain {
		in[r] = true
	}
	w.allocMu.Lock()
	defer w.allocMu.Unlock()
	for r, m := range w.ranks {
		l := append([]*memBuf(nil), m.list()...)
		for len(l) <= b.id {
			l = append(l, nil)
		}
		if domain == nil || in[r] {
			l[b.id] = newMemBuf(getZeroBuf(size)) // zero-initialised per host call
		}
		m.bufs.Store(l)
	}
	return b, nil
}

// release returns every rank's window memory to the buffer pool once the
// run is over (no rank runs any more; nothing else holds window memory).
func (w *simWindows) release() {
	for _, m := range w.ranks {
		for _, mb := range m.list() {
			if mb != nil {
				mb.mu.Lock()
				putBuf(mb.data)
				mb.data = nil
				mb.mu.Unlock()
			}
		}
	}
}

// mem returns rank's copy of buf, locked; the caller unlocks m.mu.
func (w *simWindows) mem(rank int, buf *WindowBuf) (*memBuf, []byte, error) {
	m, err := w.memBuf(rank, buf)
	if err != nil {
		return nil, nil, err
	}
	m.mu.Lock()
	return m, m.data, nil
}

// rmem is mem read-locked; the caller read-unlocks m.mu.
func (w *simWindows) rmem(rank int, buf *WindowBuf) (*memBuf, []byte, error) {
	m, err := w.memBuf(rank, buf)
	if err != nil {
		return nil, nil, err
	}
	m.mu.RLock()
	return m, m.data, nil
}

// memBuf is rank's copy of buf (unlocked).
func (w *simWindows) memBuf(rank int, buf *WindowBuf) (*memBuf, error) {
	m, err := w.rankMem(rank)
	if err != nil {
		return nil, err
	}
	return m.buf(rank, buf)
}

func (w *simWindows) rankMem(rank int) (*rankMem, error) {
	if rank < 0 || rank >= len(w.ranks) {
		return nil, fmt.Errorf("rank %d is outside the world of %d ranks", rank, len(w.ranks))
	}
	return w.ranks[rank], nil
}

// buf is the rank's copy of buf.
func (m *rankMem) buf(rank int, buf *WindowBuf) (*memBuf, error) {
	l := m.list()
	if buf.id >= len(l) || l[buf.id] == nil {
		return nil, fmt.Errorf("rank %d has no copy of window buffer %s (outside its comm domain)", rank, buf.Name)
	}
	return l[buf.id], nil
}

func checkSegs(buf *WindowBuf, segs []Segment) error {
	for _, s := range segs {
		if s.Off < 0 || s.Off+s.Len > buf.Size {
			return fmt.Errorf("access of bytes [%d, %d) overflows window buffer %s (%d bytes per rank): the view does not fit in the allocation", s.Off, s.Off+s.Len, buf.Name, buf.Size)
		}
	}
	return nil
}

func ranges(segs []Segment) []ByteRange {
	out := make([]ByteRange, len(segs))
	for i, s := range segs {
		out[i] = ByteRange{s.Off, s.Off + s.Len}
	}
	return out
}

// changed wakes rank's waiter after its memory changed. A woken waiter is
// unblocked here, by the writer, so no rank can see "everyone blocked"
// before the waiter had a chance to re-check its cell.
func (w *simWindows) changedLocked(rank int, m *memBuf) {
	if m.waiting > 0 {
		w.sched.unblock(rank, m)
		m.cond.Broadcast()
	}
}

func (w *simWindows) Read(from, rank int, buf *WindowBuf, segs []Segment, dst []byte, who Origin) error {
	if err := checkSegs(buf, segs); err != nil {
		return err
	}
	if w.rx != nil && from >= 0 {
		return w.rx.read(from, rank, buf, segs, dst, who)
	}
	m, b, err := w.rmem(rank, buf)
	if err != nil {
		return err
	}
	defer m.mu.RUnlock()
	k := 0
	for _, s := range segs {
		k += copy(dst[k:], b[s.Off:s.Off+s.Len])
	}
	w.observe(func(o Observer) {
		o.Access(Access{Rank: from, Target: rank, Origin: who, Buffer: buf.Name, Ranges: ranges(segs), Kind: Read})
	})
	return nil
}

func (w *simWindows) Write(from, rank int, buf *WindowBuf, segs []Segment, src []byte, who Origin) error {
	if err := checkSegs(buf, segs); err != nil {
		return err
	}
	if w.rx != nil && w.rx.buffers(from, who) {
		data := append([]byte(nil), src[:min(len(src), segsLen(segs))]...)
		return w.rx.enqueue(from, &pendingWrite{target: rank, buf: buf, segs: cloneSegs(segs), data: data, who: who}, Write)
	}
	m, b, err := w.mem(rank, buf)
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
	k := 0
	for _, s := range segs {
		k += copy(b[s.Off:s.Off+s.Len], src[k:])
	}
	w.changedLocked(rank, m)
	w.observe(func(o Observer) {
		o.Access(Access{Rank: from, Target: rank, Origin: who, Buffer: buf.Name, Ranges: ranges(segs), Kind: Write})
	})
	return nil
}

// WriteOwned adopts src (a buffer from getBuf) as rank's copy of buf when
// the segments are the whole buffer, recycling the old memory: a collective
// then installs its result without copying it. Otherwise it writes src and
// recycles it.
func (w *simWindows) WriteOwned(from, rank int, buf *WindowBuf, segs []Segment, src []byte, who Origin) error {
	whole := len(segs) == 1 && segs[0] == Segment{0, buf.Size} && len(src) == buf.Size
	if w.rx != nil && w.rx.buffers(from, who) {
		if err := checkSegs(buf, segs); err != nil {
			putBuf(src)
			return err
		}
		return w.rx.enqueue(from, &pendingWrite{target: rank, buf: buf, segs: cloneSegs(segs), data: src, owned: true, who: who}, Write)
	}
	if !whole {
		err := w.Write(from, rank, buf, segs, src, who)
		putBuf(src)
		return err
	}
	m, old, err := w.mem(rank, buf)
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
	m.data = src
	putBuf(old) // readers only ever use window memory under the lock
	w.changedLocked(rank, m)
	w.observe(func(o Observer) {
		o.Access(Access{Rank: from, Target: rank, Origin: who, Buffer: buf.Name, Ranges: ranges(segs), Kind: Write})
	})
	return nil
}

func (w *simWindows) Accumulate(from, rank int, buf *WindowBuf, segs []Segment, dt ir.DataType, vals []float64, who Origin) error {
	if err := checkSegs(buf, segs); err != nil {
		return err
	}
	if w.rx != nil && w.rx.buffers(from, who) {
		p := &pendingWrite{target: rank, buf: buf, segs: cloneSegs(segs), dt: dt, vals: append([]float64(nil), vals...), who: who}
		return w.rx.enqueue(from, p, Atomic)
	}
	m, b, err := w.mem(rank, buf)
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
	sz := dt.Bytes()
	k := 0
	for _, s := range segs {
		n := s.Len / sz
		accumulate(dt, b[s.Off:s.Off+s.Len], vals[k:k+n])
		k += n
	}
	w.changedLocked(rank, m)
	w.observe(func(o Observer) {
		o.Access(Access{Rank: from, Target: rank, Origin: who, Buffer: buf.Name, Ranges: ranges(segs), Kind: Atomic})
	})
	return nil
}

// reduceChunk is how many bytes of acc Reduce completes before moving on:
// large enough to stream well, small enough that the ranks sharing a core
// fold the same chunks at about the same time, while they are in cache,
// and that the read locks are held only briefly.
const reduceChunk = 256 << 10

// Reduce works chunk by chunk: each chunk of acc is folded over every rank
// at once under their read locks, and each rank's whole read is reported
// with the last chunk, in rank order, as the Reads it replaces were.
func (w *simWindows) Reduce(from int, ranks []int, buf *WindowBuf, segs []Segment, dt ir.DataType, op ir.ReduceOp, acc []byte, who Origin) error {
	if err := checkSegs(buf, segs); err != nil {
		return err
	}
	if _, ok := reduceOps[op]; !ok {
		return fmt.Errorf("unknown reduction %d", op)
	}
	if n := segsLen(segs); n != len(acc) {
		return fmt.Errorf("reduce of %d bytes of window buffer %s into a %d-byte accumulator", n, buf.Name, len(acc))
	}
	if len(ranks) == 0 {
		return fmt.Errorf("reduce of window buffer %s over no ranks", buf.Name)
	}
	for _, r := range ranks { // every rank has a copy, before any is read
		m, _, err := w.rmem(r, buf)
		if err != nil {
			return err
		}
		m.mu.RUnlock()
	}
	chunks := chunkSegs(segs, reduceChunk)
	if len(chunks) == 0 {
		chunks = [][]Segment{nil} // an empty region is still one read per rank
	}
	f := &fold{ranks: ranks, lockOrder: sortedUnique(ranks), srcs: make([][]byte, len(ranks)), buf: buf, dt: dt, op: op}
	k := 0 // acc offset of the chunk
	for c, chunk := range chunks {
		n := segsLen(chunk)
		var whole *Region // with the last chunk, each rank's read is reported
		if c == len(chunks)-1 {
			whole = &Region{Buf: buf, Segs: segs, Who: who}
		}
		w.foldChunk(from, f, chunk, acc[k:k+n], whole)
		k += n
		// Let the other ranks on this core fold the same chunk while the
		// sources are still in cache, rather than each streaming all of them.
		runtime.Gosched()
	}
	return nil
}

// fold is what the chunks of one Reduce share.
type fold struct {
	ranks     []int // in fold order
	lockOrder []int // the same ranks, increasing, without repeats
	srcs      [][]byte
	buf       *WindowBuf
	dt        ir.DataType
	op        ir.ReduceOp
}

// foldChunk sets acc to the chunk's segments folded over f.ranks, holding
// every rank's read lock (taken in rank order, as Copy takes its two, so
// that no two lockers wait on each other) for one pass over acc. whole, if
// set, is the read to report for each rank, in order, before unlocking.
func (w *simWindows) foldChunk(from int, f *fold, chunk []Segment, acc []byte, whole *Region) {
	for _, r := range f.lockOrder {
		f.mbuf(w, r).mu.RLock()
	}
	defer w.runlockAll(f)
	k := 0
	for _, s := range chunk {
		for i, r := range f.ranks {
			f.srcs[i] = f.mbuf(w, r).data[s.Off : s.Off+s.Len]
		}
		foldBytes(f.dt, f.op, acc[k:k+s.Len], f.srcs[0], f.srcs[1:])
		k += s.Len
	}
	if whole != nil {
		for _, r := range f.ranks {
			whole.Rank = r
			w.observeAccess(from, *whole, Read)
		}
	}
}

func (w *simWindows) runlockAll(f *fold) {
	for _, r := range f.lockOrder {
		f.mbuf(w, r).mu.RUnlock()
	}
}

// mbuf is rank r's copy of the fold's buffer (Reduce checked it exists).
func (f *fold) mbuf(w *simWindows, r int) *memBuf { return w.ranks[r].list()[f.buf.id] }

// sortedUnique is ranks in increasing order without repeats (a rank's
// read lock must not be taken twice by one locker).
func sortedUnique(ranks []int) []int {
	out := slices.Clone(ranks)
	slices.Sort(out)
	return slices.Compact(out)
}

// chunkSegs splits segs (in order) into runs of about size bytes: long
// segments are cut, short ones grouped.
func chunkSegs(segs []Segment, size int) [][]Segment {
	var out [][]Segment
	var cur []Segment
	n := 0
	for _, s := range segs {
		for s.Len > 0 {
			take := min(s.Len, size-n)
			cur = append(cur, Segment{s.Off, take})
			n += take
			s.Off, s.Len = s.Off+take, s.Len-take
			if n == size {
				out = append(out, cur)
				cur, n = nil, 0
			}
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func (w *simWindows) Copy(from int, dst, src Region) error {
	if err := checkSegs(src.Buf, src.Segs); err != nil {
		return err
	}
	if err := checkSegs(dst.Buf, dst.Segs); err != nil {
		return err
	}
	if ns, nd := segsLen(src.Segs), segsLen(dst.Segs); ns != nd {
		return fmt.Errorf("copy of %d bytes of window buffer %s over %d bytes of %s", ns, src.Buf.Name, nd, dst.Buf.Name)
	}
	if w.rx != nil && w.rx.buffers(from, dst.Who) {
		return w.rx.copyRegions(from, dst, src)
	}
	sb, db, unlock, err := w.lockPair(dst, src)
	if err != nil {
		return err
	}
	defer unlock()
	data, dataSegs := sb, src.Segs
	if src.Rank == dst.Rank && src.Buf == dst.Buf && overlaps(src.Segs, dst.Segs) {
		// Snapshot the source first, as a Read then a Write would.
		tmp := make([]byte, segsLen(src.Segs))
		copySegs(tmp, []Segment{{0, len(tmp)}}, sb, src.Segs)
		data, dataSegs = tmp, []Segment{{0, len(tmp)}}
	}
	copySegs(db, dst.Segs, data, dataSegs)
	if md, err := w.memBuf(dst.Rank, dst.Buf); err == nil {
		w.changedLocked(dst.Rank, md)
	}
	w.observeAccess(from, src, Read)
	w.observeAccess(from, dst, Write)
	return nil
}

// lockPair locks src's rank for reading and dst's for writing (one write
// lock when they are the same rank), in rank order so that two copies in
// opposite directions cannot deadlock.
func (w *simWindows) lockPair(dst, src Region) (sb, db []byte, unlock func(), err error) {
	ms, err := w.memBuf(src.Rank, src.Buf)
	if err != nil {
		return nil, nil, nil, err
	}
	md, err := w.memBuf(dst.Rank, dst.Buf)
	if err != nil {
		return nil, nil, nil, err
	}
	if ms == md {
		md.mu.Lock()
		unlock = md.mu.Unlock
	} else if src.Rank < dst.Rank || (src.Rank == dst.Rank && src.Buf.id < dst.Buf.id) {
		ms.mu.RLock()
		md.mu.Lock()
		unlock = func() { md.mu.Unlock(); ms.mu.RUnlock() }
	} else {
		md.mu.Lock()
		ms.mu.RLock()
		unlock = func() { ms.mu.RUnlock(); md.mu.Unlock() }
	}
	return ms.data, md.data, unlock, nil
}

func (w *simWindows) observeAccess(from int, r Region, kind AccessKind) {
	w.observe(func(o Observer) {
		o.Access(Access{Rank: from, Target: r.Rank, Origin: r.Who, Buffer: r.Buf.Name, Ranges: ranges(r.Segs), Kind: kind})
	})
}

func segsLen(segs []Segment) int {
	n := 0
	for _, s := range segs {
		n += s.Len
	}
	return n
}

// overlaps reports whether the byte spans of a and b intersect.
func overlaps(a, b []Segment) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Off < y.Off+y.Len && y.Off < x.Off+x.Len {
				return true
			}
		}
	}
	return false
}

// copySegs copies the bytes of src's segments, in order, over dst's.
func copySegs(db []byte, dst []Segment, sb []byte, src []Segment) {
	var d, s Segment
	for {
		if d.Len == 0 {
			if len(dst) == 0 {
				return
			}
			d, dst = dst[0], dst[1:]
		}
		if s.Len == 0 {
			if len(src) == 0 {
				return
			}
			s, src = src[0], src[1:]
		}
		n := copy(db[d.Off:d.Off+d.Len], sb[s.Off:s.Off+s.Len])
		d.Off, d.Len = d.Off+n, d.Len-n
		s.Off, s.Len = s.Off+n, s.Len-n
	}
}

// accumulate adds vals to the dt elements of b (b[i] = round(b[i] + vals[i])),
// in float32 directly for FP32 and through fixed-size float64 chunks
// otherwise, so an atomic store allocates nothing.
func accumulate(dt ir.DataType, b []byte, vals []float64) {
	if dt == ir.FP32 {
		if f, ok := asF32(b); ok {
			for i := range f {
				f[i] = float32(float64(f[i]) + vals[i])
			}
			return
		}
	}
	sz := dt.Bytes()
	var cur [256]float64
	for len(vals) > 0 {
		n := min(len(vals), len(cur))
		decode(dt, b[:n*sz], cur[:n])
		for i := range n {
			cur[i] = round(cur[i]+vals[i], dt)
		}
		encode(dt, cur[:n], b[:n*sz])
		b, vals = b[n*sz:], vals[n:]
	}
}

func getI32(b []byte, off int) int32 {
	return int32(uint32(b[off]) | uint32(b[off+1])<<8 | uint32(b[off+2])<<16 | uint32(b[off+3])<<24)
}

func putI32(b []byte, off int, v int32) {
	u := uint32(v)
	b[off], b[off+1], b[off+2], b[off+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
}

func (m *memBuf) cellState(buf *WindowBuf, c Cell) *cellState {
	k := cellKey{buf.id, c.Offset}
	cs, ok := m.cells[k]
	if !ok {
		cs = &cellState{cell: c}
		cs.cell.Index = append([]int(nil), c.Index...)
		m.cells[k] = cs
	}
	return cs
}

func (w *simWindows) Notify(from, rank int, buf *WindowBuf, cell Cell, kind NotifyKind, v int32, who Origin) error {
	if err := checkSegs(buf, []Segment{{cell.Offset, 4}}); err != nil {
		return err
	}
	if w.rx != nil {
		w.rx.offer(from) // the chooser may land some writes first; the rest are overtaken
	}
	m, b, err := w.mem(rank, buf)
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
	old := getI32(b, cell.Offset)
	nv := v
	if kind == NotifyAtomicAdd {
		nv = old + v // int32 wraps, as on the device
	}
	putI32(b, cell.Offset, nv)
	cell.Rank, cell.Buffer = rank, buf.Name
	cs := m.cellState(buf, cell)
	cs.kinds |= 1 << kind
	seq := cs.count
	cs.count++
	if len(cs.history) < 64 {
		cs.history = append(cs.history, SignalWrite{From: from, Kind: kind, Value: v, New: nv})
	}
	if m.waiting != 1 || m.waitKey == (cellKey{buf.id, cell.Offset}) {
		w.changedLocked(rank, m)
	}
	w.observe(func(o Observer) {
		o.Notify(Notification{Rank: from, Origin: who, Cell: cs.cell, Kind: kind, Value: v, Old: old, New: nv, Seq: seq})
	})
	return nil
}

func (w *simWindows) Wait(rank int, buf *WindowBuf, cell Cell, cond Cond, who Origin) error {
	if err := checkSegs(buf, []Segment{{cell.Offset, 4}}); err != nil {
		return err
	}
	m, b, err := w.mem(rank, buf)
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
	cell.Rank, cell.Buffer = rank, buf.Name
	key := cellKey{buf.id, cell.Offset}
	var info *BlockedRank // built at the first block, refreshed after (reports copy it)
	for {
		if w.sched.stopped.Load() {
			return errAborted
		}
		v := getI32(b, cell.Offset)
		if cond.Holds(v) {
			w.observeWait(m, buf, cell, cond, who, v, true)
			if w.rx != nil && w.rx.isNative(who) {
				w.rx.nativeAcquired(rank, who) // a builtin collective's wait invalidates as its lowering does
			}
			return nil
		}
		if info == nil {
			// The texts are made only if a report needs them (deadlockLocked).
			info = &BlockedRank{Rank: rank, Cond: cond, Func: who.Func, cell: cell, on: m}
			if who.Call != nil {
				info.Op, info.Pos, info.Deferred = who.Call.Name(), who.Call.Pos, who.Call.Op.Deferred
			}
		}
		info.Value = int64(v)
		if cs, ok := m.cells[key]; ok {
			// The history only grows, and its entries never change: a
			// prefix of it is a snapshot.
			info.Writes = cs.history[:len(cs.history):len(cs.history)]
		}
		if err := w.sched.block(rank, info); err != nil {
			return err
		}
		m.waiting++
		m.waitKey = key
		m.cond.Wait()
		m.waiting--
		w.sched.unblockOne(rank, info)
	}
}

func (w *simWindows) observeWait(m *memBuf, buf *WindowBuf, cell Cell, cond Cond, who Origin, v int32, ok bool) {
	if w.obs == nil {
		return
	}
	n := 0
	if cs, found := m.cells[cellKey{buf.id, cell.Offset}]; found {
		n = cs.count
	}
	w.observe(func(o Observer) {
		o.Wait(WaitResult{Rank: cell.Rank, Origin: who, Cell: cell, Value: v, Satisfied: ok, Observed: n, Cond: cond})
	})
}

func (w *simWindows) Test(rank int, buf *WindowBuf, cell Cell, cond Cond, who Origin) (bool, error) {
	if err := checkSegs(buf, []Segment{{cell.Offset, 4}}); err != nil {
		return false, err
	}
	m, b, err := w.mem(rank, buf)
	if err != nil {
		return false, err
	}
	defer m.mu.Unlock()
	cell.Rank, cell.Buffer = rank, buf.Name
	v := getI32(b, cell.Offset)
	ok := cond.Holds(v)
	w.observeWait(m, buf, cell, cond, who, v, ok)
	return ok, nil
}

// signals snapshots every notified cell with its final value.
func (w *simWindows) signals() []SignalCell {
	n := 0
	for _, m := range w.ranks {
		for _, mb := range m.list() {
			if mb != nil {
				mb.mu.Lock()
				n += len(mb.cells)
				mb.mu.Unlock()
			}
		}
	}
	out := make([]SignalCell, 0, n)
	// One SetBy map per combination of kinds, shared by the cells that have
	// it (a collective leaves hundreds of thousands of cells).
	setBy := map[uint8]map[string]bool{}
	for r, m := range w.ranks {
		for _, mb := range m.list() {
			if mb == nil {
				continue
			}
			mb.mu.Lock()
			for k, cs := range mb.cells {
				v := getI32(mb.data, k.off)
				set, ok := setBy[cs.kinds]
				if !ok {
					set = map[string]bool{}
					for _, kind := range []NotifyKind{NotifyAtomicAdd, NotifySet} {
						if cs.kinds&(1<<kind) != 0 {
							set[kind.String()] = true
						}
					}
					setBy[cs.kinds] = set
				}
				out = append(out, SignalCell{Rank: r, Buffer: cs.cell.Buffer, Offset: append([]int(nil), cs.cell.Index...),
					ByteOffset: k.off, Value: int64(v), SetBy: set, Notifies: cs.count, History: append([]SignalWrite(nil), cs.history...)})
			}
			mb.mu.Unlock()
		}
	}
	SortSignalCells(out)
	return out
}

// SortSignalCells puts a run's signal cells in report order: by rank, then
// buffer, then byte offset. Every device reports them in this order.
func SortSignalCells(cells []SignalCell) {
	sort.Slice(cells, func(i, j int) bool {
		a, b := cells[i], cells[j]
		if a.Rank != b.Rank {
			return a.Rank < b.Rank
		}
		if a.Buffer != b.Buffer {
			return a.Buffer < b.Buffer
		}
		return a.ByteOffset < b.ByteOffset
	})
}
