package main

import (
	"image"
	"image/color"
	"image/draw"
	"testing"

	"github.com/stretchr/testify/assert"
)

var (
	page = color.RGBA{245, 245, 245, 255}
	ring = color.RGBA{137, 129, 234, 255} // --accent at 70 % over the page
)

func blank() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 300, 200))
	draw.Draw(img, img.Bounds(), image.NewUniform(page), image.Point{}, draw.Src)
	return img
}

// outline draws a 2 px ring just inside r.
func outline(img *image.RGBA, r image.Rectangle) {
	for _, edge := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, r.Min.Y+2)}, {image.Pt(r.Min.X, r.Max.Y-2), r.Max},
		{r.Min, image.Pt(r.Min.X+2, r.Max.Y)}, {image.Pt(r.Max.X-2, r.Min.Y), r.Max},
	} {
		draw.Draw(img, edge, image.NewUniform(ring), image.Point{}, draw.Src)
	}
}

func TestRingBoxFindsAnOutlineThatAppeared(t *testing.T) {
	t.Parallel()
	before, after := blank(), blank()
	row := image.Rect(8, 40, 263, 76)
	outline(after, row)
	assert.Equal(t, row, ringBox(before, after))
	assert.True(t, ringBox(after, after).Empty(), "nothing gained is no ring")
}

func TestRingBoxIgnoresAFilledArea(t *testing.T) {
	t.Parallel()
	before, after := blank(), blank()
	draw.Draw(after, image.Rect(20, 20, 120, 80), image.NewUniform(ring), image.Point{}, draw.Src)
	assert.True(t, ringBox(before, after).Empty(), "a card of the accent colour scrolling into view is not a ring")
}

func TestRingBoxIgnoresAFewPixels(t *testing.T) {
	t.Parallel()
	before, after := blank(), blank()
	outline(after, image.Rect(10, 10, 20, 20))
	assert.True(t, ringBox(before, after).Empty(), "a dot is not a ring")
}

func TestBoxRelations(t *testing.T) {
	t.Parallel()
	row := image.Rect(8, 212, 263, 248)
	assert.True(t, within(image.Rect(201, 214, 235, 246), row, 2), "the rename button lies inside its row")
	assert.False(t, within(image.Rect(10, 162, 261, 202), row, 2), "the search box lies above it")
	assert.True(t, near(image.Rect(9, 211, 262, 249), row, 2))
	assert.False(t, near(image.Rect(8, 250, 263, 286), row, 2))
}

func TestColourClasses(t *testing.T) {
	t.Parallel()
	assert.True(t, accent(137, 129, 234))
	assert.False(t, accent(120, 120, 130), "grey text is not the ring")
	assert.True(t, success(30, 127, 79))
	assert.False(t, success(245, 245, 245))
}
