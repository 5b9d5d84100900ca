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

// matmulAt is (x @ y)[i, j] for row-major tensors as the simulated cube
// computes it: products of FP32 values summed, rounded to FP32 once.
func matmulAt(x, y func(idx ...int) float64, k, i, j int) float64 {
	s := 0.0
	for q := 0; q < k; q++ {
		s += x(i, q) * y(q, j)
	}
	return f32(s)
}

// Explicit cross-core pipes (pipes.py): a Group's cube and vector
// functions run together, each pop waiting for its push, the ids keeping
// two pipes apart, a two-slot ring making the two sides take turns.
func TestCrossCorePipes(t *testing.T) {
	const d = 16
	prog, comp, text := authored(t, "pipes.py", "TwoPipes", 1)
	wantPTO(t, text,
		`pto.reserve_buffer {name = "sum_ring", size = 8192, location = #pto.address_space<mat>, auto = true} -> i32`,
		`pto.import_reserved_buffer {name = "diff_ring", peer_func = @cube_side} -> i32`,
		"pto.aiv_initialize_pipe {id = 1, dir_mask = 2, slot_size = 1024} (c2v_consumer_buf = %c0_i32 : i32, v2c_consumer_buf = %diff_peer : i32)",
		"pto.tpush_to_aic(%d : !pto.tile_buf<loc=vec", ") {id = 1, split = 0}",
		"%s = pto.tpop_from_aiv {id = 0, split = 0} -> !pto.tile_buf<loc=mat",
		"pto.tfree_from_aiv {id = 1, split = 0}")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, d, d), tensor.Randn(2, d, d), tensor.Zeros(ir.FP32, d, d)}
	}, func(a []*tensor.Tensor, compiled bool) {
		sum := func(ij ...int) float64 { return f32(a[0].At(ij...) + a[1].At(ij...)) }
		diff := func(ij ...int) float64 { return f32(a[0].At(ij...) - a[1].At(ij...)) }
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				if got, want := a[2].At(i, j), matmulAt(sum, diff, d, i, j); got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})

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
	examples := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if examples == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to read tests/st/runtime/cross_core beside it")
	}
	mod, err := pl.LoadPython(filepath.Join(examples, "..", "..", "tests", "st", "runtime", "cross_core", "test_cross_core.py"))
	if err != nil {
		t.Fatal(err)
	}
	const d = 16
	for _, name := range []string{"MultiPipeNoSplitProgram", "ExplicitSlotNumProgram"} {
		prog, comp, _ := compiledProgram(t, mod, name, 1)
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Randn(1, d, d), tensor.Randn(2, d, d), tensor.Zeros(ir.FP32, d, d)}
		}, func(a []*tensor.Tensor, compiled bool) {
			sum := func(ij ...int) float64 { return f32(a[0].At(ij...) + a[1].At(ij...)) }
			diff := func(ij ...int) float64 { return f32(a[0].At(ij...) - a[1].At(ij...)) }
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					if got, want := a[2].At(i, j), matmulAt(sum, diff, d, i, j); got != want {
						t.Fatalf("%s compiled %v: output[%d, %d] = %v, want %v", name, compiled, i, j, got, want)
					}
				}
			}
		})
	}
}
