//go:build cgo

package pyfront_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/tensor"
)

// A name bound in both branches of an if (one variable to the reader, as
// in a printed SSA stage read back) yields each branch's own tile after
// ConvertTensorToTileOps, run on the program as read: the kernel picks
// x + x or x * x as the program before the pass does.
func TestBranchesBindOneName(t *testing.T) {
	before := authoredIR(t, "branch_names.py")("Branches")
	after, err := passes.ConvertTensorToTileOps(before)
	if err != nil {
		t.Fatal(err)
	}
	if text := printer.Program(after); !strings.Contains(text, "picked: pl.Tile[[8, 32], pl.FP32, pl.Mem.Vec] = pl.yield_(y__tile)") {
		t.Fatalf("want the then branch to yield its own tile, y__tile:\n%s", text)
	} else if strings.Count(text, "y__tile: pl.Tile") != 2 || strings.Contains(text, "y__tile_1") {
		// One variable y, so one tile variable, as upstream converts it.
		t.Fatalf("want both branches to bind y's one tile variable, y__tile:\n%s", text)
	}
	roundTrip(t, "Branches after ConvertTensorToTileOps", after)
	x := tensor.Randn(7, 8, 32)
	for _, n := range []float64{0, 1} {
		for _, p := range []*ir.Program{before, after} {
			a := []*tensor.Tensor{x.Clone(), tensor.Full(ir.INT64, n, 1), tensor.Zeros(ir.FP32, 8, 32)}
			if _, _, err := checker.Run(context.Background(), p, a, checker.Options{Ranks: 1}); err != nil {
				t.Fatal(err)
			}
			v := x.At(3, 5)
			want := f32(v + v)
			if n != 0 {
				want = f32(v * v)
			}
			if got := a[2].At(3, 5); got != want {
				t.Fatalf("n = %v: out = %v, want %v, from\n%s", n, got, want, printer.Program(p))
			}
		}
	}
}
