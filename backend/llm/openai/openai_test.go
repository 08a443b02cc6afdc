package openai

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/modelserver/compat"
	oa "github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func serve(t *testing.T, reply compat.Reply) (*compat.Server, *Provider) {
	t.Helper()
	srv := compat.NewServer(func(*compat.Request) compat.Reply { return reply })
	url, stop := srv.Start()
	t.Cleanup(stop)
	return srv, New(Config{BaseURL: url, APIKey: "k", Model: "m", MaxRetries: -1})
}

var simple = llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "hi"}}}

func TestStreamAssemblesTextToolCallsAndUsage(t *testing.T) {
	t.Parallel()
	srv, p := serve(t, compat.Reply{
		Text: "Sure, here goes.",
		ToolCalls: []chat.ToolCall{
			{ID: "call_a", Name: "ask_user", Arguments: `{"question":"Which one of the many options?"}`},
			{ID: "call_b", Name: "send_update", Arguments: `{"message":"x"}`},
		},
		Usage: chat.Usage{PromptTokens: 11, CompletionTokens: 7, TotalTokens: 18},
	})
	var streamed string
	req := llm.Request{
		Messages: []llm.Message{
			{Role: chat.RoleSystem, Content: "sys"},
			{Role: chat.RoleUser, Content: "hi"},
			{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c0", Name: "send_update", Arguments: "{}"}}},
			{Role: chat.RoleTool, Content: "ok", ToolCallID: "c0"},
			{Role: chat.RoleAssistant, Content: "text only"},
			{Role: chat.RoleUser, Content: "go on"},
		},
		Tools: []llm.Tool{{Name: "ask_user", Description: "d", Parameters: map[string]any{"type": "object", "properties": map[string]any{}}}},
	}
	resp, err := p.Stream(context.Background(), req, llm.Deltas{Text: func(s string) { streamed += s }})
	require.NoError(t, err)
	assert.Equal(t, "Sure, here goes.", resp.Content)
	assert.Equal(t, resp.Content, streamed)
	assert.Equal(t, "tool_calls", resp.FinishReason)
	require.Len(t, resp.ToolCalls, 2)
	assert.Equal(t, chat.ToolCall{ID: "call_a", Name: "ask_user", Arguments: `{"question":"Which one of the many options?"}`}, resp.ToolCalls[0])
	assert.Equal(t, "call_b", resp.ToolCalls[1].ID)
	assert.Equal(t, chat.Usage{PromptTokens: 11, CompletionTokens: 7, TotalTokens: 18}, resp.Usage)
	assert.Empty(t, srv.Rejections())
	got := srv.Requests()[0]
	assert.Equal(t, "m", got.Model)
	assert.True(t, got.StreamOptions.IncludeUsage)
	assert.Len(t, got.Messages, 6)
}

func TestChatRequestCarriesNoToolFields(t *testing.T) {
	t.Parallel()
	srv, p := serve(t, compat.Reply{Text: "hello"})
	_, err := p.Stream(context.Background(), simple, llm.Deltas{})
	require.NoError(t, err)
	assert.Empty(t, srv.Rejections(), "tools: [] or tool_choice without tools is refused by the real API")
}

func TestErrorsAreExplainedForPeople(t *testing.T) {
	t.Parallel()
	cases := []struct {
		reply compat.Reply
		want  string
	}{
		{compat.Reply{Status: 404, ErrorMessage: "The model `m` does not exist"}, `does not know the model "m"`},
		{compat.Reply{Status: 400, ErrorMessage: "This model's maximum context length is 8192 tokens."}, "The model's context window is full"},
		{compat.Reply{Status: 400, ErrorMessage: "Input exceeds 8192.", ErrorCode: "context_length_exceeded"}, "The model's context window is full"},
		{compat.Reply{Status: 500, ErrorMessage: "boom"}, "The model server failed (HTTP 500)"},
		{compat.Reply{Status: 429, ErrorMessage: "slow down"}, "rate limiting"},
		{compat.Reply{Status: 400, ErrorMessage: "registry.ollama.ai/library/gemma:2b does not support tools"}, "The model does not support tools"},
	}
	for _, c := range cases {
		_, p := serve(t, c.reply)
		_, err := p.Stream(context.Background(), simple, llm.Deltas{})
		require.Error(t, err)
		assert.Equal(t, chat.CodeModel, chat.ErrorCode(err))
		assert.Contains(t, err.Error(), c.want)
		assert.Equal(t, strings.Contains(c.want, "context window"), errors.Is(err, llm.ErrContextFull), c.want)
		assert.Equal(t, strings.Contains(c.want, "support tools"), errors.Is(err, llm.ErrNoTools), c.want)
	}

	srv := compat.NewServer(nil)
	srv.APIKey = "right"
	url, stop := srv.Start()
	defer stop()
	_, err := New(Config{BaseURL: url, APIKey: "wrong-secret", Model: "m", MaxRetries: -1}).Stream(context.Background(), simple, llm.Deltas{})
	assert.Contains(t, err.Error(), "The model server rejected the API key")
	assert.NotContains(t, err.Error(), "wrong-secret")

	var apiErr *oa.Error
	require.True(t, errors.As(err, &apiErr), "the server's error stays in the chain")
	assert.Equal(t, 401, apiErr.StatusCode)

	echo := compat.NewServer(func(*compat.Request) compat.Reply {
		return compat.Reply{Status: 502, ErrorMessage: "upstream refused the key echo-secret-4242"}
	})
	echoURL, stopEcho := echo.Start()
	defer stopEcho()
	_, err = New(Config{BaseURL: echoURL, APIKey: "echo-secret-4242", Model: "m", MaxRetries: -1}).Stream(context.Background(), simple, llm.Deltas{})
	assert.Contains(t, err.Error(), "upstream refused the key [key]")
	assert.NotContains(t, err.Error(), "echo-secret-4242", "a key the server repeats stays out of the message")
}

func TestUnreachableServer(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	url := "http://" + addr + "/v1"
	_, err = New(Config{BaseURL: url, Model: "m", MaxRetries: -1}).Stream(context.Background(), simple, llm.Deltas{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Could not reach "+url)
	var op *net.OpError
	assert.True(t, errors.As(err, &op), "the network error stays in the chain")
}

func TestCancelEndsTheStreamPromptly(t *testing.T) {
	t.Parallel()
	srv, p := serve(t, compat.Reply{Text: "partial answer", HangAfterText: true})
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan string, 100)
	done := make(chan error, 1)
	go func() {
		_, err := p.Stream(ctx, simple, llm.Deltas{Text: func(s string) { got <- s }})
		done <- err
	}()
	<-got
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(time.Minute):
		t.Fatal("Stream did not return after cancel")
	}
	select {
	case <-srv.Disconnects():
	case <-time.After(time.Minute):
		t.Fatal("the server did not see the hang-up")
	}
}

// A server that finds a request too long and names its limit, in any of
// the real servers' wordings, gives the limit to Errand, which then plans
// for it.
func TestTooLongRequestsTellTheServersLimit(t *testing.T) {
	t.Parallel()
	worded := []struct{ message, code string }{
		{"This model's maximum context length is 4096 tokens. However, your messages resulted in 5120 tokens. Please reduce the length of the messages.", "context_length_exceeded"},
		{"This model's maximum context length is 4096 tokens. However, you requested 5120 tokens (4096 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.", ""},
		{"the request exceeds the available context size (4096 tokens), try increasing it", ""},
		{"Requested tokens (5120) exceed context window of 4096", ""},
	}
	for _, c := range worded {
		_, p := serve(t, compat.Reply{Status: 400, ErrorMessage: c.message, ErrorCode: c.code})
		_, err := p.Stream(context.Background(), simple, llm.Deltas{})
		require.Error(t, err)
		assert.ErrorIs(t, err, llm.ErrContextFull, c.message)
		assert.Equal(t, 4096, llm.StatedContextLimit(err), c.message)
	}

	// llama.cpp's server states the limit as a field of its error.
	llamacpp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"code":400,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error","n_prompt_tokens":5120,"n_ctx":4096}}`)
	}))
	defer llamacpp.Close()
	_, err := New(Config{BaseURL: llamacpp.URL, Model: "m", MaxRetries: -1}).Stream(context.Background(), simple, llm.Deltas{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "The model's context window is full")
	assert.Equal(t, 4096, llm.StatedContextLimit(err))

	// A refusal that names no limit is still a full context, of no known size.
	_, p := serve(t, compat.Reply{Status: 400, ErrorMessage: "Input is too long.", ErrorCode: "context_length_exceeded"})
	_, err = p.Stream(context.Background(), simple, llm.Deltas{})
	assert.ErrorIs(t, err, llm.ErrContextFull)
	assert.Zero(t, llm.StatedContextLimit(err))
}
