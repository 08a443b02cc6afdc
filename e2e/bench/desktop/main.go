// Command desktop measures the production build (build/bin/errand) as a
// person starts it: cold start to an interactive window, and the resident
// memory of its processes (Go, WebKitWebProcess, WebKitNetworkProcess) at
// idle, with an empty history and with a seeded one. It needs an X display
// (run it under xvfb-run) and prints one JSON line per figure.
//
// The empty history's starts are a person's first start: no model is
// configured, so the demo model answers, and the window's own storage is
// new. Every other start is given the bench's scripted model server.
//
// How a start is timed, from the moment before exec:
//
//   - window: the app's top-level X window (its _NET_WM_PID is the
//     process) is mapped, polled every 2 ms with XQueryTree.
//   - first_paint: the page first shows on the window's background
//     colour (at least 0.2% of the sampled pixels are something else),
//     and complete: the first moment from which the window
//     looks as it does at the end (visually complete). The window is sampled
//     every ~15 ms in 24 thin strips (XGetImage), each strip cut into 8
//     cells whose count of non-background pixels is the frame's signature;
//     the end is when the app's process tree has used under 5% of a CPU
//     for 0.5 s. A blinking caret changes too few pixels to count. After a
//     sample that differs from the one before, the next is taken at once:
//     a sample taken while the X server puts a frame on the screen holds
//     part of it (a sample takes 2–25 ms, the longest while a frame is
//     drawn), and the whole frame was counted only at the sample after
//     the pause, 20–40 ms late (in 2 of 5 starts with the big history).
//   - bound_call (empty history only): the frontend, once mounted, lists
//     the conversations and, finding none, creates one through a bound Go
//     method: the first row in the database proves the page runs and can
//     call Go.
//   - restarts (with -restart): empty_restart and seeded_restart time a
//     start that follows a first start in the same data folder, which was
//     left running until its page saved its first screen, then quit: what
//     a person who starts Errand again sees. snapshot_shown counts the
//     starts whose page showed a copy of its first screen as it loaded: the
//     last start's, or on a first start the build's copy of one
//     (scripts/first-start.sh).
//     empty_restart_nocopy and seeded_restart_nocopy are the same restarts
//     with that copy removed before them: what the copy itself saves.
//   - steps (with -steps N): one more start with an empty history, whose
//     idle footprint is read; then a task of N steps is typed into the
//     window (each step a read-only tool call of the scripted model), and
//     once it has completed and the app is idle + the settle time, the
//     footprint is read again (steps.go).
//   - stop (with -stops N): one more start with an empty history; then N
//     times a new conversation streams a 5 MB Markdown reply and Stop is
//     clicked at 25, 50 or 75% of it: click → the window shows it stopped
//     (stop.go); with -bare, as many clicks on the bare window's Stop.
//     Then the CPU the app uses, idle and while a task waits (cpu.go).
//     With -stop-pace P the reply streams at P tokens a second from a
//     little before where Stop is clicked: Stop at a model's pace.
//   - stream (with -seeded and -stream N): one more start with the seeded
//     history; a reply of N tokens streams at 1,000 a second into the
//     conversation it opens (the largest), then into a new one, then as
//     a code block, a list and a table: the frames the screen shows meanwhile, a second, and
//     the longest gap between two (stream.go).
//
// Usage:
//
//	desktop -app build/bin/errand [-seeded DIR] [-runs 5] [-seeded-runs 3] [-restart] [-steps 200] [-stops 9 [-stop-pace 1000]] [-stream 5000] [-out file]
package main

