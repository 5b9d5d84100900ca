//go:build cgo

package pyfront_test

import (
	"fmt"
	"github.com/stretchr/testify/require"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/pyfront"
	"github.com/ptorepl/ptorepl/tensor"
)

// authored reads program name of testdata/authoring/file, compiles it at
// ranks, and returns it with its PTO text.
func authored(t *testing.T, file, name string, ranks int) (*pl.Program, *pl.Compiled, string) {
	t.Helper()
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", file))
	if err != nil {
		t.Fatal(err)
	}
	return compiledProgram(t, mod, name, ranks)
}

// authoredIR reads testdata/authoring/file and returns what gives its
// programs' IR by name.
func authoredIR(t *testing.T, file string) func(name string) *ir.Program {
	t.Helper()
	mod, err := pyfront.Load(filepath.Join("testdata", "authoring", file))
	if err != nil {
		t.Fatal(err)
	}
	return func(name string) *ir.Program {
		t.Helper()
		p, err := mod.Program(name)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
}

// compiledProgram is program name of mod, compiled at ranks, with its PTO.
func compiledProgram(t *testing.T, mod *pl.Module, name string, ranks int) (*pl.Program, *pl.Compiled, string) {
	t.Helper()
	prog, err := mod.Program(name)
	if err != nil {
		t.Fatal(err)
	}
	comp, err := pl.TryCompile(prog, pl.Ranks(ranks))
	if err != nil {
		t.Fatal(err)
	}
	text, err := comp.PTOText()
	if err != nil {
		t.Fatal(err)
	}
	return prog, comp, text
}

// calledCompiled is what mod's factory name builds from args, compiled at
// ranks.
func calledCompiled(t *testing.T, mod *pl.Module, ranks int, name string, args ...interface{}) (*pl.Program, *pl.Compiled) {
	t.Helper()
	prog, err := mod.Call(name, args...)
	if err != nil {
		t.Fatal(err)
	}
	comp, err := pl.TryCompile(prog, pl.Ranks(ranks))
	if err != nil {
		t.Fatal(err)
	}
	return prog, comp
}

// writtenAndCompiled runs prog as written and then compiled, each time on
// fresh arguments, and hands check each run's tensors.
func writtenAndCompiled(t *testing.T, prog *pl.Program, comp *pl.Compiled, ranks int, args func() []*tensor.Tensor, check func(a []*tensor.Tensor, compiled bool)) {
	t.Helper()
	for _, compiled := range []bool{false, true} {
		a := args()
		if _, err := runWay(prog, comp, compiled, pl.Ranks(ranks), a...); err != nil {
			t.Fatalf("compiled %v: %v", compiled, err)
		}
		check(a, compiled)
	}
}

// runWay runs prog as written, or compiled, with opts on args.
func runWay(prog *pl.Program, comp *pl.Compiled, compiled bool, opts pl.RunOption, args ...*tensor.Tensor) (*pl.RunResult, error) {
	if compiled {
		return comp.Run(opts, args...)
	}
	return pl.Run(prog, opts, args...)
}

// wantPTO fails unless the PTO text holds every instruction.
func wantPTO(t *testing.T, text string, insts ...string) {
	t.Helper()
	for _, inst := range insts {
		if !strings.Contains(text, inst) {
			t.Fatalf("no %s in\n%s", inst, text)
		}
	}
}

func f32(v float64) float64 { return float64(float32(v)) }

// Nested ifs whose inner arms each define names of their own lower (no phi
// for a name only some paths define) and run to what each rank's flags say.
func TestNestedIfArms(t *testing.T) {
	prog, comp, _ := authored(t, "nested_if.py", "Nested", 4)
	writtenAndCompiled(t, prog, comp, 4, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(3, 4, 1, 8), tensor.Zeros(ir.FP32, 4, 1, 8)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for r := 0; r < 4; r++ {
			for j := 0; j < 8; j++ {
				v := a[0].At(r, 0, j)
				want := map[int]float64{0: f32(v + v), 1: 0, 2: f32(v * v), 3: 1}[r]
				if got := a[1].At(r, 0, j); got != want {
					t.Fatalf("compiled %v: rank %d y[%d] = %v, want %v", compiled, r, j, got, want)
				}
			}
		}
	})
}

