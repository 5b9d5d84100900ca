package runtime_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

const S = 16

// collProgram wraps one kernel body over x [1|NR, S] → y with a data window
// [NR, S] (so allgather/all_to_all/reduce_scatter fit) and a [NR, 1] signal.
func collProgram(name string, xRows int, body func(f *pl.Func, x, data, sig pl.Expr)) *pl.Program {
	return collProgramN(name, xRows, 0, body)
}

// collProgramN is collProgram with a static rank count (all_to_all and
// reduce_scatter need input and target shapes that match exactly).
func collProgramN(name string, xRows, staticN int, body func(f *pl.Func, x, data, sig pl.Expr)) *pl.Program {
	return testprogs.Collective(name, xRows, staticN, body)
}

// stage stores rank-local x rows into the top of the data window.
func stage(f *pl.Func, x, data pl.Expr, rows int) { testprogs.StageRows(f, x, data, rows) }

// Each composite collective at P = 2, 3, 4, 8 against a host-computed
// golden, and every signal cell back at zero afterwards (self-clearing).
func TestCollectives(t *testing.T) {
	type reducer struct {
		op ir.ReduceOp
		fn func(a, b float32) float32
	}
	reds := map[string]reducer{
		"sum":  {pld.Sum, func(a, b float32) float32 { return a + b }},
		"max":  {pld.Max, func(a, b float32) float32 { return max(a, b) }},
		"min":  {pld.Min, func(a, b float32) float32 { return min(a, b) }},
		"prod": {pld.Prod, func(a, b float32) float32 { return a * b }},
	}
	type cse struct {
		name  string
		rows  int
		prog  *pl.Program
		check func(x, y *tensor.Tensor, n, r, row, j int) (want float64, skip bool)
	}
	var cases []cse
	for name, rd := range reds {
		rd := rd
		cases = append(cases, cse{"allreduce/" + name, 1, collProgram("AR", 1, func(f *pl.Func, x, data, sig pl.Expr) {
			stage(f, x, data, 1)
			f.Set(data, pld.AllReduce(data, sig, pld.Op(rd.op)))
		}), func(x, y *tensor.Tensor, n, r, row, j int) (float64, bool) {
			if row != 0 {
				return 0, true
			}
			acc := float32(x.At(r, 0, j)) // each rank reduces from its own value first
			for s := 0; s < n; s++ {
				if s != r {
					acc = rd.fn(acc, float32(x.At(s, 0, j)))
				}
			}
			return float64(acc), false
		}})
	}
	cases = append(cases,
		cse{"broadcast", 1, collProgram("BC", 1, func(f *pl.Func, x, data, sig pl.Expr) {
			stage(f, x, data, 1)
			f.Set(data, pld.Broadcast(data, sig, 1))
		}), func(x, y *tensor.Tensor, n, r, row, j int) (float64, bool) {
			if row != 0 {
				return 0, true
			}
			return x.At(1, 0, j), false
		}},
		cse{"allgather", 1, collProgram("AG", 1, func(f *pl.Func, x, data, sig pl.Expr) {
			f.Set(data, pld.AllGather(x, data, sig))
		}), func(x, y *tensor.Tensor, n, r, row, j int) (float64, bool) {
			return x.At(row, 0, j), false
		}},
		cse{"all_to_all", 0, nil, func(x, y *tensor.Tensor, n, r, row, j int) (float64, bool) {
			return x.At(row, r, j), false // t[src,:] ← in_src[me,:]
		}},
		cse{"reduce_scatter", 0, nil, func(x, y *tensor.Tensor, n, r, row, j int) (float64, bool) {
			if row != r {
				return 0, true // other rows unspecified
			}
			var acc float32
			acc = float32(x.At(r, r, j))
			for s := 0; s < n; s++ {
				if s != r {
					acc += float32(x.At(s, r, j))
				}
			}
			return float64(acc), false
		}},
	)
	for _, n := range []int{2, 3, 4, 8} {
		for _, c := range cases {
			rows, prog := c.rows, c.prog
			switch c.name {
			case "all_to_all":
				rows = n
				prog = collProgramN("A2A", n, n, func(f *pl.Func, x, data, sig pl.Expr) {
					f.Set(data, pld.AllToAll(x, data, sig))
				})
			case "reduce_scatter":
				rows = n
				prog = collProgramN("RS", n, n, func(f *pl.Func, x, data, sig pl.Expr) {
					stage(f, x, data, n)
					f.Set(data, pld.ReduceScatter(data, sig))
				})
			}
			t.Run(fmt.Sprintf("%s/P=%d", c.name, n), func(t *testing.T) {
				x := tensor.Randn(int64(n*7+rows), n, rows, S)
				y := tensor.Zeros(ir.FP32, n, n, S)
				res := mustRun(t, prog, n, x, y)
				checked := 0
				for r := 0; r < n; r++ {
					for row := 0; row < n; row++ {
						for j := 0; j < S; j++ {
							want, skip := c.check(x, y, n, r, row, j)
							if skip {
								continue
							}
							checked++
							require.InDelta(t, want, y.At(r, row, j), 1e-5*math.Max(1, math.Abs(want)), "rank %d row %d col %d", r, row, j)
						}
					}
				}
				require.NotZero(t, checked)
				for _, cell := range res.Signals {
					require.Zero(t, cell.Value, "signal cell left non-zero: %+v", cell)
					require.False(t, cell.SetBy["Set"], "collectives only use AtomicAdd")
				}
			})
		}
	}
}

