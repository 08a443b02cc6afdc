package anthropictest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// usage is the API's usage object.
type usage struct {
	InputTokens              int64 `json:"input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
}

// tokens estimates a text's tokens, about four characters each.
func tokens(s string) int64 { return int64(len(s)+3) / 4 }

// segments are the request's pieces in the order the cache sees them
// (tools, system, then each message's blocks), without their breakpoints,
// and which of them carry one.
func segments(r *Request) (parts []string, marked []bool) {
	for _, t := range r.Tools {
		cc := t.CacheControl
		t.CacheControl = nil
		b, _ := json.Marshal(t)
		parts, marked = append(parts, string(b)), append(marked, cc != nil)
	}
	for _, blk := range r.System {
		cc := blk.CacheControl
		blk.CacheControl = nil
		b, _ := json.Marshal(blk)
		parts, marked = append(parts, string(b)), append(marked, cc != nil)
	}
	for _, m := range r.Messages {
		for _, blk := range m.Content {
			cc := blk.CacheControl
			blk.CacheControl = nil
			b, _ := json.Marshal(blk)
			parts, marked = append(parts, m.Role+":"+string(b)), append(marked, cc != nil)
		}
	}
	return parts, marked
}

// breakpoints counts the request's cache_control marks.
func breakpoints(r *Request) int {
	_, marked := segments(r)
	n := 0
	for _, m := range marked {
		if m {
			n++
		}
	}
	return n
}

// cacheUsage works out the prompt's usage the way prompt caching bills it:
// the longest prefix cached before is read, the rest up to the last
// breakpoint is written (and cached), what follows is plain input.
func (s *Server) cacheUsage(r *Request) usage {
	parts, marked := segments(r)
	h := sha256.New()
	var total, read, lastMark int64
	hashes := make([]string, len(parts))
	sums := make([]int64, len(parts))
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, p := range parts {
		h.Write([]byte(p))
		total += tokens(p)
		hashes[i], sums[i] = hex.EncodeToString(h.Sum(nil)), total
		if n, ok := s.cache[hashes[i]]; ok {
			read = n
		}
		if marked[i] {
			lastMark = total
		}
	}
	for i := range parts {
		if marked[i] {
			s.cache[hashes[i]] = sums[i]
		}
	}
	write := max(0, lastMark-read)
	return usage{InputTokens: total - read - write, CacheReadInputTokens: read, CacheCreationInputTokens: write}
}

// sse writes server-sent events and notices a client that left.
type sse struct {
	w    http.ResponseWriter
	r    *http.Request
	gone bool
}

func (e *sse) event(name string, data any) {
	if e.gone {
		return
	}
	b, _ := json.Marshal(data)
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", name, b); err != nil || e.r.Context().Err() != nil {
		e.gone = true
		return
	}
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

// stream answers with reply's events; false when the client left first.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, req *Request, reply Reply) bool {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	e := &sse{w: w, r: r}
	u := s.cacheUsage(req)
	s.mu.Lock()
	s.seq++
	id := fmt.Sprintf("msg_%04d", s.seq)
	s.mu.Unlock()
	e.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": u}})
	e.event("ping", map[string]string{"type": "ping"})
	idx := 0
	var out strings.Builder
	if reply.Thinking != "" {
		e.block(idx, map[string]any{"type": "thinking", "thinking": "", "signature": ""}, func() {
			for _, piece := range words(reply.Thinking) {
				e.delta(idx, map[string]any{"type": "thinking_delta", "thinking": piece})
			}
			e.delta(idx, map[string]any{"type": "signature_delta", "signature": sign(reply.Thinking)})
		})
		out.WriteString(reply.Thinking)
		idx++
	}
	if reply.RedactedThinking != "" {
		e.block(idx, map[string]any{"type": "redacted_thinking", "data": reply.RedactedThinking}, func() {})
		idx++
	}
	if reply.Text != "" {
		e.block(idx, map[string]any{"type": "text", "text": ""}, func() {
			for _, piece := range words(reply.Text) {
				e.delta(idx, map[string]any{"type": "text_delta", "text": piece})
			}
		})
		out.WriteString(reply.Text)
		idx++
	}
	if reply.Hang {
		<-r.Context().Done()
		return false
	}
	if reply.StreamError != "" {
		e.event("error", map[string]any{"type": "error", "error": map[string]string{"type": reply.StreamError, "message": reply.ErrorMessage}})
		return !e.gone
	}
	for i, c := range reply.ToolCalls {
		if c.ID == "" {
			c.ID = fmt.Sprintf("toolu_%s_%d", id, i)
		}
		args := c.Arguments
		if args == "" {
			args = "{}"
		}
		e.block(idx, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": map[string]any{}}, func() {
			e.delta(idx, map[string]any{"type": "input_json_delta", "partial_json": ""})
			for _, piece := range cut(args) {
				e.delta(idx, map[string]any{"type": "input_json_delta", "partial_json": piece})
			}
		})
		out.WriteString(args)
		idx++
	}
	stop := reply.StopReason
	if stop == "" {
		stop = "end_turn"
		if len(reply.ToolCalls) > 0 {
			stop = "tool_use"
		}
	}
	output := reply.OutputTokens
	if output == 0 {
		output = tokens(out.String())
	}
	e.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int64{"output_tokens": output}})
	e.event("message_stop", map[string]string{"type": "message_stop"})
	return !e.gone
}

// block sends a content block: its start, what body sends, its stop.
func (e *sse) block(idx int, start map[string]any, body func()) {
	e.event("content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": start})
	body()
	e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
}

func (e *sse) delta(idx int, d map[string]any) {
	e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": d})
}

// words splits text into word-sized pieces, each with the space before it.
func words(text string) []string {
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if text[i] == ' ' && text[i-1] != ' ' {
			out = append(out, text[start:i])
			start = i
		}
	}
	return append(out, text[start:])
}

// cut splits JSON into three pieces at byte positions that fall inside
// keys and values, as the API's input_json_delta does.
func cut(s string) []string {
	if len(s) < 6 {
		return []string{s}
	}
	a, b := len(s)/3, 2*len(s)/3
	for a < len(s) && !utf8.RuneStart(s[a]) {
		a++
	}
	for b < len(s) && !utf8.RuneStart(s[b]) {
		b++
	}
	return []string{s[:a], s[a:b], s[b:]}
}
