package anthropic_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/llm/anthropic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawStream is a hand-written Messages API stream with every event type,
// pings between them, a block type and an event type this adapter does not
// know, and tool input cut inside a key and inside a value.
const rawStream = `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"cache_creation_input_tokens":300,"cache_read_input_tokens":2000,"output_tokens":1}}}

event: ping
data: {"type": "ping"}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user wants "}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"the weather."}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM1gbcDa9GJwZA2b3h"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"future_block","payload":{"x":1}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"future_delta","stuff":"ignored"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: content_block_start
data: {"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Let me "}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"check."}}

event: content_block_stop
data: {"type":"content_block_stop","index":2}

event: content_block_start
data: {"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_01A","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"loca"}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"tion\": \"San Fra"}}

event: content_block_delta
data: {"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"ncisco\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":3}

event: future_event
data: {"type":"future_event","anything":true}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}

event: message_stop
data: {"type":"message_stop"}

`

func TestAHandWrittenStreamOfEveryEventType(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		// In pieces that cut events, lines and JSON apart.
		for rest := rawStream; rest != ""; {
			n := min(len(rest), 37)
			_, _ = io.WriteString(w, rest[:n])
			w.(http.Flusher).Flush()
			rest = rest[n:]
		}
	}))
	t.Cleanup(srv.Close)
	p := anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: key, Model: "claude-test", MaxRetries: -1})
	var thought, said strings.Builder
	resp, err := p.Stream(context.Background(), userAsks("weather in SF?"), llm.Deltas{
		Reasoning: func(s string) { thought.WriteString(s) }, Text: func(s string) { said.WriteString(s) }})
	require.NoError(t, err)
	assert.Equal(t, "The user wants the weather.", thought.String())
	assert.Equal(t, "Let me check.", said.String())
	assert.Equal(t, "Let me check.", resp.Content)
	assert.Equal(t, "The user wants the weather.", resp.Reasoning)
	assert.JSONEq(t, `[{"type":"thinking","thinking":"The user wants the weather.","signature":"EqQBCgIYAhIM1gbcDa9GJwZA2b3h"}]`, resp.ReasoningData)
	assert.Equal(t, []chat.ToolCall{{ID: "toolu_01A", Name: "get_weather", Arguments: `{"location": "San Francisco"}`}}, resp.ToolCalls)
	assert.Equal(t, "tool_calls", resp.FinishReason)
	assert.Equal(t, chat.Usage{PromptTokens: 2312, CompletionTokens: 89, TotalTokens: 2401,
		CacheReadTokens: 2000, CacheWriteTokens: 300}, resp.Usage, "message_start's prompt counts stand; message_delta's output total wins")
}
