package runtime

import (
	"fmt"
	"math"
	"sort"

	"github.com/ptorepl/ptorepl/ir"
)

// Sorting (ir/ops_sort.go) on value/index pairs: an FP32 pair is the value
// then the index's bits (the index reinterpreted as FP32), so a row of
// pairs is read back with gather_mask (P0101 values, P1010 indices as
// UINT32). Orders are descending and stable: equal values keep their
// order of appearance.

func init() {
	Register(ir.TileSort32, sort32Op)
	Register(ir.TileMrgsortFormat1, mrgsort1Op)
	Register(ir.TileMrgsortFormat2, mrgsort2Op)
}

// pair is one value/index proposal.
type pair struct{ v, bits float64 }

// sortTile reads argument i as an FP32 tile of rows.
func sortTile(a []any, i int, what string) (*Tile, int, int, error) {
	t, ok := a[i].(*Tile)
	if !ok {
		return nil, 0, 0, fmt.Errorf("%s: expected a tile, given %s", what, describe(a[i]))
	}
	if t.DType != ir.FP32 {
		return nil, 0, 0, fmt.Errorf("%s: the simulator lays out FP32 value/index pairs only, given %s", what, t.DType)
	}
	cols := t.Shape[len(t.Shape)-1]
	return t, numel(t.Shape) / max(cols, 1), cols, nil
}

func sort32Op(x *Exec, c *ir.Call, a []any) (any, error) {
	src, rows, cols, err := sortTile(a, 0, "src")
	if err != nil {
		return nil, err
	}
	idx, ok := a[1].(*Tile)
	if !ok || numel(idx.Shape) != numel(src.Shape) {
		return nil, fmt.Errorf("idx: expected a tile shaped like src")
	}
	vals, ids := src.values(), idx.values()
	out := make([]float64, 2*len(vals))
	block := make([]pair, 0, 32)
	for r := 0; r < rows; r++ {
		for b := 0; b < cols; b += 32 {
			block = block[:0]
			for j := b; j < min(b+32, cols); j++ {
				k := r*cols + j
				block = append(block, pair{vals[k], float64(math.Float32frombits(uint32(int64(ids[k]))))})
			}
			sort.SliceStable(block, func(i, j int) bool { return block[i].v > block[j].v })
			for k, p := range block {
				o := r*2*cols + 2*(b+k)
				out[o], out[o+1] = p.v, p.bits
			}
		}
	}
	shape := append(append([]int(nil), src.Shape[:len(src.Shape)-1]...), 2*cols)
	return x.result(c, ir.FP32, shape, out, nil), nil
}

// runs reads row r of t (cols slots) as pairs.
func rowPairs(vals []float64, r, cols int) []pair {
	out := make([]pair, cols/2)
	for k := range out {
		out[k] = pair{vals[r*cols+2*k], vals[r*cols+2*k+1]}
	}
	return out
}

// merge merges sorted lists of pairs in descending order, stably (an
// earlier list first among equals); with exhausted it stops when a list
// runs out.
func merge(lists [][]pair, exhausted bool) []pair {
	var out []pair
	pos := make([]int, len(lists))
	for {
		best := -1
		for i, l := range lists {
			if pos[i] >= len(l) {
				if exhausted {
					return out
				}
				continue
			}
			if best < 0 || l[pos[i]].v > lists[best][pos[best]].v {
				best = i
			}
		}
		if best < 0 {
			return out
		}
		out = append(out, lists[best][pos[best]])
		pos[best]++
	}
}

func mrgsort1Op(x *Exec, c *ir.Call, a []any) (any, error) {
	src, rows, cols, err := sortTile(a, 0, "src")
	if err != nil {
		return nil, err
	}
	l, err := toInt(a[1])
	if err != nil {
		return nil, fmt.Errorf("block_len: %w", err)
	}
	if l <= 0 || l%2 != 0 {
		return nil, fmt.Errorf("block_len %d is not a positive even run length", l)
	}
	vals := src.values()
	out := make([]float64, len(vals))
	run := int(l) / 2 // pairs per run
	for r := 0; r < rows; r++ {
		ps := rowPairs(vals, r, cols)
		var merged []pair
		for g := 0; g < len(ps); g += 4 * run {
			var lists [][]pair
			for k := g; k < min(g+4*run, len(ps)); k += run {
				lists = append(lists, ps[k:min(k+run, len(ps))])
			}
			merged = append(merged, merge(lists, false)...)
		}
		for k, p := range merged {
			out[r*cols+2*k], out[r*cols+2*k+1] = p.v, p.bits
		}
	}
	return x.result(c, ir.FP32, src.Shape, out, nil), nil
}

func mrgsort2Op(x *Exec, c *ir.Call, a []any) (any, error) {
	n := len(a)
	width := -1
	if c.Op == ir.TileMrgsortFormat2 {
		n-- // the last argument is tmp, the destination's shape
		tmp, ok := a[n].(*Tile)
		if !ok {
			return nil, fmt.Errorf("tmp: expected a tile, given %s", describe(a[n]))
		}
		width = tmp.Shape[len(tmp.Shape)-1]
	}
	var lists [][][]pair // per row, per source
	var rows, sum int
	for i := 0; i < n; i++ {
		t, r, cols, err := sortTile(a, i, fmt.Sprintf("src%d", i))
		if err != nil {
			return nil, err
		}
		if i == 0 {
			rows = r
			lists = make([][][]pair, rows)
		} else if r != rows {
			return nil, fmt.Errorf("src%d has %d rows, src0 %d", i, r, rows)
		}
		vals := t.values()
		for row := 0; row < rows; row++ {
			lists[row] = append(lists[row], rowPairs(vals, row, cols))
		}
		sum += cols
	}
	if width < 0 {
		width = sum
	}
	out := make([]float64, rows*width)
	for row := 0; row < rows; row++ {
		for k, p := range merge(lists[row], c.Kwargs.Bool("exhausted", false)) {
			if 2*k+1 >= width {
				break
			}
			out[row*width+2*k], out[row*width+2*k+1] = p.v, p.bits
		}
	}
	s0 := a[0].(*Tile).Shape
	shape := append(append([]int(nil), s0[:len(s0)-1]...), width)
	return x.result(c, ir.FP32, shape, out, nil), nil
}
