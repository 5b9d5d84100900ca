package interp_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/interp"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// misusePrelude defines the helpers the misuse cells share: a kernel with a
// [2, 1] INT32 signal window and a [4, 8] FP32 tensor, so each case is the
// one line that goes wrong.
const misusePrelude = `kernel := func(body func(f *pl.Func, sig, x pl.Expr)) {
	pl.NewProgram("M").InCore("k", func(f *pl.Func) {
		body(f, f.InOut("sig", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32)), f.In("x", pl.Tensor(pl.Dims(4, 8), pl.FP32)))
	})
}`

// misuseCases are DSL mistakes, each caught while the cell builds the
// program, on the line marked "// <-".
var misuseCases = []struct{ name, cell string }{
	// Signals.
	{"notify-fp32-signal", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	s := f.InOut("s", pld.DistributedTensor(pl.Dims(2, 1), pl.FP32))
	f.Do(pld.Notify(s, 1, pl.Dims(0, 0), 1, pld.AtomicAdd)) // <-
})`},
	{"wait-fp32-signal", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	s := f.InOut("s", pld.DistributedTensor(pl.Dims(2, 1), pl.FP32))
	f.Do(pld.Wait(s, pl.Dims(0, 0), 1, pld.Ge)) // <-
})`},
	{"comm-notify-fp32-signal", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	s := f.InOut("s", pl.Tensor(pl.Dims(1), pl.FP32))
	f.Do(pl.CommNotify(s, 1, "atomic_add")) // <-
})`},
	{"notify-float-value", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Do(pld.Notify(sig, 1, pl.Dims(0, 0), 2.5, pld.AtomicAdd)) // <-
})`},
	{"wait-float-expected", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Do(pld.Wait(sig, pl.Dims(0, 0), 2.5, pld.Ge)) // <-
})`},
	{"notify-fp32-scalar-value", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	v := f.Let("v", pl.Const(2.5, pl.FP32))
	f.Do(pld.Notify(sig, 1, pl.Dims(0, 0), v, pld.AtomicAdd)) // <-
})`},
	{"comm-wait-float-value", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	s := f.InOut("s", pl.Tensor(pl.Dims(1), pl.INT32))
	f.Do(pl.CommWait(s, 1.5, "ge")) // <-
})`},
	{"notify-cell-out-of-range", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Do(pld.Notify(sig, 1, pl.Dims(2, 0), 1, pld.AtomicAdd)) // <-
})`},
	{"wait-cell-out-of-range", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Do(pld.Wait(sig, pl.Dims(0, 1), 1, pld.Ge)) // <-
})`},
	{"notify-negative-cell", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Do(pld.Notify(sig, 1, pl.Dims(-1, 0), 1, pld.AtomicAdd)) // <-
})`},
	{"wait-offsets-rank", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Do(pld.Wait(sig, pl.Dims(0), 1, pld.Ge)) // <-
})`},
	{"notify-non-window-signal", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Do(pld.Notify(x, 1, pl.Dims(0, 0), 1, pld.AtomicAdd)) // <-
})`},
	{"allreduce-fp32-signal", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	d := f.InOut("d", pld.DistributedTensor(pl.Dims(2, 8), pl.FP32))
	s := f.InOut("s", pld.DistributedTensor(pl.Dims(2, 1), pl.FP32))
	f.Set(d, pld.AllReduce(d, s)) // <-
})`},
	{"barrier-fp32-signal", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	s := f.InOut("s", pld.DistributedTensor(pl.Dims(2, 1), pl.FP32))
	f.Set(s, pld.Barrier(s)) // <-
})`},
	// Constant offsets and shapes.
	{"remote-load-out-of-range", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	d := f.InOut("d", pld.DistributedTensor(pl.Dims(2, 8), pl.FP32))
	f.Let("t", pld.RemoteLoad(d, 1, pl.Dims(1, 0), pl.Dims(2, 8))) // <-
})`},
	{"remote-store-out-of-range", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	d := f.InOut("d", pld.DistributedTensor(pl.Dims(2, 8), pl.FP32))
	t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 8)))
	f.Do(pld.RemoteStore(t, d, 1, pl.Dims(2, 0))) // <-
})`},
	{"put-shape-mismatch", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	d := f.InOut("d", pld.DistributedTensor(pl.Dims(2, 8), pl.FP32))
	f.Do(pld.Put(d, 1, x)) // <-
})`},
	{"load-offset-out-of-range", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Let("t", pl.Load(x, pl.Dims(0, 4), pl.Dims(4, 8))) // <-
})`},
	{"load-shape-too-big", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(8, 8))) // <-
})`},
	{"load-negative-offset", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Let("t", pl.Load(x, pl.Dims(-1, 0), pl.Dims(1, 8))) // <-
})`},
	{"store-offset-out-of-range", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	t := f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(2, 8)))
	y := f.Out("y", pl.Tensor(pl.Dims(4, 8), pl.FP32))
	f.Let("y2", pl.Store(t, pl.Dims(3, 0), y)) // <-
})`},
	{"slice-out-of-range", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Let("s", pl.Slice(x, pl.Dims(2, 8), pl.Dims(3, 0))) // <-
})`},
	{"read-index-out-of-range", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Let("v", pl.Read(x, pl.Dims(4, 0))) // <-
})`},
	{"window-bigger-than-buffer", `pl.NewProgram("M").Host("host", func(f *pl.Func) {
	buf := f.Let("buf", pld.AllocWindowBuffer(64))
	f.Let("w", pld.Window(buf, pl.Dims(4, 8), pl.FP32)) // <-
})`},
	// Dims and ranges.
	{"negative-dim", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.In("z", pl.Tensor(pl.Dims(-1, 8), pl.FP32)) // <-
})`},
	{"negative-dist-dim", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.In("z", pld.DistributedTensor(pl.Dims(4, -8), pl.FP32)) // <-
})`},
	{"negative-range-stop", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.For("i", pl.Range(-3), func(i pl.Expr) {}) // <-
})`},
	{"negative-range-start", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.For("i", pl.Range(-1, 4), func(i pl.Expr) {}) // <-
})`},
	// Names.
	{"let-illegal-name", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Let("my-var", pl.Add(x, 1.0)) // <-
})`},
	{"let-keyword", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Let("lambda", pl.Add(x, 1.0)) // <-
})`},
	{"param-leading-digit", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.In("1x", pl.Tensor(pl.Dims(4, 8), pl.FP32)) // <-
})`},
	{"loop-var-keyword", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.For("in", pl.Range(4), func(i pl.Expr) {}) // <-
})`},
	{"function-keyword", `pl.NewProgram("M").InCore("def", func(f *pl.Func) {}) // <-`},
	{"program-illegal-name", `pl.NewProgram("my prog") // <-`},
	{"dynamic-illegal-name", `pl.Dynamic("N R") // <-`},
	// Free variables.
	{"free-variable-other-function", `p := pl.NewProgram("M")
var leaked pl.Expr
p.InCore("a", func(f *pl.Func) { leaked = f.In("x", pl.Tensor(pl.Dims(4, 8), pl.FP32)) })
p.InCore("b", func(f *pl.Func) {
	f.Let("y", pl.Add(leaked, 1.0)) // <-
})`},
	{"free-variable-loop-escape", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	var i0 pl.Expr
	f.For("i", pl.Range(4), func(i pl.Expr) { i0 = i })
	f.Let("j", pl.Add(i0, 1)) // <-
})`},
	{"free-variable-return", `p := pl.NewProgram("M")
