package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Task graphs (ir/task.go). A task id is an int64, 0 for no task; an
// array (pl.array.create) is an intArray. The simulator runs a rank's
// tasks in program order, which every declared edge allows (a task id
// exists only once its task was launched), so deps= change no result:
// they are checked to name tasks, and the ids flow as values. The one
// exception is a task whose deferred waits are pending in a manual scope:
// the tasks with deps on it run later (later.go).

// intArray is the value of a pl.array.
type intArray []int64

func (s *sim) newTaskID() int64 { return s.taskIDs.Add(1) }

// submit runs a pl.submit's function as a task that waits for deps (their
// evaluated values) and gives its results, then the id of the task.
// A chip orchestrator's launch in a manual scope may complete later
// (later.go): placeholder, nil for a launch that may not (an SPMD one),
// gives its results until it has run.
func (x *Exec) submit(c *ir.Call, deps []any, run, placeholder func() ([]any, error)) (any, error) {
	if placeholder != nil && x.deferrable() {
		out, id, err := x.launchInScope(c.Fn.Name, c.Pos, depIDs(deps), run, placeholder)
		if err != nil {
			return nil, err
		}
		return append(out, id), nil
	}
	id, end := x.beginTask(c.Fn.Name, c.Pos, depIDs(deps))
	out, err := run()
	end()
	if err != nil {
		return nil, err
	}
	return append(out, id), nil
}

// launchSpec is what a submit adds to a call: an SPMD launch's block
// count and a dispatch predicate (each nil: none).
type launchSpec struct {
	cores func() (any, error)
	pred  func() (any, error)
	fn    *ir.Function
	// together: the kernel meets at syncall barriers, so its blocks run
	// as coroutines (syncall.go).
	together bool
}

// launch is a submit's run under its spec: nothing when the predicate is
// false (the task retires with its output arguments as they are, so its
// consumers still run), else run once per block of an SPMD launch, or
// once. The predicate is read when the task is due, after its deps, as
// the scheduler reads it.
func (x *Exec) launch(c *ir.Call, spec launchSpec, args []any, run func() ([]any, error)) func() ([]any, error) {
	return func() ([]any, error) {
		if spec.pred != nil {
			v, err := spec.pred()
			if err != nil {
				return nil, posErr(c.Pos, fmt.Errorf("predicate: %w", err))
			}
			if !truthy(v) {
				return skippedResults(c, spec.fn, args)
			}
		}
		if spec.cores == nil {
			return run()
		}
		n, err := spec.cores()
		if err != nil {
			return nil, err
		}
		cnt, err := toInt(n)
		if err != nil || cnt <= 0 {
			return nil, posErr(c.Pos, fmt.Errorf("pl.spmd_submit: core_num must be a positive integer, given %v", n))
		}
		var out []any
		if spec.together && cnt > 1 {
			err := x.blocksTogether(int(cnt), func(k int) error {
				o, err := run()
				if k == int(cnt)-1 {
					out = o // the last block's results, as a sequential launch leaves them
				}
				return err
			})
			return out, err
		}
		rc := x.rc
		block, blocks := rc.block, rc.blocks
		defer func() { rc.block, rc.blocks = block, blocks }()
		for b := 0; b < int(cnt); b++ {
			rc.block, rc.blocks = b, int(cnt)
			if out, err = run(); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
}

// skippedResults are the results of a launch its predicate retired: each
// is the argument the function would have returned (a kernel returns the
// tensor it stores into, directly or through a loop's or an if's
// results), as it was passed.
func skippedResults(c *ir.Call, fn *ir.Function, args []any) ([]any, error) {
	var ret *ir.ReturnStmt
	defs := map[*ir.Var]ir.Expr{}
	ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
		switch s := s.(type) {
		case *ir.ReturnStmt:
			ret = s
		case *ir.AssignStmt:
			defs[s.Var] = s.Value
		case *ir.ForStmt, *ir.WhileStmt:
			// A loop's result starts as its carried value's init.
			ias, rvs := ir.LoopCarried(s)
			for k, rv := range rvs {
				if k < len(ias) {
					defs[rv] = ias[k].Init
				}
			}
		case *ir.IfStmt:
			// Both arms yield the same storage; the then arm says which.
			if y, ok := ir.LastYield(s.Then); ok {
				for k, rv := range s.ReturnVars {
					if k < len(y.Values) {
						defs[rv] = y.Values[k]
					}
				}
			}
		}
	})
	if ret == nil {
		return nil, nil
	}
	param := map[*ir.Var]int{}
	for i, p := range fn.Params {
		param[p] = i
	}
	out := make([]any, len(ret.Values))
	for k, e := range ret.Values {
		for seen := 0; seen < 64; seen++ {
			if v, ok := ir.VarOf(e); ok {
				if i, isParam := param[v]; isParam {
					out[k] = args[i]
					break
				}
				e = defs[v]
				continue
			}
			if call, ok := e.(*ir.Call); ok && call.Op != nil && call.Op.AliasedArg() >= 0 {
				e = call.Args[call.Op.AliasedArg()]
				continue
			}
			break
		}
		if out[k] == nil {
			return nil, posErr(c.Pos, fmt.Errorf("its predicate skips %s, whose result %d is not one of its arguments (a retired task leaves its outputs as they are)", fn.Name, k))
		}
	}
	return out, nil
}

