package runtime

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/x448/float16"
)

// Element codec: every tensor, tile and window is bytes in its dtype's
// layout, so aliasing views of one window agree byte for byte and FP16
// arithmetic rounds like FP16.

func loadElem(b []byte, dt ir.DataType) float64 {
	switch dt {
	case ir.FP32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case ir.FP16:
		return float64(float16.Frombits(binary.LittleEndian.Uint16(b)).Float32())
	case ir.BF16:
		return float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(b)) << 16))
	case ir.INT8:
		return float64(int8(b[0]))
	case ir.UINT8, ir.BOOL:
		return float64(b[0])
	case ir.INT16:
		return float64(int16(binary.LittleEndian.Uint16(b)))
	case ir.INT32:
		return float64(int32(binary.LittleEndian.Uint32(b)))
	case ir.INT64, ir.INDEX:
		return float64(int64(binary.LittleEndian.Uint64(b)))
	}
	panic(fmt.Sprintf("the simulator does not support dtype %s", dt))
}

func storeElem(b []byte, dt ir.DataType, v float64) {
	switch dt {
	case ir.FP32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	case ir.FP16:
		binary.LittleEndian.PutUint16(b, float16.Fromfloat32(float32(v)).Bits())
	case ir.BF16:
		// Round to nearest even on the dropped 16 bits.
		u := math.Float32bits(float32(v))
		u += 0x7fff + (u>>16)&1
		binary.LittleEndian.PutUint16(b, uint16(u>>16))
	case ir.INT8:
		b[0] = byte(int8(int64(v)))
	case ir.UINT8:
		b[0] = byte(int64(v))
	case ir.BOOL:
		if v != 0 {
			b[0] = 1
		} else {
			b[0] = 0
		}
	case ir.INT16:
		binary.LittleEndian.PutUint16(b, uint16(int16(int64(v))))
	case ir.INT32:
		// int32 wraps, as on the device.
		binary.LittleEndian.PutUint32(b, uint32(int32(int64(v))))
	case ir.INT64, ir.INDEX:
		binary.LittleEndian.PutUint64(b, uint64(int64(v)))
	default:
		panic(fmt.Sprintf("the simulator does not support dtype %s", dt))
	}
}

// roundTo rounds v to dt's precision (the dtype's own arithmetic).
func roundTo(v float64, dt ir.DataType) float64 {
	var b [8]byte
	storeElem(b[:], dt, v)
	return loadElem(b[:], dt)
}

// Windows is how a rank reaches window memory and signals: its own copy and
// its peers'. Ranks never share Go slices of window memory; a device that
// runs each rank as its own process implements this over one-sided
// communication instead.
type Windows interface {
	// Read copies n bytes at off of buffer buf on rank into dst.
	Read(rank int, buf *WindowBuf, off int, dst []byte) error
	// Write copies src to off of buffer buf on rank.
	Write(rank int, buf *WindowBuf, off int, src []byte) error
}

// WindowBuf is one symmetric window allocation.
type WindowBuf struct {
	Name string
	Size int // bytes per rank
	id   int
}

// region is a rectangular view of elements: a host tensor, a tile, or a
// window (then bytes is nil and access goes through Windows).
type region struct {
	dt      ir.DataType
	shape   []int
	strides []int // in elements
	off     int   // element offset of the first element
	bytes   []byte
	win     *WindowBuf // window view: the allocation
	valid   []int      // tile valid shape (nil: all)
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

func newTile(dt ir.DataType, shape []int) *region {
	return &region{dt: dt, shape: append([]int(nil), shape...), strides: rowMajor(shape), bytes: make([]byte, numel(shape)*dt.Bytes())}
}

// elemOffset is the element offset of a multi-index.
func (r *region) elemOffset(idx []int) (int, error) {
	if len(idx) != len(r.shape) {
		return 0, fmt.Errorf("index %v has rank %d, the value has rank %d", idx, len(idx), len(r.shape))
	}
	o := r.off
	for i, x := range idx {
		if x < 0 || x >= r.shape[i] {
			return 0, fmt.Errorf("index %v out of range for shape %v", idx, r.shape)
		}
		o += x * r.strides[i]
	}
	return o, nil
}

// sub is the view at offsets with shape (same rank, or fewer trailing dims
// for a lower-rank shape, which selects the last dims).
func (r *region) sub(offs, shape []int) (*region, error) {
	if len(offs) != len(r.shape) {
		return nil, fmt.Errorf("offsets %v have rank %d, the value has rank %d", offs, len(offs), len(r.shape))
	}
	full := make([]int, len(r.shape))
	k := len(r.shape) - len(shape)
	if k < 0 {
		return nil, fmt.Errorf("shape %v has more dims than %v", shape, r.shape)
	}
	for i := range full {
		if i < k {
			full[i] = 1
		} else {
			full[i] = shape[i-k]
		}
		if offs[i] < 0 || offs[i]+full[i] > r.shape[i] {
			return nil, fmt.Errorf("region at %v of shape %v is outside %v", offs, full, r.shape)
		}
	}
	o := r.off
	for i, x := range offs {
		o += x * r.strides[i]
	}
	return &region{dt: r.dt, shape: full, strides: r.strides, off: o, bytes: r.bytes, win: r.win}, nil
}

// each visits every element index of shape in row-major order.
func each(shape []int, fn func(idx []int) error) error {
	idx := make([]int, len(shape))
	n := numel(shape)
	for k := 0; k < n; k++ {
		if err := fn(idx); err != nil {
			return err
		}
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return nil
}
