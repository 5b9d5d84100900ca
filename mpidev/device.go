//go:build mpi

package mpidev

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
)

func init() {
	runtime.RegisterDevice("mpi", func(c runtime.DeviceConfig) (runtime.Device, error) { return New(c) })
}

// Timeouts of the launcher. StartTimeout bounds how long mpirun may take
// to bring every worker up; DeadlockAfter is how long every unfinished
// rank must stay blocked before the watchdog calls it a deadlock.
var (
	StartTimeout  = 10 * time.Second
	DeadlockAfter = time.Second
)

// DefaultArena is the window memory each worker starts with (bytes); a run
// that needs more is retried with enough.
var DefaultArena int64 = 64 << 20

// Device is the MPI device. It keeps one pool of workers per rank count
// alive between runs (at most two pools), so a series of runs pays
// mpirun's start-up once.
type Device struct {
	cfg runtime.DeviceConfig
	// Command is the worker's command line (default: this executable with
	// the argument mpi-worker); the worker must call MaybeWorker first.
	Command []string
	// MpirunArgs are extra mpirun arguments (--mca ...).
	MpirunArgs []string

	mu    sync.Mutex // one run at a time
	pools map[int]*pool
	order []int // pool world sizes, least recently used first
}

var _ runtime.Device = (*Device)(nil)

// New opens the MPI device; it needs mpirun on PATH.
func New(c runtime.DeviceConfig) (*Device, error) {
	if _, err := exec.LookPath("mpirun"); err != nil {
		return nil, fmt.Errorf("device mpi: mpirun is not on PATH (install openmpi-bin): %v", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("device mpi: cannot find this executable to start workers: %v", err)
	}
	return &Device{cfg: c, Command: []string{exe, "mpi-worker"}, pools: map[int]*pool{}}, nil
}

// Name is "mpi".
func (d *Device) Name() string { return "mpi" }

// Load checks p as the simulator does (the workers run its op semantics)
// and serializes it once for every run.
func (d *Device) Load(p *ir.Program) (runtime.Executable, error) {
	if _, err := runtime.Default().Load(p); err != nil {
		return nil, err
	}
	data, err := ir.MarshalProgram(p)
	if err != nil {
		return nil, fmt.Errorf("device mpi: the program cannot be serialized for the workers: %w", err)
	}
	return &executable{d: d, p: p, data: data}, nil
}

// Run loads p and runs it once.
func (d *Device) Run(ctx context.Context, p *ir.Program, args []*tensor.Tensor, o runtime.RunOptions) (*runtime.Result, error) {
	exe, err := d.Load(p)
	if err != nil {
		return nil, err
	}
	return exe.Run(ctx, args, o)
}

// Close stops every worker.
func (d *Device) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for n, p := range d.pools {
		p.quit()
		delete(d.pools, n)
	}
	d.order = nil
}

type executable struct {
	d    *Device
	p    *ir.Program
	data []byte
}

func (e *executable) Program() *ir.Program { return e.p }

