package ir

// The host builtin collectives: LowerHostTensorCollectives turns a host
// pld.tensor.<coll> into one builtin.tensor.<coll> dispatch per device of
// its comm domain (passes.md §8). Each takes the collective's window
// arguments (all InOut) and forwards its scalar kwargs; device= rides in the
// call's attributes, as on any dispatch.

// This file's init runs after ops_dist.go's (Go initialises a package's
// files in name order), so the pld.tensor collectives it annotates exist.
func init() { registerHostBuiltins() }

// HostBuiltinOf names the builtin op a host collective call lowers to
// (allreduce picks by its mode: mesh → builtin.tensor.allreduce, ring →
// builtin.tensor.allreduce_ring). ok is false for an op that is not a host
// collective.
func HostBuiltinOf(c *Call) (op *OpDef, ok bool) {
	if c == nil || c.Op == nil {
		return nil, false
	}
	v, ok := c.Op.Facet(hostBuiltinFacet)
	if !ok {
		return nil, false
	}
	return v.(func(*Call) *OpDef)(c), true
}

const hostBuiltinFacet = "host_builtin"

func registerHostBuiltins() {
	type spec struct {
		coll   string
		args   []string
		kwargs []KwargSpec
		handle **OpDef
		hostOf *OpDef // the device collective a host call of which dispatches to this builtin
		device *OpDef // the device collective whose body each device runs
	}
	op := KwargSpec{Name: "op", Kind: KwInt, Required: true}
	dt := KwargSpec{Name: "dtype", Kind: KwDType, Required: true}
	specs := []spec{
		{"allreduce", []string{"target", "signal"}, []KwargSpec{op, dt, {Name: "core_num", Kind: KwInt, Required: true}}, &BuiltinTensorAllreduce, nil, PldTensorAllreduce},
		{"allreduce_ring", []string{"target", "signal"}, []KwargSpec{op, dt}, &BuiltinTensorAllreduceRing, nil, PldTensorAllreduce},
		{"barrier", []string{"signal"}, nil, &BuiltinTensorBarrier, PldTensorBarrier, PldTensorBarrier},
		{"broadcast", []string{"target", "signal"}, []KwargSpec{{Name: "root", Kind: KwInt, Required: true}, dt}, &BuiltinTensorBroadcast, PldTensorBroadcast, PldTensorBroadcast},
		{"reduce_scatter", []string{"target", "signal"}, []KwargSpec{op, dt}, &BuiltinTensorReduceScatter, PldTensorReduceScatter, PldTensorReduceScatter},
		{"allgather", []string{"input", "target", "signal"}, []KwargSpec{dt}, &BuiltinTensorAllgather, PldTensorAllgather, PldTensorAllgather},
		{"all_to_all", []string{"input", "target", "signal"}, []KwargSpec{dt}, &BuiltinTensorAllToAll, PldTensorAllToAll, PldTensorAllToAll},
		{"all_to_all_v", []string{"input", "target", "signal", "send_counts", "recv_counts"}, []KwargSpec{dt}, &BuiltinTensorAllToAllV, PldTensorAllToAllV, PldTensorAllToAllV},
	}
	// A host allreduce picks its builtin by mode.
	defer PldTensorAllreduce.SetFacet(hostBuiltinFacet, func(c *Call) *OpDef {
		if c.Kwargs.String("mode", "mesh") == "ring" {
			return BuiltinTensorAllreduceRing
		}
		return BuiltinTensorAllreduce
	})
	for _, s := range specs {
		args := make([]ArgSpec, len(s.args))
		for i, a := range s.args {
			args[i] = ArgSpec{Name: a, Effect: ReadWrite}
		}
		name := "builtin.tensor." + s.coll
		nargs, device := len(s.args), s.device
		sigArg := 0
		for i, a := range s.args {
			if a == "signal" {
				sigArg = i
			}
		}
		d := RegisterOp(&OpDef{
			Name: name, Category: distCategory, Class: ClassCollective, PrintName: name, Collective: device,
			Doc:    "Host builtin: one device's part of a host pld.tensor." + s.coll + " (made by LowerHostTensorCollectives; device= names the device).",
			Args:   args,
			Kwargs: s.kwargs,
			Deduce: func(c *DeduceCtx) (Type, error) {
				for i := 0; i < nargs; i++ {
					if _, err := c.Dist(i); err != nil {
						return nil, err
					}
				}
				if _, err := int32Signal(c, sigArg); err != nil {
					return nil, err
				}
				if c.Kwargs.Has("op") {
					if _, err := c.IntIn("op", 0, 3, "pld.ReduceOp.Sum, Max, Min, or Prod (0..3)"); err != nil {
						return nil, err
					}
				}
				return Unknown, nil
			},
		})
		*s.handle = d
		if s.hostOf != nil {
			s.hostOf.SetFacet(hostBuiltinFacet, func(*Call) *OpDef { return d })
		}
	}
}