/*
#cgo pkg-config: x11
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <stdlib.h>
#include <string.h>

static int ignore_errors(Display *d, XErrorEvent *e) { return 0; }

static void quiet(void) { XSetErrorHandler(ignore_errors); }

// find_window returns a viewable top-level window of process pid, or 0.
static Window find_window(Display *d, unsigned long pid, int *w, int *h) {
	Atom a = XInternAtom(d, "_NET_WM_PID", True);
	if (a == None) return 0;
	Window root = DefaultRootWindow(d), r, p, *kids = NULL;
	unsigned int n = 0;
	if (!XQueryTree(d, root, &r, &p, &kids, &n)) return 0;
	Window found = 0;
	for (unsigned int i = 0; i < n && !found; i++) {
		Atom type; int fmt; unsigned long items, after; unsigned char *prop = NULL;
		if (XGetWindowProperty(d, kids[i], a, 0, 1, False, XA_CARDINAL, &type, &fmt, &items, &after, &prop) == Success && prop) {
			if (items == 1 && *(unsigned long *)prop == pid) {
				XWindowAttributes wa;
				if (XGetWindowAttributes(d, kids[i], &wa) && wa.map_state == IsViewable && wa.width > 200) {
					found = kids[i]; *w = wa.width; *h = wa.height;
				}
			}
			XFree(prop);
		}
	}
	if (kids) XFree(kids);
	return found;
}

// grab copies a width×height area at (x, y) of win, as shown on the
// screen (read from the root window, so whatever child windows WebKit
// draws in are included), as 32-bit pixels into out (width*height
// uint32s); it returns 0 on failure.
static int grab(Display *d, Window win, int x, int y, int width, int height, unsigned int *out) {
	Window root = DefaultRootWindow(d), child;
	int rx, ry;
	if (!XTranslateCoordinates(d, win, root, x, y, &rx, &ry, &child)) return 0;
	XImage *img = XGetImage(d, root, rx, ry, width, height, AllPlanes, ZPixmap);
	if (!img) return 0;
	int ok = img->bits_per_pixel == 32;
	if (ok) {
		for (int row = 0; row < height; row++)
			memcpy(out + row * width, img->data + row * img->bytes_per_line, width * 4);
	}
	XDestroyImage(img);
	return ok;
}
*/
import "C"

import (
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/errand-app/errand/backend/modelserver/compat"
	"golang.org/x/sys/unix"
	_ "modernc.org/sqlite"
)

var out io.Writer = os.Stdout

// framesDir (-frames) keeps a PNG of every change the sampler sees, named
// after framesTag (the history and run), the change's number and time.
var framesDir, framesTag string

func emit(name string, value float64, unit string) {
	b, _ := json.Marshal(map[string]any{"name": name, "value": value, "unit": unit})
	fmt.Fprintln(out, string(b))
	if out != os.Stdout {
		fmt.Println(string(b))
	}
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "desktop:", err)
		os.Exit(1)
	}
}

// dropCached writes a binary's pages out and drops them from the page
// cache, so that it is read from disk as after an install. A file just
// built or copied is held in large folios, and the idle release of the
// executable's pages (backend/memtrim) then gives back less: up to 20 MB
// more of Errand's own memory at idle.
func dropCached(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return err
	}
	return unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
}

