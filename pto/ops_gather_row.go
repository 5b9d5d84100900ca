package pto

import "github.com/ptorepl/ptorepl/ir"

// tile.gather_row(acc, src, dst_offset, src_offset, shapes[, valid_shape])
// → the window of the GM source moved straight into a slot of the
// accumulator, as upstream emits it: a pto.subview of the result (which
// shares the accumulator's buffer) at dst_offset, shaped as the window with
// the transferred part valid, and a pto.tload into it from the source's
// partition view. A result in another buffer first receives the
// accumulator (pto.tmov).
func init() {
	Register(ir.TileGatherRow, func(c *Ctx, call *ir.Call, res *ir.Var) error {
		if call.Kwargs.Bool("transpose", false) {
			return c.errorf("tile.gather_row with transpose=True (a DN-to-ZN row load) is not emitted by this codegen yet")
		}
		acc, at, err := c.tile(call.Args[0])
		if err != nil {
			return err
		}
		dst, err := tuple(call, 2)
		if err != nil {
			return err
		}
		srcOffs, err := tuple(call, 3)
		if err != nil {
			return err
		}
		window, err := tuple(call, 4)
		if err != nil {
			return err
		}
		valid := window
		if len(call.Args) > 5 {
			if valid, err = tuple(call, 5); err != nil {
				return err
			}
		}
		if len(dst) != 2 || len(window) != 2 {
			return c.errorf("tile.gather_row: this codegen emits 2-D windows at a 2-D offset")
		}
		row, err := c.index(dst[0])
		if err != nil {
			return err
		}
		col, err := c.index(dst[1])
		if err != nil {
			return err
		}
		r, rt, err := c.allocResult(res)
		if err != nil {
			return err
		}
		if !sameBuffer(at, rt) {
			c.insOuts("pto.tmov", []value{acc}, []value{r}, nil)
		}
		w, err := c.window("gather_row_view", r, rt, row, col, window, valid)
		if err != nil {
			return err
		}
		_, pv, err := c.localPartition(call.Args[1], srcOffs, valid)
		if err != nil {
			return err
		}
		c.insOuts("pto.tload", []value{pv}, []value{w}, nil)
		return nil
	})
}