// Run sends the program and args to every worker of an n-rank pool and
// merges what the ranks wrote back into args.
func (e *executable) Run(ctx context.Context, args []*tensor.Tensor, o runtime.RunOptions) (*runtime.Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.Ranks == 0 {
		o.Ranks = 2
	}
	if err := runtime.CheckRanks("run", "ranks", o.Ranks); err != nil {
		return nil, err
	}
	if o.Watchdog <= 0 {
		o.Watchdog = 30 * time.Second
	}
	host := hostFunc(e.p)
	if len(args) != len(host.Params) {
		return nil, fmt.Errorf("%s takes %d host tensors, given %d", host.Name, len(host.Params), len(args))
	}
	for i, a := range args {
		if a == nil {
			return nil, fmt.Errorf("%s: host tensor %s is nil", host.Name, host.Params[i].Name)
		}
	}
	e.d.mu.Lock()
	defer e.d.mu.Unlock()
	start := time.Now()
	wctx, cancel := context.WithTimeout(ctx, o.Watchdog)
	defer cancel()
	arena := DefaultArena
	retried := false
	for attempt := 0; ; attempt++ {
		p, err := e.d.pool(o.Ranks, arena)
		if err != nil {
			return nil, err
		}
		keep := o.MaxEvents
		if keep == 0 {
			keep = 100000
		}
		j := job{Program: e.data, Arena: arena, MaxEvents: keep}
		for name := range o.Callbacks {
			j.Callbacks = append(j.Callbacks, name)
		}
		sort.Strings(j.Callbacks)
		outs, sigs, ops, need, err := p.run(wctx, ctx, j, args, o.Watchdog, o.Callbacks)
		var stale *staleError
		if errors.As(err, &stale) && !retried {
			// The pool died while idle (a worker killed between runs):
			// this run never started, so it runs on fresh workers.
			retried = true
			e.d.drop(o.Ranks)
			continue
		}
		if need > 0 && attempt < 8 {
			arena = max(arena*2, (need+(1<<20))&^((1<<20)-1))
			continue
		}
		res := &runtime.Result{Ranks: o.Ranks, Timeline: p.timeline(), Signals: sigs, Ops: ops, Elapsed: time.Since(start), Err: err}
		if err != nil {
			e.d.drop(o.Ranks) // a failed pool is not reused
			return res, err
		}
		for i, a := range args {
			if outs[0][i] == nil {
				continue
			}
			copies := make([][]byte, len(outs))
			for r := range outs {
				copies[r] = outs[r][i]
			}
			b := a.Bytes()
			runtime.MergeHostBytes(b, b, copies)
		}
		for i := range host.Params {
			if dir := host.Direction(i); dir == ir.Out || dir == ir.InOut {
				res.Outputs = append(res.Outputs, args[i])
			}
		}
		ret, err := p.returnedTensors(outs, len(args))
		if err != nil {
			return res, err
		}
		res.Outputs = append(res.Outputs, ret...)
		return res, nil
	}
}

// returnedTensors brings together the tensors the run created and
// returned. Every process ran the host, so each that returned them holds a
// copy: a one-device program's (returned by rank 0's chip orchestrator)
// is rank 0's alone; copies from several ranks merge as host tensors do,
// from the tensor as the host created it (each rank's writes win where it
// made them).
func (p *pool) returnedTensors(outs [][][]byte, nargs int) ([]*tensor.Tensor, error) {
	var meta []wireTensor
	var copies [][][]byte // per returned tensor, the ranks' bytes
	for r, ts := range p.returned {
		if len(ts) == 0 {
			continue
		}
		if meta == nil {
			meta, copies = ts, make([][][]byte, len(ts))
		}
		if len(ts) != len(meta) || len(outs[r]) != nargs+len(ts) {
			return nil, fmt.Errorf("device mpi: rank %d returned %d tensors, another rank %d", r, len(ts), len(meta))
		}
		for i := range ts {
			copies[i] = append(copies[i], outs[r][nargs+i])
		}
	}
	var out []*tensor.Tensor
	for i, m := range meta {
		t := tensor.Zeros(m.DType, m.Shape...)
		b := t.Bytes()
		for _, c := range copies[i] {
			if len(c) != len(b) {
				return nil, fmt.Errorf("device mpi: returned tensor %d has %d bytes on one rank, %d expected", i, len(c), len(b))
			}
		}
		if len(copies[i]) == 1 {
			copy(b, copies[i][0])
		} else {
			base := m.Data
			if len(base) != len(b) {
				return nil, fmt.Errorf("device mpi: returned tensor %d comes from %d ranks without the host's bytes to merge them from", i, len(copies[i]))
			}
			runtime.MergeHostBytes(b, base, copies[i])
		}
		out = append(out, t)
	}
	return out, nil
}

// pool returns a live n-rank pool, starting one if needed.
func (d *Device) pool(n int, arena int64) (*pool, error) {
	if p, ok := d.pools[n]; ok && p.alive() {
		d.touch(n)
		return p, nil
	}
	d.drop(n)
	for len(d.order) >= 2 {
		d.drop(d.order[0])
	}
	p, err := d.start(n)
	if err != nil {
		return nil, err
	}
	d.pools[n] = p
	d.touch(n)
	return p, nil
}

func (d *Device) touch(n int) {
	out := d.order[:0]
	for _, m := range d.order {
		if m != n {
			out = append(out, m)
		}
	}
	d.order = append(out, n)
}

