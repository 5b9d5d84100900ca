package passes_test

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/printer"
)

// The values a loop carries, and an if's phis, are ordered by name, as
// upstream's ConvertToSSA orders them, whatever order the body assigns
// them in.
func TestSSACarriedOrder(t *testing.T) {
	prog := pl.NewProgram("Order")
	prog.InCore("k", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 16), pl.FP32))
		n := f.Scalar("n", pl.INT64)
		y := f.Out("y", pl.Tensor(pl.Dims(1, 16), pl.FP32))
		f.Returns(pl.Tensor(pl.Dims(1, 16), pl.FP32))
		z := f.Let("z", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 16)))
		a := f.Let("a", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 16)))
		f.For("i", pl.Range(4), func(i pl.Expr) {
			f.Set(z, pl.Add(z, a))
			f.Set(a, pl.Mul(a, z))
		})
		f.If(pl.Gt(n, 0), func() {
			f.Set(z, pl.Add(z, z))
			f.Set(a, pl.Add(a, a))
		})
		f.Return(pl.Store(pl.Add(a, z), pl.Dims(0, 0), y))
	})
	q, err := passes.ConvertToSSA(prog.IR())
	require.NoError(t, err)
	text := printer.Program(q)
	require.Regexp(t, regexp.MustCompile(`for i, \(a__iter_v\d+, z__iter_v\d+\) in pl\.range`), text)
	require.Regexp(t, regexp.MustCompile(`a__phi_v\d+, z__phi_v\d+ = pl\.yield_\(`), text)
}