var leaked pl.Expr
p.InCore("a", func(f *pl.Func) { leaked = f.In("x", pl.Tensor(pl.Dims(4, 8), pl.FP32)) })
p.InCore("b", func(f *pl.Func) {
	f.Return(leaked) // <-
})`},
	// Calls and returns.
	{"dispatch-shape-mismatch", `p := pl.NewProgram("M")
k := p.InCore("k", func(f *pl.Func) { f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32)) })
p.Host("host", func(f *pl.Func) {
	x := f.In("x", pl.Tensor(pl.Dims(1, 32), pl.FP32))
	f.Do(f.Dispatch(k, 0, x)) // <-
})`},
	{"dispatch-dtype-mismatch", `p := pl.NewProgram("M")
k := p.InCore("k", func(f *pl.Func) { f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32)) })
p.Host("host", func(f *pl.Func) {
	x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP16))
	f.Do(f.Dispatch(k, 0, x)) // <-
})`},
	{"dispatch-arg-count", `p := pl.NewProgram("M")
k := p.InCore("k", func(f *pl.Func) { f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32)) })
p.Host("host", func(f *pl.Func) {
	f.Do(f.Dispatch(k, 0)) // <-
})`},
	{"dispatch-out-to-input", `p := pl.NewProgram("M")
k := p.InCore("k", func(f *pl.Func) { f.Out("y", pl.Tensor(pl.Dims(1, 64), pl.FP32)) })
p.Host("host", func(f *pl.Func) {
	x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32))
	f.Do(f.Dispatch(k, 0, x)) // <-
})`},
	{"dispatch-window-to-plain", `p := pl.NewProgram("M")
