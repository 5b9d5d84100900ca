package ir

import "fmt"

// Seed PR #1301: tile-level signal ops on a local or imported signal slot.
// They take string kwargs rather than the NotifyOp/WaitCmp enums.

var (
	commNotifyOps = []string{"atomic_add", "set"}
	commCmps      = []string{"eq", "ne", "gt", "ge", "lt", "le"}
)

// checkCommSignal is upstream's CheckCommSignalArgs: a plain INT32 tensor
// holding exactly one slot, and an INT32 scalar value.
func checkCommSignal(c *DeduceCtx) error {
	sig, ok := c.Args[0].Type().(*TensorType) // exact: a DistributedTensor is rejected
	if !ok {
		return c.Fail(0, "a pl.Tensor signal (TensorType)", c.Args[0])
	}
	if sig.DType != INT32 {
		return c.Fail(0, "an INT32 signal", sig.DType.String())
	}
	if len(sig.Shape) < 1 {
		return c.Fail(0, "a signal of rank >= 1", "rank-0 tensor")
	}
	for _, d := range sig.Shape {
		if v, ok := ConstValue(d); ok && v != 1 {
			return c.Fail(0, "a signal holding exactly one INT32 slot", fmt.Sprintf("static dim %d in %s", v, sig))
		}
	}
	st, ok := c.Args[1].Type().(*ScalarType)
	if !ok {
		return c.Fail(1, "a ScalarType value", c.Args[1])
	}
	if st.DType != INT32 {
		return c.Fail(1, "an INT32 scalar", st)
	}
	return nil
}

func init() {
	TileCommNotify = RegisterOp(&OpDef{
		Name: "tile.comm_notify", Class: ClassSignal, Category: "CrossCoreOp",
		Doc:    "Notify a (remote) signal slot: op='atomic_add' adds value, op='set' stores it (TNOTIFY).",
		Args:   []ArgSpec{{Name: "signal", Effect: ReadWrite, Signal: true}, {Name: "value", Int32: true}},
		Kwargs: []KwargSpec{{Name: "op", Kind: KwString, Required: true}},
		Effects: func(args []Expr, kw Kwargs) []Effect {
			out := make([]Effect, len(args))
			out[0] = ReadWrite
			if kw.String("op", "") == "set" {
				out[0] = Write
			}
			return out
		},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if err := checkCommSignal(c); err != nil {
				return nil, err
			}
			if _, err := c.StrIn("op", commNotifyOps); err != nil {
				return nil, err
			}
			return Unknown, nil
		},
	})
	TileCommWait = RegisterOp(&OpDef{
		Name: "tile.comm_wait", Class: ClassWait, Category: "CrossCoreOp",
		Doc:    "Block until the local signal slot compares true against cmp_value (TWAIT).",
		Args:   []ArgSpec{{Name: "signal", Signal: true}, {Name: "cmp_value", Int32: true}},
		Kwargs: []KwargSpec{{Name: "cmp", Kind: KwString, Required: true}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if err := checkCommSignal(c); err != nil {
				return nil, err
			}
			if _, err := c.StrIn("cmp", commCmps); err != nil {
				return nil, err
			}
			return Unknown, nil
		},
	})
	TileCommTest = RegisterOp(&OpDef{
		Name: "tile.comm_test", Class: ClassWait, Category: "CrossCoreOp",
		Doc:    "Test, without blocking, whether the local signal slot compares true against cmp_value (TTEST).",
		Args:   []ArgSpec{{Name: "signal", Signal: true}, {Name: "cmp_value", Int32: true}},
		Kwargs: []KwargSpec{{Name: "cmp", Kind: KwString, Required: true}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			if err := checkCommSignal(c); err != nil {
				return nil, err
			}
			if _, err := c.StrIn("cmp", commCmps); err != nil {
				return nil, err
			}
			return Scalar(BOOL), nil
		},
	})
}
