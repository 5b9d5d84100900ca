package ir

import "fmt"

// Explicit cross-core synchronisation (upstream's sync_ops/cross_core.cpp):
// system.set_ffts hands the FFTS unit its INT64 workspace; system.sync_set
// raises an event on a pipe (ffts_mode 2: the event fires once both vector
// lanes have raised it) and system.sync_wait blocks a pipe until it fires.
// The event id is a constant (the event_id kwarg, 0..13) or a runtime
// INDEX operand.

const (
	fftsWorkspace = 256 // INT64s the FFTS workspace holds at least
	maxEventID    = 13  // the last event id a user may take
)

func crossCoreSyncDeduce(set bool) func(c *DeduceCtx) (Type, error) {
	return func(c *DeduceCtx) (Type, error) {
		_, static := c.Kwargs.Get("event_id")
		if static == (c.N() == 1) {
			return nil, c.FailCall("exactly one event id: a constant (event_id=, 0.."+fmt.Sprint(maxEventID)+") or a runtime INDEX operand", fmt.Sprintf("%d operands and event_id %v", c.N(), static))
		}
		if static {
			if id := c.KwInt("event_id", -1); id < 0 || id > maxEventID {
				return nil, c.FailKwarg("event_id", fmt.Sprintf("an event id in 0..%d", maxEventID), id)
			}
		} else if dt, err := c.Scalar(0); err != nil || dt != INDEX {
			return nil, c.Fail(0, "an INDEX event id", c.Args[0])
		}
		if _, ok := c.Kwargs.Get("pipe"); !ok {
			return nil, c.FailKwarg("pipe", "a pl.PipeType (required)", "nothing")
		}
		if set {
			if m := c.KwInt("ffts_mode", 0); m < 0 || m > 2 {
				return nil, c.FailKwarg("ffts_mode", "0, 1 or 2", m)
			}
		}
		if _, given := c.Kwargs.Get("core_type"); given {
			if _, err := c.StrIn("core_type", []string{"aic", "aiv"}); err != nil {
				return nil, err
			}
		}
		return Unknown, nil
	}
}

func init() {
	SystemSetFFTS = RegisterOp(&OpDef{
		Name: "system.set_ffts", Class: ClassSetup, Category: "CrossCoreOp",
		Doc:  "Hand the FFTS unit its workspace, a 1-D INT64 tensor of at least 256 elements, for explicit cross-core events.",
		Args: []ArgSpec{{Name: "workspace"}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tensor(0)
			if err != nil {
				return nil, err
			}
			n, static := ConstValue(t.Shape[0])
			if t.DType != INT64 || len(t.Shape) != 1 || !static || n < fftsWorkspace {
				return nil, c.Fail(0, fmt.Sprintf("a 1-D INT64 workspace of a static length of at least %d", fftsWorkspace), t)
			}
			return Unknown, nil
		},
	})
	SystemSyncSet = RegisterOp(&OpDef{
		Name: "system.sync_set", Class: ClassSignal, Category: "CrossCoreOp", ConstArgKwarg: "event_id",
		Doc:     "Raise a cross-core event from a pipe (ffts_mode 2: it fires once both vector lanes have raised it).",
		Args:    []ArgSpec{{Name: "event_id_dyn"}},
		MinArgs: 0, MaxArgs: 1,
		Kwargs: []KwargSpec{{Name: "pipe", Kind: KwPipe}, {Name: "event_id", Kind: KwInt}, {Name: "ffts_mode", Kind: KwInt},
			{Name: "core_type", Kind: KwString}},
		Deduce: crossCoreSyncDeduce(true),
	})
	SystemSyncWait = RegisterOp(&OpDef{
		Name: "system.sync_wait", Class: ClassWait, Category: "CrossCoreOp", ConstArgKwarg: "event_id",
		Doc:     "Block a pipe until a cross-core event fires.",
		Args:    []ArgSpec{{Name: "event_id_dyn"}},
		MinArgs: 0, MaxArgs: 1,
		Kwargs: []KwargSpec{{Name: "pipe", Kind: KwPipe}, {Name: "event_id", Kind: KwInt}, {Name: "core_type", Kind: KwString}},
		Deduce: crossCoreSyncDeduce(false),
	})
}
