package pl_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
)

// procDevice is a second device, written only against runtime's exported
// seam: each rank runs as if it were its own process (runtime.RunRank on
// a private copy of the host tensors), window memory lives in a store of
// its own (not the simulator's), and the copies of the host tensors meet
// at every host join and at the end. It is what a multi-process device
// does, without the processes.
type procDevice struct{ runs int }

func (d *procDevice) Name() string { return "proc" }

func (d *procDevice) Load(p *ir.Program) (runtime.Executable, error) {
	return &procExe{d: d, p: p}, nil
}

func (d *procDevice) Run(ctx context.Context, p *ir.Program, args []*tensor.Tensor, o runtime.RunOptions) (*runtime.Result, error) {
	exe, _ := d.Load(p)
	return exe.Run(ctx, args, o)
}

type procExe struct {
	d *procDevice
	p *ir.Program
}

func (e *procExe) Program() *ir.Program { return e.p }

func (e *procExe) Run(ctx context.Context, args []*tensor.Tensor, o runtime.RunOptions) (*runtime.Result, error) {
	e.d.runs++
	n := o.Ranks
	if n == 0 {
		n = 2
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st := &store{n: n, mem: make([]map[int][]byte, n)}
	st.cond = sync.NewCond(&st.mu)
	for r := range st.mem {
		st.mem[r] = map[int][]byte{}
	}
	stop := context.AfterFunc(ctx, func() { st.mu.Lock(); st.dead = true; st.cond.Broadcast(); st.mu.Unlock() })
	defer stop()
	// Every rank gets its own copy of the host tensors; base is what they
	// all agreed on at the last join.
	copies := make([][]*tensor.Tensor, n)
	base := make([][]byte, len(args))
	for i, a := range args {
		base[i] = append([]byte(nil), a.Bytes()...)
	}
	for r := range copies {
		for _, a := range args {
			copies[r] = append(copies[r], a.Clone())
		}
	}
	bar := newBarrier(n, ctx)
	merge := func() {
		for i := range args {
			var cs [][]byte
			for r := 0; r < n; r++ {
				cs = append(cs, copies[r][i].Bytes())
			}
			runtime.MergeHostBytes(base[i], base[i], cs)
			for r := 0; r < n; r++ {
				copy(copies[r][i].Bytes(), base[i])
			}
		}
	}
	errs := make([]error, n)
	var ops int64
	var wg sync.WaitGroup
	for r := 0; r < n; r++ {
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			// The parameters are merged; this device's programs create no
			// host tensors the ranks share.
			join := func([]runtime.HostBuf) error {
				if !bar.wait() { // every rank finished its dispatched work
					return errors.New("run aborted")
				}
				if r == 0 {
					merge()
				}
				if !bar.wait() {
					return errors.New("run aborted")
				}
				return nil
			}
			k, err := runtime.RunRank(ctx, e.p, copies[r], runtime.RankRun{Rank: r, World: n, Windows: &rankWin{st: st}, Join: join})
			errs[r] = err
			if r == 0 {
				ops = k.Ops
			}
			if err != nil {
				cancel()
			}
		}(r)
	}
	wg.Wait()
	res := &runtime.Result{Ranks: n, Timeline: runtime.NewEmptyTimeline(n), Ops: ops}
	if err := errors.Join(errs...); err != nil && ctx.Err() == nil {
		res.Err = err
	} else {
		res.Err = errors.Join(errs...)
	}
	if res.Err != nil {
		return res, res.Err
	}
	merge()
	for i, a := range args {
		copy(a.Bytes(), base[i])
	}
	host := hostFunc(e.p)
	for i := range host.Params {
		if d := host.Direction(i); d == ir.Out || d == ir.InOut {
			res.Outputs = append(res.Outputs, args[i])
		}
	}
	return res, nil
}

func hostFunc(p *ir.Program) *ir.Function {
	for _, f := range p.Functions {
		if f.IsHostOrchestrator() {
			return f
		}
	}
	return nil
}

// barrier is a reusable rendezvous of n goroutines, abandoned with ctx.
type barrier struct {
	mu    sync.Mutex
	cond  *sync.Cond
	n, in int
	gen   int
	dead  bool
}

func newBarrier(n int, ctx context.Context) *barrier {
	b := &barrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	context.AfterFunc(ctx, func() { b.mu.Lock(); b.dead = true; b.cond.Broadcast(); b.mu.Unlock() })
	return b
}

func (b *barrier) wait() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	g := b.gen
	b.in++
	if b.in == b.n {
		b.in, b.gen = 0, b.gen+1
		b.cond.Broadcast()
		return true
	}
	for g == b.gen && !b.dead {
		b.cond.Wait()
	}
	return !b.dead
}

