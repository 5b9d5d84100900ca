package testprogs

import (
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
)

// The weak-memory corpus: small programs that are correct under sequential
// consistency (the simulator's default) and wrong on a device that
// reorders window traffic (docs/memory-model.md, rules 1–3). Each is
// modelled on a class of bug upstream PyPTO met on silicon; the
// descriptions are ours. Every program has one producer (rank 0) and one
// consumer (rank 1), and some a relay (rank 2), so each bug is met by one
// pair of statements on one pair of ranks; the other ranks do nothing.

// NamedProgram is a program of a test corpus with a one-line description.
type NamedProgram struct {
	Name string
	Desc string
	// MinRanks is the smallest world the program is meant for.
	MinRanks int
	Build    func() *pl.Program
}

// WeakCols is the row length of the weak-memory programs.
const WeakCols = 16

// Ranks of the weak-memory programs.
const (
	weakProducer = 0
	weakConsumer = 1
	weakRelay    = 2
)

// weakArgs are the kernel's parameters and its rank.
type weakArgs struct {
	x, y     pl.Expr // [1, 16] FP32 in and out (host tensors)
	data     pl.Expr // [NR, 16] FP32 window: row r is where rank r's data lands
	sig, ack pl.Expr // [NR, 1] INT32 signals: cell r is rank r's notify
	me       pl.Expr
}

// Rows and shapes the corpus spells inline, so that every finding points
// at the statement itself.
var (
	row     = pl.Dims(1, WeakCols)
	origin  = pl.Dims(0, 0)
	pRow    = pl.Dims(weakProducer, 0) // the producer's row (and cell)
	cRow    = pl.Dims(weakConsumer, 0)
	relayed = pl.Dims(weakRelay, 0)
)

