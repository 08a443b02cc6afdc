package openai

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// collected is what a reply streamed, by kind.
type collected struct{ text, reasoning strings.Builder }

func (c *collected) deltas() llm.Deltas {
	return llm.Deltas{
		Text:      func(s string) { c.text.WriteString(s) },
		Reasoning: func(s string) { c.reasoning.WriteString(s) },
	}
}

const (
	thought = "The person wants two and two added. That is 4."
	answer  = "2 + 2 = 4"
)

func TestEveryShapeOfThinkingIsKeptApartFromTheAnswer(t *testing.T) {
	t.Parallel()
	for _, shape := range []compat.ReasoningShape{compat.ReasoningContent, compat.ReasoningField,
		compat.ThinkTags, compat.ThinkingParts} {
		t.Run(string(shape), func(t *testing.T) {
			srv, p := serve(t, compat.Reply{Reasoning: thought, Text: answer, ReasoningAs: shape})
			var got collected
			resp, err := p.Stream(context.Background(), simple, got.deltas())
			require.NoError(t, err)
			assert.Equal(t, answer, resp.Content, "the answer holds no thinking, tags or part JSON")
			assert.Equal(t, thought, resp.Reasoning)
			assert.Equal(t, answer, got.text.String(), "only the answer streams as text")
			assert.Equal(t, thought, got.reasoning.String())
			assert.Empty(t, srv.Rejections())
		})
	}
}

func TestAReplyThatBeginsInsideTheThinkBlock(t *testing.T) {
	t.Parallel()
	_, p := serve(t, compat.Reply{Reasoning: thought, Text: answer, ReasoningAs: compat.ThinkClose})
	for i := range 2 {
		var got collected
		resp, err := p.Stream(context.Background(), simple, got.deltas())
		require.NoError(t, err)
		assert.Equal(t, answer, resp.Content, "reply %d", i)
		assert.Equal(t, thought, resp.Reasoning, "reply %d", i)
		if i == 1 {
			// Once a reply began inside the block, the next ones are read
			// so from the start: nothing of the thinking streams as text.
			assert.Equal(t, answer, got.text.String())
			assert.Equal(t, thought, got.reasoning.String())
		}
	}
}

func TestAModelThatStopsOpeningThinkBlocksStillAnswers(t *testing.T) {
	t.Parallel()
	n := 0
	srv := compat.NewServer(func(*compat.Request) compat.Reply {
		n++
		if n == 1 {
			return compat.Reply{Reasoning: thought, Text: answer, ReasoningAs: compat.ThinkClose}
		}
		return compat.Reply{Text: "Plain answer, no thinking."}
	})
	url, stop := srv.Start()
	t.Cleanup(stop)
	p := New(Config{BaseURL: url, APIKey: "k", Model: "m", MaxRetries: -1})
	_, err := p.Stream(context.Background(), simple, llm.Deltas{})
	require.NoError(t, err)
	var got collected
	resp, err := p.Stream(context.Background(), simple, got.deltas())
	require.NoError(t, err)
	assert.Equal(t, "Plain answer, no thinking.", resp.Content)
	assert.Empty(t, resp.Reasoning)
	assert.Contains(t, got.text.String(), "Plain answer, no thinking.")
}

// sse serves body, verbatim, as a 200 event stream to every request.
func sse(t *testing.T, body string) *Provider {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return New(Config{BaseURL: srv.URL + "/v1", APIKey: "k", Model: "m", MaxRetries: -1})
}

