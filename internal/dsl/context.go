package dsl

import (
	"context"
	"sync"
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