// Module-level kernels called by name join the program; an integer flag
// passes as a BOOL parameter; a narrower window of a tensor is read in the
// parameter's shape at its base; tile.transpose_view gives x @ x^T.
func TestModuleKernels(t *testing.T) {
	prog, comp, _ := authored(t, "module_kernels.py", "ModuleKernels", 1)
	for _, name := range []string{"gram", "pick", "run"} {
		if prog.IR().Function(name) == nil {
			t.Fatalf("the program lacks %s:\n%s", name, prog)
		}
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 32).To(ir.FP16), tensor.Zeros(ir.FP32, 16, 16), tensor.Randn(2, 16, 32), tensor.Zeros(ir.FP32, 16, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		x16, g, x, y := a[0], a[1], a[2], a[3]
		for i := 0; i < 16; i++ {
			for j := 0; j < 16; j++ {
				sum := 0.0
				for k := 0; k < 32; k++ {
					sum += x16.At(i, k) * x16.At(j, k)
				}
				if got, want := g.At(i, j), f32(sum); got != want {
					t.Fatalf("compiled %v: g[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
			for j := 0; j < 32; j++ {
				if got, want := y.At(i, j), f32(x.At(i, j)+x.At(i, j)); got != want {
					t.Fatalf("compiled %v: y[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// pl.read of one index (upstream's pl.read(t, i) is pl.read(t, [i])) and
// pl.tensor.dim in an orchestration pick which kernel call runs.
func TestReadOneIndexAndDim(t *testing.T) {
	mod, err := pl.ParsePython(`import pypto.language as pl

@pl.program
class Pick:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(self, x: pl.Tensor[[4, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]], doubled: pl.Scalar[pl.BOOL]) -> pl.Tensor[[4, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 8])
        if doubled:
            out = pl.store(pl.add(t, t), [0, 0], y)
        else:
            out = pl.store(t, [0, 0], y)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, table: pl.Tensor[[4], pl.INT32], x: pl.Tensor[[4, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        rows = pl.tensor.dim(x, 0)
        k = pl.read(table, rows - 3)
        if k == 7:
            flag = pl.yield_(1)
        else:
            flag = pl.yield_(0)
        y = self.copy(x, y, flag)
        return y
`)
	if err != nil {
		t.Fatal(err)
	}
	prog, comp, _ := compiledProgram(t, mod, "Pick", 1)
	if text := prog.String(); !strings.Contains(text, "pl.tensor.read(table, [rows - 3])") || !strings.Contains(text, "pl.tensor.dim(x, 0)") {
		t.Fatalf("printed:\n%s", text)
	}
	for _, k := range []float64{7, 5} {
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			table := tensor.Zeros(ir.INT32, 4)
			table.Set(k, 1)
			return []*tensor.Tensor{table, tensor.Randn(1, 4, 8), tensor.Zeros(ir.FP32, 4, 8)}
		}, func(a []*tensor.Tensor, compiled bool) {
			want := a[1].At(2, 3)
			if k == 7 {
				want = f32(want + want)
			}
			if got := a[2].At(2, 3); got != want {
				t.Fatalf("table[1] = %v (compiled %v): y[2, 3] = %v, want %v", k, compiled, got, want)
			}
		})
	}
}

// Column reductions fold the rows of each column, row_prod the columns of
// each row, as written and compiled (PTO tcolsum, isBinary with a scratch
// tile, tcolmax, tcolmin, tcolprod, trowprod).
func TestColumnReductions(t *testing.T) {
	prog, comp, text := authored(t, "reductions.py", "Reductions", 1)
	wantPTO(t, text, "pto.tcolsum ins(", "{isBinary = true}", "pto.tcolmax", "pto.tcolmin", "pto.tcolprod", "pto.trowprod")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		args := []*tensor.Tensor{tensor.Randn(5, 8, 16)}
		for _, s := range [][]int{{1, 16}, {1, 16}, {1, 16}, {1, 16}, {1, 16}, {8, 1}} {
			args = append(args, tensor.Zeros(ir.FP32, s...))
		}
		return args
	}, func(a []*tensor.Tensor, compiled bool) {
		x := a[0]
		for j := 0; j < 16; j++ {
			mx, mn, prod := math.Inf(-1), math.Inf(1), 1.0
			// col_sum adds in FP32 as TCOLSUM does: row by row, or with a
			// scratch tile as a binary tree (8 rows: three levels).
			seq := x.At(0, j)
			var tree [8]float64
			for i := 0; i < 8; i++ {
				v := x.At(i, j)
				mx, mn, prod = math.Max(mx, v), math.Min(mn, v), prod*v
				if i > 0 {
					seq = f32(seq + v)
				}
				tree[i] = v
			}
			for n := 8; n > 1; n /= 2 {
				for i := 0; i < n/2; i++ {
					tree[i] = f32(tree[2*i] + tree[2*i+1])
				}
			}
			for k, want := range []float64{seq, tree[0], mx, mn, f32(prod)} {
				if got := a[1+k].At(0, j); got != want {
					t.Fatalf("compiled %v: output %d column %d = %v, want %v", compiled, k, j, got, want)
				}
			}
		}
		for i := 0; i < 8; i++ {
			prod := 1.0
			for j := 0; j < 16; j++ {
				prod *= x.At(i, j)
			}
			if got := a[6].At(i, 0); got != f32(prod) {
				t.Fatalf("compiled %v: row_prod %d = %v, want %v", compiled, i, got, f32(prod))
			}
		}
	})
}

// tile.matmul_bias adds its bias row to every row of the product;
// tile.fillpad_expand puts a tile's valid region at the top left of a
// larger tile and pads the rest; both as written and compiled.
func TestMatmulBiasAndFillpadExpand(t *testing.T) {
	prog, comp, text := authored(t, "extras.py", "Extras", 1)
	wantPTO(t, text, "pto.tmatmul.bias ins(", "pto.tfillpad_expand ins(")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 32).To(ir.FP16), tensor.Randn(2, 32, 16).To(ir.FP16), tensor.Randn(3, 1, 16),
			tensor.Zeros(ir.FP32, 16, 16), tensor.Randn(4, 8, 16), tensor.Zeros(ir.FP32, 16, 32)}
	}, func(args []*tensor.Tensor, compiled bool) {
		a, b, bias, c, x, big := args[0], args[1], args[2], args[3], args[4], args[5]
		for i := 0; i < 16; i++ {
			for j := 0; j < 16; j++ {
				sum := bias.At(0, j)
				for k := 0; k < 32; k++ {
					sum += a.At(i, k) * b.At(k, j)
				}
				if got, want := c.At(i, j), f32(sum); got != want {
					t.Fatalf("compiled %v: c[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
			for j := 0; j < 32; j++ {
				want := math.MaxFloat32
				if i < 6 && j < 16 {
					want = x.At(i, j)
				}
				if got := big.At(i, j); got != want {
					t.Fatalf("compiled %v: big[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// pl.set_validshape and pl.fillpad of a tensor (tensor.set_validshape,
// tensor.fillpad) pad what lies outside the valid shape, as written and
// as the tile ops their kernel becomes.
func TestTensorSetValidShapeFillpad(t *testing.T) {
	prog, comp, text := authored(t, "extras.py", "Narrow", 1)
	wantPTO(t, text, "pto.tfillpad ins(")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(6, 8, 16), tensor.Zeros(ir.FP32, 8, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 8; i++ {
			for j := 0; j < 16; j++ {
				want := -math.MaxFloat32
				if i < 6 && j < 12 {
					want = a[0].At(i, j)
				}
				if got := a[1].At(i, j); got != want {
					t.Fatalf("compiled %v: y[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// The broadcast ops with max, min and exp-diff, rsqrt, fmod and the
// integer sequence, on tiles and as tensor ops that ConvertTensorToTileOps
// lowers (a row reduction's scratch tile and high-precision rsqrt's
// allocated there), as written and compiled.
func TestVectorOps(t *testing.T) {
	positive := func(seed int64, dims ...int) *tensor.Tensor {
		r := tensor.Randn(seed, dims...)
		vals := r.Float32s()
		for i, v := range vals {
			vals[i] = float32(math.Abs(float64(v))) + 0.25
		}
		return tensor.FromFloat32(vals, dims...)
	}
	prog, comp, text := authored(t, "vector_ops.py", "TileVectorOps", 1)
	wantPTO(t, text, "pto.trowexpandmax ins(", "pto.trowexpandmin ins(", "pto.trowexpandexpdif ins(", "pto.tcolexpandmax ins(",
		"pto.tcolexpandmin ins(", "pto.tcolexpandexpdif ins(", "pto.trsqrt ins(%u, %tmp", "pto.tfmod ins(", "{descending = true}")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 8, 16), tensor.Randn(2, 8, 1), tensor.Randn(3, 1, 16), positive(4, 8, 16),
			tensor.Zeros(ir.FP32, 8, 8, 16), tensor.Zeros(ir.INT32, 2, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		x, col, row, y, out, seq := a[0], a[1], a[2], a[3], a[4], a[5]
		for i := 0; i < 8; i++ {
			for j := 0; j < 16; j++ {
				v, c, r, u := x.At(i, j), col.At(i, 0), row.At(0, j), y.At(i, j)
				want := []float64{math.Max(v, c), math.Min(v, c), f32(math.Exp(v - c)), math.Max(v, r), math.Min(v, r),
					f32(math.Exp(v - r)), f32(1 / math.Sqrt(u)), f32(math.Mod(v, u))}
				for k, w := range want {
					if got := out.At(k, i, j); got != w {
						t.Fatalf("compiled %v: out[%d, %d, %d] = %v, want %v", compiled, i, j, k, got, w)
					}
				}
			}
		}
		for j := 0; j < 16; j++ {
			if up, down := seq.At(0, j), seq.At(1, j); up != float64(3+j) || down != float64(15-j) {
				t.Fatalf("compiled %v: ci column %d = %v, %v, want %d, %d", compiled, j, up, down, 3+j, 15-j)
			}
		}
	})

	prog, comp, text = authored(t, "vector_ops.py", "TensorVectorOps", 1)
	wantPTO(t, text, "pto.trowsum ins(%x__tile, %tmp_tile", "cols=128", "pto.tcolmax ins(", "pto.trowexpandexpdif ins(",
		"pto.tcolexpandsub ins(", "pto.trsqrt ins(%y__tile, %rsqrt_tmp", "pto.tfmods ins(", "pto.tci ins(")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(5, 8, 16), positive(6, 8, 16), tensor.Zeros(ir.FP32, 8, 1), tensor.Zeros(ir.FP32, 1, 16),
			tensor.Zeros(ir.FP32, 8, 16), tensor.Zeros(ir.FP32, 8, 16), tensor.Zeros(ir.FP32, 8, 16), tensor.Zeros(ir.FP32, 8, 16),
			tensor.Zeros(ir.INT32, 1, 16), tensor.Zeros(ir.FP32, 1, 8)}
	}, func(a []*tensor.Tensor, compiled bool) {
		x, y := a[0], a[1]
		colMax := make([]float64, 16)
		for j := range colMax {
			colMax[j] = math.Inf(-1)
			for i := 0; i < 8; i++ {
				colMax[j] = math.Max(colMax[j], x.At(i, j))
			}
			if got := a[3].At(0, j); got != colMax[j] {
				t.Fatalf("compiled %v: col_max %d = %v, want %v", compiled, j, got, colMax[j])
			}
			if got := a[8].At(0, j); got != float64(5-j) {
				t.Fatalf("compiled %v: arange %d = %v, want %d", compiled, j, got, 5-j)
			}
		}
		for i := 0; i < 8; i++ {
			sum, mx := 0.0, math.Inf(-1)
			for j := 0; j < 16; j++ {
				sum, mx = sum+x.At(i, j), math.Max(mx, x.At(i, j))
			}
			if got := a[2].At(i, 0); got != f32(sum) {
				t.Fatalf("compiled %v: row_sum %d = %v, want %v", compiled, i, got, f32(sum))
			}
			if got := a[9].At(0, i); got != f32(sum) {
				t.Fatalf("compiled %v: reshaped row_sum %d = %v, want %v", compiled, i, got, f32(sum))
			}
			for j := 0; j < 16; j++ {
				v := x.At(i, j)
				for k, w := range []float64{f32(math.Exp(v - mx)), f32(v - colMax[j]), f32(1 / math.Sqrt(y.At(i, j))), f32(math.Mod(v, 0.75))} {
					if got := a[4+k].At(i, j); got != w {
						t.Fatalf("compiled %v: output %d [%d, %d] = %v, want %v", compiled, 4+k, i, j, got, w)
					}
				}
			}
		}
	})
}

// A source narrowed by pl.set_validshape writes only its valid region:
// into a target sized to it, by pl.assemble and by a subscript write, after
// elementwise ops that keep the valid shape, and into a wider target whose
// other elements stay as they were.
func TestNarrowValidAssemble(t *testing.T) {
	prog, comp, _ := authored(t, "narrow_valid.py", "NarrowAssemble", 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 8), tensor.Randn(2, 16, 8), tensor.Zeros(ir.FP32, 16, 4), tensor.Zeros(ir.FP32, 16, 4),
			tensor.Zeros(ir.FP32, 16, 4), tensor.Zeros(ir.FP32, 16, 4), tensor.Full(ir.FP32, 7, 20, 12)}
	}, func(a []*tensor.Tensor, compiled bool) {
		src, rhs, wide := a[0], a[1], a[6]
		for i := 0; i < 16; i++ {
			for j := 0; j < 4; j++ {
				v := src.At(i, j)
				for k, w := range []float64{v, v, f32(v + 1), f32(v + rhs.At(i, j))} {
					if got := a[2+k].At(i, j); got != w {
						t.Fatalf("compiled %v: output %d [%d, %d] = %v, want %v", compiled, k, i, j, got, w)
					}
				}
			}
		}
		for i := 0; i < 20; i++ {
			for j := 0; j < 12; j++ {
				want := 7.0
				if i >= 2 && i < 18 && j < 4 {
					want = src.At(i-2, j)
				}
				if got := wide.At(i, j); got != want {
					t.Fatalf("compiled %v: wide[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// SPMD launches in their three forms (a dispatched kernel that reads its
// block index, the loop form, an inline with-form body) give each block
// its own rows, as written and compiled; the kernels take the block index
// and count as trailing i32 arguments; every pipeline stage reads back.
func TestSpmd(t *testing.T) {
	prog, comp, text := authored(t, "spmd.py", "Spmd", 1)
	wantPTO(t, text, "func.func @add_rows(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<f32>, %__pypto_spmd_block_idx: i32, %__pypto_spmd_block_num: i32)",
		"%blk = arith.index_cast %__pypto_spmd_block_idx : i32 to index", "func.func @scale(", "arith.index_cast %__pypto_spmd_block_num : i32 to index")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 64, 32), tensor.Randn(2, 64, 32), tensor.Zeros(ir.FP32, 64, 32), tensor.Zeros(ir.FP32, 64, 32), tensor.Zeros(ir.FP32, 64, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 64; i++ {
			for j := 0; j < 32; j++ {
				x, y := a[0].At(i, j), a[1].At(i, j)
				for k, w := range []float64{f32(x + y), f32(x * 2), f32(y + y)} {
					if got := a[2+k].At(i, j); got != w {
						t.Fatalf("compiled %v: output %d [%d, %d] = %v, want %v", compiled, k, i, j, got, w)
					}
				}
			}
		}
	})
	for _, st := range comp.Stages() {
		roundTrip(t, "spmd after "+st.Name, st.Program())
		data, err := ir.MarshalProgram(st.Program())
		if err != nil {
			t.Fatal(err)
		}
		back, err := ir.UnmarshalProgram(data)
		if err != nil {
			t.Fatalf("after %s: %v", st.Name, err)
		}
		if err := ir.AssertStructuralEqual(st.Program(), back, true); err != nil {
			t.Fatalf("after %s: the serialized program differs: %v", st.Name, err)
		}
	}
}

// The tensor-scope block queries (pl.get_block_idx, pl.get_block_num)
// make an inline launch's body its kernel as the tile ones do, run as
// written and compiled, and become the tile ops in ConvertTensorToTileOps.
func TestSpmdTensorScope(t *testing.T) {
	prog, comp, text := authored(t, "spmd.py", "SpmdTensorScope", 1)
	wantPTO(t, text, "%c = arith.index_cast %__pypto_spmd_block_idx : i32 to index", "arith.index_cast %__pypto_spmd_block_num : i32 to index")
	if st, ok := comp.Stage("ConvertTensorToTileOps"); !ok || !strings.Contains(st.Text, "c: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()") {
		t.Fatalf("ConvertTensorToTileOps left the tensor-scope query:\n%s", st.Text)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(3, 64, 32), tensor.Zeros(ir.FP32, 64, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 64; i++ {
			for j := 0; j < 32; j++ {
				if got, want := a[1].At(i, j), f32(a[0].At(i, j)*4); got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// Cube operands loaded to Mat and passed straight to tile.matmul,
// matmul_acc and matmul_bias are moved to Left, Right and Bias by
// InferTileMemorySpace; the products are right as written and compiled.
func TestMatOperandsMoved(t *testing.T) {
	prog, comp, text := authored(t, "mat_operands.py", "MatOperands", 1)
	wantPTO(t, text, "pto.tmov ins(%a_mat : ", "loc=left", "loc=right", "loc=bias", "pto.tmatmul.bias ins(%a_mat_Left, %b_mat_Right, %bias_mat_Bias", "pto.tmatmul.acc ins(")
	st, ok := comp.Stage("InferTileMemorySpace")
	if !ok || !strings.Contains(st.Text, "a_mat_Left: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)") {
		t.Fatalf("InferTileMemorySpace inserted no move of a_mat to Left:\n%s", st.Text)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 64).To(ir.FP16), tensor.Randn(2, 64, 16).To(ir.FP16), tensor.Randn(3, 1, 16),
			tensor.Zeros(ir.FP32, 16, 16), tensor.Zeros(ir.FP32, 16, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			for j := 0; j < 16; j++ {
				lo, hi := 0.0, 0.0
				for k := 0; k < 32; k++ {
					lo += a[0].At(i, k) * a[1].At(k, j)
					hi += a[0].At(i, 32+k) * a[1].At(32+k, j)
				}
				if got, want := a[3].At(i, j), f32(a[2].At(0, j)+lo+hi); math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
					t.Fatalf("compiled %v: c[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
				if got, want := a[4].At(i, j), f32(f32(lo)+hi); math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
					t.Fatalf("compiled %v: d[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// pl.matmul(a, b, a_trans=True, b_trans=True): each transposed operand is
// loaded as it is and seen transposed in Mat; the products are right as
// written and compiled.
func TestMatmulTransposed(t *testing.T) {
	prog, comp, text := authored(t, "matmul_trans.py", "MatmulTrans", 1)
	st, _ := comp.Stage("ConvertTensorToTileOps")
	for _, want := range []string{"pl.tile.transpose_view(a_mat)", "pl.tile.transpose_view(b_mat)"} {
		if !strings.Contains(st.Text, want) {
			t.Fatalf("no %s after ConvertTensorToTileOps:\n%s", want, st.Text)
		}
	}
	wantPTO(t, text, "pto.tmatmul ins(")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 32, 16).To(ir.FP16), tensor.Randn(2, 16, 32).To(ir.FP16), tensor.Zeros(ir.FP32, 16, 16), tensor.Zeros(ir.FP32, 16, 16)}
	}, func(x []*tensor.Tensor, compiled bool) {
		a, b := x[0], x[1]
		for i := 0; i < 16; i++ {
			for j := 0; j < 16; j++ {
				c, d := 0.0, 0.0
				for k := 0; k < 32; k++ {
					c += a.At(k, i) * b.At(j, k)
					d += b.At(i, k) * b.At(j, k)
				}
				if got := x[2].At(i, j); math.Abs(got-c) > 1e-4*math.Max(1, math.Abs(c)) {
					t.Fatalf("compiled %v: c[%d, %d] = %v, want %v", compiled, i, j, got, c)
				}
				if got := x[3].At(i, j); math.Abs(got-d) > 1e-4*math.Max(1, math.Abs(d)) {
					t.Fatalf("compiled %v: d[%d, %d] = %v, want %v", compiled, i, j, got, d)
				}
			}
		}
	})
}

// pl.gather(inp, dim=-1, index=idx) reads each row at its indices, as
// written and compiled (a loop of one tile.gather per row), also with
// fewer index rows than input rows and more index columns.
func TestGatherRows(t *testing.T) {
	for _, c := range []struct {
		name       string
		rows, cols int
	}{{"GatherRows", 4, 8}, {"GatherFewerRows", 2, 24}} {
		prog, comp, text := authored(t, "gather.py", c.name, 1)
		wantPTO(t, text, "pto.tgather ins(", "scf.for")
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			idx := make([]int32, c.rows*c.cols)
			for i := range idx {
				idx[i] = int32((i*7 + i/c.cols*3) % 16)
			}
			return []*tensor.Tensor{tensor.Randn(1, 4, 16), tensor.FromInt32(idx, c.rows, c.cols), tensor.Zeros(ir.FP32, c.rows, c.cols)}
		}, func(a []*tensor.Tensor, compiled bool) {
			for b := 0; b < c.rows; b++ {
				for k := 0; k < c.cols; k++ {
					want := a[0].At(b, int(a[1].At(b, k)))
					if got := a[2].At(b, k); got != want {
						t.Fatalf("%s compiled %v: out[%d, %d] = %v, want %v", c.name, compiled, b, k, got, want)
					}
				}
			}
		})
	}
}

// A gather from a column slice of a tensor assembled on chip (upstream's
// strided-source and source-unchanged gathers): the created tensor is a
// tile, the slice a view of it, and the source comes back out unchanged.
func TestGatherLocal(t *testing.T) {
	prog, comp, text := authored(t, "gather.py", "GatherLocal", 1)
	wantPTO(t, text, "pto.tgather ins(", "pto.subview")
	st, ok := comp.Stage("ConvertTensorToTileOps")
	if !ok || !strings.Contains(st.Text, "pl.tile.assemble(local") || strings.Contains(st.Text, "pl.tensor.create(") {
		t.Fatalf("the created tensor did not become a tile:\n%s", st.Text)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		idx := make([]int32, 8*8)
		for i := range idx {
			idx[i] = int32((i*5 + i/8) % 16)
		}
		return []*tensor.Tensor{tensor.Randn(1, 8, 16), tensor.Randn(2, 8, 16), tensor.FromInt32(idx, 8, 8), tensor.Zeros(ir.FP32, 8, 32), tensor.Zeros(ir.FP32, 8, 8)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for r := 0; r < 8; r++ {
			for c := 0; c < 32; c++ {
				want := a[0].At(r, c%16)
				if c >= 16 {
					want = a[1].At(r, c-16)
				}
				if got := a[3].At(r, c); got != want {
					t.Fatalf("compiled %v: echo[%d, %d] = %v, want %v", compiled, r, c, got, want)
				}
			}
			for k := 0; k < 8; k++ {
				want := a[1].At(r, int(a[2].At(r, k)))
				if got := a[4].At(r, k); got != want {
					t.Fatalf("compiled %v: output[%d, %d] = %v, want %v", compiled, r, k, got, want)
				}
			}
		}
	})
}

// A rank-3 gather along its middle or first dimension runs as torch.gather
// does, written and compiled (one flat-index tgather per result row, as
// upstream lowers it); a 16-bit input is refused there, as upstream
// refuses it.
func TestGatherOuterDims(t *testing.T) {
	for _, c := range []struct {
		name     string
		dim      int
		in, idx  []int
		dt       ir.DataType
		distinct int // index values lie in [0, distinct)
	}{
		{"GatherMiddle", 1, []int{2, 6, 4}, []int{2, 3, 4}, ir.FP32, 6},
		{"GatherFirst", 0, []int{5, 3, 8}, []int{2, 3, 8}, ir.INT32, 5},
	} {
		prog, comp, text := authored(t, "gather.py", c.name, 1)
		wantPTO(t, text, "pto.tgather", "pto.tci")
		n := c.idx[0] * c.idx[1] * c.idx[2]
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			idx := make([]int32, n)
			for i := range idx {
				idx[i] = int32((i*5 + i/7) % c.distinct)
			}
			inp := tensor.Randn(1, c.in...)
			if c.dt == ir.INT32 {
				inp = tensor.Arange(ir.INT32, c.in[0]*c.in[1]*c.in[2]).Reshape(c.in...)
			}
			return []*tensor.Tensor{inp, tensor.FromInt32(idx, c.idx...), tensor.Zeros(c.dt, c.idx...)}
		}, func(a []*tensor.Tensor, compiled bool) {
			rank3Gather(t, fmt.Sprintf("%s compiled %v", c.name, compiled), c.dim, a[0], a[1], a[2])
		})
	}
	half, err := pl.ParsePython(`import pypto.language as pl

@pl.program
class Half:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(self, inp: pl.Tensor[[4, 2, 16], pl.FP16], idx: pl.Tensor[[2, 2, 16], pl.INT32], output: pl.Out[pl.Tensor[[2, 2, 16], pl.FP16]]) -> pl.Tensor[[2, 2, 16], pl.FP16]:
        with pl.at(level=pl.Level.CORE_GROUP):
            output = pl.assemble(output, pl.gather(inp, dim=0, index=idx), [0, 0, 0])
        return output
`)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := half.Program("Half")
	if err != nil {
		t.Fatal(err)
	}
	_, err = pl.TryCompile(prog, pl.Ranks(1))
	if err == nil || !strings.Contains(err.Error(), "tensor.gather: a rank-3 gather on dim 0 uses an INT32 flat index that only matches tgather's 32-bit form; given input dtype FP16") {
		t.Fatalf("compiling an FP16 first-dimension gather: %v", err)
	}
}

// The mask form of gather keeps the columns its pattern selects (even,
// odd seen as UINT32 bits, every fourth from column 2), as written and
// compiled, and emits the row form of pto.tgather.
func TestGatherMask(t *testing.T) {
	prog, comp, text := authored(t, "gather.py", "GatherMask", 1)
	wantPTO(t, text, "{maskPattern = #pto.mask_pattern<P0101>} : ", ", \"row\") outs(", "#pto.mask_pattern<P1010>", "#pto.mask_pattern<P0100>")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 8, 16), tensor.Zeros(ir.FP32, 8, 8), tensor.Zeros(ir.UINT32, 8, 8), tensor.Zeros(ir.FP32, 8, 4)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 8; i++ {
			for j := 0; j < 8; j++ {
				if got, want := a[1].At(i, j), a[0].At(i, 2*j); got != want {
					t.Fatalf("compiled %v: even[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
				if got, want := a[2].At(i, j), float64(math.Float32bits(float32(a[0].At(i, 2*j+1)))); got != want {
					t.Fatalf("compiled %v: odd_bits[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
			for j := 0; j < 4; j++ {
				if got, want := a[3].At(i, j), a[0].At(i, 4*j+2); got != want {
					t.Fatalf("compiled %v: quarter[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// pl.tensor.scatter(base, dim=-1, index=idx, src=val) writes each row's
// values at its column indices and keeps the rest of base, as written and
// compiled (one pto.tscatter at flat indices).
func TestScatterRows(t *testing.T) {
	prog, comp, text := authored(t, "scatter.py", "ScatterRows", 1)
	wantPTO(t, text, "pto.tscatter ins(", "pto.tci ins(", "pto.trowexpandadd ins(")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		idx := make([]int32, 8*8)
		for i := range idx {
			idx[i] = int32((i%8)*2 + (i/8)%2) // distinct columns per row
		}
		return []*tensor.Tensor{tensor.Randn(1, 8, 16), tensor.FromInt32(idx, 8, 8), tensor.Randn(2, 8, 8), tensor.Zeros(ir.FP32, 8, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 8; i++ {
			want := make([]float64, 16)
			for j := range want {
				want[j] = a[0].At(i, j)
			}
			for j := 0; j < 8; j++ {
				want[int(a[1].At(i, j))] = a[2].At(i, j)
			}
			for j, w := range want {
				if got := a[3].At(i, j); got != w {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, w)
				}
			}
		}
	})
}

// The mask form of scatter writes the input's compact rows onto the odd
// columns of dst and keeps the even ones, as written and compiled.
func TestScatterMask(t *testing.T) {
	prog, comp, text := authored(t, "scatter.py", "ScatterMask", 1)
	wantPTO(t, text, "pto.tscatter ins(", "{maskPattern = #pto.mask_pattern<P1010>} : ")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 8, 8), tensor.Randn(2, 8, 16), tensor.Zeros(ir.FP32, 8, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 8; i++ {
			for j := 0; j < 16; j++ {
				want := a[1].At(i, j)
				if j%2 == 1 {
					want = a[0].At(i, j/2)
				}
				if got := a[2].At(i, j); got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// row_argmax / row_argmin on a tile and col_argmax / col_argmin on a
// tensor (whose scratch tile the lowering allocates, shaped like the
// input) give the position of each extreme element, as written and
// compiled.
func TestArgReductions(t *testing.T) {
	prog, comp, text := authored(t, "argmax.py", "Argmax", 1)
	wantPTO(t, text, "pto.trowargmax ins(", "pto.trowargmin ins(", "pto.tcolargmax ins(", "pto.tcolargmin ins(")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 8, 16), tensor.Zeros(ir.INT32, 8, 1), tensor.Zeros(ir.INT32, 8, 1),
			tensor.Zeros(ir.INT32, 1, 16), tensor.Zeros(ir.INT32, 1, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		x := a[0]
		for i := 0; i < 8; i++ {
			mx, mn := 0, 0
			for j := 1; j < 16; j++ {
				if x.At(i, j) > x.At(i, mx) {
					mx = j
				}
				if x.At(i, j) < x.At(i, mn) {
					mn = j
				}
			}
			if got := a[1].At(i, 0); got != float64(mx) {
				t.Fatalf("compiled %v: row_argmax %d = %v, want %d", compiled, i, got, mx)
			}
			if got := a[2].At(i, 0); got != float64(mn) {
				t.Fatalf("compiled %v: row_argmin %d = %v, want %d", compiled, i, got, mn)
			}
		}
		for j := 0; j < 16; j++ {
			mx, mn := 0, 0
			for i := 1; i < 8; i++ {
				if x.At(i, j) > x.At(mx, j) {
					mx = i
				}
				if x.At(i, j) < x.At(mn, j) {
					mn = i
				}
			}
			if got := a[3].At(0, j); got != float64(mx) {
				t.Fatalf("compiled %v: col_argmax %d = %v, want %d", compiled, j, got, mx)
			}
			if got := a[4].At(0, j); got != float64(mn) {
				t.Fatalf("compiled %v: col_argmin %d = %v, want %d", compiled, j, got, mn)
			}
		}
	})
}

// pl.transpose of a tensor and pl.tile.transpose of a tile (with its
// scratch) move the data, as written and compiled (pto.ttrans).
func TestTranspose(t *testing.T) {
	prog, comp, text := authored(t, "transpose.py", "Transpose", 1)
	wantPTO(t, text, "pto.ttrans ins(")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 8, 16), tensor.Zeros(ir.FP32, 16, 8), tensor.Zeros(ir.FP32, 16, 8)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			for j := 0; j < 8; j++ {
				for k, out := range a[1:] {
					if got, want := out.At(i, j), a[0].At(j, i); got != want {
						t.Fatalf("compiled %v: output %d [%d, %d] = %v, want %v", compiled, k, i, j, got, want)
					}
				}
			}
		}
	})
}

// A @pl.jit function's scalar parameters are specialization constants: the
// values the __main__ block's call passes replace their uses, so the run
// ignores the values given for them. A @pl.program's scalar stays a
// run-time value that reaches the outlined kernel's valid_col.
func TestScalarValidShapes(t *testing.T) {
	for _, tc := range []struct {
		name        string
		scale, vlen float64 // what the run passes
		want        func(v float64, j int) float64
		pto         []string
	}{
		{"scaled_prefix", 3, 7, func(v float64, j int) float64 {
			if j < 20 {
				return f32(v * 0.5)
			}
			return 0
		}, []string{"v_row=16, v_col=20", "arith.constant 5.0e-01 : f32"}},
		{"RuntimePrefix", 3, 12, func(v float64, j int) float64 {
			if j < 12 {
				return f32(v * 3)
			}
			return 0
		}, []string{"valid_col = %arg"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog, comp, text := authored(t, "valid_shapes.py", tc.name, 1)
			wantPTO(t, text, tc.pto...)
			writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.Randn(5, 16, 32), tensor.Full(ir.FP32, tc.scale, 1), tensor.Full(ir.INDEX, tc.vlen, 1), tensor.Zeros(ir.FP32, 16, 32)}
			}, func(a []*tensor.Tensor, compiled bool) {
				for i := 0; i < 16; i++ {
					for j := 0; j < 32; j++ {
						if got, want := a[3].At(i, j), tc.want(a[0].At(i, j), j); got != want {
							t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
						}
					}
				}
			})
		})
	}
}

// A scalar parameter of the entry takes a one-element tensor; anything
// else is refused by name.
func TestScalarArgumentErrors(t *testing.T) {
	prog, _, _ := authored(t, "valid_shapes.py", "RuntimePrefix", 1)
	for _, tc := range []struct {
		vlen *tensor.Tensor
		want string
	}{
		{tensor.Full(ir.INDEX, 4, 2), "main: scalar vlen (pl.Scalar[pl.INDEX]): expected a one-element tensor, given shape [2]"},
		{tensor.Full(ir.FP32, 2.5, 1), "main: scalar vlen (pl.Scalar[pl.INDEX]): expected an integer, given 2.5"},
	} {
		_, err := pl.Run(prog, pl.Ranks(1), tensor.Randn(1, 16, 32), tensor.Full(ir.FP32, 1, 1), tc.vlen, tensor.Zeros(ir.FP32, 16, 32))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("got %v, want %q", err, tc.want)
		}
	}
}

// pl.tile.read and pl.tile.write address one element of a tile, by
// constant and run-time indices, as written and compiled.
func TestTileElements(t *testing.T) {
	prog, comp, text := authored(t, "tile_elements.py", "TileElements", 1)
	wantPTO(t, text, "= pto.tgetval ins(%it, ", "index) outs : i32", "pto.tsetval ins(", ": index, f32) outs(%t")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		idx := tensor.Zeros(ir.INT32, 1, 8)
		for i, c := range []float64{5, 0, 15, 9, 1, 2, 3, 4} {
			idx.Set(c, 0, i)
		}
		return []*tensor.Tensor{idx, tensor.Randn(6, 4, 16), tensor.Zeros(ir.FP32, 4, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 4; i++ {
			for j := 0; j < 16; j++ {
				want := a[1].At(i, j)
				if j == 0 {
					want = a[1].At(i, int(a[0].At(0, i)))
				}
				if got := a[2].At(i, j); got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// Slice windows that overhang their source, by a valid shape inside the
// window or clamp=True, read only what the source holds; a valid shape
// narrower than the window is padded by fillpad.
func TestSliceWindows(t *testing.T) {
	prog, comp, _ := authored(t, "slice_windows.py", "SliceWindows", 1)
	printed := prog.String()
	for _, want := range []string{
		"t: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[15, 64], stride=[], layout=pl.TensorLayout.ND)] = pl.tensor.slice(a, [16, 64], [0, 0], [15, 64])",
		"c: pl.Tensor[[8, 64], pl.FP32, pl.TensorView(valid_shape=[5, 64], stride=[], layout=pl.TensorLayout.ND)] = pl.tensor.slice(a, [8, 64], [10, 0], clamp=True)",
	} {
		if !strings.Contains(printed, want) {
			t.Fatalf("no %s in\n%s", want, printed)
		}
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(7, 15, 64), tensor.Full(ir.FP32, 9, 16, 64), tensor.Full(ir.FP32, 9, 8, 64), tensor.Full(ir.FP32, 9, 8, 64)}
	}, func(a []*tensor.Tensor, compiled bool) {
		src := a[0]
		check := func(what string, out *tensor.Tensor, i, j int, want float64) {
			if got := out.At(i, j); got != want {
				t.Fatalf("compiled %v: %s[%d, %d] = %v, want %v", compiled, what, i, j, got, want)
			}
		}
		for j := 0; j < 64; j++ {
			for i := 0; i < 16; i++ {
				want := 9.0
				if i < 15 {
					want = float64(float32(math.Exp(src.At(i, j))))
				}
				check("over", a[1], i, j, want)
			}
			for i := 0; i < 8; i++ {
				want := 9.0
				if i < 5 {
					want = f32(src.At(10+i, j) + 1)
				}
				check("clamped", a[2], i, j, want)
				want = 0
				if j < 32 {
					want = src.At(i, j)
				}
				check("narrowed", a[3], i, j, want)
			}
		}
	})
}

// Task graphs: pl.submit, pl.at(...) as tid, deps=[...], manual scopes,
// arrays of task ids and dummy tasks read, print, compile and run; every
// program computes 2 * x + 1 in whatever order its edges allow.
func TestTaskGraph(t *testing.T) {
	for _, tc := range []struct {
		name    string
		scratch bool
		printed []string
		stage   string // a stage whose text holds staged
		staged  []string
	}{
		{"Pipeline", true, []string{
			"with pl.scope(mode=pl.ScopeMode.MANUAL):",
			"_tuple_tmp: pl.Tuple[pl.Tensor[[64, 32], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.submit(self.double, x, scratch, i * 16, j * 16)",
			"pl.submit(self.plus_one, scratch_1, out, i * 16, j * 16, deps=[first])",
		}, "", nil},
		{"PhaseFence", true, []string{
			"tids: pl.Array[4, pl.TASK_ID] = pl.array.create(4, dtype=pl.TASK_ID)",
			"tids_1: pl.Array[4, pl.TASK_ID] = pl.array.update_element(tids, b, tid)",
			"fence: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[tids_1])",
		}, "", nil},
		{"Chain", false, []string{
			"prev: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()",
			`with pl.at(level=pl.Level.CORE_GROUP, name_hint="stripe", deps=[prev]) as prev_1:`,
		}, "OutlineIncoreScopes", []string{"= pl.submit(self.stripe, x, step, out__iter_v0, deps=[prev__iter_v1])", "prev__ssa_v2: pl.Scalar[pl.TASK_ID] = ret__tmp_v0[2]"}},
		{"declared_edge", true, []string{
			`with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage1") as first:`,
			`with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage2", deps=[first]):`,
		}, "OutlineIncoreScopes", []string{"first: pl.Scalar[pl.TASK_ID] = ret__tmp_v0[1]", "pl.submit(self.stage2, scratch__ssa_v0, out, deps=[first])"}},
		// dumps= marks arguments by position, so SSA's renaming keeps them.
		{"SubmitDumps", true, []string{
			"pl.submit(self.stage1, x, scratch, dumps=[x, scratch])",
		}, "ConvertToSSA", []string{"pl.submit(self.stage1, x, scratch, dumps=[x, scratch])", "pl.submit(self.stage2, scratch__ssa_v0, out, deps=[first])"}},
		// The scheduling hint makes the launch a pl.submit that carries it.
		{"early_resolve", true, []string{
			`with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage1", allow_early_resolve=True):`,
		}, "OutlineIncoreScopes", []string{"= pl.submit(self.stage1, x, scratch, allow_early_resolve=True)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog, comp, _ := authored(t, "task_graph.py", tc.name, 1)
			text := prog.String()
			for _, want := range tc.printed {
				if !strings.Contains(text, want) {
					t.Fatalf("no %s in\n%s", want, text)
				}
			}
			if tc.stage != "" {
				st, ok := comp.Stage(tc.stage)
				if !ok {
					t.Fatalf("no stage %s", tc.stage)
				}
				for _, want := range tc.staged {
					if !strings.Contains(st.String(), want) {
						t.Fatalf("no %s in\n%s", want, st)
					}
				}
			}
			writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
				args := []*tensor.Tensor{tensor.Randn(8, 64, 32)}
				if tc.scratch {
					args = append(args, tensor.Zeros(ir.FP32, 64, 32))
				}
				return append(args, tensor.Zeros(ir.FP32, 64, 32))
			}, func(a []*tensor.Tensor, compiled bool) {
				out := a[len(a)-1]
				for i := 0; i < 64; i++ {
					for j := 0; j < 32; j++ {
						if got, want := out.At(i, j), f32(f32(2*a[0].At(i, j))+1); got != want {
							t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
						}
					}
				}
			})
		})
	}
}

// Partial-combine ops compute where both operands are valid and copy the
// valid one elsewhere; their tensor forms lower to the tile forms.
func TestPartOps(t *testing.T) {
	prog, comp, text := authored(t, "part_ops.py", "PartOps", 1)
	wantPTO(t, text, "pto.tpartadd ins(", "pto.tpartmul ins(", "pto.tpartmax ins(", "pto.tpartmin ins(")
	fns := []func(a, b float64) float64{
		func(a, b float64) float64 { return f32(a + b) }, func(a, b float64) float64 { return f32(a * b) }, math.Max, math.Min,
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		args := []*tensor.Tensor{tensor.Randn(3, 16, 32), tensor.Randn(4, 16, 32)}
		for range fns {
			args = append(args, tensor.Zeros(ir.FP32, 16, 32))
		}
		return args
	}, func(a []*tensor.Tensor, compiled bool) {
		for k, fn := range fns {
			for i := 0; i < 16; i++ {
				for j := 0; j < 32; j++ {
					want := a[0].At(i, j)
					if i < 8 && j < 20 {
						want = fn(a[0].At(i, j), a[1].At(i, j))
					}
					if got := a[2+k].At(i, j); got != want {
						t.Fatalf("compiled %v: output %d [%d, %d] = %v, want %v", compiled, k, i, j, got, want)
					}
				}
			}
		}
	})
	prog, comp, _ = authored(t, "part_ops.py", "TensorPartOps", 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(5, 16, 32), tensor.Randn(6, 16, 32), tensor.Zeros(ir.FP32, 16, 32), tensor.Zeros(ir.FP32, 16, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			for j := 0; j < 32; j++ {
				x, y := a[0].At(i, j), a[1].At(i, j)
				if a[2].At(i, j) != f32(x+y) || a[3].At(i, j) != math.Max(x, y) {
					t.Fatalf("compiled %v: [%d, %d] = %v, %v, want %v, %v", compiled, i, j, a[2].At(i, j), a[3].At(i, j), f32(x+y), math.Max(x, y))
				}
			}
		}
	})
}

// pl.mscatter stores each element of a tile at the flat index its index
// tile names; the rest of the tensor keeps its values; an index past the
// tensor is a run error naming it.
func TestMscatter(t *testing.T) {
	prog, comp, text := authored(t, "mscatter.py", "Mscatter", 1)
	wantPTO(t, text, "pto.mscatter ins(%s, %i : ", "outs(%out_local_pview : !pto.partition_tensor_view<128xf32>)")
	idxOf := func(k int) int { return (k*37 + 5) % 128 } // distinct for k < 128
	args := func() []*tensor.Tensor {
		idx := tensor.Zeros(ir.INT32, 4, 16)
		for k := 0; k < 64; k++ {
			idx.Set(float64(idxOf(k)), k/16, k%16)
		}
		return []*tensor.Tensor{tensor.Randn(9, 4, 16), idx, tensor.Full(ir.FP32, 7, 128)}
	}
	writtenAndCompiled(t, prog, comp, 1, args, func(a []*tensor.Tensor, compiled bool) {
		want := make([]float64, 128)
		for i := range want {
			want[i] = 7
		}
		for k := 0; k < 64; k++ {
			want[idxOf(k)] = a[0].At(k/16, k%16)
		}
		for i, w := range want {
			if got := a[2].At(i); got != w {
				t.Fatalf("compiled %v: out[%d] = %v, want %v", compiled, i, got, w)
			}
		}
	})
	a := args()
	a[1].Set(128, 2, 3)
	if _, err := pl.Run(prog, pl.Ranks(1), a...); err == nil || !strings.Contains(err.Error(), "index 128 (element 35 of idx) is outside output_tensor's 128 elements") {
		t.Fatalf("got %v", err)
	}
}

// runEither runs program name on one rank, as written or compiled.
func runEither(t *testing.T, name string, prog *pl.Program, comp *pl.Compiled, compiled bool, args ...*tensor.Tensor) *pl.RunResult {
	t.Helper()
	run := func() (*pl.RunResult, error) { return pl.Run(prog, pl.Ranks(1), args...) }
	if compiled {
		run = func() (*pl.RunResult, error) { return comp.Run(pl.Ranks(1), args...) }
	}
	res, err := run()
	if err != nil {
		t.Fatalf("%s compiled %v: %v", name, compiled, err)
	}
	return res
}

// A manual scope whose consumer has no deps chain to its producer is a
// race the checker names (the values still come out right: the simulator
// runs a rank's tasks in order); the programs with their edges are clean.
func TestManualScopeRaces(t *testing.T) {
	run := func(file, name string) []string {
		t.Helper()
		prog, comp, _ := authored(t, file, name, 1)
		var out []string
		for _, compiled := range []bool{false, true} {
			x := tensor.Randn(2, 64, 32)
			o := tensor.Zeros(ir.FP32, 64, 32)
			args := []*tensor.Tensor{x, tensor.Zeros(ir.FP32, 64, 32), o}
			if name == "Chain" {
				args = []*tensor.Tensor{x, o}
			}
			res := runEither(t, name, prog, comp, compiled, args...)
			if got, want := o.At(63, 31), f32(f32(2*x.At(63, 31))+1); got != want {
				t.Fatalf("%s compiled %v: out[63, 31] = %v, want %v", name, compiled, got, want)
			}
			out = append(out, res.Report().String())
		}
		return out
	}
	for _, tc := range []struct{ file, name, want string }{
		{"task_races.py", "MissingEdge", "error [manual-scope-race] in a pl.manual_scope, plus_one reads scratch, which double writes, and no chain of deps orders them"},
		{"task_races.py", "RegionsWithoutDeps", "error [manual-scope-race] in a pl.manual_scope, consume reads scratch, which produce writes"},
		{"task_graph.py", "Pipeline", "protocol check: clean"},
		{"task_graph.py", "PhaseFence", "protocol check: clean"},
		{"task_graph.py", "Chain", "protocol check: clean"},
	} {
		for i, rep := range run(tc.file, tc.name) {
			if !strings.Contains(rep, tc.want) {
				t.Errorf("%s (compiled %v): report\n%s\nwant %q", tc.name, i == 1, rep, tc.want)
			}
		}
	}
}

// An on-core array counts a histogram in a kernel: updated in loops, read
// back, and in PTO one declared local array written in place.
func TestLocalArray(t *testing.T) {
	prog, comp, text := authored(t, "local_array.py", "Histogram", 1)
	wantPTO(t, text, "%counts__ssa_v0 = pto.declare_local_array -> !pto.local_array<8xi32>",
		"pto.local_array_set %counts__ssa_v0[%b], %c0_i32 : !pto.local_array<8xi32>, i32", "= pto.local_array_get %counts__ssa_v0[")
	if strings.Contains(text, "iter_args(") {
		t.Fatalf("the array is carried through a loop instead of written in place:\n%s", text)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		vals := tensor.Zeros(ir.INT32, 1, 32)
		for i := 0; i < 32; i++ {
			vals.Set(float64((i*i+3)%8), 0, i)
		}
		return []*tensor.Tensor{vals, tensor.Full(ir.INT32, 99, 8, 1)}
	}, func(a []*tensor.Tensor, compiled bool) {
		want := make([]float64, 8)
		for i := 0; i < 32; i++ {
			want[int(a[0].At(0, i))]++
		}
		for b, w := range want {
			if got := a[1].At(b, 0); got != w {
				t.Fatalf("compiled %v: hist[%d] = %v, want %v", compiled, b, got, w)
			}
		}
	})
}

// @pl.jit kernels are sized by the pytest methods that call them
// (torch.randint, dtype conversions of samples), and x.shape reads a
// tensor's dimensions.
func TestJitPytestSamples(t *testing.T) {
	prog, comp, _ := authored(t, "jit_pytest.py", "add_one", 1)
	if text := prog.String(); !strings.Contains(text, "x: pl.Tensor[[8, 16], pl.INT32]") || !strings.Contains(text, "pl.tile.load(x, [0, 0], [8, 16]") {
		t.Fatalf("add_one is not sized by its test method:\n%s", text)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		x := tensor.Zeros(ir.INT32, 8, 16)
		for i := 0; i < 8; i++ {
			for j := 0; j < 16; j++ {
				x.Set(float64(i*16+j-60), i, j)
			}
		}
		return []*tensor.Tensor{x, tensor.Zeros(ir.INT32, 8, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 8; i++ {
			for j := 0; j < 16; j++ {
				if got, want := a[1].At(i, j), a[0].At(i, j)+1; got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
	prog, _, _ = authored(t, "jit_pytest.py", "double_half", 1)
	if text := prog.String(); !strings.Contains(text, "x: pl.Tensor[[16, 32], pl.FP16]") {
		t.Fatalf("double_half is not sized by its decorated test method:\n%s", text)
	}
	prog, _, _ = authored(t, "jit_pytest.py", "negate", 1)
	if text := prog.String(); !strings.Contains(text, "x: pl.Tensor[[4, 64], pl.FP32]") {
		t.Fatalf("negate is not sized by the method of its decorated test class:\n%s", text)
	}
	prog, _, _ = authored(t, "jit_pytest.py", "scale_rows", 1)
	if text := prog.String(); !strings.Contains(text, "x: pl.Tensor[[2, 32], pl.FP32]") {
		t.Fatalf("scale_rows is not sized by the samples _make_inputs returns:\n%s", text)
	}
}

// sort32 and both forms of mrgsort sort a row descending, indices
// alongside, as written and compiled; the tensor forms lower to them.
func TestSort(t *testing.T) {
	prog, comp, text := authored(t, "sort.py", "SortRow", 1)
	wantPTO(t, text, "pto.tsort32 ins(%s, %i : ", "pto.tmrgsort ins(%sorted32, %c64_i32 : ", "= arith.constant dense<0> : vector<4xi16>",
		"{exhausted = false} : ")
	value := func(k int) float64 { return float64((k*37+17)%256-128) / 64 } // distinct
	args := func(n int) []*tensor.Tensor {
		src, idx := tensor.Zeros(ir.FP32, 1, n), tensor.Zeros(ir.UINT32, 1, n)
		for k := 0; k < n; k++ {
			src.Set(value(k), 0, k)
			idx.Set(float64(k), 0, k)
		}
		return []*tensor.Tensor{src, idx}
	}
	// sortedOrder is 0..n-1 ordered by value, descending.
	sortedOrder := func(n int) []int {
		o := make([]int, n)
		for k := range o {
			o[k] = k
		}
		sort.Slice(o, func(i, j int) bool { return value(o[i]) > value(o[j]) })
		return o
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return append(args(256), tensor.Zeros(ir.FP32, 1, 512), tensor.Zeros(ir.FP32, 1, 256), tensor.Zeros(ir.UINT32, 1, 256))
	}, func(a []*tensor.Tensor, compiled bool) {
		for b := 0; b < 256; b += 32 {
			prev := math.Inf(1)
			for k := 0; k < 32; k++ {
				v, bits := a[2].At(0, 2*(b+k)), math.Float32bits(float32(a[2].At(0, 2*(b+k)+1)))
				if v > prev || v != value(int(bits)) || int(bits) < b || int(bits) >= b+32 {
					t.Fatalf("compiled %v: block %d pair %d = (%v, %d): not block %d sorted descending with its index", compiled, b/32, k, v, bits, b/32)
				}
				prev = v
			}
		}
		for k, want := range sortedOrder(256) {
			if got := a[3].At(0, k); got != value(want) || int(a[4].At(0, k)) != want {
				t.Fatalf("compiled %v: sorted[%d] = %v (index %v), want %v (index %d)", compiled, k, got, a[4].At(0, k), value(want), want)
			}
		}
	})
	prog, comp, _ = authored(t, "sort.py", "SortTensors", 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return append(args(128), tensor.Zeros(ir.FP32, 1, 128))
	}, func(a []*tensor.Tensor, compiled bool) {
		for k, want := range sortedOrder(128) {
			if got := a[2].At(0, k); got != value(want) {
				t.Fatalf("compiled %v: sorted[%d] = %v, want %v", compiled, k, got, value(want))
			}
		}
	})
}

// tile.cmp / tile.cmps pack predicate bits that tile.sel picks by, and
// tensor.cmp gives 1 or 0, as written and compiled.
func TestCompare(t *testing.T) {
	prog, comp, text := authored(t, "compare.py", "Compare", 1)
	wantPTO(t, text, "pto.tcmp ins(%x, %y : ", "{cmpMode = #pto<cmp gt>}", "pto.tcmps ins(%x, %c0_f32 : ", "{cmpMode = #pto<cmp ge>}", "pto.tsel ins(%gt, %x, %y, %tmp : ")
	inputs := func() []*tensor.Tensor {
		a, b := tensor.Randn(3, 8, 40), tensor.Randn(4, 8, 40)
		a.Set(0.5, 0, 0) // ties for the scalar comparisons
		b.Set(a.At(1, 1), 1, 1)
		return []*tensor.Tensor{a, b, tensor.Zeros(ir.FP32, 8, 40), tensor.Zeros(ir.FP32, 8, 40)}
	}
	writtenAndCompiled(t, prog, comp, 1, inputs, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 8; i++ {
			for j := 0; j < 40; j++ {
				x, y := a[0].At(i, j), a[1].At(i, j)
				pos := 0.0
				if x >= 0 {
					pos = x
				}
				if a[2].At(i, j) != math.Max(x, y) || a[3].At(i, j) != pos {
					t.Fatalf("compiled %v: [%d, %d] = %v, %v, want %v, %v", compiled, i, j, a[2].At(i, j), a[3].At(i, j), math.Max(x, y), pos)
				}
			}
		}
	})
	prog, comp, _ = authored(t, "compare.py", "TensorCompare", 1)
	writtenAndCompiled(t, prog, comp, 1, inputs, func(a []*tensor.Tensor, compiled bool) {
		b2f := func(b bool) float64 {
			if b {
				return 1
			}
			return 0
		}
		for i := 0; i < 8; i++ {
			for j := 0; j < 40; j++ {
				x, y := a[0].At(i, j), a[1].At(i, j)
				if a[2].At(i, j) != b2f(x < y) || a[3].At(i, j) != b2f(x != 0.5) {
					t.Fatalf("compiled %v: [%d, %d] = %v, %v, want %v, %v", compiled, i, j, a[2].At(i, j), a[3].At(i, j), b2f(x < y), b2f(x != 0.5))
				}
			}
		}
	})
}

// scatter_update writes src's rows over input's rows at index's row
// numbers, in both forms, as written and compiled (lowered to
// tile.scatter at flat indices); a row past the input is a run error.
func TestScatterUpdate(t *testing.T) {
	rowsOf := []int{3, 15, 0, 7, 8, 1, 12, 5}
	args := func() []*tensor.Tensor {
		idx := tensor.Zeros(ir.INT32, 2, 4)
		for k, r := range rowsOf {
			idx.Set(float64(r), k/4, k%4)
		}
		return []*tensor.Tensor{tensor.Randn(1, 16, 32), idx, tensor.Randn(2, 8, 32), tensor.Zeros(ir.FP32, 16, 32)}
	}
	for _, name := range []string{"TileScatterUpdate", "TensorScatterUpdate"} {
		prog, comp, _ := authored(t, "scatter_update.py", name, 1)
		lowered, ok := comp.Stage("ConvertTensorToTileOps")
		if !ok || !strings.Contains(lowered.String(), "pl.tile.scatter(") {
			t.Fatalf("%s: no tile.scatter after ConvertTensorToTileOps:\n%s", name, lowered)
		}
		writtenAndCompiled(t, prog, comp, 1, args, func(a []*tensor.Tensor, compiled bool) {
			src := map[int]int{}
			for k, r := range rowsOf {
				src[r] = k
			}
			for i := 0; i < 16; i++ {
				for j := 0; j < 32; j++ {
					want := a[0].At(i, j)
					if k, ok := src[i]; ok {
						want = a[2].At(k, j)
					}
					if got := a[3].At(i, j); got != want {
						t.Fatalf("%s compiled %v: out[%d, %d] = %v, want %v", name, compiled, i, j, got, want)
					}
				}
			}
		})
		a := args()
		a[1].Set(16, 1, 2)
		if _, err := pl.Run(prog, pl.Ranks(1), a...); err == nil || !strings.Contains(err.Error(), "row 16 (index element 6) is outside input's 16 rows") {
			t.Fatalf("%s: got %v", name, err)
		}
	}
}

// @pl.function(attrs={...}) and the body's pl.func_attr({...}) set the
// function's attributes (a split mode as its number), printed as the
// body's pl.func_attr line with the mode by name; a NONE split is none.
func TestDecoratorAttrs(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "func_attrs.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Attrs", "BodyAttrs"} {
		prog, err := mod.Program(name)
		if err != nil {
			t.Fatal(err)
		}
		if text := prog.String(); !strings.Contains(text, `pl.func_attr({"split": pl.SplitMode.UP_DOWN, "dual_aiv_dispatch": True})`) {
			t.Fatalf("%s: the attrs are not the function's:\n%s", name, text)
		}
	}
	prog, err := mod.Program("NoSplit")
	if err != nil {
		t.Fatal(err)
	}
	if text := prog.String(); strings.Contains(text, "func_attr") || strings.Contains(text, "attrs=") {
		t.Fatalf("a NONE split should leave no attrs:\n%s", text)
	}
}

// A block count computed from a dynamic dimension, bound by bind_dynamic:
// every block handles its two rows, as written and compiled; binding the
// wrong dimension is a positioned error.
func TestDynamicSpmd(t *testing.T) {
	prog, comp, _ := authored(t, "dyn_spmd.py", "pairs", 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(3, 6, 16), tensor.Zeros(ir.FP32, 6, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 6; i++ {
			for j := 0; j < 16; j++ {
				if got, want := a[1].At(i, j), f32(a[0].At(i, j)+1); got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
	src, err := os.ReadFile(filepath.Join("testdata", "authoring", "dyn_spmd.py"))
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), "x.bind_dynamic(0, B_DYN)", "x.bind_dynamic(1, B_DYN)", 1)
	mod, err := pl.ParsePython(bad)
	if err == nil {
		_, err = mod.Program("pairs") // a jit entry is built when asked for
	}
	if err == nil || !strings.Contains(err.Error(), "x.bind_dynamic(1, B_DYN): dimension 1 of x is 16, not B_DYN") {
		t.Fatalf("got %v", err)
	}
}

// Random tiles are Philox4x32: the Random123 known-answer seeds give the
// published words (the zero seeds' first block, and the pi vector with its
// high words written as negative INT32 literals); the next block follows
// from the counter plus one, INT32 words are the same bits, a valid shape
// is all that is written (fillpad zeroes the rest), two draws with the same
// seeds subtract to zero with seven rounds, and pl.random of a tensor
// lowers to the same words. As written and compiled alike.
func TestRandom(t *testing.T) {
	prog, comp, text := authored(t, "random.py", "RandomTiles", 1)
	wantPTO(t, text, "pto.trandom ins(%c0_i32, %c0_i32, %c0_i32, %c0_i32, %c0_i32, %c0_i32 : i32, i32, i32, i32, i32, i32) outs(%a : ",
		`"pto.trandom"(%c4369_i32, %c8738_i32, %c5_i32, %c6_i32, %c7_i32, %c8_i32, %r) {rounds = 7 : i32} : (i32, i32, i32, i32, i32, i32, !pto.tile_buf<`,
		"dtype=ui32, rows=4, cols=16, v_row=3, v_col=5,")
	zeroKAT := []float64{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}
	piKAT := []float64{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Zeros(ir.UINT32, 2, 8), tensor.Zeros(ir.UINT32, 1, 4), tensor.Zeros(ir.INT32, 2, 8),
			tensor.Zeros(ir.UINT32, 4, 16), tensor.Full(ir.UINT32, 9, 4, 64)}
	}, func(a []*tensor.Tensor, compiled bool) {
		zero, pi, signed, narrow, diff := a[0], a[1], a[2], a[3], a[4]
		seen := map[float64]bool{}
		for i := 0; i < 16; i++ {
			w := zero.At(i/8, i%8)
			if i < 4 && w != zeroKAT[i] {
				t.Fatalf("compiled %v: zero-seed word %d = %08x, want %08x", compiled, i, uint32(w), uint32(zeroKAT[i]))
			}
			if seen[w] {
				t.Fatalf("compiled %v: zero-seed word %d repeats %08x", compiled, i, uint32(w))
			}
			seen[w] = true
			if s := signed.At(i/8, i%8); s != float64(int32(uint32(w))) {
				t.Fatalf("compiled %v: INT32 word %d = %v, want the bits of %08x", compiled, i, s, uint32(w))
			}
		}
		for i, want := range piKAT {
			if got := pi.At(0, i); got != want {
				t.Fatalf("compiled %v: pi word %d = %08x, want %08x", compiled, i, uint32(got), uint32(want))
			}
		}
		for r := 0; r < 4; r++ {
			for c := 0; c < 16; c++ {
				if in := r < 3 && c < 5; in != (narrow.At(r, c) != 0) {
					t.Fatalf("compiled %v: narrow[%d, %d] = %v (inside the valid [3, 5]: %v)", compiled, r, c, narrow.At(r, c), in)
				}
			}
		}
		for r := 0; r < 4; r++ {
			for c := 0; c < 64; c++ {
				if diff.At(r, c) != 0 {
					t.Fatalf("compiled %v: diff[%d, %d] = %v, want 0", compiled, r, c, diff.At(r, c))
				}
			}
		}
	})
	tprog, tcomp, ttext := authored(t, "random.py", "RandomTensor", 1)
	wantPTO(t, ttext, "pto.trandom ins(")
	writtenAndCompiled(t, tprog, tcomp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Zeros(ir.UINT32, 4, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i, want := range zeroKAT {
			if got := a[0].At(0, i); got != want {
				t.Fatalf("compiled %v: tensor word %d = %08x, want %08x", compiled, i, uint32(got), uint32(want))
			}
		}
	})
}

// Mixed element types promote (FP32 + BF16 is FP32, INT8 * INT32 is
// INT32); compiled, the narrower operand is cast up before the tile op,
// and both forms give the exact sums and products.
func TestPromotedOperands(t *testing.T) {
	prog, comp, text := authored(t, "promote.py", "Promote", 1)
	wantPTO(t, text, "pto.tcvt ins(%b", "pto.tcvt ins(%i")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		i, j := tensor.Zeros(ir.INT8, 16, 64), tensor.Zeros(ir.INT32, 16, 64)
		for k := 0; k < 16*64; k++ {
			i.Set(float64(k%200-100), k/64, k%64)
			j.Set(float64(k*7919%100003-50000), k/64, k%64)
		}
		return []*tensor.Tensor{tensor.Randn(7, 16, 64), tensor.Randn(8, 16, 64).To(ir.BF16), i, j,
			tensor.Zeros(ir.FP32, 16, 64), tensor.Zeros(ir.INT32, 16, 64)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for r := 0; r < 16; r++ {
			for c := 0; c < 64; c++ {
				if want := f32(a[1].At(r, c) + a[0].At(r, c)); a[4].At(r, c) != want {
					t.Fatalf("compiled %v: y[%d, %d] = %v, want %v", compiled, r, c, a[4].At(r, c), want)
				}
				if want := a[2].At(r, c) * a[3].At(r, c); a[5].At(r, c) != want {
					t.Fatalf("compiled %v: z[%d, %d] = %v, want %v", compiled, r, c, a[5].At(r, c), want)
				}
			}
		}
	})
}

// pl.reinterpret_view sees the same bytes as another type: FP32 as its
// INT32 bit patterns, as two little-endian INT16 halves per element (the
// columns doubled), and back to the same FP32 values; of a tensor, as
// UINT32. As written and compiled alike; compiled, each view is a second
// alloc_tile at its source's address.
func TestReinterpretView(t *testing.T) {
	prog, comp, text := authored(t, "reinterpret.py", "Reinterpret", 1)
	wantPTO(t, text, "dtype=i32, rows=8, cols=16", "dtype=i16, rows=8, cols=32")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(3, 8, 16), tensor.Zeros(ir.INT32, 8, 16), tensor.Zeros(ir.INT16, 8, 32), tensor.Zeros(ir.FP32, 8, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for r := 0; r < 8; r++ {
			for c := 0; c < 16; c++ {
				u := math.Float32bits(float32(a[0].At(r, c)))
				if got := a[1].At(r, c); got != float64(int32(u)) {
					t.Fatalf("compiled %v: bits[%d, %d] = %v, want %v", compiled, r, c, got, int32(u))
				}
				lo, hi := a[2].At(r, 2*c), a[2].At(r, 2*c+1)
				if lo != float64(int16(u)) || hi != float64(int16(u>>16)) {
					t.Fatalf("compiled %v: halves[%d, %d:%d] = %v, %v, want %v, %v", compiled, r, 2*c, 2*c+2, lo, hi, int16(u), int16(u>>16))
				}
				if a[3].At(r, c) != a[0].At(r, c) {
					t.Fatalf("compiled %v: back[%d, %d] = %v, want %v", compiled, r, c, a[3].At(r, c), a[0].At(r, c))
				}
			}
		}
	})
	tp, tc, _ := authored(t, "reinterpret.py", "ReinterpretTensor", 1)
	writtenAndCompiled(t, tp, tc, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(4, 4, 32), tensor.Zeros(ir.UINT32, 4, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 4*32; i++ {
			if got, want := a[1].At(i/32, i%32), float64(math.Float32bits(float32(a[0].At(i/32, i%32)))); got != want {
				t.Fatalf("compiled %v: bits %d = %v, want %v", compiled, i, got, want)
			}
		}
	})
}

// Assembling into another element type converts: each core's FP32
// accumulator rounds to BF16 on its way out and is atomic-added into the
// BF16 output (the fix-pipe), and a Vec FP32 sum is cast to BF16 before
// its store; as written and compiled alike.
func TestConvertingStores(t *testing.T) {
	bf16 := func(v float64) float64 {
		x := tensor.Zeros(ir.BF16, 1)
		x.Set(v, 0)
		return x.At(0)
	}
	prog, comp, text := authored(t, "convert_store.py", "split_k_bf16", 1)
	wantPTO(t, text, "pto.tstore ins(%partial__tile : !pto.tile_buf<loc=acc, dtype=f32", "atomic_add")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 256).To(ir.BF16), tensor.Randn(2, 256, 32).To(ir.BF16), tensor.Full(ir.BF16, 3, 16, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			for j := 0; j < 32; j++ {
				c := 0.0
				for k0 := 0; k0 < 256; k0 += 64 {
					p := 0.0
					for q := k0; q < k0+64; q++ {
						p += a[0].At(i, q) * a[1].At(q, j)
					}
					c = bf16(c + bf16(f32(p)))
				}
				if got := a[2].At(i, j); got != c {
					t.Fatalf("compiled %v: c[%d, %d] = %v, want %v", compiled, i, j, got, c)
				}
			}
		}
	})
	prog, comp, text = authored(t, "convert_store.py", "narrow_store", 1)
	wantPTO(t, text, "outs(%assemble_cast : !pto.tile_buf<loc=vec, dtype=bf16")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(4, 4, 32), tensor.Zeros(ir.BF16, 4, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 4*32; i++ {
			if got, want := a[1].At(i/32, i%32), bf16(f32(2*a[0].At(i/32, i%32))); got != want {
				t.Fatalf("compiled %v: y %d = %v, want %v", compiled, i, got, want)
			}
		}
	})
}

// A tile stored from Mat is moved to Vec first (a store takes Vec or
// Acc), keeping its NZ layout as upstream's move does, and the output is
// the input, as written and compiled.
func TestMatStore(t *testing.T) {
	prog, comp, text := authored(t, "mat_operands.py", "MatStore", 1)
	wantPTO(t, text, "pto.tmov ins(%x_mat : !pto.tile_buf<loc=mat", "outs(%x_mat_Vec : !pto.tile_buf<loc=vec")
	st, ok := comp.Stage("InferTileMemorySpace")
	want := "x_mat_Vec: pl.Tile[[16, 128], pl.BF16, pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)] = pl.tile.move(x_mat, target_memory=pl.Mem.Vec)"
	if !ok || !strings.Contains(st.Text, want) {
		t.Fatalf("InferTileMemorySpace did not move the Mat tile to Vec (%s):\n%s", want, st.Text)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 128).To(ir.BF16), tensor.Zeros(ir.BF16, 16, 128)}
	}, func(a []*tensor.Tensor, compiled bool) {
		if !a[1].Equal(a[0]) {
			t.Fatalf("compiled %v: out = %v, want x = %v", compiled, a[1], a[0])
		}
	})
}

// A matmul's Acc result read by vector ops is moved to Vec first
// (InferTileMemorySpace, the ops' Vec input), landing ND there as
// upstream's move says (blayout, slayout), and the bias add and the
// scaling compute what they say, as written and compiled.
func TestAccIntoVector(t *testing.T) {
	prog, comp, text := authored(t, "mat_operands.py", "AccIntoVector", 1)
	wantPTO(t, text, "pto.tmov ins(%mm : !pto.tile_buf<loc=acc", "outs(%mm_Vec : !pto.tile_buf<loc=vec")
	st, ok := comp.Stage("InferTileMemorySpace")
	if !ok || !strings.Contains(st.Text, "mm_Vec: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.move(mm, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)") {
		t.Fatalf("InferTileMemorySpace moved no Acc operand to Vec:\n%s", st.Text)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 32).To(ir.FP16), tensor.Randn(2, 32, 16).To(ir.FP16), tensor.Randn(3, 16, 16), tensor.Zeros(ir.FP32, 16, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			for j := 0; j < 16; j++ {
				s := 0.0
				for k := 0; k < 32; k++ {
					s += a[0].At(i, k) * a[1].At(k, j)
				}
				if want := f32(f32(f32(s)+a[2].At(i, j)) * 0.5); a[3].At(i, j) != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, a[3].At(i, j), want)
				}
			}
		}
	})
}

// Tuple unpackings of different arity before and inside a loop: the
// loop carries a and b, not the reader's _tuple_tmp, and runs the
// Fibonacci-like steps it says (a, b = b, a + b; y = a * b).
func TestUnpackInLoop(t *testing.T) {
	prog, comp, _ := authored(t, "unpack_loop.py", "UnpackLoop", 1)
	st, ok := comp.Stage("ConvertToSSA")
	if !ok || strings.Contains(st.Text, "_tuple_tmp__iter") {
		t.Fatalf("ConvertToSSA carries _tuple_tmp through the loop:\n%s", st.Text)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(9, 4, 16), tensor.Zeros(ir.FP32, 4, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 4*16; i++ {
			x := a[0].At(i/16, i%16)
			pa, pb, y := x, f32(x+x), 0.0
			for k := 0; k < 3; k++ {
				y = f32(pa * pb)
				pa, pb = pb, f32(pa+pb)
			}
			if got := a[1].At(i/16, i%16); got != y {
				t.Fatalf("compiled %v: y %d = %v, want %v", compiled, i, got, y)
			}
		}
	})
}

// A factory calls a plain Python helper for its shapes: the reader runs
// the helper (keyword-only parameter, default, a check that raises), and
// the program it sizes runs; a value the check rejects stops the read
// with what the helper raises.
func TestPythonHelpers(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "py_helpers.py"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(mod.Names(), " "); got != "build_scale" {
		t.Fatalf("names %q: the helper is not a program or factory", got)
	}
	prog, err := mod.Call("build_scale", 3)
	if err != nil {
		t.Fatal(err)
	}
	if text := prog.String(); !strings.Contains(text, "x: pl.Tensor[[24, 32], pl.FP32]") {
		t.Fatalf("the helper did not size x as [24, 32]:\n%s", text)
	}
	x, y := tensor.Randn(4, 24, 32), tensor.Zeros(ir.FP32, 24, 32)
	if _, err := pl.Run(prog, pl.Ranks(1), x, y); err != nil {
		t.Fatal(err)
	}
	if y.At(23, 31) != f32(3*x.At(23, 31)) {
		t.Fatalf("y = %v, want 3x = %v", y.At(23, 31), f32(3*x.At(23, 31)))
	}
	_, err = mod.Call("build_scale", 0)
	want := `py_helpers.py:14:9: stripe_shape raises: ValueError(f"stripes must be positive, got {stripes}")`
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("got %v, want ...%s", err, want)
	}
}

// matmul_acc with init_cond: the accumulator, holding a stale product, is
// overwritten where k0 == 0 and accumulated into after, on tiles (an scf.if over
// pto.tmatmul and pto.tmatmul.acc) and on tensors (lowered to the same),
// as written and compiled: c = a @ b, chunk by chunk. A created
// accumulator is created in Acc once its memory is inferred.
func TestMatmulAccInitCond(t *testing.T) {
	for _, name := range []string{"InitCond", "InitCondCreate", "InitCondTensor"} {
		prog, comp, text := authored(t, "init_cond.py", name, 1)
		wantPTO(t, text, "scf.if %", "pto.tmatmul ins(", "} else {", "pto.tmatmul.acc ins(")
		if name == "InitCondCreate" {
			read := printer.Program(prog.IR())
			placed := stageText(t, prog.IR(), "InferTileMemorySpace")
			for _, c := range []struct{ text, want string }{
				{read, "acc0: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.create([16, 32], dtype=pl.FP32, target_memory=pl.Mem.Vec)"},
				{read, "acc_next: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc, a_l0, b_l0, k0 == 0)"},
				{placed, "acc0: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.create([16, 32], dtype=pl.FP32, target_memory=pl.Mem.Acc)"},
			} {
				if !strings.Contains(c.text, c.want) {
					t.Fatalf("want %s in\n%s", c.want, c.text)
				}
			}
		}
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Randn(1, 16, 128), tensor.Randn(2, 128, 32), tensor.Zeros(ir.FP32, 16, 32)}
		}, func(a []*tensor.Tensor, compiled bool) {
			for i := 0; i < 16; i++ {
				for j := 0; j < 32; j++ {
					acc := 0.0
					for k0 := 0; k0 < 128; k0 += 32 {
						sum := acc
						if k0 == 0 {
							sum = 0
						}
						for q := k0; q < k0+32; q++ {
							sum += a[0].At(i, q) * a[1].At(q, j)
						}
						acc = f32(sum)
					}
					if got := a[2].At(i, j); got != acc {
						t.Fatalf("%s compiled %v: c[%d, %d] = %v, want %v", name, compiled, i, j, got, acc)
					}
				}
			}
		})
	}
}

