package runtime

import (
	"fmt"
	"math"
	"slices"

	"github.com/ptorepl/ptorepl/ir"
)

// Semantics of the tile and tensor compute ops. Every result is rounded to
// its dtype, so FP16 arithmetic rounds like FP16.

func init() {
	Register(ir.TileLoad, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := viewArg(a[0], "tensor")
		if err != nil {
			return nil, err
		}
		offs, err := x.ints(a[1], "offsets")
		if err != nil {
			return nil, err
		}
		shape, err := x.ints(a[2], "shapes")
		if err != nil {
			return nil, err
		}
		var valid []int
		if len(a) > 3 {
			if valid, err = x.ints(a[3], "valid_shape"); err != nil {
				return nil, err
			}
		}
		return x.loadTile(t, x.local(), offs, shape, valid, c)
	})
	Register(ir.TileStore, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "tile")
		if err != nil {
			return nil, err
		}
		offs, err := x.ints(a[1], "offsets")
		if err != nil {
			return nil, err
		}
		out, err := viewArg(a[2], "output_tensor")
		if err != nil {
			return nil, err
		}
		if len(a) > 3 && a[3] != nil {
			shapes, err := x.ints(a[3], "shapes")
			if err != nil {
				return nil, err
			}
			if len(shapes) == len(t.Shape) {
				// Store at most the given extent of the valid region.
				ext := x.keepInts(t.validShape())
				for i := range ext {
					ext[i] = min(ext[i], shapes[i])
				}
				t = x.withValid(t, ext)
			}
		}
		// The result is the output tensor (the rebind idiom).
		return out, x.storeTile(t, out, x.local(), offs, c.Kwargs.Int("atomic", 0) != 0, c)
	})
	Register(ir.TileCreate, func(x *Exec, c *ir.Call, a []any) (any, error) {
		shape, err := intsArg(a[0], "shape")
		if err != nil {
			return nil, err
		}
		dt, _ := c.Kwargs.DType("dtype")
		if !supported(dt) {
			return nil, fmt.Errorf("the simulator does not support dtype %s", dt.Name())
		}
		return newTile(dt, shape), nil // uninitialised on the device; zero here
	})
	Register(ir.TensorCreate, createTensor)
	Register(ir.TensorRead, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := viewArg(a[0], "tensor")
		if err != nil {
			return nil, err
		}
		idx, err := intsArg(a[1], "indices")
		if err != nil {
			return nil, err
		}
		one, err := t.sub(idx, nil)
		if err != nil {
			return nil, err
		}
		vals, err := x.readView(one, x.local(), c)
		if err != nil {
			return nil, err
		}
		return scalarOf(vals[0], t.dt), nil
	})
	Register(ir.TensorWrite, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := viewArg(a[0], "tensor")
		if err != nil {
			return nil, err
		}
		idx, err := intsArg(a[1], "indices")
		if err != nil {
			return nil, err
		}
		v, err := toFloat(a[2])
		if err != nil {
			return nil, fmt.Errorf("value: %w", err)
		}
		one, err := t.sub(idx, nil)
		if err != nil {
			return nil, err
		}
		return t, x.writeView(one, x.local(), []float64{round(v, t.dt)}, false, c)
	})
	// tensor.assemble copies the source into the target region at offset
	// (or adds it, atomic=Add), converted to the target's element type; the
	// result is the target (the rebind idiom).
	Register(ir.TensorExpandClone, expandClone)
	Register(ir.TensorAssemble, func(x *Exec, c *ir.Call, a []any) (any, error) {
		dst, err := viewArg(a[0], "target")
		if err != nil {
			return nil, err
		}
		src, err := viewArg(a[1], "source")
		if err != nil {
			return nil, err
		}
		offs, err := intsArg(a[2], "offset")
		if err != nil {
			return nil, err
		}
		// Only the source's valid region is written (a padded source
		// narrowed by tensor.set_validshape).
		if len(src.valid) == len(src.shape) {
			if src, err = src.sub(make([]int, len(src.shape)), src.valid); err != nil {
				return nil, err
			}
		}
		region, err := dst.sub(offs, src.shape)
		if err != nil {
			return nil, err
		}
		// Another element type converts first, as the kernel's store of a
		// matmul result does (the fixpipe) or its cast of a Vec one.
		return dst, x.convertView(region, x.local(), src, x.local(), c.Kwargs.Int("atomic", 0) != 0, c)
	})
	Register(ir.TileRead, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "tile")
		if err != nil {
			return nil, err
		}
		k, err := tileIndex(t, a[1])
		if err != nil {
			return nil, err
		}
		return scalarOf(t.at(k), t.DType), nil
	})
	Register(ir.TileWrite, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "tile")
		if err != nil {
			return nil, err
		}
		k, err := tileIndex(t, a[1])
		if err != nil {
			return nil, err
		}
		v, err := toFloat(a[2])
		if err != nil {
			return nil, fmt.Errorf("value: %w", err)
		}
		t.set(k, v)
		return t, nil
	})
	for op, fn := range unaryKernels {
		Register(op, unaryOp(fn))
	}
	Register(ir.TileCast, castOp)
	Register(ir.TensorCast, castOp)
	for op, name := range elementwiseKernels {
		Register(op, elementwiseOp(name, elementwise[name]))
	}
	Register(ir.TileFillpad, fillpadOp(false))
	Register(ir.TileFillpadInplace, fillpadOp(true))
	// The tensor forms: a view that remembers its valid shape, and a
	// rank-private copy padded outside it.
	Register(ir.TensorSetValidshape, func(x *Exec, c *ir.Call, a []any) (any, error) {
		v, err := viewArg(a[0], "tensor")
		if err != nil {
			return nil, err
		}
		if len(v.shape) != 2 {
			return nil, fmt.Errorf("set_validshape needs a 2-D tensor, got %v", dimsText(v.shape))
		}
		valid := make([]int, 2)
		for i := range valid {
			n, err := toInt(a[1+i])
			if err != nil {
				return nil, err
			}
			if n < 0 || int(n) > v.shape[i] {
				return nil, fmt.Errorf("valid shape %v is outside the tensor %v", a[1:3], dimsText(v.shape))
			}
			valid[i] = int(n)
		}
		w := *v
		w.valid = valid
		return &w, nil
	})
	Register(ir.TensorFillpad, func(x *Exec, c *ir.Call, a []any) (any, error) {
		v, err := viewArg(a[0], "tensor")
		if err != nil {
			return nil, err
		}
		vals, err := x.readView(v, x.local(), c)
		if err != nil {
			return nil, err
		}
		if v.valid != nil {
			pad := 0.0
			if p, ok := c.Kwargs.Get("pad_value"); ok {
				pad = padValue(v.dt, p)
			}
			cols := v.shape[1]
			for i := range vals {
				if i/cols >= v.valid[0] || i%cols >= v.valid[1] {
					vals[i] = pad
				}
			}
		}
		out := localView(v.dt, v.shape)
		encode(v.dt, vals, out.host)
		return out, nil
	})
	Register(ir.TileFillpadExpand, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "tile")
		if err != nil {
			return nil, err
		}
		shape, err := intsArg(a[1], "shape")
		if err != nil {
			return nil, err
		}
		if len(shape) != len(t.Shape) {
			return nil, fmt.Errorf("%s: shape %v and the tile %v differ in rank", c.Name(), dimsText(shape), dimsText(t.Shape))
		}
		for d := range shape {
			if shape[d] < t.Shape[d] {
				return nil, fmt.Errorf("%s: shape %v is smaller than the tile %v", c.Name(), dimsText(shape), dimsText(t.Shape))
			}
		}
		pad := 0.0
		if p, ok := c.Kwargs.Get("pad_value"); ok {
			pad = padValue(t.DType, p)
		}
		out := make([]float64, numel(shape))
		for i := range out {
			out[i] = pad
		}
		// The source's valid region lands at the top left.
		src, st := t.values(), rowMajor(t.Shape)
		dt := rowMajor(shape)
		each(t.validShape(), func(_ int, idx []int) {
			so, do := 0, 0
			for i, v := range idx {
				so += v * st[i]
				do += v * dt[i]
			}
			out[do] = src[so]
		})
		return tileOf(t.DType, shape, out), nil
	})
	Register(ir.TileSetValidshape, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "tile")
		if err != nil {
			return nil, err
		}
		if len(t.Shape) != 2 {
			return nil, fmt.Errorf("set_validshape needs a 2-D tile, got %v", dimsText(t.Shape))
		}
		r, err := toInt(a[1])
		if err != nil {
			return nil, fmt.Errorf("valid_rows: %w", err)
		}
		cl, err := toInt(a[2])
		if err != nil {
			return nil, fmt.Errorf("valid_cols: %w", err)
		}
		if r < 0 || cl < 0 || int(r) > t.Shape[0] || int(cl) > t.Shape[1] {
			return nil, fmt.Errorf("valid shape [%d, %d] is outside the tile %v", r, cl, dimsText(t.Shape))
		}
		return x.withValid(t, x.keepInts([]int{int(r), int(cl)})), nil
	})
}