// events writes deltas as chunk events, then a stop and [DONE].
func events(deltas ...string) string {
	var b strings.Builder
	for _, d := range deltas {
		fmt.Fprintf(&b, `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":%s,"finish_reason":null}]}`+"\n\n", d)
	}
	b.WriteString(`data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n")
	return b.String()
}

func TestHandWrittenStreamsOfThinking(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                 string
		body                 string
		reasoning, text      string
		streamedAsTextExtras bool
	}{
		{"reasoning_details alone (OpenRouter)", events(
			`{"role":"assistant","content":"","reasoning_details":[{"type":"reasoning.text","text":"Adding up.","format":"unknown","index":0}]}`,
			`{"reasoning_details":[{"type":"reasoning.encrypted","data":"c2VjcmV0"}]}`,
			`{"content":"Four."}`), "Adding up.", "Four.", false},
		{"reasoning repeated in reasoning_details is taken once", events(
			`{"role":"assistant","content":"","reasoning":"Adding","reasoning_details":[{"type":"reasoning.text","text":"Adding"}]}`,
			`{"content":"","reasoning":" up.","reasoning_details":[{"type":"reasoning.text","text":" up."}]}`,
			`{"content":"Four.","reasoning":null}`), "Adding up.", "Four.", false},
		{"a reasoning field of the wrong type is ignored", events(
			`{"role":"assistant","reasoning_content":42}`,
			`{"reasoning":{"effort":"low"},"reasoning_details":"not a list"}`,
			`{"reasoning_content":["a"],"content":"Four."}`), "", "Four.", false},
		{"unknown part types are left out", events(
			`{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"Adding."}]}]}`,
			`{"content":[{"type":"reference","reference_ids":[1]},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"Four"}]}`,
			`{"content":[{"type":"text","text":42},{"type":"text","text":"."}]}`,
			`{"content":[{"type":"thinking","thinking":"More."}]}`,
			`{"content":{"type":"text","text":"!"}}`,
			`{"content":[1,"x",null]}`), "Adding.More.", "Four.!", false},
		{"think tags split byte by byte", events(splitContent("<think>\nAdding.\n</think>\n\nFour.")...), "Adding.\n", "Four.", false},
		{"a lone closing tag after a block is dropped", events(
			`{"content":"<think>Adding.</think>Four.</think> Five."}`), "Adding.", "Four. Five.", false},
		{"a reply that only closes the block", events(
			`{"role":"assistant","content":"Adding"}`, `{"content":" up.</thi"}`, `{"content":"nk>\n\nFour."}`), "Adding up.", "Four.", true},
		{"an unclosed tag prefix at the end is answer", events(
			`{"content":"Four <thi"}`), "", "Four <thi", false},
		{"line ends between reasoning and tool calls are not answer (DeepSeek)", events(
			`{"role":"assistant","content":null,"reasoning_content":"Look it up."}`,
			`{"content":"\n\n","reasoning_content":null}`,
			`{"content":"","tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"t","arguments":"{}"}}]}`), "Look it up.", "", false},
		{"line ends after reasoning, then the answer", events(
			`{"reasoning_content":"Adding."}`, `{"content":"\n"}`, `{"content":" \n"}`, `{"content":" Four."}`), "Adding.", "Four.", false},
		{"leading line ends of an answer without reasoning are kept", events(
			`{"content":"\n"}`, `{"content":"\nFour."}`), "", "\n\nFour.", false},
		{"an answer of line ends alone is kept", events(`{"content":"\n\n"}`), "", "\n\n", false},
		{"a think tag inside the text", events(
			`{"content":"Four."}`, `{"content":" <think>again</think> Yes."}`), "again", "Four. Yes.", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := sse(t, c.body)
			var got collected
			resp, err := p.Stream(context.Background(), simple, got.deltas())
			require.NoError(t, err)
			assert.Equal(t, c.reasoning, resp.Reasoning)
			assert.Equal(t, c.text, resp.Content)
			if !c.streamedAsTextExtras {
				assert.Equal(t, c.text, got.text.String(), "the text streamed is the text kept")
			}
			assert.NotContains(t, resp.Content, `"type"`, "no part JSON in the answer")
			assert.NotContains(t, resp.Content, "think>")
		})
	}
}

