package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Memory access for ops. Rank-local memory (host tensors, tensor.create) is
// touched directly; window views go through Windows, naming whose copy.

// local is the rank whose copy a plain load/store touches.
func (x *Exec) local() int {
	if x.rank < 0 {
		return 0
	}
	return x.rank
}

// whoView is who(c) with v's element layout, for observers (only built
// when one is attached).
func (x *Exec) whoView(c *ir.Call, v *view) Origin {
	o := x.who(c)
	if x.s.opts.Observer != nil {
		o.View = x.rc.newViewLayout(v)
	}
	return o
}

// layoutBuf is a ViewLayout with room for its shape and strides, so that
// recording one (observers keep them) is one allocation.
type layoutBuf struct {
	l    ViewLayout
	dims [8]int
}

// newViewLayout records v's layout for an observer, which may keep it: the
// record comes from the rank's blocks of them, which are never reused.
func (rc *rankCtx) newViewLayout(v *view) *ViewLayout {
	if len(rc.layouts) == cap(rc.layouts) {
		rc.layouts = make([]layoutBuf, 0, 128)
	}
	rc.layouts = rc.layouts[:len(rc.layouts)+1]
	b := &rc.layouts[len(rc.layouts)-1]
	*b = layoutBuf{l: ViewLayout{ElemBytes: v.dt.Bytes(), Offset: v.off}}
	if n := len(v.shape); n <= 4 && len(v.strides) == n {
		b.l.Shape = append(b.dims[:0:n], v.shape...)
		b.l.Strides = append(b.dims[4:4:4+n], v.strides...)
	} else {
		b.l.Shape, b.l.Strides = append([]int(nil), v.shape...), append([]int(nil), v.strides...)
	}
	return &b.l
}

// readInto gathers the view's elements (row-major) as raw bytes into dst,
// which holds exactly that many bytes.
func (x *Exec) readInto(v *view, rank int, dst []byte, c *ir.Call) error {
	if err := v.checkInside(); err != nil {
		return err
	}
	segs := x.segments(v)
	if v.win == nil {
		if x.rc.task != nil {
			x.rc.noteHost(v, segs, false)
		}
		k := 0
		for _, s := range segs {
			if s.Off < 0 || s.Off+s.Len > len(v.host) {
				return fmt.Errorf("read of bytes [%d, %d) outside a %d-byte tensor", s.Off, s.Off+s.Len, len(v.host))
			}
			k += copy(dst[k:], v.host[s.Off:s.Off+s.Len])
		}
		return nil
	}
	if x.rank < 0 {
		return fmt.Errorf("the host cannot read window memory directly (%s)", v)
	}
	return x.s.win.Read(x.rank, rank, v.win, segs, dst, x.whoView(c, v))
}

// readBytes gathers the view's elements (row-major) as raw bytes.
func (x *Exec) readBytes(v *view, rank int, c *ir.Call) ([]byte, error) {
	out := make([]byte, numel(v.shape)*v.dt.Bytes())
	return out, x.readInto(v, rank, out, c)
}

// writeBytes scatters raw bytes (row-major) over the view.
func (x *Exec) writeBytes(v *view, rank int, b []byte, c *ir.Call) error {
	if err := v.checkInside(); err != nil {
		return err
	}
	segs := x.segments(v)
	if v.win == nil {
		if x.rc.task != nil {
			x.rc.noteHost(v, segs, true)
		}
		k := 0
		for _, s := range segs {
			if s.Off < 0 || s.Off+s.Len > len(v.host) {
				return fmt.Errorf("write of bytes [%d, %d) outside a %d-byte tensor", s.Off, s.Off+s.Len, len(v.host))
			}
			k += copy(v.host[s.Off:s.Off+s.Len], b[k:])
		}
		return nil
	}
	if x.rank < 0 {
		return fmt.Errorf("the host cannot write window memory directly (%s)", v)
	}
	return x.s.win.Write(x.rank, rank, v.win, segs, b, x.whoView(c, v))
}

