package runtime_test

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
)

var updateResults = flag.Bool("update", false, "rewrite testdata/executor_results.golden")

// The executor's results, recorded: every program of the corpus at every
// stage of the pass pipeline, at P = 2, 3, 4, 8, gives the outputs and
// final signal cells (a digest of them) that the tree-walking executor gave
// for device code before the compiled executor replaced it. Regenerate
// with -update (what the compiled executor gives now) and review the diff:
// a line that changes is a program whose results changed.
func TestExecutorMatchesRecordedResults(t *testing.T) {
	got := executorResults(t)
	path := filepath.Join("testdata", "executor_results.golden")
	if *updateResults {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to record the results)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < min(len(wl), len(gl)); i++ {
		if wl[i] != gl[i] {
			t.Fatalf("results differ from the recorded ones:\nrecorded %s\nnow      %s", wl[i], gl[i])
		}
	}
	t.Fatalf("results differ from the recorded ones: %d lines recorded, %d now", len(wl), len(gl))
}

// executorResults runs the corpus and lists one digest per program, rank
// count and changed stage.
func executorResults(t *testing.T) []byte {
	var b strings.Builder
	for _, c := range diffCorpus() {
		for _, n := range []int{2, 3, 4, 8} {
			if n < c.minRanks {
				continue
			}
			prog := c.prog(n)
			comp, err := pl.TryCompile(prog, pl.Ranks(n))
			if err != nil {
				t.Fatalf("%s: the corpus program does not compile: %v", c.name, err)
			}
			args := hostArgs(t, prog.IR(), n, int64(7*n+1))
			o := runtime.RunOptions{Ranks: n, Watchdog: 20 * time.Second, MaxEvents: -1}
			for _, s := range comp.Stages() {
				if s.Name != "Input" && !s.Changed {
					continue
				}
				r := runWith(s.Program(), args, o)
				if r.err != nil {
					t.Fatalf("%s P=%d %s: the corpus program fails: %v", c.name, n, s.Name, r.err)
				}
				h := sha256.New()
				for _, out := range r.out {
					h.Write(out.Bytes())
				}
				fmt.Fprint(h, r.sigs)
				fmt.Fprintf(&b, "%-24s P=%d  %-34s %x\n", c.name, n, s.Name, h.Sum(nil)[:12])
			}
		}
	}
	return []byte(b.String())
}
