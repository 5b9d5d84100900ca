package checker

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/runtime"
)

// DeadlockError is a run's deadlock together with the checker's explanation.
// errors.As finds the runtime's *runtime.DeadlockError through it, and its
// text still starts with "deadlock".
type DeadlockError struct {
	Deadlock    *runtime.DeadlockError
	Explanation string
	cause       error
}

func (e *DeadlockError) Error() string {
	if e.Explanation == "" {
		return e.cause.Error() // a resource deadlock's text explains itself
	}
	return e.cause.Error() + "\n" + e.Explanation
}

// Unwrap returns the run's error.
func (e *DeadlockError) Unwrap() error { return e.cause }

// cellInfo is one cell's history, from the checker or from the runtime's
// signal snapshot.
type cellInfo struct {
	rank    int
	name    string
	buffer  string
	value   int64
	entries []entryInfo
	waited  bool // a wait on it returned
	line    string
}

type entryInfo struct {
	rank       int
	kind       string // "Set", "AtomicAdd"
	value, new int64
	hasValue   bool
	pos        string
}

// want is a blocked wait's condition, taken from BlockedRank.Cond.
type want struct {
	cond runtime.Cond
	ok   bool
}

func wantOf(b runtime.BlockedRank) want {
	return want{cond: b.Cond, ok: b.Cond.Cmp != ""}
}

func (w want) holds(v int64) bool {
	return w.cond.Holds(int32(v))
}

// ExplainDeadlock explains a deadlock from the runtime's data alone: the
// blocked ranks (with the history of the cell each waits on) and, when
// given, the run's signal cells (runtime.RunEnd.Signals) for wrong-cell and
// wrong-peer hints. ranks is the world size (0: unknown). Run and the
// Checker give richer explanations (positions of every notify).
func ExplainDeadlock(dl *runtime.DeadlockError, signals []runtime.SignalCell, ranks int) string {
	cells := map[string]*cellInfo{}
	var all []*cellInfo
	for _, s := range signals {
		ci := &cellInfo{rank: s.Rank, name: cellName(s.Buffer, s.Offset, s.ByteOffset), buffer: s.Buffer, value: s.Value}
		ci.entries = historyOf(s.History)
		cells[namedKey(s.Rank, ci.name)] = ci
		all = append(all, ci)
	}
	lookup := func(b runtime.BlockedRank) *cellInfo {
		if ci := cells[namedKey(b.Rank, b.Cell)]; ci != nil {
			return ci
		}
		ci := &cellInfo{rank: b.Rank, name: b.Cell, value: b.Value, entries: historyOf(b.Writes)}
		if i := strings.IndexByte(b.Cell, '['); i > 0 {
			ci.buffer = b.Cell[:i]
		}
		return ci
	}
	msg, det := explain(dl, lookup, all, ranks)
	return msg + "\n  " + strings.Join(det, "\n  ")
}

// historyOf converts the runtime's notify records of a cell.
func historyOf(h []runtime.SignalWrite) []entryInfo {
	out := make([]entryInfo, 0, len(h))
	for _, w := range h {
		out = append(out, entryInfo{rank: w.From, kind: w.Kind.String(), value: int64(w.Value), new: int64(w.New), hasValue: true})
	}
	return out
}

func (ci *cellInfo) historyLine() string {
	if ci.line != "" {
		return ci.line
	}
	if len(ci.entries) == 0 {
		return "never notified"
	}
	var b strings.Builder
	b.WriteString("0")
	for _, e := range ci.entries {
		fmt.Fprintf(&b, " → %d (rank %d %s %d%s)", e.new, e.rank, e.kind, e.value, e.pos)
	}
	return b.String()
}

// resourceFinding renders a resource deadlock: the rank whose cores are
// all held by blocking waits, each wait with its position and cell, and the
// queued tasks with their dispatch positions. The waits' cells were never
// the problem, so the plain deadlock explanation is not given.
func resourceFinding(rd *runtime.ResourceDeadlockError, dl *runtime.DeadlockError) Finding {
	lines := strings.Split(rd.Error(), "\n")
	msg := strings.TrimPrefix(lines[0], "resource deadlock: ")
	var det []string
	for _, l := range lines[1:] {
		det = append(det, strings.TrimPrefix(l, "  "))
	}
	return Finding{Kind: KindResourceDeadlock, Severity: Error, Message: msg, Details: det, key: "resource-deadlock|" + deadlockKey(dl)}
}

