package compat

import "encoding/json"

// Chunk is one event of a streamed reply, a "chat.completion.chunk".
type Chunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []ChunkChoice `json:"choices"`
	// Usage is set only on the last chunk, whose Choices is empty, when
	// the request asked for stream_options.include_usage.
	Usage *Usage `json:"usage,omitempty"`
}

// ChunkChoice is the single choice of a chunk. FinishReason is null until
// the choice's last chunk.
type ChunkChoice struct {
	Index        int             `json:"index"`
	Delta        Delta           `json:"delta"`
	Logprobs     json.RawMessage `json:"logprobs"`
	FinishReason *string         `json:"finish_reason"`
}

// Delta is what a chunk adds to the assistant message. Thinking servers
// add their reasoning in a field of its own: ReasoningContent (DeepSeek,
// GLM, Kimi, Qwen) or Reasoning (OpenRouter, Groq). Parts, when set, is
// sent as the content instead of Content: an array of parts, as Mistral
// sends its thinking replies.
type Delta struct {
	Role             string          `json:"role,omitempty"`
	Content          *string         `json:"content,omitempty"`
	ReasoningContent *string         `json:"reasoning_content,omitempty"`
	Reasoning        *string         `json:"reasoning,omitempty"`
	ToolCalls        []ToolCallDelta `json:"tool_calls,omitempty"`
	Parts            []DeltaPart     `json:"-"`
}

// DeltaPart is one part of content sent as an array: {"type":"text",
// "text":…} is answer, {"type":"thinking","thinking":[{"type":"text",
// "text":…}]} is reasoning.
type DeltaPart struct {
	Type     string      `json:"type"`
	Text     string      `json:"text,omitempty"`
	Thinking []DeltaPart `json:"thinking,omitempty"`
}

// deltaWire is Delta without its methods, and with content of any shape.
type deltaWire struct {
	Role             string          `json:"role,omitempty"`
	Content          json.RawMessage `json:"content,omitempty"`
	ReasoningContent *string         `json:"reasoning_content,omitempty"`
	Reasoning        *string         `json:"reasoning,omitempty"`
	ToolCalls        []ToolCallDelta `json:"tool_calls,omitempty"`
}

// MarshalJSON writes Parts, when set, as the content.
func (d Delta) MarshalJSON() ([]byte, error) {
	w := deltaWire{Role: d.Role, ReasoningContent: d.ReasoningContent, Reasoning: d.Reasoning, ToolCalls: d.ToolCalls}
	var err error
	switch {
	case d.Parts != nil:
		w.Content, err = json.Marshal(d.Parts)
	case d.Content != nil:
		w.Content, err = json.Marshal(*d.Content)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads content as a string or as an array of parts.
func (d *Delta) UnmarshalJSON(data []byte) error {
	var w deltaWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*d = Delta{Role: w.Role, ReasoningContent: w.ReasoningContent, Reasoning: w.Reasoning, ToolCalls: w.ToolCalls}
	switch {
	case len(w.Content) > 0 && w.Content[0] == '[':
		return json.Unmarshal(w.Content, &d.Parts)
	case len(w.Content) > 0 && w.Content[0] == '"':
		return json.Unmarshal(w.Content, &d.Content)
	}
	return nil
}

// ToolCallDelta is a piece of one tool call. The first piece of a call
// carries ID, Type and the function name; later ones only add arguments.
type ToolCallDelta struct {
	Index    int           `json:"index"`
	ID       string        `json:"id,omitempty"`
	Type     string        `json:"type,omitempty"`
	Function FunctionDelta `json:"function"`
}

// FunctionDelta is the function part of a ToolCallDelta.
type FunctionDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// Usage is the token usage of one reply, as the API reports it.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
	// PromptTokensDetails tells the part of the prompt read from the
	// server's cache (sent when a reply's usage has cache reads).
	PromptTokensDetails *PromptTokensDetails `json:"prompt_tokens_details,omitempty"`
}

// PromptTokensDetails is usage.prompt_tokens_details.
type PromptTokensDetails struct {
	CachedTokens int64 `json:"cached_tokens"`
}

// Completion is the response to a request with stream false.
type Completion struct {
	ID      string             `json:"id"`
	Object  string             `json:"object"`
	Created int64              `json:"created"`
	Model   string             `json:"model"`
	Choices []CompletionChoice `json:"choices"`
	Usage   Usage              `json:"usage"`
}

// CompletionChoice is the single choice of a Completion.
type CompletionChoice struct {
	Index        int             `json:"index"`
	Message      ReplyMessage    `json:"message"`
	Logprobs     json.RawMessage `json:"logprobs"`
	FinishReason string          `json:"finish_reason"`
}

// ReplyMessage is the assistant message of a Completion. Content is null
// when the reply has tool calls and no text.
type ReplyMessage struct {
	Role             string     `json:"role"`
	Content          *string    `json:"content"`
	ReasoningContent *string    `json:"reasoning_content,omitempty"`
	Refusal          *string    `json:"refusal"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
}

// ModelList is the response to GET /v1/models.
type ModelList struct {
	Object string      `json:"object"`
	Data   []ModelInfo `json:"data"`
}

// ModelInfo is one entry of a ModelList.
type ModelInfo struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}
