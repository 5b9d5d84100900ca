package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Gathers: tile.gather reads its source at flat element indices;
// tensor.gather is torch.gather along one dimension.

// gatherCompare computes the compare form of a gather of the [rows, cols]
// values in: dst (rows x out_cols indices) and the per-row match counts,
// with the counts' dtype.
func gatherCompare(c *ir.Call, in []float64, shape []int, kvalue any) (dst, cnt []float64, count ir.DataType, err error) {
	kv, err := toFloat(kvalue)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("kvalue: %w", err)
	}
	rows, cols := shape[0], shape[1]
	outCols, offset := int(c.Kwargs.Int("out_cols", 1)), c.Kwargs.Int("offset", 0)
	mode := c.Kwargs.Int("cmp_mode", 0)
	dst, cnt = make([]float64, rows*outCols), make([]float64, rows)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if !compareHolds(mode, in[i*cols+j], kv) {
				continue
			}
			if k := int(cnt[i]); k < outCols {
				dst[i*outCols+k] = float64(int64(j) + offset)
			}
			cnt[i]++
		}
	}
	count = ir.INT32
	if dt, ok := c.Kwargs.DType("count_dtype"); ok {
		count = dt
	}
	return dst, cnt, count, nil
}

func init() {
	// scatter_mask writes src's compact rows onto the columns of dst its
	// pattern selects; the other elements of dst pass through.
	scatterMask := func(x *Exec, c *ir.Call, dst, src []float64, ds, ss []int, dt ir.DataType) ([]float64, error) {
		p := c.Kwargs.Int("mask_pattern", 0)
		if len(ds) != 2 || len(ss) != 2 || p < 1 || p >= int64(len(ir.MaskPatterns)) {
			return nil, fmt.Errorf("%s: 2-D operands and a mask pattern 1..7, given %v, %v and %d", c.Name(), dimsText(ds), dimsText(ss), p)
		}
		m := ir.MaskPatterns[p]
		out := append([]float64(nil), dst...)
		for i := 0; i < ss[0] && i < ds[0]; i++ {
			for k := 0; k < ss[1]; k++ {
				if j := int(m.Phase) + k*int(m.Stride); j < ds[1] {
					out[i*ds[1]+j] = src[i*ss[1]+k]
				}
			}
		}
		return out, nil
	}
	Register(ir.TileScatterMask, func(x *Exec, c *ir.Call, a []any) (any, error) {
		ts, err := tileArgs(a, "dst", "src")
		if err != nil {
			return nil, err
		}
		out, err := scatterMask(x, c, ts[0].values(), ts[1].values(), ts[0].Shape, ts[1].Shape, ts[0].DType)
		if err != nil {
			return nil, err
		}
		return tileOf(ts[0].DType, ts[0].Shape, out), nil
	})
	Register(ir.TensorScatterMask, func(x *Exec, c *ir.Call, a []any) (any, error) {
		ov, s, dts, err := x.operandValues(c, a, "input", "dst")
		if err != nil {
			return nil, err
		}
		dt := dts[1]
		ds := s[1]
		out, err := scatterMask(x, c, ov[1], ov[0], ds, s[0], dt)
		if err != nil {
			return nil, err
		}
		v := localView(dt, ds)
		encode(dt, out, v.host)
		return v, nil
	})
	// tile.scatter writes src into a copy of dst at flat indices.
	Register(ir.TileScatter, func(x *Exec, c *ir.Call, a []any) (any, error) {
		ts, err := tileArgs(a, "dst", "src", "indexes")
		if err != nil {
			return nil, err
		}
		dst, src, idx := ts[0], ts[1], ts[2]
		out := append([]float64(nil), dst.values()...)
		for i := 0; i < numel(idx.Shape) && i < numel(src.Shape); i++ {
			k := int(idx.at(i))
			if k < 0 || k >= len(out) {
				return nil, fmt.Errorf("%s: index %d (element %d of indexes) is outside dst's %d elements", c.Name(), k, i, len(out))
			}
			out[k] = src.at(i)
		}
		return tileOf(dst.DType, dst.Shape, out), nil
	})
	// tensor.scatter: out[i, index[i, j]] = src[i, j], the rest of input kept.
	Register(ir.TensorScatter, func(x *Exec, c *ir.Call, a []any) (any, error) {
		ov, s, dts, err := x.operandValues(c, a, "input", "index", "src")
		if err != nil {
			return nil, err
		}
		in, idx, src := ov[0], ov[1], ov[2]
		inShape, idxShape, dt := s[0], s[1], dts[0]
		if len(inShape) != 2 || len(idxShape) != 2 || idxShape[0] > inShape[0] {
			return nil, fmt.Errorf("%s: index %v does not scatter into input %v", c.Name(), dimsText(idxShape), dimsText(inShape))
		}
		out := append([]float64(nil), in...)
		for i := 0; i < idxShape[0]; i++ {
			for j := 0; j < idxShape[1]; j++ {
				k := int(idx[i*idxShape[1]+j])
				if k < 0 || k >= inShape[1] {
					return nil, fmt.Errorf("%s: index %d at [%d, %d] is outside the input's %d columns", c.Name(), k, i, j, inShape[1])
				}
				out[i*inShape[1]+k] = src[i*idxShape[1]+j]
			}
		}
		v := localView(dt, inShape)
		encode(dt, out, v.host)
		return v, nil
	})
	// gather_compare: per row, the columns (plus offset) whose element
	// compares true with kvalue, the first out_cols of them (the rest of
	// dst zero), and the number that matched; the tensor form gives local
	// tensors, the tile form (its tmp workspace unread) tiles.
	Register(ir.TensorGatherCompare, func(x *Exec, c *ir.Call, a []any) (any, error) {
		ov, s, _, err := x.operandValues(c, a, "input")
		if err != nil {
			return nil, err
		}
		dst, cnt, count, err := gatherCompare(c, ov[0], s[0], a[1])
		if err != nil {
			return nil, err
		}
		rows, outCols := s[0][0], int(c.Kwargs.Int("out_cols", 1))
		dv, cv := localView(ir.INT32, []int{rows, outCols}), localView(count, []int{1, rows})
		encode(ir.INT32, dst, dv.host)
		encode(count, cnt, cv.host)
		return []any{dv, cv}, nil
	})
	Register(ir.TileGatherCompare, func(x *Exec, c *ir.Call, a []any) (any, error) {
		src, err := tileArg(a[0], "src")
		if err != nil {
			return nil, err
		}
		if len(src.Shape) != 2 {
			return nil, fmt.Errorf("%s: a 2-D source, given %v", c.Name(), dimsText(src.Shape))
		}
		dst, cnt, count, err := gatherCompare(c, src.values(), src.Shape, a[1])
		if err != nil {
			return nil, err
		}
		rows, outCols := src.Shape[0], int(c.Kwargs.Int("out_cols", 1))
		return []any{tileOf(ir.INT32, []int{rows, outCols}, dst), tileOf(count, []int{1, rows}, cnt)}, nil
	})
	// gather_mask keeps the columns its pattern selects; an output_dtype
	// of the same width sees the kept bits as that type.
	Register(ir.TileGatherMask, func(x *Exec, c *ir.Call, a []any) (any, error) {
		src, err := tileArg(a[0], "src")
		if err != nil {
			return nil, err
		}
		p := c.Kwargs.Int("mask_pattern", 0)
		if len(src.Shape) != 2 || p < 1 || p >= int64(len(ir.MaskPatterns)) {
			return nil, fmt.Errorf("%s: a 2-D source and a mask pattern 1..7, given %v and %d", c.Name(), dimsText(src.Shape), p)
		}
		m := ir.MaskPatterns[p]
		rows, cols := src.Shape[0], src.Shape[1]
		keep := cols / int(m.Stride)
		out := make([]float64, 0, rows*keep)
		for i := 0; i < rows; i++ {
			for j := int(m.Phase); j < cols; j += int(m.Stride) {
				out = append(out, src.at(i*cols+j))
			}
		}
		dt := src.DType
		if o, ok := c.Kwargs.DType("output_dtype"); ok && o != dt {
			b := make([]byte, len(out)*dt.Bytes())
			encode(dt, out, b)
			decode(o, b, out)
			dt = o
		}
		return x.result(c, dt, []int{rows, keep}, out, nil), nil
	})
	Register(ir.TileGather, func(x *Exec, c *ir.Call, a []any) (any, error) {
		src, err := tileArg(a[0], "src")
		if err != nil {
			return nil, err
		}
		idx, err := tileArg(a[1], "indices")
		if err != nil {
			return nil, err
		}
		n := numel(src.Shape)
		out := make([]float64, numel(idx.Shape))
		for i := range out {
			k := int(idx.at(i))
			if k < 0 || k >= n {
				return nil, fmt.Errorf("%s: index %d (element %d of indices) is outside the source's %d elements", c.Name(), k, i, n)
			}
			out[i] = src.at(k)
		}
		return tileOf(src.DType, idx.Shape, out), nil
	})
	Register(ir.TensorGather, func(x *Exec, c *ir.Call, a []any) (any, error) {
		ov, s, dts, err := x.operandValues(c, a, "input", "index")
		if err != nil {
			return nil, err
		}
		in, idx := ov[0], ov[1]
		inShape, idxShape, dt := s[0], s[1], dts[0]
		rank := len(inShape)
		dim := int(c.Kwargs.Int("dim", -1))
		if dim < 0 {
			dim += rank
		}
		if len(idxShape) != rank || dim < 0 || dim >= rank {
			return nil, fmt.Errorf("%s: index %v does not gather from input %v along dim %d", c.Name(), dimsText(idxShape), dimsText(inShape), dim)
		}
		strides := rowMajor(inShape)
		out := make([]float64, len(idx))
		pos := make([]int, rank)
		for i := range out {
			// pos is element i's position in the index; the input element
			// read is at pos with its dim coordinate replaced by the index.
			r := i
			for d := rank - 1; d >= 0; d-- {
				pos[d] = r % idxShape[d]
				r /= idxShape[d]
			}
			k := int(idx[i])
			if k < 0 || k >= inShape[dim] {
				return nil, fmt.Errorf("%s: index %d at %v is outside dimension %d of the input %v", c.Name(), k, dimsText(pos), dim, dimsText(inShape))
			}
			off := 0
			for d := range pos {
				p := pos[d]
				if d == dim {
					p = k
				}
				if p >= inShape[d] {
					return nil, fmt.Errorf("%s: index %v is outside the input %v", c.Name(), dimsText(idxShape), dimsText(inShape))
				}
				off += p * strides[d]
			}
			out[i] = in[off]
		}
		v := localView(dt, idxShape)
		encode(dt, out, v.host)
		return v, nil
	})
}

