// Package checker is ptorepl's protocol checker: it watches a simulated
// multi-rank run through the runtime's Observer hooks and names the
// protocol bugs that on hardware show up as hangs or wrong numbers.
//
// What it finds:
//
//   - Data races on window memory, by happens-before. Every rank carries a
//     vector clock; a notify releases the notifier's clock into the signal
//     cell and a wait (or a comm_test that succeeds) acquires the clocks of
//     the notifies it observed, so a barrier built from notify/wait orders
//     what it should. Every window access (local load/store/read/write,
//     remote_load/remote_store/put/get, collectives' internal copies) is
//     recorded by byte range in an interval map per rank copy of each
//     buffer. Two conflicting accesses — different ranks, overlapping
//     ranges, at least one a plain write — that happens-before does not
//     order are a race, reported with both sides: rank, op, function,
//     source position and the overlapping region (data[0, 0:64]). Atomic
//     adds against atomic adds are not a race.
//   - Deadlocks explained: for each blocked rank, the history of the cell it
//     waits on (who notified what, in order) and a diagnosis: an Eq wait
//     overtaken by a fast peer, a notify of 0, a cell nobody notifies, a
//     wait on the wrong cell, a barrier only some ranks enter.
//   - Waits a fast peer can overtake: an Eq wait whose cell a peer moves on
//     with a notify nothing orders after the wait — a deadlock waiting for
//     the wrong schedule, reported even when this run got lucky.
//   - Stale signal reuse: a wait satisfied by the same notifies an earlier
//     wait on the cell already consumed (a second Ge 1 barrier on the same
//     cells passes at once).
//   - Signal hygiene: cells written by both Set and AtomicAdd (an error when
//     the two are not ordered), and cells left non-zero at the end of the run.
//   - In the relaxed memory mode (Options.Relaxed, relaxed.go): writes read
//     before a fence made them visible, notifies that overtook the data they
//     publish, and reads of a rank's own window that a stale cache line may
//     serve, each with the fence or cacheinvalid that fixes it, typed
//     (Finding.Weak).
//
// Run runs a program with the checker attached and returns the run's result,
// a Report (String for text, HTML for notebooks) and the run's error (a
// deadlock comes back as a *DeadlockError that wraps the runtime's and carries
// the explanation). Options.Disabled runs without the checker. New returns a
// bare Checker to attach as runtime.RunOptions.Observer when the caller runs
// the device itself. Explore runs a program under K seeded schedules
// (runtime.RunOptions.Seed perturbs the simulator's timing) so timing-dependent
// bugs show up with the seed that reproduces them.
//
// Verify explores every schedule instead: it runs the simulator under
// control (runtime.RunOptions.Schedule, one rank at a time, a Chooser
// deciding at every synchronising event) and applies dynamic partial-order
// reduction over the events' footprints — the backtracking of C. Flanagan
// and P. Godefroid, "Dynamic partial-order reduction for model checking
// software", POPL 2005, with the sleep sets of P. Godefroid, "Partial-Order
// Methods for the Verification of Concurrent Systems", LNCS 1032, 1996 (see
// verify_dpor.go; the optimal DPOR of P. Abdulla, S. Aronis, B. Jonsson and
// K. Sagonas, POPL 2014, behind the Nidhugg and GenMC tools, explores
// fewer redundant runs). Each complete schedule is checked as Run checks
// one, against the first schedule's outputs too; the first failure is a
// counterexample that runtime.NewReplay replays. A budget of runs bounds
// the work with an incomplete result.
package checker
