package checker_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

// The mutation test of InsertCommFence against the relaxed memory mode:
// every collective, compiled through the whole pipeline, runs clean in the
// relaxed mode; and removing any single fence the pass inserted is caught
// by the checker (a weak-memory finding naming that fence's write).

type mutCase struct {
	name  string
	build func(n int) *pl.Program
	args  func(n int) []*tensor.Tensor
}

// collectiveArgs are the Collective frame's x [n, rows, 16] and y [n, n, 16].
func collectiveArgs(rows func(n int) int) func(n int) []*tensor.Tensor {
	return func(n int) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(int64(7*n+rows(n)), n, rows(n), testprogs.CollectiveCols), tensor.Zeros(ir.FP32, n, n, testprogs.CollectiveCols)}
	}
}

// allReduceOf is an allreduce of a [1, size] FP32 window in mode, with the
// signal that mode needs ([NR, 1] for the mesh, [2(NR-1), NR] for the ring).
func allReduceOf(mode string, op ir.ReduceOp, size int) func(n int) *pl.Program {
	return func(n int) *pl.Program { return testprogs.AllReduceWindow("AllReduce", n, size, mode, op) }
}

func allReduceArgs(size int) func(n int) []*tensor.Tensor {
	return func(n int) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Randn(int64(11*n+size), n, 1, size), tensor.Zeros(ir.FP32, n, 1, size)}
	}
}

// mutCollectives is every collective: allreduce in mesh and ring mode
// (two reductions each: Sum pushes with atomic adds, Max with plain
// copies), and the mesh-only barrier, broadcast, allgather, all_to_all and
// reduce_scatter.
func mutCollectives() []mutCase {
	one := func(int) int { return 1 }
	all := func(n int) int { return n }
	const size = 100 // uneven ring segments
	return []mutCase{
		{"allreduce/mesh/sum", allReduceOf("mesh", pld.Sum, size), allReduceArgs(size)},
		{"allreduce/mesh/max", allReduceOf("mesh", pld.Max, size), allReduceArgs(size)},
		{"allreduce/ring/sum", allReduceOf("ring", pld.Sum, size), allReduceArgs(size)},
		{"allreduce/ring/max", allReduceOf("ring", pld.Max, size), allReduceArgs(size)},
		{"barrier", func(n int) *pl.Program {
			return testprogs.Collective("Barrier", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
				testprogs.StageRows(f, x, data, 1)
				f.Set(sig, pld.Barrier(sig))
			})
		}, collectiveArgs(one)},
		{"broadcast", func(n int) *pl.Program {
			return testprogs.Collective("Broadcast", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
				testprogs.StageRows(f, x, data, 1)
				f.Set(data, pld.Broadcast(data, sig, 1))
			})
		}, collectiveArgs(one)},
		{"allgather", func(n int) *pl.Program {
			return testprogs.Collective("AllGather", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
				f.Set(data, pld.AllGather(x, data, sig))
			})
		}, collectiveArgs(one)},
		{"all_to_all", func(n int) *pl.Program {
			return testprogs.Collective("AllToAll", n, n, func(f *pl.Func, x, data, sig pl.Expr) {
				f.Set(data, pld.AllToAll(x, data, sig))
			})
		}, collectiveArgs(all)},
		{"reduce_scatter", func(n int) *pl.Program {
			return testprogs.Collective("ReduceScatter", n, n, func(f *pl.Func, x, data, sig pl.Expr) {
				testprogs.StageRows(f, x, data, n)
				f.Set(data, pld.ReduceScatter(data, sig))
			})
		}, collectiveArgs(all)},
	}
}

// fenceStmts lists, per InCore function, the system.fence statements
// of p in walk order.
func fenceStmts(p *ir.Program) []*ir.EvalStmt {
	var out []*ir.EvalStmt
	for _, fn := range p.Functions {
		if fn.Kind != ir.InCore {
			continue
		}
		ir.WalkStmt(fn.Body, nil, func(s ir.Stmt) {
			if ev, ok := s.(*ir.EvalStmt); ok {
				if c := ir.StmtCall(ev); c != nil && c.Op == ir.SystemFence {
					out = append(out, ev)
				}
			}
		})
	}
	return out
}

// without returns p with statement drop removed (the functions and blocks
// on its path copied; everything else shared).
func without(p *ir.Program, drop ir.Stmt) *ir.Program {
	q := *p
	q.Functions = make([]*ir.Function, len(p.Functions))
	for i, fn := range p.Functions {
		if nb, changed := dropStmt(fn.Body, drop); changed {
			c := *fn
			c.Body = nb
			q.Functions[i] = &c
		} else {
			q.Functions[i] = fn
		}
	}
	return &q
}

