package runtime

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/x448/float16"
)

// Values the interpreter binds to variables:
//
//	int64, float64, bool   scalars (integers of every width are int64)
//	[]any                  a tuple (shapes, offsets)
//	*Tile                  an on-chip tile: rank-private values (float32 or float64)
//	*view                  a tensor view: host/rank-local bytes or a window
//	*WindowBuf             a window allocation (pld.alloc_window_buffer)
//	commCtx                a comm context (pld.get_comm_ctx)
//	nil                    the result of a side-effect-only op

// Tile is a tile value: row-major elements already rounded to the dtype,
// with a valid region (PyPTO's valid_shape) inside the physical shape.
//
// FP32 tiles hold float32 elements (f32), every other dtype float64 (Data).
// float32 holds exactly the values FP32 rounding produces, and it lets FP32
// tiles load and store as plain byte copies and compute without widening.
// Tiles that share storage (a set_validshape result and its source) see
// each other's tile.write, as before.
type Tile struct {
	DType ir.DataType
	Shape []int
	Valid []int     // nil: the whole tile
	Data  []float64 // the elements, unless DType is FP32
	f32   []float32 // the elements of an FP32 tile
	home  *ubTile   // where f32 lives on the simulated on-chip buffer (nil: elsewhere)
	// window is set on a tile.slice of another tile: the slice is a view
	// of the parent's memory, so an op that accumulates into it in place
	// (matmul_acc into a column window of an Acc tile) writes the parent.
	window *tileWindowOf
}

// tileWindowOf is where a sliced tile lies in the tile it was cut from.
type tileWindowOf struct {
	parent *Tile
	offs   []int
}

// writeBack stores t's elements into the parent tile it is a window of,
// and keeps t a window of it.
func (w *tileWindowOf) writeBack(t *Tile) {
	p := w.parent
	n := len(p.Shape)
	cols, pcols := t.Shape[len(t.Shape)-1], p.Shape[n-1]
	rows := t.size() / cols
	base := 0
	for d, o := range w.offs {
		stride := 1
		for _, s := range p.Shape[d+1:] {
			stride *= s
		}
		base += o * stride
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			p.set(base+i*pcols+j, t.at(i*cols+j))
		}
	}
	t.window = w
}

func newTile(dt ir.DataType, shape []int) *Tile {
	t := &Tile{DType: dt, Shape: append([]int(nil), shape...)}
	if dt == ir.FP32 {
		t.f32 = make([]float32, numel(shape))
	} else {
		t.Data = make([]float64, numel(shape))
	}
	return t
}

// tileOf makes a tile of shape from row-major values already rounded to dt.
func tileOf(dt ir.DataType, shape []int, vals []float64) *Tile {
	if dt != ir.FP32 {
		return &Tile{DType: dt, Shape: append([]int(nil), shape...), Data: vals}
	}
	t := newTile(dt, shape)
	for i, v := range vals {
		t.f32[i] = float32(v)
	}
	return t
}

// size is the number of elements in the physical shape.
func (t *Tile) size() int {
	if t.DType == ir.FP32 {
		return len(t.f32)
	}
	return len(t.Data)
}

// at is element k (row-major in the physical shape).
func (t *Tile) at(k int) float64 {
	if t.DType == ir.FP32 {
		return float64(t.f32[k])
	}
	return t.Data[k]
}

// set stores v, rounded to the dtype, as element k.
func (t *Tile) set(k int, v float64) {
	if t.DType == ir.FP32 {
		t.f32[k] = float32(v)
		return
	}
	t.Data[k] = round(v, t.DType)
}

// values returns the elements as float64: Data itself (not to be modified)
// or, for FP32, a widened copy.
func (t *Tile) values() []float64 {
	if t.DType != ir.FP32 {
		return t.Data
	}
	out := make([]float64, len(t.f32))
	for i, v := range t.f32 {
		out[i] = float64(v)
	}
	return out
}

// withValid is t with another valid region, sharing t's elements.
func (t *Tile) withValid(valid []int) *Tile {
	u := *t
	u.Valid = valid
	return &u
}

