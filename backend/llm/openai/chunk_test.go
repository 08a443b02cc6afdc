package openai

import (
	"context"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
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

// Usage is read whole: the prompt with the part read from the cache, the
// completion with its reasoning, whichever way the server counts them
// (hand-written after the shapes real servers send).
func TestUsageIsReadWholeWhicheverWayTheServerCounts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, usage string
		want        chat.Usage
	}{
		{"the cached part of the prompt (OpenAI)",
			`{"prompt_tokens":900,"completion_tokens":40,"total_tokens":940,"prompt_tokens_details":{"cached_tokens":768},"completion_tokens_details":{"reasoning_tokens":30}}`,
			chat.Usage{PromptTokens: 900, CompletionTokens: 40, TotalTokens: 940, CacheReadTokens: 768}},
		{"cache hits named apart (DeepSeek)",
			`{"prompt_tokens":900,"completion_tokens":40,"total_tokens":940,"prompt_cache_hit_tokens":640,"prompt_cache_miss_tokens":260}`,
			chat.Usage{PromptTokens: 900, CompletionTokens: 40, TotalTokens: 940, CacheReadTokens: 640}},
		{"a prompt counted without its cached part (GLM behind a router)",
			`{"prompt_tokens":96,"completion_tokens":258,"total_tokens":482,"prompt_tokens_details":{"cached_tokens":128},"completion_tokens_details":{"reasoning_tokens":238}}`,
			chat.Usage{PromptTokens: 224, CompletionTokens: 258, TotalTokens: 482, CacheReadTokens: 128}},
		{"a completion counted without its reasoning (xAI)",
			`{"prompt_tokens":12,"completion_tokens":2,"total_tokens":354,"prompt_tokens_details":{"text_tokens":12,"cached_tokens":11},"completion_tokens_details":{"reasoning_tokens":340}}`,
			chat.Usage{PromptTokens: 12, CompletionTokens: 342, TotalTokens: 354, CacheReadTokens: 11}},
		{"a total that nothing explains is kept",
			`{"prompt_tokens":10,"completion_tokens":5,"total_tokens":20}`,
			chat.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 20}},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := strings.TrimSuffix(events(`{"content":"Four."}`), "data: [DONE]\n\n") +
				`data: {"choices":[],"usage":` + c.usage + "}\n\ndata: [DONE]\n\n"
			resp, err := sse(t, body).Stream(context.Background(), simple, llm.Deltas{})
			require.NoError(t, err)
			assert.Equal(t, c.want, resp.Usage)
		})
	}
}
