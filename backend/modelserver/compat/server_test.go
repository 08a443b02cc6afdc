package compat

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/errand-app/errand/backend/chat"
)

// serve starts s on an httptest server and returns its URL.
func serve(t *testing.T, s *Server) string {
	t.Helper()
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	t.Cleanup(s.Close) // runs first: releases held replies
	return ts.URL
}

// waitCounts waits until held replies are waiting in HangAfterText and
// ended chat requests have been handled to the end, so that a test can then
// assert what did not happen.
func waitCounts(t *testing.T, s *Server, held, ended int, what string) {
	t.Helper()
	counts := func() (int, int) {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.held, s.ended
	}
	deadline := time.Now().Add(time.Minute)
	for h, e := counts(); h != held || e != ended; h, e = counts() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d held and %d ended, want %d and %d", what, h, e, held, ended)
		}
		time.Sleep(time.Millisecond)
	}
}

// post sends a chat request body with a bearer token.
func post(t *testing.T, ctx context.Context, url, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat/completions", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer sk-test")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

var streamOpts = []string{`"stream":true`, `"stream_options":{"include_usage":true}`}

func TestStreamText(t *testing.T) {
	s := NewServer(func(*Request) Reply { return Reply{Text: "Hello there,\n\nworld!"} })
	url := serve(t, s)

	resp := post(t, context.Background(), url, body(user, streamOpts...))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream; charset=utf-8", resp.Header.Get("Content-Type"))
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)

	// Every event is one "data: ..." line followed by a blank line.
	events := strings.Split(strings.TrimSuffix(string(raw), "\n\n"), "\n\n")
	for _, e := range events {
		assert.True(t, strings.HasPrefix(e, "data: ") && !strings.Contains(e, "\n"), "malformed event %q", e)
	}
	assert.Equal(t, "data: [DONE]", events[len(events)-1])

	res, err := ReadStream(strings.NewReader(string(raw)))
	require.NoError(t, err)
	assert.True(t, res.Done)
	assert.Equal(t, "Hello there,\n\nworld!", res.Text)
	assert.Equal(t, "stop", res.FinishReason)
	assert.Empty(t, res.ToolCalls)

	// role chunk, one chunk a word, finish chunk, usage chunk
	words := []string{"Hello", " there,", "\n\nworld!"}
	require.Len(t, res.Chunks, 1+len(words)+2)
	first := res.Chunks[0].Choices[0]
	assert.Equal(t, "assistant", first.Delta.Role)
	assert.Nil(t, first.FinishReason)
	for i, w := range words {
		c := res.Chunks[1+i]
		require.Len(t, c.Choices, 1)
		assert.Equal(t, w, *c.Choices[0].Delta.Content)
		assert.Nil(t, c.Choices[0].FinishReason)
	}
	usage := res.Chunks[len(res.Chunks)-1]
	assert.Empty(t, usage.Choices)
	require.NotNil(t, usage.Usage)
	assert.Positive(t, usage.Usage.PromptTokens)
	assert.Positive(t, usage.Usage.CompletionTokens)
	assert.Equal(t, usage.Usage.PromptTokens+usage.Usage.CompletionTokens, usage.Usage.TotalTokens)
	for _, c := range res.Chunks {
		assert.Equal(t, res.Chunks[0].ID, c.ID)
		assert.True(t, strings.HasPrefix(c.ID, "chatcmpl-"))
		assert.Equal(t, "m", c.Model)
		assert.Positive(t, c.Created)
	}
	assert.Empty(t, s.Rejections())
	require.Len(t, s.Requests(), 1)
	assert.Equal(t, "hi", s.Requests()[0].Messages[0].Text())
}

