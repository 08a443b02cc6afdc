package anthropictest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Request is a decoded POST /v1/messages body.
type Request struct {
	Model     string    `json:"model"`
	MaxTokens *int64    `json:"max_tokens"`
	System    Blocks    `json:"system"`
	Messages  []Message `json:"messages"`
	Tools     []Tool    `json:"tools"`
	Stream    bool      `json:"stream"`
	Thinking  *Thinking `json:"thinking"`
	// Raw is the body as sent.
	Raw json.RawMessage `json:"-"`
}

// Message is one turn.
type Message struct {
	Role    string `json:"role"`
	Content Blocks `json:"content"`
}

// Blocks is a content field: an array of blocks, or a string that stands
// for one text block (the API takes both).
type Blocks []Block

// UnmarshalJSON reads either form.
func (b *Blocks) UnmarshalJSON(data []byte) error {
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte(`"`)) {
		var text string
		if err := json.Unmarshal(data, &text); err != nil {
			return err
		}
		*b = Blocks{{Type: "text", Text: text}}
		return nil
	}
	var list []Block
	if err := json.Unmarshal(data, &list); err != nil {
		return err
	}
	*b = list
	return nil
}

// Block is a content block of any type.
type Block struct {
	Type         string          `json:"type"`
	Text         string          `json:"text,omitempty"`
	Thinking     string          `json:"thinking,omitempty"`
	Signature    string          `json:"signature,omitempty"`
	Data         string          `json:"data,omitempty"`
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	Content      Blocks          `json:"content,omitempty"`
	IsError      bool            `json:"is_error,omitempty"`
	CacheControl *CacheControl   `json:"cache_control,omitempty"`
	// Source is an image block's image.
	Source *ImageSource `json:"source,omitempty"`
}

// ImageSource is an image block's source: base64 data of a media type.
type ImageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

// checkImages checks every image block, in a turn or a tool result, as
// the real API does: a base64 source of an allowed media type whose data
// decodes.
func checkImages(msgs []Message) error {
	var check func(at string, blocks Blocks) error
	check = func(at string, blocks Blocks) error {
		for j, b := range blocks {
			where := fmt.Sprintf("%s.%d", at, j)
			if b.Type == "tool_result" {
				if err := check(where+".content", b.Content); err != nil {
					return err
				}
			}
			if b.Type != "image" {
				continue
			}
			src := b.Source
			switch {
			case src == nil:
				return fmt.Errorf("%s.source: Field required", where)
			case src.Type != "base64":
				return fmt.Errorf("%s.source.type: this scripted server takes base64 images only", where)
			case src.MediaType != "image/jpeg" && src.MediaType != "image/png" && src.MediaType != "image/gif" && src.MediaType != "image/webp":
				return fmt.Errorf("%s.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'", where)
			}
			if _, err := base64.StdEncoding.DecodeString(src.Data); err != nil || src.Data == "" {
				return fmt.Errorf("%s.source.base64.data: The image data is not valid base64", where)
			}
		}
		return nil
	}
	for i, m := range msgs {
		if err := check(fmt.Sprintf("messages.%d.content", i), m.Content); err != nil {
			return err
		}
	}
	return nil
}

// CacheControl marks a cache breakpoint.
type CacheControl struct {
	Type string `json:"type"`
	TTL  string `json:"ttl,omitempty"`
}

// Tool is a tool definition.
type Tool struct {
	Name         string         `json:"name"`
	Description  string         `json:"description,omitempty"`
	InputSchema  map[string]any `json:"input_schema"`
	CacheControl *CacheControl  `json:"cache_control,omitempty"`
}

// Thinking is the thinking configuration.
type Thinking struct {
	Type         string `json:"type"`
	BudgetTokens int64  `json:"budget_tokens"`
	Display      string `json:"display,omitempty"`
}

// ThinkingOn reports whether the request asked for extended thinking.
func (r *Request) ThinkingOn() bool { return r.Thinking != nil && r.Thinking.Type == "enabled" }

// LastUserText is the text of the last user turn's text blocks.
func (r *Request) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if m := r.Messages[i]; m.Role == "user" {
			var parts []string
			for _, b := range m.Content {
				if b.Type == "text" {
					parts = append(parts, b.Text)
				}
			}
			return strings.Join(parts, "\n")
		}
	}
	return ""
}

// ToolResults counts the tool_result blocks in the request.
func (r *Request) ToolResults() int {
	n := 0
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if b.Type == "tool_result" {
				n++
			}
		}
	}
	return n
}

// decode reads a body strictly: unknown fields are refused.
func decode(body []byte) (*Request, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("There was an issue with your request body: %v", err)
	}
	known := map[string]bool{"model": true, "max_tokens": true, "system": true, "messages": true,
		"tools": true, "stream": true, "thinking": true, "metadata": true, "tool_choice": true,
		"temperature": true, "stop_sequences": true}
	for k := range raw {
		if !known[k] {
			return nil, fmt.Errorf("%s: Extra inputs are not permitted", k)
		}
	}
	norm, _ := json.Marshal(raw)
	dec := json.NewDecoder(bytes.NewReader(norm))
	dec.DisallowUnknownFields()
	var req Request
	if err := dec.Decode(&req); err != nil {
		return nil, fmt.Errorf("There was an issue with your request body: %v", err)
	}
	req.Raw = body
	return &req, nil
}

// errThinkingMissing is the real API's 400 for an assistant turn whose
// tool calls come back without their thinking while thinking is on.
func errThinkingMissing(i int, found string) error {
	return fmt.Errorf("messages.%d.content.0.type: Expected `thinking` or `redacted_thinking`, but found `%s`. "+
		"When `thinking` is enabled, a final `assistant` message must start with a thinking block "+
		"(preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include "+
		"thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult "+
		"our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking", i, found)
}

