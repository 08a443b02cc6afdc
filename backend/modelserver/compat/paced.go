package compat

import (
	"net/http"
	"time"
)

// Paced wraps h (usually a *Server) so that each write of a response — for
// a stream, one server-sent event — goes out on a fixed schedule of
// perSecond writes a second, counted from the response's first write. A
// timer that fires late is made up by sending what is due at once, so the
// rate holds on average where Reply.ChunkDelay, a sleep before every chunk,
// drifts (sleeps shorter than about a millisecond are not kept). The
// benchmarks use it to stream at 1,000 tokens a second.
func Paced(h http.Handler, perSecond float64) http.Handler {
	interval := time.Duration(float64(time.Second) / perSecond)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&pacedWriter{ResponseWriter: w, r: r, interval: interval}, r)
	})
}

type pacedWriter struct {
	http.ResponseWriter
	r        *http.Request
	interval time.Duration
	start    time.Time
	writes   int
}

func (p *pacedWriter) Write(b []byte) (int, error) {
	if p.writes == 0 {
		p.start = time.Now()
	} else if wait := time.Until(p.start.Add(time.Duration(p.writes) * p.interval)); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-p.r.Context().Done():
			t.Stop()
			return 0, p.r.Context().Err()
		}
	}
	p.writes++
	return p.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer (Flush).
func (p *pacedWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }
