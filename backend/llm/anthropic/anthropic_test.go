package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/llm/anthropic"
	"github.com/errand-app/errand/backend/modelserver/anthropictest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const key = "sk-ant-test-0123456789"

func newProvider(t *testing.T, srv *anthropictest.Server) *anthropic.Provider {
	t.Helper()
	srv.APIKey = key
	return anthropic.New(anthropic.Config{BaseURL: srv.Start(t), APIKey: key, Model: "claude-test", MaxRetries: -1})
}

func userAsks(text string) llm.Request {
	return llm.Request{Messages: []llm.Message{
		{Role: chat.RoleSystem, Content: "You are Errand."},
		{Role: chat.RoleUser, Content: text},
	}}
}

var readFile = llm.Tool{Name: "read_file", Description: "Read a file", Parameters: map[string]any{
	"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}, "required": []string{"path"},
}}

func TestTextStreamsPieceByPiece(t *testing.T) {
	srv := anthropictest.New(func(*anthropictest.Request) anthropictest.Reply {
		return anthropictest.Reply{Text: "Hello there, how can I help?"}
	})
	p := newProvider(t, srv)
	var pieces []string
	resp, err := p.Stream(context.Background(), userAsks("hi"), llm.Deltas{Text: func(s string) { pieces = append(pieces, s) }})
	require.NoError(t, err)
	assert.Equal(t, "Hello there, how can I help?", resp.Content)
	assert.Greater(t, len(pieces), 3, "the answer arrives as it streams")
	assert.Equal(t, resp.Content, strings.Join(pieces, ""))
	assert.Equal(t, "stop", resp.FinishReason)
	assert.Empty(t, resp.Reasoning)
	assert.Empty(t, srv.Rejections())

	req := srv.Requests()[0]
	require.Len(t, req.System, 1)
	assert.Equal(t, "You are Errand.", req.System[0].Text, "the system prompt goes as the system param")
	require.Len(t, req.Messages, 1)
	assert.Equal(t, "user", req.Messages[0].Role)
	assert.EqualValues(t, anthropic.DefaultMaxTokens, *req.MaxTokens)
	assert.Nil(t, req.Thinking, "no effort set: no thinking")
}

func TestParallelToolCallsWithArgumentsSplitMidJSON(t *testing.T) {
	srv := anthropictest.New(func(*anthropictest.Request) anthropictest.Reply {
		return anthropictest.Reply{Text: "Reading both.", ToolCalls: []chat.ToolCall{
			{ID: "toolu_a", Name: "read_file", Arguments: `{"path":"notes/ä.txt"}`},
			{ID: "toolu_b", Name: "read_file", Arguments: `{"path":"b.txt"}`},
		}}
	})
	p := newProvider(t, srv)
	req := userAsks("read a and b")
	req.Tools = []llm.Tool{readFile}
	resp, err := p.Stream(context.Background(), req, llm.Deltas{})
	require.NoError(t, err)
	assert.Equal(t, "Reading both.", resp.Content)
	assert.Equal(t, "tool_calls", resp.FinishReason)
	assert.Equal(t, []chat.ToolCall{
		{ID: "toolu_a", Name: "read_file", Arguments: `{"path":"notes/ä.txt"}`},
		{ID: "toolu_b", Name: "read_file", Arguments: `{"path":"b.txt"}`},
	}, resp.ToolCalls)
	sent := srv.Requests()[0].Tools
	require.Len(t, sent, 1)
	assert.Equal(t, "read_file", sent[0].Name)
	assert.Equal(t, []any{"path"}, sent[0].InputSchema["required"])
}

// toolTurn is a conversation in which the model called a tool with its
// thinking, and the tool answered.
func toolTurn(first llm.Response) llm.Request {
	req := userAsks("what is in a.txt?")
	req.Tools = []llm.Tool{readFile}
	req.ReasoningEffort = "medium"
	req.Messages = append(req.Messages,
		llm.Message{Role: chat.RoleAssistant, Content: first.Content, ToolCalls: first.ToolCalls,
			Reasoning: first.Reasoning, ReasoningData: first.ReasoningData},
		llm.Message{Role: chat.RoleTool, ToolCallID: first.ToolCalls[0].ID, Content: "hello"})
	return req
}

func TestThinkingIsStreamedAndPassedBackBeforeTheToolCalls(t *testing.T) {
	srv := anthropictest.New(func(r *anthropictest.Request) anthropictest.Reply {
		if r.ToolResults() == 0 {
			return anthropictest.Reply{Thinking: "I should read the file first.", RedactedThinking: "EncRypTed==",
				ToolCalls: []chat.ToolCall{{Name: "read_file", Arguments: `{"path":"a.txt"}`}}}
		}
		return anthropictest.Reply{Thinking: "It says hello.", Text: "It says hello."}
	})
	p := newProvider(t, srv)
	req := userAsks("what is in a.txt?")
	req.Tools = []llm.Tool{readFile}
	req.ReasoningEffort = "medium"
	var thought, said strings.Builder
	first, err := p.Stream(context.Background(), req, llm.Deltas{
		Reasoning: func(s string) { thought.WriteString(s) }, Text: func(s string) { said.WriteString(s) }})
	require.NoError(t, err)
	assert.Equal(t, "I should read the file first.", thought.String(), "the thinking streams apart from the answer")
	assert.Empty(t, said.String())
	assert.Equal(t, "I should read the file first.", first.Reasoning)
	assert.Empty(t, first.Content, "the answer never holds the thinking")
	var blocks []map[string]string
	require.NoError(t, json.Unmarshal([]byte(first.ReasoningData), &blocks))
	require.Len(t, blocks, 2)
	assert.Equal(t, "thinking", blocks[0]["type"])
	assert.NotEmpty(t, blocks[0]["signature"])
	assert.Equal(t, map[string]string{"type": "redacted_thinking", "data": "EncRypTed=="}, blocks[1])

	sent := srv.Requests()[0]
	require.True(t, sent.ThinkingOn())
	assert.EqualValues(t, anthropic.ThinkingBudget("medium"), sent.Thinking.BudgetTokens)
	assert.EqualValues(t, anthropic.DefaultMaxTokens+anthropic.ThinkingBudget("medium"), *sent.MaxTokens)

	second, err := p.Stream(context.Background(), toolTurn(first), llm.Deltas{})
	require.NoError(t, err, "the server takes the step: its thinking came back signed")
	assert.Equal(t, "It says hello.", second.Content)
	assert.Empty(t, srv.Rejections())
	back := srv.Requests()[1].Messages[1]
	require.Equal(t, "assistant", back.Role)
	var types []string
	for _, b := range back.Content {
		types = append(types, b.Type)
	}
	assert.Equal(t, []string{"thinking", "redacted_thinking", "tool_use"}, types)
}

func TestAToolCallWithoutItsThinkingIsRefusedByTheServer(t *testing.T) {
	srv := anthropictest.New(nil)
	srv.APIKey = key
	base := srv.Start(t)
	// A client that drops the thinking, to show the server is as strict as
	// the real API.
	body := `{"model":"claude-test","max_tokens":9000,"stream":true,"thinking":{"type":"enabled","budget_tokens":2048},
	"messages":[{"role":"user","content":"hi"},
	{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"read_file","input":{}}]},
	{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"x"}]}]}`
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/messages", strings.NewReader(body))
	req.Header.Set("x-api-key", key)
	req.Header.Set("anthropic-version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	require.Len(t, srv.Rejections(), 1)
	assert.Contains(t, srv.Rejections()[0], "Expected `thinking` or `redacted_thinking`, but found `tool_use`")
}

func TestThinkingMadeWithoutIsLeftOffForThatTurn(t *testing.T) {
	srv := anthropictest.New(func(*anthropictest.Request) anthropictest.Reply { return anthropictest.Reply{Text: "done"} })
	p := newProvider(t, srv)
	req := toolTurn(llm.Response{ToolCalls: []chat.ToolCall{{ID: "toolu_1", Name: "read_file", Arguments: `{"path":"a"}`}}})
	resp, err := p.Stream(context.Background(), req, llm.Deltas{})
	require.NoError(t, err, "a tool call made without thinking (effort set mid-task) does not fail the step")
	assert.Equal(t, "done", resp.Content)
	assert.False(t, srv.Requests()[0].ThinkingOn())
}

func TestTurnsAlternateAndOldThinkingStaysHome(t *testing.T) {
	srv := anthropictest.New(nil)
	p := newProvider(t, srv)
	req := llm.Request{ReasoningEffort: "low", Tools: []llm.Tool{readFile}, Messages: []llm.Message{
		{Role: chat.RoleSystem, Content: "You are Errand."},
		{Role: chat.RoleUser, Content: "first task"},
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "t1", Name: "read_file", Arguments: `{"path":"a"}`},
			{ID: "t2", Name: "read_file", Arguments: `{"path":"b"}`}},
			Reasoning: "old", ReasoningData: `[{"type":"thinking","thinking":"old","signature":"forged"}]`},
		{Role: chat.RoleTool, ToolCallID: "t1", Content: "A"},
		{Role: chat.RoleTool, ToolCallID: "t2", Content: ""},
		{Role: chat.RoleAssistant, Content: "Both read."},
		{Role: chat.RoleSystem, Content: "The person switched models."},
		{Role: chat.RoleUser, Content: "second task"},
	}}
	_, err := p.Stream(context.Background(), req, llm.Deltas{})
	require.NoError(t, err)
	assert.Empty(t, srv.Rejections())
	msgs := srv.Requests()[0].Messages
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role)
	}
	assert.Equal(t, []string{"user", "assistant", "user", "assistant", "user"}, roles)
	assert.Len(t, msgs[2].Content, 2, "two tool results, one user turn")
	assert.Equal(t, "tool_use", msgs[1].Content[0].Type, "an older turn's thinking is not sent")
	assert.Len(t, msgs[4].Content, 2, "the notice and the person's message share a turn")
}

