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

// grid adapts a 2-D tensor to plotter.GridXYZ: column j is x, row i is y
// (row 0 at the top, as the tensor prints).
type grid struct{ t *tensor.Tensor }

func (g grid) Dims() (c, r int)   { s := g.t.Shape(); return s[1], s[0] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(g.t.Shape()[0] - 1 - r) }
func (g grid) Z(c, r int) float64 { return g.t.At(g.t.Shape()[0]-1-r, c) }

// HeatmapPNG renders a 2-D tensor as a heatmap PNG (gonum/plot, Moreland's
// diverging palette), width px wide.
func HeatmapPNG(t *tensor.Tensor, width int) ([]byte, error) {
	s := t.Shape()
	if len(s) != 2 || s[0] == 0 || s[1] == 0 {
		return nil, fmt.Errorf("a heatmap needs a non-empty 2-D tensor, got shape %v", s)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := 0; i < s[0]; i++ {
		for j := 0; j < s[1]; j++ {
			v := t.At(i, j)
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
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
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%v %s  [%.4g, %.4g]", s, t.DType().Name(), lo, hi)
	hm := plotter.NewHeatMap(grid{t}, pal.Palette(256))
	hm.NaN = color.RGBA{R: 200, G: 200, B: 200, A: 255}
	p.Add(hm)
	p.HideAxes()
	w := vg.Length(width) * vg.Inch / 96
	h := w * vg.Length(s[0]) / vg.Length(s[1])
	h = max(min(h, 3*w), w/4) + 0.4*vg.Inch
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96))}
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