// hostRun is the bytes of a rank-local view that is one dense run, so a
// transfer can read or write them in place; ok is false for window views,
// strided views and views that do not fit (the general path reports those).
func hostRun(v *view) (b []byte, ok bool) {
	if v.win != nil || !v.contiguous() || v.inside != nil {
		return nil, false
	}
	sz := v.dt.Bytes()
	lo, hi := v.off*sz, (v.off+numel(v.shape))*sz
	if lo < 0 || hi > len(v.host) {
		return nil, false
	}
	return v.host[lo:hi], true
}

// region is a window view's bytes on rank, for the Windows API.
func (x *Exec) region(v *view, rank int, c *ir.Call) Region {
	return Region{Rank: rank, Buf: v.win, Segs: x.segments(v), Who: x.whoView(c, v)}
}

// readView returns the view's elements as values.
func (x *Exec) readView(v *view, rank int, c *ir.Call) ([]float64, error) {
	b, err := x.readBytes(v, rank, c)
	if err != nil {
		return nil, err
	}
	out := make([]float64, numel(v.shape))
	decode(v.dt, b, out)
	return out, nil
}

// writeView stores values over the view, or adds them atomically.
func (x *Exec) writeView(v *view, rank int, vals []float64, add bool, c *ir.Call) error {
	if add {
		if v.win != nil {
			if x.rank < 0 {
				return fmt.Errorf("the host cannot write window memory directly (%s)", v)
			}
			return x.s.win.Accumulate(x.rank, rank, v.win, v.segments(), v.dt, vals, x.whoView(c, v))
		}
		cur, err := x.readView(v, rank, c)
		if err != nil {
			return err
		}
		for i := range cur {
			cur[i] = round(cur[i]+vals[i], v.dt)
		}
		vals = cur
	}
	b := make([]byte, len(vals)*v.dt.Bytes())
	encode(v.dt, vals, b)
	return x.writeBytes(v, rank, b, c)
}

// copyView copies src (on srcRank) over dst (on dstRank), element for
// element in row-major order. Same-dtype copies move bytes once: window to
// window through Windows.Copy, and to or from a dense local run in place.
func (x *Exec) copyView(dst *view, dstRank int, src *view, srcRank int, add bool, c *ir.Call) error {
	if numel(dst.shape) != numel(src.shape) {
		return fmt.Errorf("the regions differ in size: %v and %v", dimsText(dst.shape), dimsText(src.shape))
	}
	if dst.dt != src.dt || add {
		return x.convertView(dst, dstRank, src, srcRank, add, c)
	}
	if dst.win != nil && src.win != nil {
		if x.rank < 0 {
			return fmt.Errorf("the host cannot read window memory directly (%s)", src)
		}
		return x.s.win.Copy(x.rank, x.region(dst, dstRank, c), x.region(src, srcRank, c))
	}
	if b, ok := hostRun(dst); ok && src.win != nil {
		return x.readInto(src, srcRank, b, c)
	}
	if b, ok := hostRun(src); ok && dst.win != nil {
		return x.writeBytes(dst, dstRank, b, c)
	}
	b, err := x.readBytes(src, srcRank, c)
	if err != nil {
		return err
	}
	return x.writeBytes(dst, dstRank, b, c)
}

// convertView is copyView through values: a dtype conversion or an add.
func (x *Exec) convertView(dst *view, dstRank int, src *view, srcRank int, add bool, c *ir.Call) error {
	vals, err := x.readView(src, srcRank, c)
	if err != nil {
		return err
	}
	if dst.dt != src.dt {
		vals = roundAll(vals, dst.dt)
	}
	return x.writeView(dst, dstRank, vals, add, c)
}