func (d *Device) drop(n int) {
	if p, ok := d.pools[n]; ok {
		p.kill()
		delete(d.pools, n)
	}
	out := d.order[:0]
	for _, m := range d.order {
		if m != n {
			out = append(out, m)
		}
	}
	d.order = out
}

// pool is one mpirun and its workers.
type pool struct {
	world   int
	cmd     *exec.Cmd
	ln      net.Listener
	conns   []*wconn
	events  chan event
	exited  chan struct{}
	exitMu  sync.Mutex
	exitErr error
	stderr  *tail
	jobID   int
	dead    bool
	// shm, when the workers share this machine, is a directory in memory
	// (/dev/shm) the host tensors travel through: written once, read by
	// every worker, instead of one copy per worker over its socket.
	shm string
	// What the last job's workers reported besides outputs.
	lanes    [][]runtime.Event
	host     []runtime.Event
	seconds  []float64
	returned [][]wireTensor // per rank
}

// timeline assembles the last job's events (empty lanes when the run
// stopped before a rank reported).
func (p *pool) timeline() *runtime.Timeline {
	return runtime.AssembleTimeline(p.world, p.lanes, p.host)
}

type wconn struct {
	rank int
	pid  int
	host string
	conn net.Conn
	enc  *gob.Encoder
}

type event struct {
	rank int
	rep  report
	err  error // the connection broke: the worker is gone
}

