//go:build cgo

package pyfront_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/internal/mlirtool"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pto"
	"github.com/ptorepl/ptorepl/tensor"
)

// TestUpstreamPagedAttention reads upstream's models/04_paged_attention.py
// (beside the directory PTOREPL_PYPTO_EXAMPLES names) unmodified, builds
// its two factories' programs (module-level kernels called by name from the
// orchestration), compiles them to PTO, and runs them as written and
// compiled on a small paged KV cache: the two runs agree bit for bit, and
// the output is softmax(q k^T) v within upstream's own tolerance (2e-2),
// computed here in float64. The aligned program is given whole blocks; the
// unaligned one a context that ends inside a block.
func TestUpstreamPagedAttention(t *testing.T) {
	dir := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if dir == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to run models/04_paged_attention.py beside it")
	}
	mod, err := pl.LoadPython(filepath.Join(dir, "..", "models", "04_paged_attention.py"))
	if err != nil {
		t.Fatal(err)
	}
	const batch, heads, dim, bs, mb = 2, 16, 128, 128, 2
	for _, c := range []struct {
		factory string
		ctx     [batch]int
	}{
		{"build_paged_attention_program", [batch]int{128, 256}},
		{"build_paged_attention_unaligned_program", [batch]int{200, 256}},
	} {
		t.Run(c.factory, func(t *testing.T) {
			prog, comp := factoryCompiled(t, mod, c.factory, batch, heads, dim, bs, mb)
			q, k, v, table, lens := pagedInputs(heads, dim, bs, mb, c.ctx[:])
			config := tensor.Zeros(ir.INT64, 7)
			for i, x := range []float64{batch, heads, 1, dim, bs, mb, float64(math.Float32bits(1.0))} {
				config.Set(x, i)
			}
			written, compiled := tensor.Zeros(ir.FP32, batch*heads, dim), tensor.Zeros(ir.FP32, batch*heads, dim)
			if _, err := pl.Run(prog, pl.Ranks(1), q, k, v, table, lens, written, config); err != nil {
				t.Fatal(err)
			}
			if _, err := comp.Run(pl.Ranks(1), q, k, v, table, lens, compiled, config); err != nil {
				t.Fatal(err)
			}
			if !compiled.Equal(written) {
				t.Fatal("the compiled program's output differs from the program as written")
			}
			checkPagedAttention(t, q, k, v, table, c.ctx[:], heads, dim, bs, mb, written)
		})
	}
}

// factoryCompiled is the program factory builds from args, compiled at one
// rank with its PTO emitted.
func factoryCompiled(t *testing.T, mod *pl.Module, factory string, args ...any) (*pl.Program, *pl.Compiled) {
	t.Helper()
	prog, err := mod.Call(factory, args...)
	if err != nil {
		t.Fatal(err)
	}
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := comp.PTOText(); err != nil {
		t.Fatal(err)
	}
	return prog, comp
}

// pagedInputs are a small paged KV cache for len(ctx) batches: seeded BF16
// queries, keys and values, a block table listing the blocks in reverse
// order, and the context lengths ctx.
func pagedInputs(heads, dim, bs, mb int, ctx []int) (q, k, v, table, lens *tensor.Tensor) {
	batch := len(ctx)
	q = tensor.Randn(1, batch*heads, dim).To(ir.BF16)
	k = tensor.Randn(2, batch*mb*bs, dim).To(ir.BF16)
	v = tensor.Randn(3, batch*mb*bs, dim).To(ir.BF16)
	table, lens = tensor.Zeros(ir.INT32, batch*mb), tensor.Zeros(ir.INT32, batch)
	for i := 0; i < batch*mb; i++ {
		table.Set(float64(batch*mb-1-i), i)
	}
	for b, n := range ctx {
		lens.Set(float64(n), b)
	}
	return q, k, v, table, lens
}

// checkPagedAttention fails unless out holds softmax(q k^T) v of each
// batch's context (keys and values found through its block table) within
// upstream's own tolerance (2e-2), computed here in float64.
func checkPagedAttention(t *testing.T, q, k, v, table *tensor.Tensor, ctx []int, heads, dim, bs, mb int, out *tensor.Tensor) {
	t.Helper()
	keyRow := func(b, pos int) int { return int(table.At(b*mb+pos/bs))*bs + pos%bs }
	for b := range ctx {
		for h := 0; h < heads; h++ {
			row := b*heads + h
			p := make([]float64, ctx[b])
			mx := math.Inf(-1)
			for pos := range p {
				for d := 0; d < dim; d++ {
					p[pos] += q.At(row, d) * k.At(keyRow(b, pos), d)
				}
				mx = math.Max(mx, p[pos])
			}
			sum := 0.0
			for pos := range p {
				p[pos] = math.Exp(p[pos] - mx)
				sum += p[pos]
			}
			for d := 0; d < dim; d++ {
				want := 0.0
				for pos := range p {
					want += p[pos] / sum * v.At(keyRow(b, pos), d)
				}
				if got := out.At(row, d); math.Abs(got-want) > 2e-2+2e-2*math.Abs(want) {
					t.Fatalf("out[%d, %d] = %v, want %v", row, d, got, want)
				}
			}
		}
	}
}

