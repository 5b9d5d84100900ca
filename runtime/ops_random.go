package runtime

import (
	"fmt"
	"math/bits"

	"github.com/ptorepl/ptorepl/ir"
)

// tile.random is Philox4x32 (Salmon et al., "Parallel random numbers: as
// easy as 1, 2, 3", SC'11) with the op's rounds: the element at row-major
// position p of the tile takes word p%4 of the block the cipher makes of
// the 128-bit counter plus p/4 under the 64-bit key. The device's TRANDOM
// is also counter-based, but its lane schedule is not documented, so the
// simulator's words are not the NPU's: what carries over is that the same
// seeds give the same tile and different seeds independent ones (upstream
// tests it so, by subtracting two draws). Outside valid_shape the tile
// is zero.

const (
	philoxM0, philoxM1 = 0xD2511F53, 0xCD9E8D57
	philoxW0, philoxW1 = 0x9E3779B9, 0xBB67AE85
)

// philox4x32 enciphers counter ctr under key with the given rounds.
func philox4x32(ctr [4]uint32, key [2]uint32, rounds int) [4]uint32 {
	for i := 0; i < rounds; i++ {
		if i > 0 {
			key[0] += philoxW0
			key[1] += philoxW1
		}
		hi0, lo0 := bits.Mul32(philoxM0, ctr[0])
		hi1, lo1 := bits.Mul32(philoxM1, ctr[2])
		ctr = [4]uint32{hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0}
	}
	return ctr
}

// addCounter is the 128-bit counter c (word 0 least significant) plus n.
func addCounter(c [4]uint32, n uint64) [4]uint32 {
	var carry uint32
	c[0], carry = bits.Add32(c[0], uint32(n), 0)
	c[1], carry = bits.Add32(c[1], uint32(n>>32), carry)
	c[2], carry = bits.Add32(c[2], 0, carry)
	c[3], _ = bits.Add32(c[3], 0, carry)
	return c
}

func randomOp(x *Exec, c *ir.Call, a []any) (any, error) {
	var seed [6]uint32
	for i := range seed {
		v, err := toInt(a[i])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Op.ArgName(i), err)
		}
		seed[i] = uint32(v)
	}
	shape, err := intsArg(a[6], "shape")
	if err != nil {
		return nil, err
	}
	valid := shape
	if len(a) > 7 {
		if valid, err = intsArg(a[7], "valid_shape"); err != nil {
			return nil, err
		}
	}
	dt := ir.UINT32
	if v, ok := c.Kwargs.DType("dtype"); ok {
		dt = v
	}
	rounds := int(c.Kwargs.Int("rounds", 10))
	key, ctr := [2]uint32{seed[0], seed[1]}, [4]uint32{seed[2], seed[3], seed[4], seed[5]}
	rows, cols := shape[0], shape[1]
	out := make([]float64, rows*cols)
	var block [4]uint32
	for r := 0; r < valid[0]; r++ {
		for col := 0; col < valid[1]; col++ {
			p := r*cols + col
			// A block serves four positions; valid rows narrower than the
			// tile skip some, so each is computed where it is needed.
			if col == 0 || p%4 == 0 {
				block = philox4x32(addCounter(ctr, uint64(p/4)), key, rounds)
			}
			w := block[p%4]
			if dt == ir.INT32 {
				out[p] = float64(int32(w))
			} else {
				out[p] = float64(w)
			}
		}
	}
	t := x.result(c, dt, shape, out, nil)
	if tile, ok := t.(*Tile); ok && len(a) > 7 {
		tile.Valid = valid
	}
	return t, nil
}

func init() { Register(ir.TileRandom, randomOp) }
