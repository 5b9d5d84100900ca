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

// InitMemRef and AllocateMemoryAddr give what memref_plan.py says they
// give (every function's tensors, store results, slices at their byte
// offsets, buffers at 0 until planned), their stages read back to the
// same IR, MemRefs included, and each stage runs to the same values with
// no overlap reported on the simulated buffer.
func TestMemRefPlan(t *testing.T) {
	prog := authoredIR(t, "memref_plan.py")
	// samePrint compares got with want as printed, want's class name
	// aside.
	samePrint := func(stage string, got, want *ir.Program) {
		t.Helper()
		g := got.Clone()
		g.Name = want.Name
		if a, b := printer.Program(g), printer.Program(want); a != b {
			t.Fatalf("%s gives\n%s", stage, firstDiff(b, a))
		}
	}
	// runs gives each program's outputs on the same inputs, checked.
	runs := func(args func() []*tensor.Tensor, out int, ps ...*ir.Program) []*tensor.Tensor {
		t.Helper()
		var outs []*tensor.Tensor
		for _, p := range ps {
			a := args()
			_, rep, err := checker.Run(context.Background(), p, a, checker.Options{Ranks: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Clean() {
				t.Fatalf("%s: the checker reports\n%s", printer.Program(p), rep)
			}
			outs = append(outs, a[out])
		}
		return outs
	}
	sameOutputs := func(outs []*tensor.Tensor) {
		t.Helper()
		for i, o := range outs[1:] {
			if !o.Equal(outs[0]) {
				t.Fatalf("stage %d gives %s, the program as written %s", i+1, o, outs[0])
			}
		}
	}

	before := prog("Before")
	initialized, err := passes.InitMemRef(before)
	if err != nil {
		t.Fatal(err)
	}
	samePrint("InitMemRef", initialized, prog("Initialized"))
	planned, err := passes.AllocateMemoryAddr(initialized)
	if err != nil {
		t.Fatal(err)
	}
	samePrint("AllocateMemoryAddr", planned, prog("Planned"))
	if ir.AddressesPlanned(initialized.Functions[0]) || !ir.AddressesPlanned(planned.Functions[0]) {
		t.Fatal("AddressesPlanned does not tell the placeholder from the plan")
	}
	again, err := passes.AllocateMemoryAddr(planned)
	if err != nil {
		t.Fatal(err)
	}
	samePrint("AllocateMemoryAddr run twice", again, prog("Planned"))
	roundTrip(t, "Initialized", initialized)
	roundTrip(t, "Planned", planned)
	outs := runs(func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 64), tensor.Zeros(ir.FP32, 8, 64)}
	}, 1, before, initialized, planned)
	x := tensor.Randn(1, 16, 64)
	for i := 0; i < 8; i++ { // ys[4k+r] = 2 xs[8k+4+r]
		for j := 0; j < 64; j++ {
			if got, want := outs[0].At(i, j), 2*x.At(i/4*8+4+i%4, j); got != f32(want) {
				t.Fatalf("ys[%d, %d] = %v, want twice the lower half of its xs block, %v", i, j, got, want)
			}
		}
	}
	sameOutputs(outs)

	// Loop results share their iter-arg's buffer, as upstream's InitMemRef
	// keeps an accumulator in one place; the reader gives a result the
	// printed `a, b = pl.yield_(x, y)` cannot type the same buffer. The
	// planned program computes what the written one does (before the
	// copy below, it did not, and the checker now says so).
	carry := prog("Carry")
	ci, err := passes.InitMemRef(carry)
	if err != nil {
		t.Fatal(err)
	}
	// b1 reads a after a1 is written, and a1's buffer is where the next
	// iteration's a would live: a1 is carried on in a copy of its own.
	if text := printer.Program(ci); !strings.Contains(text, "= pl.tile.move(a1, target_memory=pl.Mem.Vec)") ||
		!strings.Contains(text, "pl.yield_(a__carried, b1)") {
		t.Fatalf("a1 is not carried on in a copy:\n%s", text)
	}
	cp, err := passes.AllocateMemoryAddr(ci)
	if err != nil {
		t.Fatal(err)
	}
	mem := map[string]*ir.MemRef{}
	ir.WalkStmt(ci.Functions[0].Body, nil, func(s ir.Stmt) {
		switch x := s.(type) {
		case *ir.AssignStmt:
			if tt, ok := x.Var.Type().(*ir.TileType); ok {
				mem[x.Var.Name] = tt.MemRef
			}
		case *ir.ForStmt, *ir.WhileStmt:
			_, rvs := ir.LoopCarried(x)
			for _, v := range rvs {
				if tt, ok := v.Type().(*ir.TileType); ok {
					mem[v.Name] = tt.MemRef
				}
			}
		}
	})
	for rv, init := range map[string]string{"a_out": "a0", "b_out": "b0", "c_out": "a0"} {
		if mem[rv] == nil || mem[rv] != mem[init] {
			t.Fatalf("%s has MemRef %v, want %s's %v", rv, mem[rv], init, mem[init])
		}
	}
	roundTrip(t, "Carry after InitMemRef", ci)
	roundTrip(t, "Carry after AllocateMemoryAddr", cp)
	couts := runs(func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(2, 16, 64), tensor.Full(ir.INDEX, 3, 1), tensor.Zeros(ir.FP32, 16, 64)}
	}, 2, carry, ci, cp)
	sameOutputs(couts)

	// withoutCopy runs the planned program as if it yielded value
	// itself instead of a's copy: a tile overwrites the a still to be
	// read, the result changes and the checker names the tile.
	withoutCopy := func(where string, planned *ir.Program, value string, args []*tensor.Tensor, out int, want *tensor.Tensor, over string) {
		t.Helper()
		var kept []string
		for _, line := range strings.Split(printer.Program(planned), "\n") {
			if !strings.Contains(line, "a__carried:") {
				kept = append(kept, strings.ReplaceAll(line, "a__carried", value))
			}
		}
		hazard := readOne(t, where+" without the copy", strings.Join(kept, "\n"))
		_, rep, err := checker.Run(context.Background(), hazard, args, checker.Options{Ranks: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Of(checker.KindTileOverlap)) == 0 || !strings.Contains(rep.String(), "tile "+over+" overwrote its own previous value") {
			t.Fatalf("%s: want %s's overwrite of the carried a reported, got:\n%s", where, over, rep)
		}
		if args[out].Equal(want) {
			t.Fatalf("%s: the hazard did not change the result", where)
		}
	}
	// Without the copy, a1 overwrites the a that b1 still reads.
	withoutCopy("Carry", cp, "a1", []*tensor.Tensor{tensor.Randn(2, 16, 64), tensor.Full(ir.INDEX, 3, 1), tensor.Zeros(ir.FP32, 16, 64)}, 2, couts[0], "a1")

	// Swaps: a loop yielding its iter-arg p on (into q), and one swapping
	// two iter-args, compute as written once planned, with a clean report.
	swap := prog("Swap")
	si, err := passes.InitMemRef(swap)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := passes.AllocateMemoryAddr(si)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, "Swap after AllocateMemoryAddr", sp)
	sameOutputs(runs(func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(3, 16, 64), tensor.Zeros(ir.FP32, 16, 64)}
	}, 1, swap, si, sp))

	// Kernels whose carried a is at risk where the value carried on is
	// defined: each gets a copy (its text shows the yield of
	// a__carried), its plan computes as written, and without the copy (the
	// plan yielding value itself) it does not, the checker naming the
	// tile that overwrote a.
	for _, c := range []struct {
		name, yield, value, over string
		seed                     int64
	}{
		// A carried value an if defines lives in the buffer of the
		// branch that yielded it, and both branches read a after writing
		// theirs.
		{"CarryIf", "pl.yield_(a__carried, b2)", "a2", "a1", 4},
		// An inner loop's result is the tile its body wrote last, and
		// that body reads a on every iteration.
		{"CarryNested", "pl.yield_(a__carried)", "c_out", "c1", 5},
	} {
		written := prog(c.name)
		initialized, err := passes.InitMemRef(written)
		if err != nil {
			t.Fatal(err)
		}
		if text := printer.Program(initialized); !strings.Contains(text, "a__carried: pl.Tile") || !strings.Contains(text, c.yield) {
			t.Fatalf("%s: %s is not carried on in a copy:\n%s", c.name, c.value, text)
		}
		planned, err := passes.AllocateMemoryAddr(initialized)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, c.name+" after AllocateMemoryAddr", planned)
		args := func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Randn(c.seed, 16, 64), tensor.Zeros(ir.FP32, 16, 64)}
		}
		outs := runs(args, 1, written, initialized, planned)
		sameOutputs(outs)
		withoutCopy(c.name, planned, c.value, args(), 1, outs[0], c.over)
	}

	// A kernel whose tensors carry MemRefs and whose tiles carry none is
	// planned, not taken for one InitMemRef has seen.
	ai, err := passes.InitMemRef(prog("Annotated"))
	if err != nil {
		t.Fatal(err)
	}
	if text := printer.Program(ai); !strings.Contains(text, "u: pl.Tile[[8, 32], pl.FP32, pl.MemRef(mem_vec_3, 0, 1024), pl.Mem.Vec]") {
		t.Fatalf("the annotated kernel's tiles are not planned:\n%s", text)
	}
}
