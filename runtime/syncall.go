package runtime

import (
	"fmt"
	"runtime"

	"github.com/ptorepl/ptorepl/ir"
)

// system.syncall: a barrier across the blocks of an Spmd launch. A launch
// whose kernels meet at one cannot run its blocks one after another, so it
// runs them as coroutines: each block on its own goroutine with its own
// frame and on-chip buffer, one at a time, handing over at a barrier (or
// when it ends) to the next block that can run. Until a block reaches a
// syncall the order is the same as a sequential launch's. A barrier some
// block can never reach (it ended, or waits at another) is reported as a
// deadlock naming the blocks.

// blockState is where a block of a barrier launch is.
type blockState int

const (
	blockNew blockState = iota
	blockReady
	blockRunning
	blockWaiting
	blockDone
)

// blockSched schedules the blocks of one launch.
type blockSched struct {
	x       *Exec
	state   []blockState
	ub      []ubState
	wake    []chan bool // true: run on; false: stop (the launch failed)
	arrived int         // blocks waiting at the current barrier
	final   chan error
	sync    *ir.Call // the barrier the waiting blocks are at
}

func init() {
	Register(ir.SystemSyncall, func(x *Exec, c *ir.Call, a []any) (any, error) {
		if x.rc == nil || x.rc.blocks <= 1 {
			return nil, nil // one block: everyone has arrived
		}
		if x.rc.sched == nil {
			return nil, fmt.Errorf("%s: the blocks of this launch run one after another here, so they cannot meet at a barrier", c.Name())
		}
		return nil, x.rc.sched.arrive(x.rc.block, c)
	})
}

// reaches reports whether s, or a function it calls, makes a call that
// match accepts; seen are the functions already looked at.
func reaches(p *ir.Program, s ir.Stmt, match func(*ir.Call) bool, seen map[string]bool) bool {
	found := false
	ir.WalkStmt(s, func(e ir.Expr) {
		c, ok := e.(*ir.Call)
		if !ok || found {
			return
		}
		if match(c) {
			found = true
			return
		}
		if c.Fn != nil && p != nil && !seen[c.Fn.Name] {
			seen[c.Fn.Name] = true
			if f := p.Function(c.Fn.Name); f != nil && reaches(p, f.Body, match, seen) {
				found = true
			}
		}
	}, nil)
	return found
}

// meetsAtBarrier reports whether s, or a function it calls, reaches a
// system.syncall.
func meetsAtBarrier(p *ir.Program, s ir.Stmt) bool {
	return reaches(p, s, func(c *ir.Call) bool { return c.Op == ir.SystemSyncall }, map[string]bool{})
}

// spmdTogether runs the cnt blocks of launch s, whose kernels meet at
// syncall barriers, as coroutines, each running body on a copy of fr. The
// last block's frame is what the launch leaves behind, as with a
// sequential launch.
func (x *Exec) spmdTogether(s *ir.ScopeStmt, cnt int, fr *frame, body cstmt) ([]any, bool, error) {
	frames := make([]*frame, cnt)
	for k := range frames {
		frames[k] = &frame{x: fr.x, slots: append([]any(nil), fr.slots...), args: make([][]any, len(fr.args)), ituples: make([]*intTuple, len(fr.ituples))}
	}
	err := x.blocksTogether(cnt, func(k int) error {
		_, _, err := body(frames[k])
		return err
	})
	if err != nil {
		return nil, false, err
	}
	copy(fr.slots, frames[cnt-1].slots)
	return nil, false, nil
}

