package agent

import (
	"strings"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// streamWriter turns the model's deltas — its answer and its reasoning —
// into one stored message, coalesced: the first delta creates the
// message, later ones are appended at most once per interval, and a timer
// flushes what waits when the model goes quiet. No flush runs on the
// reader's thread (see take), and each is stored before it is published.
type streamWriter struct {
	rn       *run
	interval time.Duration

	mu        sync.Mutex
	msg       chat.Message // zero until the first delta arrives
	pending   strings.Builder
	thinking  strings.Builder // reasoning not yet flushed
	lastFlush time.Time
	timer     *time.Timer
	err       error // the first write error; later deltas are dropped
	// When the first delta, the first reasoning and the first answer
	// after it arrived.
	firstAt, thoughtAt, answeredAt time.Time
}

func newStreamWriter(rn *run, interval time.Duration) *streamWriter {
	return &streamWriter{rn: rn, interval: interval}
}

// write takes one delta of the answer, on the goroutine reading the stream.
func (w *streamWriter) write(text string) {
	w.take(text, false)
}

// think takes one delta of the reasoning, on the goroutine reading the stream.
func (w *streamWriter) think(text string) {
	w.take(text, true)
}

func (w *streamWriter) take(text string, reasoning bool) {
	if text == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return
	}
	if w.firstAt.IsZero() {
		w.firstAt = time.Now()
	}
	switch {
	case reasoning && w.thoughtAt.IsZero():
		w.thoughtAt = time.Now()
	case !reasoning && !w.thoughtAt.IsZero() && w.answeredAt.IsZero():
		w.answeredAt = time.Now()
	}
	if reasoning {
		w.thinking.WriteString(text)
	} else {
		w.pending.WriteString(text)
	}
	if wait := w.wait(); wait > 0 {
		if w.timer == nil {
			w.timer = time.AfterFunc(wait, w.flushFromTimer)
		}
		return
	}
	// Not on this thread: the stream is read on a thread of lowered
	// priority (behindWindow), and a flush holds the run's lock, which a
	// Stop waits for. There, with the CPUs full, a flush would keep a Stop
	// waiting while the window's threads run.
	onOwnGoroutine(w.flushLocked)
}

// wait is how long what is pending waits to be flushed: nothing for the
// first delta, which creates the message; the rest of the interval after.
func (w *streamWriter) wait() time.Duration {
	if w.msg.ID == "" {
		return 0
	}
	return max(w.interval-time.Since(w.lastFlush), 0)
}

func (w *streamWriter) flushFromTimer() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.timer = nil
	// A write may have flushed since this timer was set (it fires late, or
	// the write came first): wait out the rest of the interval.
	if wait := w.wait(); wait > 0 {
		if w.pending.Len() > 0 || w.thinking.Len() > 0 {
			w.timer = time.AfterFunc(wait, w.flushFromTimer)
		}
		return
	}
	w.flushLocked()
}

// flushLocked stores and publishes what waits: the message itself, with
// what came, at the first flush; after it, the reasoning first, which came
// before the answer.
func (w *streamWriter) flushLocked() {
	if w.err != nil || (w.pending.Len() == 0 && w.thinking.Len() == 0) {
		return
	}
	w.lastFlush = time.Now()
	if w.msg.ID == "" {
		m := w.rn.newMessage(chat.RoleAssistant, w.pending.String())
		m.Reasoning = w.thinking.String()
		m.Streaming = true
		w.pending.Reset()
		w.thinking.Reset()
		w.msg, w.err = w.rn.add(m)
		return
	}
	if w.thinking.Len() > 0 {
		text := w.thinking.String()
		w.thinking.Reset()
		if w.err = w.rn.appendChunk(w.msg.ID, text, true); w.err != nil {
			return
		}
	}
	if w.pending.Len() > 0 {
		text := w.pending.String()
		w.pending.Reset()
		w.err = w.rn.appendChunk(w.msg.ID, text, false)
	}
}

// close flushes what is pending and returns the streamed message (zero if
// nothing came), how long the model thought (from its first reasoning to
// its first answer, or to now when no answer came; 0 when it did not
// think) and the first write error. reasoned says the reply had
// reasoning: one that streamed none (it was told apart from the answer
// only at its end) thought for the whole reply.
func (w *streamWriter) close(reasoned bool) (chat.Message, int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	w.flushLocked()
	var thought int64
	if w.thoughtAt.IsZero() && reasoned {
		w.thoughtAt, w.answeredAt = w.firstAt, time.Time{}
	}
	if !w.thoughtAt.IsZero() {
		end := w.answeredAt
		if end.IsZero() {
			end = time.Now()
		}
		thought = max(end.Sub(w.thoughtAt).Milliseconds(), 1)
	}
	return w.msg, thought, w.err
}
