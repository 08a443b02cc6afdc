package main

// The -stops figure: Stop in the real window, in a long Markdown reply. A
// start with an empty history; then, for each stop, a new conversation
// whose task streams a 5 MB Markdown reply as fast as the app takes it,
// and Stop clicked once 25%, 50% or 75% of it has been stored (in turn).
//
// The click is the X server's (XTest), on the Stop button found on the
// screen: the composer's only 9×9 dark square, its icon. The time runs
// from just before the click to the first grab of the screen in which
// that square is gone, which the window draws in the frame that shows
// the task stopped ("Stopped" in the status line, Send alone in the
// composer). A disabled or hovered button still shows its square, so
// neither counts. The task's end as Go stored it (tasks.ended_at) splits
// the time into Go's part and the page's.

/*
#cgo pkg-config: x11 xtst
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>

// press_at moves the pointer to (x, y) of win and presses and releases
// the first button there, as a person's click: through the X server.
static void press_at(Display *d, Window win, int x, int y, int press) {
	Window root = DefaultRootWindow(d), child;
	int rx, ry;
	XTranslateCoordinates(d, win, root, x, y, &rx, &ry, &child);
	XTestFakeMotionEvent(d, -1, rx, ry, CurrentTime);
	if (press) {
		XTestFakeButtonEvent(d, 1, True, CurrentTime);
		XTestFakeButtonEvent(d, 1, False, CurrentTime);
	}
	XFlush(d);
}
*/
import "C"

import (
	"database/sql"
	"fmt"
	"image"
	"regexp"
	"strconv"
	"time"

	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/e2e/bench/longreply"
)

// stopReplyBytes is the size of the reply Stop is clicked in.
const stopReplyBytes = 5 << 20

// stopPoints are where in the reply Stop is clicked, in turn.
var stopPoints = []float64{0.25, 0.5, 0.75}

// stopResult is one Stop.
type stopResult struct {
	point   float64 // the part of the reply stored when Stop was clicked
	painted float64 // click → the Stop button gone from the screen, ms
	ended   float64 // click → the task's end as Go stored it, ms (its clock has ms)
	shot    image.Image
}

var stopMarker = regexp.MustCompile(`\[long (\d+)\] stop me`)

// stopScript answers a prompt "[long N] stop me" with about N bytes of
// Markdown and then no end: the reply holds open until the app goes away
// (so Stop always meets it streaming); other prompts go to next. The
// conversation's title is asked without tools.
func stopScript(next func(*compat.Request) compat.Reply) func(*compat.Request) compat.Reply {
	return func(req *compat.Request) compat.Reply {
		last := ""
		for _, m := range req.Messages {
			if m.Role == "user" {
				last = m.Text()
			}
		}
		m := stopMarker.FindStringSubmatch(last)
		switch {
		case m == nil && next != nil:
			return next(req)
		case m == nil || len(req.Tools) == 0:
			return compat.Reply{Text: "A long reply"}
		}
		n, _ := strconv.Atoi(m[1])
		return compat.Reply{Text: longreply.Markdown(n), HangAfterText: true}
	}
}

