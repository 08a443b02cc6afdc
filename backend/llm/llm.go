// Package llm is the provider-neutral face of a chat model: a request of
// messages and tool definitions, a streamed reply of text and tool calls.
// Adapters (openai/) implement Provider; the agent never sees a vendor type.
package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// Message is one entry of the model's context.
type Message struct {
	Role       chat.Role // system, user, assistant or tool
	Content    string
	ToolCalls  []chat.ToolCall // assistant only
	ToolCallID string          // tool only
	// Reasoning is the thinking that came with an assistant message. The
	// adapter decides whether the server needs it back (DeepSeek's thinking
	// mode wants it on the tool-call messages of the current turn).
	Reasoning string
	// ReasoningData is a provider's own record of that thinking, opaque to
	// everyone else (Anthropic's signed thinking blocks, as JSON); it is
	// passed back only to the provider that wrote it.
	ReasoningData string
	// Images go with a user message as image parts, after its text (the
	// images the person attached), or with a tool message (the images a
	// tool returned); each adapter carries them as its API can.
	Images []Image
}

// Image is an image as the model is sent it: already downscaled and
// re-encoded for models (see backend/attach), Data its encoded bytes.
type Image struct {
	Mime string // image/png, image/jpeg, image/gif or image/webp
	Data []byte
	// Width and Height are the image's as sent, for the token estimate.
	Width, Height int
	// Name says which file it is, for notices; it is never sent.
	Name string
}

// ErrNoImages is in the chain of a Provider's error when the server said
// the model does not take image input.
var ErrNoImages = errors.New("the model does not take images")

// WithoutImages is msgs with every image replaced by a note of it in the
// text, for a model that does not take images: the person sees why the
// model did not look at them.
func WithoutImages(msgs []Message) []Message {
	out := make([]Message, len(msgs))
	for i, m := range msgs {
		if len(m.Images) > 0 {
			for _, img := range m.Images {
				m.Content += fmt.Sprintf("\n[Image %q not shown: this model does not take images.]", img.Name)
			}
			m.Images = nil
		}
		out[i] = m
	}
	return out
}

// HasImages reports whether any message carries an image.
func HasImages(msgs []Message) bool {
	for _, m := range msgs {
		if len(m.Images) > 0 {
			return true
		}
	}
	return false
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
	// ToolsKey, when set, names Tools: two requests with the same key
	// carry the same tools, so a provider may encode them once and keep
	// the encoding. "" promises nothing.
	ToolsKey string
	// ReasoningEffort is "low", "medium" or "high" when the person set one
	// for the model; "" sends none (the server's default).
	ReasoningEffort string
}

// Response is the model's whole reply once the stream has ended.
type Response struct {
	// Content is the answer; it never holds the reasoning.
	Content string
	// Reasoning is the model's thinking, apart from the answer.
	Reasoning string
	// ReasoningData: see Message.ReasoningData.
	ReasoningData string
	ToolCalls     []chat.ToolCall
	Usage         chat.Usage
	FinishReason  string
}

// ErrContextFull is in the chain of a Provider's error when the server
// said the request is longer than the model's context length.
var ErrContextFull = errors.New("the request is longer than the model's context length")

// ContextFullError is in the chain of a Provider's error when the server
// said the request is too long and named the model's context length.
// errors.Is(err, ErrContextFull) holds for it too.
type ContextFullError struct {
	// Limit is the context length the server stated, in tokens.
	Limit int
}

func (e *ContextFullError) Error() string {
	return fmt.Sprintf("%v (the server's limit is %d tokens)", ErrContextFull, e.Limit)
}

// Is makes a ContextFullError an ErrContextFull.
func (e *ContextFullError) Is(target error) bool { return target == ErrContextFull }

// StatedContextLimit is the context length a server stated when it found
// a request too long, or 0 when it named none.
func StatedContextLimit(err error) int {
	var e *ContextFullError
	if errors.As(err, &e) {
		return e.Limit
	}
	return 0
}

// ErrNoTools is in the chain of a Provider's error when the server said
// the model does not support tools (function calling).
var ErrNoTools = errors.New("the model does not support tools")

// ErrStalled is in the chain of a Provider's error when the model server
// stopped sending: nothing arrived within the first-byte timeout, or
// between two pieces of the reply within the idle timeout.
var ErrStalled = errors.New("the model server stopped answering")

// StallError is a call cut because the server fell silent; errors.Is
// finds ErrStalled in it.
type StallError struct {
	// Silence is how long nothing arrived before the call was cut.
	Silence time.Duration
	// FirstByte is true when not one byte of the reply had come.
	FirstByte bool
}

