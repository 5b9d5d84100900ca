package checker

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
)

// The relaxed memory mode's diagnoses (docs/memory-model.md, rules 1–3).
// They follow happens-before, not the timing of the run: a write is
// "visible" to an access when a fence of the writer (or the end of its
// task) after the write happens before the access, and a read of a rank's
// own window is "fresh" when a cacheinvalid covering the bytes comes after
// the write is known to the reader. So the same program gives the same
// findings whatever the simulator's write buffers did in this run.
//
// Epochs: a fence, an invalidation and a task start tick the rank's own
// clock entry, so that accesses before and after them differ.

// Relaxed-mode finding kinds.
const (
	// KindUnfencedRead: a rank read data it wrote itself before the write
	// was visible (no fence between the write and the read).
	KindUnfencedRead Kind = "read-before-visible"
	// KindSignalOvertakes: a notify published data whose write was still in
	// flight, and a peer read (or overwrote) it.
	KindSignalOvertakes Kind = "signal-overtakes-data"
	// KindStaleRead: a read of a rank's own window that a cached line may
	// serve from before a write it must see.
	KindStaleRead Kind = "stale-cached-read"
)

// WeakMemory is the typed form of a relaxed-mode finding: the two (or
// three) statements involved and the fix.
type WeakMemory struct {
	// Write is the write that was not yet visible (or landed under a
	// cached line).
	Write Site
	// Access is the read (or write) that came too early or saw a stale line.
	Access Site
	// Signal is, for KindSignalOvertakes, the writer's notify that overtook
	// the write.
	Signal *Site
	// Wait is, for KindStaleRead, the reader's wait after which the write
	// became its to see.
	Wait *Site
	Fix  Fix
}

// Site is one statement of a finding on one rank.
type Site struct {
	Rank   int
	Op     string  // the op's name (pld.tile.remote_store)
	Pos    ir.Span // its source position (the cell or file, line:col)
	Func   string
	Region string // what it touched: data[1, 0:16] (empty for a notify or wait)
}

func (s Site) String() string {
	t := fmt.Sprintf("rank %d: %s", s.Rank, s.Op)
	if s.Pos.Known() {
		t += " at " + s.Pos.String()
	}
	if s.Func != "" {
		t += " in " + s.Func
	}
	if s.Region != "" {
		t += ", " + s.Region
	}
	return t
}

// FixKind is what a fix inserts.
type FixKind int

// Fix kinds.
const (
	FixFence           FixKind = iota // pl.system.fence()
	FixCacheInvalidate                // pl.system.cacheinvalid(...)
)

// Fix is where the missing statement goes: after After, before Before.
type Fix struct {
	Kind          FixKind
	After, Before ir.Span
	// Text is the fix in words: "a `pl.system.fence()` is needed between
	// line 12:5 and line 14:5".
	Text string
}

type rxWrite struct {
	rank, target int
	buffer       string
	ranges       []runtime.ByteRange
	origin       runtime.Origin
	epoch        uint32
	visible      uint32 // the writer's epoch at the fence that made it visible; 0: not yet
	atomic       bool
	signal       *runtime.Origin // the writer's first notify while it was in flight
}

type rxRegion struct {
	buffer string
	ranges []runtime.ByteRange
	clock  clock
}

type rxWait struct {
	origin runtime.Origin
	clock  clock
}

// rxState is the checker's relaxed-mode bookkeeping (nil until the run
// reports a relaxed event: sequentially consistent runs never pay for it).
type rxState struct {
	writes  map[memKey][]*rxWrite // writes of each rank copy, oldest first
	pending map[int][]*rxWrite    // by writer: not yet fenced
	whole   map[int]clock         // by rank: its clock at the last whole invalidation
	regions map[int][]rxRegion    // by rank: region invalidations since
	waits   map[int][]rxWait      // by rank: waits since the last whole invalidation
}

// Caps that keep a long relaxed run's bookkeeping bounded.
const (
	maxRxWrites = 4096
	maxRxWaits  = 1024
)

func newRxState() *rxState {
	return &rxState{writes: map[memKey][]*rxWrite{}, pending: map[int][]*rxWrite{}, whole: map[int]clock{},
		regions: map[int][]rxRegion{}, waits: map[int][]rxWait{}}
}

var _ runtime.RelaxedObserver = (*Checker)(nil)

