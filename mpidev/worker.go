//go:build mpi

package mpidev

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

// MaybeWorker turns the process into an MPI worker when the launcher
// started it (its environment says so), and never returns then. Call it
// first thing in main (or TestMain) of any binary the device launches.
func MaybeWorker() {
	if os.Getenv(envAddr) == "" {
		return
	}
	os.Exit(workerMain())
}

// mpiMu serialises MPI calls (the library is initialised
// MPI_THREAD_SERIALIZED; the host and the rank run on their own goroutines).
var mpiMu sync.Mutex

type worker struct {
	rank, world int
	conn        net.Conn
	enc         *gob.Encoder
	sendMu      sync.Mutex
	arena       *arena
	job         int
	doing       atomic.Pointer[activity] // what the rank is doing now
	st          *stats                   // this run's MPI-level timings
	// args and base are the last run's host tensors and their bases,
	// reused by the next run of the same shapes (prepare).
	args []*tensor.Tensor
	base [][]byte
	// replies carry the launcher's answers to rank 0's callback requests.
	replies chan *callbackReply
}

func (w *worker) send(r report) {
	w.sendMu.Lock()
	defer w.sendMu.Unlock()
	r.Job = w.job
	if err := w.enc.Encode(r); err != nil {
		os.Exit(3) // the launcher is gone: nothing left to work for
	}
}

func workerMain() int {
	debug.SetTraceback("none")
	rank, world, err := mpiInit()
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptorepl mpi worker:", err)
		return 1
	}
	conn, err := net.DialTimeout("tcp", os.Getenv(envAddr), 10*time.Second)
	if err != nil {
		fmt.Fprintf(os.Stderr, "ptorepl mpi worker (rank %d): cannot reach the launcher: %v\n", rank, err)
		return 1
	}
	w := &worker{rank: rank, world: world, conn: conn, enc: gob.NewEncoder(conn), replies: make(chan *callbackReply, 1)}
	w.setDoing("starting")
	host, _ := os.Hostname()
	w.sendMu.Lock()
	err = w.enc.Encode(hello{Token: os.Getenv(envToken), Rank: rank, World: world, Pid: os.Getpid(), Host: host})
	w.sendMu.Unlock()
	if err != nil {
		return 1
	}
	jobs := make(chan job)
	go func() {
		dec := gob.NewDecoder(conn)
		for {
			var j job
			if err := dec.Decode(&j); err != nil {
				os.Exit(0) // the launcher closed the connection: stop at once
			}
			if j.Reply != nil {
				w.replies <- j.Reply // the running job's host is waiting for it
				continue
			}
			jobs <- j
		}
	}()
	go w.heartbeat()
	for j := range jobs {
		if j.Quit {
			break
		}
		w.run(j)
	}
	if w.arena != nil {
		mpiMu.Lock()
		_ = w.arena.free()
		mpiMu.Unlock()
	}
	mpiFinalize()
	return 0
}

// heartbeat tells the launcher what the rank is doing when it changes, so
// a crash can be reported with the op it happened in.
func (w *worker) heartbeat() {
	var last *activity
	lastText := ""
	for range time.Tick(200 * time.Millisecond) {
		a := w.doing.Load()
		if a == last || a == nil {
			continue
		}
		last = a
		if d := a.String(); d != lastText {
			lastText = d
			w.send(report{Kind: repDoing, Doing: d})
		}
	}
}

// activity is what a rank is doing: a phase of the run (text) or an op
// (call) in a function.
type activity struct {
	text string
	call *ir.Call
	fn   string
}

func (a *activity) String() string {
	if a.call != nil {
		return fmt.Sprintf("%s in %s", a.call.Name(), a.fn)
	}
	return a.text
}

// setDoing records a phase of the run for the heartbeat.
func (w *worker) setDoing(s string) { w.doing.Store(&activity{text: s}) }

// lockBytes at the start of every arena hold the lock word atomic data
// accumulates take (at 0) and, on one node, what a notifier needs to know
// to wake the rank's waits asleep on a cell: how many sleep (at
// sleepersOff) and on which cell (at sleepCellOff: cellName, or -1 when
// several cells may have sleepers).
const (
	lockBytes    = 64
	sleepersOff  = 8
	sleepCellOff = 12
)