func TestCachedTokensAreReported(t *testing.T) {
	srv := anthropictest.New(nil)
	p := newProvider(t, srv)
	req := userAsks("hi " + strings.Repeat("long context ", 200))
	req.Tools = []llm.Tool{readFile}
	first, err := p.Stream(context.Background(), req, llm.Deltas{})
	require.NoError(t, err)
	assert.Zero(t, first.Usage.CacheReadTokens)
	assert.Positive(t, first.Usage.CacheWriteTokens, "the first step writes the prompt to the cache")

	req.Messages = append(req.Messages, llm.Message{Role: chat.RoleAssistant, Content: "OK"},
		llm.Message{Role: chat.RoleUser, Content: "and again"})
	second, err := p.Stream(context.Background(), req, llm.Deltas{})
	require.NoError(t, err)
	assert.Equal(t, first.Usage.CacheWriteTokens, second.Usage.CacheReadTokens, "the next step reads what the first cached")
	assert.Equal(t, second.Usage.PromptTokens+second.Usage.CompletionTokens, second.Usage.TotalTokens)
	assert.Greater(t, second.Usage.PromptTokens, second.Usage.CacheReadTokens+second.Usage.CacheWriteTokens-1)

	sent := srv.Requests()[1]
	assert.NotNil(t, sent.System[0].CacheControl, "the system prompt is a cache breakpoint")
	assert.NotNil(t, sent.Tools[len(sent.Tools)-1].CacheControl, "so are the tools")

	price := chat.Price{InputPerMTok: 3, OutputPerMTok: 15}
	full := price.Cost(chat.Usage{PromptTokens: second.Usage.PromptTokens, CompletionTokens: second.Usage.CompletionTokens})
	assert.Less(t, price.Cost(second.Usage), full, "reading from the cache costs less")
}

func TestErrorsAreExplainedWithoutTheKey(t *testing.T) {
	cases := map[string]struct {
		reply anthropictest.Reply
		want  string
		full  bool
	}{
		"401":         {anthropictest.Reply{Status: 401, ErrorMessage: "invalid x-api-key " + key}, "rejected the API key", false},
		"403":         {anthropictest.Reply{Status: 403}, "refused access", false},
		"404":         {anthropictest.Reply{Status: 404, ErrorMessage: "model: claude-test"}, `does not know the model "claude-test"`, false},
		"429":         {anthropictest.Reply{Status: 429}, "rate limiting", false},
		"529":         {anthropictest.Reply{Status: 529, ErrorMessage: "Overloaded"}, "overloaded", false},
		"500":         {anthropictest.Reply{Status: 500}, "failed (HTTP 500)", false},
		"too long":    {anthropictest.Reply{Status: 400, ErrorMessage: "prompt is too long: 208432 tokens > 200000 maximum"}, "context window is full", true},
		"error event": {anthropictest.Reply{Text: "Partly", StreamError: "overloaded_error", ErrorMessage: "Overloaded"}, "reported an error during the reply (overloaded_error): Overloaded", false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			srv := anthropictest.New(func(*anthropictest.Request) anthropictest.Reply { return c.reply })
			p := newProvider(t, srv)
			_, err := p.Stream(context.Background(), userAsks("hi"), llm.Deltas{})
			require.Error(t, err)
			assert.Equal(t, chat.CodeModel, chat.ErrorCode(err))
			msg := chat.ErrorMessage(err)
			assert.Contains(t, msg, c.want)
			assert.NotContains(t, msg, key)
			assert.NotContains(t, err.Error(), key)
			assert.Equal(t, c.full, errors.Is(err, llm.ErrContextFull))
		})
	}
}

