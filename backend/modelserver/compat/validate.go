package compat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Validate checks a decoded request the way the real Chat Completions API
// does and returns the *APIError (status 400) the API would answer with, or
// nil. Messages follow OpenAI's where known. Validate is stricter than
// OpenAI in two places, both of which some compatible servers reject: an
// assistant message must have non-empty content or tool calls, and n must
// be 1 (the server makes one choice).
func Validate(req *Request) error {
	if req == nil {
		return invalid("", "The request body is empty.")
	}
	if req.Model == "" {
		return invalid("model", "you must provide a model parameter")
	}
	if err := validateMessages(req.Messages); err != nil {
		return err
	}
	for i, m := range req.Messages {
		if err := validateImages(req.Model, i, m); err != nil {
			return err
		}
	}
	if err := validateTools(req); err != nil {
		return err
	}
	return validateOptions(req)
}

var roles = []string{"system", "developer", "user", "assistant", "tool"}

// partTypes lists the content part types each role may send.
var partTypes = map[string][]string{
	"system":    {"text"},
	"developer": {"text"},
	"user":      {"text", "image_url", "input_audio", "file"},
	"assistant": {"text", "refusal"},
	"tool":      {"text"},
}

func validateMessages(msgs []Message) error {
	if msgs == nil {
		return invalid("messages", "Missing required parameter: 'messages'.")
	}
	if len(msgs) == 0 {
		return invalid("messages", "[] is too short - 'messages'")
	}
	// pending holds the tool call ids of the last assistant message that
	// have not been answered yet; owner is that message's index.
	var pending []string
	owner := -1
	for i, m := range msgs {
		if err := validateMessage(i, m); err != nil {
			return err
		}
		if m.Role == "tool" {
			j := slices.Index(pending, m.ToolCallID)
			if j < 0 {
				return invalid(fmt.Sprintf("messages.[%d].role", i),
					"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (tool_call_id %q answers no unanswered tool call of the assistant message directly before it)", m.ToolCallID)
			}
			pending = slices.Delete(pending, j, j+1)
			continue
		}
		if len(pending) > 0 {
			return unanswered(owner, pending)
		}
		if m.Role == "assistant" && len(m.ToolCalls) > 0 {
			owner = i
			for _, tc := range m.ToolCalls {
				pending = append(pending, tc.ID)
			}
		} else {
			// A tool message after anything but tool_calls and their
			// results answers nothing.
			pending, owner = nil, -1
		}
	}
	if len(pending) > 0 {
		return unanswered(owner, pending)
	}
	return nil
}

func unanswered(owner int, ids []string) error {
	return invalid(fmt.Sprintf("messages.[%d].role", owner),
		"An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s",
		strings.Join(ids, ", "))
}

func validateMessage(i int, m Message) error {
	at := func(field string) string { return fmt.Sprintf("messages[%d].%s", i, field) }
	if m.Role == "" {
		return invalid(at("role"), "Missing required parameter: '%s'.", at("role"))
	}
	if !slices.Contains(roles, m.Role) {
		return invalid(at("role"), "Invalid value: '%s'. Supported values are: 'system', 'assistant', 'user', 'tool', and 'developer'.", m.Role)
	}
	for j, p := range m.Content.Parts {
		if !slices.Contains(partTypes[m.Role], p.Type) {
			return invalid(at(fmt.Sprintf("content[%d].type", j)),
				"Invalid value: '%s'. Supported values for role '%s' are: '%s'.", p.Type, m.Role, strings.Join(partTypes[m.Role], "', '"))
		}
	}
	if len(m.ToolCalls) > 0 && m.Role != "assistant" {
		return invalid(at("tool_calls"), "Additional properties are not allowed ('tool_calls' was unexpected) - '%s'", fmt.Sprintf("messages.[%d]", i))
	}
	if m.ToolCallID != "" && m.Role != "tool" {
		return invalid(at("tool_call_id"), "Additional properties are not allowed ('tool_call_id' was unexpected) - '%s'", fmt.Sprintf("messages.[%d]", i))
	}
	switch m.Role {
	case "assistant":
		if len(m.ToolCalls) == 0 && m.Content.Text == "" && len(m.Content.Parts) == 0 {
			return invalid(at("content"), "Invalid value for '%s': an assistant message needs non-empty content or tool_calls.", at("content"))
		}
		return validateToolCalls(i, m.ToolCalls)
	case "tool":
		if m.ToolCallID == "" {
			return invalid(at("tool_call_id"), "Missing required parameter: '%s'.", at("tool_call_id"))
		}
	}
	if !m.Content.Set {
		return invalid(at("content"), "Invalid value for 'content': expected a string, got null.")
	}
	return nil
}

