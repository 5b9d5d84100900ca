package runtime

import (
	"fmt"
	"slices"
	"sort"
	"unsafe"

	"github.com/ptorepl/ptorepl/ir"
)

// Races between the tasks of a manual scope. Inside pl.manual_scope() the
// runtime infers no edges between tasks: two launches are ordered only by
// a chain of declared deps. The simulator runs a rank's tasks in program
// order, so their results never show a missing edge; instead it records
// which bytes of which tensors each task read and wrote, and when a task
// ends, compares them with every earlier task of the scope that no chain
// of deps orders before it. Two that share bytes, one writing, race on the
// device: the finding names both launches and the tensor.
//
// Only launches the orchestration runs itself (pl.at regions, pl.submit,
// plain calls) are tasks here; window memory is left to the protocol
// checker, which orders it by signals.
//
// An auto scope orders two tasks that touch the same bytes, one writing,
// as the runtime's overlap tracking does, except through a slot marked
// pl.adir.no_dep (pl.no_dep(t), no_dep_args=[t]): the launch neither
// waits for earlier writers of that tensor nor is waited for by later
// users. When a program marks such slots, its auto scopes record tasks as
// manual ones do; each task is ordered after the earlier ones it shares
// bytes with through tracked slots on both sides (and its deps), and a
// sharing the order does not cover, one side untracked, is a race.

// maxScopeTasks bounds the tasks one manual scope compares (the check is
// quadratic); past it the scope's later tasks are not checked.
const maxScopeTasks = 4096

// manualScope is a running pl.manual_scope: the tasks launched in it; or,
// with auto set, an auto scope of a program that marks no_dep slots.
type manualScope struct {
	auto  bool
	tasks []*taskRec
	byID  map[int64]*taskRec
	seen  map[[3]string]bool // reported (earlier, later, tensor) launch pairs
	// later are the tasks that complete when the scope ends, pending
	// their ids (later.go).
	later   []*laterTask
	pending map[int64]bool
}

// taskRec is one task of a manual scope: its launch, its declared deps and
// the host-memory bytes it touched.
type taskRec struct {
	id   int64
	ref  TaskRef
	deps []int64 // declared
	acc  []taskAccess
	// idx is its place in the scope's tasks; in an auto scope before
	// holds the earlier tasks it runs after (bit i: tasks[i]).
	idx    int
	before bitset
	// untracked are the buffers the launch passes only through no_dep
	// slots.
	untracked map[*byte]bool
}

type taskAccess struct {
	buf    *byte // the tensor's memory (its first byte)
	lo, hi int
	write  bool
}

// TaskRef names a task by its launch: the function or region and where it
// is launched.
type TaskRef struct {
	Name string
	Pos  ir.Span
}

func (t TaskRef) String() string {
	if t.Pos.Known() {
		return fmt.Sprintf("%s (launched at %s)", t.Name, t.Pos)
	}
	return t.Name
}

// TaskRace is two tasks of a manual scope touching the same bytes of a
// tensor, at least one writing, with no chain of declared deps between
// them: on the device they may run at the same time.
type TaskRace struct {
	Rank                       int
	Earlier, Later             TaskRef
	Tensor                     string
	Lo, Hi                     int // the first shared bytes
	EarlierWrites, LaterWrites bool
	// NoDep: the two are in an auto scope, unordered because a no_dep
	// slot opts one of them out of the runtime's tracking.
	NoDep bool
}

func (r TaskRace) String() string {
	verb := func(w bool) string {
		if w {
			return "writes"
		}
		return "reads"
	}
	why := "no deps chain orders them in the pl.manual_scope"
	if r.NoDep {
		why = "a pl.no_dep slot leaves them unordered"
	}
	return fmt.Sprintf("rank %d: %s %s bytes [%d, %d) of %s, which %s %s, and %s",
		r.Rank, r.Later, verb(r.LaterWrites), r.Lo, r.Hi, r.Tensor, r.Earlier, verb(r.EarlierWrites), why)
}

// enterScope starts a runtime scope's body: a manual one gets a fresh task
// record; an auto one records its tasks only if the program marks no_dep
// slots (from its first launch). It returns what leaveScope restores.
func (rc *rankCtx) enterScope(manual bool) scopeRecs {
	saved := scopeRecs{rc.manual, rc.auto}
	rc.manual, rc.auto = nil, nil
	if manual {
		rc.manual = newScopeRec(false)
	}
	return saved
}

// scopeRecs are the task records of the scope a runtime scope is in.
type scopeRecs struct{ manual, auto *manualScope }

func (rc *rankCtx) leaveScope(saved scopeRecs) { rc.manual, rc.auto = saved.manual, saved.auto }

