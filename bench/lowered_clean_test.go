package bench

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/checker"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/pyfront"
	"github.com/ptorepl/ptorepl/tensor"
)

// The compiled allreduce, in both modes, is free of checker findings:
// no races on the window, no signal left holding credits at the end (the
// epilogue takes back exactly what the barriers gave), no fragile waits.
// The sizes make several sub-chunks per ring segment, the last one ragged.
func TestLoweredAllReduceRunsClean(t *testing.T) {
	for _, mode := range []string{"mesh", "ring"} {
		for _, n := range []int{2, 3, 4, 8} {
			t.Run(fmt.Sprintf("%s/P=%d", mode, n), func(t *testing.T) {
				elems := 2*4096*n + 17
				l, err := NewLowered(mode, n, elems, int64(n))
				if err != nil {
					t.Fatal(err)
				}
				args := []*tensor.Tensor{l.X, l.Y}
				_, rep, err := checker.Run(context.Background(), l.c.Final(), args, checker.Options{Ranks: n})
				if err != nil {
					t.Fatal(err)
				}
				if !rep.Clean() {
					t.Fatalf("lowered %s allreduce at P=%d is not clean:\n%s", mode, n, rep)
				}
				if err := l.Check(); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// The clean bar can fail: the compiled ring with its credit-return
// notifies deleted (read back from its printed text) leaves credits on the
// signal, and the checker reports them.
func TestLoweredRingWithoutEpilogueIsReported(t *testing.T) {
	l, err := NewLowered("ring", 3, 3*1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	removed := 0
	for _, line := range strings.Split(printer.Program(l.c.Final()), "\n") {
		if strings.Contains(line, "-ring_reset_total") {
			removed++
			continue
		}
		kept = append(kept, line)
	}
	if removed == 0 {
		t.Fatal("found no credit-return notify to remove")
	}
	mod, err := pyfront.Parse("mutated.py", []byte(strings.Join(kept, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := mod.Program(mod.Names()[0])
	if err != nil {
		t.Fatal(err)
	}
	_, rep, err := checker.Run(context.Background(), prog, []*tensor.Tensor{l.X, l.Y}, checker.Options{Ranks: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Of(checker.KindSignalLeft)) == 0 {
		t.Fatalf("credits left on the ring's signal were not reported:\n%s", rep)
	}
}
