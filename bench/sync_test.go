package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
)

// The synchronisation skeleton runs clean (every cell back at 0, no
// fragile wait) at several world sizes, and its waits are the rounds asked
// for.
func TestSyncRoundsProgramRunsClean(t *testing.T) {
	for _, c := range []struct {
		mode string
		n    int
	}{{"mesh", 2}, {"mesh", 3}, {"mesh", 8}, {"ring", 2}, {"ring", 3}, {"ring", 8}} {
		mode, n := c.mode, c.n
		t.Run(fmt.Sprintf("%s/P=%d", mode, n), func(t *testing.T) {
			p, err := SyncRoundsProgram(mode, 5)
			if err != nil {
				t.Fatal(err)
			}
			prog := p.IR()
			res, rep, err := checker.Run(context.Background(), prog, nil, checker.Options{Ranks: n})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Findings) > 0 { // a note too: credits left on a cell
				t.Fatalf("the skeleton at P=%d is not clean:\n%s", n, rep)
			}
			res.Timeline.Expand()
			waits := 0
			for _, ev := range res.Timeline.PerRank(n - 1) {
				if ev.Op == ir.PldSystemWait.Name {
					waits++
				}
			}
			if per := syncPeers(mode, n); waits != 5*per {
				t.Fatalf("rank %d ran %d waits, want 5 rounds of %d", n-1, waits, per)
			}
		})
	}
	if _, err := SyncRoundsProgram("tree", 5); err == nil {
		t.Fatal("SyncRoundsProgram accepted mode tree")
	}
}

// Rounds counts the lowered allreduce's barrier rounds: the mesh has one
// before its chunks and one per chunk of 16 KiB, 1 + ceil(numel / 4096) in
// FP32; the ring two per sub-chunk of 4096 columns of its largest segment
// in each of its 2(P-1) steps.
func TestLoweredRounds(t *testing.T) {
	const elems = 3*4096 + 5 // four chunks, the last ragged
	mesh, err := NewLowered("mesh", 3, elems, 1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := mesh.Rounds()
	if err != nil {
		t.Fatal(err)
	}
	if got != 5 {
		t.Fatalf("the mesh allreduce of %d FP32 has %d rounds, want 5", elems, got)
	}
	ring, err := NewLowered("ring", 3, elems, 1)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := ring.Rounds()
	if err != nil {
		t.Fatal(err)
	}
	// Segments of ceil(12293 / 3) = 4098 columns: 2 sub-chunks, 4 steps.
	if rr != 2*2*2*2 {
		t.Fatalf("the ring allreduce of %d FP32 at P=3 has %d rounds, want 16", elems, rr)
	}
}

// BenchmarkLoweredSync8x1Mi times the synchronisation of the lowered
// allreduce alone: SyncRoundsProgram with as many rounds as the compiled
// 8 x 1 Mi allreduce has in each mode, run as a user runs it (c.Run with
// the checker) and without the checker. Next to coll-ms of
// BenchmarkLoweredAllReduce8x1Mi it says what part of the collective is
// synchronisation; next to MPI_Allreduce (bench.sh), how far the
// synchronisation alone already is from it.
func BenchmarkLoweredSync8x1Mi(b *testing.B) {
	for _, mode := range []string{"ring", "mesh"} {
		b.Run(mode, func(b *testing.B) {
			c, rounds, err := CompileSyncOf(mode, Ranks, Elems)
			if err != nil {
				b.Fatal(err)
			}
			checked := pl.Ranks(Ranks).Watchdog(time.Minute)
			unchecked := checked.Unchecked()
			var spans, bare []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := c.Run(checked)
				if err != nil {
					b.Fatal(err)
				}
				spans = append(spans, WholeSpan(res.Timeline()))
				b.StopTimer()
				res, err = c.Run(unchecked)
				if err != nil {
					b.Fatal(err)
				}
				bare = append(bare, WholeSpan(res.Timeline()))
				b.StartTimer()
			}
			b.ReportMetric(float64(rounds), "rounds")
			b.ReportMetric(float64(summarise(spans).Median)/1e6, "sync-ms")
			b.ReportMetric(float64(summarise(bare).Median)/1e6, "sync-unchecked-ms")
		})
	}
}
