package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Standalone split vector kernels. An AIV function whose split attr is
// UP_DOWN or LEFT_RIGHT runs on two vector lanes, and upstream's
// SplitVectorKernel rewrites its body for them: each lane's tpop_from_aic
// takes its half of the cube's tile, a tile.load, tile.create or
// tile.full makes only the lane's half (offset by lane × half along the
// split axis), a tile.store of a halved tile lands at the lane's place,
// and tile.set_validshape's extents become the lane's own, max(min(v −
// lane × half, half), 0); a row or column reduction along the split axis
// of a lane's half is refused (it would be partial). The user writes full
// shapes and offsets [0, 0].
//
// The simulator applies the same rewrite as the lanes run: a tile's
// static type keeps the function's full shape, and a lane's tile whose
// extent along the axis is smaller is its half. A tile of extent 1 along
// the axis (a broadcast row) is not split.

// laneSplitAxis is the axis a standalone split AIV function's lanes
// halve, or -1.
func laneSplitAxis(fn *ir.Function) int {
	if fn == nil || fn.Kind != ir.AIV {
		return -1
	}
	return ir.SplitAxis(fn.Attrs.Int("split", 0))
}

// laneFacetKey is the facet under which an op keeps its lane rule: how
// SplitVectorKernel rewrites (or refuses) a call of it in a split AIV
// function, given the evaluated arguments, the split axis and the lane.
// The rules below are registered on their ops; an op without one runs
// unchanged on a lane's tiles.
const laneFacetKey = "sim.lane"

// laneRule rewrites a call's arguments for one lane.
type laneRule func(c *ir.Call, a []any, axis, lane int) ([]any, error)

func init() {
	ir.TileLoad.SetFacet(laneFacetKey, laneRule(laneLoad))
	ir.TileCreate.SetFacet(laneFacetKey, laneRule(laneMake))
	ir.TileFull.SetFacet(laneFacetKey, laneRule(laneMake))
	ir.TileStore.SetFacet(laneFacetKey, laneRule(laneStore))
	ir.TileSetValidshape.SetFacet(laneFacetKey, laneRule(laneValidShape))
	for _, op := range ir.Ops() {
		if _, reduces := ir.FoldedAxis(op, 2); reduces {
			op.SetFacet(laneFacetKey, laneRule(laneReduce))
		}
	}
}

// laneAdjusted runs op with its arguments rewritten by rule for the running
// lane of a split AIV function (axis: the split axis).
func laneAdjusted(op OpFunc, rule laneRule, axis int) OpFunc {
	return func(x *Exec, c *ir.Call, a []any) (any, error) {
		if x.rc == nil || x.rc.split == nil || x.rc.group == nil {
			return op(x, c, a) // not running as a group's vector lane
		}
		b, err := rule(c, a, axis, x.lane())
		if err != nil {
			return nil, err
		}
		return op(x, c, b)
	}
}

// fullExtent is the static extent of a tile type along axis, and the
// lane's half of it; ok is false when the axis is not split there.
func fullExtent(t ir.Type, axis int) (full, half int, ok bool) {
	tt, isTile := t.(*ir.TileType)
	if !isTile || len(tt.Shape) < 2 || axis >= len(tt.Shape) {
		return 0, 0, false
	}
	e, static := ir.ConstValue(tt.Shape[axis])
	if !static || e <= 1 {
		return 0, 0, false
	}
	return int(e), (int(e) + 1) / 2, true
}

// heldHalf reports whether argument 0 of c is a lane's half: a tile whose
// extent along axis is the half of its static type's.
func heldHalf(c *ir.Call, a []any, axis int) (half int, ok bool) {
	t, isTile := a[0].(*Tile)
	full, half, split := fullExtent(c.Args[0].Type(), axis)
	return half, isTile && split && axis < len(t.Shape) && t.Shape[axis] == half && half < full
}

// laneLoad: the lane loads its half, at its offset, with its part of
// the valid extent.
func laneLoad(c *ir.Call, a []any, axis, lane int) ([]any, error) {
	full, half, ok := fullExtent(c.Type(), axis)
	if !ok || len(a) < 3 {
		return a, nil
	}
	offs, err := intsArg(a[1], "offsets")
	if err != nil {
		return nil, err
	}
	shape, err := intsArg(a[2], "shapes")
	if err != nil {
		return nil, err
	}
	if axis >= len(offs) || axis >= len(shape) || shape[axis] != full {
		return a, nil
	}
	b := append([]any(nil), a...)
	offs[axis] += lane * half
	shape[axis] = half
	b[1], b[2] = anyInts(offs), anyInts(shape)
	if len(a) > 3 && a[3] != nil {
		valid, err := intsArg(a[3], "valid_shape")
		if err != nil {
			return nil, err
		}
		if axis < len(valid) {
			valid[axis] = localize(valid[axis], half, lane)
			b[3] = anyInts(valid)
		}
	}
	return b, nil
}

// laneMake: tile.create and tile.full make the lane's half.
func laneMake(c *ir.Call, a []any, axis, lane int) ([]any, error) {
	full, half, ok := fullExtent(c.Type(), axis)
	if !ok {
		return a, nil
	}
	shape, err := intsArg(a[0], "shape")
	if err != nil {
		return nil, err
	}
	if axis >= len(shape) || shape[axis] != full {
		return a, nil
	}
	shape[axis] = half
	b := append([]any(nil), a...)
	b[0] = anyInts(shape)
	return b, nil
}

// laneStore: a lane's half lands at the lane's place.
func laneStore(c *ir.Call, a []any, axis, lane int) ([]any, error) {
	half, ok := heldHalf(c, a, axis)
	if !ok {
		return a, nil
	}
	offs, err := intsArg(a[1], "offsets")
	if err != nil {
		return nil, err
	}
	if axis >= len(offs) {
		return a, nil
	}
	offs[axis] += lane * half
	b := append([]any(nil), a...)
	b[1] = anyInts(offs)
	return b, nil
}

// laneValidShape: the valid extent along the axis becomes the lane's own.
func laneValidShape(c *ir.Call, a []any, axis, lane int) ([]any, error) {
	half, ok := heldHalf(c, a, axis)
	if !ok || len(a) < 3 {
		return a, nil
	}
	v, err := toInt(a[1+axis])
	if err != nil {
		return nil, err
	}
	b := append([]any(nil), a...)
	b[1+axis] = int64(localize(int(v), half, lane))
	return b, nil
}

// laneReduce: a reduction along the split axis of a lane's half would
// fold only that half; upstream refuses it.
func laneReduce(c *ir.Call, a []any, axis, lane int) ([]any, error) {
	if _, ok := heldHalf(c, a, axis); ok {
		if folded, _ := ir.FoldedAxis(c.Op, len(a[0].(*Tile).Shape)); folded == axis {
			return nil, fmt.Errorf("%s reduces along the split axis (dim %d) of a split vector kernel: each lane holds only its half, so the reduction would be partial (upstream's SplitVectorKernel refuses it)", c.Op.Name, axis)
		}
	}
	return a, nil
}

// localize is a lane's part of a valid extent v along the split axis.
func localize(v, half, lane int) int {
	return max(0, min(half, v-lane*half))
}

func anyInts(v []int) []any {
	out := make([]any, len(v))
	for i, n := range v {
		out[i] = int64(n)
	}
	return out
}