// A vector result feeding the cube (upstream's V2C mixed kernels): each
// Vec operand of the matmul moves to Mat before the cube path, and in
// CubeRoundTrip the product crosses back to Vec for the add. Both run as
// written and compiled to (a + b) @ (a - b) and c + (a + 1) @ b.
func TestVecIntoCube(t *testing.T) {
	prog, comp, text := authored(t, "vec_into_cube.py", "VecIntoCube", 1)
	wantPTO(t, text, "outs(%a_plus_b__tile_mat : !pto.tile_buf<loc=mat", "outs(%a_minus_b__tile_mat : !pto.tile_buf<loc=mat", "pto.tmatmul")
	matmul := func(x func(i, k int) float64, y func(k, j int) float64, i, j, n int) float64 {
		s := 0.0
		for k := 0; k < n; k++ {
			s += x(i, k) * y(k, j)
		}
		return f32(s)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(4, 32, 32), tensor.Randn(5, 32, 32), tensor.Zeros(ir.FP32, 32, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		sum := func(i, k int) float64 { return f32(a[0].At(i, k) + a[1].At(i, k)) }
		diff := func(k, j int) float64 { return f32(a[0].At(k, j) - a[1].At(k, j)) }
		for i := 0; i < 32; i++ {
			for j := 0; j < 32; j++ {
				if want := matmul(sum, diff, i, j, 32); a[2].At(i, j) != want {
					t.Fatalf("compiled %v: output[%d, %d] = %v, want %v", compiled, i, j, a[2].At(i, j), want)
				}
			}
		}
	})

	prog, comp, text = authored(t, "vec_into_cube.py", "CubeRoundTrip", 1)
	wantPTO(t, text, "outs(%a_add__tile_mat : !pto.tile_buf<loc=mat", "pto.tmatmul", "loc=acc")
	var c0 *tensor.Tensor
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		c0 = tensor.Randn(8, 16, 64)
		return []*tensor.Tensor{tensor.Randn(6, 16, 32), tensor.Randn(7, 32, 64), c0.Clone()}
	}, func(a []*tensor.Tensor, compiled bool) {
		inc := func(i, k int) float64 { return f32(a[0].At(i, k) + 1) }
		for i := 0; i < 16; i++ {
			for j := 0; j < 64; j++ {
				b := func(k, j int) float64 { return a[1].At(k, j) }
				want := f32(c0.At(i, j) + matmul(inc, b, i, j, 32))
				if a[2].At(i, j) != want {
					t.Fatalf("compiled %v: c[%d, %d] = %v, want %v", compiled, i, j, a[2].At(i, j), want)
				}
			}
		}
	})

	prog, comp, text = authored(t, "vec_into_cube.py", "TileOperands", 1)
	wantPTO(t, text, "outs(%tile_a_Mat : !pto.tile_buf<loc=mat", "outs(%tile_a_Left : !pto.tile_buf<loc=left",
		"outs(%tile_b_Mat : !pto.tile_buf<loc=mat", "outs(%tile_b_Right : !pto.tile_buf<loc=right", "pto.tmatmul")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(9, 16, 32).To(ir.FP16), tensor.Randn(10, 32, 64).To(ir.FP16), tensor.Zeros(ir.FP32, 16, 64)}
	}, func(a []*tensor.Tensor, compiled bool) {
		x := func(i, k int) float64 { return a[0].At(i, k) }
		y := func(k, j int) float64 { return a[1].At(k, j) }
		for i := 0; i < 16; i++ {
			for j := 0; j < 64; j++ {
				if want := matmul(x, y, i, j, 32); a[2].At(i, j) != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, a[2].At(i, j), want)
				}
			}
		}
	})
}

