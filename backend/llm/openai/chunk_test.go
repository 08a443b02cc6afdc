package openai

import (
	"context"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChunkFieldsOfAnotherTypeReadAsEmpty(t *testing.T) {
	t.Parallel()
	body := events(
		`{"role":"assistant","content":"Four","tool_calls":"none"}`,
		`{"content":null,"tool_calls":[{"index":0,"id":"call_1","function":{"name":"ls","arguments":"{\"pa"}}]}`,
		`{"tool_calls":[{"index":0,"function":{"name":null,"arguments":"th\":1}"}},"not a call"]}`,
		`{"content":".","content":"!"}`,
	)
	body = strings.TrimSuffix(body, "data: [DONE]\n\n") +
		`data: {"choices":"none","usage":{"prompt_tokens":7,"completion_tokens":"x","total_tokens":9}}` + "\n\ndata: [DONE]\n\n"
	p := sse(t, body)
	var got collected
	resp, err := p.Stream(context.Background(), simple, got.deltas())
	require.NoError(t, err)
	assert.Equal(t, "Four.", resp.Content, "a field named twice is the first, as openai-go read it")
	// openai-go's type dropped the whole list for its one odd element, and the call's arguments with it.
	assert.Equal(t, []chat.ToolCall{{ID: "call_1", Name: "ls", Arguments: `{"path":1}`}}, resp.ToolCalls)
	assert.Equal(t, chat.Usage{PromptTokens: 7, TotalTokens: 9}, resp.Usage)
	assert.Equal(t, "stop", resp.FinishReason)
}

func TestAChunkThatIsNotJSONEndsTheReplyNamed(t *testing.T) {
	t.Parallel()
	p := sse(t, `data: {"choices":[{"index":0,"delta":{"content":"Half"}}]}`+"\n\n"+
		`data: {"choices":[{"index":0,"delta":{"content":"an answ`+"\n\n")
	var got collected
	_, err := p.Stream(context.Background(), simple, got.deltas())
	require.Error(t, err)
	assert.Contains(t, chat.ErrorMessage(err), "The model's reply could not be read")
	assert.Contains(t, err.Error(), "not JSON")
	assert.Equal(t, "Half", got.text.String())
}