// depValues evaluates a launch's deps=[...]: each must be a task id or an
// array of them.
func (x *Exec) depValues(deps []ir.Expr) ([]any, error) {
	out := make([]any, len(deps))
	for i, d := range deps {
		v, err := x.expr(d)
		if err != nil {
			return nil, err
		}
		if err := depValue(i, v); err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// compiledDeps is depValues for compiled expressions.
func (x *Exec) compiledDeps(deps []cexpr, fr *frame) ([]any, error) {
	out := make([]any, len(deps))
	for i, d := range deps {
		v, err := d(fr)
		if err != nil {
			return nil, err
		}
		if err := depValue(i, v); err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func depValue(i int, v any) error {
	switch v.(type) {
	case int64, intArray:
		return nil
	}
	return fmt.Errorf("deps[%d]: expected a task id or an array of them, given %v", i, v)
}

func init() {
	Register(ir.ArrayCreate, func(x *Exec, c *ir.Call, a []any) (any, error) {
		n, err := toInt(a[0])
		if err != nil {
			return nil, fmt.Errorf("extent: %w", err)
		}
		return make(intArray, n), nil
	})
	element := func(a []any) (intArray, int, error) {
		arr, ok := a[0].(intArray)
		if !ok {
			return nil, 0, fmt.Errorf("expected an array, given %v", a[0])
		}
		i, err := toInt(a[1])
		if err != nil {
			return nil, 0, fmt.Errorf("index: %w", err)
		}
		if i < 0 || int(i) >= len(arr) {
			return nil, 0, fmt.Errorf("index %d is outside the array of %d elements", i, len(arr))
		}
		return arr, int(i), nil
	}
	Register(ir.ArrayGetElement, func(x *Exec, c *ir.Call, a []any) (any, error) {
		arr, i, err := element(a)
		if err != nil {
			return nil, err
		}
		return arr[i], nil
	})
	Register(ir.ArrayUpdateElement, func(x *Exec, c *ir.Call, a []any) (any, error) {
		arr, i, err := element(a)
		if err != nil {
			return nil, err
		}
		v, err := toInt(a[2])
		if err != nil {
			return nil, fmt.Errorf("value: %w", err)
		}
		out := append(intArray(nil), arr...) // a new value: the old one may still be read
		out[i] = v
		return out, nil
	})
	// A dummy task's deps are attributes: the tree walker evaluates them
	// here, the compiled executor where it compiles the call.
	Register(ir.SystemTaskDummy, func(x *Exec, c *ir.Call, a []any) (any, error) {
		deps, err := x.depValues(c.Deps())
		if err != nil {
			return nil, err
		}
		return x.taskDummy(c, deps), nil
	})
	Register(ir.SystemTaskInvalid, func(x *Exec, c *ir.Call, a []any) (any, error) { return int64(0), nil })
}

// taskDummy launches a task that only waits for deps and gives its id.
func (x *Exec) taskDummy(c *ir.Call, deps []any) int64 {
	id, end := x.beginTask("pl.system.task_dummy", c.Pos, depIDs(deps))
	end()
	return id
}