func (w *worker) run(j job) {
	w.job = j.ID
	d := &done{}
	defer func() { w.send(report{Kind: repDone, Done: d}) }()
	defer w.profiler(j.ID)()
	mpiMu.Lock()
	if w.arena == nil || w.arena.size < j.Arena {
		if w.arena != nil {
			if err := w.arena.free(); err != nil {
				mpiMu.Unlock()
				d.Err = err.Error()
				return
			}
		}
		a, err := newArena(j.Arena, w.world)
		if err != nil {
			mpiMu.Unlock()
			d.Err = err.Error()
			return
		}
		clear(a.local())
		w.arena = a
	}
	mpiMu.Unlock()
	if j.Baseline != nil {
		if err := w.barrier(); err != nil {
			d.Err = err.Error()
			return
		}
		var err error
		if d.Seconds, err = runBaseline(*j.Baseline); err != nil {
			d.Err = err.Error()
		}
		return
	}
	// Everything a rank does alone comes before the barrier the ranks
	// leave together (the timeline's origin), so one rank still unpacking
	// tensors does not hold the cores while the others run their kernels.
	// A rank that fails here still takes part in the barrier, so the
	// others are not left in it.
	prog, args, base, prepErr := w.prepare(j)
	err := w.barrier() // every arena is zero before anyone writes a peer's
	origin := time.Now()
	if prepErr != nil {
		err = prepErr
	}
	if err != nil {
		d.Err = err.Error()
		return
	}
	win := &windows{w: w, a: w.arena, offs: map[*runtime.WindowBuf]int64{}, hwm: lockBytes}
	join := func(created []runtime.HostBuf) error {
		w.setDoing("joining the host (bringing host tensors together)")
		mpiMu.Lock()
		defer mpiMu.Unlock()
		if err := mpiBarrier(); err != nil {
			return err
		}
		// The parameters, then the tensors the host created (every process
		// created the same ones, in the same order).
		bufs := make([]runtime.HostBuf, 0, len(args)+len(created))
		for i, a := range args {
			bufs = append(bufs, runtime.HostBuf{Data: a.Bytes(), Base: base[i]})
		}
		for _, b := range append(bufs, created...) {
			all := make([]byte, len(b.Data)*w.world)
			if err := mpiAllgather(b.Data, all); err != nil {
				return err
			}
			copies := make([][]byte, w.world)
			for r := range copies {
				copies[r] = all[r*len(b.Data) : (r+1)*len(b.Data)]
			}
			runtime.MergeHostBytes(b.Data, b.Base, copies)
			copy(b.Base, b.Data)
		}
		return nil
	}
	kernelDone := w.st.timeKernel()
	rr, err := runtime.RunRank(context.Background(), prog, args, runtime.RankRun{
		Rank: w.rank, World: w.world, Windows: win, Join: join, Stop: win.stop,
		MaxEvents: j.MaxEvents, Origin: origin, Callbacks: w.callbacks(j.Callbacks),
	})
	kernelDone()
	d.Ops, d.Events = rr.Ops, rr.Events
	if w.rank == 0 {
		d.Host = rr.Host
	}
	if err != nil {
		var full *arenaFull
		var dl *runtime.DeadlockError
		switch {
		case errors.As(err, &full):
			d.ArenaFull = full.need
		case errors.As(err, &dl):
			d.Deadlock = dl
		}
		d.Err = err.Error()
		w.reset(win)
		return
	}
	w.setDoing("finished; waiting for the other ranks")
	mpiMu.Lock()
	err = mpiBarrier() // nobody reads this rank's windows any more
	mpiMu.Unlock()
	if err != nil {
		d.Err = err.Error()
		return
	}
	if d.Signals, err = win.signals(); err != nil {
		d.Err = err.Error()
		return
	}
	mpiMu.Lock()
	err = mpiBarrier() // every rank read its cells before any zeroes its memory
	mpiMu.Unlock()
	if err != nil {
		d.Err = err.Error()
		return
	}
	w.reset(win)
	host := hostFunc(prog)
	for i := range host.Params {
		if dir := host.Direction(i); dir == ir.Out || dir == ir.InOut {
			d.Outputs = append(d.Outputs, args[i].Bytes())
		} else {
			d.Outputs = append(d.Outputs, nil)
		}
	}
	for i, t := range rr.Returned {
		d.Outputs = append(d.Outputs, t.Bytes())
		d.Returned = append(d.Returned, wireTensor{DType: t.DType(), Shape: t.Shape(), Data: rr.ReturnedBase[i]})
	}
	if j.OutDir != "" {
		if err := writeOutputs(j, w.rank, d); err != nil {
			d.Err = "writing the outputs: " + err.Error()
		}
	}
	w.setDoing("idle")
}

// callbacks are the run's host callbacks as this process runs them (see
// callback); names are the ones the run binds.
func (w *worker) callbacks(names []string) map[string]runtime.Callback {
	if len(names) == 0 {
		return nil
	}
	cbs := make(map[string]runtime.Callback, len(names))
	for _, name := range names {
		cbs[name] = func(args []*tensor.Tensor) error { return w.callback(name, args) }
	}
	return cbs
}

