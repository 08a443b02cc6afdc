package compat

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/errand-app/errand/backend/contextwin"
)

// Request is the body of POST /v1/chat/completions. Fields the server does
// not act on are kept raw so that a request the real API accepts still
// decodes; anything else is an unknown field and is rejected.
type Request struct {
	Model               string          `json:"model"`
	Messages            []Message       `json:"messages"`
	Tools               []Tool          `json:"tools,omitempty"`
	ToolChoice          json.RawMessage `json:"tool_choice,omitempty"`
	ParallelToolCalls   *bool           `json:"parallel_tool_calls,omitempty"`
	Stream              bool            `json:"stream,omitempty"`
	StreamOptions       *StreamOptions  `json:"stream_options,omitempty"`
	Temperature         *float64        `json:"temperature,omitempty"`
	TopP                *float64        `json:"top_p,omitempty"`
	MaxTokens           *int64          `json:"max_tokens,omitempty"`
	MaxCompletionTokens *int64          `json:"max_completion_tokens,omitempty"`
	N                   *int64          `json:"n,omitempty"`
	Stop                json.RawMessage `json:"stop,omitempty"`
	Seed                *int64          `json:"seed,omitempty"`
	User                string          `json:"user,omitempty"`
	ResponseFormat      json.RawMessage `json:"response_format,omitempty"`
	Metadata            json.RawMessage `json:"metadata,omitempty"`
	Store               *bool           `json:"store,omitempty"`
	FrequencyPenalty    *float64        `json:"frequency_penalty,omitempty"`
	PresencePenalty     *float64        `json:"presence_penalty,omitempty"`
	LogitBias           json.RawMessage `json:"logit_bias,omitempty"`
	Logprobs            *bool           `json:"logprobs,omitempty"`
	TopLogprobs         *int64          `json:"top_logprobs,omitempty"`
	Modalities          json.RawMessage `json:"modalities,omitempty"`
	Prediction          json.RawMessage `json:"prediction,omitempty"`
	Audio               json.RawMessage `json:"audio,omitempty"`
	ReasoningEffort     string          `json:"reasoning_effort,omitempty"`
	ServiceTier         string          `json:"service_tier,omitempty"`
	Verbosity           string          `json:"verbosity,omitempty"`
	PromptCacheKey      string          `json:"prompt_cache_key,omitempty"`
	SafetyIdentifier    string          `json:"safety_identifier,omitempty"`
	WebSearchOptions    json.RawMessage `json:"web_search_options,omitempty"`
}

// StreamOptions is the stream_options object.
type StreamOptions struct {
	IncludeUsage       bool `json:"include_usage,omitempty"`
	IncludeObfuscation bool `json:"include_obfuscation,omitempty"`
}

