package checker

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/stretchr/testify/require"
)

// A second toy system for the conditional independence of waits and
// credits (verify_cond.go): ranks notify signal cells (AtomicAdd, Set),
// wait on and test their own cells, read and write data and cells plainly,
// and make visibility choices; every run feeds the real protocol checker.
// The reduction must give the same set of outcomes (final state together
// with the checker's findings) as full enumeration.

var (
	condPrograms = flag.Int("dpor.programs", 400, "random programs TestDPORWithConditionalIndependence compares with full enumeration")
	condSeed     = flag.Int64("dpor.seed", 2205, "the seed of those programs")
)

// sigOp is one operation of a sigToy rank.
type sigOp struct {
	kind string // w r vis | nadd nset nwait ntest | cread cwrite
	v    int    // data variable or cell
	val  int32
	cmp  string // nwait, ntest
	uns  bool
}

// sigToy is a program: each rank's operations; cell c belongs to rank c/3.
type sigToy struct {
	ranks  [][]sigOp
	calls  [][]*ir.Call
	events [][]runtime.SyncEvent
}

func cellOwner(c int) int { return c / 3 }

func (p *sigToy) String() string {
	var b strings.Builder
	for r, ops := range p.ranks {
		fmt.Fprintf(&b, "rank %d:", r)
		for _, op := range ops {
			switch op.kind {
			case "nwait", "ntest":
				u := ""
				if op.uns {
					u = "u"
				}
				fmt.Fprintf(&b, " %s(c%d %s%s %d)", op.kind, op.v, op.cmp, u, op.val)
			case "w", "r", "vis":
				fmt.Fprintf(&b, " %s(x%d %d)", op.kind, op.v, op.val)
			default:
				fmt.Fprintf(&b, " %s(c%d %d)", op.kind, op.v, op.val)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func (p *sigToy) finish() *sigToy {
	p.calls = make([][]*ir.Call, len(p.ranks))
	p.events = make([][]runtime.SyncEvent, len(p.ranks))
	line := 1
	for r, ops := range p.ranks {
		for _, op := range ops {
			p.events[r] = append(p.events[r], op.event(r))
			c := &ir.Call{Pos: ir.Span{File: "toy.py", Line: line, Col: 1}}
			switch op.kind {
			case "nadd", "nset":
				c.Op = ir.TileCommNotify
			case "nwait":
				c.Op = ir.TileCommWait
			case "ntest":
				c.Op = ir.TileCommTest
			}
			p.calls[r] = append(p.calls[r], c)
			line++
		}
	}
	return p
}

func cellLocOf(c int, write bool) runtime.Loc {
	return runtime.Loc{Rank: cellOwner(c), Buf: 100, Lo: 4 * c, Hi: 4*c + 4, Write: write}
}

func (op sigOp) event(rank int) runtime.SyncEvent {
	ev := runtime.SyncEvent{Rank: rank, Op: op.kind}
	data := func(write bool) []runtime.Loc { return []runtime.Loc{{Rank: 0, Buf: op.v, Lo: 0, Hi: 1, Write: write}} }
	cond := runtime.Cond{Cmp: op.cmp, Value: int64(op.val), Unsigned: op.uns}
	switch op.kind {
	case "w", "vis":
		ev.Kind, ev.Locs = runtime.EvWrite, data(true)
	case "r":
		ev.Kind, ev.Locs = runtime.EvRead, data(false)
	case "nadd", "nset":
		kind := runtime.NotifyAtomicAdd
		if op.kind == "nset" {
			kind = runtime.NotifySet
		}
		l := cellLocOf(op.v, true)
		l.Add = kind == runtime.NotifyAtomicAdd
		ev.Kind, ev.Locs, ev.Signal = runtime.EvNotify, []runtime.Loc{l}, &runtime.SignalOp{Kind: kind, Value: op.val}
	case "nwait":
		ev.Kind, ev.Locs, ev.Signal = runtime.EvWait, []runtime.Loc{cellLocOf(op.v, false)}, &runtime.SignalOp{Cond: cond}
	case "ntest":
		ev.Kind, ev.Locs, ev.Signal = runtime.EvTest, []runtime.Loc{cellLocOf(op.v, false)}, &runtime.SignalOp{Cond: cond}
	case "cread":
		ev.Kind, ev.Locs = runtime.EvRead, []runtime.Loc{cellLocOf(op.v, false)}
	case "cwrite":
		ev.Kind, ev.Locs = runtime.EvWrite, []runtime.Loc{cellLocOf(op.v, true)}
	}
	return ev
}

func (op sigOp) cond() runtime.Cond {
	return runtime.Cond{Cmp: op.cmp, Value: int64(op.val), Unsigned: op.uns}
}

// run executes the program under ch with a checker attached and returns
// its outcome: the final state and the checker's findings.
func (p *sigToy) run(ch runtime.Chooser, check bool) (outcome string, pruned bool) {
	n := len(p.ranks)
	vars := make([]int32, 3)
	cells := make([]int32, 3*n)
	count := make([]int, 3*n)
	pc := make([]int, n)
	regs := make([][]int32, n)
	c := New(n)
	if !check {
		c = nil
	}
	cellOf := func(v int) runtime.Cell {
		return runtime.Cell{Rank: cellOwner(v), Buffer: "sig", Offset: 4 * v, Index: []int{v}}
	}
	var end error
	for step := 0; ; step++ {
		cp := &runtime.ChoicePoint{Kind: runtime.ChooseRank, Step: step}
		anyEnabled := false
		for r, ops := range p.ranks {
			if pc[r] >= len(ops) {
				continue
			}
			op := ops[pc[r]]
			en := op.kind != "nwait" || op.cond().Holds(cells[op.v])
			anyEnabled = anyEnabled || en
			cp.Pending = append(cp.Pending, runtime.Pending{Rank: r, Enabled: en, Event: p.events[r][pc[r]]})
		}
		if len(cp.Pending) == 0 {
			break
		}
		if !anyEnabled {
			if so, ok := ch.(runtime.StuckObserver); ok {
				so.Stuck(cp)
			}
			dl := &runtime.DeadlockError{}
			for _, pe := range cp.Pending {
				op := p.ranks[pe.Rank][pc[pe.Rank]]
				cl := cellOf(op.v)
				dl.Blocked = append(dl.Blocked, runtime.BlockedRank{Rank: pe.Rank, Op: "nwait", Cell: cl.String(), Value: int64(cells[op.v]), Want: op.cond().String(), Cond: op.cond(), Func: "toy"})
			}
			end = dl
			break
		}
		i := ch.Choose(cp)
		if i < 0 {
			return "", true
		}
		r := cp.Pending[i].Rank
		op := p.ranks[r][pc[r]]
		org := runtime.Origin{Call: p.calls[r][pc[r]], Func: "toy"}
		pc[r]++
		data := func(kind runtime.AccessKind) {
			if c == nil {
				return
			}
			c.Access(runtime.Access{Rank: r, Target: 0, Origin: org, Buffer: fmt.Sprintf("x%d", op.v), Ranges: []runtime.ByteRange{{Lo: 0, Hi: 4}}, Kind: kind})
		}
		switch op.kind {
		case "w":
			vars[op.v] = op.val
			data(runtime.Write)
		case "r":
			regs[r] = append(regs[r], vars[op.v])
			data(runtime.Read)
		case "vis":
			vars[op.v] = int32(ch.Choose(&runtime.ChoicePoint{Kind: runtime.ChooseVisibility, Rank: r, N: int(op.val), What: "toy"}))
			data(runtime.Write)
		case "nadd", "nset":
			old := cells[op.v]
			kind := runtime.NotifyAtomicAdd
			if op.kind == "nset" {
				kind = runtime.NotifySet
				cells[op.v] = op.val
			} else {
				cells[op.v] += op.val
			}
			if c != nil {
				c.Notify(runtime.Notification{Rank: r, Origin: org, Cell: cellOf(op.v), Kind: kind, Value: op.val, Old: old, New: cells[op.v], Seq: count[op.v]})
			}
			count[op.v]++
		case "nwait", "ntest":
			ok := op.cond().Holds(cells[op.v])
			if op.kind == "ntest" {
				b := int32(0)
				if ok {
					b = 1
				}
				regs[r] = append(regs[r], b)
			}
			if c == nil {
				break
			}
			c.Wait(runtime.WaitResult{Rank: r, Origin: org, Cell: cellOf(op.v), Value: cells[op.v], Satisfied: ok, Observed: count[op.v], Cond: op.cond()})
		case "cread":
			regs[r] = append(regs[r], cells[op.v])
			if c == nil {
				break
			}
			c.Access(runtime.Access{Rank: r, Target: cellOwner(op.v), Origin: org, Buffer: "sig", Ranges: []runtime.ByteRange{{Lo: 4 * op.v, Hi: 4*op.v + 4}}, Kind: runtime.Read})
		case "cwrite":
			cells[op.v] = op.val
			if c == nil {
				break
			}
			c.Access(runtime.Access{Rank: r, Target: cellOwner(op.v), Origin: org, Buffer: "sig", Ranges: []runtime.ByteRange{{Lo: 4 * op.v, Hi: 4*op.v + 4}}, Kind: runtime.Write})
		}
	}
	state := fmt.Sprintf("pc=%v vars=%v cells=%v regs=%v", pc, vars, cells, regs)
	if end != nil {
		state = "deadlock " + state
	}
	if c == nil {
		return state, false
	}
	var sigs []runtime.SignalCell
	for v, x := range cells {
		if count[v] > 0 {
			sigs = append(sigs, runtime.SignalCell{Rank: cellOwner(v), Buffer: "sig", Offset: []int{v}, ByteOffset: 4 * v, Value: int64(x), Notifies: count[v]})
		}
	}
	c.End(runtime.RunEnd{Signals: sigs, Err: end})
	var fs []string
	for _, f := range c.Report().Findings {
		fs = append(fs, string(f.Kind)+" "+f.key)
	}
	sort.Strings(fs)
	return state + " | " + strings.Join(fs, "; "), false
}

// sigOutcomes explores p and returns its set of outcomes; ok is false when
// the budget ran out.
func sigOutcomes(t *testing.T, p *sigToy, reduce, check bool, budget int) (map[string]bool, dporStats, bool) {
	t.Helper()
	out := map[string]bool{}
	var last string
	var wasPruned bool
	st, err := explore(context.Background(), reduce, budget, func(ch runtime.Chooser) {
		last, wasPruned = p.run(ch, check)
	}, func(*dchooser) bool {
		require.False(t, wasPruned)
		out[last] = true
		return false
	})
	require.NoError(t, err)
	return out, st, st.Done
}

// creditBarriers builds a credit-barrier program: rounds of "credit every
// peer, wait for the round's count from each", data staged before and read
// after, the owner's self-clearing negative adds at the end, then random
// mutations (an Eq or unsigned wait, a test, a Set, a reused or shared
// cell, a plain cell access, a dropped or moved op, a stray credit).
func creditBarriers(rng *rand.Rand) *sigToy {
	n := 2 + rng.Intn(2)
	rounds := 1 + rng.Intn(2)
	if n == 3 {
		rounds = 1
	}
	shared := rng.Intn(4) == 0 // one cell per owner, every peer credits it
	cell := func(owner, giver int) int {
		if shared {
			return 3 * owner
		}
		s := giver
		if giver > owner {
			s--
		}
		return 3*owner + s
	}
	p := &sigToy{ranks: make([][]sigOp, n)}
	for me := 0; me < n; me++ {
		var ops []sigOp
		if rng.Intn(2) == 0 {
			ops = append(ops, sigOp{kind: "w", v: me % 3, val: int32(1 + me)})
		}
		for g := 1; g <= rounds; g++ {
			if g > 1 && rng.Intn(2) == 0 {
				ops = append(ops, sigOp{kind: "w", v: me % 3, val: int32(10*g + me)})
			}
			for q := 0; q < n; q++ {
				if q != me {
					ops = append(ops, sigOp{kind: "nadd", v: cell(q, me), val: 1})
				}
			}
			for q := 0; q < n; q++ {
				if q == me {
					continue
				}
				want := int32(g)
				if shared {
					want = int32(g * (n - 1))
				}
				ops = append(ops, sigOp{kind: "nwait", v: cell(me, q), cmp: "ge", val: want})
				if shared {
					break
				}
			}
			if g < rounds && rng.Intn(2) == 0 {
				ops = append(ops, sigOp{kind: "r", v: (me + 1) % n % 3})
			}
		}
		if rng.Intn(2) == 0 {
			ops = append(ops, sigOp{kind: "r", v: (me + 1) % n % 3})
		}
		for q := 0; q < n; q++ {
			if q == me || (shared && q != (me+1)%n) {
				continue
			}
			k := int32(rounds)
			if shared {
				k = int32(rounds * (n - 1))
			}
			ops = append(ops, sigOp{kind: "nadd", v: cell(me, q), val: -k})
		}
		p.ranks[me] = ops
	}
	for m := rng.Intn(3); m > 0; m-- {
		r := rng.Intn(n)
		ops := p.ranks[r]
		i := rng.Intn(len(ops))
		own := 3*r + rng.Intn(2)
		switch rng.Intn(10) {
		case 0: // an Eq, Gt or unsigned wait
			if ops[i].kind == "nwait" {
				ops[i].cmp = []string{"eq", "gt", "ge", "ne"}[rng.Intn(4)]
				if ops[i].cmp == "gt" {
					ops[i].val--
				}
				ops[i].uns = rng.Intn(3) == 0
			}
		case 1: // a test the program records
			ops = insertOp(ops, i, sigOp{kind: "ntest", v: own, cmp: "ge", val: int32(1 + rng.Intn(2))})
		case 2: // a Set
			ops = insertOp(ops, i, sigOp{kind: "nset", v: rng.Intn(3 * n), val: int32(rng.Intn(2))})
		case 3: // drop an op
			ops = append(ops[:i:i], ops[i+1:]...)
		case 4: // move an op one place
			if i+1 < len(ops) {
				ops[i], ops[i+1] = ops[i+1], ops[i]
			}
		case 5: // a stray credit to some cell
			ops = insertOp(ops, i, sigOp{kind: "nadd", v: rng.Intn(3 * n), val: int32(1 + rng.Intn(2))})
		case 6: // a plain read or write of a cell
			if rng.Intn(2) == 0 {
				ops = insertOp(ops, i, sigOp{kind: "cread", v: rng.Intn(3 * n)})
			} else {
				ops = insertOp(ops, i, sigOp{kind: "cwrite", v: rng.Intn(3 * n), val: int32(rng.Intn(2))})
			}
		case 7: // a wait reusing a threshold (a stale barrier)
			ops = insertOp(ops, i, sigOp{kind: "nwait", v: own, cmp: "ge", val: 1})
		case 8: // data
			ops = insertOp(ops, i, sigOp{kind: []string{"w", "r", "vis"}[rng.Intn(3)], v: rng.Intn(3), val: int32(1 + rng.Intn(2))})
		case 9: // a credit of two
			if ops[i].kind == "nadd" && ops[i].val > 0 {
				ops[i].val = 2
			}
		}
		p.ranks[r] = ops
	}
	return p.finish()
}

func insertOp(ops []sigOp, i int, op sigOp) []sigOp {
	return append(ops[:i:i], append([]sigOp{op}, ops[i:]...)...)
}

// randomSig builds a program of random signal and data operations.
func randomSig(rng *rand.Rand) *sigToy {
	n := 2 + rng.Intn(2)
	p := &sigToy{ranks: make([][]sigOp, n)}
	for r := range p.ranks {
		for k := 1 + rng.Intn(4); k > 0; k-- {
			own := 3*r + rng.Intn(2)
			cl := rng.Intn(2*n) / 2 * 3 // a peer's first cell, or its second
			if rng.Intn(2) == 0 {
				cl++
			}
			var op sigOp
			switch rng.Intn(12) {
			case 0, 1, 2:
				op = sigOp{kind: "nadd", v: cl, val: []int32{1, 1, 2, -1}[rng.Intn(4)]}
			case 3:
				op = sigOp{kind: "nset", v: cl, val: int32(rng.Intn(3))}
			case 4, 5, 6:
				op = sigOp{kind: "nwait", v: own, cmp: []string{"ge", "ge", "gt", "eq", "ne", "le"}[rng.Intn(6)], val: int32(rng.Intn(3)), uns: rng.Intn(6) == 0}
			case 7:
				op = sigOp{kind: "ntest", v: own, cmp: []string{"ge", "eq"}[rng.Intn(2)], val: int32(1 + rng.Intn(2))}
			case 8:
				op = sigOp{kind: []string{"cread", "cwrite"}[rng.Intn(2)], v: cl, val: int32(rng.Intn(2))}
			case 9, 10:
				op = sigOp{kind: []string{"w", "r"}[rng.Intn(2)], v: rng.Intn(2), val: int32(1 + rng.Intn(2))}
			case 11:
				op = sigOp{kind: "vis", v: rng.Intn(2), val: 2}
			}
			p.ranks[r] = append(p.ranks[r], op)
		}
	}
	return p.finish()
}

// handoffs builds programs of producers (stage data, credit a peer's cell)
// and consumers (wait on an own cell, read data), with clears, tests and
// Sets: several ranks crediting one cell, waits that need one credit of
// several, reads the credits they did not need cannot order.
func handoffs(rng *rand.Rand) *sigToy {
	n := 2 + rng.Intn(2)
	if rng.Intn(8) == 0 {
		n = 4
	}
	p := &sigToy{ranks: make([][]sigOp, n)}
	total := 0
	for r := range p.ranks {
		for k := 1 + rng.Intn(2); k > 0 && total < 10; k-- {
			own := 3*r + rng.Intn(2)
			peer := (r + 1 + rng.Intn(n-1)) % n
			cl := 3*peer + rng.Intn(2)
			x := rng.Intn(3)
			var ops []sigOp
			switch rng.Intn(9) {
			case 0, 1, 2: // stage, credit; perhaps again on the same cell
				for rep := 1 + rng.Intn(2); rep > 0; rep-- {
					ops = append(ops, sigOp{kind: "w", v: x, val: int32(1 + r + rep)}, sigOp{kind: "nadd", v: cl, val: 1 + int32(rng.Intn(4)/3)})
				}
			case 3, 4, 5:
				ops = []sigOp{{kind: "nwait", v: own, cmp: []string{"ge", "ge", "ge", "gt", "eq"}[rng.Intn(5)], val: 1 + int32(rng.Intn(2))}, {kind: "r", v: x}}
			case 6:
				ops = []sigOp{{kind: "nadd", v: own, val: -1}}
			case 7:
				ops = []sigOp{{kind: "ntest", v: own, cmp: "ge", val: 1}}
			case 8:
				ops = []sigOp{{kind: "nset", v: []int{own, cl}[rng.Intn(2)], val: int32(rng.Intn(2))}}
			}
			p.ranks[r] = append(p.ranks[r], ops...)
			total += len(ops)
		}
	}
	return p.finish()
}

// The reduction with conditional independence is sound: on hundreds of
// random credit-barrier and signal programs it reaches exactly the outcomes
// (final states, deadlocks included, each with the checker's findings:
// races, stale and overtaken signals, mixed Set/AtomicAdd, cells left
// non-zero) that full enumeration reaches.
func TestDPORWithConditionalIndependenceKeepsStatesAndFindings(t *testing.T) {
	rng := rand.New(rand.NewSource(*condSeed))
	compared, fewer, skipped := 0, 0, 0
	var fullRuns, redRuns int
	kinds := map[string]bool{}
	for i := 0; compared < *condPrograms; i++ {
		var p *sigToy
		switch i % 3 {
		case 0:
			p = creditBarriers(rng)
		case 1:
			p = handoffs(rng)
		default:
			p = randomSig(rng)
		}
		if _, _, ok := sigOutcomes(t, p, false, false, 3000); !ok {
			skipped++ // too many schedules to enumerate with the checker
			continue
		}
		full, fst, ok := sigOutcomes(t, p, false, true, 3000)
		if !ok {
			skipped++
			continue
		}
		red, rst, ok := sigOutcomes(t, p, true, true, 3000)
		require.True(t, ok)
		require.Equal(t, keys(full), keys(red), "program %d:\n%s", i, p)
		require.LessOrEqual(t, rst.Complete, fst.Complete, "program %d", i)
		compared++
		fullRuns += fst.Complete
		redRuns += rst.Runs
		if rst.Complete < fst.Complete {
			fewer++
		}
		for o := range full {
			for _, f := range strings.Split(strings.SplitN(o, " | ", 2)[1], "; ") {
				kinds[strings.SplitN(f, " ", 2)[0]] = true
			}
		}
	}
	t.Logf("%d programs compared (%d skipped as too large), %d with fewer schedules; %d schedules in full, %d runs reduced; finding kinds seen: %v", compared, skipped, fewer, fullRuns, redRuns, keys(kinds))
	require.Greater(t, fewer, *condPrograms/2)
	for _, k := range []Kind{KindRace, KindStaleSignal, KindOvertaken, KindMixedSetAdd, KindSignalLeft} {
		require.True(t, kinds[string(k)], "no program showed a %s finding", k)
	}
}

func TestZZProg(t *testing.T) {
	p := (&sigToy{ranks: [][]sigOp{
		{{kind: "ntest", v: 1, cmp: "ge", val: 1}, {kind: "w", v: 0, val: 1}, {kind: "nadd", v: 3, val: 1}},
		{{kind: "nwait", v: 3, cmp: "ge", val: 1}, {kind: "r", v: 0}, {kind: "nadd", v: 3, val: -1}},
		{{kind: "w", v: 0, val: 3}, {kind: "nadd", v: 3, val: 1}},
	}}).finish()
	var last string
	rec := &recChooser{}
	st, err := explore(context.Background(), true, 3000, func(ch runtime.Chooser) {
		rec.inner, rec.trace = ch, nil
		last, _ = p.run(rec, true)
		fmt.Println(rec.trace, "=>", last)
	}, func(*dchooser) bool { return false })
	fmt.Println(st, err)
}

type recChooser struct {
	inner runtime.Chooser
	trace []int
}

func (r *recChooser) Choose(cp *runtime.ChoicePoint) int {
	i := r.inner.Choose(cp)
	if i >= 0 && cp.Kind == runtime.ChooseRank {
		r.trace = append(r.trace, cp.Pending[i].Rank)
	}
	return i
}
func (r *recChooser) Stuck(cp *runtime.ChoicePoint) {
	if so, ok := r.inner.(runtime.StuckObserver); ok {
		so.Stuck(cp)
	}
}

// Small programs, one mechanism each: the outcomes (state and findings)
// with and without the reduction, and how many schedules each explores.
func TestDPORConditionalExamples(t *testing.T) {
	add := func(c int, v int32) sigOp { return sigOp{kind: "nadd", v: c, val: v} }
	set := func(c int, v int32) sigOp { return sigOp{kind: "nset", v: c, val: v} }
	ge := func(c int, v int32) sigOp { return sigOp{kind: "nwait", v: c, cmp: "ge", val: v} }
	eq := func(c int, v int32) sigOp { return sigOp{kind: "nwait", v: c, cmp: "eq", val: v} }
	w := func(x int, v int32) sigOp { return sigOp{kind: "w", v: x, val: v} }
	r := func(x int) sigOp { return sigOp{kind: "r", v: x} }
	for _, tc := range []struct {
		name          string
		p             [][]sigOp
		full, reduced int
		outcomes      int
	}{
		// A credit barrier used twice on the same cells, then cleared:
		// waits commute with the credits of the next round they do not
		// need, so one schedule stands for all.
		{"two rounds", [][]sigOp{
			{add(3, 1), ge(0, 1), add(3, 1), ge(0, 2), add(0, -2)},
			{add(0, 1), ge(3, 1), add(0, 1), ge(3, 2), add(3, -2)},
		}, 72, 1, 1},
		// Either of two credits: when the wait needed rank 1's, the read
		// races rank 2's staging.
		{"either credit", [][]sigOp{
			{ge(0, 1), r(1)},
			{add(0, 1)},
			{w(1, 5), add(0, 1)},
		}, 12, 8, 3},
		// Both credits before the wait: it synchronises with both (which
		// one it needed depends on how the two adds interleaved).
		{"both credits", [][]sigOp{
			{ge(0, 1), r(1), r(2)},
			{w(1, 1), add(0, 1)},
			{w(2, 2), add(0, 1)},
		}, 36, 16, 5},
		// The giver stages again between two credits: the wait needs the
		// first only, so the read races the second staging.
		{"second staging", [][]sigOp{
			{ge(0, 1), r(1)},
			{w(1, 1), add(0, 1), w(1, 2), add(0, 1)},
		}, 6, 2, 2},
		// A credit taken back: a negative add is no credit.
		{"take back", [][]sigOp{
			{ge(0, 1), r(1)},
			{w(1, 1), add(0, 1), add(0, -1)},
		}, 3, 2, 2},
		// A peer takes a credit back after the wait: it overtakes the wait,
		// which in its earliest schedule saw 1, whatever it saw here (the
		// test tells the schedules where both credits came first).
		{"peer takes back", [][]sigOp{
			{ge(0, 1), {kind: "ntest", v: 0, cmp: "ge", val: 2}},
			{add(0, 1), add(0, 1)},
			{add(0, -1)},
		}, 11, 6, 3},
		// A plain write resets the cell: the wait after it needs the next
		// credit.
		{"plain write", [][]sigOp{
			{ge(0, 1), r(1)},
			{w(1, 1), add(0, 1), {kind: "cwrite", v: 0}, w(1, 2), add(0, 1)},
		}, 5, 4, 3},
		// A Set starts a new epoch the same way.
		{"set epoch", [][]sigOp{
			{ge(0, 1), r(1)},
			{w(1, 1), add(0, 1), set(0, 0), w(1, 2), add(0, 1)},
		}, 5, 4, 3},
		// An Eq wait, then a Ge wait: the second credit cannot move past
		// the Eq wait, which it overtakes, and the Ge wait is stale.
		{"eq then ge", [][]sigOp{
			{eq(0, 1), ge(0, 1)},
			{add(0, 1), add(0, 1)},
		}, 3, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := (&sigToy{ranks: tc.p}).finish()
			full, fst, ok := sigOutcomes(t, p, false, true, 10000)
			require.True(t, ok)
			red, rst, ok := sigOutcomes(t, p, true, true, 10000)
			require.True(t, ok)
			require.Equal(t, keys(full), keys(red))
			require.Equal(t, tc.outcomes, len(full), strings.Join(keys(full), "\n"))
			require.Equal(t, tc.full, fst.Complete, "full")
			require.Equal(t, tc.reduced, rst.Complete, "reduced")
		})
	}
}