func newScopeRec(auto bool) *manualScope {
	return &manualScope{auto: auto, byID: map[int64]*taskRec{}, seen: map[[3]string]bool{}, pending: map[int64]bool{}}
}

// records says whether the scope running records launches as tasks: a
// manual one does, and an auto one of a program that marks no_dep slots.
func (x *Exec) records() bool { return x.rc.manual != nil || x.s.noDep }

// marksNoDep says whether any call of p marks a slot pl.adir.no_dep, or
// any region names no_dep_args.
func marksNoDep(p *ir.Program) bool {
	found := false
	for _, fn := range p.Functions {
		ir.WalkStmt(fn.Body, func(e ir.Expr) {
			if c, ok := e.(*ir.Call); ok && len(c.NoDepSlots()) > 0 {
				found = true
			}
		}, func(s ir.Stmt) {
			if sc, ok := s.(*ir.ScopeStmt); ok && len(sc.NoDepArgs) > 0 {
				found = true
			}
		})
		if found {
			return true
		}
	}
	return false
}

// markRegionNoDep notes, for the region about to launch, the tensors its
// no_dep_args name (their values).
func (x *Exec) markRegionNoDep(vals []any) {
	x.rc.noDep = nil
	if !x.records() {
		return
	}
	untracked := map[*byte]bool{}
	for _, a := range vals {
		if v, ok := a.(*view); ok && len(v.host) > 0 {
			untracked[&v.host[0]] = true
		}
	}
	x.rc.noDep = untracked
}

// markNoDep notes, for the launch about to begin, the buffers of args
// that only its no_dep slots pass (a tensor passed through a tracked
// slot as well stays tracked).
func (x *Exec) markNoDep(c *ir.Call, args []any) {
	x.rc.noDep = nil
	slots := c.NoDepSlots()
	if len(slots) == 0 || !x.records() {
		return
	}
	untracked := map[*byte]bool{}
	for _, i := range slots {
		if i < len(args) {
			if v, ok := args[i].(*view); ok && len(v.host) > 0 {
				untracked[&v.host[0]] = true
			}
		}
	}
	for i, a := range args {
		if v, ok := a.(*view); ok && len(v.host) > 0 && !slices.Contains(slots, i) {
			delete(untracked, &v.host[0])
		}
	}
	x.rc.noDep = untracked
}

// noTask ends a launch no scope records.
func noTask() {}

// beginTask starts a launch: it gets its id (the value its task id takes)
// and, in a manual scope or an auto one checking no_dep slots, a record of
// what it touches. end finishes it.
func (x *Exec) beginTask(name string, pos ir.Span, deps []int64) (id int64, end func()) {
	return x.beginTaskID(x.s.newTaskID(), name, pos, deps)
}

// beginTaskID is beginTask for a task whose id was given out before.
func (x *Exec) beginTaskID(id int64, name string, pos ir.Span, deps []int64) (int64, func()) {
	rc := x.rc
	ms := rc.manual
	if ms == nil && x.s.noDep {
		if rc.auto == nil {
			rc.auto = newScopeRec(true)
		}
		ms = rc.auto
	}
	untracked := rc.noDep
	rc.noDep = nil
	if ms == nil || rc.task != nil || len(ms.tasks) >= maxScopeTasks {
		return id, noTask
	}
	t := &taskRec{id: id, ref: TaskRef{Name: name, Pos: pos}, deps: deps, untracked: untracked}
	rc.task = t
	return id, func() {
		rc.task = nil
		t.idx = len(ms.tasks)
		x.checkTask(ms, t)
		ms.tasks = append(ms.tasks, t)
		ms.byID[t.id] = t
	}
}

// noteHost records a task's access to host memory (segments of v).
func (rc *rankCtx) noteHost(v *view, segs []Segment, write bool) {
	t := rc.task
	if t == nil || len(v.host) == 0 {
		return
	}
	for _, s := range segs {
		t.acc = append(t.acc, taskAccess{buf: &v.host[0], lo: s.Off, hi: s.Off + s.Len, write: write})
	}
}