// callback runs the host callback name once for the whole world: every
// process's host calls it at the same point, after a join, so rank 0's
// arguments are everyone's. Rank 0 hands them to the launcher, which runs
// the user's Go function, and broadcasts the answer; every process then
// takes the same error or the same argument bytes.
func (w *worker) callback(name string, args []*tensor.Tensor) error {
	w.setDoing("in host callback " + name)
	defer w.setDoing("running the host")
	var msg []byte
	if w.rank == 0 {
		call := &callbackCall{Name: name}
		for _, a := range args {
			call.Args = append(call.Args, wireTensor{DType: a.DType(), Shape: a.Shape(), Data: a.Bytes()})
		}
		w.send(report{Kind: repCallback, Call: call})
		var b bytes.Buffer
		if err := gob.NewEncoder(&b).Encode(<-w.replies); err != nil {
			// The others wait in the broadcast: they get the error.
			b.Reset()
			_ = gob.NewEncoder(&b).Encode(&callbackReply{Err: "encoding the callback's answer: " + err.Error()})
		}
		msg = b.Bytes()
	}
	size := make([]byte, 8)
	binary.LittleEndian.PutUint64(size, uint64(len(msg)))
	mpiMu.Lock()
	err := mpiBcast(size)
	if err == nil {
		if w.rank != 0 {
			msg = make([]byte, binary.LittleEndian.Uint64(size))
		}
		err = mpiBcast(msg)
	}
	mpiMu.Unlock()
	if err != nil {
		return err
	}
	var rep callbackReply
	if err := gob.NewDecoder(bytes.NewReader(msg)).Decode(&rep); err != nil {
		return fmt.Errorf("decoding the callback's answer: %v", err)
	}
	if rep.Err != "" {
		return errors.New(rep.Err)
	}
	if len(rep.Args) != len(args) {
		return fmt.Errorf("the callback's answer has %d arguments, want %d", len(rep.Args), len(args))
	}
	for i, a := range args {
		if len(rep.Args[i]) != len(a.Bytes()) {
			return fmt.Errorf("the callback's answer for argument %d has %d bytes, want %d", i, len(rep.Args[i]), len(a.Bytes()))
		}
		copy(a.Bytes(), rep.Args[i])
	}
	return nil
}

// barrier is mpiBarrier under mpiMu.
func (w *worker) barrier() error {
	mpiMu.Lock()
	defer mpiMu.Unlock()
	return mpiBarrier()
}

// prepare reads a job's program and host tensors, and keeps a copy of
// each tensor's bytes as the base Join merges the ranks' writes against.
// Tensors and bases of the shapes the last run had are reused: a series
// of runs then allocates no host memory, so the garbage collector rarely
// runs and the runtime's pooled buffers survive from run to run. (Nothing
// holds a run's tensors once its outputs are written or sent.)
func (w *worker) prepare(j job) (*ir.Program, []*tensor.Tensor, [][]byte, error) {
	prog, err := ir.UnmarshalProgram(j.Program)
	if err != nil {
		return nil, nil, nil, errors.New("the program did not survive serialization: " + err.Error())
	}
	args, err := unpackArgs(j, w.args)
	if err != nil {
		return nil, nil, nil, errors.New("reading the host tensors: " + err.Error())
	}
	base := make([][]byte, len(args))
	for i, a := range args {
		b := a.Bytes()
		if i < len(w.base) && len(w.base[i]) == len(b) {
			base[i] = w.base[i]
			copy(base[i], b)
		} else {
			base[i] = append([]byte(nil), b...)
		}
	}
	w.args, w.base = args, base
	return prog, args, base, nil
}

// reset zeroes the window memory the run used, for the next run.
func (w *worker) reset(win *windows) {
	mpiMu.Lock()
	defer mpiMu.Unlock()
	clear(w.arena.local()[:min(win.hwm, w.arena.size)])
	_ = w.arena.sync()
}

// hostFunc is the function the simulator's Load accepted as p's host (a
// single-device program's is synthesized).
func hostFunc(p *ir.Program) *ir.Function {
	f, err := runtime.HostOf(p)
	if err != nil {
		panic(fmt.Sprintf("mpidev: a loaded program has no host: %v", err)) // Load checked it
	}
	return f
}

// arenaFull is an Alloc past the worker's window memory: the launcher
// retries the run with a larger arena.
type arenaFull struct {
	name string
	need int64
	have int64
}

func (e *arenaFull) Error() string {
	return fmt.Sprintf("window buffer %s does not fit: the run needs %d bytes of window memory per rank, the workers have %d", e.name, e.need, e.have)
}

