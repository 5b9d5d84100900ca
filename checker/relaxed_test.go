package checker_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

var updateWeak = flag.Bool("update", false, "rewrite the golden files in testdata/")

// weakArgs are x [n, 1, 16] (row r filled with r+1) and y [n, 1, 16] zero.
func weakArgs(n int) []*tensor.Tensor {
	v := make([]float32, n*testprogs.WeakCols)
	for i := range v {
		v[i] = float32(i/testprogs.WeakCols + 1)
	}
	return []*tensor.Tensor{tensor.FromFloat32(v, n, 1, testprogs.WeakCols), tensor.Zeros(ir.FP32, n, 1, testprogs.WeakCols)}
}

func runWeak(t *testing.T, p testprogs.NamedProgram, n int, relaxed bool, seed int64) *checker.Report {
	t.Helper()
	_, rep, err := checker.Run(context.Background(), p.Build().IR(), weakArgs(n), checker.Options{Ranks: n, Relaxed: relaxed, Seed: seed, Watchdog: 10 * time.Second})
	require.NoError(t, err, "%s relaxed=%v", p.Name, relaxed)
	return rep
}

// findingsText is a report's findings, one per paragraph, sorted (ranks
// run concurrently, so discovery order is not fixed).
func findingsText(rep *checker.Report) string {
	var fs []string
	for _, f := range rep.Findings {
		fs = append(fs, f.String())
	}
	sort.Strings(fs)
	if len(fs) == 0 {
		return "(no findings)"
	}
	return strings.Join(fs, "\n")
}

// Every program of the weak-memory corpus is silent under sequential
// consistency and caught in the relaxed mode with its exact diagnosis.
func TestWeakMemoryCorpus(t *testing.T) {
	progs := testprogs.WeakMemoryBugs()
	require.GreaterOrEqual(t, len(progs), 12)
	var b strings.Builder
	for _, p := range progs {
		n := max(p.MinRanks, 2)
		sc := runWeak(t, p, n, false, 0)
		rx := runWeak(t, p, n, true, 0)
		t.Logf("%s SC:\n%s\nrelaxed:\n%s", p.Name, sc, rx)
		require.True(t, sc.Clean(), "%s must be clean under SC:\n%s", p.Name, sc)
		var weak []checker.Finding
		for _, f := range rx.Findings {
			if f.Weak != nil {
				weak = append(weak, f)
			}
		}
		require.Len(t, weak, 1, "%s: one weak-memory finding in relaxed mode:\n%s", p.Name, rx)
		fmt.Fprintf(&b, "## %s (P=%d): %s\nsequential consistency: %s\nrelaxed:\n%s\n\n", p.Name, n, p.Desc, findingsText(sc), findingsText(rx))
		// More ranks (idle beyond the roles) change nothing.
		sc4, rx4 := runWeak(t, p, 4, false, 0), runWeak(t, p, 4, true, 0)
		require.True(t, sc4.Clean(), "%s P=4 under SC:\n%s", p.Name, sc4)
		require.Equal(t, findingsText(rx), findingsText(rx4), "%s at P=4", p.Name)
	}
	golden(t, "weakmem.golden", b.String())
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateWeak {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./checker -run %s -update to create it", t.Name())
	require.Equal(t, string(want), got)
}

// The relaxed simulator realises the reordering, not only the checker:
// the consumer that read the slot before the exchange is served the line
// it cached, so it adds zero twice, where sequential consistency gives
// the producer's row.
func TestRelaxedStaleLineIsServed(t *testing.T) {
	var peek testprogs.NamedProgram
	for _, p := range testprogs.WeakMemoryBugs() {
		if p.Name == "PeekThenWait" {
			peek = p
		}
	}
	require.NotNil(t, peek.Build)
	for _, relaxed := range []bool{false, true} {
		args := weakArgs(2)
		_, _, err := checker.Run(context.Background(), peek.Build().IR(), args, checker.Options{Ranks: 2, Relaxed: relaxed, Watchdog: 10 * time.Second})
		require.NoError(t, err)
		y := args[1].Float32s()[testprogs.WeakCols:] // rank 1's row
		want := float32(1)                           // rank 0's x row holds 1s
		if relaxed {
			want = 0 // the stale line: the slot before rank 0 wrote it
		}
		for _, v := range y {
			require.Equal(t, want, v, "relaxed=%v", relaxed)
		}
	}
}

// With findings typed, a tool can place the fix without reading text: the
// fence goes after the write and before the notify, the cacheinvalid after
// the wait and before the read.
func TestWeakMemoryFindingsAreTyped(t *testing.T) {
	for _, p := range testprogs.WeakMemoryBugs() {
		rep := runWeak(t, p, max(p.MinRanks, 2), true, 0)
		for _, f := range rep.Findings {
			w := f.Weak
			if w == nil {
				continue
			}
			require.True(t, w.Write.Pos.Known() && w.Access.Pos.Known(), p.Name)
			require.True(t, w.Fix.Before.Known(), p.Name)
			switch f.Kind {
			case checker.KindSignalOvertakes:
				require.Equal(t, checker.FixFence, w.Fix.Kind)
				require.NotNil(t, w.Signal, p.Name)
				require.Equal(t, w.Write.Pos, w.Fix.After)
				require.Equal(t, w.Signal.Pos, w.Fix.Before)
				require.Less(t, w.Fix.After.Line, w.Fix.Before.Line, "%s: the write comes before its notify", p.Name)
			case checker.KindUnfencedRead:
				require.Equal(t, checker.FixFence, w.Fix.Kind)
				require.Equal(t, w.Access.Pos, w.Fix.Before)
			case checker.KindStaleRead:
				require.Equal(t, checker.FixCacheInvalidate, w.Fix.Kind)
				require.Equal(t, w.Access.Pos, w.Fix.Before)
				if w.Write.Rank != w.Access.Rank {
					require.NotNil(t, w.Wait, p.Name)
					require.Equal(t, w.Wait.Pos, w.Fix.After)
				}
			default:
				t.Fatalf("%s: unexpected weak-memory kind %s", p.Name, f.Kind)
			}
		}
	}
}

// sequentialDevice is a device without the relaxed mode.
type sequentialDevice struct{ runtime.Device }

// Asking a device that cannot relax for the relaxed mode is a clear error,
// not a silently sequentially consistent run.
func TestRelaxedNeedsARelaxedDevice(t *testing.T) {
	p := testprogs.WeakMemoryBugs()[0]
	_, rep, err := checker.Run(context.Background(), p.Build().IR(), weakArgs(2), checker.Options{Ranks: 2, Relaxed: true, Device: sequentialDevice{runtime.NewSimulator()}})
	require.NotNil(t, rep)
	require.ErrorContains(t, err, "relaxed memory mode: device sim runs sequentially consistent only")
}

// The diagnosis follows happens-before, not the run's timing: under the
// seeded visibility policy (writes drained at random points, stale lines
// served or refetched at random) each program gets the same findings.
func TestWeakMemoryDiagnosisIndependentOfSeed(t *testing.T) {
	for _, p := range testprogs.WeakMemoryBugs() {
		n := max(p.MinRanks, 2)
		want := findingsText(runWeak(t, p, n, true, 0))
		for seed := int64(1); seed <= 3; seed++ {
			require.Equal(t, want, findingsText(runWeak(t, p, n, true, seed)), "%s seed %d", p.Name, seed)
		}
	}
}

// Writes complete eventually: a rank that waits on a cell a peer writes
// with a plain remote_store (no fence), while the peer waits for its
// answer, is not a deadlock in the relaxed mode. The simulator lands the
// write in flight when every rank is blocked.
func TestRelaxedWritesLandBeforeADeadlockIsDeclared(t *testing.T) {
	prog := pl.NewProgram("StoreIntoCell")
	k := prog.InCore("kernel", func(f *pl.Func) {
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
		me := f.Let("my_rank", pld.Rank(f.Let("ctx", pld.GetCommCtx(sig))))
		f.If(pl.Eq(me, 0), func() {
			one := f.Let("one", pl.Load(f.Let("ones", pl.Full(pl.Dims(1, 1), pl.INT32, 1)), pl.Dims(0, 0), pl.Dims(1, 1)))
			f.Do(pld.RemoteStore(one, sig, 1, pl.Dims(0, 0))) // a data write into the peer's cell
			f.Do(pld.Wait(sig, pl.Dims(1, 0), 1, pld.Ge))
		})
		f.If(pl.Eq(me, 1), func() {
			f.Do(pld.Wait(sig, pl.Dims(0, 0), 1, pld.Ge))
			f.Do(pld.Notify(sig, 0, pl.Dims(1, 0), 1, pld.AtomicAdd))
		})
	})
	prog.Host("host", func(f *pl.Func) {
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(8))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("signal", pld.Window(sb, pl.Dims(2, 1), pl.INT32))))
		})
	})
	for _, relaxed := range []bool{false, true} {
		_, _, err := checker.Run(context.Background(), prog.IR(), nil, checker.Options{Ranks: 2, Relaxed: relaxed, Watchdog: 10 * time.Second})
		require.NoError(t, err, "relaxed=%v", relaxed)
	}
}