// readTile fills t's elements (as many as v has, row-major) from v on rank;
// an FP32 tile on a little-endian machine receives the bytes in place.
func (x *Exec) readTile(v *view, rank int, t *Tile, c *ir.Call) error {
	if t.DType == ir.FP32 && nativeLE {
		return x.readInto(v, rank, f32Bytes(t.f32), c)
	}
	b, err := x.readBytes(v, rank, c)
	if err != nil {
		return err
	}
	if t.DType == ir.FP32 {
		getF32(t.f32, b)
	} else {
		decode(v.dt, b, t.Data)
	}
	return nil
}

// loadTile reads shape at offs of v (on rank) into a new tile; valid, when
// given, limits what is read (the rest is zero padding).
func (x *Exec) loadTile(v *view, rank int, offs, shape, valid []int, c *ir.Call) (*Tile, error) {
	ext := shape
	if valid != nil {
		if len(valid) != len(shape) {
			return nil, fmt.Errorf("valid_shape %v and shape %v differ in rank", dimsText(valid), dimsText(shape))
		}
		ext = x.rc.sc.intSlice(len(shape))
		for i := range shape {
			ext[i] = max(0, min(valid[i], shape[i]))
		}
	}
	full := equalInts(ext, shape)
	t := x.newTile(v.dt, shape, !full) // a partial load leaves zero padding
	if !full {
		t.Valid = x.keepInts(ext)
	}
	if numel(ext) == 0 {
		return t, nil
	}
	sub, err := x.subScratch(v, offs, ext)
	if err != nil {
		return nil, err
	}
	if t.Valid == nil {
		return t, x.readTile(sub, rank, t, c)
	}
	if t.DType == ir.FP32 && nativeLE && validPrefix(t.Shape, ext) {
		// The valid region is the tile's first elements: read them in place.
		return t, x.readInto(sub, rank, f32Bytes(t.f32[:numel(ext)]), c)
	}
	part := x.newTile(v.dt, ext, false)
	if err := x.readTile(sub, rank, part, c); err != nil {
		return nil, err
	}
	scatterValid(t.Data, t.Shape, ext, part.Data)
	scatterValid(t.f32, t.Shape, ext, part.f32)
	return t, nil
}

// validPrefix reports whether the top-left ext region of a row-major shape
// is its first numel(ext) elements: past the leading unit dims of ext, at
// most one dim is cut short and every dim after it is whole.
func validPrefix(shape, ext []int) bool {
	if len(shape) != len(ext) {
		return false
	}
	i := 0
	for i < len(ext) && ext[i] == 1 {
		i++
	}
	for i++; i < len(ext); i++ {
		if ext[i] != shape[i] {
			return false
		}
	}
	return true
}

// keepInts is a copy of s that lives as long as the running task's tiles.
func (x *Exec) keepInts(s []int) []int {
	if x.rank < 0 {
		return append([]int(nil), s...)
	}
	return x.rc.heads.intsOf(s)
}

// scatterValid places row-major elements of extent ext at the top-left of
// dst (row-major, of shape).
func scatterValid[T any](dst []T, shape, ext []int, src []T) {
	if len(src) == 0 {
		return
	}
	st := rowMajor(shape)
	each(ext, func(k int, idx []int) {
		o := 0
		for i, x := range idx {
			o += x * st[i]
		}
		dst[o] = src[k]
	})
}

// gatherValid returns the elements of the top-left ext region of src
// (row-major, of shape): src itself when that is all of it.
func gatherValid[T any](src []T, shape, ext []int) []T {
	if len(src) == 0 || equalInts(ext, shape) {
		return src
	}
	st := rowMajor(shape)
	out := make([]T, numel(ext))
	each(ext, func(k int, idx []int) {
		o := 0
		for i, x := range idx {
			o += x * st[i]
		}
		out[k] = src[o]
	})
	return out
}

