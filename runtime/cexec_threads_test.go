package runtime_test

import (
	"context"
	goruntime "runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/runtime"
)

// Ranks are goroutines parked on their memory's condition variable while
// they wait, so a 16-rank run that blocks thousands of times creates no
// more OS threads than the Go scheduler's own handful.
func TestRanksDoNotChurnThreads(t *testing.T) {
	const n = 16
	c, err := pl.TryCompile(allReduceMode(n, 256, pl.FP32, pld.Sum, "ring"), pl.Ranks(n))
	if err != nil {
		t.Fatal(err)
	}
	args := hostArgs(t, c.Final(), n, 3)
	threads := pprof.Lookup("threadcreate")
	before := threads.Count()
	res, err := runtime.NewSimulator().Run(context.Background(), c.Final(), args, runtime.RunOptions{Ranks: n, Watchdog: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	waits := 0
	res.Timeline.Expand()
	for _, l := range res.Timeline.Lanes {
		for _, ev := range l {
			if ev.Kind == "wait" {
				waits++
			}
		}
	}
	if waits < n*n {
		t.Fatalf("the run waited only %d times: it does not exercise blocking", waits)
	}
	if grown, limit := threads.Count()-before, 2*goruntime.GOMAXPROCS(0)+4; grown > limit {
		t.Fatalf("a %d-rank run with %d waits created %d OS threads (limit %d)", n, waits, grown, limit)
	}
}