func scalarOf(v float64, dt ir.DataType) any {
	if dt.IsFloat() {
		return v
	}
	if dt == ir.BOOL {
		return v != 0
	}
	return int64(v)
}

func tileIndex(t *Tile, idxV any) (int, error) {
	idx, err := intsArg(idxV, "indices")
	if err != nil {
		return 0, err
	}
	if len(idx) != len(t.Shape) {
		return 0, fmt.Errorf("index %v has %d dims, the tile has %d", dimsText(idx), len(idx), len(t.Shape))
	}
	k := 0
	for i, x := range idx {
		if x < 0 || x >= t.Shape[i] {
			return 0, fmt.Errorf("index %v is outside the tile %v", dimsText(idx), dimsText(t.Shape))
		}
		k = k*t.Shape[i] + x
	}
	return k, nil
}

// unaryKernels are the one-operand elementwise ops (tile and tensor form),
// computed in float64 and rounded to the element type.
// (A variable, not an init: the registering init above reads it.)
var unaryKernels = func() map[*ir.OpDef]func(float64) float64 {
	m := map[*ir.OpDef]func(float64) float64{}
	for _, k := range []struct {
		tile, tensor *ir.OpDef
		fn           func(float64) float64
	}{
		{ir.TileAbs, ir.TensorAbs, math.Abs},
		{ir.TileNeg, ir.TensorNeg, func(v float64) float64 { return -v }},
		{ir.TileRelu, ir.TensorRelu, func(v float64) float64 {
			if v < 0 {
				return 0
			}
			return v
		}},
		{ir.TileExp, ir.TensorExp, math.Exp},
		{ir.TileSin, ir.TensorSin, math.Sin},
		{ir.TileCos, ir.TensorCos, math.Cos},
		{ir.TileLog, ir.TensorLog, math.Log},
		{ir.TileSqrt, ir.TensorSqrt, math.Sqrt},
		{ir.TileRecip, ir.TensorRecip, func(v float64) float64 { return 1 / v }},
		{ir.TileRsqrt, ir.TensorRsqrt, func(v float64) float64 { return 1 / math.Sqrt(v) }},
		{ir.TileNot, ir.TensorNot, func(v float64) float64 { return float64(^int64(v)) }},
	} {
		m[k.tile], m[k.tensor] = k.fn, k.fn
	}
	return m
}()

