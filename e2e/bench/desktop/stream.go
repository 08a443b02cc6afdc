package main

// The -stream figure: a reply streaming at 1,000 tokens a second as the
// window shows it, in the seeded history's 10,000-message conversation
// (the newest, open when the app starts), then in a new conversation, then
// in that one again as a code block (one block of 600 lines at 5,000
// tokens: a page lays out a block's lines together), as a list (one block
// of Markdown, 400 items with a link each) and as a table (500 rows).
//
// A frame is counted where the person sees it: on the screen. The X
// server reports each drawing on the screen (XDamage, on the root window,
// so whatever child windows WebKit draws in count), and the bench clears
// the report each time, so each report is a new drawing. GTK puts a frame
// on the screen in one drawing; reports less than frameMerge apart are
// taken as one frame all the same. Counted from half a second after the
// model was asked for the reply until a quarter of a second before its
// last token was sent (or the task ended, if sooner): frames per second
// and the longest gap between two.
// The window draws only what changes, so a frame is text (or the status
// line's clock) that moved: a stream at 1,000 tokens a second reaches the
// window about 60 times a second, which is the most it could show.

/*
#cgo pkg-config: x11 xdamage
#include <X11/Xlib.h>
#include <X11/extensions/Xdamage.h>
#include <poll.h>

// damage_watch opens its own connection and starts reporting drawings on
// the screen; 0 when the server has no XDamage.
static Display *damage_open(Damage *dmg, int *base) {
	Display *d = XOpenDisplay(NULL);
	int err;
	if (!d) return NULL;
	if (!XDamageQueryExtension(d, base, &err)) { XCloseDisplay(d); return NULL; }
	*dmg = XDamageCreate(d, DefaultRootWindow(d), XDamageReportNonEmpty);
	XSync(d, False);
	return d;
}

// damage_wait waits up to timeout_ms for a drawing on the screen; it
// returns 1 if there was one (and clears the report, so that the next
// drawing is reported again), 0 if not.
static int damage_wait(Display *d, Damage dmg, int base, int timeout_ms) {
	if (XPending(d) == 0) {
		struct pollfd p = { .fd = ConnectionNumber(d), .events = POLLIN };
		if (poll(&p, 1, timeout_ms) <= 0) return 0;
	}
	int drawn = 0;
	while (XPending(d) > 0) {
		XEvent ev;
		XNextEvent(d, &ev);
		if (ev.type == base + XDamageNotify) drawn = 1;
	}
	if (drawn) {
		XDamageSubtract(d, dmg, None, None);
		XFlush(d);
	}
	return drawn;
}

static void damage_close(Display *d, Damage dmg) {
	XDamageDestroy(d, dmg);
	XCloseDisplay(d);
}
*/
import "C"

import (
	"fmt"
	"image"
	"net/http/httptest"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/e2e/bench/longreply"
)

const (
	// streamRate is the model's pace: tokens (words, one an event) a second.
	streamRate = 1000
	// frameMerge: drawings closer than this are one frame.
	frameMerge = 4 * time.Millisecond
	// streamLead and streamTail are left out of the count at each end.
	streamLead = 500 * time.Millisecond
	streamTail = 250 * time.Millisecond
)

// streamResult is one streamed reply as the screen showed it.
type streamResult struct {
	fps    float64 // frames a second
	gap    float64 // the longest time between two frames, ms
	gapEnd float64 // when that gap ended, ms after the count began
	frames int
	span   time.Duration // what was counted
}

var streamMarker = regexp.MustCompile(`\[stream(-code|-list|-table)? (\d+)\]`)

// streams are the replies -stream counts, in order: each figure's name
// and its prompt's marker. The first is in the conversation the app
// opens, the others in a new one.
var streams = []struct{ name, marker string }{
	{"long_conversation", "stream"},
	{"new_conversation", "stream"},
	{"code_block", "stream-code"},
	{"list", "stream-list"},
	{"table", "stream-table"},
}

// streamScript answers a prompt "[stream N] …" with N words ("[stream-code
// N]": in a code block, "[stream-list N]": in a list, "[stream-table N]":
// in a table) and completes the task; the conversation's title and a summary of the long
// conversation's older messages get a line. started is told when each
// stream's reply is asked for.
func streamScript(started chan<- time.Time) func(*compat.Request) compat.Reply {
	return func(req *compat.Request) compat.Reply {
		switch {
		case req.AsksForSummary():
			return compat.Reply{Text: "Summary: a long conversation."}
		case len(req.Tools) == 0:
			return compat.Reply{Text: "A streamed reply"}
		}
		m := streamMarker.FindStringSubmatch(req.LastUserText())
		if m == nil {
			return compat.Reply{Text: "Done.", ToolCalls: []chat.ToolCall{{Name: agent.ToolTaskComplete, Arguments: `{"summary":"Nothing to stream."}`}}}
		}
		n, _ := strconv.Atoi(m[2])
		text := longreply.Tokens(n)
		switch m[1] {
		case "-code":
			text = longreply.Code(n)
		case "-list":
			text = longreply.List(n)
		case "-table":
			text = longreply.Table(n)
		}
		started <- time.Now()
		return compat.Reply{Text: text,
			ToolCalls: []chat.ToolCall{{Name: agent.ToolTaskComplete, Arguments: `{"summary":"Streamed."}`}}}
	}
}

