package display_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// decodePNG decodes a base64 PNG from a bundle.
func decodePNG(t *testing.T, b64 string) image.Image {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(b64)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(raw))
	require.NoError(t, err)
	return img
}

// colourAt classifies the pixels of column x below the colour bar (the top
// 64 px): whether some are clearly blue, some clearly red.
func colourAt(img image.Image, x int) (blueish, redish bool) {
	b := img.Bounds()
	for y := b.Min.Y + 70; y < b.Max.Y; y++ {
		r, _, bl, _ := img.At(x, y).RGBA()
		if bl > r+0x2000 {
			blueish = true
		}
		if r > bl+0x2000 {
			redish = true
		}
	}
	return
}

// A 2-D tensor displays as text, an HTML table and a heatmap whose pixels
// follow the values: the low corner is blue, the high corner red. The
// heatmap is inside the HTML (which Jupyter shows in preference to
// image/png), beside the table.
func TestTensorHeatmap(t *testing.T) {
	x := tensor.Arange(ir.FP32, 64).Reshape(8, 8)
	d := display.Bundle(x)
	require.Contains(t, d["text/plain"], "tensor(")
	require.Contains(t, d["text/html"], "<table")
	require.Contains(t, d["text/html"], `<img class="ptorepl-heatmap" alt="heatmap of the tensor [8, 8]" src="data:image/png;base64,`+d["image/png"]+`">`)
	require.Less(t, strings.Index(d["text/html"], "<table"), strings.Index(d["text/html"], "<img"), "the table, then the picture")
	img := decodePNG(t, d["image/png"])
	b := img.Bounds()
	require.Equal(t, 480, b.Dx())
	// Row 0 (0..7) is at the top and blue, row 7 (56..63) at the bottom
	// and red.
	top := b.Min.Y + 64 + (b.Dy()-64)/16
	bottom := b.Max.Y - (b.Dy()-64)/16
	for _, x := range []int{b.Min.X + b.Dx()/16, b.Max.X - b.Dx()/16} {
		r, _, bl, _ := img.At(x, top).RGBA()
		require.Greater(t, bl, r+0x2000, "the top row is blue")
		r, _, bl, _ = img.At(x, bottom).RGBA()
		require.Greater(t, r, bl+0x2000, "the bottom row is red")
	}

	// Other ranks of tensor get no image.
	require.NotContains(t, display.Bundle(tensor.Zeros(ir.FP32, 2, 2, 2, 2)), "image/png")
	require.NotContains(t, display.Bundle(tensor.Zeros(ir.FP32, 4)), "image/png")
	_, err := display.HeatmapPNG(tensor.Zeros(ir.FP32, 4), 100)
	require.ErrorContains(t, err, "a heatmap needs a non-empty 2-D or 3-D tensor, got shape [4]")
}

// A 3-D tensor (ranks, rows, cols) gets one panel per rank, side by side
// (four a row), 240 px a panel, on one colour scale: a rank of zeros next to
// a rank of tens is blue beside red, not two mid-scale panels.
func TestTensorHeatmap3D(t *testing.T) {
	x := tensor.Zeros(ir.FP32, 2, 4, 4)
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			x.Set(10, 1, i, j)
		}
	}
	d := display.Bundle(x)
	require.Contains(t, d["text/html"], `alt="heatmap of the tensor [2, 4, 4]"`)
	img := decodePNG(t, d["image/png"])
	b := img.Bounds()
	require.Equal(t, 480, b.Dx())
	blue, red := colourAt(img, b.Min.X+b.Dx()/4)
	require.True(t, blue && !red, "rank 0 (zeros) is blue")
	blue, red = colourAt(img, b.Min.X+3*b.Dx()/4)
	require.True(t, red && !blue, "rank 1 (tens) is red")

	// Eight ranks: two rows of four panels.
	d = display.Bundle(tensor.Randn(1, 8, 4, 4))
	img = decodePNG(t, d["image/png"])
	require.Equal(t, 960, img.Bounds().Dx())
	require.Greater(t, img.Bounds().Dy(), 2*240, "two rows of square panels below the colour bar")

	// Many ranks: sixteen panels at most (four rows), the same height as sixteen.
	sixteen := decodePNG(t, display.Bundle(tensor.Randn(1, 16, 4, 4))["image/png"]).Bounds()
	many := decodePNG(t, display.Bundle(tensor.Randn(1, 64, 4, 4))["image/png"]).Bounds()
	require.Equal(t, sixteen, many)
}

type panicky struct{}

func (panicky) String() string { panic("boom") }
func (panicky) HTML() string   { panic("boom") }

// Displaying never crashes the session: a typed nil pointer (what a failing
// call returns next to its error) shows as nil, and a value whose String or
// HTML method panics shows a note instead.
func TestDisplayNeverPanics(t *testing.T) {
	var nilTensor *tensor.Tensor
	require.Equal(t, "nil", display.PlainText(nilTensor))
	require.Equal(t, display.Data{"text/plain": "nil"}, display.Bundle(nilTensor))
	require.Equal(t, "<display_test.panicky: printing it failed: boom>", display.PlainText(panicky{}))
	d := display.Bundle(panicky{})
	require.Equal(t, "<display_test.panicky: printing it failed: boom>", d["text/plain"])
	require.NotContains(t, d, "text/html")
}

// Printed programs keep their lines in a notebook: the highlighted <pre>
// and every <pre> inside a value's HTML (compile stages here) get
// white-space: pre and scroll sideways, so `pl.FP32` or `2]]` is never split
// across lines; the page's text is unchanged.
func TestPrintedProgramsDoNotWrap(t *testing.T) {
	prog := pl.NewProgram("Wide")
	prog.InCore("k", func(f *pl.Func) {
		x := f.In("a_rather_long_parameter_name", pl.Tensor(pl.Dims(128, 256), pl.FP32))
		f.Let("t", pl.Load(x, pl.Dims(0, 0), pl.Dims(128, 256)))
	})
	d := display.Bundle(prog)
	require.Contains(t, d["text/html"], `<pre style="line-height:1.3;white-space:pre;word-break:normal;overflow-wrap:normal;overflow-x:auto">`)
	require.Equal(t, 1, strings.Count(d["text/html"], "white-space:pre"), "styled once")

	c := pl.Compile(prog)
	h := display.Bundle(c)["text/html"]
	pres := regexp.MustCompile(`<pre[^>]*>`).FindAllString(h, -1)
	require.NotEmpty(t, pres)
	for _, tag := range pres {
		require.Contains(t, tag, "white-space:pre;word-break:normal;overflow-wrap:normal;overflow-x:auto", tag)
	}
	require.Equal(t, regexp.MustCompile(`<[^>]*>`).ReplaceAllString(c.HTML(), ""), regexp.MustCompile(`<[^>]*>`).ReplaceAllString(h, ""),
		"only tags change")
}