// clone is a copy of t with its own elements and the whole tile valid.
func (t *Tile) clone() *Tile {
	return &Tile{DType: t.DType, Shape: t.Shape, Data: slices.Clone(t.Data), f32: slices.Clone(t.f32)}
}

// bytes is a copy of the elements in the dtype's memory layout.
func (t *Tile) bytes() []byte {
	b := make([]byte, t.size()*t.DType.Bytes())
	if t.DType == ir.FP32 {
		putF32(b, t.f32)
	} else {
		encode(t.DType, t.Data, b)
	}
	return b
}

// validShape is the tile's valid extent.
func (t *Tile) validShape() []int {
	if t.Valid == nil {
		return t.Shape
	}
	return t.Valid
}

// view is a strided tensor view. host != nil: memory private to the
// executing rank (a host tensor or a tensor.create). win != nil: a window
// view at byte 0 of win; which rank's copy it touches is the op's choice.
type view struct {
	dt      ir.DataType
	shape   []int
	strides []int // in elements
	off     int   // element offset of element [0, ...]
	host    []byte
	win     *WindowBuf
	// valid is the valid shape tensor.set_validshape gave (nil: all of
	// it); tensor.fillpad pads what lies outside it.
	valid []int
	// inside is, per dim, how far a slice that overhangs the end of the
	// tensor it was cut from lies inside it (nil: all of it). Upstream
	// makes such a view without a check (paged attention slices a fixed
	// number of block indices near the table's end and reads only the
	// ones that exist), so the simulator does too, and refuses an access
	// that reaches past the end.
	inside []int
}

func (v *view) String() string {
	where := "local tensor"
	if v.win != nil {
		where = "window " + v.win.Name
	}
	return fmt.Sprintf("%s %v %s", where, dimsText(v.shape), v.dt.Name())
}

func rowMajor(shape []int) []int {
	st := make([]int, len(shape))
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= shape[i]
	}
	return st
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func localView(dt ir.DataType, shape []int) *view {
	return &view{dt: dt, shape: append([]int(nil), shape...), strides: rowMajor(shape), host: make([]byte, numel(shape)*dt.Bytes())}
}

// elemOffset is the element offset (from the start of the memory) of idx.
func (v *view) elemOffset(idx []int) (int, error) {
	if len(idx) != len(v.shape) {
		return 0, fmt.Errorf("index %v has %d dims, the tensor has %d (%v)", dimsText(idx), len(idx), len(v.shape), dimsText(v.shape))
	}
	o := v.off
	for i, x := range idx {
		if x < 0 || x >= v.shape[i] {
			return 0, fmt.Errorf("index %v is outside shape %v", dimsText(idx), dimsText(v.shape))
		}
		o += x * v.strides[i]
	}
	return o, nil
}

// sub is the view of shape at offs. A shape of lower rank names the trailing
// dims (leading dims are 1), which is how a [1, S] tile addresses a [N, 1, S]
// tensor.
func (v *view) sub(offs, shape []int) (*view, error) {
	out := &view{}
	return out, v.subInto(out, make([]int, len(v.shape)), offs, shape, false)
}

// overhang is tensor.slice's view of shape at offs of a rank-local
// tensor: it may reach past the tensor's end (an access there is an
// error), as upstream's slices may.
func (v *view) overhang(offs, shape []int) (*view, error) {
	out := &view{}
	return out, v.subInto(out, make([]int, len(v.shape)), offs, shape, v.win == nil)
}

// checkInside fails when an access of the whole view would reach past the
// end of the tensor an overhanging slice was cut from.
func (v *view) checkInside() error {
	for i, n := range v.inside {
		if n < v.shape[i] {
			return fmt.Errorf("the slice %v reaches past the end of the tensor it was cut from (dim %d holds %d of its %d there): only the part inside may be read or written", dimsText(v.shape), i, n, v.shape[i])
		}
	}
	return nil
}