// weakFrame builds a program whose kernel runs body on every rank, with
// the data window, the two signals and host glue shared by the corpus.
// A rank's y is what it received (zero on ranks without a part).
func weakFrame(name string, body func(f *pl.Func, a *weakArgs)) *pl.Program {
	const cols = WeakCols
	NR := pl.Dynamic("NR")
	prog := pl.NewProgram(name)
	k := prog.InCore("kernel", func(f *pl.Func) {
		a := &weakArgs{}
		a.x = f.In("x", pl.Tensor(pl.Dims(1, cols), pl.FP32))
		a.y = f.Out("y", pl.Tensor(pl.Dims(1, cols), pl.FP32))
		a.data = f.InOut("data", pld.DistributedTensor(pl.Dims(NR, cols), pl.FP32))
		a.sig = f.InOut("signal", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		a.ack = f.InOut("ack", pld.DistributedTensor(pl.Dims(NR, 1), pl.INT32))
		ctx := f.Let("ctx", pld.GetCommCtx(a.data))
		a.me = f.Let("my_rank", pld.Rank(ctx))
		body(f, a)
	})
	prog.Host("host", func(f *pl.Func) {
		x := f.In("x", pl.Tensor(pl.Dims(NR, 1, cols), pl.FP32))
		y := f.Out("y", pl.Tensor(pl.Dims(NR, 1, cols), pl.FP32))
		db := f.Let("data_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), cols*4)))
		sb := f.Let("signal_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		ab := f.Let("ack_buf", pld.AllocWindowBuffer(pl.Mul(pld.WorldSize(), 4)))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			data := f.Let("data", pld.Window(db, pl.Dims(pld.WorldSize(), cols), pl.FP32))
			sig := f.Let("signal", pld.Window(sb, pl.Dims(pld.WorldSize(), 1), pl.INT32))
			ack := f.Let("ack", pld.Window(ab, pl.Dims(pld.WorldSize(), 1), pl.INT32))
			f.Do(f.Dispatch(k, r, pl.Index(x, r), pl.Index(y, r), data, sig, ack))
		})
	})
	return prog
}

// on runs body on rank r only.
func on(f *pl.Func, a *weakArgs, r int, body func()) { f.If(pl.Eq(a.me, r), body) }

// giveBack subtracts n credits from the rank's own cell of sig that src
// notified, so every cell ends at zero (single-shot cells left at 1 would
// be a note under sequential consistency, and the corpus is silent there).
func giveBack(f *pl.Func, a *weakArgs, sig pl.Expr, src, n int) {
	f.Do(pld.Notify(sig, a.me, pl.Dims(src, 0), -n, pld.AtomicAdd))
}

// WeakMemoryBugs is the corpus: each program's Build gives a fresh program.
func WeakMemoryBugs() []NamedProgram {
	return []NamedProgram{
		{"StoreThenNotify", "remote_store into the consumer, then notify it with no fence between: the signal can arrive before the data", 2, weakStoreThenNotify},
		{"CreditThenStore", "wait for the consumer's free-slot credit, remote_store, notify: the store after the wait is never fenced", 2, weakCreditThenStore},
		{"FenceAfterNotify", "the fence is there but after the notify, so it orders nothing the consumer relies on", 2, weakFenceAfterNotify},
		{"PutThenNotify", "a tensor put of a row into the consumer, then notify with no fence", 2, weakPutThenNotify},
		{"AtomicThenNotify", "accumulate (remote_store with atomic add) into the consumer, then notify with no fence", 2, weakAtomicThenNotify},
		{"PullModel", "publish by storing into the own window and notifying; the consumer remote_loads it: the store is not fenced (the old pull model)", 2, weakPullModel},
		{"RelayedSignal", "the producer stores into the consumer and signals a relay, which signals the consumer: the producer's store is never fenced", 3, weakRelayedSignal},
		{"SlotReusedUnfenced", "a slot used twice: the first round is fenced, the second round's store (after the free-slot credit) is not", 2, weakSlotReused},
		{"GetThenLoad", "get a peer's row into the own window, then load it at once: the get has not landed", 2, weakGetThenLoad},
		{"PeekThenWait", "the consumer reads the slot before the exchange and again after the wait, with no cacheinvalid: the second read can hit the line the first cached", 2, weakPeekThenWait},
		{"InvalidateBeforeWait", "the consumer invalidates its cache before the wait instead of after it", 2, weakInvalidateBeforeWait},
		{"InvalidateWrongRegion", "the consumer invalidates its own row after the wait, not the row the producer wrote", 2, weakInvalidateWrongRegion},
		{"StoreThenLoadBack", "a rank stores into its own window, fences, and loads the region back without invalidating it", 1, weakStoreThenLoadBack},
	}
}

// consumer is the correct receiving side: wait for the producer's notify,
// drop the cache, read the producer's row, give the credit back.
func consumer(f *pl.Func, a *weakArgs) {
	on(f, a, weakConsumer, func() { receive(f, a, pRow, weakProducer) })
}

// receive waits for the notify from rank from on cell, drops the cache,
// reads the producer's row into y and gives the credit back.
func receive(f *pl.Func, a *weakArgs, cell pl.Shape, from int) {
	f.Do(pld.Wait(a.sig, cell, 1, pld.Ge))
	f.Do(pl.CacheInvalidate())
	f.Set(a.y, pl.Store(f.Let("got", pl.Load(a.data, pRow, row)), origin, a.y))
	giveBack(f, a, a.sig, from, 1)
}

func weakStoreThenNotify() *pl.Program {
	return weakFrame("StoreThenNotify", func(f *pl.Func, a *weakArgs) {
		on(f, a, weakProducer, func() {
			t := f.Let("t", pl.Load(a.x, origin, row))
			f.Do(pld.RemoteStore(t, a.data, weakConsumer, pRow))
			f.Do(pld.Notify(a.sig, weakConsumer, pRow, 1, pld.AtomicAdd)) // a fence belongs before this notify
		})
		consumer(f, a)
	})
}

func weakCreditThenStore() *pl.Program {
	return weakFrame("CreditThenStore", func(f *pl.Func, a *weakArgs) {
		on(f, a, weakProducer, func() {
			f.Do(pld.Wait(a.ack, cRow, 1, pld.Ge))
			f.Do(pl.CacheInvalidate())
			t := f.Let("t", pl.Load(a.x, origin, row))
			f.Do(pld.RemoteStore(t, a.data, weakConsumer, pRow))
			f.Do(pld.Notify(a.sig, weakConsumer, pRow, 1, pld.AtomicAdd))
			giveBack(f, a, a.ack, weakConsumer, 1)
		})
		on(f, a, weakConsumer, func() {
			f.Do(pld.Notify(a.ack, weakProducer, cRow, 1, pld.AtomicAdd)) // the slot is free
		})
		consumer(f, a)
	})
}

func weakFenceAfterNotify() *pl.Program {
	return weakFrame("FenceAfterNotify", func(f *pl.Func, a *weakArgs) {
		on(f, a, weakProducer, func() {
			t := f.Let("t", pl.Load(a.x, origin, row))
			f.Do(pld.RemoteStore(t, a.data, weakConsumer, pRow))
			f.Do(pld.Notify(a.sig, weakConsumer, pRow, 1, pld.AtomicAdd))
			f.Do(pl.Fence()) // too late
		})
		consumer(f, a)
	})
}

func weakPutThenNotify() *pl.Program {
	return weakFrame("PutThenNotify", func(f *pl.Func, a *weakArgs) {
		on(f, a, weakProducer, func() {
			f.Do(pld.Put(a.data, weakConsumer, a.x, pld.Region(pRow, origin, row)))
			f.Do(pld.Notify(a.sig, weakConsumer, pRow, 1, pld.AtomicAdd))
		})
		consumer(f, a)
	})
}

func weakAtomicThenNotify() *pl.Program {
	return weakFrame("AtomicThenNotify", func(f *pl.Func, a *weakArgs) {
		on(f, a, weakProducer, func() {
			t := f.Let("t", pl.Load(a.x, origin, row))
			f.Do(pld.RemoteStore(t, a.data, weakConsumer, pRow, pld.Atomic(ir.AtomicAdd)))
			f.Do(pld.Notify(a.sig, weakConsumer, pRow, 1, pld.AtomicAdd))
		})
		consumer(f, a)
	})
}

func weakPullModel() *pl.Program {
	return weakFrame("PullModel", func(f *pl.Func, a *weakArgs) {
		on(f, a, weakProducer, func() {
			t := f.Let("t", pl.Load(a.x, origin, row))
			f.Set(a.data, pl.Store(t, pRow, a.data))
			f.Do(pl.CacheInvalidateRegion(a.data, row, pRow))
			f.Do(pld.Notify(a.sig, weakConsumer, pRow, 1, pld.AtomicAdd))
		})
		on(f, a, weakConsumer, func() {
			f.Do(pld.Wait(a.sig, pRow, 1, pld.Ge))
			f.Set(a.y, pl.Store(f.Let("got", pld.RemoteLoad(a.data, weakProducer, pRow, row)), origin, a.y))
			giveBack(f, a, a.sig, weakProducer, 1)
		})
	})
}

func weakRelayedSignal() *pl.Program {
	return weakFrame("RelayedSignal", func(f *pl.Func, a *weakArgs) {
		on(f, a, weakProducer, func() {
			t := f.Let("t", pl.Load(a.x, origin, row))
			f.Do(pld.RemoteStore(t, a.data, weakConsumer, pRow))
			f.Do(pld.Notify(a.sig, weakRelay, pRow, 1, pld.AtomicAdd))
		})
		on(f, a, weakRelay, func() {
			f.Do(pld.Wait(a.sig, pRow, 1, pld.Ge))
			f.Do(pld.Notify(a.sig, weakConsumer, relayed, 1, pld.AtomicAdd))
			giveBack(f, a, a.sig, weakProducer, 1)
		})
		on(f, a, weakConsumer, func() { receive(f, a, relayed, weakRelay) })
	})
}

func weakSlotReused() *pl.Program {
	return weakFrame("SlotReusedUnfenced", func(f *pl.Func, a *weakArgs) {
		on(f, a, weakProducer, func() {
			t := f.Let("t", pl.Load(a.x, origin, row))
			f.Do(pld.RemoteStore(t, a.data, weakConsumer, pRow))
			f.Do(pl.Fence())
			f.Do(pld.Notify(a.sig, weakConsumer, pRow, 1, pld.AtomicAdd))
			f.Do(pld.Wait(a.ack, cRow, 1, pld.Ge)) // the consumer has read round 1
			f.Do(pl.CacheInvalidate())
			f.Do(pld.RemoteStore(f.Let("t2", pl.Add(t, t)), a.data, weakConsumer, pRow))
			f.Do(pld.Notify(a.sig, weakConsumer, pRow, 1, pld.AtomicAdd)) // round 2: no fence before it
			giveBack(f, a, a.ack, weakConsumer, 1)
		})
		on(f, a, weakConsumer, func() {
			f.Do(pld.Wait(a.sig, pRow, 1, pld.Ge))
			f.Do(pl.CacheInvalidate())
			first := f.Let("first", pl.Load(a.data, pRow, row))
			f.Do(pld.Notify(a.ack, weakProducer, cRow, 1, pld.AtomicAdd))
			f.Do(pld.Wait(a.sig, pRow, 2, pld.Ge))
			f.Do(pl.CacheInvalidate())
			second := f.Let("second", pl.Load(a.data, pRow, row))
			f.Set(a.y, pl.Store(f.Let("sum", pl.Add(first, second)), origin, a.y))
			giveBack(f, a, a.sig, weakProducer, 2)
		})
	})
}

func weakGetThenLoad() *pl.Program {
	return weakFrame("GetThenLoad", func(f *pl.Func, a *weakArgs) {
		on(f, a, weakProducer, func() {
			t := f.Let("t", pl.Load(a.x, origin, row))
			f.Set(a.data, pl.Store(t, pRow, a.data))
			f.Do(pl.CacheInvalidateRegion(a.data, row, pRow))
			f.Do(pl.Fence())
			f.Do(pld.Notify(a.sig, weakConsumer, pRow, 1, pld.AtomicAdd))
		})
		on(f, a, weakConsumer, func() {
			f.Do(pld.Wait(a.sig, pRow, 1, pld.Ge))
			f.Do(pl.CacheInvalidate())
			f.Do(pld.Get(a.data, weakProducer, a.data, pld.Region(pRow, pRow, row)))
			f.Set(a.y, pl.Store(f.Let("got", pl.Load(a.data, pRow, row)), origin, a.y)) // a fence belongs before this load
			giveBack(f, a, a.sig, weakProducer, 1)
		})
	})
}

func weakPeekThenWait() *pl.Program {
	return weakFrame("PeekThenWait", func(f *pl.Func, a *weakArgs) {
		on(f, a, weakProducer, func() {
			f.Do(pld.Wait(a.ack, cRow, 1, pld.Ge))
			t := f.Let("t", pl.Load(a.x, origin, row))
			f.Do(pld.RemoteStore(t, a.data, weakConsumer, pRow))
			f.Do(pl.Fence())
			f.Do(pld.Notify(a.sig, weakConsumer, pRow, 1, pld.AtomicAdd))
			giveBack(f, a, a.ack, weakConsumer, 1)
		})
		on(f, a, weakConsumer, func() {
			before := f.Let("before", pl.Load(a.data, pRow, row)) // caches the slot's lines
			f.Do(pld.Notify(a.ack, weakProducer, cRow, 1, pld.AtomicAdd))
			f.Do(pld.Wait(a.sig, pRow, 1, pld.Ge))
			got := f.Let("got", pl.Load(a.data, pRow, row))
			f.Set(a.y, pl.Store(f.Let("sum", pl.Add(before, got)), origin, a.y))
			giveBack(f, a, a.sig, weakProducer, 1)
		})
	})
}

// fencedProducer is the correct sending side.
func fencedProducer(f *pl.Func, a *weakArgs) {
	on(f, a, weakProducer, func() {
		t := f.Let("t", pl.Load(a.x, origin, row))
		f.Do(pld.RemoteStore(t, a.data, weakConsumer, pRow))
		f.Do(pl.Fence())
		f.Do(pld.Notify(a.sig, weakConsumer, pRow, 1, pld.AtomicAdd))
	})
}

func weakInvalidateBeforeWait() *pl.Program {
	return weakFrame("InvalidateBeforeWait", func(f *pl.Func, a *weakArgs) {
		fencedProducer(f, a)
		on(f, a, weakConsumer, func() {
			f.Do(pl.CacheInvalidate()) // too early
			f.Do(pld.Wait(a.sig, pRow, 1, pld.Ge))
			f.Set(a.y, pl.Store(f.Let("got", pl.Load(a.data, pRow, row)), origin, a.y))
			giveBack(f, a, a.sig, weakProducer, 1)
		})
	})
}

func weakInvalidateWrongRegion() *pl.Program {
	return weakFrame("InvalidateWrongRegion", func(f *pl.Func, a *weakArgs) {
		fencedProducer(f, a)
		on(f, a, weakConsumer, func() {
			f.Do(pld.Wait(a.sig, pRow, 1, pld.Ge))
			f.Do(pl.CacheInvalidateRegion(a.data, row, cRow)) // the consumer's own row, not the producer's
			f.Set(a.y, pl.Store(f.Let("got", pl.Load(a.data, pRow, row)), origin, a.y))
			giveBack(f, a, a.sig, weakProducer, 1)
		})
	})
}

func weakStoreThenLoadBack() *pl.Program {
	return weakFrame("StoreThenLoadBack", func(f *pl.Func, a *weakArgs) {
		on(f, a, weakProducer, func() {
			t := f.Let("t", pl.Load(a.x, origin, row))
			f.Set(a.data, pl.Store(t, pRow, a.data))
			f.Do(pl.Fence()) // visible now, but the cache may still hold the old lines
			f.Set(a.y, pl.Store(f.Let("back", pl.Load(a.data, pRow, row)), origin, a.y))
		})
	})
}