// A real deadlock stays one in the relaxed mode: landing the writes in
// flight wakes nobody, so the run stops with the deadlock report, at once.
func TestRelaxedDeadlockStillReported(t *testing.T) {
	prog := pl.NewProgram("WaitForever")
	k := prog.InCore("kernel", func(f *pl.Func) {
		data := f.InOut("data", pld.DistributedTensor(pl.Dims(1, 4), pl.FP32))
		sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
		me := f.Let("my_rank", pld.Rank(f.Let("ctx", pld.GetCommCtx(sig))))
		t4 := f.Let("t", pl.Load(f.Let("ones", pl.Full(pl.Dims(1, 4), pl.FP32, 1)), pl.Dims(0, 0), pl.Dims(1, 4)))
		f.Do(pld.RemoteStore(t4, data, pl.Sub(1, me), pl.Dims(0, 0))) // in flight when everyone blocks
		f.Do(pld.Wait(sig, pl.Dims(me, 0), 1, pld.Ge))                // nobody notifies
	})
	prog.Host("host", func(f *pl.Func) {
		db := f.Let("data_buf", pld.AllocWindowBuffer(16))
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(8))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("data", pld.Window(db, pl.Dims(1, 4), pl.FP32)), f.Let("signal", pld.Window(sb, pl.Dims(2, 1), pl.INT32))))
		})
	})
	_, rep, err := checker.Run(context.Background(), prog.IR(), nil, checker.Options{Ranks: 2, Relaxed: true, Watchdog: 20 * time.Second})
	var dl *runtime.DeadlockError
	require.True(t, errors.As(err, &dl), "found by analysis, not the watchdog: %v", err)
	require.Len(t, dl.Blocked, 2)
	require.Len(t, rep.Of(checker.KindDeadlock), 1)
}