// subInto sets out to the view of shape at offs, with full (len(v.shape)
// ints) as its shape; offs may be nil (all zeros). overhang lets the
// region reach past v's end (out records how far it lies inside).
func (v *view) subInto(out *view, full, offs, shape []int, overhang bool) error {
	if len(offs) != 0 && len(offs) != len(v.shape) {
		return fmt.Errorf("offsets %v have %d dims, the tensor has %d (%v)", dimsText(offs), len(offs), len(v.shape), dimsText(v.shape))
	}
	k := len(v.shape) - len(shape)
	if k < 0 {
		return fmt.Errorf("shape %v has more dims than the tensor %v", dimsText(shape), dimsText(v.shape))
	}
	o := v.off
	for i := range full {
		full[i] = 1
		if i >= k {
			full[i] = shape[i-k]
		}
		at := 0
		if len(offs) != 0 {
			at = offs[i]
		}
		if at < 0 || (!overhang && at+full[i] > v.shape[i]) {
			if len(offs) == 0 {
				offs = make([]int, len(v.shape))
			}
			return fmt.Errorf("region %v at offsets %v does not fit in %v", dimsText(full), dimsText(offs), dimsText(v.shape))
		}
		o += at * v.strides[i]
	}
	*out = view{dt: v.dt, shape: full, strides: v.strides, off: o, host: v.host, win: v.win}
	if v.inside == nil && !overhang {
		return nil
	}
	var inside []int
	for i := range full {
		end := v.shape[i]
		if v.inside != nil {
			end = v.inside[i]
		}
		at := 0
		if len(offs) != 0 {
			at = offs[i]
		}
		if n := max(0, min(full[i], end-at)); n < full[i] {
			if !overhang {
				return fmt.Errorf("region %v at offsets %v reaches past the end of the tensor this slice was cut from (it holds %v there)", dimsText(full), dimsText(offsOr0(offs, len(full))), dimsText(v.inside))
			}
			if inside == nil {
				inside = append([]int(nil), full...)
			}
			inside[i] = n
		}
	}
	out.inside = inside
	return nil
}

func offsOr0(offs []int, n int) []int {
	if len(offs) == 0 {
		return make([]int, n)
	}
	return offs
}

// contiguous reports whether the view is one dense row-major run.
// staticShape is a tensor type's shape when every dimension is a constant.
func staticShape(t ir.Type) []int {
	dims, _, ok := ir.ShapeOf(t)
	if !ok {
		return nil
	}
	out := make([]int, len(dims))
	for i, d := range dims {
		c, ok := ir.ConstValue(d)
		if !ok {
			return nil
		}
		out[i] = int(c)
	}
	return out
}

// asParam is the argument a function's parameter of static shape sees: a
// dense tensor of as many elements but another shape (a [64] window passed
// as [1, 64], which upstream's calls accept) is seen in the parameter's
// shape, over the same memory. Anything else is bound as it is.
//
// A narrower slice of a tensor whose rows are the parameter's (a [16, 72]
// window of a [16, 128] buffer passed as [16, 128], as upstream's paged
// attention passes its valid columns) is seen in the parameter's shape
// too: the kernel reads the parameter's row-major shape at the argument's
// base, which is the slice's parent block, as the device does.
func asParam(arg any, shape []int) any {
	v, ok := arg.(*view)
	if !ok || shape == nil || equalInts(v.shape, shape) || v.inside != nil {
		return arg
	}
	if numel(v.shape) == numel(shape) && v.contiguous() {
		return &view{dt: v.dt, shape: shape, strides: rowMajor(shape), off: v.off, host: v.host, win: v.win}
	}
	if len(v.shape) == len(shape) && equalInts(v.strides, rowMajor(shape)) {
		for d := range shape {
			if v.shape[d] > shape[d] {
				return arg
			}
		}
		if v.win == nil && (v.off+numel(shape))*v.dt.Bytes() > len(v.host) {
			return arg
		}
		return &view{dt: v.dt, shape: shape, strides: v.strides, off: v.off, host: v.host, win: v.win}
	}
	return arg
}

