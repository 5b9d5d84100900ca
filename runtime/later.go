package runtime

import "github.com/ptorepl/ptorepl/ir"

// Deferred completion in a pl.manual_scope. On the device a task whose
// kernel ran pld.system.defer_wait gives its core back and completes only
// once the registered cells reach their counts; a task that declared a
// dependency on it (deps=[tid]) is queued until then, while the
// orchestrator goes on launching the rest: upstream's deferred-completion
// test launches the publisher that releases its waiters after all of
// them. The simulator runs a rank's tasks on the orchestrator's
// goroutine, so in a manual scope of a chip orchestrator it keeps that
// order of events itself: a launch whose deferred waits are still pending
// when its kernel returns is recorded as pending instead of waited for; a
// launch with deps on a pending task is recorded to run later, its
// results meanwhile being what a retired launch leaves (the tensors it
// writes, as passed); and when the scope ends the recorded tasks complete
// in launch order, pending waits waited for and recorded launches run.
// Without pending deps, outside a manual scope, on the host and for SPMD
// launches, a task completes before the next statement, as before.

// laterTask is a task of a manual scope that has not completed: its
// pending deferred waits, or a launch to run once its deps have.
type laterTask struct {
	id    int64
	waits []deferredWait
	name  string
	pos   ir.Span
	deps  []int64
	run   func() error // nil: only waits
}

// deferCollector gathers the deferred waits of one launch instead of
// waiting for them.
type deferCollector struct{ waits []deferredWait }

// takeCollector hands the collector a launch armed to the activation that
// starts first, the launched function; the calls it makes wait as usual.
func (rc *rankCtx) takeCollector() *deferCollector {
	c := rc.collect
	rc.collect = nil
	return c
}

// finishDeferred ends an activation's deferred waits, those registered
// from index from on: gathered into c when the activation is a manual
// scope's launch, else waited for (see waitDeferred for resume).
func (x *Exec) finishDeferred(from int, c *deferCollector, resume bool) error {
	if c == nil {
		return x.waitDeferred(from, resume)
	}
	c.waits = append(c.waits, x.rc.deferred[from:]...)
	x.rc.deferred = x.rc.deferred[:from]
	return nil
}

// deferrable reports whether a launch may complete later: a chip
// orchestrator's launch in a manual scope.
func (x *Exec) deferrable() bool { return x.rank >= 0 && x.rc.manual != nil }

// launchInScope launches a task of the running manual scope: now runs it,
// placeholder gives its results when it must wait for a pending dep.
func (x *Exec) launchInScope(name string, pos ir.Span, deps []int64, now, placeholder func() ([]any, error)) ([]any, int64, error) {
	ms := x.rc.manual
	for _, d := range deps {
		if !ms.pending[d] {
			continue
		}
		out, err := placeholder()
		if err != nil {
			return nil, 0, err
		}
		id := x.s.newTaskID()
		ms.later = append(ms.later, &laterTask{id: id, name: name, pos: pos, deps: deps,
			run: func() error { _, err := now(); return err }})
		ms.pending[id] = true
		return out, id, nil
	}
	col := &deferCollector{}
	x.rc.collect = col
	id, end := x.beginTaskID(x.s.newTaskID(), name, pos, deps)
	out, err := now()
	x.rc.collect = nil
	end()
	if err != nil {
		return nil, 0, err
	}
	if len(col.waits) > 0 {
		ms.later = append(ms.later, &laterTask{id: id, waits: col.waits})
		ms.pending[id] = true
	}
	return out, id, nil
}

// completeLater completes the scope's recorded tasks in launch order, so
// each one's deps have completed before it runs.
func (x *Exec) completeLater(ms *manualScope) error {
	for len(ms.later) > 0 {
		t := ms.later[0]
		ms.later = ms.later[1:]
		if t.run != nil {
			_, end := x.beginTaskID(t.id, t.name, t.pos, t.deps)
			err := t.run()
			end()
			if err != nil {
				return err
			}
		}
		if len(t.waits) > 0 {
			from := len(x.rc.deferred)
			x.rc.deferred = append(x.rc.deferred, t.waits...)
			if err := x.waitDeferred(from, true); err != nil {
				return err
			}
		}
		delete(ms.pending, t.id)
	}
	return nil
}
