package pl

import (
	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
)

// Task graphs. Every kernel launch of an orchestration is a task, and the
// runtime orders tasks by the buffers they touch. A launch can also name
// its task (its task id) and declare the tasks it waits for (deps); inside
// a manual scope the declared edges are all the runtime uses. The
// simulator runs a rank's tasks in program order, which every declared
// edge allows, so these change what the program says, not what it
// computes.

// ManualScope adds a region whose tasks the runtime orders only by their
// declared deps. PyPTO: with pl.scope(mode=pl.ScopeMode.MANUAL): ...
// (pl.manual_scope()).
func (f *Func) ManualScope(body func()) { f.runtimeScope(true, body) }

// AutoScope adds a region whose tasks the runtime orders by the buffers
// they touch (the default), placed by hand: the function then places all
// its AUTO scopes itself (auto_scope=False). PyPTO: with pl.scope(): ...
func (f *Func) AutoScope(body func()) {
	f.b.Fn.Attrs = f.b.Fn.Attrs.With("auto_scope", false)
	f.runtimeScope(false, body)
}

func (f *Func) runtimeScope(manual bool, body func()) {
	pos := dsl.Caller()
	if body == nil {
		dsl.Failf("the scope's body callback is nil")
	}
	blk := f.b.Block(body)
	f.b.Emit(&ir.ScopeStmt{StmtBase: ir.StmtBase{Pos: pos}, Kind: ir.ScopeRuntime, Level: ir.LevelNone, Role: ir.RoleNone, Manual: manual, Body: blk})
}

// ClusterScope adds a region of co-scheduled cube and vector kernels
// (upstream outlines it into a Group function); its statements run where
// they stand. nameHint may be "". PyPTO: with pl.cluster(name_hint=...): ...
func (f *Func) ClusterScope(nameHint string, body func()) {
	pos := dsl.Caller()
	if nameHint != "" {
		dsl.CheckName("f.ClusterScope", "nameHint", nameHint)
	}
	if body == nil {
		dsl.Failf("f.ClusterScope: the body callback is nil")
	}
	blk := f.b.Block(body)
	f.b.Emit(&ir.ScopeStmt{StmtBase: ir.StmtBase{Pos: pos}, Kind: ir.ScopeCluster, Level: ir.LevelNone, Role: ir.RoleNone, NameHint: nameHint, Body: blk})
}

// InCoreTask is InCoreScope whose launch waits for deps (task ids, or
// arrays of them) and binds its own task id to a variable named tid ("":
// none), which it returns (nil when tid is ""). PyPTO:
// with pl.at(level=pl.Level.CORE_GROUP, name_hint=nameHint, deps=[...]) as tid: ...
func (f *Func) InCoreTask(tid, nameHint string, deps []Expr, body func()) Expr {
	pos := dsl.Caller()
	if nameHint != "" {
		dsl.CheckName("f.InCoreTask", "nameHint", nameHint)
	}
	if err := ir.CheckDeps(deps); err != nil {
		dsl.Failf("f.InCoreTask: %v", err)
	}
	blk := f.coreBlock(body)
	s := &ir.ScopeStmt{StmtBase: ir.StmtBase{Pos: pos}, Kind: ir.ScopeInCore, Level: ir.LevelCoreGroup, Role: ir.RoleNone, NameHint: nameHint, Deps: deps, Body: blk}
	if tid != "" {
		dsl.CheckName("f.InCoreTask", "tid", tid)
		s.TaskID = ir.NewVar(tid, ir.TaskIDType, pos)
	}
	f.b.Emit(s)
	if s.TaskID == nil {
		return nil
	}
	return s.TaskID
}

// Submit launches fn as a task that waits for deps: its value is a tuple
// of fn's results and then the task's id; bind it with f.Let and take the
// parts with Item. PyPTO: out, tid = pl.submit(self.fn, args..., deps=[...])
func (f *Func) Submit(fn *Function, deps []Expr, args ...any) Expr {
	c, ok := f.call(fn, nil, args).(*ir.Call)
	if !ok {
		dsl.Failf("f.Submit: %s is not a function call", fn.fn.Name)
	}
	s, err := ir.NewSubmit(c, deps)
	if err != nil {
		dsl.Failf("f.Submit: %v", err)
	}
	return s
}

// SpmdSubmit launches fn as one task of coreNum blocks, each reading its
// index with pl.BlockIdx(); like Submit, its value is fn's results and
// then the task's id. PyPTO: out, tid = pl.spmd_submit(self.fn, args...,
// core_num=n, deps=[...])
func (f *Func) SpmdSubmit(fn *Function, coreNum any, deps []Expr, args ...any) Expr {
	s := f.Submit(fn, deps, args...).(*ir.Call)
	n := dsl.Expr(coreNum, "f.SpmdSubmit coreNum")
	if v, ok := ir.ConstValue(n); ok && v <= 0 {
		dsl.Failf("f.SpmdSubmit: coreNum must be positive, given %d", v)
	}
	return ir.WithLaunch(s, n, false)
}

// Predicated gives a Submit or SpmdSubmit launch a dispatch predicate: one
// comparison of a tensor element with an integer, such as
// pl.Gt(pl.Read(counts, pl.Dims(e, 0)), 0), read when the launch is due;
// when false the task retires without running, its outputs as they were.
// PyPTO: pl.submit(..., predicate=(counts[e, 0] > 0))
func Predicated(launch, predicate Expr) Expr {
	c, ok := launch.(*ir.Call)
	if !ok || !c.IsSubmit() {
		dsl.Failf("pl.Predicated: expected a launch (f.Submit or f.SpmdSubmit), given %s", ir.Describe(launch))
	}
	s, err := ir.WithPredicate(c, predicate)
	if err != nil {
		dsl.Failf("pl.Predicated: %v", err)
	}
	return s
}

