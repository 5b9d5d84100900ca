package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// The prefetch ops warm L2 and change no value, so simulating them is
// checking their handles: an event is waited for in the session of the
// context that started it (the NPU would wait on the wrong session's
// queue otherwise).

// prefetchCtx is a pl.prefetch.make_context value: each call makes a new one.
type prefetchCtx struct{ _ byte }

// asyncEvent and asyncSession belong to the context that made them.
type asyncEvent struct{ ctx *prefetchCtx }
type asyncSession struct{ ctx *prefetchCtx }

func init() {
	Register(ir.PrefetchMakeContext, func(x *Exec, c *ir.Call, a []any) (any, error) {
		return &prefetchCtx{}, nil
	})
	Register(ir.PrefetchAsyncPrefetch, func(x *Exec, c *ir.Call, a []any) (any, error) {
		if _, ok := a[0].(*view); !ok {
			return nil, fmt.Errorf("src: expected a tensor, got %s", describe(a[0]))
		}
		ctx, ok := a[1].(*prefetchCtx)
		if !ok {
			return nil, fmt.Errorf("ctx: expected a prefetch context, got %s", describe(a[1]))
		}
		return asyncEvent{ctx}, nil
	})
	Register(ir.PrefetchSession, func(x *Exec, c *ir.Call, a []any) (any, error) {
		ctx, ok := a[0].(*prefetchCtx)
		if !ok {
			return nil, fmt.Errorf("ctx: expected a prefetch context, got %s", describe(a[0]))
		}
		return asyncSession{ctx}, nil
	})
	Register(ir.PrefetchWait, func(x *Exec, c *ir.Call, a []any) (any, error) {
		evt, ok := a[0].(asyncEvent)
		if !ok {
			return nil, fmt.Errorf("event: expected a prefetch event, got %s", describe(a[0]))
		}
		s, ok := a[1].(asyncSession)
		if !ok {
			return nil, fmt.Errorf("session: expected a prefetch session, got %s", describe(a[1]))
		}
		if s.ctx != evt.ctx {
			return nil, fmt.Errorf("the event was started in another prefetch context than the session's: wait for it in pl.prefetch.session of the context passed to pl.prefetch.async_prefetch")
		}
		return true, nil
	})
}
