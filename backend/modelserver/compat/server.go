// Package compat is the server half of the OpenAI Chat Completions API,
// small enough to script: tests use it as a model server, Errand's offline
// demo model runs on it, and the e2e mock model wraps it in a binary.
//
// A Server decodes each request strictly (DecodeRequest), checks it the way
// the real API does (Validate), asks its script for a Reply and writes that
// reply back as the API would: a server-sent event stream of
// chat.completion.chunk objects, a chat.completion object, or an error
// body. What it received and refused is recorded for tests to inspect.
package compat

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Server is an http.Handler serving POST /v1/chat/completions and GET
// /v1/models (also without the /v1 prefix). Set its fields before it
// serves its first request.
type Server struct {
	// APIKey, when set, is the only bearer token accepted; any other gets
	// the real API's 401 invalid_api_key error.
	APIKey string
	// AllowNoAuth accepts requests without an Authorization header. By
	// default they get the real API's 401.
	AllowNoAuth bool
	// Models lists the model ids GET /v1/models returns; when empty it
	// returns the single id "mock-model". Chat requests may name any model.
	Models []string
	// OnReject, if set, is called with every rejection as it is recorded.
	OnReject func(msg string)
	// ContextLength, when positive, is the model's context length: a
	// request whose prompt (CountPrompt) is longer is rejected with the
	// real API's 400 context_length_exceeded, and a reply's estimated
	// usage reports the counted prompt tokens.
	ContextLength int
	// Thinking makes the server a thinking model in DeepSeek's thinking
	// mode: an assistant message of the current turn that made tool calls
	// must come back with its reasoning_content, or the request gets
	// DeepSeek's 400. Without it, reasoning_content on a message is an
	// unknown field, rejected.
	Thinking bool

	script func(*Request) Reply

	closeOnce sync.Once
	closed    chan struct{}

	mu          sync.Mutex
	requests    []Request
	rejections  []string
	hangUps     int
	disconnects chan struct{}
	// held counts the replies waiting in HangAfterText or Stall now, and ended the
	// chat requests whose handling is over (hang-ups counted): what tests
	// wait on before they assert that something did not happen.
	held, ended int
}

// NewServer returns a server that answers every valid chat request with
// script's Reply. Requests are served concurrently, so script must be safe
// to call from several goroutines if the client overlaps requests. A nil
// script replies "OK".
func NewServer(script func(req *Request) Reply) *Server {
	if script == nil {
		script = func(*Request) Reply { return Reply{Text: "OK"} }
	}
	return &Server{
		script:      script,
		closed:      make(chan struct{}),
		disconnects: make(chan struct{}, 64),
	}
}

// Requests returns every chat request the server decoded, valid or not,
// in the order they arrived.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Rejections describes every request the server refused on its own (bad
// auth, bad path, undecodable or invalid body), oldest first. Errors a
// script asked for with Reply.Status are not rejections. Tests driving a
// correct client expect none.
func (s *Server) Rejections() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.rejections...)
}

// Disconnects receives a value each time a client went away before its
// reply was complete (noticed through the request's context or a failed
// write). Values beyond the channel's buffer of 64 are dropped; HangUps
// counts them all.
func (s *Server) Disconnects() <-chan struct{} { return s.disconnects }

// HangUps counts the replies whose client went away before they were
// complete.
func (s *Server) HangUps() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hangUps
}

// Close ends every reply held by HangAfterText or Stall, now and later. It does not
// close any listener; the stop function of Start and Listen does both.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.closed) })
}

// Start serves on a random loopback port, like httptest.NewServer but
// usable outside tests. baseURL ends in /v1, ready for an OpenAI client.
// stop closes the server and may be called more than once. Start panics
// if it cannot listen.
func (s *Server) Start() (baseURL string, stop func()) {
	baseURL, stop, err := s.Listen("127.0.0.1:0")
	if err != nil {
		panic(fmt.Sprintf("compat: %v", err))
	}
	return baseURL, stop
}

// Listen serves on addr (host:port; port 0 picks a free one) until stop is
// called. baseURL is http://host:port/v1.
func (s *Server) Listen(addr string) (baseURL string, stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			s.Close()
			_ = srv.Close()
		})
	}
	return "http://" + ln.Addr().String() + "/v1", stop, nil
}

// ServeHTTP routes a request. See the package documentation.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(r.URL.Path, "/")
	var method string
	var serve func(http.ResponseWriter, *http.Request)
	switch path {
	case "/v1/chat/completions", "/chat/completions":
		method, serve = http.MethodPost, s.serveChat
	case "/v1/models", "/models":
		method, serve = http.MethodGet, s.serveModels
	default:
		s.reject(w, r, &APIError{Status: http.StatusNotFound, Type: "invalid_request_error",
			Message: fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path)})
		return
	}
	if r.Method != method {
		w.Header().Set("Allow", method)
		s.reject(w, r, &APIError{Status: http.StatusMethodNotAllowed, Type: "invalid_request_error",
			Message: fmt.Sprintf("Invalid method for URL (%s %s)", r.Method, r.URL.Path)})
		return
	}
	if err := s.authorize(r); err != nil {
		s.reject(w, r, err)
		return
	}
	serve(w, r)
}

