package pl_test

import (
	"testing"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
)

// A host or a chip orchestrator that creates its result and returns it
// hands it back among the run's outputs, written and compiled, at several
// world sizes.
func TestRunReturnsCreatedTensors(t *testing.T) {
	check := func(t *testing.T, what string, res *pl.RunResult, x *tensor.Tensor, init float64) {
		t.Helper()
		outs := res.Outputs()
		if len(outs) != 1 {
			t.Fatalf("%s: %d outputs, want the returned tensor", what, len(outs))
		}
		want := x.Float32s()
		for i := range want {
			want[i] *= 2
		}
		got := outs[0].Float32s()
		for i, g := range got {
			w := float32(init) // the row no rank writes
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Fatalf("%s: returned element %d = %v, want %v (x = %v)", what, i, g, w, x)
			}
		}
	}
	for _, n := range []int{1, 2, 3} {
		prog := testprogs.ReturnedRows(32, 1.5)
		comp, err := pl.TryCompile(prog, pl.Ranks(n))
		if err != nil {
			t.Fatal(err)
		}
		x := tensor.Randn(int64(n), n, 1, 32)
		res, err := pl.Run(prog, pl.Ranks(n), x)
		if err != nil {
			t.Fatal(err)
		}
		check(t, "host, written", res, x, 1.5)
		if res, err = comp.Run(pl.Ranks(n), x); err != nil {
			t.Fatal(err)
		}
		check(t, "host, compiled", res, x, 1.5)
	}
	prog := testprogs.ReturnedChip(8, 16)
	x := tensor.Randn(9, 8, 16)
	res, err := pl.Run(prog, pl.Ranks(1), x)
	if err != nil {
		t.Fatal(err)
	}
	check(t, "chip orchestrator", res, x, 0)
}
