// Package llm is the provider-neutral face of a chat model: a request of
// messages and tool definitions, a streamed reply of text and tool calls.
// Adapters (openai/) implement Provider; the agent never sees a vendor type.
package llm

import (
	"context"
	"errors"

	"github.com/errand-app/errand/backend/chat"
)

// Message is one entry of the model's context.
type Message struct {
	Role       chat.Role // system, user, assistant or tool
	Content    string
	ToolCalls  []chat.ToolCall // assistant only
	ToolCallID string          // tool only
}

// Tool is a function the model may call. Parameters is a JSON schema of
// type "object".
type Tool struct {
	Name        string
	Description string
	Parameters  map[string]any
}

// Request is one call to the model.
type Request struct {
	Messages []Message
	Tools    []Tool
}

// Response is the model's whole reply once the stream has ended.
type Response struct {
	Content      string
	ToolCalls    []chat.ToolCall
	Usage        chat.Usage
	FinishReason string
}

// ErrContextFull is in the chain of a Provider's error when the server
// said the request is longer than the model's context length.
var ErrContextFull = errors.New("the request is longer than the model's context length")

// ErrNoTools is in the chain of a Provider's error when the server said
// the model does not support tools (function calling).
var ErrNoTools = errors.New("the model does not support tools")

// Provider streams one reply. onText receives text as it arrives, in order,
// on the calling goroutine. Stream returns when the reply is complete, the
// context is cancelled (ctx.Err() is returned, wrapped or not) or the model
// fails (a *chat.Error with CodeModel and a message a person understands).
type Provider interface {
	Stream(ctx context.Context, req Request, onText func(string)) (Response, error)
	// Model names the model the provider talks to.
	Model() string
}

// ContextReporter is a Provider that knows its model's context length as
// the model server reported it; 0 means it does not.
type ContextReporter interface {
	ReportedContextLength() int
}
