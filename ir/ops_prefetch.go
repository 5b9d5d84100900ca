package ir

import "fmt"

// The asynchronous GM->L2 prefetch ops (upstream's op/prefetch): a cache
// hint that warms L2 with a global-memory region while unrelated compute
// goes on, and changes no tensor value.
//
//	ctx = pl.prefetch.make_context()           # pl.PrefetchAsyncContext
//	evt = pl.prefetch.async_prefetch(x, ctx)   # pl.AsyncEvent
//	session = pl.prefetch.session(ctx)         # pl.AsyncSession
//	pl.prefetch.wait(evt, session)             # a BOOL done flag
//
// The context's SDMA workspace is the runtime's: the kernel receives it as
// a hidden argument (pto/ops_prefetch.go), never as an operand.

func init() {
	const cat = "PrefetchOp"
	PrefetchMakeContext = RegisterOp(&OpDef{
		Name: "prefetch.make_context", Class: ClassSetup, Category: cat,
		Doc: "A context for asynchronous prefetches (pl.PrefetchAsyncContext), backed by the runtime's SDMA " +
			"workspace; it carries the session prefetch.session projects.",
		Deduce: func(c *DeduceCtx) (Type, error) { return PrefetchCtxT, nil },
	})
	PrefetchAsyncPrefetch = RegisterOp(&OpDef{
		Name: "prefetch.async_prefetch", Class: ClassMemory, Category: cat,
		Doc: "Starts pulling a flat, contiguous GM tensor (every dimension but the last 1, all static) into L2 " +
			"and returns its completion event (pl.AsyncEvent); blocks nothing and changes no value.",
		Args: []ArgSpec{{Name: "src", Effect: Read}, {Name: "ctx"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if _, ok := VarOf(c.Args[0]); !ok {
				return nil, c.Fail(0, "a tensor variable (the prefetched region is the whole tensor)", Describe(c.Args[0]))
			}
			t, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			if len(t.Shape) == 0 {
				return nil, c.Fail(0, "a tensor of rank >= 1", c.Args[0])
			}
			dims, ok := StaticDims(t.Shape)
			if !ok {
				return nil, c.Fail(0, "a fully static shape (the prefetch's byte extent is fixed at compile time)", c.Args[0])
			}
			for i, d := range dims[:len(dims)-1] {
				if d != 1 {
					return nil, c.Fail(0, fmt.Sprintf("a flat contiguous logical 1D region (every dimension but the last 1; dimension %d is %d: reshape to [N] or [1, ..., N])", i, d), c.Args[0])
				}
			}
			if err := handle(c, 1, PrefetchCtxT, "prefetch.make_context"); err != nil {
				return nil, err
			}
			return AsyncEventT, nil
		},
	})
	PrefetchSession = RegisterOp(&OpDef{
		Name: "prefetch.session", Class: ClassSetup, Category: cat,
		Doc:  "The asynchronous session (pl.AsyncSession) of a prefetch context; emits no work.",
		Args: []ArgSpec{{Name: "ctx"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if err := handle(c, 0, PrefetchCtxT, "prefetch.make_context"); err != nil {
				return nil, err
			}
			return AsyncSessionT, nil
		},
	})
	PrefetchWait = RegisterOp(&OpDef{
		Name: "prefetch.wait", Class: ClassMemory, Category: cat,
		Doc:  "Waits until a prefetch event of the session completes (its region is in L2); a BOOL done flag.",
		Args: []ArgSpec{{Name: "event"}, {Name: "session"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if err := handle(c, 0, AsyncEventT, "prefetch.async_prefetch"); err != nil {
				return nil, err
			}
			if err := handle(c, 1, AsyncSessionT, "prefetch.session"); err != nil {
				return nil, err
			}
			return Scalar(BOOL), nil
		},
	})
}

// handle requires argument i to be the prefetch handle want, made by op from.
func handle(c *DeduceCtx, i int, want Type, from string) error {
	if c.Args[i].Type() != want {
		return c.Fail(i, fmt.Sprintf("a %s (output of pl.%s)", want, from), c.Args[i])
	}
	return nil
}
