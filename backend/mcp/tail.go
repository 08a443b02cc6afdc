package mcp

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// tailBuffer keeps the last bytes a server wrote to its standard error:
// enough to say why it failed, bounded however much it writes.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func newTail(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return len(p), nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// last returns the last lines written, trimmed, as valid text.
func (t *tailBuffer) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.ToValidUTF8(string(t.buf), "")
	for len(s) > 0 && !utf8.RuneStart(s[0]) {
		s = s[1:]
	}
	return strings.TrimSpace(s)
}
