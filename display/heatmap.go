package display

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"github.com/ptorepl/ptorepl/tensor"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// grid adapts one (rows, cols) matrix of a tensor to plotter.GridXYZ:
// column j is x, row i is drawn at y = rows-1-i (row 0 at the top, as the
// tensor prints). For a
// 3-D tensor, panel picks the matrix t[panel].
type grid struct {
	t           *tensor.Tensor
	panel, r, c int
	threeD      bool
}

func (g grid) Dims() (c, r int) { return g.c, g.r }
func (g grid) X(c int) float64  { return float64(c) }
func (g grid) Y(r int) float64  { return float64(g.r - 1 - r) }
func (g grid) Z(c, r int) float64 {
	if g.threeD {
		return g.t.At(g.panel, r, c)
	}
	return g.t.At(r, c)
}

// heatmapPanelsPerRow is how many panels of a 3-D tensor share a row;
// heatmapMaxPanels bounds the picture of a tensor with many ranks.
const (
	heatmapPanelsPerRow = 4
	heatmapMaxPanels    = 16
)

// heatmapWidth is the width in pixels Bundle draws t's heatmap at: 480 for
// a matrix, 240 a panel (up to four a row) for a 3-D tensor.
func heatmapWidth(t *tensor.Tensor) int {
	if t != nil && t.Dim() == 3 {
		return 240 * min(t.Shape()[0], heatmapPanelsPerRow)
	}
	return 480
}

// HeatmapPNG renders a 2-D tensor as a heatmap PNG (gonum/plot, Moreland's
// diverging palette), width px wide, with a colour bar of its value range.
// A 3-D tensor (ranks, rows, cols), what distributed programs return, gets
// one panel per leading index, up to four a row (and sixteen in all), on one
// shared colour scale.
func HeatmapPNG(t *tensor.Tensor, width int) ([]byte, error) {
	if t == nil {
		return nil, fmt.Errorf("a heatmap needs a tensor, got nil")
	}
	s := t.Shape()
	if (len(s) != 2 && len(s) != 3) || t.Numel() == 0 {
		return nil, fmt.Errorf("a heatmap needs a non-empty 2-D or 3-D tensor, got shape %s", pyDims(s))
	}
	panels, rows, cols := 1, s[0], s[1]
	if len(s) == 3 {
		panels, rows, cols = s[0], s[1], s[2]
	}
	// One colour scale for every panel, so ranks compare by colour.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range t.Float64s() {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	pal := moreland.SmoothBlueRed()
	pal.SetMin(lo)
	pal.SetMax(hi)

	shown := min(panels, heatmapMaxPanels)
	perRow := min(shown, heatmapPanelsPerRow)
	gridRows := (shown + perRow - 1) / perRow
	px := func(n int) vg.Length { return vg.Length(n) * vg.Inch / 96 }
	w := px(width)
	panelW := w / vg.Length(perRow)
	panelH := panelW * vg.Length(rows) / vg.Length(cols)
	panelH = max(min(panelH, 3*panelW), panelW/4)
	titleH := px(22) // each panel's caption
	if panels == 1 {
		titleH = 0
	}
	barH := px(64) // the title and the colour bar
	h := barH + vg.Length(gridRows)*(panelH+titleH)
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96))
	dc := draw.New(c)
	white := color.White
	dc.SetColor(white)
	dc.Fill(dc.Rectangle.Path())

	// The colour bar on top, titled with the shape, dtype and range.
	bar := plot.New()
	bar.Title.Text = fmt.Sprintf("%s %s  [%.4g, %.4g]", pyDims(s), t.DType().String(), lo, hi)
	if shown < panels {
		bar.Title.Text += fmt.Sprintf("  (the first %d of %d panels)", shown, panels)
	}
	bar.Add(&plotter.ColorBar{ColorMap: pal})
	bar.HideY()
	bar.X.Padding = 0
	barCanvas := draw.Canvas{Canvas: dc, Rectangle: vg.Rectangle{
		Min: vg.Point{X: dc.Min.X + px(8), Y: dc.Max.Y - barH},
		Max: vg.Point{X: dc.Max.X - px(8), Y: dc.Max.Y},
	}}
	bar.Draw(barCanvas)

	below := draw.Canvas{Canvas: dc, Rectangle: vg.Rectangle{Min: dc.Min, Max: vg.Point{X: dc.Max.X, Y: dc.Max.Y - barH}}}
	tiles := draw.Tiles{Rows: gridRows, Cols: perRow, PadX: px(4), PadY: px(2)}
	colours := pal.Palette(256)
	for i := 0; i < shown; i++ {
		p := plot.New()
		if panels > 1 {
			p.Title.Text = fmt.Sprintf("[%d]", i)
		}
		hm := plotter.NewHeatMap(grid{t: t, panel: i, r: rows, c: cols, threeD: len(s) == 3}, colours)
		hm.Min, hm.Max = lo, hi
		hm.NaN = color.RGBA{R: 200, G: 200, B: 200, A: 255}
		p.Add(hm)
		p.HideAxes()
		p.Draw(tiles.At(below, i%perRow, i/perRow))
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pyDims spells a shape as PyPTO does: [4, 8].
func pyDims(s []int) string {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, d := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, d)
	}
	b.WriteByte(']')
	return b.String()
}
