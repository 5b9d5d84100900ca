package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// full fills a new tile (a rank-private tensor for tensor.full) with value.
func init() {
	fill := func(x *Exec, c *ir.Call, a []any) (any, error) {
		shape, err := intsArg(a[0], "shape")
		if err != nil {
			return nil, err
		}
		v, err := toFloat(a[1])
		if err != nil {
			return nil, fmt.Errorf("value: %w", err)
		}
		dt, _ := c.Kwargs.DType("dtype")
		if !supported(dt) {
			return nil, fmt.Errorf("the simulator does not support dtype %s", dt.Name())
		}
		vals := make([]float64, numel(shape))
		for i := range vals {
			vals[i] = round(v, dt)
		}
		return x.result(c, dt, shape, vals, nil), nil
	}
	Register(ir.TileFull, fill)
	Register(ir.TensorFull, fill)
}

// The cube path: a move copies a tile into another memory; matmul sums
// lhs[i, k] * rhs[k, j] over k in float64 and rounds once to the
// accumulator type; matmul_acc adds that to the accumulator.
func init() {
	Register(ir.TileMove, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "tile")
		if err != nil {
			return nil, err
		}
		return x.result(c, t.DType, t.Shape, t.values(), t), nil
	})
	product := func(c *ir.Call, l, r *Tile, acc *Tile) (*Tile, error) {
		if len(l.Shape) != 2 || len(r.Shape) != 2 || l.Shape[1] != r.Shape[0] {
			return nil, fmt.Errorf("%s: lhs %v and rhs %v do not multiply", c.Name(), dimsText(l.Shape), dimsText(r.Shape))
		}
		m, k, n := l.Shape[0], l.Shape[1], r.Shape[1]
		dt := ir.INT32
		if l.DType.IsFloat() {
			dt = ir.FP32
		}
		if odt, ok := c.Kwargs.DType("out_dtype"); ok {
			dt = odt
		}
		out := make([]float64, m*n)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				sum := 0.0
				if acc != nil {
					sum = acc.at(i*n + j)
				}
				for q := 0; q < k; q++ {
					sum += l.at(i*k+q) * r.at(q*n+j)
				}
				out[i*n+j] = round(sum, dt)
			}
		}
		return tileOf(dt, []int{m, n}, out), nil
	}
	Register(ir.TileMatmul, func(x *Exec, c *ir.Call, a []any) (any, error) {
		l, err := tileArg(a[0], "lhs")
		if err != nil {
			return nil, err
		}
		r, err := tileArg(a[1], "rhs")
		if err != nil {
			return nil, err
		}
		return product(c, l, r, nil)
	})
	Register(ir.TileMatmulAcc, func(x *Exec, c *ir.Call, a []any) (any, error) {
		acc, err := tileArg(a[0], "acc")
		if err != nil {
			return nil, err
		}
		l, err := tileArg(a[1], "lhs")
		if err != nil {
			return nil, err
		}
		r, err := tileArg(a[2], "rhs")
		if err != nil {
			return nil, err
		}
		if numel(acc.Shape) != l.Shape[0]*r.Shape[len(r.Shape)-1] {
			return nil, fmt.Errorf("%s: the accumulator %v does not hold lhs @ rhs", c.Name(), dimsText(acc.Shape))
		}
		return product(c, l, r, acc)
	})
}