// unaryOp applies fn to every element of a tile or tensor.
func unaryOp(fn func(float64) float64) OpFunc {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		vals, shape, dt, like, err := x.valuesOf(a[0], c, "input")
		if err != nil {
			return nil, err
		}
		out := make([]float64, len(vals))
		for i, v := range vals {
			out[i] = round(fn(v), dt)
		}
		return x.result(c, dt, shape, out, like), nil
	}
}

// roundAll is vals rounded to dt, in a new slice.
func roundAll(vals []float64, dt ir.DataType) []float64 {
	out := make([]float64, len(vals))
	for i, v := range vals {
		out[i] = round(v, dt)
	}
	return out
}

// elementwiseKernels names the kernel each elementwise op (tile and tensor
// form) runs.
var elementwiseKernels = map[*ir.OpDef]string{
	ir.TileAdd: "add", ir.TileSub: "sub", ir.TileMul: "mul", ir.TileDiv: "div",
	ir.TileMaximum: "maximum", ir.TileMinimum: "minimum",
	ir.TileAdds: "adds", ir.TileSubs: "subs", ir.TileMuls: "muls", ir.TileDivs: "divs",
	ir.TensorAdd: "add", ir.TensorSub: "sub", ir.TensorMul: "mul", ir.TensorDiv: "div",
	ir.TensorMaximum: "maximum", ir.TensorMinimum: "minimum",
	ir.TensorAdds: "adds", ir.TensorSubs: "subs", ir.TensorMuls: "muls", ir.TensorDivs: "divs",
	ir.TileFmod: "fmod", ir.TileFmods: "fmods", ir.TensorFmod: "fmod", ir.TensorFmods: "fmods",
	ir.TileAnd: "and", ir.TileOr: "or", ir.TileXor: "xor", ir.TileShl: "shl", ir.TileShr: "shr",
	ir.TensorAnd: "and", ir.TensorOr: "or", ir.TensorXor: "xor", ir.TensorShl: "shl", ir.TensorShr: "shr",
	ir.TileAnds: "and", ir.TileOrs: "or", ir.TileXors: "xor", ir.TileShls: "shl", ir.TileShrs: "shr",
	ir.TensorAnds: "and", ir.TensorOrs: "or", ir.TensorXors: "xor", ir.TensorShls: "shl", ir.TensorShrs: "shr",
	ir.TileMaximums: "maximums", ir.TileMinimums: "minimums", ir.TileLrelu: "lrelu",
}