// Gathers into an on-chip accumulator (upstream's gather_row and
// paged_gather tests): a runtime row count through valid_shape, a loop of
// looked-up rows, and a block-table translation, each read back through an
// identity matmul (or stored from Vec), as written and compiled, at
// several runtime extents.
func TestGatherRow(t *testing.T) {
	const rows, dim, poolRows, sent, block = 16, 32, 64, 40, 8
	pool := func() *tensor.Tensor {
		v := make([]float32, poolRows*dim)
		for i := range v {
			v[i] = float32(i/dim) + float32(i%dim)/64 // row id, column in the fraction: FP16-exact
		}
		return tensor.FromFloat32(v, poolRows, dim).To(ir.FP16)
	}
	eye := func() *tensor.Tensor {
		v := make([]float32, rows*rows)
		for i := 0; i < rows; i++ {
			v[i*rows+i] = 1
		}
		return tensor.FromFloat32(v, rows, rows).To(ir.FP16)
	}
	check := func(name string, compiled bool, got, src *tensor.Tensor, rowOf func(i int) int, cols, off int) {
		t.Helper()
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				if want := src.At(rowOf(i), off+j); got.At(i, j) != want {
					t.Fatalf("%s compiled %v: out[%d, %d] = %v, want pool[%d, %d] = %v", name, compiled, i, j, got.At(i, j), rowOf(i), off+j, want)
				}
			}
		}
	}
	prog, comp, text := authored(t, "gather_row.py", "GatherRowValid", 1)
	wantPTO(t, text, "pto.subview", "pto.tload", "loc=mat", "pto.tmatmul")
	for _, valid := range []int{1, 7, rows} {
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{pool(), tensor.FromInt32([]int32{int32(valid)}, 1), eye(), tensor.Zeros(ir.FP32, rows, dim)}
		}, func(a []*tensor.Tensor, compiled bool) {
			check(fmt.Sprintf("GatherRowValid(%d)", valid), compiled, a[3], a[0], func(i int) int {
				if i < valid {
					return i
				}
				return sent + i
			}, dim, 0)
		})
	}
	slots := make([]int32, rows)
	for i := range slots {
		slots[i] = int32((i*23 + 5) % poolRows)
	}
	prog, comp, _ = authored(t, "gather_row.py", "GatherRowLoop", 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{pool(), tensor.FromInt32(slots, rows), eye(), tensor.Zeros(ir.FP32, rows, dim)}
	}, func(a []*tensor.Tensor, compiled bool) {
		check("GatherRowLoop", compiled, a[3], a[0], func(i int) int { return int(slots[i]) }, dim, 0)
	})
	idx := make([]int32, rows)
	for i := range idx {
		idx[i] = int32((i*7 + 3) % poolRows)
	}
	table := make([]int32, poolRows/block)
	for b := range table {
		table[b] = int32((b*3 + 1) % len(table))
	}
	phys := func(i int) int { j := int(idx[i]); return int(table[j/block])*block + j%block }
	prog, comp, text = authored(t, "gather_row.py", "PagedGatherMat", 1)
	wantPTO(t, text, "pto.load_scalar", "scf.for")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{pool(), tensor.FromInt32(idx, rows), tensor.FromInt32(table, len(table)), eye(), tensor.Zeros(ir.FP32, rows, dim)}
	}, func(a []*tensor.Tensor, compiled bool) {
		check("PagedGatherMat", compiled, a[4], a[0], phys, dim, 0)
	})
	prog, comp, _ = authored(t, "gather_row.py", "PagedGatherVec", 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{pool(), tensor.FromInt32(idx, rows), tensor.FromInt32(table, len(table)), tensor.Zeros(ir.FP16, rows, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		check("PagedGatherVec", compiled, a[3], a[0], phys, 16, 8)
	})
}