// windows is runtime.Windows over the worker's MPI window: every access,
// local or remote, is an RMA call on the arena under passive-target
// synchronisation, completed by a flush before it returns.
type windows struct {
	w       *worker
	a       *arena
	mu      sync.Mutex // guards offs and hwm (Alloc runs on the host goroutine)
	offs    map[*runtime.WindowBuf]int64
	hwm     int64
	stopped atomic.Bool
	scratch []byte // Reduce's chunk buffer (only the rank's goroutine reduces)
	// offBuf and lenBuf are the segment arrays of one MPI call (segsAt),
	// used under mpiMu.
	offBuf, lenBuf []int64

	// sigMu guards sent: the signal cells this rank notified, so the run's
	// result can list every notified cell (runtime.Result.Signals).
	sigMu sync.Mutex
	sent  map[sigKey]*runtime.SignalCell

	acts sync.Map // activity → *activity: note's one record per op and function
}

type sigKey struct {
	rank int
	off  int64
}

func (m *windows) stop() { m.stopped.Store(true) }

func (m *windows) Alloc(name string, size int, domain []int) (*runtime.WindowBuf, error) {
	if size <= 0 {
		return nil, fmt.Errorf("window buffer %s: size %d bytes; a window needs a positive size", name, size)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	off := (m.hwm + 63) &^ 63
	if off+int64(size) > m.a.size {
		return nil, &arenaFull{name: name, need: off + int64(size), have: m.a.size}
	}
	b := &runtime.WindowBuf{Name: name, Size: size, Domain: domain}
	m.offs[b] = off
	m.hwm = off + int64(size)
	return b, nil
}

// place checks rank and segs against buf and returns the segments as
// arena offsets and lengths.
func (m *windows) place(rank int, buf *runtime.WindowBuf, segs []runtime.Segment, who runtime.Origin) (offs, lens []int64, err error) {
	base, err := m.check(rank, buf, segs, who)
	if err != nil {
		return nil, nil, err
	}
	offs, lens = make([]int64, len(segs)), make([]int64, len(segs))
	for i, s := range segs {
		offs[i], lens[i] = base+int64(s.Off), int64(s.Len)
	}
	return offs, lens, nil
}

// check checks rank and segs against buf and returns where buf starts in
// every rank's arena.
func (m *windows) check(rank int, buf *runtime.WindowBuf, segs []runtime.Segment, who runtime.Origin) (int64, error) {
	if rank < 0 || rank >= m.w.world {
		return 0, fmt.Errorf("rank %d is outside the world of %d ranks", rank, m.w.world)
	}
	if err := runtime.CheckSegments(buf, segs); err != nil {
		return 0, err
	}
	if buf.Domain != nil {
		in := false
		for _, r := range buf.Domain {
			in = in || r == rank
		}
		if !in {
			return 0, fmt.Errorf("rank %d has no copy of window buffer %s (outside its comm domain)", rank, buf.Name)
		}
	}
	m.mu.Lock()
	base, ok := m.offs[buf]
	m.mu.Unlock()
	if !ok {
		return 0, fmt.Errorf("window buffer %s was not allocated on this device", buf.Name)
	}
	m.note(who)
	return base, nil
}

// segsAt is segs as arena offsets and lengths from base, in scratch arrays
// reused from call to call: the caller holds mpiMu until MPI is done with
// them.
func (m *windows) segsAt(base int64, segs []runtime.Segment) (offs, lens []int64) {
	offs, lens = m.offBuf[:0], m.lenBuf[:0]
	for _, s := range segs {
		offs, lens = append(offs, base+int64(s.Off)), append(lens, int64(s.Len))
	}
	m.offBuf, m.lenBuf = offs, lens
	return offs, lens
}

// note records the op running now, for the launcher's crash report. It
// runs on every access, so it only stores a pointer (one per op and
// function, made once); the heartbeat formats it.
func (m *windows) note(who runtime.Origin) {
	if who.Call == nil {
		return
	}
	if cur := m.w.doing.Load(); cur != nil && cur.call == who.Call && cur.fn == who.Func {
		return
	}
	k := activity{call: who.Call, fn: who.Func}
	a, ok := m.acts.Load(k)
	if !ok {
		a, _ = m.acts.LoadOrStore(k, &k)
	}
	m.w.doing.Store(a.(*activity))
}

func (m *windows) Read(from, rank int, buf *runtime.WindowBuf, segs []runtime.Segment, dst []byte, who runtime.Origin) error {
	base, err := m.check(rank, buf, segs, who)
	if err != nil {
		return err
	}
	defer since(&m.w.st.getNs, time.Now())
	m.w.st.gets.Add(1)
	mpiMu.Lock()
	defer mpiMu.Unlock()
	offs, lens := m.segsAt(base, segs)
	return m.a.get(rank, offs, lens, dst)
}

func (m *windows) Write(from, rank int, buf *runtime.WindowBuf, segs []runtime.Segment, src []byte, who runtime.Origin) error {
	base, err := m.check(rank, buf, segs, who)
	if err != nil {
		return err
	}
	defer since(&m.w.st.putNs, time.Now())
	m.w.st.puts.Add(1)
	mpiMu.Lock()
	defer mpiMu.Unlock()
	offs, lens := m.segsAt(base, segs)
	return m.a.put(rank, offs, lens, src)
}

func (m *windows) WriteOwned(from, rank int, buf *runtime.WindowBuf, segs []runtime.Segment, src []byte, who runtime.Origin) error {
	return m.Write(from, rank, buf, segs, src, who)
}

// Accumulate is a read-modify-write of the target's bytes under the
// target's lock word (a compare-and-swap spin lock in its arena), with the
// simulator's rounding; accumulates to one rank are therefore atomic
// with respect to each other.
func (m *windows) Accumulate(from, rank int, buf *runtime.WindowBuf, segs []runtime.Segment, dt ir.DataType, vals []float64, who runtime.Origin) error {
	offs, lens, err := m.place(rank, buf, segs, who)
	if err != nil {
		return err
	}
	if err := m.lock(rank); err != nil {
		return err
	}
	defer m.unlock(rank)
	n := 0
	for _, l := range lens {
		n += int(l)
	}
	b := make([]byte, n)
	mpiMu.Lock()
	err = m.a.get(rank, offs, lens, b)
	mpiMu.Unlock()
	if err != nil {
		return err
	}
	runtime.AccumulateBytes(dt, b, vals)
	mpiMu.Lock()
	defer mpiMu.Unlock()
	return m.a.put(rank, offs, lens, b)
}

func (m *windows) lock(rank int) error {
	bo := backoff{}
	for {
		mpiMu.Lock()
		old, err := m.a.cas(rank, 0, 0, int32(m.w.rank)+1)
		mpiMu.Unlock()
		if err != nil || old == 0 {
			return err
		}
		if m.stopped.Load() {
			return errors.New("run aborted")
		}
		bo.wait()
	}
}

func (m *windows) unlock(rank int) {
	mpiMu.Lock()
	_, _ = m.a.fetchOp(rank, 0, 0, opReplace)
	mpiMu.Unlock()
}

// Reduce folds chunk by chunk: each chunk of acc starts as ranks[0]'s
// bytes and folds in each next rank's as its MPI_Get lands, through one
// chunk-sized buffer, so the sources are never all copied out at once
// (the simulator rounds at every step, so folding incrementally gives the
// same bits).
func (m *windows) Reduce(from int, ranks []int, buf *runtime.WindowBuf, segs []runtime.Segment, dt ir.DataType, op ir.ReduceOp, acc []byte, who runtime.Origin) error {
	if len(ranks) == 0 {
		return fmt.Errorf("reduce of window buffer %s over no ranks", buf.Name)
	}
	n := 0
	for _, s := range segs {
		n += s.Len
	}
	if n != len(acc) {
		return fmt.Errorf("reduce of %d bytes of window buffer %s into a %d-byte accumulator", n, buf.Name, len(acc))
	}
	if m.a.peers != nil {
		return m.reduceShared(ranks, buf, segs, dt, op, acc, who)
	}
	for _, chunk := range chunkSegs(segs, reduceChunk) {
		k := 0
		for _, s := range chunk {
			k += s.Len
		}
		a := acc[:k]
		if err := m.Read(from, ranks[0], buf, chunk, a, who); err != nil {
			return err
		}
		if len(ranks) > 1 {
			if cap(m.scratch) < k {
				m.scratch = make([]byte, reduceChunk)
			}
			src := m.scratch[:k]
			for _, r := range ranks[1:] {
				if err := m.Read(from, r, buf, chunk, src, who); err != nil {
					return err
				}
				if err := runtime.FoldBytes(dt, op, a, [][]byte{a, src}); err != nil {
					return err
				}
			}
		}
		acc = acc[k:]
	}
	return nil
}

// reduceShared is Reduce on one node: it folds every rank's bytes straight
// from their shared window memory (after MPI_Win_sync, so every flushed
// put and atomic is visible), the simulator's own fold.
func (m *windows) reduceShared(ranks []int, buf *runtime.WindowBuf, segs []runtime.Segment, dt ir.DataType, op ir.ReduceOp, acc []byte, who runtime.Origin) error {
	bases := make([]int64, len(ranks))
	for i, r := range ranks {
		offs, _, err := m.place(r, buf, segs, who)
		if err != nil {
			return err
		}
		if len(segs) > 0 {
			bases[i] = offs[0] - int64(segs[0].Off)
		}
	}
	mpiMu.Lock()
	err := m.a.sync()
	mpiMu.Unlock()
	if err != nil {
		return err
	}
	srcs := make([][]byte, len(ranks))
	k := 0
	for _, s := range segs {
		for i, r := range ranks {
			o := bases[i] + int64(s.Off)
			srcs[i] = m.a.peers[r][o : o+int64(s.Len)]
		}
		if err := runtime.FoldBytes(dt, op, acc[k:k+s.Len], srcs); err != nil {
			return err
		}
		k += s.Len
	}
	return nil
}

// reduceChunk is the bytes of acc Reduce completes per step: large enough
// for MPI_Get to stream, small enough to stay in cache.
const reduceChunk = 256 << 10

// chunkSegs splits segs (in order) into runs of at most size bytes.
func chunkSegs(segs []runtime.Segment, size int) [][]runtime.Segment {
	var out [][]runtime.Segment
	var cur []runtime.Segment
	n := 0
	for _, s := range segs {
		for s.Len > 0 {
			take := min(s.Len, size-n)
			cur = append(cur, runtime.Segment{Off: s.Off, Len: take})
			n += take
			s.Off, s.Len = s.Off+take, s.Len-take
			if n == size {
				out, cur, n = append(out, cur), nil, 0
			}
		}
	}
	if len(cur) > 0 || len(out) == 0 {
		out = append(out, cur)
	}
	return out
}

func (m *windows) Copy(from int, dst, src runtime.Region) error {
	n := 0
	for _, s := range src.Segs {
		n += s.Len
	}
	b := make([]byte, n)
	if err := m.Read(from, src.Rank, src.Buf, src.Segs, b, src.Who); err != nil {
		return err
	}
	return m.Write(from, dst.Rank, dst.Buf, dst.Segs, b, dst.Who)
}

func (m *windows) cellOff(rank int, buf *runtime.WindowBuf, cell runtime.Cell, who runtime.Origin) (int64, error) {
	seg := [1]runtime.Segment{{Off: cell.Offset, Len: 4}}
	base, err := m.check(rank, buf, seg[:], who)
	if err != nil {
		return 0, err
	}
	return base + int64(cell.Offset), nil
}

func (m *windows) Notify(from, rank int, buf *runtime.WindowBuf, cell runtime.Cell, kind runtime.NotifyKind, v int32, who runtime.Origin) error {
	off, err := m.cellOff(rank, buf, cell, who)
	if err != nil {
		return err
	}
	op := opReplace
	if kind == runtime.NotifyAtomicAdd {
		op = opSum
	}
	t0 := time.Now()
	m.w.st.atomics.Add(1)
	mpiMu.Lock()
	old, err := m.a.fetchOp(rank, off, v, op)
	mpiMu.Unlock()
	since(&m.w.st.atomicNs, t0)
	if err != nil {
		return err
	}
	m.wake(rank, off)
	nv := v
	if kind == runtime.NotifyAtomicAdd {
		nv = old + v
	}
	m.sigMu.Lock()
	defer m.sigMu.Unlock()
	k := sigKey{rank, off}
	sc, ok := m.sent[k]
	if !ok {
		if m.sent == nil {
			m.sent = map[sigKey]*runtime.SignalCell{}
		}
		sc = &runtime.SignalCell{Rank: rank, Buffer: buf.Name, Offset: append([]int(nil), cell.Index...), ByteOffset: cell.Offset, SetBy: map[string]bool{}}
		m.sent[k] = sc
	}
	sc.SetBy[kind.String()] = true
	sc.Notifies++
	if len(sc.History) < 64 {
		sc.History = append(sc.History, runtime.SignalWrite{From: m.w.rank, Kind: kind, Value: v, New: nv})
	}
	return nil
}

// signals reads the final value of every cell this rank notified (after
// the run's last barrier, so every notify has landed).
func (m *windows) signals() ([]wireSignal, error) {
	m.sigMu.Lock()
	defer m.sigMu.Unlock()
	var out []wireSignal
	for k, sc := range m.sent {
		v, err := m.read(k.rank, k.off)
		if err != nil {
			return nil, err
		}
		sc.Value = int64(v)
		out = append(out, wireSignal{Cell: *sc, Off: k.off})
	}
	return out, nil
}

func (m *windows) read(rank int, off int64) (int32, error) {
	mpiMu.Lock()
	defer mpiMu.Unlock()
	return m.a.fetchOp(rank, off, 0, opRead)
}

// Wait polls the cell until cond holds. On one node the rank reads its
// own cell in the shared window directly and, when it does not hold,
// yields the core a few times (yieldPolls), then sleeps in the kernel on
// the cell's address (a futex) until a notifier changes the cell and
// wakes it, so a waiting rank takes no core and wakes as soon as it may
// go on; elsewhere it polls with MPI, yielding and then sleeping up to a
// millisecond. A wait that lasts is reported to the launcher, whose
// watchdog declares a deadlock when every unfinished rank is blocked.
func (m *windows) Wait(rank int, buf *runtime.WindowBuf, cell runtime.Cell, cond runtime.Cond, who runtime.Origin) error {
	off, err := m.cellOff(rank, buf, cell, who)
	if err != nil {
		return err
	}
	bo := backoff{}
	start := time.Now()
	m.w.st.waits.Add(1)
	defer since(&m.w.st.waitNs, start)
	reported := false
	var last time.Time
	defer func() {
		if reported {
			m.w.send(report{Kind: repUnblocked})
		}
	}()
	word := m.a.word(rank, off)
	for polls := 0; ; polls++ {
		m.w.st.polls.Add(1)
		v, err := m.load(rank, off, word)
		if err != nil {
			return err
		}
		if cond.Holds(v) {
			if word != nil {
				// What the notifier wrote before its notify is visible
				// to this rank's loads of the shared window from here.
				mpiMu.Lock()
				err = m.a.sync()
				mpiMu.Unlock()
			}
			return err
		}
		if m.stopped.Load() {
			return errors.New("run aborted")
		}
		// The first report after 100ms, then again every blockedRefresh
		// with the value just read: the launcher only trusts a rank that
		// keeps finding its cell unsatisfied (a starved rank goes quiet).
		if since := time.Since(start); since > 100*time.Millisecond && (!reported || time.Since(last) > blockedRefresh) {
			reported, last = true, time.Now()
			cell.Rank, cell.Buffer = rank, buf.Name
			b := runtime.BlockedRank{Rank: m.w.rank, Cell: cell.String(), Value: int64(v), Want: cond.String(), Cond: cond, Func: who.Func, NoHistory: true}
			if who.Call != nil {
				b.Op, b.Pos, b.Deferred = who.Call.Name(), who.Call.Pos, who.Call.Op.Deferred
			}
			m.w.send(report{Kind: repBlocked, Blocked: b})
		}
		if word != nil && haveFutex && rank == m.w.rank {
			if polls < yieldPolls {
				osYield()
			} else {
				m.sleep(word, off, v)
			}
			continue
		}
		bo.wait()
	}
}

// yieldPolls is how many times a wait re-reads its cell, each time after
// giving the core to any other runnable process (sched_yield), before it
// sleeps in the kernel: with more ranks than cores the notifier is
// usually one of those, and running it at once costs less than a sleep and
// a wake-up (about 350 of them per rank in the compiled 8 x 1 Mi allreduce
// without, a handful with). The yields are few, so a rank alone on its
// core soon sleeps instead of spinning.
const yieldPolls = 16

// futexNap bounds one sleep on a cell, so a wait still notices a stopped
// run and keeps reporting itself blocked to the watchdog.
const futexNap = 20 * time.Millisecond

// sleep blocks on this rank's cell word at off while it still holds v.
// The rank's sleepers count goes up and the cell is named first, each with
// a locked instruction (a full barrier), and only then is the cell read
// again: a notifier that changes the cell after that read sees both and
// wakes it, and one that changed it before is seen by the read (the
// kernel also compares the cell with v as it puts the thread to sleep).
func (m *windows) sleep(word *int32, off int64, v int32) {
	me := m.w.rank
	count, named := m.a.word(me, sleepersOff), m.a.word(me, sleepCellOff)
	atomic.AddInt32(count, 1)
	name := cellName(off)
	if !atomic.CompareAndSwapInt32(named, 0, name) {
		atomic.StoreInt32(named, -1) // another wait named its cell first
	}
	if atomic.LoadInt32(word) == v {
		m.w.st.sleeps.Add(1)
		futexWait(word, v, futexNap)
	}
	// The last sleeper out clears its own name only: -1 stays until the
	// run's end (clearing it could hide a wait that named itself -1 in
	// the meantime), and then notifiers just wake whenever anyone sleeps.
	if atomic.AddInt32(count, -1) == 0 {
		atomic.CompareAndSwapInt32(named, name, 0)
	}
}

// cellName is how a sleeping wait names its cell at the aligned arena
// offset off (never 0 or -1).
func cellName(off int64) int32 { return int32(off/4) + 1 }

// wake wakes rank's waits asleep on the cell at off after a notify changed
// it (on one node; elsewhere waits poll). It makes the system call only
// when a wait of that rank sleeps on this cell, or on cells it cannot
// tell apart.
func (m *windows) wake(rank int, off int64) {
	if !haveFutex {
		return
	}
	word := m.a.word(rank, off)
	if word == nil {
		return
	}
	fence()
	if atomic.LoadInt32(m.a.word(rank, sleepersOff)) == 0 {
		return
	}
	if n := atomic.LoadInt32(m.a.word(rank, sleepCellOff)); n == cellName(off) || n == -1 {
		m.w.st.wakes.Add(1)
		futexWake(word)
	}
}

// load reads rank's cell at off: straight from the shared window when word
// points at it, else with MPI.
func (m *windows) load(rank int, off int64, word *int32) (int32, error) {
	if word != nil {
		return atomic.LoadInt32(word), nil
	}
	return m.read(rank, off)
}

func (m *windows) Test(rank int, buf *runtime.WindowBuf, cell runtime.Cell, cond runtime.Cond, who runtime.Origin) (bool, error) {
	off, err := m.cellOff(rank, buf, cell, who)
	if err != nil {
		return false, err
	}
	v, err := m.read(rank, off)
	return err == nil && cond.Holds(v), err
}

// blockedRefresh is how often a blocked wait re-reports itself.
const blockedRefresh = 250 * time.Millisecond

// backoff yields a few times, then sleeps from 10µs doubling to 1ms.
type backoff struct {
	n     int
	sleep time.Duration
}

func (b *backoff) wait() {
	b.n++
	if b.n < 8 {
		goyield()
		return
	}
	if b.sleep == 0 {
		b.sleep = 10 * time.Microsecond
	}
	time.Sleep(b.sleep)
	if b.sleep < time.Millisecond {
		b.sleep *= 2
	}
}

var _ = strings.TrimSpace

// runBaseline times MPI_Allreduce on this rank: the mean seconds per call.
func runBaseline(b baseline) (float64, error) {
	src := make([]float32, b.Elems)
	dst := make([]float32, b.Elems)
	for i := range src {
		src[i] = float32(i%17) * 0.25
	}
	mpiMu.Lock()
	defer mpiMu.Unlock()
	for i := 0; i < b.Warmup; i++ {
		if err := mpiAllreduceF32(src, dst); err != nil {
			return 0, err
		}
	}
	if err := mpiBarrier(); err != nil {
		return 0, err
	}
	t0 := mpiWtime()
	for i := 0; i < b.Iters; i++ {
		if err := mpiAllreduceF32(src, dst); err != nil {
			return 0, err
		}
	}
	return (mpiWtime() - t0) / float64(max(b.Iters, 1)), nil
}

// unpackArgs makes the job's host tensors, from its file or inline data,
// reading from the file into the tensor of the same place in prev when it
// has the same dtype and shape.
func unpackArgs(j job, prev []*tensor.Tensor) ([]*tensor.Tensor, error) {
	args := make([]*tensor.Tensor, len(j.Args))
	var f *os.File
	if j.ArgsFile != "" {
		var err error
		if f, err = os.Open(j.ArgsFile); err != nil {
			return nil, err
		}
		defer f.Close()
	}
	for i, t := range j.Args {
		if f == nil {
			args[i] = tensor.FromBytes(t.DType, t.Data, t.Shape...)
			continue
		}
		if i < len(prev) && prev[i].DType() == t.DType && slices.Equal(prev[i].Shape(), t.Shape) {
			args[i] = prev[i] // every byte is read again below
		} else {
			args[i] = tensor.Zeros(t.DType, t.Shape...)
		}
		b := args[i].Bytes()
		if int64(len(b)) != t.Len {
			return nil, fmt.Errorf("argument %d: %d bytes for shape %v, the file has %d", i, len(b), t.Shape, t.Len)
		}
		if _, err := f.ReadAt(b, t.Off); err != nil {
			return nil, err
		}
	}
	return args, nil
}

// writeOutputs moves d.Outputs into a file in j.OutDir.
func writeOutputs(j job, rank int, d *done) error {
	f, err := os.CreateTemp(j.OutDir, fmt.Sprintf("out-%d-", rank))
	if err != nil {
		return err
	}
	defer f.Close()
	for _, o := range d.Outputs {
		if o == nil {
			d.OutputLens = append(d.OutputLens, -1)
			continue
		}
		if _, err := f.Write(o); err != nil {
			return err
		}
		d.OutputLens = append(d.OutputLens, int64(len(o)))
	}
	d.Outputs, d.OutputsFile = nil, f.Name()
	return nil
}