var elementwise = map[string]func(a, b float64) float64{
	"add": func(a, b float64) float64 { return a + b }, "adds": func(a, b float64) float64 { return a + b },
	"sub": func(a, b float64) float64 { return a - b }, "subs": func(a, b float64) float64 { return a - b },
	"mul": func(a, b float64) float64 { return a * b }, "muls": func(a, b float64) float64 { return a * b },
	"div": func(a, b float64) float64 { return a / b }, "divs": func(a, b float64) float64 { return a / b },
	"maximum": math.Max, "minimum": math.Min,
	// The remainder with the dividend's sign, as torch.fmod: exact in
	// float64 for float32 operands, so rounding back loses nothing.
	"fmod": math.Mod, "fmods": math.Mod,
	"maximums": math.Max, "minimums": math.Min,
	// TLRELU: x where x > 0, else slope * x.
	"lrelu": func(a, slope float64) float64 {
		if a > 0 {
			return a
		}
		return slope * a
	},
	// Bitwise ops on the integers the elements hold; the result wraps to
	// the element type when rounded. A shift right of a signed element is
	// arithmetic.
	"and": intOp(func(a, b int64) int64 { return a & b }),
	"or":  intOp(func(a, b int64) int64 { return a | b }),
	"xor": intOp(func(a, b int64) int64 { return a ^ b }),
	"shl": intOp(func(a, b int64) int64 { return a << uint64(b) }),
	"shr": intOp(func(a, b int64) int64 { return a >> uint64(b) }),
}

