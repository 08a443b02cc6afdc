package openai

import (
	"bytes"
	"context"
	"fmt"
	"net/http"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	oa "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/tidwall/gjson"
)

// The streamed chunks are read with gjson, the JSON reader openai-go itself
// parses with, rather than as openai-go's ChatCompletionChunk: that type
// reads each chunk by reflection, field by field, and its stream checks and
// copies each chunk with encoding/json first. While a fast reply streamed,
// that was 40% of Go's CPU. gjson reads each object once, for the fields
// used. As openai-go's type did, a value of an unexpected type reads as
// empty and does not fail the reply.

// chunks is a call's stream of chunks: openai-go's request (its retries,
// headers and errors) and its reader of server-sent events.
type chunks struct {
	events ssestream.Decoder
	err    error
	data   []byte
}

// newChunks sends the request as openai-go's streaming call does.
func (p *Provider) newChunks(ctx context.Context, params oa.ChatCompletionNewParams) *chunks {
	var raw *http.Response
	err := p.client.Post(ctx, "chat/completions", params, &raw, option.WithJSONSet("stream", true))
	return &chunks{events: ssestream.NewDecoder(raw), err: err}
}

// next reads the next chunk into data; false at the stream's end ([DONE]
// or the body's) or at an error (err), as openai-go's stream reads them:
// an event with an "error" field is the server's error.
func (c *chunks) next() bool {
	if c.err != nil || c.events == nil || !c.events.Next() {
		if c.err == nil && c.events != nil {
			c.err = c.events.Err()
		}
		return false
	}
	ev := c.events.Event()
	switch {
	case bytes.HasPrefix(ev.Data, []byte("[DONE]")):
		return false
	case !gjson.ValidBytes(ev.Data):
		c.err = fmt.Errorf("the server sent a chunk that is not JSON: %.120q", ev.Data)
		return false
	}
	if e := gjson.GetBytes(ev.Data, "error"); e.Exists() {
		c.err = &ssestream.StreamError{Message: "received error while streaming: " + e.String(), Event: ev}
		return false
	}
	c.data = ev.Data
	return true
}

// close closes the response's body.
func (c *chunks) close() {
	if c.events != nil {
		_ = c.events.Close()
	}
}

// replyOf gathers one streamed reply: its text and reasoning (reply), its
// tool calls by index, its usage and finish reason (resp).
type replyOf struct {
	reply *replyReader
	calls map[int64]*chat.ToolCall
	resp  llm.Response
}

// chunk reads one chunk: the usage, and the first choice's delta and
// finish reason (a server asked for one choice may still number others).
func (r *replyOf) chunk(data []byte) {
	f := fieldsOf(gjson.ParseBytes(data), "usage", "choices")
	r.usage(f[0])
	f[1].ForEach(func(_, choice gjson.Result) bool {
		c := fieldsOf(choice, "index", "delta", "finish_reason")
		if c[0].Int() == 0 {
			d := deltaOf(c[1])
			r.reply.delta(d)
			d.toolCalls.ForEach(func(_, tc gjson.Result) bool {
				r.toolCall(tc)
				return true
			})
			if s := c[2].String(); s != "" {
				r.resp.FinishReason = s
			}
		}
		return true
	})
}

// delta is the fields of a choice's delta that are read.
type delta struct {
	content, toolCalls gjson.Result
	// The reasoning's fields (see fieldReasoning).
	reasoningContent, reasoning, reasoningDetails gjson.Result
}

func deltaOf(obj gjson.Result) delta {
	f := fieldsOf(obj, "content", "tool_calls", "reasoning_content", "reasoning", "reasoning_details")
	return delta{content: f[0], toolCalls: f[1], reasoningContent: f[2], reasoning: f[3], reasoningDetails: f[4]}
}

// usage keeps the chunk's usage, when it has one.
func (r *replyOf) usage(u gjson.Result) {
	f := fieldsOf(u, "prompt_tokens", "completion_tokens", "total_tokens",
		"prompt_tokens_details", "completion_tokens_details", "prompt_cache_hit_tokens")
	n := counts{prompt: f[0].Int(), completion: f[1].Int(), total: f[2].Int(), cacheHit: f[5].Int()}
	n.cached = fieldsOf(f[3], "cached_tokens")[0].Int()
	n.reasoning = fieldsOf(f[4], "reasoning_tokens")[0].Int()
	if n.total > 0 || n.prompt > 0 {
		r.resp.Usage = n.usage()
	}
}

// counts are the token counts of a chunk's usage.
type counts struct {
	prompt, completion, total int64
	// cached is prompt_tokens_details.cached_tokens (OpenAI's and most
	// servers'), cacheHit DeepSeek's prompt_cache_hit_tokens; reasoning is
	// completion_tokens_details.reasoning_tokens.
	cached, cacheHit, reasoning int64
}

// usage is the counts as Errand counts them: the whole prompt with the
// part read from the cache, the whole completion with its reasoning. Most
// servers count so, and their total is the prompt and the completion. Two
// kinds count apart, which their total shows:
//   - prompt_tokens without the cached tokens (GLM behind some routers):
//     the total adds the cached tokens;
//   - completion_tokens without the reasoning (xAI): the total adds the
//     reasoning tokens.
//
// A total that neither explains is kept as the server sent it.
func (n counts) usage() chat.Usage {
	cached := n.cached
	if cached == 0 {
		cached = n.cacheHit
	}
	prompt, completion := n.prompt, n.completion
	switch apart := n.total - prompt - completion; {
	case apart <= 0:
	case apart == cached:
		prompt += cached
	case apart == n.reasoning:
		completion += n.reasoning
	}
	return chat.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: max(n.total, prompt+completion),
		CacheReadTokens: min(cached, prompt)}
}

// toolCall adds one delta of a tool call to the call of its index.
func (r *replyOf) toolCall(tc gjson.Result) {
	f := fieldsOf(tc, "index", "id", "function")
	i := f[0].Int()
	c := r.calls[i]
	if c == nil {
		c = &chat.ToolCall{}
		r.calls[i] = c
	}
	if s := f[1].String(); s != "" {
		c.ID = s
	}
	fn := fieldsOf(f[2], "name", "arguments")
	if s := fn[0].String(); s != "" {
		c.Name = s
	}
	c.Arguments += fn[1].String()
}

// maxFields is the most fields read from one object.
const maxFields = 6

// fieldsOf reads the named fields of an object in one pass over it (a Get
// each would scan it again): the i-th value is the field names[i], empty
// when the object has none (or obj is no object). A field named twice is
// read as openai-go read it, the first.
func fieldsOf(obj gjson.Result, names ...string) (values [maxFields]gjson.Result) {
	if !obj.IsObject() {
		return values
	}
	obj.ForEach(func(key, value gjson.Result) bool {
		for i, name := range names {
			if key.Str == name {
				if !values[i].Exists() {
					values[i] = value
				}
				break
			}
		}
		return true
	})
	return values
}
