package runtime

import (
	"fmt"
	"math"

	"github.com/ptorepl/ptorepl/ir"
)

// Row reductions and row broadcasts: the last axis of a tile folded into
// one column, or a column combined with every element of its row. Only
// the valid region takes part; values are computed in float64 and rounded
// once to the element type.

// reduction is a fold: its start value and step, shared by the row and
// column reductions.
type reduction struct {
	init float64
	fold func(acc, v float64) float64
	// better, for an index fold (argmax, argmin), tells whether v beats the
	// best so far; the fold then yields the INT32 position of the first best.
	better func(v, best float64) bool
}

var (
	sumFold  = reduction{0, func(a, v float64) float64 { return a + v }, nil}
	maxFold  = reduction{math.Inf(-1), math.Max, nil}
	minFold  = reduction{math.Inf(1), math.Min, nil}
	prodFold = reduction{1, func(a, v float64) float64 { return a * v }, nil}
	argmax   = reduction{better: func(v, best float64) bool { return v > best }}
	argmin   = reduction{better: func(v, best float64) bool { return v < best }}
)

func init() {
	for op, k := range map[*ir.OpDef]reduction{
		ir.TileRowSum: sumFold, ir.TileRowMax: maxFold, ir.TileRowMin: minFold, ir.TileRowProd: prodFold,
		ir.TileRowArgmax: argmax, ir.TileRowArgmin: argmin,
	} {
		Register(op, reduceOp(k, false))
	}
	// The row broadcasts (a column along each row) and the column ones (a
	// row down each column) combine elements the same ways.
	expdif := func(a, b float64) float64 { return math.Exp(a - b) }
	for _, k := range []struct {
		row, col *ir.OpDef
		fn       func(a, b float64) float64
	}{
		{ir.TileRowExpandAdd, ir.TileColExpandAdd, elementwise["add"]},
		{ir.TileRowExpandSub, ir.TileColExpandSub, elementwise["sub"]},
		{ir.TileRowExpandMul, ir.TileColExpandMul, elementwise["mul"]},
		{ir.TileRowExpandDiv, ir.TileColExpandDiv, elementwise["div"]},
		{ir.TileRowExpandMax, ir.TileColExpandMax, math.Max},
		{ir.TileRowExpandMin, ir.TileColExpandMin, math.Min},
		{ir.TileRowExpandExpdif, ir.TileColExpandExpdif, expdif},
	} {
		Register(k.row, broadcastOp(k.fn, true))
		Register(k.col, broadcastOp(k.fn, false))
	}
	// col_expand repeats the row into the target's shape.
	Register(ir.TileColExpand, broadcastOp(func(_, b float64) float64 { return b }, false))
	// row_expand repeats the column into the target's shape.
	Register(ir.TileRowExpand, broadcastOp(func(_, b float64) float64 { return b }, true))
}

func init() {
	// A reshape moves no data: the same elements, in order, in another shape.
	Register(ir.TileReshape, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "tile")
		if err != nil {
			return nil, err
		}
		shape, err := intsArg(a[1], "shape")
		if err != nil {
			return nil, err
		}
		if numel(shape) != numel(t.Shape) {
			return nil, fmt.Errorf("tile.reshape: %v does not hold the %d elements of %v", dimsText(shape), numel(t.Shape), dimsText(t.Shape))
		}
		return tileOf(t.DType, shape, t.values()), nil
	})
}

// inside reports whether row r (a flat index over dims) lies in the valid
// region valid of dims.
func inside(r int, dims, valid []int) bool {
	for d := len(dims) - 1; d >= 0; d-- {
		if r%dims[d] >= valid[d] {
			return false
		}
		r /= dims[d]
	}
	return true
}