// intOp lifts an operation on integers to the float64 values elements
// are computed in.
func intOp(f func(a, b int64) int64) func(a, b float64) float64 {
	return func(a, b float64) float64 { return float64(f(int64(a), int64(b))) }
}

// elementwiseOp computes lhs <op> rhs (a tile/tensor, or a scalar for the
// "s" forms) in the result's dtype (lhs's, or the promoted one). The tile form yields a tile, the tensor form a
// rank-private tensor.
func elementwiseOp(name string, fn func(a, b float64) float64) OpFunc {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		if broadcasts(a) {
			return x.broadcastOp(c, a, fn)
		}
		if x.elementwiseF32OK(name, a) {
			return x.elementwiseF32(name, c, a)
		}
		l, shape, dt, lt, err := x.valuesOf(a[0], c, "lhs")
		if err != nil {
			return nil, err
		}
		// Tensor operands of two element types give the promoted one; each
		// operand is first rounded to it, as the kernel's cast of the
		// narrower one does (exact when it widens).
		promoted := false
		if _, rdt, ok := ir.ShapeOf(c.Type()); ok && rdt != dt && supported(rdt) {
			dt, promoted = rdt, true
			l = roundAll(l, dt)
		}
		out := make([]float64, len(l))
		switch r := a[1].(type) {
		case *Tile, *view:
			rv, rshape, rdt, _, err := x.valuesOf(r, c, "rhs")
			if err != nil {
				return nil, err
			}
			if promoted || rdt != dt {
				rv = roundAll(rv, dt)
			}
			switch {
			case len(rv) == len(l):
				for i := range l {
					out[i] = round(fn(l[i], rv[i]), dt)
				}
			case len(rv) == 1:
				for i := range l {
					out[i] = round(fn(l[i], rv[0]), dt)
				}
			default:
				return nil, fmt.Errorf("operand shapes %v and %v differ", dimsText(shape), dimsText(rshape))
			}
		default:
			s, err := toFloat(a[1])
			if err != nil {
				return nil, fmt.Errorf("rhs: %w", err)
			}
			// The NPU takes the scalar operand in the element type (the
			// PTO emitter converts it so), as torch converts a Python
			// float to the tensor's dtype.
			s = round(s, dt)
			for i := range l {
				out[i] = round(fn(l[i], s), dt)
			}
		}
		return x.result(c, dt, shape, out, lt), nil
	}
}

// operandDims is the shape of a tile or tensor operand (ok false for a
// scalar).
func operandDims(v any) ([]int, bool) {
	switch v := v.(type) {
	case *Tile:
		return v.Shape, true
	case *view:
		return v.shape, true
	}
	return nil, false
}

// broadcasts reports whether a binary op's two tile or tensor operands
// differ in shape (a tensor op broadcasting them, as NumPy does).
func broadcasts(a []any) bool {
	if len(a) < 2 {
		return false
	}
	l, ok1 := operandDims(a[0])
	r, ok2 := operandDims(a[1])
	return ok1 && ok2 && !slices.Equal(l, r)
}

// broadcastDims is NumPy's broadcast of two shapes (ok false: they do not
// broadcast).
func broadcastDims(a, b []int) ([]int, bool) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := 1; i <= n; i++ {
		da, db := 1, 1
		if i <= len(a) {
			da = a[len(a)-i]
		}
		if i <= len(b) {
			db = b[len(b)-i]
		}
		switch {
		case da == db || db == 1:
			out[n-i] = da
		case da == 1:
			out[n-i] = db
		default:
			return nil, false
		}
	}
	return out, true
}

// broadcastStrides are the element strides that read an operand of shape
// dims at each index of the broadcast shape out: 0 along a dimension the
// operand repeats.
func broadcastStrides(dims, out []int) []int {
	st := make([]int, len(out))
	acc := 1
	for i := 1; i <= len(dims); i++ {
		d := dims[len(dims)-i]
		if d != 1 {
			st[len(out)-i] = acc
		}
		acc *= d
	}
	return st
}

