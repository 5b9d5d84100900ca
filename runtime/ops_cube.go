package runtime

import (
	"fmt"
	"slices"

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
	product := func(c *ir.Call, l, r, acc *Tile) (*Tile, error) {
		if len(l.Shape) != 2 || len(r.Shape) != 2 || l.Shape[1] != r.Shape[0] {
			return nil, fmt.Errorf("%s: lhs %v and rhs %v do not multiply", c.Name(), dimsText(l.Shape), dimsText(r.Shape))
		}
		m, k, n := l.Shape[0], l.Shape[1], r.Shape[1]
		dt := matmulDType(c, l.DType)
		var accVals []float64
		if acc != nil {
			accVals = acc.values()
		}
		out := tileOf(dt, []int{m, n}, matmulValues(l.values(), r.values(), accVals, m, k, n, dt))
		// The product's valid rectangle is the operands' valid M and N,
		// as the deducer types it (an accumulator's own, when it has one).
		if acc != nil && acc.Valid != nil {
			out.Valid = append([]int(nil), acc.Valid...)
		} else if l.Valid != nil || r.Valid != nil {
			if vm, vn := l.validShape()[0], r.validShape()[1]; vm != m || vn != n {
				out.Valid = []int{vm, vn}
			}
		}
		return out, nil
	}
	// A GEMV is a matmul whose lhs is one row; acc_phase changes nothing
	// computed.
	matmul := func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArgs(a, "lhs", "rhs")
		if err != nil {
			return nil, err
		}
		return product(c, t[0], t[1], nil)
	}
	Register(ir.TileMatmul, matmul)
	Register(ir.TileBatchMatmul, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArgs(a, "lhs", "rhs")
		if err != nil {
			return nil, err
		}
		dt := matmulDType(c, t[0].DType)
		vals, shape, err := batchedProduct(t[0].values(), t[0].Shape, t[1].values(), t[1].Shape, nil, dt)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name(), err)
		}
		return tileOf(dt, shape, vals), nil
	})
	Register(ir.TileBatchMatmulAcc, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArgs(a, "acc", "lhs", "rhs")
		if err != nil {
			return nil, err
		}
		acc := t[0]
		vals, shape, err := batchedProduct(t[1].values(), t[1].Shape, t[2].values(), t[2].Shape, acc.values(), acc.DType)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name(), err)
		}
		if !slices.Equal(shape, acc.Shape) {
			return nil, fmt.Errorf("%s: the accumulator %v does not hold lhs @ rhs %v", c.Name(), dimsText(acc.Shape), dimsText(shape))
		}
		return tileOf(acc.DType, shape, vals), nil
	})
	Register(ir.TileGemv, matmul)
	matmulBias := func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArgs(a, "lhs", "rhs", "bias")
		if err != nil {
			return nil, err
		}
		l, r, b := t[0], t[1], t[2]
		if len(r.Shape) != 2 || numel(b.Shape) != r.Shape[1] {
			return nil, fmt.Errorf("%s: the bias %v is not one row of the result's %d columns", c.Name(), dimsText(b.Shape), r.Shape[len(r.Shape)-1])
		}
		// The bias row starts every row's sum, as the accumulator would.
		m := l.Shape[0]
		bias := b.values()
		acc := make([]float64, 0, m*len(bias))
		for i := 0; i < m; i++ {
			acc = append(acc, bias...)
		}
		return product(c, l, r, tileOf(b.DType, []int{m, len(bias)}, acc))
	}
	Register(ir.TileMatmulBias, matmulBias)
	Register(ir.TileGemvBias, matmulBias)
	matmulAcc := func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArgs(a, "acc", "lhs", "rhs")
		if err != nil {
			return nil, err
		}
		acc, l, r := t[0], t[1], t[2]
		if numel(acc.Shape) != l.Shape[0]*r.Shape[len(r.Shape)-1] {
			return nil, fmt.Errorf("%s: the accumulator %v does not hold lhs @ rhs", c.Name(), dimsText(acc.Shape))
		}
		src := acc
		if len(a) > 3 && truthy(a[3]) {
			// init_cond holds: the product overwrites the accumulator.
			src = nil
		}
		out, err := product(c, l, r, src)
		if err == nil && acc.window != nil && out.DType == acc.window.parent.DType && len(out.Shape) == 2 && slices.Equal(out.Shape, acc.Shape) {
			// The MAD writes its destination in place: a window of a
			// larger Acc tile updates that tile.
			acc.window.writeBack(out)
		}
		return out, err
	}
	Register(ir.TileMatmulAcc, matmulAcc)
	Register(ir.TileGemvAcc, matmulAcc)
}

