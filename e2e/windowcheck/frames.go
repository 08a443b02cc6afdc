package main

import (
	"context"
	"image"
	"time"
)

// quiet is how long a frame must stay unchanged to count as the window at
// rest; it never decides a check, only when to look.
const quiet = 3 * time.Second

// settled waits until the page is drawn (many colours: text, not a blank
// or a lone "Loading…") and has stopped changing for quiet.
func settled(ctx context.Context, w *window) (image.Image, error) {
	var last image.Image
	var since time.Time
	err := poll(ctx, "the window to draw the page and come to rest", func() (bool, error) {
		img, err := w.shot(ctx)
		if err != nil {
			return false, err
		}
		if last == nil || !same(last, img) {
			last, since = img, time.Now()
			return false, nil
		}
		return time.Since(since) >= quiet && colours(img) >= 200, nil
	})
	return last, err
}

// after waits, after a key, for the ring colour to settle where it
// changed: the accent pixels differ from before and two frames running
// agree on them. With no change for quiet (a key that moved the focus to
// a control that draws no ring), it returns the unchanged frame. Only
// the accent colour counts: a blinking caret or a spinner is not an answer.
func after(ctx context.Context, w *window, before image.Image) (image.Image, error) {
	start := time.Now()
	var img, last image.Image
	err := poll(ctx, "the window to answer a key", func() (bool, error) {
		var err error
		img, err = w.shot(ctx)
		if err != nil {
			return false, err
		}
		changed := !sameIn(before, img, accent)
		rest := last != nil && sameIn(last, img, accent)
		last = img
		return (changed && rest) || (!changed && time.Since(start) >= quiet), nil
	})
	return img, err
}

// colours is how many distinct colours img holds.
func colours(img image.Image) int {
	seen := map[[3]int]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl := rgb(img.At(x, y))
			seen[[3]int{r, g, bl}] = true
		}
	}
	return len(seen)
}

// waitFor waits for a frame that cond accepts, with the ring colour at
// rest (the frame before agrees on it: not caught mid-transition), and
// returns it.
func waitFor(ctx context.Context, w *window, what string, cond func(image.Image) bool) (image.Image, error) {
	var img, last image.Image
	err := poll(ctx, what, func() (bool, error) {
		var err error
		img, err = w.shot(ctx)
		if err != nil {
			return false, err
		}
		rest := last != nil && sameIn(last, img, accent)
		last = img
		return rest && cond(img), nil
	})
	return img, err
}