// checkTask compares t with the scope's earlier tasks that nothing orders
// before it: in a manual scope its deps, in an auto one also the runtime's
// own edges (orderAuto).
func (x *Exec) checkTask(ms *manualScope, t *taskRec) {
	t.acc = mergeAccesses(t.acc)
	var ordered func(p *taskRec) bool
	if ms.auto {
		t.before = ms.orderAuto(t)
		ordered = func(p *taskRec) bool { return t.before.has(p.idx) }
	} else {
		if len(t.acc) == 0 {
			return
		}
		before := map[int64]bool{}
		var walk func(id int64)
		walk = func(id int64) {
			if before[id] {
				return
			}
			before[id] = true
			if p := ms.byID[id]; p != nil {
				for _, d := range p.deps {
					walk(d)
				}
			}
		}
		for _, d := range t.deps {
			walk(d)
		}
		ordered = func(p *taskRec) bool { return before[p.id] }
	}
	for _, p := range ms.tasks {
		if ordered(p) {
			continue
		}
		a, b, ok := conflict(p.acc, t.acc)
		if !ok {
			continue
		}
		tensor := x.s.tensorName(a.buf)
		key := [3]string{p.ref.String(), t.ref.String(), tensor}
		if ms.seen[key] {
			continue
		}
		ms.seen[key] = true
		lo, hi := max(a.lo, b.lo), min(a.hi, b.hi)
		r := TaskRace{Rank: x.rank, Earlier: p.ref, Later: t.ref, Tensor: tensor, Lo: lo, Hi: hi, EarlierWrites: a.write, LaterWrites: b.write, NoDep: ms.auto}
		x.s.ovMu.Lock()
		x.s.taskRaces = append(x.s.taskRaces, r)
		x.s.ovMu.Unlock()
	}
}

// mergeAccesses sorts a task's accesses and joins overlapping runs of the
// same kind, so comparisons walk few intervals.
func mergeAccesses(acc []taskAccess) []taskAccess {
	sort.Slice(acc, func(i, j int) bool {
		a, b := acc[i], acc[j]
		if a.buf != b.buf {
			return uintptrOf(a.buf) < uintptrOf(b.buf)
		}
		if a.write != b.write {
			return !a.write
		}
		return a.lo < b.lo
	})
	out := acc[:0]
	for _, a := range acc {
		if n := len(out); n > 0 && out[n-1].buf == a.buf && out[n-1].write == a.write && a.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, a.hi)
			continue
		}
		out = append(out, a)
	}
	return out
}

// conflict finds two overlapping accesses of a and b to one tensor, at
// least one a write.
func conflict(a, b []taskAccess) (taskAccess, taskAccess, bool) {
	for _, x := range a {
		for _, y := range b {
			if x.buf == y.buf && (x.write || y.write) && x.lo < y.hi && y.lo < x.hi {
				return x, y, true
			}
		}
	}
	return taskAccess{}, taskAccess{}, false
}

// orderAuto is the set of the auto scope's earlier tasks that t runs
// after: its deps and what runs before them, and each task it shares bytes
// with through tracked slots on both sides with what runs before that. The
// tasks are tried from the latest back, so a task already ordered through
// a later one costs nothing and a chain of n launches costs n unions, not
// a walk of every path.
func (ms *manualScope) orderAuto(t *taskRec) bitset {
	bs := make(bitset, (t.idx+63)/64)
	for _, id := range t.deps {
		if p := ms.byID[id]; p != nil {
			bs.set(p.idx)
			bs.or(p.before)
		}
	}
	for i := t.idx - 1; i >= 0; i-- {
		if p := ms.tasks[i]; !bs.has(i) && trackedConflict(p, t) {
			bs.set(i)
			bs.or(p.before)
		}
	}
	return bs
}

// bitset is a set of small non-negative integers.
type bitset []uint64

func (b bitset) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) or(c bitset) {
	for i := range c {
		b[i] |= c[i]
	}
}

// trackedConflict says whether p and t share bytes, one writing, through
// accesses neither launch opted out of tracking.
func trackedConflict(p, t *taskRec) bool {
	for _, x := range p.acc {
		if p.untracked[x.buf] {
			continue
		}
		for _, y := range t.acc {
			if x.buf == y.buf && !t.untracked[y.buf] && (x.write || y.write) && x.lo < y.hi && y.lo < x.hi {
				return true
			}
		}
	}
	return false
}

// depIDs flattens a launch's evaluated deps (task ids and arrays of them)
// to the ids of real tasks.
func depIDs(vals []any) []int64 {
	var out []int64
	for _, v := range vals {
		switch v := v.(type) {
		case int64:
			if v != 0 {
				out = append(out, v)
			}
		case intArray:
			for _, id := range v {
				if id != 0 {
					out = append(out, id)
				}
			}
		}
	}
	return out
}

// uintptrOf orders tensors' memory for sorting (never dereferenced).
func uintptrOf(p *byte) uintptr { return uintptr(unsafe.Pointer(p)) }

// tensorName names host memory by the entry parameter it belongs to.
func (s *sim) tensorName(b *byte) string {
	s.ovMu.Lock()
	defer s.ovMu.Unlock()
	if n, ok := s.hostNames[b]; ok {
		return n
	}
	return "a tensor the program created"
}

// scopeTaskName names an InCore region's task as its outlined kernel is
// named: its name_hint, or <function>_incore.
func scopeTaskName(fn string, s *ir.ScopeStmt) string {
	if s.NameHint != "" {
		return s.NameHint
	}
	return fn + "_incore"
}