func (e *StallError) Error() string {
	if e.FirstByte {
		return fmt.Sprintf("the model server sent nothing for %s after the request", Seconds(e.Silence))
	}
	return fmt.Sprintf("the model server sent nothing more for %s in the middle of its reply", Seconds(e.Silence))
}

// Unwrap makes errors.Is(err, ErrStalled) true.
func (e *StallError) Unwrap() error { return ErrStalled }

// Seconds writes d for a person: "45 s", or "0.2 s" under ten seconds when
// it is not whole.
func Seconds(d time.Duration) string {
	s := d.Seconds()
	if s < 10 && s != float64(int(s)) {
		return fmt.Sprintf("%.1f s", s)
	}
	return fmt.Sprintf("%d s", int(s+0.5))
}

// Deltas receives a reply as it streams, in order, on the calling
// goroutine. A nil func drops what it would receive.
type Deltas struct {
	Text      func(string) // the answer
	Reasoning func(string) // the thinking, before or between the answer's parts
}

// OnText passes s to Text when there is one.
func (d Deltas) OnText(s string) {
	if d.Text != nil && s != "" {
		d.Text(s)
	}
}

// OnReasoning passes s to Reasoning when there is one.
func (d Deltas) OnReasoning(s string) {
	if d.Reasoning != nil && s != "" {
		d.Reasoning(s)
	}
}

// Provider streams one reply to out. Stream returns when the reply is complete, the
// context is cancelled (ctx.Err() is returned, wrapped or not) or the model
// fails (a *chat.Error with CodeModel and a message a person understands).
type Provider interface {
	Stream(ctx context.Context, req Request, out Deltas) (Response, error)
	// Model names the model the provider talks to.
	Model() string
}

// ContextReporter is a Provider that knows its model's context length as
// the model server reported it; 0 means it does not.
type ContextReporter interface {
	ReportedContextLength() int
}

// ErrKeyRefused is wrapped by the error of a request a model server refused
// for its credentials (HTTP 401 or 403), whichever adapter met it.
var ErrKeyRefused = errors.New("the model server refused the request's credentials")

// StatusMessage is what a person is told of an HTTP error status from a
// model server, the same whichever adapter met it (an adapter tells its own
// special cases first: a full context, no tools, overloaded). notFound says
// what else a 404 may mean, e.g. "is not an OpenAI-compatible address".
func StatusMessage(code int, model, baseURL, notFound string) string {
	switch {
	case code == http.StatusUnauthorized:
		return "The model server rejected the API key"
	case code == http.StatusForbidden:
		return "The model server refused access with this API key"
	case code == http.StatusNotFound:
		return fmt.Sprintf("The model server does not know the model %q (or %s %s)", model, baseURL, notFound)
	case code == http.StatusTooManyRequests:
		return "The model server is rate limiting requests; try again in a moment"
	case code >= 500:
		return fmt.Sprintf("The model server failed (HTTP %d)", code)
	default:
		return fmt.Sprintf("The model server rejected the request (HTTP %d)", code)
	}
}

// KeyRefusal is err, marked with ErrKeyRefused when code is 401 or 403.
func KeyRefusal(code int, err error) error {
	if code == http.StatusUnauthorized || code == http.StatusForbidden {
		return fmt.Errorf("%w: %w", ErrKeyRefused, err)
	}
	return err
}

// RefusesImages recognises the servers' wording for a model that does not
// take images: OpenAI's "image_url is only supported by certain models",
// Ollama's "this model does not support image input", LM Studio's "Model
// does not support images", llama.cpp's "image input is not supported",
// and DeepSeek's "unknown variant `image_url`". A refusal of one image's
// format ("unsupported image format") is not one: the model takes images.
func RefusesImages(detail string) bool {
	d := strings.ToLower(detail)
	for _, w := range []string{"image_url is only supported by certain models", "does not support image",
		"doesn't support image", "image input is not supported", "unknown variant `image_url`",
		"does not support vision", "vision is not supported"} {
		if strings.Contains(d, w) {
			return true
		}
	}
	return false
}

// textOnlyModels are model families known not to take images, matched at
// the start of the model's name (after a provider prefix such as
// "openai/"). A model not listed is sent images: new models appear every
// week, and one that refuses them is found out from its server's answer.
var textOnlyModels = []string{"gpt-3.5", "gpt-4-0613", "gpt-4-32k", "o1-mini", "o3-mini", "deepseek-chat", "deepseek-reasoner",
	"deepseek-coder", "codellama", "qwen2.5-coder", "mistral-7b", "mixtral"}

// TextOnly reports a model known not to take images.
func TextOnly(model string) bool {
	m := strings.ToLower(model)
	if i := strings.LastIndex(m, "/"); i >= 0 {
		m = m[i+1:]
	}
	for _, p := range textOnlyModels {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}