// concat lays src1's columns after src0's, row by row.
func init() {
	Register(ir.TileConcat, func(x *Exec, c *ir.Call, a []any) (any, error) {
		l, err := tileArg(a[0], "src0")
		if err != nil {
			return nil, err
		}
		r, err := tileArg(a[1], "src1")
		if err != nil {
			return nil, err
		}
		if len(l.Shape) != 2 || len(r.Shape) != 2 || l.Shape[0] != r.Shape[0] {
			return nil, fmt.Errorf("tile.concat: %v and %v do not share their rows", dimsText(l.Shape), dimsText(r.Shape))
		}
		rows, c0, c1 := l.Shape[0], l.Shape[1], r.Shape[1]
		out := make([]float64, 0, rows*(c0+c1))
		lv, rv := l.values(), r.values()
		for i := 0; i < rows; i++ {
			out = append(append(out, lv[i*c0:(i+1)*c0]...), rv[i*c1:(i+1)*c1]...)
		}
		return tileOf(l.DType, []int{rows, c0 + c1}, out), nil
	})
}

// tile.transpose_view reads the same bytes as the transposed tile; the
// simulator holds tiles row-major, so it transposes the last two dims.
func init() {
	Register(ir.TileTransposeView, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "input")
		if err != nil {
			return nil, err
		}
		n := len(t.Shape)
		if n < 2 {
			return nil, fmt.Errorf("%s: a tile of at least 2 dimensions, given %v", c.Name(), dimsText(t.Shape))
		}
		rows, cols := t.Shape[n-2], t.Shape[n-1]
		in := t.values()
		out := make([]float64, len(in))
		for b := 0; b < len(in)/(rows*cols); b++ {
			base := b * rows * cols
			for i := 0; i < rows; i++ {
				for j := 0; j < cols; j++ {
					out[base+j*rows+i] = in[base+i*cols+j]
				}
			}
		}
		shape := append([]int(nil), t.Shape...)
		shape[n-2], shape[n-1] = cols, rows
		r := tileOf(t.DType, shape, out)
		if t.Valid != nil {
			r.Valid = append([]int(nil), t.Valid...)
			r.Valid[n-2], r.Valid[n-1] = t.Valid[n-1], t.Valid[n-2]
		}
		return r, nil
	})
}

// Column reductions fold the first axis over its valid rows into one row.
func init() {
	for op, k := range map[*ir.OpDef]reduction{
		ir.TileColMax: maxFold, ir.TileColMin: minFold, ir.TileColProd: prodFold,
		ir.TileColArgmax: argmax, ir.TileColArgmin: argmin,
	} {
		Register(op, reduceOp(k, true))
	}
}

// tile.col_sum adds the valid rows in the tile's own precision, in the
// order TCOLSUM does: with a scratch tile, a binary tree (rows paired
// 0+1, 2+3, ..., an odd last row added into row 0, then the halves again);
// without one, row by row. Each addition rounds, which for FP16 is far
// from one rounding of the exact sum.
func init() {
	Register(ir.TileColSum, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "tile")
		if err != nil {
			return nil, err
		}
		if len(t.Shape) != 2 {
			return nil, fmt.Errorf("%s needs a 2-D tile, got %v", c.Name(), dimsText(t.Shape))
		}
		valid := t.validShape()
		rows, cols := valid[0], t.Shape[1]
		buf := make([]float64, rows*cols)
		for i := 0; i < rows; i++ {
			for j := 0; j < valid[1]; j++ {
				buf[i*cols+j] = t.at(i*cols + j)
			}
		}
		add := func(dst, src int) {
			for j := 0; j < valid[1]; j++ {
				buf[dst*cols+j] = round(buf[dst*cols+j]+buf[src*cols+j], t.DType)
			}
		}
		if len(a) > 1 && a[1] != nil {
			for n := rows; n > 1; n /= 2 {
				half := n / 2
				for i := 0; i < half; i++ {
					for j := 0; j < valid[1]; j++ {
						buf[i*cols+j] = round(buf[2*i*cols+j]+buf[(2*i+1)*cols+j], t.DType)
					}
				}
				if n%2 == 1 {
					add(0, n-1)
				}
			}
		} else {
			for i := 1; i < rows; i++ {
				add(0, i)
			}
		}
		out := make([]float64, cols)
		if rows > 0 {
			copy(out, buf[:cols])
		}
		res := tileOf(t.DType, []int{1, cols}, out)
		if t.Valid != nil {
			res.Valid = []int{1, valid[1]}
		}
		return res, nil
	})
}