// store is the world's window memory: per rank, per buffer id, bytes.
type store struct {
	mu   sync.Mutex
	cond *sync.Cond
	n    int
	mem  []map[int][]byte
	dead bool
}

// rankWin is one rank's view of the store: its own allocation counter, so
// the k-th Alloc of every rank's host names the same buffer.
type rankWin struct {
	st     *store
	allocs int
	ids    map[*runtime.WindowBuf]int
}

func (w *rankWin) id(b *runtime.WindowBuf) int { return w.ids[b] }

func (w *rankWin) Alloc(name string, size int, domain []int) (*runtime.WindowBuf, error) {
	if size <= 0 {
		return nil, fmt.Errorf("window %s: size %d", name, size)
	}
	b := &runtime.WindowBuf{Name: name, Size: size, Domain: domain}
	if w.ids == nil {
		w.ids = map[*runtime.WindowBuf]int{}
	}
	w.ids[b] = w.allocs
	w.allocs++
	return b, nil
}

// bytes is rank's copy of buf (made zeroed on first touch); st.mu is held.
func (w *rankWin) bytes(rank int, buf *runtime.WindowBuf) ([]byte, error) {
	if rank < 0 || rank >= w.st.n {
		return nil, fmt.Errorf("rank %d outside the world", rank)
	}
	id := w.id(buf)
	m, ok := w.st.mem[rank][id]
	if !ok {
		m = make([]byte, buf.Size)
		w.st.mem[rank][id] = m
	}
	return m, nil
}

func (w *rankWin) Read(from, rank int, buf *runtime.WindowBuf, segs []runtime.Segment, dst []byte, who runtime.Origin) error {
	if err := runtime.CheckSegments(buf, segs); err != nil {
		return err
	}
	w.st.mu.Lock()
	defer w.st.mu.Unlock()
	b, err := w.bytes(rank, buf)
	if err != nil {
		return err
	}
	k := 0
	for _, s := range segs {
		k += copy(dst[k:], b[s.Off:s.Off+s.Len])
	}
	return nil
}

func (w *rankWin) Write(from, rank int, buf *runtime.WindowBuf, segs []runtime.Segment, src []byte, who runtime.Origin) error {
	if err := runtime.CheckSegments(buf, segs); err != nil {
		return err
	}
	w.st.mu.Lock()
	defer w.st.mu.Unlock()
	b, err := w.bytes(rank, buf)
	if err != nil {
		return err
	}
	k := 0
	for _, s := range segs {
		k += copy(b[s.Off:s.Off+s.Len], src[k:])
	}
	w.st.cond.Broadcast()
	return nil
}

func (w *rankWin) WriteOwned(from, rank int, buf *runtime.WindowBuf, segs []runtime.Segment, src []byte, who runtime.Origin) error {
	return w.Write(from, rank, buf, segs, src, who)
}

func (w *rankWin) Accumulate(from, rank int, buf *runtime.WindowBuf, segs []runtime.Segment, dt ir.DataType, vals []float64, who runtime.Origin) error {
	if err := runtime.CheckSegments(buf, segs); err != nil {
		return err
	}
	w.st.mu.Lock()
	defer w.st.mu.Unlock()
	b, err := w.bytes(rank, buf)
	if err != nil {
		return err
	}
	k := 0
	for _, s := range segs {
		n := s.Len / dt.Bytes()
		runtime.AccumulateBytes(dt, b[s.Off:s.Off+s.Len], vals[k:k+n])
		k += n
	}
	w.st.cond.Broadcast()
	return nil
}

func (w *rankWin) Reduce(from int, ranks []int, buf *runtime.WindowBuf, segs []runtime.Segment, dt ir.DataType, op ir.ReduceOp, acc []byte, who runtime.Origin) error {
	var srcs [][]byte
	for _, r := range ranks {
		b := make([]byte, len(acc))
		if err := w.Read(from, r, buf, segs, b, who); err != nil {
			return err
		}
		srcs = append(srcs, b)
	}
	return runtime.FoldBytes(dt, op, acc, srcs)
}

func (w *rankWin) Copy(from int, dst, src runtime.Region) error {
	n := 0
	for _, s := range src.Segs {
		n += s.Len
	}
	b := make([]byte, n)
	if err := w.Read(from, src.Rank, src.Buf, src.Segs, b, src.Who); err != nil {
		return err
	}
	return w.Write(from, dst.Rank, dst.Buf, dst.Segs, b, dst.Who)
}

