package display

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strings"

	"github.com/ptorepl/ptorepl/runtime"
)

// kindPalette gives each kind of op a family of colours: an op's colour is
// its own (so tile.add and tile.load differ) but stays in its kind's hue
// (waits red, signals green, RMA orange, memory blue, compute purple, host
// grey), so a glance still reads what kind of work a lane does.
var kindPalette = map[string][]string{
	"wait":       {"#d62728", "#ff9896", "#a50f15", "#fb6a4a"},
	"signal":     {"#2ca02c", "#98df8a", "#006d2c", "#74c476"},
	"rma":        {"#ff7f0e", "#ffbb78", "#d94801", "#fdae6b"},
	"memory":     {"#1f77b4", "#aec7e8", "#08519c", "#6baed6"},
	"compute":    {"#9467bd", "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2", "#bcbd22", "#dbdb8d", "#17becf", "#9edae5"},
	"collective": {"#6a51a3", "#9e9ac8", "#54278f", "#bcbddc"},
	"host":       {"#969696", "#bdbdbd", "#737373", "#d9d9d9"},
}

// groupColour fills a collapsed run of a lowered collective.
const groupColour = "#dadaeb"

// minGroup is the shortest run of ops from one source line that collapses
// into a group: a lowered collective is dozens of ops from the line that
// called it, while a line the user wrote gives one or two.
const minGroup = 6

// Swimlane draws a run's timeline: one lane per rank on the run's logical
// clock with a time axis and a legend, a box per op (coloured per op,
// titled with op, function, cell line and value), RMA spans drawn to the
// peer's lane, and an arrow from every notify to the wait on the peer that
// it released. A wait the run stopped in (a deadlock) is outlined and
// labelled with the signal cell it waits on.
//
// The many ops a lowered collective runs on one rank collapse into one box
// per signalling round, titled with the ops it holds. The result is then
// HTML: that SVG, followed by a <details> that expands every op. A
// timeline with nothing to collapse is the SVG alone.
func Swimlane(t *runtime.Timeline) string {
	if t == nil || t.Ranks == 0 {
		return `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="20"><text x="4" y="14">empty timeline</text></svg>`
	}
	t.Expand()
	collapsed, groups, ops := swimlaneSVG(t, true)
	if groups == 0 {
		return collapsed
	}
	full, _, _ := swimlaneSVG(t, false)
	return collapsed + fmt.Sprintf(`<details class="ptorepl-swimlane-expanded"><summary>every op: %d group(s) of %d ops expanded</summary>%s</details>`,
		groups, ops, full)
}

// item is one box on a lane: an op, or a run of ops collapsed into a group.
type item struct {
	first, last int // event indexes in the lane
	group       bool
	round, of   int // the signalling round of a group, and how many its run has
}

// lanesItems splits each lane into boxes, collapsing runs of at least
// minGroup ops from one source line (never across a blocked wait, which
// must stay visible).
func lanesItems(t *runtime.Timeline, collapse bool) [][]item {
	out := make([][]item, len(t.Lanes))
	for r, lane := range t.Lanes {
		for i := 0; i < len(lane); {
			j := i + 1
			if collapse && lane[i].Pos.Known() && !lane[i].Blocked {
				for j < len(lane) && lane[j].Pos == lane[i].Pos && !lane[j].Blocked {
					j++
				}
				if j-i >= minGroup {
					out[r] = append(out[r], rounds(lane, i, j)...)
					i = j
					continue
				}
			}
			out[r] = append(out[r], item{first: i, last: i})
			i++
		}
	}
	return out
}

// rounds splits a collapsed run lane[i:j] into its signalling rounds: a
// round ends at its waits, and the next begins with the next notify, so a
// lowered allreduce shows as its rounds rather than one long box.
func rounds(lane []runtime.Event, i, j int) []item {
	var out []item
	start, waited := i, false
	for k := i; k < j; k++ {
		if lane[k].Kind == "signal" && waited && k > start {
			out = append(out, item{start, k - 1, true, 0, 0})
			start, waited = k, false
		}
		if lane[k].Kind == "wait" {
			waited = true
		}
	}
	out = append(out, item{start, j - 1, true, 0, 0})
	for k := range out {
		out[k].round, out[k].of = k+1, len(out)
	}
	return out
}

