//go:build cgo

package pyfront_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/pyfront"
)

// bigProgram is the quickstart's exchange repeated reps times in one
// kernel, lowered through the whole pipeline (SSA, memrefs, addresses,
// fences): about 20 printed lines per repetition.
func bigProgram(tb testing.TB, reps int) *ir.Program {
	const size = 64
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram("Big")
	k := prog.InCore("kernel", func(f *pl.Func) {
		inp := f.In("inp", pl.Tensor(pl.Dims(1, size), pl.FP32))
		out := f.Out("out", pl.Tensor(pl.Dims(1, size), pl.FP32))
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, size), pl.FP32))
		signal := f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		me := f.Let("my_rank", pld.Rank(ctx))
		n := f.Let("nranks", pld.NRanks(ctx))
		for i := 0; i < reps; i++ {
			local := f.Let("local", pl.Load(inp, pl.Dims(0, 0), pl.Dims(1, size)))
			f.Set(data, pl.Store(local, pl.Dims(0, 0), data))
			f.For("peer", pl.Range(n), func(peer pl.Expr) {
				f.If(pl.Ne(peer, me), func() { f.Do(pld.Notify(signal, peer, pl.Dims(me, 0), 1, pld.AtomicAdd)) })
			})
			f.For("src", pl.Range(n), func(src pl.Expr) {
				f.If(pl.Ne(src, me), func() { f.Do(pld.Wait(signal, pl.Dims(src, 0), i+1, pld.Ge)) })
			})
			acc := f.Let("acc", pl.Load(data, pl.Dims(0, 0), pl.Dims(1, size)))
			f.For("peer", pl.Range(n), func(peer pl.Expr) {
				f.If(pl.Ne(peer, me), func() {
					t := f.Let("peer_tile", pld.RemoteLoad(data, peer, pl.Dims(0, 0), pl.Dims(1, size)))
					f.Set(acc, pl.Add(acc, t))
				})
			})
			f.Set(out, pl.Store(acc, pl.Dims(0, 0), out))
		}
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, size), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(size*4))
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			data := f.Let("data", pld.Window(db, pl.Dims(1, size), pl.FP32))
			sig := f.Let("signal", pld.Window(sb, pl.Dims(pld.WorldSize(), 1), pl.INT32))
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r), data, sig))
		})
	})
	lowered, err := passes.Lower(prog.IR())
	if err != nil {
		tb.Fatal(err)
	}
	return lowered
}

// bigText is a 2,000-line printed program (the benchmark's input).
func bigText(tb testing.TB) (*ir.Program, string) {
	p := bigProgram(tb, 80)
	text := printer.Program(p)
	if n := strings.Count(text, "\n") + 1; n < 2000 {
		tb.Fatalf("the benchmark program has %d lines, want >= 2000", n)
	}
	return p, text
}

// TestBigRoundTrip checks the benchmark's input reads back, so the
// benchmark measures a correct read.
func TestBigRoundTrip(t *testing.T) {
	p, _ := bigText(t)
	roundTrip(t, "Big", p)
}

// BenchmarkParseBuild2000 reads and builds the 2,000-line program as
// pl.ParsePython does. Next to BenchmarkPrint2000 in the same runs, on
// the shared 2-core development machine (load average 5, best of eight):
// 41 ms against 8.5 ms, a ratio of about 4.8x (the goal is 2x; 8-9x when
// the machine is busier). Tree-sitter's C parse of the whole file alone is
// 4x printing on an idle core (README, Reading speed).
func BenchmarkParseBuild2000(b *testing.B) {
	_, text := bigText(b)
	src := []byte(text)
	b.SetBytes(int64(len(src)))
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		mod, err := pyfront.Parse("big.py", src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := mod.Program("Big"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrint2000 prints the same program, the yardstick for the read.
func BenchmarkPrint2000(b *testing.B) {
	p, text := bigText(b)
	b.SetBytes(int64(len(text)))
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		_ = printer.Program(p)
	}
}

// BenchmarkTree2000 is the part of BenchmarkParseBuild2000 spent in
// tree-sitter's parse and the copy of its tree into Go.
func BenchmarkTree2000(b *testing.B) {
	_, text := bigText(b)
	src := []byte(text)
	b.SetBytes(int64(len(src)))
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		if err := pyfront.ParseTree(src); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU resets the timer and returns what reports the loop's CPU time
// per op (cpu-ns/op) beside its wall time.
func reportCPU(b *testing.B) func() {
	b.ResetTimer()
	start := cpuTime()
	return func() {
		b.StopTimer()
		if d := cpuTime() - start; d > 0 {
			b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

// TestConcurrentReads: reads on many goroutines at once (each parse has
// its own arena on its own thread) give what one read alone gives.
func TestConcurrentReads(t *testing.T) {
	p, text := bigText(t)
	want := printer.Program(p)
	small, err := os.ReadFile(filepath.Join("testdata", "authoring", "ring.py"))
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func(g int) {
			for i := 0; i < 3; i++ {
				if g%2 == 1 {
					if _, err := pyfront.Parse("ring.py", small); err != nil {
						errs <- err
						return
					}
					continue
				}
				mod, err := pyfront.Parse("big.py", []byte(text))
				if err != nil {
					errs <- err
					return
				}
				q, err := mod.Program("Big")
				if err != nil {
					errs <- err
					return
				}
				if got := printer.Program(q); got != want {
					errs <- fmt.Errorf("goroutine %d read %d: the program prints differently", g, i)
					return
				}
			}
			errs <- nil
		}(g)
	}
	for g := 0; g < 8; g++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestArenaBounded: the parser's arenas, kept for the next reads, stay
// within a bound however many reads ran.
func TestArenaBounded(t *testing.T) {
	_, text := bigText(t)
	for i := 0; i < 5; i++ {
		if _, err := pyfront.Parse("big.py", []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	n := pyfront.ArenaBytes()
	t.Logf("arenas hold %d MB after reading a %d KB file five times", n>>20, len(text)>>10)
	if n > 4*16<<20 {
		t.Fatalf("arenas hold %d MB, more than 4 arenas of 16 MB", n>>20)
	}
}
