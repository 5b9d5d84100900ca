package runtime

import (
	"fmt"
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

// maxScopeTasks bounds the tasks one manual scope compares (the check is
// quadratic); past it the scope's later tasks are not checked.
const maxScopeTasks = 4096

// manualScope is a running pl.manual_scope: the tasks launched in it.
type manualScope struct {
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
	deps []int64
	acc  []taskAccess
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
}

func (r TaskRace) String() string {
	verb := func(w bool) string {
		if w {
			return "writes"
		}
		return "reads"
	}
	return fmt.Sprintf("rank %d: %s %s bytes [%d, %d) of %s, which %s %s, and no deps chain orders them in the pl.manual_scope",
		r.Rank, r.Later, verb(r.LaterWrites), r.Lo, r.Hi, r.Tensor, r.Earlier, verb(r.EarlierWrites))
}

// enterScope starts a runtime scope's body: a manual one gets a fresh task
// record; an auto one checks nothing. It returns what leaveScope restores.
func (rc *rankCtx) enterScope(manual bool) *manualScope {
	saved := rc.manual
	rc.manual = nil
	if manual {
		rc.manual = &manualScope{byID: map[int64]*taskRec{}, seen: map[[3]string]bool{}, pending: map[int64]bool{}}
	}
	return saved
}

func (rc *rankCtx) leaveScope(saved *manualScope) { rc.manual = saved }

// noTask ends a launch no manual scope records.
func noTask() {}

// beginTask starts a launch: it gets its id (the value its task id takes)
// and, in a manual scope, a record of what it touches. end finishes it.
func (x *Exec) beginTask(name string, pos ir.Span, deps []int64) (id int64, end func()) {
	return x.beginTaskID(x.s.newTaskID(), name, pos, deps)
}

// beginTaskID is beginTask for a task whose id was given out before.
func (x *Exec) beginTaskID(id int64, name string, pos ir.Span, deps []int64) (int64, func()) {
	rc := x.rc
	ms := rc.manual
	if ms == nil || rc.task != nil || len(ms.tasks) >= maxScopeTasks {
		return id, noTask
	}
	t := &taskRec{id: id, ref: TaskRef{Name: name, Pos: pos}, deps: deps}
	rc.task = t
	return id, func() {
		rc.task = nil
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

// checkTask compares t with the scope's earlier tasks that its deps do
// not order before it.
func (x *Exec) checkTask(ms *manualScope, t *taskRec) {
	t.acc = mergeAccesses(t.acc)
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
	for _, p := range ms.tasks {
		if before[p.id] {
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
		r := TaskRace{Rank: x.rank, Earlier: p.ref, Later: t.ref, Tensor: tensor, Lo: lo, Hi: hi, EarlierWrites: a.write, LaterWrites: b.write}
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
