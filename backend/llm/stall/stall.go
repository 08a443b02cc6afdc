// Package stall cuts model calls whose server falls silent. Its Transport
// wraps the http.RoundTripper of any provider adapter's *http.Client: a
// call is cut when the first byte of the reply's body does not arrive
// within the first-byte timeout, or when the next does not arrive within
// the idle timeout of the one before. A cut call fails with an
// *llm.StallError (errors.Is finds llm.ErrStalled); cancelling the
// request's context still ends it at once.
package stall

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/llm"
)

// Timeouts are the silences a call may keep. Zero (or less) means no limit.
type Timeouts struct {
	FirstByte time.Duration // from the request to the reply's first body byte
	Idle      time.Duration // between two reads of the body that bring bytes
}

// Transport is an http.RoundTripper that cuts stalled calls.
type Transport struct {
	// Base makes the requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Timeouts is asked at the start of every request, so a change of
	// settings applies to the next call. Nil means no limits.
	Timeouts func(ctx context.Context) Timeouts
}

// Client returns an *http.Client whose transport is t.
func (t *Transport) Client() *http.Client { return &http.Client{Transport: t} }

// RoundTrip sends req and watches its reply for silences.
//
// A call cut before the reply's headers came is answered with a 200
// response whose body fails with the stall: that way an SDK that retries
// failed connections on its own (openai-go, the Anthropic SDK) does not
// multiply the wait, and every adapter meets the stall where it reads
// the stream.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var limits Timeouts
	if t.Timeouts != nil {
		limits = t.Timeouts(req.Context())
	}
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	if limits.FirstByte <= 0 && limits.Idle <= 0 {
		return base.RoundTrip(req)
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	w := &watch{limits: limits, cancel: cancel}
	w.arm(limits.FirstByte, true)
	res, err := base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		w.stop()
		var se *llm.StallError
		if errors.As(context.Cause(ctx), &se) && req.Context().Err() == nil {
			return stalled(req, se), nil
		}
		return nil, err
	}
	res.Body = &body{rc: res.Body, w: w, ctx: ctx}
	return res, nil
}

// watch is the timer of one call.
type watch struct {
	limits Timeouts
	cancel context.CancelCauseFunc

	mu        sync.Mutex
	timer     *time.Timer
	silence   time.Duration // what the timer counts down
	firstByte bool          // whether it is the silence before the first byte
	done      bool
}

// arm starts the countdown of a silence of d; firstByte says which one.
func (w *watch) arm(d time.Duration, firstByte bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	w.silence, w.firstByte = d, firstByte
	switch {
	case d <= 0 && w.timer != nil:
		w.timer.Stop()
	case d <= 0:
	case w.timer != nil:
		w.timer.Reset(d)
	default:
		w.timer = time.AfterFunc(d, w.fire)
	}
}

// fire cuts the call.
func (w *watch) fire() {
	w.mu.Lock()
	se := &llm.StallError{Silence: w.silence, FirstByte: w.firstByte}
	w.mu.Unlock()
	w.cancel(se)
}

// stop ends the watch; the call's context is released.
func (w *watch) stop() {
	w.mu.Lock()
	w.done = true
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()
	w.cancel(nil)
}

// body is a reply's body under watch.
type body struct {
	rc  io.ReadCloser
	w   *watch
	ctx context.Context
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.w.arm(b.w.limits.Idle, false)
	}
	if err != nil && err != io.EOF {
		var se *llm.StallError
		if errors.As(context.Cause(b.ctx), &se) {
			return n, se
		}
	}
	return n, err
}

func (b *body) Close() error {
	b.w.stop()
	return b.rc.Close()
}

// stalled is the answer to a call cut before its headers: a stream that
// fails with se when read.
func stalled(req *http.Request, se *llm.StallError) *http.Response {
	h := http.Header{}
	h.Set("Content-Type", "text/event-stream")
	return &http.Response{
		Status: "200 OK", StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(&failing{err: se}), ContentLength: -1, Request: req,
	}
}

// failing is a reader that only fails.
type failing struct{ err error }

func (f *failing) Read([]byte) (int, error) { return 0, f.err }
