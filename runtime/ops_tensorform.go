package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// A tensor op with a tile form and no semantics of its own runs its tile
// form: its tensor operands read into tiles and a tile result written out
// as a rank-private tensor. So a tensor op means, as written, exactly what
// ConvertTensorToTileOps makes of it. The scratch tile the lowering adds
// (ir.OpDef.TileScratch) holds nothing the result depends on, and the tile
// semantics never read it, so none is made here.

func init() {
	for _, d := range ir.Ops() {
		if d.TileForm == nil {
			continue
		}
		if _, ok := d.Facet(FacetKey); !ok {
			// An init registering the op's own semantics later replaces this.
			Register(d, viaTileForm(d))
		}
	}
	Register(ir.TileCi, ciOp)
}

func viaTileForm(d *ir.OpDef) OpFunc {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		f, ok := d.TileForm.Facet(FacetKey)
		if !ok {
			return nil, fmt.Errorf("%s: the simulator has no semantics for its tile form %s", d.Name, d.TileForm.Name)
		}
		args := make([]any, len(a))
		for i, v := range a {
			args[i] = v
			if vw, ok := v.(*view); ok {
				vals, shape, dt, _, err := x.valuesOf(vw, c, d.ArgName(i))
				if err != nil {
					return nil, err
				}
				t := tileOf(dt, shape, vals)
				if len(vw.valid) == len(shape) {
					t = t.withValid(vw.valid)
				}
				args[i] = t
			}
		}
		r, err := f.(OpFunc)(x, c, args)
		if t, ok := r.(*Tile); ok && err == nil {
			v := localView(t.DType, t.Shape)
			encode(t.DType, t.values(), v.host)
			if t.Valid != nil {
				v.valid = append([]int(nil), t.Valid...)
			}
			return v, nil
		}
		return r, err
	}
}

// ciOp is tile.ci: start, start+1, ... along the row (start, start-1, ...
// descending), in the destination's integer type.
func ciOp(x *Exec, c *ir.Call, a []any) (any, error) {
	start, err := toInt(a[0])
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	shape, err := intsArg(a[1], "shape")
	if err != nil {
		return nil, err
	}
	dt := ir.INT32
	if v, ok := c.Kwargs.DType("dtype"); ok {
		dt = v
	}
	step := int64(1)
	if c.Kwargs.Bool("descending", false) {
		step = -1
	}
	cols := shape[len(shape)-1]
	out := make([]float64, numel(shape))
	for i := range out {
		out[i] = round(float64(start+int64(i%cols)*step), dt)
	}
	return x.result(c, dt, shape, out, nil), nil
}