// broadcastOp computes lhs <op> rhs for tensor operands of two shapes
// that broadcast, in the promoted dtype; each operand is first rounded to
// it, as the same-shape path does.
func (x *Exec) broadcastOp(c *ir.Call, a []any, fn func(a, b float64) float64) (any, error) {
	l, lshape, ldt, _, err := x.valuesOf(a[0], c, "lhs")
	if err != nil {
		return nil, err
	}
	r, rshape, rdt, _, err := x.valuesOf(a[1], c, "rhs")
	if err != nil {
		return nil, err
	}
	shape, ok := broadcastDims(lshape, rshape)
	if !ok {
		return nil, fmt.Errorf("operand shapes %v and %v do not broadcast", dimsText(lshape), dimsText(rshape))
	}
	dt := ldt
	if _, cdt, ok := ir.ShapeOf(c.Type()); ok && supported(cdt) {
		dt = cdt
	}
	if ldt != dt {
		l = roundAll(l, dt)
	}
	if rdt != dt {
		r = roundAll(r, dt)
	}
	ls, rs := broadcastStrides(lshape, shape), broadcastStrides(rshape, shape)
	out := make([]float64, numel(shape))
	idx := make([]int, len(shape))
	li, ri := 0, 0
	for k := range out {
		out[k] = round(fn(l[li], r[ri]), dt)
		// Step the multi-index like an odometer, moving both read offsets.
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d]++
			li += ls[d]
			ri += rs[d]
			if idx[d] < shape[d] {
				break
			}
			li -= ls[d] * shape[d]
			ri -= rs[d] * shape[d]
			idx[d] = 0
		}
	}
	return x.result(c, dt, shape, out, nil), nil
}

// elementwiseF32OK reports whether elementwiseF32 computes the op exactly
// as the generic path would: lhs FP32, rhs an FP32 tile or tensor of the
// same size or a single element, or a scalar (both paths round it to
// FP32). It reads nothing, so the generic path can still run without a
// second read.
func (x *Exec) elementwiseF32OK(name string, a []any) bool {
	if _, ok := elementwiseF32Names[name]; !ok || len(a) < 2 {
		return false
	}
	n, ok := f32Size(a[0])
	if !ok {
		return false
	}
	if m, isF32 := f32Size(a[1]); isF32 {
		return m == n || m == 1
	}
	switch a[1].(type) {
	case *Tile, *view:
		return false
	}
	_, err := toFloat(a[1])
	return err == nil
}

// elementwiseF32Names maps the ops elementwiseF32 knows to binaryF32's names.
var elementwiseF32Names = map[string]string{
	"add": "add", "adds": "add", "sub": "sub", "subs": "sub",
	"mul": "mul", "muls": "mul", "div": "div", "divs": "div",
	"maximum": "maximum", "minimum": "minimum",
}

// f32Size is the element count of an FP32 tile or tensor operand.
func f32Size(v any) (int, bool) {
	switch v := v.(type) {
	case *Tile:
		return v.size(), v.DType == ir.FP32
	case *view:
		return numel(v.shape), v.dt == ir.FP32
	}
	return 0, false
}

// elementwiseF32 is elementwiseOp on float32 (see elementwiseF32OK).
func (x *Exec) elementwiseF32(name string, c *ir.Call, a []any) (any, error) {
	l, err := x.f32Values(a[0], c)
	if err != nil {
		return nil, err
	}
	out := x.allocF32(len(l), false)
	op := elementwiseF32Names[name]
	if _, isOperand := f32Size(a[1]); isOperand {
		r, err := x.f32Values(a[1], c)
		if err != nil {
			return nil, err
		}
		binaryF32(op, out, l, r)
	} else {
		s, _ := toFloat(a[1]) // elementwiseF32OK checked it
		scalarF32(op, out, l, float32(s))
	}
	var shape []int
	var like *Tile
	switch v := a[0].(type) {
	case *Tile:
		shape, like = v.Shape, v
	case *view:
		shape = v.shape
	}
	if tensorForm(c) {
		v := localView(ir.FP32, shape)
		putF32(v.host, out)
		typedValid(c, v)
		return v, nil
	}
	t := x.tileHead(ir.FP32, shape, out)
	if like != nil && like.Valid != nil {
		t.Valid = x.keepInts(like.Valid)
	}
	return t, nil
}