// tail keeps the last 4 KiB written to it (mpirun's stderr).
type tail struct {
	mu sync.Mutex
	b  []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = t.b[len(t.b)-4096:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}

// workerGodebug is the workers' GODEBUG: the launcher's, with freed heap
// memory returned to the system lazily (MADV_FREE). A worker's runs
// allocate and drop the same sizes over and over; with MADV_DONTNEED each
// run faulted its memory in afresh, several percent of a rank's CPU.
func workerGodebug() string {
	if g := os.Getenv("GODEBUG"); g != "" {
		return g + ",madvdontneed=0" // a setting repeated later wins
	}
	return "madvdontneed=0"
}

func (d *Device) start(n int) (*pool, error) {
	listen, advertise := "127.0.0.1:0", "127.0.0.1"
	if d.cfg.Hosts != "" || d.cfg.Hostfile != "" {
		listen = ":0"
		h, err := os.Hostname()
		if err != nil {
			return nil, fmt.Errorf("device mpi: %v", err)
		}
		advertise = h
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("device mpi: cannot listen for workers: %v", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	tok := make([]byte, 16)
	_, _ = rand.Read(tok)
	token := hex.EncodeToString(tok)
	args := []string{"--allow-run-as-root", "--oversubscribe", "-np", strconv.Itoa(n),
		"-x", envAddr + "=" + net.JoinHostPort(advertise, strconv.Itoa(port)), "-x", envToken + "=" + token,
		"-x", "GODEBUG=" + workerGodebug()}
	if d.cfg.Hostfile != "" {
		args = append(args, "--hostfile", d.cfg.Hostfile)
	} else if d.cfg.Hosts != "" {
		args = append(args, "--host", d.cfg.Hosts)
	}
	args = append(args, d.MpirunArgs...)
	args = append(args, d.Command...)
	cmd := exec.Command("mpirun", args...)
	// Worker processes inherit the group: killing it leaves nothing behind.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p := &pool{world: n, cmd: cmd, ln: ln, conns: make([]*wconn, n), events: make(chan event, 64), exited: make(chan struct{}), stderr: &tail{}}
	cmd.Stdout, cmd.Stderr = p.stderr, p.stderr
	cmd.Env = append(os.Environ(), "OMPI_MCA_btl_base_warn_component_unused=0")
	if d.cfg.Hosts == "" && d.cfg.Hostfile == "" {
		// One machine: a private directory in memory for the host tensors
		// and for OpenMPI's own shared-memory segments, which a killed
		// worker would otherwise leave in /dev/shm; kill removes it all.
		dir := ""
		if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
			dir = "/dev/shm"
		}
		if shm, err := os.MkdirTemp(dir, "ptorepl-mpi-"); err == nil {
			p.shm = shm
			for _, v := range []string{"btl_vader_backing_directory", "osc_sm_backing_directory", "osc_rdma_backing_directory", "shmem_mmap_backing_file_base_dir"} {
				cmd.Env = append(cmd.Env, "OMPI_MCA_"+v+"="+shm)
			}
		}
	}
	if err := cmd.Start(); err != nil {
		ln.Close()
		if p.shm != "" {
			os.RemoveAll(p.shm)
		}
		return nil, fmt.Errorf("device mpi: cannot start mpirun: %v", err)
	}
	go func() {
		err := cmd.Wait()
		p.exitMu.Lock()
		p.exitErr = err
		p.exitMu.Unlock()
		close(p.exited)
	}()
	if err := p.accept(token); err != nil {
		p.kill()
		return nil, err
	}
	return p, nil
}

// pack puts args into the job: through a file in p.shm when there is one,
// inline otherwise.
func (p *pool) pack(j *job, args []*tensor.Tensor) error {
	if p.shm == "" {
		for _, a := range args {
			j.Args = append(j.Args, wireTensor{DType: a.DType(), Shape: a.Shape(), Data: a.Bytes()})
		}
		return nil
	}
	f, err := os.CreateTemp(p.shm, "args-")
	if err != nil {
		return fmt.Errorf("device mpi: %v", err)
	}
	defer f.Close()
	var off int64
	for _, a := range args {
		b := a.Bytes()
		if _, err := f.Write(b); err != nil {
			return fmt.Errorf("device mpi: writing the host tensors for the workers: %v", err)
		}
		j.Args = append(j.Args, wireTensor{DType: a.DType(), Shape: a.Shape(), Off: off, Len: int64(len(b))})
		off += int64(len(b))
	}
	j.ArgsFile, j.OutDir = f.Name(), p.shm
	return nil
}

func (p *pool) unpackDone(j job) {
	if j.ArgsFile != "" {
		os.Remove(j.ArgsFile)
	}
}

// readOutputs reads (and removes) the file a worker wrote its outputs to.
func readOutputs(d *done) ([][]byte, error) {
	b, err := os.ReadFile(d.OutputsFile)
	os.Remove(d.OutputsFile)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(d.OutputLens))
	var off int64
	for i, n := range d.OutputLens {
		if n < 0 {
			continue
		}
		if off+n > int64(len(b)) {
			return nil, fmt.Errorf("%s is short", d.OutputsFile)
		}
		out[i] = b[off : off+n]
		off += n
	}
	return out, nil
}

// accept waits for every worker's hello, or fails within StartTimeout.
func (p *pool) accept(token string) error {
	type got struct {
		c   *wconn
		err error
	}
	ch := make(chan got, p.world)
	go func() {
		for i := 0; i < p.world; i++ {
			conn, err := p.ln.Accept()
			if err != nil {
				ch <- got{err: err}
				return
			}
			go func() {
				_ = conn.SetReadDeadline(time.Now().Add(StartTimeout))
				var h hello
				if err := gob.NewDecoder(conn).Decode(&h); err != nil || h.Token != token {
					conn.Close()
					ch <- got{err: fmt.Errorf("a process that is not one of this launcher's workers connected")}
					return
				}
				_ = conn.SetReadDeadline(time.Time{})
				ch <- got{c: &wconn{rank: h.Rank, pid: h.Pid, host: h.Host, conn: conn, enc: gob.NewEncoder(conn)}}
			}()
		}
	}()
	timer := time.NewTimer(StartTimeout)
	defer timer.Stop()
	for n := 0; n < p.world; {
		select {
		case g := <-ch:
			if g.err != nil {
				return fmt.Errorf("device mpi: starting %d workers: %v", p.world, g.err)
			}
			if g.c.rank < 0 || g.c.rank >= p.world || p.conns[g.c.rank] != nil {
				return fmt.Errorf("device mpi: a worker announced rank %d twice or outside the world of %d", g.c.rank, p.world)
			}
			p.conns[g.c.rank] = g.c
			n++
		case <-p.exited:
			return fmt.Errorf("device mpi: mpirun exited before its %d workers started (%s)%s", p.world, p.exitText(), p.stderrText())
		case <-timer.C:
			return fmt.Errorf("device mpi: the %d workers did not all start within %s (%d connected)%s", p.world, StartTimeout, n, p.stderrText())
		}
	}
	for _, c := range p.conns {
		go p.read(c)
	}
	return nil
}

func (p *pool) read(c *wconn) {
	dec := gob.NewDecoder(c.conn)
	for {
		var r report
		if err := dec.Decode(&r); err != nil {
			p.events <- event{rank: c.rank, err: err}
			return
		}
		p.events <- event{rank: c.rank, rep: r}
	}
}

func (p *pool) exitText() string {
	p.exitMu.Lock()
	defer p.exitMu.Unlock()
	if p.exitErr == nil {
		return "exit status 0"
	}
	return p.exitErr.Error()
}

func (p *pool) stderrText() string {
	s := p.stderr.String()
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > 12 {
		lines = lines[len(lines)-12:]
	}
	return "; mpirun said:\n    " + strings.Join(lines, "\n    ")
}

func (p *pool) alive() bool {
	if p.dead {
		return false
	}
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// quit asks the workers to finish, then makes sure they did.
func (p *pool) quit() {
	for _, c := range p.conns {
		if c != nil {
			_ = c.conn.SetWriteDeadline(time.Now().Add(time.Second))
			_ = c.enc.Encode(job{Quit: true})
		}
	}
	select {
	case <-p.exited:
	case <-time.After(3 * time.Second):
	}
	p.kill()
}

// kill ends mpirun and every worker (the whole process group; closing the
// connections also makes each worker exit) and waits for mpirun.
func (p *pool) kill() {
	p.dead = true
	if p.shm != "" {
		defer os.RemoveAll(p.shm)
	}
	if p.cmd.Process != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
	p.ln.Close()
	for _, c := range p.conns {
		if c != nil {
			c.conn.Close()
			if c.host == "" || c.host == hostname() {
				_ = syscall.Kill(c.pid, syscall.SIGKILL)
			}
		}
	}
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
	}
}

func hostname() string {
	h, _ := os.Hostname()
	return h
}

// run executes one job on the pool. need > 0 asks for a retry with that
// much window memory.
func (p *pool) run(ctx, parent context.Context, j job, args []*tensor.Tensor, watchdog time.Duration, cbs map[string]runtime.Callback) (outs [][][]byte, sigs []runtime.SignalCell, ops, need int64, err error) {
	p.jobID++
	j.ID = p.jobID
	p.lanes, p.host, p.seconds = make([][]runtime.Event, p.world), nil, make([]float64, p.world)
	p.returned = make([][]wireTensor, p.world)
	if err := p.pack(&j, args); err != nil {
		return nil, nil, 0, 0, err
	}
	defer p.unpackDone(j)
	sent := make(chan error, p.world)
	for _, c := range p.conns {
		go func(c *wconn) { sent <- c.enc.Encode(j) }(c)
	}
	outs = make([][][]byte, p.world)
	doing := make([]string, p.world)
	for i := range doing {
		doing[i] = "receiving the program"
	}
	finished := make([]bool, p.world)
	blocked := map[int]runtime.BlockedRank{}
	seen := map[int]time.Time{} // when each blocked rank last reported
	var stableSince time.Time
	var firstErr error
	var dl *runtime.DeadlockError
	nDone, nSent := 0, 0
	started := false // a worker reported on this job
	var all [][]wireSignal
	answered := make(chan *callbackReply, 1) // rank 0 waits for one at a time
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	describe := func(r int) string {
		c := p.conns[r]
		return fmt.Sprintf("rank %d (pid %d on %s)", r, c.pid, c.host)
	}
	for nDone < p.world {
		select {
		case e := <-sent:
			if e != nil && firstErr == nil {
				firstErr = fmt.Errorf("device mpi: sending the program to a worker: %v", e)
			}
			nSent++
		case e := <-p.events:
			if e.err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("device mpi: %s died while %s%s", describe(e.rank), doing[e.rank], p.stderrText())
				}
				if !started {
					return nil, nil, 0, 0, &staleError{firstErr}
				}
				return nil, nil, 0, 0, firstErr
			}
			if e.rep.Job == p.jobID {
				started = true
			}
			if e.rep.Job != p.jobID && e.rep.Kind != repDoing {
				continue
			}
			switch e.rep.Kind {
			case repDoing:
				doing[e.rank] = "running " + e.rep.Doing
			case repBlocked:
				if _, again := blocked[e.rank]; !again {
					stableSince = time.Now()
				}
				blocked[e.rank] = e.rep.Blocked
				seen[e.rank] = time.Now()
			case repUnblocked:
				delete(blocked, e.rank)
				stableSince = time.Now()
			case repCallback:
				// Off this loop, so the watchdog still runs while it does.
				doing[e.rank] = "in host callback " + e.rep.Call.Name
				go func(c *callbackCall) { answered <- runCallback(cbs, c) }(e.rep.Call)
			case repDone:
				d := e.rep.Done
				finished[e.rank] = true
				delete(blocked, e.rank)
				nDone++
				ops = max(ops, d.Ops)
				switch {
				case d.ArenaFull > 0:
					need = max(need, d.ArenaFull)
				case d.Deadlock != nil && firstErr == nil:
					firstErr = d.Deadlock
				case d.Err != "" && firstErr == nil:
					firstErr = fmt.Errorf("%s", d.Err)
				}
				if d.OutputsFile != "" {
					if d.Outputs, err = readOutputs(d); err != nil && firstErr == nil {
						firstErr = fmt.Errorf("device mpi: reading rank %d's outputs: %v", e.rank, err)
					}
				}
				outs[e.rank] = d.Outputs
				all = append(all, d.Signals)
				p.lanes[e.rank], p.seconds[e.rank] = d.Events, d.Seconds
				p.returned[e.rank] = d.Returned
				if e.rank == 0 {
					p.host = d.Host
				}
				if firstErr != nil && need == 0 {
					// The other ranks may wait forever on this one.
					return nil, nil, ops, 0, firstErr
				}
			}
		case rep := <-answered:
			for nSent < p.world { // the job's own sends share the encoder
				if e := <-sent; e != nil && firstErr == nil {
					firstErr = fmt.Errorf("device mpi: sending the program to a worker: %v", e)
				}
				nSent++
			}
			if err := p.conns[0].enc.Encode(job{ID: j.ID, Reply: rep}); err != nil && firstErr == nil {
				firstErr = fmt.Errorf("device mpi: answering rank 0's host callback: %v", err)
			}
		case <-p.exited:
			var running []string
			for r, f := range finished {
				if !f {
					running = append(running, fmt.Sprintf("%s was %s", describe(r), doing[r]))
				}
			}
			err := fmt.Errorf("device mpi: mpirun ended mid-run (%s): %s%s", p.exitText(), strings.Join(running, "; "), p.stderrText())
			if !started {
				return nil, nil, ops, 0, &staleError{err}
			}
			return nil, nil, ops, 0, err
		case <-ctx.Done():
			msg := "run cancelled"
			if parent.Err() == nil {
				msg = fmt.Sprintf("watchdog: the run took longer than %s", watchdog)
			}
			var what []string
			for r, f := range finished {
				if !f {
					what = append(what, fmt.Sprintf("rank %d was %s", r, doing[r]))
				}
			}
			if len(what) > 0 {
				msg += "; " + strings.Join(what, "; ")
			}
			return nil, nil, ops, 0, &runtime.StopError{Msg: msg, Cause: ctx.Err()}
		case <-tick.C:
			// The watchdog: every unfinished rank blocked, nothing changing.
			if len(blocked) == 0 || len(blocked) < p.world-nDone || time.Since(stableSince) < DeadlockAfter {
				continue
			}
			fresh := true // every blocked rank re-checked its cell lately
			for r := range blocked {
				fresh = fresh && time.Since(seen[r]) < 4*blockedRefresh
			}
			if !fresh {
				continue
			}
			dl = &runtime.DeadlockError{}
			for _, b := range blocked {
				dl.Blocked = append(dl.Blocked, b)
			}
			sort.Slice(dl.Blocked, func(i, k int) bool { return dl.Blocked[i].Rank < dl.Blocked[k].Rank })
			return nil, nil, ops, 0, dl
		}
	}
	for nSent < p.world {
		<-sent
		nSent++
	}
	if need > 0 {
		return nil, nil, ops, need, nil
	}
	return outs, mergeSignals(all), ops, 0, firstErr
}

