package compat

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strings"
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