// blocksTogether runs block k of a cnt-block launch as run(k), the blocks
// as coroutines that hand over at syncall barriers (see blockSched).
func (x *Exec) blocksTogether(cnt int, run func(k int) error) error {
	rc := x.rc
	block, blocks, ub, outer := rc.block, rc.blocks, rc.ub, rc.sched
	defer func() { rc.block, rc.blocks, rc.ub, rc.sched = block, blocks, ub, outer }()
	b := &blockSched{x: x, state: make([]blockState, cnt), ub: make([]ubState, cnt), wake: make([]chan bool, cnt), final: make(chan error, 1)}
	for k := range b.wake {
		b.wake[k] = make(chan bool, 1)
	}
	rc.sched, rc.blocks = b, cnt
	for k := 0; k < cnt; k++ {
		go func(k int) {
			if !<-b.wake[k] {
				return // stopped before it started
			}
			b.enter(k)
			defer func() {
				if p := recover(); p != nil {
					b.finish(k, fmt.Errorf("block %d: %v", k, p))
				}
			}()
			b.finish(k, run(k))
		}(k)
	}
	b.state[0] = blockRunning
	b.wake[0] <- true
	return <-b.final
}

// enter makes block k the one running on the rank.
func (b *blockSched) enter(k int) {
	rc := b.x.rc
	rc.block, rc.ub = k, b.ub[k]
}

// leave keeps block k's on-chip buffer while another block runs.
func (b *blockSched) leave(k int) { b.ub[k] = b.x.rc.ub }

// arrive is block k reaching barrier c: the last of the launch's blocks
// to arrive releases the others and runs on; the others hand over and
// wait.
func (b *blockSched) arrive(k int, c *ir.Call) error {
	b.state[k] = blockWaiting
	b.arrived++
	b.sync = c
	if b.arrived == len(b.state) {
		b.release()
		b.state[k] = blockRunning
		return nil
	}
	next := b.next(k)
	if next < 0 {
		return b.deadlock()
	}
	b.leave(k)
	b.run(next)
	if !<-b.wake[k] {
		// The launch failed in another block, which owns the rank now:
		// end this goroutine without running any more of the executor.
		runtime.Goexit()
	}
	b.enter(k)
	return nil
}

// finish is block k's end (err: how it failed).
func (b *blockSched) finish(k int, err error) {
	b.state[k] = blockDone
	if err != nil {
		b.stop(err)
		return
	}
	if b.live() == 0 {
		b.final <- nil
		return
	}
	// Blocks waiting at a barrier this one ended without reaching can
	// never go on.
	if b.arrived > 0 {
		b.stop(posErr(b.sync.Pos, b.deadlock()))
		return
	}
	next := b.next(k)
	if next < 0 {
		b.stop(b.deadlock())
		return
	}
	b.leave(k)
	b.run(next)
}

// live counts the blocks that have not ended.
func (b *blockSched) live() int {
	n := 0
	for _, s := range b.state {
		if s != blockDone {
			n++
		}
	}
	return n
}

// release lets every block waiting at the barrier run on.
func (b *blockSched) release() {
	for k, s := range b.state {
		if s == blockWaiting {
			b.state[k] = blockReady
		}
	}
	b.arrived = 0
}

// next is the first block after k that can run (-1: none).
func (b *blockSched) next(k int) int {
	n := len(b.state)
	for i := 1; i <= n; i++ {
		j := (k + i) % n
		if b.state[j] == blockNew || b.state[j] == blockReady {
			return j
		}
	}
	return -1
}

func (b *blockSched) run(k int) {
	b.state[k] = blockRunning
	b.wake[k] <- true
}

// deadlock describes a barrier some blocks wait at that the others can
// no longer reach.
func (b *blockSched) deadlock() error {
	var waiting, done []int
	for k, s := range b.state {
		switch s {
		case blockWaiting:
			waiting = append(waiting, k)
		case blockDone:
			done = append(done, k)
		}
	}
	return fmt.Errorf("deadlock: blocks %v wait at %s, which blocks %v ended without reaching (every block of the launch must arrive)", waiting, b.sync.Name(), done)
}

// stop ends the launch with err: every block not yet ended is told to stop.
func (b *blockSched) stop(err error) {
	for k, s := range b.state {
		if s == blockNew || s == blockWaiting || s == blockReady {
			b.state[k] = blockDone
			b.wake[k] <- false
		}
	}
	b.final <- err
}
