package runtime

import (
	"math/rand"
	"sort"
	"sync"

	"github.com/ptorepl/ptorepl/ir"
)

// The relaxed memory mode (RunOptions.Relaxed) realises rules 1–3 of
// docs/memory-model.md in the in-process window layer:
//
//   - a device rank's writes of window memory (stores into a window,
//     remote_store, put, get into a local window, atomic accumulates) go into
//     that rank's pending write buffer instead of memory. They become visible
//     when the rank fences (system.fence), when its task ends, when the
//     visibility chooser drains them, or when every live rank is blocked
//     (writes complete eventually: a deadlock is never blamed on a write
//     still in flight);
//   - notifies are applied at once and atomically, so a notify overtakes
//     every write of its rank still pending (rule 2); waits and tests read
//     the cell itself;
//   - each rank caches the lines of its own window it reads; a write that
//     lands under a cached line leaves the line holding the old bytes, and a
//     later read may be served those until system.cacheinvalid (whole or
//     region) drops the line. A task starts with an empty cache (a kernel
//     launch).
//
// The native (builtin) collectives are one fenced, invalidated unit: their
// own steps run sequentially consistent.
//
// Every visibility decision goes through relaxedMem.chooseVisibility, so a
// schedule explorer can take them over (see visKind for what the options
// mean).

// RelaxedDevice is a device that can run in the relaxed memory mode
// (RunOptions.Relaxed). Devices without it reject the option.
type RelaxedDevice interface {
	Device
	RelaxesMemory()
}

var _ RelaxedDevice = (*Simulator)(nil)

// RelaxesMemory marks the simulator as a RelaxedDevice.
func (*Simulator) RelaxesMemory() {}

// RelaxedObserver is an Observer that also follows the relaxed memory
// mode: fences, cache invalidations, task boundaries and which writes were
// buffered. The checker uses them to say which fence or cacheinvalid a
// program is missing.
type RelaxedObserver interface {
	Observer
	Relaxed(e RelaxedEvent)
}

// RelaxedEventKind says what a RelaxedEvent records.
type RelaxedEventKind int

// Relaxed event kinds.
const (
	// RelaxedTaskStart: a task starts on Rank with an empty cache.
	RelaxedTaskStart RelaxedEventKind = iota
	// RelaxedTaskEnd: Rank's task ended; its pending writes completed.
	RelaxedTaskEnd
	// RelaxedFence: Rank fenced (Origin is the system.fence); every earlier
	// write of Rank is visible.
	RelaxedFence
	// RelaxedInvalidate: Rank dropped cached lines of its own window:
	// every line when Buffer is empty, else Ranges of Buffer.
	RelaxedInvalidate
	// RelaxedBuffered: the write Access just reported (Rank into Target's
	// Buffer at Ranges, by Origin) went into Rank's write buffer.
	RelaxedBuffered
	// RelaxedStaleRead: a read by Rank of its own window was served stale
	// bytes from its cache at Ranges.
	RelaxedStaleRead
)

var relaxedKindNames = [...]string{"task-start", "task-end", "fence", "invalidate", "buffered", "stale-read"}

func (k RelaxedEventKind) String() string {
	if int(k) < len(relaxedKindNames) {
		return relaxedKindNames[k]
	}
	return "relaxed?"
}

// RelaxedEvent is one event of the relaxed memory mode.
type RelaxedEvent struct {
	Kind   RelaxedEventKind
	Rank   int // the rank acting
	Target int // RelaxedBuffered: whose window the write goes to
	Origin
	Buffer string
	Ranges []ByteRange
	Atomic bool // RelaxedBuffered: an accumulate
}

// visKind is what one visibility choice decides. In every kind the last
// option (options-1) is "nothing becomes visible now", the most delaying
// answer, which is what the default policy always picks.
type visKind int

const (
	// visDrain: options = the rank's pending writes + 1. An answer i <
	// options-1 makes pending write i (in issue order) visible now, and the
	// choice is offered again; options-1 leaves the rest pending.
	visDrain visKind = iota
	// visStale: options = 2, for one run of stale bytes under a read of the
	// rank's own window: 0 refetches the line (the read sees memory), 1
	// serves the stale bytes.
	visStale
)

func (k visKind) String() string {
	if k == visStale {
		return "serve a stale line or refetch it"
	}
	return "land a pending write or delay"
}

