package main

import (
	"context"
	"fmt"
	"image"
	"os/exec"
	"path/filepath"
)

const (
	// minRing is the fewest new accent pixels that make a ring (a 2 px
	// outline around the smallest control has at least a hundred and fifty).
	minRing = 100
	// maxTabs is how far along the tab order the list is looked for.
	maxTabs = 40
	// ringWidth is the most a ring's outline (2 px and its edge) spans.
	ringWidth = 6
)

// checkFocusRing: in a history of three conversations, Tab (as a person
// would, from the page's start) reaches the conversation list's row, whose
// own buttons come next; ↓ there must draw the ring on the row below.
func checkFocusRing(ctx context.Context, cfg config) (string, error) {
	data := filepath.Join(cfg.work, "focus")
	seed := exec.CommandContext(ctx, cfg.seed, "-dir", data, "-messages", "10", "-title", "Seeded conversation", "-fillers", "2")
	if out, err := seed.CombinedOutput(); err != nil {
		return "", fmt.Errorf("seed: %w: %s", err, out)
	}
	app, err := startApp(cfg.app, data, filepath.Join(cfg.out, "focus-app.log"), "OPENAI_BASE_URL=", "OPENAI_API_KEY=", "ERRAND_MODEL=")
	if err != nil {
		return "", err
	}
	defer app.stop()
	w, err := findWindow(ctx, app.cmd.Process.Pid)
	if err != nil {
		return "", err
	}
	if err := w.focus(ctx); err != nil {
		return "", err
	}
	frame, err := settled(ctx, w)
	if err != nil {
		return "", err
	}
	row, frame, err := findListRow(ctx, w, frame)
	if err != nil {
		return "", cfg.keep(err, frame, "focus-no-row")
	}
	return downMovesRing(ctx, cfg, w, row, frame)
}

// findListRow presses Tab until the ring lands on a control whose next
// tab stop lies inside it (a list row holds its rename and delete buttons),
// then goes back to it with Shift+Tab and returns the ring's box.
func findListRow(ctx context.Context, w *window, frame image.Image) (image.Rectangle, image.Image, error) {
	var prevRing image.Rectangle
	for range maxTabs {
		if err := w.key(ctx, "Tab"); err != nil {
			return image.Rectangle{}, frame, err
		}
		next, err := after(ctx, w, frame)
		if err != nil {
			return image.Rectangle{}, frame, err
		}
		ring := ringBox(frame, next)
		frame = next
		if prevRing.Dx() < 100 || !within(ring, prevRing, 2) || ring.Dx() >= prevRing.Dx()/2 {
			prevRing = ring
			continue
		}
		if err := w.key(ctx, "shift+Tab"); err != nil {
			return image.Rectangle{}, frame, err
		}
		back, err := waitFor(ctx, w, "the ring back on the row after Shift+Tab", func(img image.Image) bool {
			return near(ringBox(frame, img), prevRing, 2)
		})
		return prevRing, back, err
	}
	return image.Rectangle{}, frame, fmt.Errorf("no conversation row (a ringed control holding the next ringed one) in the first %d tab stops", maxTabs)
}

// ringBox is the box of the accent pixels gained from before to after
// when they draw a ring: enough of them, nearly all along the box's edges
// (not a card or a scrolled page coming into view); else an empty box.
func ringBox(before, after image.Image) image.Rectangle {
	c := gained(before, after, accent)
	if c.n < minRing {
		return image.Rectangle{}
	}
	inner := gained(before, crop(after, c.box.Inset(ringWidth)), accent)
	if inner.n*10 > c.n {
		return image.Rectangle{}
	}
	return c.box
}

// downMovesRing presses ↓ on the row and waits for a ring of the row's size
// on the row below it. Only what lies below the row counts: the row itself
// redraws its marks as its buttons hide.
func downMovesRing(ctx context.Context, cfg config, w *window, row image.Rectangle, frame image.Image) (string, error) {
	if err := w.key(ctx, "Down"); err != nil {
		return "", err
	}
	below := frame.Bounds()
	below.Min.Y = row.Max.Y - 2
	var moved image.Rectangle
	img, err := waitFor(ctx, w, "a ring on the row below after ↓", func(img image.Image) bool {
		moved = ringBox(crop(frame, below), crop(img, below))
		return moved.Min.Y >= row.Max.Y-2 && near(moved.Sub(image.Pt(0, moved.Min.Y-row.Min.Y)), row, 3)
	})
	if err != nil {
		return "", cfg.keep(fmt.Errorf("↓ on the row at %v: %w (last seen: a ring at %v)", row, err, moved), img, "focus-down")
	}
	n := gained(crop(frame, below), crop(img, below), accent).n
	return fmt.Sprintf("Tab reached the list's row (ring %v), ↓ drew the ring on the row below (%d ring pixels at %v)", row, n, moved), nil
}
