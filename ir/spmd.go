package ir

import "fmt"

// SpmdBody is what the body of `with pl.spmd(n):` is, as upstream's parser
// tells: it decides whether the body becomes the launch's kernel.
type SpmdBody int

// Spmd body kinds.
const (
	// SpmdCarrier: the body is one `with pl.at(level=CORE_GROUP)` scope,
	// which is the launch's kernel as it stands.
	SpmdCarrier SpmdBody = iota
	// SpmdInline: the body reads the block index; it becomes the kernel
	// (wrapped in an InCore scope).
	SpmdInline
	// SpmdDispatch: the body calls a kernel, which reads the index itself.
	SpmdDispatch
	// SpmdIdle: the body neither reads the index nor calls a kernel, so
	// every block would do the same work (rejected).
	SpmdIdle
)

// ClassifySpmdBody tells what the statements of a `with pl.spmd(n):` body are.
func ClassifySpmdBody(stmts []Stmt) SpmdBody {
	if len(stmts) == 1 {
		if sc, ok := stmts[0].(*ScopeStmt); ok && sc.Kind == ScopeInCore {
			return SpmdCarrier
		}
	}
	readsIdx, calls := false, false
	for _, s := range stmts {
		WalkStmt(s, func(e Expr) {
			if c, ok := e.(*Call); ok {
				readsIdx = readsIdx || c.Op == TileGetBlockIdx || (c.Op != nil && c.Op.AliasOf == TileGetBlockIdx)
				calls = calls || c.Fn != nil
			}
		}, nil)
	}
	switch {
	case readsIdx:
		return SpmdInline
	case calls:
		return SpmdDispatch
	}
	return SpmdIdle
}

// SpmdKernel is the InCore scope an inline Spmd body runs in: the launch's
// kernel, named after the launch's name hint, with the given optimizations.
func SpmdKernel(launch *ScopeStmt, split SplitMode, slotNum int, body []Stmt) *ScopeStmt {
	return &ScopeStmt{StmtBase: launch.StmtBase, Kind: ScopeInCore, Level: LevelCoreGroup, Role: RoleNone,
		NameHint: launch.NameHint, Split: split, SlotNum: slotNum, Body: &SeqStmts{StmtBase: launch.StmtBase, Stmts: body}}
}

// NewSpmdLaunch is the Spmd scope of a launch of coreNum blocks (its body
// still to set): coreNum must be an integer, positive when constant.
func NewSpmdLaunch(coreNum Expr, pos Span) (*ScopeStmt, error) {
	if st, ok := coreNum.Type().(*ScalarType); !ok || !st.DType.IsInt() {
		return nil, fmt.Errorf("core_num must be an integer, given %s", Describe(coreNum))
	}
	if v, ok := ConstValue(coreNum); ok && v <= 0 {
		return nil, fmt.Errorf("core_num must be positive, given %d", v)
	}
	return &ScopeStmt{StmtBase: StmtBase{Pos: pos}, Kind: ScopeSpmd, Level: LevelNone, Role: RoleNone, CoreNum: coreNum}, nil
}

// SpmdLoopKernel is the body of the loop form `for idx in pl.spmd(n):`:
// the launch's kernel, starting by binding idx to the block index.
func SpmdLoopKernel(launch *ScopeStmt, idx *Var, split SplitMode, slotNum int, body []Stmt) *ScopeStmt {
	bind := &AssignStmt{StmtBase: StmtBase{Pos: idx.Pos}, Var: idx, Value: TileGetBlockIdx.MustCall(nil, nil, idx.Pos)}
	return SpmdKernel(launch, split, slotNum, append([]Stmt{bind}, body...))
}

// SpmdLoopForm recognises the loop form of an Spmd launch (the inverse of
// SpmdLoopKernel): its body is one InCore scope whose first statement binds
// the block index. It returns that variable, the InCore scope and the
// statements after the binding (idx nil when s is not in loop form).
func SpmdLoopForm(s *ScopeStmt) (idx *Var, inner *ScopeStmt, rest []Stmt) {
	body := Flatten(s.Body)
	if len(body) != 1 {
		return nil, nil, nil
	}
	inner, ok := body[0].(*ScopeStmt)
	if !ok || inner.Kind != ScopeInCore {
		return nil, nil, nil
	}
	stmts := Flatten(inner.Body)
	if len(stmts) == 0 {
		return nil, nil, nil
	}
	a, ok := stmts[0].(*AssignStmt)
	if !ok {
		return nil, nil, nil
	}
	if c, ok := a.Value.(*Call); !ok || c.Op != TileGetBlockIdx {
		return nil, nil, nil
	}
	return a.Var, inner, stmts[1:]
}