// A second allreduce on the same signal works (main's credits self-clear),
// and a whole collective sequence can share one signal.
func TestCollectiveSignalReuse(t *testing.T) {
	for _, n := range []int{2, 3, 4, 8} {
		prog := collProgram("Twice", 1, func(f *pl.Func, x, data, sig pl.Expr) {
			stage(f, x, data, 1)
			f.Set(data, pld.AllReduce(data, sig))
			f.Set(sig, pld.Barrier(sig))
			f.Set(data, pld.AllReduce(data, sig))
		})
		x := tensor.Full(ir.FP32, 1, n, 1, S)
		y := tensor.Zeros(ir.FP32, n, n, S)
		mustRun(t, prog, n, x, y)
		for r := 0; r < n; r++ {
			require.Equal(t, float64(n*n), y.At(r, 0, 3), "P=%d: x·P² needs the first call's credits cleared", n)
		}
	}
}

// Seed #1746's InCore recipe written by hand: Set-1 ready barrier, reduce
// by remote loads, the post-reduce AtomicAdd barrier (Ge 2), then the store.
func seed1746(n int) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("Seed1746")
	k := prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, S), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, S), pl.FP32))
		target := f.InOut("target", pld.DistributedTensor(pl.Dims(1, S), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(target))
		nr := f.Let("nranks", pld.NRanks(ctx))
		me := f.Let("my_rank", pld.Rank(ctx))
		stage(f, x, target, 1)
		f.For("peer", pl.Range(nr), func(p pl.Expr) {
			f.If(pl.Ne(p, me), func() { f.Do(pld.Notify(sig, p, pl.Dims(me, 0), 1, pld.Set)) })
		})
		f.For("src", pl.Range(nr), func(s pl.Expr) {
			f.If(pl.Ne(s, me), func() { f.Do(pld.Wait(sig, pl.Dims(s, 0), 1, pld.Ge)) })
		})
		acc := f.Let("acc", pl.Load(target, pl.Dims(0, 0), pl.Dims(1, S)))
		f.For("peer", pl.Range(nr), func(p pl.Expr) {
			f.If(pl.Ne(p, me), func() {
				f.Set(acc, pl.Add(acc, f.Let("recv", pld.RemoteLoad(target, p, pl.Dims(0, 0), pl.Dims(1, S)))))
			})
		})
		f.For("peer", pl.Range(nr), func(p pl.Expr) {
			f.If(pl.Ne(p, me), func() { f.Do(pld.Notify(sig, p, pl.Dims(me, 0), 1, pld.AtomicAdd)) })
		})
		f.For("src", pl.Range(nr), func(s pl.Expr) {
			f.If(pl.Ne(s, me), func() { f.Do(pld.Wait(sig, pl.Dims(s, 0), 2, pld.Ge)) })
		})
		f.Set(target, pl.Store(acc, pl.Dims(0, 0), target))
		f.Set(y, pl.Store(f.Let("out", pl.Load(target, pl.Dims(0, 0), pl.Dims(1, S))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, S), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, S), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(S*4))
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r), f.Let("target", pld.Window(db, pl.Dims(1, S), pl.FP32)),
				f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	return prog
}

func TestSeed1746AllReduce(t *testing.T) {
	for _, n := range []int{2, 4} {
		for seed := int64(0); seed < 4; seed++ { // also under perturbed schedules
			x := tensor.Arange(ir.FP32, n*S).Reshape(n, 1, S)
			y := tensor.Zeros(ir.FP32, n, 1, S)
			res, err := runtime.NewSimulator().Run(context.Background(), seed1746(n).IR(), []*tensor.Tensor{x, y}, runtime.RunOptions{Ranks: n, Seed: seed})
			require.NoError(t, err)
			for r := 0; r < n; r++ {
				for j := 0; j < S; j++ {
					want := 0.0
					for s := 0; s < n; s++ {
						want += float64(s*S + j)
					}
					require.Equal(t, want, y.At(r, 0, j), "P=%d seed=%d rank %d", n, seed, r)
				}
			}
			// The single-shot contract: every cell ends at 2, Set mixed with AtomicAdd.
			for _, c := range res.Signals {
				require.Equal(t, int64(2), c.Value)
				require.True(t, c.SetBy["Set"] && c.SetBy["AtomicAdd"])
			}
		}
	}
}

