package pl

import (
	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
)

// Sels is src where the packed predicate mask (pl.Cmps's) has its bit set
// and scalar elsewhere; tmp is the scratch tile TSELS needs. The mask may
// be carried in a tile of any 8-, 16- or 32-bit integer type: its rows'
// bytes, little-endian, are the bits.
// PyPTO: pl.tile.sels(mask, src, tmp, scalar).
func Sels(mask, src, tmp, scalar any) Expr {
	return dsl.Call(ir.TileSels, []ir.Expr{arg(mask, "pl.Sels", "mask"), arg(src, "pl.Sels", "src"),
		arg(tmp, "pl.Sels", "tmp"), arg(scalar, "pl.Sels", "scalar")}, nil)
}

// Prelu is parametric ReLU of a tile: x where x > 0, else slope * x, slope
// a tile like x; tmp is TPRELU's UINT8 scratch. PyPTO: pl.tile.prelu(x,
// slope, tmp).
func Prelu(x, slope, tmp any) Expr {
	return dsl.Call(ir.TilePrelu, []ir.Expr{arg(x, "pl.Prelu", "tile"), arg(slope, "pl.Prelu", "slope"), arg(tmp, "pl.Prelu", "tmp")}, nil)
}

// Tri is a 0/1 tile of shape: 1 where col <= row + diagonal (upper: col >=
// row + diagonal). PyPTO: pl.tile.tri(diagonal, shape, dtype=dt,
// upper=upper).
func Tri(diagonal, shape any, dt DataType, upper bool) Expr {
	return dsl.Call(ir.TileTri, []ir.Expr{dsl.Int32Expr(diagonal, "pl.Tri diagonal"), dsl.TupleArg(shape, "pl.Tri shape")},
		kw("dtype", dt, "upper", upper))
}
