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
	return PacedAfter(h, perSecond, nil)
}

// PacedAfter is Paced, except that the first unpaced(r) writes of the
// response to r go out at once, and the schedule starts at the next one:
// a reply that streams as fast as the client takes it up to a point, then
// at a model's pace. A nil unpaced paces every write.
func PacedAfter(h http.Handler, perSecond float64, unpaced func(*http.Request) int) http.Handler {
	interval := time.Duration(float64(time.Second) / perSecond)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := &pacedWriter{ResponseWriter: w, r: r, interval: interval}
		if unpaced != nil {
			p.unpaced = unpaced(r)
		}
		h.ServeHTTP(p, r)
	})
}

type pacedWriter struct {
	http.ResponseWriter
	r        *http.Request
	interval time.Duration
	unpaced  int // the writes that go out at once, before the schedule
	start    time.Time
	writes   int
}

func (p *pacedWriter) Write(b []byte) (int, error) {
	if err := p.wait(); err != nil {
		return 0, err
	}
	p.writes++
	return p.ResponseWriter.Write(b)
}

// wait waits until the next write is due.
func (p *pacedWriter) wait() error {
	n := p.writes - p.unpaced // the next write's place in the schedule
	switch {
	case n < 0:
		return nil
	case n == 0:
		p.start = time.Now()
		return nil
	}
	wait := time.Until(p.start.Add(time.Duration(n) * p.interval))
	if wait <= 0 {
		return nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-p.r.Context().Done():
		return p.r.Context().Err()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer (Flush).
func (p *pacedWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }
