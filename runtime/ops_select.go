package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Selection and mask tiles (ir/ops_select.go): tile.sels, tile.prelu and
// tile.tri.

func init() {
	Register(ir.TileSels, selsOp)
	Register(ir.TilePrelu, preluOp)
	Register(ir.TileTri, triOp)
}

// selsOp is src where the mask's bit is set (the layout tile.cmp packs),
// the scalar, in src's element type, elsewhere.
func selsOp(x *Exec, c *ir.Call, a []any) (any, error) {
	mask, mshape, mdt, _, err := x.valuesOf(a[0], c, "mask")
	if err != nil {
		return nil, err
	}
	src, shape, dt, st, err := x.valuesOf(a[1], c, "src")
	if err != nil {
		return nil, err
	}
	s, err := toFloat(a[3])
	if err != nil {
		return nil, fmt.Errorf("scalar: %w", err)
	}
	s = round(s, dt)
	cols, mcols := shape[len(shape)-1], mshape[len(mshape)-1]
	// The mask's bits are in the bytes of each row, whatever integer
	// type carries them (little-endian, as the NPU stores it).
	width := mdt.Bytes()
	if width < 1 {
		width = 1
	}
	maskByte := func(row, b int) (int, bool) {
		k := row*mcols + b/width
		if k >= len(mask) || b/width >= mcols {
			return 0, false
		}
		return int(uint64(int64(mask[k])) >> (8 * uint(b%width)) & 0xFF), true
	}
	out := make([]float64, len(src))
	for i := range out {
		row, j := i/cols, i%cols
		if by, ok := maskByte(row, j/8); ok && by&(1<<(j%8)) != 0 {
			out[i] = src[i]
		} else {
			out[i] = s
		}
	}
	return x.result(c, dt, shape, out, st), nil
}

// preluOp is x where x > 0, slope * x elsewhere, slope per element.
func preluOp(x *Exec, c *ir.Call, a []any) (any, error) {
	v, shape, dt, vt, err := x.valuesOf(a[0], c, "tile")
	if err != nil {
		return nil, err
	}
	slope, _, _, _, err := x.valuesOf(a[1], c, "slope")
	if err != nil {
		return nil, err
	}
	if len(slope) != len(v) {
		return nil, fmt.Errorf("tile and slope differ in size")
	}
	out := make([]float64, len(v))
	for i, e := range v {
		if e > 0 {
			out[i] = e
		} else {
			out[i] = round(slope[i]*e, dt)
		}
	}
	return x.result(c, dt, shape, out, vt), nil
}

// triOp writes 1 inside the triangle (col <= row + diagonal, or col >=
// row + diagonal when upper) and 0 outside it, over the valid shape only.
func triOp(x *Exec, c *ir.Call, a []any) (any, error) {
	d, err := toFloat(a[0])
	if err != nil {
		return nil, fmt.Errorf("diagonal: %w", err)
	}
	diag := int(d)
	shape, err := intsArg(a[1], "shape")
	if err != nil {
		return nil, err
	}
	valid := shape
	if len(a) > 2 {
		if valid, err = intsArg(a[2], "valid_shape"); err != nil {
			return nil, err
		}
	}
	dt := ir.INT32
	if v, ok := c.Kwargs.DType("dtype"); ok {
		dt = v
	}
	upper := c.Kwargs.Bool("upper", false)
	cols := shape[1]
	out := make([]float64, shape[0]*cols)
	for r := 0; r < valid[0]; r++ {
		for col := 0; col < valid[1]; col++ {
			if (!upper && col <= r+diag) || (upper && col >= r+diag) {
				out[r*cols+col] = 1
			}
		}
	}
	t := x.result(c, dt, shape, out, nil)
	if tile, ok := t.(*Tile); ok && len(a) > 2 {
		tile.Valid = valid
	}
	return t, nil
}