// Relaxed records one event of the relaxed memory mode.
func (c *Checker) Relaxed(e runtime.RelaxedEvent) {
	if e.Rank < 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.grow(max(e.Rank, e.Target))
	if c.rx == nil {
		c.rx = newRxState()
	}
	rx, vc := c.rx, c.vc[e.Rank]
	switch e.Kind {
	case runtime.RelaxedBuffered:
		w := &rxWrite{rank: e.Rank, target: e.Target, buffer: e.Buffer, ranges: append([]runtime.ByteRange(nil), e.Ranges...),
			origin: e.Origin, epoch: vc[e.Rank], atomic: e.Atomic}
		k := memKey{e.Target, e.Buffer}
		rx.writes[k] = pruneWrites(append(rx.writes[k], w))
		rx.pending[e.Rank] = append(rx.pending[e.Rank], w)
	case runtime.RelaxedFence, runtime.RelaxedTaskEnd:
		vc[e.Rank]++
		for _, w := range rx.pending[e.Rank] {
			w.visible = vc[e.Rank]
		}
		delete(rx.pending, e.Rank)
	case runtime.RelaxedTaskStart:
		rx.invalidateAll(e.Rank, vc)
	case runtime.RelaxedInvalidate:
		if e.Buffer == "" {
			rx.invalidateAll(e.Rank, vc)
		} else {
			rx.regions[e.Rank] = append(rx.regions[e.Rank], rxRegion{buffer: e.Buffer, ranges: append([]runtime.ByteRange(nil), e.Ranges...), clock: cloneClock(vc)})
			vc[e.Rank]++
		}
	}
}

func (rx *rxState) invalidateAll(rank int, vc clock) {
	rx.whole[rank] = cloneClock(vc)
	delete(rx.regions, rank)
	delete(rx.waits, rank)
	vc[rank]++
}

func cloneClock(c clock) clock { return append(clock(nil), c...) }

// at is entry r of a clock snapshot (0 past its end: a rank it never knew).
func at(c clock, r int) uint32 {
	if r < len(c) {
		return c[r]
	}
	return 0
}

// pruneWrites drops writes a later write of the same rank covers whole
// (an access that sees only the older one races with the newer one, which
// the race check reports), and the oldest past the cap.
func pruneWrites(ws []*rxWrite) []*rxWrite {
	last := ws[len(ws)-1]
	out := ws[:0]
	for _, w := range ws[:len(ws)-1] {
		if w.rank == last.rank && w.atomic == last.atomic && covers(last.ranges, w.ranges) {
			continue
		}
		out = append(out, w)
	}
	out = append(out, last)
	if len(out) > maxRxWrites {
		out = out[len(out)-maxRxWrites:]
	}
	return out
}

// covers reports whether the union of a contains every range of b.
func covers(a, b []runtime.ByteRange) bool {
	for _, r := range b {
		left := []runtime.ByteRange{r}
		for _, x := range a {
			left = subtract(left, x)
		}
		if len(left) > 0 {
			return false
		}
	}
	return true
}

func subtract(rs []runtime.ByteRange, x runtime.ByteRange) []runtime.ByteRange {
	var out []runtime.ByteRange
	for _, r := range rs {
		if r.Hi <= x.Lo || r.Lo >= x.Hi {
			out = append(out, r)
			continue
		}
		if r.Lo < x.Lo {
			out = append(out, runtime.ByteRange{Lo: r.Lo, Hi: x.Lo})
		}
		if r.Hi > x.Hi {
			out = append(out, runtime.ByteRange{Lo: x.Hi, Hi: r.Hi})
		}
	}
	return out
}

func intersect(a, b []runtime.ByteRange) []runtime.ByteRange {
	var out []runtime.ByteRange
	for _, x := range a {
		for _, y := range b {
			if lo, hi := max(x.Lo, y.Lo), min(x.Hi, y.Hi); lo < hi {
				out = append(out, runtime.ByteRange{Lo: lo, Hi: hi})
			}
		}
	}
	return out
}

// rxNotified notes, for the writes rank still has in flight, the notify
// that overtakes them.
func (c *Checker) rxNotified(n runtime.Notification) {
	for _, w := range c.rx.pending[n.Rank] {
		if w.signal == nil {
			o := n.Origin
			w.signal = &o
		}
	}
}

// rxWaited keeps the reader's waits, to say after which one it must
// invalidate.
func (c *Checker) rxWaited(rank int, o runtime.Origin) {
	if ws := c.rx.waits[rank]; len(ws) < maxRxWaits {
		c.rx.waits[rank] = append(ws, rxWait{origin: o, clock: cloneClock(c.vc[rank])})
	}
}

// rxJoined: after the host joined every rank, every write is visible and
// every later task starts with an empty cache.
func (c *Checker) rxJoined() {
	c.rx = newRxState()
}

