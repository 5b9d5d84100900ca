package display

import (
	"fmt"
	"html"
	"strings"

	"github.com/ptorepl/ptorepl/runtime"
)

// kindColour colours an op box by what it does.
var kindColour = map[string]string{
	"compute": "#9ecae1", "memory": "#c6dbef", "rma": "#fdae6b", "signal": "#74c476",
	"wait": "#fb6a4a", "collective": "#9e9ac8", "host": "#d9d9d9",
}

// Swimlane draws a run's timeline as SVG: one lane per rank on the run's
// logical clock, a box per op (coloured by kind, titled with op, function,
// cell line and value), RMA spans drawn to the peer's lane, and an arrow from
// every notify to the wait on the peer that it released.
func Swimlane(t *runtime.Timeline) string {
	if t == nil || t.Ranks == 0 {
		return `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="20"><text x="4" y="14">empty timeline</text></svg>`
	}
	const left, laneH, width = 64.0, 30.0, 900.0
	var maxTick int64 = 1
	for _, lane := range t.Lanes {
		for _, e := range lane {
			maxTick = max(maxTick, e.EndTick)
		}
	}
	x := func(tick int64) float64 { return left + float64(tick)/float64(maxTick)*(width-left-8) }
	y := func(rank int) float64 { return 8 + float64(rank)*laneH }
	h := 8 + float64(t.Ranks)*laneH + 8
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="monospace" font-size="11">`, width, h)
	b.WriteString(`<defs><marker id="arr" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#238b45"/></marker></defs>`)
	for r := 0; r < t.Ranks; r++ {
		fmt.Fprintf(&b, `<text x="4" y="%.1f">rank %d</text>`, y(r)+laneH/2+4, r)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`, left, y(r)+laneH/2, width-8, y(r)+laneH/2)
	}
	for r, lane := range t.Lanes {
		for _, e := range lane {
			x0, x1 := x(e.StartTick), x(e.EndTick)
			col := kindColour[e.Kind]
			if col == "" {
				col = "#bdbdbd"
			}
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
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" class="%s"><title>%s</title></rect>`,
				x0, y(r)+5, max(x1-x0, 1.5), laneH-10, col, html.EscapeString(e.Kind), html.EscapeString(title))
			if e.Kind == "rma" && e.Peer >= 0 && e.Peer < t.Ranks && e.Peer != r {
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#fd8d3c" stroke-dasharray="3,2" class="rma-span"/>`,
					(x0+x1)/2, y(r)+laneH/2, (x0+x1)/2, y(e.Peer)+laneH/2)
			}
		}
	}
	// notify → the first wait on the peer's same cell that finished after it.
	for r, lane := range t.Lanes {
		for _, n := range lane {
			if n.Kind != "signal" || n.Peer < 0 || n.Peer >= t.Ranks || n.Cell == "" {
				continue
			}
			for _, w := range t.Lanes[n.Peer] {
				if w.Kind == "wait" && w.Cell == n.Cell && w.EndTick > n.EndTick {
					fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#238b45" marker-end="url(#arr)" class="notify-wait"/>`,
						x(n.EndTick), y(r)+laneH/2, x(w.EndTick), y(n.Peer)+laneH/2)
					break
				}
			}
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}
