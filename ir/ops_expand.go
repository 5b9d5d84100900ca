package ir

import "fmt"

// tensor.expand_clone: a rank-3 tensor broadcast into a target of the same
// rank, as upstream's: equal dimensions, or a 1 expanded, in at most one
// dimension; the result is the target, written.
func init() {
	TensorExpandClone = RegisterOp(&OpDef{
		Name: "tensor.expand_clone", Class: ClassMemory, Category: "TensorOp", ResultAlias: "target", StoreUnit: "dma",
		Doc: "input broadcast into target's shape and written there (a 1 expanded in at most one of the three dimensions; " +
			"pl.expand_clone(input, target)); the result rebinds the target.",
		Args: []ArgSpec{{Name: "input"}, {Name: "target", Effect: Write}},
		Deduce: func(c *DeduceCtx) (Type, error) {
			in, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			tg, err := c.TensorLike(1)
			if err != nil {
				return nil, err
			}
			if len(in.Shape) != 3 {
				return nil, c.Fail(0, "a tensor of rank 3", c.Args[0])
			}
			if len(tg.Shape) != 3 {
				return nil, c.Fail(1, "a tensor of rank 3, as the input", c.Args[1])
			}
			if _, err := ExpandCloneDim(in.Shape, tg.Shape); err != nil {
				return nil, c.Fail(1, err.Error(), c.Args[1])
			}
			return &TensorType{Shape: tg.Shape, DType: PromoteDTypes(in.DType, tg.DType)}, nil
		},
	})
}

// ExpandCloneDim is the dimension an expand_clone from shape in to target
// broadcasts (-1: none): every other dimension equal, that one 1 in the
// input.
func ExpandCloneDim(in, target []Expr) (int, error) {
	dim := -1
	for i := range in {
		if SameDims(in[i:i+1], target[i:i+1]) {
			continue
		}
		if v, ok := ConstValue(in[i]); !ok || v != 1 {
			return -1, fmt.Errorf("a shape the input %s expands to, broadcasting only a dimension of 1 (dimension %d differs)",
				DefaultFormat.Dims(in), i)
		}
		if dim >= 0 {
			return -1, fmt.Errorf("a shape the input %s expands to in at most one dimension (dimensions %d and %d differ)",
				DefaultFormat.Dims(in), dim, i)
		}
		dim = i
	}
	return dim, nil
}
