package compat

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestPacedKeepsTheRate(t *testing.T) {
	text := strings.TrimSpace(strings.Repeat("tok ", 200))
	srv := NewServer(func(*Request) Reply { return Reply{Text: text} })
	srv.AllowNoAuth = true
	hs := httptest.NewServer(Paced(srv, 1000))
	defer hs.Close()

	t0 := time.Now()
	res, err := http.Post(hs.URL+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	events := 0
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			events++
		}
	}
	took := time.Since(t0)
	// 200 words + role + finish + [DONE] = 203 events, 202 intervals of 1 ms.
	if events != 203 {
		t.Fatalf("got %d events", events)
	}
	if took < 200*time.Millisecond {
		t.Fatalf("203 events at 1,000 a second took only %v", took)
	}
}

// At one write an hour, only writes that are not paced finish: the reply
// ends only if the unpaced part and the schedule's first write go out at
// once (the client gives up after a minute rather than an hour).
func TestPacedAfterSendsItsFirstWritesAtOnce(t *testing.T) {
	srv := NewServer(func(*Request) Reply { return Reply{Text: "one two three"} })
	srv.AllowNoAuth = true
	// role, three words, finish, [DONE]: 6 events; the 6th is the schedule's first.
	var asked atomic.Pointer[http.Request] // set on the server's goroutine
	hs := httptest.NewServer(PacedAfter(srv, 1.0/3600, func(r *http.Request) int { asked.Store(r); return 5 }))
	defer hs.Close()

	client := &http.Client{Timeout: time.Minute}
	res, err := client.Post(hs.URL+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var text strings.Builder
	events := 0
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			events++
			text.WriteString(sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("after %d events: %v", events, err)
	}
	if events != 6 || !strings.Contains(text.String(), "[DONE]") {
		t.Fatalf("got %d events: %s", events, text.String())
	}
	if r := asked.Load(); r == nil || r.URL.Path != "/v1/chat/completions" {
		t.Fatalf("unpaced was asked about %v", r)
	}
}