func TestStreamToolCalls(t *testing.T) {
	args := `{"question":"Which colour do you like best, and why?","choices":["Red","Blue"]}`
	s := NewServer(func(*Request) Reply {
		return Reply{
			Text: "Let me ask.",
			ToolCalls: []chat.ToolCall{
				{ID: "call_1", Name: "ask_user", Arguments: args},
				{Name: "task_complete"}, // id and arguments filled in
			},
			Usage: chat.Usage{PromptTokens: 10, CompletionTokens: 5},
		}
	})
	url := serve(t, s)

	resp := post(t, context.Background(), url, body(user, append(streamOpts, withTools(askTool, doneTool))...))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	res, err := ReadStream(resp.Body)
	require.NoError(t, err)

	assert.Equal(t, "Let me ask.", res.Text)
	assert.Equal(t, "tool_calls", res.FinishReason)
	require.Len(t, res.ToolCalls, 2)
	assert.Equal(t, chat.ToolCall{ID: "call_1", Name: "ask_user", Arguments: args}, res.ToolCalls[0])
	assert.Equal(t, "task_complete", res.ToolCalls[1].Name)
	assert.Regexp(t, `^call_[a-zA-Z0-9]{24}$`, res.ToolCalls[1].ID)
	assert.Equal(t, "{}", res.ToolCalls[1].Arguments)
	assert.Equal(t, &Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}, res.Usage)

	// The first delta of a call names it with empty arguments; the
	// arguments follow in several pieces.
	var deltas []ToolCallDelta
	for _, c := range res.Chunks {
		if len(c.Choices) == 1 {
			deltas = append(deltas, c.Choices[0].Delta.ToolCalls...)
		}
	}
	require.NotEmpty(t, deltas)
	assert.Equal(t, ToolCallDelta{Index: 0, ID: "call_1", Type: "function", Function: FunctionDelta{Name: "ask_user"}}, deltas[0])
	var pieces []string
	for _, d := range deltas[1:] {
		if d.Index == 0 {
			assert.Empty(t, d.ID)
			pieces = append(pieces, d.Function.Arguments)
		}
	}
	assert.Greater(t, len(pieces), 3)
	assert.Equal(t, args, strings.Join(pieces, ""))
}

func TestStreamWithoutUsage(t *testing.T) {
	s := NewServer(nil)
	url := serve(t, s)
	resp := post(t, context.Background(), url, body(user, `"stream":true`))
	res, err := ReadStream(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, "OK", res.Text)
	assert.Nil(t, res.Usage)
	assert.True(t, res.Done)
	assert.NotEmpty(t, res.Chunks[len(res.Chunks)-1].Choices, "no usage chunk unless asked for")
}

func TestNonStreaming(t *testing.T) {
	s := NewServer(func(r *Request) Reply {
		if len(r.Tools) == 0 {
			return Reply{Text: "plain"}
		}
		return Reply{ToolCalls: []chat.ToolCall{{ID: "call_9", Name: "ask_user", Arguments: `{"question":"?"}`}}}
	})
	url := serve(t, s)

	resp := post(t, context.Background(), url, body(user, withTools(askTool)))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	var raw map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&raw))
	assert.Equal(t, "chat.completion", raw["object"])
	choice := raw["choices"].([]any)[0].(map[string]any)
	assert.Equal(t, "tool_calls", choice["finish_reason"])
	msg := choice["message"].(map[string]any)
	assert.Contains(t, msg, "content")
	assert.Nil(t, msg["content"], "content is null when there are only tool calls")
	calls := msg["tool_calls"].([]any)
	require.Len(t, calls, 1)
	assert.Equal(t, map[string]any{"id": "call_9", "type": "function", "function": map[string]any{"name": "ask_user", "arguments": `{"question":"?"}`}}, calls[0])
	assert.Positive(t, raw["usage"].(map[string]any)["total_tokens"])

	res, err := Do(context.Background(), url+"/v1", "sk-test", &Request{Model: "m", Messages: []Message{{Role: "user", Content: Text("hi")}}})
	require.NoError(t, err)
	assert.Equal(t, "plain", res.Text)
	assert.Equal(t, "stop", res.FinishReason)
	assert.Empty(t, s.Rejections())
}

func TestScriptedError(t *testing.T) {
	s := NewServer(func(*Request) Reply {
		return Reply{Status: http.StatusTooManyRequests, ErrorMessage: "Rate limit reached", RetryAfter: 1500 * time.Millisecond}
	})
	url := serve(t, s)
	resp := post(t, context.Background(), url, body(user, streamOpts...))
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Equal(t, "1500", resp.Header.Get("Retry-After-Ms"))
	assert.Equal(t, "2", resp.Header.Get("Retry-After"))
	var eb ErrorBody
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&eb))
	assert.Equal(t, "Rate limit reached", eb.Error.Message)
	assert.Equal(t, "requests", eb.Error.Type)
	require.NotNil(t, eb.Error.Code)
	assert.Equal(t, "rate_limit_exceeded", *eb.Error.Code)
	assert.Nil(t, eb.Error.Param)
	assert.Empty(t, s.Rejections(), "a scripted error is not a rejection")

	s2 := NewServer(func(*Request) Reply { return Reply{Status: 500} })
	_, err := Do(context.Background(), serve(t, s2), "k", &Request{Model: "m", Messages: []Message{{Role: "user", Content: Text("x")}}})
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 500, apiErr.Status)
	assert.Equal(t, "server_error", apiErr.Type)
	assert.Contains(t, apiErr.Message, "500 Internal Server Error")
}