// opColours assigns each op in the timeline its colour, and returns the
// ops in legend order (by kind, then name).
func opColours(t *runtime.Timeline) (map[string]string, []runtime.Event) {
	seen := map[string]runtime.Event{}
	for _, lane := range t.Lanes {
		for _, e := range lane {
			if _, ok := seen[e.Op]; !ok {
				seen[e.Op] = e
			}
		}
	}
	kinds := []string{"compute", "memory", "rma", "signal", "wait", "collective", "host"}
	rank := map[string]int{}
	for i, k := range kinds {
		rank[k] = i
	}
	var ops []runtime.Event
	for _, e := range seen {
		ops = append(ops, e)
	}
	sort.Slice(ops, func(i, j int) bool {
		ki, kj := rank[ops[i].Kind], rank[ops[j].Kind]
		if ki != kj {
			return ki < kj
		}
		return ops[i].Op < ops[j].Op
	})
	col := map[string]string{}
	used := map[string]int{}
	for _, e := range ops {
		pal := kindPalette[e.Kind]
		if pal == nil {
			pal = kindPalette["compute"]
		}
		col[e.Op] = pal[used[e.Kind]%len(pal)]
		used[e.Kind]++
	}
	return col, ops
}

// niceStep is a round tick spacing (1, 2 or 5 × 10^k) giving about n ticks over span.
func niceStep(span float64, n int) float64 {
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// shortOp drops the dialect prefix from an op name for labels.
func shortOp(op string) string {
	for _, p := range []string{"pld.system.", "pld.tile.", "pld.tensor.", "tile.", "system.", "pld."} {
		if strings.HasPrefix(op, p) {
			return op[len(p):]
		}
	}
	return op
}

func swimlaneSVG(t *runtime.Timeline, collapse bool) (svg string, groups, groupedOps int) {
	const left, laneH, width = 64.0, 34.0, 900.0
	right := 16.0
	minTick, maxTick := int64(math.MaxInt64), int64(0)
	for _, lane := range t.Lanes {
		for _, e := range lane {
			minTick = min(minTick, e.StartTick)
			maxTick = max(maxTick, e.EndTick)
			if e.Blocked {
				// Room on the right for what each blocked wait waits on.
				right = max(right, 16+6.7*float64(len([]rune(blockedLabel(e)))))
			}
		}
	}
	if maxTick <= minTick {
		minTick, maxTick = 0, 1
	}
	x := func(tick int64) float64 {
		return left + float64(tick-minTick)/float64(maxTick-minTick)*(width-left-right)
	}
	y := func(rank int) float64 { return 8 + float64(rank)*laneH }
	colours, legendOps := opColours(t)
	items := lanesItems(t, collapse)

	lanesBottom := y(t.Ranks)
	axisY := lanesBottom + 4
	// Legend: one entry per op, then the marks; 5 entries a row.
	type entry struct{ swatch, label, class string }
	var legend []entry
	for _, e := range legendOps {
		legend = append(legend, entry{fmt.Sprintf(`<rect width="12" height="12" fill="%s"/>`, colours[e.Op]), shortOp(e.Op), "legend-op"})
	}
	hasGroups, hasBlocked, hasArrows := false, false, false
	for r, lane := range items {
		for _, it := range lane {
			if it.group {
				hasGroups = true
			}
			if t.Lanes[r][it.first].Blocked {
				hasBlocked = true
			}
		}
		for _, e := range t.Lanes[r] {
			if e.Kind == "signal" && e.Cell != "" {
				hasArrows = true
			}
		}
	}
	if hasGroups {
		legend = append(legend, entry{fmt.Sprintf(`<rect width="12" height="12" fill="%s" stroke="#54278f"/>`, groupColour), "grouped ops, one line", "legend-group"})
	}
	if hasArrows {
		legend = append(legend, entry{`<line x1="0" y1="6" x2="12" y2="6" stroke="#238b45" marker-end="url(#arr)"/>`, "notify → released wait", "legend-arrow"})
	}
	if hasBlocked {
		legend = append(legend, entry{`<rect width="12" height="12" fill="#fff" stroke="#a50f15" stroke-width="2" stroke-dasharray="3,2"/>`, "blocked wait", "legend-blocked"})
	}
	const perRow, entryW, rowH = 5, 178.0, 18.0
	legendY := axisY + 40
	h := legendY + float64((len(legend)+perRow-1)/perRow)*rowH + 8

	var b strings.Builder
	view := "expanded"
	if collapse {
		view = "collapsed"
	}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="ptorepl-swimlane %s" width="%.0f" height="%.0f" font-family="monospace" font-size="11">`, view, width, h)
	b.WriteString(`<defs><marker id="arr" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#238b45"/></marker></defs>`)
	for r := 0; r < t.Ranks; r++ {
		fmt.Fprintf(&b, `<text x="4" y="%.1f">rank %d</text>`, y(r)+laneH/2+4, r)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`, left, y(r)+laneH/2, width-right, y(r)+laneH/2)
	}

	// The time axis: the run's logical clock (one tick per op start or end,
	// across all ranks), with round tick marks.
	fmt.Fprintf(&b, `<g class="axis"><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333"/>`, left, axisY, width-right, axisY)
	step := max(niceStep(float64(maxTick-minTick), 8), 1) // ticks are whole
	for v := math.Ceil(float64(minTick)/step) * step; v <= float64(maxTick); v += step {
		tx := x(int64(v))
		fmt.Fprintf(&b, `<line class="axis-tick" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333"/>`, tx, axisY, tx, axisY+5)
		fmt.Fprintf(&b, `<text class="axis-label" x="%.1f" y="%.1f" text-anchor="middle">%d</text>`, tx, axisY+16, int64(v))
	}
	fmt.Fprintf(&b, `<text class="axis-title" x="%.1f" y="%.1f" text-anchor="middle">logical time (ticks: every op start and end, all ranks)</text></g>`,
		(left+width-right)/2, axisY+30)

	// Boxes.
	for r, lane := range items {
		for _, it := range lane {
			evs := t.Lanes[r][it.first : it.last+1]
			x0, x1 := x(evs[0].StartTick), x(evs[len(evs)-1].EndTick)
			if it.group {
				groups++
				groupedOps += len(evs)
				writeGroup(&b, r, it, evs, x0, x1, y(r), laneH, colours, x)
				continue
			}
			e := evs[0]
			title := fmt.Sprintf("rank %d: %s in %s", r, e.Op, e.Func)
			if e.Pos.Known() {
				title += " at " + e.Pos.String()
			}
			if e.Cell != "" {
				title += fmt.Sprintf(", cell %s value %d", e.Cell, e.Value)
			}
			if e.Peer >= 0 {
				title += fmt.Sprintf(", peer %d", e.Peer)
			}
			class := html.EscapeString(e.Kind)
			stroke := ""
			if e.Blocked {
				class += " blocked"
				title += ": blocked here, it never returned"
				stroke = ` stroke="#a50f15" stroke-width="2" stroke-dasharray="3,2"`
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" class="%s"%s><title>%s</title></rect>`,
				x0, y(r)+6, max(x1-x0, 1.5), laneH-12, colours[e.Op], class, stroke, html.EscapeString(title))
			if e.Blocked {
				// Say what it waits for in the margin, level with the
				// wait, joined to it by a dotted line: it never returned,
				// so nothing to its right is in the way.
				label := blockedLabel(e)
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#a50f15" stroke-dasharray="1,2"/>`,
					x1, y(r)+laneH/2, width-right+6, y(r)+laneH/2)
				fmt.Fprintf(&b, `<text class="blocked-label" x="%.1f" y="%.1f" fill="#a50f15" font-weight="bold">%s</text>`,
					width-right+8, y(r)+laneH/2+4, html.EscapeString(label))
			}
			if e.Kind == "rma" && e.Peer >= 0 && e.Peer < t.Ranks && e.Peer != r {
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#fd8d3c" stroke-dasharray="3,2" class="rma-span"/>`,
					(x0+x1)/2, y(r)+laneH/2, (x0+x1)/2, y(e.Peer)+laneH/2)
			}
		}
	}

	// notify → the first wait on the peer's same cell that finished after
	// it; inside a collapsed group the arrows would be noise, so they are
	// drawn only between ops shown on their own.
	inGroup := make([]map[int]bool, len(items))
	for r, lane := range items {
		inGroup[r] = map[int]bool{}
		for _, it := range lane {
			if it.group {
				for i := it.first; i <= it.last; i++ {
					inGroup[r][i] = true
				}
			}
		}
	}
	for r, lane := range t.Lanes {
		for ni, n := range lane {
			if n.Kind != "signal" || n.Peer < 0 || n.Peer >= t.Ranks || n.Cell == "" {
				continue
			}
			for wi, w := range t.Lanes[n.Peer] {
				if w.Kind == "wait" && w.Cell == n.Cell && w.EndTick > n.EndTick && !w.Blocked {
					if !inGroup[r][ni] && !inGroup[n.Peer][wi] {
						fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#238b45" marker-end="url(#arr)" class="notify-wait"/>`,
							x(n.EndTick), y(r)+laneH/2, x(w.EndTick), y(n.Peer)+laneH/2)
					}
					break
				}
			}
		}
	}

	// Legend.
	b.WriteString(`<g class="legend">`)
	for i, en := range legend {
		lx := 8 + float64(i%perRow)*entryW
		ly := legendY + float64(i/perRow)*rowH
		fmt.Fprintf(&b, `<g class="legend-entry %s" transform="translate(%.1f,%.1f)">%s<text x="16" y="10">%s</text></g>`,
			en.class, lx, ly, en.swatch, html.EscapeString(en.label))
	}
	b.WriteString(`</g></svg>`)
	return b.String(), groups, groupedOps
}

