package agent

import (
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// CompactLength is the context length at or below which a task is given
// the compact form of Errand's instructions and tools (CompactRules,
// compactTools): the same tools and rules in at most about 1,000 tokens,
// so that a small model keeps room for the work itself.
const CompactLength = 8192

// CompactRules are AgenticRules for a small model.
const CompactRules = `## Agentic Mode
Work through the task on your own, step by step, with the tools.
- Multi-step work: first call update_plan (steps; note: success criteria) and keep it current.
- send_update reports progress; ask_user asks the user when you need them (never guess).
- On an error, explain it and try to recover.
- When the work is really done, call task_complete with a summary (or end your reply with ` + DoneMarker + `).`

// CompactSystemPrompt is AgentSystemPrompt for a small model.
const CompactSystemPrompt = "You are Errand, an AI agent working on a task for the user in a desktop app.\n\n" + CompactRules

// compactMemoryHowTo is memoryHowTo for a small model.
const compactMemoryHowTo = `- remember / forget: keep (key, value; scope "conversation" or "global") or drop a fact the user wants kept. Never secrets.`

// shortDescriptions are the compact descriptions of Errand's own tools.
// A tool not listed (an MCP server's) keeps the first sentence of its own.
var shortDescriptions = map[string]string{
	ToolTaskComplete:    "Finish the task, with a summary for the user.",
	ToolAskUser:         "Ask the user and wait for the answer. choices: one-click answers; fields: a form.",
	ToolSendUpdate:      "Send the user a progress message and keep working.",
	ToolRemember:        "Remember a fact for later requests. Never secrets.",
	ToolForget:          "Forget a remembered fact by its key.",
	ToolUpdatePlan:      "Write or revise the whole plan. note: the success criteria.",
	ToolReflect:         "Answer a reflection: is the goal achieved, what is still open.",
	ToolEndConversation: "End the conversation early, with the reason for the user.",
	"list_files":        "List a folder of the workspace.",
	"read_file":         "Read a text file of the workspace.",
	"search_text":       "Search the workspace's files for a string; returns file:line: text.",
	"write_file":        "Create or replace a file of the workspace.",
	"edit_file":         "Replace old_text, which must appear exactly once, with new_text in a workspace file.",
	"run_command":       "Run a bash command in the workspace; returns exit code and output.",
	"fetch_url":         "Fetch an http(s) URL as text.",
}

// small reports whether a run gives its model the compact instructions
// and tools: when the model's context is CompactLength or less.
func (rn *run) small(settings chat.Settings) bool {
	return rn.contextLength(settings) <= CompactLength
}

// compactTools are the tools in compact form: a short description, and
// the parameters without their descriptions. Errand still checks every
// call against the full schema.
func compactTools(tools []llm.Tool) []llm.Tool {
	out := make([]llm.Tool, len(tools))
	for i, t := range tools {
		desc, ok := shortDescriptions[t.Name]
		if !ok {
			desc = firstSentence(t.Description)
		}
		schema, _ := bareSchema(t.Parameters).(map[string]any)
		out[i] = llm.Tool{Name: t.Name, Description: desc, Parameters: schema}
	}
	return out
}

// optionalExtras are optional parameters a small model does without: the
// composer's state a question or update may set, and a form field's
// placeholder and bounds.
var optionalExtras = map[string]bool{"input": true, "placeholder": true, "min": true, "max": true}

// bareSchema is a JSON schema without its descriptions, without
// "additionalProperties" and without the optionalExtras: what a model
// needs to call the tool right.
func bareSchema(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			switch k {
			case "description", "additionalProperties":
				continue
			case "properties":
				// Parameter names are not keywords: only their schemas are cut.
				props, ok := x.(map[string]any)
				if ok {
					bare := make(map[string]any, len(props))
					for name, p := range props {
						if !optionalExtras[name] {
							bare[name] = bareSchema(p)
						}
					}
					out[k] = bare
					continue
				}
			}
			out[k] = bareSchema(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = bareSchema(x)
		}
		return out
	default:
		return v
	}
}

// firstSentence is a description's first sentence, at most 160 characters.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return truncate(s, 160)
}