func (v *view) contiguous() bool {
	acc := 1
	for i := len(v.shape) - 1; i >= 0; i-- {
		if v.shape[i] != 1 && v.strides[i] != acc {
			return false
		}
		acc *= v.shape[i]
	}
	return true
}

// segments lists the view's bytes as contiguous runs in row-major element
// order (one run when the view is dense, one per row when only the inner
// dim is dense, one per element otherwise).
func (v *view) segments() []Segment {
	sz := v.dt.Bytes()
	n := numel(v.shape)
	if n == 0 {
		return nil
	}
	if v.contiguous() {
		return []Segment{{Off: v.off * sz, Len: n * sz}}
	}
	inner, outer := 1, v.shape[:len(v.shape)]
	if d := len(v.shape); d > 0 && v.strides[d-1] == 1 {
		inner, outer = v.shape[d-1], v.shape[:d-1]
	}
	segs := make([]Segment, 0, numel(outer))
	idx := make([]int, len(outer))
	for k := 0; k < numel(outer); k++ {
		o := v.off
		for i, x := range idx {
			o += x * v.strides[i]
		}
		if m := len(segs); m > 0 && segs[m-1].Off+segs[m-1].Len == o*sz {
			segs[m-1].Len += inner * sz // merge adjacent runs
		} else {
			segs = append(segs, Segment{Off: o * sz, Len: inner * sz})
		}
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < outer[d] {
				break
			}
			idx[d] = 0
		}
	}
	return segs
}

// --- element codec: every memory is bytes in its dtype's layout, so
// aliasing views of one window agree byte for byte.

func supported(dt ir.DataType) bool {
	switch dt {
	case ir.FP32, ir.FP16, ir.BF16, ir.INT8, ir.UINT8, ir.BOOL, ir.INT16, ir.INT32, ir.INT64, ir.INDEX, ir.UINT16, ir.UINT32, ir.UINT64:
		return true
	}
	return false
}

func decode(dt ir.DataType, b []byte, out []float64) {
	le := binary.LittleEndian
	switch dt {
	case ir.FP32:
		for i := range out {
			out[i] = float64(math.Float32frombits(le.Uint32(b[4*i:])))
		}
	case ir.FP16:
		for i := range out {
			out[i] = float64(float16.Frombits(le.Uint16(b[2*i:])).Float32())
		}
	case ir.BF16:
		for i := range out {
			out[i] = float64(math.Float32frombits(uint32(le.Uint16(b[2*i:])) << 16))
		}
	case ir.INT32:
		for i := range out {
			out[i] = float64(int32(le.Uint32(b[4*i:])))
		}
	case ir.INT8:
		for i := range out {
			out[i] = float64(int8(b[i]))
		}
	case ir.UINT8, ir.BOOL:
		for i := range out {
			out[i] = float64(b[i])
		}
	case ir.INT16:
		for i := range out {
			out[i] = float64(int16(le.Uint16(b[2*i:])))
		}
	case ir.UINT16:
		for i := range out {
			out[i] = float64(le.Uint16(b[2*i:]))
		}
	case ir.UINT32:
		for i := range out {
			out[i] = float64(le.Uint32(b[4*i:]))
		}
	case ir.INT64, ir.INDEX:
		for i := range out {
			out[i] = float64(int64(le.Uint64(b[8*i:])))
		}
	case ir.UINT64:
		for i := range out {
			out[i] = float64(le.Uint64(b[8*i:]))
		}
	default:
		panic(fmt.Sprintf("the simulator does not support dtype %s", dt.Name()))
	}
}