// runCallback runs the user's Go function for a callback rank 0's host
// reached, on copies of its arguments, and answers with their bytes
// afterwards or its error (a panic included, as on the simulator).
func runCallback(cbs map[string]runtime.Callback, c *callbackCall) *callbackReply {
	cb := cbs[c.Name]
	if cb == nil {
		return &callbackReply{Err: fmt.Sprintf("no Go function is bound to %s", c.Name)}
	}
	ts := make([]*tensor.Tensor, len(c.Args))
	for i, a := range c.Args {
		n := a.DType.Bytes()
		for _, d := range a.Shape {
			n *= d
		}
		if len(a.Data) != n {
			return &callbackReply{Err: fmt.Sprintf("argument %d: %d bytes for a %v %v tensor", i, len(a.Data), a.Shape, a.DType)}
		}
		ts[i] = tensor.FromBytes(a.DType, a.Data, a.Shape...)
	}
	if err := runtime.CallCallback(cb, ts); err != nil {
		return &callbackReply{Err: err.Error()}
	}
	rep := &callbackReply{}
	for _, t := range ts {
		rep.Args = append(rep.Args, t.Bytes())
	}
	return rep
}

// mergeSignals joins the cells each rank notified into one entry per cell
// (target rank, buffer, offset), in the simulator's order. The history
// lists each sender's notifies in its own order, senders by rank: MPI does
// not say how notifies from different ranks interleaved.
func mergeSignals(per [][]wireSignal) []runtime.SignalCell {
	type key struct {
		rank int
		off  int64
	}
	idx := map[key]int{}
	var out []runtime.SignalCell
	for _, cells := range per {
		for _, w := range cells {
			c := w.Cell
			k := key{c.Rank, w.Off}
			i, ok := idx[k]
			if !ok {
				idx[k] = len(out)
				c.SetBy = maps.Clone(c.SetBy)
				out = append(out, c)
				continue
			}
			m := &out[i]
			m.Notifies += c.Notifies
			for s := range c.SetBy {
				m.SetBy[s] = true
			}
			m.History = append(m.History, c.History...)
			if len(m.History) > 64 {
				m.History = m.History[:64]
			}
			m.Value = c.Value
		}
	}
	runtime.SortSignalCells(out)
	return out
}