// matmulDType is the accumulator type of a matmul of operand type dt:
// out_dtype, else FP32 for floating-point operands and INT32 otherwise.
func matmulDType(c *ir.Call, dt ir.DataType) ir.DataType {
	if odt, ok := c.Kwargs.DType("out_dtype"); ok {
		return odt
	}
	if dt.IsFloat() {
		return ir.FP32
	}
	return ir.INT32
}

// matmulValues is lhs [m, k] @ rhs [k, n], row-major: each element summed
// in float64 (from acc's element when acc is given) and rounded once to dt.
// tile.matmul and tensor.matmul share it, so a kernel gives the same bits
// as written and compiled.
func matmulValues(l, r, acc []float64, m, k, n int, dt ir.DataType) []float64 {
	out := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			sum := 0.0
			if acc != nil {
				sum = acc[i*n+j]
			}
			for q := 0; q < k; q++ {
				sum += l[i*k+q] * r[q*n+j]
			}
			out[i*n+j] = round(sum, dt)
		}
	}
	return out
}

// tensor.matmul multiplies two 2-D tensors into a rank-private tensor of
// the call's type, as the cube path its conversion makes does;
// tensor.matmul_acc adds the product to its accumulator's values.
func init() {
	Register(ir.TensorMatmul, func(x *Exec, c *ir.Call, a []any) (any, error) {
		return tensorMatmul(x, c, a, nil)
	})
	Register(ir.TensorMatmulAcc, func(x *Exec, c *ir.Call, a []any) (any, error) {
		av, as, _, _, err := x.valuesOf(a[0], c, "acc")
		if err != nil {
			return nil, err
		}
		acc := &accIn{av, as}
		if len(a) > 3 && truthy(a[3]) {
			// init_cond holds: the product overwrites the accumulator.
			acc.vals = make([]float64, len(av))
		}
		return tensorMatmul(x, c, a[1:3], acc)
	})
}

// accIn is a tensor accumulator's values and shape.
type accIn struct {
	vals  []float64
	shape []int
}

// tensorMatmul is lhs a[0] @ rhs a[1] (transposed as the call's a_trans /
// b_trans say), from acc's values when acc is given.
func tensorMatmul(x *Exec, c *ir.Call, a []any, acc *accIn) (any, error) {
	lv, ls, ldt, _, err := x.valuesOf(a[0], c, "lhs")
	if err != nil {
		return nil, err
	}
	rv, rs, _, _, err := x.valuesOf(a[1], c, "rhs")
	if err != nil {
		return nil, err
	}
	if c.Kwargs.Bool("a_trans", false) {
		lv, ls = transposedPages(lv, ls)
	}
	if c.Kwargs.Bool("b_trans", false) {
		rv, rs = transposedPages(rv, rs)
	}
	dt := ldt
	if odt, ok := c.Kwargs.DType("out_dtype"); ok {
		dt = odt
	}
	var start []float64
	if acc != nil {
		start, dt = acc.vals, c.Type().(*ir.TensorType).DType
	}
	if !supported(dt) {
		return nil, fmt.Errorf("%s: the simulator does not support dtype %s", c.Name(), dt.Name())
	}
	vals, shape, err := batchedProduct(lv, ls, rv, rs, start, dt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name(), err)
	}
	if acc != nil && !slices.Equal(acc.shape, shape) {
		return nil, fmt.Errorf("%s: the accumulator %v does not hold lhs @ rhs %v", c.Name(), dimsText(acc.shape), dimsText(shape))
	}
	v := localView(dt, shape)
	encode(dt, vals, v.host)
	return v, nil
}

