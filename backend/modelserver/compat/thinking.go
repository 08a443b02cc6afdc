package compat

import "fmt"

// checkReasoning checks the reasoning passed back on assistant messages.
// A thinking server answers as DeepSeek's thinking mode does when an
// assistant message of the current turn (after the last user message)
// that made tool calls comes back without its reasoning_content; any other
// server refuses the field as unknown, as strict servers do.
func checkReasoning(req *Request, thinking bool) *APIError {
	turn := req.LastUser() + 1
	for i, m := range req.Messages {
		if !thinking {
			if m.ReasoningContent != nil {
				return invalid(fmt.Sprintf("messages.[%d].reasoning_content", i),
					"Additional properties are not allowed ('reasoning_content' was unexpected) - 'messages.%d'", i)
			}
			continue
		}
		if i >= turn && m.Role == "assistant" && len(m.ToolCalls) > 0 &&
			(m.ReasoningContent == nil || *m.ReasoningContent == "") {
			return invalid("", "The `reasoning_content` in the thinking mode must be passed back to the API.")
		}
	}
	return nil
}
