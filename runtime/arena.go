package runtime

// Tile memory for a running task. Large tiles take whole pooled buffers
// (allocF32); small ones are cut from slabs, pooled blocks handed out in
// order and all returned when the task ends, so a loop that loads a small
// tile per iteration allocates nothing once the slabs are warm.

// slabSize is the size of one slab block (a pooled buffer class).
const slabSize = 1 << 20

// slabs is a task's small-tile memory.
type slabs struct {
	blocks [][]byte // every block taken, the current one last
	off    int      // bytes used of the current block
}

// f32 returns n float32s (contents undefined) from the slabs.
func (s *slabs) f32(n int) []float32 {
	need := (4*n + 63) &^ 63 // cache-line steps keep every tile aligned
	k := len(s.blocks) - 1
	if k < 0 || s.off+need > len(s.blocks[k]) {
		s.blocks = append(s.blocks, getBuf(slabSize))
		s.off, k = 0, k+1
	}
	b := s.blocks[k][s.off : s.off+4*n : s.off+4*n]
	s.off += need
	f, _ := asF32(b) // blocks are 8-byte aligned and need is a multiple of 64
	return f
}

// release returns every block.
func (s *slabs) release() {
	for i, b := range s.blocks {
		putBuf(b)
		s.blocks[i] = nil
	}
	s.blocks, s.off = s.blocks[:0], 0
}