// --- deadlocks: returned promptly, naming every blocked rank.

func deadlockProgram(kind string) *pl.Program {
	prog := pl.NewProgram("Deadlock_" + strings.ReplaceAll(kind, "-", "_"))
	NR := pl.Dynamic("NR")
	k := prog.InCore("kernel", func(f *pl.Func) {
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(sig))
		me := f.Let("me", pld.Rank(ctx))
		n := f.Let("n", pld.NRanks(ctx))
		next := f.Let("next", pl.Mod(pl.Add(me, 1), n))
		switch kind {
		case "never-notified":
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		case "notify-zero":
			f.Do(pld.Notify(sig, next, pl.Dims(0, 0), 0, pld.AtomicAdd))
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		case "barrier-rank0-only":
			f.If(pl.Eq(me, 0), func() { f.Set(sig, pld.Barrier(sig)) })
		case "wrong-cell":
			f.Do(pld.Notify(sig, next, pl.Dims(me, 0), 1, pld.AtomicAdd))
			f.Do(pld.Wait(sig, pl.Dims(me, 0), 1, pld.Ge)) // should wait on [prev, 0]
		}
	})
	prog.Host("host", func(f *pl.Func) {
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	return prog
}

func TestDeadlocks(t *testing.T) {
	cases := []struct {
		kind    string
		blocked []int
		want    []string
	}{
		{"never-notified", []int{0, 1, 2}, []string{"pld.system.wait at comm_test.go:", "signal_buf[0, 0] = 0, for >= 1", "nobody ever wrote this cell"}},
		{"notify-zero", []int{0, 1, 2}, []string{"signal_buf[0, 0] = 0, for >= 1", "AtomicAdd 0 → 0"}},
		{"barrier-rank0-only", []int{0}, []string{"pld.tensor.barrier", "signal_buf[1, 0] = 0, for >= 1"}},
		{"wrong-cell", []int{0, 1, 2}, []string{"rank 1: pld.system.wait", "signal_buf[1, 0] = 0, for >= 1"}},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			start := time.Now()
			_, err := run(t, deadlockProgram(c.kind), 3)
			require.Less(t, time.Since(start), 2*time.Second)
			require.Error(t, err)
			var dl *runtime.DeadlockError
			require.ErrorAs(t, err, &dl)
			msg := err.Error()
			require.True(t, strings.HasPrefix(msg, "deadlock"), msg)
			var got []int
			for _, b := range dl.Blocked {
				got = append(got, b.Rank)
				require.Contains(t, msg, fmt.Sprintf("rank %d: ", b.Rank))
			}
			require.Equal(t, c.blocked, got, msg)
			for _, w := range c.want {
				require.Contains(t, msg, w)
			}
		})
	}
	// Pitfall 1: an Eq-1 barrier that a fast peer overtakes. Two Eq barriers
	// back to back; whichever schedule happens, the run either completes or
	// reports a deadlock whose cell has passed the expectation — never hangs.
	prog := pl.NewProgram("EqBarrier")
	NR := pl.Dynamic("NR")
	k := prog.InCore("kernel", func(f *pl.Func) {
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		me := f.Let("me", pld.Rank(f.Let("ctx", pld.GetCommCtx(sig))))
		n := f.Let("n", pld.NRanks(f.Let("ctx2", pld.GetCommCtx(sig))))
		for g := 1; g <= 2; g++ {
			f.For("p", pl.Range(n), func(p pl.Expr) {
				f.If(pl.Ne(p, me), func() { f.Do(pld.Notify(sig, p, pl.Dims(me, 0), 1, pld.AtomicAdd)) })
			})
			f.For("s", pl.Range(n), func(s pl.Expr) {
				f.If(pl.Ne(s, me), func() { f.Do(pld.Wait(sig, pl.Dims(s, 0), g, pld.Eq)) })
			})
		}
	})
	prog.Host("host", func(f *pl.Func) {
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	found := false
	for seed := int64(1); seed <= 64 && !found; seed++ {
		_, err := runtime.NewSimulator().Run(context.Background(), prog.IR(), nil, runtime.RunOptions{Ranks: 4, Seed: seed, Watchdog: 5 * time.Second})
		if err != nil {
			require.Contains(t, err.Error(), "= 2, for == 1")
			found = true
		}
	}
	t.Logf("Eq-1 overtaken found by exploration: %v", found)
}

// The watchdog and the caller's context stop a run that cannot finish by
// itself; the error lists the ranks still blocked.
func TestCancellationAndWatchdog(t *testing.T) {
	// A wait that a still-live rank could satisfy is not a deadlock: rank 0
	// waits while rank 1 spins in a long loop.
	prog := pl.NewProgram("Spin")
	NR := pl.Dynamic("NR")
	k := prog.InCore("kernel", func(f *pl.Func) {
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		me := f.Let("me", pld.Rank(f.Let("ctx", pld.GetCommCtx(sig))))
		f.IfElse(pl.Eq(me, 0), func() {
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
		}, func() {
			f.For("i", pl.Range(1<<40), func(i pl.Expr) {
				f.Set(sig, pl.Write(sig, pl.Dims(1, 0), 0))
			})
		})
	})
	prog.Host("host", func(f *pl.Func) {
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	start := time.Now()
	_, err := runtime.NewSimulator().Run(context.Background(), prog.IR(), nil, runtime.RunOptions{Ranks: 2, Watchdog: 200 * time.Millisecond})
	require.Error(t, err)
	require.Less(t, time.Since(start), 2*time.Second)
	require.Contains(t, err.Error(), "watchdog")
	require.Contains(t, err.Error(), "rank 0: pld.system.wait")
	require.ErrorIs(t, err, context.DeadlineExceeded)

	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	start = time.Now()
	_, err = runtime.NewSimulator().Run(ctx, prog.IR(), nil, runtime.RunOptions{Ranks: 2})
	require.Error(t, err)
	require.Less(t, time.Since(start), 2*time.Second)
	require.Contains(t, err.Error(), "cancelled")
	require.ErrorIs(t, err, context.Canceled)
}

// --- seed #1301 loopback tests: one rank, comm_notify/comm_wait on slots of
// a plain INT32 GM tensor (the ST tests' signal), initialised slot i = i.

func loopback(body func(f *pl.Func, slot func(i int) pl.Expr)) *pl.Program {
	return loopbackWin(func(f *pl.Func, _ pl.Expr, slot func(i int) pl.Expr) { body(f, slot) })
}

func loopbackWin(body func(f *pl.Func, sig pl.Expr, slot func(i int) pl.Expr)) *pl.Program {
	return testprogs.Loopback1301(body)
}

func TestSeed1301Loopback(t *testing.T) {
	cases := []struct {
		name string
		slot int
		want int32
		body func(f *pl.Func, slot func(int) pl.Expr)
	}{
		{"count exchange: atomic_add 5 on slot 3", 3, 8, func(f *pl.Func, slot func(int) pl.Expr) {
			f.Do(pl.CommNotify(slot(3), 5, "atomic_add"))
		}},
		{"wait only: ge 1 on slot 7 returns at once", 7, 7, func(f *pl.Func, slot func(int) pl.Expr) {
			f.Do(pl.CommWait(slot(7), 1, "ge"))
		}},
		{"done barrier: +1 then ge 1 on slot 0", 0, 1, func(f *pl.Func, slot func(int) pl.Expr) {
			s := slot(0)
			f.Do(pl.CommNotify(s, 1, "atomic_add"))
			f.Do(pl.CommWait(s, 1, "ge"))
		}},
		{"set overwrites", 5, 42, func(f *pl.Func, slot func(int) pl.Expr) {
			f.Do(pl.CommNotify(slot(5), 42, "set"))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sig := tensor.FromInt32([]int32{0, 1, 2, 3, 4, 5, 6, 7}, 1, 1, 8)
			mustRun(t, loopback(c.body), 1, sig)
			want := []int32{0, 1, 2, 3, 4, 5, 6, 7}
			want[c.slot] = c.want
			require.Equal(t, want, sig.Int32s())
		})
	}
	// comm_test evaluates all six comparisons without blocking; slot 4 holds 4.
	cmps := []struct {
		cmp  string
		v    int
		want bool
	}{{"eq", 4, true}, {"ne", 4, false}, {"gt", 3, true}, {"ge", 5, false}, {"lt", 5, true}, {"le", 3, false}}
	prog := loopbackWin(func(f *pl.Func, win pl.Expr, slot func(int) pl.Expr) {
		s := slot(4)
		var bs []pl.Expr
		for i, c := range cmps {
			bs = append(bs, f.Let(fmt.Sprintf("b%d", i), pl.CommTest(s, c.v, c.cmp)))
		}
		f.Do(pl.CommWait(s, 9, "lt")) // 4 < 9: returns at once
		for i, b := range bs {
			f.Set(win, pl.Write(win, pl.Dims(0, i), pl.Cast(b, pl.INT32)))
		}
	})
	sig := tensor.FromInt32([]int32{0, 1, 2, 3, 4, 5, 6, 7}, 1, 1, 8)
	mustRun(t, prog, 1, sig)
	got := sig.Int32s()
	for i, c := range cmps {
		want := int32(0)
		if c.want {
			want = 1
		}
		require.Equal(t, want, got[i], "comm_test %s %d on 4", c.cmp, c.v)
	}
}

// FP16 arithmetic rounds like FP16: ties go to even, small addends vanish.
func TestFP16Arithmetic(t *testing.T) {
	prog := pl.NewProgram("FP16")
	k := prog.InCore("kernel", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(1, 4), pl.FP16))
		b := f.In("b", pl.Tensor(pl.Dims(1, 4), pl.FP16))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 4), pl.FP16))
		sum := f.Let("sum", pl.Add(f.Let("ta", pl.Load(a, pl.Dims(0, 0), pl.Dims(1, 4))), f.Let("tb", pl.Load(b, pl.Dims(0, 0), pl.Dims(1, 4)))))
		f.Set(y, pl.Store(sum, pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		a := f.In("a", pl.Tensor(pl.Dims(1, 1, 4), pl.FP16))
		b := f.In("b", pl.Tensor(pl.Dims(1, 1, 4), pl.FP16))
		y := f.Out("y", pl.Tensor(pl.Dims(1, 1, 4), pl.FP16))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(a, r), pl.Index(b, r), pl.Index(y, r)))
		})
	})
	a := tensor.FromFloat64(ir.FP16, []float64{2048, 1, 1, 0.1}, 1, 1, 4)
	b := tensor.FromFloat64(ir.FP16, []float64{1, math.Ldexp(1, -11), 3 * math.Ldexp(1, -11), 0.2}, 1, 1, 4)
	y := tensor.Zeros(ir.FP16, 1, 1, 4)
	mustRun(t, prog, 1, a, b, y)
	// 2048+1 is not representable (spacing 2); 1+2^-11 ties to 1 (even);
	// 1+3·2^-11 ties up to 1+2^-9; fp16(0.1)+fp16(0.2) rounds to 0.2998046875.
	require.Equal(t, []float64{2048, 1, 1 + math.Ldexp(1, -9), 0.2998046875}, []float64{y.At(0, 0, 0), y.At(0, 0, 1), y.At(0, 0, 2), y.At(0, 0, 3)})
}

