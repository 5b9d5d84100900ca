package ir

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
				readsIdx = readsIdx || c.Op == TileGetBlockIdx
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