func run() error {
	app := flag.String("app", "build/bin/errand", "the production `binary`")
	seeded := flag.String("seeded", "", "a seeded data `directory` (its errand.db is copied for each run)")
	runs := flag.Int("runs", 5, "cold starts with an empty history")
	seededRuns := flag.Int("seeded-runs", 3, "cold starts with the seeded history")
	settle := flag.Duration("settle", 5*time.Second, "idle time before memory is read")
	outFile := flag.String("out", "", "append the figures to this `file` too")
	shots := flag.String("shots", "", "save each history's last frame as PNG in this `directory`")
	prefix := flag.String("prefix", "desktop", "figure name prefix")
	bare := flag.String("bare", "", "also measure this bare Wails `binary` (e2e/bench/wailsbare), the floor")
	flag.StringVar(&framesDir, "frames", "", "save the window as PNG in this `directory` at every change the sampler sees (slows the sampling)")
	restart := flag.Bool("restart", false, "also time restarts: each start follows one in the same data folder that was let save its first screen (empty_restart, seeded_restart)")
	steps := flag.Int("steps", 0, "also run a task of this many `steps` in the window and measure the footprint's growth (0: not)")
	stream := flag.Int("stream", 0, "also stream a reply of this many `tokens` at 1,000 a second into the seeded history's largest conversation, into a new one, as code, a list and a table, and count the window's frames (0: not; needs -seeded)")
	stops := flag.Int("stops", 0, "also click Stop this many `times` in the window, in 5 MB replies at 25, 50 and 75% in turn (0: not)")
	stopPace := flag.Float64("stop-pace", 0, "with -stops: the reply streams as fast as the app takes it up to where Stop is clicked, then at this many `tokens` a second, and Stop is clicked once the window has caught up (0: as fast all along)")
	flag.Parse()
	if *outFile != "" {
		f, err := os.OpenFile(*outFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	dpy := C.XOpenDisplay(nil)
	if dpy == nil {
		return fmt.Errorf("no X display: run under xvfb-run")
	}
	C.quiet()

	var script func(*compat.Request) compat.Reply
	if *steps > 0 {
		script = taskScript(*steps)
	}
	model := compat.NewServer(stopScript(script))
	model.AllowNoAuth = true
	baseURL, stop := model.Start()
	defer stop()

	for _, bin := range []string{*app, *bare} {
		if bin == "" {
			continue
		}
		if err := dropCached(bin); err != nil {
			return err
		}
	}
	cases := []benchCase{{name: "empty", app: *app, firstStart: true}}
	if *seeded != "" {
		cases = append(cases, benchCase{name: "seeded", app: *app, db: filepath.Join(*seeded, "errand.db")})
	}
	if *restart {
		for _, dropCopy := range []bool{false, true} {
			suffix := map[bool]string{false: "_restart", true: "_restart_nocopy"}[dropCopy]
			cases = append(cases, benchCase{name: "empty" + suffix, app: *app, restart: true, dropCopy: dropCopy})
			if *seeded != "" {
				cases = append(cases, benchCase{name: "seeded" + suffix, app: *app, db: filepath.Join(*seeded, "errand.db"), restart: true, dropCopy: dropCopy})
			}
		}
	}
	if *bare != "" {
		cases = append(cases, benchCase{name: "bare", app: *bare})
	}
	mem := map[string]float64{}
	for _, c := range cases {
		var window, paint, complete, bound []float64
		steps := map[string][]float64{}
		shown := 0
		n := *runs
		if c.db != "" {
			n = *seededRuns
		}
		if n == 0 {
			continue // a run of other figures alone (-runs 0 -seeded-runs 0)
		}
		for i := 0; i < n; i++ {
			last := i == n-1
			framesTag = fmt.Sprintf("%s%d", c.name, i+1)
			r, err := start(dpy, c, baseURL, last, *settle)
			if err != nil {
				return fmt.Errorf("%s history, run %d: %w", c.name, i+1, err)
			}
			window = append(window, r.window)
			paint = append(paint, r.firstPaint)
			complete = append(complete, r.complete)
			if r.bound > 0 {
				bound = append(bound, r.bound)
			}
			for step, ms := range r.steps {
				steps[step] = append(steps[step], ms)
			}
			if r.snapshot {
				shown++
			}
			if last {
				p := *prefix + "." + c.name
				var pss, goRSS, webRSS, netRSS, rss, goPriv, webPriv, netPriv float64
				for _, m := range r.memory {
					pss += m.pss
					rss += m.rss
					switch procKind(m.name) {
					case "webkit_web":
						webRSS += m.rss
						webPriv += m.private
					case "webkit_network":
						netRSS += m.rss
						netPriv += m.private
					default:
						goRSS += m.rss // the app's own process
						goPriv += m.private
					}
				}
				emit(p+".idle_private.go", goPriv, "MB")
				emit(p+".idle_private.webkit_web", webPriv, "MB")
				emit(p+".idle_private.webkit_network", netPriv, "MB")
				emit(p+".idle_footprint", r.footprint, "MB")
				emit(p+".idle_private", r.private, "MB")
				emit(p+".idle_pss", pss, "MB")
				emit(p+".idle_rss_sum", rss, "MB")
				emit(p+".idle_rss.go", goRSS, "MB")
				emit(p+".idle_rss.webkit_web", webRSS, "MB")
				emit(p+".idle_rss.webkit_network", netRSS, "MB")
				emit(p+".processes", float64(len(r.memory)), "count")
				mem[c.name] = r.footprint
				saveShot(*shots, c.name, r.shot)
			}
		}
		p := *prefix + "." + c.name + ".start"
		emit(p+".window.median", median(window), "ms")
		emit(p+".first_paint.median", median(paint), "ms")
		emit(p+".complete.median", median(complete), "ms")
		emit(p+".complete.max", maxOf(complete), "ms")
		if len(bound) > 0 {
			emit(p+".bound_call.median", median(bound), "ms")
		}
		emit(p+".runs", float64(len(window)), "count")
		if c.name != "bare" {
			emit(p+".snapshot_shown", float64(shown), "count")
		}
		for step, v := range steps {
			emit(p+".page."+step+".median", median(v), "ms")
		}
	}
	if e, s := mem["empty"], mem["seeded"]; e > 0 && s > 0 {
		emit(*prefix+".idle_footprint.seeded_minus_empty", s-e, "MB")
	}
	if *steps > 0 {
		if err := measureSteps(dpy, *app, baseURL, *steps, *settle, *prefix, *shots); err != nil {
			return err
		}
	}
	if *stream > 0 {
		if *seeded == "" {
			return fmt.Errorf("-stream needs -seeded")
		}
		if err := measureStream(dpy, *app, filepath.Join(*seeded, "errand.db"), *stream, *prefix, *shots); err != nil {
			return err
		}
	}
	if *stops > 0 {
		return measureStops(dpy, *app, *bare, baseURL, stopRun{n: *stops, pace: *stopPace}, *prefix, *shots)
	}
	return nil
}

type procMem struct {
	pid               int
	name              string
	rss, pss, private float64 // MB
}

type result struct {
	pid                                 int
	window, firstPaint, complete, bound float64 // ms from exec
	memory                              []procMem
	footprint, private                  float64 // MB
	shot                                image.Image
	// The page's steps of its start, ms since it began to load, as Errand
	// logs them when its first screen is painted ("first screen").
	steps map[string]float64
	// snapshot: the page showed the last start's first screen while its
	// script loaded (Go logs "first screen snapshot: shown").
	snapshot bool
	task     *taskResult  // after a task of -steps steps
	stops    []stopResult // with -stops
	// With -stops, after them: the tree's CPU (% of one CPU) with the
	// window idle and with a task waiting for the model (cpu.go).
	idleCPU, waitingCPU float64
	// With -stream: the long conversation's stream, then a new one's.
	streams []streamResult
	shots   []image.Image
}

const (
	strips      = 24
	stripHeight = 2
	cells       = 8
)

type frame struct {
	at  time.Duration
	end time.Duration
	sig [strips * cells]int
	ink int // pixels not of the window's background colour
	bg  int // pixels of it
}

// benchCase is what a start is made of: the app, the history copied in
// (db, none for an empty one) and whether it is a restart.
type benchCase struct {
	name, app, db string
	restart       bool
	dropCopy      bool    // a restart whose first screen's copy is removed before it
	steps         int     // then a task of this many steps is run in the window (steps.go)
	stops         stopRun // then Stop is clicked in long replies (stop.go)
	stream        int     // then replies of this many tokens are streamed (stream.go)
	started       <-chan time.Time
	// firstStart: a person's first start, with no model configured (so
	// the demo model) and the window's own storage new.
	firstStart bool
}

// live is a started app the bench goes on working in: its window, its
// process and its database.
type live struct {
	dpy     *C.Display
	win     C.Window
	w, h    int
	pid     int
	exited  <-chan struct{}
	db      *sql.DB
	logPath string
	bare    bool // the bare window (e2e/bench/wailsbare)
}

// start runs the app once and times it; see the package documentation.
func start(dpy *C.Display, c benchCase, baseURL string, measureMemory bool, settle time.Duration) (result, error) {
	app, seedDB, bare := c.app, c.db, c.name == "bare"
	dir, err := os.MkdirTemp("", "errand-bench-desktop-")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(dir)
	dbPath := filepath.Join(dir, "errand.db")
	if seedDB != "" {
		if err := copyFile(seedDB, dbPath); err != nil {
			return result{}, err
		}
	}
	if c.steps > 0 {
		if err := allowSteps(dbPath, c.steps); err != nil {
			return result{}, err
		}
	}
	if c.restart {
		if err := warm(app, baseURL, dir); err != nil {
			return result{}, err
		}
		if c.dropCopy {
			if err := os.Remove(filepath.Join(dir, "first-screen.json")); err != nil {
				return result{}, err
			}
		}
	}
	model := baseURL
	if c.firstStart {
		model = ""
	}
	cmd := command(app, model, dir)
	if bare && c.stops.pace > 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("BARE_STREAM=%g", c.stops.pace))
	}
	if c.firstStart {
		cmd.Env = append(cmd.Env, "XDG_DATA_HOME="+filepath.Join(dir, "window-storage"))
	}
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	logFrom := logSize(filepath.Join(dir, "logs", "errand.log")) // a restart's log holds the start before it
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	}()
	r := result{pid: cmd.Process.Pid}
	since := func() float64 { return float64(time.Since(t0)) / float64(time.Millisecond) }

	// The window.
	var win C.Window
	var w, h C.int
	for win == 0 {
		select {
		case <-exited:
			return r, fmt.Errorf("the app exited: %s", logs.String())
		default:
		}
		if time.Since(t0) > time.Minute {
			return r, fmt.Errorf("no window after a minute: %s", logs.String())
		}
		win = C.find_window(dpy, C.ulong(cmd.Process.Pid), &w, &h)
		if win == 0 {
			time.Sleep(2 * time.Millisecond)
		}
	}
	r.window = since()

	// The database, for the bound call of an empty history.
	var db *sql.DB
	readyFile := ""
	if bare {
		readyFile = filepath.Join(dir, "ready")
	} else if (seedDB == "" && !c.restart) || c.stream > 0 {
		db, err = sql.Open("sqlite", "file:"+dbPath+"?_pragma=busy_timeout(50)")
		if err != nil {
			return r, err
		}
		defer db.Close()
	}

	width := int(w)
	buf := make([]C.uint, width*stripHeight)
	// The window's background (options.App.BackgroundColour of Errand and
	// of wailsbare): what GTK shows before the page paints.
	blank := color.RGBA{R: 250, G: 250, B: 251, A: 255}
	sample := func() (frame, bool) {
		f := frame{at: time.Since(t0)}
		for s := 0; s < strips; s++ {
			y := int(h) * (2*s + 1) / (2 * strips)
			if C.grab(dpy, win, 0, C.int(y), C.int(width), stripHeight, (*C.uint)(unsafe.Pointer(&buf[0]))) == 0 {
				return f, false
			}
			for i, px := range buf {
				c := rgba(uint32(px))
				if !far(c, blank) {
					f.bg++
				} else {
					f.sig[s*cells+(i%width)*cells/width]++
					f.ink++
				}
			}
		}
		f.end = time.Since(t0)
		return f, true
	}

	var frames []frame
	changes := 0 // with -frames: the window is saved at each change of the strips
	cpu := newCPUMeter(cmd.Process.Pid)
	for {
		select {
		case <-exited:
			return r, fmt.Errorf("the app exited: %s", logs.String())
		default:
		}
		if f, ok := sample(); ok {
			if framesDir != "" && (len(frames) == 0 || !same(f.sig, frames[len(frames)-1].sig, 0)) {
				changes++
				saveShot(framesDir, fmt.Sprintf("%s-%03d-%05.0fms", framesTag, changes, ms(f.at)), screenshot(dpy, win, int(w), int(h)))
			}
			frames = append(frames, f)
		}
		if readyFile != "" && r.bound == 0 {
			if _, err := os.Stat(readyFile); err == nil {
				r.bound = since()
			}
		}
		if db != nil && r.bound == 0 {
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM conversations`).Scan(&n); err == nil && n > 0 {
				r.bound = since()
			}
		}
		if cpu.idle() && ((db == nil && readyFile == "") || r.bound > 0) && len(frames) > 0 {
			break
		}
		if time.Since(t0) > 10*time.Minute {
			return r, fmt.Errorf("not idle after 10 minutes")
		}
		if n := len(frames); n >= 2 && !same(frames[n-1].sig, frames[n-2].sig, 0) {
			continue // a frame may be half drawn: look again at once
		}
		time.Sleep(15 * time.Millisecond)
	}
	if len(frames) == 0 {
		return r, fmt.Errorf("could not read the window")
	}
	// First paint and visual completeness.
	final := frames[len(frames)-1]
	if os.Getenv("DESKTOP_DEBUG") != "" {
		for _, f := range frames {
			fmt.Fprintf(os.Stderr, "frame %.0f ms: ink %d bg %d end %.0f\n", ms(f.at), f.ink, f.bg, ms(f.end))
		}
	}
	tol := width * stripHeight / cells / 50 // 2% of a cell
	r.firstPaint, r.complete = -1, -1
	for i, f := range frames {
		// Painted: the background with something on it, at least 0.2% of
		// the sampled pixels (before GTK draws, the screen under the window
		// is all one other colour; GTK's first frames show a few stray
		// pixels).
		if r.firstPaint < 0 && f.ink*500 >= f.ink+f.bg && f.bg > 0 {
			r.firstPaint = ms(f.at)
		}
		if !same(f.sig, final.sig, tol) {
			r.complete = -1
			continue
		}
		if r.complete < 0 {
			r.complete = ms(frames[i].at)
		}
	}
	log := logSince(filepath.Join(dir, "logs", "errand.log"), logFrom)
	r.steps = startSteps(log)
	r.snapshot = strings.Contains(log, "first screen snapshot: shown")
	l := &live{dpy: dpy, win: win, w: int(w), h: int(h), pid: cmd.Process.Pid, exited: exited, db: db,
		logPath: filepath.Join(dir, "logs", "errand.log"), bare: bare}
	if c.steps > 0 {
		// Read as the window after the task will be: its composer has the
		// keyboard, and WebKit draws its blinking caret.
		if err := l.focusComposer(); err != nil {
			return r, err
		}
	}
	if measureMemory {
		time.Sleep(settle)
		r.memory = treeMemory(cmd.Process.Pid)
		r.footprint, r.private = footprintParts(cmd.Process.Pid)
		r.shot = screenshot(dpy, win, int(w), int(h))
	}
	switch {
	case c.steps > 0:
		t, err := runTask(l, c.steps, settle)
		if err != nil {
			return r, fmt.Errorf("%w\n%s", err, logs.String())
		}
		r.task = &t
	case c.stream > 0:
		if r.streams, r.shots, err = runStreams(l, c.stream, c.started); err != nil {
			return r, fmt.Errorf("%w\n%s", err, logs.String())
		}
	case c.stops.n > 0:
		if r.stops, err = runStops(l, c.stops); err != nil {
			return r, fmt.Errorf("%w\n%s", err, logs.String())
		}
		if !bare {
			if r.idleCPU, r.waitingCPU, err = l.waitingCPU(); err != nil {
				return r, fmt.Errorf("the CPU while a task waits: %w\n%s", err, logs.String())
			}
		}
	}
	return r, nil
}

// command is the app on the data folder dir and the scripted model server
// at baseURL ("": no model configured, the demo model answers).
func command(app, baseURL, dir string) *exec.Cmd {
	cmd := exec.Command(app)
	key, model := "bench-key", "bench-model"
	if baseURL == "" {
		key, model = "", ""
	}
	cmd.Env = append(os.Environ(), "NO_AT_BRIDGE=1", "DBUS_SESSION_BUS_ADDRESS=disabled:",
		"ERRAND_DATA_DIR="+dir, "OPENAI_BASE_URL="+baseURL, "OPENAI_API_KEY="+key, "ERRAND_MODEL="+model,
		"BARE_READY_FILE="+filepath.Join(dir, "ready"))
	return cmd
}

// warm runs the app once on dir, untimed, until its page has saved its
// first screen (dir/first-screen.json; a minute at most), and quits it as
// a person does: what a restart starts from.
func warm(app, baseURL, dir string) error {
	cmd := command(app, baseURL, dir)
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		return err
	}
	saved := filepath.Join(dir, "first-screen.json")
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(saved); err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("the warm-up start: %w\n%s", err, logs.String())
	}
	if _, err := os.Stat(saved); err != nil {
		return fmt.Errorf("the warm-up start saved no first screen within a minute\n%s", logs.String())
	}
	return nil
}

// logSize is the size of the log at path (0 for none yet).
func logSize(path string) int64 {
	info, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return info.Size()
}

// logSince is what the log at path gained after its first from bytes: a
// restart's own lines, after those of the start before it.
func logSince(path string, from int64) string {
	b, err := os.ReadFile(path)
	if err != nil || int64(len(b)) < from {
		return ""
	}
	return string(b[from:])
}

// startSteps reads the steps of the page's start from Errand's log line
// `msg="first screen" ms="html=4 module=103 … painted=297"`; none for a
// window that logs no such line (the bare one).
func startSteps(log string) map[string]float64 {
	_, rest, ok := strings.Cut(log, `msg="first screen" ms="`)
	if !ok {
		return nil
	}
	line, _, _ := strings.Cut(rest, `"`)
	steps := map[string]float64{}
	for _, pair := range strings.Fields(line) {
		k, v, _ := strings.Cut(pair, "=")
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			steps[k] = ms
		}
	}
	return steps
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func rgba(px uint32) color.RGBA {
	return color.RGBA{R: uint8(px >> 16), G: uint8(px >> 8), B: uint8(px), A: 255}
}

// far reports whether c visibly differs from the background.
func far(c, bg color.RGBA) bool {
	d := func(a, b uint8) int {
		if a > b {
			return int(a - b)
		}
		return int(b - a)
	}
	return d(c.R, bg.R)+d(c.G, bg.G)+d(c.B, bg.B) > 24
}

func same(a, b [strips * cells]int, tol int) bool {
	for i := range a {
		if d := a[i] - b[i]; d > tol || d < -tol {
			return false
		}
	}
	return true
}

func screenshot(dpy *C.Display, win C.Window, w, h int) image.Image {
	buf := make([]C.uint, w*h)
	if !grabArea(dpy, win, 0, 0, w, h, buf) {
		return nil
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i, px := range buf {
		img.Set(i%w, i/w, rgba(uint32(px)))
	}
	return img
}

// grabArea copies the w×h area at (x, y) of win, as shown on the screen,
// into buf (w*h pixels, row by row).
func grabArea(dpy *C.Display, win C.Window, x, y, w, h int, buf []C.uint) bool {
	return C.grab(dpy, win, C.int(x), C.int(y), C.int(w), C.int(h), (*C.uint)(unsafe.Pointer(&buf[0]))) != 0
}

// saveShot saves img as name.png in dir (nothing when either is empty).
func saveShot(dir, name string, img image.Image) {
	if dir == "" || img == nil {
		return
	}
	_ = os.MkdirAll(dir, 0o755)
	if f, err := os.Create(filepath.Join(dir, name+".png")); err == nil {
		_ = png.Encode(f, img)
		f.Close()
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func maxOf(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	o, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(o, in); err != nil {
		o.Close()
		return err
	}
	return o.Close()
}

// descendants returns pid and every process below it.
func descendants(pid int) []int {
	kids := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := ppid(p); ok {
			kids[pp] = append(kids[pp], p)
		}
	}
	var out []int
	var walk func(int)
	walk = func(p int) {
		out = append(out, p)
		for _, k := range kids[p] {
			walk(k)
		}
	}
	walk(pid)
	return out
}

func statFields(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
}

func ppid(pid int) (int, bool) {
	f := statFields(pid)
	if len(f) < 2 {
		return 0, false
	}
	p, err := strconv.Atoi(f[1])
	return p, err == nil
}

// cpuMeter tells when the app's process tree is idle.
type cpuMeter struct {
	pid, last int
	at        time.Time
}

func newCPUMeter(pid int) *cpuMeter { return &cpuMeter{pid: pid, last: treeCPU(pid), at: time.Now()} }

// idle reads the tree's CPU time every half second (false in between) and
// reports whether the tree used at most 2 clock ticks of 10 ms, ≤ 4% of a
// CPU, since the reading before.
func (m *cpuMeter) idle() bool {
	if time.Since(m.at) < 500*time.Millisecond {
		return false
	}
	cpu := treeCPU(m.pid)
	idle := cpu-m.last <= 2
	m.last, m.at = cpu, time.Now()
	return idle
}

// treeCPU is the user+system CPU time, in clock ticks, of pid's tree.
func treeCPU(pid int) int {
	total := 0
	for _, p := range descendants(pid) {
		if f := statFields(p); len(f) > 12 {
			u, _ := strconv.Atoi(f[11])
			s, _ := strconv.Atoi(f[12])
			total += u + s
		}
	}
	return total
}

// footprintParts is the memory of the tree with each file or shared mapping
// counted once — the private pages of every process, plus, for each mapped
// file (libraries, shared memory), the most any one process has resident —
// and, of it, the private pages alone (USS). RSS added up counts the shared
// libraries once per process; PSS depends on what else maps them.
func footprintParts(pid int) (total, privateMB float64) {
	private := 0.0
	shared := map[string]float64{}
	for _, p := range descendants(pid) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", p))
		if err != nil {
			continue
		}
		perFile := map[string]float64{}
		name := ""
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			if !strings.HasSuffix(f[0], ":") || strings.Contains(f[0], "-") {
				// A mapping's header: address range, perms, offset, dev, inode, path.
				name = ""
				if len(f) >= 6 {
					name = strings.Join(f[5:], " ")
				}
				continue
			}
			if len(f) < 2 {
				continue
			}
			kb, _ := strconv.ParseFloat(f[1], 64)
			switch f[0] {
			case "Private_Clean:", "Private_Dirty:":
				private += kb
			case "Shared_Clean:", "Shared_Dirty:":
				key := name
				if key == "" {
					key = fmt.Sprintf("anon:%d", p) // anonymous shared: count per process
				}
				perFile[key] += kb
			}
		}
		for k, v := range perFile {
			if v > shared[k] {
				shared[k] = v
			}
		}
	}
	total = private
	for _, v := range shared {
		total += v
	}
	return total / 1024, private / 1024
}

// procKind names what a process of the tree is: "webkit_web",
// "webkit_network" or "go" (the app's own).
func procKind(name string) string {
	switch {
	case strings.HasPrefix(name, "WebKitWebProces"):
		return "webkit_web"
	case strings.HasPrefix(name, "WebKitNetworkPr"):
		return "webkit_network"
	default:
		return "go"
	}
}

func treeMemory(pid int) []procMem {
	var out []procMem
	for _, p := range descendants(pid) {
		name, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", p))
		roll, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", p))
		if err != nil {
			continue
		}
		m := procMem{pid: p, name: strings.TrimSpace(string(name))}
		for _, line := range strings.Split(string(roll), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			kb, _ := strconv.ParseFloat(f[1], 64)
			switch f[0] {
			case "Rss:":
				m.rss = kb / 1024
			case "Pss:":
				m.pss = kb / 1024
			case "Private_Clean:", "Private_Dirty:":
				m.private += kb / 1024
			}
		}
		out = append(out, m)
	}
	return out
}
