package runtime

import (
	"github.com/ptorepl/ptorepl/ir"
)

// Compiled kernels: per-call-site specialisations of ops, attached under
// KernelFacetKey next to the generic semantics. Each works on whole rows
// with typed loops and falls back to the generic op for the shapes it does
// not cover, so both executors give the same bits.

func init() {
	RegisterKernel(ir.TileFillpad, fillpadKernel(false))
	RegisterKernel(ir.TileFillpadInplace, fillpadKernel(true))
	RegisterKernel(ir.TileCreate, func(c *ir.Call) OpFunc {
		dt, _ := c.Kwargs.DType("dtype")
		if dt != ir.FP32 {
			return nil
		}
		generic, _ := c.Op.Facet(FacetKey)
		// Zeroed like the generic op, but from the task's memory (or the
		// tile's planned address on the on-chip buffer).
		return func(x *Exec, c *ir.Call, a []any) (any, error) {
			shape, err := intsArg(a[0], "shape")
			if err != nil {
				return generic.(OpFunc)(x, c, a)
			}
			return x.newTile(dt, shape, true), nil
		}
	})
}

// fillpadKernel fills a 2-D tile's padding row by row: the tail of each
// valid row, then every row below the valid region.
func fillpadKernel(inplace bool) KernelBuilder {
	return func(c *ir.Call) OpFunc {
		generic := fillpadOp(inplace)
		padKind, hasPad := c.Kwargs.Get("pad_value")
		return func(x *Exec, c *ir.Call, a []any) (any, error) {
			t, ok := a[0].(*Tile)
			if !ok || len(t.Shape) != 2 {
				return generic(x, c, a)
			}
			rows, cols := t.Shape[0], t.Shape[1]
			vr, vc := rows, cols
			if t.Valid != nil {
				if len(t.Valid) != 2 || t.Valid[0] > rows || t.Valid[1] > cols || t.Valid[0] < 0 || t.Valid[1] < 0 {
					return generic(x, c, a)
				}
				vr, vc = t.Valid[0], t.Valid[1]
			}
			pad := 0.0
			if hasPad {
				pad = padValue(t.DType, padKind)
			}
			out := t
			if !inplace {
				out = &Tile{DType: t.DType, Shape: t.Shape}
				if t.DType == ir.FP32 {
					out.f32 = x.allocF32(len(t.f32), false)
					copy(out.f32, t.f32)
				} else {
					out.Data = append([]float64(nil), t.Data...)
				}
			}
			out.Valid = nil // in place, the input tile loses its valid region too, as in the generic op
			if out.DType == ir.FP32 {
				padRows(out.f32, rows, cols, vr, vc, float32(pad))
			} else {
				padRows(out.Data, rows, cols, vr, vc, pad)
			}
			return out, nil
		}
	}
}

// padRows sets every element of a rows×cols row-major block outside its
// top-left vr×vc region to pad.
func padRows[T float32 | float64](d []T, rows, cols, vr, vc int, pad T) {
	if vc < cols {
		for r := 0; r < vr; r++ {
			fillRun(d[r*cols+vc:(r+1)*cols], pad)
		}
	}
	fillRun(d[vr*cols:rows*cols], pad)
}

func fillRun[T float32 | float64](d []T, v T) {
	if v == 0 {
		clear(d)
		return
	}
	for i := range d {
		d[i] = v
	}
}
