package main

import (
	"image"
	"image/color"
)

// A colour class: the hues the checks look for, loose enough for the
// antialiased and half-transparent edges of what draws them.
type colourClass func(r, g, b int) bool

// accent is the focus ring's violet blue (--accent, 70 % over the page).
func accent(r, g, b int) bool { return b > g+60 && b > r+60 }

// success is the completion card's green (--success).
func success(r, g, b int) bool { return g > r+30 && g > b+10 }

func rgb(c color.Color) (int, int, int) {
	r, g, b, _ := c.RGBA()
	return int(r >> 8), int(g >> 8), int(b >> 8)
}

// count is how many pixels of img are of the class.
func count(img image.Image, class colourClass) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if class(rgb(img.At(x, y))) {
				n++
			}
		}
	}
	return n
}

// change is what a class gained from one frame to the next: the box around
// the pixels of the class in after that were not in before, and how many.
type change struct {
	box image.Rectangle
	n   int
}

// gained compares two frames of the same size.
func gained(before, after image.Image, class colourClass) change {
	var c change
	b := after.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if class(rgb(after.At(x, y))) && !class(rgb(before.At(x, y))) {
				c.n++
				c.box = c.box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return c
}

// same reports whether two frames are pixel for pixel alike.
func same(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				return false
			}
		}
	}
	return true
}

// sameIn reports whether two frames of the same size agree on which
// pixels are of the class.
func sameIn(a, b image.Image, class colourClass) bool {
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if class(rgb(a.At(x, y))) != class(rgb(b.At(x, y))) {
				return false
			}
		}
	}
	return true
}

// within reports whether inner lies inside outer, give or take slack pixels.
func within(inner, outer image.Rectangle, slack int) bool {
	return !inner.Empty() && inner.In(outer.Inset(-slack))
}

// near reports whether two boxes differ by at most slack pixels on each edge.
func near(a, b image.Rectangle, slack int) bool {
	d := func(p, q int) bool { return p-q <= slack && q-p <= slack }
	return d(a.Min.X, b.Min.X) && d(a.Min.Y, b.Min.Y) && d(a.Max.X, b.Max.X) && d(a.Max.Y, b.Max.Y)
}

// crop is the part of img inside r (shared pixels, same coordinates).
func crop(img image.Image, r image.Rectangle) image.Image {
	if s, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	}); ok {
		return s.SubImage(r)
	}
	return img
}
