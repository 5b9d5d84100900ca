package pl_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// line returns the caller's line, so expected positions follow edits.
func line() int { _, _, l, _ := runtime.Caller(1); return l }

// Type errors from DSL calls name the op, argument, expected and given types,
// and the line of the DSL call in the user's source.
func TestDSLErrorsPointAtCaller(t *testing.T) {
	var want int
	prog := pl.NewProgram("Bad")
	err := pl.Catch(func() {
		prog.InCore("k", func(f *pl.Func) {
			x := f.In("x", pl.Tensor(pl.Dims(4, 1), pl.INT32))
			want = line() + 1
			f.Do(pld.Notify(x, 1, pl.Dims(0, 0), 1, pld.AtomicAdd))
		})
	})
	require.Error(t, err)
	require.Equal(t, fmt.Sprintf("dsl_test.go:%d: pld.system.notify: argument 'target': expected a pld.DistributedTensor (window-bound), given pl.Tensor[[4, 1], pl.INT32]", want), err.Error())
	var te *ir.TypeError
	require.ErrorAs(t, err, &te)
	require.Equal(t, want, te.Pos.Line)
}

func TestDSLMisuse(t *testing.T) {
	cases := []struct {
		name string
		fn   func()
		want string
	}{
		{"alloc outside host", func() {
			pl.NewProgram("P").InCore("k", func(f *pl.Func) {
				f.Let("buf", pld.AllocWindowBuffer(64))
			})
		}, "pld.AllocWindowBuffer is only valid in a HOST orchestrator (prog.Host), not in InCore function k"},
		{"alloc not bound", func() {
			pl.NewProgram("P").Host("h", func(f *pl.Func) {
				f.Do(pld.Window(pld.AllocWindowBuffer(64), pl.Dims(16), pl.FP32))
			})
		}, "pld.Window argument 'buf': pld.AllocWindowBuffer must appear as the right-hand side of a simple assignment: bind it with f.Let(\"name\", ...) first"},
		{"alloc name reused", func() {
			pl.NewProgram("P").Host("h", func(f *pl.Func) {
				f.Let("buf", pld.AllocWindowBuffer(64))
				f.Let("buf", pld.AllocWindowBuffer(64))
			})
		}, `window buffer "buf" already declared`},
		{"world size in kernel", func() {
			pl.NewProgram("P").InCore("k", func(f *pl.Func) {
				f.Let("n", pld.WorldSize())
			})
		}, "pld.WorldSize is only valid in a HOST orchestrator"},
		{"let of effect", func() {
			pl.NewProgram("P").InCore("k", func(f *pl.Func) {
				s := f.In("s", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
				f.Let("w", pld.Wait(s, pl.Dims(0, 0), 1, pld.Ge))
			})
		}, "has no value (it only has effects); use f.Do"},
		{"if on int", func() {
			pl.NewProgram("P").InCore("k", func(f *pl.Func) {
				n := f.Scalar("n", pl.INT32)
				f.If(n, func() {})
			})
		}, "if condition must be a BOOL scalar"},
		{"call arity", func() {
			p := pl.NewProgram("P")
			k := p.InCore("k", func(f *pl.Func) { f.In("x", pl.Tensor(pl.Dims(4), pl.FP32)) })
			p.Orchestration("o", func(f *pl.Func) { f.Do(f.Call(k)) })
		}, "self.k: expected 1 arguments, given 0"},
		{"call kind", func() {
			p := pl.NewProgram("P")
			k := p.InCore("k", func(f *pl.Func) { f.In("x", pld.DistributedTensor(pl.Dims(4), pl.FP32)) })
			p.Orchestration("o", func(f *pl.Func) {
				x := f.In("x", pl.Tensor(pl.Dims(4), pl.FP32))
				f.Do(f.Call(k, x))
			})
		}, "self.k: argument 'x': expected pld.DistributedTensor[[4], pl.FP32], given pl.Tensor[[4], pl.FP32]"},
		{"duplicate function", func() {
			p := pl.NewProgram("P")
			p.InCore("k", func(f *pl.Func) {})
			p.InCore("k", func(f *pl.Func) {})
		}, `already defines a function named "k"`},
		{"scope name", func() {
			pl.NewProgram("P").Orchestration("o", func(f *pl.Func) {
				f.InCoreScope("2k", func() {})
			})
		}, `f.InCoreScope: argument 'nameHint': expected a Python identifier that is not a keyword (letters, digits, _), given "2k", which starts with a digit`},
		{"range arity", func() { pl.Range() }, "pl.Range takes 1 to 3 arguments"},
		{"bad option", func() {
			pl.NewProgram("P").InCore("k", func(f *pl.Func) {
				d := f.In("d", pld.DistributedTensor(pl.Dims(4), pl.FP32))
				s := f.In("s", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
				f.Set(d, pld.AllReduce(d, s, pld.Atomic(pld.Add)))
			})
		}, "pld.AllReduce does not take the atomic option"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := pl.Catch(tc.fn)
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
			require.Contains(t, err.Error(), "dsl_test.go:", "error should carry the caller's position")
		})
	}
}

// After a failed body the DSL is usable again (no builder leaks into the next cell).
func TestDSLRecoversAfterError(t *testing.T) {
	require.Error(t, pl.Catch(func() {
		pl.NewProgram("P").InCore("k", func(f *pl.Func) { pl.Range() })
	}))
	prog := pl.NewProgram("Ok")
	prog.InCore("k", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 8), pl.FP32))
		f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, 8)))
	})
	require.Len(t, prog.IR().Functions, 1)
}

// A core scope ending a function with no return leaks what it binds, but
// only what stays bound after it: not a loop's variable or its iter-args
// (which once came out as free variables of the caller).
func TestScopeAtEndLeaksVisibleOnly(t *testing.T) {
	prog := pl.NewProgram("Loop")
	prog.Orchestration("main", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(4, 16), pl.FP32))
		f.InCoreScope("k", func() {
			acc := f.Let("acc", pl.Load(x, pl.Dims(0, 0), pl.Dims(4, 16)))
			f.For("r", pl.Range(3), func(r pl.Expr) {
				f.Set(acc, pl.Add(acc, acc))
			})
			f.Set(out, pl.Store(acc, pl.Dims(0, 0), out))
		})
	})
	comp, err := pl.TryCompile(prog, pl.Ranks(1))
	if err != nil {
		t.Fatal(err)
	}
	st, _ := comp.Stage("OutlineIncoreScopes")
	if strings.Contains(st.Text, "FREE_VAR") || strings.Contains(st.Text, "pl.Scalar[pl.INDEX]] = self.k(") {
		t.Fatalf("the loop's variables leaked out of the scope:\n%s", st.Text)
	}
	x, y := tensor.Randn(1, 4, 16), tensor.Zeros(pl.FP32, 4, 16)
	if _, err := comp.Run(pl.Ranks(1), x, y); err != nil {
		t.Fatal(err)
	}
	if got, want := y.At(3, 15), 8*x.At(3, 15); got != want {
		t.Fatalf("y[3, 15] = %v, want %v", got, want)
	}
}