// validBytes is t's ext region in the dtype's memory layout. For an FP32
// tile on a little-endian machine it may share t's memory: read only.
func (t *Tile) validBytes(ext []int) []byte {
	if t.DType != ir.FP32 {
		vals := gatherValid(t.Data, t.Shape, ext)
		b := make([]byte, len(vals)*t.DType.Bytes())
		encode(t.DType, vals, b)
		return b
	}
	f := t.f32
	if validPrefix(t.Shape, ext) {
		f = f[:numel(ext)]
	} else {
		f = gatherValid(t.f32, t.Shape, ext)
	}
	if nativeLE {
		return f32Bytes(f)
	}
	b := make([]byte, 4*len(f))
	putF32(b, f)
	return b
}

// storeTile writes t's valid region into v at offs (on rank).
func (x *Exec) storeTile(t *Tile, v *view, rank int, offs []int, add bool, c *ir.Call) error {
	ext := t.validShape()
	if numel(ext) == 0 {
		return nil
	}
	sub, err := x.subScratch(v, offs, trimLeadingOnes(ext, len(v.shape)))
	if err != nil {
		return err
	}
	if t.DType != v.dt {
		// An Acc tile's store converts on the way out (the fixpipe): each
		// value rounds to the tensor's type, then lands or is added.
		return x.writeView(sub, rank, roundAll(gatherValid(t.values(), t.Shape, ext), v.dt), add, c)
	}
	if add {
		return x.writeView(sub, rank, gatherValid(t.values(), t.Shape, ext), true, c)
	}
	return x.writeBytes(sub, rank, t.validBytes(ext), c)
}

// trimLeadingOnes drops leading unit dims of a shape with more dims than n.
func trimLeadingOnes(s []int, n int) []int {
	for len(s) > n && s[0] == 1 {
		s = s[1:]
	}
	return s
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// --- argument decoding

func viewArg(v any, what string) (*view, error) {
	r, ok := v.(*view)
	if !ok {
		return nil, fmt.Errorf("%s: expected a tensor, got %s", what, describe(v))
	}
	return r, nil
}

func winArg(v any, what string) (*view, error) {
	r, ok := v.(*view)
	if !ok || r.win == nil {
		return nil, fmt.Errorf("%s: expected a window-bound tensor (pld.window), got %s", what, describe(v))
	}
	return r, nil
}

func tileArg(v any, what string) (*Tile, error) {
	t, ok := v.(*Tile)
	if !ok {
		return nil, fmt.Errorf("%s: expected a tile, got %s", what, describe(v))
	}
	return t, nil
}

func intsArg(v any, what string) ([]int, error) {
	if v == nil {
		return nil, nil
	}
	if t, ok := v.(*intTuple); ok {
		return append([]int(nil), t.v...), nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: expected a tuple, got %s", what, describe(v))
	}
	out := make([]int, len(l))
	for i, e := range l {
		n, err := toInt(e)
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", what, i, err)
		}
		out[i] = int(n)
	}
	return out, nil
}

// valuesOf reads a tile or tensor operand as values with its shape and dtype.
func (x *Exec) valuesOf(v any, c *ir.Call, what string) ([]float64, []int, ir.DataType, *Tile, error) {
	switch v := v.(type) {
	case *Tile:
		return v.values(), v.Shape, v.DType, v, nil
	case *view:
		vals, err := x.readView(v, x.local(), c)
		return vals, v.shape, v.dt, nil, err
	}
	return nil, nil, 0, nil, fmt.Errorf("%s: expected a tile or tensor, got %s", what, describe(v))
}

// peerOf maps a peer index within v's comm domain to a world rank.
func (x *Exec) peerOf(v *view, p any) (int, error) {
	n, err := toInt(p)
	if err != nil {
		return 0, fmt.Errorf("peer: %w", err)
	}
	size := x.s.world
	if v.win != nil && v.win.Domain != nil {
		size = len(v.win.Domain)
	}
	if n < 0 || int(n) >= size {
		return 0, fmt.Errorf("peer %d is outside the comm domain of %d ranks (a negative peer often comes from (r - 1) %% n, which the device computes with a truncating %%: write (r + n - 1) %% n)", n, size)
	}
	if v.win != nil && v.win.Domain != nil {
		return v.win.Domain[n], nil
	}
	return int(n), nil
}
