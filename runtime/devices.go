package runtime

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
)

// Optional device capabilities. A Device only has to load and run; what
// goes beyond that is declared by implementing one of these small
// interfaces, and callers (the checker, pl, the front-ends) ask for a
// capability before relying on the RunOptions field it serves. A device
// without one simply ignores that field.

// ObservingDevice calls RunOptions.Observer for every window access,
// notify and wait, in an order consistent with memory: what the checker's
// race detection needs.
type ObservingDevice interface {
	Device
	ObservesAccesses()
}

// SeededDevice perturbs its schedule reproducibly from RunOptions.Seed
// (schedule exploration).
type SeededDevice interface {
	Device
	SeedsSchedule()
}

// TimelineDevice fills Result.Timeline with per-rank op events
// (RunOptions.MaxEvents); other devices return an empty timeline.
type TimelineDevice interface {
	Device
	RecordsTimeline()
}

// ProgressDevice calls RunOptions.Progress while a run lasts.
type ProgressDevice interface {
	Device
	ReportsProgress()
}

// The simulator provides every capability.
var (
	_ ObservingDevice = (*Simulator)(nil)
	_ SeededDevice    = (*Simulator)(nil)
	_ TimelineDevice  = (*Simulator)(nil)
	_ ProgressDevice  = (*Simulator)(nil)
)

// ObservesAccesses marks the simulator as an ObservingDevice.
func (*Simulator) ObservesAccesses() {}

// SeedsSchedule marks the simulator as a SeededDevice.
func (*Simulator) SeedsSchedule() {}

// RecordsTimeline marks the simulator as a TimelineDevice.
func (*Simulator) RecordsTimeline() {}

// ReportsProgress marks the simulator as a ProgressDevice.
func (*Simulator) ReportsProgress() {}

// --- the device registry: one name per device, chosen by every front-end
// (pl's On, the REPL's :run -device, ptorepl run --device, the kernel).

// DeviceConfig is what a front-end passes when it opens a device by name.
type DeviceConfig struct {
	// Hosts lists the machines ranks run on ("a,b" or "a:4,b:4"); empty:
	// this machine. Devices that run in-process ignore it.
	Hosts string
	// Hostfile names an MPI-style hostfile; it wins over Hosts.
	Hostfile string
}

// DeviceFactory opens a device.
type DeviceFactory func(DeviceConfig) (Device, error)

var (
	devMu     sync.Mutex
	factories = map[string]DeviceFactory{
		"sim": func(DeviceConfig) (Device, error) { return NewSimulator(), nil },
	}
	// missingHints say how to get a device this build lacks.
	missingHints = map[string]string{
		"mpi": "this ptorepl was built without MPI; rebuild with `go build -tags mpi` (cgo and OpenMPI: apt-get install libopenmpi-dev openmpi-bin)",
	}
)

// Default is the default device, the embedded simulator.
func Default() Device { return NewSimulator() }

// DefaultDevice is the device name used when none is given.
const DefaultDevice = "sim"

// RegisterDevice makes a device available under name (a package that
// implements one registers it from init, possibly under a build tag).
func RegisterDevice(name string, f DeviceFactory) {
	devMu.Lock()
	defer devMu.Unlock()
	factories[name] = f
}

// DeviceNames lists the devices in this build, sorted.
func DeviceNames() []string {
	devMu.Lock()
	defer devMu.Unlock()
	return deviceNamesLocked()
}

