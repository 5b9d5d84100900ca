package ir

import "fmt"

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
)

// WithDumps is the pl.submit c marking the arguments at positions idx for
// the runtime's selective tensor dump (dumps=[x, ...]). They are kept by
// position, so renaming the arguments keeps them.
func WithDumps(c *Call, idx []int) *Call {
	d := *c
	elems := make([]Expr, len(idx))
	for i, k := range idx {
		elems[i] = Int(int64(k))
	}
	d.Attrs = append(append(Kwargs(nil), c.Attrs...), Kwarg{Key: attrDumps, Value: &MakeTuple{Elems: elems, Pos: c.Pos}})
	return &d
}

// DumpArgs are the positions of the arguments a pl.submit marks for dumping.
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