// Subscripts on a tile are tile.slice views: rows of a transposed tile
// (columns of the input) scale the halves of x row by row.
func TestTileSubscript(t *testing.T) {
	prog, comp, text := authored(t, "tile_subscript.py", "TileSubscript", 1)
	wantPTO(t, text, "pto.subview", "pto.trowexpandmul")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 8, 32), tensor.Randn(2, 8, 8), tensor.Zeros(ir.FP32, 8, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 8; i++ {
			for j := 0; j < 32; j++ {
				want := f32(a[0].At(i, j) * a[1].At(i, j/16))
				if got := a[2].At(i, j); got != want {
					t.Fatalf("compiled %v: y[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// pl.split_aiv regions: each vector lane runs the body with its index;
// aiv_shard gives a lane its half of the cube's result (rows, columns),
// aic_gather joins the halves for the cube, and a NONE region splits the
// work by the lane index. Each runs as written and compiled.
func TestSplitAiv(t *testing.T) {
	const m, k, n = 16, 32, 16
	mm := func(x, y func(i, j int) float64, i, j, inner int) float64 {
		s := 0.0
		for q := 0; q < inner; q++ {
			s += x(i, q) * y(q, j)
		}
		return f32(s)
	}
	prog, comp, text := authored(t, "split_aiv.py", "ShardRows", 1)
	wantPTO(t, text, "%__pypto_spmd_subblock_idx: i32", "pto.subview", "pto.tmatmul")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, m, k), tensor.Randn(2, k, n), tensor.Zeros(ir.FP32, m, n)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				want := f32(mm(func(i, q int) float64 { return a[0].At(i, q) }, func(q, j int) float64 { return a[1].At(q, j) }, i, j, k) * 2)
				if got := a[2].At(i, j); got != want {
					t.Fatalf("ShardRows compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
	prog, comp, _ = authored(t, "split_aiv.py", "GatherBack", 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(3, m, k), tensor.Randn(4, k, n), tensor.Randn(5, n, n), tensor.Zeros(ir.FP32, m, n)}
	}, func(a []*tensor.Tensor, compiled bool) {
		sc := func(i, q int) float64 {
			return f32(mm(func(i, p int) float64 { return a[0].At(i, p) }, func(p, q int) float64 { return a[1].At(p, q) }, i, q, k) * 2)
		}
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				want := mm(sc, func(q, j int) float64 { return a[2].At(q, j) }, i, j, n)
				if got := a[3].At(i, j); got != want {
					t.Fatalf("GatherBack compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
	prog, comp, _ = authored(t, "split_aiv.py", "shard_columns", 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(6, m, k), tensor.Randn(7, n, k), tensor.Zeros(ir.FP32, m, n)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				acc := mm(func(i, q int) float64 { return a[0].At(i, q) }, func(q, j int) float64 { return a[1].At(j, q) }, i, j, k)
				if got, want := a[2].At(i, j), f32(math.Exp(acc)); math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
					t.Fatalf("shard_columns compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
	prog, comp, _ = authored(t, "split_aiv.py", "lanes_by_index", 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(8, m, n), tensor.Zeros(ir.FP32, m, n)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < m*n; i++ {
			x := a[0].At(i/n, i%n)
			want := x
			for s := 0; s < 3; s++ {
				want = f32(want + x)
			}
			if got := a[1].At(i/n, i%n); got != want {
				t.Fatalf("lanes_by_index compiled %v: c[%d, %d] = %v, want %v", compiled, i/n, i%n, got, want)
			}
		}
	})
}

// A matmul's result cast to BF16 and multiplied again: InferTileMemorySpace
// takes the Acc tile back to Mat and on to Left, and the product is the
// one the rounded intermediate gives.
func TestAccIntoCube(t *testing.T) {
	prog, comp, text := authored(t, "mat_operands.py", "AccIntoCube", 1)
	st, ok := comp.Stage("InferTileMemorySpace")
	if !ok || !strings.Contains(st.Text, "cb_Mat: pl.Tile[[16, 16], pl.BF16, pl.Mem.Mat] = pl.tile.move(cb, target_memory=pl.Mem.Mat)") ||
		!strings.Contains(st.Text, "pl.tile.move(cb_Mat, target_memory=pl.Mem.Left)") {
		t.Fatalf("InferTileMemorySpace did not take the Acc operand through Mat to Left:\n%s", st.Text)
	}
	wantPTO(t, text, "outs(%cb_Mat : !pto.tile_buf<loc=mat")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 32).To(ir.BF16), tensor.Randn(2, 32, 16).To(ir.BF16), tensor.Randn(3, 16, 16).To(ir.BF16), tensor.Zeros(ir.FP32, 16, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		cb := make([]float64, 16*16)
		for i := 0; i < 16; i++ {
			for j := 0; j < 16; j++ {
				s := 0.0
				for k := 0; k < 32; k++ {
					s += a[0].At(i, k) * a[1].At(k, j)
				}
				cb[i*16+j] = tensor.FromFloat32([]float32{float32(s)}, 1).To(ir.BF16).At(0)
			}
		}
		for i := 0; i < 16; i++ {
			for j := 0; j < 16; j++ {
				s := 0.0
				for k := 0; k < 16; k++ {
					s += cb[i*16+k] * a[2].At(k, j)
				}
				if got, want := a[3].At(i, j), f32(s); got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// pl.system.syncall: the blocks of a launch meet at the barrier, so each
// reads the rows its neighbour published before it (zeros if the blocks
// ran one after another); a block that never arrives is a deadlock, named.
func TestSyncall(t *testing.T) {
	const blocks, rows, cols = 4, 8, 16
	for _, c := range []struct {
		name  string
		scale float64
		from  func(b int) int
		ws    bool
	}{
		{"SyncAllRotate", 2, func(b int) int { return (b + 1) % blocks }, false},
		{"SyncAllSoft", 3, func(b int) int { return (b + blocks - 1) % blocks }, true},
		{"SyncAllSubmit", 4, func(b int) int { return (b + 2) % blocks }, false},
	} {
		prog, comp, text := authored(t, "syncall.py", c.name, 1)
		if c.ws {
			wantPTO(t, text, "pto.syncall(%", "mode = #pto.sync_all_mode<soft>, core_type = #pto.sync_core_type<aiv_only>")
		} else {
			wantPTO(t, text, "pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<aiv_only>")
		}
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			args := []*tensor.Tensor{tensor.Randn(1, blocks*rows, cols), tensor.Zeros(ir.FP32, blocks*rows, cols)}
			if c.ws {
				args = append(args, tensor.Zeros(ir.INT32, 16))
			}
			return append(args, tensor.Zeros(ir.FP32, blocks*rows, cols))
		}, func(a []*tensor.Tensor, compiled bool) {
			out := a[len(a)-1]
			for i := 0; i < blocks*rows; i++ {
				src := c.from(i/rows)*rows + i%rows
				for j := 0; j < cols; j++ {
					if got, want := out.At(i, j), f32(a[0].At(src, j)*c.scale); got != want {
						t.Fatalf("%s compiled %v: out[%d, %d] = %v, want %v (block %d reads block %d's rows)", c.name, compiled, i, j, got, want, i/rows, c.from(i/rows))
					}
				}
			}
		})
	}
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "syncall.py"))
	if err != nil {
		t.Fatal(err)
	}
	// Block 0 skips the barrier and ends before the others arrive; block
	// 1 ends while block 0 waits.
	for skip, want := range map[int]string{0: "blocks [1 2 3] wait at system.syncall, which blocks [0] ended",
		1: "blocks [0] wait at system.syncall, which blocks [1] ended"} {
		prog, err := mod.Call("build_skipped", skip)
		if err != nil {
			t.Fatal(err)
		}
		comp, err := pl.TryCompile(prog, pl.Ranks(1))
		if err != nil {
			t.Fatal(err)
		}
		for _, compiled := range []bool{false, true} {
			x, out := tensor.Randn(1, blocks*rows, cols), tensor.Zeros(ir.FP32, blocks*rows, cols)
			if compiled {
				_, err = comp.Run(pl.Ranks(1), x, out)
			} else {
				_, err = pl.Run(prog, pl.Ranks(1), x, out)
			}
			if err == nil || !strings.Contains(err.Error(), "deadlock: "+want+" without reaching") {
				t.Fatalf("skip %d compiled %v: want the skipped barrier reported, got %v", skip, compiled, err)
			}
		}
	}
}

// Explicit cross-core events: the lanes' mode-2 event fires once both have
// raised it, and the cube's wait then finds the whole transfer written;
// with one lane raising it the wait is reported as the deadlock it would
// be on the device.
func TestCrossCoreSync(t *testing.T) {
	const rows, k, n, lane0 = 16, 16, 16, 6
	prog, comp, text := authored(t, "crosscore_sync.py", "lanes_then_cube", 1)
	wantPTO(t, text, "pto.set_ffts %", "pto.sync.set <PIPE_MTE3>, 4 {ffts_mode = 2 : i32}", "pto.sync.wait <PIPE_MTE2>, 4")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, rows, k), tensor.Randn(2, rows, k), tensor.Randn(3, k, n), tensor.Zeros(ir.FP32, rows, k),
			tensor.Zeros(ir.INT64, 256), tensor.Zeros(ir.FP32, rows, n)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < rows; i++ {
			for j := 0; j < n; j++ {
				s := 0.0
				for q := 0; q < k; q++ {
					s += f32(a[0].At(i, q)+a[1].At(i, q)) * a[2].At(q, j)
				}
				if got := a[5].At(i, j); got != f32(s) {
					t.Fatalf("compiled %v: output[%d, %d] = %v, want %v", compiled, i, j, got, f32(s))
				}
			}
		}
	})
	prog, comp, _ = authored(t, "crosscore_sync.py", "one_lane_raises", 1)
	for _, compiled := range []bool{false, true} {
		args := []*tensor.Tensor{tensor.Randn(1, rows, k), tensor.Zeros(ir.FP32, rows, k), tensor.Zeros(ir.INT64, 256), tensor.Zeros(ir.FP32, rows, k)}
		var err error
		if compiled {
			_, err = comp.Run(pl.Ranks(1), args...)
		} else {
			_, err = pl.Run(prog, pl.Ranks(1), args...)
		}
		if err == nil || !strings.Contains(err.Error(), "deadlock: system.sync_wait waits for event 4, but one lane raised it in mode 2, which fires once both have") {
			t.Fatalf("compiled %v: want the one-lane event reported, got %v", compiled, err)
		}
	}
}

// div, log and recip in PTOAS's high-precision mode: the kwarg reaches the
// tile op (from the tensor form too), is emitted as its precisionType after
// outs(...), as upstream's codegen writes it, and the simulator computes the
// same values as without it; high_precision=False is the call without it.
func TestHighPrecisionOps(t *testing.T) {
	positive := func(seed int64) *tensor.Tensor {
		vals := tensor.Randn(seed, 8, 16).Float32s()
		for i, v := range vals {
			vals[i] = float32(math.Abs(float64(v))) + 0.25
		}
		return tensor.FromFloat32(vals, 8, 16)
	}
	prog, comp, text := authored(t, "precision.py", "TilePrecision", 1)
	wantPTO(t, text, "{precisionType = #pto<div_precision high_precision>}", "{precisionType = #pto<log_precision high_precision>}",
		"{precisionType = #pto<recip_precision high_precision>}")
	if n := strings.Count(text, "precisionType"); n != 3 {
		t.Fatalf("%d precisionType attributes, want 3 (one per high_precision=True):\n%s", n, text)
	}
	if printed := prog.String(); strings.Count(printed, "high_precision=True") != 3 || strings.Contains(printed, "high_precision=False") {
		t.Fatalf("printed:\n%s", printed)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 8, 16), positive(2), tensor.Zeros(ir.FP32, 6, 8, 16)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 8; i++ {
			for j := 0; j < 16; j++ {
				v, u := a[0].At(i, j), a[1].At(i, j)
				want := []float64{f32(v / u), f32(v / u), f32(math.Log(u)), f32(math.Log(u)), f32(1 / u), f32(1 / u)}
				for k, w := range want {
					if got := a[2].At(k, i, j); got != w {
						t.Fatalf("compiled %v: out[%d, %d, %d] = %v, want %v", compiled, k, i, j, got, w)
					}
				}
			}
		}
	})
	_, _, text = authored(t, "precision.py", "TensorPrecision", 1)
	wantPTO(t, text, "{precisionType = #pto<div_precision high_precision>}", "{precisionType = #pto<log_precision high_precision>}")
	// A broadcasting pair has no high-precision tile form: an error, as
	// upstream's conversion gives, not a silently plain division.
	mod, err := pl.ParsePythonNamed("bcast.py", `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 16], pl.FP32], c: pl.Tensor[[8, 1], pl.FP32], q: pl.Out[pl.Tensor[[8, 16], pl.FP32]]):
        q = pl.assemble(q, pl.div(x, c, high_precision=True), [0, 0])
        return q
`)
	require.NoError(t, err)
	p, err := mod.Program("P")
	require.NoError(t, err)
	_, err = pl.TryCompile(p, pl.Ranks(1))
	require.ErrorContains(t, err, "bcast.py:7:28: tensor.div of [8, 16] and [8, 1]: tensor.div(high_precision=True) does not lower a broadcasting pair")
}

// A cube product's valid rectangle is its operands' valid M and N (the
// storage stays the tiles' M and N), as upstream deduces it, so a product
// of tiles loaded with a narrower valid shape stores into a tensor of just
// that size, and its values are the valid operands' product.
func TestMatmulValidShapes(t *testing.T) {
	prog, comp, text := authored(t, "matmul_valid.py", "ValidProducts", 1)
	wantPTO(t, text, "pto.tgemv", "pto.tmatmul", "v_row=10, v_col=30")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 1, 32), tensor.Randn(2, 10, 32), tensor.Randn(3, 32, 30),
			tensor.Zeros(ir.FP32, 1, 30), tensor.Zeros(ir.FP32, 10, 30)}
	}, func(a []*tensor.Tensor, compiled bool) {
		x, m, w, row, block := a[0], a[1], a[2], a[3], a[4]
		for j := 0; j < 30; j++ {
			if got, want := row.At(0, j), matmulAt(x.At, w.At, 32, 0, j); got != want {
				t.Fatalf("compiled %v: row[0, %d] = %v, want %v", compiled, j, got, want)
			}
			for i := 0; i < 10; i++ {
				if got, want := block.At(i, j), matmulAt(m.At, w.At, 32, i, j); got != want {
					t.Fatalf("compiled %v: block[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// pl.prefetch.*: the prefetch changes no value, so the kernel computes
// what it would without it, as written and compiled; its PTO is PTOAS's
// asynchronous prefetch with the SDMA workspace as a hidden argument.
// Waiting for an event in another context's session is reported.
func TestPrefetch(t *testing.T) {
	const rows, cols = 4, 512
	prog, comp, text := authored(t, "prefetch.py", "WarmThenScale", 1)
	wantPTO(t, text, "func.func @scale(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<f32>, %arg3: !pto.ptr<i8>)",
		"%ctx = pto.make_prefetch_async_context(%arg3 : !pto.ptr<i8>) -> !pto.prefetch_async_context",
		"= pto.tprefetch_async(%row_local_pview, %ctx : !pto.partition_tensor_view<1x512xf32>, !pto.prefetch_async_context) -> !pto.async_event",
		"%session = pto.get_prefetch_async_session %ctx : !pto.prefetch_async_context -> !pto.async_session",
		"%done = pto.comm.wait_async_event(%evt, %session : !pto.async_event, !pto.async_session) -> i1")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 1, cols), tensor.Randn(2, rows, cols), tensor.Zeros(ir.FP32, rows, cols)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				if got, want := a[2].At(i, j), f32(a[1].At(i, j)*a[0].At(0, j)); got != want {
					t.Fatalf("compiled %v: out[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
	// The handles survive ptorepl's JSON form, which the MPI device ships.
	data, err := ir.MarshalProgram(prog.IR())
	if err != nil {
		t.Fatal(err)
	}
	back, err := ir.UnmarshalProgram(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.AssertStructuralEqual(prog.IR(), back, true); err != nil {
		t.Fatalf("the program read back differs: %v", err)
	}
	prog, comp, _ = authored(t, "prefetch.py", "OtherSession", 1)
	for _, compiled := range []bool{false, true} {
		var err error
		a, out := tensor.Randn(1, cols), tensor.Zeros(ir.FP32, cols)
		if compiled {
			_, err = comp.Run(pl.Ranks(1), a, out)
		} else {
			_, err = pl.Run(prog, pl.Ranks(1), a, out)
		}
		if err == nil || !strings.Contains(err.Error(), "prefetch.wait (rank 0, copy): the event was started in another prefetch context than the session's") {
			t.Fatalf("compiled %v: want the mismatched session reported, got %v", compiled, err)
		}
	}
}

// A remote load whose fixed physical tile reaches past the window's
// ragged tail reads only its valid_shape (upstream's clamped window
// read): each rank gets its neighbour's 17 columns, as written and
// compiled, and the peer partition is 17 columns wide.
func TestRaggedTailRemoteLoad(t *testing.T) {
	const cols = 17
	for _, ranks := range []int{2, 3} {
		prog, comp, text := authored(t, "ragged_tail.py", "ragged_tail", ranks)
		wantPTO(t, text, "sizes = [%c1_index, %c17_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x17xf32>",
			"rows=1, cols=32, v_row=1, v_col=17")
		writtenAndCompiled(t, prog, comp, ranks, func() []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Randn(11, ranks, 1, cols), tensor.Zeros(ir.FP32, ranks, 1, cols)}
		}, func(a []*tensor.Tensor, compiled bool) {
			for r := 0; r < ranks; r++ {
				for j := 0; j < cols; j++ {
					if got, want := a[1].At(r, 0, j), a[0].At((r+1)%ranks, 0, j); got != want {
						t.Fatalf("P=%d compiled %v: y[%d, 0, %d] = %v, want %v", ranks, compiled, r, j, got, want)
					}
				}
			}
		})
	}
}

// Loads take the layout their shape implies, as upstream's tile.load
// deduces it: a column is col_major, a single row to Mat an ND row. The
// kernels compute the same either way, written and compiled.
func TestLoadLayouts(t *testing.T) {
	prog, comp, text := authored(t, "load_layouts.py", "ColumnScale", 1)
	wantPTO(t, text, "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=1, v_row=16, v_col=1, blayout=col_major, slayout=none_box")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(12, 16, 1), tensor.Zeros(ir.FP32, 16, 1)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			if got, want := a[1].At(i, 0), f32(a[0].At(i, 0)*3); got != want {
				t.Fatalf("compiled %v: y[%d] = %v, want %v", compiled, i, got, want)
			}
		}
	})
	prog, comp, text = authored(t, "load_layouts.py", "ColumnAccumulate", 1)
	// Every [16, 1] tile, created, reduced or summed, is col_major in PTO,
	// and none prints a view: the shape implies it.
	if n := strings.Count(text, "rows=16, cols=1, v_row=16, v_col=1, blayout=col_major, slayout=none_box"); n < 3 {
		t.Fatalf("%d [16, 1] tile_bufs are col_major, want every one of at least 3:\n%s", n, text)
	}
	if strings.Contains(text, "rows=16, cols=1, v_row=16, v_col=1, blayout=row_major") {
		t.Fatalf("a [16, 1] tile is row_major:\n%s", text)
	}
	for _, st := range comp.Stages() {
		if strings.Contains(st.Text, "pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec, pl.TileView") {
			t.Fatalf("a [16, 1] tile prints a view after %s:\n%s", st.Name, st.Text)
		}
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(15, 16, 64), tensor.Zeros(ir.FP32, 16, 1)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			s := float32(0)
			for j := 0; j < 64; j++ {
				s += float32(a[0].At(i, j))
			}
			if got := a[1].At(i, 0); math.Abs(got-float64(s)) > 1e-4 {
				t.Fatalf("compiled %v: y[%d] = %v, want %v", compiled, i, got, s)
			}
		}
	})
	prog, comp, text = authored(t, "load_layouts.py", "RowTimesMatrix", 1)
	wantPTO(t, text, "%ta = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=mat, dtype=f16, rows=1, cols=64, v_row=1, v_col=64, blayout=row_major, slayout=none_box")
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(13, 1, 64).To(ir.FP16), tensor.Randn(14, 64, 32).To(ir.FP16), tensor.Zeros(ir.FP32, 1, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for j := 0; j < 32; j++ {
			s := 0.0
			for k := 0; k < 64; k++ {
				s += a[0].At(0, k) * a[1].At(k, j)
			}
			if got, want := a[2].At(0, j), f32(s); got != want {
				t.Fatalf("compiled %v: y[%d] = %v, want %v", compiled, j, got, want)
			}
		}
	})
}

