package ir

import (
	"fmt"
	"strings"
)

// Node is a statement or an expression, the unit the inspector visits.
type Node interface{ Span() Span }

// nodeKind is one bit per concrete node type, so a type filter is a mask
// test instead of a type switch per visited node.
type nodeKind uint32

const (
	kindSeq nodeKind = 1 << iota
	kindAssign
	kindEval
	kindFor
	kindIf
	kindYield
	kindReturn
	kindScope
	kindVar
	kindIterArg
	kindMemRef
	kindWindow
	kindConstInt
	kindConstFloat
	kindConstBool
	kindBinary
	kindUnary
	kindCall
	kindTuple
	kindTupleGet
	kindOther
)

func kindOf(n Node) nodeKind {
	switch n.(type) {
	case *SeqStmts:
		return kindSeq
	case *AssignStmt:
		return kindAssign
	case *EvalStmt:
		return kindEval
	case *ForStmt, *WhileStmt:
		return kindFor
	case *IfStmt:
		return kindIf
	case *YieldStmt:
		return kindYield
	case *ReturnStmt:
		return kindReturn
	case *ScopeStmt:
		return kindScope
	case *Var:
		return kindVar
	case *IterArg:
		return kindIterArg
	case *MemRef:
		return kindMemRef
	case *WindowBuffer:
		return kindWindow
	case *ConstInt:
		return kindConstInt
	case *ConstFloat:
		return kindConstFloat
	case *ConstBool:
		return kindConstBool
	case *BinaryExpr:
		return kindBinary
	case *UnaryExpr:
		return kindUnary
	case *Call:
		return kindCall
	case *MakeTuple:
		return kindTuple
	case *TupleGetItem:
		return kindTupleGet
	}
	return kindOther
}

// maskOf turns a type filter — typed nil pointers such as (*Call)(nil), as
// in go/ast/inspector — into a mask; an empty filter matches every node.
func maskOf(types []Node) nodeKind {
	if len(types) == 0 {
		return ^nodeKind(0)
	}
	var m nodeKind
	for _, t := range types {
		m |= kindOf(t)
	}
	return m
}

// NodeChildren lists the direct children of n in program order, the same
// order WalkStmt visits them: a statement's expressions before its nested
// blocks, an expression's operands as Children gives them. Assigned and loop
// variables are definitions, not children.
func NodeChildren(n Node) []Node {
	var out []Node
	addE := func(e Expr) {
		if e != nil {
			out = append(out, e)
		}
	}
	addS := func(s Stmt) {
		if s != nil {
			out = append(out, s)
		}
	}
	switch s := n.(type) {
	case *SeqStmts:
		for _, c := range s.Stmts {
			addS(c)
		}
	case *AssignStmt:
		addE(s.Value)
	case *EvalStmt:
		addE(s.Expr)
	case *ReturnStmt:
		for _, v := range s.Values {
			addE(v)
		}
	case *YieldStmt:
		for _, v := range s.Values {
			addE(v)
		}
	case *IfStmt:
		addE(s.Cond)
		addS(s.Then)
		addS(s.Else)
	case *ScopeStmt:
		if s.CoreNum != nil {
			addE(s.CoreNum)
		}
		for _, d := range s.Deps {
			addE(d)
		}
		for _, d := range s.NoDepArgs {
			addE(d)
		}
		for _, d := range s.Dumps {
			addE(d)
		}
		if s.Predicate != nil {
			addE(s.Predicate)
		}
		if s.TaskID != nil {
			addE(s.TaskID)
		}
		addS(s.Body)
	case *ForStmt:
		addE(s.Start)
		addE(s.Stop)
		addE(s.Step)
		for _, ia := range s.IterArgs {
			addE(ia.Init)
		}
		addS(s.Body)
	case *WhileStmt:
		for _, ia := range s.IterArgs {
			addE(ia.Init)
		}
		addE(s.Cond)
		addS(s.Body)
	case Expr:
		for _, c := range Children(s) {
			addE(c)
		}
	}
	return out
}