// pendingWrite is one write in a rank's write buffer.
type pendingWrite struct {
	target int
	buf    *WindowBuf
	segs   []Segment
	data   []byte // the bytes to store (nil for an accumulate)
	owned  bool   // data is pooled: recycle it once applied
	dt     ir.DataType
	vals   []float64 // an accumulate's addends
	who    Origin
}

// lineCache is one rank's cache over one window buffer: the byte runs it
// read since the last invalidation, and, under them, the old bytes of
// writes that landed since (sorted and disjoint, oldest bytes kept).
type lineCache struct {
	cached []ByteRange
	stale  []staleRun
}

type staleRun struct {
	lo  int
	old []byte
}

// relaxedMem is the relaxed mode's state. One lock guards it; it is taken
// inside a rank memory lock, never the other way round.
type relaxedMem struct {
	w       *simWindows
	mu      sync.Mutex
	pending [][]*pendingWrite // by issuing rank, in issue order
	cache   []map[int]*lineCache
	rng     []*rand.Rand // the seeded policy's, per rank (nil: default policy)
	// choose, when set, replaces the built-in policies: it answers every
	// visibility choice (see visKind). A schedule explorer plugs in here
	// (RunOptions.visibility). It is called from the rank goroutine making
	// the access, with the relaxed lock held (so never concurrently), and
	// must not call back into the run; an answer out of range counts as
	// options-1.
	choose func(rank int, kind visKind, options int) int
	// native marks the builtin collectives, whose steps stay sequentially
	// consistent (ops whose Collective is set, and those collectives).
	native map[*ir.OpDef]bool
}

func newRelaxedMem(w *simWindows, n int, seed int64) *relaxedMem {
	r := &relaxedMem{w: w, pending: make([][]*pendingWrite, n), cache: make([]map[int]*lineCache, n), native: map[*ir.OpDef]bool{}}
	if seed != 0 {
		r.rng = make([]*rand.Rand, n)
		for i := range r.rng {
			r.rng[i] = rand.New(rand.NewSource(seed*7919 + int64(i)))
		}
	}
	for _, d := range ir.Ops() {
		if d.Collective != nil {
			r.native[d] = true
			r.native[d.Collective] = true
		}
	}
	return r
}

// chooseVisibility is the one point every visibility decision goes
// through. Default policy (Seed 0): adversarial but deterministic, always
// the last option: writes stay pending as long as the model allows (to a
// fence, the task's end, or a would-be deadlock) and cached lines are
// served stale until invalidated. Seeded policy: drain a random pending
// write at about one offer in four, serve stale bytes half the time, from
// a per-rank generator, so each rank's choices replay with the seed.
func (r *relaxedMem) chooseVisibility(rank int, kind visKind, options int) int {
	if options <= 1 {
		return 0
	}
	if r.choose != nil {
		c := r.choose(rank, kind, options)
		if c < 0 || c >= options {
			c = options - 1
		}
		return c
	}
	if r.rng == nil || rank < 0 || rank >= len(r.rng) {
		return options - 1
	}
	g := r.rng[rank]
	switch kind {
	case visDrain:
		if g.Intn(4) == 0 {
			return g.Intn(options - 1)
		}
		return options - 1
	default:
		return g.Intn(options)
	}
}

// offersChoices says whether drain offers can change anything (the
// default policy never drains early, so it skips them).
func (r *relaxedMem) offersChoices() bool { return r.choose != nil || r.rng != nil }

// buffers reports whether a write by from on behalf of who is buffered:
// device ranks' writes, except inside a builtin collective.
func (r *relaxedMem) buffers(from int, who Origin) bool {
	return from >= 0 && from < len(r.pending) && !r.isNative(who)
}

func (r *relaxedMem) isNative(who Origin) bool {
	return who.Call != nil && who.Call.Op != nil && r.native[who.Call.Op]
}

func (w *simWindows) relaxedEvent(e RelaxedEvent) {
	w.observe(func(o Observer) {
		if ro, ok := o.(RelaxedObserver); ok {
			ro.Relaxed(e)
		}
	})
}

