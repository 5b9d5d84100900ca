package runtime

import (
	"fmt"
	"sync"

	"github.com/ptorepl/ptorepl/ir"
)

// Memory that ops reuse instead of allocating. Two lifetimes:
//
//   - op scratch (opScratch): decoded tuple arguments, temporary views and
//     their segment lists. It is valid until the op returns; the next op
//     on the rank starts it afresh (runOp). Nothing an op returns or
//     keeps may point into it: values that outlive the op (a result
//     tile's shape, a cell's index kept by a deferred wait) are copied.
//   - task memory (taskHeads): tile headers and their shapes. Tiles never
//     outlive the task that made them (its results are dropped, and ranks
//     exchange data only through windows), so their headers are cut from
//     blocks that the task hands back when it ends, like tile elements.
//
// Only a rank's own goroutine touches its contexts, so neither locks.

// opScratch is an op's scratch (see above).
type opScratch struct {
	ints  []int
	segs  []Segment
	views []view
	nview int
}

// reset makes the whole scratch free again (a new op starts).
func (s *opScratch) reset() {
	s.ints, s.segs, s.nview = s.ints[:0], s.segs[:0], 0
}

// intSlice returns n ints of scratch. A full buffer is replaced by a larger
// one; slices handed out before keep the old one.
func (s *opScratch) intSlice(n int) []int {
	if len(s.ints)+n > cap(s.ints) {
		s.ints = make([]int, 0, max(64, 2*cap(s.ints), n))
	}
	k := len(s.ints)
	s.ints = s.ints[:k+n]
	return s.ints[k : k+n : k+n]
}

// view returns a scratch view header.
func (s *opScratch) view() *view {
	if s.nview == len(s.views) {
		// Views handed out before keep pointing into the old block.
		s.views = make([]view, max(4, 2*len(s.views)))
		s.nview = 0
	}
	v := &s.views[s.nview]
	s.nview++
	*v = view{}
	return v
}

// ints decodes a tuple argument (offsets, shapes) into op scratch; the
// result is valid until the op returns. nil stays nil, as with intsArg.
func (x *Exec) ints(v any, what string) ([]int, error) {
	if v == nil {
		return nil, nil
	}
	if t, ok := v.(*intTuple); ok {
		return t.v, nil // the call site's own: read only, like scratch
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: expected a tuple, got %s", what, describe(v))
	}
	out := x.rc.sc.intSlice(len(l))
	for i, e := range l {
		if n, isInt := e.(int64); isInt {
			out[i] = int(n)
			continue
		}
		n, err := toInt(e)
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", what, i, err)
		}
		out[i] = int(n)
	}
	return out, nil
}

// subScratch is v.sub with the result in op scratch.
func (x *Exec) subScratch(v *view, offs, shape []int) (*view, error) {
	out := x.rc.sc.view()
	return out, v.subInto(out, x.rc.sc.intSlice(len(v.shape)), offs, shape, false)
}

// segments is v.segments in op scratch.
func (x *Exec) segments(v *view) []Segment {
	sc := &x.rc.sc
	sz := v.dt.Bytes()
	if v.contiguous() {
		n := numel(v.shape)
		if n == 0 {
			return nil
		}
		if len(sc.segs) == cap(sc.segs) {
			sc.segs = make([]Segment, 0, max(16, 2*cap(sc.segs)))
		}
		k := len(sc.segs)
		sc.segs = append(sc.segs, Segment{Off: v.off * sz, Len: n * sz})
		return sc.segs[k : k+1 : k+1]
	}
	return v.segments() // strided views are rare: the general path allocates
}

// taskHeads are tile headers and shapes for the running task (see above).
type taskHeads struct {
	tiles [][]Tile
	ntile int // used of the last block
	ints  [][]int
	nint  int
}

const headBlock = 256

// headPool and intPool keep released blocks warm for the next task, which
// is most often the same kernel on the next run (a fresh block would cost
// its allocation and the cache misses of new memory).
var (
	headPool = sync.Pool{New: func() any { b := make([]Tile, headBlock); return &b }}
	intPool  = sync.Pool{New: func() any { b := make([]int, 4*headBlock); return &b }}
)

// tile returns a zero tile header that lives until the task ends.
func (h *taskHeads) tile() *Tile {
	k := len(h.tiles) - 1
	if k < 0 || h.ntile == len(h.tiles[k]) {
		h.tiles = append(h.tiles, *headPool.Get().(*[]Tile))
		h.ntile, k = 0, k+1
	}
	t := &h.tiles[k][h.ntile]
	h.ntile++
	*t = Tile{}
	return t
}

// intsOf returns a copy of v that lives until the task ends.
func (h *taskHeads) intsOf(v []int) []int {
	n := len(v)
	k := len(h.ints) - 1
	if k < 0 || h.nint+n > len(h.ints[k]) {
		if n > 4*headBlock {
			return append([]int(nil), v...)
		}
		h.ints = append(h.ints, *intPool.Get().(*[]int))
		h.nint, k = 0, k+1
	}
	out := h.ints[k][h.nint : h.nint+n : h.nint+n]
	h.nint += n
	copy(out, v)
	return out
}

// release hands every block back for the next task. Tile blocks are
// cleared first, so that a pooled block keeps no tile memory alive.
func (h *taskHeads) release() {
	for k, b := range h.tiles {
		used := len(b)
		if k == len(h.tiles)-1 {
			used = h.ntile
		}
		clear(b[:used])
		headPool.Put(&b)
		h.tiles[k] = nil
	}
	for k, b := range h.ints {
		intPool.Put(&b)
		h.ints[k] = nil
	}
	h.tiles, h.ints, h.ntile, h.nint = h.tiles[:0], h.ints[:0], 0, 0
}

// tileHead is a new FP32 tile of shape over f whose header lives until
// the task ends (the host, which has no task, allocates).
func (x *Exec) tileHead(dt ir.DataType, shape []int, f []float32) *Tile {
	if x.rank < 0 {
		return &Tile{DType: dt, Shape: append([]int(nil), shape...), f32: f}
	}
	t := x.rc.heads.tile()
	t.DType, t.Shape, t.f32 = dt, x.rc.heads.intsOf(shape), f
	return t
}

// withValid is t.withValid with the header from the task's memory; valid
// must live as long (keepInts).
func (x *Exec) withValid(t *Tile, valid []int) *Tile {
	if x.rank < 0 {
		return t.withValid(valid)
	}
	u := x.rc.heads.tile()
	*u = *t
	u.Valid = valid
	return u
}
