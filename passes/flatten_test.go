package passes_test

import (
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// nestedQuickstart is the quickstart written with its calls nested, as an
// author might type it: the rank and rank count inside an if condition and
// a loop bound, the remote load as an argument of the add, the peer index
// as a call inside a binary operand in a one-statement loop body, and the
// store as the returned value.
func nestedQuickstart(size int) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("Nested")
	k := prog.InCore("kernel", func(f *pl.Func) {
		inp := f.In("inp", pl.Tensor(pl.Dims(1, size), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(1, size), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, size), pl.FP32))
		signal := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		f.Returns(pl.Tensor(pl.Dims(1, size), pl.FP32))
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		f.Set(data, pl.Store(pl.Load(inp, pl.Dims(0, 0), pl.Dims(1, size)), pl.Dims(0, 0), data))
		f.For("peer", pl.Range(pld.NRanks(ctx)), func(peer pl.Expr) {
			f.If(pl.Ne(peer, pld.Rank(ctx)), func() { f.Do(pld.Notify(signal, peer, pl.Dims(pld.Rank(ctx), 0), 1, pld.AtomicAdd)) })
		})
		f.For("src", pl.Range(pld.NRanks(ctx)), func(src pl.Expr) {
			f.If(pl.Ne(src, pld.Rank(ctx)), func() { f.Do(pld.Wait(signal, pl.Dims(src, 0), 1, pld.Ge)) })
		})
		acc := f.Let("acc", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, size)))
		f.For("step", pl.Range(1, pld.NRanks(ctx)), func(step pl.Expr) {
			peer := pl.Mod(pl.Add(pld.Rank(ctx), step), pld.NRanks(ctx))
			f.Set(acc, pl.Add(acc, pld.RemoteLoad(data, peer, pl.Dims(0, 0), pl.Dims(1, size))))
		})
		f.Return(pl.Store(acc, pl.Dims(0, 0), out))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		dataBuf := f.Let("data_buf", pld.AllocWindowBuffer(size*pl.FP32.Bytes()))
		sigBuf := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), pl.INT32.Bytes())))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			data := f.Let("data", pld.Window(dataBuf, pl.Dims(1, size), pl.FP32))
			signal := f.Let("signal", pld.Window(sigBuf, pl.Dims(pld.WorldSize(), 1), pl.INT32))
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r), data, signal))
		})
	})
	return prog
}

// FlattenCallExpr hoists each nested call into a t__tmp_vN temporary right
// before the statement that held it, as upstream's pass does
// (docs/en/dev/passes/06-flatten_call_expr.md): call arguments, operator
// operands, if conditions, for bounds and returned values; calls inside
// tuple literals (shapes) stay.
func TestFlattenCallExprHoists(t *testing.T) {
	ssa, err := passes.RunUntil(nestedQuickstart(64).IR(), "ConvertToSSA")
	require.NoError(t, err)
	require.False(t, passes.Holds(passes.CallsFlattened, ssa))
	flat, err := passes.FlattenCallExpr(ssa)
	require.NoError(t, err)
	require.True(t, passes.Holds(passes.CallsFlattened, flat))
	text := printer.Program(flat)
	for _, want := range []string{
		// A call argument, before its statement.
		"        t__tmp_v0: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(inp, [0, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)\n" +
			"        data__ssa_v0: pld.DistributedTensor[[1, 64], pl.FP32] = pl.tile.store(t__tmp_v0, [0, 0], data)\n",
		// A loop bound, before the loop; an operand of an if condition,
		// inside the loop body before the if (the body was the if alone:
		// upstream's issue #1708).
		"        t__tmp_v1: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)\n" +
			"        for peer in pl.range(t__tmp_v1):\n" +
			"            t__tmp_v2: pl.Scalar[pl.INT32] = pld.system.rank(ctx)\n" +
			"            if peer != t__tmp_v2:\n",
		// A call inside a tuple literal (the offsets) stays, as upstream's.
		"                pld.system.notify(signal, peer, [pld.system.rank(ctx), 0], pl.const(1, pl.INT32), op=0)\n",
		// Operands of operators inside a call argument, then the call
		// argument itself.
		"pld.tile.remote_load(data__ssa_v0, (t__tmp_v",
		"pl.tile.add(acc__iter_v1, t__tmp_v",
		// The returned store.
		"        return t__tmp_v",
		// The host: the window size's and the loop bound's world_size calls
		// are hoisted; the one inside the window's shape stays.
		"        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()\n" +
			"        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)\n",
		"pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)",
		"self.kernel(t__tmp_v",
	} {
		require.Contains(t, text, want)
	}
	// Nothing nested is left, and a second run changes nothing.
	again, err := passes.FlattenCallExpr(flat)
	require.NoError(t, err)
	require.Equal(t, text, printer.Program(again))
}

// With the calls flattened, every tile the kernel makes is bound to a
// variable, so memory planning gives the nested remote load its own
// buffer: the PTO allocates it at a planned address, and the compiled
// program sums like the program as written.
func TestFlattenedNestedTilesArePlanned(t *testing.T) {
	prog := nestedQuickstart(64)
	c, err := pl.TryCompile(prog, pl.Ranks(3))
	require.NoError(t, err)
	text, err := c.PTOText()
	require.NoError(t, err)
	loads := 0
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "pto.alloc_tile") {
			require.Contains(t, line, "addr = ", "every tile has a planned address: %s", line)
			loads++
		}
	}
	require.GreaterOrEqual(t, loads, 4)
	for _, n := range []int{2, 3, 4} {
		x := tensor.Randn(int64(n), n, 1, 64)
		want := tensor.Zeros(ir.FP32, n, 1, 64)
		_, err := pl.Run(prog, pl.Ranks(n), x, want)
		require.NoError(t, err)
		got := tensor.Zeros(ir.FP32, n, 1, 64)
		_, err = pl.Compile(prog, pl.Ranks(n)).Run(pl.Ranks(n), x, got)
		require.NoError(t, err)
		require.Equal(t, want.Bytes(), got.Bytes(), "P=%d", n)
		for j := 0; j < 64; j++ {
			sum := 0.0
			for r := 0; r < n; r++ {
				sum += x.At(r, 0, j)
			}
			require.InDelta(t, sum, got.At(0, 0, j), 1e-4)
		}
	}
}

// Temporaries never take a name the function already uses, so flattening a
// function that holds t__tmp_vN names (its own, or a printed stage read
// back) keeps one variable per name.
func TestFlattenCallExprAvoidsTakenNames(t *testing.T) {
	prog := pl.NewProgram("Taken")
	prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 16), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 16), pl.FP32))
		t3 := f.Let("t__tmp_v3", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 16)))
		f.Set(y, pl.Store(pl.Add(t3, pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 16))), pl.Dims(0, 0), y))
	})
	ssa, err := passes.RunUntil(prog.IR(), "ConvertToSSA")
	require.NoError(t, err)
	flat, err := passes.FlattenCallExpr(ssa)
	require.NoError(t, err)
	text := printer.Program(flat)
	require.Contains(t, text, "t__tmp_v4: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x,")
	require.Contains(t, text, "t__tmp_v5: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(t__tmp_v3, t__tmp_v4)")
	require.True(t, passes.Holds(passes.SSAForm, flat), "no name is bound twice")
}
