package passes

import (
	"fmt"
	"sort"

	"github.com/ptorepl/ptorepl/ir"
)

// CollectCommGroups infers the program's comm groups (seed #1297, #1346;
// passes.md §7). In the host orchestrator it finds every
// alloc_window_buffer, every window view of one, and every device=
// dispatch that passes a view; each allocation's device set is the union of
// its dispatches' sets (any "all devices" wins). Each allocation becomes one
// WindowBuffer; host views are re-typed to carry it (all views of one
// allocation share the pointer), and allocations are clustered, in source
// order, into groups with equal device sets.
func CollectCommGroups(p *ir.Program) (*ir.Program, error) {
	return perHost(p, collectInHost)
}

// A device runs a program that records no comm groups yet with the ones
// this inference gives (ir.InferCommGroups).
func init() {
	ir.InferCommGroups = func(p *ir.Program) ([]*ir.CommGroup, error) {
		q, err := CollectCommGroups(p)
		if err != nil {
			return nil, err
		}
		return q.CommGroups, nil
	}
}

// perHost runs build on every host orchestrator of p, replacing the function
// and collecting the comm groups it finds; a program with none is returned
// as it is.
func perHost(p *ir.Program, build func(*ir.Function) (*ir.Function, []*ir.CommGroup, error)) (*ir.Program, error) {
	q := p.Clone()
	q.CommGroups = nil
	for i, fn := range p.Functions {
		if !fn.IsHostOrchestrator() {
			continue
		}
		g, groups, err := build(fn)
		if err != nil {
			return nil, fmt.Errorf("function %s: %w", fn.Name, err)
		}
		q.Functions[i] = g
		q.CommGroups = append(q.CommGroups, groups...)
	}
	if len(q.CommGroups) == 0 && len(p.CommGroups) == 0 {
		return p, nil
	}
	return q, nil
}

type windowAlloc struct {
	ptr   *ir.Var
	size  ir.Expr
	pos   ir.Span
	views []*ir.Var
	all   bool
	devs  map[int64]bool
	used  bool
	order int
}

// deviceSet classifies a device= expression under the enclosing loops.
func deviceSet(dev ir.Expr, loops []*ir.ForStmt, lin *lineage) (all bool, devs []int64, err error) {
	if v, ok := ir.ConstValue(dev); ok {
		return false, []int64{v}, nil
	}
	if dv, ok := ir.VarOf(dev); ok {
		for i := len(loops) - 1; i >= 0; i-- {
			l := loops[i]
			if l.LoopVar != dv {
				continue
			}
			if _, ok := lin.worldSize(l.Stop); ok {
				if v, ok := ir.ConstValue(l.Start); ok && v == 0 {
					return true, nil, nil
				}
			}
			a, okA := ir.ConstValue(l.Start)
			b, okB := ir.ConstValue(l.Stop)
			s, okS := ir.ConstValue(l.Step)
			if okA && okB && okS && s > 0 {
				for d := a; d < b; d += s {
					devs = append(devs, d)
				}
				return false, devs, nil
			}
		}
	}
	return false, nil, fmt.Errorf("device=%s is not a constant or the variable of a pl.range(pld.world_size()) / constant-bound loop", ir.DefaultFormat.Expr(dev))
}

