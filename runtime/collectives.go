package runtime

import (
	"fmt"
	"math"

	"github.com/ptorepl/ptorepl/ir"
)

// Collectives at tensor level, run as the mesh recipe the lowering emits:
// credit barrier (notify every peer's cell [me, 0], wait for Ge on mine),
// remote reads, a second barrier so nobody overwrites data a peer still
// reads (seed #1746's post-reduce barrier), the local write, and finally
// each rank subtracts the credits it received so the signal returns to
// zero and a second call on it works. Every step goes through the same
// notify/wait machinery as user code, so deadlock detection covers it.

func (x *Exec) meshCell(sig *region, s int) (int, []int, error) {
	if len(sig.shape) != 2 || sig.shape[0] < x.s.world || sig.shape[1] != 1 {
		return 0, nil, fmt.Errorf("signal: a mesh collective needs an [NR, 1] INT32 signal (NR = %d), given %v", x.s.world, sig.shape)
	}
	idx := []int{s, 0}
	o, err := sig.elemOffset(idx)
	return o * 4, idx, err
}

// barrierPhase notifies every peer and waits for k credits from each; with
// clear it then removes those k credits.
func (x *Exec) barrierPhase(c *ir.Call, sig *region, k int64, clear bool) error {
	me := x.Rank
	for p := 0; p < x.s.world; p++ {
		if p == me {
			continue
		}
		off, idx, err := x.meshCell(sig, me)
		if err != nil {
			return err
		}
		if err := x.s.notify(me, p, sig.win, off, idx, 1, false); err != nil {
			return err
		}
	}
	for s := 0; s < x.s.world; s++ {
		if s == me {
			continue
		}
		off, idx, err := x.meshCell(sig, s)
		if err != nil {
			return err
		}
		info := BlockedRank{Rank: me, Op: c.Op.Name, Pos: c.Pos, Func: x.fnName(),
			Cell: cellName(sig.win.Name, []any{int64(s), int64(0)}), Want: fmt.Sprintf(">= %d", k)}
		if err := x.s.wait(me, sig.win, off, idx, info, func(v int64) bool { return v >= k }); err != nil {
			return err
		}
	}
	if clear {
		return x.clearCredits(sig, k)
	}
	return nil
}

func (x *Exec) clearCredits(sig *region, k int64) error {
	for s := 0; s < x.s.world; s++ {
		if s == x.Rank {
			continue
		}
		off, idx, err := x.meshCell(sig, s)
		if err != nil {
			return err
		}
		if err := x.s.notify(x.Rank, x.Rank, sig.win, off, idx, -k, false); err != nil {
			return err
		}
	}
	return nil
}

var reducers = map[int64]func(a, b float64) float64{
	0: func(a, b float64) float64 { return a + b }, // Sum
	1: math.Max,
	2: math.Min,
	3: func(a, b float64) float64 { return a * b }, // Prod
}

func (x *Exec) collective(c *ir.Call, a []any, kind string) error {
	if x.Rank < 0 {
		return fmt.Errorf("collectives run on devices, not the host")
	}
	me := x.Rank
	sigIdx := 1
	if kind == "allgather" || kind == "all_to_all" {
		sigIdx = 2
	}
	sig, err := signalArg(a[sigIdx])
	if err != nil {
		return err
	}
	switch kind {
	case "allgather", "all_to_all":
		in, err := regionArg(a[0], "input")
		if err != nil {
			return err
		}
		t, err := regionArg(a[1], "target")
		if err != nil {
			return err
		}
		for p := 0; p < x.s.world; p++ {
			src := in
			if kind == "all_to_all" {
				if src, err = in.sub([]int{p, 0}, []int{1, in.shape[1]}); err != nil {
					return fmt.Errorf("input: %w", err)
				}
			}
			row, err := t.sub([]int{me, 0}, []int{1, t.shape[1]})
			if err != nil {
				return fmt.Errorf("target: %w", err)
			}
			tmp, err := x.tileFrom(src, x.local(), nil, src.shape)
			if err != nil {
				return err
			}
			if err := x.storeTile(tmp, row, p, nil, false); err != nil {
				return err
			}
		}
		return x.barrierPhase(c, sig, 1, true)
	}
	t, err := regionArg(a[0], "target")
	if err != nil {
		return err
	}
	view := t
	if kind == "reduce_scatter" {
		if view, err = t.sub([]int{me, 0}, []int{1, t.shape[len(t.shape)-1]}); err != nil {
			return err
		}
	}
	if err := x.barrierPhase(c, sig, 1, false); err != nil {
		return err
	}
	var result *region
	switch kind {
	case "broadcast":
		root := int(c.Kwargs.Int("root", 0))
		if root < 0 || root >= x.s.world {
			return fmt.Errorf("root %d is outside the world of %d ranks", root, x.s.world)
		}
		if result, err = x.tileFrom(view, root, nil, view.shape); err != nil {
			return err
		}
	default:
		red, ok := reducers[c.Kwargs.Int("op", 0)]
		if !ok {
			return fmt.Errorf("unknown reduce op %d", c.Kwargs.Int("op", 0))
		}
		if result, err = x.tileFrom(view, me, nil, view.shape); err != nil {
			return err
		}
		for p := 0; p < x.s.world; p++ {
			if p == me {
				continue
			}
			other, err := x.tileFrom(view, p, nil, view.shape)
			if err != nil {
				return err
			}
			// Accumulate in the target dtype's arithmetic, as the device does.
			if err := each(result.shape, func(idx []int) error {
				l, _ := x.get(result, -1, idx)
				r, _ := x.get(other, -1, idx)
				return x.put(result, -1, idx, red(l, r), false)
			}); err != nil {
				return err
			}
		}
	}
	if err := x.barrierPhase(c, sig, 2, false); err != nil {
		return err
	}
	if err := x.storeTile(result, view, me, nil, false); err != nil {
		return err
	}
	return x.clearCredits(sig, 2)
}
