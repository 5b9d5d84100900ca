package ir

import "fmt"

// system.syncall (upstream's sync_ops/sync.cpp, pto::SYNCALL): a barrier
// across the blocks of an Spmd launch. The hard form is the hardware's
// FFTS barrier (no operands); the soft form polls an arrival counter in a
// shared, zero-initialised INT32 GM workspace of at least 16 elements (one
// 64-byte cache line), with an optional participant count.

// syncallWorkspace is the soft form's minimum workspace, in INT32s.
const syncallWorkspace = 16

func init() {
	SystemSyncall = RegisterOp(&OpDef{
		Name: "system.syncall", Class: ClassWait, Category: "SyncOp",
		Doc: "A barrier across the blocks of the Spmd launch: no block goes on until every block has arrived " +
			"(mode \"hard\", the FFTS barrier, or \"soft\", polling gm_workspace).",
		Args:    []ArgSpec{{Name: "gm_workspace"}, {Name: "used_cores"}},
		MinArgs: 0, MaxArgs: 2,
		Kwargs: []KwargSpec{{Name: "core_type", Kind: KwString, Default: "mix"}, {Name: "mode", Kind: KwString, Default: "hard"}},
		Effects: func(args []Expr, kw Kwargs) []Effect {
			out := make([]Effect, len(args))
			if len(out) > 0 && kw.String("mode", "hard") == "soft" {
				out[0] = ReadWrite
			}
			return out
		},
		Deduce: func(c *DeduceCtx) (Type, error) {
			for k, choices := range map[string][]string{"core_type": {"aiv_only", "aic_only", "mix"}, "mode": {"hard", "soft"}} {
				if _, given := c.Kwargs.Get(k); given {
					if _, err := c.StrIn(k, choices); err != nil {
						return nil, err
					}
				}
			}
			mode := c.Kwargs.String("mode", "hard")
			if mode == "hard" {
				if c.N() > 0 {
					return nil, c.Fail(0, "no operands with mode=\"hard\" (the FFTS barrier; gm_workspace is the soft form's)", c.Args[0])
				}
				return Unknown, nil
			}
			if c.N() == 0 {
				return nil, c.FailCall("gm_workspace= with mode=\"soft\"", "no workspace")
			}
			ws, err := c.Tensor(0)
			if err != nil {
				return nil, err
			}
			if ws.DType != INT32 {
				return nil, c.Fail(0, "an INT32 workspace", ws)
			}
			if n, ok := NumElements(ws.Shape); ok && n < syncallWorkspace {
				return nil, c.Fail(0, fmt.Sprintf("a workspace of at least %d INT32s (one 64-byte cache line)", syncallWorkspace), ws)
			}
			if c.N() == 2 {
				if dt, err := c.Scalar(1); err != nil || !dt.IsInt() {
					return nil, c.Fail(1, "an integer participant count", c.Args[1])
				}
			}
			return Unknown, nil
		},
	})
}
