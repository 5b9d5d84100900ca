package interp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/interp"
)

const pyptoCell = `%%pypto mod
import pypto.language as pl

def build_copy(rows, cols=8):
    @pl.program
    class Copy:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(x: pl.Tensor[[rows, cols], pl.FP32], y: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]):
            y = pl.store(pl.load(x, [0, 0], [rows, cols]), [0, 0], y)
            return y

    return Copy
`

// TestPyptoCell: a %%pypto cell binds the module to a Go variable the next
// cells use; a bad body fails with its cell:line:col position, and the
// session lives on.
func TestPyptoCell(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	code, ok, err := interp.PyptoCell(pyptoCell)
	if !ok || err != nil {
		t.Fatalf("ok=%v err=%v", ok, err)
	}
	r, err := s.Eval(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text(), "factory build_copy") {
		t.Fatalf("the module shows as %q", r.Text())
	}
	r, err = s.Eval(ctx, `p, err := mod.Call("build_copy", 4)
fmt.Println(err)
p`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text(), "pl.Tensor[[4, 8], pl.FP32]") {
		t.Fatalf("the factory's program prints as %q", r.Text())
	}
	_, _, err = interp.PyptoCell("%%pypto bad\nimport pypto.language as pl\nX = pl.dynamic(\"N\")\n@pl.program\nclass P:\n    @pl.function\n    def f(self):\n        pl.tile.nope()\n")
	if err == nil || !strings.HasPrefix(err.Error(), "cell:8:9: unknown op pl.tile.nope") {
		t.Fatalf("want a cell:8:9 error, got %v", err)
	}
	_, _, err = interp.PyptoCell("\n%%pypto bad\nimport pypto.language as pl\nx = (\n")
	if err == nil || !strings.HasPrefix(err.Error(), "cell:4:") {
		t.Fatalf("a leading blank line keeps cell line numbers: %v", err)
	}
	if _, ok, _ := interp.PyptoCell("x := 1"); ok {
		t.Fatal("a Go cell is not a pypto cell")
	}
	if _, err := s.Eval(ctx, "mod.Names()"); err != nil {
		t.Fatalf("the session should live on: %v", err)
	}
}