func encode(dt ir.DataType, vals []float64, b []byte) {
	le := binary.LittleEndian
	switch dt {
	case ir.FP32:
		for i, v := range vals {
			le.PutUint32(b[4*i:], math.Float32bits(float32(v)))
		}
	case ir.FP16:
		for i, v := range vals {
			le.PutUint16(b[2*i:], float16.Fromfloat32(roundToOdd32(v)).Bits())
		}
	case ir.BF16:
		for i, v := range vals {
			le.PutUint16(b[2*i:], bf16Bits(roundToOdd32(v)))
		}
	case ir.INT32:
		for i, v := range vals {
			le.PutUint32(b[4*i:], uint32(int32(toInt64(v)))) // int32 wraps, as on the device
		}
	case ir.INT8, ir.UINT8:
		for i, v := range vals {
			b[i] = byte(toInt64(v))
		}
	case ir.BOOL:
		for i, v := range vals {
			b[i] = 0
			if v != 0 {
				b[i] = 1
			}
		}
	case ir.INT16, ir.UINT16:
		for i, v := range vals {
			le.PutUint16(b[2*i:], uint16(toInt64(v)))
		}
	case ir.UINT32:
		for i, v := range vals {
			le.PutUint32(b[4*i:], uint32(toInt64(v)))
		}
	case ir.INT64, ir.INDEX, ir.UINT64:
		for i, v := range vals {
			le.PutUint64(b[8*i:], uint64(toInt64(v)))
		}
	default:
		panic(fmt.Sprintf("the simulator does not support dtype %s", dt.Name()))
	}
}

// toInt64 converts with truncation, saturating non-finite values so the
// conversion is defined on every platform.
func toInt64(v float64) int64 {
	switch {
	case v != v:
		return 0
	case v >= 9.2e18:
		return math.MaxInt64
	case v <= -9.2e18:
		return math.MinInt64
	}
	return int64(v)
}

// roundToOdd32 rounds to float32 with round-to-odd, so that a second
// rounding to FP16/BF16 is correctly rounded (no double-rounding error).
func roundToOdd32(x float64) float32 {
	f := float32(x)
	if float64(f) == x || x != x || math.IsInf(x, 0) {
		return f
	}
	if math.IsInf(float64(f), 0) {
		return float32(math.Copysign(math.MaxFloat32, x))
	}
	b := math.Float32bits(f)
	if b&1 == 0 {
		if math.Abs(float64(f)) > math.Abs(x) {
			b-- // toward x: smaller magnitude (f != 0 here)
		} else {
			b++
		}
	}
	return math.Float32frombits(b)
}

func bf16Bits(f float32) uint16 {
	u := math.Float32bits(f)
	if f != f {
		return uint16(u>>16) | 0x40
	}
	u += 0x7fff + (u>>16)&1 // round to nearest even on the dropped bits
	return uint16(u >> 16)
}

// round rounds v to dt: the dtype's own arithmetic is "compute exactly in
// float64, round once" (exact for one +, −, × of FP16/BF16/FP32 operands).
func round(v float64, dt ir.DataType) float64 {
	switch dt {
	case ir.FP32:
		return float64(float32(v))
	case ir.FP16:
		return float64(float16.Fromfloat32(roundToOdd32(v)).Float32())
	case ir.BF16:
		return float64(math.Float32frombits(uint32(bf16Bits(roundToOdd32(v))) << 16))
	case ir.BOOL:
		if v != 0 {
			return 1
		}
		return 0
	case ir.INT8:
		return float64(int8(toInt64(v)))
	case ir.UINT8:
		return float64(uint8(toInt64(v)))
	case ir.INT16:
		return float64(int16(toInt64(v)))
	case ir.UINT16:
		return float64(uint16(toInt64(v)))
	case ir.INT32:
		return float64(int32(toInt64(v)))
	case ir.UINT32:
		return float64(uint32(toInt64(v)))
	case ir.INT64, ir.INDEX, ir.UINT64:
		return float64(toInt64(v))
	}
	return v
}

// each visits every multi-index of shape in row-major order.
func each(shape []int, fn func(k int, idx []int)) {
	idx := make([]int, len(shape))
	n := numel(shape)
	for k := 0; k < n; k++ {
		fn(k, idx)
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
}

// dimsText prints a shape, index or rank list as PyPTO does, [4, 8], in
// error messages (Go's %v would print [4 8]).
func dimsText(d []int) string {
	parts := make([]string, len(d))
	for i, x := range d {
		parts[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