// splitContent is s as content deltas of one byte each.
func splitContent(s string) []string {
	out := make([]string, 0, len(s))
	for i := range len(s) {
		out = append(out, fmt.Sprintf(`{"content":%q}`, s[i:i+1]))
	}
	return out
}

func TestFiveMegabytesOfReasoning(t *testing.T) {
	t.Parallel()
	piece := strings.Repeat("thinking hard ", 73) // about 1 KB
	deltas := make([]string, 0, 5200)
	for range 5 << 10 {
		deltas = append(deltas, fmt.Sprintf(`{"reasoning_content":%q}`, piece))
	}
	deltas = append(deltas, `{"content":"Done."}`)
	p := sse(t, events(deltas...))
	var got collected
	resp, err := p.Stream(context.Background(), simple, got.deltas())
	require.NoError(t, err)
	assert.Equal(t, "Done.", resp.Content)
	assert.Equal(t, len(piece)*(5<<10), len(resp.Reasoning))
	assert.Equal(t, resp.Reasoning, got.reasoning.String())
}

func TestAnErrorInsideTheStreamIsNamed(t *testing.T) {
	t.Parallel()
	srv, p := serve(t, compat.Reply{Text: "Half an answer", StreamError: "Provider returned error: upstream disconnected", Comments: true})
	var got collected
	_, err := p.Stream(context.Background(), simple, got.deltas())
	require.Error(t, err)
	assert.Equal(t, chat.CodeModel, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "The model server failed mid-reply: Provider returned error: upstream disconnected (502)")
	assert.NotContains(t, err.Error(), "could not be read")
	assert.Equal(t, "Half an answer", got.text.String())
	assert.Empty(t, srv.Rejections())

	p = sse(t, `data: {"error":"overloaded"}`+"\n\n")
	_, err = p.Stream(context.Background(), simple, llm.Deltas{})
	assert.Contains(t, chat.ErrorMessage(err), "The model server failed mid-reply: overloaded")
}

func TestCommentLinesAreIgnored(t *testing.T) {
	t.Parallel()
	srv, p := serve(t, compat.Reply{Reasoning: thought, Text: answer, Comments: true})
	resp, err := p.Stream(context.Background(), simple, llm.Deltas{})
	require.NoError(t, err)
	assert.Equal(t, answer, resp.Content)
	assert.Equal(t, thought, resp.Reasoning)
	assert.Empty(t, srv.Rejections())
}

// toolTurn is a request in the middle of a task: an older turn whose
// tool call thought, then the current turn's two tool calls with theirs.
var toolTurn = llm.Request{Messages: []llm.Message{
	{Role: chat.RoleSystem, Content: "sys"},
	{Role: chat.RoleUser, Content: "first task"},
	{Role: chat.RoleAssistant, Reasoning: "old thinking", ToolCalls: []chat.ToolCall{{ID: "c0", Name: "ls", Arguments: "{}"}}},
	{Role: chat.RoleTool, Content: "a.txt", ToolCallID: "c0"},
	{Role: chat.RoleAssistant, Content: "Done.", Reasoning: "old answer thinking"},
	{Role: chat.RoleUser, Content: "second task"},
	{Role: chat.RoleAssistant, Reasoning: "I should list the files.", ToolCalls: []chat.ToolCall{{ID: "c1", Name: "ls", Arguments: "{}"}}},
	{Role: chat.RoleTool, Content: "b.txt", ToolCallID: "c1"},
	{Role: chat.RoleAssistant, Content: "Reading it.", Reasoning: "Now read b.", ToolCalls: []chat.ToolCall{{ID: "c2", Name: "read", Arguments: "{}"}}},
	{Role: chat.RoleTool, Content: "hello", ToolCallID: "c2"},
}}

