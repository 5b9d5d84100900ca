package testprogs_test

import (
	"testing"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
)

// Every block of every rank's launches writes its own rows, as written
// and compiled, at several world sizes.
func TestSpmdProgram(t *testing.T) {
	prog := testprogs.SpmdProgram()
	for _, n := range []int{1, 2, 3} {
		c, err := pl.TryCompile(prog, pl.Ranks(n))
		if err != nil {
			t.Fatal(err)
		}
		for _, compiled := range []bool{false, true} {
			x := tensor.Randn(int64(n), n, 8, 16)
			y, z := tensor.Zeros(pl.FP32, n, 8, 16), tensor.Zeros(pl.FP32, n, 8, 16)
			if compiled {
				_, err = c.Run(pl.Ranks(n), x, y, z)
			} else {
				_, err = pl.Run(prog, pl.Ranks(n), x, y, z)
			}
			if err != nil {
				t.Fatalf("%d ranks, compiled %v: %v", n, compiled, err)
			}
			for r := 0; r < n; r++ {
				for i := 0; i < 8; i++ {
					for j := 0; j < 16; j++ {
						v := x.At(r, i, j)
						wantY := float64(float32(v * float64(r+i/2)))
						wantZ := float64(float32(v + 2))
						if got := y.At(r, i, j); got != wantY {
							t.Fatalf("%d ranks, compiled %v: y[%d, %d, %d] = %v, want %v", n, compiled, r, i, j, got, wantY)
						}
						if got := z.At(r, i, j); got != wantZ {
							t.Fatalf("%d ranks, compiled %v: z[%d, %d, %d] = %v, want %v", n, compiled, r, i, j, got, wantZ)
						}
					}
				}
			}
		}
	}
}
