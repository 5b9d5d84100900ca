package ir

import (
	"fmt"
	"sort"
)

// Task graphs. The runtime does not run an orchestration statement by
// statement: every kernel launch is a task, and it orders tasks by the
// buffers they touch and the directions their parameters declare. Two
// things let a program say more (upstream's manual_scope surface):
//
//   - a task id, a Scalar[TASK_ID]: `with pl.at(...) as tid:` binds the
//     id of the region's launch, and `out, tid = pl.submit(self.f, ...)`
//     launches f and gives its results and its id;
//   - declared edges, deps=[t, ...] on pl.at or pl.submit: the launch waits
//     for those tasks too. Inside `with pl.manual_scope():` the runtime
//     infers no edges, and the declared ones are all there is.
//
// Arrays of task ids (pl.array.create(n, pl.TASK_ID), tids[i] = tid)
// collect a phase's tasks so that one deps=[tids] waits for all of them;
// pl.system.task_dummy(deps=[...]) is a task that only waits.
//
// A pl.submit is a Call of a program function whose Attrs hold "submit"
// (true) and, when it declares edges, "deps" (a MakeTuple of task ids or
// arrays of them); its type is the function's results then TASK_ID.

// TaskIDType is the type of a task id.
var TaskIDType = Scalar(TASK_ID)

const (
	attrSubmit = "submit"
	attrDeps   = "deps"
	attrEarly  = "allow_early_resolve"
	attrDumps  = "dump_args"
	// An SPMD launch's spec (pl.spmd_submit) and a dispatch predicate.
	attrCoreNum   = "core_num"
	attrSyncStart = "sync_start"
	attrPredicate = "predicate"
)

// WithLaunch makes a submit an SPMD launch of coreNum blocks
// (pl.spmd_submit(self.f, ..., core_num=n[, sync_start=True])).
func WithLaunch(c *Call, coreNum Expr, syncStart bool) *Call {
	d := *c
	d.Attrs = append(append(Kwargs(nil), c.Attrs...), Kwarg{Key: attrCoreNum, Value: coreNum})
	if syncStart {
		d.Attrs = append(d.Attrs, Kwarg{Key: attrSyncStart, Value: true})
	}
	return &d
}

// CoreNum is an SPMD launch's block count (nil: a plain submit).
func (c *Call) CoreNum() Expr {
	v, _ := c.Attrs.Get(attrCoreNum)
	e, _ := v.(Expr)
	return e
}

// SyncStart reports an SPMD launch whose blocks start together.
func (c *Call) SyncStart() bool {
	v, _ := c.Attrs.Get(attrSyncStart)
	b, _ := v.(bool)
	return b
}

// WithPredicate gives a submit its dispatch predicate (predicate=(...)),
// checked by CheckPredicate.
func WithPredicate(c *Call, p Expr) (*Call, error) {
	if err := CheckPredicate(p); err != nil {
		return nil, err
	}
	d := *c
	d.Attrs = append(append(Kwargs(nil), c.Attrs...), Kwarg{Key: attrPredicate, Value: p})
	return &d, nil
}

// Predicate is a submit's dispatch predicate (nil: none).
func (c *Call) Predicate() Expr {
	v, _ := c.Attrs.Get(attrPredicate)
	e, _ := v.(Expr)
	return e
}

// CheckPredicate accepts what the runtime's dispatch predicate can
// express, as upstream's parser does: one comparison (== != < <= > >=)
// between a tensor element (t[i, j], tensor.read, through casts) and an
// integer literal, in either order. The scheduler evaluates it when the
// launch is due, never the orchestrator.
func CheckPredicate(p Expr) error {
	if b, ok := p.(*BinaryExpr); ok && b.Op.IsCompare() && PredicateRead(b) != nil {
		return nil
	}
	return fmt.Errorf("predicate=(...): expected one comparison of a tensor element with an integer literal, such as (counts[e] > 0), given %s", Describe(p))
}

// PredicateRead is the tensor.read a well-formed predicate compares (nil
// when it has none).
func PredicateRead(b *BinaryExpr) *Call {
	strip := func(e Expr) Expr {
		for {
			u, ok := e.(*UnaryExpr)
			if !ok || u.Op != OpCast {
				return e
			}
			e = u.X
		}
	}
	l, r := strip(b.Left), strip(b.Right)
	isRead := func(e Expr) (*Call, bool) {
		c, ok := e.(*Call)
		return c, ok && c.Op == TensorRead
	}
	if c, ok := isRead(l); ok {
		if _, lit := r.(*ConstInt); lit {
			return c
		}
	}
	if c, ok := isRead(r); ok {
		if _, lit := l.(*ConstInt); lit {
			return c
		}
	}
	return nil
}

