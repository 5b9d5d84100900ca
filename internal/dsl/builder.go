package dsl

import (
	"github.com/ptorepl/ptorepl/ir"
)

// Builder records the body of one function.
type Builder struct {
	Prog   *ProgramState
	Fn     *ir.Function
	blocks [][]ir.Stmt
	// rebind maps a variable the user holds to its latest binding (f.Set).
	rebind map[*ir.Var]*ir.Var
	// scope counts the variables the function may use (see Declare).
	scope map[*ir.Var]int
	// Bound is each assigned variable's value, for checks that need what a
	// name stands for (a window's buffer size).
	Bound map[*ir.Var]ir.Expr
	// Returned is the last f.Return's values, checked against f.Returns.
	Returned []ir.Expr
	done     bool
}

// ProgramState is what a program builder shares across its functions.
type ProgramState struct {
	Prog *ir.Program
	// Allocs are the window-buffer names declared so far (unique per program).
	Allocs map[string]ir.Span
	// Owner names the function that defined each variable, for the message
	// when another function uses it.
	Owner map[*ir.Var]string
}

var stack []*Builder

// Current is the builder recording now, or nil outside any function body.
func Current() *Builder {
	if len(stack) == 0 {
		return nil
	}
	return stack[len(stack)-1]
}

// MustCurrent is Current, failing with a clear error outside a function body.
func MustCurrent(what string) *Builder {
	b := Current()
	if b == nil {
		Failf("%s can only be used inside a function body (prog.InCore, prog.Orchestration, prog.Host or prog.Function)", what)
	}
	return b
}

// Begin starts recording fn's body.
func Begin(ps *ProgramState, fn *ir.Function) *Builder {
	if ps.Owner == nil {
		ps.Owner = map[*ir.Var]string{}
	}
	b := &Builder{Prog: ps, Fn: fn, blocks: [][]ir.Stmt{nil}, rebind: map[*ir.Var]*ir.Var{}, scope: map[*ir.Var]int{}, Bound: map[*ir.Var]ir.Expr{}}
	stack = append(stack, b)
	return b
}

// End stops recording and installs the body. It must pair with Begin even
// when the body panicked, so the stack never leaks into later cells.
func (b *Builder) End() {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == b {
			stack = append(stack[:i], stack[i+1:]...)
			break
		}
	}
	if len(b.blocks) > 0 {
		b.Fn.Body = seqOf(b.blocks[0])
	}
	b.done = true
}

// Reset drops every builder (after an interrupted cell).
func Reset() { stack = nil }

func seqOf(stmts []ir.Stmt) ir.Stmt {
	return &ir.SeqStmts{Stmts: stmts}
}

// Emit appends a statement to the innermost open block.
func (b *Builder) Emit(s ir.Stmt) {
	if b.done {
		Failf("function %s is finished; statements must be added inside its body callback", b.Fn.Name)
	}
	b.checkFree(s)
	if a, ok := s.(*ir.AssignStmt); ok {
		b.Declare(a.Var)
		b.Bound[a.Var] = a.Value
	}
	b.blocks[len(b.blocks)-1] = append(b.blocks[len(b.blocks)-1], s)
}

// Block runs fn collecting its statements into a new block.
func (b *Builder) Block(fn func()) ir.Stmt {
	b.blocks = append(b.blocks, nil)
	func() {
		defer func() {
			if r := recover(); r != nil {
				b.blocks = b.blocks[:len(b.blocks)-1]
				panic(r)
			}
		}()
		fn()
	}()
	stmts := b.blocks[len(b.blocks)-1]
	b.blocks = b.blocks[:len(b.blocks)-1]
	return seqOf(stmts)
}

// Resolve follows rebindings: after f.Set(x, e), uses of x mean the new binding.
func (b *Builder) Resolve(v *ir.Var) *ir.Var {
	for {
		n, ok := b.rebind[v]
		if !ok {
			return v
		}
		v = n
	}
}

// Rebind records that the variable the user holds as old now means nv.
func (b *Builder) Rebind(old, nv *ir.Var) {
	b.rebind[b.Resolve(old)] = nv
}
