package runtime

import "github.com/ptorepl/ptorepl/ir"

// Observer sees every interaction of ranks with window memory and signals,
// for tools such as the protocol checker (happens-before race detection,
// signal hygiene). The simulator calls it from rank goroutines but never
// concurrently (unless it is a ConcurrentObserver that asks for it): calls
// are serialised, and their order agrees with the order the effects took
// place in memory (a notify is reported before any wait that observed it;
// one rank's events arrive in program order). An Observer must not call
// back into the run.
type Observer interface {
	// Access is called for every read or write of window memory: local
	// loads/stores/reads/writes on a rank's own window and RMA on a peer's.
	// Signal notifies and waits are reported by Notify and Wait instead.
	Access(a Access)
	// Notify is called after a notify (pld.system.notify, tile.comm_notify,
	// or a collective's internal barrier) changed a signal cell.
	Notify(n Notification)
	// Wait is called when a wait returns (or a comm_test evaluates); it
	// names how many notifies of the cell it observed.
	Wait(w WaitResult)
	// End is called once when the run ends (also after an error), with
	// the final value of every signal cell a notify touched.
	End(e RunEnd)
}

// AccessKind says how an access touched memory.
type AccessKind int

// Access kinds.
const (
	Read   AccessKind = iota
	Write             // a plain store
	Atomic            // an atomic accumulate (remote_store / put / store with atomic=Add)
)

func (k AccessKind) String() string {
	switch k {
	case Read:
		return "read"
	case Write:
		return "write"
	}
	return "atomic"
}

// ByteRange is [Lo, Hi) in bytes from the start of a window buffer.
type ByteRange struct{ Lo, Hi int }

// Origin is the op on whose behalf memory is touched.
type Origin struct {
	Call *ir.Call // the op (its Pos is the cell line that built it); nil for host-side copies
	Func string   // the function it runs in
	// View is the element layout of the window view a memory access went
	// through, so tools can name a byte range by element indices
	// (data[0, 0:64]). It is nil for signal ops and when no observer is
	// attached.
	View *ViewLayout
}

// ViewLayout is the element layout of a window view: element [i0, i1, ...]
// of the view lies at byte ElemBytes·(Offset + Σ ik·Strides[k]) of the
// window buffer. Strides are those of the window view the program built
// (row-major), so a sub-view keeps its parent's strides.
type ViewLayout struct {
	ElemBytes int
	Shape     []int // the accessed view's shape
	Strides   []int // in elements
	Offset    int   // element offset of the view's [0, ...]
}

// ConcurrentObserver is an Observer that may be called from several ranks
// at once, which the simulator then does instead of serialising every
// call: calls about the same rank's copy of a window buffer still come one
// at a time, in the order their effects took place (each is made under
// that copy's lock; reads of it may come together, and they commute), so
// a notify is still reported before any wait that observed it, and one
// rank's events still arrive in program order. Joined and End come when
// no rank runs. ObservesConcurrently is asked once when a run starts.
type ConcurrentObserver interface {
	Observer
	ObservesConcurrently() bool
}

// JoinObserver is an Observer that also wants to know when the host
// orchestrator joined every rank (it does before any host op that is not
// pure dispatch bookkeeping): everything any rank did before Joined happens
// before everything dispatched after it.
type JoinObserver interface {
	Observer
	Joined()
}

// Access is one window-memory access.
type Access struct {
	Rank   int // the rank that executed the op
	Target int // the rank whose copy of the window was touched (== Rank for local access)
	Origin
	Buffer string // the window buffer's name
	Ranges []ByteRange
	Kind   AccessKind
}

// Cell names a signal cell: an INT32 element of a window buffer on a rank.
type Cell struct {
	Rank   int    // whose copy
	Buffer string // window buffer name
	Offset int    // byte offset in the buffer
	Index  []int  // the element index as the op named it (row-major in its view)
}

// NotifyKind is Set or AtomicAdd.
type NotifyKind int

// Notify kinds.
const (
	NotifyAtomicAdd NotifyKind = iota
	NotifySet
)

func (k NotifyKind) String() string {
	if k == NotifySet {
		return "Set"
	}
	return "AtomicAdd"
}

// Notification is one applied notify.
type Notification struct {
	Rank int // the notifying rank
	Origin
	Cell  Cell
	Kind  NotifyKind
	Value int32 // operand
	Old   int32
	New   int32
	// Seq is this notify's position in the cell's history (0-based); a wait
	// that reports Observed = k has seen notifies 0..k-1.
	Seq int
}

// WaitResult is a wait (or test) that returned.
type WaitResult struct {
	Rank int
	Origin
	Cell      Cell
	Value     int32 // the cell value the wait saw
	Satisfied bool  // always true for a wait; comm_test may return false
	Observed  int   // notifies of the cell applied before it returned
	Cond      Cond  // the condition waited for (or tested)
}

// RunEnd closes a run.
type RunEnd struct {
	Signals   []SignalCell
	Err       error
	Overlaps  []TileOverlap // tiles clobbered while live on the on-chip buffer
	TaskRaces []TaskRace    // manual-scope tasks unordered by deps sharing bytes
}
