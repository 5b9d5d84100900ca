package passes_test

import (
	"fmt"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/pto"
)

// manyOps builds a kernel of n distributed ops: blocks of remote_load,
// remote_store, notify and wait on a ring, plus one tensor-level put every
// block so ConvertTensorToTileOps has staging tiles to lift.
func manyOps(n int) *ir.Program {
	prog := pl.NewProgram("Many")
	prog.InCore("kernel", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(1, 64), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, 64), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(8, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		me := f.Let("my_rank", pld.Rank(ctx))
		peer := f.Let("peer", pl.Mod(pl.Add(me, 1), 8))
		for i := 0; i < n; i += 5 {
			t := f.Let("t", pld.RemoteLoad(data, peer, pl.Dims(0, 0), pl.Dims(1, 64)))
			f.Do(pld.RemoteStore(t, data, peer, pl.Dims(0, 0)))
			f.Do(pld.Put(data, peer, x))
			f.Do(pld.Notify(sig, peer, pl.Dims(me, 0), 1, pld.AtomicAdd))
			f.Do(pld.Wait(sig, pl.Dims(peer, 0), 1, pld.Ge))
		}
	})
	return prog.IR()
}

// BenchmarkPipeline runs every pass and PTO codegen on kernels of 1k and 10k
// distributed ops, bare (passes.Lower, what a compile costs) and
// instrumented (every stage printed and diffed, what pl.Compile and :step
// show); ns/dist-op should stay flat from 1k to 10k (linear).
func BenchmarkPipeline(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		p := manyOps(n)
		for _, mode := range []string{"bare", "stages"} {
			b.Run(fmt.Sprintf("ops=%d/%s", n, mode), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					var low *ir.Program
					var err error
					if mode == "bare" {
						low, err = passes.Lower(p)
					} else {
						var st passes.Stage
						st, err = passes.NewPipeline(p).Run()
						low = st.Program
					}
					if err != nil {
						b.Fatal(err)
					}
					if _, err := pto.Emit(low, pto.Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/dist-op")
			})
		}
	}
}