func (s *Server) serveChat(w http.ResponseWriter, r *http.Request) {
	defer func() {
		s.mu.Lock()
		s.ended++
		s.mu.Unlock()
	}()
	req, err := DecodeRequest(r.Body)
	if err != nil {
		s.reject(w, r, err)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, *req)
	s.mu.Unlock()
	if err := Validate(req); err != nil {
		s.reject(w, r, err)
		return
	}
	if err := checkReasoning(req, s.Thinking); err != nil {
		s.reject(w, r, err)
		return
	}
	prompt := 0
	if s.ContextLength > 0 {
		if prompt = CountPrompt(req); prompt > s.ContextLength {
			s.reject(w, r, contextExceeded(s.ContextLength, prompt))
			return
		}
	}
	reply := s.script(req)
	if reply.Failed() {
		writeFailure(w, reply)
		return
	}
	rs := newResponse(w, r, s.closed, req, reply)
	rs.holding = s.holding
	rs.prompt = prompt
	rs.thinking = s.Thinking
	if req.Stream {
		err = rs.stream()
	} else {
		err = rs.complete()
	}
	if errors.Is(err, errGone) {
		s.mu.Lock()
		s.hangUps++
		s.mu.Unlock()
		select {
		case s.disconnects <- struct{}{}:
		default:
		}
	}
}

// holding records a reply starting (+1) or ending (-1) its HangAfterText or Stall wait.
func (s *Server) holding(delta int) {
	s.mu.Lock()
	s.held += delta
	s.mu.Unlock()
}

func (s *Server) serveModels(w http.ResponseWriter, _ *http.Request) {
	ids := s.Models
	if len(ids) == 0 {
		ids = []string{"mock-model"}
	}
	list := ModelList{Object: "list", Data: []ModelInfo{}}
	for _, id := range ids {
		list.Data = append(list.Data, ModelInfo{ID: id, Object: "model", Created: 1700000000, OwnedBy: "errand"})
	}
	writeJSON(w, http.StatusOK, list)
}

// authorize checks the bearer token.
func (s *Server) authorize(r *http.Request) *APIError {
	header := r.Header.Get("Authorization")
	key, isBearer := strings.CutPrefix(header, "Bearer ")
	key = strings.TrimSpace(key)
	if header == "" && s.AllowNoAuth {
		return nil
	}
	if !isBearer || key == "" {
		return &APIError{Status: http.StatusUnauthorized, Type: "invalid_request_error",
			Message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys."}
	}
	if s.APIKey != "" && key != s.APIKey {
		return &APIError{Status: http.StatusUnauthorized, Type: "invalid_request_error", Code: "invalid_api_key",
			Message: fmt.Sprintf("Incorrect API key provided: %s. You can find your API key at https://platform.openai.com/account/api-keys.", maskKey(key))}
	}
	return nil
}

// maskKey hides all but the ends of a key, as the API's message does.
func maskKey(key string) string {
	if len(key) <= 8 {
		return strings.Repeat("*", len(key))
	}
	return key[:3] + strings.Repeat("*", len(key)-7) + key[len(key)-4:]
}

// reject records a refusal and answers with it.
func (s *Server) reject(w http.ResponseWriter, r *http.Request, err error) {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		apiErr = invalid("", "%v", err)
	}
	msg := fmt.Sprintf("%s %s: %d %s", r.Method, r.URL.Path, apiErr.Status, apiErr.Message)
	if apiErr.Param != "" {
		msg += " (param " + apiErr.Param + ")"
	}
	s.mu.Lock()
	s.rejections = append(s.rejections, msg)
	s.mu.Unlock()
	if s.OnReject != nil {
		s.OnReject(msg)
	}
	apiErr.Write(w)
}

// writeFailure answers with the error a script asked for.
func writeFailure(w http.ResponseWriter, reply Reply) {
	e := &APIError{Status: reply.Status, Message: reply.ErrorMessage, Type: reply.ErrorType, Code: reply.ErrorCode}
	if e.Message == "" {
		e.Message = fmt.Sprintf("The server answered with HTTP %d %s.", reply.Status, http.StatusText(reply.Status))
	}
	if e.Type == "" {
		e.Type = errorType(reply.Status)
	}
	if e.Code == "" {
		e.Code = errorCode(reply.Status)
	}
	retryAfterHeaders(w.Header(), reply.RetryAfter)
	e.Write(w)
}