// enqueue puts a write into from's buffer (after checking that the target
// copy exists, so a bad write fails at its op) and reports it.
func (r *relaxedMem) enqueue(from int, p *pendingWrite, kind AccessKind) error {
	m, _, err := r.w.rmem(p.target, p.buf)
	if err != nil {
		return err
	}
	m.mu.RUnlock()
	r.mu.Lock()
	r.pending[from] = append(r.pending[from], p)
	r.mu.Unlock()
	rs := ranges(p.segs)
	r.w.observe(func(o Observer) {
		o.Access(Access{Rank: from, Target: p.target, Origin: p.who, Buffer: p.buf.Name, Ranges: rs, Kind: kind})
		if ro, ok := o.(RelaxedObserver); ok {
			ro.Relaxed(RelaxedEvent{Kind: RelaxedBuffered, Rank: from, Target: p.target, Origin: p.who, Buffer: p.buf.Name, Ranges: rs, Atomic: kind == Atomic})
		}
	})
	r.offer(from)
	return nil
}

// offer lets the chooser drain some of rank's pending writes now.
func (r *relaxedMem) offer(rank int) {
	if !r.offersChoices() || rank < 0 || rank >= len(r.pending) {
		return
	}
	for {
		r.mu.Lock()
		n := len(r.pending[rank])
		if n == 0 {
			r.mu.Unlock()
			return
		}
		i := r.chooseVisibility(rank, visDrain, n+1)
		if i >= n {
			r.mu.Unlock()
			return
		}
		p := r.pending[rank][i]
		r.pending[rank] = append(r.pending[rank][:i], r.pending[rank][i+1:]...)
		r.mu.Unlock()
		r.apply(p)
	}
}

// drain makes every pending write of rank visible, in issue order.
func (r *relaxedMem) drain(rank int) {
	if rank < 0 || rank >= len(r.pending) {
		return
	}
	r.mu.Lock()
	ps := r.pending[rank]
	r.pending[rank] = nil
	r.mu.Unlock()
	for _, p := range ps {
		r.apply(p)
	}
}

// apply lands a pending write in memory: cached lines under it keep the
// old bytes, and a waiter on the target is woken.
func (r *relaxedMem) apply(p *pendingWrite) {
	m, b, err := r.w.mem(p.target, p.buf)
	if err != nil {
		return // checked at enqueue; the buffer cannot vanish in a run
	}
	r.mu.Lock()
	r.landedLocked(p.target, p.buf, p.segs, b)
	r.mu.Unlock()
	if p.vals != nil {
		sz := p.dt.Bytes()
		k := 0
		for _, s := range p.segs {
			n := s.Len / sz
			accumulate(p.dt, b[s.Off:s.Off+s.Len], p.vals[k:k+n])
			k += n
		}
	} else {
		k := 0
		for _, s := range p.segs {
			k += copy(b[s.Off:s.Off+s.Len], p.data[k:])
		}
	}
	r.w.changedLocked(p.target, m)
	m.mu.Unlock()
	if p.owned {
		putBuf(p.data)
	}
}

// anyPending reports whether some write is still in flight.
func (r *relaxedMem) anyPending() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ps := range r.pending {
		if len(ps) > 0 {
			return true
		}
	}
	return false
}