k := p.InCore("k", func(f *pl.Func) { f.InOut("d", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32)) })
p.Host("host", func(f *pl.Func) {
	x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32))
	f.Do(f.Dispatch(k, 0, x)) // <-
})`},
	{"call-scalar-mismatch", `p := pl.NewProgram("M")
k := p.InCore("k", func(f *pl.Func) { f.Scalar("n", pl.INT32) })
p.Orchestration("o", func(f *pl.Func) {
	x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32))
	f.Do(f.Call(k, x)) // <-
})`},
	{"returns-dtype-mismatch", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Returns(pl.Tensor(pl.Dims(4, 8), pl.FP16))
	f.Return(x) // <-
})`},
	{"returns-shape-mismatch", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Returns(pl.Tensor(pl.Dims(8, 4), pl.FP32))
	f.Return(x) // <-
})`},
	{"returns-count-mismatch", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Returns(pl.Tensor(pl.Dims(4, 8), pl.FP32), pl.Scalar(pl.INT32))
	f.Return(x) // <-
})`},
	{"returns-after-return", `kernel(func(f *pl.Func, sig, x pl.Expr) {
	f.Return(x)
	f.Returns(pl.Scalar(pl.INT32)) // <-
})`},
	// Rank counts.
	{"ranks-zero", `pl.Ranks(0) // <-`},
	{"ranks-negative", `pl.Ranks(-2) // <-`},
	{"ranks-too-many", `pl.Ranks(100000) // <-`},
}

// Every misuse is an error at the marked line of its cell, with the message
// kept in testdata/misuse.golden (go test -run TestMisuseCorpus -update).
func TestMisuseCorpus(t *testing.T) {
	require.GreaterOrEqual(t, len(misuseCases), 30)
	s := newSession(t)
	_, err := s.Eval(context.Background(), misusePrelude)
	require.NoError(t, err)
	var got strings.Builder
	for _, c := range misuseCases {
		line := 0
		for i, l := range strings.Split(c.cell, "\n") {
			if strings.HasSuffix(l, "// <-") {
				line = i + 1
			}
		}
		require.NotZero(t, line, "%s marks its line", c.name)
		_, err := s.Eval(context.Background(), c.cell)
		var ce *interp.CellError
		if !errors.As(err, &ce) {
			t.Errorf("%s: no error (err=%v)", c.name, err)
			fmt.Fprintf(&got, "-- %s --\nNO ERROR\n", c.name)
			continue
		}
		msg := strings.TrimPrefix(ce.Error(), interp.CellName(ce.Cell)+":")
		if ce.Line != line {
			t.Errorf("%s: error at line %d, want %d: %s", c.name, ce.Line, line, ce.Error())
		}
		for _, goish := range []string{"[4 8]", "<nil>", "ir.", "goroutine"} {
			if strings.Contains(msg, goish) {
				t.Errorf("%s: message has Go spelling %q: %s", c.name, goish, msg)
			}
		}
		fmt.Fprintf(&got, "-- %s --\n%s\n", c.name, msg)
	}
	golden := filepath.Join("testdata", "misuse.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run with -update to create it")
	require.Equal(t, string(want), got.String())
}