func TestRejectsInvalidRequest(t *testing.T) {
	var called atomic.Bool
	s := NewServer(func(*Request) Reply { called.Store(true); return Reply{} })
	var mu sync.Mutex
	var logged []string
	s.OnReject = func(msg string) { mu.Lock(); defer mu.Unlock(); logged = append(logged, msg) }
	url := serve(t, s)

	resp := post(t, context.Background(), url, body(join(user, calls, user), withTools(askTool, doneTool), `"stream":true`))
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	var eb ErrorBody
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&eb))
	assert.Contains(t, eb.Error.Message, "must be followed by tool messages")
	assert.Equal(t, "invalid_request_error", eb.Error.Type)
	require.NotNil(t, eb.Error.Param)
	assert.Equal(t, "messages.[1].role", *eb.Error.Param)

	assert.False(t, called.Load(), "the script only sees valid requests")
	require.Len(t, s.Rejections(), 1)
	assert.Contains(t, s.Rejections()[0], "POST /v1/chat/completions: 400 An assistant message with 'tool_calls'")
	mu.Lock()
	assert.Equal(t, s.Rejections(), logged)
	mu.Unlock()
	assert.Len(t, s.Requests(), 1, "invalid requests are recorded too")

	resp = post(t, context.Background(), url, `{"model":"m","messages":[`+user+`],"bogus":true}`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Len(t, s.Rejections(), 2)
	assert.Len(t, s.Requests(), 1, "an undecodable request is not recorded")
}

func TestAuth(t *testing.T) {
	do := func(url, header string) (int, ErrorDetail) {
		req, err := http.NewRequest(http.MethodPost, url+"/v1/chat/completions", strings.NewReader(body(user)))
		require.NoError(t, err)
		if header != "" {
			req.Header.Set("Authorization", header)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var eb ErrorBody
		_ = json.NewDecoder(resp.Body).Decode(&eb)
		return resp.StatusCode, eb.Error
	}

	open := serve(t, NewServer(nil))
	status, detail := do(open, "")
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Contains(t, detail.Message, "You didn't provide an API key")
	assert.Nil(t, detail.Code)
	status, _ = do(open, "Basic abc")
	assert.Equal(t, http.StatusUnauthorized, status)
	status, _ = do(open, "Bearer anything")
	assert.Equal(t, http.StatusOK, status)

	noAuth := NewServer(nil)
	noAuth.AllowNoAuth = true
	status, _ = do(serve(t, noAuth), "")
	assert.Equal(t, http.StatusOK, status)

	keyed := NewServer(nil)
	keyed.APIKey = "sk-right-key-1234"
	url := serve(t, keyed)
	status, detail = do(url, "Bearer sk-wrong-key-9876")
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Equal(t, "Incorrect API key provided: sk-**********9876. You can find your API key at https://platform.openai.com/account/api-keys.", detail.Message)
	assert.Equal(t, "invalid_request_error", detail.Type)
	require.NotNil(t, detail.Code)
	assert.Equal(t, "invalid_api_key", *detail.Code)
	status, _ = do(url, "Bearer sk-right-key-1234")
	assert.Equal(t, http.StatusOK, status)
	assert.Len(t, keyed.Rejections(), 1)
}

func TestRoutes(t *testing.T) {
	s := NewServer(nil)
	s.AllowNoAuth = true
	s.Models = []string{"errand-demo"}
	url := serve(t, s)

	for _, path := range []string{"/v1/models", "/models"} {
		resp, err := http.Get(url + path)
		require.NoError(t, err)
		var list ModelList
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
		resp.Body.Close()
		assert.Equal(t, "list", list.Object)
		require.Len(t, list.Data, 1)
		assert.Equal(t, "errand-demo", list.Data[0].ID)
	}

	res, err := Do(context.Background(), url, "", &Request{Model: "m", Stream: true, Messages: []Message{{Role: "user", Content: Text("x")}}})
	require.NoError(t, err, "/chat/completions without /v1 is served too")
	assert.Equal(t, "OK", res.Text)

	resp, err := http.Get(url + "/v1/chat/completions")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)

	resp, err = http.Post(url+"/v1/completions", "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Len(t, s.Rejections(), 2)
}

func TestHangUpIsNoticed(t *testing.T) {
	s := NewServer(func(*Request) Reply { return Reply{Text: "Thinking hard", HangAfterText: true} })
	url := serve(t, s)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := post(t, ctx, url, body(user, `"stream":true`))
	require.Equal(t, http.StatusOK, resp.StatusCode)

	// Read until the text has arrived, then hang up like a Stop button.
	sc := bufio.NewScanner(resp.Body)
	var text string
	for text != "Thinking hard" && sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			var c Chunk
			require.NoError(t, json.Unmarshal([]byte(data), &c))
			text += *c.Choices[0].Delta.Content
		}
	}
	require.Equal(t, "Thinking hard", text)
	// The reply is held now, its client still there: nothing is reported.
	waitCounts(t, s, 1, 0, "the reply waits after its text")
	require.Empty(t, s.Disconnects(), "disconnect reported while the client is still there")
	require.Zero(t, s.HangUps(), "hang-up counted while the client is still there")
	cancel()
	select {
	case <-s.Disconnects():
	case <-time.After(time.Minute):
		t.Fatal("the server did not notice the client going away")
	}
	waitCounts(t, s, 0, 1, "the reply ends")
	assert.Equal(t, 1, s.HangUps())
}

