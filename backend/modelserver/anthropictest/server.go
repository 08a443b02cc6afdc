// Package anthropictest is a scripted server for Anthropic's Messages API,
// for tests of any package that talks to Claude: it checks each request
// the way the real API does (headers, max_tokens, alternating turns, every
// tool_use answered, thinking blocks passed back with their signatures,
// cache breakpoints) and answers with the API's server-sent events —
// message_start, ping, content blocks of text, thinking, redacted thinking
// and tool use, message_delta with usage, message_stop — or with an error
// body or an error event. It simulates prompt caching: a prefix up to a
// cache breakpoint seen before is reported as read from the cache, a new
// one as written to it.
package anthropictest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/errand-app/errand/backend/chat"
)

// Reply is what a script answers one request with.
type Reply struct {
	// Thinking, when set, streams first as a thinking block (in pieces,
	// then its signature); RedactedThinking adds a redacted_thinking block
	// with that data after it.
	Thinking         string
	RedactedThinking string
	// Text streams as a text block, a word at a time.
	Text string
	// ToolCalls stream as tool_use blocks after the text, their input in
	// pieces cut mid-JSON. An empty ID gets a fresh toolu_ id; empty
	// Arguments are the empty object.
	ToolCalls []chat.ToolCall
	// StopReason overrides "tool_use" (with calls) or "end_turn".
	StopReason string
	// OutputTokens overrides the estimated output usage.
	OutputTokens int64

	// Status, when not 0 or 200, answers with that HTTP status and an
	// Anthropic error body of ErrorType and ErrorMessage.
	Status       int
	ErrorType    string
	ErrorMessage string
	// StreamError, when set, is the type of an error event sent after the
	// text (with ErrorMessage); the stream ends there.
	StreamError string
	// Hang makes the stream stop after the text and send nothing more
	// until the client goes away.
	Hang bool
}

// Server is an http.Handler serving POST /v1/messages, GET /v1/models and
// GET /v1/models/{id}.
type Server struct {
	// APIKey, when set, is the only x-api-key accepted.
	APIKey string
	// Models lists GET /v1/models; empty means "claude-test".
	Models []string

	script func(*Request) Reply

	mu         sync.Mutex
	requests   []*Request
	rejections []string
	cache      map[string]int64 // prefix hash → its tokens
	seq        int
	gone       chan struct{}
}

// New returns a server answering each valid request with script's Reply
// (nil: "OK").
func New(script func(*Request) Reply) *Server {
	if script == nil {
		script = func(*Request) Reply { return Reply{Text: "OK"} }
	}
	return &Server{script: script, cache: map[string]int64{}, gone: make(chan struct{}, 64)}
}

// Start serves on a loopback port until the test ends; baseURL is the API's
// root (no /v1), as the adapter's Config takes it.
func (s *Server) Start(t interface{ Cleanup(func()) }) (baseURL string) {
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv.URL
}

// Requests returns the decoded message requests, valid or not, oldest first.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.requests...)
}

// Rejections describes every request the server refused on its own.
// Tests of a correct client expect none.
func (s *Server) Rejections() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.rejections...)
}

// Gone receives a value each time a client left a reply before its end.
func (s *Server) Gone() <-chan struct{} { return s.gone }

// ServeHTTP routes a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case path == "/v1/messages" && r.Method == http.MethodPost:
	case strings.HasPrefix(path, "/v1/models") && r.Method == http.MethodGet:
	default:
		s.reject(w, http.StatusNotFound, "not_found_error", "Not Found")
		return
	}
	if status, kind, msg := s.authorize(r); status != 0 {
		s.reject(w, status, kind, msg)
		return
	}
	if strings.HasPrefix(path, "/v1/models") {
		s.serveModels(w, strings.TrimPrefix(strings.TrimPrefix(path, "/v1/models"), "/"))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	if err != nil {
		s.reject(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	req, err := decode(body)
	if err == nil {
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.mu.Unlock()
		err = s.validate(req)
	}
	if err != nil {
		s.reject(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	reply := s.script(req)
	if reply.Status != 0 && reply.Status != http.StatusOK {
		writeError(w, reply.Status, reply.ErrorType, reply.ErrorMessage)
		return
	}
	if !s.stream(w, r, req, reply) {
		select {
		case s.gone <- struct{}{}:
		default:
		}
	}
}

// authorize checks the headers every request needs. The key may come as
// x-api-key or as a bearer token, as the API takes both.
func (s *Server) authorize(r *http.Request) (int, string, string) {
	key := r.Header.Get("X-Api-Key")
	if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && key == "" {
		key = strings.TrimSpace(bearer)
	}
	switch {
	case key == "":
		return http.StatusUnauthorized, "authentication_error", "x-api-key header is required"
	case s.APIKey != "" && key != s.APIKey:
		return http.StatusUnauthorized, "authentication_error", "invalid x-api-key"
	case r.Header.Get("Anthropic-Version") == "":
		return http.StatusBadRequest, "invalid_request_error", "anthropic-version: header is required"
	}
	return 0, "", ""
}

// serveModels lists the models, or tells one (id) of them.
func (s *Server) serveModels(w http.ResponseWriter, id string) {
	ids := s.Models
	if len(ids) == 0 {
		ids = []string{"claude-test"}
	}
	type model struct {
		ID             string `json:"id"`
		Type           string `json:"type"`
		DisplayName    string `json:"display_name"`
		CreatedAt      string `json:"created_at"`
		MaxInputTokens int    `json:"max_input_tokens"`
	}
	list := struct {
		Data    []model `json:"data"`
		HasMore bool    `json:"has_more"`
		FirstID string  `json:"first_id"`
		LastID  string  `json:"last_id"`
	}{Data: []model{}}
	for _, id := range ids {
		list.Data = append(list.Data, model{ID: id, Type: "model", DisplayName: id, CreatedAt: "2026-01-01T00:00:00Z", MaxInputTokens: 200000})
	}
	list.FirstID, list.LastID = ids[0], ids[len(ids)-1]
	var answer any = list
	if id != "" {
		answer = nil
		for _, m := range list.Data {
			if m.ID == id {
				answer = m
			}
		}
		if answer == nil {
			writeError(w, http.StatusNotFound, "not_found_error", "model: "+id)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(answer)
}

// reject records a refusal and answers with it.
func (s *Server) reject(w http.ResponseWriter, status int, kind, msg string) {
	s.mu.Lock()
	s.rejections = append(s.rejections, fmt.Sprintf("%d %s: %s", status, kind, msg))
	s.mu.Unlock()
	writeError(w, status, kind, msg)
}

// writeError answers with an Anthropic error body.
func writeError(w http.ResponseWriter, status int, kind, msg string) {
	if kind == "" {
		kind = errorType(status)
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", "req_test")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"type": "error",
		"error": map[string]string{"type": kind, "message": msg}})
}

// errorType is the API's error type for a status.
func errorType(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusForbidden:
		return "permission_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	if status >= 500 {
		return "api_error"
	}
	return "invalid_request_error"
}

// sign is the signature the server gives a thinking text; a thinking block
// sent back must carry it.
func sign(thinking string) string {
	sum := sha256.Sum256([]byte("errand-test:" + thinking))
	return "sig_" + hex.EncodeToString(sum[:12])
}
