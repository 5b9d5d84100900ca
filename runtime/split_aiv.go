package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// pl.split_aiv regions: the body runs once per vector lane, lane 0 then
// lane 1, each seeing its index through tile.get_subblock_idx. On the NPU
// the two lanes run at once; a region whose lanes each work on their own
// half (aiv_shard, then stores at lane offsets) computes the same either
// way. aiv_shard gives the lane its half of a cube result; aic_gather
// places the lane's half into the tile it joins, which after lane 1 holds
// both halves, as the cube receives it.

// splitRegion is a running region: the lane, and per aic_gather call the
// tile it is filling.
type splitRegion struct {
	mode    ir.SplitMode
	lane    int
	gathers map[*ir.Call]*Tile
}

func init() {
	Register(ir.TileGetSubblockIdx, func(x *Exec, c *ir.Call, a []any) (any, error) {
		if x.rc == nil || x.rc.split == nil {
			return int64(0), nil
		}
		return int64(x.rc.split.lane), nil
	})
	shard := func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, axis, err := splitOperand(c, a[0])
		if err != nil || axis < 0 {
			return t, err
		}
		return laneHalf(t, axis, x.lane()), nil
	}
	gather := func(x *Exec, c *ir.Call, a []any) (any, error) {
		t, axis, err := splitOperand(c, a[0])
		if err != nil || axis < 0 {
			return t, err
		}
		full := append([]int(nil), t.Shape...)
		full[axis] *= 2
		var into *Tile
		if x.rc != nil && x.rc.split != nil {
			into = x.rc.split.gathers[c]
		}
		if into == nil || !equalInts(into.Shape, full) {
			into = newTile(t.DType, full)
		}
		out := placeHalf(into, t, axis, x.lane())
		if x.rc != nil && x.rc.split != nil {
			x.rc.split.gathers[c] = out
		}
		return out, nil
	}
	Register(ir.TileAivShard, shard)
	Register(ir.TileAicGather, gather)
	// The tensor forms run these through their tile forms (ops_tensorform.go).
}

// splitAiv runs the region s once per lane.
func (x *Exec) splitAiv(s *ir.ScopeStmt, body func() ([]any, bool, error)) ([]any, bool, error) {
	if x.rc == nil {
		return nil, false, posErr(s.Pos, fmt.Errorf("pl.split_aiv runs on a core's vector lanes, not in the host orchestrator"))
	}
	outer := x.rc.split
	defer func() { x.rc.split = outer }()
	region := &splitRegion{mode: s.Split, gathers: map[*ir.Call]*Tile{}}
	x.rc.split = region
	for lane := 0; lane < 2; lane++ {
		region.lane = lane
		if vals, ret, err := body(); err != nil || ret {
			return vals, ret, err
		}
	}
	return nil, false, nil
}

// lane is the running vector lane (0 outside a region).
func (x *Exec) lane() int {
	if x.rc == nil || x.rc.split == nil {
		return 0
	}
	return x.rc.split.lane
}

// splitOperand is a shard's or gather's operand and the axis its split
// halves (-1: none); a split operand must be 2-D.
func splitOperand(c *ir.Call, v any) (*Tile, int, error) {
	t, err := tileArg(v, "tile")
	if err != nil {
		return nil, -1, err
	}
	axis := ir.SplitAxis(c.Kwargs.Int("split", 0))
	if len(t.Shape) != 2 && axis >= 0 {
		return nil, -1, fmt.Errorf("%s: expected a 2-D tile, given %v", c.Name(), dimsText(t.Shape))
	}
	return t, axis, nil
}

// laneHalf is lane's half of t along axis: the half rounded up (lane 1
// holds the spare cell of an odd extent, zero), valid as far as t's valid
// region reaches into it.
func laneHalf(t *Tile, axis, lane int) *Tile {
	h := (t.Shape[axis] + 1) / 2
	shape := append([]int(nil), t.Shape...)
	shape[axis] = h
	vals, src := make([]float64, shape[0]*shape[1]), t.values()
	for i := 0; i < shape[0]; i++ {
		for j := 0; j < shape[1]; j++ {
			r, k := i, j
			if axis == 0 {
				r += lane * h
			} else {
				k += lane * h
			}
			if r < t.Shape[0] && k < t.Shape[1] {
				vals[i*shape[1]+j] = src[r*t.Shape[1]+k]
			}
		}
	}
	out := tileOf(t.DType, shape, vals)
	valid := append([]int(nil), t.validShape()...)
	valid[axis] = min(h, max(0, valid[axis]-lane*h))
	if !equalInts(valid, shape) {
		out = out.withValid(valid)
	}
	return out
}

// placeHalf is into with half written at lane's place along axis.
func placeHalf(into, half *Tile, axis, lane int) *Tile {
	vals, src := append([]float64(nil), into.values()...), half.values()
	cols := into.Shape[1]
	for i := 0; i < half.Shape[0]; i++ {
		for j := 0; j < half.Shape[1]; j++ {
			r, k := i, j
			if axis == 0 {
				r += lane * half.Shape[0]
			} else {
				k += lane * half.Shape[1]
			}
			vals[r*cols+k] = src[i*half.Shape[1]+j]
		}
	}
	return tileOf(into.DType, into.Shape, vals)
}