func TestCompleteStreamIsNotAHangUp(t *testing.T) {
	s := NewServer(nil)
	url := serve(t, s)
	resp := post(t, context.Background(), url, body(user, `"stream":true`))
	_, err := ReadStream(resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	waitCounts(t, s, 0, 1, "the reply ends")
	assert.Equal(t, 0, s.HangUps())
	assert.Empty(t, s.Disconnects())
}

func TestStopReleasesHeldReply(t *testing.T) {
	s := NewServer(func(*Request) Reply { return Reply{Text: "wait", HangAfterText: true} })
	baseURL, stop := s.Start()
	defer stop()
	require.True(t, strings.HasSuffix(baseURL, "/v1"))

	errs := make(chan error, 1)
	go func() {
		_, err := Do(context.Background(), baseURL, "k", &Request{Model: "m", Stream: true, Messages: []Message{{Role: "user", Content: Text("x")}}})
		errs <- err
	}()
	waitCounts(t, s, 1, 0, "the reply waits after its text")
	stop()
	stop() // idempotent
	select {
	case err := <-errs:
		// The stream was cut before [DONE]: either the read failed or it
		// ended early; it never completed.
		if err == nil {
			t.Log("stream ended without error")
		}
	case <-time.After(time.Minute):
		t.Fatal("stop did not end the held reply")
	}
	waitCounts(t, s, 0, 1, "the reply ends")
	assert.Equal(t, 0, s.HangUps(), "a reply ended by the server is not a hang-up")
}

func TestDropAfterText(t *testing.T) {
	s := NewServer(func(*Request) Reply { return Reply{Text: "cut off here", DropAfterText: true} })
	url := serve(t, s)
	resp := post(t, context.Background(), url, body(user, `"stream":true`))
	res, err := ReadStream(resp.Body)
	assert.Error(t, err, "the connection breaks mid-stream")
	assert.False(t, res.Done)
	assert.Equal(t, "cut off here", res.Text)
	assert.Empty(t, res.FinishReason)
}

func TestChunkDelay(t *testing.T) {
	s := NewServer(func(*Request) Reply { return Reply{Text: "one two three four five", ChunkDelay: 20 * time.Millisecond} })
	url := serve(t, s)
	start := time.Now()
	resp := post(t, context.Background(), url, body(user, `"stream":true`))
	res, err := ReadStream(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, "one two three four five", res.Text)
	// 8 events (role, 5 words, finish, [DONE]) with 7 delays between them.
	assert.GreaterOrEqual(t, time.Since(start), 7*20*time.Millisecond)
}

func TestConcurrentRequests(t *testing.T) {
	s := NewServer(func(r *Request) Reply { return Reply{Text: "echo " + r.Messages[0].Text()} })
	url := serve(t, s)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			msg := fmt.Sprintf(`{"role":"user","content":"n%d"}`, i)
			resp := post(t, context.Background(), url, body(msg, `"stream":true`))
			res, err := ReadStream(resp.Body)
			assert.NoError(t, err)
			assert.Equal(t, fmt.Sprintf("echo n%d", i), res.Text)
		})
	}
	wg.Wait()
	assert.Len(t, s.Requests(), 10)
	assert.Empty(t, s.Rejections())
}

func TestAServerWithAContextLengthRejectsALongerRequestAsTheAPIDoes(t *testing.T) {
	srv := NewServer(nil)
	srv.AllowNoAuth = true
	srv.ContextLength = 1024
	url, stop := srv.Start()
	defer stop()
	post := func(text string) (int, string) {
		body := `{"model":"m","messages":[{"role":"user","content":` + strconv.Quote(text) + `}]}`
		resp, err := http.Post(url+"/chat/completions", "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, _ := post("short")
	assert.Equal(t, 200, code)
	code, body := post(strings.Repeat("word ", 2000))
	assert.Equal(t, 400, code)
	var e ErrorBody
	require.NoError(t, json.Unmarshal([]byte(body), &e))
	assert.Equal(t, "context_length_exceeded", *e.Error.Code)
	assert.Equal(t, "messages", *e.Error.Param)
	assert.Equal(t, "invalid_request_error", e.Error.Type)
	assert.Contains(t, e.Error.Message, "This model's maximum context length is 1024 tokens. However, your messages resulted in 20")
	assert.Len(t, srv.Rejections(), 1)
}
