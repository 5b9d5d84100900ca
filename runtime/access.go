package runtime

import (
	"fmt"
)

// Element access. Host tensors and tiles are plain bytes of this rank;
// window views go through the Windows interface, with the rank named.

func (x *Exec) get(r *region, rank int, idx []int) (float64, error) {
	o, err := r.elemOffset(idx)
	if err != nil {
		return 0, err
	}
	sz := r.dt.Bytes()
	if r.win == nil {
		return loadElem(r.bytes[o*sz:], r.dt), nil
	}
	var b [8]byte
	if err := x.s.Read(rank, r.win, o*sz, b[:sz]); err != nil {
		return 0, err
	}
	return loadElem(b[:sz], r.dt), nil
}

func (x *Exec) put(r *region, rank int, idx []int, v float64, add bool) error {
	o, err := r.elemOffset(idx)
	if err != nil {
		return err
	}
	sz := r.dt.Bytes()
	if r.win == nil {
		b := r.bytes[o*sz : o*sz+sz]
		if add {
			v += loadElem(b, r.dt)
		}
		storeElem(b, r.dt, v)
		return nil
	}
	if add {
		// Atomic read-modify-write under the window lock.
		x.s.mu.Lock()
		defer x.s.mu.Unlock()
		m, err := x.s.bytesOf(rank, r.win, o*sz, sz)
		if err != nil {
			return err
		}
		storeElem(m, r.dt, loadElem(m, r.dt)+v)
		x.s.changedLocked()
		return nil
	}
	var b [8]byte
	storeElem(b[:sz], r.dt, v)
	return x.s.Write(rank, r.win, o*sz, b[:sz])
}

// local is the rank whose copy a plain load/store touches.
func (x *Exec) local() int {
	if x.Rank < 0 {
		return 0
	}
	return x.Rank
}

// copyRegion copies shape elements from src (on srcRank) into dst (on
// dstRank), adding with atomic. Both regions have the same rank; shape is
// counted from their last dims.
func (x *Exec) copyRegion(dst *region, dstRank int, src *region, srcRank int, add bool) error {
	if numel(dst.shape) != numel(src.shape) {
		return fmt.Errorf("shapes %v and %v differ", dst.shape, src.shape)
	}
	// Read everything first so a copy between aliasing views is well defined.
	vals := make([]float64, 0, numel(src.shape))
	if err := each(src.shape, func(idx []int) error {
		v, err := x.get(src, srcRank, idx)
		vals = append(vals, v)
		return err
	}); err != nil {
		return err
	}
	k := 0
	return each(dst.shape, func(idx []int) error {
		err := x.put(dst, dstRank, idx, vals[k], add)
		k++
		return err
	})
}

func regionArg(v any, what string) (*region, error) {
	r, ok := v.(*region)
	if !ok {
		return nil, fmt.Errorf("%s: expected a tensor or tile, got %T", what, v)
	}
	return r, nil
}

func intsArg(v any, what string) ([]int, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: expected a tuple, got %T", what, v)
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

// tileFrom copies the shape region at offs of src (on rank) into a new tile.
func (x *Exec) tileFrom(src *region, rank int, offs, shape []int) (*region, error) {
	if len(offs) == 0 {
		offs = make([]int, len(src.shape))
	}
	view, err := src.sub(offs, shape)
	if err != nil {
		return nil, err
	}
	t := newTile(src.dt, shape)
	tview := &region{dt: t.dt, shape: view.shape, strides: rowMajor(view.shape), bytes: t.bytes}
	if err := x.copyRegion(tview, -1, view, rank, false); err != nil {
		return nil, err
	}
	return t, nil
}

// storeTile writes tile t (its valid region) into dst at offs on rank.
func (x *Exec) storeTile(t *region, dst *region, rank int, offs []int, add bool) error {
	shape := t.shape
	if t.valid != nil {
		shape = t.valid
	}
	if len(offs) == 0 {
		offs = make([]int, len(dst.shape))
	}
	view, err := dst.sub(offs, shape)
	if err != nil {
		return err
	}
	src, err := t.sub(make([]int, len(t.shape)), shape)
	if err != nil {
		return err
	}
	// Present both with the destination's full-rank shape.
	src = &region{dt: src.dt, shape: view.shape, strides: rowMajor(view.shape), off: 0, bytes: t.bytes}
	if t.valid != nil && numel(t.valid) != numel(t.shape) {
		// A partial valid region of a larger tile: copy row by row.
		vals := make([]float64, 0, numel(shape))
		if err := each(shape, func(idx []int) error {
			v, err := x.get(t, -1, padIdx(idx, len(t.shape)))
			vals = append(vals, v)
			return err
		}); err != nil {
			return err
		}
		k := 0
		return each(view.shape, func(idx []int) error {
			err := x.put(view, rank, idx, vals[k], add)
			k++
			return err
		})
	}
	return x.copyRegion(view, rank, src, -1, add)
}

func padIdx(idx []int, n int) []int {
	if len(idx) >= n {
		return idx[len(idx)-n:]
	}
	return append(make([]int, n-len(idx)), idx...)
}
