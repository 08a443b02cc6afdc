package agent

import (
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// buildContext turns a stored conversation into the model's context: the
// system prompt, then every message the model may see (see turns), and in
// agent mode the automatic nudge after a text-only reply.
func buildContext(system string, history []chat.Message, agentMode bool, files Files) []llm.Message {
	out := []llm.Message{{Role: chat.RoleSystem, Content: system}}
	for _, t := range turns(history, files) {
		out = append(out, t.msgs...)
	}
	return withNudge(out, agentMode)
}

// withNudge adds the automatic nudge, in agent mode, to a context that ends
// on a text-only assistant reply, so the model's turn follows a user turn.
func withNudge(out []llm.Message, agentMode bool) []llm.Message {
	if last := out[len(out)-1]; agentMode && last.Role == chat.RoleAssistant && len(last.ToolCalls) == 0 {
		out = append(out, llm.Message{Role: chat.RoleUser, Content: nudge})
	}
	return out
}

// turn is messages the model sees together or not at all: a user message,
// an assistant reply, or an assistant's tool calls with their results.
type turn struct {
	msgs []llm.Message
	// src are the stored messages the turn was made of (nil for a result
	// filled in), index for index with msgs.
	src []*chat.Message
	// seq is the Seq of the last stored message the turn covers.
	seq int64
}

// turns groups a stored history into turns, repaired so that the request
// is one the real API accepts whatever the history holds:
//   - Errand's own notices (RoleSystem) are left out;
//   - an assistant message with neither text nor tool calls is left out;
//   - each assistant message with tool calls is followed by exactly one tool
//     result per call id, in call order; a missing result is filled in,
//     a stray or duplicate one is dropped.
//
// The assistant messages of the current turn (after the last user message)
// that made tool calls carry their reasoning: thinking models need it back
// there (DeepSeek's thinking mode, Anthropic's extended thinking), and
// older turns' reasoning would only spend the budget.
//
// A person's message carries its files (see withFiles), a tool result the
// images it returned (withToolImages); files may be nil.
func turns(history []chat.Message, files Files) []turn {
	var out []turn
	current := 0
	for i, m := range history {
		if m.Role == chat.RoleUser {
			current = i + 1
		}
	}
	for i := 0; i < len(history); i++ {
		m := &history[i]
		switch m.Role {
		case chat.RoleUser:
			out = append(out, turn{msgs: []llm.Message{withFiles(files, m)}, src: []*chat.Message{m}, seq: m.Seq})
		case chat.RoleAssistant:
			// A reply cut off when Errand closed is not shown to the model:
			// the resumed step writes it again, whole.
			if len(m.ToolCalls) == 0 && (m.Content == "" || m.Outcome == chat.OutcomeCutOff) {
				continue
			}
			t := turn{msgs: []llm.Message{{Role: chat.RoleAssistant, Content: m.Content, ToolCalls: m.ToolCalls}}, src: []*chat.Message{m}, seq: m.Seq}
			if len(m.ToolCalls) == 0 {
				out = append(out, t)
				continue
			}
			if i >= current {
				t.msgs[0].Reasoning, t.msgs[0].ReasoningData = m.Reasoning, m.ReasoningData
			}
			// Gather the results that follow this message.
			results := map[string]*chat.Message{}
			j := i + 1
			for ; j < len(history) && (history[j].Role == chat.RoleTool || history[j].Role == chat.RoleSystem); j++ {
				if r := &history[j]; r.Role == chat.RoleTool {
					if _, dup := results[r.ToolCallID]; !dup {
						results[r.ToolCallID] = r
					}
				}
				t.seq = history[j].Seq
			}
			for _, c := range m.ToolCalls {
				r, ok := results[c.ID]
				content := "No result was recorded for this call; it did not run to completion."
				if ok {
					content = r.Content
				}
				t.msgs = append(t.msgs, withToolImages(files, llm.Message{Role: chat.RoleTool, Content: content, ToolCallID: c.ID}))
				t.src = append(t.src, r)
			}
			out = append(out, t)
			i = j - 1
		}
		// RoleSystem notices and stray tool messages are not for the model.
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