// rxCheck checks access ac of ranges against the writes that happen before
// it: each must be visible, and a read of the reader's own window must not
// be served from a line cached before the write.
func (c *Checker) rxCheck(ac *access, rs []runtime.ByteRange) {
	ws := c.rx.writes[memKey{ac.target, ac.buffer}]
	if len(ws) == 0 {
		return
	}
	vc := c.vc[ac.rank]
	for _, w := range ws {
		ov := intersect(w.ranges, rs)
		if len(ov) == 0 || (w.atomic && ac.kind == runtime.Atomic) {
			continue
		}
		if !hb(w.rank, w.epoch, vc) {
			continue // unordered: the race check's business
		}
		if w.visible == 0 || !hb(w.rank, w.visible, vc) {
			if w.rank == ac.rank {
				if ac.kind == runtime.Read {
					c.rxUnfenced(w, ac, ov)
				}
				continue
			}
			c.rxOvertaken(w, ac, ov)
			continue
		}
		if ac.kind == runtime.Read && ac.target == ac.rank && !c.rxCovered(ac.rank, w, ov) {
			c.rxStale(w, ac, ov)
		}
	}
}

// rxCovered reports whether an invalidation on rank that w happens before
// covers ov.
func (c *Checker) rxCovered(rank int, w *rxWrite, ov []runtime.ByteRange) bool {
	if cl, ok := c.rx.whole[rank]; ok && at(cl, w.rank) >= w.epoch {
		return true
	}
	left := ov
	for _, r := range c.rx.regions[rank] {
		if r.buffer != w.buffer || at(r.clock, w.rank) < w.epoch {
			continue
		}
		for _, x := range r.ranges {
			left = subtract(left, x)
		}
		if len(left) == 0 {
			return true
		}
	}
	return false
}

func siteOf(rank int, o runtime.Origin, reg string) Site {
	s := Site{Rank: rank, Func: o.Func, Region: reg}
	if o.Call != nil {
		s.Op, s.Pos = o.Call.Name(), o.Call.Pos
	} else {
		s.Op = "a host copy"
	}
	return s
}

func (w *rxWrite) access() *access {
	k := runtime.Write
	if w.atomic {
		k = runtime.Atomic
	}
	return &access{rank: w.rank, target: w.target, kind: k, origin: w.origin, buffer: w.buffer}
}

// where names a region with the rank whose copy it is.
func where(a *access, rs []runtime.ByteRange) string {
	return fmt.Sprintf("%s on rank %d", region(a, rs), a.target)
}

// linePair renders two positions for a fix: "line 12:5" and "line 14:5"
// when they share a file or cell, else in full.
func linePair(a, b ir.Span) (string, string) {
	if a.Known() && b.Known() && a.File == b.File {
		return lineCol(a), lineCol(b)
	}
	return a.String(), b.String()
}

func lineCol(s ir.Span) string {
	if s.Col > 0 {
		return fmt.Sprintf("line %d:%d", s.Line, s.Col)
	}
	return fmt.Sprintf("line %d", s.Line)
}

func posOf(o runtime.Origin) ir.Span {
	if o.Call == nil {
		return ir.Span{}
	}
	return o.Call.Pos
}

func rxKey(kind Kind, a, b runtime.Origin) string {
	return fmt.Sprintf("%s|%p|%p", kind, a.Call, b.Call)
}

func (c *Checker) rxUnfenced(w *rxWrite, ac *access, ov []runtime.ByteRange) {
	wa := w.access()
	wm := &WeakMemory{Write: siteOf(w.rank, w.origin, where(wa, ov)), Access: siteOf(ac.rank, ac.origin, where(ac, ov))}
	x, y := linePair(posOf(w.origin), posOf(ac.origin))
	wm.Fix = Fix{Kind: FixFence, After: posOf(w.origin), Before: posOf(ac.origin),
		Text: fmt.Sprintf("a `pl.system.fence()` is needed between %s and %s", x, y)}
	c.note(rxKey(KindUnfencedRead, w.origin, ac.origin), Finding{
		Kind: KindUnfencedRead, Severity: Error, Weak: wm,
		Message: fmt.Sprintf("rank %d's %s read %s before its own %s to it was visible: %s.",
			ac.rank, shortOp(ac.origin), where(ac, ov), shortOp(w.origin), wm.Fix.Text),
		Details: []string{"write: " + wm.Write.String(), "read:  " + wm.Access.String()},
	})
}