func TestReasoningIsPassedBackOnTheCurrentTurnsToolCalls(t *testing.T) {
	t.Parallel()
	srv := compat.NewServer(nil)
	srv.Thinking = true
	url, stop := srv.Start()
	t.Cleanup(stop)
	p := New(Config{BaseURL: url, APIKey: "k", Model: "m", MaxRetries: -1})
	_, err := p.Stream(context.Background(), toolTurn, llm.Deltas{})
	require.NoError(t, err)
	require.Empty(t, srv.Rejections())
	sent := srv.Requests()[0].Messages
	var passed []string
	for _, m := range sent {
		if m.ReasoningContent != nil {
			passed = append(passed, *m.ReasoningContent)
		}
	}
	assert.Equal(t, []string{"I should list the files.", "Now read b."}, passed, "older turns' thinking is not sent")

	bare := toolTurn
	bare.Messages = append([]llm.Message(nil), toolTurn.Messages...)
	bare.Messages[8].Reasoning = ""
	_, err = p.Stream(context.Background(), bare, llm.Deltas{})
	require.Error(t, err, "the thinking server refuses a tool call without its reasoning")
	assert.Contains(t, err.Error(), "must be passed back")
}

// DeepSeek's thinking mode sends two line ends of content between its
// reasoning and its tool calls: they are not the reply's text, streamed
// or kept.
func TestAThinkingServersLineEndsBeforeToolCallsAreNotText(t *testing.T) {
	t.Parallel()
	srv := compat.NewServer(func(*compat.Request) compat.Reply {
		return compat.Reply{Reasoning: "List first.", ToolCalls: []chat.ToolCall{{Name: "ls"}}}
	})
	srv.Thinking = true
	url, stop := srv.Start()
	t.Cleanup(stop)
	p := New(Config{BaseURL: url, APIKey: "k", Model: "m", MaxRetries: -1})
	var got collected
	resp, err := p.Stream(context.Background(), simple, got.deltas())
	require.NoError(t, err)
	assert.Equal(t, "List first.", resp.Reasoning)
	require.Len(t, resp.ToolCalls, 1)
	assert.Empty(t, resp.Content)
	assert.Empty(t, got.text.String(), "no text streamed")
}

func TestAServerThatRejectsTheFieldIsNotSentItAgain(t *testing.T) {
	t.Parallel()
	srv, p := serve(t, compat.Reply{Text: "ok"})
	resp, err := p.Stream(context.Background(), toolTurn, llm.Deltas{})
	require.NoError(t, err, "the request is made again without the field")
	assert.Equal(t, "ok", resp.Content)
	require.Len(t, srv.Rejections(), 1)
	assert.Contains(t, srv.Rejections()[0], "reasoning_content")

	_, err = p.Stream(context.Background(), toolTurn, llm.Deltas{})
	require.NoError(t, err)
	assert.Len(t, srv.Rejections(), 1, "not sent to that server again")
	assert.Len(t, srv.Requests(), 3)
}

func TestProvidersOfOneServerShareWhatTheyLearned(t *testing.T) {
	t.Parallel()
	srv := compat.NewServer(nil)
	url, stop := srv.Start()
	t.Cleanup(stop)
	learned := &Learned{}
	for range 2 { // a provider per task, as the app makes them
		p := New(Config{BaseURL: url, APIKey: "k", Model: "m", MaxRetries: -1, Learned: learned})
		_, err := p.Stream(context.Background(), toolTurn, llm.Deltas{})
		require.NoError(t, err)
	}
	assert.Len(t, srv.Rejections(), 1, "the second task's provider knew not to send the field")
}

func TestReasoningEffortIsSentWhenSet(t *testing.T) {
	t.Parallel()
	srv, p := serve(t, compat.Reply{Text: "ok"})
	_, err := p.Stream(context.Background(), simple, llm.Deltas{})
	require.NoError(t, err)
	high := simple
	high.ReasoningEffort = "high"
	_, err = p.Stream(context.Background(), high, llm.Deltas{})
	require.NoError(t, err)
	reqs := srv.Requests()
	assert.Empty(t, reqs[0].ReasoningEffort, "the server's default when none is set")
	assert.Equal(t, "high", reqs[1].ReasoningEffort)
}
