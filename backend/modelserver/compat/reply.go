package compat

import (
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// Reply is what a script answers one request with. The zero Reply is an
// empty assistant message with finish_reason "stop".
type Reply struct {
	// Text is the assistant's content. A stream sends it in word-sized
	// chunks (each chunk is a word with the whitespace before it).
	Text string
	// Reasoning is the model's thinking, sent before the text in the
	// shape ReasoningAs names.
	Reasoning string
	// ReasoningAs is how Reasoning is sent: ReasoningContent (the default),
	// ReasoningField, ThinkTags, ThinkClose or ThinkingParts.
	ReasoningAs ReasoningShape
	// StreamError, when set, ends a stream after the text with an error
	// event carrying this message, as OpenRouter reports a provider that
	// failed mid-reply: no tool calls, no finish reason, no [DONE].
	StreamError string
	// Comments sends SSE comment lines (": OPENROUTER PROCESSING") before
	// the first chunk and between the chunks of the text.
	Comments bool
	// ToolCalls are the calls the assistant makes after its text. An empty
	// ID is filled with a fresh "call_..." id and empty Arguments with "{}".
	// A stream sends each call as the API does: a first chunk with index,
	// id, type, function name and empty arguments, then the arguments in
	// several pieces.
	ToolCalls []chat.ToolCall
	// ChunkDelay is slept before every chunk after the first.
	ChunkDelay time.Duration
	// Hurry, once closed, ends ChunkDelay's sleeps: the rest of the reply
	// goes out at once (nil: never).
	Hurry <-chan struct{}
	// HangAfterText makes a stream stop after the text and wait, sending
	// nothing more, until the client goes away (which Server.Disconnects
	// reports) or the server is stopped: a server that stalls between
	// chunks.
	HangAfterText bool
	// Stall makes the server stall before the reply's first byte, until the
	// client goes away or the server is stopped: StallBeforeHeaders sends
	// nothing at all, StallAfterHeaders the status and headers of a stream
	// and then nothing.
	Stall Stall
	// DropAfterText makes a stream stop after the text by breaking the
	// connection: no finish chunk, no [DONE].
	DropAfterText bool

	// Status, when not 0 or 200, answers with that HTTP status and an
	// OpenAI error body instead of a completion.
	Status int
	// ErrorMessage is the error body's message (a default names Status).
	ErrorMessage string
	// ErrorType and ErrorCode override the error body's type and code,
	// which otherwise follow Status the way the real API sets them.
	ErrorType string
	ErrorCode string
	// RetryAfter, when positive, is sent as retry-after-ms and as
	// retry-after (whole seconds, rounded up) with the error status.
	RetryAfter time.Duration

	// Usage is reported as the reply's token usage. When it is zero the
	// server estimates it (about four characters a token).
	Usage chat.Usage
	// FinishReason overrides the finish reason, which is "tool_calls" when
	// there are tool calls and "stop" otherwise.
	FinishReason string
}

// ReasoningShape is one of the ways servers stream a model's thinking.
type ReasoningShape string

// The shapes of Reply.ReasoningAs.
const (
	// ReasoningContent is delta.reasoning_content (DeepSeek, GLM, Kimi, Qwen).
	ReasoningContent ReasoningShape = "reasoning_content"
	// ReasoningField is delta.reasoning (OpenRouter, Groq, gpt-oss).
	ReasoningField ReasoningShape = "reasoning"
	// ThinkTags is <think>…</think> in the content, before the text, sent
	// in pieces that split the tags (local servers without a reasoning
	// parser).
	ThinkTags ReasoningShape = "think"
	// ThinkClose is content that begins inside the block: the reasoning,
	// </think>, then the text (DeepSeek-R1 distills whose template opens
	// the block).
	ThinkClose ReasoningShape = "think-close"
	// ThinkingParts is content as arrays of parts: thinking parts, then
	// text parts (Mistral's Magistral).
	ThinkingParts ReasoningShape = "parts"
)

// Stall is where a reply stalls before its first byte.
type Stall int

// Stalls before the first byte.
const (
	NoStall Stall = iota
	StallBeforeHeaders
	StallAfterHeaders
)

// finishReason returns the reply's finish_reason.
func (r Reply) finishReason() string {
	switch {
	case r.FinishReason != "":
		return r.FinishReason
	case len(r.ToolCalls) > 0:
		return "tool_calls"
	default:
		return "stop"
	}
}

// Failed reports whether the reply is an HTTP error.
func (r Reply) Failed() bool {
	return r.Status != 0 && r.Status != 200
}

// PlanArgs are update_plan arguments for a scripted model: the steps with
// titles, the first done of them done and the next in progress, and the
// note (its success criteria).
func PlanArgs(titles []string, done int, note string) map[string]any {
	steps := make([]map[string]any, len(titles))
	for i, title := range titles {
		status := "pending"
		switch {
		case i < done:
			status = "done"
		case i == done:
			status = "in_progress"
		}
		steps[i] = map[string]any{"title": title, "status": status}
	}
	return map[string]any{"steps": steps, "note": note}
}
