//go:build mpi

package mpidev

import (
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
)

// The launcher and its workers talk gob over one TCP connection per
// worker: a hello, then jobs one way and reports the other.

// Environment the launcher passes through mpirun (-x).
const (
	envAddr  = "PTOREPL_MPI_LAUNCHER" // host:port the worker dials
	envToken = "PTOREPL_MPI_TOKEN"    // proves the worker belongs to this launcher
)

type hello struct {
	Token string
	Rank  int
	World int
	Pid   int
	Host  string
}

type wireTensor struct {
	DType ir.DataType
	Shape []int
	Data  []byte
	// Off and Len place the data in job.ArgsFile when Data is not sent.
	Off, Len int64
}

// job is one run: the serialized program and the host tensors; Arena is
// the window memory each worker must provide (bytes).
type job struct {
	ID      int
	Program []byte
	Args    []wireTensor
	Arena   int64
	Quit    bool
	// ArgsFile, when set, holds every arg's bytes (wireTensor.Off/Len);
	// OutDir is where a worker writes its outputs instead of sending them.
	ArgsFile string
	OutDir   string
	// MaxEvents is RunOptions.MaxEvents (timeline events kept per rank).
	MaxEvents int
	// Baseline, when set, makes the job a timing of MPI_Allreduce itself
	// instead of a program run.
	Baseline *baseline
	// Callbacks name the host callbacks the run binds; the launcher runs
	// them when rank 0 asks (report.Call).
	Callbacks []string
	// Reply, when set, is no job: it answers rank 0's callback request of
	// the running job.
	Reply *callbackReply
}

// callbackCall asks the launcher to run the host callback Name on Args
// (rank 0's copies, after the host joined every rank).
type callbackCall struct {
	Name string
	Args []wireTensor
}

// callbackReply is the callback's error text, or every argument's bytes
// after it ran (what it wrote to its Out and InOut arguments).
type callbackReply struct {
	Err  string
	Args [][]byte
}

// baseline times Iters calls of MPI_Allreduce(MPI_SUM, MPI_FLOAT) of
// Elems floats after a barrier and Warmup calls.
type baseline struct {
	Elems, Warmup, Iters int
}

// report kinds.
const (
	repDoing     = "doing"
	repBlocked   = "blocked"
	repUnblocked = "unblocked"
	repDone      = "done"
	repCallback  = "callback"
)

type report struct {
	Job     int
	Kind    string
	Doing   string
	Blocked runtime.BlockedRank
	Done    *done
	Call    *callbackCall
}

type done struct {
	Ops int64
	// Err is the run's error text; Deadlock is set for a deadlock this
	// worker proved itself (a wait on rank-private memory).
	Err       string
	Deadlock  *runtime.DeadlockError
	ArenaFull int64 // when non-zero: the run needs at least this much window memory
	// Outputs are the parameters' bytes (nil for one that is not an
	// output), then the bytes of each tensor in Returned.
	Outputs [][]byte
	// Returned describes the tensors the run created and returned on this
	// rank (see runtime.RankResult.Returned): dtype and shape, and in Data
	// a host-created one's bytes as created (the merge's base); the
	// bytes themselves travel among the outputs.
	Returned []wireTensor
	// OutputsFile holds the outputs back to back (OutputLens each, -1 for
	// a parameter that is not an output) when the job named an OutDir.
	OutputsFile string
	OutputLens  []int64
	Signals     []wireSignal // the cells this rank notified, with final values
	Events      []runtime.Event
	Host        []runtime.Event // rank 0 only
	// Seconds is a baseline job's mean time per call on this rank.
	Seconds float64
}

// wireSignal is a notified cell and where it lies in the target's arena:
// the same on every worker, unlike buffer names, which may carry a
// counter that differs between processes.
type wireSignal struct {
	Cell runtime.SignalCell
	Off  int64
}
