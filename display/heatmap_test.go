package display_test

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"testing"

	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/stretchr/testify/require"
)

// A 2-D tensor displays as text, an HTML table and a heatmap PNG whose
// pixels follow the values: the low corner is blue, the high corner red.
func TestTensorHeatmap(t *testing.T) {
	x := tensor.Arange(ir.FP32, 64).Reshape(8, 8)
	d := display.Bundle(x)
	require.Contains(t, d["text/plain"], "tensor(")
	require.Contains(t, d["text/html"], "<table")
	raw, err := base64.StdEncoding.DecodeString(d["image/png"])
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(raw))
	require.NoError(t, err)
	b := img.Bounds()
	require.Equal(t, 480, b.Dx())
	// Sample the middle of the first and last cells of the top row
	// (values 0 and 7): blue-ish, then red-ish.
	var blueish, redish bool
	for y := b.Min.Y; y < b.Max.Y; y++ {
		r, _, bl, _ := img.At(b.Min.X+b.Dx()/16, y).RGBA()
		if bl > r+0x2000 {
			blueish = true
		}
		r, _, bl, _ = img.At(b.Max.X-b.Dx()/16, y).RGBA()
		if r > bl+0x2000 {
			redish = true
		}
	}
	require.True(t, blueish && redish, "the heatmap runs from blue (low) to red (high)")

	// Other ranks of tensor get no image.
	require.NotContains(t, display.Bundle(tensor.Zeros(ir.FP32, 2, 2, 2)), "image/png")
	_, err = display.HeatmapPNG(tensor.Zeros(ir.FP32, 4), 100)
	require.ErrorContains(t, err, "2-D")
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