func (c *Checker) rxOvertaken(w *rxWrite, ac *access, ov []runtime.ByteRange) {
	wa := w.access()
	wm := &WeakMemory{Write: siteOf(w.rank, w.origin, where(wa, ov)), Access: siteOf(ac.rank, ac.origin, where(ac, ov))}
	if ac.cell != "" {
		wm.Access.Region = ac.cell
	}
	after, before := posOf(w.origin), ir.Span{}
	via := "a later signal"
	if w.signal != nil {
		s := siteOf(w.rank, *w.signal, "")
		wm.Signal = &s
		before = posOf(*w.signal)
		via = fmt.Sprintf("its %s at %s", shortOp(*w.signal), before)
	}
	var text string
	if before.Known() {
		x, y := linePair(after, before)
		text = fmt.Sprintf("a `pl.system.fence()` is needed between %s and %s", x, y)
	} else {
		text = fmt.Sprintf("a `pl.system.fence()` is needed after %s, before rank %d signals", lineCol(after), w.rank)
	}
	wm.Fix = Fix{Kind: FixFence, After: after, Before: before, Text: text}
	what := fmt.Sprintf("read %s", where(ac, ov))
	if ac.kind != runtime.Read {
		what = fmt.Sprintf("wrote %s, which the late write can still overwrite", where(ac, ov))
		if ac.cell != "" {
			what = fmt.Sprintf("notified %s, which the late write can still wipe", ac.cell)
		}
	}
	details := []string{"write:  " + wm.Write.String()}
	if wm.Signal != nil {
		details = append(details, "signal: "+wm.Signal.String())
	}
	details = append(details, "access: "+wm.Access.String())
	c.note(rxKey(KindSignalOvertakes, w.origin, ac.origin), Finding{
		Kind: KindSignalOvertakes, Severity: Error, Weak: wm,
		Message: fmt.Sprintf("rank %d's %s at %s was still in flight when %s let rank %d go on: rank %d's %s at %s %s before the write was visible; %s.",
			w.rank, shortOp(w.origin), after, via, ac.rank, ac.rank, shortOp(ac.origin), posOf(ac.origin), what, text),
		Details: details,
	})
}

func (c *Checker) rxStale(w *rxWrite, ac *access, ov []runtime.ByteRange) {
	wa := w.access()
	wm := &WeakMemory{Write: siteOf(w.rank, w.origin, where(wa, ov)), Access: siteOf(ac.rank, ac.origin, where(ac, ov))}
	var wait *rxWait
	if w.rank != ac.rank {
		for i := range c.rx.waits[ac.rank] {
			if at(c.rx.waits[ac.rank][i].clock, w.rank) >= w.epoch {
				wait = &c.rx.waits[ac.rank][i]
				break
			}
		}
	}
	read := posOf(ac.origin)
	var text string
	var after ir.Span
	switch {
	case w.rank == ac.rank:
		after = posOf(w.origin)
		x, y := linePair(after, read)
		text = fmt.Sprintf("a `pl.system.cacheinvalid(%s, ...)` of the stored region is needed after the store at %s (before %s)", viewName(wa), x, y)
	case wait != nil:
		s := siteOf(ac.rank, wait.origin, "")
		wm.Wait = &s
		after = posOf(wait.origin)
		x, y := linePair(after, read)
		text = fmt.Sprintf("a `pl.system.cacheinvalid()` is needed after the wait at %s (before %s)", x, y)
	default:
		text = fmt.Sprintf("a `pl.system.cacheinvalid()` is needed before %s", lineCol(read))
	}
	wm.Fix = Fix{Kind: FixCacheInvalidate, After: after, Before: read, Text: text}
	details := []string{"write: " + wm.Write.String()}
	if wm.Wait != nil {
		details = append(details, "wait:  "+wm.Wait.String())
	}
	details = append(details, "read:  "+wm.Access.String())
	c.note(rxKey(KindStaleRead, w.origin, ac.origin), Finding{
		Kind: KindStaleRead, Severity: Error, Weak: wm,
		Message: fmt.Sprintf("rank %d's %s at %s may read %s from a stale cache line: rank %d's %s at %s landed there after the line could have been cached, and no cacheinvalid since covers it; %s.",
			ac.rank, shortOp(ac.origin), read, where(ac, ov), w.rank, shortOp(w.origin), posOf(w.origin), text),
		Details: details,
	})
}

// shortOp is an access's op name without its namespace (remote_store).
func shortOp(o runtime.Origin) string {
	if o.Call == nil {
		return "host copy"
	}
	n := o.Call.Name()
	for i := len(n) - 1; i >= 0; i-- {
		if n[i] == '.' {
			return n[i+1:]
		}
	}
	return n
}