// Message is one entry of Request.Messages.
type Message struct {
	Role       string     `json:"role"`
	Content    Content    `json:"content"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	// ReasoningContent is an assistant message's thinking, passed back. A
	// thinking server (Server.Thinking) requires it where DeepSeek does;
	// any other server rejects it as an unknown field, as strict servers do.
	ReasoningContent *string `json:"reasoning_content,omitempty"`
	// Refusal, Audio and FunctionCall are accepted and ignored.
	Refusal      *string         `json:"refusal,omitempty"`
	Audio        json.RawMessage `json:"audio,omitempty"`
	FunctionCall json.RawMessage `json:"function_call,omitempty"`
}

// Text returns the message's text content ("" when it has none).
func (m Message) Text() string { return m.Content.Text }

// Content is a message's content, which the API accepts as a string, as an
// array of content parts, or (for assistant messages with tool calls) as
// null or absent.
type Content struct {
	// Text is the string content, or the text of all "text" parts joined.
	Text string
	// Parts holds the parts when the content was sent as an array; it is
	// nil for string or missing content.
	Parts []ContentPart
	// Set is true when the content was a string or an array, false when it
	// was absent or null.
	Set bool
}

// Text returns string content, as a client would send it.
func Text(s string) Content { return Content{Text: s, Set: true} }

// ContentPart is one element of array content. Only "text" parts carry
// text the server looks at; the others are kept raw.
type ContentPart struct {
	Type       string          `json:"type"`
	Text       string          `json:"text,omitempty"`
	Refusal    string          `json:"refusal,omitempty"`
	ImageURL   json.RawMessage `json:"image_url,omitempty"`
	InputAudio json.RawMessage `json:"input_audio,omitempty"`
	File       json.RawMessage `json:"file,omitempty"`
}

// UnmarshalJSON accepts a string, an array of parts, or null.
func (c *Content) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case bytes.Equal(data, []byte("null")):
		*c = Content{}
	case len(data) > 0 && data[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*c = Text(s)
	case len(data) > 0 && data[0] == '[':
		var parts []ContentPart
		if err := strictUnmarshal(data, &parts); err != nil {
			return err
		}
		var b strings.Builder
		for _, p := range parts {
			if p.Type == "text" {
				b.WriteString(p.Text)
			}
		}
		*c = Content{Text: b.String(), Parts: parts, Set: true}
	default:
		return invalid("content", "Invalid type for 'content': expected one of a string or an array of objects, but got %s instead.", jsonKind(data))
	}
	return nil
}

// MarshalJSON writes the content back in the form it came in.
func (c Content) MarshalJSON() ([]byte, error) {
	switch {
	case !c.Set:
		return []byte("null"), nil
	case c.Parts != nil:
		return json.Marshal(c.Parts)
	default:
		return json.Marshal(c.Text)
	}
}

// ToolCall is one entry of an assistant message's tool_calls.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the function a tool call invokes. Arguments is the
// JSON text of the arguments; the API requires it to be present.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// UnmarshalJSON rejects a function call without an arguments string, as the
// real API does, and unknown fields.
func (f *FunctionCall) UnmarshalJSON(data []byte) error {
	var raw struct {
		Name      string  `json:"name"`
		Arguments *string `json:"arguments"`
	}
	if err := strictUnmarshal(data, &raw); err != nil {
		return err
	}
	if raw.Arguments == nil {
		return invalid("function.arguments", "Missing required parameter: 'tool_calls[].function.arguments'.")
	}
	*f = FunctionCall{Name: raw.Name, Arguments: *raw.Arguments}
	return nil
}

// Tool is one entry of Request.Tools.
type Tool struct {
	Type     string       `json:"type"`
	Function *FunctionDef `json:"function,omitempty"`
	// Custom is accepted so a custom tool gets Validate's "type must be
	// function" answer rather than an unknown-field error.
	Custom json.RawMessage `json:"custom,omitempty"`
}

// FunctionDef describes a function tool.
type FunctionDef struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters,omitempty"`
	Strict      *bool          `json:"strict,omitempty"`
}

// HasTool reports whether the request offers a function tool of that name.
func (r *Request) HasTool(name string) bool {
	return slices.ContainsFunc(r.Tools, func(t Tool) bool {
		return t.Function != nil && t.Function.Name == name
	})
}

// LastUser is the index of the request's last user message, or -1: where
// the current turn starts.
func (r *Request) LastUser() int {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return i
		}
	}
	return -1
}

// LastUserText is the text of the request's last user message ("" if none):
// what a script answers.
func (r *Request) LastUserText() string {
	if i := r.LastUser(); i >= 0 {
		return r.Messages[i].Text()
	}
	return ""
}

// AsksForSummary reports whether the request is the context window's
// request to summarise older turns (its first message, the system prompt,
// is contextwin.SummaryInstruction): a script answers it with a summary,
// not as a turn, whatever markers the summarised turns hold.
func (r *Request) AsksForSummary() bool {
	return len(r.Messages) > 0 && contextwin.IsSummaryRequest(r.Messages[0].Text())
}

// maxBody bounds the request bodies the server reads.
const maxBody = 16 << 20

// DecodeRequest reads a chat completion request strictly: the body must be
// one JSON object, and unknown fields, at the top level or inside messages
// and tools, are rejected. Errors are *APIError with status 400. It does
// not check the request's meaning; see Validate.
func DecodeRequest(r io.Reader) (*Request, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxBody+1))
	if err != nil {
		return nil, invalid("", "Could not read the request body: %v", err)
	}
	if len(data) > maxBody {
		return nil, invalid("", "The request body is too large.")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, invalid("", "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)")
	}
	for _, k := range sortedKeys(top) {
		if !knownFields()[k] {
			return nil, invalid(k, "Unrecognized request argument supplied: %s", k)
		}
	}
	var req Request
	if err := strictUnmarshal(data, &req); err != nil {
		var apiErr *APIError
		if errors.As(err, &apiErr) {
			return nil, apiErr
		}
		return nil, invalid("", "Invalid request body: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return &req, nil
}

// knownFields holds the top-level JSON names of Request.
var knownFields = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	t := reflect.TypeFor[Request]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		m[name] = true
	}
	return m
})

// strictUnmarshal decodes one JSON value, rejecting unknown fields.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// jsonKind names the JSON type of a raw value the way the API's messages do.
func jsonKind(data []byte) string {
	if len(data) == 0 {
		return "nothing"
	}
	switch data[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
