package main

// The -stops figure: Stop in the real window, in a long Markdown reply. A
// start with an empty history; then, for each stop, a new conversation
// whose task streams a 5 MB Markdown reply as fast as the app takes it,
// and Stop clicked once 25%, 50% or 75% of it has been stored (in turn).
// With a pace (-stop-pace), the reply streams that fast from a little
// before that point, and Stop is clicked once the window has had
// stopCatchUp to catch up with it: Stop while a model writes, where the
// fastest reply shows Stop while the page is as busy as a reply can make
// it.
//
// With -bare, the bare Wails window's Stop button is clicked as often: a
// call to Go that Go answers with an event, which hides the button (the
// toolkit's floor for the same round trip, on an idle page; with a pace,
// while Go streams it words at that pace, which it writes at the end of a
// text that follows its end).
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

// point_at moves the pointer to (x, y) of win through the X server.
static void point_at(Display *d, Window win, int x, int y) {
	Window root = DefaultRootWindow(d), child;
	int rx, ry;
	XTranslateCoordinates(d, win, root, x, y, &rx, &ry, &child);
	XTestFakeMotionEvent(d, -1, rx, ry, CurrentTime);
	XFlush(d);
}

// click presses and releases the first button where the pointer is, as a
// person's click: through the X server.
static void click(Display *d) {
	XTestFakeButtonEvent(d, 1, True, CurrentTime);
	XTestFakeButtonEvent(d, 1, False, CurrentTime);
	XFlush(d);
}
*/
import "C"

import (
	"bytes"
	"fmt"
	"image"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"syscall"
	"time"

	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/e2e/bench/longreply"
)

// stopReplyBytes is the size of the reply Stop is clicked in.
const stopReplyBytes = 5 << 20

// stopPoints are where in the reply Stop is clicked, in turn.
var stopPoints = []float64{0.25, 0.5, 0.75}

// stopCatchUp is how long a paced reply streams past its point before
// Stop is clicked: the window catches up with what came as fast as it
// could take it, and then shows the reply at its pace.
const stopCatchUp = 3 * time.Second

// stopLead is how many tokens before its point a paced reply takes its
// pace: the point is then reached at the pace.
const stopLead = 100

// stopRun is how Stop is clicked: n times, in replies paced at pace tokens
// a second from their points (0: as fast as the app takes them).
type stopRun struct {
	n    int
	pace float64
}

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
		m := stopMarker.FindStringSubmatch(req.LastUserText())
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

// unpacedToStop is how many of a stop reply's events go out before it
// takes its pace: those of the text up to stopLead tokens before its
// point. The request names both ("[long N] stop me at P%"), and the
// reply's first event is its role. Other requests are paced throughout.
func unpacedToStop(r *http.Request) int {
	body, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	m := stopPrompt.FindSubmatch(body)
	if err != nil || m == nil {
		return 0
	}
	n, _ := strconv.Atoi(string(m[1]))
	pct, _ := strconv.Atoi(string(m[2]))
	text := longreply.Markdown(n)
	return 1 + max(0, len(compat.Words(text[:len(text)*pct/100]))-stopLead)
}

var stopPrompt = regexp.MustCompile(`\[long (\d+)\] stop me at (\d+)%`)

// pacedStopServer serves the stop replies paced from their points.
func pacedStopServer(pace float64) *httptest.Server {
	model := compat.NewServer(stopScript(nil))
	model.AllowNoAuth = true
	return httptest.NewServer(compat.PacedAfter(model, pace, unpacedToStop))
}

