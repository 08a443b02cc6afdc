package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// block is one content block of the reply as it streams.
type block struct {
	kind      string // text, thinking, redacted_thinking, tool_use (others are ignored)
	text      strings.Builder
	thinking  strings.Builder
	signature strings.Builder
	data      string // redacted_thinking
	id, name  string // tool_use
	input     strings.Builder
}

// reply gathers the stream's events into an llm.Response.
type reply struct {
	blocks     []*block
	byIndex    map[int64]*block
	usage      sdk.Usage
	stopReason string
	thinks     int // thinking blocks so far
}

// apply takes one event, passing text and thinking on to out as they come.
func (r *reply) apply(ev sdk.MessageStreamEventUnion, out llm.Deltas) {
	switch ev.Type {
	case "message_start":
		r.usage = ev.Message.Usage
	case "content_block_start":
		b := &block{kind: ev.ContentBlock.Type, id: ev.ContentBlock.ID, name: ev.ContentBlock.Name,
			data: ev.ContentBlock.Data}
		if b.kind == "thinking" && r.thinks > 0 {
			// Thinking blocks are joined by a blank line, live as stored.
			out.OnReasoning("\n\n")
		}
		if b.kind == "thinking" {
			r.thinks++
		}
		// A block may start with some of its text (the API sends it empty).
		b.text.WriteString(ev.ContentBlock.Text)
		out.OnText(ev.ContentBlock.Text)
		b.thinking.WriteString(ev.ContentBlock.Thinking)
		out.OnReasoning(ev.ContentBlock.Thinking)
		b.signature.WriteString(ev.ContentBlock.Signature)
		if r.byIndex == nil {
			r.byIndex = map[int64]*block{}
		}
		r.byIndex[ev.Index] = b
		r.blocks = append(r.blocks, b)
	case "content_block_delta":
		b := r.byIndex[ev.Index]
		if b == nil {
			return
		}
		d := ev.Delta
		switch d.Type {
		case "text_delta":
			b.text.WriteString(d.Text)
			out.OnText(d.Text)
		case "thinking_delta":
			b.thinking.WriteString(d.Thinking)
			out.OnReasoning(d.Thinking)
		case "signature_delta":
			b.signature.WriteString(d.Signature)
		case "input_json_delta":
			b.input.WriteString(d.PartialJSON)
		}
	case "message_delta":
		if ev.Delta.StopReason != "" {
			r.stopReason = string(ev.Delta.StopReason)
		}
		// message_delta's counts are totals for the whole message; those it
		// leaves out keep message_start's word.
		u := ev.Usage
		r.usage.OutputTokens = u.OutputTokens
		if u.JSON.InputTokens.Valid() {
			r.usage.InputTokens = u.InputTokens
		}
		if u.JSON.CacheReadInputTokens.Valid() {
			r.usage.CacheReadInputTokens = u.CacheReadInputTokens
		}
		if u.JSON.CacheCreationInputTokens.Valid() {
			r.usage.CacheCreationInputTokens = u.CacheCreationInputTokens
		}
	}
}

// thinkingBlock is a thinking or redacted_thinking block as ReasoningData
// keeps it: exactly what the API needs back.
type thinkingBlock struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	Data      string `json:"data,omitempty"`
}

// response is what the stream said so far.
func (r *reply) response() llm.Response {
	var resp llm.Response
	var text, reasoning []string
	var kept []thinkingBlock
	for i, b := range r.blocks {
		switch b.kind {
		case "text":
			text = append(text, b.text.String())
		case "thinking":
			reasoning = append(reasoning, b.thinking.String())
			kept = append(kept, thinkingBlock{Type: "thinking", Thinking: b.thinking.String(), Signature: b.signature.String()})
		case "redacted_thinking":
			kept = append(kept, thinkingBlock{Type: "redacted_thinking", Data: b.data})
		case "tool_use":
			resp.ToolCalls = append(resp.ToolCalls, b.call(i))
		}
	}
	resp.Content = strings.Join(text, "")
	resp.Reasoning = strings.Join(reasoning, "\n\n")
	if len(kept) > 0 {
		data, _ := json.Marshal(kept)
		resp.ReasoningData = string(data)
	}
	resp.Usage = usageOf(r.usage)
	resp.FinishReason = finishReason(r.stopReason)
	return resp
}

// call is a tool_use block as a tool call. Arguments arrive as pieces of
// JSON; a call without any has the empty object.
func (b *block) call(i int) chat.ToolCall {
	c := chat.ToolCall{ID: b.id, Name: b.name, Arguments: strings.TrimSpace(b.input.String())}
	if c.Arguments == "" {
		c.Arguments = "{}"
	}
	if c.ID == "" {
		c.ID = fmt.Sprintf("toolu_%d", i)
	}
	return c
}

// usageOf counts the whole prompt as PromptTokens, as OpenAI-compatible
// servers do: Anthropic's input_tokens leaves out what was read from or
// written to the cache, which the two cache counts tell apart.
func usageOf(u sdk.Usage) chat.Usage {
	prompt := u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens
	return chat.Usage{
		PromptTokens:     prompt,
		CompletionTokens: u.OutputTokens,
		TotalTokens:      prompt + u.OutputTokens,
		CacheReadTokens:  u.CacheReadInputTokens,
		CacheWriteTokens: u.CacheCreationInputTokens,
	}
}

// finishReason names a stop_reason the way the OpenAI adapter does.
func finishReason(stop string) string {
	switch stop {
	case "end_turn", "stop_sequence":
		return "stop"
	case "tool_use":
		return "tool_calls"
	case "max_tokens":
		return "length"
	default:
		return stop
	}
}