func dropStmt(s ir.Stmt, drop ir.Stmt) (ir.Stmt, bool) {
	switch x := s.(type) {
	case *ir.SeqStmts:
		var out []ir.Stmt
		changed := false
		for _, st := range x.Stmts {
			if st == drop {
				changed = true
				continue
			}
			ns, ch := dropStmt(st, drop)
			changed = changed || ch
			out = append(out, ns)
		}
		if !changed {
			return s, false
		}
		c := *x
		c.Stmts = out
		return &c, true
	case *ir.ForStmt:
		if b, ch := dropStmt(x.Body, drop); ch {
			c := *x
			c.Body = b
			return &c, true
		}
	case *ir.IfStmt:
		t, ch1 := dropStmt(x.Then, drop)
		e, ch2 := dropStmt(x.Else, drop)
		if ch1 || ch2 {
			c := *x
			c.Then, c.Else = t, e
			return &c, true
		}
	}
	return s, false
}

func weakFindings(rep *checker.Report) []checker.Finding {
	var out []checker.Finding
	for _, f := range rep.Findings {
		if f.Weak != nil {
			out = append(out, f)
		}
	}
	return out
}

func TestInsertCommFenceMutantsCaught(t *testing.T) {
	var summary strings.Builder
	for _, mc := range mutCollectives() {
		for _, n := range []int{2, 3, 4} {
			t.Run(fmt.Sprintf("%s/P=%d", mc.name, n), func(t *testing.T) {
				src := mc.build(n).IR()
				before, err := passes.RunUntil(src, "MaterializeDistTensorCtx")
				require.NoError(t, err)
				final, err := passes.Lower(src)
				require.NoError(t, err)
				require.Empty(t, fenceStmts(before), "no fence before InsertCommFence")
				fences := fenceStmts(final)
				require.NotEmpty(t, fences, "InsertCommFence inserted no fence")
				runIn := func(p *ir.Program, relaxed bool) *checker.Report {
					_, rep, err := checker.Run(context.Background(), p, mc.args(n), checker.Options{Ranks: n, Relaxed: relaxed, Watchdog: 20 * time.Second})
					require.NoError(t, err)
					return rep
				}
				run := func(p *ir.Program) *checker.Report { return runIn(p, true) }
				clean := run(final)
				require.Empty(t, weakFindings(clean), "the compiled program must be clean in relaxed mode:\n%s", clean)
				// The relaxed mode adds nothing else either: the other
				// findings are the sequentially consistent run's. (The
				// compiled broadcast has a race of its own under sequential
				// consistency: the root's get from itself rewrites the
				// bytes the other ranks get from it, unordered.)
				require.Equal(t, kinds(runIn(final, false)), kinds(clean))
				if mc.name != "broadcast" {
					require.True(t, clean.Clean(), "%s", clean)
				}
				caught := 0
				for i, fe := range fences {
					rep := run(without(final, fe))
					wf := weakFindings(rep)
					pos := ir.StmtCall(fe).Pos
					if len(wf) == 0 {
						t.Errorf("removing fence %d (after the write at %s) is not caught:\n%s", i, pos, rep)
						continue
					}
					caught++
					// The finding names the write the fence followed.
					named := false
					for _, f := range wf {
						if f.Weak.Fix.Kind == checker.FixFence && f.Weak.Write.Pos == pos {
							named = true
						}
					}
					require.True(t, named, "fence %d at %s: the finding should name its write:\n%s", i, pos, rep)
				}
				fmt.Fprintf(&summary, "%s P=%d: %d fences, %d mutants caught\n", mc.name, n, len(fences), caught)
			})
		}
	}
	t.Logf("\n%s", summary.String())
}

func kinds(rep *checker.Report) []checker.Kind {
	var out []checker.Kind
	for _, f := range rep.Findings {
		out = append(out, f.Kind)
	}
	return out
}

