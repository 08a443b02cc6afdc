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
	var usage, choices gjson.Result
	fields(gjson.ParseBytes(data), map[string]*gjson.Result{"usage": &usage, "choices": &choices})
	r.usage(usage)
	choices.ForEach(func(_, choice gjson.Result) bool {
		var index, delta, finish gjson.Result
		fields(choice, map[string]*gjson.Result{"index": &index, "delta": &delta, "finish_reason": &finish})
		if index.Int() == 0 {
			d := deltaOf(delta)
			r.reply.delta(d)
			d.toolCalls.ForEach(func(_, tc gjson.Result) bool {
				r.toolCall(tc)
				return true
			})
			if f := finish.String(); f != "" {
				r.resp.FinishReason = f
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
	var d delta
	fields(obj, map[string]*gjson.Result{
		"content": &d.content, "tool_calls": &d.toolCalls,
		"reasoning_content": &d.reasoningContent, "reasoning": &d.reasoning, "reasoning_details": &d.reasoningDetails,
	})
	return d
}

// usage keeps the chunk's usage, when it has one.
func (r *replyOf) usage(u gjson.Result) {
	var prompt, completion, total gjson.Result
	fields(u, map[string]*gjson.Result{"prompt_tokens": &prompt, "completion_tokens": &completion, "total_tokens": &total})
	if total.Int() > 0 || prompt.Int() > 0 {
		r.resp.Usage = chat.Usage{PromptTokens: prompt.Int(), CompletionTokens: completion.Int(), TotalTokens: total.Int()}
	}
}

// toolCall adds one delta of a tool call to the call of its index.
func (r *replyOf) toolCall(tc gjson.Result) {
	var index, id, function gjson.Result
	fields(tc, map[string]*gjson.Result{"index": &index, "id": &id, "function": &function})
	i := index.Int()
	c := r.calls[i]
	if c == nil {
		c = &chat.ToolCall{}
		r.calls[i] = c
	}
	if s := id.String(); s != "" {
		c.ID = s
	}
	var name, args gjson.Result
	fields(function, map[string]*gjson.Result{"name": &name, "arguments": &args})
	if s := name.String(); s != "" {
		c.Name = s
	}
	c.Arguments += args.String()
}

// fields reads the object's fields named in into, in one pass over it (a
// Get each would scan the object again). A field named twice is read as
// openai-go read it: the first.
func fields(obj gjson.Result, into map[string]*gjson.Result) {
	if !obj.IsObject() {
		return
	}
	obj.ForEach(func(key, value gjson.Result) bool {
		if dst, ok := into[key.Str]; ok && !dst.Exists() {
			*dst = value
		}
		return true
	})
}