// runStops clicks Stop n times, each in a new conversation's long reply.
func runStops(l *live, n int) ([]stopResult, error) {
	var out []stopResult
	for i := 0; i < n; i++ {
		point := stopPoints[i%len(stopPoints)]
		r, err := l.stopOnce(point)
		if err != nil {
			return out, fmt.Errorf("Stop at %.0f%% of the reply: %w", point*100, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func (l *live) stopOnce(point float64) (stopResult, error) {
	r := stopResult{point: point}
	if err := xdotool("key", "ctrl+n"); err != nil {
		return r, err
	}
	if err := l.send(fmt.Sprintf("/task [long %d] stop me at %.0f%%", stopReplyBytes, point*100)); err != nil {
		return r, err
	}
	task, err := l.waitStored(int(point * stopReplyBytes))
	if err != nil {
		return r, err
	}
	x, y, ok := l.stopButton()
	if !ok {
		return r, fmt.Errorf("no Stop button in the composer while the reply streams")
	}
	// The pointer rests on the button first, as a person's does: its hover
	// is drawn before the click.
	C.press_at(l.dpy, l.win, C.int(x), C.int(y), 0)
	time.Sleep(300 * time.Millisecond)
	clicked := time.Now()
	C.press_at(l.dpy, l.win, C.int(x), C.int(y), 1)
	for !l.squareGone(x, y) {
		if time.Since(clicked) > 10*time.Second {
			return r, fmt.Errorf("the Stop button was still shown 10 s after the click")
		}
		time.Sleep(time.Millisecond)
	}
	r.painted = ms(time.Since(clicked))
	r.shot = screenshot(l.dpy, l.win, l.w, l.h)
	var status string
	var ended int64
	for start := time.Now(); status != "cancelled"; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > time.Minute {
			return r, fmt.Errorf("the task is %q a minute after Stop", status)
		}
		_ = l.db.QueryRow(`SELECT status, coalesce(ended_at, 0) FROM tasks WHERE id = ?`, task).Scan(&status, &ended)
	}
	r.ended = float64(ended - clicked.UnixMilli())
	return r, nil
}

// waitStored waits until the newest task's reply has stored n bytes, and
// returns the task.
func (l *live) waitStored(n int) (string, error) {
	var task string
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		select {
		case <-l.exited:
			return "", fmt.Errorf("the app exited")
		default:
		}
		var stored sql.NullInt64
		err := l.db.QueryRow(`SELECT t.id, (SELECT max(c.end_offset) FROM message_chunks c JOIN messages m ON m.id = c.message_id
			WHERE m.task_id = t.id) FROM tasks t ORDER BY t.started_at DESC LIMIT 1`).Scan(&task, &stored)
		if err == nil && int(stored.Int64) >= n {
			return task, nil
		}
		if time.Since(start) > 5*time.Minute {
			return "", fmt.Errorf("%d of %d bytes stored after 5 minutes", stored.Int64, n)
		}
	}
}

// The Stop button's icon: a 9×9 square of the text's colour (its corners
// rounded); its middle 7×7 is what is looked for.
const square = 7

// stopButton finds the Stop button's icon in the composer's bar (the
// window's bottom 100 pixels) and returns its middle.
func (l *live) stopButton() (x, y int, ok bool) {
	top, rows := l.h-100, 100
	buf := make([]C.uint, l.w*rows)
	if !grabArea(l.dpy, l.win, 0, top, l.w, rows, buf) {
		return 0, 0, false
	}
	dark := func(x, y int) bool { return luma(uint32(buf[y*l.w+x])) < 110 }
	for y := 0; y+square <= rows; y++ {
		for x := l.w / 2; x+square <= l.w; x++ {
			if solid(x, y, dark) {
				return x + square/2, top + y + square/2, true
			}
		}
	}
	return 0, 0, false
}

// solid reports whether the square at (x, y) is dark throughout.
func solid(x, y int, dark func(x, y int) bool) bool {
	for dy := 0; dy < square; dy++ {
		for dx := 0; dx < square; dx++ {
			if !dark(x+dx, y+dy) {
				return false
			}
		}
	}
	return true
}

// squareGone reports whether the icon around (x, y) is no longer drawn:
// no pixel of it darker than light grey.
func (l *live) squareGone(x, y int) bool {
	buf := make([]C.uint, square*square)
	if !grabArea(l.dpy, l.win, x-square/2, y-square/2, square, square, buf) {
		return false
	}
	for _, px := range buf {
		if luma(uint32(px)) < 200 {
			return false
		}
	}
	return true
}

// luma is a pixel's brightness, 0–255.
func luma(px uint32) int {
	c := rgba(px)
	return (299*int(c.R) + 587*int(c.G) + 114*int(c.B)) / 1000
}

// measureStops starts the app with an empty history, clicks Stop n times
// in long replies and emits each time and the slowest.
func measureStops(dpy *C.Display, app, baseURL string, n int, prefix, shots string) error {
	r, err := start(dpy, benchCase{name: "stops", app: app, stops: n}, baseURL, false, 0)
	if err != nil {
		return fmt.Errorf("Stop in long replies: %w", err)
	}
	byPoint := map[float64][]float64{}
	var all []float64
	for i, s := range r.stops {
		p := fmt.Sprintf("%s.stop.at_%.0f_pct", prefix, s.point*100)
		emit(p+".click_to_painted", s.painted, "ms")
		emit(p+".click_to_ended", s.ended, "ms")
		byPoint[s.point] = append(byPoint[s.point], s.painted)
		all = append(all, s.painted)
		saveShot(shots, fmt.Sprintf("stop-%d-at-%.0f", i+1, s.point*100), s.shot)
	}
	for point, v := range byPoint {
		emit(fmt.Sprintf("%s.stop.at_%.0f_pct.click_to_painted.median", prefix, point*100), median(v), "ms")
	}
	emit(prefix+".stop.click_to_painted.median", median(all), "ms")
	emit(prefix+".stop.click_to_painted.max", maxOf(all), "ms")
	return nil
}