func collectInHost(fn *ir.Function) (*ir.Function, []*ir.CommGroup, error) {
	lin := newLineage(fn)
	allocs := map[*ir.Var]*windowAlloc{}
	var order []*windowAlloc
	viewOf := map[*ir.Var]*windowAlloc{}
	var walkErr error
	// Statements are leaves here: only the call a statement is made of
	// matters, so each is pruned once handled; the loops around it come
	// from the parent stack.
	ir.WithStack(fn.Body, leafStmts, func(n ir.Node, push bool, stack []ir.Node) bool {
		if !push || walkErr != nil {
			return false
		}
		s := n.(ir.Stmt)
		if a, ok := s.(*ir.AssignStmt); ok {
			if c, ok := a.Value.(*ir.Call); ok {
				switch c.Op {
				case ir.PldTensorAllocWindowBuffer:
					size, _ := c.Arg("size")
					w := &windowAlloc{ptr: a.Var, size: size, pos: a.Pos, devs: map[int64]bool{}, order: len(order)}
					allocs[a.Var] = w
					order = append(order, w)
					return false
				case ir.PldTensorWindow:
					if base, ok := c.ArgVar("buf"); ok && allocs[base] != nil {
						w := allocs[base]
						w.views = append(w.views, a.Var)
						viewOf[a.Var] = w
					}
					return false
				}
			}
		}
		call := directCall(s)
		if call == nil || call.Fn == nil || call.Device() == nil {
			return false
		}
		all, devs, err := deviceSet(call.Device(), enclosingLoops(stack), lin)
		if err != nil {
			walkErr = fmt.Errorf("dispatch of %s at %s: %w", call.Fn.Name, call.Pos, err)
			return false
		}
		for _, arg := range call.Args {
			v, ok := ir.VarOf(arg)
			if !ok || viewOf[v] == nil {
				continue
			}
			w := viewOf[v]
			w.used = true
			w.all = w.all || all
			for _, d := range devs {
				w.devs[d] = true
			}
		}
		return false
	})
	if walkErr != nil {
		return nil, nil, walkErr
	}
	if len(order) == 0 {
		return fn, nil, nil
	}
	m := map[*ir.Var]ir.Expr{}
	var domains commDomains
	for _, w := range order {
		name := w.ptr.Name
		if len(w.views) == 0 {
			return nil, nil, fmt.Errorf("window buffer %s allocated at %s is never viewed with pld.tensor.window (a dead allocation)", name, w.pos)
		}
		if !w.used {
			return nil, nil, fmt.Errorf("window buffer %s allocated at %s: no device= dispatch consumes its views", name, w.pos)
		}
		wb := ir.NewWindowBuffer(w.ptr, w.size, false, false, w.pos)
		for _, v := range w.views {
			dt, ok := v.Type().(*ir.DistributedTensorType)
			if !ok {
				continue
			}
			c := *dt
			c.Window = wb
			m[v] = ir.NewVar(v.Name, &c, v.Pos)
		}
		if domains.add(wb, w.all, w.devs) {
			return nil, nil, fmt.Errorf("window buffer name %q is used twice in one comm group", wb.Name)
		}
	}
	groups := domains.groups
	g := remapFunction(fn, m)
	// The window calls' result types carry the buffer too, so a call and the
	// variable it binds agree (the verifier's window-identity check).
	body, err := mapBlock(g.Body, func(s ir.Stmt) ([]ir.Stmt, error) {
		a, ok := s.(*ir.AssignStmt)
		if !ok {
			return []ir.Stmt{s}, nil
		}
		c, ok := a.Value.(*ir.Call)
		if !ok || c.Op != ir.PldTensorWindow || c.T == a.Var.T {
			return []ir.Stmt{s}, nil
		}
		if _, ok := a.Var.T.(*ir.DistributedTensorType); !ok {
			return []ir.Stmt{s}, nil
		}
		cc := *c
		cc.T = a.Var.T
		return []ir.Stmt{&ir.AssignStmt{StmtBase: a.StmtBase, Var: a.Var, Value: &cc}}, nil
	})
	if err != nil {
		return nil, nil, err
	}
	g.Body = body
	return g, groups, nil
}

// commDomains groups window buffers by the device set that uses them, one
// comm group per distinct set, in the order the sets are first seen.
type commDomains struct {
	groups []*ir.CommGroup
	byKey  map[string]int
}

// add puts wb into the group of its devices (every device when all); it
// reports whether the group already holds a buffer of wb's name.
func (d *commDomains) add(wb *ir.WindowBuffer, all bool, devSet map[int64]bool) (dup bool) {
	var devs []int64
	if !all {
		for dev := range devSet {
			devs = append(devs, dev)
		}
		sort.Slice(devs, func(i, j int) bool { return devs[i] < devs[j] })
	}
	key := fmt.Sprint(all, devs)
	if d.byKey == nil {
		d.byKey = map[string]int{}
	}
	gi, ok := d.byKey[key]
	if !ok {
		gi = len(d.groups)
		d.byKey[key] = gi
		d.groups = append(d.groups, &ir.CommGroup{Devices: devs})
	}
	for _, s := range d.groups[gi].Slots {
		if s.Name == wb.Name {
			return true
		}
	}
	d.groups[gi].Slots = append(d.groups[gi].Slots, wb)
	return false
}
