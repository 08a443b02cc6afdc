package contextwin

import (
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// SummaryInstruction is the system prompt of a summarisation request. A
// model server can tell such a request by it (the offline demo model does).
const SummaryInstruction = `You summarise the earlier part of a conversation between a person and Errand, an AI agent, so that the agent can continue the work with the summary in place of those messages. Keep: what the person asked for and every requirement they stated; decisions made; facts learnt (file names, paths, values, errors); what was done and what remains. Leave out pleasantries and anything repeated. Write plain text, at most 300 words. Reply with the summary only.`

// SummaryRequest is the model request that folds one chunk of rendered
// messages (see Render and Chunks) into the summary so far.
func SummaryRequest(sofar, chunk string) llm.Request {
	var b strings.Builder
	if sofar != "" {
		b.WriteString("Summary of the conversation before these messages:\n")
		b.WriteString(sofar)
		b.WriteString("\n\n")
	}
	b.WriteString("Messages to summarise:\n")
	b.WriteString(chunk)
	return llm.Request{Messages: []llm.Message{
		{Role: chat.RoleSystem, Content: SummaryInstruction},
		{Role: chat.RoleUser, Content: b.String()},
	}}
}

// IsSummaryRequest reports whether a request's system prompt is
// SummaryInstruction.
func IsSummaryRequest(system string) bool { return system == SummaryInstruction }