// WithDumps is the kernel call c (a pl.submit or a plain call) marking
// the arguments at positions idx for the runtime's selective tensor dump
// (a submit's dumps=[x, ...], a plain call's attrs={"dump_vars": [x]}),
// merged with those it marks already, in argument order. They are kept by
// position, so renaming the arguments keeps them.
func WithDumps(c *Call, idx []int) *Call {
	d := *c
	d.Attrs = c.Attrs.With(attrDumps, slotTuple(append(c.DumpArgs(), idx...), c.Pos))
	return &d
}

// slotTuple is a set of argument positions as the ascending tuple a call
// attr holds.
func slotTuple(slots []int, pos Span) *MakeTuple {
	set := map[int]bool{}
	for _, s := range slots {
		set[s] = true
	}
	sorted := make([]int, 0, len(set))
	for s := range set {
		sorted = append(sorted, s)
	}
	sort.Ints(sorted)
	elems := make([]Expr, len(sorted))
	for i, s := range sorted {
		elems[i] = Int(int64(s))
	}
	return &MakeTuple{Elems: elems, Pos: pos}
}

// DumpArgs are the positions of the arguments a kernel call marks for
// dumping, ascending.
func (c *Call) DumpArgs() []int {
	v, ok := c.Attrs.Get(attrDumps)
	t, isTuple := v.(*MakeTuple)
	if !ok || !isTuple {
		return nil
	}
	var out []int
	for _, e := range t.Elems {
		if k, ok := ConstValue(e); ok && k >= 0 && int(k) < len(c.Args) {
			out = append(out, int(k))
		}
	}
	return out
}

// WithEarlyResolve is the pl.submit c with allow_early_resolve=True: the
// scheduler may stage its consumers before it completes.
func WithEarlyResolve(c *Call) *Call {
	d := *c
	d.Attrs = append(append(Kwargs(nil), c.Attrs...), Kwarg{Key: attrEarly, Value: true})
	return &d
}

// AllowsEarlyResolve reports whether the pl.submit c says allow_early_resolve=True.
func (c *Call) AllowsEarlyResolve() bool {
	v, _ := c.Attrs.Get(attrEarly)
	b, _ := v.(bool)
	return b
}

// NewSubmit makes call, a call of a program function, a pl.submit that
// waits for deps: it returns the call's results, then the id of the task.
func NewSubmit(call *Call, deps []Expr) (*Call, error) {
	if call.Fn == nil {
		return nil, fmt.Errorf("pl.submit launches a program function (self.f), given %s", call.Name())
	}
	if err := CheckDeps(deps); err != nil {
		return nil, fmt.Errorf("pl.submit(self.%s): %w", call.Fn.Name, err)
	}
	c := *call
	c.Attrs = append(append(Kwargs(nil), call.Attrs...), Kwarg{Key: attrSubmit, Value: true})
	if len(deps) > 0 {
		c.Attrs = append(c.Attrs, Kwarg{Key: attrDeps, Value: &MakeTuple{Elems: deps, Pos: call.Pos}})
	}
	var results []Type
	switch t := call.T.(type) {
	case nil, *UnknownType:
	case *TupleType:
		results = t.Types
	default:
		results = []Type{t}
	}
	c.T = &TupleType{Types: append(append([]Type(nil), results...), TaskIDType)}
	return &c, nil
}

// IsSubmit reports whether c is a pl.submit.
func (c *Call) IsSubmit() bool {
	v, ok := c.Attrs.Get(attrSubmit)
	b, _ := v.(bool)
	return ok && b
}

// Deps are the task ids (and arrays of them) a pl.submit or a
// pl.system.task_dummy waits for.
func (c *Call) Deps() []Expr {
	if v, ok := c.Attrs.Get(attrDeps); ok {
		if t, ok := v.(*MakeTuple); ok {
			return t.Elems
		}
	}
	return nil
}

// CheckDeps checks that each dependency is a task id or an array of them.
func CheckDeps(deps []Expr) error {
	for i, d := range deps {
		if !IsTaskIDs(d.Type()) {
			return fmt.Errorf("deps[%d]: expected a task id (pl.Scalar[pl.TASK_ID]) or an array of them (pl.Array[N, pl.TASK_ID]), given %s", i, Describe(d))
		}
	}
	return nil
}

// IsTaskIDs reports whether t is a task id or an array of task ids.
func IsTaskIDs(t Type) bool {
	switch t := t.(type) {
	case *ScalarType:
		return t.DType == TASK_ID
	case *ArrayType:
		return t.DType == TASK_ID
	}
	return false
}