// batchedProduct is l @ r for l [..., M, K] and r [..., K, N], their batch
// dimensions broadcast, one matmulValues per batch page (from acc's page
// when acc is given): the values and the product's shape.
func batchedProduct(l []float64, ls []int, r []float64, rs []int, acc []float64, dt ir.DataType) ([]float64, []int, error) {
	nl, nr := len(ls), len(rs)
	if nl < 2 || nr < 2 || ls[nl-1] != rs[nr-2] {
		return nil, nil, fmt.Errorf("lhs %v and rhs %v do not multiply", dimsText(ls), dimsText(rs))
	}
	batch, ok := broadcastDims(ls[:nl-2], rs[:nr-2])
	if !ok {
		return nil, nil, fmt.Errorf("the batch dimensions of lhs %v and rhs %v do not broadcast", dimsText(ls), dimsText(rs))
	}
	m, k, n := ls[nl-2], ls[nl-1], rs[nr-1]
	shape := append(append([]int{}, batch...), m, n)
	if acc != nil && len(acc) != numel(shape) {
		return nil, nil, fmt.Errorf("the accumulator of %d elements does not hold lhs @ rhs %v", len(acc), dimsText(shape))
	}
	lst, rst := broadcastStrides(ls[:nl-2], batch), broadcastStrides(rs[:nr-2], batch)
	out := make([]float64, 0, numel(shape))
	idx := make([]int, len(batch))
	for page := 0; page < numel(batch); page++ {
		li, ri := 0, 0
		for d := range batch {
			li += idx[d] * lst[d]
			ri += idx[d] * rst[d]
		}
		var start []float64
		if acc != nil {
			start = acc[page*m*n : (page+1)*m*n]
		}
		out = append(out, matmulValues(l[li*m*k:(li+1)*m*k], r[ri*k*n:(ri+1)*k*n], start, m, k, n, dt)...)
		for d := len(batch) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < batch[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out, shape, nil
}

// transposedPages transposes the last two dimensions of every page of
// vals of shape dims.
func transposedPages(vals []float64, dims []int) ([]float64, []int) {
	n := len(dims)
	if n < 2 {
		return vals, dims // batchedProduct reports the rank
	}
	rows, cols := dims[n-2], dims[n-1]
	out := make([]float64, 0, len(vals))
	for p := 0; p < len(vals); p += rows * cols {
		out = append(out, transposed(vals[p:p+rows*cols], []int{rows, cols})...)
	}
	return out, append(append([]int{}, dims[:n-2]...), cols, rows)
}

// transposed is the [cols, rows] transpose of row-major vals [rows, cols].
func transposed(vals []float64, shape []int) []float64 {
	rows, cols := shape[0], shape[1]
	out := make([]float64, len(vals))
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			out[j*rows+i] = vals[i*cols+j]
		}
	}
	return out
}

// tile.assemble writes the source tile into a copy of the target at the
// offset: the result is the target after the write (in place on the
// device, where the two share storage).
func init() {
	Register(ir.TileAssemble, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "target")
		if err != nil {
			return nil, err
		}
		s, err := tileArg(a[1], "source")
		if err != nil {
			return nil, err
		}
		offs, err := intsArg(a[2], "offset")
		if err != nil {
			return nil, err
		}
		if len(t.Shape) != 2 || len(s.Shape) != 2 || len(offs) != 2 {
			return nil, fmt.Errorf("%s: expected 2-D tiles and a 2-D offset, given %v, %v and %v", c.Name(), dimsText(t.Shape), dimsText(s.Shape), dimsText(offs))
		}
		for d := 0; d < 2; d++ {
			if offs[d] < 0 || offs[d]+s.Shape[d] > t.Shape[d] {
				return nil, fmt.Errorf("%s: the source %v at offset %v does not fit in the target %v", c.Name(), dimsText(s.Shape), dimsText(offs), dimsText(t.Shape))
			}
		}
		out := append([]float64(nil), t.values()...)
		src := s.values()
		cols, scols := t.Shape[1], s.Shape[1]
		for i := 0; i < s.Shape[0]; i++ {
			copy(out[(offs[0]+i)*cols+offs[1]:(offs[0]+i)*cols+offs[1]+scols], src[i*scols:(i+1)*scols])
		}
		return tileOf(t.DType, t.Shape, out), nil
	})
}

// tileArgs is the op's first len(names) arguments as tiles, each named in
// its error.
func tileArgs(a []any, names ...string) ([]*Tile, error) {
	out := make([]*Tile, len(names))
	for i, n := range names {
		t, err := tileArg(a[i], n)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}
