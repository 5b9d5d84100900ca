package runtime_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

func benchRun(b *testing.B, prog *pl.Program, n int, bytesPerRank int, args ...*tensor.Tensor) {
	exe, err := runtime.NewSimulator().Load(prog.IR())
	if err != nil {
		b.Fatal(err)
	}
	opts := runtime.RunOptions{Ranks: n, MaxEvents: -1}
	b.SetBytes(int64(bytesPerRank * n))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := exe.Run(context.Background(), args, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// One ring step with put + notify + wait (06_put_get) at 2, 8 and 64 ranks.
func BenchmarkRingPut(b *testing.B) {
	for _, n := range []int{2, 8, 64} {
		b.Run(fmt.Sprintf("P=%d", n), func(b *testing.B) {
			benchRun(b, ringProgram("put"), n, 64*4, tensor.Randn(1, n, 1, 64), tensor.Zeros(ir.FP32, n, 1, 64))
		})
	}
}

// allreduceProgram is one pld.tensor.allreduce of [1, size] FP32 per rank.
func allreduceProgram(size int) *pl.Program {
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("AllReduce")
	k := prog.InCore("k", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, size), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(1, size), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, size), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		f.Set(data, pl.Store(f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(1, size))), pl.Dims(0, 0), data))
		f.Set(data, pld.AllReduce(data, sig))
		f.Set(y, pl.Store(f.Let("out", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, size))), pl.Dims(0, 0), y))
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(size*4))
		gb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r), f.Let("data", pld.Window(db, pl.Dims(1, size), pl.FP32)),
				f.Let("signal", pld.Window(gb, pl.Dims(pld.WorldSize(), 1), pl.INT32))))
		})
	})
	return prog
}

// The builtin mesh allreduce of 256 FP32 per rank at 2, 8 and 64 ranks, the
// hand-written quickstart at the same sizes, and 1 Mi FP32 at 8 ranks.
func BenchmarkAllReduce(b *testing.B) {
	for _, n := range []int{2, 8, 64} {
		b.Run(fmt.Sprintf("builtin/P=%d", n), func(b *testing.B) {
			benchRun(b, allreduceProgram(256), n, 256*4, tensor.Randn(1, n, 1, 256), tensor.Zeros(ir.FP32, n, 1, 256))
		})
		b.Run(fmt.Sprintf("quickstart/P=%d", n), func(b *testing.B) {
			benchRun(b, quickstart(256), n, 256*4, tensor.Randn(1, n, 1, 256), tensor.Zeros(ir.FP32, n, 1, 256))
		})
	}
	const big = 1 << 20
	b.Run("builtin-1Mi/P=8", func(b *testing.B) {
		benchRun(b, allreduceProgram(big), 8, big*4, tensor.Randn(1, 8, 1, big), tensor.Zeros(ir.FP32, 8, 1, big))
	})
}