// deadlockFinding explains dl with the checker's own cell histories.
func (c *Checker) deadlockFinding(dl *runtime.DeadlockError) Finding {
	var all []*cellInfo
	infos := map[*cellTrack]*cellInfo{}
	conv := func(ct *cellTrack) *cellInfo {
		if ci := infos[ct]; ci != nil {
			return ci
		}
		ci := &cellInfo{rank: ct.key.rank, name: ct.name, buffer: ct.key.buffer, waited: ct.waits > 0, line: ct.historyLine()}
		for _, h := range ct.hist {
			if h.wait {
				continue
			}
			ci.entries = append(ci.entries, entryInfo{rank: h.rank, kind: h.kind.String(), value: int64(h.value), new: int64(h.new), hasValue: true, pos: atPos(h.origin)})
			ci.value = int64(h.new)
		}
		infos[ct] = ci
		return ci
	}
	// Cells by rank and name, as the runtime's report names them (built
	// here: a run that does not deadlock never needs it).
	named := make(map[string]*cellTrack, len(c.order))
	for _, ct := range c.order {
		all = append(all, conv(ct))
		named[namedKey(ct.key.rank, ct.name)] = ct
	}
	for _, s := range c.signals { // the final values (history may be capped)
		if ct := named[namedKey(s.Rank, cellName(s.Buffer, s.Offset, s.ByteOffset))]; ct != nil {
			conv(ct).value = s.Value
		}
	}
	lookup := func(b runtime.BlockedRank) *cellInfo {
		if ct := named[namedKey(b.Rank, b.Cell)]; ct != nil {
			ci := conv(ct)
			ci.value = b.Value
			return ci
		}
		ci := &cellInfo{rank: b.Rank, name: b.Cell, value: b.Value, entries: historyOf(b.Writes)}
		if i := strings.IndexByte(b.Cell, '['); i > 0 {
			ci.buffer = b.Cell[:i]
		}
		return ci
	}
	msg, det := explain(dl, lookup, all, c.world)
	return Finding{Kind: KindDeadlock, Severity: Error, Message: msg, Details: det, key: "deadlock|" + deadlockKey(dl)}
}

// explain builds the deadlock's one-line diagnosis and, per blocked rank,
// what it waits for, the cell's history and why it never comes.
func explain(dl *runtime.DeadlockError, lookup func(runtime.BlockedRank) *cellInfo, all []*cellInfo, world int) (string, []string) {
	blocked := map[int]bool{}
	var ranks []string
	for _, b := range dl.Blocked {
		blocked[b.Rank] = true
		ranks = append(ranks, strconv.Itoa(b.Rank))
	}
	var finished []int
	for r := 0; r < world; r++ {
		if !blocked[r] {
			finished = append(finished, r)
		}
	}
	var det []string
	best, bestPrio := "", 1<<30
	for _, b := range dl.Blocked {
		ci := lookup(b)
		w := wantOf(b)
		where := b.Op
		if b.Pos.Known() {
			where += " at " + b.Pos.String()
		}
		if b.Func != "" {
			where += " in " + b.Func
		}
		det = append(det, fmt.Sprintf("rank %d waits in %s for %s %s; the cell holds %d", b.Rank, where, b.Cell, b.Want, b.Value))
		det = append(det, fmt.Sprintf("    history of %s on rank %d: %s", b.Cell, b.Rank, ci.historyLine()))
		why, prio := diagnose(b, ci, w, all, finished, blocked)
		det = append(det, "    why: "+why)
		if prio < bestPrio {
			best, bestPrio = fmt.Sprintf("rank %d waits for %s %s (it holds %d): %s", b.Rank, b.Cell, b.Want, b.Value, why), prio
		}
	}
	who := "rank " + strings.Join(ranks, ", ") + " is"
	if len(ranks) > 1 {
		who = "ranks " + strings.Join(ranks, ", ") + " are"
	}
	return fmt.Sprintf("deadlock: %s blocked for good. The root cause: %s", who, best), det
}

// Diagnosis priorities: a root cause outranks a consequence.
const (
	prioOvertaken = iota
	prioZero
	prioSetLost
	prioWrongCell
	prioNever
	prioShort
	prioConsequence
)

