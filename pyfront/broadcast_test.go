package pyfront_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
)

// TestRowBroadcast: tensor ops between an [M, N] tensor and an [M, 1]
// column (a row softmax written with pl.sub, pl.div and pl.mul, the column
// on either side of the mul) run as written, lower to the row-expand tile
// ops, and give the same bits both ways, within FP32 rounding of the
// softmax computed in float64.
func TestRowBroadcast(t *testing.T) {
	prog, comp, text := authored(t, "broadcast.py", "RowBroadcast", 1)
	wantPTO(t, text, "pto.trowexpandsub", "pto.trowexpanddiv", "pto.trowexpandmul")
	var written []float64
	writtenAndCompiled(t, prog, comp, 1, func() []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(5, 16, 32), tensor.Zeros(ir.FP32, 16, 32)}
	}, func(a []*tensor.Tensor, compiled bool) {
		got := a[1].Float64s()
		if compiled {
			for k := range got {
				if math.Float64bits(got[k]) != math.Float64bits(written[k]) {
					t.Fatalf("element %d: compiled %v, written %v", k, got[k], written[k])
				}
			}
			return
		}
		written = got
		for i := 0; i < 16; i++ {
			m := math.Inf(-1)
			for j := 0; j < 32; j++ {
				m = math.Max(m, a[0].At(i, j))
			}
			sum := 0.0
			for j := 0; j < 32; j++ {
				sum += math.Exp(a[0].At(i, j) - m)
			}
			for j := 0; j < 32; j++ {
				p := math.Exp(a[0].At(i, j)-m) / sum
				want := m*p + p
				if g := a[1].At(i, j); math.Abs(g-want) > 1e-5*(1+math.Abs(want)) {
					t.Fatalf("y[%d,%d] = %v, want %v", i, j, g, want)
				}
			}
		}
	})
}

// TestOuterBroadcast: broadcasts other than a column against its matrix
// ([4, 1] + [1, 8], a rank-3 maximum) run as written to NumPy's result,
// and compiling says which pair the lowering takes.
func TestOuterBroadcast(t *testing.T) {
	mod, err := pl.LoadPython(filepath.Join("testdata", "authoring", "broadcast.py"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program("OuterOps")
	if err != nil {
		t.Fatal(err)
	}
	col, row, cube := tensor.Randn(1, 4, 1), tensor.Randn(2, 1, 8), tensor.Randn(3, 2, 1, 8)
	sums, maxes := tensor.Zeros(ir.FP32, 4, 8), tensor.Zeros(ir.FP32, 2, 4, 8)
	if _, err := pl.Run(prog, pl.Ranks(1), col, row, cube, sums, maxes); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		for j := 0; j < 8; j++ {
			if got, want := sums.At(i, j), f32(col.At(i, 0)+row.At(0, j)); got != want {
				t.Fatalf("sums[%d,%d] = %v, want %v", i, j, got, want)
			}
			for b := 0; b < 2; b++ {
				if got, want := maxes.At(b, i, j), math.Max(cube.At(b, 0, j), f32(row.At(0, j)-col.At(i, 0))); got != want {
					t.Fatalf("maxes[%d,%d,%d] = %v, want %v", b, i, j, got, want)
				}
			}
		}
	}
	_, err = pl.TryCompile(prog, pl.Ranks(1))
	want := "broadcast.py:49:34: tensor.add of [4, 1] and [1, 8]: ptorepl lowers a broadcasting tensor.add only for an [M, N] and [M, 1] pair (tile.row_expand_add)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("compile: %v\nwant %s", err, want)
	}
}

// TestBroadcastErrors: shapes that do not broadcast are a type error at
// the call; a broadcast the tile ops cannot express is a compile error
// naming the op, the shapes and the position.
func TestBroadcastErrors(t *testing.T) {
	const head = `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 32], pl.FP32], c: pl.Tensor[[16, 1], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
`
	for _, c := range []struct {
		name, body, build, compile string
	}{
		{"no broadcast", "        y = pl.assemble(y, pl.add(a, pl.slice(a, [16, 8], [0, 0])), [0, 0])\n",
			"case.py:7:28: tensor.add: argument 'rhs': expected a tensor whose shape broadcasts against lhs's [16, 32], given pl.Tensor[[16, 8], pl.FP32]", ""},
		{"column minus matrix", "        y = pl.assemble(y, pl.sub(c, a), [0, 0])\n", "",
			"case.py:7:28: tensor.sub of [16, 1] and [16, 32]: the [M, 1] column is the lhs, and tile.row_expand_sub takes the column as its rhs only (the op does not commute); write the column as the rhs"},
		{"column over matrix", "        y = pl.assemble(y, pl.div(c, a), [0, 0])\n", "",
			"case.py:7:28: tensor.div of [16, 1] and [16, 32]: the [M, 1] column is the lhs, and tile.row_expand_div takes the column as its rhs only"},
		{"maximum has no row form", "        y = pl.assemble(y, pl.maximum(a, c), [0, 0])\n", "",
			"case.py:7:28: tensor.maximum of [16, 32] and [16, 1]: ptorepl lowers tensor.maximum only for operands of one shape (it has no row-expand tile form)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mod, err := pl.ParsePythonNamed("case.py", head+c.body+"        return y\n")
			if err != nil {
				t.Fatal(err)
			}
			prog, err := mod.Program("P")
			if c.build != "" {
				if err == nil || !strings.Contains(err.Error(), c.build) {
					t.Fatalf("build: %v\nwant %s", err, c.build)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_, err = pl.TryCompile(prog, pl.Ranks(1))
			if err == nil || !strings.Contains(err.Error(), c.compile) {
				t.Fatalf("compile: %v\nwant %s", err, c.compile)
			}
		})
	}
}
