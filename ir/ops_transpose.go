package ir

import "fmt"

// Transposes (upstream's tile_ops/transform.cpp, tensor_ops/transform.cpp):
// two axes swapped, the data moved (unlike tile.transpose_view).

// transposeAxes reads arguments 1 and 2 as two different constant axes of
// a rank-n operand (negative ones counted from the end).
func transposeAxes(c *DeduceCtx, n int) (int, int, error) {
	var ax [2]int
	for i := range ax {
		given, ok := ConstValue(c.Args[1+i])
		if !ok {
			return 0, 0, c.Fail(1+i, "a constant axis", c.Args[1+i])
		}
		v := given
		if v < 0 {
			v += int64(n)
		}
		if v < 0 || v >= int64(n) {
			return 0, 0, c.Fail(1+i, fmt.Sprintf("an axis of the rank-%d input", n), fmt.Sprint(given))
		}
		ax[i] = int(v)
	}
	if ax[0] == ax[1] {
		return 0, 0, c.Fail(2, "an axis other than axis1", fmt.Sprint(ax[1]))
	}
	return ax[0], ax[1], nil
}

// swapped is shape with axes a and b exchanged.
func swapped(shape []Expr, a, b int) []Expr {
	out := append([]Expr(nil), shape...)
	out[a], out[b] = out[b], out[a]
	return out
}

func init() {
	TileTranspose = RegisterOp(&OpDef{
		Name: "tile.transpose", Class: ClassCompute, Category: "TileOp",
		Doc:     "The tile with axes axis1 and axis2 swapped, the data moved into a new tile; a fourth tile, shaped like the input, is the scratch pto.ttrans needs (TTRANS).",
		Args:    []ArgSpec{{Name: "input"}, {Name: "axis1"}, {Name: "axis2"}, {Name: "tmp"}},
		MinArgs: 3,
		MaxArgs: 4,
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.Tile(0)
			if err != nil {
				return nil, err
			}
			if len(t.Shape) < 2 {
				return nil, c.Fail(0, "a tile of at least 2 dimensions", t)
			}
			a, b, err := transposeAxes(c, len(t.Shape))
			if err != nil {
				return nil, err
			}
			if c.N() == 4 {
				tmp, err := c.Tile(3)
				if err != nil {
					return nil, err
				}
				if tmp.DType != t.DType || len(tmp.Shape) != len(t.Shape) {
					return nil, c.Fail(3, "a scratch tile of the input's type and rank", tmp)
				}
			}
			mem := t.Memory
			if mem == MemNone {
				mem = MemVec
			}
			return NewTileType(swapped(t.Shape, a, b), t.DType, mem, nil), nil
		},
	})
	TensorTranspose = RegisterOp(&OpDef{
		Name: "tensor.transpose", Class: ClassCompute, Category: "TensorOp", TileForm: TileTranspose,
		Doc:         "The tensor with axes axis1 and axis2 swapped (a tile.transpose with its scratch tile in a kernel).",
		Args:        []ArgSpec{{Name: "input"}, {Name: "axis1"}, {Name: "axis2"}},
		TileScratch: func(_ *Call, in *TileType) (string, []Expr, bool) { return "transpose_tmp", in.Shape, true },
		Deduce: func(c *DeduceCtx) (Type, error) {
			t, err := c.TensorLike(0)
			if err != nil {
				return nil, err
			}
			if len(t.Shape) < 2 {
				return nil, c.Fail(0, "a tensor of at least 2 dimensions", c.Args[0])
			}
			a, b, err := transposeAxes(c, len(t.Shape))
			if err != nil {
				return nil, err
			}
			return &TensorType{Shape: swapped(t.Shape, a, b), DType: t.DType}, nil
		},
	})
}