func deviceNamesLocked() []string {
	out := make([]string, 0, len(factories))
	for n := range factories {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

var opened = map[openKey]Device{}

type openKey struct {
	name string
	c    DeviceConfig
}

// OpenDevice opens the device called name ("" is DefaultDevice), once per
// name and configuration: every front-end gets the same device, so one
// that keeps workers alive between runs reuses them. A device this build
// lacks is an error saying how to build with it.
func OpenDevice(name string, c DeviceConfig) (Device, error) {
	if name == "" {
		name = DefaultDevice
	}
	devMu.Lock()
	defer devMu.Unlock()
	if d, ok := opened[openKey{name, c}]; ok {
		return d, nil
	}
	f, ok := factories[name]
	if !ok {
		if hint, known := missingHints[name]; known {
			return nil, fmt.Errorf("device %q is not available: %s", name, hint)
		}
		return nil, fmt.Errorf("unknown device %q: this build has %s", name, strings.Join(deviceNamesLocked(), ", "))
	}
	d, err := f(c)
	if err == nil {
		opened[openKey{name, c}] = d
	}
	return d, err
}

// --- running one rank of a program against another device's Windows

// RankRun configures RunRank.
type RankRun struct {
	// Rank is the rank this process executes; World the world size.
	Rank, World int
	// Windows is the window layer every op of the rank goes through.
	Windows Windows
	// Join, if set, is called each time the host orchestrator joined its
	// rank (before a host op that may read what ranks wrote): the point
	// where a multi-process device brings its copies of the host tensors
	// together, the parameters and the tensors the host created so far
	// (created, in creation order: each process's Data merged from Base,
	// then Base set to the result). An error stops the run.
	Join func(created []HostBuf) error
	// Stop, if set, is called once when the run stops early (an error on
	// this process): Windows should then return from waits it blocks in.
	Stop func()
	// MaxEvents > 0 records up to that many timeline events for the rank
	// and the host (RankResult); Origin is the time they count from.
	MaxEvents int
	Origin    time.Time
	// Callbacks bind the program's host callbacks as RunOptions.Callbacks
	// do. Every process's host reaches each callback call at the same
	// point, right after a Join: a multi-process device makes one call of
	// the user's function and hands every process its result.
	Callbacks map[string]Callback
}

// HostBuf is a tensor the host created, in a process that runs one rank:
// its bytes, and its bytes as of the last join.
type HostBuf struct {
	Data, Base []byte
}

// RankResult is what RunRank ran: the op count (the host's and the
// rank's), and with RankRun.MaxEvents the rank's and the host's timeline
// events (ticks count within this process only).
type RankResult struct {
	Ops    int64
	Events []Event
	Host   []Event
	// Returned are the tensors the host function (or, for a one-device
	// program, its chip orchestrator when this rank ran it) created and
	// returned: this process's copies. ReturnedBase holds, for each one
	// the host created, its bytes as created (the same in every process,
	// the base MergeHostBytes merges the copies from), else nil.
	Returned     []*tensor.Tensor
	ReturnedBase [][]byte
}

// RunRank executes p the way the simulator does, but for one rank only:
// the host orchestrator runs here in full (every process runs the same
// one, so window allocations happen in the same order everywhere), and
// only the tasks dispatched to o.Rank execute; the other ranks are other
// processes reached through o.Windows. Host tensors in args are this
// process's copies; the ranks' writes to them meet again through Join and
// whatever the device does after the run. It returns how many ops ran.
func RunRank(ctx context.Context, p *ir.Program, args []*tensor.Tensor, o RankRun) (res RankResult, err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := CheckRanks("run", "ranks", o.World); err != nil {
		return res, err
	}
	if o.Rank < 0 || o.Rank >= o.World {
		return res, fmt.Errorf("rank %d is outside the world of %d ranks", o.Rank, o.World)
	}
	if o.Windows == nil {
		return res, fmt.Errorf("RunRank: no Windows given for rank %d", o.Rank)
	}
	exe, err := NewSimulator().Load(p)
	if err != nil {
		return res, err
	}
	max := o.MaxEvents
	if max <= 0 {
		max = -1
	}
	s := newSim(p, RunOptions{Ranks: o.World, MaxEvents: max, Watchdog: time.Hour, Callbacks: o.Callbacks})
	if !o.Origin.IsZero() {
		s.timeline.origin = o.Origin
	}
	s.mem, s.win, s.only = nil, o.Windows, o.Rank
	if o.Join != nil {
		s.onJoin = func() error {
			s.createdMu.Lock()
			created := append([]HostBuf(nil), s.created...)
			s.createdMu.Unlock()
			return o.Join(created)
		}
	}
	s.entryCall = exe.(*loaded).entry
	s.createdBy = map[*byte]int{}
	s.compiled = exe.(*loaded).compiled // device code on the compiled executor, as in Run
	s.timeline.static = &s.compiled.sites
	s.sched.onStop = o.Stop
	stop := context.AfterFunc(ctx, func() {
		s.sched.fail(&StopError{Msg: "run cancelled", Cause: ctx.Err()})
	})
	defer stop()
	err = s.runHost(exe.(*loaded).host, args)
	s.timeline.finish()
	res = RankResult{Ops: s.ops.Load(), Events: s.timeline.laneEvents(o.Rank), Host: s.timeline.laneEvents(-1)}
	for _, r := range s.returned() {
		if t := s.createdReturns([]any{r}); len(t) == 1 {
			res.Returned = append(res.Returned, t[0])
			var base []byte
			if v := r.(*view); v != nil {
				if i, ok := s.createdBy[&v.host[0]]; ok {
					base = v.bytesOf(s.created[i].Base)
				}
			}
			res.ReturnedBase = append(res.ReturnedBase, base)
		}
	}
	return res, err
}

// AssembleTimeline builds a run's timeline from per-rank events recorded
// in separate processes (RankResult.Events, in rank order) and one
// process's host events: ticks are renumbered run-wide by wall time.
func AssembleTimeline(ranks int, lanes [][]Event, host []Event) *Timeline {
	t := NewEmptyTimeline(ranks)
	t.Host = host
	for r := 0; r < ranks && r < len(lanes); r++ {
		t.Lanes[r] = lanes[r]
	}
	t.recorded = false
	numberTicks(t.Host, t.Lanes)
	return t
}

// NewEmptyTimeline is the timeline of a device that records none: ranks
// lanes, no events.
func NewEmptyTimeline(ranks int) *Timeline {
	t := newTimeline(ranks, -1, nil)
	t.finish()
	t.Expand()
	return t
}

// FoldBytes sets acc to srcs folded element by element with op, in order
// (acc = srcs[0], then acc[i] = op(acc[i], srcs[k][i]) rounded to dt): the
// arithmetic of Windows.Reduce, for implementations outside this package.
// Every src holds len(acc) bytes.
func FoldBytes(dt ir.DataType, op ir.ReduceOp, acc []byte, srcs [][]byte) error {
	if _, ok := reduceOps[op]; !ok {
		return fmt.Errorf("unknown reduction %d", op)
	}
	if len(srcs) == 0 {
		return fmt.Errorf("a reduction over no ranks")
	}
	for _, s := range srcs {
		if len(s) != len(acc) {
			return fmt.Errorf("a reduction of %d-byte sources into a %d-byte accumulator", len(s), len(acc))
		}
	}
	foldBytes(dt, op, acc, srcs[0], srcs[1:])
	return nil
}

// AccumulateBytes adds vals to the dt elements of b, rounding each sum to
// dt: the arithmetic of Windows.Accumulate.
func AccumulateBytes(dt ir.DataType, b []byte, vals []float64) {
	accumulate(dt, b, vals)
}

// CheckSegments reports a segment list that overflows buf, with the
// simulator's wording.
func CheckSegments(buf *WindowBuf, segs []Segment) error { return checkSegs(buf, segs) }

// MergeHostBytes brings a host tensor's copies back together after ranks
// ran in separate processes: every byte a copy changed from base wins
// (copies in rank order, so a later rank wins a byte two ranks changed,
// which the simulator would report as a race), and dst gets the result.
// base, every copy and dst have the same length; dst may be base.
func MergeHostBytes(dst, base []byte, copies [][]byte) {
	n := len(base)
	if n == 0 {
		return
	}
	out := dst
	if &dst[0] == &base[0] {
		out = append([]byte(nil), base...)
	} else {
		copy(out, base)
	}
	for _, c := range copies {
		i := 0
		for ; i+8 <= n; i += 8 {
			if string(c[i:i+8]) == string(base[i:i+8]) {
				continue
			}
			for k := i; k < i+8; k++ {
				if c[k] != base[k] {
					out[k] = c[k]
				}
			}
		}
		for ; i < n; i++ {
			if c[i] != base[i] {
				out[i] = c[i]
			}
		}
	}
	if &out[0] != &dst[0] {
		copy(dst, out)
	}
}
