package runtime_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
)

// The corpus the executor's tests run (cexec_golden_test.go records its
// results at every stage of the pass pipeline; the tree-walking executor
// they once were compared with ran device code until the compiled one
// matched it bit for bit, and was then retired for device code).

// diffCase builds one corpus program for n ranks.
type diffCase struct {
	name     string
	prog     func(n int) *pl.Program
	minRanks int
}

// compile compiles c at n ranks and gives its seeded host arguments and
// the run options every differential test uses.
func (c diffCase) compile(t *testing.T, n int) (*pl.Compiled, []*tensor.Tensor, runtime.RunOptions) {
	t.Helper()
	prog := c.prog(n)
	comp, err := pl.TryCompile(prog, pl.Ranks(n))
	if err != nil {
		t.Fatalf("%s: the corpus program does not compile: %v", c.name, err)
	}
	args := hostArgs(t, prog.IR(), n, int64(7*n+1))
	return comp, args, runtime.RunOptions{Ranks: n, Watchdog: 20 * time.Second, MaxEvents: -1}
}

// eachCorpusRun runs body as a subtest for every corpus program at P = 2,
// 3, 4, 8 (2 and 3 with -short).
func eachCorpusRun(t *testing.T, body func(t *testing.T, comp *pl.Compiled, args []*tensor.Tensor, o runtime.RunOptions)) {
	ranks := []int{2, 3, 4, 8}
	if testing.Short() {
		ranks = []int{2, 3}
	}
	for _, c := range diffCorpus() {
		for _, n := range ranks {
			if n < c.minRanks {
				continue
			}
			t.Run(fmt.Sprintf("%s/P=%d", c.name, n), func(t *testing.T) {
				comp, args, o := c.compile(t, n)
				body(t, comp, args, o)
			})
		}
	}
}

func diffCorpus() []diffCase {
	fixed := func(p *pl.Program) func(int) *pl.Program { return func(int) *pl.Program { return p } }
	cases := []diffCase{
		{name: "rank", prog: fixed(testprogs.RankProgram(false))},
		{name: "rank-model", prog: fixed(testprogs.RankProgram(true))},
		{name: "window", prog: fixed(testprogs.WindowProgram())},
		{name: "barrier-hand", prog: fixed(testprogs.BarrierHandProgram())},
		{name: "barrier-builtin", prog: fixed(testprogs.BarrierBuiltinProgram())},
		{name: "quickstart", prog: fixed(testprogs.Quickstart())},
		{name: "tag-set", prog: fixed(testprogs.TagProgram(true))},
		{name: "tag-add", prog: fixed(testprogs.TagProgram(false))},
		{name: "host-rail-mesh", prog: fixed(testprogs.HostAllReduceLoop(3))},
		{name: "host-rail-ring", prog: fixed(testprogs.HostAllReduceLoopMode(3, "ring"))},
		{name: "host-rail-subsets", prog: fixed(testprogs.HostAllReduceSubsets()), minRanks: 4},
		{name: "tile-put", prog: fixed(tileRing(true, false))},
		{name: "tile-get-region", prog: fixed(tileRing(false, true))},
		{name: "tile-allreduce-fp16", prog: fixed(tileAllReduce(100, 32))},
		{name: "big-allreduce", prog: fixed(bigAllReduce(1000, pld.Sum))},
		{name: "get-region", prog: fixed(getRegion(5, 7))},
		{name: "broadcast", prog: func(n int) *pl.Program {
			return collProgramN("BC", 1, n, func(f *pl.Func, x, data, sig pl.Expr) {
				stage(f, x, data, 1)
				f.Set(data, pld.Broadcast(data, sig, 1))
			})
		}},
		{name: "allgather", prog: func(n int) *pl.Program {
			return collProgramN("AG", 1, n, func(f *pl.Func, x, data, sig pl.Expr) { f.Set(data, pld.AllGather(x, data, sig)) })
		}},
		{name: "all_to_all", prog: func(n int) *pl.Program {
			return collProgramN("A2A", n, n, func(f *pl.Func, x, data, sig pl.Expr) { f.Set(data, pld.AllToAll(x, data, sig)) })
		}},
		{name: "all_to_all_v", prog: func(n int) *pl.Program { return testprogs.AllToAllV(n, 3) }},
		{name: "reduce_scatter", prog: func(n int) *pl.Program {
			return collProgramN("RS", n, n, func(f *pl.Func, x, data, sig pl.Expr) {
				stage(f, x, data, n)
				f.Set(data, pld.ReduceScatter(data, sig))
			})
		}},
	}
	for _, m := range []string{"put", "get"} {
		m := m
		cases = append(cases, diffCase{name: "ring-" + m, prog: fixed(testprogs.RingProgram(m))})
	}
	for _, op := range []ir.ReduceOp{pld.Sum, pld.Max, pld.Min, pld.Prod} {
		for _, mode := range []string{"mesh", "ring"} {
			op, mode := op, mode
			cases = append(cases, diffCase{name: fmt.Sprintf("allreduce-%s-%s", mode, op), prog: func(n int) *pl.Program {
				return allReduceMode(n, 100, pl.FP32, op, mode)
			}})
		}
	}
	cases = append(cases, diffCase{name: "allreduce-ring-fp16", prog: func(n int) *pl.Program { return allReduceMode(n, 77, pl.FP16, pld.Sum, "ring") }})
	return cases
}