// settle is the scheduler's last resort before declaring a deadlock:
// writes complete eventually, so when some are in flight it lands them all
// (on its own goroutine: the caller holds a rank's memory lock) and only
// then, if nobody woke, declares the deadlock. It reports whether it took
// over.
func (r *relaxedMem) settle(s *sched) bool {
	if !r.anyPending() {
		return false
	}
	go func() {
		for rank := range r.pending {
			r.drain(rank)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.live > 0 && s.nblocked >= s.live {
			s.failLocked(s.deadlockErrLocked())
		}
	}()
	return true
}

// --- the cache

func (r *relaxedMem) lines(rank int, buf *WindowBuf, create bool) *lineCache {
	if rank < 0 || rank >= len(r.cache) {
		return nil
	}
	if r.cache[rank] == nil {
		if !create {
			return nil
		}
		r.cache[rank] = map[int]*lineCache{}
	}
	lc := r.cache[rank][buf.id]
	if lc == nil && create {
		lc = &lineCache{}
		r.cache[rank][buf.id] = lc
	}
	return lc
}

// landedLocked records, for a write landing on rank's copy (mem is that
// copy, before the write), the old bytes under the lines rank has cached.
func (r *relaxedMem) landedLocked(rank int, buf *WindowBuf, segs []Segment, mem []byte) {
	lc := r.lines(rank, buf, false)
	if lc == nil || len(lc.cached) == 0 {
		return
	}
	for _, s := range segs {
		for _, c := range lc.cached {
			lo, hi := max(s.Off, c.Lo), min(s.Off+s.Len, c.Hi)
			if lo < hi {
				lc.addStale(lo, hi, mem)
			}
		}
	}
}

// addStale keeps mem[lo:hi] as stale bytes where no older stale bytes are.
func (lc *lineCache) addStale(lo, hi int, mem []byte) {
	pos := lo
	var add []staleRun
	for _, st := range lc.stale {
		sl, sh := st.lo, st.lo+len(st.old)
		if sh <= pos || sl >= hi {
			continue
		}
		if sl > pos {
			add = append(add, staleRun{pos, append([]byte(nil), mem[pos:sl]...)})
		}
		pos = max(pos, sh)
	}
	if pos < hi {
		add = append(add, staleRun{pos, append([]byte(nil), mem[pos:hi]...)})
	}
	if len(add) == 0 {
		return
	}
	lc.stale = append(lc.stale, add...)
	sort.Slice(lc.stale, func(i, j int) bool { return lc.stale[i].lo < lc.stale[j].lo })
}

// drop forgets the cached lines and stale bytes of [lo, hi).
func (lc *lineCache) drop(lo, hi int) {
	lc.cached = subRange(lc.cached, lo, hi)
	var keep []staleRun
	for _, st := range lc.stale {
		sl, sh := st.lo, st.lo+len(st.old)
		if sh <= lo || sl >= hi {
			keep = append(keep, st)
			continue
		}
		if sl < lo {
			keep = append(keep, staleRun{sl, st.old[:lo-sl]})
		}
		if sh > hi {
			keep = append(keep, staleRun{hi, st.old[hi-sl:]})
		}
	}
	lc.stale = keep
}

// addRangeSorted adds [lo, hi) to sorted disjoint rs, merging.
func addRangeSorted(rs []ByteRange, lo, hi int) []ByteRange {
	out := rs[:0:0]
	placed := false
	for _, r := range rs {
		switch {
		case r.Hi < lo:
			out = append(out, r)
		case r.Lo > hi:
			if !placed {
				out = append(out, ByteRange{lo, hi})
				placed = true
			}
			out = append(out, r)
		default:
			lo, hi = min(lo, r.Lo), max(hi, r.Hi)
		}
	}
	if !placed {
		out = append(out, ByteRange{lo, hi})
		sort.Slice(out, func(i, j int) bool { return out[i].Lo < out[j].Lo })
	}
	return out
}

// subRange removes [lo, hi) from sorted disjoint rs.
func subRange(rs []ByteRange, lo, hi int) []ByteRange {
	var out []ByteRange
	for _, r := range rs {
		if r.Hi <= lo || r.Lo >= hi {
			out = append(out, r)
			continue
		}
		if r.Lo < lo {
			out = append(out, ByteRange{r.Lo, lo})
		}
		if r.Hi > hi {
			out = append(out, ByteRange{hi, r.Hi})
		}
	}
	return out
}

// serveCached overlays, on a read by rank of its own copy (dst holds the
// memory's bytes of segs, in order), the stale bytes the chooser serves,
// then caches the lines read. It returns the byte ranges served stale.
func (r *relaxedMem) serveCached(rank int, buf *WindowBuf, segs []Segment, dst []byte) []ByteRange {
	r.mu.Lock()
	defer r.mu.Unlock()
	lc := r.lines(rank, buf, true)
	if lc == nil {
		return nil
	}
	var served []ByteRange
	k := 0
	for _, s := range segs {
		for i := 0; i < len(lc.stale); i++ {
			st := lc.stale[i]
			lo, hi := max(s.Off, st.lo), min(s.Off+s.Len, st.lo+len(st.old))
			if lo >= hi {
				continue
			}
			if r.chooseVisibility(rank, visStale, 2) == 0 {
				lc.drop(st.lo, st.lo+len(st.old)) // refetched: the line is fresh
				lc.cached = addRangeSorted(lc.cached, st.lo, st.lo+len(st.old))
				i--
				continue
			}
			copy(dst[k+lo-s.Off:k+hi-s.Off], st.old[lo-st.lo:hi-st.lo])
			served = append(served, ByteRange{lo, hi})
		}
		lc.cached = addRangeSorted(lc.cached, s.Off, s.Off+s.Len)
		k += s.Len
	}
	return served
}

// invalidate drops rank's cached lines: all of them (buf nil) or segs of buf.
func (r *relaxedMem) invalidate(rank int, buf *WindowBuf, segs []Segment) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if rank < 0 || rank >= len(r.cache) {
		return
	}
	if buf == nil {
		r.cache[rank] = nil
		return
	}
	lc := r.lines(rank, buf, false)
	if lc == nil {
		return
	}
	for _, s := range segs {
		lc.drop(s.Off, s.Off+s.Len)
	}
}

