package agent

import (
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// buildContext turns a stored conversation into the model's context: the
// system prompt, then every message the model may see, repaired so that the
// request is one the real API accepts whatever the history holds:
//   - Errand's own notices (RoleSystem) are left out;
//   - an assistant message with neither text nor tool calls is left out;
//   - each assistant message with tool calls is followed by exactly one tool
//     result per call id, in call order; a missing result is filled in,
//     a stray or duplicate one is dropped;
//   - in agent mode, a context that ends on a text-only assistant reply gets
//     the automatic nudge, so the model's turn follows a user turn.
func buildContext(system string, history []chat.Message, agentMode bool) []llm.Message {
	out := []llm.Message{{Role: chat.RoleSystem, Content: system}}
	for i := 0; i < len(history); i++ {
		m := history[i]
		switch m.Role {
		case chat.RoleUser:
			out = append(out, llm.Message{Role: chat.RoleUser, Content: m.Content})
		case chat.RoleAssistant:
			if m.Content == "" && len(m.ToolCalls) == 0 {
				continue
			}
			out = append(out, llm.Message{Role: chat.RoleAssistant, Content: m.Content, ToolCalls: m.ToolCalls})
			if len(m.ToolCalls) == 0 {
				continue
			}
			// Gather the results that follow this message.
			results := map[string]string{}
			j := i + 1
			for ; j < len(history) && (history[j].Role == chat.RoleTool || history[j].Role == chat.RoleSystem); j++ {
				if r := history[j]; r.Role == chat.RoleTool {
					if _, dup := results[r.ToolCallID]; !dup {
						results[r.ToolCallID] = r.Content
					}
				}
			}
			for _, c := range m.ToolCalls {
				content, ok := results[c.ID]
				if !ok {
					content = "No result was recorded for this call; it did not run to completion."
				}
				out = append(out, llm.Message{Role: chat.RoleTool, Content: content, ToolCallID: c.ID})
			}
			i = j - 1
		}
		// RoleSystem notices and stray tool messages are not for the model.
	}
	if last := out[len(out)-1]; agentMode && last.Role == chat.RoleAssistant && len(last.ToolCalls) == 0 {
		out = append(out, llm.Message{Role: chat.RoleUser, Content: nudge})
	}
	return out
}

// openToolCalls returns the tool calls in msgs that have no result yet, in
// the order they were made.
func openToolCalls(msgs []chat.Message) []chat.ToolCall {
	answered := map[string]bool{}
	for _, m := range msgs {
		if m.Role == chat.RoleTool {
			answered[m.ToolCallID] = true
		}
	}
	var open []chat.ToolCall
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if !answered[c.ID] {
				open = append(open, c)
			}
		}
	}
	return open
}
