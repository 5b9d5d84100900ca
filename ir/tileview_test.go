package ir

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The layout a tile has when no view is given depends on its memory and,
// for a static 2-D column, on its shape (upstream's GetImplicitTileLayout).
func TestImplicitTileView(t *testing.T) {
	n := NewVar("n", Scalar(INDEX), Span{})
	for _, c := range []struct {
		shape            []Expr
		mem              MemorySpace
		blayout, slayout TileLayout
		fractal          int
	}{
		{Dims(16, 64).Elems, MemVec, RowMajor, NoneBox, 512},
		{Dims(16, 1).Elems, MemVec, ColMajor, NoneBox, 512},
		{Dims(16, 1).Elems, MemNone, ColMajor, NoneBox, 512},
		{Dims(1, 1).Elems, MemVec, RowMajor, NoneBox, 512},     // one row is not a column
		{Dims(1, 64).Elems, MemVec, RowMajor, NoneBox, 512},    //
		{Dims(4, 16, 1).Elems, MemVec, RowMajor, NoneBox, 512}, // only 2-D shapes
		{[]Expr{n, Int(1)}, MemVec, RowMajor, NoneBox, 512},    // only static ones
		{Dims(16, 1).Elems, MemMat, ColMajor, RowMajor, 512},
		{Dims(1, 64).Elems, MemLeft, ColMajor, RowMajor, 512},
		{Dims(64, 64).Elems, MemRight, RowMajor, ColMajor, 512},
		{Dims(64, 1).Elems, MemRight, ColMajor, ColMajor, 512},
		{Dims(16, 16).Elems, MemAcc, ColMajor, RowMajor, 1024},
		{Dims(16, 2).Elems, MemLeftScale, RowMajor, RowMajor, 32},
		{Dims(2, 16).Elems, MemRightScale, ColMajor, ColMajor, 32},
	} {
		v := ImplicitTileView(c.shape, c.mem)
		name := DefaultFormat.Dims(c.shape) + " in " + c.mem.String()
		require.Equal(t, []TileLayout{c.blayout, c.slayout}, []TileLayout{v.BLayout, v.SLayout}, name)
		require.Equal(t, c.fractal, v.Fractal, name)
		require.Empty(t, v.ValidShape, name)
	}
}

// NewTileType keeps one encoding per meaning: a valid shape equal to the
// shape is dropped, and a view left saying only what the shape and memory
// imply is nil; anything else stays and prints.
func TestNewTileTypeCanonical(t *testing.T) {
	col := Dims(16, 1).Elems
	for _, c := range []struct {
		name string
		typ  *TileType
		want string
	}{
		{"implicit column", NewTileType(col, FP32, MemVec, &TileView{BLayout: ColMajor, SLayout: NoneBox, Fractal: 512}),
			"pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec]"},
		{"full valid shape", NewTileType(col, FP32, MemVec, &TileView{ValidShape: Dims(16, 1).Elems, BLayout: ColMajor, SLayout: NoneBox, Fractal: 512}),
			"pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec]"},
		{"row-major column", NewTileType(col, FP32, MemVec, &TileView{BLayout: RowMajor, SLayout: NoneBox, Fractal: 512}),
			"pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.row_major)]"},
		{"full valid shape, other layout", NewTileType(col, FP32, MemVec, &TileView{ValidShape: Dims(16, 1).Elems, BLayout: RowMajor, SLayout: NoneBox, Fractal: 512}),
			"pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.row_major)]"},
		{"partial column", NewTileType(col, FP32, MemVec, &TileView{ValidShape: Dims(9, 1).Elems, BLayout: ColMajor, SLayout: NoneBox, Fractal: 512}),
			"pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[9, 1])]"},
		{"a row", NewTileType(Dims(1, 16).Elems, FP32, MemVec, &TileView{BLayout: RowMajor, SLayout: NoneBox, Fractal: 512}),
			"pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec]"},
	} {
		require.Equal(t, c.want, c.typ.String(), c.name)
		if v := c.typ.View; v != nil && len(v.ValidShape) > 0 {
			require.False(t, SameDims(v.ValidShape, c.typ.Shape), "%s keeps a full valid shape", c.name)
		}
	}
	eff := NewTileType(col, FP32, MemVec, nil).EffectiveView()
	require.Equal(t, ColMajor, eff.BLayout, "the effective view of an implicit column")
}