func validateToolCalls(i int, calls []ToolCall) error {
	seen := map[string]bool{}
	for j, tc := range calls {
		at := func(field string) string { return fmt.Sprintf("messages[%d].tool_calls[%d].%s", i, j, field) }
		switch {
		case tc.ID == "":
			return invalid(at("id"), "Missing required parameter: '%s'.", at("id"))
		case tc.Type != "function":
			return invalid(at("type"), "Invalid value: '%s'. Supported values are: 'function'.", tc.Type)
		case tc.Function.Name == "":
			return invalid(at("function.name"), "Missing required parameter: '%s'.", at("function.name"))
		case seen[tc.ID]:
			return invalid(at("id"), "Duplicate value for '%s': tool call id %q is used twice in one message.", at("id"), tc.ID)
		}
		seen[tc.ID] = true
	}
	return nil
}

var toolName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`) })

func validateTools(req *Request) error {
	if req.Tools != nil && len(req.Tools) == 0 {
		return invalid("tools", "[] is too short - 'tools'")
	}
	names := map[string]bool{}
	for i, t := range req.Tools {
		at := func(field string) string { return fmt.Sprintf("tools[%d].%s", i, field) }
		if t.Type != "function" {
			return invalid(at("type"), "Invalid value: '%s'. Supported values are: 'function'.", t.Type)
		}
		if t.Function == nil {
			return invalid(at("function"), "Missing required parameter: '%s'.", at("function"))
		}
		name := t.Function.Name
		if !toolName().MatchString(name) {
			return invalid(at("function.name"), "Invalid '%s': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.", at("function.name"))
		}
		if names[name] {
			return invalid(at("function.name"), "Duplicate function name '%s' in 'tools'.", name)
		}
		names[name] = true
		if t.Function.Parameters != nil {
			if msg := schemaProblem(t.Function.Parameters); msg != "" {
				return invalid(at("function.parameters"), "Invalid schema for function '%s': %s", name, msg)
			}
		}
	}
	return validateToolChoice(req.ToolChoice, names)
}

// schemaProblem describes what is wrong with a function's parameters
// schema, or returns "".
func schemaProblem(schema map[string]any) string {
	if t, _ := schema["type"].(string); t != "object" {
		return fmt.Sprintf(`schema must be a JSON Schema of 'type: "object"', got 'type: "%v"'.`, schema["type"])
	}
	props := map[string]any{}
	if p, ok := schema["properties"]; ok {
		if props, ok = p.(map[string]any); !ok {
			return "'properties' must be an object."
		}
		for name, s := range props {
			if _, ok := s.(map[string]any); !ok {
				return fmt.Sprintf("the schema of property '%s' must be an object.", name)
			}
		}
	}
	if r, ok := schema["required"]; ok {
		list, ok := r.([]any)
		if !ok {
			return "'required' must be an array of property names."
		}
		for _, v := range list {
			name, ok := v.(string)
			if !ok {
				return "'required' must be an array of property names."
			}
			if _, ok := props[name]; !ok {
				return fmt.Sprintf("'required' lists '%s', which is not in 'properties'.", name)
			}
		}
	}
	return ""
}

func validateToolChoice(raw json.RawMessage, names map[string]bool) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	if len(names) == 0 {
		return invalid("tool_choice", "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.")
	}
	var mode string
	if json.Unmarshal(raw, &mode) == nil {
		if !slices.Contains([]string{"none", "auto", "required"}, mode) {
			return invalid("tool_choice", "Invalid value: '%s'. Supported values are: 'none', 'auto', and 'required'.", mode)
		}
		return nil
	}
	var named struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := strictUnmarshal(raw, &named); err != nil || named.Type != "function" {
		return invalid("tool_choice", "Invalid value for 'tool_choice': expected 'none', 'auto', 'required' or {\"type\": \"function\", \"function\": {\"name\": ...}}.")
	}
	if !names[named.Function.Name] {
		return invalid("tool_choice", "Invalid value for 'tool_choice': function '%s' is not in 'tools'.", named.Function.Name)
	}
	return nil
}

func validateOptions(req *Request) error {
	if req.ParallelToolCalls != nil && len(req.Tools) == 0 {
		return invalid("parallel_tool_calls", "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.")
	}
	if req.StreamOptions != nil && !req.Stream {
		return invalid("stream_options", "The 'stream_options' parameter is only allowed when 'stream' is enabled.")
	}
	if t := req.Temperature; t != nil && (*t < 0 || *t > 2) {
		return invalid("temperature", "Invalid 'temperature': decimal out of range. Expected a value between 0 and 2, but got %v instead.", *t)
	}
	if p := req.TopP; p != nil && (*p < 0 || *p > 1) {
		return invalid("top_p", "Invalid 'top_p': decimal out of range. Expected a value between 0 and 1, but got %v instead.", *p)
	}
	limits := []struct {
		name string
		v    *int64
	}{{"max_tokens", req.MaxTokens}, {"max_completion_tokens", req.MaxCompletionTokens}}
	for _, l := range limits {
		if l.v != nil && *l.v < 1 {
			return invalid(l.name, "Invalid '%s': integer below minimum value. Expected a value >= 1, but got %d instead.", l.name, *l.v)
		}
	}
	if req.N != nil && *req.N != 1 {
		return invalid("n", "Invalid 'n': this server makes exactly one choice, got %d.", *req.N)
	}
	return nil
}
