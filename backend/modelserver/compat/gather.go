package compat

import (
	"bytes"
	"io"
	"net/http"
)

// Gather is an http.RoundTripper (over http.DefaultTransport) whose
// replies' bodies give each, in its first read, everything up to the end of
// the server-sent event that holds marker. A stream's chunks before the
// marker then bring the client no silence of their own: a test of a stall
// after the text (Reply.HangAfterText) can use a small idle limit that
// only the endless silence after the text can reach, however loaded the
// machine.
func Gather(marker string) http.RoundTripper {
	return gather{marker: []byte(marker)}
}

type gather struct{ marker []byte }

func (g gather) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return res, err
	}
	res.Body = &gathered{ReadCloser: res.Body, marker: g.marker}
	return res, nil
}

// gathered is a body whose first read waits for the event holding marker.
type gathered struct {
	io.ReadCloser
	marker []byte
	head   []byte
	done   bool
	err    error
}

func (g *gathered) Read(p []byte) (int, error) {
	if !g.done {
		g.done = true
		g.head, g.err = g.readThroughMarker()
	}
	if len(g.head) > 0 {
		n := copy(p, g.head)
		g.head = g.head[n:]
		return n, nil
	}
	if g.err != nil {
		return 0, g.err
	}
	return g.ReadCloser.Read(p)
}

// readThroughMarker reads until the event that holds the marker has ended.
func (g *gathered) readThroughMarker() ([]byte, error) {
	var head []byte
	buf := make([]byte, 4096)
	for {
		if i := bytes.Index(head, g.marker); i >= 0 && bytes.Contains(head[i:], []byte("\n\n")) {
			return head, nil
		}
		n, err := g.ReadCloser.Read(buf)
		head = append(head, buf[:n]...)
		if err != nil {
			return head, err
		}
	}
}
