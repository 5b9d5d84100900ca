//go:build cgo

package pyfront_test

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/tensor"
)

// Declared allocations (memref_slots.py): InitMemRef sizes them and plans
// the other tiles around them, a runtime slot index becomes an address
// computed in the kernel, and two live tiles declared into one slot
// corrupt each other on the simulated buffer, named by the checker.
func TestDeclaredSlots(t *testing.T) {
	const tr, tc, steps = 16, 16, 4
	prog, comp, text := authored(t, "memref_slots.py", "PingPong", 1)
	if src := prog.String(); !strings.Contains(src, `pl.MemRef("PINGPONG", slots=2)[(i + 1) % 2]`) {
		t.Fatalf("the program as written does not print hi's slot:\n%s", src)
	}
	wantPTO(t, text, "arith.remsi %i, %c2_index : index", "%lo_addr = arith.index_cast", "pto.alloc_tile addr = %lo_addr", "pto.alloc_tile addr = %hi_addr")
	final := printer.Program(comp.Final())
	for _, frag := range []string{"PINGPONG: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 2048)",
		"pl.MemRef(PINGPONG, 0, 1024, slots=2)[i % 2]", "pl.MemRef(PINGPONG, 0, 1024, slots=2)[(i + 1) % 2]"} {
		if !strings.Contains(final, frag) {
			t.Fatalf("the planned program lacks %q:\n%s", frag, final)
		}
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, steps*tr, tc), tensor.Randn(2, steps*tr, tc), tensor.Zeros(ir.FP32, steps*tr, tc)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < steps*tr; i++ {
			if got, want := a[2].At(i, 3), f32(a[0].At(i, 3)+a[1].At(i, 3)); got != want {
				t.Fatalf("compiled %v: out[%d, 3] = %v, want %v", compiled, i, got, want)
			}
		}
	})

	args := func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(3, tr, tc), tensor.Randn(4, tr, tc), tensor.Zeros(ir.FP32, tr, tc)}
	}
	diff := func(a []*tensor.Tensor) float64 { return f32(a[0].At(tr-1, 5) - a[1].At(tr-1, 5)) }
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "memref_slots.py"))
	if err != nil {
		t.Fatal(err)
	}
	twoSlots := func(lo, hi int) (*pl.Program, *pl.Compiled) {
		p, err := mod.Call("build_two_slots", lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		c, err := pl.TryCompile(p, pl.Ranks(1))
		if err != nil {
			t.Fatal(err)
		}
		return p, c
	}
	prog, comp = twoSlots(0, 1)
	if final := printer.Program(comp.Final()); !strings.Contains(final, "pl.MemRef(PAIR, 0, 1024, slots=2)[1]") {
		t.Fatalf("hi is not in slot 1 of PAIR:\n%s", final)
	}
	writtenAndCompiled(t, prog, comp, 1, args, func(a []*tensor.Tensor, compiled bool) {
		if got := a[2].At(tr-1, 5); got != diff(a) {
			t.Fatalf("compiled %v: out = %v, want %v", compiled, got, diff(a))
		}
	})

	// A declaration inside the kernel: scratch's two slots.
	prog, comp, _ = authored(t, "memref_slots.py", "LocalDeclaration", 1)
	if final := printer.Program(comp.Final()); !strings.Contains(final, "scratch: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 2048") || !strings.Contains(final, ", 1024, slots=2)[1], pl.Mem.Vec] = pl.tile.exp(t0)") {
		t.Fatalf("t1 is not in slot 1 of scratch:\n%s", final)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(6, tr, tc), tensor.Zeros(ir.FP32, tr, tc)}
	}, func(a []*tensor.Tensor, compiled bool) {
		x := a[0].At(2, 9)
		if got, want := a[1].At(2, 9), f32(x+f32(math.Exp(x))); math.Abs(got-want) > 1e-5*math.Abs(want) {
			t.Fatalf("compiled %v: out = %v, want a + exp(a) = %v", compiled, got, want)
		}
	})

	// One slot for two live tiles: as written (no plan) the result is
	// right; compiled, hi overwrites lo and the checker says so.
	_, comp = twoSlots(0, 0)
	a := args()
	_, rep, err := checker.Run(context.Background(), comp.Final(), a, checker.Options{Ranks: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := a[2].At(tr-1, 5); got != 0 {
		t.Fatalf("with lo and hi in one slot out = %v, want b - b = 0 (a - b is %v)", got, diff(a))
	}
	found := rep.Of(checker.KindTileOverlap)
	if len(found) != 1 || !strings.Contains(found[0].String(), "tiles lo and hi overlap") {
		t.Fatalf("want the overlap of lo and hi reported, got:\n%s", rep)
	}
}

// Upstream's declared-slot programs (tests/st/runtime/ops in a PyPTO
// checkout), read unmodified, compile and give what their pytests expect.
func TestUpstreamDeclaredSlots(t *testing.T) {
	load := func(file, name string) (*pl.Program, *pl.Compiled) {
		mod := upstreamSystemTest(t, "runtime/ops/"+file)
		prog, comp, _ := compiledProgram(t, mod, name, 1)
		return prog, comp
	}
	sum := func(a []*tensor.Tensor, compiled bool) {
		rows, cols := a[0].Shape()[0], a[0].Shape()[1]
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j += 7 {
				if got, want := a[2].At(i, j), f32(a[0].At(i, j)+a[1].At(i, j)); got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want a + b = %v", compiled, i, j, got, want)
				}
			}
		}
	}
	pair := func(seed int64, rows int) func() []*tensor.Tensor {
		return func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Randn(seed, rows, 64), tensor.Randn(seed+1, rows, 64), tensor.Zeros(ir.FP32, rows, 64)}
		}
	}
	prog, comp := load("test_memref_slots.py", "vector_slot_pingpong")
	writtenAndCompiled(t, prog, comp, 1, pair(1, 256), sum)
	prog, comp = load("test_memory_planner_ptoas.py", "MultiBufferCoLiveProgram")
	writtenAndCompiled(t, prog, comp, 1, pair(3, 256), sum)
	prog, comp = load("test_memory_planner_ptoas.py", "MultiBufferConstSlotProgram")
	writtenAndCompiled(t, prog, comp, 1, pair(5, 64), func(a []*tensor.Tensor, compiled bool) {
		if got, want := a[2].At(63, 63), f32(a[0].At(63, 63)-a[1].At(63, 63)); got != want {
			t.Fatalf("compiled %v: out = %v, want a - b = %v", compiled, got, want)
		}
	})
	prog, comp = load("test_memref_slots.py", "matmul_slot_pingpong")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(7, 64, 64), tensor.Randn(8, 64, 64), tensor.Randn(9, 64, 256), tensor.Zeros(ir.FP32, 64, 256), tensor.Zeros(ir.FP32, 64, 256)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for _, at := range [][2]int{{0, 0}, {63, 255}, {17, 130}} {
			if got, want := a[3].At(at[0], at[1]), matmulAt(a[0].At, a[2].At, 64, at[0], at[1]); got != want {
				t.Fatalf("compiled %v: out1%v = %v, want (a @ b) = %v", compiled, at, got, want)
			}
			if got, want := a[4].At(at[0], at[1]), matmulAt(a[1].At, a[2].At, 64, at[0], at[1]); got != want {
				t.Fatalf("compiled %v: out2%v = %v, want (a2 @ b) = %v", compiled, at, got, want)
			}
		}
	})
}