// pl.no_dep is a promise the checker holds a program to: kept (disjoint
// halves) the run is clean; broken, on a kernel call or a region's
// no_dep_args, the pair it leaves unordered is a no-dep-race. The values
// come out right either way (tasks run in order), written and compiled,
// and the printed forms carry the marks: the call's slot list and the
// region's no_dep_args, then the outlined call's slot.
func TestNoDep(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"DisjointHalves", "protocol check: clean"},
		{"BrokenPromise", "error [no-dep-race] plus_one reads scratch, which double writes, and a pl.no_dep slot takes the pair out of the runtime's tracking"},
		{"RegionPromise", "error [no-dep-race] consume reads scratch, which produce writes"},
	} {
		prog, comp, _ := authored(t, "no_dep.py", tc.name, 1)
		for _, compiled := range []bool{false, true} {
			x := tensor.Randn(4, 32, 32)
			out := tensor.Zeros(ir.FP32, 32, 32)
			args := []*tensor.Tensor{x, tensor.Zeros(ir.FP32, 32, 32), out}
			if tc.name == "DisjointHalves" {
				args = []*tensor.Tensor{x, out}
			}
			res := runEither(t, tc.name, prog, comp, compiled, args...)
			want := f32(f32(2*x.At(31, 31)) + 1)
			if tc.name == "DisjointHalves" {
				want = f32(3 * x.At(31, 31))
			}
			if got := out.At(31, 31); got != want {
				t.Fatalf("%s compiled %v: out[31, 31] = %v, want %v", tc.name, compiled, got, want)
			}
			if rep := res.Report().String(); !strings.Contains(rep, tc.want) {
				t.Errorf("%s (compiled %v): report\n%s\nwant %q", tc.name, compiled, rep, tc.want)
			}
		}
		text := printer.Program(prog.IR())
		final := printer.Program(comp.Final())
		switch tc.name {
		case "BrokenPromise":
			for _, s := range []string{text, final} {
				if !strings.Contains(s, `, out, attrs={"arg_direction_overrides": [0]})`) {
					t.Errorf("the no_dep slot does not print:\n%s", s)
				}
			}
		case "RegionPromise":
			if !strings.Contains(text, `with pl.at(level=pl.Level.CORE_GROUP, name_hint="consume", no_dep_args=[scratch]):`) {
				t.Errorf("no_dep_args does not print:\n%s", text)
			}
			if !strings.Contains(final, `"arg_direction_overrides": [`) {
				t.Errorf("the outlined call carries no no_dep slot:\n%s", final)
			}
		}
	}
}

