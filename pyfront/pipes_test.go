//go:build cgo

package pyfront_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// upstreamSystemTest reads upstream's system test tests/st/<rel> from
// the PyPTO checkout beside PTOREPL_PYPTO_EXAMPLES, unmodified, and skips
// saying so when the variable is unset.
func upstreamSystemTest(t *testing.T, rel string) *pl.Module {
	t.Helper()
	examples := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if examples == "" {
		t.Skipf("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to read tests/st/%s beside it", rel)
	}
	mod, err := pl.LoadPython(filepath.Join(examples, "..", "..", "tests", "st", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return mod
}

// matmulAt is (x @ y)[i, j] for row-major tensors as the simulated cube
// computes it: products of FP32 values summed, rounded to FP32 once.
func matmulAt(x, y func(idx ...int) float64, k, i, j int) float64 {
	s := 0.0
	for q := 0; q < k; q++ {
		s += x(i, q) * y(q, j)
	}
	return f32(s)
}

// checkSumTimesDiff fails unless a[2] is (a[0] + a[1]) @ (a[0] - a[1]).
func checkSumTimesDiff(t *testing.T, name string, a []*tensor.Tensor, compiled bool) {
	t.Helper()
	sum := func(ij ...int) float64 { return f32(a[0].At(ij...) + a[1].At(ij...)) }
	diff := func(ij ...int) float64 { return f32(a[0].At(ij...) - a[1].At(ij...)) }
	d := a[0].Shape()[1]
	for i := 0; i < a[2].Shape()[0]; i++ {
		for j := 0; j < a[2].Shape()[1]; j++ {
			if got, want := a[2].At(i, j), matmulAt(sum, diff, d, i, j); got != want {
				t.Fatalf("%s compiled %v: out[%d, %d] = %v, want %v", name, compiled, i, j, got, want)
			}
		}
	}
}

// Explicit cross-core pipes (pipes.py): a Group's cube and vector
// functions run together, each pop waiting for its push, the ids keeping
// two pipes apart, a two-slot ring making the two sides take turns.
func TestCrossCorePipes(t *testing.T) {
	const d = 16
	prog, comp, text := authored(t, "pipes.py", "TwoPipes", 1)
	wantPTO(t, text,
		`pto.reserve_buffer {name = "sum_ring", size = 8192, location = #pto.address_space<mat>, auto = false, base = 0} -> i32`,
		`pto.reserve_buffer {name = "diff_ring", size = 8192, location = #pto.address_space<mat>, auto = false, base = 8192} -> i32`,
		`pto.import_reserved_buffer {name = "diff_ring", peer_func = @cube_side} -> i32`,
		"pto.aiv_initialize_pipe {id = 1, dir_mask = 2, slot_size = 1024} (c2v_consumer_buf = %c0_i32 : i32, v2c_consumer_buf = %diff_peer : i32)",
		"pto.tpush_to_aic(%d : !pto.tile_buf<loc=vec", ") {id = 1, split = 0}",
		"%s = pto.tpop_from_aiv {id = 0, split = 0} -> !pto.tile_buf<loc=mat",
		"pto.tfree_from_aiv {id = 1, split = 0}")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, d, d), tensor.Randn(2, d, d), tensor.Zeros(ir.FP32, d, d)}
	}, func(a []*tensor.Tensor, compiled bool) { checkSumTimesDiff(t, "TwoPipes", a, compiled) })

	prog, comp, text = authored(t, "pipes.py", "Broadcast", 1)
	wantPTO(t, text, "location = #pto.address_space<vec>, auto = false, base = 8192} -> i32", "pto.tpush_to_aiv(%prod", "pto.tpop_from_aic {split = 0} -> ", "pto.tfree_from_aic {split = 0}")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(3, d, d), tensor.Randn(4, d, d), tensor.Zeros(ir.FP32, d, d)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				// Each lane stores its own half of the rows.
				if got, want := a[2].At(i, j), f32(matmulAt(a[0].At, a[1].At, d, i, j)+1); got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})

	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "pipes.py"))
	if err != nil {
		t.Fatal(err)
	}
	ring := func(free bool) (*pl.Program, *pl.Compiled) {
		p, err := mod.Call("build_ring", free)
		if err != nil {
			t.Fatal(err)
		}
		c, err := pl.TryCompile(p, pl.Ranks(1))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.PTOText(); err != nil {
			t.Fatal(err)
		}
		return p, c
	}
	const blocks = 4
	prog, comp = ring(true)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(5, blocks*d, d), tensor.Randn(6, d, d), tensor.Zeros(ir.FP32, blocks*d, d)}
	}, func(a []*tensor.Tensor, compiled bool) {
		twice := func(ij ...int) float64 { return f32(2 * a[0].At(ij...)) }
		for i := 0; i < blocks*d; i++ {
			for j := 0; j < d; j++ {
				if got, want := a[2].At(i, j), matmulAt(twice, a[1].At, d, i, j); got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})

	prog, comp = ring(false)
	for _, compiled := range []bool{false, true} {
		args := []*tensor.Tensor{tensor.Randn(5, blocks*d, d), tensor.Randn(6, d, d), tensor.Zeros(ir.FP32, blocks*d, d)}
		if compiled {
			_, err = comp.Run(pl.Ranks(1), args...)
		} else {
			_, err = pl.Run(prog, pl.Ranks(1), args...)
		}
		want := "deadlock: no member of the group can go on: cube_side waits in tile.tpop_from_aiv for a tile of pipe 0 (vector → cube), which is empty; " +
			"vector_side waits in tile.tpush_to_aic for a free slot of pipe 0 (vector → cube): all 2 hold tiles the consumer has not freed"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("compiled %v: want the starved ring reported, got %v", compiled, err)
		}
	}
}