func init() {
	ArrayCreate = RegisterOp(&OpDef{
		Name: "array.create", Category: "ArrayOp", Class: ClassSetup, HostSafe: true,
		Doc:    "A fixed-size array of integers, bools or task ids (every element 0, or no task).",
		Args:   []ArgSpec{{Name: "extent"}},
		Kwargs: []KwargSpec{{Name: "dtype", Kind: KwDType, Required: true}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			n, ok := ConstValue(c.Args[0])
			if !ok || n <= 0 {
				return nil, c.Fail(0, "a positive constant extent", Describe(c.Args[0]))
			}
			dt, _ := c.Kwargs.DType("dtype")
			if !dt.IsInt() && dt != BOOL && dt != TASK_ID {
				return nil, c.FailKwarg("dtype", "an integer dtype, pl.BOOL or pl.TASK_ID", dt.String())
			}
			return &ArrayType{Extent: n, DType: dt}, nil
		},
	})
	array := func(c *DeduceCtx) (*ArrayType, error) {
		a, ok := c.Args[0].Type().(*ArrayType)
		if !ok {
			return nil, c.Fail(0, "an array (pl.array.create)", c.Args[0])
		}
		if st, ok := c.Args[1].Type().(*ScalarType); !ok || !st.DType.IsInt() {
			return nil, c.Fail(1, "an integer index", c.Args[1])
		}
		return a, nil
	}
	ArrayGetElement = RegisterOp(&OpDef{
		Name: "array.get_element", Category: "ArrayOp", Class: ClassCompute, HostSafe: true,
		Doc:  "The element of an array at an index.",
		Args: []ArgSpec{{Name: "array"}, {Name: "index"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			a, err := array(c)
			if err != nil {
				return nil, err
			}
			return Scalar(a.DType), nil
		},
	})
	ArrayUpdateElement = RegisterOp(&OpDef{
		Name: "array.update_element", Category: "ArrayOp", Class: ClassCompute, HostSafe: true,
		Doc:  "The array with one element replaced (tids[i] = tid); the others pass through.",
		Args: []ArgSpec{{Name: "array"}, {Name: "index"}, {Name: "value", Int32: true}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			a, err := array(c)
			if err != nil {
				return nil, err
			}
			st, ok := c.Args[2].Type().(*ScalarType)
			fits := ok && (st.DType == a.DType || (st.DType == INDEX && a.DType.IsInt()) || (a.DType == INDEX && st.DType.IsInt()))
			if !fits {
				return nil, c.Fail(2, "a scalar of the array's dtype "+a.DType.String(), c.Args[2])
			}
			return &ArrayType{Extent: a.Extent, DType: a.DType}, nil
		},
	})
	SystemTaskDummy = RegisterOp(&OpDef{
		Name: "system.task_dummy", Category: "TaskOp", Class: ClassSetup, HostSafe: true,
		Doc: "A task that does nothing but wait for its deps=[...]; its id orders what depends on it after all of them.",
		Deduce: func(c *DeduceCtx) (Type, error) {
			return TaskIDType, nil
		},
	})
	SystemTaskInvalid = RegisterOp(&OpDef{
		Name: "system.task_invalid", Category: "TaskOp", Class: ClassSetup, HostSafe: true,
		Doc:    "The id of no task: an edge to it orders nothing (a loop's first iteration).",
		Deduce: func(c *DeduceCtx) (Type, error) { return TaskIDType, nil },
	})
}

// NewTaskDummy is pl.system.task_dummy(deps=[...]).
func NewTaskDummy(deps []Expr, pos Span) (*Call, error) {
	if err := CheckDeps(deps); err != nil {
		return nil, fmt.Errorf("pl.system.task_dummy: %w", err)
	}
	c, err := SystemTaskDummy.NewCall(nil, nil, pos)
	if err != nil {
		return nil, err
	}
	c.Attrs = Kwargs{{Key: attrDeps, Value: &MakeTuple{Elems: deps, Pos: pos}}}
	return c, nil
}

// attrNoDep is the call attr listing the argument slots the runtime is not
// to track for the launch (upstream's arg_direction_overrides): the
// positions of pl.no_dep(t) arguments, or of an outlined region's
// no_dep_args, ascending.
const attrNoDep = "arg_direction_overrides"

// WithNoDep marks argument slots of a call of a program function as
// pl.adir.no_dep. Slots are kept ascending and once each, as upstream
// applies them as a set.
func WithNoDep(c *Call, slots []int) (*Call, error) {
	if c.Fn == nil {
		return nil, fmt.Errorf("pl.no_dep marks an argument of a kernel call, not of %s", c.Name())
	}
	for _, s := range slots {
		if s < 0 || s >= len(c.Args) {
			return nil, fmt.Errorf("pl.no_dep: %s has no argument %d", c.Fn.Name, s)
		}
	}
	n := *c
	n.Attrs = c.Attrs.With(attrNoDep, slotTuple(append(c.NoDepSlots(), slots...), c.Pos))
	return &n, nil
}

// NoDepSlots are the argument slots of c marked pl.adir.no_dep (nil:
// none).
func (c *Call) NoDepSlots() []int {
	v, ok := c.Attrs.Get(attrNoDep)
	if !ok {
		return nil
	}
	t, ok := v.(*MakeTuple)
	if !ok {
		return nil
	}
	var out []int
	for _, e := range t.Elems {
		if n, ok := ConstValue(e); ok {
			out = append(out, int(n))
		}
	}
	return out
}