// runStops clicks Stop run.n times, each in a new conversation's long
// reply.
func runStops(l *live, run stopRun) ([]stopResult, error) {
	var out []stopResult
	if l.bare && run.pace > 0 {
		// Its stream starts now that it has started, and its page takes
		// the pace first.
		if err := syscall.Kill(l.pid, syscall.SIGUSR2); err != nil {
			return nil, err
		}
		time.Sleep(stopCatchUp)
	}
	for i := 0; i < run.n; i++ {
		point := stopPoints[i%len(stopPoints)]
		r, err := l.stopOnce(point, run.pace > 0)
		if err != nil {
			return out, fmt.Errorf("Stop at %.0f%% of the reply: %w", point*100, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// stopOnce streams a long reply in a new conversation and clicks Stop
// once point of it is stored (and, when the reply is paced, the window
// has caught up). In the bare window, whose Stop button is always there,
// it only clicks.
func (l *live) stopOnce(point float64, paced bool) (stopResult, error) {
	r := stopResult{point: point}
	var task string
	if !l.bare {
		var err error
		if task, err = l.longReply(point); err != nil {
			return r, err
		}
		if paced {
			time.Sleep(stopCatchUp)
		}
	}
	// The window shows the button a little after Go started the task.
	x, y, ok := l.stopButton()
	for start := time.Now(); !ok && time.Since(start) < 30*time.Second; x, y, ok = l.stopButton() {
		time.Sleep(20 * time.Millisecond)
	}
	if !ok {
		return r, fmt.Errorf("no Stop button on the screen for 30 s")
	}
	// The pointer rests on the button first, as a person's does: its hover
	// is drawn before the click.
	C.point_at(l.dpy, l.win, C.int(x), C.int(y))
	time.Sleep(300 * time.Millisecond)
	clicked := time.Now()
	C.click(l.dpy)
	for !l.squareGone(x, y) {
		if time.Since(clicked) > 10*time.Second {
			return r, fmt.Errorf("the Stop button was still shown 10 s after the click")
		}
		time.Sleep(time.Millisecond)
	}
	r.painted = ms(time.Since(clicked))
	r.shot = screenshot(l.dpy, l.win, l.w, l.h)
	if l.bare {
		time.Sleep(1500 * time.Millisecond) // its button comes back after 1 s
		return r, nil
	}
	ended, err := l.waitCancelled(task)
	r.ended = float64(ended - clicked.UnixMilli())
	return r, err
}

// longReply opens a new conversation, sends the prompt of a long reply
// and returns its task once point of the reply is stored.
func (l *live) longReply(point float64) (string, error) {
	if err := xdotool("key", "ctrl+n"); err != nil {
		return "", err
	}
	sent := time.Now().UnixMilli()
	if err := l.send(fmt.Sprintf("/task [long %d] stop me at %.0f%%", stopReplyBytes, point*100)); err != nil {
		return "", err
	}
	return l.waitStored(sent, int(point*stopReplyBytes))
}

// waitCancelled waits until the task is stored as cancelled and returns
// when it ended (ms).
func (l *live) waitCancelled(task string) (int64, error) {
	var status string
	var ended int64
	for start := time.Now(); status != "cancelled"; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > time.Minute {
			return 0, fmt.Errorf("the task is %q a minute after Stop", status)
		}
		_ = l.db.QueryRow(`SELECT status, coalesce(ended_at, 0) FROM tasks WHERE id = ?`, task).Scan(&status, &ended)
	}
	return ended, nil
}

// waitStored waits until a task started at or after since (ms) has stored
// n bytes of its reply, and returns the task. Each look reads one row or
// index entry (the newest task, its reply's last chunk): the bench must
// not take the CPU the app needs while it streams.
func (l *live) waitStored(since int64, n int) (string, error) {
	var task, reply string
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		select {
		case <-l.exited:
			return "", fmt.Errorf("the app exited")
		default:
		}
		if time.Since(start) > 5*time.Minute {
			return "", fmt.Errorf("%d bytes of the reply not stored after 5 minutes", n)
		}
		if reply == "" {
			// The newest task is the table's last row (as in waitTask).
			_ = l.db.QueryRow(`SELECT t.id, m.id FROM (SELECT id FROM tasks WHERE rowid = (SELECT MAX(rowid) FROM tasks) AND started_at >= ?) t
				JOIN messages m ON m.task_id = t.id AND m.role = 'assistant' ORDER BY m.seq DESC LIMIT 1`, since).Scan(&task, &reply)
			continue
		}
		var stored int
		err := l.db.QueryRow(`SELECT end_offset FROM message_chunks WHERE message_id = ? ORDER BY seq DESC LIMIT 1`, reply).Scan(&stored)
		if err == nil && stored >= n {
			return task, nil
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
	lum := func(x, y int) int { return luma(uint32(buf[y*l.w+x])) }
	for y := 3; y+square+3 <= rows; y++ {
		for x := l.w / 2; x+square+3 <= l.w; x++ {
			if icon(x, y, lum) {
				return x + square/2, top + y + square/2, true
			}
		}
	}
	return 0, 0, false
}

// icon reports whether the 7×7 square at (x, y) is dark throughout and
// stands alone: the ring 2 pixels outside its 9×9 is light (the button's
// face). A filled button (Send, when it can send) is no icon.
func icon(x, y int, lum func(x, y int) int) bool {
	for dy := 0; dy < square; dy++ {
		for dx := 0; dx < square; dx++ {
			if lum(x+dx, y+dy) >= 110 {
				return false
			}
		}
	}
	for d := -3; d <= square+2; d++ {
		for _, p := range [][2]int{{x + d, y - 3}, {x + d, y + square + 2}, {x - 3, y + d}, {x + square + 2, y + d}} {
			if lum(p[0], p[1]) < 200 {
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
// in long replies and emits each time and the slowest; then the same
// number of clicks on the bare window's Stop (a call to Go answered by an
// event), when there is one.
func measureStops(dpy *C.Display, app, bare string, baseURL string, run stopRun, prefix, shots string) error {
	if run.pace > 0 {
		srv := pacedStopServer(run.pace)
		defer srv.Close()
		baseURL = srv.URL + "/v1"
		prefix += ".paced"
	}
	r, err := start(dpy, benchCase{name: "stops", app: app, stops: run}, baseURL, false, 0)
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
	emit(prefix+".cpu.idle", r.idleCPU, "%")
	emit(prefix+".cpu.task_waiting", r.waitingCPU, "%")
	if bare == "" {
		return nil
	}
	b, err := start(dpy, benchCase{name: "bare", app: bare, stops: run}, baseURL, false, 0)
	if err != nil {
		return fmt.Errorf("Stop in the bare window: %w", err)
	}
	var floor []float64
	for _, s := range b.stops {
		floor = append(floor, s.painted)
	}
	emit(prefix+".bare.stop.click_to_painted.median", median(floor), "ms")
	emit(prefix+".bare.stop.click_to_painted.max", maxOf(floor), "ms")
	emit(prefix+".stop.click_to_painted.median_over_bare", median(all)-median(floor), "ms")
	return nil
}