// blockedLabel says what a blocked wait waits on.
func blockedLabel(e runtime.Event) string {
	label := fmt.Sprintf("blocked: waits on %s for %d", e.Cell, e.Value)
	if e.Pos.Known() {
		label += " (" + e.Pos.String() + ")"
	}
	return label
}

// writeGroup draws a collapsed run of ops from one cell line: one box
// labelled with the line and op count, titled with what it holds, and thin
// marks where its notifies and waits happened, so the collective's rounds
// still show.
func writeGroup(b *strings.Builder, r int, it item, evs []runtime.Event, x0, x1, y0, laneH float64, colours map[string]string, x func(int64) float64) {
	counts := map[string]int{}
	for _, e := range evs {
		counts[e.Op]++
	}
	names := make([]string, 0, len(counts))
	for op := range counts {
		names = append(names, op)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	var parts []string
	for _, op := range names {
		parts = append(parts, fmt.Sprintf("%d× %s", counts[op], op))
	}
	where := evs[0].Pos.String()
	round := ""
	if it.of > 1 {
		round = fmt.Sprintf("round %d of %d, ", it.round, it.of)
	}
	title := fmt.Sprintf("rank %d: %s%d ops from %s in %s: %s", r, round, len(evs), where, evs[0].Func, strings.Join(parts, ", "))
	fmt.Fprintf(b, `<g class="group"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="#54278f" rx="3"><title>%s</title></rect>`,
		x0, y0+4, max(x1-x0, 2), laneH-8, groupColour, html.EscapeString(title))
	for _, e := range evs {
		if e.Kind == "signal" || e.Kind == "wait" || e.Kind == "rma" {
			mx := x(e.StartTick)
			fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5"/>`, mx, y0+laneH-10, mx, y0+laneH-5, colours[e.Op])
		}
	}
	label := fmt.Sprintf("%s · %d ops", where, len(evs))
	if it.of > 1 {
		label = fmt.Sprintf("round %d · %d ops", it.round, len(evs))
	}
	if float64(len([]rune(label)))*6.6 < x1-x0-6 {
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" fill="#3f007d" pointer-events="none">%s</text>`, x0+4, y0+laneH/2+2, html.EscapeString(label))
	}
	b.WriteString(`</g>`)
}
