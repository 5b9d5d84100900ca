package notebooks

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/passes"
	"github.com/stretchr/testify/require"
)

// claims checks, per notebook, that what its prose teaches is what its
// executed outputs show. Cells are found by their tags.
var claims = map[string]func(t *testing.T, nb *notebook){
	"01_ranks_and_tiers.ipynb": func(t *testing.T, nb *notebook) {
		prog := nb.byTag(t, "program").text()
		for _, want := range []string{"def add_rank", "def per_device", "def host", "self.add_rank(", "device=r", "type=pl.FunctionType.Orchestration"} {
			require.Contains(t, prog, want, "the three tiers are in the printed program")
		}
		require.Equal(t, 1, nb.byTag(t, "run").swimlanes())
		vals := nb.byTag(t, "values").text()
		for r := 0; r < 4; r++ {
			require.Contains(t, vals, fmt.Sprintf("rank %d: x[%d][0] = 1   y[%d][0] = %d", r, r, r, r+1), "y = x + rank")
		}
	},
	"02_window_buffers.ipynb": func(t *testing.T, nb *notebook) {
		alloc := nb.byTag(t, "alloc").text()
		require.Equal(t, 1, strings.Count(alloc, "alloc_window_buffer(pl.const(32"), "one 32-byte allocation, on the host")
		require.Less(t, strings.Index(alloc, "alloc_window_buffer"), strings.Index(alloc, "for r in"), "allocated before the dispatch loop")
		for _, tag := range []string{"table", "rerun"} {
			rows := tableRows(t, nb.byTag(t, tag).text(), 5)
			require.Len(t, rows, 4, tag)
			for r, row := range rows {
				x, before, own, neighbour := row[1], row[2], row[3], row[4]
				require.Zero(t, before, "%s: rank %d's window starts at zero", tag, r)
				require.Equal(t, x, own, "%s: rank %d reads its own copy", tag, r)
				require.Equal(t, rows[(r+1)%4][1], neighbour, "%s: rank %d reads its neighbour's copy by RMA", tag, r)
			}
		}
		require.Equal(t, 1, nb.byTag(t, "run").swimlanes())
		require.Equal(t, 1, nb.byTag(t, "rerun").swimlanes())
	},
	"03_signals_and_barrier.ipynb": func(t *testing.T, nb *notebook) {
		counts := nb.byTag(t, "setadd").text()
		require.Regexp(t, `atomic_add: 3 ranks notified rank 0, its cell holds 3`, counts)
		require.Regexp(t, `set\s+: 3 ranks notified rank 0, its cell holds 1`, counts)
		require.Equal(t, 1, nb.byTag(t, "run-one").swimlanes())
		require.Contains(t, nb.byTag(t, "run-one").html(), "notify-wait", "the swimlane draws notify → wait arrows")

		eq := nb.byTag(t, "eq").text()
		deadlocked := strings.Contains(eq, "deadlock") && strings.Contains(eq, "fast peer")
		flagged := strings.Contains(eq, "with protocol errors") && strings.Contains(strings.ToLower(eq), "overt")
		require.True(t, deadlocked || flagged, "the Eq barriers deadlock on a fast peer, or are flagged:\n%s", eq)
		require.Contains(t, eq, "pld.Ge", "the diagnosis names the fix")
		ge := nb.byTag(t, "ge")
		require.Contains(t, ge.text(), "finished, no protocol errors", "the Ge twin runs clean")
		require.NotContains(t, ge.text(), "deadlock")
		require.Equal(t, 1, ge.swimlanes())

		stale := nb.byTag(t, "stale").text()
		require.Contains(t, stale, "stale-signal-reuse")
		require.Contains(t, stale, "finished, with protocol errors")
		builtin := nb.byTag(t, "builtin").text()
		require.Contains(t, builtin, "protocol check: clean", "two builtin barriers leave no credits")
		require.Contains(t, builtin, "finished, no protocol errors")
	},
	"04_one_sided_rma.ipynb": func(t *testing.T, nb *notebook) {
		// pushes deliver the previous rank's row, pulls the next rank's
		for tag, shift := range map[string]int{"put": 3, "remote_store": 3, "get": 1, "remote_load": 1} {
			c := nb.byTag(t, tag)
			require.Equal(t, 1, c.swimlanes(), tag)
			for r := 0; r < 4; r++ {
				require.Contains(t, c.text(), fmt.Sprintf("rank %d: x = %d, y = %d (from rank %d)", r, 10*(r+1), 10*((r+shift)%4+1), (r+shift)%4), tag)
			}
		}
		require.Contains(t, nb.byTag(t, "put").html(), "rma-span", "RMA shows as a span to the peer")
		require.Contains(t, nb.byTag(t, "summary").text(), "put == remote_store: true    get == remote_load: true    put == get: false")
	},
	"05_dynamic_rank_count.ipynb": func(t *testing.T, nb *notebook) {
		errs := nb.byTag(t, "fixed-errors").text()
		require.Regexp(t, `3 ranks: .*expected shape \[4, 1, 8\]`, errs)
		require.Regexp(t, `8 ranks: .*does not fit`, errs)
		prog := nb.byTag(t, "program").text()
		require.Contains(t, prog, `NR = pl.dynamic("NR")`)
		require.Contains(t, prog, "alloc_window_buffer(pld.system.world_size() * 4)")
		for _, n := range []int{2, 8} {
			c := nb.byTag(t, fmt.Sprintf("run-%d", n))
			require.Equal(t, 1, c.swimlanes())
			require.Contains(t, c.text(), fmt.Sprintf("%d ranks: every rank holds its next neighbour's row: true", n))
			lanes := map[string]bool{}
			for _, m := range laneRe.FindAllStringSubmatch(c.html(), -1) {
				lanes[m[1]] = true
			}
			require.Len(t, lanes, n, "one lane per rank")
		}
		many := nb.byTag(t, "run-many").text()
		for _, n := range []int{3, 4, 5, 6} {
			require.Contains(t, many, fmt.Sprintf("%d ranks: every rank holds its next neighbour's row: true", n))
		}
	},
	"06_allreduce_three_ways.ipynb": func(t *testing.T, nb *notebook) {
		vals := nb.byTag(t, "values").text()
		require.Contains(t, vals, "all three equal: true")
		require.Equal(t, 12, strings.Count(vals, "384..636"), "every method's column shows the sum on every rank")
		costs := map[string][]int{}
		for _, l := range strings.Split(nb.byTag(t, "costs").text(), "\n") {
			f := strings.Fields(l)
			if len(f) == 6 && (f[0] == "mesh" || f[0] == "ring" || f[0] == "two-phase") {
				for _, s := range f[1:] {
					v, err := strconv.Atoi(s)
					require.NoError(t, err, l)
					costs[f[0]] = append(costs[f[0]], v)
				}
			}
		}
		require.Equal(t, []int{3, 256, 768}, costs["mesh"][:3], "mesh: n-1 whole rows")
		require.Equal(t, []int{6, 64, 384}, costs["ring"][:3], "ring: 2(n-1) quarter rows")
		require.Equal(t, []int{6, 64, 384}, costs["two-phase"][:3], "two-phase: 2(n-1) quarter rows")
		require.Greater(t, costs["ring"][3], costs["mesh"][3], "the ring synchronises more")
		require.Less(t, costs["two-phase"][3], costs["ring"][3], "two-phase synchronises less than the ring")
		require.Equal(t, 1, nb.byTag(t, "swim-mesh").swimlanes())
		require.Equal(t, 1, nb.byTag(t, "swim-ring").swimlanes())
		require.Greater(t, strings.Count(nb.byTag(t, "swim-ring").html(), "notify-wait"),
			strings.Count(nb.byTag(t, "swim-mesh").html(), "notify-wait"), "the ring's swimlane has more arrows")
	},
	"07_broadcast.ipynb": func(t *testing.T, nb *notebook) {
		require.Equal(t, 1, nb.byTag(t, "run").swimlanes())
		vals := nb.byTag(t, "values").text()
		require.Equal(t, 4, strings.Count(vals, "after the broadcast 30 (whole row equal to rank 2's: true)"))
		low := nb.byTag(t, "lowered").text()
		require.Contains(t, low, "pld.tile.get(")
		require.Contains(t, low, "pl.const(-1, pl.INT32)", "the credits are handed back")
	},
	"08_allgather_reduce_scatter.ipynb": func(t *testing.T, nb *notebook) {
		require.Equal(t, 1, nb.byTag(t, "run-ag").swimlanes())
		heat := nb.byTag(t, "heat-ag")
		require.Equal(t, 2, heat.count("image/png"), "inputs and result as heatmaps")
		require.Equal(t, 4, strings.Count(heat.text(), "[10., 20., 30., 40.]"), "every rank holds every row")
		require.Equal(t, 1, nb.byTag(t, "run-rs").swimlanes())
		rs := nb.byTag(t, "values-rs")
		for r := 0; r < 4; r++ {
			require.Contains(t, rs.text(), fmt.Sprintf("reduced row %d = %d (expected %d)", r, 600+40*r, 600+40*r))
		}
		require.Equal(t, 1, rs.count("image/png"))
	},
	"09_all_to_all.ipynb": func(t *testing.T, nb *notebook) {
		require.Equal(t, 1, nb.byTag(t, "run").swimlanes())
		vals := nb.byTag(t, "values").text()
		require.Contains(t, vals, "outputs are the inputs transposed: true")
		require.Contains(t, vals, "  30  31  32  33                    3  13  23  33")
		require.Equal(t, 2, nb.byTag(t, "heat").count("image/png"))
	},
	"10_compile_and_step.ipynb": func(t *testing.T, nb *notebook) {
		comp := nb.byTag(t, "compiled")
		require.GreaterOrEqual(t, strings.Count(comp.html(), "<details"), 9, "one folded section per pass")
		stages := nb.byTag(t, "stages").text()
		for _, p := range passes.Table() {
			require.Contains(t, stages, p.Name, "the stage list names every pass of the pipeline")
		}
		require.Regexp(t, `LowerCompositeOps\s+\+\d+ -1 lines`, stages)
		// The kernel computes on tiles already: the conversion only ends it
		// in an explicit return, as upstream's does.
		require.Regexp(t, `ConvertTensorToTileOps\s+\+1 -0 lines`, stages)
		diff := nb.byTag(t, "lower-diff")
		require.Regexp(t, `(?m)^-.*pld\.tensor\.allreduce\(`, diff.text())
		require.Regexp(t, `(?m)^\+.*pld\.system\.notify\(`, diff.text())
		require.Contains(t, diff.html(), "<details")
		pto := nb.byTag(t, "pto")
		require.Contains(t, pto.text(), "pto.comm.tnotify")
		require.Contains(t, pto.text(), "pto.comm.twait")
		require.Contains(t, pto.html(), "<details")
		require.Contains(t, nb.byTag(t, "manifest").text(), "signal_buf: 16 bytes on every rank")
		require.Equal(t, 1, nb.byTag(t, "run-lowered").swimlanes())
		require.Contains(t, nb.byTag(t, "compare").text(), "identical: true")
		require.Contains(t, nb.byTag(t, "differential").text(), "every stage computes the same result as the input program")
	},
	"11_finding_comm_bugs.ipynb": func(t *testing.T, nb *notebook) {
		for i, want := range []string{"HANG —", "HANG —", "HANG —", "HANG —", "FLAGGED — race", "FLAGGED — stale-signal-reuse"} {
			bug := nb.byTag(t, fmt.Sprintf("bug%d", i+1)).text()
			require.Contains(t, bug, want, "bug %d", i+1)
			fix := nb.byTag(t, fmt.Sprintf("fix%d", i+1))
			require.Contains(t, fix.text(), "CLEAN — finished, the checker found nothing", "fix %d re-runs clean", i+1)
			require.Equal(t, 1, fix.swimlanes(), "fix %d shows its run", i+1)
		}
		require.Contains(t, nb.byTag(t, "bug2").text(), "wrong cell", "the checker names the offset mistake")
		require.Regexp(t, `Set 1 .*→ 1 .*Set 1 .*→ 1 .*Set 1`, nb.byTag(t, "bug3").text(), "the history shows Set overwriting")
		race := nb.byTag(t, "race-detail").text()
		require.Contains(t, race, "tile.store")
		require.Contains(t, race, "pld.tile.remote_load")
	},
}

// TestNotebookClaims checks every notebook's teaching claims against its
// executed outputs.
func TestNotebookClaims(t *testing.T) {
	books := executedCourse(t)
	for _, name := range bookNames(t) {
		t.Run(name, func(t *testing.T) {
			check, ok := claims[name]
			if !ok {
				t.Skipf("%s is not one of the course's lessons; its claims are tested elsewhere", name)
			}
			check(t, books[name])
		})
	}
}

var (
	numRe  = regexp.MustCompile(`-?\d+(\.\d+)?`)
	laneRe = regexp.MustCompile(`>rank (\d+)<`) // a lane label, not a box's "rank 0: op" title
)

// tableRows parses the rows of a printed table that have exactly cols
// numbers.
func tableRows(t *testing.T, text string, cols int) [][]float64 {
	var rows [][]float64
	for _, l := range strings.Split(text, "\n") {
		m := numRe.FindAllString(l, -1)
		if len(m) != cols || strings.Contains(l, "rank ") {
			continue
		}
		row := make([]float64, cols)
		for i, s := range m {
			v, err := strconv.ParseFloat(s, 64)
			require.NoError(t, err)
			row[i] = v
		}
		rows = append(rows, row)
	}
	return rows
}