// measureStream starts the app with the seeded history, streams a reply
// of n tokens into the conversation it opens (the seeded history's
// largest) and then into a new one, and emits the frames of each.
func measureStream(dpy *C.Display, app, seededDB string, n int, prefix, shots string) error {
	started := make(chan time.Time, 4)
	model := compat.NewServer(streamScript(started))
	model.AllowNoAuth = true
	srv := httptest.NewServer(compat.Paced(model, streamRate))
	defer srv.Close()
	r, err := start(dpy, benchCase{name: "stream", app: app, db: seededDB, stream: n, started: started}, srv.URL+"/v1", false, 0)
	if err != nil {
		return fmt.Errorf("streaming in the window: %w", err)
	}
	for i, st := range streams {
		s := r.streams[i]
		p := prefix + ".stream." + st.name
		emit(p+".fps", s.fps, "frames/s")
		emit(p+".longest_frame_gap", s.gap, "ms")
		emit(p+".longest_frame_gap_end", s.gapEnd, "ms")
		emit(p+".frames", float64(s.frames), "count")
		emit(p+".seconds", s.span.Seconds(), "s")
		saveShot(shots, "stream-"+st.name, r.shots[i])
	}
	return nil
}

// runStreams streams n tokens as each of streams asks; the screen after
// each.
func runStreams(l *live, n int, started <-chan time.Time) ([]streamResult, []image.Image, error) {
	var out []streamResult
	var shots []image.Image
	for i, st := range streams {
		if i == 1 {
			if err := xdotool("key", "ctrl+n"); err != nil {
				return out, shots, err
			}
			time.Sleep(time.Second)
		}
		s, err := l.streamOnce(st.marker, n, started)
		if err != nil {
			return out, shots, err
		}
		out = append(out, s)
		shots = append(shots, screenshot(l.dpy, l.win, l.w, l.h))
	}
	return out, shots, nil
}

// streamOnce sends a prompt streamed back in n tokens ([marker n]) and
// counts the screen's frames while it streams.
func (l *live) streamOnce(marker string, n int, started <-chan time.Time) (streamResult, error) {
	stop, err := watchFrames()
	if err != nil {
		return streamResult{}, err
	}
	defer stop()
	sent := time.Now()
	if err := l.send(fmt.Sprintf("/task [%s %d] tokens, counted on the screen", marker, n)); err != nil {
		return streamResult{}, err
	}
	var first time.Time
	select {
	case first = <-started:
	case <-time.After(2 * time.Minute):
		return streamResult{}, fmt.Errorf("the model was not asked for the stream 2 minutes after it was typed")
	}
	t, err := waitTask(l.db, sent, l.exited)
	if err != nil {
		return streamResult{}, err
	}
	ended := t.ended
	// The model's last token goes out n/streamRate after its first (later
	// only if the app reads it late); the task ends after it, later still
	// in a long conversation (the window has drawn the last token by then).
	last := first.Add(time.Duration(n) * time.Second / streamRate)
	if ended.Before(last) {
		last = ended
	}
	from, to := first.Add(streamLead), last.Add(-streamTail)
	if !to.After(from) {
		return streamResult{}, fmt.Errorf("the stream lasted %v: too short to count", ended.Sub(first))
	}
	drawn := stop()
	if os.Getenv("DESKTOP_DEBUG") != "" {
		for _, t := range drawn {
			fmt.Fprintf(os.Stderr, "drawn %.1f\n", ms(t.Sub(from)))
		}
	}
	return countFrames(drawn, from, to), nil
}

// watchFrames records when the screen is drawn on, from now until stop,
// which returns the times. It has its own X connection, on a thread of its own.
func watchFrames() (stop func() []time.Time, err error) {
	var (
		mu    sync.Mutex
		times []time.Time
		done  = make(chan struct{})
		ended = make(chan struct{})
		once  sync.Once
	)
	ready := make(chan error)
	go func() {
		defer close(ended)
		runtime.LockOSThread()
		var dmg C.Damage
		var base C.int
		d := C.damage_open(&dmg, &base)
		if d == nil {
			ready <- fmt.Errorf("no X display with XDamage")
			return
		}
		defer C.damage_close(d, dmg)
		ready <- nil
		for {
			select {
			case <-done:
				return
			default:
			}
			if C.damage_wait(d, dmg, base, 50) == 1 {
				mu.Lock()
				times = append(times, time.Now())
				mu.Unlock()
			}
		}
	}()
	if err := <-ready; err != nil {
		return nil, err
	}
	return func() []time.Time {
		once.Do(func() { close(done); <-ended })
		mu.Lock()
		defer mu.Unlock()
		return times
	}, nil
}

// countFrames counts the frames among the drawings between from and to.
func countFrames(drawn []time.Time, from, to time.Time) streamResult {
	s := streamResult{span: to.Sub(from)}
	var last time.Time
	for _, t := range drawn {
		if t.Before(from) || t.After(to) || (!last.IsZero() && t.Sub(last) < frameMerge) {
			continue
		}
		prev := from
		if !last.IsZero() {
			prev = last
		}
		if g := ms(t.Sub(prev)); g > s.gap {
			s.gap, s.gapEnd = g, ms(t.Sub(from))
		}
		s.frames++
		last = t
	}
	if last.IsZero() {
		last = from
	}
	if g := ms(to.Sub(last)); g > s.gap {
		s.gap, s.gapEnd = g, ms(s.span)
	}
	s.fps = float64(s.frames) / s.span.Seconds()
	return s
}
