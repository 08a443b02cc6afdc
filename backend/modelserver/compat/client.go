package compat

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// Result is a reply put back together on the client side: from a stream by
// ReadStream, or from either kind of response by Do.
type Result struct {
	// Chunks holds every chunk of a stream in order (nil for a
	// non-streamed reply).
	Chunks []Chunk
	Text   string
	// Reasoning is the thinking the stream sent in a reasoning field or
	// in thinking parts.
	Reasoning    string
	ToolCalls    []chat.ToolCall
	FinishReason string
	// Usage is the reported usage, nil if the stream carried none.
	Usage *Usage
	// Done is true when the stream ended with data: [DONE].
	Done bool
}

// ReadStream reads server-sent events until data: [DONE] or the end of r
// and assembles the reply. It is strict, so tests can use it to check a
// stream's shape: every event must be one chunk object with at most one
// choice; a tool call's first delta must carry its id, type "function" and
// name, and calls must start in index order; nothing may follow the finish
// reason but the usage chunk and [DONE].
func ReadStream(r io.Reader) (Result, error) {
	var res Result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxBody)
	for sc.Scan() {
		line := sc.Text()
		data, ok := strings.CutPrefix(line, "data:")
		if !ok {
			continue // blank separators, comments and other fields
		}
		data = strings.TrimSpace(data)
		if res.Done {
			return res, fmt.Errorf("event after [DONE]: %s", data)
		}
		if data == "[DONE]" {
			res.Done = true
			continue
		}
		var c Chunk
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			return res, fmt.Errorf("bad event %q: %w", data, err)
		}
		res.Chunks = append(res.Chunks, c)
		if err := res.add(c); err != nil {
			return res, err
		}
	}
	return res, sc.Err()
}

// add applies one chunk to the result.
func (res *Result) add(c Chunk) error {
	if c.Object != "chat.completion.chunk" {
		return fmt.Errorf("chunk object is %q", c.Object)
	}
	if c.Usage != nil {
		res.Usage = c.Usage
	}
	if len(c.Choices) > 1 {
		return fmt.Errorf("chunk has %d choices", len(c.Choices))
	}
	if len(c.Choices) == 0 {
		return nil
	}
	if res.FinishReason != "" {
		return errors.New("chunk after the finish reason")
	}
	ch := c.Choices[0]
	if ch.Delta.Content != nil {
		res.Text += *ch.Delta.Content
	}
	for _, r := range []*string{ch.Delta.ReasoningContent, ch.Delta.Reasoning} {
		if r != nil {
			res.Reasoning += *r
		}
	}
	for _, p := range ch.Delta.Parts {
		switch p.Type {
		case "text":
			res.Text += p.Text
		case "thinking":
			for _, q := range p.Thinking {
				res.Reasoning += q.Text
			}
		}
	}
	for _, d := range ch.Delta.ToolCalls {
		switch {
		case d.Index == len(res.ToolCalls):
			if d.ID == "" || d.Type != "function" || d.Function.Name == "" {
				return fmt.Errorf("tool call %d starts without id, type or name: %+v", d.Index, d)
			}
			res.ToolCalls = append(res.ToolCalls, chat.ToolCall{ID: d.ID, Name: d.Function.Name, Arguments: d.Function.Arguments})
		case d.Index >= 0 && d.Index < len(res.ToolCalls):
			if d.ID != "" || d.Function.Name != "" {
				return fmt.Errorf("tool call %d repeats its id or name", d.Index)
			}
			res.ToolCalls[d.Index].Arguments += d.Function.Arguments
		default:
			return fmt.Errorf("tool call index %d out of order", d.Index)
		}
	}
	if ch.FinishReason != nil {
		res.FinishReason = *ch.FinishReason
	}
	return nil
}

// Do sends req to the chat completions endpoint under baseURL (with or
// without /v1) with apiKey as bearer token (none if empty) and returns the
// reply, read with ReadStream when req.Stream is set. An error status
// comes back as an *APIError carrying the response's error body.
func Do(ctx context.Context, baseURL, apiKey string, req *Request) (Result, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return Result{}, err
	}
	url := strings.TrimSuffix(baseURL, "/") + "/chat/completions"
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return Result{}, err
	}
	hr.Header.Set("Content-Type", "application/json")
	if apiKey != "" {
		hr.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		return Result{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var eb ErrorBody
		_ = json.NewDecoder(resp.Body).Decode(&eb)
		e := &APIError{Status: resp.StatusCode, Message: eb.Error.Message, Type: eb.Error.Type}
		if eb.Error.Param != nil {
			e.Param = *eb.Error.Param
		}
		if eb.Error.Code != nil {
			e.Code = *eb.Error.Code
		}
		return Result{}, e
	}
	if req.Stream {
		return ReadStream(resp.Body)
	}
	var c Completion
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		return Result{}, err
	}
	if len(c.Choices) != 1 {
		return Result{}, fmt.Errorf("completion has %d choices", len(c.Choices))
	}
	ch := c.Choices[0]
	res := Result{FinishReason: ch.FinishReason, Usage: &c.Usage, Done: true}
	if ch.Message.Content != nil {
		res.Text = *ch.Message.Content
	}
	for _, tc := range ch.Message.ToolCalls {
		res.ToolCalls = append(res.ToolCalls, chat.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return res, nil
}

// Assistant is the message an assistant reply of text and tool calls
// becomes in the next request's history.
func Assistant(text string, calls []chat.ToolCall) Message {
	m := Message{Role: "assistant"}
	if text != "" {
		m.Content = Text(text)
	}
	for _, tc := range calls {
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: tc.ID, Type: "function", Function: FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
	}
	return m
}

// Message is the reply as it goes into the next request's history.
func (res Result) Message() Message { return Assistant(res.Text, res.ToolCalls) }

// ToolResult is the tool message answering a call.
func ToolResult(callID, content string) Message {
	return Message{Role: "tool", ToolCallID: callID, Content: Text(content)}
}