// f32Values is an FP32 operand's elements: a tile's own (read only), or a
// tensor's read from this rank.
func (x *Exec) f32Values(v any, c *ir.Call) ([]float32, error) {
	if t, ok := v.(*Tile); ok {
		return t.f32, nil
	}
	tv := v.(*view)
	t := x.newTile(ir.FP32, tv.shape, false)
	return t.f32, x.readTile(tv, x.local(), t, c)
}

// result wraps computed values as a tile (tile.* ops) or a rank-private
// tensor (tensor.* ops); a tile result keeps like's valid region.
// tensorForm reports whether c is the tensor form of an op that also has a
// tile form (tensor.add, tensor.cast): its result is a rank-private tensor.
func tensorForm(c *ir.Call) bool { return c.Op != nil && c.Op.TileForm != nil }

func (x *Exec) result(c *ir.Call, dt ir.DataType, shape []int, vals []float64, like *Tile) any {
	if tensorForm(c) {
		v := localView(dt, shape)
		encode(dt, vals, v.host)
		typedValid(c, v)
		return v
	}
	t := tileOf(dt, shape, vals)
	if like != nil && like.Valid != nil {
		t.Valid = append([]int(nil), like.Valid...)
	}
	return t
}

func castOp(x *Exec, c *ir.Call, a []any) (any, error) {
	dt, ok := c.Kwargs.DType("target_type")
	if !ok || !supported(dt) {
		return nil, fmt.Errorf("target_type: the simulator does not support %v", dt)
	}
	mode := c.Kwargs.Int("mode", c.Op.KwargDefault("mode").(int64))
	conv := func(v float64) float64 {
		if !dt.IsFloat() {
			switch mode {
			case 2: // ROUND: half away from zero
				v = math.Round(v)
			case 3:
				v = math.Floor(v)
			case 4:
				v = math.Ceil(v)
			case 5:
				v = math.Trunc(v)
			default: // None / RINT: half to even
				v = math.RoundToEven(v)
			}
		}
		return round(v, dt)
	}
	switch v := a[0].(type) {
	case *Tile, *view:
		vals, shape, _, lt, err := x.valuesOf(v, c, "input")
		if err != nil {
			return nil, err
		}
		out := make([]float64, len(vals))
		for i, e := range vals {
			out[i] = conv(e)
		}
		return x.result(c, dt, shape, out, lt), nil
	}
	f, err := toFloat(a[0])
	if err != nil {
		return nil, err
	}
	return scalarOf(conv(f), dt), nil
}

func fillpadOp(inplace bool) OpFunc {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := tileArg(a[0], "tile")
		if err != nil {
			return nil, err
		}
		pad := 0.0
		if p, ok := c.Kwargs.Get("pad_value"); ok {
			pad = padValue(t.DType, p)
		}
		out := t
		if !inplace {
			out = t.clone()
		}
		ext := t.validShape()
		st := rowMajor(t.Shape)
		inValid := make([]bool, t.size())
		each(ext, func(_ int, idx []int) {
			o := 0
			for i, v := range idx {
				o += v * st[i]
			}
			inValid[o] = true
		})
		for i := range inValid {
			if inValid[i] {
				continue
			}
			if out.DType == ir.FP32 {
				out.f32[i] = float32(pad) // ±MaxFloat32 or 0: exact
			} else {
				out.Data[i] = pad
			}
		}
		out.Valid = nil
		return out, nil
	}
}