// pl.dump_tag marks a tensor for the selective dump of every later kernel
// call that passes it (attrs={"dump_vars": [...]}) and every later pl.at
// region (dumps=[...], after the region's own), carried to the outlined
// call; an @pl.jit.inline helper whose parameters share the entry's names
// leaves the entry's variables alone. Written and compiled compute the
// same, and the dumps change nothing.
func TestDumpTags(t *testing.T) {
	prog, comp, _ := authored(t, "dump_tags.py", "add_then_double", 1)
	text := printer.Program(prog.IR())
	for _, want := range []string{"with pl.at(level=pl.Level.CORE_GROUP, dumps=[mid, a]):", "with pl.at(level=pl.Level.CORE_GROUP, dumps=[mid]):"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if final := printer.Program(comp.Final()); strings.Count(final, `attrs={"dump_vars": [`) != 2 {
		t.Errorf("the outlined calls do not both carry their dumps:\n%s", final)
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(16, 64, 64), tensor.Zeros(ir.FP32, 64, 64)}
	}, func(a []*tensor.Tensor, compiled bool) {
		if got, want := a[1].At(63, 63), f32(2*f32(a[0].At(63, 63)+1)); got != want {
			t.Fatalf("compiled %v: c[63, 63] = %v, want (a + 1) * 2 = %v", compiled, got, want)
		}
	})

	prog, comp, _ = authored(t, "dump_tags.py", "TaggedCalls", 1)
	text = printer.Program(prog.IR())
	for _, want := range []string{
		"= self.scale(x, y)\n", // before the tag
		`= self.scale(x, z, attrs={"dump_vars": [x]})`,
		`with pl.at(level=pl.Level.CORE_GROUP, name_hint="plus", dumps=[z, x]):`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(17, 64, 64), tensor.Zeros(ir.FP32, 64, 64), tensor.Zeros(ir.FP32, 64, 64)}
	}, func(a []*tensor.Tensor, compiled bool) {
		if got, want := a[2].At(5, 7), f32(f32(2*a[0].At(5, 7))+1); got != want {
			t.Fatalf("compiled %v: z[5, 7] = %v, want %v", compiled, got, want)
		}
	})
}

