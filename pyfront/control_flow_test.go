//go:build cgo

package pyfront_test

import (
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// While loops, break and continue (control_flow.py): the program as
// written (the simulator follows break and continue) and compiled
// (CtrlFlowTransform's structured form, scf.while in PTO) both give what
// Python's control flow gives, for stops inside and past the blocks.
func TestControlFlow(t *testing.T) {
	const R, C, blocks = 16, 32, 6
	prog, comp, text := authored(t, "control_flow.py", "ControlFlow", 1)
	wantPTO(t, text, "scf.while", "scf.condition(")
	lowered, _ := comp.Stage("CtrlFlowTransform")
	for _, want := range []string{"i__idx_v1: pl.Scalar[pl.INDEX] = 0", "break__tmp_v0: pl.Scalar[pl.BOOL] = False", "while i__idx_v1 < 6 and not break__tmp_v0:", "if not break__tmp_v0:"} {
		if !strings.Contains(lowered.Text, want) {
			t.Fatalf("CtrlFlowTransform: no %q in\n%s", want, lowered.Text)
		}
	}
	if strings.Contains(lowered.Text, "break\n") || strings.Contains(lowered.Text, "continue\n") {
		t.Fatalf("a break or continue survived CtrlFlowTransform:\n%s", lowered.Text)
	}
	a := tensor.Randn(41, blocks*R, C)
	for _, stop := range []int{3, 5, 9} {
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{a.Clone(), tensor.Full(ir.INDEX, float64(stop), 1), tensor.Zeros(ir.FP32, blocks*R, C), tensor.Zeros(ir.FP32, blocks*R, C)}
		}, func(got []*tensor.Tensor, compiled bool) {
			for b := 0; b < blocks; b++ {
				for _, at := range [][2]int{{b * R, 0}, {b*R + R - 1, C - 1}} {
					x := a.At(at[0], at[1])
					wantOut, wantOdd := 0.0, 0.0 // blocks at or past stop, and the other parity, stay 0
					switch {
					case b >= stop:
					case b%2 == 0:
						wantOut = f32(2 * x)
					default:
						wantOdd = f32(x + 1)
					}
					if g := got[2].At(at[0], at[1]); g != wantOut {
						t.Fatalf("stop %d, compiled %v: block %d out%v = %v, want %v", stop, compiled, b, at, g, wantOut)
					}
					if g := got[3].At(at[0], at[1]); g != wantOdd {
						t.Fatalf("stop %d, compiled %v: block %d odd%v = %v, want %v", stop, compiled, b, at, g, wantOdd)
					}
				}
			}
		})
	}
}

// `while True` left by breaks in nested ifs, the result carried out of
// the loop: the index of the first block whose corner is negative.
func TestWhileTrueSearch(t *testing.T) {
	const R, C, blocks = 16, 32, 6
	prog, comp, text := authored(t, "control_flow.py", "Search", 1)
	wantPTO(t, text, "scf.while")
	for _, first := range []int{0, 2, 5, 6} {
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			a := tensor.Full(ir.FP32, 1, blocks*R, C)
			if first < blocks {
				a.Set(-1, first*R, 0)
				if first+1 < blocks {
					a.Set(-1, (first+1)*R, 0) // a later negative block does not count
				}
			}
			return []*tensor.Tensor{a, tensor.Zeros(ir.FP32, R, C)}
		}, func(got []*tensor.Tensor, compiled bool) {
			if g := got[1].At(R-1, C-1); g != float64(first) {
				t.Fatalf("first negative block %d, compiled %v: found %v", first, compiled, g)
			}
		})
	}
}

// Upstream's control-flow system tests (tests/st/runtime/control_flow),
// read unmodified: the while loop and the break, continue and
// break-and-continue loops give what their compute_expected says.
func TestUpstreamWhileBreakContinue(t *testing.T) {
	ctrl := upstreamSystemTest(t, "runtime/control_flow/test_ctrl_flow.py")
	for _, c := range []struct {
		name  string
		added func(block int) bool // the 64-row blocks that hold a + b; the rest stay 0
	}{
		{"TestWhileLoopAdd", func(int) bool { return true }},
		{"TestForLoopBreak", func(b int) bool { return b < 2 }},
		{"TestForLoopContinue", func(b int) bool { return b%2 == 0 }},
		{"TestForLoopBreakContinue", func(b int) bool { return b == 0 || b == 2 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog, comp := calledCompiled(t, ctrl, 1, c.name)
			if _, err := comp.PTOText(); err != nil {
				t.Fatal(err)
			}
			writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.Full(ir.FP32, 2, 256, 64), tensor.Full(ir.FP32, 3, 256, 64), tensor.Zeros(ir.FP32, 256, 64)}
			}, func(a []*tensor.Tensor, compiled bool) {
				for b := 0; b < 4; b++ {
					want := 0.0
					if c.added(b) {
						want = 5
					}
					if g := a[2].At(b*64+63, 63); g != want {
						t.Fatalf("compiled %v: block %d = %v, want %v", compiled, b, g, want)
					}
				}
			})
		})
	}
}

// A tensor carried by a while loop in a kernel becomes a tile carried by
// it, as in a for loop: out = (times + 1) * a.
func TestWhileCarriesTile(t *testing.T) {
	const R, C = 16, 32
	prog, comp, text := authored(t, "control_flow.py", "TensorCarry", 1)
	wantPTO(t, text, "scf.while", "pto.tadd")
	a := tensor.Randn(43, R, C)
	for _, times := range []int{0, 1, 4} {
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{a.Clone(), tensor.Full(ir.INDEX, float64(times), 1), tensor.Zeros(ir.FP32, R, C)}
		}, func(got []*tensor.Tensor, compiled bool) {
			x := a.At(R-1, C-1)
			want := x
			for i := 0; i < times; i++ {
				want = f32(want + x)
			}
			if g := got[2].At(R-1, C-1); g != want {
				t.Fatalf("times %d, compiled %v: %v, want %v", times, compiled, g, want)
			}
		})
	}
}
