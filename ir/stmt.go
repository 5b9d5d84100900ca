package ir

import "fmt"

// Stmt is a statement node.
type Stmt interface {
	Span() Span
	// Comments are the leading comment lines printed before the statement.
	Comments() []string
	isStmt()
}

// StmtBase holds what every statement carries.
type StmtBase struct {
	Pos     Span
	Leading []string
}

// Span is where the statement was built.
func (b *StmtBase) Span() Span { return b.Pos }

// Comments returns the leading comments.
func (b *StmtBase) Comments() []string { return b.Leading }

// AssignStmt binds Var to Value.
type AssignStmt struct {
	StmtBase
	Var   *Var
	Value Expr
}

// EvalStmt evaluates a side-effect expression (notify, wait, put, ...).
type EvalStmt struct {
	StmtBase
	Expr Expr
}

// SeqStmts is a block of statements.
type SeqStmts struct {
	StmtBase
	Stmts []Stmt
}

// ForStmt is `for LoopVar in range(Start, Stop, Step)`. IterArgs carry values
// around the loop; the body's final YieldStmt feeds them, and ReturnVars hold
// their values after the loop.
type ForStmt struct {
	StmtBase
	LoopVar     *Var
	Start       Expr
	Stop        Expr
	Step        Expr
	IterArgs    []*IterArg
	Body        Stmt
	ReturnVars  []*Var
	Kind        LoopKind
	Attrs       Kwargs
	PipelineArg int // stage= of a pipeline loop
}

// WhileStmt is `while Cond:`. In SSA form IterArgs carry values across
// iterations (printed `for (x,) in pl.while_(init_values=(x0,)):` with
// `pl.cond(Cond)` as the body's first line; Cond reads the iter-args) and
// ReturnVars bind their values when Cond fails.
type WhileStmt struct {
	StmtBase
	Cond       Expr
	IterArgs   []*IterArg
	Body       Stmt
	ReturnVars []*Var
}

// BreakStmt leaves the innermost loop; ContinueStmt starts its next
// iteration. CtrlFlowTransform lowers both to structured control flow
// before ConvertToSSA.
type BreakStmt struct{ StmtBase }

// ContinueStmt: see BreakStmt.
type ContinueStmt struct{ StmtBase }

// IfStmt is a conditional. With ReturnVars (SSA form) each branch ends in a
// YieldStmt whose values bind them.
type IfStmt struct {
	StmtBase
	Cond       Expr
	Then       Stmt
	Else       Stmt // nil when absent
	ReturnVars []*Var
}

// YieldStmt ends an SSA for/if body.
type YieldStmt struct {
	StmtBase
	Values []Expr
}

// ReturnStmt returns from the function.
type ReturnStmt struct {
	StmtBase
	Values []Expr
}

// ScopeKind is what a ScopeStmt marks (upstream's ScopeKind values).
type ScopeKind int

// Scope kinds.
const (
	ScopeInCore    ScopeKind = 0 // with pl.at(level=pl.Level.CORE_GROUP)
	ScopeCluster   ScopeKind = 2 // with pl.cluster(): co-scheduled cube and vector kernels
	ScopeHierarchy ScopeKind = 3 // with pl.at(level=<another level>, role=...)
	ScopeSpmd      ScopeKind = 4 // with pl.spmd(core_num): its body runs once per block
	ScopeRuntime   ScopeKind = 5 // with pl.scope(mode=pl.ScopeMode.MANUAL) (Manual, alias pl.manual_scope()) or pl.scope()
	ScopeSplitAiv  ScopeKind = 7 // for aiv_id in pl.split_aiv(2, mode=...): its body runs on each vector lane
)