// validate checks a request as the real API does.
func (s *Server) validate(r *Request) error {
	switch {
	case r.Model == "":
		return errors.New("model: Field required")
	case r.MaxTokens == nil:
		return errors.New("max_tokens: Field required")
	case *r.MaxTokens < 1:
		return errors.New("max_tokens: Input should be greater than or equal to 1")
	case len(r.Messages) == 0:
		return errors.New("messages: at least one message is required")
	case !r.Stream:
		return errors.New("this scripted server streams only: stream must be true")
	}
	if t := r.Thinking; t != nil && t.Type == "enabled" {
		if t.BudgetTokens < 1024 {
			return errors.New("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024")
		}
		if t.BudgetTokens >= *r.MaxTokens {
			return errors.New("`max_tokens` must be greater than `thinking.budget_tokens`")
		}
	}
	for _, b := range r.System {
		if b.Type != "text" || b.Text == "" {
			return errors.New("system: text content blocks must be non-empty")
		}
	}
	for i, t := range r.Tools {
		if t.Name == "" || t.InputSchema["type"] != "object" {
			return fmt.Errorf("tools.%d: a tool needs a name and an input_schema of type object", i)
		}
	}
	if err := checkTurns(r.Messages); err != nil {
		return err
	}
	if err := checkImages(r.Messages); err != nil {
		return err
	}
	if err := checkThinking(r); err != nil {
		return err
	}
	if n := breakpoints(r); n > 4 {
		return fmt.Errorf("A maximum of 4 blocks with cache_control may be provided. Found %d.", n)
	}
	return nil
}

// checkTurns checks alternation, non-empty content and the pairing of
// tool_use with tool_result.
func checkTurns(msgs []Message) error {
	if msgs[0].Role != "user" {
		return errors.New("messages: first message must use the \"user\" role")
	}
	for i, m := range msgs {
		if m.Role != "user" && m.Role != "assistant" {
			return fmt.Errorf("messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
		if i > 0 && msgs[i-1].Role == m.Role {
			return fmt.Errorf("messages: roles must alternate between \"user\" and \"assistant\", but found multiple %q roles in a row", m.Role)
		}
		if len(m.Content) == 0 && i != len(msgs)-1 {
			return fmt.Errorf("messages.%d: all messages must have non-empty content except for the optional final assistant message", i)
		}
		for j, b := range m.Content {
			if b.Type == "text" && b.Text == "" {
				return fmt.Errorf("messages.%d.content.%d.text: text content blocks must be non-empty", i, j)
			}
		}
		if err := checkResults(msgs, i); err != nil {
			return err
		}
	}
	return nil
}

// checkResults checks that message i's tool_use blocks are all answered at
// the start of the next message, and that its tool_result blocks answer the
// previous one's.
func checkResults(msgs []Message, i int) error {
	m := msgs[i]
	if m.Role == "assistant" {
		var missing []string
		for _, b := range m.Content {
			if b.Type == "tool_use" && !hasResult(msgs, i+1, b.ID) {
				missing = append(missing, b.ID)
			}
		}
		if len(missing) > 0 && i+1 < len(msgs) {
			return fmt.Errorf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. "+
				"Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i, strings.Join(missing, ", "))
		}
		return nil
	}
	seenOther := false
	for j, b := range m.Content {
		if b.Type != "tool_result" {
			seenOther = true
			continue
		}
		if seenOther {
			return fmt.Errorf("messages.%d.content.%d: tool_result blocks must come first in a user message", i, j)
		}
		if i == 0 || !hasUse(msgs[i-1], b.ToolUseID) {
			return fmt.Errorf("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. "+
				"Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, j, b.ToolUseID)
		}
	}
	return nil
}

func hasResult(msgs []Message, i int, id string) bool {
	if i >= len(msgs) {
		return false
	}
	for _, b := range msgs[i].Content {
		if b.Type == "tool_result" && b.ToolUseID == id {
			return true
		}
	}
	return false
}

func hasUse(m Message, id string) bool {
	for _, b := range m.Content {
		if b.Type == "tool_use" && b.ID == id {
			return true
		}
	}
	return false
}

// checkThinking: with thinking on, each assistant message of the current
// turn (after the person's last text) that made tool calls must start with
// a thinking block the server signed; any thinking block sent must carry
// its signature.
func checkThinking(r *Request) error {
	for i, m := range r.Messages {
		for j, b := range m.Content {
			if b.Type == "thinking" && b.Signature != sign(b.Thinking) {
				return fmt.Errorf("messages.%d.content.%d: Invalid `signature` in `thinking` block", i, j)
			}
		}
	}
	if !r.ThinkingOn() {
		return nil
	}
	for i := turnStart(r.Messages); i < len(r.Messages); i++ {
		m := r.Messages[i]
		if m.Role != "assistant" || !hasToolUse(m) {
			continue
		}
		if first := m.Content[0].Type; first != "thinking" && first != "redacted_thinking" {
			return errThinkingMissing(i, first)
		}
	}
	return nil
}

// turnStart is the index after the last user message with anything but
// tool results.
func turnStart(msgs []Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		for _, b := range msgs[i].Content {
			if b.Type != "tool_result" {
				return i + 1
			}
		}
	}
	return 0
}

func hasToolUse(m Message) bool {
	for _, b := range m.Content {
		if b.Type == "tool_use" {
			return true
		}
	}
	return false
}
