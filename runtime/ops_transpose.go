package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// tile.transpose moves the data so that axes axis1 and axis2 swap (the
// scratch tile holds nothing the result depends on); tensor.transpose runs
// it through its tile form.
func init() {
	Register(ir.TileTranspose, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "input")
		if err != nil {
			return nil, err
		}
		n := len(t.Shape)
		var ax [2]int
		for i := range ax {
			v, err := toInt(a[1+i])
			if err != nil {
				return nil, fmt.Errorf("axis%d: %w", i+1, err)
			}
			if v < 0 {
				v += int64(n)
			}
			if v < 0 || v >= int64(n) {
				return nil, fmt.Errorf("%s: axis %d is outside the rank-%d tile", c.Name(), v, n)
			}
			ax[i] = int(v)
		}
		shape := append([]int(nil), t.Shape...)
		shape[ax[0]], shape[ax[1]] = shape[ax[1]], shape[ax[0]]
		src := rowMajor(t.Shape)
		out := make([]float64, numel(shape))
		pos := make([]int, n)
		for i := range out {
			r := i
			for d := n - 1; d >= 0; d-- {
				pos[d] = r % shape[d]
				r /= shape[d]
			}
			pos[ax[0]], pos[ax[1]] = pos[ax[1]], pos[ax[0]] // back to the input's coordinates
			off := 0
			for d := range pos {
				off += pos[d] * src[d]
			}
			out[i] = t.at(off)
		}
		return x.result(c, t.DType, shape, out, nil), nil
	})
}
