package dsl

import (
	"context"
	"sync"

	"github.com/ptorepl/ptorepl/ir"
)

var (
	ctxMu  sync.Mutex
	evalCx = context.Background()
)

// SetContext installs the context of the evaluation in progress, so that
// long-running DSL calls (compiling, running on a device) stop when the user
// interrupts the cell. It returns a function restoring the previous one.
func SetContext(ctx context.Context) (restore func()) {
	ctxMu.Lock()
	prev := evalCx
	evalCx = ctx
	ctxMu.Unlock()
	return func() {
		ctxMu.Lock()
		evalCx = prev
		ctxMu.Unlock()
	}
}

// Context is the current evaluation's context (Background outside a session).
func Context() context.Context {
	ctxMu.Lock()
	defer ctxMu.Unlock()
	return evalCx
}

var (
	lastMu   sync.Mutex
	lastProg *ir.Program
)

// NoteProgram records p as the program the user touched last (built a
// function of, or compiled); the REPL's pass-stepping commands default to it.
func NoteProgram(p *ir.Program) {
	lastMu.Lock()
	lastProg = p
	lastMu.Unlock()
}

// LastProgram is the program noted last, or nil.
func LastProgram() *ir.Program {
	lastMu.Lock()
	defer lastMu.Unlock()
	return lastProg
}