func diagnose(b runtime.BlockedRank, ci *cellInfo, w want, all []*cellInfo, finished []int, blocked map[int]bool) (string, int) {
	es := ci.entries
	if w.ok && w.cond.Cmp == "eq" {
		for i, e := range es {
			if e.hasValue && e.new == w.cond.Value && int64(b.Value) != w.cond.Value {
				next := ""
				if i+1 < len(es) {
					next = fmt.Sprintf(" and rank %d notified again (→ %d)", es[i+1].rank, es[i+1].new)
				}
				return fmt.Sprintf("the cell held %d after rank %d's notify%s before rank %d looked: a wait for == %d misses a fast peer that already moved on. "+
					"Wait with >= (pld.Ge) — the credit barrier's waits are all >=.", w.cond.Value, e.rank, next, b.Rank, w.cond.Value), prioOvertaken
			}
		}
	}
	if len(es) > 0 {
		allZero := true
		for _, e := range es {
			if !e.hasValue || e.value != 0 {
				allZero = false
			}
		}
		if allZero && w.ok && !w.holds(0) {
			return fmt.Sprintf("every notify of this cell carried 0 (%s %d by rank %d), so it stays 0 and the wait for %s never passes: notify with a non-zero value (1).",
				es[0].kind, es[0].value, es[0].rank, b.Want), prioZero
		}
		var senders []string
		seen := map[int]bool{}
		setAfterAdd := false
		sawAdd := false
		for _, e := range es {
			if !seen[e.rank] {
				seen[e.rank] = true
				senders = append(senders, strconv.Itoa(e.rank))
			}
			if e.kind == "AtomicAdd" {
				sawAdd = true
			} else if e.kind == "Set" && sawAdd {
				setAfterAdd = true
			}
		}
		s := fmt.Sprintf("%s from rank %s arrived and left the cell at %d, short of %s", plural(len(es), "notify", "notifies"), strings.Join(senders, ", "), b.Value, b.Want)
		var stuck []int
		for _, e := range es {
			if blocked[e.rank] && e.rank != b.Rank {
				stuck = append(stuck, e.rank)
			}
		}
		switch {
		case setAfterAdd:
			return s + ": a Set overwrote credits an AtomicAdd had already given — use AtomicAdd only on a shared cell.", prioSetLost
		case len(finished) > 0:
			return s + fmt.Sprintf(": %s finished without sending the rest — every rank must run the same notifies (a rank-dependent if skips them?).", rankList(finished)), prioShort
		case len(stuck) > 0:
			return s + fmt.Sprintf(": %s, which sent the earlier ones, is blocked itself (see its wait), so this wait is stuck behind it.", rankList(dedupInts(stuck))), prioConsequence
		}
		return s + ": the notifies the wait counts on were never sent; count what each rank sends to this cell.", prioShort
	}
	if b.NoHistory && len(es) == 0 {
		return fmt.Sprintf("the cell holds %d; this device does not record who notified it (the simulator does: run there for the cell's history and a diagnosis).", b.Value), prioNever
	}
	// Nobody ever notified the cell.
	var hints []string
	for _, o := range all {
		if o == ci || o.waited || len(o.entries) == 0 || (w.ok && !w.holds(o.value)) {
			continue
		}
		if o.rank == b.Rank && o.buffer == ci.buffer {
			hints = append(hints, fmt.Sprintf("rank %d's %s holds %d (from rank %d) and nobody waits on it: the wait probably names the wrong cell — by convention cell [src, 0] is written by rank src.",
				o.rank, o.name, o.value, o.entries[0].rank))
		} else if o.rank != b.Rank && o.name == ci.name {
			hints = append(hints, fmt.Sprintf("rank %d's copy of %s holds %d (from rank %d) and nobody waits on it: the notify went to the wrong rank — check its peer formula ((me + 1) %% n vs (me + n - 1) %% n).",
				o.rank, o.name, o.value, o.entries[0].rank))
		}
		if len(hints) == 2 {
			break
		}
	}
	if len(hints) > 0 {
		return "nobody ever notified this cell; " + strings.Join(hints, " Also: "), prioWrongCell
	}
	if len(finished) > 0 {
		return fmt.Sprintf("nobody ever notified this cell and %s already finished: a barrier or collective that only some ranks call never completes — call it on every rank, not inside a rank-dependent if.", rankList(finished)), prioNever
	}
	if b.Deferred {
		// On the device a deferred waiter frees its core and later tasks
		// run; outside a manual scope the simulator completes a rank's
		// tasks in program order.
		return "nobody ever notified this cell and every rank is waiting in a deferred wait. Outside a pl.manual_scope the simulator completes each rank's tasks in program order, " +
			"so a notify that a task launched after this one would send (a publisher launched after its waiters) never runs here, " +
			"where on the device the waiter frees its core and the later task runs: launch the waiters in a pl.manual_scope, the tasks that need the signal with deps on them, or the publisher first. " +
			"Otherwise check the notify's peer and offsets.", prioNever
	}
	return "nobody ever notified this cell and every rank is waiting: no notify in the program reaches it — check the notify's peer and offsets, and that each rank notifies before it waits.", prioNever
}

func dedupInts(l []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, x := range l {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func rankList(rs []int) string {
	sort.Ints(rs)
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = strconv.Itoa(r)
	}
	if len(rs) == 1 {
		return "rank " + parts[0]
	}
	return "ranks " + strings.Join(parts, ", ")
}