func maxOf(dt ir.DataType) float64 {
	switch dt {
	case ir.FP32:
		return math.MaxFloat32
	case ir.FP16:
		return 65504
	case ir.BF16:
		return 3.3895313892515355e38
	case ir.INT8:
		return math.MaxInt8
	case ir.INT16:
		return math.MaxInt16
	case ir.INT32:
		return math.MaxInt32
	}
	return math.MaxInt64
}

// padValue is the number a pad kind fills with for dtype dt: zero, or the
// dtype's largest value, or its smallest (one below -max for integers).
func padValue(dt ir.DataType, kind any) float64 {
	switch kind {
	case ir.PadMax:
		return maxOf(dt)
	case ir.PadMin:
		if dt.IsInt() {
			return -maxOf(dt) - 1
		}
		return -maxOf(dt)
	}
	return 0
}

// typedValid gives a tensor op's result view the valid shape its type
// says (an elementwise op of a tensor narrowed by tensor.set_validshape
// keeps the narrowing).
func typedValid(c *ir.Call, v *view) {
	tt, ok := c.Type().(*ir.TensorType)
	if !ok || tt.View == nil || len(tt.View.ValidShape) != len(v.shape) {
		return
	}
	valid := make([]int, len(v.shape))
	for i, e := range tt.View.ValidShape {
		n, ok := ir.ConstValue(e)
		if !ok {
			return
		}
		valid[i] = int(n)
	}
	v.valid = valid
}

// createTensor is tensor.create (and tensor.create_l1): a local tensor of
// the shape, zero (uninitialised on the device) unless init_value fills it.
func createTensor(x *Exec, c *ir.Call, a []any) (any, error) {
	shape, err := intsArg(a[0], "shape")
	if err != nil {
		return nil, err
	}
	dt, _ := c.Kwargs.DType("dtype")
	if !supported(dt) {
		return nil, fmt.Errorf("the simulator does not support dtype %s", dt.Name())
	}
	v := localView(dt, shape)
	if iv, ok := c.Kwargs.Get("init_value"); ok {
		f, err := toFloat(iv)
		if err != nil {
			return nil, fmt.Errorf("init_value: %w", err)
		}
		vals := make([]float64, numel(shape))
		for i := range vals {
			vals[i] = f
		}
		encode(dt, vals, v.host)
	}
	if x.rank < 0 && x.s.createdBy != nil && len(v.host) > 0 {
		// One process of several: the tensor as the host made it is the
		// base the processes' copies merge from (devices.go).
		x.s.createdMu.Lock()
		x.s.createdBy[&v.host[0]] = len(x.s.created)
		x.s.created = append(x.s.created, HostBuf{Data: v.host, Base: append([]byte(nil), v.host...)})
		x.s.createdMu.Unlock()
	}
	return v, nil
}

// expandClone is tensor.expand_clone: the input seen in the target's shape
// (a stride of 0 along the dimension it broadcasts) written into the
// target.
func expandClone(x *Exec, c *ir.Call, a []any) (any, error) {
	src, err := viewArg(a[0], "input")
	if err != nil {
		return nil, err
	}
	dst, err := viewArg(a[1], "target")
	if err != nil {
		return nil, err
	}
	if len(src.shape) != len(dst.shape) {
		return nil, fmt.Errorf("%s: input %v and target %v differ in rank", c.Name(), dimsText(src.shape), dimsText(dst.shape))
	}
	b := *src
	b.shape, b.strides = append([]int(nil), dst.shape...), append([]int(nil), src.strides...)
	for i := range dst.shape {
		switch {
		case src.shape[i] == dst.shape[i]:
		case src.shape[i] == 1:
			b.strides[i] = 0
		default:
			return nil, fmt.Errorf("%s: input %v does not expand to %v", c.Name(), dimsText(src.shape), dimsText(dst.shape))
		}
	}
	b.valid = nil
	return dst, x.convertView(dst, x.local(), &b, x.local(), false, c)
}