// staleError is a pool found dead before any worker took up the job.
type staleError struct{ err error }

func (e *staleError) Error() string { return e.err.Error() }
func (e *staleError) Unwrap() error { return e.err }

var _ = bytes.Equal
var _ = errors.New

// RecordsTimeline marks the MPI device as a runtime.TimelineDevice: each
// worker records its rank's ops (and rank 0 the host's) against a common
// start, a barrier all workers leave together.
func (d *Device) RecordsTimeline() {}

var _ runtime.TimelineDevice = (*Device)(nil)

// AllreduceBaseline times OpenMPI's own MPI_Allreduce (MPI_SUM of elems
// floats) in the n-rank worker pool: iters calls after warmup and a
// barrier, the mean per call, the slowest rank's. It is the yardstick for
// the device's allreduce, measured in the same processes.
func (d *Device) AllreduceBaseline(ctx context.Context, n, elems, warmup, iters int) (time.Duration, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	p, err := d.pool(n, DefaultArena)
	if err != nil {
		return 0, err
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	j := job{Arena: DefaultArena, Baseline: &baseline{Elems: elems, Warmup: warmup, Iters: iters}}
	if _, _, _, _, err := p.run(wctx, ctx, j, nil, 5*time.Minute, nil); err != nil {
		d.drop(n)
		return 0, err
	}
	worst := 0.0
	for _, s := range p.seconds {
		worst = max(worst, s)
	}
	return time.Duration(worst * float64(time.Second)), nil
}

// Pids lists the processes of the live n-rank pool: mpirun first, then the
// workers by rank (nil when there is none). Fault tests use it to kill a
// worker and to check that nothing is left behind.
func (d *Device) Pids(n int) []int {
	d.mu.Lock()
	defer d.mu.Unlock()
	p, ok := d.pools[n]
	if !ok || !p.alive() {
		return nil
	}
	out := []int{p.cmd.Process.Pid}
	for _, c := range p.conns {
		out = append(out, c.pid)
	}
	return out
}
