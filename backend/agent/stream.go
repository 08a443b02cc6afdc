package agent

import (
	"strings"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// streamWriter turns the model's text deltas into one stored message,
// coalesced: the first delta creates the message, later ones are appended at
// most once per interval, and a timer flushes what waits when the model goes
// quiet. Each flush is stored before it is published.
type streamWriter struct {
	rn       *run
	interval time.Duration

	mu        sync.Mutex
	msg       chat.Message // zero until the first text arrives
	pending   strings.Builder
	lastFlush time.Time
	timer     *time.Timer
	err       error // the first write error; later text is dropped
}

func newStreamWriter(rn *run, interval time.Duration) *streamWriter {
	return &streamWriter{rn: rn, interval: interval}
}

// write takes one delta, on the loop goroutine.
func (w *streamWriter) write(text string) {
	if text == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return
	}
	w.pending.WriteString(text)
	if w.msg.ID == "" {
		m := w.rn.newMessage(chat.RoleAssistant, w.pending.String())
		m.Streaming = true
		w.pending.Reset()
		w.msg, w.err = w.rn.add(m)
		w.lastFlush = time.Now()
		return
	}
	if wait := w.interval - time.Since(w.lastFlush); wait > 0 {
		if w.timer == nil {
			w.timer = time.AfterFunc(wait, w.flushFromTimer)
		}
		return
	}
	w.flushLocked()
}

func (w *streamWriter) flushFromTimer() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.timer = nil
	// A write may have flushed since this timer was set (it fires late, or
	// the write came first): wait out the rest of the interval.
	if wait := w.interval - time.Since(w.lastFlush); wait > 0 {
		if w.pending.Len() > 0 {
			w.timer = time.AfterFunc(wait, w.flushFromTimer)
		}
		return
	}
	w.flushLocked()
}

func (w *streamWriter) flushLocked() {
	if w.pending.Len() == 0 || w.err != nil || w.msg.ID == "" {
		return
	}
	text := w.pending.String()
	w.pending.Reset()
	w.lastFlush = time.Now()
	w.err = w.rn.appendText(w.msg.ID, text)
}

// close flushes what is pending and returns the streamed message (zero if
// no text came) and the first write error.
func (w *streamWriter) close() (chat.Message, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	w.flushLocked()
	return w.msg, w.err
}
