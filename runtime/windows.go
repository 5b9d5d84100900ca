package runtime

import (
	"errors"
	"fmt"
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
	sym := map[string]string{"eq": "==", "ne": "!=", "gt": ">", "ge": ">=", "lt": "<", "le": "<="}[c.Cmp]
	if sym == "" {
		sym = c.Cmp
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
// the moment every live rank is blocked in a wait.
type sched struct {
	mu      sync.Mutex
	live    int // the host while it runs, plus every rank with work
	blocked map[int]*BlockedRank
	err     error
	stopped atomic.Bool
	onStop  func() // wakes every waiter
}

// block records rank as blocked; it returns the deadlock error when that
// makes every live rank blocked.
func (s *sched) block(rank int, b *BlockedRank) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blocked[rank] = b
	if len(s.blocked) >= s.live {
		return s.failLocked(s.deadlockLocked())
	}
	return nil
}

func (s *sched) unblock(rank int) {
	s.mu.Lock()
	delete(s.blocked, rank)
	s.mu.Unlock()
}

// addLive / doneLive count ranks that can still act; doneLive checks for a
// deadlock among the rest.
func (s *sched) addLive(n int) {
	s.mu.Lock()
	s.live += n
	s.mu.Unlock()
}

func (s *sched) doneLive() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.live--
	if s.live > 0 && len(s.blocked) >= s.live {
		s.failLocked(s.deadlockLocked())
	}
}

func (s *sched) deadlockLocked() error {
	d := &DeadlockError{}
	for _, b := range s.blocked {
		d.Blocked = append(d.Blocked, *b)
	}
	sort.Slice(d.Blocked, func(i, j int) bool { return d.Blocked[i].Rank < d.Blocked[j].Rank })
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
	count   int      // notifies applied
	history []string // "rank 1 AtomicAdd 1 → 2"
	setBy   map[string]bool
}

// rankMem is one rank's window memory, behind its own lock.
type rankMem struct {
	mu      sync.Mutex
	cond    *sync.Cond
	bufs    [][]byte // by WindowBuf.id; nil when the rank is outside the buffer's domain
	waiting int
	cells   map[cellKey]*cellState
}

type simWindows struct {
	ranks []*rankMem
	sched *sched
	obsMu sync.Mutex
	obs   Observer

	allocMu sync.Mutex
	nbufs   int
}

func newSimWindows(n int, s *sched, obs Observer) *simWindows {
	w := &simWindows{sched: s, obs: obs}
	for i := 0; i < n; i++ {
		m := &rankMem{cells: map[cellKey]*cellState{}}
		m.cond = sync.NewCond(&m.mu)
		w.ranks = append(w.ranks, m)
	}
	s.onStop = w.wakeAll
	return w
}

func (w *simWindows) wakeAll() {
	for _, m := range w.ranks {
		m.mu.Lock()
		m.cond.Broadcast()
		m.mu.Unlock()
	}
}

