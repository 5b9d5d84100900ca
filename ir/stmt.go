package ir

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

func (*AssignStmt) isStmt() {}
func (*EvalStmt) isStmt()   {}
func (*SeqStmts) isStmt()   {}
func (*ForStmt) isStmt()    {}
func (*IfStmt) isStmt()     {}
func (*YieldStmt) isStmt()  {}
func (*ReturnStmt) isStmt() {}

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