// TestUpstreamJitInlineNames reads upstream's @pl.jit entries made of
// @pl.jit.inline helpers, unmodified: the two (a + 1) * 2 entries whose
// helpers' parameters are named a and c, as the entries' own variables are
// (examples/utils/cross_function_calls.py, the dump_tag system test), and
// test_jit.py's entries that forward a slice of their input to a helper
// (c = src[0:128] + 1, c = src[128:] + 1). Each computes into its output
// c, as written and compiled.
func TestUpstreamJitInlineNames(t *testing.T) {
	examples := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if examples == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to read examples/utils and tests/st beside it")
	}
	st := filepath.Join(examples, "..", "..", "tests", "st", "runtime", "framework_and_models")
	addMul := func(x *tensor.Tensor, i, j int) float64 { return f32(2 * f32(x.At(i, j)+1)) }
	for _, c := range []struct {
		file, entry string
		rows        int // of the input; the output has 128
		want        func(x *tensor.Tensor, i, j int) float64
	}{
		{filepath.Join(examples, "..", "utils", "cross_function_calls.py"), "main_kernel", 128, addMul},
		{filepath.Join(st, "test_dump_tag.py"), "add_mul_with_dump_tags", 128, addMul},
		{filepath.Join(st, "test_jit.py"), "subscript_slice_addone", 256, func(x *tensor.Tensor, i, j int) float64 { return f32(x.At(i, j) + 1) }},
		{filepath.Join(st, "test_jit.py"), "open_slice_addone", 256, func(x *tensor.Tensor, i, j int) float64 { return f32(x.At(128+i, j) + 1) }},
	} {
		mod, err := pl.LoadPython(c.file)
		if err != nil {
			t.Fatal(err)
		}
		x := tensor.Randn(21, c.rows, 128)
		prog, err := mod.Specialize(c.entry, x, tensor.Zeros(ir.FP32, 128, 128))
		if err != nil {
			t.Fatal(err)
		}
		comp, err := pl.TryCompile(prog, pl.Ranks(1))
		if err != nil {
			t.Fatalf("%s: %v", c.entry, err)
		}
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{x, tensor.Zeros(ir.FP32, 128, 128)}
		}, func(a []*tensor.Tensor, compiled bool) {
			for _, ij := range [][2]int{{0, 0}, {100, 3}, {127, 127}} {
				if got, want := a[1].At(ij[0], ij[1]), c.want(x, ij[0], ij[1]); got != want {
					t.Fatalf("%s compiled %v: c%v = %v, want %v", c.entry, compiled, ij, got, want)
				}
			}
		})
	}
}

// TestNoDepChain: a launch reading a tensor through pl.no_dep is still
// ordered after its writer through a chain of tracked launches (64
// accumulations), so the run is clean; with the chain's own tensor no_dep
// too, both unordered pairs are named. The values are right either way.
func TestNoDepChain(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "no_dep.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		broken bool
		want   []string
	}{
		{false, []string{"protocol check: clean"}},
		{true, []string{"protocol check: 2 errors",
			"error [no-dep-race] finish reads a tensor the program created, which double writes",
			"error [no-dep-race] finish reads acc, which accumulate writes"}},
	} {
		prog, comp := calledCompiled(t, mod, 1, "build_chain", c.broken)
		for _, compiled := range []bool{false, true} {
			x, acc, out := tensor.Randn(3, 32, 32), tensor.Randn(4, 32, 32), tensor.Zeros(ir.FP32, 32, 32)
			acc0 := acc.At(7, 9)
			res := runEither(t, "Chain", prog, comp, compiled, x, acc, out)
			twice := f32(2 * x.At(7, 9))
			want := acc0
			for i := 0; i < 64; i++ {
				want = f32(want + twice)
			}
			if got := out.At(7, 9); got != f32(twice+want) {
				t.Fatalf("broken %v compiled %v: out[7, 9] = %v, want %v", c.broken, compiled, got, f32(twice+want))
			}
			rep := res.Report().String()
			for _, w := range c.want {
				if !strings.Contains(rep, w) {
					t.Errorf("broken %v compiled %v: report\n%s\nwant %q", c.broken, compiled, rep, w)
				}
			}
		}
	}
}

// A slice may reach past the end of its tensor, as upstream's paged
// attention's block-index slice does near the table's end: what lies
// inside reads as the table's, and a read past the end is an error that
// says so.
func TestSliceOverhang(t *testing.T) {
	prog, comp, _ := authored(t, "slice_overhang.py", "SliceOverhang", 1)
	table := func() *tensor.Tensor { return tensor.FromInt32([]int32{10, 11, 12, 13, 14, 15, 16, 17}, 8) }
	one := func(v int32) *tensor.Tensor { return tensor.FromInt32([]int32{v}, 1) }
	for _, c := range []struct {
		start, reach int32
		want         []float64
	}{
		{2, 4, []float64{12, 13, 14, 15}}, // inside
		{6, 2, []float64{16, 17, 0, 0}},   // overhangs, reads what exists
	} {
		writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
			return []*tensor.Tensor{table(), one(c.start), one(c.reach), tensor.Zeros(ir.INT32, 4)}
		}, func(a []*tensor.Tensor, compiled bool) {
			for i, w := range c.want {
				if got := a[3].At(i); got != w {
					t.Fatalf("start %d, compiled %v: out[%d] = %v, want %v", c.start, compiled, i, got, w)
				}
			}
		})
	}
	for _, compiled := range []bool{false, true} {
		_, err := runWay(prog, comp, compiled, pl.Ranks(1), table(), one(6), one(3), tensor.Zeros(ir.INT32, 4))
		if err == nil || !strings.Contains(err.Error(), "reaches past the end of the tensor this slice was cut from") {
			t.Fatalf("compiled %v: reading past the table's end gave %v", compiled, err)
		}
	}
}

// An INDEX tensor parameter takes an INT64 host tensor, as upstream's
// runtime passes torch's int64 there (torch has no index type); another
// integer type is still refused.
func TestIndexTensorFromInt64(t *testing.T) {
	mod, err := pl.ParsePython(`import pypto.language as pl


@pl.program
class IndexArg:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, vs: pl.Tensor[[2], pl.INDEX], out: pl.Out[pl.Tensor[[1], pl.INT64]]) -> pl.Tensor[[1], pl.INT64]:
        r: pl.Scalar[pl.INDEX] = pl.tensor.read(vs, [1])
        pl.tensor.write(out, [0], pl.cast(r, pl.INT64))
        return out
`)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program("IndexArg")
	if err != nil {
		t.Fatal(err)
	}
	out := tensor.Zeros(ir.INT64, 1)
	if _, err := pl.Run(prog, pl.Ranks(1), tensor.FromFloat64(ir.INT64, []float64{3, 5}, 2), out); err != nil {
		t.Fatal(err)
	}
	if got := out.At(0); got != 5 {
		t.Fatalf("out[0] = %v, want 5", got)
	}
	_, err = pl.Run(prog, pl.Ranks(1), tensor.FromInt32([]int32{3, 5}, 2), out)
	if err == nil || !strings.Contains(err.Error(), "host tensor vs: expected dtype pl.INDEX, given pl.INT32") {
		t.Fatalf("an INT32 tensor for an INDEX parameter gave %v", err)
	}
}

// A tile.slice of an Acc tile is a window of its memory: matmul_acc into
// column windows fills the tile, as written and compiled (upstream's
// test_matmul_acc_column_window pattern).
func TestAccWindow(t *testing.T) {
	prog, comp, _ := authored(t, "acc_window.py", "AccWindow", 1)
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(1, 16, 64), tensor.Randn(2, 64, 64), tensor.Zeros(ir.FP32, 16, 64)}
	}, func(a []*tensor.Tensor, compiled bool) {
		for i := 0; i < 16; i++ {
			for j := 0; j < 64; j++ {
				// Two K chunks of 32, each summed in float64 and rounded,
				// the second added to the first's rounded result.
				lo := matmulAt(a[0].At, a[1].At, 32, i, j)
				s := lo
				for q := 32; q < 64; q++ {
					s += a[0].At(i, q) * a[1].At(q, j)
				}
				if got, want := a[2].At(i, j), f32(s); got != want {
					t.Fatalf("compiled %v: c[%d, %d] = %v, want %v", compiled, i, j, got, want)
				}
			}
		}
	})
}

// A standalone split vector kernel written at full shape runs as upstream's
// SplitVectorKernel makes it: each lane pops, loads and stores its half at
// its place, with its own part of the valid extent, so the stored region
// is exactly the valid one, as written and compiled, in both split modes.
func TestSplitLanes(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "split_lanes.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, upDown := range []bool{true, false} {
		mode := map[bool]string{true: "UP_DOWN", false: "LEFT_RIGHT"}[upDown]
		for _, valid := range [][2]int{{16, 16}, {5, 16}, {16, 11}, {9, 3}} {
			prog, comp := calledCompiled(t, mod, 1, "build_split_lanes", upDown)
			writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.Randn(1, 16, 16).To(ir.BF16), tensor.Randn(2, 16, 16).To(ir.BF16), tensor.Randn(3, 16, 16),
					tensor.FromFloat64(ir.INT64, []float64{float64(valid[0]), float64(valid[1])}, 2), tensor.Full(ir.FP32, -7, 16, 16)}
			}, func(a []*tensor.Tensor, compiled bool) {
				for i := 0; i < 16; i++ {
					for j := 0; j < 16; j++ {
						want := -7.0 // outside the valid region nothing is stored
						if i < valid[0] && j < valid[1] {
							want = f32(matmulAt(a[0].At, a[1].At, 16, i, j) + a[2].At(i, j))
						}
						if got := a[4].At(i, j); got != want {
							t.Fatalf("%s valid %v, compiled %v: out[%d, %d] = %v, want %v", mode, valid, compiled, i, j, got, want)
						}
					}
				}
			})
		}
	}
	// A reduction along the split axis would fold only the lane's half:
	// refused, naming the op, as written and compiled.
	prog, comp := calledCompiled(t, mod, 1, "build_split_col_sum")
	for _, compiled := range []bool{false, true} {
		_, err := runWay(prog, comp, compiled, pl.Ranks(1), tensor.Randn(4, 16, 16).To(ir.BF16), tensor.Zeros(ir.FP32, 1, 16))
		if err == nil || !strings.Contains(err.Error(), "tile.col_sum reduces along the split axis (dim 0) of a split vector kernel") {
			t.Fatalf("compiled %v: a column sum in an UP_DOWN kernel gave %v", compiled, err)
		}
	}
}

// Trailing Out tensors may be left out of a run, as upstream's
// compiled(a, b) makes and returns them: the run makes them and Outputs
// lists them, as written and compiled. An In tensor left out is still an
// error.
func TestRunMakesTrailingOutputs(t *testing.T) {
	mod, err := pl.ParsePython(`import pypto.language as pl


@pl.program
class Made:
    @pl.function(type=pl.FunctionType.InCore)
    def add(self, a: pl.Tensor[[4, 8], pl.FP32], b: pl.Tensor[[4, 8], pl.FP32], f: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        f = pl.store(pl.add(pl.load(a, [0, 0], [4, 8]), pl.load(b, [0, 0], [4, 8])), [0, 0], f)
        return f

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[4, 8], pl.FP32], b: pl.Tensor[[4, 8], pl.FP32], f: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        f = self.add(a, b, f)
        return f
`)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program("Made")
	if err != nil {
		t.Fatal(err)
	}
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	if err != nil {
		t.Fatal(err)
	}
	a, b := tensor.Randn(1, 4, 8), tensor.Full(ir.FP32, 2, 4, 8)
	for _, compiled := range []bool{false, true} {
		res, err := runWay(prog, comp, compiled, pl.Ranks(1), a, b)
		if err != nil {
			t.Fatalf("compiled %v: %v", compiled, err)
		}
		outs := res.Outputs()
		if len(outs) != 1 {
			t.Fatalf("compiled %v: %d outputs, want the made f", compiled, len(outs))
		}
		if got, want := outs[0].At(3, 7), f32(a.At(3, 7)+2); got != want {
			t.Fatalf("compiled %v: f[3, 7] = %v, want %v", compiled, got, want)
		}
	}
	if _, err := pl.Run(prog, pl.Ranks(1), a); err == nil || !strings.Contains(err.Error(), "takes 3 host tensors (a, b, f), given 1") {
		t.Fatalf("leaving out an In tensor gave %v", err)
	}
}

// A tile.create an op accumulates into (directly, or through a loop that
// carries it) is created in Acc by InferTileMemorySpace; one that two loops
// carry, one accumulating into it in Acc and one adding to it in Vec, is
// placed once, and the pass ends. An accumulator computed in Vec (a
// pl.tile.full) cannot be placed: the pass says so at its line.
func TestCreatesPlacedWhereWritten(t *testing.T) {
	const head = `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 32], pl.FP32], b: pl.Tensor[[32, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        acc0 = pl.tile.create([16, 16], dtype=pl.FP32)
        a_l = pl.move(pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        b_r = pl.move(pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
`
	for _, c := range []struct{ name, body, err string }{
		{"direct", `        summed = pl.matmul_acc(acc0, a_l, b_r, init_cond=True)
        pl.store(summed, [0, 0], out)
`, ""},
		{"computed", `        zero = pl.tile.full([16, 16], 0.0, dtype=pl.FP32)
        summed = pl.matmul_acc(zero, a_l, b_r)
        pl.store(summed, [0, 0], out)
`, "creates.py:11:18: tile.matmul_acc: argument 'acc': expected an accumulator in Acc memory (a pl.tile.create, which InferTileMemorySpace places there, or a tile created with target_memory=pl.Mem.Acc), given pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]"},
		{"two loops", `        for k, (acc,) in pl.range(2, init_values=(acc0,)):
            acc_next = pl.matmul_acc(acc, a_l, b_r, init_cond=(k == 0))
            summed = pl.yield_(acc_next)
        for j, (v,) in pl.range(2, init_values=(acc0,)):
            v_next = pl.add(v, v)
            doubled = pl.yield_(v_next)
        pl.store(summed, [0, 0], out)
`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			mod, err := pyfront.Parse("creates.py", []byte(head+c.body))
			if err != nil {
				t.Fatal(err)
			}
			p, err := mod.Program("P")
			if err != nil {
				t.Fatal(err)
			}
			placed, err := passes.InferTileMemorySpace(p)
			if c.err != "" {
				if err == nil || !strings.HasSuffix(err.Error(), c.err) {
					t.Fatalf("got %v, want ...%s", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if text := printer.Program(placed); !strings.Contains(text, "acc0: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.create([16, 16], dtype=pl.FP32, target_memory=pl.Mem.Acc)") {
				t.Fatalf("want acc0 created in Acc:\n%s", text)
			}
		})
	}
}
