package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// Explicit cross-core events. A kernel runs its cube code and its vector
// lanes in program order here (a split_aiv region's lanes one after the
// other), so a sync_wait must find its event already raised: a wait with
// nothing raised before it would block its pipe forever on the device,
// and is reported as that deadlock. An ffts_mode 2 event fires once two
// lanes have raised it; a wait consumes one firing. system.set_ffts only
// names the FFTS workspace.

// coreEvents counts, per event id, the firings not yet waited for and the
// lanes that have raised a mode-2 event towards its next firing.
type coreEvents struct {
	fired, lanes map[int64]int
}

func init() {
	Register(ir.SystemSetFFTS, func(x *Exec, c *ir.Call, a []any) (any, error) { return nil, nil })
	Register(ir.SystemSyncSet, func(x *Exec, c *ir.Call, a []any) (any, error) {
		id, err := eventID(c, a)
		if err != nil {
			return nil, err
		}
		ev := x.coreEvents()
		if c.Kwargs.Int("ffts_mode", 0) == 2 {
			if ev.lanes[id]++; ev.lanes[id] < 2 {
				return nil, nil
			}
			ev.lanes[id] = 0
		}
		ev.fired[id]++
		return nil, nil
	})
	Register(ir.SystemSyncWait, func(x *Exec, c *ir.Call, a []any) (any, error) {
		id, err := eventID(c, a)
		if err != nil {
			return nil, err
		}
		ev := x.coreEvents()
		if ev.fired[id] == 0 {
			why := "nothing raised it before this wait"
			if ev.lanes[id] > 0 {
				why = "one lane raised it in mode 2, which fires once both have"
			}
			return nil, fmt.Errorf("deadlock: %s waits for event %d, but %s; on the device the pipe would wait forever", c.Name(), id, why)
		}
		ev.fired[id]--
		return nil, nil
	})
}

func (x *Exec) coreEvents() *coreEvents {
	if x.events == nil {
		x.events = &coreEvents{fired: map[int64]int{}, lanes: map[int64]int{}}
	}
	return x.events
}

// eventID is the event a sync_set or sync_wait names: its event_id kwarg,
// else its operand.
func eventID(c *ir.Call, a []any) (int64, error) {
	if v, ok := c.Kwargs.Get("event_id"); ok {
		id, _ := v.(int64)
		return id, nil
	}
	if len(a) == 0 {
		return 0, fmt.Errorf("%s: no event id", c.Name())
	}
	n, err := toInt(a[0])
	return int64(n), err
}
