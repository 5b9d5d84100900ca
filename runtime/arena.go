package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

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

// --- the simulated on-chip buffer

// UBBytes is the unified buffer of one simulated vector core (192 KiB, an
// Ascend AIV core's UB). A program whose address plan reaches further gets
// an arena as large as its plan, so oversized tiles still run.
const UBBytes = 192 << 10

// TileDef names a tile variable and the line that defined it.
type TileDef struct {
	Name string
	Pos  ir.Span
}

func (d TileDef) String() string {
	if d.Pos.Known() {
		return fmt.Sprintf("%s (defined at %s)", d.Name, d.Pos)
	}
	return d.Name
}

// TileOverlap is a tile read after another tile's placement overwrote part
// of it on the on-chip buffer: the address plan (AllocateMemoryAddr, or a
// hand-written one) gave two tiles that are live at once overlapping bytes.
type TileOverlap struct {
	Rank   int
	Func   string
	Live   TileDef // the tile that was still live
	Over   TileDef // the tile placed over it
	Lo, Hi int     // the overlapping bytes of the buffer
}

func (o TileOverlap) String() string {
	return fmt.Sprintf("rank %d, %s: tile %s was overwritten on the on-chip buffer by tile %s (bytes [%d, %d)) while still live: their addresses overlap",
		o.Rank, o.Func, o.Live, o.Over, o.Lo, o.Hi)
}

// placement is where a call site's result tile lives on the buffer: the
// address AllocateMemoryAddr gave its MemRef.
type placement struct {
	lo, size int
	def      TileDef
	base     string // the MemRef's base: tiles sharing it share storage on purpose
	// slot is the MemRef of a tile in a slot of a declared allocation
	// (nil: none): tiles of one allocation share its base, but only an
	// in-place result shares its source's slot on purpose.
	slot *ir.MemRef
}

// ubTile is one tile placed on a rank's buffer.
type ubTile struct {
	p       *placement
	clobber *placement // the placement that overwrote part of it; nil while intact
	lo, hi  int        // the overwritten bytes
}

// ubState is a rank's buffer: its bytes and the tiles placed on it.
type ubState struct {
	mem  []byte
	live []*ubTile // the latest tile of each placement site
	seen map[[2]*placement]bool
}

// arena returns n float32s at the placement's address, or nil when the
// placement does not hold them.
func (u *ubState) arena(p *placement, n int) []float32 {
	if 4*n > p.size || p.lo < 0 || p.lo+4*n > len(u.mem) || p.lo%4 != 0 {
		return nil
	}
	f, _ := asF32(u.mem[p.lo : p.lo+4*n])
	return f
}

// place records a tile written at p, marking the overlapped tiles of other
// storage, and the site's own previous tile, as clobbered.
func (u *ubState) place(p *placement) *ubTile {
	t := &ubTile{p: p}
	hi := p.lo + p.size
	k := 0
	for _, o := range u.live {
		if o.p == p {
			// This site's previous tile (a loop's last iteration): it is
			// overwritten whole, and a later read of it (a loop-carried
			// value still to be read) sees the new bytes. It leaves the
			// live list, as it cannot be overwritten more.
			if o.clobber == nil {
				o.clobber, o.lo, o.hi = p, p.lo, hi
			}
			continue
		}
		apart := o.p.base != p.base || (o.p.slot != nil && p.slot != nil && o.p.slot != p.slot)
		if apart && o.clobber == nil && o.p.lo < hi && p.lo < o.p.lo+o.p.size {
			o.clobber, o.lo, o.hi = p, max(o.p.lo, p.lo), min(o.p.lo+o.p.size, hi)
		}
		u.live[k] = o
		k++
	}
	u.live = append(u.live[:k], t)
	return t
}

// release returns the buffer's memory (the rank stopped).
func (u *ubState) release() {
	if u.mem != nil {
		putBuf(u.mem)
	}
	u.mem, u.live = nil, u.live[:0]
}
