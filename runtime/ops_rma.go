package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Semantics of one-sided RMA: remote_load, remote_store, put and get.

func init() {
	Register(ir.PldTileRemoteLoad, func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := winArg(a[0], "target")
		if err != nil {
			return nil, err
		}
		peer, err := x.peerOf(t, a[1])
		if err != nil {
			return nil, err
		}
		offs, err := x.ints(a[2], "offsets")
		if err != nil {
			return nil, err
		}
		shape, err := x.ints(a[3], "shape")
		if err != nil {
			return nil, err
		}
		var valid []int
		if len(a) > 4 {
			if valid, err = x.ints(a[4], "valid_shape"); err != nil {
				return nil, err
			}
		}
		x.note(peer, "", 0)
		return x.loadTile(t, peer, offs, shape, valid, c)
	})
	remoteStore := func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, err := winArg(a[1], "target")
		if err != nil {
			return nil, err
		}
		peer, err := x.peerOf(t, a[2])
		if err != nil {
			return nil, err
		}
		offs, err := x.ints(a[3], "offsets")
		if err != nil {
			return nil, err
		}
		add := c.Kwargs.Int("atomic", 0) != 0
		x.note(peer, "", 0)
		switch src := a[0].(type) {
		case *Tile:
			return nil, x.storeTile(src, t, peer, offs, add, c)
		case *view:
			// The tensor form bridges a GM source through a tile of its full extent.
			tile, err := x.loadTile(src, x.local(), nil, src.shape, nil, c)
			if err != nil {
				return nil, err
			}
			return nil, x.storeTile(tile, t, peer, offs, add, c)
		}
		return nil, fmt.Errorf("src: expected a tile or tensor, got %s", describe(a[0]))
	}
	Register(ir.PldTileRemoteStore, remoteStore)
	Register(ir.PldTensorRemoteStore, remoteStore)
	Register(ir.PldTensorPut, rmaOp(true, false))
	Register(ir.PldTensorGet, rmaOp(false, false))
	Register(ir.PldTilePut, rmaOp(true, true))
	Register(ir.PldTileGet, rmaOp(false, true))
}

// rmaOp is put (local src → the peer's dst) or get (the peer's src → local
// dst), whole tensors or the (dst_offsets, src_offsets, shape) region. The
// tile forms carry staging tiles after src; the simulator copies directly,
// checking only that a stage has the transfer's dtype.
func rmaOp(put, tileForm bool) OpFunc {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		dst, err := viewArg(a[0], "dst")
		if err != nil {
			return nil, err
		}
		src, err := viewArg(a[2], "src")
		if err != nil {
			return nil, err
		}
		remote := dst
		if !put {
			remote = src
		}
		if remote.win == nil {
			which := "dst"
			if !put {
				which = "src"
			}
			return nil, fmt.Errorf("%s: expected a window-bound tensor on the peer, got %s", which, describe(remote))
		}
		peer, err := x.peerOf(remote, a[1])
		if err != nil {
			return nil, err
		}
		rest := a[3:]
		if tileForm {
			for len(rest) > 0 {
				st, isTile := rest[0].(*Tile)
				if !isTile {
					break
				}
				if st.DType != dst.dt {
					return nil, fmt.Errorf("stage: a %s tile cannot stage a %s transfer", st.DType.Name(), dst.dt.Name())
				}
				rest = rest[1:]
			}
		}
		dv, sv := dst, src
		if len(rest) >= 3 {
			doff, err := x.ints(rest[0], "dst_offsets")
			if err != nil {
				return nil, err
			}
			soff, err := x.ints(rest[1], "src_offsets")
			if err != nil {
				return nil, err
			}
			shape, err := x.ints(rest[2], "shape")
			if err != nil {
				return nil, err
			}
			if dv, err = x.subScratch(dst, doff, shape); err != nil {
				return nil, fmt.Errorf("dst: %w", err)
			}
			if sv, err = x.subScratch(src, soff, shape); err != nil {
				return nil, fmt.Errorf("src: %w", err)
			}
		} else if len(rest) != 0 {
			return nil, fmt.Errorf("the region form needs dst_offsets, src_offsets and shape together")
		}
		add := c.Kwargs.Int("atomic", 0) != 0
		x.note(peer, "", 0)
		if put {
			return nil, x.copyView(dv, peer, sv, x.local(), add, c)
		}
		return nil, x.copyView(dv, x.local(), sv, peer, add, c)
	}
}