// The upstream examples and the host collectives, compiled, are clean in
// the relaxed mode too (and gain no finding the sequentially consistent
// run lacks); as written, without the pipeline's fences, the ones that
// publish data through windows are not.
func TestCompiledExamplesCleanInRelaxedMode(t *testing.T) {
	progs := []struct {
		name     string
		prog     *pl.Program
		minRanks int
	}{
		{"rank", testprogs.RankProgram(false), 2},
		{"window", testprogs.WindowProgram(), 2},
		{"barrier-hand", testprogs.BarrierHandProgram(), 2},
		{"barrier-builtin", testprogs.BarrierBuiltinProgram(), 2},
		{"quickstart", testprogs.Quickstart(), 2},
		{"tag-set", testprogs.TagProgram(true), 2},
		{"tag-add", testprogs.TagProgram(false), 2},
		{"ring-put", testprogs.RingProgram("put"), 2},
		{"ring-get", testprogs.RingProgram("get"), 2},
		{"host-rail-mesh", testprogs.HostAllReduceLoop(3), 2},
		{"host-rail-ring", testprogs.HostAllReduceLoopMode(3, "ring"), 2},
		{"host-rail-subsets", testprogs.HostAllReduceSubsets(), 4},
	}
	var asWritten []string
	for _, tc := range progs {
		for _, n := range []int{2, 3, 4} {
			if n < tc.minRanks {
				continue
			}
			final, err := passes.Lower(tc.prog.IR())
			require.NoError(t, err, tc.name)
			run := func(p *ir.Program, relaxed bool) *checker.Report {
				args, _, err := runtime.HostArgs(p, n, 1)
				require.NoError(t, err)
				_, rep, err := checker.Run(context.Background(), p, args, checker.Options{Ranks: n, Relaxed: relaxed, Watchdog: 20 * time.Second})
				require.NoError(t, err, "%s P=%d relaxed=%v", tc.name, n, relaxed)
				return rep
			}
			rx := run(final, true)
			require.Empty(t, weakFindings(rx), "%s P=%d compiled:\n%s", tc.name, n, rx)
			require.Equal(t, kinds(run(final, false)), kinds(rx), "%s P=%d", tc.name, n)
			if n == 2 && len(weakFindings(run(tc.prog.IR(), true))) > 0 {
				asWritten = append(asWritten, tc.name)
			}
		}
	}
	t.Logf("as written (no pipeline), with weak-memory findings: %v", asWritten)
	require.NotEmpty(t, asWritten, "the hand-written protocols have no fences: some must be caught")
}

// The same mutation for the cache invalidations InsertCommFence inserts.
// Not every one is needed under our model, and the test says which and
// why instead of skipping them:
//   - a whole invalidate after a wait guards the rank's reads of its own
//     window against peers' writes into it; in a collective where no peer
//     writes into another rank's window (the mesh ones pull with
//     remote_load, whose reads go to memory, not through the cache) it has
//     nothing to guard;
//   - an invalidation is also redundant when, on every rank and every time
//     it runs, the bytes peers wrote into the rank's window before it are
//     dropped by a later invalidation before the rank reads them again
//     (the invalidation after a ring's ready barrier, when the push-done
//     barrier's follows before the pushed segment is read; a region
//     invalidate after the rank's own store, whose region is next read
//     after a wait).
//
// Every other removal must be caught, as a stale read.
func TestInsertCommFenceInvalidateMutants(t *testing.T) {
	var summary strings.Builder
	for _, mc := range mutCollectives() {
		n := 3
		final, err := passes.Lower(mc.build(n).IR())
		require.NoError(t, err)
		var invs []*ir.EvalStmt
		peerWrites := false
		for _, fn := range final.Functions {
			if fn.Kind != ir.InCore {
				continue
			}
			ir.WalkStmt(fn.Body, func(e ir.Expr) {
				if c, ok := e.(*ir.Call); ok && c.Op != nil {
					for i, eff := range ir.CallEffects(c) {
						if spec := c.Op.ArgSpecAt(i); eff.Writes() && spec.Peer && !spec.Signal {
							peerWrites = true
						}
					}
				}
			}, func(s ir.Stmt) {
				if ev, ok := s.(*ir.EvalStmt); ok {
					if c := ir.StmtCall(ev); c != nil && c.Op == ir.SystemCacheinvalid {
						invs = append(invs, ev)
					}
				}
			})
		}
		require.NotEmpty(t, invs, mc.name)
		caught, noPeer, covered := 0, 0, 0
		seq := &invSeq{ev: map[int][]invEvent{}}
		_, err = runtime.NewSimulator().Run(context.Background(), final, mc.args(n), runtime.RunOptions{Ranks: n, Relaxed: true, Observer: seq})
		require.NoError(t, err)
		for _, inv := range invs {
			c := ir.StmtCall(inv)
			_, rep, err := checker.Run(context.Background(), without(final, inv), mc.args(n), checker.Options{Ranks: n, Relaxed: true, Watchdog: 20 * time.Second})
			require.NoError(t, err)
			if wf := weakFindings(rep); len(wf) > 0 {
				caught++
				for _, f := range wf {
					require.Equal(t, checker.KindStaleRead, f.Kind, "%s: removing an invalidation can only make reads stale", mc.name)
				}
				continue
			}
			switch {
			case !peerWrites && len(c.Args) == 0:
				noPeer++
			case seq.coveredAfter(c):
				covered++
			default:
				t.Errorf("%s: removing the invalidation at %s (%d args) is not caught, and no later invalidation covers the read after it", mc.name, c.Pos, len(c.Args))
			}
		}
		fmt.Fprintf(&summary, "%s P=%d: %d invalidations: %d removals caught; redundant under the model: %d (no peer writes into a window), %d (a later invalidation drops the peers' bytes before they are read)\n",
			mc.name, n, len(invs), caught, noPeer, covered)
	}
	t.Logf("\n%s", summary.String())
}

