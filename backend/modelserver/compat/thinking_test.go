package compat

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAThinkingReplyStreamsInEachShape(t *testing.T) {
	const thought, text = "Two and two make four.", "It is 4."
	for _, c := range []struct {
		shape        ReasoningShape
		wantInField  bool
		wantInText   string
		wantRawParts bool
	}{
		{ReasoningContent, true, text, false},
		{ReasoningField, true, text, false},
		{ThinkingParts, true, text, true},
		{ThinkTags, false, "<think>\n" + thought + "</think>\n\n" + text, false},
		{ThinkClose, false, thought + "</think>\n\n" + text, false},
	} {
		t.Run(string(c.shape), func(t *testing.T) {
			s := NewServer(func(*Request) Reply { return Reply{Reasoning: thought, Text: text, ReasoningAs: c.shape} })
			url := serve(t, s)
			resp := post(t, context.Background(), url, `{"model":"m","stream":true,"messages":[{"role":"user","content":"2+2?"}]}`)
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			res, err := ReadStream(strings.NewReader(string(body)))
			require.NoError(t, err)
			assert.Equal(t, c.wantInText, res.Text)
			if c.wantInField {
				assert.Equal(t, thought, res.Reasoning)
			}
			assert.Equal(t, c.wantRawParts, strings.Contains(string(body), `"content":[{"type":"thinking"`))
			if c.shape == ThinkTags {
				assert.NotContains(t, string(body), `"<think>\n"`, "the tags are split across chunks")
			}
		})
	}
}

func TestAStreamErrorEventAndComments(t *testing.T) {
	s := NewServer(func(*Request) Reply { return Reply{Text: "Half", StreamError: "Provider disconnected", Comments: true} })
	url := serve(t, s)
	resp := post(t, context.Background(), url, `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, string(body), ": OPENROUTER PROCESSING\n\n")
	assert.Contains(t, string(body), `"error":{"code":502,"message":"Provider disconnected"}`)
	assert.NotContains(t, string(body), "[DONE]")
}

// toolTurn is a request body whose current turn has an assistant tool
// call; reasoning is its reasoning_content member ("" for none).
func toolTurn(reasoning string) string {
	return `{"model":"m","stream":true,"messages":[{"role":"user","content":"list"},` +
		`{"role":"assistant","content":null,` + reasoning + `"tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"a.txt"}]}`
}

func TestAThinkingServerWantsItsReasoningBack(t *testing.T) {
	s := NewServer(nil)
	s.Thinking = true
	url := serve(t, s)
	resp := post(t, context.Background(), url, toolTurn(""))
	body, _ := io.ReadAll(resp.Body)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Contains(t, string(body), "The `reasoning_content` in the thinking mode must be passed back to the API.")

	resp = post(t, context.Background(), url, toolTurn(`"reasoning_content":"List first.",`))
	_, _ = io.ReadAll(resp.Body)
	assert.Equal(t, 200, resp.StatusCode)

	// An older turn's tool call needs none.
	older := strings.Replace(toolTurn(""), `"content":"a.txt"}]}`, `"content":"a.txt"},{"role":"user","content":"thanks"}]}`, 1)
	resp = post(t, context.Background(), url, older)
	_, _ = io.ReadAll(resp.Body)
	assert.Equal(t, 200, resp.StatusCode)
}

func TestAServerThatDoesNotThinkRejectsTheField(t *testing.T) {
	s := NewServer(nil)
	url := serve(t, s)
	resp := post(t, context.Background(), url, toolTurn(`"reasoning_content":"List first.",`))
	body, _ := io.ReadAll(resp.Body)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Contains(t, string(body), "Additional properties are not allowed ('reasoning_content' was unexpected)")
	require.Len(t, s.Rejections(), 1)
}

// A thinking server parts its reasoning from its tool calls with two line
// ends of content, as DeepSeek's thinking mode does; a reply with text, or
// a server that does not think, sends none.
func TestAThinkingServerSendsLineEndsBeforeItsToolCalls(t *testing.T) {
	calls := []chat.ToolCall{{Name: "ls"}}
	for _, c := range []struct {
		name     string
		thinking bool
		reply    Reply
		want     bool
	}{
		{"thinking, tool calls", true, Reply{Reasoning: "List first.", ToolCalls: calls}, true},
		{"thinking, text and tool calls", true, Reply{Reasoning: "List first.", Text: "Listing.", ToolCalls: calls}, false},
		{"thinking, no reasoning", true, Reply{ToolCalls: calls}, false},
		{"not thinking", false, Reply{Reasoning: "List first.", ToolCalls: calls}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewServer(func(*Request) Reply { return c.reply })
			s.Thinking = c.thinking
			url := serve(t, s)
			resp := post(t, context.Background(), url, `{"model":"m","stream":true,"messages":[{"role":"user","content":"list"}]}`)
			body, _ := io.ReadAll(resp.Body)
			require.Equal(t, 200, resp.StatusCode)
			assert.Equal(t, c.want, strings.Contains(string(body), `"content":"\n\n"`), "%s", body)
		})
	}
}