func TestStopEndsTheStreamAtOnce(t *testing.T) {
	srv := anthropictest.New(func(*anthropictest.Request) anthropictest.Reply {
		return anthropictest.Reply{Text: "Working on it", Hang: true}
	})
	p := newProvider(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := p.Stream(ctx, userAsks("go"), llm.Deltas{Text: func(s string) {
			if strings.HasSuffix(s, "it") {
				cancel()
			}
		}})
		done <- err
	}()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(30 * time.Second):
		t.Fatal("Stream did not return after cancel")
	}
	select {
	case <-srv.Gone():
	case <-time.After(30 * time.Second):
		t.Fatal("the server never saw the client leave")
	}
}

// countingTransport counts the requests that went through it.
type countingTransport struct{ n atomic.Int32 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

func TestTheGivenHTTPClientCarriesTheCalls(t *testing.T) {
	srv := anthropictest.New(nil)
	srv.APIKey = key
	tr := &countingTransport{}
	p := anthropic.New(anthropic.Config{BaseURL: srv.Start(t) + "/v1", APIKey: key, Model: "claude-test",
		HTTPClient: &http.Client{Transport: tr}})
	resp, err := p.Stream(context.Background(), userAsks("hi"), llm.Deltas{})
	require.NoError(t, err)
	assert.Equal(t, "OK", resp.Content)
	assert.EqualValues(t, 1, tr.n.Load())
}

func TestAMissingMaxTokensOrBadTurnsAreRefused(t *testing.T) {
	srv := anthropictest.New(nil)
	srv.APIKey = key
	base := srv.Start(t)
	for name, body := range map[string]string{
		"no max_tokens":   `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`,
		"two user turns":  `{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}]}`,
		"assistant first": `{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"assistant","content":"a"}]}`,
	} {
		req, _ := http.NewRequest(http.MethodPost, base+"/v1/messages", strings.NewReader(body))
		req.Header.Set("x-api-key", key)
		req.Header.Set("anthropic-version", "2023-06-01")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, name)
	}
	assert.Len(t, srv.Rejections(), 3)
}

// A named tool set is encoded once and then sent as encoded: the server
// gets the same definitions (and the cache breakpoint on the last) as from
// a set sent without a name, every time.
func TestANamedToolSetReachesTheServerAsAnUnnamedOne(t *testing.T) {
	srv := anthropictest.New(func(*anthropictest.Request) anthropictest.Reply { return anthropictest.Reply{Text: "ok"} })
	p := newProvider(t, srv)
	req := userAsks("Read it")
	req.Tools = []llm.Tool{readFile, {Name: "task_complete", Description: "Ends the task <here> & \"now\"",
		Parameters: map[string]any{"type": "object", "properties": map[string]any{}}}}
	for _, name := range []string{"", t.Name(), t.Name()} {
		req.ToolsKey = name
		_, err := p.Stream(context.Background(), req, llm.Deltas{})
		require.NoError(t, err)
	}
	got := srv.Requests()
	require.Len(t, got, 3)
	assert.Empty(t, srv.Rejections())
	require.Len(t, got[0].Tools, 2)
	assert.Equal(t, "Ends the task <here> & \"now\"", got[0].Tools[1].Description)
	assert.Equal(t, got[0].Tools, got[1].Tools, "encoded once")
	assert.Equal(t, got[0].Tools, got[2].Tools, "sent as encoded")
	assert.NotNil(t, got[2].Tools[1].CacheControl, "the cache breakpoint on the last tool")
}