// Upstream's explicit-pipe programs (tests/st/runtime/cross_core in a
// PyPTO checkout), read unmodified, give what their pytest's
// compute_expected says: output = (a + b) @ (a - b).
func TestUpstreamCrossCorePipes(t *testing.T) {
	mod := upstreamSystemTest(t, "runtime/cross_core/test_cross_core.py")
	const d = 16
	for _, name := range []string{"MultiPipeNoSplitProgram", "ExplicitSlotNumProgram"} {
		prog, comp, _ := compiledProgram(t, mod, name, 1)
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Randn(1, d, d), tensor.Randn(2, d, d), tensor.Zeros(ir.FP32, d, d)}
		}, func(a []*tensor.Tensor, compiled bool) { checkSumTimesDiff(t, name, a, compiled) })
	}
}

// Misused pipes stop the run with an error that says what is wrong: each
// case edits TwoPipes (pipes.py) and names the message it must give.
func TestPipeMisuse(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "authoring", "pipes.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, old, new, want string }{
		{"no vector-side setup", "        pl.aiv_initialize_pipe(0, sum_peer, dir_mask=2, slot_size=SLOT, id=0)\n", "",
			"pipe 0 (vector → cube) is not set up on this side: call pl.aiv_initialize_pipe(..., dir_mask=2, slot_size=..., id=0) first"},
		{"slot too small", "SLOT = D * D * 4", "SLOT = D * 4", "a tile of 1024 bytes does not fit a slot of pipe 1 (vector → cube) (slot_size=64)"},
		{"slot counts disagree", "pl.aiv_initialize_pipe(0, diff_peer, dir_mask=2, slot_size=SLOT, id=1)", "pl.aiv_initialize_pipe(0, diff_peer, dir_mask=2, slot_size=SLOT, id=1, slot_num=4)",
			"pipe 1 (vector → cube) has 8 slots of 1024 bytes on one side and 4 of 1024 on the other"},
		{"slot sizes disagree", "slot_size=SLOT, id=0)\n        pl.aiv_initialize_pipe", "slot_size=SLOT // 2, id=0)\n        pl.aiv_initialize_pipe",
			"pipe 0 (vector → cube) has 8 slots of 1024 bytes on one side and 8 of 512 on the other"},
		{"free of a tile no pop returned", "pl.tfree_to_aiv(d)", "pl.tfree_to_aiv(prod)",
			"prod of type pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] was not popped from a pipe"},
		{"free through the wrong id", "pl.tfree_to_aiv(d)", "pl.tfree_to_aiv(d, id=0)",
			"id=0, but the tile came through pipe 1 (vector → cube)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(src), tc.old) {
				t.Fatalf("pipes.py no longer holds %q", tc.old)
			}
			mod, err := pl.ParsePython(strings.Replace(string(src), tc.old, tc.new, 1))
			if err != nil {
				t.Fatal(err)
			}
			prog, err := mod.Program("TwoPipes")
			if err != nil {
				t.Fatal(err)
			}
			_, err = pl.Run(prog, pl.Ranks(1), tensor.Randn(1, 16, 16), tensor.Randn(2, 16, 16), tensor.Zeros(ir.FP32, 16, 16))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want %q, got %v", tc.want, err)
			}
		})
	}
}
