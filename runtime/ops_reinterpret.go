package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// tile.reinterpret_view: the tile's bytes, as its element type lays them
// out, read back as the target type (the last dimension scaled by the
// byte ratio, or the call's shape of as many bytes).
func reinterpretOp(x *Exec, c *ir.Call, a []any) (any, error) {
	t, err := tileArg(a[0], "data")
	if err != nil {
		return nil, err
	}
	dt, _ := c.Kwargs.DType("dtype")
	if !supported(dt) || !supported(t.DType) {
		return nil, fmt.Errorf("%s: the simulator does not reinterpret %s as %s", c.Name(), t.DType.Name(), dt.Name())
	}
	buf := make([]byte, numel(t.Shape)*t.DType.Bytes())
	encode(t.DType, t.values(), buf)
	var shape []int
	if len(a) > 1 {
		if shape, err = intsArg(a[1], "shape"); err != nil {
			return nil, err
		}
	} else {
		shape = append([]int(nil), t.Shape...)
		shape[len(shape)-1] = shape[len(shape)-1] * t.DType.Bytes() / dt.Bytes()
	}
	if numel(shape)*dt.Bytes() != len(buf) {
		return nil, fmt.Errorf("%s: %v of %s does not hold the %d bytes of %v of %s", c.Name(), dimsText(shape), dt.Name(), len(buf), dimsText(t.Shape), t.DType.Name())
	}
	out := make([]float64, numel(shape))
	decode(dt, buf, out)
	return tileOf(dt, shape, out), nil
}

func init() { Register(ir.TileReinterpretView, reinterpretOp) }
