package bench

import (
	"fmt"
	"testing"
	"time"
)

// The lowered programs compute the allreduce at small sizes in both modes,
// so the benchmarks below time correct runs.
func TestLoweredAllReduceSums(t *testing.T) {
	for _, mode := range []string{"mesh", "ring"} {
		for _, n := range []int{2, 3, 8} {
			t.Run(fmt.Sprintf("%s/P=%d", mode, n), func(t *testing.T) {
				l, err := NewLowered(mode, n, 1000, int64(n))
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < 2; i++ { // a run must not depend on the previous one
					whole, coll, err := l.RunSpans()
					if err != nil {
						t.Fatal(err)
					}
					if err := l.Check(); err != nil {
						t.Fatal(err)
					}
					if coll <= 0 || coll > whole {
						t.Fatalf("the allreduce's span %v is not inside its run of %v", coll, whole)
					}
				}
				l.Y.ViewFloat32()[5] += 1
				if err := l.Check(); err == nil {
					t.Fatal("Check accepted a corrupted sum")
				}
			})
		}
	}
	if _, err := NewLowered("tree", 4, 100, 1); err == nil {
		t.Fatal("NewLowered accepted mode tree")
	}
}

func benchLowered(b *testing.B, mode string, ranks, elems int) {
	benchLoweredRun(b, mode, ranks, elems, false)
}

func benchLoweredRun(b *testing.B, mode string, ranks, elems int, unchecked bool) {
	l, err := NewLowered(mode, ranks, elems, 1)
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := l.run(unchecked); err != nil { // warm-up, and a correct answer
		b.Fatal(err)
	}
	if err := l.Check(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(ranks) * int64(elems) * 4)
	b.ReportAllocs()
	var colls []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, coll, err := l.run(unchecked)
		if err != nil {
			b.Fatal(err)
		}
		colls = append(colls, coll)
	}
	// The allreduce's own span in each run (its first op to its last).
	b.ReportMetric(float64(summarise(colls).Median)/1e6, "coll-ms")
}

// The same without the protocol checker: the simulator's own cost.
func BenchmarkLoweredUnchecked8x1Mi(b *testing.B) {
	for _, mode := range []string{"ring", "mesh"} {
		b.Run(mode, func(b *testing.B) { benchLoweredRun(b, mode, Ranks, Elems, true) })
	}
}

// Scaling without the checker.
func BenchmarkLoweredUncheckedScaling(b *testing.B) {
	for _, mode := range []string{"ring", "mesh"} {
		for _, n := range ScalingRanks {
			b.Run(fmt.Sprintf("%s/P=%d", mode, n), func(b *testing.B) { benchLoweredRun(b, mode, n, ScalingElems, true) })
		}
	}
}

// The headline: the allreduce a user compiles and runs, 8 ranks x
// 1 Mi FP32, lowered in ring and in mesh mode (compare with
// BenchmarkAllReduce8x1Mi, the native op, and MPI_Allreduce in bench.sh).
func BenchmarkLoweredAllReduce8x1Mi(b *testing.B) {
	for _, mode := range []string{"ring", "mesh"} {
		b.Run(mode, func(b *testing.B) { benchLowered(b, mode, Ranks, Elems) })
	}
}

// Scaling: 64 Ki FP32 per rank from 2 to 64 ranks, both modes.
func BenchmarkLoweredScaling(b *testing.B) {
	for _, mode := range []string{"ring", "mesh"} {
		for _, n := range ScalingRanks {
			b.Run(fmt.Sprintf("%s/P=%d", mode, n), func(b *testing.B) { benchLowered(b, mode, n, ScalingElems) })
		}
	}
}