func (w *rankWin) Notify(from, rank int, buf *runtime.WindowBuf, cell runtime.Cell, kind runtime.NotifyKind, v int32, who runtime.Origin) error {
	if err := runtime.CheckSegments(buf, []runtime.Segment{{Off: cell.Offset, Len: 4}}); err != nil {
		return err
	}
	w.st.mu.Lock()
	defer w.st.mu.Unlock()
	b, err := w.bytes(rank, buf)
	if err != nil {
		return err
	}
	old := int32(binary.LittleEndian.Uint32(b[cell.Offset:]))
	if kind == runtime.NotifyAtomicAdd {
		v += old
	}
	binary.LittleEndian.PutUint32(b[cell.Offset:], uint32(v))
	w.st.cond.Broadcast()
	return nil
}

func (w *rankWin) cell(rank int, buf *runtime.WindowBuf, cell runtime.Cell) (int32, error) {
	b, err := w.bytes(rank, buf)
	if err != nil {
		return 0, err
	}
	return int32(binary.LittleEndian.Uint32(b[cell.Offset:])), nil
}

func (w *rankWin) Wait(rank int, buf *runtime.WindowBuf, cell runtime.Cell, cond runtime.Cond, who runtime.Origin) error {
	w.st.mu.Lock()
	defer w.st.mu.Unlock()
	for {
		v, err := w.cell(rank, buf, cell)
		if err != nil {
			return err
		}
		if cond.Holds(v) {
			return nil
		}
		if w.st.dead {
			return errors.New("run aborted")
		}
		w.st.cond.Wait()
	}
}

func (w *rankWin) Test(rank int, buf *runtime.WindowBuf, cell runtime.Cell, cond runtime.Cond, who runtime.Origin) (bool, error) {
	w.st.mu.Lock()
	defer w.st.mu.Unlock()
	v, err := w.cell(rank, buf, cell)
	return err == nil && cond.Holds(v), err
}

// TestSecondDevice runs programs through pl.Run on a device built only
// from runtime's exported seam, and checks the outputs against the
// simulator's, bit for bit.
func TestSecondDevice(t *testing.T) {
	cases := []struct {
		name  string
		prog  func() *pl.Program
		ranks int
	}{
		{"quickstart", testprogs.Quickstart, 2},
		{"quickstart", testprogs.Quickstart, 4},
		{"window", testprogs.WindowProgram, 3},
		{"ring_put", func() *pl.Program { return testprogs.RingProgram("put") }, 4},
		{"barrier_builtin", testprogs.BarrierBuiltinProgram, 3},
	}
	dev := &procDevice{}
	old := pl.Device
	pl.Device = dev
	defer func() { pl.Device = old }()
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/P%d", c.name, c.ranks), func(t *testing.T) {
			prog := c.prog()
			want, _, err := runtime.HostArgs(prog.IR(), c.ranks, 7)
			if err != nil {
				t.Fatal(err)
			}
			got, _, _ := runtime.HostArgs(prog.IR(), c.ranks, 7)
			before := dev.runs
			res, err := pl.Run(prog, pl.Ranks(c.ranks), got...)
			if err != nil {
				t.Fatalf("proc device: %v", err)
			}
			if dev.runs != before+1 {
				t.Fatalf("pl.Run did not go through the test device")
			}
			if _, err := pl.Run(prog, pl.Ranks(c.ranks).On(pl.Simulator()), want...); err != nil {
				t.Fatalf("simulator: %v", err)
			}
			changed := false
			for i := range want {
				if string(want[i].Bytes()) != string(got[i].Bytes()) {
					t.Errorf("host tensor %d differs from the simulator's", i)
				}
				fresh, _, _ := runtime.HostArgs(prog.IR(), c.ranks, 7)
				changed = changed || string(fresh[i].Bytes()) != string(got[i].Bytes())
			}
			if !changed {
				t.Errorf("the run changed no host tensor: nothing was compared")
			}
			if len(res.Report().Of(checker.KindUnchecked)) != 1 {
				t.Errorf("a device without an observer should say race checking is off; report:\n%s", res.Report())
			}
		})
	}
}

// TestUnknownDevice: a device this build lacks is one clear error.
func TestUnknownDevice(t *testing.T) {
	_, err := pl.Run(testprogs.Quickstart(), pl.Ranks(2).On(pl.DeviceNamed("tpu")), tensor.Zeros(ir.FP32, 2, 1, 256), tensor.Zeros(ir.FP32, 2, 1, 256))
	if err == nil || err.Error() != `pl.Run: unknown device "tpu": this build has `+joinNames() {
		t.Fatalf("got %v", err)
	}
}

func joinNames() string {
	s := ""
	for i, n := range runtime.DeviceNames() {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}