// Item is element i of a tuple (a Submit's results, then its task id).
// PyPTO: t[i]
func Item(tuple Expr, i int) Expr {
	tt, ok := tuple.Type().(*ir.TupleType)
	if !ok || i < 0 || i >= len(tt.Types) {
		dsl.Failf("pl.Item: expected a tuple with an element %d, given %s", i, ir.Describe(tuple))
	}
	return &ir.TupleGetItem{Tuple: tuple, Index: i, Pos: dsl.Caller()}
}

// ArrayCreate is a fixed-size array of n elements of dt (an integer dtype,
// BOOL or TASK_ID), every element 0 (no task). PyPTO: pl.array.create(n, dt)
func ArrayCreate(n int, dt DataType) Expr {
	return dsl.Call(ir.ArrayCreate, []ir.Expr{ir.Int(int64(n))}, ir.Kwargs{{Key: "dtype", Value: dt}})
}

// ArrayGet is element i of array a. PyPTO: a[i]
func ArrayGet(a, i any) Expr {
	return dsl.Call(ir.ArrayGetElement, []ir.Expr{dsl.Expr(a, "array"), dsl.Expr(i, "index")}, nil)
}

// ArrayUpdate is array a with element i replaced by v; bind it back with
// f.Set. PyPTO: a[i] = v
func ArrayUpdate(a, i, v any) Expr {
	return dsl.Call(ir.ArrayUpdateElement, []ir.Expr{dsl.Expr(a, "array"), dsl.Expr(i, "index"), dsl.Expr(v, "value")}, nil)
}

// TaskDummy is a task that only waits for deps; its id orders what
// depends on it after all of them. PyPTO: pl.system.task_dummy(deps=[...])
func TaskDummy(deps []Expr) Expr {
	c, err := ir.NewTaskDummy(deps, dsl.Caller())
	if err != nil {
		dsl.Raise(err)
	}
	return c
}

// TaskInvalid is the id of no task: an edge to it orders nothing (a task
// id carried through a loop starts as it). PyPTO: None
func TaskInvalid() Expr { return dsl.Call(ir.SystemTaskInvalid, nil, nil) }

// SplitMode is how a pl.split_aiv region divides a tile between a core's
// two vector lanes. PyPTO: pl.SplitMode.
type SplitMode = ir.SplitMode

// Split modes: no halving (each lane runs the whole body, dividing the
// work by its index), by rows, by columns.
const (
	SplitNone      = ir.SplitNone
	SplitUpDown    = ir.SplitUpDown
	SplitLeftRight = ir.SplitLeftRight
)

// SplitAiv adds a region that each of the core's two vector lanes runs,
// body receiving the lane index (0 or 1) as a variable named lane. Inside
// it, f.AivShard and f.AicGather cross between the cube and the lanes by
// the region's mode. Outside a core scope (an InCore function or scope,
// an Spmd launch) the region is wrapped in an InCore scope. PyPTO:
// for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN): ...
func (f *Func) SplitAiv(lane string, mode SplitMode, body func(lane Expr)) {
	pos := dsl.Caller()
	dsl.CheckName("f.SplitAiv", "lane", lane)
	if mode < SplitNone || mode > SplitLeftRight {
		dsl.Failf("f.SplitAiv: mode must be pl.SplitNone, pl.SplitUpDown or pl.SplitLeftRight, given %d", int(mode))
	}
	if body == nil {
		dsl.Failf("f.SplitAiv: the body callback is nil")
	}
	idx := ir.NewVar(lane, ir.Scalar(ir.INDEX), pos)
	f.b.Declare(idx)
	f.splits = append(f.splits, mode)
	blk := func() ir.Stmt {
		defer func() {
			f.b.Undeclare(idx)
			f.splits = f.splits[:len(f.splits)-1]
		}()
		return f.b.Block(func() { body(idx) })
	}()
	f.b.Emit(ir.SplitAivIn(f.b.Fn.Kind == ir.InCore || f.cores > 0, idx, mode, ir.Flatten(blk), pos))
}

// AivShard is this lane's part of a cube result (a matmul's tile or
// tensor) in the enclosing f.SplitAiv region: the rows (SplitUpDown) or
// columns (SplitLeftRight) of its half, or all of it (SplitNone), in Vec.
// PyPTO: pl.aiv_shard(x).
func (f *Func) AivShard(x any) Expr {
	return f.laneMove("f.AivShard", ir.TileAivShard, ir.TensorAivShard, x)
}

// AicGather joins the lanes' halves of x back into one tile for the cube
// (in Mat), in the enclosing f.SplitAiv region. PyPTO: pl.aic_gather(x).
func (f *Func) AicGather(x any) Expr {
	return f.laneMove("f.AicGather", ir.TileAicGather, ir.TensorAicGather, x)
}

func (f *Func) laneMove(name string, tile, tensor *ir.OpDef, x any) Expr {
	if len(f.splits) == 0 {
		dsl.Failf("%s is used inside an f.SplitAiv region (its mode says how to split)", name)
	}
	e := arg(x, name, "tile")
	op := tensor
	if isTile(e) {
		op = tile
	}
	return dsl.Call(op, []ir.Expr{e}, ir.Kwargs{{Key: "split", Value: int64(f.splits[len(f.splits)-1])}})
}