func (w *simWindows) observe(fn func(o Observer)) {
	if w.obs == nil {
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
	for r, m := range w.ranks {
		m.mu.Lock()
		for len(m.bufs) <= b.id {
			m.bufs = append(m.bufs, nil)
		}
		if domain == nil || in[r] {
			m.bufs[b.id] = make([]byte, size) // zero-initialised per host call
		}
		m.mu.Unlock()
	}
	return b, nil
}

// mem returns rank's copy of buf, locked; the caller unlocks m.mu.
func (w *simWindows) mem(rank int, buf *WindowBuf) (*rankMem, []byte, error) {
	if rank < 0 || rank >= len(w.ranks) {
		return nil, nil, fmt.Errorf("rank %d is outside the world of %d ranks", rank, len(w.ranks))
	}
	m := w.ranks[rank]
	m.mu.Lock()
	if buf.id >= len(m.bufs) || m.bufs[buf.id] == nil {
		m.mu.Unlock()
		return nil, nil, fmt.Errorf("rank %d has no copy of window buffer %s (outside its comm domain)", rank, buf.Name)
	}
	return m, m.bufs[buf.id], nil
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
func (w *simWindows) changedLocked(rank int, m *rankMem) {
	if m.waiting > 0 {
		w.sched.unblock(rank)
		m.cond.Broadcast()
	}
}

func (w *simWindows) Read(from, rank int, buf *WindowBuf, segs []Segment, dst []byte, who Origin) error {
	if err := checkSegs(buf, segs); err != nil {
		return err
	}
	m, b, err := w.mem(rank, buf)
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
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

func (w *simWindows) Accumulate(from, rank int, buf *WindowBuf, segs []Segment, dt ir.DataType, vals []float64, who Origin) error {
	if err := checkSegs(buf, segs); err != nil {
		return err
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
		cur := make([]float64, n)
		decode(dt, b[s.Off:], cur)
		for i := range cur {
			cur[i] = round(cur[i]+vals[k+i], dt)
		}
		encode(dt, cur, b[s.Off:])
		k += n
	}
	w.changedLocked(rank, m)
	w.observe(func(o Observer) {
		o.Access(Access{Rank: from, Target: rank, Origin: who, Buffer: buf.Name, Ranges: ranges(segs), Kind: Atomic})
	})
	return nil
}

func getI32(b []byte, off int) int32 {
	return int32(uint32(b[off]) | uint32(b[off+1])<<8 | uint32(b[off+2])<<16 | uint32(b[off+3])<<24)
}

func putI32(b []byte, off int, v int32) {
	u := uint32(v)
	b[off], b[off+1], b[off+2], b[off+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
}

func (m *rankMem) cellState(buf *WindowBuf, c Cell) *cellState {
	k := cellKey{buf.id, c.Offset}
	cs, ok := m.cells[k]
	if !ok {
		cs = &cellState{cell: c, setBy: map[string]bool{}}
		cs.cell.Index = append([]int(nil), c.Index...)
		m.cells[k] = cs
	}
	return cs
}

func (w *simWindows) Notify(from, rank int, buf *WindowBuf, cell Cell, kind NotifyKind, v int32, who Origin) error {
	if err := checkSegs(buf, []Segment{{cell.Offset, 4}}); err != nil {
		return err
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
	cs.setBy[kind.String()] = true
	seq := cs.count
	cs.count++
	if len(cs.history) < 64 {
		cs.history = append(cs.history, fmt.Sprintf("rank %d %s %d → %d", from, kind, v, nv))
	}
	w.changedLocked(rank, m)
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
	for {
		if w.sched.stopped.Load() {
			return errAborted
		}
		v := getI32(b, cell.Offset)
		if cond.Holds(v) {
			w.observeWait(m, buf, cell, cond, who, v, true)
			return nil
		}
		info := &BlockedRank{Rank: rank, Cell: cell.String(), Value: int64(v), Want: cond.String(), Func: who.Func}
		if who.Call != nil {
			info.Op, info.Pos = who.Call.Name(), who.Call.Pos
		}
		if cs, ok := m.cells[cellKey{buf.id, cell.Offset}]; ok {
			info.Writes = append([]string(nil), cs.history...)
		}
		if err := w.sched.block(rank, info); err != nil {
			return err
		}
		m.waiting++
		m.cond.Wait()
		m.waiting--
		w.sched.unblock(rank)
	}
}

func (w *simWindows) observeWait(m *rankMem, buf *WindowBuf, cell Cell, cond Cond, who Origin, v int32, ok bool) {
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
	var out []SignalCell
	for r, m := range w.ranks {
		m.mu.Lock()
		for k, cs := range m.cells {
			v := getI32(m.bufs[k.buf], k.off)
			set := map[string]bool{}
			for s := range cs.setBy {
				set[s] = true
			}
			out = append(out, SignalCell{Rank: r, Buffer: cs.cell.Buffer, Offset: append([]int(nil), cs.cell.Index...),
				ByteOffset: k.off, Value: int64(v), SetBy: set, Notifies: cs.count, History: append([]string(nil), cs.history...)})
		}
		m.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Rank != b.Rank {
			return a.Rank < b.Rank
		}
		if a.Buffer != b.Buffer {
			return a.Buffer < b.Buffer
		}
		return a.ByteOffset < b.ByteOffset
	})
	return out
}
