//go:build cgo

package pyfront_test

import (
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/tensor"
)

// tensor.read and tensor.write of a value the kernel computed (and a read
// of an input it loaded, and of a tensor it created) become tile.read and
// tile.write of its tile, as upstream converts them; written and compiled
// agree. (The compile failed
// before: "tensor.write needs a tensor; store it first".)
func TestLocalScalarAccess(t *testing.T) {
	prog, comp, _ := authored(t, "local_scalars.py", "LocalScalars", 1)
	text := printer.Program(comp.Final())
	for _, want := range []string{"pl.tile.write(t__tile, [1, 2], first)", "pl.tile.read(t__tile, [1, 2])", "pl.tile.read(a__tile, [0, 0])",
		"= pl.tile.create([4], dtype=pl.FP32, target_memory=pl.Mem.Vec)", "pl.tile.write(s__tile, [2], back)", "pl.tile.read(s__tile, [2])"} {
		if !strings.Contains(text, want) {
			t.Fatalf("no %s in\n%s", want, text)
		}
	}
	a, b := tensor.Randn(1, 8, 32), tensor.Randn(2, 8, 32)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{a.Clone(), b.Clone(), tensor.Zeros(ir.FP32, 8, 32)}
	}, func(got []*tensor.Tensor, compiled bool) {
		s := a.At(0, 0)
		for _, c := range []struct {
			i, j int
			want float64
		}{{1, 2, f32(s * s)}, {3, 4, f32(f32(a.At(3, 4)+b.At(3, 4)) * s)}} {
			if v := got[2].At(c.i, c.j); v != c.want {
				t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, c.i, c.j, v, c.want)
			}
		}
	})
}
