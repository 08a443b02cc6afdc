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
	fields(gjson.ParseBytes(data), func(key string, v gjson.Result) {
		switch key {
		case "usage":
			usage = first(usage, v)
		case "choices":
			choices = first(choices, v)
		}
	})
	r.usage(usage)
	choices.ForEach(func(_, choice gjson.Result) bool {
		var index, delta, finish gjson.Result
		fields(choice, func(key string, v gjson.Result) {
			switch key {
			case "index":
				index = first(index, v)
			case "delta":
				delta = first(delta, v)
			case "finish_reason":
				finish = first(finish, v)
			}
		})
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
	fields(obj, func(key string, v gjson.Result) {
		switch key {
		case "content":
			d.content = first(d.content, v)
		case "tool_calls":
			d.toolCalls = first(d.toolCalls, v)
		case "reasoning_content":
			d.reasoningContent = first(d.reasoningContent, v)
		case "reasoning":
			d.reasoning = first(d.reasoning, v)
		case "reasoning_details":
			d.reasoningDetails = first(d.reasoningDetails, v)
		}
	})
	return d
}

// usage keeps the chunk's usage, when it has one.
func (r *replyOf) usage(u gjson.Result) {
	var prompt, completion, total gjson.Result
	fields(u, func(key string, v gjson.Result) {
		switch key {
		case "prompt_tokens":
			prompt = first(prompt, v)
		case "completion_tokens":
			completion = first(completion, v)
		case "total_tokens":
			total = first(total, v)
		}
	})
	if total.Int() > 0 || prompt.Int() > 0 {
		r.resp.Usage = chat.Usage{PromptTokens: prompt.Int(), CompletionTokens: completion.Int(), TotalTokens: total.Int()}
	}
}

// toolCall adds one delta of a tool call to the call of its index.
func (r *replyOf) toolCall(tc gjson.Result) {
	var index, id, function gjson.Result
	fields(tc, func(key string, v gjson.Result) {
		switch key {
		case "index":
			index = first(index, v)
		case "id":
			id = first(id, v)
		case "function":
			function = first(function, v)
		}
	})
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
	fields(function, func(key string, v gjson.Result) {
		switch key {
		case "name":
			name = first(name, v)
		case "arguments":
			args = first(args, v)
		}
	})
	if s := name.String(); s != "" {
		c.Name = s
	}
	c.Arguments += args.String()
}

// fields passes each of the object's fields to read, in one pass over it
// (a Get each would scan the object again); nothing when it is no object.
func fields(obj gjson.Result, read func(key string, value gjson.Result)) {
	if !obj.IsObject() {
		return
	}
	obj.ForEach(func(key, value gjson.Result) bool {
		read(key.Str, value)
		return true
	})
}

// first is a field read again: the value already read, if any. A field
// named twice is read as openai-go read it, the first.
func first(had, v gjson.Result) gjson.Result {
	if had.Exists() {
		return had
	}
	return v
}
