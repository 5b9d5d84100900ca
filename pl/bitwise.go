package pl

import (
	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
)

// Xor is the elementwise bitwise XOR, like pl.And on tiles. On tiles the
// NPU needs a scratch tile of a's type, tmp; on tensors pass nil (the lowering
// allocates it). PyPTO: pl.xor(a, b, tmp).
func Xor(a, b, tmp any) Expr {
	return bitwise("Xor", ir.TileXor, ir.TileXors, ir.TensorXor, ir.TensorXors, a, b, tmp)
}

// Shl shifts each element of a left by b (a tile, tensor or scalar), like
// And. PyPTO: pl.shl(a, b).
func Shl(a, b any) Expr {
	return bitwise("Shl", ir.TileShl, ir.TileShls, ir.TensorShl, ir.TensorShls, a, b, nil)
}

// Shr shifts each element of a right by b, arithmetically for signed
// elements, like pl.And on tiles. PyPTO: pl.shr(a, b).
func Shr(a, b any) Expr {
	return bitwise("Shr", ir.TileShr, ir.TileShrs, ir.TensorShr, ir.TensorShrs, a, b, nil)
}

// Lrelu is leaky ReLU of a floating-point tile: x where x > 0, else
// slope * x. PyPTO: pl.lrelu(t, slope).
func Lrelu(x, slope any) Expr {
	return dsl.Call(ir.TileLrelu, []ir.Expr{arg(x, "pl.Lrelu", "tile"), arg(slope, "pl.Lrelu", "slope")}, nil)
}

// bitwise picks the tile or tensor op, and its scalar-rhs form, by operand
// type; tmp is the tile forms' scratch tile (nil for ops without one).
func bitwise(name string, tile, tileScalar, tensor, tensorScalar *ir.OpDef, a, b, tmp any) Expr {
	l := arg(a, "pl."+name, "lhs")
	r := arg(b, "pl."+name, "rhs")
	var op *ir.OpDef
	switch {
	case isTile(l) && isScalar(r):
		op = tileScalar
	case isTile(l):
		op = tile
	case isTensor(l) && isScalar(r):
		op = tensorScalar
	case isTensor(l):
		op = tensor
	default:
		dsl.Raise(&ir.TypeError{Op: "pl." + name, Arg: "lhs", Expected: "a tile or tensor", Given: ir.Describe(l)})
	}
	args := []ir.Expr{l, r}
	if isTile(l) && len(op.Args) == 3 {
		if tmp == nil {
			dsl.Raise(&ir.TypeError{Op: "pl." + name, Arg: "tmp", Expected: "a scratch tile like lhs (the NPU's " + name + " needs one)", Given: "nil"})
		}
		args = append(args, arg(tmp, "pl."+name, "tmp"))
	}
	return dsl.Call(op, args, nil)
}