// TestUpstreamPagedAttentionVariants reads upstream's other paged
// attention models from the same directory and runs each factory's program
// as written and compiled on a small paged KV cache: the runs agree bit for
// bit, the output is softmax(q k^T) v, and every stage of the pipeline
// reads back. 05 batches its kernels, 06 sizes every tensor with
// pl.dynamic dimensions bound from the tensors passed, 07 builds its
// kernels with kernel factories (two blocks per unroll group here), and 09
// dispatches each stage with pl.spmd(core_num=4), some inside pl.cluster()
// regions.
func TestUpstreamPagedAttentionVariants(t *testing.T) {
	dir := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if dir == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to run models/05, 06, 07 and 09 paged attention beside it")
	}
	const batch, heads, dim, bs, mb = 2, 16, 128, 128, 2
	ctx := []int{200, 256}
	for _, c := range []struct {
		file, factory string
		args          []any
		// extra are the inputs after q, k, v, table and lens, out among
		// them (its index in the returned slice).
		extra func(config *tensor.Tensor, out *tensor.Tensor) []*tensor.Tensor
	}{
		{"05_paged_attention_batch.py", "BuildBatchPagedAttentionProgram", []any{batch, heads, dim, bs, mb},
			func(config, out *tensor.Tensor) []*tensor.Tensor {
				return []*tensor.Tensor{out, config, tensor.Zeros(ir.INT64, 1), tensor.Zeros(ir.INT64, 1), tensor.Zeros(ir.INT64, 1)}
			}},
		{"06_paged_attention_dynamic.py", "build_dynamic_paged_attention_program", []any{16, dim, bs},
			func(config, out *tensor.Tensor) []*tensor.Tensor { return []*tensor.Tensor{out} }},
		{"07_paged_attention_multi_config.py", "build_paged_attention_multi_config_program", []any{16, dim, bs, 2},
			func(config, out *tensor.Tensor) []*tensor.Tensor { return []*tensor.Tensor{out} }},
		{"09_paged_attention_spmd.py", "build_paged_attention_spmd_program", []any{batch, heads, dim, bs, mb},
			func(config, out *tensor.Tensor) []*tensor.Tensor {
				return []*tensor.Tensor{tensor.Full(ir.FP32, 1, 1), out, config}
			}},
	} {
		t.Run(c.file, func(t *testing.T) {
			mod, err := pl.LoadPython(filepath.Join(dir, "..", "models", c.file))
			if err != nil {
				t.Fatal(err)
			}
			prog, comp := factoryCompiled(t, mod, c.factory, c.args...)
			q, k, v, table, lens := pagedInputs(heads, dim, bs, mb, ctx)
			config := tensor.Zeros(ir.INT64, 7)
			for i, x := range []float64{batch, heads, 1, dim, bs, mb, mb} {
				config.Set(x, i)
			}
			written, compiled := tensor.Zeros(ir.FP32, batch*heads, dim), tensor.Zeros(ir.FP32, batch*heads, dim)
			base := []*tensor.Tensor{q, k, v, table, lens}
			if _, err := pl.Run(prog, pl.Ranks(1), append(base, c.extra(config, written)...)...); err != nil {
				t.Fatal(err)
			}
			if _, err := comp.Run(pl.Ranks(1), append(base, c.extra(config, compiled)...)...); err != nil {
				t.Fatal(err)
			}
			if !compiled.Equal(written) {
				t.Fatal("the compiled program's output differs from the program as written")
			}
			checkPagedAttention(t, q, k, v, table, ctx, heads, dim, bs, mb, written)
			roundTripStages(t, c.factory, prog.IR())
		})
	}
}

// TestUpstreamQwen3Decode opens upstream's examples/models/qwen3_jit, a
// model split over a package (constants in config.py, @pl.jit.inline
// kernels in kernels/*.py, the entry importing them relatively), from its
// entry file as it is. The program holds each pl.at scope of the layer as
// an InCore kernel; every kernel compiles to PTO whose generic form MLIR
// verifies (the projections' split-K accumulators carried on chip through
// their K loops, the RMSNorm sums through theirs), and every stage of the
// pipeline reads back. The model's weights (a 8192 x 25600 BF16 matrix
// among them) make a simulated run of the whole layer far too long for a
// test; the package test TestSplitKPackage runs the same idioms.
func TestUpstreamQwen3Decode(t *testing.T) {
	dir := os.Getenv("PTOREPL_PYPTO_EXAMPLES")
	if dir == "" {
		t.Skip("PTOREPL_PYPTO_EXAMPLES is unset: set it to a PyPTO checkout's examples/distributed directory to open models/qwen3_jit beside it (testdata/authoring/splitk runs regardless)")
	}
	mod, err := pl.LoadPython(filepath.Join(dir, "..", "models", "qwen3_jit", "qwen3_decode.py"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program("qwen3_decode")
	if err != nil {
		t.Fatal(err)
	}
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	if err != nil {
		t.Fatal(err)
	}
	text, err := comp.PTOText()
	if err != nil {
		t.Fatal(err)
	}
	kernels := strings.Count(text, "func.func @")
	// q, k and v projections, out projection, gate, up and down
	// projections: seven split-K matmuls.
	if n := strings.Count(text, "pto.tmatmul.acc"); n != 7 || kernels != 11 {
		t.Fatalf("%d kernels (want 11), %d pto.tmatmul.acc (want 7)", kernels, n)
	}
	bin, ok := mlirtool.Opt()
	if !ok {
		t.Fatal(mlirtool.Missing)
	}
	mods, err := pto.Emit(comp.Final(), pto.Options{Generic: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mods {
		if err := mlirtool.Verify(bin, m.Text); err != nil {
			t.Fatalf("%s: %v", m.Function, err)
		}
	}
	roundTripStages(t, "qwen3_decode", prog.IR())
}
