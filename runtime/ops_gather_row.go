package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Gathers into an on-chip accumulator: tensor.create_l1 is a zeroed local
// tensor (uninitialised on the device), tensor.gather_row and
// tile.gather_row copy one window of a GM tensor into a slot of the
// accumulator (as a column when transposed), and tensor.paged_gather
// translates each logical row through the block table and gathers it.

func init() {
	// The accumulator is a created tensor (no init_value kwarg).
	Register(ir.TensorCreateL1, createTensor)
	Register(ir.TensorGatherRow, func(x *Exec, c *ir.Call, a []any) (any, error) {
		acc, err := viewArg(a[0], "acc")
		if err != nil {
			return nil, err
		}
		offs, ext, vals, err := x.gatherWindow(c, a, acc.shape)
		if err != nil {
			return nil, err
		}
		region, err := acc.sub(offs, ext)
		if err != nil {
			return nil, err
		}
		return acc, x.writeView(region, x.local(), vals, false, c)
	})
	Register(ir.TileGatherRow, func(x *Exec, c *ir.Call, a []any) (any, error) {
		acc, err := tileArg(a[0], "acc")
		if err != nil {
			return nil, err
		}
		offs, ext, vals, err := x.gatherWindow(c, a, acc.Shape)
		if err != nil {
			return nil, err
		}
		out := append([]float64(nil), acc.values()...)
		cols := acc.Shape[1]
		for i := 0; i < ext[0]; i++ {
			copy(out[(offs[0]+i)*cols+offs[1]:], vals[i*ext[1]:(i+1)*ext[1]])
		}
		return tileOf(acc.DType, acc.Shape, out), nil
	})
	Register(ir.TensorPagedGather, func(x *Exec, c *ir.Call, a []any) (any, error) {
		src, err := viewArg(a[0], "src")
		if err != nil {
			return nil, err
		}
		var lists [2][]float64
		for i, name := range []string{"indices", "block_table"} {
			v, err := viewArg(a[i+1], name)
			if err != nil {
				return nil, err
			}
			if lists[i], err = x.readView(v, x.local(), c); err != nil {
				return nil, err
			}
		}
		bs, size, off := int(c.Kwargs.Int("block_size", 0)), int(c.Kwargs.Int("size", 0)), int(c.Kwargs.Int("col_off", 0))
		rows := int(c.Kwargs.Int("max_indices", 0))
		trans := c.Kwargs.Bool("is_trans", false)
		shape := []int{rows, size}
		if trans {
			shape = []int{size, rows}
		}
		out := localView(src.dt, shape)
		if len(lists[0]) > rows {
			return nil, fmt.Errorf("%s: %d indices, more than max_indices %d", c.Name(), len(lists[0]), rows)
		}
		for i, li := range lists[0] {
			j := int(li)
			if j < 0 || j/bs >= len(lists[1]) {
				return nil, fmt.Errorf("%s: index %d (row %d) is outside the block table's %d blocks of %d", c.Name(), j, i, len(lists[1]), bs)
			}
			phys := int(lists[1][j/bs])*bs + j%bs
			row, err := src.sub([]int{phys, off}, []int{1, size})
			if err != nil {
				return nil, fmt.Errorf("%s: row %d (index %d, physical row %d): %w", c.Name(), i, j, phys, err)
			}
			vals, err := x.readView(row, x.local(), c)
			if err != nil {
				return nil, err
			}
			at, ext := []int{i, 0}, []int{1, size}
			if trans {
				at, ext = []int{0, i}, []int{size, 1}
			}
			slot, err := out.sub(at, ext)
			if err != nil {
				return nil, err
			}
			if err := x.writeView(slot, x.local(), vals, false, c); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// gatherWindow reads what a gather_row transfers into an accumulator of
// shape acc: the valid_shape part (else the whole window) of src at
// src_offset, row-major (transposed with transpose=True), with the
// destination offset and the extent it lands as, which must fit acc.
func (x *Exec) gatherWindow(c *ir.Call, a []any, acc []int) (offs, ext []int, vals []float64, err error) {
	src, err := viewArg(a[1], "src")
	if err != nil {
		return nil, nil, nil, err
	}
	if offs, err = intsArg(a[2], "dst_offset"); err != nil {
		return nil, nil, nil, err
	}
	srcOffs, err := intsArg(a[3], "src_offset")
	if err != nil {
		return nil, nil, nil, err
	}
	if ext, err = intsArg(a[4], "shapes"); err != nil {
		return nil, nil, nil, err
	}
	if len(a) > 5 && a[5] != nil {
		if ext, err = intsArg(a[5], "valid_shape"); err != nil {
			return nil, nil, nil, err
		}
	}
	if len(ext) != 2 || len(offs) != 2 || ext[0] < 0 || ext[1] < 0 {
		return nil, nil, nil, fmt.Errorf("%s: expected a 2-D window and offsets, given extent %v at %v", c.Name(), dimsText(ext), dimsText(offs))
	}
	region, err := src.sub(srcOffs, ext)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: src: %w", c.Name(), err)
	}
	if vals, err = x.readView(region, x.local(), c); err != nil {
		return nil, nil, nil, err
	}
	if c.Kwargs.Bool("transpose", false) {
		vals, ext = transposed(vals, ext), []int{ext[1], ext[0]}
	}
	return offs, ext, vals, fits(c, offs, ext, acc)
}

// fits rejects a window that does not lie inside the accumulator.
func fits(c *ir.Call, offs, ext, shape []int) error {
	for d := 0; d < 2; d++ {
		if offs[d] < 0 || offs[d]+ext[d] > shape[d] {
			return fmt.Errorf("%s: the window %v at dst_offset %v does not fit the accumulator %v", c.Name(), dimsText(ext), dimsText(offs), dimsText(shape))
		}
	}
	return nil
}