// reduceOp folds a tile's last axis (a row reduction, keepdim [..., 1]) or,
// for a column reduction, its first axis ([1, ...]). Only the valid region
// takes part: every valid output element folds the valid extent of the
// reduced axis, in float64, rounded once; the others stay zero.
func reduceOp(k reduction, first bool) OpFunc {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "tile")
		if err != nil {
			return nil, err
		}
		n := len(t.Shape)
		if n < 2 {
			return nil, fmt.Errorf("%s needs a tile of at least 2 dimensions, got %v", c.Name(), dimsText(t.Shape))
		}
		valid := t.validShape()
		// kept are the dims the output keeps; the reduced axis is folded.
		kept, keptValid, axis := t.Shape[:n-1], valid[:n-1], n-1
		outShape := append(append([]int(nil), kept...), 1)
		if first {
			kept, keptValid, axis = t.Shape[1:], valid[1:], 0
			outShape = append([]int{1}, kept...)
		}
		count := numel(kept)
		out := make([]float64, count)
		for o := 0; o < count; o++ {
			if !inside(o, kept, keptValid) {
				continue
			}
			base, step := o*t.Shape[n-1], 1 // along a row
			if first {
				base, step = o, count // down a column
			}
			if k.better != nil {
				at, best := 0, 0.0
				for i := 0; i < valid[axis]; i++ {
					if v := t.at(base + i*step); i == 0 || k.better(v, best) {
						at, best = i, v
					}
				}
				out[o] = float64(at)
				continue
			}
			acc := k.init
			for i := 0; i < valid[axis]; i++ {
				acc = k.fold(acc, t.at(base+i*step))
			}
			out[o] = round(acc, t.DType)
		}
		dt := t.DType
		if k.better != nil {
			dt = ir.INT32
		}
		res := tileOf(dt, outShape, out)
		if t.Valid != nil {
			res.Valid = append(append([]int(nil), keptValid...), 1)
			if first {
				res.Valid = append([]int{1}, keptValid...)
			}
		}
		return res, nil
	}
}

// broadcastOp combines a tile with a vector broadcast across it: a column
// [rows, 1] along each row (perRow), or a row [1, cols] down each column.
func broadcastOp(fn func(a, b float64) float64, perRow bool) OpFunc {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], c.Op.Args[0].Name)
		if err != nil {
			return nil, err
		}
		vec := c.Op.Args[1].Name
		v, err := tileArg(a[1], vec)
		if err != nil {
			return nil, err
		}
		n := len(t.Shape)
		// A row's value may come packed: a block of w elements per row
		// (row_expand_add's 32-byte carrier), repeated across the columns.
		w := 1
		if perRow && len(v.Shape) >= 2 {
			w = v.Shape[len(v.Shape)-1]
		}
		if perRow && (n < 2 || w < 1 || numel(v.Shape) != numel(t.Shape[:n-1])*w) {
			return nil, fmt.Errorf("%s: %s %v is not one column of the tile %v", c.Name(), vec, dimsText(v.Shape), dimsText(t.Shape))
		}
		if !perRow && (n < 2 || numel(v.Shape) != t.Shape[n-1]) {
			return nil, fmt.Errorf("%s: %s %v is not one row of the tile %v", c.Name(), vec, dimsText(v.Shape), dimsText(t.Shape))
		}
		cols := t.Shape[n-1]
		out := make([]float64, numel(t.Shape))
		for i := range out {
			at := i % cols
			if perRow {
				at = i/cols*w + i%cols%w
			}
			out[i] = round(fn(t.at(i), v.at(at)), t.DType)
		}
		return x.result(c, t.DType, t.Shape, out, t), nil
	}
}