// Preorder calls f on every node under root (root included) whose type is in
// types, in program order. An empty types matches every node.
func Preorder(root Node, types []Node, f func(Node)) {
	WithStack(root, types, func(n Node, push bool, _ []Node) bool {
		if push {
			f(n)
		}
		return true
	})
}

// Nodes is WithStack without the stack.
func Nodes(root Node, types []Node, f func(n Node, push bool) bool) {
	WithStack(root, types, func(n Node, push bool, _ []Node) bool { return f(n, push) })
}

// WithStack walks root in program order and calls f twice for each node whose
// type is in types: with push=true before its children and push=false after.
// Returning false from a push call skips the node's children (and its pop
// call). stack holds every enclosing node, root first and n last, whether or
// not it matched the filter; f must not keep it past the call.
func WithStack(root Node, types []Node, f func(n Node, push bool, stack []Node) bool) {
	if root == nil {
		return
	}
	mask := maskOf(types)
	var stack []Node
	var visit func(n Node)
	visit = func(n Node) {
		stack = append(stack, n)
		match := kindOf(n)&mask != 0
		if !match || f(n, true, stack) {
			for _, c := range NodeChildren(n) {
				visit(c)
			}
			if match {
				f(n, false, stack)
			}
		}
		stack = stack[:len(stack)-1]
	}
	visit(root)
}

// ArgIndex is the position of the op's argument called name, or -1.
func (d *OpDef) ArgIndex(name string) int {
	if d == nil {
		return -1
	}
	for i, a := range d.Args {
		if a.Name == name {
			return i
		}
	}
	return -1
}

// Arg is the argument the registry names name, so callers need not know its
// position. ok is false for a function call, an op without such an argument,
// or a call that omitted it.
func (c *Call) Arg(name string) (Expr, bool) {
	if c == nil || c.Op == nil {
		return nil, false
	}
	i := c.Op.ArgIndex(name)
	if i < 0 || i >= len(c.Args) {
		return nil, false
	}
	return c.Args[i], true
}

// ArgErr is Arg with an error that names the op, the argument and what the op
// does take, for callers that report rather than skip.
func (c *Call) ArgErr(name string) (Expr, error) {
	if e, ok := c.Arg(name); ok {
		return e, nil
	}
	switch {
	case c == nil:
		return nil, fmt.Errorf("argument %q of a nil call", name)
	case c.Op == nil:
		return nil, fmt.Errorf("%s: a function call has no registry arguments (asked for %q)", c.Name(), name)
	}
	i := c.Op.ArgIndex(name)
	if i < 0 {
		names := make([]string, len(c.Op.Args))
		for j, a := range c.Op.Args {
			names[j] = a.Name
		}
		return nil, fmt.Errorf("%s: no argument %q (expected one of: %s)", c.Op.Name, name, strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("%s: argument %q (position %d) not given: %d argument(s)", c.Op.Name, name, i, len(c.Args))
}

// ArgVar is the named argument as a variable (see VarOf).
func (c *Call) ArgVar(name string) (*Var, bool) {
	e, ok := c.Arg(name)
	if !ok {
		return nil, false
	}
	return VarOf(e)
}

// ArgTuple is the named argument as a tuple literal.
func (c *Call) ArgTuple(name string) (*MakeTuple, bool) {
	e, ok := c.Arg(name)
	if !ok {
		return nil, false
	}
	t, ok := e.(*MakeTuple)
	return t, ok
}

// Aliased is the argument the call's result is the storage of (the op's
// ResultAlias: a store's output tensor, a view's input), if it has one.
func (c *Call) Aliased() (Expr, bool) {
	if c == nil || c.Op == nil || c.Op.ResultAlias == "" {
		return nil, false
	}
	return c.Arg(c.Op.ResultAlias)
}