// operandValues reads the first len(names) arguments (tiles or tensors) as
// values, shapes and element types, each named in its error.
// compareHolds is cmp_mode (eq, ne, lt, le, gt, ge) of a against b.
func compareHolds(mode int64, a, b float64) bool {
	switch mode {
	case 0:
		return a == b
	case 1:
		return a != b
	case 2:
		return a < b
	case 3:
		return a <= b
	case 4:
		return a > b
	}
	return a >= b
}

func (x *Exec) operandValues(c *ir.Call, a []any, names ...string) ([][]float64, [][]int, []ir.DataType, error) {
	vals := make([][]float64, len(names))
	shapes := make([][]int, len(names))
	dts := make([]ir.DataType, len(names))
	for i, n := range names {
		v, s, dt, _, err := x.valuesOf(a[i], c, n)
		if err != nil {
			return nil, nil, nil, err
		}
		vals[i], shapes[i], dts[i] = v, s, dt
	}
	return vals, shapes, dts, nil
}

// tile.mscatter stores src's elements into the tensor at the flat indices
// idx holds, one element at a time; an index outside the tensor is an
// error naming it. The result is the tensor.
func mscatterOp(x *Exec, c *ir.Call, a []any) (any, error) {
	src, ok1 := a[0].(*Tile)
	idx, ok2 := a[1].(*Tile)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("src and idx must be tiles, given %s and %s", describe(a[0]), describe(a[1]))
	}
	out, err := viewArg(a[2], "output_tensor")
	if err != nil {
		return nil, err
	}
	vals, ids := src.values(), idx.values()
	if len(ids) != len(vals) {
		return nil, fmt.Errorf("idx has %d elements, src %d", len(ids), len(vals))
	}
	n := numel(out.shape)
	at := make([]int, len(out.shape))
	for i, v := range vals {
		k := int(ids[i])
		if k < 0 || k >= n {
			return nil, fmt.Errorf("index %d (element %d of idx) is outside output_tensor's %d elements", k, i, n)
		}
		for d := len(at) - 1; d >= 0; d-- {
			at[d] = k % out.shape[d]
			k /= out.shape[d]
		}
		one, err := out.sub(at, nil)
		if err != nil {
			return nil, err
		}
		if err := x.writeView(one, x.local(), []float64{round(v, out.dt)}, false, c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func init() { Register(ir.TileMscatter, mscatterOp) }

// tile.mgather reads mem at the index tile's indices into a fresh tile:
// elements of mem's flat order (coalesce elem), or whole rows, mem's last
// dimension being a row (coalesce row). gather_oob handles an index
// outside mem: undefined is an error naming it (the NPU's result is
// undefined), clamp reads the nearest, wrap reads modulo the count, zero
// reads 0.
func mgatherOp(x *Exec, c *ir.Call, a []any) (any, error) {
	mem, mshape, dt, _, err := x.valuesOf(a[0], c, "mem")
	if err != nil {
		return nil, err
	}
	elem := c.Kwargs.Int("coalesce", 0) == 1
	oob := c.Kwargs.Int("gather_oob", 0)
	if m, ok := c.Kwargs.Get("target_memory"); !ok || m.(ir.MemorySpace) != ir.MemMat {
		idx, ok := a[1].(*Tile)
		if !ok {
			return nil, fmt.Errorf("idx must be a tile, given %s", describe(a[1]))
		}
		return gather(mem, mshape, dt, idx, elem, oob)
	}
	// Into Mat: the indices come from a GM tensor, and only the
	// valid_shape region is gathered and written (the rest of the fresh
	// tile stays zero). Elem mode's GM scratch is where the device stages
	// the elements; its contents afterwards are unspecified, and the
	// simulator leaves them as they were.
	ids, ishape, _, _, err := x.valuesOf(a[1], c, "idx")
	if err != nil {
		return nil, err
	}
	idx := tileOf(ir.INT32, ishape, ids)
	var valid []int
	if at := ir.MgatherGM(c.Kwargs); len(a) > at {
		if valid, err = intsArg(a[at], "valid_shape"); err != nil {
			return nil, err
		}
		if elem {
			idx.Valid = valid
		} else {
			idx.Valid = []int{1, valid[0]}
		}
	}
	t, err := gather(mem, mshape, dt, idx, elem, oob)
	if err != nil || valid == nil || elem {
		return t, err
	}
	// Row mode: the columns past the valid ones are not written either.
	vals := t.values()
	cols := t.Shape[1]
	for i := range vals {
		if i%cols >= valid[1] {
			vals[i] = 0
		}
	}
	res := tileOf(t.DType, t.Shape, vals)
	res.Valid = valid
	return res, nil
}

// gather reads mem (of shape mshape) at idx's valid indices: elements of
// mem's flat order (elem), or whole rows, mem's last dimension a row.
func gather(mem []float64, mshape []int, dt ir.DataType, idx *Tile, elem bool, oob int64) (*Tile, error) {
	ids := idx.values()
	unit := "rows"
	if elem {
		unit = "elements"
	}
	// at maps index k (element i of idx) into [0, n), or -1 for a zero.
	// The device reads an index as an unsigned 32-bit offset, so a
	// negative one is past the end: clamp takes the last, wrap takes
	// 2^32 + k modulo n.
	at := func(k, n, i int) (int, error) {
		if k >= 0 && k < n {
			return k, nil
		}
		u := int(uint32(int64(k)))
		switch oob {
		case 1:
			return min(u, n-1), nil
		case 2:
			return u % n, nil
		case 3:
			return -1, nil
		}
		return 0, fmt.Errorf("index %d (element %d of idx) is outside mem's %d %s (gather_oob='undefined'; pass 'clamp', 'wrap' or 'zero' to define it)", k, i, n, unit)
	}
	if elem {
		out := make([]float64, len(ids))
		for i, v := range ids {
			// Indices outside the valid region gather nothing.
			if idx.Valid != nil && len(idx.Shape) == 2 && (i/idx.Shape[1] >= idx.Valid[0] || i%idx.Shape[1] >= idx.Valid[1]) {
				continue
			}
			k, err := at(int(v), len(mem), i)
			if err != nil {
				return nil, err
			}
			if k >= 0 {
				out[i] = mem[k]
			}
		}
		res := tileOf(dt, idx.Shape, out)
		if idx.Valid != nil {
			res.Valid = append([]int(nil), idx.Valid...)
		}
		return res, nil
	}
	cols := mshape[len(mshape)-1]
	rows := len(mem) / cols
	out := make([]float64, 0, len(ids)*cols)
	// Only the valid indices gather; the rows past them stay zero.
	valid := len(ids)
	if idx.Valid != nil {
		valid = idx.Valid[0] * idx.Valid[1]
	}
	for i, v := range ids {
		if i >= valid {
			out = append(out, make([]float64, cols)...)
			continue
		}
		k, err := at(int(v), rows, i)
		if err != nil {
			return nil, err
		}
		if k < 0 {
			out = append(out, make([]float64, cols)...)
			continue
		}
		out = append(out, mem[k*cols:(k+1)*cols]...)
	}
	res := tileOf(dt, []int{len(ids), cols}, out)
	if valid < len(ids) {
		res.Valid = []int{valid, cols}
	}
	return res, nil
}

func init() { Register(ir.TileMgather, mgatherOp) }

// tile.gatherb copies 32-byte blocks of src's bytes (row-major, in src's
// element type) to the result rows, block b of row r from the byte offset
// offset[r, b], and reads the result as its element type. Offsets outside
// the offset tile's valid region fill nothing; an offset whose block runs
// past src is an error naming it (PTOAS leaves it undefined).
func gatherbOp(x *Exec, c *ir.Call, a []any) (any, error) {
	src, ok1 := a[0].(*Tile)
	off, ok2 := a[1].(*Tile)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("src and offset must be tiles, given %s and %s", describe(a[0]), describe(a[1]))
	}
	rt, ok := c.Type().(*ir.TileType)
	if !ok {
		return nil, fmt.Errorf("the result is not a tile")
	}
	sb := make([]byte, len(src.values())*src.DType.Bytes())
	encode(src.DType, src.values(), sb)
	rows, blocks := off.Shape[0], off.Shape[1]
	vr, vb := rows, blocks
	if off.Valid != nil {
		vr, vb = off.Valid[0], off.Valid[1]
	}
	ob := make([]byte, rows*blocks*32)
	offs := off.values()
	for r := 0; r < vr; r++ {
		for b := 0; b < vb; b++ {
			o := int(offs[r*blocks+b])
			if o < 0 || o+32 > len(sb) {
				return nil, fmt.Errorf("byte offset %d (offset[%d, %d]) reads past src's %d bytes", o, r, b, len(sb))
			}
			copy(ob[(r*blocks+b)*32:], sb[o:o+32])
		}
	}
	per := 32 / rt.DType.Bytes()
	vals := make([]float64, rows*blocks*per)
	decode(rt.DType, ob, vals)
	t := tileOf(rt.DType, []int{rows, blocks * per}, vals)
	if vr < rows || vb < blocks {
		t.Valid = []int{vr, vb * per}
	}
	return t, nil
}

func init() { Register(ir.TileGatherb, gatherbOp) }

// scatterUpdateOp is tile/tensor.scatter_update: input with rows replaced,
// input[index.flat[k], :] = src[k, :]; a row number past input is an
// error naming it.
func scatterUpdateOp(x *Exec, c *ir.Call, a []any) (any, error) {
	in, shape, dt, lt, err := x.valuesOf(a[0], c, "input")
	if err != nil {
		return nil, err
	}
	idx, _, _, _, err := x.valuesOf(a[1], c, "index")
	if err != nil {
		return nil, err
	}
	src, sshape, _, _, err := x.valuesOf(a[2], c, "src")
	if err != nil {
		return nil, err
	}
	rows, d := shape[0], shape[len(shape)-1]
	if sshape[len(sshape)-1] != d || len(src)/d != len(idx) {
		return nil, fmt.Errorf("src %v does not hold one row of %d per index (%d)", dimsText(sshape), d, len(idx))
	}
	out := append([]float64(nil), in...)
	for k, v := range idx {
		row := int(v)
		if row < 0 || row >= rows {
			return nil, fmt.Errorf("row %d (index element %d) is outside input's %d rows", row, k, rows)
		}
		copy(out[row*d:(row+1)*d], src[k*d:(k+1)*d])
	}
	if _, isView := a[0].(*view); isView {
		v := localView(dt, shape) // the tensor form: a rank-private tensor
		encode(dt, out, v.host)
		return v, nil
	}
	return x.result(c, dt, shape, out, lt), nil
}

func init() {
	Register(ir.TileScatterUpdate, scatterUpdateOp)
	Register(ir.TensorScatterUpdate, scatterUpdateOp)
}
