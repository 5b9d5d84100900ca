package interp_test

import (
	"context"
	"testing"

	"github.com/ptorepl/ptorepl/interp"
	"github.com/stretchr/testify/require"
)

// A cell binds a Go closure it defines to a program's host callback.
func TestCellBindsHostCallback(t *testing.T) {
	s, err := interp.New(interp.Options{})
	require.NoError(t, err)
	ctx := context.Background()
	_, err = s.Eval(ctx, "src := `import pypto.language as pl\n\n"+
		"@pl.program\n"+
		"class P:\n"+
		"    @pl.function(type=pl.FunctionType.InCore)\n"+
		"    def twice(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:\n"+
		"        t = pl.load(x, [0, 0], [1, 8])\n"+
		"        return pl.store(pl.add(t, t), [0, 0], y)\n"+
		"    @pl.function(type=pl.FunctionType.Orchestration)\n"+
		"    def chip(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:\n"+
		"        return self.twice(x, y)\n"+
		"    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)\n"+
		"    def seen(y: pl.Tensor[[1, 8], pl.FP32]):\n"+
		"        ...\n"+
		"    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"+
		"    def host(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:\n"+
		"        out: pl.Tensor[[1, 8], pl.FP32] = self.chip(x, y)\n"+
		"        self.seen(out)\n"+
		"        return out\n`\n"+
		"mod, err := pl.ParsePython(src)\n"+
		"prog, err := mod.Program(\"P\")")
	require.NoError(t, err)
	r, err := s.Eval(ctx, `last := 0.0
x := tensor.Full(pl.FP32, 1.5, 1, 8)
y := tensor.Zeros(pl.FP32, 1, 8)
_, err = pl.Run(prog, pl.Ranks(1).Callback("seen", func(a []*tensor.Tensor) error {
	last = a[0].At(0, 7)
	return nil
}), x, y)
fmt.Println(err, last)`)
	require.NoError(t, err)
	require.Equal(t, "<nil> 3\n", r.Stdout())
}