// invSeq records, per rank, the invalidations, the reads of the rank's
// own window and the peers' writes into it, of a relaxed run, in order.
type invSeq struct {
	mu sync.Mutex
	ev map[int][]invEvent
}

type invEvent struct {
	kind   int      // invRead, invWrite (a peer's, into this rank's window) or invInvalidate
	inv    *ir.Call // the invalidation
	whole  bool
	buffer string
	ranges []runtime.ByteRange
}

const (
	invRead = iota
	invWrite
	invInvalidate
)

func (q *invSeq) add(rank int, e invEvent) {
	q.mu.Lock()
	q.ev[rank] = append(q.ev[rank], e)
	q.mu.Unlock()
}

func (q *invSeq) Access(a runtime.Access) {
	if a.Kind == runtime.Read && a.Rank == a.Target && a.Rank >= 0 {
		q.add(a.Rank, invEvent{kind: invRead, buffer: a.Buffer, ranges: a.Ranges})
	}
}
func (q *invSeq) Notify(runtime.Notification) {}
func (q *invSeq) Wait(runtime.WaitResult)     {}
func (q *invSeq) End(runtime.RunEnd)          {}
func (q *invSeq) Relaxed(e runtime.RelaxedEvent) {
	switch {
	case e.Kind == runtime.RelaxedInvalidate && e.Call != nil:
		q.add(e.Rank, invEvent{kind: invInvalidate, inv: e.Call, whole: e.Buffer == "", buffer: e.Buffer, ranges: e.Ranges})
	case e.Kind == runtime.RelaxedBuffered && e.Target != e.Rank:
		q.add(e.Target, invEvent{kind: invWrite, buffer: e.Buffer, ranges: e.Ranges})
	}
}

// coveredAfter reports whether, each time invalidation c ran, the bytes
// peers had written into the rank's window before it are not read again
// before another whole invalidation (or a region one of them) drops them.
func (q *invSeq) coveredAfter(c *ir.Call) bool {
	for _, evs := range q.ev {
		dirty := map[string][]runtime.ByteRange{}
		for i, e := range evs {
			switch e.kind {
			case invWrite:
				dirty[e.buffer] = append(dirty[e.buffer], e.ranges...)
				continue
			case invRead:
				continue
			}
			if e.inv != c {
				if e.whole {
					dirty = map[string][]runtime.ByteRange{}
				}
				continue
			}
			left := map[string][]runtime.ByteRange{}
			for b, rs := range dirty {
				left[b] = append([]runtime.ByteRange(nil), rs...)
			}
		scan:
			for _, next := range evs[i+1:] {
				switch {
				case next.kind == invRead:
					for _, r := range next.ranges {
						for _, d := range left[next.buffer] {
							if r.Lo < d.Hi && d.Lo < r.Hi {
								return false
							}
						}
					}
				case next.kind == invInvalidate && next.inv != c && next.whole:
					break scan
				case next.kind == invInvalidate && next.inv != c:
					for _, x := range next.ranges {
						var keep []runtime.ByteRange
						for _, d := range left[next.buffer] {
							if d.Hi <= x.Lo || d.Lo >= x.Hi {
								keep = append(keep, d)
								continue
							}
							if d.Lo < x.Lo {
								keep = append(keep, runtime.ByteRange{Lo: d.Lo, Hi: x.Lo})
							}
							if d.Hi > x.Hi {
								keep = append(keep, runtime.ByteRange{Lo: x.Hi, Hi: d.Hi})
							}
						}
						left[next.buffer] = keep
					}
				}
			}
		}
	}
	return true
}
