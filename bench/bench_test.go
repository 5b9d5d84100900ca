package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/runtime"
)

// The benchmark programs compute what they claim at a small size, so the
// numbers below measure correct runs; fast and without MPI, for go test ./...
func TestAllReduceSums(t *testing.T) {
	for _, n := range []int{2, 3, 8} {
		t.Run(fmt.Sprintf("P=%d", n), func(t *testing.T) {
			c, err := NewAllReduce(n, 1000, int64(n))
			if err != nil {
				t.Fatal(err)
			}
			// Twice: a run must not depend on the previous run's windows.
			for i := 0; i < 2; i++ {
				s, err := c.Run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if err := c.Check(); err != nil {
					t.Fatal(err)
				}
				if s.Op <= 0 || s.Op > s.Run {
					t.Fatalf("collective span %v outside the run's %v", s.Op, s.Run)
				}
			}
			if got, want := c.PeerBytes(), int64(n*(n-1)*1000*4); got != want {
				t.Fatalf("PeerBytes = %d, want %d", got, want)
			}
		})
	}
}

func TestGetCopiesNextRank(t *testing.T) {
	c, err := NewGet(8, 1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	if got, want := c.PeerBytes(), int64(8*1000*4); got != want {
		t.Fatalf("PeerBytes = %d, want %d", got, want)
	}
}

// Check must notice a wrong answer, or TestAllReduceSums proves nothing.
func TestCheckCatchesWrongSums(t *testing.T) {
	c, err := NewAllReduce(4, 64, 7)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Y.ViewFloat32()[3*64+5] += 0.01
	if err := c.Check(); err == nil {
		t.Fatal("Check accepted a corrupted sum")
	}
}

func TestMeasure(t *testing.T) {
	c, err := NewAllReduce(4, 256, 3)
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.Measure(context.Background(), 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Summary{st.Op, st.Run} {
		if s.Min <= 0 || s.Min > s.Median || s.Median > s.Max || s.Mean < s.Min || s.Mean > s.Max {
			t.Fatalf("implausible summary %+v", s)
		}
	}
	if st.N != 3 || st.Op.Median > st.Run.Median || st.Op.BytesPerSecond(st.PeerBytesPerRun) <= 0 {
		t.Fatalf("implausible stats %+v", st)
	}
}

func TestSummarise(t *testing.T) {
	s := summarise([]time.Duration{5, 1, 3, 100})
	if s != (Summary{Mean: 27, Median: 4, Min: 1, Max: 100}) {
		t.Fatalf("summarise = %+v", s)
	}
}

func TestMeshAllReduceGo(t *testing.T) {
	for _, n := range []int{2, 3, 8} {
		if _, err := MeasureMeshGo(n, 1000, 1, 2); err != nil {
			t.Fatal(err)
		}
	}
	bufs := [][]float32{{1, 2}, {10, 20}, {100, 200}}
	MeshAllReduceGo(bufs, [][]float32{make([]float32, 2), make([]float32, 2), make([]float32, 2)})
	for r, b := range bufs {
		if b[0] != 111 || b[1] != 222 {
			t.Fatalf("rank %d: %v, want [111 222]", r, b)
		}
	}
}

func TestSpan(t *testing.T) {
	ms := time.Millisecond
	tl := &runtime.Timeline{Ranks: 2, Lanes: [][]runtime.Event{
		{{Op: "x", Start: 0, End: ms}, {Op: opAllReduce, Start: 3 * ms, End: 9 * ms}},
		{{Op: opAllReduce, Start: 2 * ms, End: 7 * ms}},
	}}
	if d, err := Span(tl, opAllReduce, 2); err != nil || d != 7*ms {
		t.Fatalf("Span = %v, %v; want 7ms", d, err)
	}
	if _, err := Span(tl, opGet, 2); err == nil {
		t.Fatal("Span accepted ranks that never ran the op")
	}
}

// benchCase runs c b.N times, reporting the collective's own time and its
// peer-to-peer bandwidth next to go test's per-run numbers. SetBytes is the
// bytes delivered between ranks, so MB/s is the whole run's data-path rate.
func benchCase(b *testing.B, c *Case) {
	ctx := context.Background()
	if _, err := c.Run(ctx); err != nil { // warm-up, and a correct answer
		b.Fatal(err)
	}
	if err := c.Check(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(c.PeerBytes())
	b.ReportAllocs()
	b.ResetTimer()
	var op time.Duration
	for i := 0; i < b.N; i++ {
		s, err := c.Run(ctx)
		if err != nil {
			b.Fatal(err)
		}
		op += s.Op
	}
	b.StopTimer()
	per := op.Seconds() / float64(b.N)
	b.ReportMetric(per*1e3, "op-ms/op")
	b.ReportMetric(float64(c.PeerBytes())/per/1e9, "op-GB/s")
}

// The benchmark: a mesh allreduce of 1 Mi FP32 per rank at 8 ranks.
// op-ms/op is the collective alone (compare with MPI_Allreduce), ns/op the
// whole program run.
func BenchmarkAllReduce8x1Mi(b *testing.B) {
	c, err := NewAllReduce(Ranks, Elems, 1)
	if err != nil {
		b.Fatal(err)
	}
	benchCase(b, c)
}

// The raw RMA data path: every rank gets its neighbour's 4 MiB window.
func BenchmarkGet8x1Mi(b *testing.B) {
	c, err := NewGet(Ranks, Elems, 1)
	if err != nil {
		b.Fatal(err)
	}
	benchCase(b, c)
}

// The same mesh algorithm in plain Go, without the simulator: the floor.
func BenchmarkMeshAllReduceGo8x1Mi(b *testing.B) {
	bufs, acc := make([][]float32, Ranks), make([][]float32, Ranks)
	for r := range bufs {
		bufs[r], acc[r] = make([]float32, Elems), make([]float32, Elems)
	}
	b.SetBytes(int64(Ranks) * int64(Ranks-1) * Elems * 4)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		MeshAllReduceGo(bufs, acc)
	}
}

// Go's copy of 4 MiB (runtime.memmove), for reference; the C memcpy peer
// is peers/memcpy_bw.c.
func BenchmarkMemcopy(b *testing.B) {
	for _, size := range []int{Elems * 4, 256 << 20} {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			src, dst := make([]byte, size), make([]byte, size)
			for i := range src {
				src[i] = byte(i)
			}
			copy(dst, src)
			b.SetBytes(int64(size))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				copy(dst, src)
			}
		})
	}
}