// --- the Windows operations in relaxed mode

func (r *relaxedMem) read(from, rank int, buf *WindowBuf, segs []Segment, dst []byte, who Origin) error {
	r.offer(from)
	m, b, err := r.w.rmem(rank, buf)
	if err != nil {
		return err
	}
	k := 0
	for _, s := range segs {
		k += copy(dst[k:], b[s.Off:s.Off+s.Len])
	}
	var stale []ByteRange
	if from == rank && !r.isNative(who) {
		stale = r.serveCached(rank, buf, segs, dst)
	}
	m.mu.RUnlock()
	r.w.observe(func(o Observer) {
		o.Access(Access{Rank: from, Target: rank, Origin: who, Buffer: buf.Name, Ranges: ranges(segs), Kind: Read})
		if ro, ok := o.(RelaxedObserver); ok && len(stale) > 0 {
			ro.Relaxed(RelaxedEvent{Kind: RelaxedStaleRead, Rank: from, Target: rank, Origin: who, Buffer: buf.Name, Ranges: stale})
		}
	})
	return nil
}

func (r *relaxedMem) copyRegions(from int, dst, src Region) error {
	data := make([]byte, segsLen(src.Segs))
	if err := r.read(from, src.Rank, src.Buf, src.Segs, data, src.Who); err != nil {
		return err
	}
	return r.enqueue(from, &pendingWrite{target: dst.Rank, buf: dst.Buf, segs: cloneSegs(dst.Segs), data: data, who: dst.Who}, Write)
}

func cloneSegs(segs []Segment) []Segment { return append([]Segment(nil), segs...) }

// --- the op hooks: fences, invalidations, task boundaries

// relaxed is the run's relaxed state (nil: sequentially consistent, or a
// device that runs one rank against its own Windows).
func (s *sim) relaxed() *relaxedMem {
	if s.mem == nil {
		return nil
	}
	return s.mem.rx
}

// fence makes every earlier write of rank visible (system.fence).
func (s *sim) fence(rank int, who Origin) {
	r := s.relaxed()
	if r == nil || rank < 0 {
		return
	}
	r.drain(rank)
	s.mem.relaxedEvent(RelaxedEvent{Kind: RelaxedFence, Rank: rank, Target: rank, Origin: who})
}

// cacheInvalidate drops rank's cached lines: all (v nil) or v's region.
func (s *sim) cacheInvalidate(rank int, v *view, who Origin) {
	r := s.relaxed()
	if r == nil || rank < 0 {
		return
	}
	e := RelaxedEvent{Kind: RelaxedInvalidate, Rank: rank, Target: rank, Origin: who}
	if v == nil || v.win == nil {
		r.invalidate(rank, nil, nil)
	} else {
		segs := v.segments()
		r.invalidate(rank, v.win, segs)
		e.Buffer, e.Ranges = v.win.Name, ranges(segs)
	}
	s.mem.relaxedEvent(e)
}

// taskStart empties rank's cache (a kernel launch); the returned func ends
// the task: its pending writes complete.
func (s *sim) taskStart(rank int) func() {
	r := s.relaxed()
	if r == nil || rank < 0 {
		return func() {}
	}
	r.invalidate(rank, nil, nil)
	s.mem.relaxedEvent(RelaxedEvent{Kind: RelaxedTaskStart, Rank: rank, Target: rank})
	return func() {
		r.drain(rank)
		s.mem.relaxedEvent(RelaxedEvent{Kind: RelaxedTaskEnd, Rank: rank, Target: rank})
	}
}

// nativeAcquired drops rank's cache after a builtin collective's wait
// returned (its lowering invalidates after every wait); the rank's memory
// lock is held, which the relaxed lock nests inside.
func (r *relaxedMem) nativeAcquired(rank int, who Origin) {
	r.invalidate(rank, nil, nil)
	r.w.relaxedEvent(RelaxedEvent{Kind: RelaxedInvalidate, Rank: rank, Target: rank, Origin: who})
}