// ScopeStmt is `with pl.at(level=..., role=..., name_hint=...):`, a region
// that runs once at another level of the machine. Variables flow into and
// out of it as if it were not there. OutlineHierarchyScopes and
// OutlineIncoreScopes make each scope a function of its own and the scope
// a call of it.
type ScopeStmt struct {
	StmtBase
	Kind     ScopeKind
	Level    Level // the level of a Hierarchy scope (CORE_GROUP for InCore)
	Role     Role  // RoleNone when not given
	NameHint string
	// An InCore scope's optimizations: Split halves a mixed cube/vector
	// kernel between the cube and the vector cores (pl.split(mode)), SlotNum
	// sizes its cross-core ring (pl.cross_core_slot(slot_num=N); 0: not
	// given). They change how the device schedules the kernel, not what it
	// computes; OutlineIncoreScopes carries them to the kernel's attrs.
	Split   SplitMode
	SlotNum int
	// Windowize (windowize=True) lets upstream's OptimizeOrchTensors window
	// the kernel's tensors locally; the outlined kernel carries it as its
	// "windowize" attr. It changes no value.
	Windowize bool
	// An Spmd scope's launch: CoreNum blocks run its body, each seeing its
	// own index through tile.get_block_idx (upstream's SpmdScopeStmt);
	// SyncStart asks that they start together.
	CoreNum   Expr
	SyncStart bool
	// A Runtime scope's mode: in a manual one the runtime infers no edges
	// between its tasks; only declared deps order them (task.go).
	Manual bool
	// A launching scope's place in the task graph: TaskID (`as tid`) is
	// bound to the id of its launch; Deps are the task ids (or arrays of
	// them) it waits for (deps=[...]).
	TaskID *Var
	Deps   []Expr
	// NoDepArgs (no_dep_args=[t, ...]) are tensors the region reads or
	// writes that the runtime is not to track for its launch: on the
	// outlined call their slots become pl.adir.no_dep
	// (attrs["arg_direction_overrides"]), as pl.no_dep(t) marks a slot of
	// an explicit kernel call.
	NoDepArgs []Expr
	// Dumps (dumps=[t, ...]) are tensors the runtime's selective dump
	// captures for the region's launch: the outlined call's dump_vars.
	// The reader seeds them with the tensors pl.dump_tag marked before the
	// scope, as upstream's parser does. They change no value.
	Dumps []Expr
	// AllowEarlyResolve lets the scheduler stage the launch's consumers
	// before it completes (allow_early_resolve=True): a scheduling hint
	// the outlined pl.submit carries, with no effect on what runs.
	AllowEarlyResolve bool
	// Predicate is a launching scope's dispatch predicate
	// (predicate=(t[i] > 0)): one comparison of a tensor element with an
	// integer, evaluated when the launch is due; false retires it without
	// running (CheckPredicate). Nil: none.
	Predicate Expr
	Body      Stmt
}

// SplitMode is how a mixed kernel is halved (upstream's SplitMode).
type SplitMode int

// Split modes.
const (
	SplitNone      SplitMode = 0
	SplitUpDown    SplitMode = 1 // by rows
	SplitLeftRight SplitMode = 2 // by columns
)

// String is the mode's Python name (pl.SplitMode.UP_DOWN).
func (m SplitMode) String() string {
	switch m {
	case SplitNone:
		return "NONE"
	case SplitUpDown:
		return "UP_DOWN"
	case SplitLeftRight:
		return "LEFT_RIGHT"
	}
	return fmt.Sprintf("SplitMode(%d)", int(m))
}

func (*AssignStmt) isStmt()   {}
func (*EvalStmt) isStmt()     {}
func (*SeqStmts) isStmt()     {}
func (*ForStmt) isStmt()      {}
func (*WhileStmt) isStmt()    {}
func (*BreakStmt) isStmt()    {}
func (*ContinueStmt) isStmt() {}
func (*IfStmt) isStmt()       {}
func (*YieldStmt) isStmt()    {}

// LoopCarried is a for or while loop's iter-args and return vars (nil for
// any other statement).
func LoopCarried(s Stmt) ([]*IterArg, []*Var) {
	switch x := s.(type) {
	case *ForStmt:
		return x.IterArgs, x.ReturnVars
	case *WhileStmt:
		return x.IterArgs, x.ReturnVars
	}
	return nil, nil
}

// LoopBody is a for or while loop's body (nil for any other statement).
func LoopBody(s Stmt) Stmt {
	switch x := s.(type) {
	case *ForStmt:
		return x.Body
	case *WhileStmt:
		return x.Body
	}
	return nil
}

// LastYield is the yield that ends block s (a loop's or an if arm's
// body), if it ends in one.
func LastYield(s Stmt) (*YieldStmt, bool) {
	stmts := Flatten(s)
	if len(stmts) == 0 {
		return nil, false
	}
	y, ok := stmts[len(stmts)-1].(*YieldStmt)
	return y, ok
}
func (*ReturnStmt) isStmt() {}
func (*ScopeStmt) isStmt()  {}

// Flatten lists the statements of a body, expanding nested SeqStmts.
func Flatten(s Stmt) []Stmt {
	if s == nil {
		return nil
	}
	seq, ok := s.(*SeqStmts)
	if !ok {
		return []Stmt{s}
	}
	var out []Stmt
	for _, c := range seq.Stmts {
		out = append(out, Flatten(c)...)
	}
	return out
}

// Seq builds a SeqStmts from statements.
func Seq(stmts ...Stmt) *SeqStmts { return &SeqStmts{Stmts: stmts} }