// allReduceMode is one allreduce of a [1, size] target in mode, with the
// static signal shape the mode needs.
func allReduceMode(n, size int, dt pl.DataType, op ir.ReduceOp, mode string) *pl.Program {
	return testprogs.AllReduceWindowOf("AllReduceMode", n, size, dt, mode, op)
}

// hostArgs makes the host tensors of p for n ranks from its parameter
// types: inputs random (seeded), outputs zero; a dynamic dim is n.
func hostArgs(t *testing.T, p *ir.Program, n int, seed int64) []*tensor.Tensor {
	t.Helper()
	var host *ir.Function
	for _, f := range p.Functions {
		if f.IsHostOrchestrator() {
			host = f
		}
	}
	if host == nil {
		t.Fatalf("%s has no host orchestrator", p.Name)
	}
	var out []*tensor.Tensor
	for i, prm := range host.Params {
		dims, dt, ok := ir.ShapeOf(prm.Type())
		if !ok {
			t.Fatalf("%s: host parameter %s is not a tensor", p.Name, prm.Name)
		}
		shape := make([]int, len(dims))
		for k, d := range dims {
			if v, c := ir.ConstValue(d); c {
				shape[k] = int(v)
			} else {
				shape[k] = n
			}
		}
		if host.Direction(i) == ir.Out {
			out = append(out, tensor.Zeros(dt, shape...))
		} else {
			out = append(out, tensor.Randn(seed+int64(i), shape...).To(dt))
		}
	}
	return out
}

type diffRun struct {
	out  []*tensor.Tensor
	sigs map[string]int64
	err  error
}

func runWith(p *ir.Program, args []*tensor.Tensor, o runtime.RunOptions) diffRun {
	exe, err := runtime.NewSimulator().Load(p)
	if err != nil {
		return diffRun{err: err}
	}
	return runExe(exe, args, o)
}

// runExe runs a loaded program on copies of args.
func runExe(exe runtime.Executable, args []*tensor.Tensor, o runtime.RunOptions) diffRun {
	cp := make([]*tensor.Tensor, len(args))
	for i, a := range args {
		cp[i] = a.Clone()
	}
	res, err := exe.Run(context.Background(), cp, o)
	r := diffRun{out: cp, err: err, sigs: map[string]int64{}}
	if res != nil {
		for _, s := range res.Signals {
			r.sigs[fmt.Sprintf("%s@%d%v", s.Buffer, s.Rank, s.Offset)] = s.Value
		}
	}
	return r
}

// One protocol source: a collective run as the native op (the input
// program) and as its lowering (every later stage) gives the same bits.
func TestNativeCollectivesMatchLowering(t *testing.T) {
	eachCorpusRun(t, func(t *testing.T, comp *pl.Compiled, args []*tensor.Tensor, o runtime.RunOptions) {
		want := runWith(comp.Stages()[0].Program(), args, o)
		if want.err != nil {
			t.Fatal(want.err)
		}
		for _, s := range comp.Stages()[1:] {
			if !s.Changed {
				continue
			}
			got := runWith(s.Program(), args, o)
			if got.err != nil {
				t.Fatalf("%s: %v", s.Name, got.err)
			}
			for i := range want.out {
				if !bytes.Equal(want.out[i].Bytes(), got.out[i].Bytes()) {
					t.Errorf("%s: output %d differs from the input program's:\ninput %s\nstage %s", s.Name, i, want.out[i], got.out[i])
				}
			}
		}
	})
}