// all_to_all_v against a host-computed golden, as written and compiled: the
// whole MAX_RECV-row block crosses, the published count is the sender's
// count clamped to MAX_RECV (counts above it and zero included), and the
// signal returns to zero.
func TestAllToAllV(t *testing.T) {
	const maxRecv = 4
	for _, n := range []int{2, 3, 4, 8} {
		prog := testprogs.AllToAllV(n, maxRecv)
		comp, err := pl.TryCompile(prog, pl.Ranks(n))
		require.NoError(t, err)
		for _, compiled := range []bool{false, true} {
			t.Run(fmt.Sprintf("P=%d/compiled=%v", n, compiled), func(t *testing.T) {
				args, _, err := runtime.HostArgs(prog.IR(), n, int64(n))
				require.NoError(t, err)
				x, counts, y, got := args[0], args[1], args[2], args[3]
				for r := 0; r < n; r++ {
					for d := 0; d < n; d++ {
						counts.Set(float64((3*r+d)%(maxRecv+3)), r, d, 0)
					}
				}
				var res *pl.RunResult
				if compiled {
					res, err = comp.Run(pl.Ranks(n), args...)
				} else {
					res, err = pl.Run(prog, pl.Ranks(n), args...)
				}
				require.NoError(t, err)
				require.False(t, res.Report().HasErrors(), "%s", res.Report())
				for r := 0; r < n; r++ {
					for src := 0; src < n; src++ {
						want := min(counts.At(src, r, 0), maxRecv)
						require.Equal(t, want, got.At(r, src, 0), "rank %d's count from %d", r, src)
						for i := 0; i < maxRecv; i++ {
							for j := 0; j < S; j++ {
								require.Equal(t, x.At(src, r*maxRecv+i, j), y.At(r, src*maxRecv+i, j), "rank %d, row %d of block %d", r, i, src)
							}
						}
					}
				}
			})
		}
	}
}
